//! `chunk`: a new chunking of documents' latest revisions, in one transaction.

use super::Env;
use crate::chunk::ChunkSpec;
use crate::error::Result;
use crate::ingest::Rechunked;
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// What to re-chunk.
#[derive(Debug, Clone)]
pub struct ChunkRequest {
    /// The chunker.
    pub spec: ChunkSpec,
    /// Only these documents (all when empty).
    pub docs: Vec<String>,
}

/// What `chunk --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct ChunkOutput {
    /// One entry per document.
    pub documents: Vec<Rechunked>,
}

/// Re-chunks the latest revision of each document whose current chunking is not `spec`.
pub fn run(env: &Env, req: &ChunkRequest) -> Result<ChunkOutput> {
    let mut store = Store::open_existing(&env.db)?;
    let writer = store.writer()?;
    let documents = writer.rechunk(&req.docs, req.spec, &env.now())?;
    writer.commit()?;
    Ok(ChunkOutput { documents })
}
