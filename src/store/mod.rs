//! The store: SQLite, opened in exactly one function ([`Store::open`]), the only module that
//! knows SQL.
//!
//! Invariants:
//! - Opening sets `busy_timeout` (5 s), `journal_mode=WAL` (readers never wait for the writer),
//!   `foreign_keys=ON`, `synchronous=NORMAL`, then applies the embedded migrations in order, each
//!   in its own transaction with `PRAGMA user_version` bumped inside it. A database whose
//!   `user_version` is above what this binary knows is refused, never touched.
//! - Every write goes through a [`Writer`]: one `BEGIN IMMEDIATE` transaction that commits only
//!   when [`Writer::commit`] is called; dropping it rolls back, so a failed command leaves the
//!   database as it was.
//! - Shipped migrations are never edited; a new one is appended to [`MIGRATIONS`] and starts with
//!   a comment saying why.

mod chunkings;
mod citations;
mod documents;
mod snapshot;
mod sweeps;
mod verifications;

pub use chunkings::NewChunk;
pub use citations::{CitationIds, StoredChunk};
pub use documents::NewRevision;
pub use snapshot::Snapshot;
pub use sweeps::{AnchorRow, CitationRecord, CitationState, NewAnchor, SweepRow, VerificationRow};

use crate::error::{Error, Result};
use crate::model::DocumentSummary;
use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The migrations, in order: (name, SQL). `user_version` = how many have been applied.
pub const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_initial",
        include_str!("../../migrations/0001_initial.sql"),
    ),
    (
        "0002_citations",
        include_str!("../../migrations/0002_citations.sql"),
    ),
    (
        "0003_verifications",
        include_str!("../../migrations/0003_verifications.sql"),
    ),
    (
        "0004_sweeps",
        include_str!("../../migrations/0004_sweeps.sql"),
    ),
];

/// An open database.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating when missing) the database at `path`: pragmas, then migrations.
    pub fn open(path: &Path) -> Result<Store> {
        if let Ok(meta) = std::fs::metadata(path) {
            // Checked by hand because root can write a read-only file, and a store must not
            // quietly write what its owner marked read-only.
            if meta.permissions().readonly() {
                return Err(Error::ReadOnlyDatabase {
                    path: path.to_path_buf(),
                });
            }
        }
        let conn = Connection::open(path).map_err(|e| classify(path, e))?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
        };
        store
            .conn
            .busy_timeout(Duration::from_millis(5000))
            .map_err(|e| classify(path, e))?;
        // Read before any pragma writes: a file that is not SQLite, or a schema from a newer
        // citestore, is refused with the file exactly as it was.
        let found = store.schema_version()?;
        if found > MIGRATIONS.len() {
            return Err(store.too_new(found));
        }
        store.configure().map_err(|e| classify(path, e))?;
        store.migrate()?;
        Ok(store)
    }

    /// Opens a database that must already exist (commands that only read).
    pub fn open_existing(path: &Path) -> Result<Store> {
        if !path.exists() {
            return Err(Error::NoDatabase {
                path: path.to_path_buf(),
            });
        }
        Store::open(path)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn configure(&self) -> rusqlite::Result<()> {
        let mode: String =
            self.conn
                .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))?;
        debug_assert_eq!(mode.to_ascii_lowercase(), "wal");
        self.conn.pragma_update(None, "foreign_keys", "ON")?;
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(())
    }

    /// The schema version recorded in the file.
    pub fn schema_version(&self) -> Result<usize> {
        let version: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| classify(&self.path, e))?;
        Ok(version as usize)
    }

    fn migrate(&mut self) -> Result<()> {
        let known = MIGRATIONS.len();
        if self.schema_version()? == known {
            return Ok(());
        }
        let path = self.path.clone();
        let db = |e| classify(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        // Another process may have migrated while we waited for the lock.
        let found: i64 = tx
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(db)?;
        let found = found as usize;
        if found > known {
            return Err(Error::SchemaTooNew {
                path: path.clone(),
                found,
                known,
            });
        }
        for (applied, (_, sql)) in MIGRATIONS.iter().enumerate().skip(found) {
            tx.execute_batch(sql).map_err(db)?;
            tx.pragma_update(None, "user_version", (applied + 1) as i64)
                .map_err(db)?;
        }
        tx.commit().map_err(db)
    }

    fn too_new(&self, found: usize) -> Error {
        Error::SchemaTooNew {
            path: self.path.clone(),
            found,
            known: MIGRATIONS.len(),
        }
    }

    /// Starts the one write transaction of a command.
    pub fn writer(&mut self) -> Result<Writer<'_>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| classify(&self.path, e))?;
        Ok(Writer {
            tx,
            path: &self.path,
        })
    }

    /// One summary per document, ordered by doc id, read in one statement (a consistent
    /// snapshot under WAL even while another process writes).
    pub fn summaries(&self) -> Result<Vec<DocumentSummary>> {
        documents::summaries(&self.conn).map_err(|e| classify(&self.path, e))
    }

    /// Table names and their columns, in order (for schema checks and the migration test).
    pub fn schema(&self) -> Result<Vec<(String, Vec<String>)>> {
        let db = |e| classify(&self.path, e);
        let mut tables = self
            .conn
            .prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name")
            .map_err(db)?;
        let names: Vec<String> = tables
            .query_map([], |row| row.get(0))
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?;
        names
            .into_iter()
            .map(|name| {
                let mut columns = self
                    .conn
                    .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
                    .map_err(db)?;
                let cols = columns
                    .query_map([&name], |row| row.get(0))
                    .map_err(db)?
                    .collect::<rusqlite::Result<Vec<String>>>()
                    .map_err(db)?;
                Ok((name, cols))
            })
            .collect()
    }
}

/// The write transaction of one command; dropped without [`Writer::commit`], it rolls back.
pub struct Writer<'a> {
    tx: rusqlite::Transaction<'a>,
    path: &'a Path,
}

impl Writer<'_> {
    /// Makes every write of this transaction durable.
    pub fn commit(self) -> Result<()> {
        let path = self.path;
        self.tx.commit().map_err(|e| classify(path, e))
    }

    fn db(&self) -> impl Fn(rusqlite::Error) -> Error + '_ {
        move |e| classify(self.path, e)
    }
}

/// Turns a SQLite error into the error a user can act on.
fn classify(path: &Path, err: rusqlite::Error) -> Error {
    let path = path.to_path_buf();
    match err.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => Error::NotADatabase { path },
        Some(ErrorCode::ReadOnly) => Error::ReadOnlyDatabase { path },
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Error::Busy { path },
        Some(ErrorCode::CannotOpen) => Error::CannotOpen { path },
        _ => {
            let message = match &err {
                rusqlite::Error::SqliteFailure(_, Some(message)) => message.clone(),
                other => other.to_string(),
            };
            Error::Database { path, message }
        }
    }
}

/// The raw text of revision `seq` of `doc_id` (for the store's reader and its writer alike).
fn text_by_seq(conn: &Connection, doc_id: &str, seq: u32) -> rusqlite::Result<String> {
    conn.query_row(
        "SELECT r.text FROM revisions r JOIN documents d ON d.id = r.document_id \
         WHERE d.doc_id = ?1 AND r.seq = ?2",
        rusqlite::params![doc_id, seq as i64],
        |r| r.get(0),
    )
}

/// `query_row` that returns `None` for no row.
fn optional<T>(result: rusqlite::Result<T>) -> rusqlite::Result<Option<T>> {
    result.optional()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_migrations_make_the_schema() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.db")).unwrap();
        assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len());
        let schema = store.schema().unwrap();
        let columns = |table: &str| -> Vec<String> {
            schema
                .iter()
                .find(|(name, _)| name == table)
                .unwrap_or_else(|| panic!("no table {table}"))
                .1
                .clone()
        };
        assert_eq!(
            columns("documents"),
            ["id", "doc_id", "source", "extractor", "created_at"]
        );
        assert_eq!(
            columns("revisions"),
            [
                "id",
                "document_id",
                "seq",
                "text",
                "text_sha256",
                "char_len",
                "source_sha256",
                "extractor",
                "normaliser",
                "created_at"
            ]
        );
        assert_eq!(
            columns("chunkings"),
            ["id", "revision_id", "spec", "created_at"]
        );
        assert_eq!(
            columns("chunks"),
            [
                "id",
                "chunking_id",
                "ord",
                "chunk_id",
                "start_char",
                "end_char",
                "content_hash",
                "normaliser"
            ]
        );
        // 0002: citing. The SourceRef's five fields and what re-anchoring needs.
        let citations = columns("citations");
        for column in [
            "citation_id",
            "doc_id",
            "content_hash",
            "start_char",
            "end_char",
            "revision",
            "quote",
            "prefix",
            "suffix",
            "chunk_id",
            "repaired_from",
        ] {
            assert!(citations.iter().any(|c| c == column), "citations.{column}");
        }
        assert_eq!(
            columns("context_chunks"),
            ["context_id", "ord", "label", "chunk_row"]
        );
        for table in ["contexts", "answers", "claims", "evidence"] {
            assert!(!columns(table).is_empty(), "{table}");
        }
        assert_eq!(
            columns("current_chunkings"),
            ["doc_id", "seq", "revision_id", "chunking_id", "spec"]
        );
        let mode: String = store
            .conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let fk: i64 = store
            .conn
            .pragma_query_value(None, "foreign_keys", |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1);
    }

    #[test]
    fn reopening_applies_nothing_twice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        drop(Store::open(&path).unwrap());
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len());
    }

    #[test]
    fn newer_database_is_refused_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.pragma_update(None, "user_version", 99).unwrap();
        }
        let before = std::fs::read(&path).unwrap();
        let err = Store::open(&path).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "database schema version 99 is newer than this citestore (knows {}); upgrade citestore",
                MIGRATIONS.len()
            )),
            "{err}"
        );
        assert!(err.contains("s.db"), "{err}");
        drop(Store::open(&path).unwrap_err());
        let conn = Connection::open(&path).unwrap();
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))
            .unwrap();
        assert_eq!(tables, 0);
        drop(conn);
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn foreign_keys_are_enforced() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.db")).unwrap();
        let err = store.conn.execute(
            "INSERT INTO chunkings (revision_id, spec, created_at) VALUES (42, 'x', 'now')",
            [],
        );
        assert!(err.is_err());
    }
}
