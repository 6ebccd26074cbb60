//! `init`: create the database, or bring an existing one up to this schema.

use super::Env;
use crate::error::Result;
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// What to initialise.
#[derive(Debug, Clone, Default)]
pub struct InitRequest {
    /// Add citestore's tables to a SQLite file that already holds another program's tables.
    pub force: bool,
}

/// What `init --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct InitOutput {
    /// The database file.
    pub db: String,
    /// Its schema version after the command.
    pub schema_version: usize,
}

/// Creates or migrates the database (adopting a foreign SQLite file only with `force`).
pub fn run(env: &Env, req: &InitRequest) -> Result<InitOutput> {
    let store = if req.force {
        Store::adopt(&env.db)?
    } else {
        Store::open(&env.db)?
    };
    Ok(InitOutput {
        db: store.location().to_string(),
        schema_version: store.schema_version()?,
    })
}

/// An existing database's place and schema version, read read-only: it is never created,
/// migrated or written (a missing file, another program's file or an older schema is an
/// error). What a read-only open checks before its first read.
pub fn inspect(env: &Env) -> Result<InitOutput> {
    let store = Store::open_read(&env.db)?;
    Ok(InitOutput {
        db: store.location().to_string(),
        schema_version: store.schema_version()?,
    })
}
