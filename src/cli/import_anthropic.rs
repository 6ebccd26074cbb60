//! `citestore import-anthropic`: cite an Anthropic Citations API response (`citestore import
//! anthropic` under its older name, kept so scripts written for it go on working).

use super::cite::{input_name, print, read_input};
use super::Exit;
use crate::app::import::{self, ImportRequest};
use crate::app::Env;
use crate::cite::anthropic::Sent;
use crate::cite::providers::Format;
use std::path::PathBuf;

/// Cite an Anthropic Citations API response (the same as `citestore import anthropic`).
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
pub(super) struct Args {
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

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let response = read_input(&args.response)?;
    let sent: Sent = args.sent.parse().map_err(anyhow::Error::msg)?;
    let request = ImportRequest {
        format: Format::Anthropic,
        response,
        input: input_name(&args.response),
        context_id: args.context,
        sent,
    };
    print(&import::run(env, &request)?, args.json)?;
    Ok(Exit::Ok)
}
