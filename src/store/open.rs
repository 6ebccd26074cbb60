//! Opening a store: one sequence for both backends and every purpose.
//!
//! Invariants:
//! - A store is judged before anything is written to it: a schema newer than this binary knows,
//!   a database that is not citestore's (another program's tables, unless `init --force`), or,
//!   for a command that must find one, an empty or missing database, is refused untouched.
//! - A reading open ([`Store::open_read`]) never creates, migrates or writes: it also refuses an
//!   older schema (a write command upgrades it), and its connection refuses writes (SQLite
//!   `query_only`, PostgreSQL `default_transaction_read_only`).
//! - A writing open configures the connection, then applies the migrations the store lacks.

use super::db::{args, Backend};
use super::errors::classify;
use super::migrate::MIGRATIONS;
use super::{postgres, sqlite, Location, Store};
use crate::error::{Error, Result};
use std::path::Path;

/// What a command will do with the store it opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Purpose {
    /// Commands that only read: an up-to-date citestore database that must exist.
    Read,
    /// `init`, `ingest`: create the database or migrate it; never adopt another program's.
    Create,
    /// `init --force`: like `Create`, and add citestore's tables beside another program's.
    Adopt,
    /// Write commands on a store that must exist: only a citestore database (migrated).
    Existing,
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

impl Store {
    /// Opens (creating when missing) the database at `location`: pragmas, then migrations. A
    /// SQLite file of another program is refused untouched.
    pub fn open(location: &Location) -> Result<Store> {
        Store::open_as(location, Purpose::Create)
    }

    /// Like [`Store::open`], but also adds citestore's tables to a database that holds another
    /// program's tables (`citestore init --force`).
    pub fn adopt(location: &Location) -> Result<Store> {
        Store::open_as(location, Purpose::Adopt)
    }

    /// Opens a citestore database that must already exist, for a command that writes: an older
    /// schema is migrated; a missing, empty or foreign database is refused untouched.
    pub fn open_existing(location: &Location) -> Result<Store> {
        Store::open_as(location, Purpose::Existing)
    }

    /// Opens an existing citestore database for a command that only reads. Nothing is created,
    /// migrated or written; a read-only file or mount is opened read-only. A missing, empty or
    /// foreign database, a newer schema and an older one are refused untouched.
    pub fn open_read(location: &Location) -> Result<Store> {
        Store::open_as(location, Purpose::Read)
    }

    /// The one open sequence: connect, judge what the database holds (before anything is
    /// written to it), then make the connection read-only, or configure and migrate it.
    fn open_as(location: &Location, purpose: Purpose) -> Result<Store> {
        let mut store = match location {
            Location::Sqlite(path) => sqlite::connect(path, purpose)?,
            Location::Postgres(url) => postgres::connect(url)?,
        };
        let found = store.schema_version()?;
        if found > MIGRATIONS.len() {
            return Err(store.too_new(found));
        }
        admit(&store.path, store.holds()?, purpose)?;
        if purpose == Purpose::Read {
            return store.refuse_writes().map(|()| store);
        }
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    /// Makes this connection refuse every write, for a command that only reads.
    fn refuse_writes(&self) -> Result<()> {
        match self.conn.backend() {
            Backend::Sqlite => self.refuse_writes_sqlite(),
            Backend::Postgres => self
                .conn
                .batch("SET default_transaction_read_only = on")
                .map_err(|e| classify(&self.path, e)),
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

    fn too_new(&self, found: usize) -> Error {
        Error::SchemaTooNew {
            path: self.path.clone(),
            found,
            known: MIGRATIONS.len(),
        }
    }
}

/// Refuses (untouched) a database that `purpose` may not use: what it `holds` is judged before
/// anything is written to it.
fn admit(path: &Path, holds: Holds, purpose: Purpose) -> Result<()> {
    match (holds, purpose) {
        (Holds::Citestore(found), Purpose::Read) if found < MIGRATIONS.len() => {
            Err(Error::SchemaTooOld {
                path: path.to_path_buf(),
                found,
                known: MIGRATIONS.len(),
            })
        }
        (Holds::Citestore(_), _)
        | (Holds::Nothing, Purpose::Create | Purpose::Adopt)
        | (Holds::Foreign(_), Purpose::Adopt) => Ok(()),
        (Holds::Nothing, Purpose::Read | Purpose::Existing) => Err(not_citestore(path, &[])),
        (Holds::Foreign(tables), _) => Err(not_citestore(path, &tables)),
    }
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
