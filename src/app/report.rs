//! `report`: what a sweep did, as one self-contained HTML page written to a file.

use super::Env;
use crate::error::Result;
use crate::model::Status;
use crate::output_file::OutputFile;
use crate::report::{gather, html, Range, ReportOptions};
use crate::store::Store;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What to report on, and where to write it.
#[derive(Debug, Clone)]
pub struct ReportRequest {
    /// Which sweeps.
    pub range: Range,
    /// Only citations whose status is now one of these (all when empty).
    pub statuses: Vec<Status>,
    /// Only these documents (all when empty).
    pub docs: Vec<String>,
    /// At most this many citations in the page, worst first (0: all).
    pub limit: usize,
    /// The file to write.
    pub out: PathBuf,
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

/// A report written: what `--json` prints, and the page's title (for a one-line summary).
#[derive(Debug)]
pub struct Reported {
    /// The JSON shape.
    pub output: ReportOutput,
    /// The page's title, e.g. `Sweep 3`.
    pub title: String,
}

/// Gathers the report from a read-only store and writes the page; the target is checked
/// before any work, so a device, a folder or a read-only file is refused untouched.
pub fn run(env: &Env, req: &ReportRequest) -> Result<Reported> {
    let target = OutputFile::check(&req.out)?;
    let store = Store::open_read(&env.db)?;
    let options = ReportOptions {
        range: req.range.clone(),
        statuses: req.statuses.clone(),
        docs: req.docs.clone(),
        limit: req.limit,
        ..ReportOptions::default()
    };
    let report = gather(&store, &options, &env.now())?;
    let page = html::render(&report).map_err(|e| crate::error::Error::BadOutput {
        path: req.out.clone(),
        why: e.to_string(),
    })?;
    target.write(page.as_bytes())?;
    let output = ReportOutput {
        bytes: page.len() as u64,
        out: req.out.clone(),
        sweeps: report.sweeps.iter().map(|s| s.id).collect(),
        changed: report.changed,
        included: report.citations.len(),
        omitted: report.omitted,
        status: report.by_status.clone(),
        documents: report.documents.len(),
    };
    Ok(Reported {
        output,
        title: report.title,
    })
}
