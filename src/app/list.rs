//! `list`: citations by current status, streamed from one read-only snapshot.
//!
//! Invariants: rows are handed to the caller as the store steps through them (memory does not
//! grow with the number of citations), every pass over the same snapshot.

use super::Env;
use crate::error::{Error, Result};
use crate::model::Status;
use crate::output::{list_line, ListLine};
use crate::store::Store;

/// A citation's current state, as the store holds it (what a table of citations shows).
pub use crate::store::CitationState;

/// Which citations.
#[derive(Debug, Clone, Default)]
pub struct ListRequest {
    /// Only these statuses (all when empty).
    pub statuses: Vec<Status>,
    /// Only this document (refused when it is not in the store).
    pub doc: Option<String>,
}

impl ListRequest {
    fn wanted(&self, state: &CitationState) -> bool {
        self.statuses.is_empty() || self.statuses.contains(&state.status)
    }
}

/// Calls `each` with the [`ListLine`] (`list --json`) of every citation asked for.
pub fn run<E: From<Error>>(
    env: &Env,
    req: &ListRequest,
    mut each: impl FnMut(ListLine) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut store = open(env, req)?;
    let snapshot = store.read()?;
    snapshot
        .reads()
        .for_each_state(req.doc.as_deref(), |state| -> std::result::Result<(), E> {
            if req.wanted(&state) {
                each(list_line(&snapshot, state)?)?;
            }
            Ok(())
        })
}

/// Calls `each(pass, state)` with the state of every citation asked for, `passes` times over
/// the same snapshot (a table: its column widths, then its rows), without looking up where
/// each is now.
pub fn states<E: From<Error>>(
    env: &Env,
    req: &ListRequest,
    passes: usize,
    mut each: impl FnMut(usize, &CitationState) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut store = open(env, req)?;
    let snapshot = store.read()?;
    for pass in 0..passes {
        snapshot.reads().for_each_state(
            req.doc.as_deref(),
            |state| -> std::result::Result<(), E> {
                if req.wanted(&state) {
                    each(pass, &state)?;
                }
                Ok(())
            },
        )?;
    }
    Ok(())
}

/// The store, read-only, with `req.doc` checked.
fn open(env: &Env, req: &ListRequest) -> Result<Store> {
    let store = Store::open_read(&env.db)?;
    if let Some(doc) = &req.doc {
        store.require_document(doc)?;
    }
    Ok(store)
}
