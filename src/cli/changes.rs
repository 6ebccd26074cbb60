//! `citestore changes`: what the nightly job changed.

use super::{aligned, Exit};
use crate::app::changes::{self, ChangesRequest, SpanState};
use crate::app::Env;
use crate::text::plural;

/// What changed since last night: citations whose status or span a sweep changed.
///
/// Lists each citation whose status or span changed in the sweeps after SINCE (a sweep id; 0
/// for every sweep), or started at or after SINCE (an RFC 3339 time or a YYYY-MM-DD date), with
/// its status and span before and after, its document, method and reason. Default: what the
/// latest sweep changed (since the sweep before it).
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// A sweep id (changes after it), or a time such as 2026-12-01T00:00:00Z or 2026-12-01.
    #[arg(long, value_name = "SWEEP_ID|TIMESTAMP")]
    since: Option<String>,

    /// Print JSON: `{"from_sweep", "to_sweep", "changes": [{"id", "row", "citation_id",
    /// "doc_id", "claim", "quote", "cited_text", "before": {"status", "revision", "start",
    /// "end"}, "after": {…}, "sweep", "score", "method", "reason"}], "revision_only": […]}`
    /// (`revision_only`: the same status and span, carried to a new revision).
    #[arg(long)]
    json: bool,
}

fn span(at: &SpanState) -> String {
    format!("{} r{} [{}, {})", at.status, at.revision, at.start, at.end)
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let out = changes::run(env, &ChangesRequest { since: args.since })?;
    let (from_sweep, to_sweep) = (out.from_sweep, out.to_sweep);
    if args.json {
        println!("{}", serde_json::to_string(&out)?);
        return Ok(Exit::Ok);
    }
    let mut rows = vec![["CITATION", "DOC", "BEFORE", "AFTER", "METHOD", "REASON"]
        .map(String::from)
        .to_vec()];
    for c in out.changes.iter().map(|c| &c.change) {
        rows.push(vec![
            c.citation_id.clone(),
            c.doc_id.clone(),
            span(&c.before),
            span(&c.after),
            c.method.to_string(),
            c.reason.clone().unwrap_or_default(),
        ]);
    }
    if !out.changes.is_empty() {
        print!("{}", aligned(&rows));
    }
    let n = out.changes.len();
    let sweeps = if from_sweep > to_sweep {
        "no sweep in that range".to_string()
    } else if from_sweep == to_sweep {
        format!("sweep {from_sweep}")
    } else {
        format!("sweeps {from_sweep}-{to_sweep}")
    };
    let carried = match out.revision_only.len() {
        0 => String::new(),
        m => format!(
            "; {m} more carried to a new revision with the same status and span (`--json` lists {})",
            if m == 1 { "it" } else { "them" }
        ),
    };
    println!(
        "{} changed in {sweeps}{carried}",
        plural(n, "citation", "citations")
    );
    Ok(Exit::Ok)
}
