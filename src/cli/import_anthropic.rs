//! `citestore import-anthropic`: cite an Anthropic Citations API response.

use super::cite::{input_name, locate_options, print, read_input};
use super::{Context as CliContext, Exit};
use crate::cite::anthropic::{read_response, Sent};
use crate::cite::record::import_and_record;
use crate::output::cite_output;
use crate::store::Store;
use std::path::PathBuf;

/// Cite an Anthropic Citations API response, checking the API's locations against our text.
///
/// Cite an Anthropic Messages response that used the Citations API (documents or search
/// results): each citation's `cited_text` is re-located in our stored text, and its location
/// (`char_location` offsets, `page_location` pages, `content_block_location` blocks,
/// `search_result_location` result) chooses among identical occurrences when our text agrees
/// with it; when it does not, the reason says so. `web_search_result_location` citations point
/// outside the store: they are listed with their URL, never located. Text blocks without
/// citations join the neighbouring claim. An unknown citation type or an impossible index is
/// exit 2 naming the block, with nothing stored.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The context id whose chunks (or documents) were sent.
    #[arg(long, value_name = "ID")]
    context: String,

    /// What was sent as documents: the context's chunks in order (`document_index` i = chunk i),
    /// or its distinct documents in order, whole.
    #[arg(long, value_name = "WHAT", default_value = "chunks", value_parser = ["chunks", "documents"])]
    sent: String,

    /// The response JSON (`{"content": [{"type": "text", "text", "citations": [...]}]}`); `-`
    /// reads stdin.
    #[arg(value_name = "RESPONSE.json")]
    response: PathBuf,

    /// Print JSON (same format as `citestore cite --json`, plus each evidence string's
    /// `location` and each claim's `external` citations).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let text = read_input(&args.response)?;
    let sent: Sent = args.sent.parse().map_err(anyhow::Error::msg)?;
    let options = locate_options(&ctx.config)?;
    let mut store = Store::open_existing(&ctx.db)?;
    let context = store.writer()?.load_context(&args.context)?;
    let import = read_response(&text, &context, sent)
        .map_err(|e| anyhow::anyhow!("{}: {e}; nothing was stored", input_name(&args.response)))?;
    let report = import_and_record(
        &mut store,
        &args.context,
        &import,
        &options,
        &ctx.clock.timestamp(),
    )?;
    print(&cite_output(&report), args.json)?;
    Ok(Exit::Ok)
}
