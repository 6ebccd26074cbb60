//! `citestore docs`: list documents with their latest revision and current chunking.

use super::{aligned, Context, Exit};
use crate::model::DocumentSummary;
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// List documents: latest revision, revision count, current chunking, chunk and citation counts.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON: `{"documents":[{"doc_id","source","revisions","latest_seq","extractor",
    /// "char_len","chunking","chunks","citations"}]}`.
    #[arg(long)]
    json: bool,
}

/// What `docs --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct DocsOutput {
    /// One entry per document, by doc id.
    pub documents: Vec<DocumentSummary>,
}

pub fn run(args: Args, ctx: Context) -> anyhow::Result<Exit> {
    let store = Store::open_read(&ctx.db)?;
    let output = DocsOutput {
        documents: store.summaries()?,
    };
    if args.json {
        println!("{}", serde_json::to_string(&output)?);
        return Ok(Exit::Ok);
    }
    let mut rows = vec![[
        "DOC",
        "REV",
        "REVS",
        "CHARS",
        "CHUNKING",
        "CHUNKS",
        "CITATIONS",
        "EXTRACTOR",
    ]
    .map(String::from)
    .to_vec()];
    rows.extend(output.documents.iter().map(|d| {
        vec![
            d.doc_id.clone(),
            format!("r{}", d.latest_seq),
            d.revisions.to_string(),
            d.char_len.to_string(),
            d.chunking.clone().unwrap_or_else(|| "-".into()),
            d.chunks.to_string(),
            d.citations.to_string(),
            d.extractor.clone(),
        ]
    }));
    print!("{}", aligned(&rows));
    Ok(Exit::Ok)
}
