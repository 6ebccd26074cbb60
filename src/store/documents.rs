//! Documents and revisions: rows in, plain types out.

use super::db::{args, Conn, DbResult, Row};
use super::{optional, Writer};
use crate::error::Result;
use crate::model::{Document, DocumentSummary, Revision};

/// A revision to add: the text and what made it.
#[derive(Debug, Clone)]
pub struct NewRevision<'a> {
    /// The text to store (after ingest-time repair).
    pub text: &'a str,
    /// Hex SHA-256 of `text`.
    pub text_sha256: &'a str,
    /// Hex SHA-256 of the source bytes.
    pub source_sha256: &'a str,
    /// `name@version`.
    pub extractor: &'a str,
    /// Normaliser version.
    pub normaliser: &'a str,
}

const DOCUMENT_COLUMNS: &str = "id, doc_id, source, extractor, created_at";
const REVISION_COLUMNS: &str = "id, document_id, seq, text_sha256, char_len, source_sha256, \
     extractor, normaliser, created_at";

fn document_from(row: &Row) -> DbResult<Document> {
    Ok(Document {
        id: row.get(0)?,
        doc_id: row.get(1)?,
        source: row.get(2)?,
        extractor: row.get(3)?,
        created_at: row.get(4)?,
    })
}

fn revision_from(row: &Row) -> DbResult<Revision> {
    Ok(Revision {
        id: row.get(0)?,
        document_id: row.get(1)?,
        seq: row.get(2)?,
        text_sha256: row.get(3)?,
        char_len: row.get(4)?,
        source_sha256: row.get(5)?,
        extractor: row.get(6)?,
        normaliser: row.get(7)?,
        created_at: row.get(8)?,
    })
}

impl Writer<'_> {
    /// The document with this doc id, if any.
    pub fn document(&self, doc_id: &str) -> Result<Option<Document>> {
        let sql = format!("SELECT {DOCUMENT_COLUMNS} FROM documents WHERE doc_id = ?1");
        optional(self.tx.query_row(&sql, args![doc_id], document_from)).map_err(self.db())
    }

    /// Every document, ordered by doc id.
    pub fn documents(&self) -> Result<Vec<Document>> {
        let sql = format!("SELECT {DOCUMENT_COLUMNS} FROM documents ORDER BY doc_id");
        self.tx
            .query_map(&sql, args![], document_from)
            .map_err(self.db())
    }

    /// Adds a document.
    pub fn insert_document(
        &self,
        doc_id: &str,
        source: &str,
        extractor: &str,
        now: &str,
    ) -> Result<Document> {
        let id = self
            .tx
            .query_row(
                "INSERT INTO documents (doc_id, source, extractor, created_at) \
                 VALUES (?1, ?2, ?3, ?4) RETURNING id",
                args![doc_id, source, extractor, now],
                |row| row.get(0),
            )
            .map_err(self.db())?;
        Ok(Document {
            id,
            doc_id: doc_id.to_string(),
            source: source.to_string(),
            extractor: extractor.to_string(),
            created_at: now.to_string(),
        })
    }

    /// The document's latest revision, if it has one.
    pub fn latest_revision(&self, document: &Document) -> Result<Option<Revision>> {
        let sql = format!(
            "SELECT {REVISION_COLUMNS} FROM revisions WHERE document_id = ?1 \
             ORDER BY seq DESC LIMIT 1"
        );
        optional(self.tx.query_row(&sql, args![document.id], revision_from)).map_err(self.db())
    }

    /// Every revision of the document, oldest first.
    pub fn revisions(&self, document: &Document) -> Result<Vec<Revision>> {
        let sql =
            format!("SELECT {REVISION_COLUMNS} FROM revisions WHERE document_id = ?1 ORDER BY seq");
        self.tx
            .query_map(&sql, args![document.id], revision_from)
            .map_err(self.db())
    }

    /// Appends a revision with the next `seq`. The caller has checked that its text differs
    /// from the latest revision's.
    pub fn insert_revision(
        &self,
        document: &Document,
        new: &NewRevision<'_>,
        now: &str,
    ) -> Result<Revision> {
        let seq = self
            .latest_revision(document)?
            .map_or(1, |latest| latest.seq + 1);
        let char_len = new.text.chars().count() as i64;
        let id = self
            .tx
            .query_row(
                "INSERT INTO revisions (document_id, seq, text, text_sha256, char_len, \
                 source_sha256, extractor, normaliser, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id",
                args![
                    document.id,
                    seq,
                    new.text,
                    new.text_sha256,
                    char_len,
                    new.source_sha256,
                    new.extractor,
                    new.normaliser,
                    now
                ],
                |row| row.get(0),
            )
            .map_err(self.db())?;
        Ok(Revision {
            id,
            document_id: document.id,
            seq,
            text_sha256: new.text_sha256.to_string(),
            char_len,
            source_sha256: new.source_sha256.to_string(),
            extractor: new.extractor.to_string(),
            normaliser: new.normaliser.to_string(),
            created_at: now.to_string(),
        })
    }
}

/// See [`super::Store::summaries`].
pub(super) fn summaries(conn: &Conn) -> DbResult<Vec<DocumentSummary>> {
    conn.query_map(
        "SELECT d.doc_id, COALESCE((SELECT path FROM sources WHERE document_id = d.id \
                 ORDER BY id DESC LIMIT 1), d.source),
                (SELECT count(*) FROM revisions WHERE document_id = d.id),
                r.seq, r.extractor, r.char_len, c.spec,
                (SELECT count(*) FROM chunks WHERE chunking_id = c.id),
                (SELECT count(*) FROM citations WHERE doc_id = d.doc_id)
         FROM documents d
         JOIN revisions r ON r.document_id = d.id
             AND r.seq = (SELECT MAX(seq) FROM revisions WHERE document_id = d.id)
         LEFT JOIN chunkings c ON c.id = (SELECT MAX(id) FROM chunkings WHERE revision_id = r.id)
         ORDER BY d.doc_id",
        args![],
        |row| {
            Ok(DocumentSummary {
                doc_id: row.get(0)?,
                source: row.get(1)?,
                revisions: row.get(2)?,
                latest_seq: row.get(3)?,
                extractor: row.get(4)?,
                char_len: row.get(5)?,
                chunking: row.get(6)?,
                chunks: row.get(7)?,
                citations: row.get(8)?,
            })
        },
    )
}

impl super::Reads<'_> {
    /// The stored text of a revision.
    pub fn revision_text(&self, revision: &Revision) -> Result<String> {
        self.conn
            .query_row(
                "SELECT text FROM revisions WHERE id = ?1",
                args![revision.id],
                |row| row.get(0),
            )
            .map_err(self.db())
    }
}
