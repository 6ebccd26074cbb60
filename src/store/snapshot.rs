//! Read snapshots: one deferred read transaction that many reads go through, row by row.
//!
//! Invariants:
//! - [`Store::read`] begins the transaction and reads at once, so the snapshot is pinned to the
//!   last commit before the call: a writer committing while `export` or `list` runs is never
//!   seen, never blocks the reader (WAL), and can never make it fail half-way.
//! - The `for_each_*` methods hand rows to a callback as SQLite steps through them; nothing is
//!   collected, so memory is flat in the number of citations.
//! - A snapshot never writes; dropping it ends the transaction.

use super::sweeps::{record_from, state_from, RECORD_SQL, STATE_SQL};
use super::{classify, CitationRecord, CitationState, Store};
use crate::error::{Error, Result};
use crate::model::holding_key;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::Path;

/// One read transaction over the store (see the module invariants).
pub struct Snapshot<'a> {
    pub(super) tx: rusqlite::Transaction<'a>,
    pub(super) path: &'a Path,
}

impl Store {
    /// Starts a read snapshot: every read through it sees the store as of one commit.
    pub fn read(&mut self) -> Result<Snapshot<'_>> {
        let path = &self.path;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Deferred)
            .map_err(|e| classify(path, e))?;
        // A deferred transaction takes its snapshot at its first read: read now, so the
        // snapshot is the store as it was when `read` was called.
        tx.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
            .map_err(|e| classify(path, e))?;
        Ok(Snapshot { tx, path })
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
        self.conn.execute_batch("BEGIN DEFERRED").map_err(db)?;
        // The snapshot is taken at the first read: take it now.
        let begun = self
            .conn
            .query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
            .map_err(db);
        let result = begun.and_then(|()| reads(self));
        // A read transaction has nothing to keep: ending it either way is the same.
        let _ = self.conn.execute_batch("ROLLBACK");
        result
    }
}

impl Snapshot<'_> {
    fn db(&self) -> impl Fn(rusqlite::Error) -> Error + '_ {
        move |e| classify(self.path, e)
    }

    /// Calls `each` with every citation's current state (optionally of one document only), by
    /// citation row, as the rows are read.
    pub fn for_each_state<E: From<Error>>(
        &self,
        doc_id: Option<&str>,
        each: impl FnMut(CitationState) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        states_each(&self.tx, self.path, doc_id, each)
    }

    /// Calls `each` with every citation's record and current state, by citation row, as the
    /// rows are read.
    pub fn for_each_citation<E: From<Error>>(
        &self,
        mut each: impl FnMut(CitationRecord, CitationState) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        // Two cursors over the same rows in the same order, stepped together: a merge join
        // that keeps one row of each in memory.
        let mut records = self
            .tx
            .prepare(&format!("{RECORD_SQL} ORDER BY c.id"))
            .map_err(self.db())?;
        let mut states = self
            .tx
            .prepare(&format!("{STATE_SQL} ORDER BY c.id"))
            .map_err(self.db())?;
        let mut records = records.query_map([], record_from).map_err(self.db())?;
        let mut states = states.query_map([], state_from).map_err(self.db())?;
        for record in records.by_ref() {
            let record = record.map_err(self.db())?;
            // Every citation has a claim, so the state cursor holds the same rows; skipping a
            // row that has no record only guards a store whose foreign keys were switched off.
            let state = loop {
                match states.next() {
                    Some(state) => {
                        let state = state.map_err(self.db())?;
                        if state.row == record.row {
                            break Some(state);
                        }
                    }
                    None => break None,
                }
            };
            let Some(state) = state else {
                return Err(E::from(Error::Database {
                    path: self.path.to_path_buf(),
                    message: format!("citation {} has no state row", record.citation_id),
                }));
            };
            each(record, state)?;
        }
        Ok(())
    }

    /// The chunk of the current chunking of revision `seq` that contains `[start, end)`, else
    /// the one overlapping it most (see [`Store::chunk_holding`]).
    pub fn chunk_holding(
        &self,
        doc_id: &str,
        seq: u32,
        start: usize,
        end: usize,
    ) -> Result<Option<String>> {
        chunk_holding(&self.tx, doc_id, seq, start, end).map_err(self.db())
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
                 WHERE citation_id = ?1 AND status != 'lost')",
            )
            .map_err(self.db())?;
        let row: Option<(Option<String>, Option<String>)> = stmt
            .query_row([citation_row], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()
            .map_err(self.db())?;
        Ok(match row {
            Some((Some(prefix), Some(suffix))) => Some((prefix, suffix)),
            _ => None,
        })
    }

    /// The text of revision `seq` of `doc_id` and when it was stored.
    pub fn revision_text(&self, doc_id: &str, seq: u32) -> Result<(String, String)> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT r.text, r.created_at FROM revisions r \
                 JOIN documents d ON d.id = r.document_id WHERE d.doc_id = ?1 AND r.seq = ?2",
            )
            .map_err(self.db())?;
        stmt.query_row(params![doc_id, seq as i64], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(self.db())
    }
}

/// Steps through [`STATE_SQL`] calling `each` per row (shared by [`Snapshot`] and
/// [`Store::all_states`]).
pub(super) fn states_each<E: From<Error>>(
    conn: &Connection,
    path: &Path,
    doc_id: Option<&str>,
    mut each: impl FnMut(CitationState) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let db = |e| E::from(classify(path, e));
    let sql = match doc_id {
        Some(_) => format!("{STATE_SQL} WHERE c.doc_id = ?1 ORDER BY c.id"),
        None => format!("{STATE_SQL} ORDER BY c.id"),
    };
    let mut stmt = conn.prepare(&sql).map_err(db)?;
    let mut rows = match doc_id {
        Some(id) => stmt.query([id]),
        None => stmt.query([]),
    }
    .map_err(db)?;
    while let Some(row) = rows.next().map_err(db)? {
        each(state_from(row).map_err(db)?)?;
    }
    Ok(())
}

/// The chunk-holding query (shared by [`Snapshot`] and [`Store::chunk_holding`]): the chunks of
/// the current chunking that touch the span, chosen by [`holding_key`], the rule the sweep uses.
pub(super) fn chunk_holding(
    conn: &Connection,
    doc_id: &str,
    seq: u32,
    start: usize,
    end: usize,
) -> rusqlite::Result<Option<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.chunk_id, c.start_char, c.end_char FROM chunks c WHERE c.chunking_id = ( \
           SELECT MAX(k.id) FROM chunkings k JOIN revisions r ON r.id = k.revision_id \
           JOIN documents d ON d.id = r.document_id WHERE d.doc_id = ?1 AND r.seq = ?2) \
         AND c.start_char <= ?4 AND c.end_char >= ?3",
    )?;
    let rows = stmt.query_map(params![doc_id, seq as i64, start as i64, end as i64], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
        ))
    })?;
    let mut best: Option<((bool, usize, usize), String)> = None;
    for row in rows {
        let (id, a, b) = row?;
        let Some(key) = holding_key((a as usize, b as usize), (start, end)) else {
            continue;
        };
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((key, id));
        }
    }
    Ok(best.map(|(_, id)| id))
}
