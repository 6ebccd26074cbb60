//! Rung (a′) of the sweep: a document whose source is gone. Its citations become `lost` with a
//! reason naming the missing file (method `missing`, the last known span kept, as for any lost
//! citation), so `health`, `list --status lost` and `--fail-on lost` see them. When the file
//! comes back, those citations are re-anchored like any other (see `run`).
//!
//! Invariants: citations already lost keep their own reason; marking twice writes nothing the
//! second time; nothing is deleted.

use crate::error::Result;
use crate::model::{Method, Status};
use crate::store::{CitationState, NewAnchor, Writer};

/// The anchors rows that mark `states`' citations lost because of `reason`.
pub(super) fn lost_rows(states: &[CitationState], reason: &str) -> Vec<NewAnchor> {
    states
        .iter()
        .filter(|s| s.status != Status::Lost)
        .map(|s| NewAnchor {
            citation_row: s.row,
            revision: s.revision,
            status: Status::Lost,
            previous: s.status,
            start: s.found_start,
            end: s.found_end,
            from_revision: s.found_revision,
            chunk_id: None,
            score: 0.0,
            method: Method::Missing,
            reason: Some(reason.to_string()),
            prefix: None,
            suffix: None,
        })
        .collect()
}

/// Marks the citations of `doc_id` lost; how many were marked.
pub(super) fn mark_lost(
    writer: &Writer<'_>,
    sweep_id: i64,
    doc_id: &str,
    reason: &str,
    now: &str,
) -> Result<usize> {
    let rows = lost_rows(&writer.citation_states(doc_id)?, reason);
    writer.record_anchors(sweep_id, doc_id, &rows, now)?;
    Ok(rows.len())
}
