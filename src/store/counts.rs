//! Citations counted by document and status (migration 0013), kept by the writes that change
//! a status, so `health` reads a few rows instead of every citation's latest anchor.
//!
//! Invariants: for every document and status, `citation_counts.n` equals the number of its
//! citations whose current state (latest anchor, else `intact` as cited) has that status; each
//! change is made in the transaction of the rows it counts; rows are touched in (doc_id,
//! status) order, the order of a `BTreeMap`, by every writer, so concurrent PostgreSQL writers
//! queue instead of deadlocking.

use super::db::{args, Conn, DbResult};
use crate::model::Status;
use std::collections::BTreeMap;

/// Changes to the counts: `(doc_id, status)` → how many citations more (or fewer).
pub(crate) type CountChanges = BTreeMap<(String, Status), i64>;

/// Adds `changes` to the counts, in key order; zero changes touch nothing.
pub(super) fn add(tx: &Conn, changes: &CountChanges) -> DbResult<()> {
    for ((doc_id, status), n) in changes {
        if *n == 0 {
            continue;
        }
        tx.execute(
            "INSERT INTO citation_counts (doc_id, status, n) VALUES (?1, ?2, ?3) \
             ON CONFLICT (doc_id, status) DO UPDATE SET n = citation_counts.n + excluded.n",
            args![doc_id, status, n],
        )?;
    }
    Ok(())
}

/// Every document's counts: `(doc_id, status, n)` with `n > 0`, by document.
pub(super) fn by_document(conn: &Conn) -> DbResult<Vec<(String, Status, i64)>> {
    conn.query_map(
        "SELECT doc_id, status, n FROM citation_counts WHERE n > 0 ORDER BY doc_id, status",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
}
