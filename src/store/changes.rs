//! What changed: each citation whose status or span a sweep changed after a given sweep, with
//! its state before and after (the reads behind `citestore changes`).

use super::Store;
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// A citation's status and span at one moment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatusAt {
    /// intact, moved, degraded or lost.
    pub status: String,
    /// The revision the span indexes.
    pub revision: u32,
    /// Start, chars.
    pub start: usize,
    /// End, chars.
    pub end: usize,
}

/// One citation that changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// Citation id.
    pub id: String,
    /// Document.
    pub doc_id: String,
    /// Before (as cited, when no earlier sweep had moved it).
    pub before: StatusAt,
    /// Now.
    pub after: StatusAt,
    /// The method of the latest anchor.
    pub method: String,
    /// Why (degraded, lost).
    pub reason: Option<String>,
    /// The sweep that wrote the latest anchor.
    pub sweep: i64,
}

const CHANGES_SQL: &str = "SELECT c.citation_id, c.doc_id, \
       COALESCE(b.status, 'intact'), \
       CASE WHEN b.id IS NULL THEN c.revision WHEN b.status = 'lost' THEN b.from_revision ELSE b.revision END, \
       COALESCE(b.start_char, c.start_char), COALESCE(b.end_char, c.end_char), \
       a.status, CASE WHEN a.status = 'lost' THEN a.from_revision ELSE a.revision END, \
       a.start_char, a.end_char, a.method, a.reason, a.sweep_id \
     FROM citations c \
     JOIN anchors a ON a.id = (SELECT MAX(id) FROM anchors WHERE citation_id = c.id) \
     LEFT JOIN anchors b ON b.id = (SELECT MAX(id) FROM anchors WHERE citation_id = c.id AND sweep_id <= ?1) \
     WHERE a.sweep_id > ?1 ORDER BY c.doc_id, c.id";

impl Store {
    /// Citations whose status or span changed in sweeps after `since` (0: since the start).
    pub fn changes_since(&self, since: i64) -> Result<Vec<Change>> {
        let mut stmt = self.conn.prepare(CHANGES_SQL).map_err(self.db_err())?;
        let at = |r: &rusqlite::Row<'_>, i: usize| -> rusqlite::Result<StatusAt> {
            Ok(StatusAt {
                status: r.get(i)?,
                revision: r.get::<_, i64>(i + 1)? as u32,
                start: r.get::<_, i64>(i + 2)? as usize,
                end: r.get::<_, i64>(i + 3)? as usize,
            })
        };
        let rows = stmt
            .query_map([since], |r| {
                Ok(Change {
                    id: r.get(0)?,
                    doc_id: r.get(1)?,
                    before: at(r, 2)?,
                    after: at(r, 6)?,
                    method: r.get(10)?,
                    reason: r.get(11)?,
                    sweep: r.get(12)?,
                })
            })
            .map_err(self.db_err())?;
        let all: Vec<Change> = rows
            .collect::<rusqlite::Result<_>>()
            .map_err(self.db_err())?;
        Ok(all.into_iter().filter(|c| c.before != c.after).collect())
    }

    /// The id of the sweep before the latest (0 when there are fewer than two).
    pub fn sweep_before_latest(&self) -> Result<i64> {
        self.conn
            .query_row(
                "SELECT COALESCE((SELECT id FROM sweeps ORDER BY id DESC LIMIT 1 OFFSET 1), 0)",
                [],
                |r| r.get(0),
            )
            .map_err(self.db_err())
    }

    /// The latest sweep that started before `timestamp` (RFC 3339, as the store writes it); 0
    /// when none did.
    pub fn last_sweep_before(&self, timestamp: &str) -> Result<i64> {
        self.conn
            .query_row(
                "SELECT COALESCE(MAX(id), 0) FROM sweeps WHERE started_at < ?1",
                [timestamp],
                |r| r.get(0),
            )
            .map_err(self.db_err())
    }

    /// Whether sweep `id` exists.
    pub fn sweep_exists(&self, id: i64) -> Result<bool> {
        self.conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM sweeps WHERE id = ?1)",
                [id],
                |r| r.get(0),
            )
            .map_err(self.db_err())
    }

    /// Doc ids of the documents whose current state is `state`, sorted.
    pub fn documents_in_state(&self, state: crate::model::DocumentState) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT d.doc_id FROM documents d JOIN document_states s ON s.document_id = d.id \
                 WHERE s.id = (SELECT MAX(id) FROM document_states WHERE document_id = d.id) \
                 AND s.state = ?1 ORDER BY d.doc_id",
            )
            .map_err(self.db_err())?;
        let rows = stmt
            .query_map([state.as_str()], |r| r.get(0))
            .map_err(self.db_err())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.db_err())
    }
}
