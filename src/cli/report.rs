//! `citestore report`: what a sweep did, as one HTML page.

use super::{counts, Exit};
use crate::app::report::{self, ReportRequest};
use crate::app::Env;
use crate::model::Status;
use crate::report::Range;
use crate::text::plural;
use std::path::PathBuf;

/// Write an HTML page of what a sweep changed, to triage in a browser.
///
/// Write one self-contained HTML file (no network loads) about the latest sweep, one sweep
/// (`--sweep`), or every sweep since one or since a date (`--since`): counts by status and
/// method, the trend over recent sweeps, and every citation whose status or span changed, worst
/// first, with the claim, the quote, the old and new text side by side (changed characters
/// marked), and filters by status, document and text. Each citation has a link `#c-…` (the one
/// `citestore show` prints). The file holds at most `--limit` citations; the page says how many
/// were left out.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Report on this sweep [default: the latest].
    #[arg(long, value_name = "ID", conflicts_with = "since")]
    sweep: Option<i64>,

    /// Report on every sweep after sweep ID, or started at or after a date / RFC 3339 instant.
    #[arg(long, value_name = "SWEEP_ID|TIMESTAMP")]
    since: Option<String>,

    /// Only citations whose status is now one of these (comma-separated).
    #[arg(long, value_name = "S,...", value_delimiter = ',', value_enum)]
    status: Vec<Status>,

    /// Only this document (repeatable).
    #[arg(long = "doc", value_name = "ID")]
    docs: Vec<String>,

    /// At most this many citations in the file, worst first (0: all).
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = super::count_arg, default_value_t = 2000)]
    limit: usize,

    /// The file to write.
    #[arg(
        long,
        value_name = "FILE.html",
        default_value = "citestore-report.html"
    )]
    out: PathBuf,

    /// Print what was written as JSON.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let range = match (args.sweep, &args.since) {
        (Some(id), _) => Range::Sweep(id),
        (None, Some(since)) => Range::since(since)?,
        (None, None) => Range::Latest,
    };
    let request = ReportRequest {
        range,
        statuses: args.status,
        docs: args.docs,
        limit: args.limit,
        out: args.out,
    };
    let reported = report::run(env, &request)?;
    let out = &reported.output;
    if args.json {
        println!("{}", serde_json::to_string(&out)?);
        return Ok(Exit::Ok);
    }
    println!(
        "wrote {} ({:.1} KB): {}, {} ({}) in {}{}",
        out.out.display(),
        out.bytes as f64 / 1024.0,
        reported.title,
        plural(out.changed, "changed citation", "changed citations"),
        counts(&out.status),
        plural(out.documents, "document", "documents"),
        match out.omitted {
            0 => String::new(),
            n => format!("; {n} left out by --limit {}", request.limit),
        }
    );
    Ok(Exit::Ok)
}
