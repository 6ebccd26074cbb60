//! Read snapshots: one deferred read transaction that many reads go through, row by row.
//!
//! Invariants:
//! - [`Store::read`] begins the transaction and reads at once, so the snapshot is pinned to the
//!   last commit before the call: a writer committing while `export` or `list` runs is never
//!   seen, never blocks the reader (WAL), and can never make it fail half-way.
//! - The `for_each_*` methods hand rows to a callback as SQLite steps through them; nothing is
//!   collected, so memory is flat in the number of citations.
//! - A snapshot never writes; dropping it ends the transaction.

use super::db::{args, optional, params, Begin, Conn, DbError};
use super::sweeps::{record_from, state_from, RECORD_COLUMNS, RECORD_STATE_SQL};
use super::{classify, CitationRecord, CitationState, Store};
use crate::error::{Error, Result};
use crate::model::Status;
use std::path::Path;

/// One read transaction over the store (see the module invariants).
pub struct Snapshot<'a> {
    pub(super) tx: &'a Conn,
    pub(super) path: &'a Path,
}

impl Store {
    /// Starts a read snapshot: every read through it sees the store as of one commit (the
    /// snapshot is taken at once, so it is the store as it was when `read` was called).
    pub fn read(&mut self) -> Result<Snapshot<'_>> {
        let path = &self.path;
        self.conn
            .begin(Begin::Read)
            .map_err(|e| classify(path, e))?;
        Ok(Snapshot {
            tx: &self.conn,
            path,
        })
    }
}

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        // A read transaction has nothing to keep.
        let _ = self.tx.end(false);
    }
}

impl Store {
    /// Runs `reads` (any of the store's reading methods) in one deferred read transaction, so
    /// they all see the store as of one commit (`health` reads counts, states and sweeps this
    /// way). Nothing inside may write.
    pub fn snapshot<T, E: From<Error>>(
        &self,
        reads: impl FnOnce(&Store) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        let db = |e| E::from(classify(&self.path, e));
        self.conn.begin(Begin::Read).map_err(db)?;
        let result = reads(self);
        // A read transaction has nothing to keep: ending it either way is the same.
        let _ = self.conn.end(false);
        result
    }
}

impl Snapshot<'_> {
    fn db(&self) -> impl Fn(DbError) -> Error + '_ {
        move |e| classify(self.path, e)
    }

    /// Calls `each` with every citation's record and current state, by citation row, as the
    /// rows are read.
    pub fn for_each_citation<E: From<Error>>(
        &self,
        mut each: impl FnMut(CitationRecord, CitationState) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        // One cursor over the record and the state side by side, stepped as it is read:
        // one row in memory at a time.
        let sql = format!("{RECORD_STATE_SQL} ORDER BY c.id");
        let path = self.path;
        self.tx.each(
            &sql,
            args![Status::Lost],
            |e| E::from(classify(path, e)),
            |row| {
                let record = record_from(&row).map_err(|e| E::from(classify(path, e)))?;
                let state = state_from(&row.at_column(RECORD_COLUMNS))
                    .map_err(|e| E::from(classify(path, e)))?;
                each(record, state)?;
                Ok(true)
            },
        )
    }
}

impl Snapshot<'_> {
    /// The prefix/suffix stored with the citation's last placed (not lost) anchor: its context
    /// in the revision that anchor indexes. `None` when no sweep placed it, or the anchor was
    /// written before anchors kept their context (migration 0007).
    pub fn anchor_context(&self, citation_row: i64) -> Result<Option<(String, String)>> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT prefix, suffix FROM anchors WHERE id = (SELECT MAX(id) FROM anchors \
                 WHERE citation_id = ?1 AND status != ?2)",
            )
            .map_err(self.db())?;
        let row: Option<(Option<String>, Option<String>)> =
            optional(stmt.query_row(params![citation_row, Status::Lost], |r| {
                Ok((r.get(0)?, r.get(1)?))
            }))
            .map_err(self.db())?;
        Ok(match row {
            Some((Some(prefix), Some(suffix))) => Some((prefix, suffix)),
            _ => None,
        })
    }
}
