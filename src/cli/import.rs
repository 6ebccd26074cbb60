//! `citestore import FORMAT`: cite a provider's cited answer.

use super::cite::{input_name, print, read_input};
use super::Exit;
use crate::app::import::{self, ImportRequest};
use crate::app::Env;
use crate::cite::anthropic::Sent;
use crate::cite::providers::Format;
use std::path::PathBuf;

/// Cite a provider's cited answer: Anthropic, Cohere, Gemini, OpenAI Responses, AI SDK, LangChain.
///
/// Reads the response in the provider's own shape, maps its sources onto the context's chunks
/// (by the id, index, file name or URI the provider echoes: a chunk's label, chunk id or caller
/// id, or a document id) and stores each claim with where it stands in the answer (converted
/// from UTF-8 bytes for Gemini, UTF-16 for the AI SDK). A quote the provider gives (Anthropic's
/// `cited_text`, Gemini's retrieved `text`, a file search result's `text`, the AI SDK's
/// `citedText`, LangChain's `quote`) is located like any quote. A source named without a quote
/// (Cohere, OpenAI's `file_citation`) is `review`, "the provider gave no quote", with the
/// chunk's best-matching sentence proposed, never accepted. Web sources are listed as external
/// citations. A malformed response is exit 2 naming the JSON path, with nothing stored; the same
/// response again stores nothing new.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The response's shape.
    #[arg(value_name = "FORMAT", value_parser = [
        "anthropic", "cohere", "gemini", "openai-responses", "ai-sdk", "langchain-quoted",
    ])]
    format: String,

    /// The response JSON; `-` reads stdin.
    #[arg(value_name = "RESPONSE.json")]
    response: PathBuf,

    /// The context id whose chunks (or documents) were sent.
    #[arg(long, value_name = "ID")]
    context: String,

    /// anthropic only: what was sent as documents, the context's chunks in order
    /// (`document_index` i = chunk i, the default) or its distinct documents in order, whole.
    #[arg(long, value_name = "WHAT", value_parser = ["chunks", "documents"])]
    sent: Option<String>,

    /// Print JSON (as `citestore cite --json`, plus the `answer`, each claim's `answer_span`,
    /// each unquoted evidence's `proposal`, API `location`s and `external` citations).
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let format: Format = args.format.parse().map_err(anyhow::Error::msg)?;
    let sent = match (&args.sent, format) {
        (None, _) => Sent::Chunks,
        (Some(sent), Format::Anthropic) => sent.parse().map_err(anyhow::Error::msg)?,
        (Some(_), _) => anyhow::bail!(
            "--sent applies to anthropic responses only (their document indexes); leave it out \
             for {format}"
        ),
    };
    let request = ImportRequest {
        format,
        response: read_input(&args.response)?,
        input: input_name(&args.response),
        context_id: args.context,
        sent,
    };
    print(&import::run(env, &request)?, args.json)?;
    Ok(Exit::Ok)
}
