//! What a sweep reads of a batch of documents, in one statement, to tell which of them nothing
//! has changed for since they were last swept: each one's state, text origin, current source,
//! last extraction's fingerprint, the latest revision's current chunking, and whether the last
//! sweep of it covered that revision, that chunking and every citation of it.
//!
//! Invariants: one statement, so every row comes from one snapshot of the store; each column
//! is what the sweep's per-document reads (`document_state`, `text_origin`, `current_source`,
//! `last_fingerprint`, `latest_revision`, `current_chunking`, `swept_at`) return for it,
//! by the same rule (the latest row by id; the latest revision by seq).

use super::chunkings::TextOrigin;
use super::db::{placeholders, Value};
use super::Reads;
use crate::error::Result;
use crate::model::{DocumentState, Fingerprint, Source, SourceBase};
use std::collections::HashMap;

/// A document as its last sweep left it, read with the others of its batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweptState {
    /// Its current state (active when never set).
    pub state: DocumentState,
    /// Where its text comes from now.
    pub origin: TextOrigin,
    /// Its current source and that row's id.
    pub source: Option<(i64, Source)>,
    /// What its last extraction saw.
    pub fingerprint: Option<Fingerprint>,
    /// Id and spec of its latest revision's current chunking.
    pub chunking: Option<(i64, String)>,
    /// Its last sweep was at the latest revision and that chunking, and no citation of it is
    /// newer than that sweep covered (what `Writer::swept_at` says of them).
    pub swept_current: bool,
}

/// The latest row of `table` by id where `key`: its `column`, as a scalar subquery. Every
/// column of the statement is one: each is an index lookup per document on both backends
/// (joined instead, PostgreSQL hashes whole tables for a batch of 64 documents).
fn latest(table: &str, column: &str, key: &str) -> String {
    format!("(SELECT {column} FROM {table} WHERE {key} ORDER BY id DESC LIMIT 1)")
}

/// The statement up to the list of document ids, columns in the order `swept_states` reads.
fn statement() -> String {
    let revision = "(SELECT id FROM revisions WHERE document_id = d.id ORDER BY seq DESC LIMIT 1)";
    let by_document = "document_id = d.id";
    let of_revision = format!("revision_id = {revision}");
    let mut columns = vec!["d.id".to_string()];
    columns.push(latest("document_states", "state", by_document));
    columns.push(latest("text_origins", "origin", by_document));
    for c in ["id", "path", "base", "extractor", "command", "version"] {
        columns.push(latest("sources", c, by_document));
    }
    for c in ["size", "mtime_ns", "source_sha256", "tool"] {
        columns.push(latest("extractions", c, by_document));
    }
    for c in ["id", "spec"] {
        columns.push(latest("chunkings", c, &of_revision));
    }
    columns.push(revision.to_string());
    for c in ["revision_id", "chunking_id", "citations_through"] {
        columns.push(latest("swept_documents", c, by_document));
    }
    columns.push("(SELECT COALESCE(MAX(id), 0) FROM citations WHERE doc_id = d.doc_id)".into());
    format!(
        "SELECT {} FROM documents d WHERE d.id IN (",
        columns.join(", ")
    )
}

impl Reads<'_> {
    /// [`SweptState`] of each of `document_ids` (row ids), in one statement.
    pub fn swept_states(&self, document_ids: &[i64]) -> Result<HashMap<i64, SweptState>> {
        if document_ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!("{}{})", statement(), placeholders(1, document_ids.len()));
        let params: Vec<Value> = document_ids.iter().map(|&id| Value::Int(id)).collect();
        let rows = self
            .conn
            .query_map(&sql, params, |r| {
                let source = match r.get::<Option<i64>>(3)? {
                    Some(id) => Some((
                        id,
                        Source {
                            path: r.get(4)?,
                            base: SourceBase::parse(&r.get::<String>(5)?)
                                .unwrap_or(SourceBase::Cwd),
                            extractor: r.get(6)?,
                            command: r.get(7)?,
                            version: r.get(8)?,
                        },
                    )),
                    None => None,
                };
                let fingerprint = match r.get::<Option<String>>(11)? {
                    Some(source_sha256) => Some(Fingerprint {
                        size: r.get::<Option<i64>>(9)?.map(|s| s as u64),
                        mtime_ns: r.get(10)?,
                        source_sha256,
                        tool: r.get(12)?,
                    }),
                    None => None,
                };
                let chunking = match r.get::<Option<i64>>(13)? {
                    Some(id) => Some((id, r.get::<String>(14)?)),
                    None => None,
                };
                let revision: Option<i64> = r.get(15)?;
                let swept: Option<(i64, i64, Option<i64>)> = match r.get::<Option<i64>>(16)? {
                    Some(revision_id) => Some((revision_id, r.get(17)?, r.get(18)?)),
                    None => None,
                };
                let newest: i64 = r.get(19)?;
                let swept_current = match (revision, &chunking, swept) {
                    (Some(rev), Some((chunking_id, _)), Some((at_rev, at_chunking, through))) => {
                        at_rev == rev
                            && at_chunking == *chunking_id
                            && through.is_none_or(|through| through >= newest)
                    }
                    _ => false,
                };
                let state = r.get::<Option<String>>(1)?;
                let origin = r.get::<Option<String>>(2)?;
                Ok((
                    r.get::<i64>(0)?,
                    SweptState {
                        state: state
                            .as_deref()
                            .and_then(DocumentState::parse)
                            .unwrap_or(DocumentState::Active),
                        origin: TextOrigin::from_stored(origin.as_deref()),
                        source,
                        fingerprint,
                        chunking,
                        swept_current,
                    },
                ))
            })
            .map_err(self.db())?;
        Ok(rows.into_iter().collect())
    }
}
