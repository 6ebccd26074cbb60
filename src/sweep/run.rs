//! The nightly job: bring every document up to date and re-anchor its citations, one document
//! per transaction.
//!
//! Per document: (a) re-extract its source when the file or the extractor changed (a new
//! revision only when the text changed); (b) re-chunk when the configured chunker differs from
//! the current chunking, or chunk a latest revision that has none; (c) when the document's
//! (revision, chunking) differs from the one it was last swept at, re-anchor every citation not
//! yet decided against the current revision ([`DocumentSweep`]); (d) append an anchors row for
//! each citation whose status or span changed, and a swept_documents row. Then commit.
//!
//! Invariants: a document whose (revision, chunking) is the one it was last swept at costs one
//! comparison; a run killed at any moment leaves every document either untouched or fully done,
//! so running again ends in the state of one uninterrupted run; citation rows are never
//! modified; a second sweep with nothing changed writes no anchors.

use super::{Anchor, Citation, DocumentSweep, Method, NewChunk, Status};
use crate::chunk::ChunkSpec;
use crate::cite::unique_context_in;
use crate::error::{Error, Result};
use crate::extract::Extractor;
use crate::ingest::{ingest, rechunk, ChunkPolicy, Outcome, Planned};
use crate::model::{Chunking, Document, Revision};
use crate::store::{CitationState, NewAnchor, Store, StoredChunk, SweepRow, Writer};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
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
}

/// What happened to one document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocumentResult {
    /// The document.
    pub doc_id: String,
    /// A new revision was extracted.
    pub re_extracted: bool,
    /// The source file was not there to re-extract.
    pub source_missing: bool,
    /// A new chunking was made.
    pub rechunked: bool,
    /// Citations re-anchored.
    pub reanchored: usize,
    /// Anchors rows written.
    pub anchors_written: usize,
    /// Why the document could not be swept (it is left as it was).
    pub error: Option<String>,
}

/// What a sweep did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SweepSummary {
    /// The sweep's row id.
    pub sweep: i64,
    /// Documents looked at.
    pub documents: usize,
    /// Documents with a new revision from re-extraction.
    pub re_extracted: usize,
    /// Documents whose source file was not found (paths are as given at ingest, relative to the
    /// folder `ingest` ran in): their stored text was swept as it is.
    pub sources_missing: Vec<String>,
    /// Documents re-chunked.
    pub rechunked: usize,
    /// Documents whose citations were re-anchored.
    pub reanchored_documents: usize,
    /// Documents already up to date (one comparison each).
    pub unchanged_documents: usize,
    /// Citations re-anchored in this sweep.
    pub citations_reanchored: usize,
    /// Citations whose state did not need re-anchoring.
    pub citations_unchanged: usize,
    /// Anchors rows written.
    pub anchors_written: usize,
    /// Current status counts over the whole store, after the sweep.
    pub status: BTreeMap<String, i64>,
    /// Status of the citations re-anchored in this sweep.
    pub reanchored_status: BTreeMap<String, usize>,
    /// How the citations re-anchored in this sweep were placed.
    pub method: BTreeMap<String, usize>,
    /// Documents that could not be swept, with why.
    pub errors: Vec<DocumentResult>,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Time spent re-extracting and re-chunking, seconds.
    pub prepare_seconds: f64,
    /// Time spent re-anchoring, seconds.
    pub anchor_seconds: f64,
}

/// Progress after each document: (documents done, documents total, citations re-anchored).
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize, usize);

/// Runs a sweep; `now` gives timestamps.
pub fn sweep(
    store: &mut Store,
    options: &SweepOptions,
    now: &dyn Fn() -> String,
    progress: Progress<'_>,
) -> Result<SweepSummary> {
    let started = Instant::now();
    let (sweep_id, documents) = {
        let writer = store.writer()?;
        let id = writer.start_sweep(&now())?;
        let documents = select_documents(&writer, &options.docs)?;
        writer.commit()?;
        (id, documents)
    };
    let mut summary = SweepSummary {
        sweep: sweep_id,
        documents: documents.len(),
        ..SweepSummary::default()
    };
    for (done, document) in documents.iter().enumerate() {
        let writer = store.writer()?;
        match sweep_document(&writer, sweep_id, document, options, now, &mut summary) {
            Ok(result) => {
                writer.commit()?;
                summary.re_extracted += usize::from(result.re_extracted);
                if result.source_missing {
                    summary.sources_missing.push(result.doc_id.clone());
                }
                summary.rechunked += usize::from(result.rechunked);
                summary.citations_reanchored += result.reanchored;
                summary.anchors_written += result.anchors_written;
                if result.reanchored > 0 {
                    summary.reanchored_documents += 1;
                }
            }
            Err(err) => {
                drop(writer);
                summary.errors.push(DocumentResult {
                    doc_id: document.doc_id.clone(),
                    error: Some(err.to_string()),
                    ..DocumentResult::default()
                });
            }
        }
        progress(done + 1, documents.len(), summary.citations_reanchored);
    }
    summary.status = store.status_counts()?.into_iter().collect();
    summary.seconds = started.elapsed().as_secs_f64();
    let count = |s: &str| summary.status.get(s).copied().unwrap_or(0);
    let row = SweepRow {
        id: sweep_id,
        documents: summary.documents as i64,
        changed: (summary.re_extracted + summary.rechunked + summary.reanchored_documents) as i64,
        citations: summary.citations_reanchored as i64,
        intact: count("intact"),
        moved: count("moved"),
        degraded: count("degraded"),
        lost: count("lost"),
        seconds: Some(summary.seconds),
        ..SweepRow::default()
    };
    let writer = store.writer()?;
    writer.finish_sweep(&row, &now())?;
    writer.commit()?;
    Ok(summary)
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

/// What re-extraction found.
enum Extraction {
    /// A new revision was stored.
    Revised,
    /// Same text, or an extractor whose command line is not stored.
    Nothing,
    /// The source file is gone.
    Missing,
}

/// (a) Re-extracts the source when it can be read with a known extractor.
fn re_extract(
    writer: &Writer<'_>,
    document: &Document,
    chunker: Option<ChunkSpec>,
    now: &str,
) -> Result<Extraction> {
    let path = Path::new(&document.source);
    // Command extractors need their command line, which is not stored: `ingest --extract-cmd`
    // re-extracts those.
    let Some(extractor) = Extractor::from_name(&document.extractor) else {
        return Ok(Extraction::Nothing);
    };
    if !path.is_file() {
        return Ok(Extraction::Missing);
    }
    let plan = [Planned {
        doc_id: document.doc_id.clone(),
        path: path.to_path_buf(),
        extractor,
        walked: false,
    }];
    let policy = ChunkPolicy {
        explicit: None,
        configured: chunker,
    };
    let report = ingest(writer, &plan, policy, now)?;
    let revised = report
        .documents
        .iter()
        .any(|d| d.outcome == Outcome::Revised);
    Ok(if revised {
        Extraction::Revised
    } else {
        Extraction::Nothing
    })
}

/// (b) Makes sure the latest revision has a chunking with the configured spec (else keeps or
/// inherits the one it has); true when a chunking was made.
fn ensure_chunked(
    writer: &Writer<'_>,
    document: &Document,
    revision: &Revision,
    chunker: Option<ChunkSpec>,
    now: &str,
) -> Result<bool> {
    let current = writer.current_chunking(revision)?;
    let wanted = match (chunker, &current) {
        (Some(spec), Some(c)) if c.spec == spec.to_string() => None,
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

/// The spec of the newest chunking of any earlier revision.
fn previous_spec(writer: &Writer<'_>, document: &Document) -> Result<Option<ChunkSpec>> {
    for revision in writer.revisions(document)?.iter().rev() {
        if let Some(chunking) = writer.current_chunking(revision)? {
            return Ok(chunking.spec.parse().ok());
        }
    }
    Ok(None)
}

fn sweep_document(
    writer: &Writer<'_>,
    sweep_id: i64,
    document: &Document,
    options: &SweepOptions,
    now: &dyn Fn() -> String,
    summary: &mut SweepSummary,
) -> Result<DocumentResult> {
    let started = Instant::now();
    let mut result = DocumentResult {
        doc_id: document.doc_id.clone(),
        ..DocumentResult::default()
    };
    if !options.no_extract {
        match re_extract(writer, document, options.chunker, &now())? {
            Extraction::Revised => result.re_extracted = true,
            Extraction::Missing => result.source_missing = true,
            Extraction::Nothing => {}
        }
    }
    let Some(revision) = writer.latest_revision(document)? else {
        return Ok(result);
    };
    result.rechunked = ensure_chunked(writer, document, &revision, options.chunker, &now())?;
    let Some(chunking) = writer.current_chunking(&revision)? else {
        return Ok(result);
    };
    summary.prepare_seconds += started.elapsed().as_secs_f64();
    if writer.last_swept(document.id)? == Some((revision.id, chunking.id)) {
        summary.unchanged_documents += 1;
        return Ok(result);
    }
    let anchoring = Instant::now();
    let states = writer.citation_states(&document.doc_id)?;
    let (stale, current): (Vec<CitationState>, Vec<CitationState>) = states
        .into_iter()
        .partition(|s| s.revision != revision.seq as u32);
    summary.citations_unchanged += current.len();
    let anchors = reanchor(writer, document, &revision, &chunking, &stale, summary)?;
    result.reanchored = stale.len();
    result.anchors_written = anchors.len();
    writer.record_anchors(sweep_id, &anchors, &now())?;
    writer.record_swept(sweep_id, document.id, revision.id, chunking.id)?;
    summary.anchor_seconds += anchoring.elapsed().as_secs_f64();
    Ok(result)
}

/// (c) Re-anchors `stale` citations (grouped by the revision they were last found in) against
/// the current revision; returns the anchors rows for those whose status or span changed.
fn reanchor(
    writer: &Writer<'_>,
    document: &Document,
    revision: &Revision,
    chunking: &Chunking,
    stale: &[CitationState],
    summary: &mut SweepSummary,
) -> Result<Vec<NewAnchor>> {
    if stale.is_empty() {
        return Ok(Vec::new());
    }
    let new_text = writer.revision_text(revision)?;
    let new_chars: Vec<char> = new_text.chars().collect();
    let chunks: Vec<NewChunk> = writer
        .chunks(chunking)?
        .into_iter()
        .map(|c| NewChunk {
            chunk_id: c.chunk_id,
            start: c.start,
            end: c.end,
            content_hash: c.content_hash,
        })
        .collect();
    let mut by_revision: BTreeMap<u32, Vec<&CitationState>> = BTreeMap::new();
    for state in stale {
        by_revision
            .entry(state.found_revision)
            .or_default()
            .push(state);
    }
    let mut rows = Vec::new();
    for (old_seq, group) in by_revision {
        let old_text = writer.revision_text_of(&document.doc_id, old_seq)?;
        let old_chars: Vec<char> = old_text.chars().collect();
        // Citations of a document share a few chunks: look each one up once.
        let mut chunks_by_id: HashMap<&str, Option<StoredChunk>> = HashMap::new();
        for state in &group {
            if !chunks_by_id.contains_key(state.found_chunk_id.as_str()) {
                let chunk = writer.chunk_by_id(&state.found_chunk_id).ok();
                chunks_by_id.insert(&state.found_chunk_id, chunk);
            }
        }
        let prepared: Vec<Prepared> = group
            .iter()
            .map(|s| {
                prepare(
                    s,
                    &old_text,
                    &old_chars,
                    &chunks_by_id[s.found_chunk_id.as_str()],
                )
            })
            .collect();
        let citations: Vec<Citation> = group
            .iter()
            .zip(&prepared)
            .map(|(s, p)| Citation {
                id: &s.citation_id,
                start: s.found_start,
                end: s.found_end,
                quote: &s.quote,
                span_text: &p.span_text,
                prefix: &p.prefix,
                suffix: &p.suffix,
                chunk_content_hash: &p.chunk_hash,
                chunk_start: p.chunk_start,
            })
            .collect();
        let anchors = DocumentSweep::new(&old_text, &new_text, &chunks, &citations).reanchor_all();
        for (state, mut anchor) in group.iter().zip(anchors) {
            keep_degraded(&mut anchor, state, &new_chars);
            *summary
                .reanchored_status
                .entry(anchor.status.as_str().to_string())
                .or_insert(0) += 1;
            *summary
                .method
                .entry(anchor.method.as_str().to_string())
                .or_insert(0) += 1;
            if let Some(row) = changed_anchor(state, &anchor, revision.seq as u32) {
                rows.push(row);
            }
        }
    }
    Ok(rows)
}

/// Intact and moved mean the *cited* text is at the span. The engine re-anchors from the last
/// place the text was found, which for a citation degraded by an earlier edit holds the edited
/// text: finding that again exactly does not make the citation whole, so it stays degraded.
fn keep_degraded(anchor: &mut Anchor, state: &CitationState, new_chars: &[char]) {
    if !matches!(anchor.status, Status::Intact | Status::Moved) {
        return;
    }
    let at: String = new_chars[anchor.start.min(new_chars.len())..anchor.end.min(new_chars.len())]
        .iter()
        .collect();
    if at != state.cited_text {
        anchor.status = Status::Degraded;
        anchor.reason = Some(format!(
            "the text here still differs from the cited text ({})",
            state.reason.as_deref().unwrap_or("an earlier edit")
        ));
    }
}

/// Old-revision material for one citation: its text, context and chunk.
struct Prepared {
    span_text: String,
    prefix: String,
    suffix: String,
    chunk_hash: String,
    chunk_start: usize,
}

/// The citation as the engine needs it, from the revision it was last found in: the span's
/// text, and context either side grown until unique in that revision, as `cite` made it.
fn prepare(
    state: &CitationState,
    old: &str,
    old_chars: &[char],
    chunk: &Option<StoredChunk>,
) -> Prepared {
    let (start, end) = (
        state.found_start.min(old_chars.len()),
        state.found_end.min(old_chars.len()),
    );
    let (prefix, span_text, suffix) = unique_context_in(old, old_chars, start, end);
    Prepared {
        span_text,
        prefix,
        suffix,
        chunk_hash: chunk
            .as_ref()
            .map(|c| c.content_hash.clone())
            .unwrap_or_default(),
        chunk_start: chunk.as_ref().map_or(0, |c| c.start),
    }
}

/// The anchors row for `anchor`, unless the citation's status and span are what they were.
fn changed_anchor(state: &CitationState, anchor: &Anchor, revision: u32) -> Option<NewAnchor> {
    let lost = anchor.status == Status::Lost;
    let (start, end) = if lost {
        (state.found_start, state.found_end)
    } else {
        (anchor.start, anchor.end)
    };
    let from_revision = if lost { state.found_revision } else { revision };
    let same = state.status == anchor.status.as_str()
        && state.found_revision == from_revision
        && (state.found_start, state.found_end) == (start, end)
        && (lost || state.revision == revision);
    if same {
        return None;
    }
    Some(NewAnchor {
        citation_row: state.row,
        revision,
        status: anchor.status.as_str().to_string(),
        start,
        end,
        from_revision,
        chunk_id: if lost { None } else { anchor.chunk_id.clone() },
        score: anchor.score,
        method: if lost {
            Method::None.as_str().to_string()
        } else {
            anchor.method.as_str().to_string()
        },
        reason: anchor.reason.clone(),
    })
}
