//! `citestore schema`: print the `emit_answer` tool schema.

use super::Exit;
use crate::cite::answer::EMIT_ANSWER_SCHEMA;

/// Print the `emit_answer` tool schema for the model.
///
/// Print the `emit_answer` tool schema the model fills in: claims, each one proposition, each
/// with evidence quotes copied character for character from a labelled chunk (may be empty).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the same schema compact, on one line (it is JSON either way).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    if args.json {
        let schema: serde_json::Value = serde_json::from_str(EMIT_ANSWER_SCHEMA)?;
        println!("{}", serde_json::to_string(&schema)?);
    } else {
        print!("{EMIT_ANSWER_SCHEMA}");
    }
    Ok(Exit::Ok)
}
