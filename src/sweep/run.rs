//! The nightly job: bring every document up to date and re-anchor its citations.
//!
//! The ladder, per document (`sweep_document`): (a) outside any transaction, look at its
//! source and extract it only when the file or the extractor changed (`super::source`); then
//! in a write transaction, (a′) a source that is gone makes its citations `lost`
//! (`super::missing`), else the extraction is stored (a new revision only when the text
//! changed), (b) re-chunk when the configured chunker differs from the current chunking, or
//! chunk a latest revision that has none, and read what (c) needs (`super::reanchor::gather`)
//! when the document's (revision, chunking) differs from the one it was last swept at, or it
//! just came back; commit; (c) re-anchor with no transaction open
//! (`super::reanchor::compute`: the diff, the fold, fuzzy search); (d) in a second write
//! transaction, check that nothing (c) read has changed ([`AnchoringBasis`], else redo (c)
//! there), append an anchors row for each citation whose status or span changed, a
//! swept_documents row, and count the document's one outcome; commit.
//!
//! Invariants: every document swept has exactly one outcome, so the sweep's counters add up to
//! its documents; the count is in the transaction that commits the document's last writes (a
//! rolled-back document counts only as failed; an interrupted sweep shows what it committed); a
//! document whose file, extractor, revision and chunking are unchanged costs a stat and a few
//! indexed reads, and starts no process; a run killed at any moment and run again ends where an
//! uninterrupted run would (swept_documents is written with the anchors, so a document whose
//! anchors were not written is redone); citation rows are never modified; a second sweep with
//! nothing changed writes no anchors.

use super::missing::{mark_lost, MISSING};
use super::reanchor::{compute, gather, Inputs};
use super::shard::Shard;
use super::source::{look, Looked, Probe};
use crate::chunk::caller::{CALLER_SPEC, FALLBACK_SPEC};
use crate::chunk::ChunkSpec;
use crate::error::{Error, Result};
use crate::extract::ExtractOptions;
use crate::ingest::{rechunk, store_extracted, ChunkPolicy, Outcome};
use crate::model::{Document, DocumentState, Revision};
use crate::store::{
    AnchoringBasis, NewAnchor, NewExtraction, StaleCitations, Store, SweepRow, SweepShard,
    TextOrigin, Writer,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// What to sweep and how.
#[derive(Debug, Clone, Default)]
pub struct SweepOptions {
    /// Only these documents (all when empty).
    pub docs: Vec<String>,
    /// The configured chunker: documents whose current chunking differs are re-chunked.
    pub chunker: Option<ChunkSpec>,
    /// Skip re-extraction (sweep what the store holds).
    pub no_extract: bool,
    /// The folder of the configuration file, for sources recorded relative to it.
    pub config_dir: Option<PathBuf>,
    /// How extractors run (their time limit).
    pub extract: ExtractOptions,
    /// Only the documents of this shard (`--shard I/N`).
    pub shard: Option<Shard>,
    /// The run a shard belongs to (`--run`; by default the UTC date the sweep started).
    pub run: Option<String>,
}

/// The one thing a sweep did to a document (the first that applies, in this order).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DocumentOutcome {
    /// A new revision was extracted.
    ReExtracted,
    /// A new chunking was made.
    Rechunked,
    /// Citations were re-anchored (the revision or chunking changed since the last sweep).
    Reanchored,
    /// Already up to date.
    #[default]
    Unchanged,
    /// The source is gone: its citations are lost.
    Missing,
    /// Retired: passed over.
    Retired,
    /// Could not be swept (left as it was).
    Failed,
}

impl DocumentOutcome {
    /// The sweeps column that counts this outcome.
    pub fn column(self) -> &'static str {
        match self {
            DocumentOutcome::ReExtracted => "re_extracted",
            DocumentOutcome::Rechunked => "rechunked",
            DocumentOutcome::Reanchored => "reanchored",
            DocumentOutcome::Unchanged => "unchanged",
            DocumentOutcome::Missing => "missing",
            DocumentOutcome::Retired => "retired",
            DocumentOutcome::Failed => "failed",
        }
    }

    /// Whether the document changed (the old `changed` counter).
    pub fn changed(self) -> bool {
        matches!(
            self,
            DocumentOutcome::ReExtracted | DocumentOutcome::Rechunked | DocumentOutcome::Reanchored
        )
    }
}

/// What happened to one document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocumentResult {
    /// The document.
    pub doc_id: String,
    /// Its one outcome.
    pub outcome: DocumentOutcome,
    /// The extractor ran on its source.
    pub extracted: bool,
    /// Citations re-anchored.
    pub reanchored: usize,
    /// Citations that needed no re-anchoring.
    pub unchanged_citations: usize,
    /// Anchors rows written.
    pub anchors_written: usize,
    /// Status of the citations re-anchored.
    pub reanchored_status: BTreeMap<String, usize>,
    /// How they were placed.
    pub method: BTreeMap<String, usize>,
    /// Why the document could not be swept, or why its source is missing.
    pub error: Option<String>,
}

/// What a sweep did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SweepSummary {
    /// The sweep's row id.
    pub sweep: i64,
    /// `I/N` when only one shard was swept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The run the shard belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// Documents looked at: the sum of the outcome counts below.
    pub documents: usize,
    /// Documents with a new revision from re-extraction.
    pub re_extracted: usize,
    /// Documents re-chunked (and not re-extracted).
    pub rechunked: usize,
    /// Documents whose citations were re-anchored (and not re-extracted or re-chunked).
    pub reanchored_documents: usize,
    /// Documents already up to date.
    pub unchanged_documents: usize,
    /// Documents whose source is gone; their citations are now lost.
    pub sources_missing: Vec<String>,
    /// Retired documents passed over.
    pub retired: usize,
    /// Documents that could not be swept, with why.
    pub errors: Vec<DocumentResult>,
    /// Extractor runs (0 when no source changed).
    pub extractions: usize,
    /// Citations re-anchored in this sweep.
    pub citations_reanchored: usize,
    /// Citations whose state did not need re-anchoring.
    pub citations_unchanged: usize,
    /// Anchors rows written.
    pub anchors_written: usize,
    /// Current status counts over the citations of documents not retired, after the sweep.
    pub status: BTreeMap<String, i64>,
    /// Status of the citations re-anchored in this sweep.
    pub reanchored_status: BTreeMap<String, usize>,
    /// How the citations re-anchored in this sweep were placed.
    pub method: BTreeMap<String, usize>,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Time spent looking at sources and extracting, seconds.
    pub prepare_seconds: f64,
    /// Time spent in the documents' transactions (storing, re-chunking, re-anchoring), seconds.
    pub anchor_seconds: f64,
}

impl SweepSummary {
    fn add(&mut self, result: DocumentResult) {
        self.documents += 1;
        self.extractions += usize::from(result.extracted);
        self.citations_reanchored += result.reanchored;
        self.citations_unchanged += result.unchanged_citations;
        self.anchors_written += result.anchors_written;
        for (k, v) in &result.reanchored_status {
            *self.reanchored_status.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &result.method {
            *self.method.entry(k.clone()).or_insert(0) += v;
        }
        match result.outcome {
            DocumentOutcome::ReExtracted => self.re_extracted += 1,
            DocumentOutcome::Rechunked => self.rechunked += 1,
            DocumentOutcome::Reanchored => self.reanchored_documents += 1,
            DocumentOutcome::Unchanged => self.unchanged_documents += 1,
            DocumentOutcome::Missing => self.sources_missing.push(result.doc_id),
            DocumentOutcome::Retired => self.retired += 1,
            DocumentOutcome::Failed => self.errors.push(result),
        }
    }
}

/// Progress after each document: (documents done, documents total, citations re-anchored).
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize, usize);

/// Unchanged documents write nothing of their own; their count reaches the sweeps row with the
/// next document that writes, or after this many.
const UNCHANGED_FLUSH: usize = 1000;

/// Runs a sweep; `now` gives timestamps.
pub fn sweep(
    store: &mut Store,
    options: &SweepOptions,
    now: &dyn Fn() -> String,
    progress: Progress<'_>,
) -> Result<SweepSummary> {
    let started = Instant::now();
    // Every commit of a sweep can be redone (the swept_documents cursor): commit without
    // waiting for the disk, as SQLite's synchronous=NORMAL does.
    store.redoable_writes()?;
    let (sweep_id, documents, shard) = {
        let writer = store.writer()?;
        let mut documents = select_documents(&writer, &options.docs)?;
        let started_at = now();
        let shard = options.shard.map(|shard| {
            documents.retain(|d| shard.contains(&d.doc_id));
            SweepShard {
                // By default the UTC date: the N workers of one nightly run agree on it.
                run: options
                    .run
                    .clone()
                    .unwrap_or_else(|| started_at.chars().take(10).collect()),
                index: shard.index,
                count: shard.count,
            }
        });
        let id = writer.start_sweep(&started_at, documents.len(), shard.as_ref())?;
        writer.commit()?;
        (id, documents, shard)
    };
    let mut summary = SweepSummary {
        sweep: sweep_id,
        shard: shard.as_ref().map(|s| format!("{}/{}", s.index, s.count)),
        run: shard.map(|s| s.run),
        ..SweepSummary::default()
    };
    let mut pending_unchanged = 0;
    for (done, document) in documents.iter().enumerate() {
        let result = sweep_one(
            store,
            sweep_id,
            document,
            options,
            now,
            &mut summary,
            &mut pending_unchanged,
        )?;
        summary.add(result);
        progress(done + 1, documents.len(), summary.citations_reanchored);
    }
    let (status, _retired) = store.status_counts_active()?;
    summary.status = status.into_iter().collect();
    summary.seconds = started.elapsed().as_secs_f64();
    let count = |s: &str| summary.status.get(s).copied().unwrap_or(0);
    let row = SweepRow {
        id: sweep_id,
        intact: count("intact"),
        moved: count("moved"),
        degraded: count("degraded"),
        lost: count("lost"),
        seconds: Some(summary.seconds),
        ..SweepRow::default()
    };
    let writer = store.writer()?;
    writer.count_documents(
        sweep_id,
        DocumentOutcome::Unchanged.column(),
        pending_unchanged,
        0,
    )?;
    writer.finish_sweep(&row, &now())?;
    writer.commit()?;
    Ok(summary)
}

/// Sweeps one document: looks at its source outside the lock, then runs the ladder in its own
/// transaction. A document that fails is rolled back, counted as failed, and the sweep goes on;
/// only a failure to record that is an error of the whole sweep.
fn sweep_one(
    store: &mut Store,
    sweep_id: i64,
    document: &Document,
    options: &SweepOptions,
    now: &dyn Fn() -> String,
    summary: &mut SweepSummary,
    pending_unchanged: &mut usize,
) -> Result<DocumentResult> {
    let looking = Instant::now();
    // Text the caller handed over has no file to look at: the caller brings new text.
    let given = store.text_origin(document.id)? == TextOrigin::Given;
    let looked = match store.document_state(document.id)? {
        DocumentState::Retired => None,
        _ if options.no_extract || given => Some(Ok(None)),
        _ => Some(
            look(
                store,
                document,
                options.config_dir.as_deref(),
                &options.extract,
            )
            .map(Some),
        ),
    };
    summary.prepare_seconds += looking.elapsed().as_secs_f64();
    let writing = Instant::now();
    let attempt = match looked {
        None => Ok(DocumentResult {
            doc_id: document.doc_id.clone(),
            outcome: DocumentOutcome::Retired,
            ..DocumentResult::default()
        }),
        Some(Ok(looked)) => {
            let mut count = |writer: &Writer<'_>, result: &DocumentResult, wrote: bool| {
                if !wrote
                    && result.outcome == DocumentOutcome::Unchanged
                    && *pending_unchanged + 1 < UNCHANGED_FLUSH
                {
                    *pending_unchanged += 1;
                    return Ok(());
                }
                writer.count_documents(sweep_id, result.outcome.column(), 1, result.reanchored)?;
                writer.count_documents(
                    sweep_id,
                    DocumentOutcome::Unchanged.column(),
                    *pending_unchanged,
                    0,
                )?;
                writer.count_extraction(sweep_id, result.extracted)?;
                *pending_unchanged = 0;
                Ok(())
            };
            sweep_document(store, sweep_id, document, looked, options, now, &mut count)
        }
        Some(Err(err)) => Err(err),
    };
    summary.anchor_seconds += writing.elapsed().as_secs_f64();
    match attempt {
        Ok(result) if result.outcome == DocumentOutcome::Retired => {
            count_alone(store, sweep_id, DocumentOutcome::Retired)?;
            Ok(result)
        }
        Ok(result) => Ok(result),
        Err(err) => {
            count_alone(store, sweep_id, DocumentOutcome::Failed)?;
            Ok(DocumentResult {
                doc_id: document.doc_id.clone(),
                outcome: DocumentOutcome::Failed,
                error: Some(err.to_string()),
                ..DocumentResult::default()
            })
        }
    }
}

/// Counts a document that wrote nothing of its own, in a transaction of its own.
fn count_alone(store: &mut Store, sweep_id: i64, outcome: DocumentOutcome) -> Result<()> {
    let writer = store.writer()?;
    writer.count_documents(sweep_id, outcome.column(), 1, 0)?;
    writer.commit()
}

fn select_documents(writer: &Writer<'_>, ids: &[String]) -> Result<Vec<Document>> {
    if ids.is_empty() {
        return writer.documents();
    }
    ids.iter()
        .map(|id| {
            writer
                .document(id)?
                .ok_or_else(|| Error::UnknownDocument { doc_id: id.clone() })
        })
        .collect()
}

/// Counts a document's outcome in the transaction that commits its last writes (`true`: it
/// wrote rows of its own, so the count must be in the same commit).
type Count<'c> = &'c mut dyn FnMut(&Writer<'_>, &DocumentResult, bool) -> Result<()>;

/// The ladder for one document (see the module docs); `count` records its outcome in the
/// transaction that commits its last writes.
fn sweep_document(
    store: &mut Store,
    sweep_id: i64,
    document: &Document,
    looked: Option<Looked>,
    options: &SweepOptions,
    now: &dyn Fn() -> String,
    count: Count<'_>,
) -> Result<DocumentResult> {
    let writer = store.writer()?;
    // On a shared store another worker (a shard restarted while the old one runs, an ingest)
    // may write this document: one at a time.
    writer.lock_document(&document.doc_id)?;
    let (mut result, work) = prepare(&writer, sweep_id, document, looked, false, options, now)?;
    let Some(work) = work else {
        count(&writer, &result, false)?;
        writer.commit()?;
        return Ok(result);
    };
    if work.inputs.citations() == 0 {
        // Nothing to re-anchor (every citation is current): no engine run to keep outside the
        // lock, so the swept_documents row goes in this transaction.
        let result = finish(&writer, sweep_id, document, work, Vec::new(), result, now)?;
        count(&writer, &result, true)?;
        writer.commit()?;
        return Ok(result);
    }
    // The diff, the fold and the fuzzy search run with no transaction open; what was read is
    // checked again before the rows are written, and re-read if another writer changed it.
    writer.commit()?;
    let mut anchors = compute(&work.inputs, &mut result);
    let writer = store.writer()?;
    writer.lock_document(&document.doc_id)?;
    if writer.anchoring_basis(document)? == work.basis {
        let result = finish(&writer, sweep_id, document, work, anchors, result, now)?;
        count(&writer, &result, true)?;
        writer.commit()?;
        return Ok(result);
    }
    // Another writer (a concurrent cite or ingest) changed the document meanwhile: do it again
    // inside this transaction.
    // (Forced: the document may have just come back, its committed state no longer says so.)
    let (again, work) = prepare(&writer, sweep_id, document, None, true, options, now)?;
    let mut result = DocumentResult {
        extracted: result.extracted,
        outcome: result.outcome,
        ..again
    };
    if let Some(work) = work {
        anchors = compute(&work.inputs, &mut result);
        result = finish(&writer, sweep_id, document, work, anchors, result, now)?;
    }
    count(&writer, &result, true)?;
    writer.commit()?;
    Ok(result)
}

/// Re-anchoring still to do for a document, and what it was read from.
struct Work {
    inputs: Inputs,
    revision_id: i64,
    chunking_id: i64,
    basis: AnchoringBasis,
}

/// Rungs (a′) and (b), and the reads of (c), in `writer`'s transaction: `Some(work)` when
/// citations are to be re-anchored (`force`: even when the document was swept at its current
/// revision and chunking).
fn prepare(
    writer: &Writer<'_>,
    sweep_id: i64,
    document: &Document,
    looked: Option<Looked>,
    force: bool,
    options: &SweepOptions,
    now: &dyn Fn() -> String,
) -> Result<(DocumentResult, Option<Work>)> {
    let mut result = DocumentResult {
        doc_id: document.doc_id.clone(),
        ..DocumentResult::default()
    };
    let mut came_back = false;
    if looked.is_none() && writer.document_state(document.id)? == DocumentState::Missing {
        // Not looked at (--no-extract): a missing source stays missing, its citations lost.
        return Ok((result, None));
    }
    if let Some(looked) = looked {
        if let Probe::Missing(reason) = &looked.probe {
            writer.set_document_state(
                document.id,
                Some(sweep_id),
                DocumentState::Missing,
                Some(reason),
                &now(),
            )?;
            result.anchors_written = mark_lost(writer, sweep_id, &document.doc_id, reason, &now())?;
            result.outcome = DocumentOutcome::Missing;
            result.error = Some(reason.clone());
            return Ok((result, None));
        }
        came_back = writer.set_document_state(
            document.id,
            Some(sweep_id),
            DocumentState::Active,
            Some("source found again"),
            &now(),
        )?;
        let (extracted, revised) =
            store_probe(writer, sweep_id, document, looked, options.chunker, &now())?;
        result.extracted = extracted;
        if revised {
            result.outcome = DocumentOutcome::ReExtracted;
        }
    }
    let Some(revision) = writer.latest_revision(document)? else {
        return Ok((result, None));
    };
    if ensure_chunked(writer, document, &revision, options.chunker, &now())?
        && result.outcome == DocumentOutcome::Unchanged
    {
        result.outcome = DocumentOutcome::Rechunked;
    }
    let Some(chunking) = writer.current_chunking(&revision)? else {
        return Ok((result, None));
    };
    if !came_back && !force && writer.swept_at(document, revision.id, chunking.id)? {
        return Ok((result, None));
    }
    // Stale: decided against another revision, or lost to a missing source. Only their
    // states are read; the basis is read first (see `Writer::stale_citations`).
    let StaleCitations {
        basis,
        current,
        stale,
    } = writer.stale_citations(document, &revision, chunking.id, MISSING)?;
    result.unchanged_citations = current;
    let inputs = gather(writer, document, &revision, &chunking, stale)?;
    Ok((
        result,
        Some(Work {
            inputs,
            revision_id: revision.id,
            chunking_id: chunking.id,
            basis,
        }),
    ))
}

/// Writes the anchors of re-anchored `work` and the swept_documents row.
fn finish(
    writer: &Writer<'_>,
    sweep_id: i64,
    document: &Document,
    work: Work,
    anchors: Vec<NewAnchor>,
    mut result: DocumentResult,
    now: &dyn Fn() -> String,
) -> Result<DocumentResult> {
    result.reanchored = work.inputs.citations();
    result.anchors_written += anchors.len();
    if result.reanchored > 0 && result.outcome == DocumentOutcome::Unchanged {
        result.outcome = DocumentOutcome::Reanchored;
    }
    writer.record_anchors(sweep_id, &anchors, &now())?;
    writer.record_swept(
        sweep_id,
        document.id,
        work.revision_id,
        work.chunking_id,
        &work.basis,
    )?;
    Ok(result)
}

/// Stores what looking at the source found: (the extractor ran, a new revision was made). A
/// source changed by a concurrent `ingest` since it was looked at is left to that ingest.
fn store_probe(
    writer: &Writer<'_>,
    sweep_id: i64,
    document: &Document,
    looked: Looked,
    chunker: Option<ChunkSpec>,
    now: &str,
) -> Result<(bool, bool)> {
    if writer.current_source(document.id)?.map(|(id, _)| id) != Some(looked.source_id) {
        return Ok((false, false));
    }
    match looked.probe {
        Probe::Unchanged | Probe::Missing(_) => Ok((false, false)),
        Probe::SameBytes(fingerprint) => {
            let revision_id = writer.latest_revision(document)?.map_or(0, |r| r.id);
            writer.record_extraction(
                &NewExtraction {
                    document_id: document.id,
                    source_id: looked.source_id,
                    sweep_id: Some(sweep_id),
                    fingerprint,
                    ran: false,
                    revision_id,
                },
                now,
            )?;
            Ok((false, false))
        }
        Probe::Extracted(extracted) => {
            let policy = ChunkPolicy {
                explicit: None,
                configured: chunker,
            };
            let ingested = store_extracted(
                writer,
                document,
                (looked.source_id, Some(sweep_id)),
                &extracted,
                policy,
                now,
            )?;
            Ok((true, ingested.outcome == Outcome::Revised))
        }
    }
}

/// (b) Makes sure the latest revision has a chunking with the configured spec (else keeps or
/// inherits the one it has; the caller's chunks of the latest revision are always kept, as
/// they are what the caller's retriever serves); true when a chunking was made.
fn ensure_chunked(
    writer: &Writer<'_>,
    document: &Document,
    revision: &Revision,
    chunker: Option<ChunkSpec>,
    now: &str,
) -> Result<bool> {
    let current = writer.current_chunking(revision)?;
    let wanted = match (chunker, &current) {
        (Some(spec), Some(c)) if c.spec == spec.to_string() || c.spec == CALLER_SPEC => None,
        (Some(spec), _) => Some(spec),
        (None, Some(_)) => None,
        (None, None) => previous_spec(writer, document)?,
    };
    match wanted {
        Some(spec) => {
            let done = rechunk(writer, std::slice::from_ref(&document.doc_id), spec, now)?;
            Ok(done.iter().any(|d| d.chunking.created))
        }
        None => Ok(false),
    }
}

/// The spec of the newest chunking of any earlier revision ([`FALLBACK_SPEC`] for the caller's).
fn previous_spec(writer: &Writer<'_>, document: &Document) -> Result<Option<ChunkSpec>> {
    for revision in writer.revisions(document)?.iter().rev() {
        if let Some(chunking) = writer.current_chunking(revision)? {
            // The caller's spans index that revision's text, not this one's.
            return Ok(Some(chunking.spec.parse().unwrap_or(FALLBACK_SPEC)));
        }
    }
    Ok(None)
}
