//! `citestore import-anthropic`: cite an Anthropic Citations API response.

use super::cite::{locate_options, print};
use super::{Context as CliContext, Exit};
use crate::cite::anthropic::to_answer;
use crate::cite::record::cite_and_record;
use crate::error::read_text_file;
use crate::output::cite_output;
use crate::store::Store;
use std::path::PathBuf;

/// Cite an Anthropic Citations API response, re-locating each cited text.
///
/// Cite an Anthropic Messages response that used the Citations API: each text block's
/// `cited_text` is re-located in our stored text, exactly like a model's quote (the API's
/// character offsets index the documents as sent, which may not be our raw revision). The
/// documents sent are taken to be the context's chunks in order (`document_index` i = chunk i).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The context id whose chunks were sent as documents.
    #[arg(long, value_name = "ID")]
    context: String,

    /// The response JSON (`{"content": [{"type": "text", "text", "citations": [...]}]}`).
    #[arg(value_name = "RESPONSE.json")]
    response: PathBuf,

    /// Print JSON (same format as `citestore cite --json`).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let text = read_text_file(&args.response)?;
    let options = locate_options(&ctx.config)?;
    let mut store = Store::open_existing(&ctx.db)?;
    let context = store.writer()?.load_context(&args.context)?;
    let answer = to_answer(&text, &context)
        .map_err(|e| anyhow::anyhow!("{}: {e}; nothing was stored", args.response.display()))?;
    let report = cite_and_record(
        &mut store,
        &args.context,
        &answer,
        "anthropic",
        &options,
        &ctx.clock.timestamp(),
    )?;
    print(&cite_output(&report), args.json)?;
    Ok(Exit::Ok)
}
