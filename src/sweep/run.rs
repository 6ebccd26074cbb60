//! The nightly job: bring every document up to date and re-anchor its citations.
//!
//! The ladder, per document (`prepare`, then `super::reanchor::compute`), documents taken in
//! batches (up to `BATCH_DOCUMENTS`, or `BATCH_BYTES` of text) that share each transaction:
//! (a) outside any transaction, look at its
//! source and extract it only when the file or the extractor changed (`super::source`); then
//! in a write transaction, (a′) a source that is gone makes its citations `lost`
//! (`super::missing`), else the extraction is stored (a new revision only when the text
//! changed), (b) re-chunk when the configured chunker differs from the current chunking, or
//! chunk a latest revision that has none, and read what (c) needs (`super::reanchor::gather`)
//! when the document's (revision, chunking) differs from the one it was last swept at, or it
//! just came back (only its stale citations: `Writer::stale_citations`; with none, it is done
//! here); commit; (c) re-anchor with no transaction open, on a second thread while this one
//! writes (`super::reanchor::compute`: the diff, the fold, fuzzy search); (d) in a second write
//! transaction, check that nothing (c) read has changed ([`AnchoringBasis`], else redo (c)
//! there), append an anchors row for each citation whose status or span changed, a
//! swept_documents row, and count the document's one outcome; commit.
//!
//! Invariants: every document swept has exactly one outcome, so the sweep's counters add up to
//! its documents; the count is in the transaction that commits the document's last writes (a
//! rolled-back document counts only as failed; an interrupted sweep shows what it committed); a
//! document whose file, extractor, revision and chunking are unchanged, and whose citations
//! its last sweep covered, costs a stat and its share of one read per batch
//! (`Reads::swept_states`), no transaction work, and starts no process; a run killed at any
//! moment and run again ends where an uninterrupted run would (swept_documents is written with
//! the anchors, so a document whose anchors were not written is redone); citation rows are
//! never modified; a second sweep with nothing changed writes no anchors; a transaction of a
//! batch that fails is rolled back and its documents redone one at a time, so a failure stays
//! the failing document's; one thread writes.

use super::integrity::{full_check_if_due, FullCheck, FullChecked};
use super::missing::mark_lost;
use super::reanchor::{compute, gather, Inputs};
use super::shard::Shard;
use super::source::{look, look_known, Looked, Probe};
use crate::chunk::caller::{CALLER_SPEC, FALLBACK_SPEC};
use crate::chunk::ChunkSpec;
use crate::error::{Error, Result};
use crate::extract::ExtractOptions;
use crate::model::{Chunking, Document, DocumentState, Revision};
use crate::store::{
    AnchoringBasis, ChunkPolicy, ChunkedRows, Chunks, CitationCounts, NewAnchor, NewExtraction,
    Outcome, ReservedChunkings, StaleCitations, Store, SweepShard, SweptState, TextOrigin, Writer,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
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
    /// When the whole store is checked first (`super::integrity`).
    pub full_check: FullCheck,
}

pub use super::outcome::{DocumentOutcome, DocumentResult};

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
    /// Citations whose status or span changed (re-anchored, or lost with their source).
    pub citations_changed: usize,
    /// Of the citations re-anchored, those carried to a new revision with the same status and
    /// span: not a change anyone need look at.
    pub citations_carried: usize,
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
    /// Time spent reading every page of the store first, seconds; absent when that was not due
    /// (`[sweep] full_check_days`) or the store is on PostgreSQL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_check_seconds: Option<f64>,
}

impl SweepSummary {
    fn add(&mut self, result: DocumentResult) {
        self.documents += 1;
        self.extractions += usize::from(result.extracted);
        self.citations_reanchored += result.reanchored;
        self.citations_unchanged += result.unchanged_citations;
        self.anchors_written += result.anchors_written;
        self.citations_changed += result.changed_citations;
        self.citations_carried += result.carried_citations;
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
/// next transaction that writes, or after this many.
const UNCHANGED_FLUSH: usize = 1000;

/// Documents swept together: their sources are looked at, then their rungs (a′) and (b) run in
/// one write transaction, their re-anchoring with none open, and their anchors are written in
/// a second one. A commit per document cost more than the rest of a sweep that re-chunks.
const BATCH_DOCUMENTS: usize = 64;

/// Batches whose re-anchoring may run at once (each on a thread of its own) while this thread
/// writes the next ones: the revised documents of a night often come together, and one
/// thread would leave the writer waiting on them. Bounds memory to this many batches' inputs.
const IN_FLIGHT: usize = 2;

/// A batch also ends once the text it holds (extracted, or read to re-anchor) passes this, so
/// memory stays flat whatever the documents' sizes.
const BATCH_BYTES: usize = 8 << 20;

/// Runs a sweep; `now` gives timestamps.
pub fn sweep(
    store: &mut Store,
    options: &SweepOptions,
    now: &dyn Fn() -> String,
    progress: Progress<'_>,
) -> Result<SweepSummary> {
    let started = Instant::now();
    if let Some(run) = &options.run {
        super::shard::check_run_name(run)?;
    }
    // A sweep reads only what changed: every page is read first when that is due.
    let checked = full_check_if_due(store, options.full_check, &now())?;
    // Every commit of a sweep can be redone (the swept_documents cursor): commit without
    // waiting for the disk, as SQLite's synchronous=NORMAL does.
    store.redoable_writes()?;
    let (mut summary, documents) = start(store, options, checked.as_ref(), now)
        .map_err(|e| e.during(|| " while starting the sweep".into()))?;
    let mut run = Run {
        sweep_id: summary.sweep,
        options,
        now,
        tally: Tally::default(),
        chunked_ahead: HashSet::new(),
    };
    run_batches(store, &mut run, &documents, &mut summary, progress)?;
    let sweep_id = summary.sweep;
    close(store, &mut run, &mut summary, started)
        .map_err(|e| e.during(|| format!(" while finishing sweep {sweep_id}")))?;
    Ok(summary)
}

/// The sweeps row, opened, and the documents to sweep (this shard's, with `--shard`).
/// The full check that ran before, if any, is recorded with the sweeps row.
fn start(
    store: &mut Store,
    options: &SweepOptions,
    checked: Option<&FullChecked>,
    now: &dyn Fn() -> String,
) -> Result<(SweepSummary, Vec<Document>)> {
    let writer = store.writer()?;
    let mut documents = select_documents(&writer, &options.docs)?;
    if let Some(checked) = checked {
        writer.record_full_check(&checked.at, checked.seconds)?;
    }
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
    let sweep_id = writer.start_sweep(&started_at, documents.len(), shard.as_ref())?;
    writer.commit()?;
    let summary = SweepSummary {
        sweep: sweep_id,
        shard: shard.as_ref().map(|s| format!("{}/{}", s.index, s.count)),
        run: shard.map(|s| s.run),
        full_check_seconds: checked.map(|c| c.seconds),
        ..SweepSummary::default()
    };
    Ok((summary, documents))
}

/// Every document, batch by batch: this thread looks at the next batch's sources and writes
/// its rungs, while earlier batches' re-anchoring runs on threads of their own (at most
/// [`IN_FLIGHT`]); each batch's anchors are written in document order. One writer, the same
/// transactions.
fn run_batches(
    store: &mut Store,
    run: &mut Run<'_>,
    documents: &[Document],
    summary: &mut SweepSummary,
    progress: Progress<'_>,
) -> Result<()> {
    let mut queue = documents.iter().peekable();
    let (mut done, total) = (0, documents.len());
    let mut report = |summary: &mut SweepSummary, results: Vec<DocumentResult>| {
        for result in results {
            summary.add(result);
            done += 1;
            progress(done, total, summary.citations_reanchored);
        }
    };
    std::thread::scope(|scope| -> Result<()> {
        let mut in_flight = std::collections::VecDeque::new();
        let mut bulk = BulkRead::default();
        while queue.peek().is_some() {
            let looking = Instant::now();
            let batch = next_batch(store, &mut queue, run.options, &mut bulk)?;
            summary.prepare_seconds += looking.elapsed().as_secs_f64();
            let writing = Instant::now();
            let mut rest = batch.as_slice();
            while !rest.is_empty() {
                let (mut begun, taken) = run.begin(store, rest)?;
                rest = &rest[taken..];
                let pending = std::mem::take(&mut begun.pending);
                // Nothing to re-anchor (a night with no change): no thread to wait for.
                let computing = if pending.is_empty() {
                    Computing::Done(Vec::new())
                } else {
                    Computing::Running(scope.spawn(move || compute_all(pending)))
                };
                in_flight.push_back((begun, computing));
                // Oldest first, so results come in document order: each batch whose
                // re-anchoring is done, and the oldest anyway once IN_FLIGHT are waiting.
                while let Some((_, computing)) = in_flight.front() {
                    if in_flight.len() <= IN_FLIGHT && !computing.is_done() {
                        break;
                    }
                    let (previous, computing) = in_flight.pop_front().expect("a front");
                    report(summary, run.end(store, previous, join(computing))?);
                }
            }
            summary.anchor_seconds += writing.elapsed().as_secs_f64();
        }
        let writing = Instant::now();
        while let Some((previous, computing)) = in_flight.pop_front() {
            report(summary, run.end(store, previous, join(computing))?);
        }
        summary.anchor_seconds += writing.elapsed().as_secs_f64();
        Ok(())
    })
}

/// Whether [`next_batch`] reads what the last sweep left of its documents in one statement.
/// It pays only where documents are quiet: after a batch read that way held none (a night
/// that re-chunks every document, say), the next [`BULK_PAUSE`] batches are sighted one by
/// one, then the read is tried again.
#[derive(Debug, Default)]
struct BulkRead {
    /// Batches still to sight one by one.
    paused: usize,
}

/// Batches sighted one by one after a batch read in bulk held no quiet document.
const BULK_PAUSE: usize = 8;

/// The next batch: up to [`BATCH_DOCUMENTS`] documents, or fewer once their text passes
/// [`BATCH_BYTES`], each with what looking at its source found. What the last sweep left of
/// them is read in one statement first ([`Reads::swept_states`], unless `bulk` is paused), so
/// a document nothing changed for costs a stat and no query of its own.
fn next_batch<'d>(
    store: &Store,
    queue: &mut std::iter::Peekable<std::slice::Iter<'d, Document>>,
    options: &SweepOptions,
    bulk: &mut BulkRead,
) -> Result<Vec<(&'d Document, Sighted)>> {
    let mut states = if bulk.paused > 0 {
        bulk.paused -= 1;
        HashMap::new()
    } else {
        let ids: Vec<i64> = queue.clone().take(BATCH_DOCUMENTS).map(|d| d.id).collect();
        store.reads().swept_states(&ids)?
    };
    let read_in_bulk = !states.is_empty();
    let mut batch = Vec::new();
    let mut bytes = 0;
    while batch.len() < BATCH_DOCUMENTS && bytes < BATCH_BYTES {
        let Some(document) = queue.next() else { break };
        let known = states
            .remove(&document.id)
            .and_then(|state| sight_known(document, state, options));
        let sighted = match known {
            Some(sighted) => sighted,
            None => sight(store, document, options).map_err(|e| sweeping(e, document))?,
        };
        bytes += sighted.bytes();
        batch.push((document, sighted));
    }
    if read_in_bulk && !batch.iter().any(|(_, s)| matches!(s, Sighted::Quiet)) {
        bulk.paused = BULK_PAUSE;
    }
    Ok(batch)
}

/// [`sight`] from what [`next_batch`] read of an active document whose file is looked at
/// (`None` for any other: [`sight`] reads what it needs): `Quiet` when, besides its file being
/// as last extracted, its latest revision is chunked as asked and its last sweep covered it,
/// so [`prepare`] would find nothing to do and write nothing.
fn sight_known(document: &Document, state: SweptState, options: &SweepOptions) -> Option<Sighted> {
    if state.state != DocumentState::Active
        || state.origin != TextOrigin::File
        || options.no_extract
    {
        return None;
    }
    let chunked_as_asked = match (&state.chunking, options.chunker) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some((_, spec)), Some(wanted)) => keeps_chunking(spec, wanted),
    };
    let looked = look_known(
        document,
        state.source,
        state.fingerprint,
        options.config_dir.as_deref(),
        &options.extract,
    );
    Some(match looked {
        Ok(looked)
            if looked.probe == Probe::Unchanged && chunked_as_asked && state.swept_current =>
        {
            Sighted::Quiet
        }
        Ok(looked) => Sighted::Sweep(Some(looked)),
        Err(err) => Sighted::Failed(err.to_string()),
    })
}

/// The sweeps row closed: the citations' status counts, the time, the last unchanged tally.
fn close(
    store: &mut Store,
    run: &mut Run<'_>,
    summary: &mut SweepSummary,
    started: Instant,
) -> Result<()> {
    summary.seconds = started.elapsed().as_secs_f64();
    let writer = store.writer()?;
    run.tally.flush(&writer, summary.sweep, true)?;
    let status = writer.finish_sweep(summary.sweep, summary.seconds, &(run.now)())?;
    writer.commit()?;
    summary.status = crate::model::counts_by_name(status);
    Ok(())
}

/// A batch's re-anchoring: done, or running on a thread of the sweep's scope.
enum Computing<'s, T> {
    Done(T),
    Running(std::thread::ScopedJoinHandle<'s, T>),
}

impl<T> Computing<'_, T> {
    fn is_done(&self) -> bool {
        match self {
            Computing::Done(_) => true,
            Computing::Running(handle) => handle.is_finished(),
        }
    }
}

/// The result of a batch's re-anchoring; a panic of its thread goes on in this one.
fn join<T>(computing: Computing<'_, T>) -> T {
    match computing {
        Computing::Done(done) => done,
        Computing::Running(handle) => handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
    }
}

/// What looking at a document's source (rung (a), outside any transaction) found.
enum Sighted {
    /// Retired: passed over.
    Retired,
    /// To sweep: the probe of its source (`None`: not looked at, `--no-extract` or text the
    /// caller handed over).
    Sweep(Option<Looked>),
    /// Its source could not be looked at: why.
    Failed(String),
    /// Nothing changed since its last sweep (its file as last extracted, its latest revision
    /// chunked as asked, every citation covered): done without a transaction of its own.
    Quiet,
}

impl Sighted {
    /// Its text stays as stored in this sweep: not looked at, or its file as last extracted.
    fn keeps_text(&self) -> bool {
        matches!(
            self,
            Sighted::Sweep(None)
                | Sighted::Sweep(Some(Looked {
                    probe: Probe::Unchanged | Probe::SameBytes(_),
                    ..
                }))
        )
    }

    /// Bytes of extracted text it holds.
    fn bytes(&self) -> usize {
        match self {
            Sighted::Sweep(Some(Looked {
                probe: Probe::Extracted(extracted),
                ..
            })) => extracted.extracted.text.len(),
            _ => 0,
        }
    }
}

/// Rung (a) for one document, outside any transaction.
fn sight(store: &Store, document: &Document, options: &SweepOptions) -> Result<Sighted> {
    // Text the caller handed over has no file to look at: the caller brings new text.
    let given = store.text_origin(document.id)? == TextOrigin::Given;
    Ok(match store.reads().document_state(document.id)? {
        DocumentState::Retired => Sighted::Retired,
        _ if options.no_extract || given => Sighted::Sweep(None),
        _ => match look(
            store,
            document,
            options.config_dir.as_deref(),
            &options.extract,
        ) {
            Ok(looked) => Sighted::Sweep(Some(looked)),
            Err(err) => Sighted::Failed(err.to_string()),
        },
    })
}

/// The documents' outcomes not yet added to the sweeps row. Each transaction that writes rows
/// of a document adds its outcome before it commits; a document that wrote nothing (unchanged)
/// waits for the next such transaction, or [`UNCHANGED_FLUSH`] of them.
#[derive(Debug, Clone, Default)]
struct Tally {
    /// Per outcome: (documents, what they did to their citations).
    counts: BTreeMap<&'static str, (usize, CitationCounts)>,
    /// Extractor runs.
    extractions: usize,
    /// Some counted document wrote rows in the open transaction.
    wrote: bool,
}

impl Tally {
    /// Counts `result`'s outcome (`wrote`: the document wrote rows of its own).
    fn add(&mut self, result: &DocumentResult, wrote: bool) {
        let (documents, citations) = self.counts.entry(result.outcome.column()).or_default();
        *documents += 1;
        *citations += CitationCounts {
            reanchored: result.reanchored,
            changed: result.changed_citations,
            carried: result.carried_citations,
        };
        self.extractions += usize::from(result.extracted);
        self.wrote |= wrote || result.outcome != DocumentOutcome::Unchanged;
    }

    /// Adds what is counted to the sweeps row in `writer`'s transaction when it must go in it
    /// (`always`, or a counted document wrote rows), or has waited long enough.
    fn flush(&mut self, writer: &Writer<'_>, sweep_id: i64, always: bool) -> Result<()> {
        let unchanged = self
            .counts
            .get(DocumentOutcome::Unchanged.column())
            .map_or(0, |c| c.0);
        if !(always || self.wrote || unchanged >= UNCHANGED_FLUSH) {
            return Ok(());
        }
        for (column, (documents, citations)) in std::mem::take(&mut self.counts) {
            writer.count_documents(sweep_id, column, documents, citations)?;
        }
        writer.count_extractions(sweep_id, std::mem::take(&mut self.extractions))?;
        self.wrote = false;
        Ok(())
    }
}

/// One sweep's settings and the outcomes it has not yet written.
struct Run<'o> {
    sweep_id: i64,
    options: &'o SweepOptions,
    now: &'o dyn Fn() -> String,
    tally: Tally,
    /// Documents (row ids) whose latest revision [`Run::chunk_ahead`] chunked and [`prepare`]
    /// has not come to yet: re-chunked by this sweep, though [`prepare`] finds them chunked.
    chunked_ahead: HashSet<i64>,
}

/// A document whose citations are to be re-anchored between the batch's two transactions.
struct Pending<'d> {
    /// Index in the batch.
    at: usize,
    document: &'d Document,
    result: DocumentResult,
    work: Work,
}

/// A batch whose first transaction committed: the results so far (`None` where re-anchoring
/// is pending) and the documents to re-anchor.
struct Begun<'d> {
    results: Vec<Option<DocumentResult>>,
    pending: Vec<Pending<'d>>,
}

impl<'d> Begun<'d> {
    /// A batch whose documents were all finished already (each alone, after its transaction
    /// failed): nothing left to re-anchor.
    fn done(results: Vec<DocumentResult>) -> Self {
        Begun {
            results: results.into_iter().map(Some).collect(),
            pending: Vec::new(),
        }
    }
}

/// The chunks of a batch's reserved chunkings ([`Run::chunk_ahead`]) while another thread of
/// the batch's scope makes them: written by the first [`ChunksToWrite::write`], before the
/// batch reads any chunk and before it commits.
struct ChunksToWrite<'s>(Option<std::thread::ScopedJoinHandle<'s, ChunkedRows>>);

impl ChunksToWrite<'_> {
    /// Waits for the chunks, if not written yet, and writes them.
    fn write(&mut self, writer: &Writer<'_>) -> Result<()> {
        match self.0.take() {
            Some(making) => writer.insert_chunked(
                making
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            ),
            None => Ok(()),
        }
    }
}

/// Threads that re-anchor one batch's documents (the batch's own and one more, where the
/// machine has a second core). A batch of 24 re-extracted PDFs kept one core busy while the
/// writer waited on it and the other idled.
const BATCH_THREADS: usize = 2;

/// Re-anchors the pending documents (no database, no lock): rung (c) proper. Each document's
/// re-anchoring is pure and its own, so the documents are shared out between
/// [`BATCH_THREADS`] threads and their results put back in the batch's order: the same
/// whichever thread computed them.
fn compute_all(pending: Vec<Pending<'_>>) -> Vec<(Pending<'_>, Vec<NewAnchor>)> {
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(BATCH_THREADS)
        .min(pending.len());
    if threads <= 1 {
        return pending.into_iter().map(compute_one).collect();
    }
    // Largest first, each taken by the first thread free: a long document left for last
    // would keep one thread busy alone.
    let mut order: Vec<usize> = (0..pending.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(pending[i].work.inputs.bytes()));
    let todo: Vec<Mutex<Option<Pending<'_>>>> =
        pending.into_iter().map(|p| Mutex::new(Some(p))).collect();
    let done: Vec<Mutex<Option<Computed<'_>>>> = todo.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let p = lock(&todo[i]).take().expect("each document taken once");
            *lock(&done[i]) = Some(compute_one(p));
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
    done.into_iter()
        .map(|d| {
            d.into_inner()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .expect("every document re-anchored")
        })
        .collect()
}

/// A document re-anchored: its pending state and its anchors rows.
type Computed<'d> = (Pending<'d>, Vec<NewAnchor>);

/// Re-anchors one pending document.
fn compute_one(mut p: Pending<'_>) -> Computed<'_> {
    let anchors = compute(&p.work.inputs, &mut p.result);
    (p, anchors)
}

/// The value behind `m` (a thread that panicked holding it has already failed the sweep).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Run<'_> {
    /// Sweeps the first documents of `batch` (see [`Run::begin`]) in this thread: their
    /// results in order, and how many were taken.
    fn batch(
        &mut self,
        store: &mut Store,
        batch: &[(&Document, Sighted)],
    ) -> Result<(Vec<DocumentResult>, usize)> {
        let (mut begun, taken) = self.begin(store, batch)?;
        let computed = compute_all(std::mem::take(&mut begun.pending));
        Ok((self.end(store, begun, computed)?, taken))
    }

    /// The first half of a batch: one transaction for the rungs of the first documents of
    /// `batch` (all, unless the text read to re-anchor them passes [`BATCH_BYTES`] first);
    /// how many were taken. Re-anchoring then runs with no transaction open ([`compute_all`])
    /// and [`Run::end`] writes the anchors in a second transaction.
    ///
    /// When a transaction fails, it is rolled back (the tally as it was before it) and each
    /// of its documents is redone alone, so one document's failure is that document's only:
    /// it is counted failed in a transaction of its own.
    fn begin<'d>(
        &mut self,
        store: &mut Store,
        batch: &[(&'d Document, Sighted)],
    ) -> Result<(Begun<'d>, usize)> {
        let before = self.tally.clone();
        let ahead_before = self.chunked_ahead.clone();
        match self.prepare_all(store, batch) {
            Ok((results, pending, taken)) => Ok((Begun { results, pending }, taken)),
            // The store's failure, not the documents': the sweep stops (rerun, it goes on).
            Err(err) if err.is_store_wide() => Err(err),
            Err(_) if batch.len() > 1 => {
                self.tally = before;
                self.chunked_ahead = ahead_before;
                let mut results = Vec::with_capacity(batch.len());
                for one in batch {
                    results.extend(self.batch(store, std::slice::from_ref(one))?.0);
                }
                Ok((Begun::done(results), batch.len()))
            }
            Err(err) => {
                self.tally = before;
                self.chunked_ahead = ahead_before;
                let (document, sighted) = &batch[0];
                let result = match sighted {
                    Sighted::Retired => retired(document),
                    _ => failed(document, err.to_string()),
                };
                self.count_alone(store, &result)?;
                Ok((Begun::done(vec![result]), 1))
            }
        }
    }

    /// The second half of a batch: the anchors of its re-anchored documents in one
    /// transaction (each document alone when it fails); every result, in order.
    fn end<'d>(
        &mut self,
        store: &mut Store,
        begun: Begun<'d>,
        computed: Vec<(Pending<'d>, Vec<NewAnchor>)>,
    ) -> Result<Vec<DocumentResult>> {
        let mut results = begun.results;
        let before = self.tally.clone();
        match self.finish_all(store, &computed) {
            Ok(finished) => {
                for (at, result) in finished {
                    results[at] = Some(result);
                }
            }
            Err(err) if err.is_store_wide() => return Err(err),
            Err(_) => {
                self.tally = before;
                for one in &computed {
                    let result = match self.finish_all(store, std::slice::from_ref(one)) {
                        Ok(mut finished) => finished.remove(0).1,
                        Err(err) if err.is_store_wide() => return Err(err),
                        Err(err) => {
                            let result = failed(one.0.document, err.to_string());
                            self.count_alone(store, &result)?;
                            result
                        }
                    };
                    results[one.0.at] = Some(result);
                }
            }
        }
        Ok(results
            .into_iter()
            .map(|r| r.expect("every document taken has a result"))
            .collect())
    }

    /// The first transaction: rungs (a′) and (b) and the reads of (c) for the documents
    /// taken; those with nothing to re-anchor are done in it. Returns their results (`None`
    /// where re-anchoring is pending), the pending documents, and how many were taken.
    #[allow(clippy::type_complexity)]
    fn prepare_all<'d>(
        &mut self,
        store: &mut Store,
        batch: &[(&'d Document, Sighted)],
    ) -> Result<(Vec<Option<DocumentResult>>, Vec<Pending<'d>>, usize)> {
        let batch_error = |e: Error| match batch.first() {
            Some((document, _)) => committing(e, document),
            None => e,
        };
        let writer = store.lookup_writer().map_err(batch_error)?;
        let reserved = self.chunk_ahead(&writer, batch).map_err(batch_error)?;
        let (results, pending) = std::thread::scope(|scope| {
            // The reserved chunkings' chunks are made on another core while this one reads
            // what each document needs; they are written before anything reads them.
            let mut chunks = ChunksToWrite(reserved.map(|r| scope.spawn(move || r.chunk())));
            let prepared = self.prepare_each(&writer, batch, &mut chunks)?;
            chunks.write(&writer).map_err(batch_error)?;
            Ok::<_, Error>(prepared)
        })?;
        self.tally
            .flush(&writer, self.sweep_id, false)
            .map_err(batch_error)?;
        writer.commit().map_err(batch_error)?;
        let taken = results.len();
        Ok((results, pending, taken))
    }

    /// The documents of `batch` in `writer`'s transaction, in order, until the text held for
    /// re-anchoring passes [`BATCH_BYTES`]: their results (`None` where re-anchoring is
    /// pending) and the pending documents.
    #[allow(clippy::type_complexity)]
    fn prepare_each<'d>(
        &mut self,
        writer: &Writer<'_>,
        batch: &[(&'d Document, Sighted)],
        chunks: &mut ChunksToWrite<'_>,
    ) -> Result<(Vec<Option<DocumentResult>>, Vec<Pending<'d>>)> {
        let mut results = Vec::with_capacity(batch.len());
        let mut pending = Vec::new();
        let mut held = 0;
        for (at, (document, sighted)) in batch.iter().enumerate() {
            if held >= BATCH_BYTES {
                break;
            }
            let looked = match sighted {
                Sighted::Retired => {
                    let result = retired(document);
                    self.tally.add(&result, true);
                    results.push(Some(result));
                    continue;
                }
                Sighted::Failed(error) => {
                    let result = failed(document, error.clone());
                    self.tally.add(&result, true);
                    results.push(Some(result));
                    continue;
                }
                // What prepare would find of it, read before this transaction; its outcome is
                // counted with the unchanged ones.
                Sighted::Quiet => {
                    let result = DocumentResult {
                        doc_id: document.doc_id.clone(),
                        ..DocumentResult::default()
                    };
                    self.tally.add(&result, false);
                    results.push(Some(result));
                    continue;
                }
                Sighted::Sweep(looked) => looked.as_ref(),
            };
            // On a shared store another worker (a shard restarted while the old one runs, an
            // ingest) may write this document: one at a time.
            let this = |e: Error| sweeping(e, document);
            writer.lock_document(&document.doc_id).map_err(this)?;
            let (result, work) =
                prepare(writer, self.sweep_id, document, looked, false, self, chunks)
                    .map_err(this)?;
            self.chunked_ahead.remove(&document.id);
            match work {
                None => {
                    self.tally.add(&result, false);
                    results.push(Some(result));
                }
                // Nothing to re-anchor (every citation is current): no engine run to keep
                // outside the lock, so the swept_documents row goes in this transaction.
                Some(work) if work.inputs.citations() == 0 => {
                    let result = finish(writer, self.sweep_id, document, &work, &[], result, self)
                        .map_err(this)?;
                    self.tally.add(&result, true);
                    results.push(Some(result));
                }
                Some(work) => {
                    held += work.inputs.bytes();
                    pending.push(Pending {
                        at,
                        document,
                        result,
                        work,
                    });
                    results.push(None);
                }
            }
        }
        Ok((results, pending))
    }

    /// The second transaction: for each pending document, unless another writer changed what
    /// its re-anchoring read (then it is done again here), its anchors and swept_documents
    /// row; every outcome counted.
    fn finish_all(
        &mut self,
        store: &mut Store,
        computed: &[(Pending<'_>, Vec<NewAnchor>)],
    ) -> Result<Vec<(usize, DocumentResult)>> {
        if computed.is_empty() {
            return Ok(Vec::new());
        }
        let batch_error = |e: Error| committing(e, computed[0].0.document);
        let writer = store.lookup_writer().map_err(batch_error)?;
        let mut finished = Vec::with_capacity(computed.len());
        for (p, anchors) in computed {
            let this = |e: Error| sweeping(e, p.document);
            writer.lock_document(&p.document.doc_id).map_err(this)?;
            let result = if writer.anchoring_basis(p.document).map_err(this)? == p.work.basis {
                finish(
                    &writer,
                    self.sweep_id,
                    p.document,
                    &p.work,
                    anchors,
                    p.result.clone(),
                    self,
                )
                .map_err(this)?
            } else {
                self.redo(&writer, p).map_err(this)?
            };
            self.tally.add(&result, true);
            finished.push((p.at, result));
        }
        self.tally
            .flush(&writer, self.sweep_id, false)
            .map_err(batch_error)?;
        writer.commit().map_err(batch_error)?;
        Ok(finished)
    }

    /// Rung (b) for the batch at once: the latest revisions of its documents whose text this
    /// sweep keeps (not looked at, or their file as last extracted) get their chunking as
    /// asked, their texts read in one statement; the chunks are made off this thread and
    /// inserted in as few statements as the store allows ([`ChunksToWrite`]). [`prepare`]
    /// then finds them chunked; a document whose text may change is left to it (a new
    /// revision is chunked as it is stored). A night that only changed the chunker spent half
    /// its time chunking one document at a time.
    fn chunk_ahead(
        &mut self,
        writer: &Writer<'_>,
        batch: &[(&Document, Sighted)],
    ) -> Result<Option<ReservedChunkings>> {
        let Some(spec) = self.options.chunker else {
            return Ok(None);
        };
        let mut kept = Vec::new();
        for (document, sighted) in batch {
            if sighted.keeps_text() {
                // As `prepare_each` does before a document's first write.
                writer.lock_document(&document.doc_id)?;
                kept.push(document.id);
            }
        }
        let reserved = writer.reserve_chunkings(&kept, spec, &self.now())?;
        if reserved.is_empty() {
            return Ok(None);
        }
        self.chunked_ahead.extend(reserved.document_ids());
        Ok(Some(reserved))
    }

    /// Another writer (a concurrent cite or ingest) changed the document since it was read:
    /// re-anchors it inside `writer`'s transaction. (Forced: the document may have just come
    /// back, its committed state no longer says so.)
    fn redo(&self, writer: &Writer<'_>, p: &Pending<'_>) -> Result<DocumentResult> {
        let (again, work) = prepare(
            writer,
            self.sweep_id,
            p.document,
            None,
            true,
            self,
            &mut ChunksToWrite(None),
        )?;
        let mut result = DocumentResult {
            extracted: p.result.extracted,
            outcome: p.result.outcome,
            ..again
        };
        if let Some(work) = work {
            let anchors = compute(&work.inputs, &mut result);
            result = finish(
                writer,
                self.sweep_id,
                p.document,
                &work,
                &anchors,
                result,
                self,
            )?;
        }
        Ok(result)
    }

    /// Counts a document that wrote nothing of its own, in a transaction of its own.
    fn count_alone(&mut self, store: &mut Store, result: &DocumentResult) -> Result<()> {
        let writer = store.writer()?;
        self.tally.add(result, true);
        self.tally.flush(&writer, self.sweep_id, true)?;
        writer.commit()
    }

    fn now(&self) -> String {
        (self.now)()
    }
}

/// `err`, a lost connection naming `document` as the one being swept.
fn sweeping(err: Error, document: &Document) -> Error {
    err.during(|| format!(" while sweeping {:?}", document.doc_id))
}

/// `err`, a lost connection naming the first document of the batch being begun or committed
/// (the batches before it committed).
fn committing(err: Error, first: &Document) -> Error {
    err.during(|| format!(" while committing the documents from {:?} on", first.doc_id))
}

fn retired(document: &Document) -> DocumentResult {
    DocumentResult {
        doc_id: document.doc_id.clone(),
        outcome: DocumentOutcome::Retired,
        ..DocumentResult::default()
    }
}

fn failed(document: &Document, error: String) -> DocumentResult {
    DocumentResult {
        doc_id: document.doc_id.clone(),
        outcome: DocumentOutcome::Failed,
        error: Some(error),
        ..DocumentResult::default()
    }
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
    looked: Option<&Looked>,
    force: bool,
    run: &Run<'_>,
    chunks: &mut ChunksToWrite<'_>,
) -> Result<(DocumentResult, Option<Work>)> {
    let options = run.options;
    let mut result = DocumentResult {
        doc_id: document.doc_id.clone(),
        ..DocumentResult::default()
    };
    let mut came_back = false;
    if looked.is_none() && writer.reads().document_state(document.id)? == DocumentState::Missing {
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
                &run.now(),
            )?;
            result.anchors_written =
                mark_lost(writer, sweep_id, &document.doc_id, reason, &run.now())?;
            // Each of those became lost: a change.
            result.changed_citations = result.anchors_written;
            result.outcome = DocumentOutcome::Missing;
            result.error = Some(reason.clone());
            return Ok((result, None));
        }
        came_back = writer.set_document_state(
            document.id,
            Some(sweep_id),
            DocumentState::Active,
            Some("source found again"),
            &run.now(),
        )?;
        let (extracted, revised) = store_probe(
            writer,
            sweep_id,
            document,
            looked,
            options.chunker,
            &run.now(),
        )?;
        result.extracted = extracted;
        if revised {
            result.outcome = DocumentOutcome::ReExtracted;
        }
    }
    let Some(revision) = writer.latest_revision(document)? else {
        return Ok((result, None));
    };
    let (chunking, chunked) =
        ensure_chunked(writer, document, &revision, options.chunker, &run.now())?;
    if (chunked || run.chunked_ahead.contains(&document.id))
        && result.outcome == DocumentOutcome::Unchanged
    {
        result.outcome = DocumentOutcome::Rechunked;
    }
    let Some(chunking) = chunking else {
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
    } = writer.stale_citations(document, &revision, chunking.id)?;
    result.unchanged_citations = current;
    if !stale.is_empty() {
        // Re-anchoring reads the chunks: this batch's must be written first.
        chunks.write(writer)?;
    }
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
    work: &Work,
    anchors: &[NewAnchor],
    mut result: DocumentResult,
    run: &Run<'_>,
) -> Result<DocumentResult> {
    result.reanchored = work.inputs.citations();
    result.anchors_written += anchors.len();
    if result.reanchored > 0 && result.outcome == DocumentOutcome::Unchanged {
        result.outcome = DocumentOutcome::Reanchored;
    }
    writer.record_anchors(sweep_id, &document.doc_id, anchors, &run.now())?;
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
    looked: &Looked,
    chunker: Option<ChunkSpec>,
    now: &str,
) -> Result<(bool, bool)> {
    if writer
        .reads()
        .current_source(document.id)?
        .map(|(id, _)| id)
        != Some(looked.source_id)
    {
        return Ok((false, false));
    }
    match &looked.probe {
        Probe::Unchanged | Probe::Missing(_) => Ok((false, false)),
        Probe::SameBytes(fingerprint) => {
            let revision_id = writer.latest_revision(document)?.map_or(0, |r| r.id);
            writer.record_extraction(
                &NewExtraction {
                    document_id: document.id,
                    source_id: looked.source_id,
                    sweep_id: Some(sweep_id),
                    fingerprint: fingerprint.clone(),
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
            let ingested = writer.store_extracted(
                document,
                (looked.source_id, Some(sweep_id)),
                extracted.as_text(),
                Chunks::Spec(policy),
                now,
            )?;
            Ok((true, ingested.outcome == Outcome::Revised))
        }
    }
}

/// (b) Makes sure the latest revision has a chunking with the configured spec (else keeps or
/// inherits the one it has; the caller's chunks of the latest revision are always kept, as
/// they are what the caller's retriever serves). Returns the revision's current chunking
/// after that, and true when a chunking was made.
fn ensure_chunked(
    writer: &Writer<'_>,
    document: &Document,
    revision: &Revision,
    chunker: Option<ChunkSpec>,
    now: &str,
) -> Result<(Option<Chunking>, bool)> {
    let current = writer.current_chunking(revision)?;
    let wanted = match (chunker, &current) {
        (Some(spec), Some(c)) if keeps_chunking(&c.spec, spec) => None,
        (Some(spec), _) => Some(spec),
        (None, Some(_)) => None,
        (None, None) => previous_spec(writer, document)?,
    };
    match wanted {
        Some(spec) => {
            let done = writer.rechunk(std::slice::from_ref(&document.doc_id), spec, now)?;
            let made = done.iter().any(|d| d.chunking.created);
            Ok((writer.current_chunking(revision)?, made))
        }
        None => Ok((current, false)),
    }
}

/// A current chunking of spec `current` stays when the sweep asks for `wanted`: it has that
/// spec, or it is the caller's (see [`ensure_chunked`]; `Writer::reserve_chunkings` applies
/// the same rule in SQL).
fn keeps_chunking(current: &str, wanted: ChunkSpec) -> bool {
    current == wanted.to_string() || current == CALLER_SPEC
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
