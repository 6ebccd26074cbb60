//! `citestore list`: citations by current status.
//!
//! `--json` prints [`ListLine`](crate::output::ListLine)s: the store's citation state as it always was (`citation_id`,
//! `found_start`, …, kept for existing readers) plus the shared vocabulary of `export`: `id`
//! and `current{…}`.

use super::{padded, widen, Exit};
use crate::app::list::{self, CitationState, ListRequest};
use crate::app::Env;
use crate::model::Status;
use crate::output::stdout_lines;
use crate::text::plural;
use std::io::Write;

/// List citations, all or those whose current status is STATUS (after the latest sweep).
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Only these statuses, comma-separated: intact, moved, degraded, lost [default: all].
    #[arg(
        long,
        value_name = "STATUS[,STATUS…]",
        value_delimiter = ',',
        value_enum
    )]
    status: Vec<Status>,

    /// Only this document.
    #[arg(long = "doc", value_name = "DOC_ID")]
    doc: Option<String>,

    /// Print JSON Lines, one citation per line (the shape is in docs/json.md).
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let request = ListRequest {
        statuses: args.status.clone(),
        doc: args.doc.clone(),
    };
    // One snapshot, streamed row by row: memory does not grow with the number of citations.
    let mut out = stdout_lines();
    if args.json {
        list::run(env, &request, |line| -> anyhow::Result<()> {
            serde_json::to_writer(&mut out, &line)?;
            out.write_all(b"\n")?;
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
    // The header goes out once the widths are known: before the second pass's first row, or
    // after both passes when no citation matched.
    let mut header_written = false;
    list::states(env, &request, 2, |pass, s| -> anyhow::Result<()> {
        if pass == 0 {
            widen(&mut widths, &row(s));
            count += 1;
            return Ok(());
        }
        if !header_written {
            out.write_all(padded(&header, &widths).as_bytes())?;
            header_written = true;
        }
        out.write_all(padded(&row(s), &widths).as_bytes())?;
        Ok(())
    })?;
    if !header_written {
        out.write_all(padded(&header, &widths).as_bytes())?;
    }
    // "2 lost citations", "3 intact or moved citations", "5 citations".
    let which = Status::ALL
        .iter()
        .filter(|s| args.status.contains(s))
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(" or ");
    let which = if which.is_empty() {
        String::new()
    } else {
        format!("{which} ")
    };
    let (one, many) = (format!("{which}citation"), format!("{which}citations"));
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
        s.method.to_string(),
        format!("{:.1}", s.score),
        s.reason.clone().unwrap_or_default(),
    ]
}
