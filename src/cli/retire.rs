//! `citestore retire`: remove documents on purpose, keeping their history.

use super::{Context, Exit};
use crate::ingest::{retire, Retired};
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// Retire documents removed on purpose: kept in the store, never swept, never failing.
///
/// A retired document and its citations stay in the store (`show` and `export` still find
/// them); `health` shows them apart as retired; sweeps pass them over and `--fail-on` ignores
/// them. A deleted source that is not retired makes its citations `lost` instead. Ingesting the
/// document again brings it back.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The documents to retire.
    #[arg(value_name = "DOC_ID", required = true)]
    docs: Vec<String>,

    /// Print JSON: `{"retired": [{"doc_id", "changed"}]}`.
    #[arg(long)]
    json: bool,
}

/// What `retire --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct RetireOutput {
    /// One entry per document, in the order given.
    pub retired: Vec<Retired>,
}

pub fn run(args: Args, ctx: Context) -> anyhow::Result<Exit> {
    let mut store = Store::open_existing(&ctx.db)?;
    let writer = store.writer()?;
    let retired = retire(&writer, &args.docs, &ctx.clock.timestamp())?;
    writer.commit()?;
    if args.json {
        println!("{}", serde_json::to_string(&RetireOutput { retired })?);
        return Ok(Exit::Ok);
    }
    for r in &retired {
        let note = if r.changed {
            "retired"
        } else {
            "already retired"
        };
        println!("{note}: {}", r.doc_id);
    }
    Ok(Exit::Ok)
}
