//! `citestore migrate`: copy a whole store to another backend.

use super::Exit;
use crate::app::migrate::{self, MigrateRequest};
use crate::app::{Env, Location};
use std::path::PathBuf;

/// Copy a whole store into an empty one: SQLite to PostgreSQL, or back.
///
/// Every row is copied with its id, in one transaction on the target that commits only when
/// each table's row count matches the source's; the source is only read. The target is created
/// (a SQLite file) or migrated to this citestore's schema (a PostgreSQL database) first, and
/// refused if it already holds documents. Check the copy with `citestore export` on both.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The store to copy: a SQLite file or a postgres:// URL.
    #[arg(long, value_name = "DB")]
    from: PathBuf,

    /// The empty store to copy into: a SQLite file or a postgres:// URL.
    #[arg(long, value_name = "DB")]
    to: PathBuf,

    /// Print JSON: `{"from","to","rows","tables"}`.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, _env: &Env) -> anyhow::Result<Exit> {
    let request = MigrateRequest {
        from: Location::from(args.from),
        to: Location::from(args.to),
    };
    let out = migrate::run(&request)?;
    if args.json {
        println!("{}", serde_json::to_string(&out)?);
    } else {
        println!(
            "copied {} in {} from {} to {}",
            crate::text::plural(out.rows, "row", "rows"),
            crate::text::plural(out.tables.len(), "table", "tables"),
            out.from,
            out.to,
        );
    }
    Ok(Exit::Ok)
}
