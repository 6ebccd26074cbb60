//! `citestore chunk`: a new chunking of documents' latest revisions.

use super::{aligned, Exit};
use crate::app::chunk::{self, ChunkRequest};
use crate::app::Env;
use crate::chunk::ChunkSpec;
use crate::text::plural;
use anyhow::anyhow;

/// Re-chunk the latest revision of documents (all, or each --doc) with a chunker spec.
///
/// Earlier chunkings are kept (citations made against them still resolve). A revision whose
/// current chunking already has SPEC is left as it is.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  citestore chunk --chunker paragraph:1500\n  citestore chunk --chunker chars:1000:200 --doc guide.md"
)]
pub(super) struct Args {
    /// chars:SIZE:OVERLAP or paragraph:MAX [default: [chunker] in citestore.toml].
    #[arg(long, value_name = "SPEC")]
    chunker: Option<String>,

    /// Only this document (repeatable).
    #[arg(long = "doc", value_name = "ID")]
    docs: Vec<String>,

    /// Print JSON: `{"documents":[{"doc_id","seq","chunking":{"spec","chunks","created"}}]}`.
    #[arg(long)]
    json: bool,

    /// Print nothing on success (errors still go to stderr; the exit code is unchanged).
    #[arg(short, long, conflicts_with = "json")]
    quiet: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let spec: ChunkSpec = match args.chunker.as_deref() {
        Some(spec) => spec.parse()?,
        None => env.config.chunker().ok_or_else(|| {
            anyhow!("no chunker: pass --chunker SPEC or set [chunker] spec in citestore.toml")
        })?,
    };
    let request = ChunkRequest {
        spec,
        docs: args.docs,
    };
    let output = chunk::run(env, &request)?;
    if args.json {
        println!("{}", serde_json::to_string(&output)?);
        return Ok(Exit::Ok);
    }
    if args.quiet {
        return Ok(Exit::Ok);
    }
    let rows: Vec<Vec<String>> = output
        .documents
        .iter()
        .map(|d| {
            vec![
                if d.chunking.created {
                    "chunked"
                } else {
                    "kept"
                }
                .to_string(),
                d.doc_id.clone(),
                format!("r{}", d.seq),
                format!(
                    "{} ({})",
                    d.chunking.spec,
                    plural(d.chunking.chunks, "chunk", "chunks")
                ),
            ]
        })
        .collect();
    let created = output
        .documents
        .iter()
        .filter(|d| d.chunking.created)
        .count();
    print!("{}", aligned(&rows));
    println!(
        "{}: {created} chunked, {} already had {spec}",
        plural(output.documents.len(), "document", "documents"),
        output.documents.len() - created
    );
    Ok(Exit::Ok)
}
