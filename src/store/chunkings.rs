//! Chunkings and their chunks; caller ids of chunks the caller made, and where a document's
//! text comes from (migration 0006).

use super::db::{args, params, Conn, DbResult, Row, ToDb, Value};
use super::{optional, Store, Writer};
use crate::error::{Error, Result};
use crate::model::{holding_key, Chunk, Chunking, NewChunk, Revision};

fn chunking_from(row: &Row) -> DbResult<Chunking> {
    Ok(Chunking {
        id: row.get(0)?,
        revision_id: row.get(1)?,
        spec: row.get(2)?,
        created_at: row.get(3)?,
    })
}

/// A chunk from a row that starts `ord, chunk_id, start_char, end_char, content_hash,
/// normaliser`.
fn chunk_from(row: &Row) -> DbResult<Chunk> {
    Ok(Chunk {
        ord: row.get(0)?,
        chunk_id: row.get(1)?,
        start: row.get::<i64>(2)? as usize,
        end: row.get::<i64>(3)? as usize,
        content_hash: row.get(4)?,
        normaliser: row.get(5)?,
    })
}

impl Writer<'_> {
    /// The revision's latest chunking, if any.
    pub fn current_chunking(&self, revision: &Revision) -> Result<Option<Chunking>> {
        optional(self.tx.query_row(
            "SELECT id, revision_id, spec, created_at FROM chunkings \
             WHERE revision_id = ?1 ORDER BY id DESC LIMIT 1",
            args![revision.id],
            chunking_from,
        ))
        .map_err(self.db())
    }

    /// Every chunking of a revision, oldest first.
    pub fn chunkings(&self, revision: &Revision) -> Result<Vec<Chunking>> {
        self.tx
            .query_map(
                "SELECT id, revision_id, spec, created_at FROM chunkings \
                 WHERE revision_id = ?1 ORDER BY id",
                args![revision.id],
                chunking_from,
            )
            .map_err(self.db())
    }

    /// The chunks of a chunking, in order.
    pub fn chunks(&self, chunking: &Chunking) -> Result<Vec<Chunk>> {
        self.tx
            .query_map(
                "SELECT ord, chunk_id, start_char, end_char, content_hash, normaliser \
                 FROM chunks WHERE chunking_id = ?1 ORDER BY ord",
                args![chunking.id],
                chunk_from,
            )
            .map_err(self.db())
    }

    /// Adds a chunking of `revision` with its chunks.
    pub fn insert_chunking(
        &self,
        revision: &Revision,
        spec: &str,
        chunks: &[NewChunk],
        now: &str,
    ) -> Result<Chunking> {
        self.insert_chunking_with_ids(revision, spec, chunks, &[], now)
    }

    /// The caller ids of a chunking's chunks, in order (`None` where a chunk has none).
    pub fn caller_ids(&self, chunking: &Chunking) -> Result<Vec<Option<String>>> {
        self.tx
            .query_map(
                "SELECT caller_id FROM chunks WHERE chunking_id = ?1 ORDER BY ord",
                args![chunking.id],
                |row| row.get(0),
            )
            .map_err(self.db())
    }

    /// Records where a document's text comes from now (`file` or `given`), unless it already
    /// does (a document with no row is `file`).
    pub fn set_text_origin(&self, document_id: i64, origin: TextOrigin, now: &str) -> Result<()> {
        if text_origin(self.tx, document_id).map_err(self.db())? == origin {
            return Ok(());
        }
        self.tx
            .execute(
                "INSERT INTO text_origins (document_id, origin, created_at) VALUES (?1, ?2, ?3)",
                args![document_id, origin.as_str(), now],
            )
            .map_err(self.db())?;
        Ok(())
    }

    /// Adds a chunking of `revision` with its chunks, `caller_ids[i]` the caller's id of chunk
    /// `i` (missing entries are `None`), many rows per statement.
    pub fn insert_chunking_with_ids(
        &self,
        revision: &Revision,
        spec: &str,
        chunks: &[NewChunk],
        caller_ids: &[Option<String>],
        now: &str,
    ) -> Result<Chunking> {
        let chunking_id: i64 = self
            .tx
            .query_row(
                "INSERT INTO chunkings (revision_id, spec, created_at) VALUES (?1, ?2, ?3) \
                 RETURNING id",
                args![revision.id, spec, now],
                |row| row.get(0),
            )
            .map_err(self.db())?;
        let rows = chunks.iter().enumerate().map(|(ord, chunk)| {
            vec![
                Value::Int(chunking_id),
                Value::Int(ord as i64),
                Value::Text(chunk.chunk_id.clone()),
                Value::Int(chunk.start as i64),
                Value::Int(chunk.end as i64),
                Value::Text(chunk.content_hash.clone()),
                Value::Text(chunk.normaliser.clone()),
                caller_ids.get(ord).cloned().flatten().to_db(),
            ]
        });
        self.tx
            .insert_rows(
                "chunks",
                &[
                    "chunking_id",
                    "ord",
                    "chunk_id",
                    "start_char",
                    "end_char",
                    "content_hash",
                    "normaliser",
                    "caller_id",
                ],
                rows,
            )
            .map_err(self.db())?;
        Ok(Chunking {
            id: chunking_id,
            revision_id: revision.id,
            spec: spec.to_string(),
            created_at: now.to_string(),
        })
    }
}

/// Where a document's text comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextOrigin {
    /// Its recorded source file (re-extracted by sweeps).
    File,
    /// Handed over as a string by the caller (Python's `ingest_text`): sweeps never look for a
    /// file; the caller brings new text.
    Given,
}

impl TextOrigin {
    /// The name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            TextOrigin::File => "file",
            TextOrigin::Given => "given",
        }
    }
}

fn text_origin(conn: &Conn, document_id: i64) -> DbResult<TextOrigin> {
    let origin: Option<String> = optional(conn.query_row(
        "SELECT origin FROM text_origins WHERE document_id = ?1 ORDER BY id DESC LIMIT 1",
        [document_id],
        |row| row.get(0),
    ))?;
    Ok(match origin.as_deref() {
        Some("given") => TextOrigin::Given,
        _ => TextOrigin::File,
    })
}

impl Store {
    /// Where a document's text comes from now.
    pub fn text_origin(&self, document_id: i64) -> Result<TextOrigin> {
        text_origin(&self.conn, document_id).map_err(self.db_err())
    }
}

/// The chunk holding a span, by citestore's id and the caller's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    /// citestore's chunk id.
    pub chunk_id: String,
    /// The caller's own id of the chunk (`ingest --chunks`), else `None`.
    pub caller_id: Option<String>,
}

/// The chunk-holding query (shared by [`super::Snapshot`] and [`Store::chunk_holding`]): the
/// chunks of the current chunking that touch the span, chosen by [`holding_key`], the rule the
/// sweep uses.
pub(super) fn chunk_holding(
    conn: &Conn,
    doc_id: &str,
    seq: u32,
    start: usize,
    end: usize,
) -> DbResult<Option<Holding>> {
    // The candidates in SQL, the choice by the one rule in `model::holding_key`.
    let rows: Vec<(String, i64, i64, Option<String>)> = conn.query_map(
        "SELECT c.chunk_id, c.start_char, c.end_char, c.caller_id FROM chunks c WHERE c.chunking_id = ( \
           SELECT MAX(k.id) FROM chunkings k JOIN revisions r ON r.id = k.revision_id \
           JOIN documents d ON d.id = r.document_id WHERE d.doc_id = ?1 AND r.seq = ?2) \
         AND c.start_char <= ?4 AND c.end_char >= ?3",
        params![doc_id, seq as i64, start as i64, end as i64],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    let mut best: Option<((bool, usize, usize), Holding)> = None;
    for (chunk_id, a, b, caller_id) in rows {
        let Some(key) = holding_key((a as usize, b as usize), (start, end)) else {
            continue;
        };
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((
                key,
                Holding {
                    chunk_id,
                    caller_id,
                },
            ));
        }
    }
    Ok(best.map(|(_, held)| held))
}

/// A revision's current chunking as stored: the chunks in order, each with the caller's id of
/// it (`None` for chunks citestore made).
#[derive(Debug, Clone)]
pub struct RevisionChunks {
    /// The revision's `seq`.
    pub revision: u32,
    /// The chunking's spec (`caller` for the caller's own chunks); `None` when the revision was
    /// never chunked.
    pub spec: Option<String>,
    /// The chunks, in order, with their caller ids.
    pub chunks: Vec<(Chunk, Option<String>)>,
}

impl super::Reads<'_> {
    /// Revision `seq` of `doc_id` (its latest when `None`), checked to exist: an unknown
    /// document or revision is said as such.
    pub fn revision_seq(&self, doc_id: &str, seq: Option<u32>) -> Result<u32> {
        let latest: Option<i64> = self
            .conn
            .query_row(
                "SELECT MAX(r.seq) FROM revisions r JOIN documents d ON d.id = r.document_id \
                 WHERE d.doc_id = ?1",
                args![doc_id],
                |r| r.get(0),
            )
            .map_err(self.db())?;
        let latest = latest.ok_or_else(|| Error::UnknownDocument {
            doc_id: doc_id.to_string(),
        })? as u32;
        let revision = seq.unwrap_or(latest);
        if revision == 0 || revision > latest {
            return Err(Error::UnknownRevision {
                doc_id: doc_id.to_string(),
                revision,
                latest,
            });
        }
        Ok(revision)
    }

    /// The current (latest) chunking of revision `seq` of `doc_id` (its latest revision when
    /// `None`).
    pub fn revision_chunks(&self, doc_id: &str, seq: Option<u32>) -> Result<RevisionChunks> {
        let revision = self.revision_seq(doc_id, seq)?;
        let chunking: Option<(i64, String)> = optional(self.conn.query_row(
            "SELECT k.id, k.spec FROM chunkings k JOIN revisions r ON r.id = k.revision_id \
             JOIN documents d ON d.id = r.document_id WHERE d.doc_id = ?1 AND r.seq = ?2 \
             ORDER BY k.id DESC LIMIT 1",
            args![doc_id, revision as i64],
            |r| Ok((r.get(0)?, r.get(1)?)),
        ))
        .map_err(self.db())?;
        let Some((chunking_id, spec)) = chunking else {
            return Ok(RevisionChunks {
                revision,
                spec: None,
                chunks: Vec::new(),
            });
        };
        let chunks = self
            .conn
            .query_map(
                "SELECT ord, chunk_id, start_char, end_char, content_hash, normaliser, caller_id \
                 FROM chunks WHERE chunking_id = ?1 ORDER BY ord",
                args![chunking_id],
                |row| Ok((chunk_from(row)?, row.get(6)?)),
            )
            .map_err(self.db())?;
        Ok(RevisionChunks {
            revision,
            spec: Some(spec),
            chunks,
        })
    }
}
