//! citestore keeps the citations of a retrieval-augmented generation system true over time.
//!
//! A citation is a SourceRef made from a quote the model copied out of a chunk: the quote is
//! located in text we hold ([`text::locate`](mod@text::locate)), its span is stored against a
//! document revision, and later sweeps re-anchor it when the document is re-extracted or
//! re-chunked.
//!
//! Modules depend one way: `text` (normalise, align, locate, repair) and `chunk`, `extract`
//! (pure library code) → `model` (plain types) → `store` (the only module that knows SQL) →
//! `ingest`, `cite`, `verify`, `sweep` (re-anchoring is pure; `sweep::run` feeds it from the
//! store) → `cli` (the only module that knows clap). See `ARCHITECTURE.md`.
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
pub mod output_file;
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
