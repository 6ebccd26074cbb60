//! `citestore list`: citations by current status.

use super::{aligned, Context as CliContext, Exit};
use crate::store::{CitationState, Store};

/// List citations whose current status is STATUS (after the latest sweep).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// intact, moved, degraded or lost.
    #[arg(long, value_parser = ["intact", "moved", "degraded", "lost"])]
    status: String,

    /// Only this document.
    #[arg(long = "doc", value_name = "DOC_ID")]
    doc: Option<String>,

    /// Print JSON Lines, one citation state per line.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let store = Store::open_read(&ctx.db)?;
    if let Some(doc) = &args.doc {
        store.require_document(doc)?;
    }
    let states: Vec<CitationState> = store
        .all_states(args.doc.as_deref())?
        .into_iter()
        .filter(|s| s.status == args.status)
        .collect();
    if args.json {
        for s in &states {
            println!("{}", serde_json::to_string(s)?);
        }
        return Ok(Exit::Ok);
    }
    let mut rows = vec![[
        "CITATION", "DOC", "REV", "SPAN", "METHOD", "SCORE", "REASON",
    ]
    .map(String::from)
    .to_vec()];
    for s in &states {
        rows.push(vec![
            s.citation_id.clone(),
            s.doc_id.clone(),
            format!("r{}", s.revision),
            format!("[{}, {})", s.found_start, s.found_end),
            s.method.clone(),
            format!("{:.1}", s.score),
            s.reason.clone().unwrap_or_default(),
        ]);
    }
    print!("{}", aligned(&rows));
    println!("{} {} citations", states.len(), args.status);
    Ok(Exit::Ok)
}
