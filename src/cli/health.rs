//! `citestore health`: how the citations are doing.

use super::values::FailOn;
use super::{aligned, counts, Exit};
use crate::app::health::{self, HealthRequest};
use crate::app::Env;
use crate::model::Status;
use crate::output::HealthOutput;
use crate::sweep::shard::{events, SweepEvent};
use crate::text::plural;

/// Citation health: status counts, trend over sweeps, worst documents, verification.
///
/// Citation health: current counts by status (citations of retired documents apart), the last
/// sweeps with what each did to how many documents (the outcome counts add up to the documents
/// swept; an interrupted sweep shows what it committed), the documents with the most lost and
/// degraded citations, documents whose source is missing, and the latest verification verdicts.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// One row per document instead of the worst five.
    #[arg(long, value_name = "doc", value_parser = ["doc"])]
    by: Option<String>,

    /// How many recent sweeps to show.
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = super::count_arg, default_value_t = 10)]
    sweeps: usize,

    /// Exit 1 when any citation (of a document not retired) is lost (`lost`), or degraded or
    /// lost (`degraded`); comma-separated or repeated.
    #[arg(long, value_name = "STATUS", value_delimiter = ',', value_enum)]
    fail_on: Vec<FailOn>,

    /// Print JSON: `{"status", "retired", "missing", "trend", "documents", "verification"}`.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let request = HealthRequest {
        by_doc: args.by.is_some(),
        sweeps: args.sweeps,
    };
    let out = health::run(env, &request)?;
    let exit = super::sweep::fail_on(&args.fail_on, &out.status);
    if args.json {
        println!("{}", serde_json::to_string(&out)?);
        return Ok(exit);
    }
    print_human(&args, &out);
    Ok(exit)
}

fn print_human(args: &Args, out: &HealthOutput) {
    let total: i64 = out.status.values().sum();
    println!(
        "{}: {}",
        plural(total, "citation", "citations"),
        counts(&out.status)
    );
    if !out.retired.documents.is_empty() {
        println!(
            "retired: {}, {} (not counted above)",
            plural(out.retired.documents.len(), "document", "documents"),
            plural(out.retired.citations, "citation", "citations")
        );
    }
    if !out.missing.is_empty() {
        println!(
            "source missing (citations lost): {}",
            out.missing.join(", ")
        );
    }
    println!(
        "verification (latest per claim): {}",
        counts(&out.verification)
    );
    if !out.trend.is_empty() {
        let mut rows = vec![[
            "SWEEP",
            "FINISHED",
            "DOCS",
            "RE-EXTRACTED",
            "RE-CHUNKED",
            "RE-ANCHORED",
            "UNCHANGED",
            "MISSING",
            "RETIRED",
            "FAILED",
            "CITATIONS",
            "CHANGED",
            "CARRIED",
            "INTACT",
            "MOVED",
            "DEGRADED",
            "LOST",
        ]
        .map(String::from)
        .to_vec()];
        let grouped = events(&out.trend);
        for event in &grouped {
            let (s, sweep, finished_at) = match event {
                SweepEvent::Whole(s) => (
                    s,
                    s.id.to_string(),
                    s.finished_at
                        .clone()
                        .unwrap_or_else(|| "interrupted".into()),
                ),
                SweepEvent::Run(run) => (
                    &run.totals,
                    format!("run {}", run.run),
                    match &run.finished_at {
                        Some(at) => at.clone(),
                        None => format!("{}/{} shards", run.finished, run.shards),
                    },
                ),
            };
            let finished = match event {
                SweepEvent::Whole(s) => s.finished_at.is_some(),
                SweepEvent::Run(run) => run.finished_at.is_some(),
            };
            // An interrupted sweep's store-wide statuses were never taken.
            let status = |n: i64| if finished { n.to_string() } else { "-".into() };
            rows.push(vec![
                sweep,
                finished_at,
                s.documents.to_string(),
                s.re_extracted.to_string(),
                s.rechunked.to_string(),
                s.reanchored.to_string(),
                s.unchanged.to_string(),
                s.missing.to_string(),
                s.retired.to_string(),
                s.failed.to_string(),
                s.citations.to_string(),
                s.citations_changed.to_string(),
                s.citations_carried.to_string(),
                status(s.intact),
                status(s.moved),
                status(s.degraded),
                status(s.lost),
            ]);
        }
        println!();
        print!("{}", aligned(&rows));
        for event in &grouped {
            if let SweepEvent::Run(run) = event {
                let shards: Vec<String> = run
                    .latest
                    .iter()
                    .map(|(i, id)| format!("{i}/{} sweep {id}", run.shards))
                    .collect();
                let attempts: Vec<String> = run.sweeps.iter().map(i64::to_string).collect();
                println!(
                    "run {}: {} of {} finished ({}); sweeps {}",
                    run.run,
                    run.finished,
                    plural(run.shards as usize, "shard", "shards"),
                    shards.join(", "),
                    attempts.join(", ")
                );
            }
        }
    }
    if !out.documents.is_empty() {
        let title = if args.by.is_some() {
            "documents"
        } else {
            "worst documents"
        };
        println!("\n{title}:");
        // Worst first: the canonical order reversed.
        let worst_first = || Status::ALL.into_iter().rev();
        let header = worst_first().map(|s| s.as_str().to_uppercase());
        let mut rows = vec![std::iter::once("DOC".to_string()).chain(header).collect()];
        for d in &out.documents {
            let get = |s: Status| d.status.get(s.as_str()).copied().unwrap_or(0).to_string();
            rows.push(
                std::iter::once(d.doc_id.clone())
                    .chain(worst_first().map(get))
                    .collect(),
            );
        }
        print!("{}", aligned(&rows));
    }
}
