//! The ladder's last step: what the text at a placed span says about the citation.
//!
//! A span the ladder called `degraded` whose new text folds exactly as the cited text does
//! (normaliser v2: the same words, with only whitespace, line breaks, case or typography
//! different, as a re-wrapped paragraph has) is not degraded: it is `intact` at the cited
//! offsets, else `moved`, its reason [`TYPOGRAPHY_CHANGED`] (what users filter on), its score
//! 100. Every other degraded span's score is the similarity of its folded text to the folded
//! quote, below 100 unless they fold alike: the rungs score by what they measured (the share
//! of the span's chars the diff carried, a letters share), which said 100 for text that had
//! changed.
//!
//! Invariants: a tie between places (`ambiguous`) stays `degraded`, whatever its text; a span
//! is `intact` or `moved` here only when its new text folds exactly as the cited text.

use super::{Anchor, Changed, Citation, DocumentSweep, Status, AMBIGUOUS};
use crate::text::align::ratio;
use crate::text::fold;

/// The reason of a span whose words are the cited ones, in other whitespace or typography.
pub const TYPOGRAPHY_CHANGED: &str =
    "typography changed: the same words, only whitespace, line breaks, case or typography differ";

impl DocumentSweep<'_> {
    /// `anchor` as the text at its span says: see the module's docs.
    pub(super) fn settle(&self, ch: &Changed, c: &Citation<'_>, anchor: Anchor) -> Anchor {
        let tie = anchor
            .reason
            .as_deref()
            .is_some_and(|r| r.starts_with(AMBIGUOUS));
        if anchor.status != Status::Degraded || tie {
            return anchor;
        }
        let end = anchor.end.min(ch.new.chars.len());
        let text: String = ch.new.chars[anchor.start.min(end)..end].iter().collect();
        let folded = fold(&text);
        if folded.chars == fold(c.span_text).chars {
            let status = if anchor.start == c.start {
                Status::Intact
            } else {
                Status::Moved
            };
            return Anchor {
                status,
                score: 100.0,
                reason: Some(TYPOGRAPHY_CHANGED.to_string()),
                ..anchor
            };
        }
        let quote = fold(c.quote);
        let score = match ratio(&folded.chars, &quote.chars) {
            // Shown with one decimal: a changed text never reads as 100.
            s if s > 99.9 && folded.chars != quote.chars => 99.9,
            s => s,
        };
        Anchor { score, ..anchor }
    }
}
