//! `chunks`: a document's chunks as a revision's current chunking holds them, each with its
//! text; read read-only.
//!
//! Invariant: the chunks and the text they are cut from are read in one snapshot, so a sweep
//! committing meanwhile is never half-seen (a chunk's span always fits the text given).

use super::Env;
use crate::error::Result;
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// Which document, and which of its revisions.
#[derive(Debug, Clone)]
pub struct ChunksRequest {
    /// The document.
    pub doc_id: String,
    /// The revision's `seq`; its latest when `None`.
    pub revision: Option<u32>,
}

/// One chunk of `chunks --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkLine {
    /// Position in its chunking, from 0.
    pub ord: i64,
    /// citestore's stable id, `{doc_id}@r{seq}#{start}-{end}`.
    pub chunk_id: String,
    /// The caller's own id of a chunk they made, else `null`.
    pub caller_id: Option<String>,
    /// First char, in the revision's text.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// contentHash of its text.
    pub content_hash: String,
    /// The normaliser version of `content_hash`.
    pub normaliser: String,
    /// The revision's text at `[start, end)`.
    pub text: String,
}

/// What `chunks --json` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunksOutput {
    /// The document.
    pub doc_id: String,
    /// The revision.
    pub revision: u32,
    /// The chunking's spec (`caller` for the caller's own chunks); `null` when never chunked.
    pub chunking: Option<String>,
    /// The chunks, in order.
    pub chunks: Vec<ChunkLine>,
}

/// Reads a revision's current chunking and cuts each chunk's text from the revision's text.
pub fn run(env: &Env, req: &ChunksRequest) -> Result<ChunksOutput> {
    let store = Store::open_read(&env.db)?;
    store.snapshot(|store| {
        let reads = store.reads();
        let held = reads.revision_chunks(&req.doc_id, req.revision)?;
        let text: Vec<char> = reads
            .revision_text_of(&req.doc_id, held.revision)?
            .chars()
            .collect();
        let chunks = held
            .chunks
            .into_iter()
            .map(|(chunk, caller_id)| ChunkLine {
                text: text[chunk.start..chunk.end].iter().collect(),
                ord: chunk.ord,
                chunk_id: chunk.chunk_id,
                caller_id,
                start: chunk.start,
                end: chunk.end,
                content_hash: chunk.content_hash,
                normaliser: chunk.normaliser,
            })
            .collect();
        Ok(ChunksOutput {
            doc_id: req.doc_id.clone(),
            revision: held.revision,
            chunking: held.spec,
            chunks,
        })
    })
}

/// Which revision's text.
#[derive(Debug, Clone)]
pub struct RevisionTextRequest {
    /// The document.
    pub doc_id: String,
    /// The revision's `seq`.
    pub revision: u32,
}

/// A revision's whole stored text, read read-only: what a face needs to turn the store's
/// code point offsets into its own (UTF-16 string indices) when the revision's chunks do not
/// cover all of it (the caller's chunks with gaps between them).
pub fn text(env: &Env, req: &RevisionTextRequest) -> Result<String> {
    let store = Store::open_read(&env.db)?;
    store.snapshot(|store| {
        let reads = store.reads();
        // An unknown document or revision is said as such, not as a failed query.
        reads.revision_seq(&req.doc_id, Some(req.revision))?;
        reads.revision_text_of(&req.doc_id, req.revision)
    })
}
