//! Sweeps, anchors and swept documents (migration 0004), and the reads behind `health`,
//! `list`, `show` and `export`.
//!
//! Invariants: citation rows are never updated; a citation's current state is its latest
//! anchor, else the citation itself (intact, as cited); anchors and swept_documents are only
//! appended.

use super::db::{params, Conn, DbResult, Row, ToDb};
use super::{classify, optional, Store, Writer};
use crate::error::{Error, Result};
use crate::model::citation::Verdict;
use crate::model::verification::ClaimVerdict;
use crate::model::{Method, Status};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A citation as a sweep sees it: where it is now, and the last place it was found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CitationState {
    /// Row id in `citations`.
    pub row: i64,
    /// Public id.
    pub citation_id: String,
    /// Document.
    pub doc_id: String,
    /// The quote as the model gave it.
    pub quote: String,
    /// The revision's text at the span when it was cited (what intact and moved must find).
    pub cited_text: String,
    /// Current status: intact until a sweep says otherwise.
    pub status: Status,
    /// The revision the current state was decided against.
    pub revision: u32,
    /// The last span where the text was found (the original, or the latest non-lost anchor):
    /// revision, start, end, chunk id.
    pub found_revision: u32,
    /// Start of that span.
    pub found_start: usize,
    /// End of that span.
    pub found_end: usize,
    /// The chunk that held it.
    pub found_chunk_id: String,
    /// Score, method and reason of the current state (100, `cited`, none before any sweep).
    pub score: f64,
    /// How the current state was found ([`Method::Cited`] before any sweep).
    pub method: Method,
    /// Why it is degraded or lost.
    pub reason: Option<String>,
}

/// An anchor row to append.
#[derive(Debug, Clone, PartialEq)]
pub struct NewAnchor {
    /// Row id in `citations`.
    pub citation_row: i64,
    /// Revision anchored against.
    pub revision: u32,
    /// The status decided.
    pub status: Status,
    /// The status it had before (what [`Writer::record_anchors`] counts it out of).
    pub previous: Status,
    /// Span start (for lost: the last known start, in `from_revision`).
    pub start: usize,
    /// Span end.
    pub end: usize,
    /// The revision the previous span indexed.
    pub from_revision: u32,
    /// Chunk holding the span; `None` when lost.
    pub chunk_id: Option<String>,
    /// Score of the placement.
    pub score: f64,
    /// The step that placed it (or [`Method::Missing`]).
    pub method: Method,
    /// Why.
    pub reason: Option<String>,
    /// Context before the span in `revision` (≥ 32 chars, grown until unique); `None` when lost.
    pub prefix: Option<String>,
    /// Context after it.
    pub suffix: Option<String>,
}

/// Counts of a sweep. The document counters are bumped in each document's own transaction, so
/// an interrupted sweep shows what it committed, and `documents` is their sum.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    /// Row id.
    pub id: i64,
    /// Start time.
    pub started_at: String,
    /// End time; `None` when the run was interrupted (or is still running).
    pub finished_at: Option<String>,
    /// Documents selected at the start; `None` for sweeps from before this counter.
    pub planned: Option<i64>,
    /// Documents swept: the sum of the outcome counters below.
    pub documents: i64,
    /// Documents with a new revision.
    pub re_extracted: i64,
    /// Else re-chunked.
    pub rechunked: i64,
    /// Else with citations re-anchored.
    pub reanchored: i64,
    /// Else already up to date.
    pub unchanged: i64,
    /// Source gone: citations lost.
    pub missing: i64,
    /// Retired: passed over.
    pub retired: i64,
    /// Could not be swept.
    pub failed: i64,
    /// Extractor runs.
    pub extractions: i64,
    /// Documents changed (re-extracted, re-chunked or re-anchored).
    pub changed: i64,
    /// Citations re-anchored.
    pub citations: i64,
    /// Citations whose status or span changed (re-anchored, or lost with their source; 0 for
    /// sweeps before this counter).
    #[serde(default)]
    pub citations_changed: i64,
    /// Of those, citations carried to a new revision with the same status and span.
    #[serde(default)]
    pub citations_carried: i64,
    /// Current statuses over the store at the end.
    pub intact: i64,
    /// Moved.
    pub moved: i64,
    /// Degraded.
    pub degraded: i64,
    /// Lost.
    pub lost: i64,
    /// Wall time.
    pub seconds: Option<f64>,
    /// The run a shard sweep belongs to (`--run`); absent for a sweep of the whole store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// `I/N` of a shard sweep; absent for a sweep of the whole store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Where this sweep came in the order sweeps finished (1 first); `None` while running, when
    /// interrupted, or finished before migration 0010. Tells which shard of a run finished
    /// last when their times tie.
    #[serde(skip)]
    pub finish_order: Option<i64>,
}

/// What a sweep did to citations, as the sweeps row counts it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CitationCounts {
    /// Citations re-anchored.
    pub reanchored: usize,
    /// Citations whose status or span changed (re-anchored, or lost with their source).
    pub changed: usize,
    /// Of those, citations carried to a new revision with the same status and span.
    pub carried: usize,
}

impl std::ops::AddAssign for CitationCounts {
    fn add_assign(&mut self, other: Self) {
        self.reanchored += other.reanchored;
        self.changed += other.changed;
        self.carried += other.carried;
    }
}

/// Which shard of which run a sweep is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepShard {
    /// The run it belongs to.
    pub run: String,
    /// I (1-based).
    pub index: u32,
    /// N.
    pub count: u32,
}

/// The columns [`sweep_from`] reads, in order.
pub(super) const SWEEP_COLUMNS: &str = "id, started_at, finished_at, planned, documents, \
     re_extracted, rechunked, reanchored, unchanged, missing, retired, failed, extractions, \
     changed, citations, intact, moved, degraded, lost, seconds, run, shard_index, shard_count, \
     finish_order, citations_changed, citations_carried";

/// A sweeps row selected with [`SWEEP_COLUMNS`].
pub(super) fn sweep_from(r: &Row) -> DbResult<SweepRow> {
    Ok(SweepRow {
        id: r.get(0)?,
        started_at: r.get(1)?,
        finished_at: r.get(2)?,
        planned: r.get(3)?,
        documents: r.get(4)?,
        re_extracted: r.get(5)?,
        rechunked: r.get(6)?,
        reanchored: r.get(7)?,
        unchanged: r.get(8)?,
        missing: r.get(9)?,
        retired: r.get(10)?,
        failed: r.get(11)?,
        extractions: r.get(12)?,
        changed: r.get(13)?,
        citations: r.get(14)?,
        intact: r.get(15)?,
        moved: r.get(16)?,
        degraded: r.get(17)?,
        lost: r.get(18)?,
        seconds: r.get(19)?,
        run: r.get(20)?,
        shard: match (r.get::<Option<i64>>(21)?, r.get::<Option<i64>>(22)?) {
            (Some(i), Some(n)) => Some(format!("{i}/{n}")),
            _ => None,
        },
        finish_order: r.get(23)?,
        citations_changed: r.get(24)?,
        citations_carried: r.get(25)?,
    })
}

/// The columns [`state_from`] reads.
macro_rules! state_columns {
    () => {
        "c.id, c.citation_id, c.doc_id, c.quote, c.revision, c.start_char, \
         c.end_char, c.chunk_id, a.status, a.revision, a.score, a.method, a.reason, \
         g.revision, g.start_char, g.end_char, g.chunk_id, c.span_text"
    };
}

/// The joins behind [`state_columns`]: the latest anchor, and the latest one whose status is
/// not the parameter `$lost` (a placeholder such as `"?1"`: the caller binds [`Status::Lost`]
/// there, so no status is spelled in SQL).
macro_rules! state_joins {
    ($lost:literal) => {
        concat!(
            " LEFT JOIN anchors a ON a.id = (SELECT MAX(id) FROM anchors WHERE citation_id = c.id) \
             LEFT JOIN anchors g ON g.id = \
             (SELECT MAX(id) FROM anchors WHERE citation_id = c.id AND status != ",
            $lost,
            ")"
        )
    };
}

/// The columns [`record_from`] reads.
macro_rules! record_columns {
    () => {
        "c.id, c.citation_id, cl.text, cl.id, c.doc_id, c.revision, c.chunk_id, \
         c.content_hash, c.start_char, c.end_char, c.quote, c.span_text, c.prefix, c.suffix, \
         c.verdict, c.normaliser"
    };
}

/// Every citation's state; bind [`Status::Lost`] as `?1` (a `WHERE` added after it numbers
/// its parameters from `?2`).
pub(super) const STATE_SQL: &str = concat!(
    "SELECT ",
    state_columns!(),
    " FROM citations c",
    state_joins!("?1")
);

/// Number of columns of [`record_columns`].
pub(super) const RECORD_COLUMNS: usize = 16;

/// A citation's record and its state side by side, in one row; bind [`Status::Lost`] as `?1`.
pub(super) const RECORD_STATE_SQL: &str = concat!(
    "SELECT ",
    record_columns!(),
    ", ",
    state_columns!(),
    " FROM citations c JOIN claims cl ON cl.id = c.claim_id",
    state_joins!("?1")
);

pub(super) fn state_from(row: &Row) -> DbResult<CitationState> {
    let cited_revision = row.get::<i64>(4)? as u32;
    let found_revision: Option<i64> = row.get(13)?;
    let anchored: Option<Status> = row.get(8)?;
    Ok(CitationState {
        row: row.get(0)?,
        citation_id: row.get(1)?,
        doc_id: row.get(2)?,
        quote: row.get(3)?,
        cited_text: row.get(17)?,
        // Never anchored: intact, as cited.
        status: anchored.unwrap_or(Status::Intact),
        revision: row
            .get::<Option<i64>>(9)?
            .map_or(cited_revision, |r| r as u32),
        found_revision: found_revision.map_or(cited_revision, |r| r as u32),
        found_start: row.get::<Option<i64>>(14)?.unwrap_or(row.get(5)?) as usize,
        found_end: row.get::<Option<i64>>(15)?.unwrap_or(row.get(6)?) as usize,
        found_chunk_id: row
            .get::<Option<String>>(16)?
            .map_or_else(|| row.get(7), Ok)?,
        score: row.get::<Option<f64>>(10)?.unwrap_or(100.0),
        method: row.get::<Option<Method>>(11)?.unwrap_or(Method::Cited),
        reason: row.get(12)?,
    })
}

/// Steps through [`STATE_SQL`] calling `each` per row (shared by [`super::Snapshot`] and
/// [`Store::all_states`]).
pub(super) fn states_each<E: From<Error>>(
    conn: &Conn,
    path: &Path,
    doc_id: Option<&str>,
    mut each: impl FnMut(CitationState) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let db = |e| E::from(classify(path, e));
    let sql = match doc_id {
        Some(_) => format!("{STATE_SQL} WHERE c.doc_id = ?2 ORDER BY c.id"),
        None => format!("{STATE_SQL} ORDER BY c.id"),
    };
    let mut params = vec![Status::Lost.to_db()];
    params.extend(doc_id.map(ToDb::to_db));
    conn.each(&sql, params, db, |row| {
        each(state_from(&row).map_err(db)?)?;
        Ok(true)
    })
}

/// What a document's re-anchoring was computed from: its latest revision, current chunking,
/// number of citations and latest anchor. Equal before and after means no other writer touched
/// what the computation read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnchoringBasis {
    revision: Option<i64>,
    chunking: Option<i64>,
    citations: i64,
    latest_anchor: i64,
    latest_citation: i64,
}

/// A document's citations as re-anchoring needs them: the [`AnchoringBasis`] they were read
/// at, how many are current, and the states of the stale ones.
#[derive(Debug, Clone)]
pub struct StaleCitations {
    /// What was read.
    pub basis: AnchoringBasis,
    /// Citations whose state was decided against the revision asked about (and not lost only
    /// because the source was missing): nothing to do.
    pub current: usize,
    /// The other citations' states, by citation row.
    pub stale: Vec<CitationState>,
}

/// True for a citation (`c`, its latest anchor `a`) whose state was not decided against
/// revision `?2`, or that was lost (status `?4`) only because its source was missing (method
/// `?3`).
macro_rules! stale {
    () => {
        "(COALESCE(a.revision, c.revision) <> ?2 OR (a.status = ?4 AND a.method = ?3))"
    };
}

/// Per document `?1`: its citations, the newest of their anchors (one index probe per
/// citation: its latest anchor is the newest of its anchors), the newest citation, and how
/// many are stale ([`stale`]).
const BASIS_SQL: &str = concat!(
    "SELECT count(*), COALESCE(MAX(a.id), 0), COALESCE(MAX(c.id), 0), \
     COALESCE(SUM(CASE WHEN ",
    stale!(),
    " THEN 1 ELSE 0 END), 0) FROM citations c LEFT JOIN anchors a ON a.id = \
     (SELECT MAX(id) FROM anchors WHERE citation_id = c.id) WHERE c.doc_id = ?1"
);

/// The states of document `?1`'s stale citations ([`stale`]), by row.
const STALE_STATES_SQL: &str = concat!(
    "SELECT ",
    state_columns!(),
    " FROM citations c",
    state_joins!("?4"),
    " WHERE c.doc_id = ?1 AND ",
    stale!(),
    " ORDER BY c.id"
);

impl Writer<'_> {
    /// The [`AnchoringBasis`] of `document` now.
    pub fn anchoring_basis(&self, document: &crate::model::Document) -> Result<AnchoringBasis> {
        let revision = self.latest_revision(document)?;
        let chunking = match &revision {
            Some(r) => self.current_chunking(r)?.map(|c| c.id),
            None => None,
        };
        let (basis, _) = self.citation_basis(
            document,
            revision.as_ref().map(|r| r.id),
            chunking,
            revision.as_ref().map_or(0, |r| r.seq),
        )?;
        Ok(basis)
    }

    /// The basis read at `(revision_id, chunking_id)` and the number of the document's
    /// citations that are stale against revision `seq` (see [`stale`]).
    fn citation_basis(
        &self,
        document: &crate::model::Document,
        revision_id: Option<i64>,
        chunking_id: Option<i64>,
        seq: i64,
    ) -> Result<(AnchoringBasis, usize)> {
        let (citations, latest_anchor, latest_citation, stale): (i64, i64, i64, i64) = self
            .tx
            .query_row(
                BASIS_SQL,
                params![document.doc_id, seq, Method::Missing, Status::Lost],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .map_err(self.db())?;
        Ok((
            AnchoringBasis {
                revision: revision_id,
                chunking: chunking_id,
                citations,
                latest_anchor,
                latest_citation,
            },
            stale as usize,
        ))
    }

    /// What re-anchoring `document` against `revision` (chunked as `chunking_id`) needs: the
    /// basis first (a citation committed between the two reads is then re-anchored now or by
    /// the next sweep, never skipped), then the states of the stale citations only (those
    /// lost with method [`Method::Missing`], because their source was gone, count as stale). A document whose citations are all
    /// current costs one aggregate read and materialises no state.
    pub fn stale_citations(
        &self,
        document: &crate::model::Document,
        revision: &crate::model::Revision,
        chunking_id: i64,
    ) -> Result<StaleCitations> {
        let (basis, stale_count) =
            self.citation_basis(document, Some(revision.id), Some(chunking_id), revision.seq)?;
        let stale = if stale_count == 0 {
            Vec::new()
        } else {
            self.tx
                .query_map(
                    STALE_STATES_SQL,
                    params![document.doc_id, revision.seq, Method::Missing, Status::Lost],
                    state_from,
                )
                .map_err(self.db())?
        };
        Ok(StaleCitations {
            current: (basis.citations as usize).saturating_sub(stale.len()),
            basis,
            stale,
        })
    }

    /// Starts a sweep row for `planned` documents (its own transaction: an interrupted run
    /// stays visible).
    pub fn start_sweep(
        &self,
        now: &str,
        planned: usize,
        shard: Option<&SweepShard>,
    ) -> Result<i64> {
        self.tx
            .query_row(
                "INSERT INTO sweeps (started_at, planned, run, shard_index, shard_count) \
                 VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
                params![
                    now,
                    planned as i64,
                    shard.map(|s| s.run.as_str()),
                    shard.map(|s| s.index),
                    shard.map(|s| s.count)
                ],
                |row| row.get(0),
            )
            .map_err(self.db())
    }

    /// Counts `n` documents under the outcome counter `column` (one of the sweeps table's
    /// outcome columns, named by the caller's enum, never by input), with what they did to
    /// their citations.
    pub fn count_documents(
        &self,
        sweep_id: i64,
        column: &'static str,
        n: usize,
        citations: CitationCounts,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        debug_assert!(matches!(
            column,
            "re_extracted"
                | "rechunked"
                | "reanchored"
                | "unchanged"
                | "missing"
                | "retired"
                | "failed"
        ));
        let changed = matches!(column, "re_extracted" | "rechunked" | "reanchored");
        let sql = format!(
            "UPDATE sweeps SET {column} = {column} + ?2, documents = documents + ?2, \
             changed = changed + ?3, citations = citations + ?4, \
             citations_changed = citations_changed + ?5, \
             citations_carried = citations_carried + ?6 WHERE id = ?1"
        );
        self.tx
            .prepare_cached(&sql)
            .and_then(|mut s| {
                s.execute(params![
                    sweep_id,
                    n as i64,
                    if changed { n as i64 } else { 0 },
                    citations.reanchored as i64,
                    citations.changed as i64,
                    citations.carried as i64
                ])
            })
            .map_err(self.db())?;
        Ok(())
    }

    /// Counts `n` extractor runs.
    pub fn count_extractions(&self, sweep_id: i64, n: usize) -> Result<()> {
        if n > 0 {
            self.tx
                .prepare_cached("UPDATE sweeps SET extractions = extractions + ?2 WHERE id = ?1")
                .and_then(|mut s| s.execute(params![sweep_id, n as i64]))
                .map_err(self.db())?;
        }
        Ok(())
    }

    /// Records a sweep's end (`seconds` long) and the statuses over the citations of documents
    /// not retired, read here, after the sweep's last document committed; returns them. Each
    /// finishing sweep also takes its place in the order sweeps finished (the next number):
    /// finishing transactions run one at a time (SQLite's writer; on PostgreSQL an advisory
    /// lock held to the commit, taken before the statuses are read), so the shard of a run
    /// that finished last read the statuses after every other shard's writes.
    pub fn finish_sweep(
        &self,
        sweep_id: i64,
        seconds: f64,
        now: &str,
    ) -> Result<Vec<(Status, i64)>> {
        if self.tx.backend() == super::db::Backend::Postgres {
            self.tx
                .execute(
                    "SELECT pg_advisory_xact_lock(?1)",
                    params![super::FINISH_LOCK],
                )
                .map_err(self.db())?;
        }
        let (status, _retired) = status_counts_active(self.tx).map_err(self.db())?;
        let count = |s: Status| status.iter().find(|(k, _)| *k == s).map_or(0, |(_, n)| *n);
        self.tx
            .execute(
                "UPDATE sweeps SET finished_at = ?2, intact = ?3, moved = ?4, degraded = ?5, \
                 lost = ?6, seconds = ?7, finish_order = \
                 (SELECT COALESCE(MAX(finish_order), 0) + 1 FROM sweeps) WHERE id = ?1",
                params![
                    sweep_id,
                    now,
                    count(Status::Intact),
                    count(Status::Moved),
                    count(Status::Degraded),
                    count(Status::Lost),
                    seconds
                ],
            )
            .map_err(self.db())?;
        Ok(status)
    }

    /// True when the document was last brought up to date at `(revision_id, chunking_id)`
    /// and has no citation newer than that sweep covered (one made meanwhile, perhaps against
    /// an older revision, must still be re-anchored).
    pub fn swept_at(
        &self,
        document: &crate::model::Document,
        revision_id: i64,
        chunking_id: i64,
    ) -> Result<bool> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT revision_id, chunking_id, citations_through, \
                 (SELECT COALESCE(MAX(id), 0) FROM citations WHERE doc_id = ?2) \
                 FROM swept_documents WHERE document_id = ?1 ORDER BY id DESC LIMIT 1",
            )
            .map_err(self.db())?;
        let last: Option<(i64, i64, Option<i64>, i64)> =
            optional(stmt.query_row(params![document.id, document.doc_id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            }))
            .map_err(self.db())?;
        Ok(last.is_some_and(|(revision, chunking, through, newest)| {
            revision == revision_id
                && chunking == chunking_id
                && through.is_none_or(|through| through >= newest)
        }))
    }

    /// Notes that a document is up to date at `(revision_id, chunking_id)`, its re-anchoring
    /// having covered the citations of `basis`.
    pub fn record_swept(
        &self,
        sweep_id: i64,
        document_id: i64,
        revision_id: i64,
        chunking_id: i64,
        basis: &AnchoringBasis,
    ) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO swept_documents (sweep_id, document_id, revision_id, chunking_id, \
                 citations_through) VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    sweep_id,
                    document_id,
                    revision_id,
                    chunking_id,
                    basis.latest_citation
                ])
            })
            .map_err(self.db())?;
        Ok(())
    }

    /// Every citation of a document with its current state.
    pub fn citation_states(&self, doc_id: &str) -> Result<Vec<CitationState>> {
        let sql = format!("{STATE_SQL} WHERE c.doc_id = ?2 ORDER BY c.id");
        let mut stmt = self.tx.prepare_cached(&sql).map_err(self.db())?;
        let rows = stmt
            .query_map(params![Status::Lost, doc_id], state_from)
            .map_err(self.db())?;
        rows.collect::<DbResult<_>>().map_err(self.db())
    }

    /// Appends anchors of `doc_id`'s citations, and moves each citation's count from its
    /// previous status to its new one.
    pub fn record_anchors(
        &self,
        sweep_id: i64,
        doc_id: &str,
        anchors: &[NewAnchor],
        now: &str,
    ) -> Result<()> {
        use super::db::ToDb;
        let mut changes = super::counts::CountChanges::new();
        for a in anchors.iter().filter(|a| a.status != a.previous) {
            *changes.entry((doc_id.to_string(), a.previous)).or_insert(0) -= 1;
            *changes.entry((doc_id.to_string(), a.status)).or_insert(0) += 1;
        }
        super::counts::add(self.tx, &changes).map_err(self.db())?;
        let rows = anchors.iter().map(|a| {
            vec![
                a.citation_row.to_db(),
                sweep_id.to_db(),
                a.revision.to_db(),
                a.status.to_db(),
                a.start.to_db(),
                a.end.to_db(),
                a.from_revision.to_db(),
                a.chunk_id.to_db(),
                a.score.to_db(),
                a.method.to_db(),
                a.reason.to_db(),
                now.to_db(),
                a.prefix.to_db(),
                a.suffix.to_db(),
            ]
        });
        self.tx
            .insert_rows(
                "anchors",
                &[
                    "citation_id",
                    "sweep_id",
                    "revision",
                    "status",
                    "start_char",
                    "end_char",
                    "from_revision",
                    "chunk_id",
                    "score",
                    "method",
                    "reason",
                    "created_at",
                    "prefix",
                    "suffix",
                ],
                rows,
            )
            .map_err(self.db())?;
        Ok(())
    }
}

impl Store {
    /// Current status counts over every citation: `(status, count)` (see `status_counts`).
    pub fn status_counts(&self) -> Result<Vec<(Status, i64)>> {
        status_counts(&self.conn).map_err(self.db_err())
    }

    /// Every citation's current state, optionally of one document, by citation row, collected
    /// (read commands that print every citation stream through [`Store::read`] instead).
    pub fn all_states(&self, doc_id: Option<&str>) -> Result<Vec<CitationState>> {
        let mut states = Vec::new();
        states_each(&self.conn, &self.path, doc_id, |s| {
            states.push(s);
            Ok::<(), crate::error::Error>(())
        })?;
        Ok(states)
    }

    /// Current status counts over the citations of documents not retired, and the number of
    /// citations of retired documents (shown apart, never failing `--fail-on`).
    pub fn status_counts_active(&self) -> Result<(Vec<(Status, i64)>, i64)> {
        status_counts_active(&self.conn).map_err(self.db_err())
    }

    /// Citations by document and status (`(doc_id, status, n)`, `n > 0`), kept by the writes
    /// (migration 0013).
    pub fn counts_by_document(&self) -> Result<Vec<(String, Status, i64)>> {
        super::counts::by_document(&self.conn).map_err(self.db_err())
    }

    /// The latest sweeps, newest first.
    pub fn recent_sweeps(&self, limit: usize) -> Result<Vec<SweepRow>> {
        let db = |e| super::classify(&self.path, e);
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT {SWEEP_COLUMNS} FROM sweeps ORDER BY id DESC LIMIT ?1"
            ))
            .map_err(db)?;
        let rows = stmt.query_map([limit as i64], sweep_from).map_err(db)?;
        rows.collect::<DbResult<_>>().map_err(db)
    }
}

/// Everything `show` and `export` print about one citation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CitationRecord {
    /// Row id.
    pub row: i64,
    /// Public id.
    pub citation_id: String,
    /// The claim it supports.
    pub claim: String,
    /// Row id of the claim.
    pub claim_row: i64,
    /// Document.
    pub doc_id: String,
    /// Revision cited.
    pub revision: u32,
    /// Chunk cited from.
    pub chunk_id: String,
    /// contentHash of that chunk.
    pub content_hash: String,
    /// The normaliser version of `content_hash` (`v1`, `v2`).
    pub normaliser: String,
    /// Original start.
    pub start: usize,
    /// Original end.
    pub end: usize,
    /// The quote as the model gave it.
    pub quote: String,
    /// The revision's text at the original span.
    pub span_text: String,
    /// Context before.
    pub prefix: String,
    /// Context after.
    pub suffix: String,
    /// Citing verdict.
    pub verdict: Verdict,
}

/// An imported citation's API location as stored (migration 0007).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredApiLocation {
    /// The API's citation type.
    pub kind: String,
    /// The API's citation object, JSON.
    pub location: String,
    /// `agrees` or `differs`.
    pub agreement: String,
    /// What differed.
    pub note: Option<String>,
}

/// The sentence proposed for evidence a provider quoted nothing for, as stored (migration
/// 0012).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredProposal {
    /// Start, chars into the cited revision.
    pub start: usize,
    /// End (exclusive).
    pub end: usize,
    /// The revision's text there.
    pub text: String,
    /// The share of the claim's words it holds, 0–100.
    pub score: f64,
}

/// One anchors row, for history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnchorRow {
    /// The sweep that wrote it.
    pub sweep: i64,
    /// Revision anchored against.
    pub revision: u32,
    /// Status.
    pub status: Status,
    /// Span start (lost: last known, in `from_revision`).
    pub start: usize,
    /// Span end.
    pub end: usize,
    /// Revision the span indexes.
    pub from_revision: u32,
    /// Chunk holding it.
    pub chunk_id: Option<String>,
    /// Score.
    pub score: f64,
    /// Method.
    pub method: Method,
    /// Why.
    pub reason: Option<String>,
    /// When.
    pub created_at: String,
}

/// One verification of a claim.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerificationRow {
    /// Judge spec.
    pub judge: String,
    /// Relation, when judged.
    pub relation: Option<String>,
    /// Confidence, when judged.
    pub confidence: Option<f64>,
    /// Verdict.
    pub verdict: ClaimVerdict,
    /// Why.
    pub reason: Option<String>,
    /// When.
    pub created_at: String,
}

pub(super) const RECORD_SQL: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM citations c JOIN claims cl ON cl.id = c.claim_id"
);

pub(super) fn record_from(r: &Row) -> DbResult<CitationRecord> {
    Ok(CitationRecord {
        row: r.get(0)?,
        citation_id: r.get(1)?,
        claim: r.get(2)?,
        claim_row: r.get(3)?,
        doc_id: r.get(4)?,
        revision: r.get::<i64>(5)? as u32,
        chunk_id: r.get(6)?,
        content_hash: r.get(7)?,
        start: r.get::<i64>(8)? as usize,
        end: r.get::<i64>(9)? as usize,
        quote: r.get(10)?,
        span_text: r.get(11)?,
        prefix: r.get(12)?,
        suffix: r.get(13)?,
        verdict: r.get(14)?,
        normaliser: r.get(15)?,
    })
}

impl Store {
    pub(super) fn db_err(&self) -> impl Fn(super::db::DbError) -> crate::error::Error + '_ {
        move |e| super::classify(&self.path, e)
    }

    /// One citation by public id.
    pub fn citation(&self, citation_id: &str) -> Result<CitationRecord> {
        let mut stmt = self
            .conn
            .prepare(&format!("{RECORD_SQL} WHERE c.citation_id = ?1"))
            .map_err(self.db_err())?;
        optional(stmt.query_row([citation_id], record_from))
            .map_err(self.db_err())?
            .ok_or_else(|| crate::error::Error::UnknownCitation {
                citation_id: citation_id.to_string(),
            })
    }

    /// Every citation, by row.
    pub fn citations(&self) -> Result<Vec<CitationRecord>> {
        let mut stmt = self
            .conn
            .prepare(&format!("{RECORD_SQL} ORDER BY c.id"))
            .map_err(self.db_err())?;
        let rows = stmt.query_map([], record_from).map_err(self.db_err())?;
        rows.collect::<DbResult<_>>().map_err(self.db_err())
    }

    /// A citation's anchors, oldest first.
    pub fn anchor_history(&self, citation_row: i64) -> Result<Vec<AnchorRow>> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT sweep_id, revision, status, start_char, end_char, from_revision, chunk_id, \
                 score, method, reason, created_at FROM anchors WHERE citation_id = ?1 ORDER BY id",
            )
            .map_err(self.db_err())?;
        let rows = stmt
            .query_map([citation_row], |r| {
                Ok(AnchorRow {
                    sweep: r.get(0)?,
                    revision: r.get::<i64>(1)? as u32,
                    status: r.get(2)?,
                    start: r.get::<i64>(3)? as usize,
                    end: r.get::<i64>(4)? as usize,
                    from_revision: r.get::<i64>(5)? as u32,
                    chunk_id: r.get(6)?,
                    score: r.get(7)?,
                    method: r.get(8)?,
                    reason: r.get(9)?,
                    created_at: r.get(10)?,
                })
            })
            .map_err(self.db_err())?;
        rows.collect::<DbResult<_>>().map_err(self.db_err())
    }

    /// The API's own location of an imported citation (`import-anthropic`) and whether our
    /// text agreed with it.
    pub fn api_location(&self, citation_row: i64) -> Result<Option<StoredApiLocation>> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT l.kind, l.location, l.agreement, l.note FROM evidence e \
                 JOIN evidence_locations l ON l.evidence_id = e.id WHERE e.citation_id = ?1",
            )
            .map_err(self.db_err())?;
        optional(stmt.query_row([citation_row], |r| {
            Ok(StoredApiLocation {
                kind: r.get(0)?,
                location: r.get(1)?,
                agreement: r.get(2)?,
                note: r.get(3)?,
            })
        }))
        .map_err(self.db_err())
    }

    /// For a citation whose evidence the provider quoted nothing for: the sentence proposed
    /// (`Some(None)` when none was); `None` for a citation of a quote.
    pub fn unquoted_evidence(&self, citation_row: i64) -> Result<Option<Option<StoredProposal>>> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT e.quote, e.proposal_start, e.proposal_end, e.proposal_text, \
                 e.proposal_score FROM evidence e WHERE e.citation_id = ?1",
            )
            .map_err(self.db_err())?;
        let row = optional(stmt.query_row([citation_row], |r| {
            let quote: String = r.get(0)?;
            let start: Option<i64> = r.get(1)?;
            let end: Option<i64> = r.get(2)?;
            let text: Option<String> = r.get(3)?;
            let score: Option<f64> = r.get(4)?;
            let proposal = match (start, end, text, score) {
                (Some(start), Some(end), Some(text), Some(score)) => Some(StoredProposal {
                    start: start as usize,
                    end: end as usize,
                    text,
                    score,
                }),
                _ => None,
            };
            Ok((quote.is_empty(), proposal))
        }))
        .map_err(self.db_err())?;
        Ok(row.and_then(|(unquoted, proposal)| unquoted.then_some(proposal)))
    }

    /// A claim's verifications, oldest first.
    pub fn claim_verifications(&self, claim_row: i64) -> Result<Vec<VerificationRow>> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT judge, relation, confidence, verdict, reason, created_at FROM verifications \
                 WHERE claim_id = ?1 ORDER BY id",
            )
            .map_err(self.db_err())?;
        let rows = stmt
            .query_map([claim_row], |r| {
                Ok(VerificationRow {
                    judge: r.get(0)?,
                    relation: r.get(1)?,
                    confidence: r.get(2)?,
                    verdict: r.get(3)?,
                    reason: r.get(4)?,
                    created_at: r.get(5)?,
                })
            })
            .map_err(self.db_err())?;
        rows.collect::<DbResult<_>>().map_err(self.db_err())
    }

    /// Latest verification verdict per claim, counted: `(verdict, claims)`.
    pub fn verification_counts(&self) -> Result<Vec<(String, i64)>> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT v.verdict, count(*) FROM verifications v \
                 WHERE v.id = (SELECT MAX(id) FROM verifications WHERE claim_id = v.claim_id) \
                 GROUP BY v.verdict ORDER BY v.verdict",
            )
            .map_err(self.db_err())?;
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(self.db_err())?;
        rows.collect::<DbResult<_>>().map_err(self.db_err())
    }

    /// The text of revision `seq` of `doc_id`, and the document's latest revision seq.
    pub fn text_of(&self, doc_id: &str, seq: u32) -> Result<String> {
        super::text_by_seq(&self.conn, doc_id, seq).map_err(self.db_err())
    }
}

impl super::Reads<'_> {
    /// Calls `each` with every citation's current state (optionally of one document only), by
    /// citation row, as the rows are read (memory flat in the number of citations); from
    /// [`Store::snapshot`] or a [`super::Snapshot`] it sees that snapshot.
    pub fn for_each_state<E: From<crate::error::Error>>(
        &self,
        doc_id: Option<&str>,
        each: impl FnMut(CitationState) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        states_each(self.conn, self.path, doc_id, each)
    }

    /// The chunk of the current chunking of revision `seq` that contains `[start, end)`, else the
    /// one overlapping it most.
    pub fn chunk_holding(
        &self,
        doc_id: &str,
        seq: u32,
        start: usize,
        end: usize,
    ) -> Result<Option<super::Holding>> {
        super::chunkings::chunk_holding(self.conn, doc_id, seq, start, end).map_err(self.db())
    }
}

/// Current status counts over every citation: `(status, count)`, in the canonical order,
/// statuses with no citation left out. Read from the latest anchor of each anchored citation
/// (one pass over the anchors index) plus the citations never anchored (intact as cited), not
/// row by row through `citation_status`: a sweep that changed nothing must not cost a look-up
/// per citation.
fn status_counts(conn: &super::db::Conn) -> DbResult<Vec<(Status, i64)>> {
    let mut counts = std::collections::BTreeMap::new();
    for (_, status, n) in super::counts::by_document(conn)? {
        *counts.entry(status).or_insert(0) += n;
    }
    Ok(counts.into_iter().collect())
}

/// [`status_counts`] over the citations of documents not retired, and the number of citations
/// of retired documents.
fn status_counts_active(conn: &super::db::Conn) -> DbResult<(Vec<(Status, i64)>, i64)> {
    let retired: std::collections::HashSet<String> = conn
        .query_map(
            "SELECT d.doc_id FROM documents d JOIN document_states ds ON ds.document_id = d.id \
             WHERE ds.state = 'retired' \
             AND ds.id = (SELECT MAX(id) FROM document_states WHERE document_id = d.id)",
            [],
            |r| r.get(0),
        )?
        .into_iter()
        .collect();
    let mut active = std::collections::BTreeMap::new();
    let mut in_retired = 0;
    for (doc_id, status, n) in super::counts::by_document(conn)? {
        if retired.contains(&doc_id) {
            in_retired += n;
        } else {
            *active.entry(status).or_insert(0) += n;
        }
    }
    Ok((active.into_iter().collect(), in_retired))
}
