//! Plain types: documents, their revisions, chunkings and chunks (what the store hands out),
//! the citation record (`SourceRef`, `Cited<T>`), what citing consumes and produces
//! (`citation`), and the sweep's vocabulary ([`Status`], [`Method`]: the only place their names
//! are spelled).
//!
//! Invariants kept by the store: a revision's `seq` runs 1, 2, … per document with no gaps; its
//! `text_sha256` differs from the previous revision's (identical text creates nothing); every
//! offset is in chars into that revision's stored text; a chunk id `{doc_id}@r{seq}#{start}-{end}`
//! names exactly one text.

pub mod citation;
mod names;
mod source;
mod sourceref;
mod status;
pub mod verification;

pub use names::UnknownName;
pub use source::{mtime_ns, DocumentState, Fingerprint, Source, SourceBase};
pub use sourceref::{Cited, SourceRef, Sources, Support};
pub use status::{counts_by_name, Method, Status};

use serde::{Deserialize, Serialize};

/// A document: a stable id and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    /// Row id.
    pub id: i64,
    /// Stable id (a path relative to the folder ingested, or as given).
    pub doc_id: String,
    /// Where it was first ingested from.
    pub source: String,
    /// The extractor configured for it (`text`, `html`, `pdf`, `cmd:NAME`).
    pub extractor: String,
    /// RFC 3339 UTC.
    pub created_at: String,
}

/// One version of a document's text (the text itself is fetched with `revision_text`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revision {
    /// Row id.
    pub id: i64,
    /// The document's row id.
    pub document_id: i64,
    /// 1, 2, … per document.
    pub seq: i64,
    /// Lowercase hex SHA-256 of the stored (raw, repaired) text.
    pub text_sha256: String,
    /// Length of the text in chars.
    pub char_len: i64,
    /// Lowercase hex SHA-256 of the source bytes the text was extracted from.
    pub source_sha256: String,
    /// `name@version` of the extractor that made the text.
    pub extractor: String,
    /// Normaliser version of the hashes made from this text.
    pub normaliser: String,
    /// RFC 3339 UTC.
    pub created_at: String,
}

/// One chunking of a revision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chunking {
    /// Row id.
    pub id: i64,
    /// The revision chunked.
    pub revision_id: i64,
    /// The chunker spec, e.g. `paragraph:1500`.
    pub spec: String,
    /// RFC 3339 UTC.
    pub created_at: String,
}

/// One chunk of a chunking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chunk {
    /// Position in its chunking, from 0.
    pub ord: i64,
    /// `{doc_id}@r{seq}#{start}-{end}`.
    pub chunk_id: String,
    /// First char, in revision coordinates.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// contentHash (normaliser `normaliser`) of the chunk's text.
    pub content_hash: String,
    /// Normaliser version of `content_hash`.
    pub normaliser: String,
}

impl Chunk {
    /// The stable id of the chunk `[start, end)` of revision `seq` of `doc_id`.
    pub fn id_for(doc_id: &str, seq: i64, start: usize, end: usize) -> String {
        format!("{doc_id}@r{seq}#{start}-{end}")
    }
}

/// A chunk before it has a row: what chunking makes and stores, and what a sweep anchors into
/// (the new chunking of a document, in new-revision chars).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewChunk {
    /// `{doc_id}@r{seq}#{start}-{end}`.
    pub chunk_id: String,
    /// First char.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// contentHash of the chunk's text.
    pub content_hash: String,
    /// The normaliser version of `content_hash` (`v1`, `v2`).
    pub normaliser: String,
}

/// The one rule for which chunk of a chunking holds the span `[start, end)`, used by the sweep
/// and by the store alike: a chunk that contains the span beats one that only overlaps it; among
/// containing chunks the shortest wins, among overlapping ones the one overlapping most; a tie
/// goes to the chunk that starts first. Returns the sort key of chunk `[chunk_start, chunk_end)`
/// (smaller is better); `None` when the chunk neither contains nor overlaps the span.
pub fn holding_key(
    (chunk_start, chunk_end): (usize, usize),
    (start, end): (usize, usize),
) -> Option<(bool, usize, usize)> {
    if chunk_start <= start && chunk_end >= end {
        return Some((false, chunk_end - chunk_start, chunk_start));
    }
    let overlap = chunk_end.min(end).saturating_sub(chunk_start.max(start));
    (overlap > 0).then_some((true, usize::MAX - overlap, chunk_start))
}

/// One line of `citestore docs`: a document with its latest revision and current chunking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentSummary {
    /// Stable id.
    pub doc_id: String,
    /// Its current source path (as recorded: absolute, or relative to the citestore.toml that
    /// named it).
    pub source: String,
    /// Number of revisions.
    pub revisions: i64,
    /// `seq` of the latest revision.
    pub latest_seq: i64,
    /// Extractor stamp of the latest revision.
    pub extractor: String,
    /// Chars in the latest revision.
    pub char_len: i64,
    /// Spec of the current chunking (latest chunking of the latest revision), if any.
    pub chunking: Option<String>,
    /// Chunks in the current chunking (0 without one).
    pub chunks: i64,
    /// Citations made against any revision of the document.
    pub citations: i64,
}

#[cfg(test)]
mod tests {
    use super::holding_key;

    /// Which of `chunks` (in chunking order) holds `span` by the one rule.
    fn holder(chunks: &[(usize, usize)], span: (usize, usize)) -> Option<usize> {
        (0..chunks.len())
            .filter_map(|i| Some((holding_key(chunks[i], span)?, i)))
            .min()
            .map(|(_, i)| i)
    }

    /// Chunks, a span, which chunk holds it.
    type Row = (&'static [(usize, usize)], (usize, usize), Option<usize>);

    #[test]
    fn the_holding_rule_table() {
        let table: &[Row] = &[
            // containment beats more overlap elsewhere
            (&[(0, 10), (5, 100)], (6, 10), Some(0)),
            // among containing chunks the shortest
            (&[(0, 100), (5, 20)], (6, 10), Some(1)),
            // equal length containing chunks: the first
            (&[(0, 20), (5, 25)], (6, 10), Some(0)),
            // nothing contains: most overlap
            (&[(0, 8), (8, 30)], (6, 12), Some(1)),
            // equal overlap: the first
            (&[(0, 9), (9, 30)], (6, 12), Some(0)),
            // nothing touches
            (&[(0, 5), (20, 30)], (6, 12), None),
        ];
        for (chunks, span, want) in table {
            assert_eq!(holder(chunks, *span), *want, "{chunks:?} {span:?}");
        }
    }
}
