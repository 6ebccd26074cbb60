//! Contexts, answers, claims, evidence and citations (migration 0002).
//!
//! Invariants: a context's chunks are specific chunk rows (of a specific revision), so an answer
//! is always cited against the revision the model was shown, even after newer revisions exist;
//! an answer is stored once per (context, answer hash), and a stored answer's hash is never
//! rewritten (its citation ids are made of it: an answer stored under an older way of hashing
//! is found by [`Writer::recorded_answer_key`]); citation rows are written once and never
//! updated.

use super::db::{args, DbResult, Row};
use super::{optional, Writer};
use crate::error::{Error, Result};
use crate::model::citation::{Answer, ClaimResult, Context, ContextChunk};
use crate::text::How;
use serde_json::Value;

/// A stored chunk and where it lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredChunk {
    /// Row id in `chunks`.
    pub row: i64,
    /// `{doc_id}@r{seq}#{start}-{end}`.
    pub chunk_id: String,
    /// The document.
    pub doc_id: String,
    /// The revision's `seq`.
    pub revision: u32,
    /// First char in the revision.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// contentHash of its text.
    pub content_hash: String,
    /// The normaliser version of `content_hash`.
    pub normaliser: String,
}

const CHUNK_SELECT: &str =
    "SELECT c.id, c.chunk_id, d.doc_id, r.seq, c.start_char, c.end_char, c.content_hash, \
     c.normaliser FROM chunks c JOIN chunkings k ON k.id = c.chunking_id \
     JOIN revisions r ON r.id = k.revision_id JOIN documents d ON d.id = r.document_id";

fn stored_chunk(row: &Row) -> DbResult<StoredChunk> {
    Ok(StoredChunk {
        row: row.get(0)?,
        chunk_id: row.get(1)?,
        doc_id: row.get(2)?,
        revision: row.get::<i64>(3)? as u32,
        start: row.get::<i64>(4)? as usize,
        end: row.get::<i64>(5)? as usize,
        content_hash: row.get(6)?,
        normaliser: row.get(7)?,
    })
}

/// An answer as stored in `answers.body`: its parsed form as JSON, one text per answer.
fn answer_body(answer: &Answer) -> String {
    serde_json::to_string(answer).expect("plain data serialises")
}

/// A citation object as stored (JSON text the store wrote itself); text that is not JSON stays
/// a string, which no recomputed key will match.
fn json(text: String) -> Value {
    serde_json::from_str(&text).unwrap_or(Value::String(text))
}

/// The citation id of each evidence string, `ids[claim][evidence]`; `None` when not located.
pub type CitationIds = Vec<Vec<Option<String>>>;

impl Writer<'_> {
    /// The chunk with this id (the same id always names the same text; any row will do), else
    /// the newest chunk the caller gave this id (a caller id held by chunks of several
    /// documents is ambiguous, an error).
    pub fn chunk_by_id(&self, chunk_id: &str) -> Result<StoredChunk> {
        let sql = format!("{CHUNK_SELECT} WHERE c.chunk_id = ?1 ORDER BY c.id DESC LIMIT 1");
        let mut stmt = self.tx.prepare_cached(&sql).map_err(self.db())?;
        if let Some(chunk) =
            optional(stmt.query_row([chunk_id], stored_chunk)).map_err(self.db())?
        {
            return Ok(chunk);
        }
        let sql = format!("{CHUNK_SELECT} WHERE c.caller_id = ?1 ORDER BY c.id DESC");
        let mut stmt = self.tx.prepare_cached(&sql).map_err(self.db())?;
        let found: Vec<StoredChunk> = stmt
            .query_map([chunk_id], stored_chunk)
            .map_err(self.db())?
            .collect::<DbResult<_>>()
            .map_err(self.db())?;
        let Some(newest) = found.first() else {
            return Err(Error::UnknownChunk {
                chunk_id: chunk_id.to_string(),
            });
        };
        let mut docs: Vec<&str> = found.iter().map(|c| c.doc_id.as_str()).collect();
        docs.sort_unstable();
        docs.dedup();
        if docs.len() > 1 {
            return Err(Error::AmbiguousChunk {
                chunk_id: chunk_id.to_string(),
                doc_ids: docs.join(", "),
                example: newest.chunk_id.clone(),
            });
        }
        Ok(newest.clone())
    }

    /// The chunks of a document's current chunking (latest chunking of its latest revision).
    pub fn current_chunks(&self, doc_id: &str) -> Result<Vec<StoredChunk>> {
        let document = self
            .document(doc_id)?
            .ok_or_else(|| Error::UnknownDocument {
                doc_id: doc_id.to_string(),
            })?;
        let revision = self
            .latest_revision(&document)?
            .ok_or_else(|| Error::UnknownDocument {
                doc_id: doc_id.to_string(),
            })?;
        let chunking = self
            .current_chunking(&revision)?
            .ok_or_else(|| Error::Unchunked {
                doc_id: doc_id.to_string(),
            })?;
        let sql = format!("{CHUNK_SELECT} WHERE c.chunking_id = ?1 ORDER BY c.ord");
        self.tx
            .query_map(&sql, args![chunking.id], stored_chunk)
            .map_err(self.db())
    }

    /// Records a context (nothing when it exists already: context ids are content-addressed).
    pub fn record_context(
        &self,
        context_id: &str,
        chunks: &[StoredChunk],
        labels: &[String],
        now: &str,
    ) -> Result<()> {
        // The unique context id decides: a writer that finds it taken (even by a concurrent,
        // uncommitted insert, which it waits for) records nothing more.
        let inserted: Option<i64> = optional(self.tx.query_row(
            "INSERT INTO contexts (context_id, created_at) VALUES (?1, ?2) \
             ON CONFLICT DO NOTHING RETURNING id",
            args![context_id, now],
            |row| row.get(0),
        ))
        .map_err(self.db())?;
        let Some(row) = inserted else {
            return Ok(());
        };
        for (ord, (chunk, label)) in chunks.iter().zip(labels).enumerate() {
            self.tx
                .execute(
                    "INSERT INTO context_chunks (context_id, ord, label, chunk_row) \
                     VALUES (?1, ?2, ?3, ?4)",
                    args![row, ord, label, chunk.row],
                )
                .map_err(self.db())?;
        }
        Ok(())
    }

    /// A recorded context with its chunks' texts and the full text of each revision involved.
    pub fn load_context(&self, context_id: &str) -> Result<Context> {
        let rows = self
            .tx
            .query_map(
                "SELECT cc.label, c.chunk_id, d.doc_id, r.seq, c.start_char, c.end_char, \
                        c.content_hash, c.normaliser, c.caller_id \
                 FROM contexts x JOIN context_chunks cc ON cc.context_id = x.id \
                 JOIN chunks c ON c.id = cc.chunk_row JOIN chunkings k ON k.id = c.chunking_id \
                 JOIN revisions r ON r.id = k.revision_id JOIN documents d ON d.id = r.document_id \
                 WHERE x.context_id = ?1 ORDER BY cc.ord",
                args![context_id],
                |row| Ok(row.clone()),
            )
            .map_err(self.db())?;
        let mut context = Context {
            id: context_id.to_string(),
            ..Context::default()
        };
        for row in &rows {
            let (doc_id, seq): (String, i64) = (
                row.get(2).map_err(self.db())?,
                row.get(3).map_err(self.db())?,
            );
            let (start, end): (i64, i64) = (
                row.get(4).map_err(self.db())?,
                row.get(5).map_err(self.db())?,
            );
            let key = (doc_id.clone(), seq as u32);
            // Each revision's text is read once, by its own query: selected beside every chunk
            // row, SQLite's sort for ORDER BY would copy the whole text once per chunk.
            if let std::collections::hash_map::Entry::Vacant(slot) = context.revisions.entry(key) {
                let text = super::text_by_seq(self.tx, &doc_id, seq as u32).map_err(self.db())?;
                slot.insert(text);
            }
            context.chunks.push(ContextChunk {
                label: row.get(0).map_err(self.db())?,
                chunk_id: row.get(1).map_err(self.db())?,
                doc_id,
                revision: seq as u32,
                content_hash: row.get(6).map_err(self.db())?,
                normaliser: row.get(7).map_err(self.db())?,
                start: start as usize,
                end: end as usize,
                text: String::new(),
                caller_id: row.get(8).map_err(self.db())?,
            });
        }
        fill_chunk_texts(&mut context);
        if context.chunks.is_empty() {
            return Err(Error::UnknownContext {
                context_id: context_id.to_string(),
            });
        }
        Ok(context)
    }

    /// True when this answer (by hash) was already cited against this context.
    pub fn answer_recorded(&self, context_id: &str, answer_sha256: &str) -> Result<bool> {
        let found = optional(self.tx.query_row(
            "SELECT 1 FROM answers a JOIN contexts x ON x.id = a.context_id \
             WHERE x.context_id = ?1 AND a.answer_sha256 = ?2",
            args![context_id, answer_sha256],
            |_| Ok(()),
        ))
        .map_err(self.db())?;
        Ok(found.is_some())
    }

    /// The key this answer is already recorded under against `context_id`, if it is: `key`
    /// itself, or the key of an answer with the same parsed body whose API citation objects,
    /// as stored beside it, give `key` again by `rekey` (`rekey(locations, external)`, each
    /// `(claim, evidence, object)` and `(claim, object)`, in order).
    ///
    /// Why both: the key is a hash the caller computes, and how it computes it may change (an
    /// import's key was once made of the citation objects as received, nulls and all). Rows
    /// stored under an older key keep it, since their citation ids were made of it; they are
    /// found by what was stored beside them, recomputed, so nothing need be rewritten.
    pub fn recorded_answer_key(
        &self,
        context_id: &str,
        answer: &Answer,
        key: &str,
        rekey: impl Fn(&[(usize, usize, Value)], &[(usize, Value)]) -> String,
    ) -> Result<Option<String>> {
        let candidates: Vec<(i64, String)> = self
            .tx
            .query_map(
                "SELECT a.id, a.answer_sha256 FROM answers a \
                 JOIN contexts x ON x.id = a.context_id \
                 WHERE x.context_id = ?1 AND (a.answer_sha256 = ?2 OR a.body = ?3) ORDER BY a.id",
                args![context_id, key, answer_body(answer)],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map_err(self.db())?;
        if candidates.iter().any(|(_, stored)| stored == key) {
            return Ok(Some(key.to_string()));
        }
        for (answer_row, stored) in candidates {
            let (locations, external) = self.api_citations(answer_row)?;
            if rekey(&locations, &external) == key {
                return Ok(Some(stored));
            }
        }
        Ok(None)
    }

    /// The API citation objects stored beside answer row `answer_row`: `(claim, evidence,
    /// object)` of each evidence string's location, `(claim, object)` of each external
    /// citation, in order.
    #[allow(clippy::type_complexity)]
    fn api_citations(
        &self,
        answer_row: i64,
    ) -> Result<(Vec<(usize, usize, Value)>, Vec<(usize, Value)>)> {
        let locations = self
            .tx
            .query_map(
                "SELECT cl.ord, e.ord, l.location FROM claims cl \
                 JOIN evidence e ON e.claim_id = cl.id \
                 JOIN evidence_locations l ON l.evidence_id = e.id \
                 WHERE cl.answer_id = ?1 ORDER BY cl.ord, e.ord",
                args![answer_row],
                |row| {
                    let (claim, evidence): (i64, i64) = (row.get(0)?, row.get(1)?);
                    Ok((claim as usize, evidence as usize, json(row.get(2)?)))
                },
            )
            .map_err(self.db())?;
        let external = self
            .tx
            .query_map(
                "SELECT cl.ord, x.location FROM claims cl \
                 JOIN external_citations x ON x.claim_id = cl.id \
                 WHERE cl.answer_id = ?1 ORDER BY cl.ord, x.ord",
                args![answer_row],
                |row| Ok((row.get::<i64>(0)? as usize, json(row.get(1)?))),
            )
            .map_err(self.db())?;
        Ok((locations, external))
    }

    /// Stores an answer, its claims, every evidence result, and a citation row for each
    /// located one, under the ids given. False (and nothing written) when this answer was
    /// already recorded against this context: the unique (context, answer hash) decides, so
    /// concurrent writers of the same answer store it once.
    #[allow(clippy::too_many_arguments)]
    pub fn record_answer(
        &self,
        context_id: &str,
        answer: &Answer,
        answer_sha256: &str,
        source: &str,
        results: &[ClaimResult],
        ids: &CitationIds,
        now: &str,
    ) -> Result<bool> {
        let body = answer_body(answer);
        let answer_row: Option<i64> = optional(self.tx.query_row(
            "INSERT INTO answers (context_id, answer_sha256, body, source, created_at) \
             SELECT id, ?2, ?3, ?4, ?5 FROM contexts WHERE context_id = ?1 \
             ON CONFLICT DO NOTHING RETURNING id",
            args![context_id, answer_sha256, body, source, now],
            |row| row.get(0),
        ))
        .map_err(self.db())?;
        let Some(answer_row) = answer_row else {
            return Ok(false);
        };
        // Each citation starts `intact`; counted after the inserts, in (doc_id, status) order.
        let mut counts = super::counts::CountChanges::new();
        for (ci, claim) in results.iter().enumerate() {
            let claim_row: i64 = self
                .tx
                .query_row(
                    "INSERT INTO claims (answer_id, ord, text, uncited, answer_start, answer_end) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                    args![
                        answer_row,
                        ci,
                        claim.text,
                        claim.uncited,
                        claim.answer_span.map(|s| s.start as i64),
                        claim.answer_span.map(|s| s.end as i64)
                    ],
                    |row| row.get(0),
                )
                .map_err(self.db())?;
            for (ei, ev) in claim.evidence.iter().enumerate() {
                let citation_row = match (&ev.span, &ids[ci][ei]) {
                    (Some(span), Some(id)) => {
                        let key = (span.source.doc_id.clone(), crate::model::Status::Intact);
                        *counts.entry(key).or_insert(0) += 1;
                        self.insert_citation(claim_row, id, ev, span, now)?
                    }
                    _ => None,
                };
                let evidence_row: i64 = self
                    .tx
                    .query_row(
                        "INSERT INTO evidence (claim_id, ord, given_chunk_id, quote, verdict, \
                         reason, citation_id, proposal_start, proposal_end, proposal_text, \
                         proposal_score) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) \
                         RETURNING id",
                        args![
                            claim_row,
                            ei,
                            ev.given_chunk_id,
                            ev.quote,
                            ev.verdict.as_str(),
                            ev.reason,
                            citation_row,
                            ev.proposal.as_ref().map(|p| p.start as i64),
                            ev.proposal.as_ref().map(|p| p.end as i64),
                            ev.proposal.as_ref().map(|p| p.text.as_str()),
                            ev.proposal.as_ref().map(|p| p.score)
                        ],
                        |row| row.get(0),
                    )
                    .map_err(self.db())?;
                if let Some(location) = &ev.location {
                    self.tx
                        .execute(
                            "INSERT INTO evidence_locations (evidence_id, kind, location, \
                             agreement, note) VALUES (?1, ?2, ?3, ?4, ?5)",
                            args![
                                evidence_row,
                                location.kind,
                                location.raw.to_string(),
                                location.agreement.as_str(),
                                location.note
                            ],
                        )
                        .map_err(self.db())?;
                }
            }
            for (ord, ext) in claim.external.iter().enumerate() {
                self.tx
                    .execute(
                        "INSERT INTO external_citations (claim_id, ord, kind, url, title, \
                         cited_text, location) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                        args![
                            claim_row,
                            ord as i64,
                            ext.kind,
                            ext.url,
                            ext.title,
                            ext.cited_text,
                            ext.raw.to_string()
                        ],
                    )
                    .map_err(self.db())?;
            }
        }
        super::counts::add(self.tx, &counts).map_err(self.db())?;
        Ok(true)
    }

    fn insert_citation(
        &self,
        claim_row: i64,
        id: &str,
        ev: &crate::model::citation::EvidenceResult,
        span: &crate::model::citation::Span,
        now: &str,
    ) -> Result<Option<i64>> {
        self.tx
            .query_row(
                "INSERT INTO citations (citation_id, claim_id, doc_id, revision, content_hash, \
                 normaliser, start_char, end_char, chunk_id, repaired_from, quote, span_text, \
                 prefix, suffix, method, score, verdict, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18) \
                 RETURNING id",
                args![
                    id,
                    claim_row,
                    span.source.doc_id,
                    span.source.revision,
                    span.source.content_hash,
                    span.normaliser,
                    span.source.start,
                    span.source.end,
                    span.chunk_id,
                    span.repaired_from,
                    // Evidence the provider quoted nothing for cites the chunk: its text is
                    // what a sweep re-anchors.
                    if ev.quote.is_empty() { &span.text } else { &ev.quote },
                    span.text,
                    span.prefix,
                    span.suffix,
                    method_column(span.how),
                    span.score,
                    ev.verdict.as_str(),
                    now
                ],
                |row| row.get(0),
            )
            .map(Some)
            .map_err(self.db())
    }
}

/// Sets each chunk's text from its revision's text, converting char offsets to byte offsets in
/// one walk per revision (a `chars().skip(start)` per chunk is quadratic in a long document).
fn fill_chunk_texts(context: &mut Context) {
    let mut wanted: std::collections::HashMap<(&str, u32), Vec<usize>> =
        std::collections::HashMap::new();
    for chunk in &context.chunks {
        let at = wanted.entry((&chunk.doc_id, chunk.revision)).or_default();
        at.extend([chunk.start, chunk.end]);
    }
    let mut bytes: std::collections::HashMap<(String, u32), Vec<(usize, usize)>> =
        std::collections::HashMap::new();
    for ((doc_id, seq), mut at) in wanted {
        at.sort_unstable();
        at.dedup();
        let text = &context.revisions[&(doc_id.to_string(), seq)];
        bytes.insert((doc_id.to_string(), seq), byte_offsets(text, &at));
    }
    for chunk in &mut context.chunks {
        let key = (chunk.doc_id.clone(), chunk.revision);
        let offsets = &bytes[&key];
        let byte_of = |c: usize| {
            let i = offsets.partition_point(|&(ch, _)| ch < c);
            offsets[i].1
        };
        let text = &context.revisions[&key];
        chunk.text = text[byte_of(chunk.start)..byte_of(chunk.end)].to_string();
    }
}

/// `(char offset, byte offset)` for each of the sorted, distinct char offsets `at` in `text`;
/// an offset past the end maps to the end.
fn byte_offsets(text: &str, at: &[usize]) -> Vec<(usize, usize)> {
    let mut bounds = text
        .char_indices()
        .map(|(byte, _)| byte)
        .chain(std::iter::once(text.len()))
        .enumerate();
    let mut out = Vec::with_capacity(at.len());
    for &want in at {
        let byte = bounds
            .by_ref()
            .find(|&(ch, _)| ch == want)
            .map_or(text.len(), |(_, byte)| byte);
        out.push((want, byte));
    }
    out
}

/// The `citations.method` value for how a span was found. The column's CHECK (migration 0002)
/// predates `folded`; a folded hit is an accepted fuzzy hit at score 100, stored as that (the
/// score beside it tells them apart).
fn method_column(how: How) -> &'static str {
    match how {
        How::Folded => How::Fuzzy.as_str(),
        other => other.as_str(),
    }
}

#[cfg(test)]
mod tests {
    use super::byte_offsets;

    #[test]
    fn byte_offsets_of_chars_in_one_walk() {
        let text = "aé€😀b";
        let at = [0, 1, 2, 3, 4, 5, 9];
        let got = byte_offsets(text, &at);
        assert_eq!(
            got,
            [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 11), (9, 11)]
        );
    }
}
