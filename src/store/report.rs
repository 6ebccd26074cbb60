//! The reads behind `citestore report`: which sweeps a report covers, and the citations whose
//! status or span those sweeps changed, each with the state it had before and after.
//!
//! Invariants: only reads; a citation's state *before* a range of sweeps is its latest anchor
//! written by an earlier sweep, else the citation as made (intact); its state *after* is its
//! latest anchor written inside the range. A sweep writes an anchor only when a status or span
//! changed, so "has an anchor in the range" is "changed in the range".

use super::db::{DbResult, Row};
use super::sweeps::{sweep_from, SWEEP_COLUMNS};
use super::{optional, Store, SweepRow};
use crate::error::{Error, Result};
use crate::model::{Method, Status};
use serde::{Deserialize, Serialize};

/// Which changed citations to read: sweeps `from..=to`, optionally only some statuses (the
/// status after the range) and some documents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeSelection {
    /// First sweep of the range.
    pub from_sweep: i64,
    /// Last sweep of the range.
    pub to_sweep: i64,
    /// Only these statuses after the range (all when empty).
    pub statuses: Vec<Status>,
    /// Only these documents (all when empty).
    pub docs: Vec<String>,
}

/// A span of one revision, with the status it had there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpanState {
    /// The status there.
    pub status: Status,
    /// The revision `start`/`end` index (for lost: where the text was last known).
    pub revision: u32,
    /// Start, chars.
    pub start: usize,
    /// End, chars.
    pub end: usize,
}

/// One citation a range of sweeps changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChangedCitation {
    /// Row id in `citations`.
    pub row: i64,
    /// Public id.
    pub citation_id: String,
    /// Document.
    pub doc_id: String,
    /// The claim it supports.
    pub claim: String,
    /// The quote as the model gave it.
    pub quote: String,
    /// The revision's text at the span when it was cited.
    pub cited_text: String,
    /// Where it was before the range (as cited when no earlier sweep moved it).
    pub before: SpanState,
    /// Where it is after the range; for lost, the last known span.
    pub after: SpanState,
    /// The sweep that wrote the state after.
    pub sweep: i64,
    /// Score of the state after.
    pub score: f64,
    /// Method of the state after.
    pub method: Method,
    /// Why it is degraded or lost.
    pub reason: Option<String>,
}

impl ChangedCitation {
    /// Whether only the revision changed: the same status and span in a new revision (a
    /// sweep carried the citation over an edit elsewhere in its document). Listed apart from
    /// real changes, which page people.
    pub fn revision_only(&self) -> bool {
        let (b, a) = (&self.before, &self.after);
        (b.status, b.start, b.end) == (a.status, a.start, a.end) && b.revision != a.revision
    }
}

/// The span a stored state points at: a lost anchor's span indexes `from_revision`.
fn span(status: Status, revision: i64, start: i64, end: i64, from_revision: i64) -> SpanState {
    let revision = if status == Status::Lost {
        from_revision
    } else {
        revision
    };
    SpanState {
        status,
        revision: revision as u32,
        start: start as usize,
        end: end as usize,
    }
}

const CHANGED_SQL: &str = "WITH last AS ( \
       SELECT citation_id, MAX(id) AS id FROM anchors WHERE sweep_id BETWEEN ?1 AND ?2 \
       GROUP BY citation_id) \
     SELECT c.id, c.citation_id, c.doc_id, cl.text, c.quote, c.span_text, \
            c.revision, c.start_char, c.end_char, \
            a.sweep_id, a.status, a.revision, a.start_char, a.end_char, a.from_revision, \
            a.score, a.method, a.reason, \
            p.status, p.revision, p.start_char, p.end_char, p.from_revision \
     FROM last JOIN anchors a ON a.id = last.id \
     JOIN citations c ON c.id = last.citation_id \
     JOIN claims cl ON cl.id = c.claim_id \
     LEFT JOIN anchors p ON p.id = ( \
       SELECT MAX(id) FROM anchors WHERE citation_id = c.id AND sweep_id < ?1) \
     ORDER BY c.doc_id, c.id";

fn changed_from(r: &Row) -> DbResult<ChangedCitation> {
    let before = match r.get::<Option<Status>>(18)? {
        Some(status) => span(status, r.get(19)?, r.get(20)?, r.get(21)?, r.get(22)?),
        // No earlier anchor: intact, as cited.
        None => span(Status::Intact, r.get(6)?, r.get(7)?, r.get(8)?, r.get(6)?),
    };
    Ok(ChangedCitation {
        row: r.get(0)?,
        citation_id: r.get(1)?,
        doc_id: r.get(2)?,
        claim: r.get(3)?,
        quote: r.get(4)?,
        cited_text: r.get(5)?,
        before,
        sweep: r.get(9)?,
        after: span(r.get(10)?, r.get(11)?, r.get(12)?, r.get(13)?, r.get(14)?),
        score: r.get(15)?,
        method: r.get(16)?,
        reason: r.get(17)?,
    })
}

/// Turns a SQLite error into the store's error for this database.
fn db(store: &Store) -> impl Fn(super::db::DbError) -> Error + '_ {
    move |e| super::classify(&store.path, e)
}

impl Store {
    /// One sweep by id.
    pub fn sweep_row(&self, id: i64) -> Result<SweepRow> {
        let mut stmt = self
            .conn
            .prepare(&format!("SELECT {SWEEP_COLUMNS} FROM sweeps WHERE id = ?1"))
            .map_err(db(self))?;
        optional(stmt.query_row([id], sweep_from))
            .map_err(db(self))?
            .ok_or(Error::UnknownSweep { id })
    }

    /// The newest sweep (finished or interrupted).
    pub fn latest_sweep(&self) -> Result<SweepRow> {
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT {SWEEP_COLUMNS} FROM sweeps ORDER BY id DESC LIMIT 1"
            ))
            .map_err(db(self))?;
        optional(stmt.query_row([], sweep_from))
            .map_err(db(self))?
            .ok_or_else(|| Error::NoSweeps {
                path: self.path.clone(),
            })
    }

    /// Sweeps `from..=to`, oldest first.
    pub fn sweeps_between(&self, from: i64, to: i64) -> Result<Vec<SweepRow>> {
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT {SWEEP_COLUMNS} FROM sweeps WHERE id BETWEEN ?1 AND ?2 ORDER BY id"
            ))
            .map_err(db(self))?;
        let rows = stmt.query_map([from, to], sweep_from).map_err(db(self))?;
        rows.collect::<DbResult<_>>().map_err(db(self))
    }

    /// The first sweep started at or after `timestamp` (RFC 3339 UTC, as the store writes).
    pub fn first_sweep_since(&self, timestamp: &str) -> Result<Option<i64>> {
        self.conn
            .query_row(
                "SELECT MIN(id) FROM sweeps WHERE started_at >= ?1",
                [timestamp],
                |r| r.get(0),
            )
            .map_err(db(self))
    }

    /// The newest sweep at or before `sweep` that wrote any anchor (changed any citation).
    pub fn last_sweep_with_changes(&self, sweep: i64) -> Result<Option<i64>> {
        self.conn
            .query_row(
                "SELECT MAX(sweep_id) FROM anchors WHERE sweep_id <= ?1",
                [sweep],
                |r| r.get(0),
            )
            .map_err(db(self))
    }

    /// The citations whose status or span the selected sweeps changed, by document then row.
    pub fn changed_citations(&self, selection: &ChangeSelection) -> Result<Vec<ChangedCitation>> {
        let mut out = Vec::new();
        self.each_changed_citation(selection, |c| {
            out.push(c);
            Ok(())
        })?;
        Ok(out)
    }

    /// Calls `each` with the citations [`Store::changed_citations`] lists, in its order, as
    /// the rows are read: one in memory at a time (on PostgreSQL through a cursor, inside
    /// [`Store::snapshot`]).
    pub fn each_changed_citation(
        &self,
        selection: &ChangeSelection,
        mut each: impl FnMut(ChangedCitation) -> Result<()>,
    ) -> Result<()> {
        let wanted = |c: &ChangedCitation| {
            (selection.statuses.is_empty() || selection.statuses.contains(&c.after.status))
                && (selection.docs.is_empty() || selection.docs.contains(&c.doc_id))
        };
        self.conn.each(
            CHANGED_SQL,
            [selection.from_sweep, selection.to_sweep],
            db(self),
            |row| {
                let changed = changed_from(&row).map_err(db(self))?;
                if wanted(&changed) {
                    each(changed)?;
                }
                Ok(true)
            },
        )
    }
}
