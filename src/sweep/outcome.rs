//! What a sweep did to one document: its one outcome and its counts. Its own file: the sweep's
//! driver (`run.rs`) reports them and the re-anchoring step (`reanchor.rs`) fills them, and
//! neither depends on the other for it.
//!
//! Invariant: a document has exactly one [`DocumentOutcome`], the first that applies in the
//! enum's order.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// Citations whose status or span changed (re-anchored, or lost with their source).
    #[serde(default)]
    pub changed_citations: usize,
    /// Of the citations re-anchored, those carried to a new revision with the same status and
    /// span (an edit elsewhere in the document).
    #[serde(default)]
    pub carried_citations: usize,
    /// Status of the citations re-anchored.
    pub reanchored_status: BTreeMap<String, usize>,
    /// How they were placed.
    pub method: BTreeMap<String, usize>,
    /// Why the document could not be swept, or why its source is missing.
    pub error: Option<String>,
}
