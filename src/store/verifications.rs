//! Reading claims for verification and appending verification rows (migration 0003).

use super::db::{params, Row};
use super::Reads;
use crate::error::{Error, Result};
use crate::model::verification::{ClaimSpan, ClaimToVerify, VerificationRecord};
use crate::model::Status;

/// A claim row as verification reads it (row, text, uncited), with its answer and context.
const CLAIMS: &str = "SELECT cl.id, cl.text, cl.uncited FROM claims cl \
                      JOIN answers a ON a.id = cl.answer_id JOIN contexts x ON x.id = a.context_id";

impl Reads<'_> {
    /// Up to `limit` claims after row `after` (from the first without one), in the order they
    /// were cited (by row), with located spans and the verdicts of evidence that was not
    /// located: every claim in the store (`context` `None`), else the claims of answers cited
    /// against that context (an unknown context is an error). Spans are where the latest sweep
    /// anchored them (the current revision), else as cited; a citation a sweep lost counts as
    /// not located (`lost`). A page at a time, so memory does not grow with the store.
    pub fn claims_to_verify(
        &self,
        context: Option<&str>,
        after: Option<i64>,
        limit: usize,
    ) -> Result<Vec<ClaimToVerify>> {
        let map = |row: &Row| Ok((row.get(0)?, row.get(1)?, row.get(2)?));
        let from = after.unwrap_or(i64::MIN);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows: Vec<(i64, String, bool)> = match context {
            None => self.conn.query_map(
                &format!("{CLAIMS} WHERE cl.id > ?1 ORDER BY cl.id LIMIT ?2"),
                params![from, limit],
                map,
            ),
            Some(id) => self.conn.query_map(
                &format!("{CLAIMS} WHERE x.context_id = ?1 AND cl.id > ?2 ORDER BY cl.id LIMIT ?3"),
                params![id, from, limit],
                map,
            ),
        }
        .map_err(self.db())?;
        if let Some(id) = context {
            if after.is_none() && rows.is_empty() && !self.context_exists(id)? {
                return Err(Error::UnknownContext {
                    context_id: id.to_string(),
                });
            }
        }
        rows.into_iter()
            .map(|(claim_row, text, uncited)| self.claim_to_verify(claim_row, text, uncited))
            .collect()
    }

    /// The rows of the claims owning these citations, each once, by row (an unknown citation
    /// is an error): the claims [`Reads::claims_by_row`] reads for `verify --citation`.
    pub fn claim_rows_of_citations(&self, citation_ids: &[String]) -> Result<Vec<i64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT c.claim_id FROM citations c WHERE c.citation_id = ?1")
            .map_err(self.db())?;
        let mut rows = Vec::with_capacity(citation_ids.len());
        for id in citation_ids {
            let row: i64 =
                stmt.query_row([id], |r| r.get(0))
                    .map_err(|_| Error::UnknownCitation {
                        citation_id: id.clone(),
                    })?;
            rows.push(row);
        }
        rows.sort_unstable();
        rows.dedup();
        Ok(rows)
    }

    /// The claims at these rows, in the given order, as [`Reads::claims_to_verify`] reads them.
    pub fn claims_by_row(&self, claim_rows: &[i64]) -> Result<Vec<ClaimToVerify>> {
        let mut stmt = self
            .conn
            .prepare(&format!("{CLAIMS} WHERE cl.id = ?1"))
            .map_err(self.db())?;
        claim_rows
            .iter()
            .map(|&claim_row| {
                let (text, uncited) = stmt
                    .query_row([claim_row], |r| Ok((r.get(1)?, r.get(2)?)))
                    .map_err(self.db())?;
                self.claim_to_verify(claim_row, text, uncited)
            })
            .collect()
    }

    fn claim_to_verify(
        &self,
        claim_row: i64,
        text: String,
        uncited: bool,
    ) -> Result<ClaimToVerify> {
        let (spans, unlocated) = self.claim_evidence(claim_row)?;
        Ok(ClaimToVerify {
            claim_row,
            text,
            uncited,
            spans,
            unlocated,
        })
    }

    fn context_exists(&self, context_id: &str) -> Result<bool> {
        let n: i64 = self
            .conn
            .query_row(
                "SELECT count(*) FROM contexts WHERE context_id = ?1",
                [context_id],
                |r| r.get(0),
            )
            .map_err(self.db())?;
        Ok(n > 0)
    }

    #[allow(clippy::type_complexity)]
    fn claim_evidence(&self, claim_row: i64) -> Result<(Vec<ClaimSpan>, Vec<(String, String)>)> {
        let rows = self
            .conn
            .query_map(
                // The `citation_status` view's columns for this claim's citations, looked up
                // by citation: joined as a view, SQLite materialises it over every citation
                // in the store, once per claim.
                "SELECT e.verdict, e.quote, c.citation_id, c.doc_id, \
                        COALESCE(a.revision, c.revision), COALESCE(a.start_char, c.start_char), \
                        COALESCE(a.end_char, c.end_char), c.verdict, \
                        CASE WHEN c.id IS NULL THEN NULL ELSE COALESCE(a.status, 'intact') END \
                 FROM evidence e LEFT JOIN citations c ON c.id = e.citation_id \
                 LEFT JOIN anchors a \
                   ON a.id = (SELECT MAX(id) FROM anchors WHERE citation_id = c.id) \
                 WHERE e.claim_id = ?1 ORDER BY e.ord",
                [claim_row],
                |row| Ok(row.clone()),
            )
            .map_err(self.db())?;
        let (mut spans, mut unlocated) = (Vec::new(), Vec::new());
        for row in &rows {
            let verdict: String = row.get(0).map_err(self.db())?;
            let citation: Option<String> = row.get(2).map_err(self.db())?;
            let status: Option<Status> = row.get(8).map_err(self.db())?;
            match citation {
                // A sweep lost it: the text it pointed at is gone, so it cannot be a premise.
                Some(_) if status == Some(Status::Lost) => unlocated.push((
                    Status::Lost.as_str().to_string(),
                    row.get(1).map_err(self.db())?,
                )),
                Some(citation_id) => spans.push(ClaimSpan {
                    citation_id,
                    doc_id: row.get(3).map_err(self.db())?,
                    revision: row.get::<i64>(4).map_err(self.db())? as u32,
                    start: row.get::<i64>(5).map_err(self.db())? as usize,
                    end: row.get::<i64>(6).map_err(self.db())? as usize,
                    verdict: row.get(7).map_err(self.db())?,
                }),
                None => unlocated.push((verdict, row.get(1).map_err(self.db())?)),
            }
        }
        Ok((spans, unlocated))
    }

    /// The text of revision `seq` of `doc_id` and when it was stored.
    pub fn revision_text_dated(&self, doc_id: &str, seq: u32) -> Result<(String, String)> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT r.text, r.created_at FROM revisions r \
                 JOIN documents d ON d.id = r.document_id WHERE d.doc_id = ?1 AND r.seq = ?2",
            )
            .map_err(self.db())?;
        stmt.query_row(params![doc_id, seq as i64], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(self.db())
    }

    /// The raw text of revision `seq` of `doc_id`.
    pub fn revision_text_of(&self, doc_id: &str, seq: u32) -> Result<String> {
        super::text_by_seq(self.conn, doc_id, seq).map_err(self.db())
    }
}

impl super::Writer<'_> {
    /// Appends verification rows.
    pub fn record_verifications(&self, records: &[VerificationRecord], now: &str) -> Result<()> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "INSERT INTO verifications (claim_id, judge, relation, confidence, verdict, reason, \
                 premise, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .map_err(self.db())?;
        for r in records {
            stmt.execute(params![
                r.claim_row,
                r.judge,
                r.judgement.map(|j| j.relation.as_str()),
                r.judgement.map(|j| j.confidence),
                r.verdict.as_str(),
                r.reason,
                r.premise,
                now
            ])
            .map_err(self.db())?;
        }
        Ok(())
    }
}
