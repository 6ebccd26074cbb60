//! `citestore changes`: what the nightly job changed.

use super::{aligned, Context as CliContext, Exit};
use crate::store::{Change, StatusAt, Store};
use anyhow::{bail, Context as _};
use serde::{Deserialize, Serialize};

/// What changed since last night: citations whose status or span a sweep changed.
///
/// Lists each citation whose status or span changed in sweeps after SINCE (a sweep id, or an
/// RFC 3339 time: the sweeps that started at or after it), with its status and span before and
/// after, its document and why. Default: since the sweep before the latest, i.e. what the
/// latest sweep changed.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A sweep id (changes after it) or an RFC 3339 time such as 2026-12-01T00:00:00Z.
    #[arg(long, value_name = "SWEEP_ID|TIMESTAMP")]
    since: Option<String>,

    /// Print JSON: `{"since", "changes": [{"id", "doc_id", "before": {"status", "revision",
    /// "start", "end"}, "after": {…}, "method", "reason", "sweep"}]}`.
    #[arg(long)]
    json: bool,
}

/// What `changes --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct ChangesOutput {
    /// Changes after this sweep id.
    pub since: i64,
    /// The citations that changed, by document.
    pub changes: Vec<Change>,
}

fn since(store: &Store, given: Option<&str>) -> anyhow::Result<i64> {
    let Some(given) = given else {
        return Ok(store.sweep_before_latest()?);
    };
    if let Ok(id) = given.parse::<i64>() {
        if id != 0 && !store.sweep_exists(id)? {
            bail!("--since {id}: no such sweep; `citestore health` lists the recent sweeps");
        }
        return Ok(id);
    }
    let time = chrono::DateTime::parse_from_rfc3339(given).with_context(|| {
        format!("--since {given:?}: not a sweep id or an RFC 3339 time (e.g. 2026-12-01T00:00:00Z)")
    })?;
    let stamp = time
        .with_timezone(&chrono::Utc)
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string();
    Ok(store.last_sweep_before(&stamp)?)
}

fn span(at: &StatusAt) -> String {
    format!("{} r{} [{}, {})", at.status, at.revision, at.start, at.end)
}

pub fn run(args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let store = Store::open_read(&ctx.db)?;
    let since = since(&store, args.since.as_deref())?;
    let out = ChangesOutput {
        since,
        changes: store.changes_since(since)?,
    };
    if args.json {
        println!("{}", serde_json::to_string(&out)?);
        return Ok(Exit::Ok);
    }
    let mut rows = vec![["CITATION", "DOC", "BEFORE", "AFTER", "METHOD", "REASON"]
        .map(String::from)
        .to_vec()];
    for c in &out.changes {
        rows.push(vec![
            c.id.clone(),
            c.doc_id.clone(),
            span(&c.before),
            span(&c.after),
            c.method.clone(),
            c.reason.clone().unwrap_or_default(),
        ]);
    }
    if !out.changes.is_empty() {
        print!("{}", aligned(&rows));
    }
    let n = out.changes.len();
    let noun = if n == 1 { "citation" } else { "citations" };
    println!("{n} {noun} changed since sweep {since}");
    Ok(Exit::Ok)
}
