//! `citestore chunks`: a document's chunks (a revision's current chunking), with their text.

use super::{aligned, Exit};
use crate::app::chunks::{self, ChunksRequest};
use crate::app::Env;

/// How many chars of each chunk's text the table shows.
const PREVIEW: usize = 60;

/// List a document's chunks: ids (yours beside citestore's), spans and the start of each text.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  citestore chunks guide.md --revision 2 --json")]
pub(super) struct Args {
    /// The document.
    #[arg(value_name = "DOC_ID")]
    doc_id: String,

    /// The revision [default: the latest].
    #[arg(long, value_name = "SEQ")]
    revision: Option<u32>,

    /// Print JSON: `{"doc_id", "revision", "chunking", "chunks": [{"ord", "chunk_id",
    /// "caller_id", "start", "end", "content_hash", "normaliser", "text"}]}`.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let request = ChunksRequest {
        doc_id: args.doc_id,
        revision: args.revision,
    };
    let output = chunks::run(env, &request)?;
    if args.json {
        println!("{}", serde_json::to_string(&output)?);
        return Ok(Exit::Ok);
    }
    let mut rows = vec![["ORD", "CHUNK", "CALLER ID", "SPAN", "TEXT"]
        .map(String::from)
        .to_vec()];
    rows.extend(output.chunks.iter().map(|c| {
        vec![
            c.ord.to_string(),
            c.chunk_id.clone(),
            c.caller_id.clone().unwrap_or_else(|| "-".into()),
            format!("{}-{}", c.start, c.end),
            preview(&c.text),
        ]
    }));
    print!("{}", aligned(&rows));
    let chunking = output.chunking.as_deref().unwrap_or("none");
    println!(
        "{} r{}: chunking {chunking}, {} chunks",
        output.doc_id,
        output.revision,
        output.chunks.len()
    );
    Ok(Exit::Ok)
}

/// The start of a chunk's text on one line: control characters (a document's own escape
/// sequences included) shown as U+FFFD, never sent to the terminal.
fn preview(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(PREVIEW)
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    if text.chars().nth(PREVIEW).is_some() {
        shown.push('…');
    }
    shown
}
