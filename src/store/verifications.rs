//! Reading claims for verification and appending verification rows (migration 0003).

use super::db::{params, DbResult, Row};
use super::Reads;
use crate::error::{Error, Result};
use crate::model::verification::{ClaimSpan, ClaimToVerify, Scope, VerificationRecord};
use crate::model::Status;

impl Reads<'_> {
    /// The claims in `scope`, in the order they were cited, with located spans and the verdicts
    /// of evidence that was not located. Spans are where the latest sweep anchored them (the
    /// current revision), else as cited; a citation a sweep lost counts as not located (`lost`).
    pub fn claims_to_verify(&self, scope: &Scope) -> Result<Vec<ClaimToVerify>> {
        let rows = self.claim_rows(scope)?;
        if let Scope::Context(id) = scope {
            if rows.is_empty() && !self.context_exists(id)? {
                return Err(Error::UnknownContext {
                    context_id: id.clone(),
                });
            }
        }
        rows.into_iter()
            .map(|(claim_row, text, uncited)| {
                let (spans, unlocated) = self.claim_evidence(claim_row)?;
                Ok(ClaimToVerify {
                    claim_row,
                    text,
                    uncited,
                    spans,
                    unlocated,
                })
            })
            .collect()
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

    fn claim_rows(&self, scope: &Scope) -> Result<Vec<(i64, String, bool)>> {
        let map = |row: &Row| Ok((row.get(0)?, row.get(1)?, row.get(2)?));
        let base = "SELECT cl.id, cl.text, cl.uncited FROM claims cl \
                    JOIN answers a ON a.id = cl.answer_id JOIN contexts x ON x.id = a.context_id";
        match scope {
            Scope::All => {
                let mut stmt = self
                    .conn
                    .prepare(&format!("{base} ORDER BY cl.id"))
                    .map_err(self.db())?;
                let rows = stmt.query_map([], map).map_err(self.db())?;
                rows.collect::<DbResult<_>>().map_err(self.db())
            }
            Scope::Context(id) => {
                let mut stmt = self
                    .conn
                    .prepare(&format!("{base} WHERE x.context_id = ?1 ORDER BY cl.id"))
                    .map_err(self.db())?;
                let rows = stmt.query_map([id], map).map_err(self.db())?;
                rows.collect::<DbResult<_>>().map_err(self.db())
            }
            Scope::Citations(ids) => {
                let mut out: Vec<(i64, String, bool)> = Vec::new();
                let mut stmt = self
                    .conn
                    .prepare(&format!(
                        "{base} JOIN citations c ON c.claim_id = cl.id WHERE c.citation_id = ?1"
                    ))
                    .map_err(self.db())?;
                for id in ids {
                    let row = stmt
                        .query_row([id], map)
                        .map_err(|_| Error::UnknownCitation {
                            citation_id: id.clone(),
                        })?;
                    if !out.iter().any(|r| r.0 == row.0) {
                        out.push(row);
                    }
                }
                out.sort_by_key(|r| r.0);
                Ok(out)
            }
        }
    }

    #[allow(clippy::type_complexity)]
    fn claim_evidence(&self, claim_row: i64) -> Result<(Vec<ClaimSpan>, Vec<(String, String)>)> {
        let rows = self
            .conn
            .query_map(
                "SELECT e.verdict, e.quote, c.citation_id, c.doc_id, s.revision, s.start_char, \
                        s.end_char, c.verdict, s.status \
                 FROM evidence e LEFT JOIN citations c ON c.id = e.citation_id \
                 LEFT JOIN citation_status s ON s.citation_id = c.citation_id \
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
