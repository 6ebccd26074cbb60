//! `citestore completions`: print a shell's completion script, generated from the same clap
//! definition the binary parses with, so it never lists a flag the binary lacks.

use super::Exit;
use anyhow::anyhow;
use clap::{CommandFactory, ValueEnum};
use clap_complete::Shell;

/// Print the completion script for a shell.
///
/// Print the completion script for bash, zsh, fish, powershell or elvish to stdout, e.g.
/// `citestore completions bash > ~/.local/share/bash-completion/completions/citestore`.
/// No `--json`: its output is a shell script, not data.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The shell: bash, zsh, fish, powershell or elvish.
    // A string, not a value enum, so an unknown shell is our one-line error, not clap's block.
    #[arg(value_name = "SHELL")]
    shell: String,
}

pub(super) fn run(args: Args) -> anyhow::Result<Exit> {
    let shell = Shell::from_str(&args.shell, true).map_err(|_| {
        let known: Vec<String> = Shell::value_variants()
            .iter()
            .filter_map(|s| s.to_possible_value().map(|v| v.get_name().to_string()))
            .collect();
        anyhow!(
            "unknown shell {:?}: give one of {}",
            args.shell,
            known.join(", ")
        )
    })?;
    let mut cmd = super::Cli::command();
    clap_complete::generate(shell, &mut cmd, "citestore", &mut std::io::stdout());
    Ok(Exit::Ok)
}
