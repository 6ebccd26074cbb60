//! What `locate --json` prints for one quote.

use crate::text::Located;
use serde::{Deserialize, Serialize};

/// `{"start", "end", "score", "how", "occurrences", "text"}` (plus `"reason"` for a review).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LocateOutput {
    /// Where and how the quote was found.
    #[serde(flatten)]
    pub located: Located,
    /// The chunk's text at the span.
    pub text: String,
}

/// The printed form of a quote located in `chunk`.
pub fn locate_output(chunk: &str, located: Located) -> LocateOutput {
    let text = chunk
        .chars()
        .skip(located.start)
        .take(located.end - located.start)
        .collect();
    LocateOutput { located, text }
}
