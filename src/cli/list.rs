//! `citestore list`: citations by current status.

use super::{padded, widen, Context as CliContext, Exit};
use crate::store::{CitationState, Store};
use crate::text::plural;
use std::io::{BufWriter, Write};

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
    let mut store = Store::open_read(&ctx.db)?;
    if let Some(doc) = &args.doc {
        store.require_document(doc)?;
    }
    // One snapshot, streamed row by row: memory does not grow with the number of citations.
    let snapshot = store.read()?;
    let doc = args.doc.as_deref();
    let wanted = |s: &CitationState| s.status == args.status;
    let mut out = BufWriter::new(std::io::stdout().lock());
    if args.json {
        snapshot.for_each_state(doc, |s| -> anyhow::Result<()> {
            if wanted(&s) {
                serde_json::to_writer(&mut out, &s)?;
                out.write_all(b"\n")?;
            }
            Ok(())
        })?;
        out.flush()?;
        return Ok(Exit::Ok);
    }
    // Two passes over the same snapshot: the column widths, then the rows.
    let header = [
        "CITATION", "DOC", "REV", "SPAN", "METHOD", "SCORE", "REASON",
    ]
    .map(String::from);
    let mut widths = Vec::new();
    widen(&mut widths, &header);
    let mut count = 0usize;
    snapshot.for_each_state(doc, |s| -> anyhow::Result<()> {
        if wanted(&s) {
            widen(&mut widths, &row(&s));
            count += 1;
        }
        Ok(())
    })?;
    out.write_all(padded(&header, &widths).as_bytes())?;
    snapshot.for_each_state(doc, |s| -> anyhow::Result<()> {
        if wanted(&s) {
            out.write_all(padded(&row(&s), &widths).as_bytes())?;
        }
        Ok(())
    })?;
    let (one, many) = (
        format!("{} citation", args.status),
        format!("{} citations", args.status),
    );
    writeln!(out, "{}", plural(count, &one, &many))?;
    out.flush()?;
    Ok(Exit::Ok)
}

/// A citation's row in the table.
fn row(s: &CitationState) -> [String; 7] {
    [
        s.citation_id.clone(),
        s.doc_id.clone(),
        format!("r{}", s.revision),
        format!("[{}, {})", s.found_start, s.found_end),
        s.method.clone(),
        format!("{:.1}", s.score),
        s.reason.clone().unwrap_or_default(),
    ]
}
