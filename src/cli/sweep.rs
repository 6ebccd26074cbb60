//! `citestore sweep`: the nightly job.

use super::values::FailOn;
use super::{counts, Exit};
use crate::app::sweep::{self, SweepRequest};
use crate::app::Env;
use crate::chunk::ChunkSpec;
use crate::extract::ExtractOptions;
use crate::model::Status;
use crate::sweep::run::SweepSummary;
use crate::text::plural;
use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;

/// The nightly job: re-extract, re-chunk and re-anchor every citation.
///
/// Re-extract changed sources, re-chunk when the chunker changed, and re-anchor every citation
/// whose document changed: intact (same text, same place), moved (same text elsewhere),
/// degraded (found after normalisation, through the diff, by fuzzy alignment, or ambiguously),
/// lost (nothing at or above the review cut-off; the last known span is kept).
///
/// Each document is one transaction: a sweep killed at any moment and run again ends where one
/// uninterrupted run would. Citations are never modified; changes are appended as anchors.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Only these documents.
    #[arg(long = "doc", value_name = "DOC_ID")]
    docs: Vec<String>,

    /// The chunker documents should have [default: [chunker] spec in citestore.toml]; a
    /// document whose current chunking differs is re-chunked.
    #[arg(long, value_name = "SPEC")]
    chunker: Option<String>,

    /// Sweep only shard I of N: the documents whose stable doc-id hash falls in it. N workers
    /// (on N machines sharing a PostgreSQL store) given 1/N … N/N sweep every document once.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,

    /// The run a shard belongs to, shown as one event by `health` [default: the UTC date].
    #[arg(long, value_name = "NAME", requires = "shard")]
    run: Option<String>,

    /// Do not re-extract sources; sweep the revisions the store holds.
    #[arg(long)]
    no_extract: bool,

    /// Read every page of the store before writing, however recent the last full check (by
    /// default a sweep does so when it is [sweep] full_check_days old: 7).
    #[arg(long)]
    full_check: bool,

    /// Exit 1 when, after the sweep, any citation (of a document not retired) is lost
    /// (`lost`), or degraded or lost (`degraded`); comma-separated or repeated.
    #[arg(long, value_name = "STATUS", value_delimiter = ',', value_enum)]
    fail_on: Vec<FailOn>,

    /// Seconds one pdftotext or --extract-cmd run may take; past it the program and its
    /// children are killed and the document is reported as not swept.
    #[arg(long, allow_negative_numbers = true, value_name = "SECONDS", default_value_t = crate::extract::DEFAULT_EXTRACT_TIMEOUT.as_secs_f64())]
    extract_timeout: f64,

    /// Print the summary as JSON: counts by status and method, documents changed, timings.
    #[arg(long)]
    json: bool,

    /// Print nothing on success (errors still go to stderr; the exit code is unchanged).
    #[arg(short, long, conflicts_with = "json")]
    quiet: bool,
}

fn progress_bar(json: bool) -> ProgressBar {
    if json || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} documents, {msg} citations re-anchored ({rate} documents/s, ETA {eta})",
        )
        .expect("valid template")
        .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}", state.per_sec());
        }),
    );
    // The first frame is drawn before any document is done: it must read "0 citations".
    bar.set_message("0");
    bar
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let chunker: Option<ChunkSpec> = match &args.chunker {
        Some(spec) => Some(spec.parse().with_context(|| format!("--chunker {spec}"))?),
        None => None,
    };
    let extract = ExtractOptions::with_timeout_secs(args.extract_timeout).map_err(|why| {
        anyhow::anyhow!(
            "--extract-timeout {}: {why}",
            crate::child::shown(args.extract_timeout)
        )
    })?;
    let shard = args
        .shard
        .as_deref()
        .map(str::parse::<crate::sweep::shard::Shard>)
        .transpose()?;
    let request = SweepRequest {
        shard,
        run: args.run.clone(),
        extract,
        docs: args.docs.clone(),
        chunker,
        no_extract: args.no_extract,
        full_check: args.full_check,
    };
    let bar = progress_bar(args.json || args.quiet);
    let mut progress = |done: usize, total: usize, citations: usize| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(citations.to_string());
    };
    let summary = sweep::run(env, &request, &mut progress);
    bar.finish_and_clear();
    let summary = summary?;
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else if !args.quiet {
        print_human(&summary);
    }
    // Each document that could not be swept, once, on stderr: cron mails it, systemd logs it.
    for e in &summary.errors {
        eprintln!(
            "citestore: sweep: {}: not swept: {}",
            e.doc_id,
            e.error.as_deref().unwrap_or("")
        );
    }
    if !summary.errors.is_empty() {
        return Ok(Exit::Error);
    }
    Ok(fail_on(&args.fail_on, &summary.status))
}

/// `Exit::Attention` when any status named by `--fail-on` (`lost`; `degraded`, meaning
/// degraded or lost) has citations in `status`.
pub(super) fn fail_on(
    fail_on: &[FailOn],
    status: &std::collections::BTreeMap<String, i64>,
) -> Exit {
    let count = |s: Status| status.get(s.as_str()).copied().unwrap_or(0);
    let attention = fail_on.iter().any(|f| f.fails(count));
    if attention {
        Exit::Attention
    } else {
        Exit::Ok
    }
}

fn print_human(s: &SweepSummary) {
    let shard = match (&s.shard, &s.run) {
        (Some(shard), Some(run)) => format!(" (shard {shard} of run {run})"),
        _ => String::new(),
    };
    println!(
        "sweep {}{shard}: {} ({} re-extracted, {} re-chunked, {} re-anchored, {} unchanged, \
         {} missing, {} retired, {} failed); {}",
        s.sweep,
        plural(s.documents, "document", "documents"),
        s.re_extracted,
        s.rechunked,
        s.reanchored_documents,
        s.unchanged_documents,
        s.sources_missing.len(),
        s.retired,
        s.errors.len(),
        plural(s.extractions, "extractor run", "extractor runs")
    );
    println!(
        "re-anchored {}: {} ({} changed status or span, {} carried to a new revision with the \
         same status and span)",
        plural(s.citations_reanchored, "citation", "citations"),
        counts(&s.reanchored_status),
        s.citations_changed,
        s.citations_carried
    );
    println!("  by method: {}", counts(&s.method));
    println!("store now: {}", counts(&s.status));
    if !s.sources_missing.is_empty() {
        let shown: Vec<&str> = s
            .sources_missing
            .iter()
            .take(5)
            .map(String::as_str)
            .collect();
        let more = s.sources_missing.len().saturating_sub(shown.len());
        println!(
            "source missing, citations now lost: {}{}",
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
    println!(
        "{:.2} s ({:.2} s preparing, {:.2} s re-anchoring), {} written",
        s.seconds,
        s.prepare_seconds,
        s.anchor_seconds,
        plural(s.anchors_written, "anchor", "anchors")
    );
}
