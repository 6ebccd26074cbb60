//! The store: SQLite (the embedded default) or PostgreSQL (the shared store), opened only here;
//! the only module that knows SQL. The rest of the crate talks to [`Store`], [`Writer`] and
//! [`Snapshot`]; the backend is chosen by the database name: a `postgres://` or
//! `postgresql://` URL is PostgreSQL, anything else a SQLite file. Queries are written once
//! (see [`db`]); what differs per backend is in `db.rs` and in the `*_sqlite`/`*_postgres`
//! functions here.
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
//!   a comment saying why. PostgreSQL applies the same list, each translated by
//!   [`postgres_ddl`] (or replaced by its entry in [`POSTGRES_MIGRATIONS`] where the dialects
//!   differ more), in one transaction per migration under an advisory lock, its version kept
//!   in the one-row table `citestore_schema`; a newer version is refused like SQLite's.
//! - PostgreSQL writers run in read committed transactions: idempotent inserts use the
//!   database's unique constraints (`ON CONFLICT DO NOTHING`), and each sweep step holds its
//!   document's advisory lock ([`Writer::lock_document`]), so concurrent `cite`s and sweep
//!   shards never lose or duplicate a row.

mod chunkings;
mod citations;
mod copy;
pub(crate) mod db;
mod documents;
mod location;
mod report;
mod snapshot;
mod sources;
mod sweeps;
mod verifications;

/// A chunk to add (its `ord` is its place in the slice given).
pub use crate::model::NewChunk;
pub use chunkings::TextOrigin;
pub use citations::{CitationIds, StoredChunk};
pub use copy::CopyReport;
pub use documents::NewRevision;
pub use location::{is_postgres, Location};
pub use report::{ChangeSelection, ChangedCitation, SpanState};
pub use snapshot::Snapshot;
pub use sources::NewExtraction;
pub use sweeps::{
    AnchorRow, AnchoringBasis, CitationRecord, CitationState, NewAnchor, StaleCitations,
    StoredApiLocation, SweepRow, SweepShard, VerificationRow,
};

use crate::error::{Error, Result};
use crate::model::DocumentSummary;
pub use db::optional;
use db::{args, Backend, Begin, Conn, DbError, DbResult};
use rusqlite::{Connection, ErrorCode, OpenFlags};
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
    (
        "0008_shards",
        include_str!("../../migrations/0008_shards.sql"),
    ),
    (
        "0009_sweep_writes",
        include_str!("../../migrations/0009_sweep_writes.sql"),
    ),
    (
        "0010_finish_order",
        include_str!("../../migrations/0010_finish_order.sql"),
    ),
];

/// Migrations whose PostgreSQL text is not [`postgres_ddl`] of the shared one: (name, SQL).
pub const POSTGRES_MIGRATIONS: &[(&str, &str)] = &[];

/// An open database.
#[derive(Debug)]
pub struct Store {
    conn: Conn,
    location: Location,
    /// What errors name: the file, or the URL without its password ([`Location::shown`]).
    path: PathBuf,
}

/// A URL with its password (if any) replaced by `***`, for messages.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{name}:***@{host}"),
            None => authority.to_string(),
        },
        None => authority.to_string(),
    };
    format!("{scheme}://{authority}{}", redact_query(tail))
}

/// `tail` (a URL's path and query) with the value of every `password=` (any case, and
/// `sslpassword=`) replaced by `***`.
fn redact_query(tail: &str) -> String {
    const KEY: &str = "password=";
    let mut out = String::with_capacity(tail.len());
    let mut rest = tail;
    while let Some(i) = rest.to_ascii_lowercase().find(KEY) {
        let value = i + KEY.len();
        let end = rest[value..].find('&').map_or(rest.len(), |e| value + e);
        out.push_str(&rest[..value]);
        out.push_str("***");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
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
    pub fn open(location: &Location) -> Result<Store> {
        Store::open_for(location, Purpose::Create)
    }

    /// Like [`Store::open`], but also adds citestore's tables to a SQLite file that holds another
    /// program's tables (`citestore init --force`).
    pub fn adopt(location: &Location) -> Result<Store> {
        Store::open_for(location, Purpose::Adopt)
    }

    /// Opens a citestore database that must already exist, for a command that writes: an older
    /// schema is migrated; a missing, empty or foreign file is refused untouched.
    pub fn open_existing(location: &Location) -> Result<Store> {
        let path = match location {
            Location::Postgres(url) => return Store::open_postgres(url, Purpose::Existing),
            Location::Sqlite(path) => path,
        };
        if !path.exists() {
            return Err(Error::NoDatabase {
                path: path.to_path_buf(),
            });
        }
        Store::open_for(location, Purpose::Existing)
    }

    /// Opens an existing citestore database for a command that only reads. Nothing is created,
    /// migrated or written (`query_only`); a read-only file or mount is opened read-only. A
    /// missing, empty or foreign file, a newer schema and an older one are refused untouched.
    pub fn open_read(location: &Location) -> Result<Store> {
        let path = match location {
            Location::Postgres(url) => return Store::open_postgres_read(url),
            Location::Sqlite(path) => path,
        };
        if !path.exists() {
            return Err(Error::NoDatabase {
                path: path.to_path_buf(),
            });
        }
        let conn = Store::connect_for_reading(path)?;
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
                    .sqlite()
                    .pragma_update(None, "query_only", true)
                    .map_err(|e| classify_sqlite(path, e))?;
                Ok(store)
            }
            Holds::Nothing => Err(not_citestore(path, &[])),
            Holds::Foreign(tables) => Err(not_citestore(path, &tables)),
        }
    }

    /// The connection of [`Store::open_read`]. Where the file and its folder may be written,
    /// a read-write connection (it deletes the -wal and -shm it needed when it closes; a
    /// read-only one would leave them behind). Where they may not (a file its owner marked
    /// read-only, which citestore never writes; a read-only mount; a folder this user may not
    /// write, where SQLite cannot make its -shm), a database whose -wal holds no writes is
    /// opened `immutable` (nothing to replay, no file made beside it); one whose -wal holds
    /// writes is opened read-only, and refused with what to do when SQLite cannot read it so.
    fn connect_for_reading(path: &Path) -> Result<Connection> {
        let flags = OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let marked = std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly());
        let unwritable = unwritable(path);
        if !marked && unwritable.is_none() {
            return Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_READ_WRITE)
                .map_err(|e| classify_sqlite(path, e));
        }
        let flags = flags | OpenFlags::SQLITE_OPEN_READ_ONLY;
        let wal = companion(path, "-wal");
        if std::fs::metadata(&wal).map_or(0, |m| m.len()) == 0 {
            return Connection::open_with_flags(format!("{}?immutable=1", file_uri(path)), flags)
                .map_err(|e| classify_sqlite(path, e));
        }
        let refuse = || Error::UnappliedWal {
            path: path.to_path_buf(),
            wal: wal.clone(),
            why: unwritable.as_ref().map_or_else(
                || "the file is marked read-only".to_string(),
                |u| u.why.clone(),
            ),
        };
        let conn =
            Connection::open_with_flags(path, flags).map_err(|e| match e.sqlite_error_code() {
                Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly) => refuse(),
                _ => classify_sqlite(path, e),
            })?;
        // SQLite opens lazily: the first read is where a -wal it cannot replay shows.
        match conn.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(())) {
            Ok(()) => Ok(conn),
            Err(e)
                if matches!(
                    e.sqlite_error_code(),
                    Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly)
                ) =>
            {
                Err(refuse())
            }
            Err(e) => Err(classify_sqlite(path, e)),
        }
    }

    fn open_for(location: &Location, purpose: Purpose) -> Result<Store> {
        let path = match location {
            Location::Postgres(url) => return Store::open_postgres(url, purpose),
            Location::Sqlite(path) => path,
        };
        if let Ok(meta) = std::fs::metadata(path) {
            // Checked by hand because root can write a read-only file, and a store must not
            // quietly write what its owner marked read-only.
            if meta.permissions().readonly() {
                return Err(Error::ReadOnlyDatabase {
                    path: path.to_path_buf(),
                });
            }
        }
        if let Some(Unwritable { why, todo }) = unwritable(path) {
            return Err(Error::ReadOnlyLocation {
                path: path.to_path_buf(),
                why,
                todo,
            });
        }
        let conn = Connection::open(path).map_err(|e| classify_sqlite(path, e))?;
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
        store.configure().map_err(|e| classify_sqlite(path, e))?;
        store.migrate()?;
        Ok(store)
    }

    fn connected(conn: Connection, path: &Path) -> Result<Store> {
        conn.busy_timeout(Duration::from_millis(5000))
            .map_err(|e| classify_sqlite(path, e))?;
        conn.set_prepared_statement_cache_capacity(64);
        Ok(Store {
            conn: Conn::Sqlite(conn),
            location: Location::Sqlite(path.to_path_buf()),
            path: path.to_path_buf(),
        })
    }

    /// The SQLite connection; only called on paths that opened one.
    fn sqlite(&self) -> &Connection {
        self.conn
            .sqlite()
            .expect("a SQLite-only step runs on a SQLite store")
    }

    /// Connects to the PostgreSQL database named by `url`; `sslmode=require` needs the `tls`
    /// feature.
    fn connect_postgres(url: &str) -> Result<Store> {
        let text = url;
        let location = Location::Postgres(url.to_string());
        let shown = location.shown();
        let config: postgres::Config =
            location::lower_scheme(text)
                .parse()
                .map_err(|e: postgres::Error| Error::CannotConnect {
                    url: redact(text),
                    message: e.to_string(),
                })?;
        let client = connect_with_tls(&config).map_err(|refusal| match refusal {
            Refusal::Client(e) => connect_refusal(&redact(text), &config, e),
            Refusal::Setup(message) => Error::CannotConnect {
                url: redact(text),
                message,
            },
        })?;
        let store = Store {
            conn: Conn::postgres(client),
            location,
            path: shown,
        };
        // Warnings (e.g. "there is no transaction in progress") are not the user's business.
        store
            .conn
            .batch("SET client_min_messages = error")
            .map_err(|e| classify(&store.path, e))?;
        Ok(store)
    }

    fn open_postgres(url: &str, purpose: Purpose) -> Result<Store> {
        let mut store = Store::connect_postgres(url)?;
        let found = store.schema_version()?;
        if found > MIGRATIONS.len() {
            return Err(store.too_new(found));
        }
        match (store.holds()?, purpose) {
            (Holds::Nothing, Purpose::Existing) => return Err(not_citestore(&store.path, &[])),
            (Holds::Foreign(tables), Purpose::Create | Purpose::Existing) => {
                return Err(not_citestore(&store.path, &tables))
            }
            _ => {}
        }
        store.migrate()?;
        Ok(store)
    }

    fn open_postgres_read(url: &str) -> Result<Store> {
        let store = Store::connect_postgres(url)?;
        let found = store.schema_version()?;
        if found > MIGRATIONS.len() {
            return Err(store.too_new(found));
        }
        match store.holds()? {
            Holds::Citestore(found) if found < MIGRATIONS.len() => Err(Error::SchemaTooOld {
                path: store.path.clone(),
                found,
                known: MIGRATIONS.len(),
            }),
            Holds::Citestore(_) => {
                store
                    .conn
                    .batch("SET default_transaction_read_only = on")
                    .map_err(|e| classify(&store.path, e))?;
                Ok(store)
            }
            Holds::Nothing => Err(not_citestore(&store.path, &[])),
            Holds::Foreign(tables) => Err(not_citestore(&store.path, &tables)),
        }
    }

    /// From now on this connection's commits need not wait for the disk: for work that is
    /// redone after a crash (a sweep's documents). PostgreSQL: `synchronous_commit = off` for
    /// this session (a server crash may lose the last commits, never half of one); SQLite
    /// already commits this way (WAL, `synchronous=NORMAL`), and is set for many transactions
    /// (`SWEEP_PRAGMAS`).
    pub fn redoable_writes(&self) -> Result<()> {
        if self.conn.backend() == Backend::Postgres {
            self.conn
                .batch("SET synchronous_commit = off")
                .map_err(|e| classify(&self.path, e))?;
        }
        if self.conn.backend() == Backend::Sqlite {
            self.conn
                .batch(SWEEP_PRAGMAS)
                .map_err(|e| classify(&self.path, e))?;
        }
        Ok(())
    }

    /// Fails with [`Error::Corrupt`] unless SQLite's `quick_check` finds every page of the
    /// database readable and well formed (a sweep reads only what changed, so a damaged page
    /// could otherwise go unseen while it writes). A PostgreSQL server checks its own pages
    /// as it reads them; its reports of damage become [`Error::Corrupt`] too.
    pub fn check_integrity(&self) -> Result<()> {
        let Some(conn) = self.conn.sqlite() else {
            return Ok(());
        };
        let first: String = conn
            .query_row("PRAGMA quick_check(1)", [], |row| row.get(0))
            .map_err(|e| classify_sqlite(&self.path, e))?;
        if first == "ok" {
            return Ok(());
        }
        Err(Error::Corrupt {
            path: self.path.clone(),
            detail: format!(
                "integrity check: {}",
                one_line(first.trim_start_matches("*** in database main ***"))
            ),
        })
    }

    /// Which backend this store is on.
    pub fn backend_name(&self) -> &'static str {
        match self.conn.backend() {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }

    /// What the file holds, by its tables: citestore's are `documents` and `revisions`.
    fn holds(&self) -> Result<Holds> {
        let db = |e| classify(&self.path, e);
        let sql = match self.conn.backend() {
            Backend::Sqlite => {
                "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') \
                 AND name NOT LIKE 'sqlite_%' ORDER BY name"
            }
            Backend::Postgres => {
                "SELECT table_name::text FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_name <> 'citestore_schema' \
                 ORDER BY table_name COLLATE \"C\""
            }
        };
        let tables: Vec<String> = self
            .conn
            .query_map(sql, args![], |row| row.get(0))
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
                args![doc_id],
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

    /// Where the store is.
    pub fn location(&self) -> &Location {
        &self.location
    }

    fn configure(&self) -> rusqlite::Result<()> {
        let conn = self.sqlite();
        let mode: String =
            conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))?;
        debug_assert_eq!(mode.to_ascii_lowercase(), "wal");
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(())
    }

    /// The schema version recorded in the file.
    pub fn schema_version(&self) -> Result<usize> {
        version_of(&self.conn).map_err(|e| classify(&self.path, e))
    }

    fn migrate(&mut self) -> Result<()> {
        let known = MIGRATIONS.len();
        if self.schema_version()? == known {
            return Ok(());
        }
        let path = self.path.clone();
        let db = |e| classify(&path, e);
        self.conn.begin(Begin::Write).map_err(db)?;
        let applied = self.apply_migrations(known);
        let ended = self.conn.end(applied.is_ok());
        applied?;
        ended.map_err(db)
    }

    /// Applies the migrations the store lacks, inside the open write transaction.
    fn apply_migrations(&self, known: usize) -> Result<()> {
        let db = |e| classify(&self.path, e);
        if self.conn.backend() == Backend::Postgres {
            // One migrator at a time; the others wait here, then find nothing left to do.
            self.conn
                .batch(&format!(
                    "SELECT pg_advisory_xact_lock({MIGRATION_LOCK}); \
                     CREATE TABLE IF NOT EXISTS citestore_schema (version BIGINT NOT NULL); \
                     INSERT INTO citestore_schema (version) SELECT 0 \
                     WHERE NOT EXISTS (SELECT 1 FROM citestore_schema)"
                ))
                .map_err(db)?;
        }
        // Another process may have migrated while we waited for the lock.
        let found = version_of(&self.conn).map_err(db)?;
        if found > known {
            return Err(Error::SchemaTooNew {
                path: self.path.clone(),
                found,
                known,
            });
        }
        for (applied, (name, sql)) in MIGRATIONS.iter().enumerate().skip(found) {
            let version = applied + 1;
            match self.conn.backend() {
                Backend::Sqlite => {
                    self.conn.batch(sql).map_err(db)?;
                    self.sqlite()
                        .pragma_update(None, "user_version", version as i64)
                        .map_err(|e| classify_sqlite(&self.path, e))?;
                }
                Backend::Postgres => {
                    self.conn
                        .batch(&postgres_migration(name, sql))
                        .map_err(db)?;
                    self.conn
                        .execute("UPDATE citestore_schema SET version = ?1", args![version])
                        .map_err(db)?;
                }
            }
        }
        Ok(())
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
        self.conn
            .begin(Begin::Write)
            .map_err(|e| classify(&self.path, e))?;
        Ok(Writer {
            tx: &self.conn,
            path: &self.path,
            open: true,
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
        let (tables, columns) = match self.conn.backend() {
            Backend::Sqlite => (
                "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name",
                "SELECT name FROM pragma_table_info(?1) ORDER BY cid",
            ),
            Backend::Postgres => (
                "SELECT table_name::text FROM information_schema.tables \
                 WHERE table_schema = current_schema() ORDER BY table_name COLLATE \"C\"",
                "SELECT column_name::text FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = ?1 \
                 ORDER BY ordinal_position",
            ),
        };
        let names: Vec<String> = self
            .conn
            .query_map(tables, args![], |row| row.get(0))
            .map_err(db)?;
        names
            .into_iter()
            .map(|name| {
                let cols = self
                    .conn
                    .query_map(columns, args![name], |row| row.get(0))
                    .map_err(db)?;
                Ok((name, cols))
            })
            .collect()
    }
}

/// A SQLite connection that writes thousands of transactions (a sweep): statement journals in
/// memory (they were spilled to temporary files: hundreds of MB written for nothing); a page
/// cache of 8 MiB instead of 2 (fewer pages read again); and the WAL checkpointed every
/// 64 MiB instead of 4 (each checkpoint waits for the disk twice; pages changed again before
/// the next one are written to the database file once).
const SWEEP_PRAGMAS: &str =
    "PRAGMA temp_store = MEMORY; PRAGMA cache_size = -8192; PRAGMA wal_autocheckpoint = 16384";

/// The key of the advisory lock PostgreSQL migrations run under ("citestor" in ASCII).
const MIGRATION_LOCK: i64 = 0x6369_7465_7374_6f72;

/// The key of the advisory lock a finishing sweep takes its finish order under ("finished").
const FINISH_LOCK: i64 = 0x6669_6e69_7368_6564;

/// The schema version: SQLite's `user_version`, PostgreSQL's `citestore_schema` (0 without it).
fn version_of(conn: &Conn) -> DbResult<usize> {
    let version: i64 = match conn {
        Conn::Sqlite(c) => c.pragma_query_value(None, "user_version", |row| row.get(0))?,
        Conn::Postgres(_) => {
            let exists: bool = conn.query_row(
                "SELECT to_regclass('citestore_schema') IS NOT NULL",
                args![],
                |row| row.get(0),
            )?;
            if !exists {
                return Ok(0);
            }
            conn.query_row(
                "SELECT COALESCE(MAX(version), 0) FROM citestore_schema",
                args![],
                |row| row.get(0),
            )?
        }
    };
    Ok(version as usize)
}

/// The PostgreSQL text of migration `name`: its entry in [`POSTGRES_MIGRATIONS`], else
/// [`postgres_ddl`] of the shared text.
fn postgres_migration(name: &str, sql: &str) -> String {
    POSTGRES_MIGRATIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or_else(|| postgres_ddl(sql), |(_, pg)| pg.to_string())
}

/// SQLite DDL as PostgreSQL DDL: the type names written in capitals become PostgreSQL's
/// (`INTEGER PRIMARY KEY` an identity column, `INTEGER` BIGINT, `REAL` DOUBLE PRECISION, `TEXT`
/// TEXT in the "C" collation so text orders by code point as in SQLite). Everything else in
/// the shared migrations is already standard SQL.
pub fn postgres_ddl(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + sql.len() / 4);
    let mut rest = sql;
    while !rest.is_empty() {
        let word_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if word_len == 0 {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let word = &rest[..word_len];
        rest = &rest[word_len..];
        match word {
            "INTEGER" if rest.starts_with(" PRIMARY KEY") => {
                out.push_str("BIGINT GENERATED BY DEFAULT AS IDENTITY");
            }
            "INTEGER" => out.push_str("BIGINT"),
            "REAL" => out.push_str("DOUBLE PRECISION"),
            "TEXT" => out.push_str("TEXT COLLATE \"C\""),
            other => out.push_str(other),
        }
    }
    out
}

/// Why no client was made: the server or network refused (`Client`), or this build cannot
/// make the connection asked for (`Setup`).
enum Refusal {
    Client(postgres::Error),
    Setup(String),
}

/// The client of `config`, over TLS when its `sslmode` asks for it (the `tls` feature).
fn connect_with_tls(config: &postgres::Config) -> std::result::Result<postgres::Client, Refusal> {
    #[cfg(feature = "tls")]
    if config.get_ssl_mode() != postgres::config::SslMode::Disable {
        let roots =
            rustls::RootCertStore::from_iter(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        let tls = rustls::ClientConfig::builder()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let tls = tokio_postgres_rustls::MakeRustlsConnect::new(tls);
        return config.connect(tls).map_err(Refusal::Client);
    }
    #[cfg(not(feature = "tls"))]
    if config.get_ssl_mode() == postgres::config::SslMode::Require {
        return Err(Refusal::Setup(
            "sslmode=require needs TLS: build citestore with `--features tls`".to_string(),
        ));
    }
    config.connect(postgres::NoTls).map_err(Refusal::Client)
}

/// What a failed connection means for the user, in one line: the server's own message (never
/// its DETAIL lines) and what to do about it.
fn connect_refusal(url: &str, config: &postgres::Config, err: postgres::Error) -> Error {
    use postgres::error::SqlState;
    let refused = |problem: String, todo: &str| Error::PostgresRefused {
        url: url.to_string(),
        problem,
        todo: todo.to_string(),
    };
    let Some(db) = err.as_db_error() else {
        let cause = one_line(&error_chain(&err));
        return refused(
            format!("no server answers at {} ({cause})", server_address(config)),
            "start the server, or correct the host and port in the URL",
        );
    };
    let problem = one_line(db.message());
    let code = db.code();
    let todo = if *code == SqlState::UNDEFINED_DATABASE {
        "create it (`createdb NAME`, or CREATE DATABASE as its owner), or correct the database \
         name in the URL"
    } else if *code == SqlState::INVALID_PASSWORD {
        "check the user and password in the URL (or PGPASSWORD, ~/.pgpass)"
    } else if *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION {
        "check the user in the URL, and that the server's pg_hba.conf lets it log in from here"
    } else if *code == SqlState::INSUFFICIENT_PRIVILEGE {
        "ask the database's owner to GRANT CONNECT ON DATABASE to this role, or use a role that \
         may connect"
    } else if *code == SqlState::TOO_MANY_CONNECTIONS {
        "wait for other clients to finish, or raise the server's max_connections"
    } else if *code == SqlState::CANNOT_CONNECT_NOW {
        "the server is starting or stopping: try again in a moment"
    } else {
        "check the URL, that the server is running and that the user may log in"
    };
    refused(problem, todo)
}

/// Where `config` connects: `host:port`, or the socket folder.
fn server_address(config: &postgres::Config) -> String {
    use postgres::config::Host;
    let port = config.get_ports().first().copied().unwrap_or(5432);
    match config.get_hosts().first() {
        Some(Host::Tcp(host)) => format!("{host}:{port}"),
        Some(Host::Unix(dir)) => format!("{}/.s.PGSQL.{port}", dir.display()),
        None => format!("localhost:{port}"),
    }
}

/// An error and its causes, joined by `: `.
fn error_chain(err: &dyn std::error::Error) -> String {
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        message = format!("{message}: {cause}");
        source = cause.source();
    }
    message
}

/// `text` on one line (a server's message may hold line breaks).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The write transaction of one command; dropped without [`Writer::commit`], it rolls back.
pub struct Writer<'a> {
    tx: &'a Conn,
    path: &'a Path,
    open: bool,
}

impl Writer<'_> {
    /// Makes every write of this transaction durable.
    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        self.tx.end(true).map_err(|e| classify(self.path, e))
    }

    fn db(&self) -> impl Fn(DbError) -> Error + '_ {
        move |e| classify(self.path, e)
    }

    /// Holds document `doc_id` for the rest of this transaction: another writer of the same
    /// document (a sweep shard, an ingest) waits. SQLite's writers are already one at a time.
    pub fn lock_document(&self, doc_id: &str) -> Result<()> {
        if self.tx.backend() == Backend::Postgres {
            self.tx
                .execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended(?1, 0))",
                    args![doc_id],
                )
                .map_err(self.db())?;
        }
        Ok(())
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        if self.open {
            // Best effort: a transaction the server already ended has nothing to roll back.
            let _ = self.tx.end(false);
        }
    }
}

/// Why a SQLite database cannot be written where it is, and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Unwritable {
    why: String,
    todo: String,
}

/// Why this process may not write the database at `path` (or create it there): its mount is
/// read-only, or this user may not write the file or its folder (SQLite makes its -wal and
/// -shm there); `None` when it may, or when the folder does not exist (opening says so). Asked
/// of the kernel (`statvfs`, `faccessat` with the effective ids), so root, who may write any
/// folder of a read-write mount, is told only of a read-only mount.
fn unwritable(path: &Path) -> Option<Unwritable> {
    use std::os::unix::ffi::OsStrExt as _;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let c_folder = std::ffi::CString::new(folder.as_os_str().as_bytes()).ok()?;
    let c_file = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let may_write = |c: &std::ffi::CStr| {
        // SAFETY: `c` is a valid NUL-terminated path; faccessat only reads it.
        unsafe { libc::faccessat(libc::AT_FDCWD, c.as_ptr(), libc::W_OK, libc::AT_EACCESS) == 0 }
    };
    let copy = "or copy the database (with any -wal beside it) to a place you may write and \
                choose it with --db";
    // SAFETY: statvfs fills the zeroed struct it is given; `c_folder` is NUL-terminated.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c_folder.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    if stat.f_flag & libc::ST_RDONLY != 0 {
        return Some(Unwritable {
            why: format!("{} is on a read-only mount", folder.display()),
            todo: format!("remount it read-write (mount -o remount,rw), {copy}"),
        });
    }
    if path.exists() && !may_write(&c_file) {
        return Some(Unwritable {
            why: "this user may not write the file".to_string(),
            todo: format!("ask its owner for write access, {copy}"),
        });
    }
    if !may_write(&c_folder) {
        return Some(Unwritable {
            why: format!(
                "this user may not write its folder {}, where SQLite keeps the -wal and -shm",
                folder.display()
            ),
            todo: format!("ask the folder's owner for write access, {copy}"),
        });
    }
    None
}

/// `path` with `suffix` appended (`-wal`, `-shm`, `-journal`).
fn companion(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
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
    pub fn watch(location: &Location) -> NewDatabase {
        let Location::Sqlite(path) = location else {
            // A server's database is never a new file; its writes are one transaction.
            return NewDatabase { created: None };
        };
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

/// Turns an error of either backend into the error a user can act on.
fn classify(path: &Path, err: DbError) -> Error {
    match err {
        DbError::Sqlite(e) => classify_sqlite(path, e),
        DbError::Postgres(e) => classify_postgres(path, e),
        other => Error::Database {
            path: path.to_path_buf(),
            message: other.to_string(),
        },
    }
}

/// A PostgreSQL error as the error a user can act on.
fn classify_postgres(path: &Path, err: postgres::Error) -> Error {
    use postgres::error::SqlState;
    let path = path.to_path_buf();
    match err.code() {
        Some(c)
            if *c == SqlState::T_R_SERIALIZATION_FAILURE
                || *c == SqlState::T_R_DEADLOCK_DETECTED
                || *c == SqlState::LOCK_NOT_AVAILABLE =>
        {
            Error::Busy { path }
        }
        Some(c) if *c == SqlState::READ_ONLY_SQL_TRANSACTION => Error::PostgresRefused {
            url: path.to_string_lossy().into_owned(),
            problem: one_line(&DbError::Postgres(err).to_string()),
            todo: "the server or database takes no writes (a standby, or \
                   default_transaction_read_only): point --db at one that does; reading \
                   commands work as they are"
                .to_string(),
        },
        Some(c) if *c == SqlState::INSUFFICIENT_PRIVILEGE => {
            let problem = one_line(&DbError::Postgres(err).to_string());
            // Without CREATE on the schema, the tables cannot be made (init, a migration);
            // without a table privilege, rows cannot be written.
            let todo = if problem.contains("schema") {
                "this role may not create citestore's tables: ask the database's owner to \
                 GRANT CREATE ON SCHEMA public TO it (or to run `citestore init` once), or use a \
                 role that may"
            } else {
                "this role may not write citestore's tables: ask the database's owner to grant \
                 it SELECT, INSERT, UPDATE and DELETE on them, or use a role that may; reading \
                 commands need only SELECT"
            };
            Error::PostgresRefused {
                url: path.to_string_lossy().into_owned(),
                problem,
                todo: todo.to_string(),
            }
        }
        Some(c) if *c == SqlState::DATA_CORRUPTED || *c == SqlState::INDEX_CORRUPTED => {
            Error::Corrupt {
                detail: one_line(&DbError::Postgres(err).to_string()),
                path,
            }
        }
        Some(c) if connection_ended(c) => lost(&path, &err),
        None if err.is_closed() || has_io_cause(&err) => lost(&path, &err),
        _ => Error::Database {
            path,
            message: DbError::Postgres(err).to_string(),
        },
    }
}

/// True for the codes a server sends as it ends a session: shut down, crashed, restarting,
/// the backend terminated (57P0x), and every connection exception (class 08).
fn connection_ended(code: &postgres::error::SqlState) -> bool {
    let code = code.code();
    code.starts_with("57P0") || code.starts_with("08")
}

/// True when `err` came from the socket (reset, broken pipe): the connection is gone.
fn has_io_cause(err: &postgres::Error) -> bool {
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        if cause.is::<std::io::Error>() {
            return true;
        }
        source = cause.source();
    }
    false
}

/// [`Error::ConnectionLost`] for the store at `path` (the redacted URL); a sweep names the
/// document it was at ([`Error::during`]).
fn lost(path: &Path, err: &postgres::Error) -> Error {
    let message = match err.as_db_error() {
        Some(db) => db.message().to_string(),
        None => error_chain(err),
    };
    Error::ConnectionLost {
        url: path.to_string_lossy().into_owned(),
        during: String::new(),
        message: one_line(&message),
    }
}

/// Turns a SQLite error into the error a user can act on.
fn classify_sqlite(path: &Path, err: rusqlite::Error) -> Error {
    let path = path.to_path_buf();
    match err.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => Error::NotADatabase { path },
        Some(ErrorCode::ReadOnly) => Error::ReadOnlyDatabase { path },
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Error::Busy { path },
        Some(ErrorCode::CannotOpen) => Error::CannotOpen { path },
        Some(ErrorCode::DatabaseCorrupt) => Error::Corrupt {
            detail: match &err {
                rusqlite::Error::SqliteFailure(_, Some(message)) => message.clone(),
                other => other.to_string(),
            },
            path,
        },
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
fn text_by_seq(conn: &Conn, doc_id: &str, seq: u32) -> DbResult<String> {
    conn.query_row(
        "SELECT r.text FROM revisions r JOIN documents d ON d.id = r.document_id \
         WHERE d.doc_id = ?1 AND r.seq = ?2",
        args![doc_id, seq],
        |r| r.get(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_migrations_make_the_schema() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&Location::from(dir.path().join("s.db"))).unwrap();
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
            .sqlite()
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let fk: i64 = store
            .sqlite()
            .pragma_query_value(None, "foreign_keys", |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1);
    }

    #[test]
    fn reopening_applies_nothing_twice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        let location = Location::from(path);
        drop(Store::open(&location).unwrap());
        let store = Store::open(&location).unwrap();
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
        let location = Location::from(path.as_path());
        let err = Store::open(&location).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "database schema version 99 is newer than this citestore (knows {}); upgrade citestore",
                MIGRATIONS.len()
            )),
            "{err}"
        );
        assert!(err.contains("s.db"), "{err}");
        drop(Store::open(&location).unwrap_err());
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
            let location = Location::from(path.as_path());
            let guard = NewDatabase::watch(&location);
            let store = Store::open(&location).unwrap();
            if filled {
                let mut other = Store::open(&location).unwrap();
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
        drop(NewDatabase::watch(&Location::from(path.as_path())));
        assert_eq!(files(), ["s.db"]);
    }

    #[test]
    fn foreign_keys_are_enforced() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&Location::from(dir.path().join("s.db"))).unwrap();
        let err = store.conn.execute(
            "INSERT INTO chunkings (revision_id, spec, created_at) VALUES (42, 'x', 'now')",
            args![],
        );
        assert!(err.is_err());
    }
}
