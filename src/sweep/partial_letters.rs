//! Rung 5d of the ladder: a partly edited span in text another loader laid out anew. Rung 5c
//! (`partial.rs`) reads the char diff, which a re-wrap or a new extractor breaks into short
//! runs; here the span's letters (the projection of rung 5b, `letters.rs`) are matched instead,
//! so a line the new loader dropped inside the span (a heading, a navigation line, an
//! admonition title, a definition term) leaves the rest of the span in long runs.
//!
//! When [`PARTLY_ACCEPT`] or more of the span's letters survive, in order, in runs of at least
//! [`PARTLY_RUN`](super::letters::PARTLY_RUN) letters, around its grams unique to both
//! revisions or around where the char diff carried what survives of it, the span is
//! `degraded` (`diff`) from the first surviving run to the last, the reason naming what
//! changed.
//!
//! Invariants: a span of which less than [`PARTLY_ACCEPT`] of its letters survive in such runs
//! is never placed here (deleted text stays `lost`); the region holds only runs of the span's
//! own letters and what lies between them, spans at most
//! [`MAX_STRETCH`](super::letters::MAX_STRETCH) times the span, and a region the look-alike
//! guard refuses (mostly text the old revision had elsewhere) is not placed; a number or
//! negation that differs is named in the reason.

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
        let surviving = self
            .letters(ch)
            .surviving(c.start, c.end, PARTLY_ACCEPT, carried)?;
        let runs = &surviving.runs;
        if surviving.share < DELETED_BELOW
            && !whole_lines_dropped(&ch.old.chars, (c.start, c.end), runs)
        {
            return None;
        }
        let (first, last) = (runs.first()?, runs.last()?);
        let (a, b) = with_punctuation(ch, (c.start, c.end), first, last);
        let (a, b) = trim(&ch.new.chars, a, b)?;
        if ch.is_lookalike(a, b, c.start, c.end) {
            return None;
        }
        let measured = "letters survive in order";
        let own = (c.start, c.end);
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

/// Whether every line of the old span `own` that lost a letter lost all its letters in the
/// span: the loader dropped whole lines (a heading, a navigation line, a list the new layout
/// has no place for) and left the others' letters alone, as an edit rewording a sentence does
/// not.
fn whole_lines_dropped(old: &[char], own: (usize, usize), runs: &[Kept]) -> bool {
    let mut next = 0;
    let (mut kept, mut dropped) = (false, false);
    for (i, &x) in old.iter().enumerate().take(own.1).skip(own.0) {
        if x == '\n' {
            if kept && dropped {
                return false;
            }
            (kept, dropped) = (false, false);
            continue;
        }
        if !x.is_alphanumeric() {
            continue;
        }
        while next < runs.len() && runs[next].0 .1 <= i {
            next += 1;
        }
        if runs.get(next).is_some_and(|r| r.0 .0 <= i) {
            kept = true;
        } else {
            dropped = true;
        }
    }
    !(kept && dropped)
}
