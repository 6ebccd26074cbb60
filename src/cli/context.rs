//! `citestore context`: record which chunks a model is shown, under short opaque labels.

use super::Exit;
use crate::app::context::{self, ContextRequest};
use crate::app::Env;
use crate::cite::record::ChunkSelector;
use crate::error::{read_text_file, without_bom};
use crate::text::plural;
use anyhow::{bail, Context as _};
use serde::Deserialize;
use std::path::PathBuf;

/// Record a retrieval context: chunks under short opaque labels for the model to cite by.
///
/// Record a retrieval context and print it, each chunk under a short opaque label for the
/// model to cite by (labels reveal nothing about rank or order).
///
/// The same chunks in the same order are the same context (same id, same labels). `--doc`
/// chunks come first, then `--chunk`, then `--from`, each in the order given.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Every chunk of this document's current chunking.
    #[arg(long = "doc", value_name = "DOC_ID")]
    docs: Vec<String>,

    /// One chunk, by chunk id (`{doc_id}@r{seq}#{start}-{end}`) or by the id given to it with
    /// `ingest --chunks`.
    #[arg(long = "chunk", value_name = "CHUNK_ID")]
    chunks: Vec<String>,

    /// Chunk ids from a JSON file, as retrieved by your own RAG application: `["id", ...]` or
    /// `{"chunk_ids": ["id", ...]}`.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,

    /// Print JSON: `{"context", "chunks": [{"label", "chunk_id", "doc_id", "revision",
    /// "content_hash", "start", "end", "text", "caller_id"}]}` (`caller_id`: your id of a chunk
    /// from `ingest --chunks`, else null).
    #[arg(long)]
    json: bool,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum FromFile {
    List(Vec<String>),
    Object { chunk_ids: Vec<String> },
}

fn chunk_ids_from(path: &std::path::Path) -> anyhow::Result<Vec<String>> {
    let text = read_text_file(path)?;
    let parsed: FromFile = serde_json::from_str(without_bom(&text)).with_context(|| {
        format!(
            "{}: expected a JSON list of chunk ids or {{\"chunk_ids\": [...]}}",
            path.display()
        )
    })?;
    Ok(match parsed {
        FromFile::List(ids) | FromFile::Object { chunk_ids: ids } => ids,
    })
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let mut selectors: Vec<ChunkSelector> =
        args.docs.iter().cloned().map(ChunkSelector::Doc).collect();
    selectors.extend(args.chunks.iter().cloned().map(ChunkSelector::Chunk));
    if let Some(path) = &args.from {
        selectors.extend(chunk_ids_from(path)?.into_iter().map(ChunkSelector::Chunk));
    }
    if selectors.is_empty() {
        bail!("a context needs chunks: give --doc DOC_ID, --chunk CHUNK_ID or --from FILE");
    }
    let output = context::run(env, &ContextRequest { selectors })?.output;
    if args.json {
        println!("{}", serde_json::to_string(&output)?);
        return Ok(Exit::Ok);
    }
    println!(
        "context {}  ({})",
        output.context,
        plural(output.chunks.len(), "chunk", "chunks")
    );
    for chunk in &output.chunks {
        match &chunk.caller_id {
            Some(id) => println!("\n[{}] {} (your id {id})", chunk.label, chunk.chunk_id),
            None => println!("\n[{}] {}", chunk.label, chunk.chunk_id),
        }
        println!("{}", chunk.text.trim_end());
    }
    Ok(Exit::Ok)
}
