//! `retire`: remove documents on purpose, keeping their history, in one transaction.

use super::Env;
use crate::error::Result;
use crate::ingest::{retire, Retired};
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// What to retire.
#[derive(Debug, Clone, Default)]
pub struct RetireRequest {
    /// The documents.
    pub docs: Vec<String>,
}

/// What `retire --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct RetireOutput {
    /// One entry per document, in the order given.
    pub retired: Vec<Retired>,
}

/// Retires each document (one already retired is left as it is, `changed: false`).
pub fn run(env: &Env, req: &RetireRequest) -> Result<RetireOutput> {
    let mut store = Store::open_existing(&env.db)?;
    let writer = store.writer()?;
    let retired = retire(&writer, &req.docs, &env.now())?;
    writer.commit()?;
    Ok(RetireOutput { retired })
}
