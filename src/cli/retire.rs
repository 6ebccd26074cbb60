//! `citestore retire`: remove documents on purpose, keeping their history.

use super::Exit;
use crate::app::retire::{self, RetireRequest};
use crate::app::Env;

/// Retire documents removed on purpose: kept in the store, never swept, never failing.
///
/// A retired document and its citations stay in the store (`show` and `export` still find
/// them); `health` shows them apart as retired; sweeps pass them over and `--fail-on` ignores
/// them. A deleted source that is not retired makes its citations `lost` instead. Ingesting the
/// document again brings it back.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The documents to retire.
    #[arg(value_name = "DOC_ID", required = true)]
    docs: Vec<String>,

    /// Print JSON: `{"retired": [{"doc_id", "changed"}]}`.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let output = retire::run(env, &RetireRequest { docs: args.docs })?;
    if args.json {
        println!("{}", serde_json::to_string(&output)?);
        return Ok(Exit::Ok);
    }
    for r in &output.retired {
        let note = if r.changed {
            "retired"
        } else {
            "already retired"
        };
        println!("{note}: {}", r.doc_id);
    }
    Ok(Exit::Ok)
}
