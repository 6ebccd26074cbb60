//! `citestore docs`: list documents with their latest revision and current chunking.

use super::{aligned, Exit};
use crate::app::{docs, Env};

/// List documents: latest revision, revision count, current chunking, chunk and citation counts.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Print JSON: `{"documents":[{"doc_id","source","revisions","latest_seq","extractor",
    /// "char_len","chunking","chunks","citations"}]}`.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let output = docs::run(env)?;
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
