//! The ladder's last step: what the text at a placed span says about the citation.
//!
//! A span the ladder called `degraded` whose new text holds the cited text's words
//! ([`same_words`]: folded alike by normaliser v2, spaces beside punctuation aside — only
//! whitespace, line breaks, case or typography different, as a re-wrapped paragraph or a
//! respaced `calls / mo` has) is not degraded: it is `intact` at the cited
//! offsets, else `moved`, its reason [`TYPOGRAPHY_CHANGED`] (what users filter on), its score
//! 100. The span is first widened over the marks the cited text has at its edges where the new
//! text has them just outside it ([`with_edge_marks`]: `it's .` for `it's.`). Every other
//! degraded span's score is the similarity of its folded text to the folded quote, below 100
//! unless they fold alike: the rungs score by what they measured (the share of the span's
//! chars the diff carried, a letters share), which said 100 for text that had changed.
//!
//! Invariants: a tie between places (`ambiguous`) stays `degraded`, whatever its text; a span
//! is `intact` or `moved` here only when its new text holds the cited text's words.

use super::{Anchor, Changed, Citation, DocumentSweep, Status, AMBIGUOUS};
use crate::text::align::ratio;
use crate::text::{fold, same_words};

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
        let new = &ch.new.chars;
        let fold_at = |(a, b): (usize, usize)| fold(&new[a..b].iter().collect::<String>());
        let end = anchor.end.min(new.len());
        let held = (anchor.start.min(end), end);
        // Widened only when the text lacks a mark the cited text has at an edge, so a span
        // whose words are the cited ones as it stands is never widened.
        let (start, end) = with_edge_marks(new, held, c.span_text);
        let widened = fold_at((start, end));
        if same_words(&widened.chars, &fold(c.span_text).chars) {
            let status = if start == c.start {
                Status::Intact
            } else {
                Status::Moved
            };
            let reason = Some(TYPOGRAPHY_CHANGED.to_string());
            return self.found(status, start, end, 100.0, anchor.method, reason);
        }
        let folded = if (start, end) == held {
            widened
        } else {
            fold_at(held)
        };
        let quote = fold(c.quote);
        let score = match ratio(&folded.chars, &quote.chars) {
            // Shown with one decimal: a changed text never reads as 100.
            s if s > 99.9 && folded.chars != quote.chars => 99.9,
            s => s,
        };
        Anchor { score, ..anchor }
    }
}

/// `span` widened over the marks the cited text has at its edges (a full stop, a closing
/// parenthesis) where the new text has them just outside it, whitespace between: a loader
/// that put a space or a line break before the span's final `.` leaves the mark in a run too
/// short for the diff, which ends the span a word early. Unchanged when the new text there
/// holds other marks, or none.
fn with_edge_marks(new: &[char], (start, end): (usize, usize), cited: &str) -> (usize, usize) {
    let is_mark = |x: &char| !x.is_alphanumeric() && !x.is_whitespace();
    let cited: Vec<char> = cited.chars().collect();
    let lead = cited.iter().take_while(|x| is_mark(x)).count();
    let trail = cited.iter().rev().take_while(|x| is_mark(x)).count();
    let held = &new[start..end];
    let end = match held.last() {
        Some(x) if trail > 0 && !is_mark(x) => {
            let want = cited[cited.len() - trail..].iter().copied();
            past_marks(new, end, want, true).unwrap_or(end)
        }
        _ => end,
    };
    let start = match held.first() {
        Some(x) if lead > 0 && !is_mark(x) => {
            let want = cited[..lead].iter().rev().copied();
            past_marks(new, start, want, false).unwrap_or(start)
        }
        _ => start,
    };
    (start, end)
}

/// Where the marks `want` end in `new`, read from `at` on (`ahead`) or back from it, with only
/// whitespace before and between them; `None` when another char comes first.
fn past_marks(
    new: &[char],
    mut at: usize,
    want: impl Iterator<Item = char>,
    ahead: bool,
) -> Option<usize> {
    for mark in want {
        loop {
            let x = if ahead {
                *new.get(at)?
            } else {
                *new[..at].last()?
            };
            if ahead {
                at += 1;
            } else {
                at -= 1;
            }
            if x == mark {
                break;
            }
            if !x.is_whitespace() {
                return None;
            }
        }
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::with_edge_marks;

    #[test]
    fn a_span_is_widened_only_over_the_cited_texts_own_edge_marks() {
        // (new text, the span in it, the cited text, the widened span's text)
        let cases = [
            (
                "latex it's .\nNext",
                "latex it's",
                "latex it's.",
                "latex it's .",
            ),
            (
                "( see below ) then",
                "see below",
                "(see below)",
                "( see below )",
            ),
            (
                "latex it's ; next",
                "latex it's",
                "latex it's.",
                "latex it's",
            ),
            ("latex it's.", "latex it's.", "latex it's.", "latex it's."),
            ("no marks here", "no marks", "no marks", "no marks"),
            ("value ..\nNext", "value", "value..", "value .."),
        ];
        for (new, span, cited, want) in cases {
            let chars: Vec<char> = new.chars().collect();
            let start = new[..new.find(span).unwrap()].chars().count();
            let (a, b) = with_edge_marks(&chars, (start, start + span.chars().count()), cited);
            let got: String = chars[a..b].iter().collect();
            assert_eq!(got, want, "{new:?} / {cited:?}");
        }
    }
}
