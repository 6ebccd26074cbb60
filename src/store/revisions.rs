//! Writing a document's revisions: a new text becomes a revision unless it repeats the latest,
//! chunked in the same transaction, and an extraction is recorded with what it read. Ingest
//! (files, or text the caller hands over) and the sweep (re-extraction, re-chunking) both
//! write through here, so both keep the same rules.
//!
//! Invariants:
//! - Identical text to a document's latest revision creates nothing; any other text is a new
//!   revision, even text equal to an older one (A → B → A is three revisions).
//! - A new revision of a chunked document is chunked in the same transaction, with the chunker
//!   given (flag or configuration) or else the spec of its previous current chunking
//!   ([`FALLBACK_SPEC`] when that was the caller's), so the store never holds an unchunked
//!   latest revision of a chunked document.
//! - Re-chunking a revision whose current chunking has the same spec creates nothing.
//! - Re-storing what the last extraction saw writes nothing at all.

use super::chunkings::ChunkTarget;
use super::{NewChunk, NewExtraction, NewRevision, Writer};
use crate::chunk::caller::{self, Located, CALLER_SPEC, FALLBACK_SPEC};
use crate::chunk::ChunkSpec;
use crate::error::Result;
use crate::model::{Chunk, Document, Fingerprint, Revision};
use crate::text::normalise::hex;
use crate::text::{content_hash, NORMALISER_VERSION};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// At most this many documents' texts are read, chunked and inserted together by
/// [`Writer::rechunk`] …
pub(super) const RECHUNK_BATCH_DOCS: usize = 1024;
/// … and a batch closes once its texts reach this many chars (memory stays bounded however
/// large the documents).
pub(super) const RECHUNK_BATCH_CHARS: usize = 8 << 20;

/// What happened to one document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// A new document with its first revision.
    New,
    /// A new revision of a known document.
    Revised,
    /// Same text as the latest revision: nothing stored.
    Unchanged,
}

/// One document's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ingested {
    /// The document.
    pub doc_id: String,
    /// The file read.
    pub source: String,
    /// New, revised or unchanged.
    pub outcome: Outcome,
    /// The latest revision's `seq` after this command.
    pub seq: i64,
    /// The extractor stamp of the text just extracted.
    pub extractor: String,
    /// The current chunking after this command, if the latest revision has one.
    pub chunking: Option<ChunkingResult>,
}

/// The current chunking of a revision, and whether this command made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkingResult {
    /// The chunker spec.
    pub spec: String,
    /// Number of chunks.
    pub chunks: usize,
    /// True when this command created it.
    pub created: bool,
}

/// Chunkers that apply at ingest.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChunkPolicy {
    /// Given on the command line: chunks new revisions, and re-chunks unchanged ones whose
    /// current chunking differs.
    pub explicit: Option<ChunkSpec>,
    /// From configuration: chunks new revisions.
    pub configured: Option<ChunkSpec>,
}

/// How a revision gets its chunks.
#[derive(Debug, Clone, Copy)]
pub enum Chunks<'a> {
    /// Made by a chunker, as the policy says.
    Spec(ChunkPolicy),
    /// Made by the caller: stored as given (spec `caller`), after [`caller::check`].
    Caller(&'a [Located]),
}

/// What `chunk` did to one document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rechunked {
    /// The document.
    pub doc_id: String,
    /// Its latest revision.
    pub seq: i64,
    /// Its current chunking after the command.
    pub chunking: ChunkingResult,
}

/// A text extracted from a document's source, to store as its revision.
#[derive(Debug, Clone, Copy)]
pub struct ExtractedText<'a> {
    /// The text.
    pub text: &'a str,
    /// The extractor's stamp.
    pub stamp: &'a str,
    /// What was read.
    pub fingerprint: &'a Fingerprint,
}

impl Writer<'_> {
    /// Stores an extraction of `document`'s source `source_id` (by sweep `sweep_id`, or by
    /// ingest): a new revision when the text differs from the latest, chunked as `chunks` says
    /// (a chunker policy, or the caller's chunks), and the extraction's fingerprint either way.
    pub fn store_extracted(
        &self,
        document: &Document,
        (source_id, sweep_id): (i64, Option<i64>),
        extracted: ExtractedText<'_>,
        chunks: Chunks<'_>,
        now: &str,
    ) -> Result<Ingested> {
        let new = NewRevision {
            text: extracted.text,
            text_sha256: &sha256_hex(extracted.text.as_bytes()),
            source_sha256: &extracted.fingerprint.source_sha256,
            extractor: extracted.stamp,
            normaliser: NORMALISER_VERSION,
        };
        let ingested = self.store_revision(document, &new, chunks, now)?;
        let revision_id = self
            .latest_revision(document)?
            .map(|r| r.id)
            .expect("store_revision leaves a revision");
        // Re-ingesting what the last extraction saw writes nothing at all.
        let seen =
            self.reads().last_fingerprint(document.id)?.as_ref() == Some(extracted.fingerprint);
        let ingested = Ingested {
            doc_id: document.doc_id.clone(),
            extractor: extracted.stamp.to_string(),
            ..ingested
        };
        if ingested.outcome == Outcome::Unchanged && seen {
            return Ok(ingested);
        }
        self.record_extraction(
            &NewExtraction {
                document_id: document.id,
                source_id,
                sweep_id,
                fingerprint: extracted.fingerprint.clone(),
                ran: true,
                revision_id,
            },
            now,
        )?;
        Ok(ingested)
    }

    /// Adds `new` as a revision unless it repeats the latest, and chunks it as `chunks` says:
    /// the caller's chunks, else the policy's chunker, else the spec of the previous current
    /// chunking ([`FALLBACK_SPEC`] when that was the caller's: its spans index the old text).
    pub fn store_revision(
        &self,
        document: &Document,
        new: &NewRevision<'_>,
        chunks: Chunks<'_>,
        now: &str,
    ) -> Result<Ingested> {
        if let Chunks::Caller(given) = chunks {
            caller::check(given, new.text, &document.doc_id)?;
        }
        let policy = match chunks {
            Chunks::Spec(policy) => policy,
            Chunks::Caller(_) => ChunkPolicy::default(),
        };
        let latest = self.latest_revision(document)?;
        let previous_chunking = match &latest {
            Some(revision) => self.current_chunking(revision)?,
            None => None,
        };
        let (revision, outcome, spec) = match latest {
            Some(revision) if revision.text_sha256 == new.text_sha256 => {
                (revision, Outcome::Unchanged, policy.explicit)
            }
            latest => {
                let outcome = if latest.is_some() {
                    Outcome::Revised
                } else {
                    Outcome::New
                };
                let inherited = match &previous_chunking {
                    Some(chunking) if chunking.spec == CALLER_SPEC => Some(FALLBACK_SPEC),
                    Some(chunking) => Some(chunking.spec.parse::<ChunkSpec>()?),
                    None => None,
                };
                let spec = policy.explicit.or(policy.configured).or(inherited);
                (self.insert_revision(document, new, now)?, outcome, spec)
            }
        };
        let chunking = match (chunks, spec) {
            (Chunks::Caller(given), _) => {
                Some(self.ensure_caller_chunking(document, &revision, new.text, given, now)?)
            }
            (_, Some(spec)) => {
                Some(self.ensure_chunking(document, &revision, new.text, spec, now)?)
            }
            (_, None) if outcome == Outcome::Unchanged => match previous_chunking {
                Some(chunking) => Some(ChunkingResult {
                    chunks: self.chunks(&chunking)?.len(),
                    spec: chunking.spec,
                    created: false,
                }),
                None => None,
            },
            (_, None) => None,
        };
        Ok(Ingested {
            doc_id: document.doc_id.clone(),
            source: String::new(),
            outcome,
            seq: revision.seq,
            extractor: revision.extractor.clone(),
            chunking,
        })
    }

    /// Chunks the latest revision of each document in `doc_ids` (all documents when empty) with
    /// `spec`; the caller commits.
    ///
    /// Batched: one statement finds every document's latest revision and whether its current
    /// chunking is `spec` already; texts are read, and chunkings and chunks inserted, a batch
    /// of documents per statement (`RECHUNK_BATCH_DOCS`, `RECHUNK_BATCH_CHARS`), in
    /// document order, so row ids come out as one document at a time would give them.
    pub fn rechunk(
        &self,
        doc_ids: &[String],
        spec: ChunkSpec,
        now: &str,
    ) -> Result<Vec<Rechunked>> {
        let spec_text = spec.to_string();
        let targets = self.chunk_targets(doc_ids, &spec_text)?;
        // The targets to chunk: those whose current chunking is not `spec`, each revision once
        // (a document named twice is chunked the first time, and already has `spec` after).
        let mut seen = HashSet::new();
        let first: Vec<bool> = targets
            .iter()
            .map(|t| t.current.is_none() && seen.insert(t.revision_id))
            .collect();
        let pending: Vec<&ChunkTarget> = targets
            .iter()
            .zip(&first)
            .filter_map(|(t, &f)| f.then_some(t))
            .collect();
        let made = self.chunk_targets_with(&pending, spec, &spec_text, now)?;
        Ok(targets
            .iter()
            .zip(first)
            .map(|(target, created)| Rechunked {
                doc_id: target.doc_id.clone(),
                seq: target.seq,
                chunking: ChunkingResult {
                    spec: spec_text.clone(),
                    chunks: target.current.unwrap_or_else(|| made[&target.revision_id]),
                    created,
                },
            })
            .collect())
    }

    /// Rung (b) of a sweep for a batch of documents whose text it keeps, first half: of
    /// `document_ids` (row ids), those not missing whose latest revision's current chunking is
    /// neither `spec` nor the caller's get a chunking with `spec` now, its chunks to come
    /// ([`ReservedChunkings::chunk`] makes them, on any thread; [`Writer::insert_chunked`]
    /// writes them before the caller commits). Their texts are read in one statement, up to
    /// `RECHUNK_BATCH_CHARS` chars (at least one document); the documents past that are not
    /// chunked here (the sweep then chunks each alone).
    pub fn reserve_chunkings(
        &self,
        document_ids: &[i64],
        spec: ChunkSpec,
        now: &str,
    ) -> Result<ReservedChunkings> {
        let spec_text = spec.to_string();
        let mut due = self.due_targets(document_ids, &spec_text)?;
        let mut chars = 0;
        let take = due
            .iter()
            .take_while(|(_, t)| {
                let first = chars == 0;
                chars += t.char_len.max(1);
                first || chars <= RECHUNK_BATCH_CHARS
            })
            .count();
        due.truncate(take);
        let revisions: Vec<i64> = due.iter().map(|(_, t)| t.revision_id).collect();
        let mut texts = self.revision_texts(&revisions)?;
        let chunking_ids = self.insert_chunking_rows(&spec_text, &revisions, now)?;
        let jobs = due
            .into_iter()
            .map(|(document_id, t)| ChunkJob {
                document_id,
                chunking_id: chunking_ids[&t.revision_id],
                text: texts
                    .remove(&t.revision_id)
                    .expect("a revision found in this transaction has its text"),
                target: t,
            })
            .collect();
        Ok(ReservedChunkings { spec, jobs })
    }

    /// Rung (b), second half: the chunks [`ReservedChunkings::chunk`] made, written.
    pub fn insert_chunked(&self, chunked: ChunkedRows) -> Result<()> {
        self.insert_chunks(chunked.0)
    }

    /// Chunks the latest revisions of `targets` (each once, none chunked with `spec`) a batch
    /// at a time (`RECHUNK_BATCH_DOCS`, `RECHUNK_BATCH_CHARS`), in order. Returns their chunk
    /// counts by revision id.
    fn chunk_targets_with(
        &self,
        targets: &[&ChunkTarget],
        spec: ChunkSpec,
        spec_text: &str,
        now: &str,
    ) -> Result<HashMap<i64, usize>> {
        let mut made: HashMap<i64, usize> = HashMap::with_capacity(targets.len());
        let mut rest = targets;
        while !rest.is_empty() {
            let mut take = 0;
            let mut chars = 0;
            while take < rest.len() && take < RECHUNK_BATCH_DOCS && chars < RECHUNK_BATCH_CHARS {
                chars += rest[take].char_len;
                take += 1;
            }
            let (batch, after) = rest.split_at(take);
            self.rechunk_batch(batch, spec, spec_text, now, &mut made)?;
            rest = after;
        }
        Ok(made)
    }

    /// Chunks the latest revisions of `batch` (none of them chunked with `spec`): their texts
    /// in one read, their chunkings and chunks in as few inserts as the backend allows.
    fn rechunk_batch(
        &self,
        batch: &[&ChunkTarget],
        spec: ChunkSpec,
        spec_text: &str,
        now: &str,
        made: &mut HashMap<i64, usize>,
    ) -> Result<()> {
        let ids: Vec<i64> = batch.iter().map(|t| t.revision_id).collect();
        let mut texts = self.revision_texts(&ids)?;
        let jobs: Vec<(&ChunkTarget, String)> = batch
            .iter()
            .map(|t| {
                let text = texts
                    .remove(&t.revision_id)
                    .expect("a revision found in this transaction has its text");
                (*t, text)
            })
            .collect();
        let rows = chunk_rows_all(&jobs, spec);
        for (revision_id, chunks) in &rows {
            made.insert(*revision_id, chunks.len());
        }
        self.insert_chunkings(spec_text, rows, now)
    }

    /// Chunks `revision` (whose text is `text`) with `spec`, unless its current chunking already
    /// has that spec.
    fn ensure_chunking(
        &self,
        document: &Document,
        revision: &Revision,
        text: &str,
        spec: ChunkSpec,
        now: &str,
    ) -> Result<ChunkingResult> {
        let spec_text = spec.to_string();
        if let Some(current) = self.current_chunking(revision)? {
            if current.spec == spec_text {
                return Ok(ChunkingResult {
                    spec: spec_text,
                    chunks: self.chunks(&current)?.len(),
                    created: false,
                });
            }
        }
        let chunks = chunk_rows(&document.doc_id, revision.seq, text, spec);
        self.insert_chunking(revision, &spec_text, &chunks, now)?;
        Ok(ChunkingResult {
            spec: spec_text,
            chunks: chunks.len(),
            created: true,
        })
    }

    /// Gives `revision` (whose text is `text`) a `caller` chunking of `given`, sorted by position,
    /// unless its current chunking is already exactly those chunks (same spans and ids).
    fn ensure_caller_chunking(
        &self,
        document: &Document,
        revision: &Revision,
        text: &str,
        given: &[Located],
        now: &str,
    ) -> Result<ChunkingResult> {
        // Stored in text order, as every chunking is (a sweep finds the chunk holding a span by
        // position); the caller's order carries no meaning a retriever keeps.
        let mut given = given.to_vec();
        given.sort_by_key(|c| (c.chunk.start, c.chunk.end));
        let ids: Vec<Option<String>> = given.iter().map(|c| c.chunk.id.clone()).collect();
        if let Some(current) = self.current_chunking(revision)? {
            if current.spec == CALLER_SPEC {
                let spans: Vec<(usize, usize)> = self
                    .chunks(&current)?
                    .iter()
                    .map(|c| (c.start, c.end))
                    .collect();
                let wanted: Vec<(usize, usize)> =
                    given.iter().map(|c| (c.chunk.start, c.chunk.end)).collect();
                if spans == wanted && self.caller_ids(&current)? == ids {
                    return Ok(ChunkingResult {
                        spec: CALLER_SPEC.to_string(),
                        chunks: given.len(),
                        created: false,
                    });
                }
            }
        }
        let (mut starts, mut ends) = (ByteCursor::new(text), ByteCursor::new(text));
        let rows: Vec<NewChunk> = given
            .iter()
            .map(|Located { chunk, .. }| NewChunk {
                chunk_id: Chunk::id_for(&document.doc_id, revision.seq, chunk.start, chunk.end),
                start: chunk.start,
                end: chunk.end,
                content_hash: content_hash(
                    &text[starts.byte_of(chunk.start)..ends.byte_of(chunk.end)],
                ),
                normaliser: NORMALISER_VERSION.into(),
            })
            .collect();
        self.insert_chunking_with_ids(revision, CALLER_SPEC, &rows, &ids, now)?;
        Ok(ChunkingResult {
            spec: CALLER_SPEC.to_string(),
            chunks: rows.len(),
            created: true,
        })
    }
}

/// The chunk rows of `text` under `spec`, with ids and content hashes.
pub fn chunk_rows(doc_id: &str, seq: i64, text: &str, spec: ChunkSpec) -> Vec<NewChunk> {
    let (mut starts, mut ends) = (ByteCursor::new(text), ByteCursor::new(text));
    spec.spans(text)
        .into_iter()
        .map(|span| NewChunk {
            chunk_id: Chunk::id_for(doc_id, seq, span.start, span.end),
            start: span.start,
            end: span.end,
            content_hash: content_hash(&text[starts.byte_of(span.start)..ends.byte_of(span.end)]),
            normaliser: NORMALISER_VERSION.into(),
        })
        .collect()
}

/// Chunkings of a batch of documents made by [`Writer::reserve_chunkings`], their chunks still
/// to make, with the texts to make them from.
#[derive(Debug)]
pub struct ReservedChunkings {
    spec: ChunkSpec,
    jobs: Vec<ChunkJob>,
}

/// One reserved chunking: its document, its id, its revision and that revision's text.
#[derive(Debug)]
struct ChunkJob {
    document_id: i64,
    chunking_id: i64,
    target: ChunkTarget,
    text: String,
}

/// The chunks of reserved chunkings, by chunking id, for [`Writer::insert_chunked`].
#[derive(Debug)]
pub struct ChunkedRows(Vec<(i64, Vec<NewChunk>)>);

impl ReservedChunkings {
    /// Row ids of the documents whose latest revision got a chunking.
    pub fn document_ids(&self) -> impl Iterator<Item = i64> + '_ {
        self.jobs.iter().map(|job| job.document_id)
    }

    /// No chunking was reserved.
    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// The chunks of every reserved chunking (pure: no store, any thread), as
    /// [`Writer::rechunk`] makes them.
    pub fn chunk(self) -> ChunkedRows {
        let spec = self.spec;
        ChunkedRows(
            self.jobs
                .into_iter()
                .map(|job| {
                    let t = &job.target;
                    (
                        job.chunking_id,
                        chunk_rows(&t.doc_id, t.seq, &job.text, spec),
                    )
                })
                .collect(),
        )
    }
}

/// Threads that chunk a batch's texts (the writer's own and one more, where the machine has a
/// second core): folding and hashing the chunks was half of a `chunk` run, on one core.
const CHUNK_THREADS: usize = 2;

/// Below this many chars a batch is chunked on the writer's thread alone: a second thread
/// costs more than it saves.
const CHUNK_THREADS_FROM_CHARS: usize = 64 << 10;

/// [`chunk_rows`] of each `(target, text)` of `jobs`, by revision id, in order. Where the
/// machine has a second core, a second thread takes jobs too, each job taken by the first
/// thread free: a thread the system starts late (here often a millisecond, a whole batch's
/// work) then only does less. The rows are the same whichever thread made them.
fn chunk_rows_all(jobs: &[(&ChunkTarget, String)], spec: ChunkSpec) -> Vec<(i64, Vec<NewChunk>)> {
    let rows_of = |(t, text): &(&ChunkTarget, String)| {
        (t.revision_id, chunk_rows(&t.doc_id, t.seq, text, spec))
    };
    let chars: usize = jobs.iter().map(|(t, _)| t.char_len).sum();
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(CHUNK_THREADS);
    if threads < 2 || jobs.len() < 2 || chars < CHUNK_THREADS_FROM_CHARS {
        return jobs.iter().map(rows_of).collect();
    }
    let next = AtomicUsize::new(0);
    let done: Vec<OnceLock<(i64, Vec<NewChunk>)>> = jobs.iter().map(|_| OnceLock::new()).collect();
    let take = || loop {
        let at = next.fetch_add(1, Ordering::Relaxed);
        let Some(job) = jobs.get(at) else { break };
        let _ = done[at].set(rows_of(job));
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(take);
        }
        take();
    });
    done.into_iter()
        .map(|rows| rows.into_inner().expect("every job chunked"))
        .collect()
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The byte offsets of char offsets asked in about increasing order (chunk starts, or chunk
/// ends), walked to from the last one asked: a document's chunks cost one pass over its text
/// and no table of a `usize` per char (1.6 GB for a 200 MB document).
struct ByteCursor<'t> {
    text: &'t str,
    /// Chars are bytes.
    ascii: bool,
    /// The last char offset asked, and its byte offset.
    at: (usize, usize),
}

impl<'t> ByteCursor<'t> {
    fn new(text: &'t str) -> Self {
        ByteCursor {
            text,
            ascii: text.is_ascii(),
            at: (0, 0),
        }
    }

    /// The byte offset of char `target` (at most the text's char count).
    fn byte_of(&mut self, target: usize) -> usize {
        if self.ascii {
            return target;
        }
        let (mut char_at, mut byte_at) = self.at;
        if target > char_at {
            // `nth` skips whole runs of chars at a time.
            let mut ahead = self.text[byte_at..].chars();
            ahead
                .nth(target - char_at - 1)
                .expect("a char offset inside the text");
            byte_at = self.text.len() - ahead.as_str().len();
            char_at = target;
        }
        let mut behind = self.text[..byte_at].chars();
        while char_at > target {
            byte_at -= behind
                .next_back()
                .expect("a char offset inside the text")
                .len_utf8();
            char_at -= 1;
        }
        self.at = (char_at, byte_at);
        byte_at
    }
}

#[cfg(test)]
mod tests {
    use super::ByteCursor;

    /// Forward, backward and repeated char offsets, ASCII and not, give the bytes a table of
    /// every char's byte offset gives.
    #[test]
    fn the_byte_cursor_agrees_with_a_table_of_every_char() {
        for text in ["plain ascii", "aé€😀b", "😀", "ééé e"] {
            let table: Vec<usize> = text
                .char_indices()
                .map(|(b, _)| b)
                .chain([text.len()])
                .collect();
            let last = table.len() - 1;
            let mut cursor = ByteCursor::new(text);
            for target in [0, last, 2.min(last), 3.min(last), 1, last, 0, 1.min(last)] {
                assert_eq!(
                    cursor.byte_of(target),
                    table[target],
                    "{text:?} char {target}"
                );
            }
        }
    }
}
