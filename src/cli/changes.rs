//! `citestore changes`: what the nightly job changed.

use super::{aligned, Context as CliContext, Exit};
use crate::report::{resolve, Range};
use crate::store::{ChangeSelection, ChangedCitation, SpanState, Store};
use crate::text::plural;
use serde::{Deserialize, Serialize};

/// What changed since last night: citations whose status or span a sweep changed.
///
/// Lists each citation whose status or span changed in the sweeps after SINCE (a sweep id; 0
/// for every sweep), or started at or after SINCE (an RFC 3339 time or a YYYY-MM-DD date), with
/// its status and span before and after, its document, method and reason. Default: what the
/// latest sweep changed (since the sweep before it).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A sweep id (changes after it), or a time such as 2026-12-01T00:00:00Z or 2026-12-01.
    #[arg(long, value_name = "SWEEP_ID|TIMESTAMP")]
    since: Option<String>,

    /// Print JSON: `{"from_sweep", "to_sweep", "changes": [{"id", "row", "citation_id",
    /// "doc_id", "claim", "quote", "cited_text", "before": {"status", "revision", "start",
    /// "end"}, "after": {…}, "sweep", "score", "method", "reason"}]}`.
    #[arg(long)]
    json: bool,
}

/// What `changes --json` prints, one JSON object.
///
/// Fields: `from_sweep`, `to_sweep`, `changes` (a list of [`ChangeLine`]).
#[derive(Debug, Serialize, Deserialize)]
pub struct ChangesOutput {
    /// First sweep looked at (greater than `to_sweep` when no sweep is in the range).
    pub from_sweep: i64,
    /// Last sweep looked at.
    pub to_sweep: i64,
    /// The citations whose status or span differs after those sweeps, by document.
    pub changes: Vec<ChangeLine>,
}

/// One changed citation in `changes --json`.
///
/// Fields: `id` (the citation id, as in `export`), and, as before `id` existed, `row`,
/// `citation_id` (= `id`), `doc_id`, `claim`, `quote`, `cited_text`, `before` and `after`
/// (`{status, revision, start, end}`), `sweep`, `score`, `method`, `reason`.
#[derive(Debug, Serialize, Deserialize)]
pub struct ChangeLine {
    /// Citation id.
    pub id: String,
    /// The change, under its older field names.
    #[serde(flatten)]
    pub change: ChangedCitation,
}

fn span(at: &SpanState) -> String {
    format!("{} r{} [{}, {})", at.status, at.revision, at.start, at.end)
}

pub fn run(args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let store = Store::open_read(&ctx.db)?;
    let range = match &args.since {
        Some(since) => Range::since(since)?,
        None => Range::Latest,
    };
    let (from_sweep, to_sweep, _) = resolve(&store, &range)?;
    let mut changes = store.changed_citations(&ChangeSelection {
        from_sweep,
        to_sweep,
        ..ChangeSelection::default()
    })?;
    // A citation moved and moved back within the range did not change.
    changes.retain(|c| c.before != c.after);
    changes.sort_by(|a, b| a.doc_id.cmp(&b.doc_id).then(a.row.cmp(&b.row)));
    let out = ChangesOutput {
        from_sweep,
        to_sweep,
        changes: changes
            .into_iter()
            .map(|change| ChangeLine {
                id: change.citation_id.clone(),
                change,
            })
            .collect(),
    };
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
            c.method.clone(),
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
    println!("{} changed in {sweeps}", plural(n, "citation", "citations"));
    Ok(Exit::Ok)
}
