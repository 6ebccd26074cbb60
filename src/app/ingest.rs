//! `ingest`: store files' (or given) text as document revisions, in one transaction.
//!
//! Invariants: a walked folder never ingests the database itself (nor its `-wal`/`-shm`
//! companions); caller chunks name exactly one file, never a folder; nothing is committed
//! unless every file was stored or skipped; a database file this command created is removed
//! again when it fails.

use super::Env;
use crate::chunk::caller::Located;
use crate::chunk::ChunkSpec;
use crate::error::{Error, Result};
use crate::extract::{ExtractOptions, Extractor};
use crate::ingest::{
    exclude_database, ingest_given, ingest_with_chunks, ingest_with_progress, plan,
    plan_configured, ChunkPolicy, Chunks, IngestReport, Ingested, Plan, Planned,
};
use crate::store::{NewDatabase, Store};
use std::path::PathBuf;

/// Files to ingest, and how.
#[derive(Debug, Clone, Default)]
pub struct IngestRequest {
    /// Files or folders; the configuration's `[[sources]]` when empty.
    pub paths: Vec<PathBuf>,
    /// The doc id of the one file given.
    pub doc_id: Option<String>,
    /// Chunk new revisions with this, and re-chunk unchanged ones whose current chunking
    /// differs [default: `[chunker]` of the configuration, else a document's previous spec].
    pub chunker: Option<ChunkSpec>,
    /// The caller's own chunks of the one file given, instead of a chunker.
    pub chunks: Option<Vec<Located>>,
    /// Extract every file with this command instead of by extension.
    pub extractor: Option<Extractor>,
    /// How extractors run (their time limit).
    pub extract: ExtractOptions,
}

/// Text handed over by the caller, with no file behind it (Python's `ingest_text`).
#[derive(Debug, Clone)]
pub struct TextRequest {
    /// The document.
    pub doc_id: String,
    /// Its new text.
    pub text: String,
    /// The chunker [default: as for [`IngestRequest::chunker`]].
    pub chunker: Option<ChunkSpec>,
    /// The caller's own chunks of the text, instead of a chunker.
    pub chunks: Option<Vec<Located>>,
}

/// What a face shows while an ingest runs (a progress bar); every method may do nothing.
pub trait IngestProgress {
    /// The files about to be read, once, before the first.
    fn planned(&mut self, _files: &[Planned]) {}
    /// `done` files and `bytes` read so far, after each file.
    fn read(&mut self, _done: usize, _bytes: u64) {}
    /// Reading is over (whether it succeeded or not), before the commit.
    fn finished(&mut self) {}
}

/// No progress shown.
impl IngestProgress for () {}

/// Plans the files (refusing caller chunks for anything but one file), stores them in one
/// transaction, and reports each document and each file skipped.
pub fn run(
    env: &Env,
    req: &IngestRequest,
    progress: &mut dyn IngestProgress,
) -> Result<IngestReport> {
    let planned = plan_request(env, req)?;
    if req.chunks.is_some() && (planned.files.len() != 1 || planned.files[0].walked) {
        return Err(Error::ChunksNeedOneFile);
    }
    let policy = ChunkPolicy {
        explicit: req.chunker,
        configured: env.config.chunker(),
    };
    // Declared before the store, so a failure closes the store and then removes a database
    // file this command created.
    let new_db = NewDatabase::watch(&env.db);
    let mut store = Store::open(&env.db)?;
    let mut files = planned.files;
    let not_documents = match env.db.sqlite_path() {
        Some(file) => exclude_database(&mut files, file),
        None => Vec::new(),
    };
    let writer = store.writer()?;
    progress.planned(&files);
    let now = env.now();
    let ingested = match &req.chunks {
        Some(chunks) => match files.first() {
            Some(file) => ingest_with_chunks(&writer, file, chunks, &req.extract, &now),
            None => Ok(IngestReport::default()),
        },
        None => ingest_with_progress(
            &writer,
            &files,
            policy,
            &req.extract,
            &now,
            &mut |done, bytes| progress.read(done, bytes),
        ),
    };
    progress.finished();
    let mut report = ingested?;
    writer.commit()?;
    new_db.keep();
    report.skipped.extend(planned.skipped);
    report.skipped.extend(not_documents);
    Ok(report)
}

/// The files of the paths given, or of the configured sources.
fn plan_request(env: &Env, req: &IngestRequest) -> Result<Plan> {
    if !req.paths.is_empty() {
        return plan(&req.paths, req.doc_id.as_deref(), req.extractor.as_ref());
    }
    if env.config.sources.is_empty() {
        return Err(Error::NothingToIngest);
    }
    if req.doc_id.is_some() {
        return Err(Error::DocIdNeedsOnePath);
    }
    plan_configured(
        &env.config.sources,
        req.extractor.as_ref(),
        env.config.dir.as_deref(),
    )
}

/// Stores the text as the latest revision of its document (nothing when it equals the latest).
pub fn text(env: &Env, req: &TextRequest) -> Result<Ingested> {
    let chunks = match &req.chunks {
        Some(given) => Chunks::Caller(given),
        None => Chunks::Spec(ChunkPolicy {
            explicit: req.chunker,
            configured: env.config.chunker(),
        }),
    };
    let mut store = Store::open_existing(&env.db)?;
    let writer = store.writer()?;
    let ingested = ingest_given(&writer, &req.doc_id, &req.text, chunks, &env.now())?;
    writer.commit()?;
    Ok(ingested)
}
