//! `locate`: a quote found in a chunk of text, as `citestore locate --json` prints it.
//! Synchronous: a chunk is a few KB, located in microseconds, less than a trip through the
//! thread pool costs.
//!
//! Invariant: a result is the CLI's (`Haystack::locate_hinted` with the same options, the same
//! fields, `hints` only where the CLI prints it), offsets and `near` in code points; the
//! JavaScript layer converts them to and from string indices with the chunk it was given.

use super::{guarded, json, to_napi, Failure};
use citestore::output::locate_output;
use citestore::text::{is_blank, Haystack, LocateHints, LocateOptions};
use napi_derive::napi;

/// Finds `quote` in `chunk`: exactly, then after folding typography, then by fuzzy alignment.
/// Returns `locate --json`'s object as JSON text (offsets in code points), or `null` when the
/// quote has no span. `near` is a code point offset.
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
) -> napi::Result<Option<String>> {
    guarded(|| {
        let defaults = LocateOptions::default();
        let options = LocateOptions {
            accept: accept.unwrap_or(defaults.accept),
            review: review.unwrap_or(defaults.review),
            meaning_guard: meaning_guard.unwrap_or(defaults.meaning_guard),
            ..defaults
        };
        options.check_cutoffs(["accept", "review"]).map_err(|why| {
            Failure::Input(format!(
                "{why}; give scores from 0 to 100 with review <= accept"
            ))
        })?;
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
        let mut out = serde_json::to_value(locate_output(&chunk, located))
            .map_err(|e| Failure::Internal(format!("JSON output: {e}")))?;
        if let (Some(choice), Some(fields)) = (choice, out.as_object_mut()) {
            fields.insert(
                "hints".into(),
                serde_json::json!({
                    "candidates": choice.candidates,
                    "chosen": choice.chosen,
                    "agreement": choice.agreement,
                    "tied": choice.tied,
                }),
            );
        }
        json(&out).map(Some)
    })
    .map_err(to_napi)
}
