//! Chunkings and their chunks.

use super::db::{args, DbResult, Row, Value};
use super::{optional, Writer};
use crate::error::Result;
use crate::model::{Chunk, Chunking, Revision};

fn chunking_from(row: &Row) -> DbResult<Chunking> {
    Ok(Chunking {
        id: row.get(0)?,
        revision_id: row.get(1)?,
        spec: row.get(2)?,
        created_at: row.get(3)?,
    })
}

/// A chunk to add (its `ord` is its place in the slice given).
#[derive(Debug, Clone)]
pub struct NewChunk {
    /// `{doc_id}@r{seq}#{start}-{end}`.
    pub chunk_id: String,
    /// First char.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// contentHash of the chunk's text.
    pub content_hash: String,
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
                |row| {
                    Ok(Chunk {
                        ord: row.get(0)?,
                        chunk_id: row.get(1)?,
                        start: row.get::<i64>(2)? as usize,
                        end: row.get::<i64>(3)? as usize,
                        content_hash: row.get(4)?,
                        normaliser: row.get(5)?,
                    })
                },
            )
            .map_err(self.db())
    }

    /// Adds a chunking of `revision` with its chunks.
    pub fn insert_chunking(
        &self,
        revision: &Revision,
        spec: &str,
        chunks: &[NewChunk],
        normaliser: &str,
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
                Value::Text(normaliser.to_string()),
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
