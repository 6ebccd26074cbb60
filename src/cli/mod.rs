//! The command line: the only module that knows clap. One subcommand per file, its doc comment
//! is its help. Each command returns an [`Exit`]; errors travel up as `anyhow` with context and
//! are printed once by `main`.

mod locate;
mod schema;

use clap::{Parser, Subcommand};
use std::ffi::OsString;

/// How a run ended, as the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Ran; nothing needs attention.
    Ok = 0,
    /// Ran, but citations need attention (no span, lost citations with `--fail-on`).
    Attention = 1,
    /// Ran, but some input was bad (reported on stderr).
    Error = 2,
}

/// citestore: keep the citations of a RAG system true over time.
#[derive(Debug, Parser)]
#[command(name = "citestore", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Locate(locate::Args),
    Schema(schema::Args),
}

/// Parses `args` (usage errors and `--help` exit here, as clap does) and runs the command.
pub fn run<I, T>(args: I) -> anyhow::Result<Exit>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = Cli::parse_from(args);
    match cli.command {
        Command::Locate(args) => locate::run(args),
        Command::Schema(args) => schema::run(args),
    }
}
