//! `migrate`: copy a whole store to another backend.

use crate::error::Result;
use crate::store::{Location, NewDatabase, Store};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The two stores.
#[derive(Debug, Clone)]
pub struct MigrateRequest {
    /// The store to copy (only read).
    pub from: Location,
    /// The empty store to copy into (created or migrated first).
    pub to: Location,
}

/// What `migrate --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct MigrateOutput {
    /// The store copied (a PostgreSQL URL without its password).
    pub from: String,
    /// The store copied into.
    pub to: String,
    /// Rows copied in all.
    pub rows: i64,
    /// Rows copied per table.
    pub tables: BTreeMap<String, i64>,
}

/// Copies every row, with its id, in one transaction on the target; a target file this
/// created is removed again when the copy fails. Takes no [`super::Env`]: both stores are
/// named by the request.
pub fn run(req: &MigrateRequest) -> Result<MigrateOutput> {
    let mut source = Store::open_read(&req.from)?;
    // Declared before the target: a failure closes the target, then removes a file it created.
    let new_file = NewDatabase::watch(&req.to);
    let mut target = Store::open(&req.to)?;
    let report = source.copy_into(&mut target)?;
    drop(target);
    new_file.keep();
    Ok(MigrateOutput {
        from: source.location().to_string(),
        to: req.to.to_string(),
        rows: report.rows,
        tables: report.tables.iter().cloned().collect(),
    })
}
