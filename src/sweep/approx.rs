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
//! (never elsewhere in the document: a deleted span is not looked for far away); a span under [`MIN_FUZZY_CHARS`] folded chars is not aligned; the alignment has at
//! most [`MAX_EDITS`] edits per char of the span; a region made mostly of text the old
//! revision had outside the span is a look-alike and refused; a second alignment in the
//! bracket within [`EDITS_MARGIN`] edits of the best, apart from it, leaves the span to the
//! next rung. The span is `degraded`.

use super::{trim, Anchor, Changed, DocumentSweep, Method, Placed, Status};
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

/// The best semi-global alignment of `needle` in `hay` (unit-cost edits, the alignment free to
/// start and end anywhere in `hay`): `(start, end, edits)`, the first of the least edits.
fn best_alignment(needle: &[char], hay: &[char]) -> Option<(usize, usize, usize)> {
    let m = needle.len();
    if m == 0 || hay.is_empty() {
        return None;
    }
    // One column per hay char; each cell holds its cost and where its path entered `hay`.
    let mut col: Vec<(usize, usize)> = (0..=m).map(|i| (i, 0)).collect();
    let mut next = col.clone();
    let mut best: Option<(usize, usize, usize)> = None;
    for (j, &h) in hay.iter().enumerate() {
        next[0] = (0, j + 1);
        for i in 1..=m {
            let diag = (col[i - 1].0 + usize::from(needle[i - 1] != h), col[i - 1].1);
            let left = (col[i].0 + 1, col[i].1);
            let up = (next[i - 1].0 + 1, next[i - 1].1);
            next[i] = [diag, left, up]
                .into_iter()
                .min_by_key(|c| c.0)
                .unwrap_or(diag);
        }
        std::mem::swap(&mut col, &mut next);
        let (cost, start) = col[m];
        if best.is_none_or(|(_, _, b)| cost < b) {
            best = Some((start, j + 1, cost));
        }
    }
    best
}

impl DocumentSweep<'_> {
    /// Rung 6b: see the module's docs.
    pub(in crate::sweep) fn follow_edits(
        &self,
        ch: &Changed,
        placed: &Placed,
        needle: &Folded,
    ) -> Option<Anchor> {
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
        let to_folded = |raw: usize| new_folded.back.partition_point(|&b| (b as usize) < raw);
        let (fa, fb) = (to_folded(from), to_folded(to));
        let hay = &new_folded.chars[fa..fb];
        if hay.len() < m / 2 || m.saturating_mul(hay.len()) > MAX_CELLS {
            return None;
        }
        let (a, b, edits) = best_alignment(&needle.chars, hay)?;
        if b <= a || edits as f64 > MAX_EDITS * m as f64 {
            return None;
        }
        let margin = (EDITS_MARGIN * m as f64).ceil() as usize;
        let rival = [(0, a), (b, hay.len())].into_iter().any(|(x, y)| {
            y - x >= m / 2
                && best_alignment(&needle.chars, &hay[x..y])
                    .is_some_and(|(_, _, e)| e < edits + margin)
        });
        if rival {
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
    fn alignment_is_semi_global_and_counts_edits() {
        let cases: &[(&str, &str, (usize, usize, usize))] = &[
            ("abc", "xxabcxx", (2, 5, 0)),
            ("abc", "xxabxx", (2, 4, 1)),
            ("kilometri km", "kilometri \\km km", (0, 13, 1)),
            ("abcd", "zzzz", (0, 0, 4)),
        ];
        for (needle, hay, want) in cases {
            let got = best_alignment(&chars(needle), &chars(hay)).unwrap();
            assert_eq!(got.2, want.2, "{needle} in {hay}");
            if want.2 < needle.len() {
                assert_eq!((got.0, got.1), (want.0, want.1), "{needle} in {hay}");
            }
        }
    }
}
