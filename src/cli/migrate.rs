//! `citestore migrate`: copy a whole store to another backend.

use super::{Context, Exit};
use crate::store::{Location, NewDatabase, Store};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What `migrate --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct MigrateOutput {
    /// The store copied (a PostgreSQL URL without its password).
    pub from: String,
    /// The store copied into.
    pub to: String,
    /// Rows copied in all.
    pub rows: i64,
    /// Rows copied per table.
    pub tables: BTreeMap<String, i64>,
}

/// Copy a whole store into an empty one: SQLite to PostgreSQL, or back.
///
/// Every row is copied with its id, in one transaction on the target that commits only when
/// each table's row count matches the source's; the source is only read. The target is created
/// (a SQLite file) or migrated to this citestore's schema (a PostgreSQL database) first, and
/// refused if it already holds documents. Check the copy with `citestore export` on both.
#[derive(Debug, clap::Args)]
pub struct Args {
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

pub fn run(args: Args, _ctx: Context) -> anyhow::Result<Exit> {
    let (from, to) = (Location::from(args.from), Location::from(args.to));
    let mut source = Store::open_read(&from)?;
    let new_file = NewDatabase::watch(&to);
    let mut target = Store::open(&to)?;
    let report = source.copy_into(&mut target)?;
    drop(target);
    new_file.keep();
    let (from, to) = (source.location().to_string(), to.to_string());
    if args.json {
        let out = MigrateOutput {
            from,
            to,
            rows: report.rows,
            tables: report.tables.iter().cloned().collect(),
        };
        println!("{}", serde_json::to_string(&out)?);
    } else {
        println!(
            "copied {} in {} from {from} to {to}",
            crate::text::plural(report.rows, "row", "rows"),
            crate::text::plural(report.tables.len(), "table", "tables"),
        );
    }
    Ok(Exit::Ok)
}
