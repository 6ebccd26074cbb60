//! `citestore check`: read every page of the store now.

use super::Exit;
use crate::app::check;
use crate::app::Env;

/// Read every page of the store and record that it is sound.
///
/// A SQLite store gets `quick_check`: every page read and its structure checked (about 10 s a
/// gigabyte). A damaged page exits 2 naming the file; nothing is recorded. A sound store is
/// recorded as checked, so the sweeps of the next [sweep] full_check_days (7 by default) need
/// not read every page before they write. On PostgreSQL the server checks each page as it
/// reads it, and there is nothing to run here.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Print JSON: `{"db","pages_checked","checked_at","seconds"}`.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let output = check::run(env)?;
    if args.json {
        println!("{}", serde_json::to_string(&output)?);
    } else if output.pages_checked {
        println!("{}: every page sound ({:.2} s)", output.db, output.seconds);
    } else {
        println!(
            "{}: PostgreSQL checks each page as it reads it; nothing to run",
            output.db
        );
    }
    Ok(Exit::Ok)
}
