//! `citestore export`: every citation and where it is now, as JSON Lines.

use super::{Context as CliContext, Exit};
use crate::store::{CitationRecord, CitationState, Snapshot, Store};
use serde::{Deserialize, Serialize};
use std::io::Write;

/// Export every citation and where it is now, as JSON Lines.
///
/// Print one JSON line per citation: the original SourceRef, the quote, the current status
/// and the current anchor (`null` only when lost). The format is documented in the README.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Accepted for symmetry with the other commands: the output is always JSON Lines.
    #[arg(long)]
    json: bool,
}

/// Where a citation is now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Current {
    /// Revision the span indexes.
    pub revision: u32,
    /// Start, chars.
    pub start: usize,
    /// End, chars.
    pub end: usize,
    /// The chunk of that revision's current chunking holding the span.
    pub chunk_id: Option<String>,
    /// 100 for exact placements.
    pub score: f64,
    /// `cited` before any sweep moved it; else the sweep's method.
    pub method: String,
    /// Why it is degraded.
    pub reason: Option<String>,
}

/// One exported line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportLine {
    /// Citation id.
    pub id: String,
    /// Document.
    pub doc_id: String,
    /// Revision cited.
    pub revision: u32,
    /// Chunk cited from.
    pub chunk_id: String,
    /// contentHash of that chunk.
    pub content_hash: String,
    /// The normaliser version of `content_hash`: `v1` for citations made before normaliser v2,
    /// `v2` since.
    pub normaliser: String,
    /// Original start.
    pub start: usize,
    /// Original end.
    pub end: usize,
    /// The quote.
    pub quote: String,
    /// intact, moved, degraded or lost.
    pub status: String,
    /// Where it is now; `null` when lost.
    pub current: Option<Current>,
}

/// The current anchor of a citation; `holding` finds the chunk that now holds a span
/// (`Store::chunk_holding` or `Snapshot::chunk_holding`), asked only when it is not lost.
pub fn current(
    state: &CitationState,
    holding: impl FnOnce(&str, u32, usize, usize) -> crate::error::Result<Option<String>>,
) -> anyhow::Result<Option<Current>> {
    if state.status == "lost" {
        return Ok(None);
    }
    let chunk_id = holding(
        &state.doc_id,
        state.found_revision,
        state.found_start,
        state.found_end,
    )?;
    Ok(Some(Current {
        revision: state.found_revision,
        start: state.found_start,
        end: state.found_end,
        chunk_id,
        score: state.score,
        method: state.method.clone(),
        reason: state.reason.clone(),
    }))
}

/// The exported line of a citation, read through `snapshot`.
pub fn line(
    snapshot: &Snapshot<'_>,
    record: CitationRecord,
    state: &CitationState,
) -> anyhow::Result<ExportLine> {
    Ok(ExportLine {
        current: current(state, |doc, seq, start, end| {
            snapshot.chunk_holding(doc, seq, start, end)
        })?,
        id: record.citation_id,
        doc_id: record.doc_id,
        revision: record.revision,
        chunk_id: record.chunk_id,
        content_hash: record.content_hash,
        normaliser: record.normaliser,
        start: record.start,
        end: record.end,
        quote: record.quote,
        status: state.status.clone(),
    })
}

pub fn run(_args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let mut store = Store::open_read(&ctx.db)?;
    // One snapshot, streamed: a `cite` or `sweep` committing meanwhile is not seen, and memory
    // does not grow with the number of citations.
    let snapshot = store.read()?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    snapshot.for_each_citation(|record, state| -> anyhow::Result<()> {
        serde_json::to_writer(&mut out, &line(&snapshot, record, &state)?)?;
        out.write_all(b"\n")?;
        Ok(())
    })?;
    out.flush()?;
    Ok(Exit::Ok)
}
