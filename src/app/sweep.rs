//! `sweep`: the nightly job: re-extract, re-chunk and re-anchor, one transaction per document.

use super::Env;
use crate::chunk::ChunkSpec;
use crate::error::Result;
use crate::extract::ExtractOptions;
use crate::store::Store;
use crate::sweep::integrity::FullCheck;
use crate::sweep::run::{sweep, SweepOptions, SweepSummary};
use crate::sweep::shard::Shard;

/// What to sweep and how.
#[derive(Debug, Clone, Default)]
pub struct SweepRequest {
    /// Only these documents (all when empty).
    pub docs: Vec<String>,
    /// The chunker documents should have [default: `[chunker]` of the configuration].
    pub chunker: Option<ChunkSpec>,
    /// Only the documents of this shard.
    pub shard: Option<Shard>,
    /// The run a shard belongs to.
    pub run: Option<String>,
    /// Sweep the revisions the store holds, without re-extracting sources.
    pub no_extract: bool,
    /// How extractors run (their time limit).
    pub extract: ExtractOptions,
    /// Read every page of the store first, whenever the last full check was.
    pub full_check: bool,
}

/// Sweeps, calling `progress(documents_done, documents, citations_reanchored)` as documents
/// finish. Documents that could not be swept are in the summary's `errors`, the others
/// committed.
pub fn run(
    env: &Env,
    req: &SweepRequest,
    progress: &mut dyn FnMut(usize, usize, usize),
) -> Result<SweepSummary> {
    if let Some(run) = &req.run {
        // Before the store is opened: a bad name writes nothing, not even a migration.
        crate::sweep::shard::check_run_name(run)?;
    }
    let options = SweepOptions {
        shard: req.shard,
        run: req.run.clone(),
        extract: req.extract,
        docs: req.docs.clone(),
        chunker: req.chunker.or_else(|| env.config.chunker()),
        no_extract: req.no_extract,
        config_dir: env.config.dir.clone(),
        full_check: if req.full_check {
            FullCheck::Always
        } else {
            FullCheck::AfterDays(env.config.sweep.full_check_days)
        },
    };
    let mut store = Store::open_existing(&env.db)?;
    sweep(&mut store, &options, &|| env.now(), progress)
}
