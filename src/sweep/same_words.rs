//! Rung 5e of the ladder: a span whose words another extractor laid out in another order. A
//! table that one extractor reads column by column (`\um \mm \cm`, then `µm mm cm`) and
//! another row by row (`\um µm`, `\mm mm`) keeps every word of a cited stretch, but neither
//! its chars (rungs 4-5c) nor its letters (rungs 5b and 5d) stay in order long enough to
//! follow. Here the span's words are counted, in any order, in windows of about as many words
//! around where the char diff carries the span.
//!
//! Invariants: a span of fewer than [`MIN_WORDS`] words is never placed here (a few words
//! recur together by chance), and one under [`SHORT_SPAN`] letters only with all its words
//! in a window [`SHORT_WINDOW_OWN`] its own; the window holds at least [`WORDS_FOUND`] of the span's words
//! (each counted as often as the span has it) and is at least [`WINDOW_OWN`] the span's
//! words; it lies within [`REACH`] times the span's length of where the diff carries it; a
//! second window as good elsewhere, or one made mostly of text the old revision had outside
//! the span (the look-alike guard: the words of deleted text found around it), leaves the
//! span to the next rung. The span is `degraded`, the reason saying the words are laid out
//! anew.

use super::letters::SHORT_SPAN;
use super::{trim, Anchor, Changed, Citation, DocumentSweep, Method, Placed, Status};
use std::collections::HashMap;
use unicode_normalization::UnicodeNormalization;

/// Fewest words a span needs for its words alone to say where it went.
pub(super) const MIN_WORDS: usize = 6;

/// Share of the span's words (with their counts) a window must hold.
pub(super) const WORDS_FOUND: f64 = 0.8;

/// Share of a window's words that must be the span's: a window padded with other text is
/// not where the span went.
pub(super) const WINDOW_OWN: f64 = 0.75;

/// [`WINDOW_OWN`] for a span under [`SHORT_SPAN`] letters, which also needs all its words.
pub(super) const SHORT_WINDOW_OWN: f64 = 0.85;

/// How far from where the diff carries the span a window may lie, in span lengths.
pub(super) const REACH: usize = 3;

/// A word of the text: its folded form (NFKC, lowercase) and its raw `[start, end)`.
type Word = (String, usize, usize);

/// The words (runs of letters and digits) of `text[from..to]`.
fn words(text: &[char], from: usize, to: usize) -> Vec<Word> {
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        if !text[i].is_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < to && text[i].is_alphanumeric() {
            i += 1;
        }
        let word: String = text[start..i].iter().collect::<String>().nfkc().collect();
        out.push((word.to_lowercase(), start, i));
    }
    out
}

/// The best window of the new words (`new`: each word's id among the span's distinct words,
/// 0 for a word the span does not have; `wanted`: how often the span has each id):
/// `(first, last)` word indexes and the span's words it holds, and whether another window,
/// apart from it, holds as many. Ids, not strings, so that each window step is two array
/// updates.
fn best_window(wanted: &[usize], m: usize, new: &[usize]) -> Option<(usize, usize, usize, bool)> {
    let shortest = ((m as f64) * WINDOW_OWN).floor().max(1.0) as usize;
    let longest = ((m as f64) / WINDOW_OWN).ceil() as usize;
    let mut best: Option<(usize, usize, usize)> = None;
    let mut rival = false;
    let mut counts = vec![0usize; wanted.len()];
    for k in shortest..=longest.min(new.len()) {
        counts.iter_mut().for_each(|c| *c = 0);
        let mut held = 0usize;
        for (j, &id) in new.iter().enumerate() {
            counts[id] += 1;
            if counts[id] <= wanted[id] {
                held += 1;
            }
            if j >= k {
                let out = new[j - k];
                if counts[out] <= wanted[out] {
                    held -= 1;
                }
                counts[out] -= 1;
            }
            if j + 1 < k {
                continue;
            }
            let (first, last) = (j + 1 - k, j);
            match best {
                Some((_, _, h)) if held < h => {}
                Some((bf, bl, h)) if held == h => {
                    // As good, elsewhere: which one is meant cannot be told.
                    if last < bf || first > bl {
                        rival = true;
                    }
                }
                _ => {
                    rival = false;
                    best = Some((first, last, held));
                }
            }
        }
    }
    let (first, last, held) = best?;
    Some((first, last, held, rival))
}

impl DocumentSweep<'_> {
    /// Rung 5e: see the module's docs.
    pub(in crate::sweep) fn follow_same_words(
        &self,
        ch: &Changed,
        c: &Citation<'_>,
        placed: &Placed,
    ) -> Option<Anchor> {
        let own = words(&ch.old.chars, c.start, c.end);
        let m = own.len();
        if m < MIN_WORDS {
            return None;
        }
        // A short span's words recur together by chance more easily: it needs all of them,
        // in a window of little else.
        let letters: usize = own.iter().map(|w| w.2 - w.1).sum();
        let (found, window_own) = if letters < SHORT_SPAN {
            (1.0, SHORT_WINDOW_OWN)
        } else {
            (WORDS_FOUND, WINDOW_OWN)
        };
        // The span's distinct words numbered from 1 (0: any other word), and their counts.
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut wanted = vec![0usize];
        for w in &own {
            let id = *ids.entry(w.0.as_str()).or_insert_with(|| {
                wanted.push(0);
                wanted.len() - 1
            });
            wanted[id] += 1;
        }
        let len = c.end - c.start;
        let at = placed.mapped.region.map_or(placed.mapped.point, |r| r.0);
        let from = at.saturating_sub(REACH * len);
        let to = (at + (REACH + 1) * len).min(ch.new.chars.len());
        let new = words(&ch.new.chars, from, to);
        let new_ids: Vec<usize> = new
            .iter()
            .map(|w| ids.get(w.0.as_str()).copied().unwrap_or(0))
            .collect();
        // Text that lost the span's words (the common case here) is refused before any
        // window is tried: the whole search area holds too few of them.
        let mut in_area = vec![0usize; wanted.len()];
        new_ids.iter().for_each(|&id| in_area[id] += 1);
        let at_most: usize = (1..wanted.len())
            .map(|id| in_area[id].min(wanted[id]))
            .sum();
        if (at_most as f64) < found * m as f64 {
            return None;
        }
        let (first, last, held, rival) = best_window(&wanted, m, &new_ids)?;
        let k = last + 1 - first;
        if rival || (held as f64) < found * m as f64 || (held as f64) < window_own * k as f64 {
            return None;
        }
        let (a, b) = trim(&ch.new.chars, new[first].1, new[last].2)?;
        if ch.is_lookalike(a, b, c.start, c.end) {
            return None;
        }
        let reason = format!(
            "the same words laid out anew: {held} of the span's {m} words are found together \
             here, in another order"
        );
        Some(self.found(
            Status::Degraded,
            a,
            b,
            100.0 * held as f64 / m as f64,
            Method::Diff,
            Some(reason),
        ))
    }
}
