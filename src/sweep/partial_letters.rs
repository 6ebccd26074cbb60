//! Rung 5d of the ladder: a partly edited span in text another loader laid out anew. Rung 5c
//! (`partial.rs`) reads the char diff, which a re-wrap or a new extractor breaks into short
//! runs; here the span's letters (the projection of rung 5b, `letters.rs`) are matched instead,
//! so a line the new loader dropped inside the span (a heading, a navigation line, an
//! admonition title, a definition term) leaves the rest of the span in long runs.
//!
//! When half of the span's letters survive, in order, in runs of at least
//! [`PARTLY_RUN`] letters, around its grams unique to both revisions or around where the char
//! diff carried what survives of it, the span is `degraded` (`diff`) from the first surviving
//! run to the last, the reason naming what changed. When only whole lines of the span are gone
//! (each line kept or dropped nearly whole: what a loader that has no place for a heading, a
//! navigation line or a table column does), [`PARTLY_ACCEPT`] is enough, in runs of
//! [`LINE_RUN`] letters if need be.
//!
//! Invariants: a span of which less than [`PARTLY_ACCEPT`] of its letters survive in such runs
//! is never placed here, nor one under half unless only whole lines of it are gone (deleted
//! text stays `lost`); the region holds only runs of the span's own letters and what lies
//! between them, spans at most [`MAX_STRETCH`](super::letters::MAX_STRETCH) times the span,
//! and a region the look-alike guard refuses (mostly text the old revision had elsewhere) is
//! not placed; a number or negation that differs is named in the reason.

use super::letters::PARTLY_RUN;
use super::partial::Kept;
use super::{trim, Anchor, Changed, Citation, DocumentSweep, Placed, DELETED_BELOW};
use crate::text::Folded;

/// Share of the span's letters that must survive in long runs. Below the char rungs'
/// [`DELETED_BELOW`](super::DELETED_BELOW): the
/// loader that dropped a line inside the span also re-wraps the rest, and the letters of a
/// word list or a short line between two breaks lie in runs too short to count, so a span the
/// oracle finds 50-70% of measures 42-46% here (the HTML loader switch, `bench/`). Deleted
/// text, with under a fifth of its letters left anywhere, cannot reach it.
pub(super) const PARTLY_ACCEPT: f64 = 0.4;

/// Shortest run of letters counted when only whole lines of the span were dropped: a table
/// row's cell (`ctypes.cdata`) whose neighbours the new loader left out.
pub(super) const LINE_RUN: usize = 8;

impl DocumentSweep<'_> {
    /// Rung 5d: see the module's docs.
    pub(in crate::sweep) fn follow_partly_letters(
        &self,
        ch: &Changed,
        c: &Citation<'_>,
        placed: &Placed,
        needle: &Folded,
    ) -> Option<Anchor> {
        let carried = placed.mapped.region.filter(|_| placed.mapped.grounded());
        let letters = self.letters(ch);
        let own = (c.start, c.end);
        let surviving = letters
            .surviving(c.start, c.end, PARTLY_ACCEPT, PARTLY_RUN, carried)
            .filter(|s| {
                s.share >= DELETED_BELOW || whole_lines_dropped(&ch.old.chars, own, &s.runs)
            })
            .or_else(|| {
                letters
                    .surviving(c.start, c.end, PARTLY_ACCEPT, LINE_RUN, carried)
                    .filter(|s| whole_lines_dropped(&ch.old.chars, own, &s.runs))
            })?;
        let runs = &surviving.runs;
        let (first, last) = (runs.first()?, runs.last()?);
        let (a, b) = with_punctuation(ch, own, first, last);
        let (a, b) = trim(&ch.new.chars, a, b)?;
        if ch.is_lookalike(a, b, c.start, c.end) {
            return None;
        }
        let measured = "letters survive in order";
        Some(self.partly_edited(ch, own, runs, (a, b), surviving.share, measured, needle))
    }
}

/// The new region from the `first` surviving run to the `last`, widened over the punctuation
/// next to them that the old span has next to them too (a colon after the last word, an
/// opening parenthesis): letters runs hold letters only.
fn with_punctuation(
    ch: &Changed,
    own: (usize, usize),
    first: &Kept,
    last: &Kept,
) -> (usize, usize) {
    let (old, new) = (&ch.old.chars, &ch.new.chars);
    let is_mark = |x: &char| !x.is_alphanumeric() && !x.is_whitespace();
    let (mut a, mut b) = (first.1 .0, last.1 .1);
    let (mut oa, mut ob) = (first.0 .0, last.0 .1);
    while oa > own.0 && a > 0 && old[oa - 1] == new[a - 1] && is_mark(&new[a - 1]) {
        (oa, a) = (oa - 1, a - 1);
    }
    while ob < own.1 && b < new.len() && old[ob] == new[b] && is_mark(&new[b]) {
        (ob, b) = (ob + 1, b + 1);
    }
    (a, b)
}

/// Whether each line of the old span `own` kept its letters or lost them, nearly whole (at
/// most a quarter of a line's letters on the other side: the alignment gives a kept line's
/// first letters to the run before it now and then): the loader dropped whole lines (a
/// heading, a navigation line, the cells of a table column, a list the new layout has no place
/// for) and left the others alone, as an edit rewording a sentence does not.
fn whole_lines_dropped(old: &[char], own: (usize, usize), runs: &[Kept]) -> bool {
    let mixed =
        |kept: usize, dropped: usize| 4 * kept > kept + dropped && 4 * dropped > kept + dropped;
    let mut next = 0;
    let (mut kept, mut dropped) = (0, 0);
    for (i, &x) in old.iter().enumerate().take(own.1).skip(own.0) {
        if x == '\n' {
            if mixed(kept, dropped) {
                return false;
            }
            (kept, dropped) = (0, 0);
            continue;
        }
        if !x.is_alphanumeric() {
            continue;
        }
        while next < runs.len() && runs[next].0 .1 <= i {
            next += 1;
        }
        if runs.get(next).is_some_and(|r| r.0 .0 <= i) {
            kept += 1;
        } else {
            dropped += 1;
        }
    }
    !mixed(kept, dropped)
}
