//! `citestore init`: create the database, or bring an existing one up to this schema.

use super::Exit;
use crate::app::init::{self, InitRequest};
use crate::app::Env;

/// Create the database (or migrate an existing one to this citestore's schema).
///
/// The database is `--db`, else CITESTORE_DB, else `db` in citestore.toml, else ./citestore.db.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Print JSON: `{"db","schema_version"}`.
    #[arg(long)]
    json: bool,

    /// Add citestore's tables to a SQLite file that already holds another program's tables
    /// (refused without it).
    #[arg(long)]
    force: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let output = init::run(env, &InitRequest { force: args.force })?;
    if args.json {
        println!("{}", serde_json::to_string(&output)?);
    } else {
        println!("{}: schema version {}", output.db, output.schema_version);
    }
    Ok(Exit::Ok)
}
