//! Rung (c) of the sweep: re-anchor a document's stale citations against its current revision.
//!
//! Split in two so the expensive part holds no lock: [`gather`] reads the texts, chunks and
//! citation states in the document's transaction; [`compute`] runs the re-anchoring engine
//! ([`DocumentSweep`]: diff, fold, fuzzy search) on them with no transaction open; the caller
//! writes the rows after checking that nothing it read has changed since.
//!
//! Invariants: the rows are exactly the citations whose status or span changed; intact and
//! moved mean the cited text is at the span ([`keep_degraded`]); a citation lost because its
//! source was missing always gets a row when it is re-anchored (its reason must change).

use super::outcome::DocumentResult;
use super::{Anchor, Citation, DocumentSweep, Method, NewChunk, Status};
use crate::cite::{unique_context_at, CharBytes};
use crate::error::Result;
use crate::model::{Chunking, Document, Revision};
use crate::store::{CitationState, NewAnchor, StoredChunk, Writer};
use std::collections::{BTreeMap, HashMap};

/// What re-anchoring one document needs, read in its transaction.
#[derive(Debug, Clone)]
pub(super) struct Inputs {
    /// The current revision's seq.
    pub revision: u32,
    new_text: String,
    chunks: Vec<NewChunk>,
    groups: Vec<Group>,
}

impl Inputs {
    /// Citations to re-anchor.
    pub(super) fn citations(&self) -> usize {
        self.groups.iter().map(|g| g.states.len()).sum()
    }

    /// About how many bytes of text these hold (both revisions' texts, quotes and cited
    /// spans), to bound what a batch of documents holds at once.
    pub(super) fn bytes(&self) -> usize {
        self.new_text.len()
            + self
                .groups
                .iter()
                .map(|g| {
                    g.old_text.len()
                        + g.states
                            .iter()
                            .map(|s| s.quote.len() + s.cited_text.len())
                            .sum::<usize>()
                })
                .sum::<usize>()
    }
}

/// The stale citations last found in one old revision, with that revision's text and chunks.
#[derive(Debug, Clone)]
struct Group {
    old_text: String,
    states: Vec<CitationState>,
    chunks_by_id: HashMap<String, Option<StoredChunk>>,
}

/// Reads, in the document's transaction, what re-anchoring `stale` citations (grouped by the
/// revision they were last found in) against the current revision needs.
pub(super) fn gather(
    writer: &Writer<'_>,
    document: &Document,
    revision: &Revision,
    chunking: &Chunking,
    stale: Vec<CitationState>,
) -> Result<Inputs> {
    let mut inputs = Inputs {
        revision: revision.seq as u32,
        new_text: String::new(),
        chunks: Vec::new(),
        groups: Vec::new(),
    };
    if stale.is_empty() {
        return Ok(inputs);
    }
    inputs.new_text = writer.reads().revision_text(revision)?;
    inputs.chunks = writer
        .chunks(chunking)?
        .into_iter()
        .map(|c| NewChunk {
            chunk_id: c.chunk_id,
            start: c.start,
            end: c.end,
            content_hash: c.content_hash,
            normaliser: c.normaliser,
        })
        .collect();
    let mut by_revision: BTreeMap<u32, Vec<CitationState>> = BTreeMap::new();
    for state in stale {
        by_revision
            .entry(state.found_revision)
            .or_default()
            .push(state);
    }
    for (old_seq, states) in by_revision {
        let old_text = writer.reads().revision_text_of(&document.doc_id, old_seq)?;
        // Citations of a document share a few chunks: look each one up once.
        let mut chunks_by_id: HashMap<String, Option<StoredChunk>> = HashMap::new();
        for state in &states {
            if !chunks_by_id.contains_key(state.found_chunk_id.as_str()) {
                let chunk = writer.chunk_by_id(&state.found_chunk_id).ok();
                chunks_by_id.insert(state.found_chunk_id.clone(), chunk);
            }
        }
        inputs.groups.push(Group {
            old_text,
            states,
            chunks_by_id,
        });
    }
    Ok(inputs)
}

/// Re-anchors what [`gather`] read (no database, no lock): the anchors rows for the citations
/// whose status or span changed, with the counts in `result`.
pub(super) fn compute(inputs: &Inputs, result: &mut DocumentResult) -> Vec<NewAnchor> {
    let new_text = &inputs.new_text;
    let new_bytes = CharBytes::new(new_text);
    let chunks = &inputs.chunks;
    let mut rows = Vec::new();
    for Group {
        old_text,
        states: group,
        chunks_by_id,
    } in &inputs.groups
    {
        let old_bytes = CharBytes::new(old_text);
        let prepared: Vec<Prepared> = group
            .iter()
            .map(|s| prepare(s, &old_bytes, &chunks_by_id[s.found_chunk_id.as_str()]))
            .collect();
        let citations: Vec<Citation<'_>> = group
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
                chunk_normaliser: &p.chunk_normaliser,
                chunk_start: p.chunk_start,
            })
            .collect();
        let anchors = DocumentSweep::new(old_text, new_text, chunks, &citations).reanchor_all();
        for (state, mut anchor) in group.iter().zip(anchors) {
            keep_degraded(&mut anchor, state, &new_bytes);
            *result
                .reanchored_status
                .entry(anchor.status.as_str().to_string())
                .or_insert(0) += 1;
            *result
                .method
                .entry(anchor.method.as_str().to_string())
                .or_insert(0) += 1;
            if let Some(mut row) = changed_anchor(state, &anchor, inputs.revision) {
                if carried_over(state, &row) {
                    result.carried_citations += 1;
                } else {
                    result.changed_citations += 1;
                }
                if row.chunk_id.is_some() {
                    // The current anchor's own context, as `cite` makes it for the original:
                    // what a W3C TextQuoteSelector of where the citation is now needs.
                    let (prefix, _, suffix) = unique_context_at(&new_bytes, row.start, row.end);
                    row.prefix = Some(prefix);
                    row.suffix = Some(suffix);
                }
                rows.push(row);
            }
        }
    }
    rows
}

/// Intact and moved mean the *cited* text is at the span (up to whitespace and typography, see
/// `settle.rs`). The engine re-anchors from the last place the text was found, which for a
/// citation degraded by an earlier edit holds the edited text: finding that again exactly does
/// not make the citation whole, so it stays degraded.
fn keep_degraded(anchor: &mut Anchor, state: &CitationState, new: &CharBytes<'_>) {
    if !matches!(anchor.status, Status::Intact | Status::Moved) {
        return;
    }
    let chars = new.chars();
    let at = new.slice(anchor.start.min(chars), anchor.end.min(chars));
    if at == state.cited_text {
        return;
    }
    // The cited words in other whitespace or typography (a paragraph re-wrapped since) are
    // still the cited text: `intact`/`moved`, saying so.
    if crate::text::fold(at).chars == crate::text::fold(&state.cited_text).chars {
        anchor.reason = Some(super::TYPOGRAPHY_CHANGED.to_string());
        return;
    }
    anchor.status = Status::Degraded;
    anchor.reason = Some(format!(
        "the text here still differs from the cited text ({})",
        state.reason.as_deref().unwrap_or("an earlier edit")
    ));
}

/// Old-revision material for one citation: its text, context and chunk.
struct Prepared {
    span_text: String,
    prefix: String,
    suffix: String,
    chunk_hash: String,
    chunk_normaliser: String,
    chunk_start: usize,
}

/// The citation as the engine needs it, from the revision it was last found in: the span's
/// text, and context either side grown until unique in that revision, as `cite` made it.
fn prepare(state: &CitationState, old: &CharBytes<'_>, chunk: &Option<StoredChunk>) -> Prepared {
    let chars = old.chars();
    let (start, end) = (state.found_start.min(chars), state.found_end.min(chars));
    let (prefix, span_text, suffix) = unique_context_at(old, start, end);
    Prepared {
        span_text,
        prefix,
        suffix,
        chunk_hash: chunk
            .as_ref()
            .map(|c| c.content_hash.clone())
            .unwrap_or_default(),
        chunk_normaliser: chunk
            .as_ref()
            .map(|c| c.normaliser.clone())
            .unwrap_or_default(),
        chunk_start: chunk.as_ref().map_or(0, |c| c.start),
    }
}

/// Whether `row` only carries the citation to a new revision: the status and span it had.
fn carried_over(state: &CitationState, row: &NewAnchor) -> bool {
    row.status != Status::Lost
        && row.status == state.status
        && (row.start, row.end) == (state.found_start, state.found_end)
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
    let same = state.status == anchor.status
        && state.found_revision == from_revision
        && (state.found_start, state.found_end) == (start, end)
        && (lost || state.revision == revision)
        && state.method != Method::Missing;
    if same {
        return None;
    }
    Some(NewAnchor {
        citation_row: state.row,
        revision,
        status: anchor.status,
        previous: state.status,
        start,
        end,
        from_revision,
        chunk_id: if lost { None } else { anchor.chunk_id.clone() },
        score: anchor.score,
        method: if lost { Method::None } else { anchor.method },
        reason: anchor.reason.clone(),
        prefix: None,
        suffix: None,
    })
}
