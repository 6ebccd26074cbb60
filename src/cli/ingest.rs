//! `citestore ingest`: store documents' text as revisions, chunking them when a chunker applies.

use super::{aligned, Exit};
use crate::app::ingest::{self, IngestProgress, IngestRequest};
use crate::app::Env;
use crate::chunk::caller;
use crate::chunk::ChunkSpec;
use crate::error::read_text_file;
use crate::extract::{ExtractOptions, Extractor};
use crate::ingest::{plan_bytes, IngestReport, Outcome, Planned};
use crate::text::plural;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Store files' text as document revisions; identical text creates nothing.
///
/// A folder is walked (hidden entries skipped): doc ids are paths relative to it, with `/`.
/// A file's doc id is its path as given, or --doc-id. Without PATH, the [[sources]] of
/// citestore.toml are ingested. Binary and empty files in a folder are skipped and listed; any
/// other bad file (e.g. not UTF-8) stops the command and nothing is written.
///
/// Extractors by extension: .html/.htm/.xhtml → html2text, .pdf → pdftotext (poppler) then
/// hyphenation repair, anything else → the bytes as they are (UTF-8).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  citestore --db cs.db ingest docs/ --chunker paragraph:1500\n  citestore ingest notes.txt --doc-id notes\n  citestore ingest guide.md --chunks guide.chunks.jsonl\n  citestore ingest report.docx --extract-cmd 'pandoc -t plain {}' --extract-version 3.1"
)]
pub(super) struct Args {
    /// Files or folders to ingest.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,

    /// The doc id of the one file given.
    #[arg(long, value_name = "ID")]
    doc_id: Option<String>,

    /// Chunk new revisions with SPEC (chars:SIZE:OVERLAP or paragraph:MAX), and re-chunk
    /// unchanged ones whose current chunking differs. Default: [chunker] in citestore.toml,
    /// else the spec a document was chunked with before.
    #[arg(long, value_name = "SPEC")]
    chunker: Option<String>,

    /// Store these chunks for the one file given instead of chunking it: JSON Lines, one
    /// `{"start", "end", "id"?, "text"?}` per line, offsets in chars (Python str indices);
    /// overlaps and gaps allowed; `id` (e.g. your vector-store id) is accepted by `context
    /// --chunk`; `text`, when given, must equal the file's text at the span.
    #[arg(long, value_name = "CHUNKS.jsonl", conflicts_with = "chunker")]
    chunks: Option<PathBuf>,

    /// Extract every file with this command (run by `sh -c`) instead; stdout is the text. `{}`,
    /// bare or quoted, stands for the file, which is passed as one argument ("$1", also
    /// $CITESTORE_FILE) and never pasted into the shell text; without `{}` the file is the last
    /// argument.
    #[arg(long, value_name = "CMD", requires = "extract_version")]
    extract_cmd: Option<String>,

    /// The version stamped beside the command's name (`NAME@VERSION`) on each revision.
    #[arg(long, value_name = "V", requires = "extract_cmd")]
    extract_version: Option<String>,

    /// Seconds one pdftotext or --extract-cmd run may take; past it the program and its
    /// children are killed and nothing is stored.
    #[arg(long, allow_negative_numbers = true, value_name = "SECONDS", default_value_t = crate::extract::DEFAULT_EXTRACT_TIMEOUT.as_secs_f64())]
    extract_timeout: f64,

    /// Print JSON: `{"documents":[{"doc_id","source","outcome","seq","extractor","chunking"}],
    /// "skipped":[{"path","reason"}]}`.
    #[arg(long)]
    json: bool,

    /// Print nothing on success (errors still go to stderr): no progress bar, no summary.
    #[arg(short, long, conflicts_with_all = ["json", "verbose"])]
    quiet: bool,

    /// Print a line per file (new, revised, unchanged or skipped) above the summary.
    #[arg(short, long, conflicts_with = "json")]
    verbose: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let explicit = args
        .chunker
        .as_deref()
        .map(str::parse::<ChunkSpec>)
        .transpose()?;
    let extract = ExtractOptions::with_timeout_secs(args.extract_timeout).map_err(|why| {
        anyhow::anyhow!(
            "--extract-timeout {}: {why}",
            crate::child::shown(args.extract_timeout)
        )
    })?;
    if let Some(template) = &args.extract_cmd {
        crate::extract::check_command(template)
            .map_err(|why| anyhow::anyhow!("--extract-cmd {template:?}: {why}"))?;
    }
    let extractor = args
        .extract_cmd
        .zip(args.extract_version)
        .map(|(template, version)| Extractor::Command { template, version });
    let chunks = match &args.chunks {
        Some(path) => Some(caller::parse_jsonl(
            &path.display().to_string(),
            &read_text_file(path)?,
        )?),
        None => None,
    };
    let request = IngestRequest {
        paths: args.paths,
        doc_id: args.doc_id,
        chunker: explicit,
        chunks,
        extractor,
        extract,
    };
    let mut bar = Bar {
        hidden: args.json || args.quiet,
        bar: None,
        files: 0,
    };
    let report = ingest::run(env, &request, &mut bar)?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else if !args.quiet {
        if args.verbose {
            print!("{}", per_file(&report));
        }
        println!("{}", summary(&report));
    }
    Ok(Exit::Ok)
}

/// The progress bar of an ingest, made when the files are known.
struct Bar {
    /// `--json` or `--quiet`: no bar.
    hidden: bool,
    bar: Option<ProgressBar>,
    /// Files to read.
    files: usize,
}

impl IngestProgress for Bar {
    fn planned(&mut self, files: &[Planned]) {
        self.files = files.len();
        self.bar = Some(progress_bar(files, self.hidden));
    }

    fn read(&mut self, done: usize, bytes: u64) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{done}/{}", self.files));
            bar.set_position(bytes);
        }
    }

    fn finished(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A bar over the bytes of `files` on stderr, with files done, rate and ETA; hidden in a pipe
/// and when `hidden` (`--json`, `--quiet`), as sweep's is.
fn progress_bar(files: &[Planned], hidden: bool) -> ProgressBar {
    if hidden || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(plan_bytes(files));
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {msg} files, {binary_bytes}/{binary_total_bytes} ({binary_bytes_per_sec}, ETA {eta})",
        )
        .expect("valid template"),
    );
    // The first frame is drawn before any file is read: it must read "0/N files".
    bar.set_message(format!("0/{}", files.len()));
    bar
}

/// One line per document and skipped file, for `--verbose`.
fn per_file(report: &IngestReport) -> String {
    let mut rows: Vec<Vec<String>> = report
        .documents
        .iter()
        .map(|d| {
            let outcome = match d.outcome {
                Outcome::New => "new",
                Outcome::Revised => "revised",
                Outcome::Unchanged => "unchanged",
            };
            let chunking = d.chunking.as_ref().map_or(String::new(), |c| {
                let made = if c.created { "" } else { ", kept" };
                format!("{} ({}{made})", c.spec, plural(c.chunks, "chunk", "chunks"))
            });
            vec![
                outcome.to_string(),
                d.doc_id.clone(),
                format!("r{}", d.seq),
                d.extractor.clone(),
                chunking,
            ]
        })
        .collect();
    rows.extend(report.skipped.iter().map(|s| {
        let dash = "-".to_string();
        vec![
            "skipped".into(),
            s.path.clone(),
            dash.clone(),
            dash,
            s.reason.clone(),
        ]
    }));
    aligned(&rows)
}

/// The one-line summary: documents by outcome, files skipped.
fn summary(report: &IngestReport) -> String {
    let count = |o: Outcome| report.documents.iter().filter(|d| d.outcome == o).count();
    format!(
        "{}: {} new, {} revised, {} unchanged; {} skipped",
        plural(report.documents.len(), "document", "documents"),
        count(Outcome::New),
        count(Outcome::Revised),
        count(Outcome::Unchanged),
        report.skipped.len()
    )
}
