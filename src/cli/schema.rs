//! `citestore schema`: print the `emit_answer` tool schema.

use super::Exit;
use crate::cite::schema::{tool_schema, SchemaFormat};

/// Print the `emit_answer` tool schema for the model.
///
/// Print the `emit_answer` tool schema the model fills in: claims, each one proposition, each
/// with evidence quotes copied character for character from a labelled chunk (may be empty).
/// `--format` picks the API's tool shape: `anthropic` (Messages API `input_schema`), `openai`
/// (Chat Completions function tool, strict), `openai-responses` (Responses API function tool,
/// strict) or `ai-sdk` (Vercel AI SDK: `{description, inputSchema}`, the schema to pass to
/// `jsonSchema()`, strict).
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Print the same schema compact, on one line (it is JSON either way).
    #[arg(long)]
    json: bool,

    /// The tool shape: anthropic, openai, openai-responses or ai-sdk.
    #[arg(long, value_name = "FORMAT", default_value = "anthropic", value_parser = parse_format)]
    format: SchemaFormat,
}

fn parse_format(given: &str) -> Result<SchemaFormat, String> {
    given
        .parse()
        .map_err(|e: crate::cite::schema::UnknownSchemaFormat| e.to_string())
}

pub(super) fn run(args: Args) -> anyhow::Result<Exit> {
    let schema = tool_schema(args.format);
    if args.json {
        println!("{}", serde_json::to_string(&schema)?);
    } else if args.format == SchemaFormat::Anthropic {
        // The bundled file as written: its keys in reading order.
        print!("{}", crate::cite::answer::EMIT_ANSWER_SCHEMA);
    } else {
        println!("{}", serde_json::to_string_pretty(&schema)?);
    }
    Ok(Exit::Ok)
}
