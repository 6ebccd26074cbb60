//! Rung 5c of the ladder: a partly edited span. When between [`DELETED_BELOW`] and
//! [`FOLLOW_DIFF`] of the span's chars survive in the diff, and what survives lies in long runs
//! (a block inserted or dropped inside the span, words replaced, the span's end rewritten),
//! the span is where those runs went: `degraded` (`diff`), from the first to the last long run
//! (short runs next to them kept), the reason naming what changed.
//!
//! Why long runs: a deleted sentence shares letters and short words with whatever replaced it
//! ("the ", "ing a"); text the edit left alone survives in runs of whole phrases. Only chars in
//! runs of at least [`LONG_RUN`] chars (counted whole, inside the span and around it) count
//! towards the surviving share this rung asks for.
//!
//! Invariants: a span of which less than [`DELETED_BELOW`] survives in long runs is never
//! placed here (deleted text stays `lost`); the region holds only the span's own surviving
//! chars and text new to the revision (the diff never crosses itself), and a region the
//! look-alike guard refuses is not placed; a number or negation that differs is named in the
//! reason, never a reason to place elsewhere.

use super::diff::Run;
use super::{
    trim, Anchor, Changed, DocumentSweep, Method, Placed, Status, DELETED_BELOW, FOLLOW_DIFF,
    MIN_FOLLOWED,
};
use crate::text::locate::meaning_change;
use crate::text::{fold, plural, Folded};

/// A run of the span that survived: its raw `[start, end)` in the old revision, then in the new.
pub(in crate::sweep) type Kept = ((usize, usize), (usize, usize));

/// Shortest equal run (counted whole) whose chars count as text the edit left alone.
pub(crate) const LONG_RUN: usize = 16;

/// Most chars between a short run and the long runs' extent for it to join the region.
const NEXT_TO: usize = 2 * MIN_FOLLOWED;

impl DocumentSweep<'_> {
    /// Rung 5c: see the module's docs.
    pub(in crate::sweep) fn follow_partial(
        &self,
        ch: &Changed,
        placed: &Placed,
        needle: &Folded,
    ) -> Option<Anchor> {
        let (own_start, own_end) = placed.own;
        let len = own_end - own_start;
        let survival = placed.survival;
        if !(DELETED_BELOW..FOLLOW_DIFF).contains(&survival) || !placed.mapped.grounded() {
            return None;
        }
        if ch.diff.split_by_chance(own_start, own_end, &placed.mapped) {
            return None;
        }
        let pieces: Vec<(Run, usize)> = ch.diff.runs_within_old(own_start, own_end).collect();
        let long: usize = pieces.iter().filter(|p| is_long(p)).map(|p| p.0.len).sum();
        if (long as f64) < DELETED_BELOW * len as f64 || long < MIN_FOLLOWED {
            return None;
        }
        let kept = region(&pieces)?;
        let (a, b) = (kept.first()?.new, kept.last().map(|r| r.new + r.len)?);
        let (a, b) = trim(&ch.new.chars, a, b)?;
        if ch.is_lookalike(a, b, own_start, own_end) {
            return None;
        }
        let kept: Vec<Kept> = kept
            .iter()
            .map(|r| ((r.old, r.old + r.len), (r.new, r.new + r.len)))
            .collect();
        let measured = "characters survive in the diff";
        Some(self.partly_edited(ch, placed.own, &kept, (a, b), survival, measured, needle))
    }

    /// The `degraded` anchor of a partly edited span `own` placed at new `[a, b)` over its
    /// surviving runs `kept`, `share` of it surviving as `measured` says: the reason names what
    /// changed (rungs 5c and 5d).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::sweep) fn partly_edited(
        &self,
        ch: &Changed,
        own: (usize, usize),
        kept: &[Kept],
        (a, b): (usize, usize),
        share: f64,
        measured: &str,
        needle: &Folded,
    ) -> Anchor {
        let mut reason = format!(
            "partly edited: {:.0}% of the span's {measured}",
            share * 100.0
        );
        for change in self.changes(ch, own, kept) {
            reason += &format!("; {change}");
        }
        let now = fold(&ch.new.chars[a..b].iter().collect::<String>());
        if let Some(change) = meaning_change(&needle.chars, &now.chars) {
            reason += &format!("; {change}");
        }
        self.found(
            Status::Degraded,
            a,
            b,
            share * 100.0,
            Method::Diff,
            Some(reason),
        )
    }

    /// What the edit did between and around the surviving runs `kept` of old span `own` (each
    /// run's raw range in the old and in the new revision, in order): lines inserted or
    /// dropped, words replaced, the start or end rewritten.
    pub(in crate::sweep) fn changes(
        &self,
        ch: &Changed,
        own: (usize, usize),
        kept: &[Kept],
    ) -> Vec<String> {
        let (old, new) = (&ch.old.chars, &ch.new.chars);
        let mut out: Vec<String> = Vec::new();
        let mut note = |s: String| {
            if !out.contains(&s) {
                out.push(s);
            }
        };
        let has_text = |t: &[char]| t.iter().filter(|c| !c.is_whitespace()).count() > 0;
        // Numbers are named by the meaning guard's note (`numbers differ`); a gap where no word
        // changed, only numbers and marks (a listing's line numbers laid out anew), is no other
        // change.
        let only_numbers = |t: &[char]| !t.iter().any(|c| c.is_alphabetic());
        for w in kept.windows(2) {
            let dropped = &old[w[0].0 .1..w[1].0 .0];
            let inserted = &new[w[0].1 .1..w[1].1 .0];
            if only_numbers(dropped) && only_numbers(inserted) {
                continue;
            }
            let lines = |t: &[char]| t.contains(&'\n') && has_text(t);
            let was_dropped = has_text(dropped);
            // New text there that is old text of the gap (what the alignment left between two
            // runs of a re-laid table) is nothing new: only the rest was dropped.
            let is_new = has_text(inserted)
                && !(was_dropped && in_order_within(&letters_of(dropped), &letters_of(inserted)));
            match (was_dropped, is_new) {
                (false, true) if lines(inserted) => note("lines inserted inside the span".into()),
                (true, false) if lines(dropped) => note("lines dropped inside the span".into()),
                (false, true) => note("words inserted".into()),
                (true, false) => note("words dropped".into()),
                (true, true) if lines(inserted) && !lines(dropped) => {
                    note("lines inserted inside the span".into())
                }
                (true, true) if lines(dropped) && !lines(inserted) => {
                    note("lines dropped inside the span".into())
                }
                (true, true) => note("words replaced".into()),
                (false, false) => {}
            }
        }
        let (first, last) = (kept[0].0, kept[kept.len() - 1].0);
        let head = first.0 - own.0;
        let tail = own.1 - last.1;
        if has_text(&old[own.0..first.0]) {
            note(format!(
                "the span's first {} changed or gone",
                plural(head, "character", "characters")
            ));
        }
        if has_text(&old[last.1..own.1]) {
            note(format!(
                "the span's last {} changed or gone",
                plural(tail, "character", "characters")
            ));
        }
        out
    }
}

/// Whether a piece of the span (with its whole run's length) is text the edit left alone: it
/// lies in a run of at least [`LONG_RUN`] chars. (Asking also for [`MIN_FOLLOWED`] of them
/// inside the span placed fewer partly edited spans on the Django releases and kept no more
/// deleted ones lost.)
fn is_long(p: &(Run, usize)) -> bool {
    p.1 >= LONG_RUN
}

/// The pieces that make the region: from the first to the last piece of a long run, widened
/// by short pieces within [`NEXT_TO`] chars of it (the edited words' shared letters), in order.
fn region(pieces: &[(Run, usize)]) -> Option<Vec<Run>> {
    let first = pieces.iter().position(is_long)?;
    let last = pieces.iter().rposition(is_long)?;
    let (mut from, mut to) = (first, last);
    while from > 0
        && pieces[from].0.new - (pieces[from - 1].0.new + pieces[from - 1].0.len) <= NEXT_TO
    {
        from -= 1;
    }
    while to + 1 < pieces.len()
        && pieces[to + 1].0.new - (pieces[to].0.new + pieces[to].0.len) <= NEXT_TO
    {
        to += 1;
    }
    Some(pieces[from..=to].iter().map(|p| p.0).collect())
}

/// The letters and digits of `text`, lowercased.
pub(super) fn letters_of(text: &[char]) -> Vec<char> {
    text.iter()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}

/// Whether `needle` is a subsequence of `hay` (its letters there, in order).
pub(super) fn in_order_within(hay: &[char], needle: &[char]) -> bool {
    let mut hay = hay.iter();
    needle.iter().all(|c| hay.any(|h| h == c))
}
