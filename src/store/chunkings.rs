//! Chunkings and their chunks; caller ids of chunks the caller made, and where a document's
//! text comes from (migration 0006).

use super::db::{args, insert_sql, params, placeholders, Conn, DbResult, Row, ToDb, Value};
use super::{optional, Store, Writer};
use crate::chunk::caller::CALLER_SPEC;
use crate::error::{Error, Result};
use crate::model::{holding_key, Chunk, Chunking, DocumentState, NewChunk, Revision};
use std::collections::HashMap;

/// A document `chunk` looks at: its latest revision, and the chunk count of that revision's
/// current chunking when it has the spec asked for already.
#[derive(Debug, Clone)]
pub(super) struct ChunkTarget {
    /// The document.
    pub doc_id: String,
    /// Its latest revision's row id.
    pub revision_id: i64,
    /// Its latest revision's `seq`.
    pub seq: i64,
    /// Its latest revision's length in chars.
    pub char_len: usize,
    /// The chunks of the revision's current chunking, when that chunking has the spec asked
    /// for; `None` when it has another spec or none.
    pub current: Option<usize>,
}

/// Each document with its latest revision (none: NULLs) and, when the revision's current
/// (newest) chunking has spec `?1`, its chunk count.
const CHUNK_TARGETS: &str = "SELECT d.doc_id, r.id, r.seq, r.char_len, \
       CASE WHEN k.id IS NULL THEN NULL \
            ELSE (SELECT count(*) FROM chunks c WHERE c.chunking_id = k.id) END \
     FROM documents d \
     LEFT JOIN revisions r ON r.document_id = d.id \
       AND r.seq = (SELECT MAX(seq) FROM revisions WHERE document_id = d.id) \
     LEFT JOIN chunkings k ON k.id = (SELECT MAX(id) FROM chunkings WHERE revision_id = r.id) \
       AND k.spec = ?1";

/// Of the documents whose row ids follow `?3` (each `?N` from `?4`), those not missing (state
/// `?3`) whose latest revision's current (newest) chunking is neither spec `?1` nor the
/// caller's (`?2`): the document's row id and doc id, and that revision's id, seq and length
/// in chars.
const DUE_TARGETS: &str = "SELECT d.id, d.doc_id, r.id, r.seq, r.char_len FROM documents d \
     JOIN revisions r ON r.id = \
       (SELECT id FROM revisions WHERE document_id = d.id ORDER BY seq DESC LIMIT 1) \
     WHERE COALESCE((SELECT state FROM document_states WHERE document_id = d.id \
                     ORDER BY id DESC LIMIT 1), '') <> ?3 \
       AND COALESCE((SELECT spec FROM chunkings WHERE revision_id = r.id \
                     ORDER BY id DESC LIMIT 1), '') NOT IN (?1, ?2) \
       AND d.id IN (";

/// The columns of a chunk row, in [`Writer::insert_chunking_with_ids`]'s order.
const CHUNK_COLUMNS: [&str; 8] = [
    "chunking_id",
    "ord",
    "chunk_id",
    "start_char",
    "end_char",
    "content_hash",
    "normaliser",
    "caller_id",
];

fn chunking_from(row: &Row) -> DbResult<Chunking> {
    Ok(Chunking {
        id: row.get(0)?,
        revision_id: row.get(1)?,
        spec: row.get(2)?,
        created_at: row.get(3)?,
    })
}

/// A chunk from a row that starts `ord, chunk_id, start_char, end_char, content_hash,
/// normaliser`.
fn chunk_from(row: &Row) -> DbResult<Chunk> {
    Ok(Chunk {
        ord: row.get(0)?,
        chunk_id: row.get(1)?,
        start: row.get::<i64>(2)? as usize,
        end: row.get::<i64>(3)? as usize,
        content_hash: row.get(4)?,
        normaliser: row.get(5)?,
    })
}

impl Writer<'_> {
    /// The revision's latest chunking, if any.
    pub fn current_chunking(&self, revision: &Revision) -> Result<Option<Chunking>> {
        optional(self.tx.query_row(
            "SELECT id, revision_id, spec, created_at FROM chunkings \
             WHERE revision_id = ?1 ORDER BY id DESC LIMIT 1",
            args![revision.id],
            chunking_from,
        ))
        .map_err(self.db())
    }

    /// Every chunking of a revision, oldest first.
    pub fn chunkings(&self, revision: &Revision) -> Result<Vec<Chunking>> {
        self.tx
            .query_map(
                "SELECT id, revision_id, spec, created_at FROM chunkings \
                 WHERE revision_id = ?1 ORDER BY id",
                args![revision.id],
                chunking_from,
            )
            .map_err(self.db())
    }

    /// The chunks of a chunking, in order.
    pub fn chunks(&self, chunking: &Chunking) -> Result<Vec<Chunk>> {
        self.tx
            .query_map(
                "SELECT ord, chunk_id, start_char, end_char, content_hash, normaliser \
                 FROM chunks WHERE chunking_id = ?1 ORDER BY ord",
                args![chunking.id],
                chunk_from,
            )
            .map_err(self.db())
    }

    /// Adds a chunking of `revision` with its chunks.
    pub fn insert_chunking(
        &self,
        revision: &Revision,
        spec: &str,
        chunks: &[NewChunk],
        now: &str,
    ) -> Result<Chunking> {
        self.insert_chunking_with_ids(revision, spec, chunks, &[], now)
    }

    /// The caller ids of a chunking's chunks, in order (`None` where a chunk has none).
    pub fn caller_ids(&self, chunking: &Chunking) -> Result<Vec<Option<String>>> {
        self.tx
            .query_map(
                "SELECT caller_id FROM chunks WHERE chunking_id = ?1 ORDER BY ord",
                args![chunking.id],
                |row| row.get(0),
            )
            .map_err(self.db())
    }

    /// Records where a document's text comes from now (`file` or `given`), unless it already
    /// does (a document with no row is `file`).
    pub fn set_text_origin(&self, document_id: i64, origin: TextOrigin, now: &str) -> Result<()> {
        if text_origin(self.tx, document_id).map_err(self.db())? == origin {
            return Ok(());
        }
        self.tx
            .execute(
                "INSERT INTO text_origins (document_id, origin, created_at) VALUES (?1, ?2, ?3)",
                args![document_id, origin.as_str(), now],
            )
            .map_err(self.db())?;
        Ok(())
    }

    /// Adds a chunking of `revision` with its chunks, `caller_ids[i]` the caller's id of chunk
    /// `i` (missing entries are `None`), many rows per statement.
    pub fn insert_chunking_with_ids(
        &self,
        revision: &Revision,
        spec: &str,
        chunks: &[NewChunk],
        caller_ids: &[Option<String>],
        now: &str,
    ) -> Result<Chunking> {
        let chunking_id: i64 = self
            .tx
            .query_row(
                "INSERT INTO chunkings (revision_id, spec, created_at) VALUES (?1, ?2, ?3) \
                 RETURNING id",
                args![revision.id, spec, now],
                |row| row.get(0),
            )
            .map_err(self.db())?;
        let rows = chunks.iter().enumerate().map(|(ord, chunk)| {
            vec![
                Value::Int(chunking_id),
                Value::Int(ord as i64),
                Value::Text(chunk.chunk_id.clone()),
                Value::Int(chunk.start as i64),
                Value::Int(chunk.end as i64),
                Value::Text(chunk.content_hash.clone()),
                Value::Text(chunk.normaliser.clone()),
                caller_ids.get(ord).cloned().flatten().to_db(),
            ]
        });
        self.tx
            .insert_rows("chunks", &CHUNK_COLUMNS, rows)
            .map_err(self.db())?;
        Ok(Chunking {
            id: chunking_id,
            revision_id: revision.id,
            spec: spec.to_string(),
            created_at: now.to_string(),
        })
    }
}

impl Writer<'_> {
    /// The documents `chunk` works on, each with its latest revision and whether that
    /// revision's current chunking has `spec` already: every document with a revision, by doc
    /// id, when `doc_ids` is empty; else those named, in the order named (an unknown one is
    /// an error; one without a revision is left out).
    pub(super) fn chunk_targets(&self, doc_ids: &[String], spec: &str) -> Result<Vec<ChunkTarget>> {
        let target = |row: &Row| -> DbResult<Option<ChunkTarget>> {
            let Some(revision_id) = row.get::<Option<i64>>(1)? else {
                return Ok(None);
            };
            Ok(Some(ChunkTarget {
                doc_id: row.get(0)?,
                revision_id,
                seq: row.get(2)?,
                char_len: row.get::<i64>(3)?.max(0) as usize,
                current: row.get::<Option<i64>>(4)?.map(|n| n as usize),
            }))
        };
        if doc_ids.is_empty() {
            let sql = format!("{CHUNK_TARGETS} ORDER BY d.doc_id");
            let rows = self
                .tx
                .query_map(&sql, args![spec], target)
                .map_err(self.db())?;
            return Ok(rows.into_iter().flatten().collect());
        }
        let sql = format!("{CHUNK_TARGETS} WHERE d.doc_id = ?2");
        let mut targets = Vec::with_capacity(doc_ids.len());
        for doc_id in doc_ids {
            let found = optional(self.tx.query_row(&sql, args![spec, doc_id], target))
                .map_err(self.db())?
                .ok_or_else(|| Error::UnknownDocument {
                    doc_id: doc_id.clone(),
                })?;
            targets.extend(found);
        }
        Ok(targets)
    }

    /// Of `document_ids` (row ids, in that order), each not missing whose latest revision's
    /// current chunking is neither `spec` nor the caller's ([`CALLER_SPEC`]), with its row id,
    /// in one statement.
    pub(super) fn due_targets(
        &self,
        document_ids: &[i64],
        spec: &str,
    ) -> Result<Vec<(i64, ChunkTarget)>> {
        if document_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!("{DUE_TARGETS}{})", placeholders(4, document_ids.len()));
        let mut params = vec![
            spec.to_db(),
            CALLER_SPEC.to_db(),
            DocumentState::Missing.as_str().to_db(),
        ];
        params.extend(document_ids.iter().map(|&id| Value::Int(id)));
        let mut due: HashMap<i64, ChunkTarget> = self
            .tx
            .query_map(&sql, params, |row| {
                Ok((
                    row.get::<i64>(0)?,
                    ChunkTarget {
                        doc_id: row.get(1)?,
                        revision_id: row.get(2)?,
                        seq: row.get(3)?,
                        char_len: row.get::<i64>(4)?.max(0) as usize,
                        current: None,
                    },
                ))
            })
            .map_err(self.db())?
            .into_iter()
            .collect();
        // In the order asked, as one document at a time would chunk them.
        Ok(document_ids
            .iter()
            .filter_map(|id| due.remove(id).map(|target| (*id, target)))
            .collect())
    }

    /// The stored texts of revisions `ids`, by id, in one statement.
    pub(super) fn revision_texts(&self, ids: &[i64]) -> Result<HashMap<i64, String>> {
        let mut texts = HashMap::with_capacity(ids.len());
        if ids.is_empty() {
            return Ok(texts);
        }
        let sql = format!(
            "SELECT id, text FROM revisions WHERE id IN ({})",
            placeholders(1, ids.len())
        );
        let params: Vec<Value> = ids.iter().map(|&id| Value::Int(id)).collect();
        self.tx.each(&sql, params, self.db(), |row| {
            let mut values = row.into_values().into_iter();
            match (values.next(), values.next()) {
                (Some(Value::Int(id)), Some(Value::Text(text))) => {
                    texts.insert(id, text);
                    Ok(true)
                }
                (id, text) => Err(self.db()(super::db::DbError::Column {
                    index: 0,
                    want: "revision id and text",
                    got: format!(
                        "{id:?}, {}",
                        if text.is_some() {
                            "not text"
                        } else {
                            "nothing"
                        }
                    ),
                })),
            }
        })?;
        Ok(texts)
    }

    /// Adds one chunking with spec `spec` per `(revision id, chunks)` of `chunkings` (each
    /// revision once), in order, and their chunks: one statement for the chunkings of up to
    /// [`CHUNKINGS_PER_STATEMENT`] revisions, and as few as [`Conn::insert_rows`] allows for
    /// their chunks.
    pub(super) fn insert_chunkings(
        &self,
        spec: &str,
        chunkings: Vec<(i64, Vec<NewChunk>)>,
        now: &str,
    ) -> Result<()> {
        let revisions: Vec<i64> = chunkings
            .iter()
            .map(|(revision_id, _)| *revision_id)
            .collect();
        let ids = self.insert_chunking_rows(spec, &revisions, now)?;
        self.insert_chunks(
            chunkings
                .into_iter()
                .map(|(revision_id, chunks)| (ids[&revision_id], chunks))
                .collect(),
        )
    }

    /// Adds one chunking with spec `spec` per revision of `revision_ids` (each once), in
    /// order, without its chunks ([`Writer::insert_chunks`] adds them): the chunking id of
    /// each revision.
    pub(super) fn insert_chunking_rows(
        &self,
        spec: &str,
        revision_ids: &[i64],
        now: &str,
    ) -> Result<HashMap<i64, i64>> {
        let mut ids: HashMap<i64, i64> = HashMap::with_capacity(revision_ids.len());
        for group in revision_ids.chunks(CHUNKINGS_PER_STATEMENT) {
            let sql = format!(
                "{} RETURNING id, revision_id",
                insert_sql(
                    "chunkings",
                    &["revision_id", "spec", "created_at"],
                    group.len()
                )
            );
            let params: Vec<Value> = group
                .iter()
                .flat_map(|revision_id| {
                    [
                        Value::Int(*revision_id),
                        Value::Text(spec.to_string()),
                        Value::Text(now.to_string()),
                    ]
                })
                .collect();
            let returned = self
                .tx
                .query_map(&sql, params, |row| {
                    Ok((row.get::<i64>(1)?, row.get::<i64>(0)?))
                })
                .map_err(self.db())?;
            ids.extend(returned);
        }
        Ok(ids)
    }

    /// Adds the chunks of each `(chunking id, chunks)`, in order, in as few statements as the
    /// backend allows.
    pub(super) fn insert_chunks(&self, chunkings: Vec<(i64, Vec<NewChunk>)>) -> Result<()> {
        let rows = chunkings.into_iter().flat_map(|(chunking_id, chunks)| {
            chunks.into_iter().enumerate().map(move |(ord, chunk)| {
                vec![
                    Value::Int(chunking_id),
                    Value::Int(ord as i64),
                    Value::Text(chunk.chunk_id),
                    Value::Int(chunk.start as i64),
                    Value::Int(chunk.end as i64),
                    Value::Text(chunk.content_hash),
                    Value::Text(chunk.normaliser),
                    Value::Null,
                ]
            })
        });
        self.tx
            .insert_rows("chunks", &CHUNK_COLUMNS, rows)
            .map_err(self.db())?;
        Ok(())
    }
}

/// Chunkings inserted per statement by [`Writer::insert_chunkings`] (three parameters each).
const CHUNKINGS_PER_STATEMENT: usize = 256;

/// Where a document's text comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextOrigin {
    /// Its recorded source file (re-extracted by sweeps).
    File,
    /// Handed over as a string by the caller (Python's `ingest_text`): sweeps never look for a
    /// file; the caller brings new text.
    Given,
}

impl TextOrigin {
    /// The name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            TextOrigin::File => "file",
            TextOrigin::Given => "given",
        }
    }

    /// The origin a stored name (or none recorded) says: given only when stored as such.
    pub(super) fn from_stored(name: Option<&str>) -> TextOrigin {
        match name {
            Some("given") => TextOrigin::Given,
            _ => TextOrigin::File,
        }
    }
}

fn text_origin(conn: &Conn, document_id: i64) -> DbResult<TextOrigin> {
    let origin: Option<String> = optional(conn.query_row(
        "SELECT origin FROM text_origins WHERE document_id = ?1 ORDER BY id DESC LIMIT 1",
        [document_id],
        |row| row.get(0),
    ))?;
    Ok(TextOrigin::from_stored(origin.as_deref()))
}

impl Store {
    /// Where a document's text comes from now.
    pub fn text_origin(&self, document_id: i64) -> Result<TextOrigin> {
        text_origin(&self.conn, document_id).map_err(self.db_err())
    }
}

/// The chunk holding a span, by citestore's id and the caller's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    /// citestore's chunk id.
    pub chunk_id: String,
    /// The caller's own id of the chunk (`ingest --chunks`), else `None`.
    pub caller_id: Option<String>,
}

/// The chunk-holding query (shared by [`super::Snapshot`] and [`Store::chunk_holding`]): the
/// chunks of the current chunking that touch the span, chosen by [`holding_key`], the rule the
/// sweep uses.
pub(super) fn chunk_holding(
    conn: &Conn,
    doc_id: &str,
    seq: u32,
    start: usize,
    end: usize,
) -> DbResult<Option<Holding>> {
    // The candidates in SQL, the choice by the one rule in `model::holding_key`.
    let rows: Vec<(String, i64, i64, Option<String>)> = conn.query_map(
        "SELECT c.chunk_id, c.start_char, c.end_char, c.caller_id FROM chunks c WHERE c.chunking_id = ( \
           SELECT MAX(k.id) FROM chunkings k JOIN revisions r ON r.id = k.revision_id \
           JOIN documents d ON d.id = r.document_id WHERE d.doc_id = ?1 AND r.seq = ?2) \
         AND c.start_char <= ?4 AND c.end_char >= ?3",
        params![doc_id, seq as i64, start as i64, end as i64],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    let mut best: Option<((bool, usize, usize), Holding)> = None;
    for (chunk_id, a, b, caller_id) in rows {
        let Some(key) = holding_key((a as usize, b as usize), (start, end)) else {
            continue;
        };
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((
                key,
                Holding {
                    chunk_id,
                    caller_id,
                },
            ));
        }
    }
    Ok(best.map(|(_, held)| held))
}

/// A revision's current chunking as stored: the chunks in order, each with the caller's id of
/// it (`None` for chunks citestore made).
#[derive(Debug, Clone)]
pub struct RevisionChunks {
    /// The revision's `seq`.
    pub revision: u32,
    /// The chunking's spec (`caller` for the caller's own chunks); `None` when the revision was
    /// never chunked.
    pub spec: Option<String>,
    /// The chunks, in order, with their caller ids.
    pub chunks: Vec<(Chunk, Option<String>)>,
}

impl super::Reads<'_> {
    /// Revision `seq` of `doc_id` (its latest when `None`), checked to exist: an unknown
    /// document or revision is said as such.
    pub fn revision_seq(&self, doc_id: &str, seq: Option<u32>) -> Result<u32> {
        let latest: Option<i64> = self
            .conn
            .query_row(
                "SELECT MAX(r.seq) FROM revisions r JOIN documents d ON d.id = r.document_id \
                 WHERE d.doc_id = ?1",
                args![doc_id],
                |r| r.get(0),
            )
            .map_err(self.db())?;
        let latest = latest.ok_or_else(|| Error::UnknownDocument {
            doc_id: doc_id.to_string(),
        })? as u32;
        let revision = seq.unwrap_or(latest);
        if revision == 0 || revision > latest {
            return Err(Error::UnknownRevision {
                doc_id: doc_id.to_string(),
                revision,
                latest,
            });
        }
        Ok(revision)
    }

    /// The current (latest) chunking of revision `seq` of `doc_id` (its latest revision when
    /// `None`).
    pub fn revision_chunks(&self, doc_id: &str, seq: Option<u32>) -> Result<RevisionChunks> {
        let revision = self.revision_seq(doc_id, seq)?;
        let chunking: Option<(i64, String)> = optional(self.conn.query_row(
            "SELECT k.id, k.spec FROM chunkings k JOIN revisions r ON r.id = k.revision_id \
             JOIN documents d ON d.id = r.document_id WHERE d.doc_id = ?1 AND r.seq = ?2 \
             ORDER BY k.id DESC LIMIT 1",
            args![doc_id, revision as i64],
            |r| Ok((r.get(0)?, r.get(1)?)),
        ))
        .map_err(self.db())?;
        let Some((chunking_id, spec)) = chunking else {
            return Ok(RevisionChunks {
                revision,
                spec: None,
                chunks: Vec::new(),
            });
        };
        let chunks = self
            .conn
            .query_map(
                "SELECT ord, chunk_id, start_char, end_char, content_hash, normaliser, caller_id \
                 FROM chunks WHERE chunking_id = ?1 ORDER BY ord",
                args![chunking_id],
                |row| Ok((chunk_from(row)?, row.get(6)?)),
            )
            .map_err(self.db())?;
        Ok(RevisionChunks {
            revision,
            spec: Some(spec),
            chunks,
        })
    }
}
