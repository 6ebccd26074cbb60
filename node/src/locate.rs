//! `locate`: a quote found in a chunk of text, as `citestore locate --json` prints it.
//! Synchronous: a chunk is a few KB, located in microseconds, less than a trip through the
//! thread pool costs.
//!
//! Invariants: a result is the CLI's (`Haystack::locate_hinted` with the same options, the same
//! fields, `hints` only where the CLI prints it), offsets and `near` in code points; the
//! JavaScript layer converts them to and from string indices with the chunk it was given, and
//! cuts the span's text from that chunk. The result is a plain object made here (no JSON text
//! in between: this runs once per quote), with `astral` saying whether the chunk holds any
//! character above U+FFFF, the only case where code points and string indices differ.

use super::{guarded, to_napi, Failure};
use citestore::text::{is_blank, Haystack, LocateHints, LocateOptions};
use napi_derive::napi;

/// How the hints chose among several occurrences (`locate --json`'s `hints`).
#[napi(object)]
pub struct NativeHints {
    /// Occurrences the hints chose among.
    pub candidates: u32,
    /// Which one was taken, 1-based in text order.
    pub chosen: u32,
    /// Context agreement of the chosen one, 0 to 2.
    pub agreement: f64,
    /// The context could not tell the best ones apart.
    pub tied: bool,
}

/// A located quote, offsets in code points.
#[napi(object)]
pub struct NativeLocated {
    /// Start, code points.
    pub start: u32,
    /// End (exclusive), code points.
    pub end: u32,
    /// Similarity, 0 to 100.
    pub score: f64,
    /// `exact`, `folded`, `fuzzy` or `review`.
    pub how: String,
    /// How many times the raw quote occurs exactly.
    pub occurrences: u32,
    /// Why a match went to review.
    pub reason: Option<String>,
    /// How the hints chose, when they chose among occurrences.
    pub hints: Option<NativeHints>,
    /// The chunk holds a character above U+FFFF (its code points and string indices differ).
    pub astral: bool,
}

/// Finds `quote` in `chunk`: exactly, then after folding typography, then by fuzzy alignment.
/// `null` when the quote has no span. `near` is a code point offset.
#[napi]
// The JavaScript layer's options, one argument each.
#[allow(clippy::too_many_arguments)]
pub fn locate(
    chunk: String,
    quote: String,
    prefix: Option<String>,
    suffix: Option<String>,
    near: Option<u32>,
    accept: Option<f64>,
    review: Option<f64>,
    meaning_guard: Option<bool>,
) -> napi::Result<Option<NativeLocated>> {
    guarded(|| {
        let defaults = LocateOptions::default();
        let options = LocateOptions {
            accept: accept.unwrap_or(defaults.accept),
            review: review.unwrap_or(defaults.review),
            meaning_guard: meaning_guard.unwrap_or(defaults.meaning_guard),
            ..defaults
        };
        if accept.is_some() || review.is_some() {
            options.check_cutoffs(["accept", "review"]).map_err(|why| {
                Failure::Input(format!(
                    "{why}; give scores from 0 to 100 with review <= accept"
                ))
            })?;
        }
        if is_blank(&quote) {
            return Err(Failure::Input(
                "the quote is empty or has no visible characters: pass the words the model quoted"
                    .into(),
            ));
        }
        let hints = LocateHints {
            prefix,
            suffix,
            near: near.map(|at| at as usize),
        };
        let hay = Haystack::new(&chunk);
        let Some((located, choice)) = hay.locate_hinted(&quote, &options, &hints) else {
            return Ok(None);
        };
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Ok(Some(NativeLocated {
            start: count(located.start),
            end: count(located.end),
            score: located.score,
            how: located.how.as_str().to_string(),
            occurrences: count(located.occurrences),
            reason: located.reason,
            hints: choice.map(|c| NativeHints {
                candidates: count(c.candidates),
                chosen: count(c.chosen),
                agreement: c.agreement,
                tied: c.tied,
            }),
            // A character above U+FFFF is the only one with a 4-byte UTF-8 form (lead byte
            // 0xF0 to 0xF4).
            astral: chunk.bytes().any(|b| b >= 0xF0),
        }))
    })
    .map_err(to_napi)
}
