//! `citestore health`: how the citations are doing.

use super::{aligned, counts, Context as CliContext, Exit};
use crate::store::{CitationState, Store, SweepRow};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Citation health: status counts, trend over sweeps, worst documents, verification.
///
/// Citation health: current counts by status, the trend over the last sweeps, the documents
/// with the most lost and degraded citations, and the latest verification verdicts.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// One row per document instead of the worst five.
    #[arg(long, value_name = "doc", value_parser = ["doc"])]
    by: Option<String>,

    /// Print JSON: `{"status", "trend", "documents", "verification"}`.
    #[arg(long)]
    json: bool,
}

/// Counts for one document.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct DocumentHealth {
    /// The document.
    pub doc_id: String,
    /// Citations by current status.
    pub status: BTreeMap<String, usize>,
}

/// What `health --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct HealthOutput {
    /// Current counts by status over every citation.
    pub status: BTreeMap<String, i64>,
    /// The last sweeps, newest first.
    pub trend: Vec<SweepRow>,
    /// Documents, worst first (most lost, then degraded); all with `--by doc`, else five.
    pub documents: Vec<DocumentHealth>,
    /// Claims by their latest verification verdict.
    pub verification: BTreeMap<String, i64>,
}

fn per_document(states: &[CitationState]) -> Vec<DocumentHealth> {
    let mut docs: BTreeMap<&str, DocumentHealth> = BTreeMap::new();
    for s in states {
        let entry = docs.entry(&s.doc_id).or_insert_with(|| DocumentHealth {
            doc_id: s.doc_id.clone(),
            ..DocumentHealth::default()
        });
        *entry.status.entry(s.status.clone()).or_insert(0) += 1;
    }
    let mut out: Vec<DocumentHealth> = docs.into_values().collect();
    let badness = |d: &DocumentHealth| {
        let get = |k: &str| d.status.get(k).copied().unwrap_or(0);
        (get("lost"), get("degraded"))
    };
    out.sort_by(|a, b| badness(b).cmp(&badness(a)).then(a.doc_id.cmp(&b.doc_id)));
    out
}

pub fn run(args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let store = Store::open_read(&ctx.db)?;
    let states = store.all_states(None)?;
    let mut documents = per_document(&states);
    if args.by.is_none() {
        documents.truncate(5);
    }
    let out = HealthOutput {
        status: store.status_counts()?.into_iter().collect(),
        trend: store.recent_sweeps(5)?,
        documents,
        verification: store.verification_counts()?.into_iter().collect(),
    };
    if args.json {
        println!("{}", serde_json::to_string(&out)?);
        return Ok(Exit::Ok);
    }
    let total: i64 = out.status.values().sum();
    println!("{total} citations: {}", counts(&out.status));
    println!(
        "verification (latest per claim): {}",
        counts(&out.verification)
    );
    if !out.trend.is_empty() {
        let mut rows = vec![[
            "SWEEP",
            "FINISHED",
            "DOCS",
            "CHANGED",
            "RE-ANCHORED",
            "INTACT",
            "MOVED",
            "DEGRADED",
            "LOST",
        ]
        .map(String::from)
        .to_vec()];
        for s in &out.trend {
            rows.push(vec![
                s.id.to_string(),
                s.finished_at
                    .clone()
                    .unwrap_or_else(|| "interrupted".into()),
                s.documents.to_string(),
                s.changed.to_string(),
                s.citations.to_string(),
                s.intact.to_string(),
                s.moved.to_string(),
                s.degraded.to_string(),
                s.lost.to_string(),
            ]);
        }
        println!();
        print!("{}", aligned(&rows));
    }
    if !out.documents.is_empty() {
        let title = if args.by.is_some() {
            "documents"
        } else {
            "worst documents"
        };
        println!("\n{title}:");
        let mut rows = vec![["DOC", "LOST", "DEGRADED", "MOVED", "INTACT"]
            .map(String::from)
            .to_vec()];
        for d in &out.documents {
            let get = |k: &str| d.status.get(k).copied().unwrap_or(0).to_string();
            rows.push(vec![
                d.doc_id.clone(),
                get("lost"),
                get("degraded"),
                get("moved"),
                get("intact"),
            ]);
        }
        print!("{}", aligned(&rows));
    }
    Ok(Exit::Ok)
}
