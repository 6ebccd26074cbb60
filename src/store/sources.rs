//! Sources, extractions and document states: append-only histories whose latest row is the
//! current value. The queries take a `Connection` so the store's reader (outside the write lock,
//! where a sweep stats and extracts files) and its writer share one copy of each.

use super::db::{params, Conn, DbResult};
use super::{optional, Reads, Store, Writer};
use crate::error::Result;
use crate::model::{DocumentState, Fingerprint, Source, SourceBase};

/// One recorded extraction of a document's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewExtraction {
    /// The document's row id.
    pub document_id: i64,
    /// The source row read.
    pub source_id: i64,
    /// The sweep that ran it; `None` for `ingest`.
    pub sweep_id: Option<i64>,
    /// What was seen.
    pub fingerprint: Fingerprint,
    /// False when the bytes were unchanged and the extractor was not run.
    pub ran: bool,
    /// The document's latest revision after it.
    pub revision_id: i64,
}

fn current_source(conn: &Conn, document_id: i64) -> DbResult<Option<(i64, Source)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, path, base, extractor, command, version FROM sources \
         WHERE document_id = ?1 ORDER BY id DESC LIMIT 1",
    )?;
    optional(stmt.query_row([document_id], |r| {
        let base: String = r.get(2)?;
        Ok((
            r.get(0)?,
            Source {
                path: r.get(1)?,
                base: SourceBase::parse(&base).unwrap_or(SourceBase::Cwd),
                extractor: r.get(3)?,
                command: r.get(4)?,
                version: r.get(5)?,
            },
        ))
    }))
}

fn last_fingerprint(conn: &Conn, document_id: i64) -> DbResult<Option<Fingerprint>> {
    let mut stmt = conn.prepare_cached(
        "SELECT size, mtime_ns, source_sha256, tool FROM extractions \
         WHERE document_id = ?1 ORDER BY id DESC LIMIT 1",
    )?;
    optional(stmt.query_row([document_id], |r| {
        Ok(Fingerprint {
            size: r.get::<Option<i64>>(0)?.map(|s| s as u64),
            mtime_ns: r.get(1)?,
            source_sha256: r.get(2)?,
            tool: r.get(3)?,
        })
    }))
}

fn document_state(conn: &Conn, document_id: i64) -> DbResult<DocumentState> {
    let mut stmt = conn.prepare_cached(
        "SELECT state FROM document_states WHERE document_id = ?1 ORDER BY id DESC LIMIT 1",
    )?;
    let state: Option<String> = optional(stmt.query_row([document_id], |r| r.get(0)))?;
    Ok(state
        .as_deref()
        .and_then(DocumentState::parse)
        .unwrap_or(DocumentState::Active))
}

impl Reads<'_> {
    /// A document's current source and its row id.
    pub fn current_source(&self, document_id: i64) -> Result<Option<(i64, Source)>> {
        current_source(self.conn, document_id).map_err(self.db())
    }

    /// What the last extraction of a document saw.
    pub fn last_fingerprint(&self, document_id: i64) -> Result<Option<Fingerprint>> {
        last_fingerprint(self.conn, document_id).map_err(self.db())
    }

    /// A document's current state (active when never set).
    pub fn document_state(&self, document_id: i64) -> Result<DocumentState> {
        document_state(self.conn, document_id).map_err(self.db())
    }
}

impl Store {
    /// Doc ids of the documents whose current state is `state`, sorted.
    pub fn documents_in_state(&self, state: DocumentState) -> Result<Vec<String>> {
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
        rows.collect::<DbResult<_>>().map_err(self.db_err())
    }
}

impl Writer<'_> {
    /// Makes `source` the document's current source (nothing when it already is); its row id.
    pub fn set_source(&self, document_id: i64, source: &Source, now: &str) -> Result<i64> {
        if let Some((id, current)) = self.reads().current_source(document_id)? {
            if &current == source {
                return Ok(id);
            }
        }
        self.tx
            .prepare_cached(
                "INSERT INTO sources (document_id, path, base, extractor, command, version, \
                 created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
            )
            .and_then(|mut s| {
                s.query_row(
                    params![
                        document_id,
                        source.path,
                        source.base.as_str(),
                        source.extractor,
                        source.command,
                        source.version,
                        now
                    ],
                    |row| row.get(0),
                )
            })
            .map_err(self.db())
    }

    /// Records an extraction (or a read that found the bytes unchanged).
    pub fn record_extraction(&self, e: &NewExtraction, now: &str) -> Result<()> {
        let f = &e.fingerprint;
        self.tx
            .prepare_cached(
                "INSERT INTO extractions (document_id, source_id, sweep_id, size, mtime_ns, \
                 source_sha256, tool, ran, revision_id, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    e.document_id,
                    e.source_id,
                    e.sweep_id,
                    f.size.map(|s| s as i64),
                    f.mtime_ns,
                    f.source_sha256,
                    f.tool,
                    e.ran,
                    e.revision_id,
                    now
                ])
            })
            .map_err(self.db())?;
        Ok(())
    }

    /// Sets a document's state, unless it already is `state`; true when it changed.
    pub fn set_document_state(
        &self,
        document_id: i64,
        sweep_id: Option<i64>,
        state: DocumentState,
        reason: Option<&str>,
        now: &str,
    ) -> Result<bool> {
        if self.reads().document_state(document_id)? == state {
            return Ok(false);
        }
        self.tx
            .prepare_cached(
                "INSERT INTO document_states (document_id, sweep_id, state, reason, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut s| {
                s.execute(params![document_id, sweep_id, state.as_str(), reason, now])
            })
            .map_err(self.db())?;
        Ok(true)
    }
}
