//! Position hints for the locator: which of several identical (or, after folding, identical)
//! occurrences of a quote was meant, told by the text expected before and after it and by a
//! position near it — what a W3C `TextQuoteSelector`'s `prefix`/`suffix` and a
//! `TextPositionSelector`'s `start` carry, and what an API's character offsets say.
//!
//! Ranking, the way a sweep ranks occurrences: each candidate scores how well the text before it
//! agrees with `prefix` and the text after it with `suffix` (Indel similarity of each hint with
//! the window of its own length next to the candidate, so a hint that is slightly off — a
//! missing space, a typo — still tells occurrences apart); equal scores go to the candidate
//! nearest `near`, else to the first.
//!
//! Invariants: with no hint, [`Haystack::locate_hinted`] returns exactly what
//! [`Haystack::locate`] returns; hints only choose among occurrences of the text the locator
//! matched — they never make a match, change its score or verdict, nor reject one.

use super::locate::{Haystack, LocateOptions, Located};
use super::normalise::fold;
use rapidfuzz::distance::indel;

/// What is known about where a quote sits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LocateHints {
    /// Text expected right before the quote.
    pub prefix: Option<String>,
    /// Text expected right after it.
    pub suffix: Option<String>,
    /// A char offset the quote is expected to start near.
    pub near: Option<usize>,
}

impl LocateHints {
    /// True when no hint is given (empty strings count as none).
    pub fn is_empty(&self) -> bool {
        self.prefix.as_deref().is_none_or(str::is_empty)
            && self.suffix.as_deref().is_none_or(str::is_empty)
            && self.near.is_none()
    }
}

/// How the hints chose, when the quote occurs more than once.
#[derive(Debug, Clone, PartialEq)]
pub struct HintChoice {
    /// Occurrences the hints chose among.
    pub candidates: usize,
    /// Which one was taken, 1-based in text order.
    pub chosen: usize,
    /// Context agreement of the chosen one, 0 to 2 (prefix plus suffix similarity).
    pub agreement: f64,
    /// True when the context could not tell the best ones apart (then `near` or the first one
    /// decided).
    pub tied: bool,
}

impl HintChoice {
    /// One line saying what was chosen.
    pub fn describe(&self) -> String {
        format!(
            "occurrence {} of {} chosen by the hints (context agreement {:.2}{})",
            self.chosen,
            self.candidates,
            self.agreement,
            if self.tied {
                "; tied on context, nearest or first taken"
            } else {
                ""
            }
        )
    }
}

/// Scores closer than this are a tie.
const TIE: f64 = 1e-9;

impl Haystack<'_> {
    /// [`Haystack::locate`], then, when the matched text occurs more than once, the occurrence
    /// the hints point at (see the module docs). The [`HintChoice`] is `None` when there was
    /// nothing to choose (no hints, or one occurrence).
    pub fn locate_hinted(
        &self,
        quote: &str,
        options: &LocateOptions,
        hints: &LocateHints,
    ) -> Option<(Located, Option<HintChoice>)> {
        let found = self.locate(quote, options)?;
        if hints.is_empty() {
            return Some((found, None));
        }
        let spans = self.same_text_spans(quote, &found);
        if spans.len() < 2 {
            return Some((found, None));
        }
        let raw: Vec<char> = self.raw().chars().collect();
        let scores: Vec<f64> = spans
            .iter()
            .map(|&(a, b)| agreement(&raw, a, b, hints))
            .collect();
        let best = scores.iter().cloned().fold(f64::MIN, f64::max);
        let leaders: Vec<usize> = (0..spans.len())
            .filter(|&i| best - scores[i] < TIE)
            .collect();
        let pick = match hints.near {
            Some(near) => *leaders
                .iter()
                .min_by_key(|&&i| spans[i].0.abs_diff(near))
                .expect("at least one leader"),
            None => leaders[0],
        };
        let (start, end) = spans[pick];
        let choice = HintChoice {
            candidates: spans.len(),
            chosen: pick + 1,
            agreement: scores[pick],
            tied: leaders.len() > 1,
        };
        Some((
            Located {
                start,
                end,
                ..found
            },
            Some(choice),
        ))
    }

    /// Every span holding the same text the locator matched: the raw quote's occurrences for an
    /// exact match (overlapping ones included), else the occurrences of the matched span's
    /// folded text in the folded chunk, mapped back.
    fn same_text_spans(&self, quote: &str, found: &Located) -> Vec<(usize, usize)> {
        let raw = self.raw();
        if found.how == super::How::Exact {
            let len = quote.chars().count();
            return starts_of(raw, quote)
                .into_iter()
                .map(|s| (s, s + len))
                .collect();
        }
        let span: String = raw
            .chars()
            .skip(found.start)
            .take(found.end - found.start)
            .collect();
        let needle = fold(&span).text();
        let folded = self.folded();
        let hay = folded.text();
        let len = needle.chars().count();
        if len == 0 {
            return vec![(found.start, found.end)];
        }
        let spans: Vec<(usize, usize)> = starts_of(&hay, &needle)
            .into_iter()
            .map(|a| folded.raw_span(a, a + len))
            .collect();
        if spans.contains(&(found.start, found.end)) {
            spans
        } else {
            // The fold of the span alone differs from its fold in place (whitespace at an
            // edge): nothing to choose among.
            vec![(found.start, found.end)]
        }
    }
}

/// Char starts of every occurrence of `needle` in `text`, overlapping ones included.
fn starts_of(text: &str, needle: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    let mut chars_before = 0;
    let mut counted_to = 0;
    while let Some(found) = text[from..].find(needle) {
        let at = from + found;
        chars_before += text[counted_to..at].chars().count();
        counted_to = at;
        out.push(chars_before);
        from = at + text[at..].chars().next().map_or(1, char::len_utf8);
        if from >= text.len() {
            break;
        }
    }
    out
}

/// Prefix plus suffix similarity of the candidate `[a, b)` of `raw`.
fn agreement(raw: &[char], a: usize, b: usize, hints: &LocateHints) -> f64 {
    let side = |hint: &Option<String>, before: bool| -> f64 {
        let Some(hint) = hint.as_deref().filter(|h| !h.is_empty()) else {
            return 0.0;
        };
        let hint: Vec<char> = hint.chars().collect();
        let window = if before {
            &raw[a.saturating_sub(hint.len())..a]
        } else {
            &raw[b..(b + hint.len()).min(raw.len())]
        };
        if window.is_empty() {
            return 0.0;
        }
        indel::normalized_similarity(hint.iter().copied(), window.iter().copied())
    };
    side(&hints.prefix, true) + side(&hints.suffix, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "lorem ipsum dolor amet yada yada";

    fn hints(prefix: &str, suffix: &str, near: Option<usize>) -> LocateHints {
        LocateHints {
            prefix: Some(prefix.into()),
            suffix: Some(suffix.into()),
            near,
        }
    }

    #[test]
    fn hints_choose_among_occurrences() {
        // (quote, hints, expected start, tied)
        let cases = [
            ("yada", hints("t ", "", None), 23, false),
            ("yada", hints("a ", "", None), 28, false),
            ("o", hints("", "l", None), 13, false),
            ("o", hints("l", "re", None), 1, false),
            ("o", hints("l", "r", None), 1, true),
            ("o", hints("l", "r", Some(14)), 15, true),
            ("yada", hints("", "", Some(30)), 28, true),
        ];
        let hay = Haystack::new(TEXT);
        for (quote, h, start, tied) in cases {
            let (found, choice) = hay
                .locate_hinted(quote, &LocateOptions::default(), &h)
                .unwrap();
            assert_eq!(found.start, start, "{quote:?} {h:?}");
            assert_eq!(choice.unwrap().tied, tied, "{quote:?} {h:?}");
        }
    }

    #[test]
    fn without_hints_it_is_locate() {
        let hay = Haystack::new(TEXT);
        for quote in [
            "yada",
            "o",
            "dolor amet",
            "dollar amet",
            "nothing like this at all",
        ] {
            let plain = hay.locate(quote, &LocateOptions::default());
            let hinted = hay
                .locate_hinted(quote, &LocateOptions::default(), &LocateHints::default())
                .map(|(l, c)| {
                    assert!(c.is_none());
                    l
                });
            assert_eq!(plain, hinted, "{quote:?}");
        }
    }

    #[test]
    fn near_identical_occurrences_are_chosen_in_folded_space() {
        let text = "we had everything before us, we had nothing before us, we were";
        let hay = Haystack::new(text);
        let second = text.find("before us, we were").unwrap();
        let (found, choice) = hay
            .locate_hinted(
                "befor us",
                &LocateOptions::default(),
                &LocateHints {
                    near: Some(second),
                    ..LocateHints::default()
                },
            )
            .unwrap();
        assert_eq!(found.start, second);
        assert_eq!(choice.unwrap().candidates, 2);
    }
}
