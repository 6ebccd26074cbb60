//! The schema: the embedded migrations, applied in order on either backend.
//!
//! Invariants:
//! - Shipped migrations are never edited; a new one is appended to [`MIGRATIONS`] and starts
//!   with a comment saying why.
//! - Each migration runs inside the one write transaction of [`Store::migrate`], its version
//!   bumped inside it: SQLite's `PRAGMA user_version`, PostgreSQL's one-row `citestore_schema`.
//! - PostgreSQL applies the same list, each translated by [`postgres_ddl`] (or replaced by its
//!   entry in [`POSTGRES_MIGRATIONS`] where the dialects differ more), under an advisory lock,
//!   so concurrent migrators apply each migration once.
//! - A version above what this binary knows is refused, never touched.

use super::db::{args, Backend, Begin, Conn, DbResult};
use super::errors::{classify, classify_sqlite};
use super::Store;
use crate::error::{Error, Result};

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
    (
        "0011_citation_changes",
        include_str!("../../migrations/0011_citation_changes.sql"),
    ),
    (
        "0012_provider_imports",
        include_str!("../../migrations/0012_provider_imports.sql"),
    ),
    (
        "0013_citation_counts",
        include_str!("../../migrations/0013_citation_counts.sql"),
    ),
    (
        "0014_integrity_checks",
        include_str!("../../migrations/0014_integrity_checks.sql"),
    ),
    (
        "0015_citations_by_doc_id",
        include_str!("../../migrations/0015_citations_by_doc_id.sql"),
    ),
];

/// Migrations whose PostgreSQL text is not [`postgres_ddl`] of the shared one: (name, SQL).
pub const POSTGRES_MIGRATIONS: &[(&str, &str)] = &[];

/// The key of the advisory lock PostgreSQL migrations run under ("citestor" in ASCII).
const MIGRATION_LOCK: i64 = 0x6369_7465_7374_6f72;

impl Store {
    /// The schema version recorded in the file.
    pub fn schema_version(&self) -> Result<usize> {
        version_of(&self.conn).map_err(|e| classify(&self.path, e))
    }

    pub(super) fn migrate(&mut self) -> Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Location;
    use rusqlite::Connection;

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
}
