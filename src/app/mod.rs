//! The use cases: one file per command, each the one way that command's work is done, for every
//! face (the CLI in `cli/`, the Python package in `python/`).
//!
//! A use case takes an [`Env`] (the database, the configuration, the clock) and a typed request
//! (plain values: paths, ids, parsed specs; no clap, no Python types), and returns the typed
//! output its face renders (the `--json` shapes of [`json`]).
//!
//! Invariants:
//! - Only use cases open the store: reads with the read-only open (never creates, migrates or
//!   writes), writes through one transaction each (a sweep: one per document), committed only
//!   when the whole command succeeded.
//! - The clock is read only here, from [`Env`]: faces never make timestamps.
//! - Nothing here prints or knows a terminal: progress goes to a callback the face passes, and
//!   the face decides what to print and the exit code.
//! - A rule both faces need (which files an ingest takes, the "exactly one file" checks, the
//!   locator options of the configuration) is applied here once.

pub mod changes;
pub mod check;
pub mod chunk;
pub mod chunks;
pub mod cite;
pub mod context;
pub mod docs;
pub mod export;
pub mod health;
pub mod import;
pub mod ingest;
pub mod init;
pub mod list;
pub mod migrate;
pub mod report;
pub mod retire;
pub mod show;
pub mod sweep;
pub mod verify;

use crate::clock::{Clock, FixedClock, SystemClock};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::text::LocateOptions;

/// A database's place (a SQLite file or a PostgreSQL URL), as the faces name it.
pub use crate::store::Location;

/// The types every `--json` prints: the public JSON interface, each documented field by field
/// and listed per command in docs/json.md ("JSON output of every command"). Read them back
/// with serde.
pub mod json {
    pub use super::check::CheckOutput;
    pub use super::chunk::ChunkOutput;
    pub use super::chunks::{ChunkLine, ChunksOutput};
    pub use super::docs::DocsOutput;
    pub use super::init::InitOutput;
    pub use super::migrate::MigrateOutput;
    pub use super::report::ReportOutput;
    pub use super::retire::RetireOutput;
    pub use super::show::ShowOutput;
    pub use super::verify::VerifyOutput;
    pub use crate::output::{
        AnswerSpanOutput, ChangeLine, ChangesOutput, CiteOutput, ClaimOutput, ContextOutput,
        Current, DocumentHealth, EvidenceOutput, ExportLine, ExternalOutput, HealthOutput,
        LastKnown, ListLine, LocateOutput, LocationOutput, ProposalOutput, RetiredHealth,
    };
}

/// What every use case runs against: the database, the configuration, and the clock that
/// stamps what it writes.
pub struct Env {
    /// The database.
    pub db: Location,
    /// The configuration (defaults when there is no citestore.toml).
    pub config: Config,
    clock: Box<dyn Clock + Send + Sync>,
}

impl Env {
    /// An environment whose clock is `CITESTORE_NOW` (an RFC 3339 instant, for reproducible
    /// runs) when it is set, else the system clock.
    pub fn new(db: Location, config: Config) -> Result<Env> {
        let clock: Box<dyn Clock + Send + Sync> = match std::env::var("CITESTORE_NOW") {
            Ok(value) => match FixedClock::parse(&value) {
                Ok(clock) => Box::new(clock),
                Err(why) => {
                    return Err(Error::BadNow {
                        value,
                        why: why.to_string(),
                    })
                }
            },
            Err(_) => Box::new(SystemClock),
        };
        Ok(Env::with_clock(db, config, clock))
    }

    /// An environment with this clock.
    pub fn with_clock(db: Location, config: Config, clock: Box<dyn Clock + Send + Sync>) -> Env {
        Env { db, config, clock }
    }

    /// Now, as the store writes it.
    fn now(&self) -> String {
        self.clock.timestamp()
    }

    /// The locator options configured in citestore.toml (`[locate] accept`, `review`), checked.
    pub fn locate_options(&self) -> Result<LocateOptions> {
        let options = LocateOptions {
            accept: self.config.locate.accept,
            review: self.config.locate.review,
            ..LocateOptions::default()
        };
        options
            .check_cutoffs(["[locate] accept", "[locate] review"])
            .map_err(|why| Error::Config {
                path: "citestore.toml".into(),
                message: format!("{why}; give scores from 0 to 100"),
            })?;
        Ok(options)
    }
}
