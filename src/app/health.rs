//! `health`: how the citations are doing, read in one read-only snapshot.

use super::Env;
use crate::error::Result;
use crate::output::{health, HealthOutput};
use crate::store::Store;

/// What to show.
#[derive(Debug, Clone)]
pub struct HealthRequest {
    /// One row per document instead of the worst five.
    pub by_doc: bool,
    /// How many recent sweeps.
    pub sweeps: usize,
}

/// Counts by status, the trend over sweeps, documents, verification verdicts.
pub fn run(env: &Env, req: &HealthRequest) -> Result<HealthOutput> {
    let store = Store::open_read(&env.db)?;
    health(&store, req.by_doc, req.sweeps)
}
