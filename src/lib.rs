//! citestore keeps the citations of a retrieval-augmented generation system true over time.
//!
//! A citation is a SourceRef made from a quote the model copied out of a chunk: the quote is
//! located in text we hold ([`text::locate`]), its span is stored against a document revision,
//! and later sweeps re-anchor it when the document is re-extracted or re-chunked.
//!
//! Modules depend one way: `text` (normalise, align, locate, repair) → `cli`. See
//! `ARCHITECTURE.md`.
#![deny(missing_docs)]

pub mod cite;
pub mod error;
pub mod sourceref;
pub mod text;

pub use error::Error;
pub mod cli;

/// The README's code examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
