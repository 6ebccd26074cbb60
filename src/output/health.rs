//! What `health --json` and `changes --json` print.

use crate::error::Result;
use crate::model::{counts_by_name, DocumentState, Status};
use crate::report::{resolve, Range};
use crate::store::{ChangeSelection, ChangedCitation, Store, SweepRow};
use crate::sweep::shard::{events, SweepEvent, SweepRun};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Counts for one document.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct DocumentHealth {
    /// The document.
    pub doc_id: String,
    /// Citations by current status.
    pub status: BTreeMap<String, usize>,
}

/// Retired documents, shown apart.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RetiredHealth {
    /// Their doc ids.
    pub documents: Vec<String>,
    /// Citations they hold.
    pub citations: i64,
}

/// What `health --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HealthOutput {
    /// Current counts by status over the citations of documents not retired.
    pub status: BTreeMap<String, i64>,
    /// Retired documents and how many citations they hold (never failing `--fail-on`).
    pub retired: RetiredHealth,
    /// Documents whose source was missing at the last sweep (their citations are lost).
    pub missing: Vec<String>,
    /// The last sweeps, newest first.
    pub trend: Vec<SweepRow>,
    /// Documents, worst first (most lost, then degraded); all with `--by doc`, else five.
    pub documents: Vec<DocumentHealth>,
    /// Claims by their latest verification verdict.
    pub verification: BTreeMap<String, i64>,
    /// The sharded runs among the sweeps in `trend`, each as one event (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<SweepRun>,
}

/// The sweeps rows of the latest `limit` events (a sharded run is one event, however many
/// shards and restarts it had), and those runs.
fn recent_events(store: &Store, limit: usize) -> Result<(Vec<SweepRow>, Vec<SweepRun>)> {
    let mut wanted = limit;
    loop {
        let rows = store.recent_sweeps(wanted)?;
        let grouped = events(&rows);
        // More rows than events can hold the whole of the last run: read until the events
        // shown are complete (or the history ends).
        if grouped.len() > limit || rows.len() < wanted {
            let mut trend = Vec::new();
            let mut runs = Vec::new();
            for event in grouped.into_iter().take(limit) {
                match event {
                    SweepEvent::Whole(row) => trend.push(row),
                    SweepEvent::Run(run) => {
                        trend.extend(rows.iter().filter(|r| run.sweeps.contains(&r.id)).cloned());
                        runs.push(run);
                    }
                }
            }
            return Ok((trend, runs));
        }
        wanted = wanted * 2 + 8;
    }
}

/// Counts by document and status, streamed (memory grows with documents, not citations),
/// leaving out `retired` documents.
fn per_document(store: &Store, retired: &[String]) -> Result<Vec<DocumentHealth>> {
    let mut docs: BTreeMap<String, DocumentHealth> = BTreeMap::new();
    for (doc_id, status, n) in store.counts_by_document()? {
        if retired.binary_search(&doc_id).is_ok() {
            continue;
        }
        let entry = docs
            .entry(doc_id.clone())
            .or_insert_with(|| DocumentHealth {
                doc_id,
                ..DocumentHealth::default()
            });
        *entry.status.entry(status.as_str().to_string()).or_insert(0) += n as usize;
    }
    let mut out: Vec<DocumentHealth> = docs.into_values().collect();
    let badness = |d: &DocumentHealth| {
        let get = |s: Status| d.status.get(s.as_str()).copied().unwrap_or(0);
        (get(Status::Lost), get(Status::Degraded))
    };
    out.sort_by(|a, b| badness(b).cmp(&badness(a)).then(a.doc_id.cmp(&b.doc_id)));
    Ok(out)
}

/// The store's health, every number from one snapshot (a sweep committing meanwhile is not
/// half-seen): all documents when `by_doc`, else the worst five; the last `sweeps` sweeps.
pub fn health(store: &Store, by_doc: bool, sweeps: usize) -> Result<HealthOutput> {
    store.snapshot(|store| -> Result<HealthOutput> {
        let retired = store.documents_in_state(DocumentState::Retired)?;
        let mut documents = per_document(store, &retired)?;
        if !by_doc {
            documents.truncate(5);
        }
        let (status, retired_citations) = store.status_counts_active()?;
        let (trend, runs) = recent_events(store, sweeps)?;
        Ok(HealthOutput {
            status: counts_by_name(status),
            retired: RetiredHealth {
                documents: retired,
                citations: retired_citations,
            },
            missing: store.documents_in_state(DocumentState::Missing)?,
            trend,
            documents,
            verification: store.verification_counts()?.into_iter().collect(),
            runs,
        })
    })
}

/// What `changes --json` prints, one JSON object.
///
/// Fields: `from_sweep`, `to_sweep`, `changes` and `revision_only` (lists of [`ChangeLine`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChangesOutput {
    /// First sweep looked at (greater than `to_sweep` when no sweep is in the range).
    pub from_sweep: i64,
    /// Last sweep looked at.
    pub to_sweep: i64,
    /// The citations whose status or span differs after those sweeps, by document.
    pub changes: Vec<ChangeLine>,
    /// The citations carried to a new revision with the same status and span (only the
    /// revision differs), by document: apart from `changes`, as nothing about them changed.
    #[serde(default)]
    pub revision_only: Vec<ChangeLine>,
}

/// One changed citation in `changes --json`.
///
/// Fields: `id` (the citation id, as in `export`), and, as before `id` existed, `row`,
/// `citation_id` (= `id`), `doc_id`, `claim`, `quote`, `cited_text`, `before` and `after`
/// (`{status, revision, start, end}`), `sweep`, `score`, `method`, `reason`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChangeLine {
    /// Citation id.
    pub id: String,
    /// The change, under its older field names.
    #[serde(flatten)]
    pub change: ChangedCitation,
}

/// The citations whose status or span changed in the sweeps of `range` (the same store
/// function as `report`, so the page and the list agree), by document.
pub fn changes(store: &Store, range: &Range) -> Result<ChangesOutput> {
    let (from_sweep, to_sweep, _) = resolve(store, range)?;
    let mut changes = store.changed_citations(&ChangeSelection {
        from_sweep,
        to_sweep,
        ..ChangeSelection::default()
    })?;
    // A citation moved and moved back within the range did not change.
    changes.retain(|c| c.before != c.after);
    changes.sort_by(|a, b| a.doc_id.cmp(&b.doc_id).then(a.row.cmp(&b.row)));
    let (revision_only, changes): (Vec<_>, Vec<_>) = changes
        .into_iter()
        .partition(ChangedCitation::revision_only);
    let lines = |changes: Vec<ChangedCitation>| -> Vec<ChangeLine> {
        changes
            .into_iter()
            .map(|change| ChangeLine {
                id: change.citation_id.clone(),
                change,
            })
            .collect()
    };
    Ok(ChangesOutput {
        from_sweep,
        to_sweep,
        changes: lines(changes),
        revision_only: lines(revision_only),
    })
}
