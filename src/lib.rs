//! citestore keeps the citations of a retrieval-augmented generation system true over time.
//!
//! A citation is a SourceRef made from a quote the model copied out of a chunk: the quote is
//! located in text we hold ([`text::locate`](mod@text::locate)), its span is stored against a
//! document revision, and later sweeps re-anchor it when the document is re-extracted or
//! re-chunked, marking it `intact`, `moved`, `degraded` or `lost` ([`model::Status`]).
//!
//! # The API
//!
//! [`app`] holds the use cases, one per command (`init`, `ingest`, `context`, `cite`, `sweep`,
//! `health`, `export`, …): each takes an [`app::Env`] (the database, the configuration, the
//! clock) and a typed request, opens the store the way that command needs, and returns the
//! typed output the CLI prints as `--json` ([`app::json`]). The CLI and the Python package
//! are thin faces over these; a Rust program uses them the same way:
//!
//! ```
//! use citestore::app::{self, Env, Location};
//! use citestore::cite::record::ChunkSelector;
//! use citestore::config::Config;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let env = Env::new(Location::from(dir.path().join("citestore.db")), Config::default())?;
//! app::init::run(&env, &app::init::InitRequest::default())?;
//!
//! // A document, chunked, shown to a model, and the model's answer cited.
//! let text = |limit: &str| {
//!     format!("# Plans\n\nThe Starter plan allows {limit} calls per month.\n\nSupport is by email.\n")
//! };
//! let ingest = |text: String| app::ingest::text(&env, &app::ingest::TextRequest {
//!     doc_id: "plans.md".into(),
//!     text,
//!     chunker: Some("paragraph:200".parse().unwrap()),
//!     chunks: None,
//! });
//! ingest(text("500"))?;
//! let shown = app::context::run(&env, &app::context::ContextRequest {
//!     selectors: vec![ChunkSelector::Doc("plans.md".into())],
//! })?;
//! let label = &shown.output.chunks[0].label;
//! let answer = format!(
//!     r#"{{"claims": [{{"text": "Starter allows 500 calls a month.",
//!         "evidence": [{{"chunk_id": "{label}", "quote": "allows 500 calls per month"}}]}}]}}"#
//! );
//! let cited = app::cite::run(&env, &app::cite::CiteRequest {
//!     context_id: shown.output.context.clone(),
//!     answer,
//!     input: "answer".into(),
//! })?;
//! assert_eq!(cited.claims[0].evidence[0].verdict, "exact");
//!
//! // The document changes (a number inside the cited span); the nightly sweep says so.
//! ingest(text("400"))?;
//! let request = app::sweep::SweepRequest { no_extract: true, ..Default::default() };
//! let swept = app::sweep::run(&env, &request, &mut |_, _, _| {})?;
//! assert_eq!(swept.status.get("degraded"), Some(&1));
//! let health = app::health::run(&env, &app::health::HealthRequest { by_doc: false, sweeps: 1 })?;
//! assert_eq!(health.status.get("degraded"), Some(&1));
//! # Ok(())
//! # }
//! ```
//!
//! Modules depend one way: `text` (normalise, align, locate, repair) and `chunk`, `extract`
//! (pure library code) → `model` (plain types) → `store` (the only module that knows SQL) →
//! `ingest`, `cite`, `verify`, `sweep` (re-anchoring is pure; `sweep::run` feeds it from the
//! store) → `output`, `report` → `app` (the use cases) → `cli` (the only module that knows
//! clap; the binary's `main.rs` calls [`cli::run`]). See `ARCHITECTURE.md`.
#![deny(missing_docs)]

pub mod child;
pub mod chunk;
pub mod cite;
pub mod clock;
pub mod config;
pub mod error;
pub mod extract;
pub mod ingest;
pub mod model;
pub mod output;
pub(crate) mod output_file;
pub mod report;
pub mod store;
pub mod sweep;
pub mod text;
pub mod verify;

pub use error::Error;
pub mod app;
pub mod cli;

/// The README's code examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
