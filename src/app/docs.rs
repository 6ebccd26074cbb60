//! `docs`: the documents, each with its latest revision and current chunking.

use super::Env;
use crate::error::Result;
use crate::model::DocumentSummary;
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// What `docs --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct DocsOutput {
    /// One entry per document, by doc id.
    pub documents: Vec<DocumentSummary>,
}

/// Lists the documents, reading the store read-only.
pub fn run(env: &Env) -> Result<DocsOutput> {
    let store = Store::open_read(&env.db)?;
    Ok(DocsOutput {
        documents: store.summaries()?,
    })
}
