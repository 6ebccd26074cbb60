//! `citestore export`: every citation and where it is now, as JSON Lines.

use super::{Context as CliContext, Exit};
use crate::output::export_line;
use crate::store::Store;
use std::io::Write;

/// Export every citation and where it is now, as JSON Lines.
///
/// Print one JSON line per citation: the original SourceRef, the quote, the current status
/// and the current anchor (`null` only when lost). The format is documented in the README.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Accepted for symmetry with the other commands: the output is always JSON Lines.
    #[arg(long)]
    json: bool,
}

pub fn run(_args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let mut store = Store::open_read(&ctx.db)?;
    // One snapshot, streamed: a `cite` or `sweep` committing meanwhile is not seen, and memory
    // does not grow with the number of citations.
    let snapshot = store.read()?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    snapshot.for_each_citation(|record, state| -> anyhow::Result<()> {
        serde_json::to_writer(&mut out, &export_line(&snapshot, record, &state)?)?;
        out.write_all(b"\n")?;
        Ok(())
    })?;
    out.flush()?;
    Ok(Exit::Ok)
}
