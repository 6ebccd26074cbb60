//! `citestore export`: every citation and where it is now, as JSON Lines.

use super::{Context as CliContext, Exit};
use crate::store::{CitationRecord, CitationState, Store};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
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
    /// contentHash of that chunk (normaliser v1).
    pub content_hash: String,
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

/// The current anchor of a citation, with the chunk that now holds it.
pub fn current(store: &Store, state: &CitationState) -> anyhow::Result<Option<Current>> {
    if state.status == "lost" {
        return Ok(None);
    }
    let chunk_id = store.chunk_holding(
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

/// The exported line of a citation.
pub fn line(
    store: &Store,
    record: &CitationRecord,
    state: &CitationState,
) -> anyhow::Result<ExportLine> {
    Ok(ExportLine {
        id: record.citation_id.clone(),
        doc_id: record.doc_id.clone(),
        revision: record.revision,
        chunk_id: record.chunk_id.clone(),
        content_hash: record.content_hash.clone(),
        start: record.start,
        end: record.end,
        quote: record.quote.clone(),
        status: state.status.clone(),
        current: current(store, state)?,
    })
}

pub fn run(_args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let store = Store::open_read(&ctx.db)?;
    let states: HashMap<i64, CitationState> = store
        .all_states(None)?
        .into_iter()
        .map(|s| (s.row, s))
        .collect();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for record in store.citations()? {
        let state = &states[&record.row];
        writeln!(
            out,
            "{}",
            serde_json::to_string(&line(&store, &record, state)?)?
        )?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}
