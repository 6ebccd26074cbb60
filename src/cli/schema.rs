//! `citestore schema`: print the `emit_answer` tool schema.

use super::Exit;
use crate::cite::answer::EMIT_ANSWER_SCHEMA;

/// Print the `emit_answer` tool schema for the model.
///
/// Print the `emit_answer` tool schema the model fills in: claims, each one proposition, each
/// with evidence quotes copied character for character from a labelled chunk (may be empty).
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<Exit> {
    print!("{EMIT_ANSWER_SCHEMA}");
    Ok(Exit::Ok)
}
