//! `citestore init`: create the database, or bring an existing one up to this schema.

use super::{Context, Exit};
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// Create the database (or migrate an existing one to this citestore's schema).
///
/// The database is `--db`, else CITESTORE_DB, else `db` in citestore.toml, else ./citestore.db.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON: `{"db","schema_version"}`.
    #[arg(long)]
    json: bool,

    /// Add citestore's tables to a SQLite file that already holds another program's tables
    /// (refused without it).
    #[arg(long)]
    force: bool,
}

/// What `init --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct InitOutput {
    /// The database file.
    pub db: String,
    /// Its schema version after the command.
    pub schema_version: usize,
}

pub fn run(args: Args, ctx: Context) -> anyhow::Result<Exit> {
    let store = if args.force {
        Store::adopt(&ctx.db)?
    } else {
        Store::open(&ctx.db)?
    };
    let output = InitOutput {
        db: store.location().to_string(),
        schema_version: store.schema_version()?,
    };
    if args.json {
        println!("{}", serde_json::to_string(&output)?);
    } else {
        println!("{}: schema version {}", output.db, output.schema_version);
    }
    Ok(Exit::Ok)
}
