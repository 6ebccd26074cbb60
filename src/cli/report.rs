//! `citestore report`: what a sweep did, as one HTML page.

use super::{counts, Context as CliContext, Exit};
use crate::model::Status;
use crate::output_file::OutputFile;
use crate::report::{gather, html, Range, ReportOptions};
use crate::store::Store;
use crate::text::plural;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
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
pub struct Args {
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

/// What `report --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct ReportOutput {
    /// The file written.
    pub out: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The sweeps covered.
    pub sweeps: Vec<i64>,
    /// Changed citations (matching the filters).
    pub changed: usize,
    /// Of those, how many are in the file.
    pub included: usize,
    /// Left out by `--limit`.
    pub omitted: usize,
    /// Changed citations by status now.
    pub status: BTreeMap<String, usize>,
    /// Documents with changed citations.
    pub documents: usize,
}

pub fn run(args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let range = match (args.sweep, &args.since) {
        (Some(id), _) => Range::Sweep(id),
        (None, Some(since)) => Range::since(since)?,
        (None, None) => Range::Latest,
    };
    // Checked before any work: a device, a folder or a read-only file is refused untouched.
    let target = OutputFile::check(&args.out)?;
    let store = Store::open_read(&ctx.db)?;
    let options = ReportOptions {
        range,
        statuses: args.status,
        docs: args.docs,
        limit: args.limit,
        ..ReportOptions::default()
    };
    let report = gather(&store, &options, &ctx.clock.timestamp())?;
    let page = html::render(&report)?;
    target.write(page.as_bytes())?;
    let out = ReportOutput {
        bytes: page.len() as u64,
        out: args.out,
        sweeps: report.sweeps.iter().map(|s| s.id).collect(),
        changed: report.changed,
        included: report.citations.len(),
        omitted: report.omitted,
        status: report.by_status.clone(),
        documents: report.documents.len(),
    };
    if args.json {
        println!("{}", serde_json::to_string(&out)?);
        return Ok(Exit::Ok);
    }
    println!(
        "wrote {} ({:.1} KB): {}, {} ({}) in {}{}",
        out.out.display(),
        out.bytes as f64 / 1024.0,
        report.title,
        plural(out.changed, "changed citation", "changed citations"),
        counts(&out.status),
        plural(out.documents, "document", "documents"),
        match out.omitted {
            0 => String::new(),
            n => format!("; {n} left out by --limit {}", options.limit),
        }
    );
    Ok(Exit::Ok)
}
