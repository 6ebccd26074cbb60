//! Chunkings and their chunks.

use super::{optional, Writer};
use crate::error::Result;
use crate::model::{Chunk, Chunking, NewChunk, Revision};
use rusqlite::params;

impl Writer<'_> {
    /// The revision's latest chunking, if any.
    pub fn current_chunking(&self, revision: &Revision) -> Result<Option<Chunking>> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT id, revision_id, spec, created_at FROM chunkings \
                 WHERE revision_id = ?1 ORDER BY id DESC LIMIT 1",
            )
            .map_err(self.db())?;
        optional(stmt.query_row([revision.id], |row| {
            Ok(Chunking {
                id: row.get(0)?,
                revision_id: row.get(1)?,
                spec: row.get(2)?,
                created_at: row.get(3)?,
            })
        }))
        .map_err(self.db())
    }

    /// Every chunking of a revision, oldest first.
    pub fn chunkings(&self, revision: &Revision) -> Result<Vec<Chunking>> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT id, revision_id, spec, created_at FROM chunkings \
                 WHERE revision_id = ?1 ORDER BY id",
            )
            .map_err(self.db())?;
        let rows = stmt
            .query_map([revision.id], |row| {
                Ok(Chunking {
                    id: row.get(0)?,
                    revision_id: row.get(1)?,
                    spec: row.get(2)?,
                    created_at: row.get(3)?,
                })
            })
            .map_err(self.db())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.db())
    }

    /// The chunks of a chunking, in order.
    pub fn chunks(&self, chunking: &Chunking) -> Result<Vec<Chunk>> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT ord, chunk_id, start_char, end_char, content_hash, normaliser \
                 FROM chunks WHERE chunking_id = ?1 ORDER BY ord",
            )
            .map_err(self.db())?;
        let rows = stmt
            .query_map([chunking.id], |row| {
                Ok(Chunk {
                    ord: row.get(0)?,
                    chunk_id: row.get(1)?,
                    start: row.get::<_, i64>(2)? as usize,
                    end: row.get::<_, i64>(3)? as usize,
                    content_hash: row.get(4)?,
                    normaliser: row.get(5)?,
                })
            })
            .map_err(self.db())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.db())
    }

    /// Adds a chunking of `revision` with its chunks.
    pub fn insert_chunking(
        &self,
        revision: &Revision,
        spec: &str,
        chunks: &[NewChunk],
        now: &str,
    ) -> Result<Chunking> {
        self.tx
            .prepare_cached(
                "INSERT INTO chunkings (revision_id, spec, created_at) VALUES (?1, ?2, ?3)",
            )
            .and_then(|mut stmt| stmt.execute(params![revision.id, spec, now]))
            .map_err(self.db())?;
        let chunking_id = self.tx.last_insert_rowid();
        let mut stmt = self
            .tx
            .prepare_cached(
                "INSERT INTO chunks (chunking_id, ord, chunk_id, start_char, end_char, \
                 content_hash, normaliser) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )
            .map_err(self.db())?;
        for (ord, chunk) in chunks.iter().enumerate() {
            stmt.execute(params![
                chunking_id,
                ord as i64,
                chunk.chunk_id,
                chunk.start as i64,
                chunk.end as i64,
                chunk.content_hash,
                chunk.normaliser
            ])
            .map_err(self.db())?;
        }
        Ok(Chunking {
            id: chunking_id,
            revision_id: revision.id,
            spec: spec.to_string(),
            created_at: now.to_string(),
        })
    }
}
