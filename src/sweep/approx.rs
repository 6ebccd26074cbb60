//! Rung 6b of the ladder: the span's folded text aligned by edit distance in the stretch of
//! new text between where the diff carries the text around it. A table or a key-value list
//! that another extractor joined row by row keeps most of a cited stretch's characters, but
//! in runs too short for the diff (rungs 5, 5c), in words too few or too reordered for the
//! letters and words rungs (5b, 5d, 5e). Its neighbours survive, so the diff still says
//! where the stretch stands; an alignment with few enough edits there is where it went.
//!
//! Only in a text another extractor changed everywhere ([`super::diff::DiffMap::rewritten`]):
//! there a stretch the diff cannot follow was laid out anew, not rewritten. Between two
//! releases of a document, the same test placed rewritten sentences (`ensure it's an immutable
//! object` → `ensure it's a callable`) that the oracles call deleted, and took "deleted →
//! lost" on the Django harness under 95% (`bench/RESULTS-releases.md`).
//!
//! Invariants: the alignment lies inside the bracket, the new text over which the diff
//! carries the old text from [`BRACKET`] span lengths before the span to as far after it
//! (never elsewhere in the document: a deleted span is not looked for far away); a span under
//! [`MIN_FUZZY_CHARS`] folded chars is not aligned; the alignment has at most [`MAX_EDITS`]
//! edits per char of the span; a region made mostly of text the old revision had outside the
//! span is a look-alike and refused; a second alignment in the bracket within
//! [`EDITS_MARGIN`] edits of the best, apart from it, leaves the span lost. The span is
//! `degraded`.

use super::{trim, Anchor, Changed, Citation, DocumentSweep, Method, Placed, Status};
use super::{FOLLOW_DIFF, MIN_FUZZY_CHARS};
use crate::text::locate::meaning_change_with;
use crate::text::Folded;

/// How far around the span the bracket reaches, in span lengths of old text.
pub(super) const BRACKET: usize = 1;

/// Most edits per char of the span an alignment may need.
pub(super) const MAX_EDITS: f64 = 0.5;

/// Share of the span's length by which the best alignment must need fewer edits than any
/// other apart from it.
pub(super) const EDITS_MARGIN: f64 = 0.1;

/// Most DP cells one alignment may take (span chars × bracket chars): a bound on the work a
/// long span in a long bracket costs.
const MAX_CELLS: usize = 16_000_000;

/// Every semi-global alignment of `needle` in `hay` (unit-cost edits, free to start and end
/// anywhere in `hay`), by where it ends: entry `j` is `(edits, start)` of the alignment with
/// the fewest edits that ends at `j + 1`. One column of the edit-distance table, updated in
/// place per char of `hay` (the crates at hand align bytes, or whole strings).
fn alignments(needle: &[char], hay: &[char]) -> Vec<(u32, u32)> {
    let m = needle.len();
    // Cell i: (edits, start in `hay`) of the best path through needle[..i] ending here.
    let mut cost: Vec<u32> = (0..=m as u32).collect();
    let mut from: Vec<u32> = vec![0; m + 1];
    let mut ends = Vec::with_capacity(hay.len());
    for (j, &h) in hay.iter().enumerate() {
        // The previous column's cell i - 1 (the diagonal), before it is overwritten.
        let (mut diag_cost, mut diag_from) = (cost[0], from[0]);
        cost[0] = 0;
        from[0] = j as u32 + 1;
        for i in 1..=m {
            let (left_cost, left_from) = (cost[i], from[i]);
            let mut best = (diag_cost + u32::from(needle[i - 1] != h), diag_from);
            if left_cost + 1 < best.0 {
                best = (left_cost + 1, left_from);
            }
            if cost[i - 1] + 1 < best.0 {
                best = (cost[i - 1] + 1, from[i - 1]);
            }
            (diag_cost, diag_from) = (left_cost, left_from);
            (cost[i], from[i]) = best;
        }
        ends.push((cost[m], from[m]));
    }
    ends
}

/// The first alignment with the fewest edits: `(start, end, edits)`, and whether another,
/// apart from it (ending before it starts or starting after it ends), needs fewer than
/// `margin` more edits.
fn best_alignment(
    needle: &[char],
    hay: &[char],
    margin: u32,
) -> Option<(usize, usize, usize, bool)> {
    if needle.is_empty() || hay.is_empty() {
        return None;
    }
    let ends = alignments(needle, hay);
    let (end, &(edits, start)) = ends.iter().enumerate().min_by_key(|(_, e)| e.0)?;
    let (start, end) = (start as usize, end + 1);
    let rival = ends
        .iter()
        .enumerate()
        .any(|(j, &(e, s))| e < edits + margin && (j < start || s as usize >= end));
    Some((start, end, edits as usize, rival))
}

impl DocumentSweep<'_> {
    /// Rungs 6, 6b and 7: the fuzzy rung's anchor, unless it is `lost` and rung 6b places
    /// the span.
    pub(in crate::sweep) fn fuzzy_else_edits(
        &self,
        ch: &Changed,
        c: &Citation<'_>,
        placed: &Placed,
        needle: &Folded,
    ) -> Anchor {
        let fuzzy = self.fuzzy(ch, c, placed, needle);
        if fuzzy.status != Status::Lost {
            return fuzzy;
        }
        self.follow_edits(ch, placed, needle).unwrap_or(fuzzy)
    }

    /// Rung 6b: see the module's docs.
    fn follow_edits(&self, ch: &Changed, placed: &Placed, needle: &Folded) -> Option<Anchor> {
        let m = needle.chars.len();
        if !ch.diff.rewritten() || m < MIN_FUZZY_CHARS || placed.survival >= FOLLOW_DIFF {
            return None;
        }
        let (own_start, own_end) = placed.own;
        let reach = BRACKET * (own_end - own_start);
        let around = ch.diff.map_span(
            own_start.saturating_sub(reach),
            (own_end + reach).min(ch.old.chars.len()),
        );
        let (from, to) = around.region.unwrap_or((around.point, around.point));
        if to <= from {
            return None;
        }
        let new_folded = self.new_folded(ch);
        let (fa, fb) = (new_folded.folded_at(from), new_folded.folded_at(to));
        let hay = &new_folded.chars[fa..fb];
        if hay.len() < m / 2 || m.saturating_mul(hay.len()) > MAX_CELLS {
            return None;
        }
        let margin = (EDITS_MARGIN * m as f64).ceil() as u32;
        let (a, b, edits, rival) = best_alignment(&needle.chars, hay, margin)?;
        if b <= a || edits as f64 > MAX_EDITS * m as f64 || rival {
            return None;
        }
        let (start, end) = new_folded.raw_span(fa + a, fa + b);
        let (start, end) = trim(&ch.new.chars, start, end)?;
        if ch.is_lookalike(start, end, own_start, own_end) {
            return None;
        }
        let matched = 100.0 * (1.0 - edits as f64 / m as f64);
        let mut reason = format!(
            "laid out anew: {matched:.0}% of the span's characters align, in order, between \
             where the text around it went ({edits} edits)"
        );
        if let Some(change) = meaning_change_with(&needle.chars, &hay[a..b], true) {
            reason.push_str("; ");
            reason.push_str(&change);
        }
        Some(self.found(
            Status::Degraded,
            start,
            end,
            matched,
            Method::Fuzzy,
            Some(reason),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::best_alignment;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn a_second_alignment_apart_and_nearly_as_good_is_a_rival() {
        let needle = chars("abcdef");
        let cases: &[(&str, u32, bool)] = &[
            ("xxabcdefxxxxabcdefxx", 1, true),
            ("xxabcdefxxxxabcxxxxx", 1, false),
            ("xxabcdefxxxxabcxxxxx", 4, true),
            ("xxabcdefxx", 6, false),
        ];
        for (hay, margin, rival) in cases {
            let got = best_alignment(&needle, &chars(hay), *margin).unwrap();
            assert_eq!((got.0, got.1, got.2), (2, 8, 0), "{hay}");
            assert_eq!(got.3, *rival, "{hay} margin {margin}");
        }
    }

    #[test]
    fn alignment_is_semi_global_and_counts_edits() {
        let cases: &[(&str, &str, (usize, usize, usize))] = &[
            ("abc", "xxabcxx", (2, 5, 0)),
            ("abc", "xxabxx", (2, 4, 1)),
            ("kilometri km", "kilometri \\km km", (0, 13, 1)),
            ("abcd", "zzzz", (0, 0, 4)),
        ];
        for (needle, hay, want) in cases {
            let got = best_alignment(&chars(needle), &chars(hay), 0).unwrap();
            assert_eq!(got.2, want.2, "{needle} in {hay}");
            if want.2 < needle.len() {
                assert_eq!((got.0, got.1), (want.0, want.1), "{needle} in {hay}");
            }
        }
    }
}
