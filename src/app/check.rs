//! `check`: read every page of the store now, and record that it was found sound.

use super::Env;
use crate::error::Result;
use crate::store::Store;
use crate::sweep::integrity::{full_check_if_due, FullCheck};
use serde::{Deserialize, Serialize};

/// What `check --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct CheckOutput {
    /// The database.
    pub db: String,
    /// True when every page was read and found well formed (SQLite's `quick_check`); false on
    /// PostgreSQL, whose server checks each page as it reads it and has nothing to run here.
    pub pages_checked: bool,
    /// When the check started (RFC 3339), as a sweep's check is recorded: recorded in the store
    /// when pages were checked, so the sweeps of the next `[sweep] full_check_days` need not
    /// read every page again.
    pub checked_at: String,
    /// How long the check took, seconds (0 when nothing was run).
    pub seconds: f64,
}

/// Checks the whole store, as a due sweep does ([`full_check_if_due`], always due here); a
/// damaged page is [`crate::error::Error::Corrupt`] and nothing is recorded.
pub fn run(env: &Env) -> Result<CheckOutput> {
    let mut store = Store::open_existing(&env.db)?;
    let now = env.now();
    let checked = full_check_if_due(&store, FullCheck::Always, &now)?;
    if let Some(checked) = &checked {
        let writer = store.writer()?;
        writer.record_full_check(&checked.at, checked.seconds)?;
        writer.commit()?;
    }
    Ok(CheckOutput {
        db: store.location().to_string(),
        pages_checked: checked.is_some(),
        seconds: checked.map_or(0.0, |c| c.seconds),
        checked_at: now,
    })
}
