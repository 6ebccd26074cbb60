//! `check`: read every page of the store now, and record that it was found sound.

use super::Env;
use crate::error::Result;
use crate::store::Store;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What `check --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct CheckOutput {
    /// The database.
    pub db: String,
    /// True when every page was read and found well formed (SQLite's `quick_check`); false on
    /// PostgreSQL, whose server checks each page as it reads it and has nothing to run here.
    pub pages_checked: bool,
    /// When the check finished (RFC 3339); recorded in the store when pages were checked, so
    /// the sweeps of the next `[sweep] full_check_days` need not read every page again.
    pub checked_at: String,
    /// How long the check took, seconds.
    pub seconds: f64,
}

/// Checks the whole store; a damaged page is [`crate::error::Error::Corrupt`] and nothing is
/// recorded.
pub fn run(env: &Env) -> Result<CheckOutput> {
    let mut store = Store::open_existing(&env.db)?;
    let started = Instant::now();
    store.check_integrity()?;
    let seconds = started.elapsed().as_secs_f64();
    let checked_at = env.now();
    let pages_checked = store.checks_pages();
    if pages_checked {
        let writer = store.writer()?;
        writer.record_full_check(&checked_at, seconds)?;
        writer.commit()?;
    }
    Ok(CheckOutput {
        db: store.location().to_string(),
        pages_checked,
        checked_at,
        seconds,
    })
}
