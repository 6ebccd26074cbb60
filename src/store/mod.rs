//! The store: SQLite, opened only here, the only module that knows SQL.
//!
//! Invariants:
//! - A file is judged before anything is written to it: not SQLite, a newer schema, or another
//!   program's tables (unless `init --force`) are refused untouched; commands that only read use
//!   [`Store::open_read`], which never creates, migrates or writes, and also refuses an empty
//!   file and an older schema (a write command upgrades it).
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
mod report;
mod snapshot;
mod sources;
mod sweeps;
mod verifications;

/// A chunk to add (its `ord` is its place in the slice given).
pub use crate::model::NewChunk;
pub use chunkings::TextOrigin;
pub use citations::{CitationIds, StoredChunk};
pub use documents::NewRevision;
pub use report::{ChangeSelection, ChangedCitation, SpanState};
pub use snapshot::Snapshot;
pub use sources::NewExtraction;
pub use sweeps::{
    AnchorRow, AnchoringBasis, CitationRecord, CitationState, NewAnchor, StoredApiLocation,
    SweepRow, VerificationRow,
};

use crate::error::{Error, Result};
use crate::model::DocumentSummary;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior};
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
    (
        "0005_sources",
        include_str!("../../migrations/0005_sources.sql"),
    ),
    (
        "0006_caller_chunks",
        include_str!("../../migrations/0006_caller_chunks.sql"),
    ),
    (
        "0007_shapes",
        include_str!("../../migrations/0007_shapes.sql"),
    ),
];

/// An open database.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// What a database file holds, judged before anything is written to it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Holds {
    /// Nothing yet: a 0-byte file, or SQLite with no tables and `user_version` 0.
    Nothing,
    /// citestore's schema, at this `user_version`.
    Citestore(usize),
    /// Tables of another program (their names).
    Foreign(Vec<String>),
}

/// Which files a read-write open may change, by the command's purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// `init`, `ingest`: create the file or migrate it; never adopt another program's file.
    Create,
    /// `init --force`: like `Create`, and add citestore's tables beside another program's.
    Adopt,
    /// Write commands on a store that must exist: only a citestore database (migrated).
    Existing,
}

impl Store {
    /// Opens (creating when missing) the database at `path`: pragmas, then migrations. A SQLite
    /// file of another program is refused untouched.
    pub fn open(path: &Path) -> Result<Store> {
        Store::open_for(path, Purpose::Create)
    }

    /// Like [`Store::open`], but also adds citestore's tables to a SQLite file that holds another
    /// program's tables (`citestore init --force`).
    pub fn adopt(path: &Path) -> Result<Store> {
        Store::open_for(path, Purpose::Adopt)
    }

    /// Opens a citestore database that must already exist, for a command that writes: an older
    /// schema is migrated; a missing, empty or foreign file is refused untouched.
    pub fn open_existing(path: &Path) -> Result<Store> {
        if !path.exists() {
            return Err(Error::NoDatabase {
                path: path.to_path_buf(),
            });
        }
        Store::open_for(path, Purpose::Existing)
    }

    /// Opens an existing citestore database for a command that only reads. Nothing is created,
    /// migrated or written (`query_only`); a read-only file or mount is opened read-only. A
    /// missing, empty or foreign file, a newer schema and an older one are refused untouched.
    pub fn open_read(path: &Path) -> Result<Store> {
        if !path.exists() {
            return Err(Error::NoDatabase {
                path: path.to_path_buf(),
            });
        }
        let conn = Store::connect_for_reading(path).map_err(|e| classify(path, e))?;
        let store = Store::connected(conn, path)?;
        let found = store.schema_version()?;
        if found > MIGRATIONS.len() {
            return Err(store.too_new(found));
        }
        match store.holds()? {
            Holds::Citestore(found) if found < MIGRATIONS.len() => Err(Error::SchemaTooOld {
                path: path.to_path_buf(),
                found,
                known: MIGRATIONS.len(),
            }),
            Holds::Citestore(_) => {
                store
                    .conn
                    .pragma_update(None, "query_only", true)
                    .map_err(|e| classify(path, e))?;
                Ok(store)
            }
            Holds::Nothing => Err(not_citestore(path, &[])),
            Holds::Foreign(tables) => Err(not_citestore(path, &tables)),
        }
    }

    /// The connection of [`Store::open_read`]. A read-write connection (when the file allows
    /// it) deletes the -wal and -shm it needed when it closes; a read-only one would leave them
    /// behind. A file its owner marked read-only is never written by citestore, so when it has
    /// no -wal (no pending writes) it is opened `immutable` and no file appears beside it;
    /// otherwise read-only, reading the -wal.
    fn connect_for_reading(path: &Path) -> rusqlite::Result<Connection> {
        let flags = OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let read_only = std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly());
        if !read_only {
            return Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_READ_WRITE);
        }
        let flags = flags | OpenFlags::SQLITE_OPEN_READ_ONLY;
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        if Path::new(&wal).exists() {
            return Connection::open_with_flags(path, flags);
        }
        Connection::open_with_flags(format!("{}?immutable=1", file_uri(path)), flags)
    }

    fn open_for(path: &Path, purpose: Purpose) -> Result<Store> {
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
        let mut store = Store::connected(conn, path)?;
        // Read before any pragma writes: a file that is not SQLite, not ours, or a schema from a
        // newer citestore, is refused with the file exactly as it was.
        let found = store.schema_version()?;
        if found > MIGRATIONS.len() {
            return Err(store.too_new(found));
        }
        match (store.holds()?, purpose) {
            (Holds::Nothing, Purpose::Existing) => return Err(not_citestore(path, &[])),
            (Holds::Foreign(tables), Purpose::Create | Purpose::Existing) => {
                return Err(not_citestore(path, &tables))
            }
            _ => {}
        }
        store.configure().map_err(|e| classify(path, e))?;
        store.migrate()?;
        Ok(store)
    }

    fn connected(conn: Connection, path: &Path) -> Result<Store> {
        let store = Store {
            conn,
            path: path.to_path_buf(),
        };
        store
            .conn
            .busy_timeout(Duration::from_millis(5000))
            .map_err(|e| classify(path, e))?;
        Ok(store)
    }

    /// What the file holds, by its tables: citestore's are `documents` and `revisions`.
    fn holds(&self) -> Result<Holds> {
        let db = |e| classify(&self.path, e);
        let tables: Vec<String> = self
            .conn
            .prepare(
                "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') \
                 AND name NOT LIKE 'sqlite_%' ORDER BY name",
            )
            .map_err(db)?
            .query_map([], |row| row.get(0))
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?;
        let version = self.schema_version()?;
        let ours = ["documents", "revisions"]
            .iter()
            .all(|t| tables.iter().any(|name| name == t));
        Ok(if ours && version >= 1 {
            Holds::Citestore(version)
        } else if tables.is_empty() && version == 0 {
            Holds::Nothing
        } else {
            Holds::Foreign(tables)
        })
    }

    /// True when document `doc_id` is in the store.
    pub fn has_document(&self, doc_id: &str) -> Result<bool> {
        self.conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM documents WHERE doc_id = ?1)",
                [doc_id],
                |row| row.get(0),
            )
            .map_err(|e| classify(&self.path, e))
    }

    /// Fails with [`Error::UnknownDocument`] unless `doc_id` is in the store.
    pub fn require_document(&self, doc_id: &str) -> Result<()> {
        if self.has_document(doc_id)? {
            Ok(())
        } else {
            Err(Error::UnknownDocument {
                doc_id: doc_id.to_string(),
            })
        }
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

/// `path` as an SQLite `file:` URI (bytes other than unreserved ones and `/` percent-encoded).
fn file_uri(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut uri = String::from("file:");
    for &byte in absolute.as_os_str().as_encoded_bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

/// The refusal of a file that is not a citestore database; `tables` are another program's.
fn not_citestore(path: &Path, tables: &[String]) -> Error {
    const SHOWN: usize = 5;
    let (held, todo) = if tables.is_empty() {
        (
            String::new(),
            "run `citestore init` or name the right --db".to_string(),
        )
    } else {
        let mut names = tables[..tables.len().min(SHOWN)].join(", ");
        if tables.len() > SHOWN {
            names.push_str(&format!(" and {} more", tables.len() - SHOWN));
        }
        (
            format!("; it holds another program's tables: {names}"),
            "name the right --db, or run `citestore init --force` to add citestore's tables to it"
                .to_string(),
        )
    };
    Error::NotCitestore {
        path: path.to_path_buf(),
        held,
        todo,
    }
}

/// A database file a command is about to create. Unless [`NewDatabase::keep`] is called,
/// dropping it removes the file and its `-wal`, `-shm` and `-journal` again, so a failed command
/// leaves no new file behind. It never removes a file that existed when it was made, nor one in
/// which another process has meanwhile stored documents.
///
/// Declare it before the [`Store`] it guards, so the store's connection closes first.
#[derive(Debug)]
pub struct NewDatabase {
    created: Option<PathBuf>,
}

impl NewDatabase {
    /// Watches `path`: armed only when nothing is there yet.
    pub fn watch(path: &Path) -> NewDatabase {
        let absent = matches!(
            std::fs::symlink_metadata(path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound
        );
        NewDatabase {
            created: absent.then(|| path.to_path_buf()),
        }
    }

    /// The command succeeded: keep the file.
    pub fn keep(mut self) {
        self.created = None;
    }
}

impl Drop for NewDatabase {
    fn drop(&mut self) {
        let Some(path) = self.created.take() else {
            return;
        };
        if holds_documents(&path) {
            return;
        }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut name = path.clone().into_os_string();
            name.push(suffix);
            // Best effort: a file that is not there is what we want.
            let _ = std::fs::remove_file(PathBuf::from(name));
        }
    }
}

/// True when `path` is a database with at least one committed document.
fn holds_documents(path: &Path) -> bool {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let Ok(conn) = Connection::open_with_flags(path, flags) else {
        return false;
    };
    conn.query_row("SELECT EXISTS (SELECT 1 FROM documents)", [], |row| {
        row.get::<_, bool>(0)
    })
    .unwrap_or(false)
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
                "normaliser",
                "caller_id"
            ]
        );
        // 0006: where a document's text comes from.
        assert_eq!(
            columns("text_origins"),
            ["id", "document_id", "origin", "created_at"]
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
    fn a_new_database_is_removed_unless_kept_or_filled_by_another() {
        let dir = tempfile::tempdir().unwrap();
        let files = || {
            let mut names: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        // (kept, another process commits a document meanwhile, files left)
        let cases = [
            (false, false, vec![]),
            (true, false, vec!["s.db"]),
            (false, true, vec!["s.db"]),
        ];
        for (kept, filled, left) in cases {
            let path = dir.path().join("s.db");
            let guard = NewDatabase::watch(&path);
            let store = Store::open(&path).unwrap();
            if filled {
                let mut other = Store::open(&path).unwrap();
                let writer = other.writer().unwrap();
                writer.insert_document("d", "d", "text", "now").unwrap();
                writer.commit().unwrap();
            }
            drop(store);
            if kept {
                guard.keep();
            } else {
                drop(guard);
            }
            assert_eq!(files(), left, "kept {kept}, filled {filled}");
            let _ = std::fs::remove_file(&path);
        }
        // A file that was there before is never removed.
        let path = dir.path().join("s.db");
        std::fs::write(&path, b"").unwrap();
        drop(NewDatabase::watch(&path));
        assert_eq!(files(), ["s.db"]);
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
