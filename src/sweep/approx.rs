//! Rung 6b of the ladder: the span's folded text aligned by edit distance in the stretch of
//! new text between where the diff carries the text around it. A table or a key-value list
//! that another extractor joined row by row keeps most of a cited stretch's characters, but
//! in runs too short for the diff (rungs 5, 5c), in words too few or too reordered for the
//! letters and words rungs (5b, 5d, 5e). A sentence edited in place between releases
//! (`A text for permalinks` → `Text for link anchors`) keeps too few for the fuzzy rung's
//! cut-off. Either way its neighbours survive, so the diff still says where the stretch
//! stands; an alignment with few enough edits there is where it went.
//!
//! How few depends on the change. In a text another extractor changed everywhere
//! ([`super::diff::DiffMap::rewritten`]) a stretch the diff cannot follow was laid out anew,
//! and up to [`MAX_EDITS`] per char are taken. In a text edited in place, a stretch with half
//! its chars edited was mostly rewritten (`ensure it's an immutable object` → `ensure it's a
//! callable`; the oracles call such spans deleted), so [`MAX_EDITS_EDITED`]: at 0.45 "deleted
//! by both oracles → lost" fell under 95% on the Django releases harness
//! (`bench/RESULTS-releases.md`).
//!
//! Invariants: the alignment lies inside the bracket, the new text over which the diff
//! carries the old text from [`BRACKET`] span lengths before the span to as far after it
//! (never elsewhere in the document: a deleted span is not looked for far away); a span under
//! [`MIN_FUZZY_CHARS`] folded chars is not aligned; the alignment has at most [`MAX_EDITS`]
//! (re-extracted) or [`MAX_EDITS_EDITED`] (edited) edits per char of the span; a region made
//! mostly of text the old revision had outside the span is a look-alike and refused; so is one
//! that aligns with as few edits in the old text around the span with the span cut out (its
//! deletion explains the new text as well as its edit, [`deletion_explains`]); a second
//! alignment in the bracket within [`EDITS_MARGIN`] edits of the best, apart from it, leaves
//! the span lost. The span is `degraded`, its reason saying which kind of change it met.

use super::{trim, Anchor, Changed, Citation, DocumentSweep, Method, Placed, Status};
use super::{FOLLOW_DIFF, MIN_FUZZY_CHARS};
use crate::text::locate::meaning_change_with;
use crate::text::Folded;

/// How far around the span the bracket reaches, in span lengths of old text.
pub(super) const BRACKET: usize = 1;

/// Most edits per char of the span an alignment may need in a text another extractor laid out
/// anew.
pub(super) const MAX_EDITS: f64 = 0.5;

/// Most edits per char of the span an alignment may need in a text edited in place.
pub(super) const MAX_EDITS_EDITED: f64 = 0.35;

/// Share of the span's length by which the best alignment must need fewer edits than any
/// other apart from it.
pub(super) const EDITS_MARGIN: f64 = 0.1;

/// Most DP cells one alignment may take (span chars × bracket chars): a bound on the work a
/// long span in a long bracket costs.
const MAX_CELLS: usize = 16_000_000;

/// Every semi-global alignment of `needle` in `hay` (unit-cost edits, free to start and end
/// anywhere in `hay`), by where it ends: entry `j` is `(edits, start)` of the alignment with
/// the fewest edits that ends at `j + 1`; of equal ones, the earliest start, or the latest with
/// `latest`. One column of the edit-distance table, updated in place per char of `hay` (the
/// crates at hand align bytes, or whole strings).
fn alignments(needle: &[char], hay: &[char], latest: bool) -> Vec<(u32, u32)> {
    let m = needle.len();
    // Cell i: (edits, start in `hay`) of the best path through needle[..i] ending here.
    let mut cost: Vec<u32> = (0..=m as u32).collect();
    let mut from: Vec<u32> = vec![0; m + 1];
    let mut ends = Vec::with_capacity(hay.len());
    let better = |a: (u32, u32), b: (u32, u32)| a.0 < b.0 || (latest && a.0 == b.0 && a.1 > b.1);
    for (j, &h) in hay.iter().enumerate() {
        // The previous column's cell i - 1 (the diagonal), before it is overwritten.
        let (mut diag_cost, mut diag_from) = (cost[0], from[0]);
        cost[0] = 0;
        from[0] = j as u32 + 1;
        for i in 1..=m {
            let (left_cost, left_from) = (cost[i], from[i]);
            let mut best = (diag_cost + u32::from(needle[i - 1] != h), diag_from);
            if better((left_cost + 1, left_from), best) {
                best = (left_cost + 1, left_from);
            }
            if better((cost[i - 1] + 1, from[i - 1]), best) {
                best = (cost[i - 1] + 1, from[i - 1]);
            }
            (diag_cost, diag_from) = (left_cost, left_from);
            (cost[i], from[i]) = best;
        }
        ends.push((cost[m], from[m]));
    }
    ends
}

/// The first alignment with the fewest edits, starting as late as it can: `(start, end,
/// edits)`, and whether another,
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
    let ends = alignments(needle, hay, false);
    let (end, &(edits, start)) = ends.iter().enumerate().min_by_key(|(_, e)| e.0)?;
    let (start, end) = (start as usize, end + 1);
    let rival = ends
        .iter()
        .enumerate()
        .any(|(j, &(e, s))| e < edits + margin && (j < start || s as usize >= end));
    // Of the alignments with as few edits ending there, the one starting latest: a char
    // substituted at the start costs what dropping the needle's char does, and the text
    // before is not the span's (`n   Text for` for `A text for`).
    let tight = alignments(needle, &hay[start..end], true);
    let start = start + tight.last().map_or(0, |&(_, s)| s as usize);
    Some((start, end, edits as usize, rival))
}

/// The fewest edits of any semi-global alignment of `needle` in `hay` (`None` when either is
/// empty): [`best_alignment`]'s count without its place, rival or tightened start.
fn fewest_edits(needle: &[char], hay: &[char]) -> Option<u32> {
    if needle.is_empty() {
        return None;
    }
    alignments(needle, hay, false)
        .into_iter()
        .map(|(e, _)| e)
        .min()
}

/// Whether `region` (folded new text the span aligned to) aligns with as few edits in the old
/// text around the span with the span cut out (`reach` chars either side) as in the span's own
/// folded text `span`: then the span's deletion explains what stands there as well as its edit
/// does (`:setting:\`USE_I18N\` and :setting:\`USE_L10N\` settings respectively. However` cut
/// to `the :setting:\`USE_I18N\` setting. However`), and the span is taken for gone. The same
/// needle, `region`, on both sides, so neither is favoured by its length.
fn deletion_explains(
    ch: &Changed,
    region: &[char],
    span: &[char],
    own: (usize, usize),
    reach: usize,
) -> bool {
    let old = &ch.old.chars;
    let before = &old[own.0.saturating_sub(reach)..own.0];
    let after = &old[own.1..(own.1 + reach).min(old.len())];
    let without: String = before.iter().chain(after).collect();
    let without = crate::text::fold(&without);
    match (
        fewest_edits(region, &without.chars),
        fewest_edits(region, span),
    ) {
        (Some(deleted), Some(edited)) => deleted <= edited,
        (deleted, _) => deleted.is_some(),
    }
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
        if m < MIN_FUZZY_CHARS || placed.survival >= FOLLOW_DIFF {
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
        let (max_edits, how) = if ch.diff.rewritten() {
            (MAX_EDITS, "laid out anew")
        } else {
            (MAX_EDITS_EDITED, "partly rewritten")
        };
        if b <= a || edits as f64 > max_edits * m as f64 || rival {
            return None;
        }
        let (start, end) = new_folded.raw_span(fa + a, fa + b);
        let (start, end) = trim(&ch.new.chars, start, end)?;
        if ch.is_lookalike(start, end, own_start, own_end)
            || deletion_explains(ch, &hay[a..b], &needle.chars, placed.own, reach)
        {
            return None;
        }
        let matched = 100.0 * (1.0 - edits as f64 / m as f64);
        let mut reason = format!(
            "{how}: {matched:.0}% of the span's characters align, in order, between where the \
             text around it went ({edits} edits)"
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
            // Dropping the needle's first char, not substituting the char before.
            ("a text for", "icon text for link", (4, 13, 1)),
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
