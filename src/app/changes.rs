//! `changes`: what the sweeps changed, read in one read-only snapshot.

use super::Env;
use crate::error::Result;
use crate::output::{changes, ChangesOutput};
use crate::report::Range;
use crate::store::Store;

/// A citation's status and span before or after a change, as the store holds it.
pub use crate::store::SpanState;

/// Which sweeps.
#[derive(Debug, Clone, Default)]
pub struct ChangesRequest {
    /// A sweep id (changes after it) or a date / RFC 3339 time; the latest sweep when `None`.
    pub since: Option<String>,
}

/// The citations whose status or span changed in the sweeps asked for.
pub fn run(env: &Env, req: &ChangesRequest) -> Result<ChangesOutput> {
    let store = Store::open_read(&env.db)?;
    let range = match &req.since {
        Some(since) => Range::since(since)?,
        None => Range::Latest,
    };
    changes(&store, &range)
}
