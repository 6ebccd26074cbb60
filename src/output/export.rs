//! What `export` and `list --json` print, one JSON line per citation.

use crate::error::Result;
use crate::model::{Method, Status};
use crate::store::{CitationRecord, CitationState, Holding, Snapshot};
use serde::{Deserialize, Serialize};

/// Where a citation is now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Current {
    /// Revision the span indexes.
    pub revision: u32,
    /// Start, chars.
    pub start: usize,
    /// End, chars.
    pub end: usize,
    /// The chunk of that revision's current chunking holding the span.
    pub chunk_id: Option<String>,
    /// The caller's own id of that chunk (`ingest --chunks`); absent for chunks citestore made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller_id: Option<String>,
    /// 100 for exact placements.
    pub score: f64,
    /// `cited` before any sweep moved it; else the sweep's method.
    pub method: Method,
    /// Why it is degraded.
    pub reason: Option<String>,
}

/// One exported line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportLine {
    /// Citation id.
    pub id: String,
    /// Document.
    pub doc_id: String,
    /// Revision cited.
    pub revision: u32,
    /// Chunk cited from.
    pub chunk_id: String,
    /// contentHash of that chunk.
    pub content_hash: String,
    /// The normaliser version of `content_hash`: `v1` for citations made before normaliser v2,
    /// `v2` since.
    pub normaliser: String,
    /// Original start.
    pub start: usize,
    /// Original end.
    pub end: usize,
    /// The quote.
    pub quote: String,
    /// The current status.
    pub status: Status,
    /// Where it is now; `null` when lost.
    pub current: Option<Current>,
    /// For a lost citation only: where its text was last known, and why it is lost (a lost
    /// citation keeps its last span; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_known: Option<LastKnown>,
}

/// Where a lost citation's text was last known, and why it is lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastKnown {
    /// The revision `start`/`end` index.
    pub revision: u32,
    /// Start, chars.
    pub start: usize,
    /// End, chars.
    pub end: usize,
    /// Why it is lost.
    pub reason: Option<String>,
}

/// Where `state`'s text was last known, when it is lost.
pub fn last_known(state: &CitationState) -> Option<LastKnown> {
    (state.status == Status::Lost).then(|| LastKnown {
        revision: state.found_revision,
        start: state.found_start,
        end: state.found_end,
        reason: state.reason.clone(),
    })
}

/// The current anchor of a citation; `holding` finds the chunk that now holds a span
/// (`Store::chunk_holding` or `Snapshot::chunk_holding`), asked only when it is not lost.
pub fn current(
    state: &CitationState,
    holding: impl FnOnce(&str, u32, usize, usize) -> Result<Option<Holding>>,
) -> Result<Option<Current>> {
    if state.status == Status::Lost {
        return Ok(None);
    }
    let held = holding(
        &state.doc_id,
        state.found_revision,
        state.found_start,
        state.found_end,
    )?;
    let (chunk_id, caller_id) = match held {
        Some(h) => (Some(h.chunk_id), h.caller_id),
        None => (None, None),
    };
    Ok(Some(Current {
        revision: state.found_revision,
        start: state.found_start,
        end: state.found_end,
        chunk_id,
        caller_id,
        score: state.score,
        method: state.method,
        reason: state.reason.clone(),
    }))
}

/// The exported line of a citation, read through `snapshot`.
pub fn export_line(
    snapshot: &Snapshot<'_>,
    record: CitationRecord,
    state: &CitationState,
) -> Result<ExportLine> {
    Ok(ExportLine {
        current: current(state, |doc, seq, start, end| {
            snapshot.reads().chunk_holding(doc, seq, start, end)
        })?,
        id: record.citation_id,
        doc_id: record.doc_id,
        revision: record.revision,
        chunk_id: record.chunk_id,
        content_hash: record.content_hash,
        normaliser: record.normaliser,
        start: record.start,
        end: record.end,
        quote: record.quote,
        status: state.status,
        last_known: last_known(state),
    })
}

/// One line of `list --json`: a citation's current state.
///
/// Fields: `id` (the citation id, as in `export`), `current` (where it is now, `null` when
/// lost: `revision`, `start`, `end`, `chunk_id`, `score`, `method`, `reason`, as in `export`),
/// and, kept from before `id`/`current` existed, `row`, `citation_id` (= `id`), `doc_id`,
/// `quote`, `cited_text`, `status`, `revision` (the revision the state was decided against),
/// `found_revision`, `found_start`, `found_end`, `found_chunk_id` (the last span where the
/// text was found, also for lost), `score`, `method`, `reason`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListLine {
    /// Citation id.
    pub id: String,
    /// Where it is now; `null` when lost.
    pub current: Option<Current>,
    /// The state's older field names.
    #[serde(flatten)]
    pub state: CitationState,
}

/// The [`ListLine`] of `state`, read through `snapshot`.
pub fn list_line(snapshot: &Snapshot<'_>, state: CitationState) -> Result<ListLine> {
    Ok(ListLine {
        id: state.citation_id.clone(),
        current: current(&state, |doc, seq, start, end| {
            snapshot.reads().chunk_holding(doc, seq, start, end)
        })?,
        state,
    })
}
