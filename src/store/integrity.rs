//! The store's integrity: SQLite's `quick_check` of every page, and the record of each full
//! check that found the store sound (migration 0014), so a sweep can tell how long ago the
//! whole file was last read.
//!
//! Invariants:
//! - A full check is recorded only after it passed: a damaged store never gets a new row.
//! - A PostgreSQL server checks each page as it reads it (data checksums, its own structure
//!   checks); it has no whole-database check citestore can run, so there [`Store::check_integrity`]
//!   checks nothing and [`Store::checks_pages`] says so.

use super::db::{args, optional, Backend};
use super::errors::{classify, classify_sqlite, one_line};
use super::{Store, Writer};
use crate::error::{Error, Result};

impl Store {
    /// True when [`Store::check_integrity`] reads every page (SQLite); false on PostgreSQL.
    pub fn checks_pages(&self) -> bool {
        self.conn.backend() == Backend::Sqlite
    }

    /// Fails with [`Error::Corrupt`] unless SQLite's `quick_check` finds every page of the
    /// database readable and well formed (a sweep reads only what changed, so a damaged page
    /// elsewhere would go unseen by it). A PostgreSQL server checks its own pages as it reads
    /// them; its reports of damage become [`Error::Corrupt`] too.
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

    /// When a full check last found the store sound (RFC 3339, as recorded), if ever.
    pub fn last_full_check(&self) -> Result<Option<String>> {
        optional(self.conn.query_row(
            "SELECT checked_at FROM integrity_checks ORDER BY id DESC LIMIT 1",
            args![],
            |row| row.get(0),
        ))
        .map_err(|e| classify(&self.path, e))
    }
}

impl Writer<'_> {
    /// Records that a full check finished at `at` and found the store sound, `seconds` after it
    /// started (in this transaction: a command that fails after its check records nothing).
    pub fn record_full_check(&self, at: &str, seconds: f64) -> Result<()> {
        self.tx
            .execute(
                "INSERT INTO integrity_checks (checked_at, seconds) VALUES (?1, ?2)",
                args![at, seconds],
            )
            .map_err(self.db())?;
        Ok(())
    }
}
