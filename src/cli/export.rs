//! `citestore export`: every citation and where it is now, as JSON Lines.

use super::Exit;
use crate::app::{export, Env};
use crate::output::stdout_lines;
use std::io::Write;

/// Export every citation and where it is now, as JSON Lines.
///
/// Print one JSON line per citation: the original SourceRef, the quote, the current status
/// and the current anchor (`null` only when lost). The format is documented in docs/json.md.
///
/// `--format w3c` prints one W3C Web Annotation (JSON-LD) per line instead: the claim as body,
/// the document as target source, a TextQuoteSelector (the document's text at the current
/// anchor, with prefix and suffix long enough to be unique) and a TextPositionSelector (code
/// points; `--utf16` adds UTF-16 positions), the revision as a TimeState. Lost citations carry
/// their last known selectors and say so.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Accepted for symmetry with the other commands: the output is always JSON Lines.
    #[arg(long)]
    json: bool,

    /// `citestore` (the export format below) or `w3c` (Web Annotations).
    #[arg(long, value_name = "FORMAT", default_value = "citestore", value_parser = ["citestore", "w3c"])]
    format: String,

    /// With `--format w3c`: add UTF-16 code unit positions (`citestore:utf16Start`/`End`) for
    /// JavaScript consumers.
    #[arg(long)]
    utf16: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    if args.utf16 && args.format != "w3c" {
        anyhow::bail!("--utf16 applies to --format w3c only; add --format w3c");
    }
    let mut out = stdout_lines();
    if args.format == "w3c" {
        export::w3c(env, args.utf16, |line| print_line(&mut out, &line))?;
    } else {
        export::run(env, |line| print_line(&mut out, &line))?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}

/// One JSON line.
fn print_line(out: &mut impl Write, value: &impl serde::Serialize) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}
