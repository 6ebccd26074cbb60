//! Partial-ratio alignment, as Python rapidfuzz 3.x (`fuzz.partial_ratio_alignment`) defines it.
//!
//! The Rust `rapidfuzz` crate has the Indel scorer but not the alignment, so this module ports
//! the C++ search (rapidfuzz-cpp `fuzz_impl.hpp`) on top of the crate's cached Indel scorer:
//!
//! - full-length windows of the longer string are searched by bisection: two window distances
//!   bound every window between them, and a range is split only while it could still beat the
//!   best distance so far;
//! - then the shorter windows that touch the haystack's start (ending in a needle char) and its
//!   end (starting with a needle char) are scored one by one;
//! - ties keep the first window found, in that order; equal lengths also try the swapped pair.
//!
//! Invariants: `score` is `100 * (1 - indel / (len(needle) + len(window)))`; `dest_*` index the
//! second argument, `src_*` the first, both in `char`s, half-open. The result is exactly what the
//! C++ returns, including which of several equally good windows is reported (parity tests against
//! `fixtures/vectors/partial_ratio.jsonl`).

use super::lcs::PatternBits;
use rapidfuzz::distance::indel;
use std::collections::HashSet;

/// The best alignment of the shorter string inside the longer one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Alignment {
    /// Similarity in `[0, 100]`.
    pub score: f64,
    /// Start of the aligned part of the first argument.
    pub src_start: usize,
    /// End (exclusive) of the aligned part of the first argument.
    pub src_end: usize,
    /// Start of the aligned window in the second argument.
    pub dest_start: usize,
    /// End (exclusive) of the aligned window in the second argument.
    pub dest_end: usize,
}

impl Alignment {
    fn whole(score: f64, len1: usize) -> Self {
        Alignment {
            score,
            src_start: 0,
            src_end: len1,
            dest_start: 0,
            dest_end: len1,
        }
    }

    fn swapped(self) -> Self {
        Alignment {
            score: self.score,
            src_start: self.dest_start,
            src_end: self.dest_end,
            dest_start: self.src_start,
            dest_end: self.src_end,
        }
    }
}

/// rapidfuzz's `NormSim_to_NormDist`: the distance share a similarity cut-off allows.
fn norm_dist_cutoff(score_cutoff: f64) -> f64 {
    (1.0 - score_cutoff / 100.0 + 0.00001).min(1.0)
}

/// Membership test for the needle's characters, with an ASCII fast path.
struct CharSet {
    ascii: [bool; 128],
    other: HashSet<char>,
}

impl CharSet {
    fn new(chars: &[char]) -> Self {
        let mut set = CharSet {
            ascii: [false; 128],
            other: HashSet::new(),
        };
        for &c in chars {
            if c.is_ascii() {
                set.ascii[c as usize] = true;
            } else {
                set.other.insert(c);
            }
        }
        set
    }

    fn contains(&self, c: char) -> bool {
        if c.is_ascii() {
            self.ascii[c as usize]
        } else {
            self.other.contains(&c)
        }
    }
}

/// rapidfuzz's `CachedRatio::similarity` from an exact Indel distance, with its cut-off rules:
/// 0 below the cut-off.
fn ratio_from_distance(dist: usize, maximum: usize, score_cutoff: f64) -> f64 {
    let cutoff_norm = norm_dist_cutoff(score_cutoff);
    let cutoff_distance = (maximum as f64 * cutoff_norm).ceil() as usize;
    let norm_dist = dist as f64 / maximum as f64;
    let norm_dist = if dist <= cutoff_distance && norm_dist <= cutoff_norm {
        norm_dist
    } else {
        1.0
    };
    let sim = 1.0 - norm_dist;
    if sim >= score_cutoff / 100.0 {
        sim * 100.0
    } else {
        0.0
    }
}

/// The needle with its cached scorers: the crate's Indel scorer for single windows, and
/// bit-parallel masks (forward and reversed) for all prefixes or suffixes of a stretch at once.
struct CachedNeedle {
    len: usize,
    scorer: indel::BatchComparator<char>,
    forward: PatternBits,
    reversed: PatternBits,
    chars: CharSet,
}

impl CachedNeedle {
    fn new(needle: &[char]) -> Self {
        CachedNeedle {
            len: needle.len(),
            scorer: indel::BatchComparator::new(needle.iter().copied()),
            forward: PatternBits::new(needle.iter().copied(), needle.len()),
            reversed: PatternBits::new(needle.iter().rev().copied(), needle.len()),
            chars: CharSet::new(needle),
        }
    }

    fn distance(&self, window: &[char]) -> usize {
        self.scorer.distance(window.iter().copied())
    }

    /// `out[k - 1]` = Indel distance of the needle to `text[..k]`, for every `k`.
    fn prefix_distances(&self, text: &[char]) -> Vec<usize> {
        let lcs = self.forward.prefix_lcs(text.iter().copied());
        lcs.iter()
            .enumerate()
            .map(|(k, l)| self.len + k + 1 - 2 * l)
            .collect()
    }

    /// `out[k - 1]` = Indel distance of the needle to the last `k` chars of `text`.
    fn suffix_distances(&self, text: &[char]) -> Vec<usize> {
        let lcs = self.reversed.prefix_lcs(text.iter().rev().copied());
        lcs.iter()
            .enumerate()
            .map(|(k, l)| self.len + k + 1 - 2 * l)
            .collect()
    }
}

/// Bisection over the full-length windows `[0, len2 - len1)`; returns the best distance found
/// below the cut-off and its window start.
fn best_full_window(
    needle: &CachedNeedle,
    hay: &[char],
    mut cutoff_dist: usize,
) -> Option<(usize, usize)> {
    let len1 = needle.len;
    let mut best: Option<(usize, usize)> = None;
    let mut scores = vec![usize::MAX; hay.len() - len1];
    let mut windows = vec![(0usize, hay.len() - len1 - 1)];
    let mut next = Vec::new();
    while !windows.is_empty() {
        for &(first, last) in &windows {
            for pos in [first, last] {
                if scores[pos] != usize::MAX {
                    continue;
                }
                scores[pos] = needle.distance(&hay[pos..pos + len1]);
                if scores[pos] < cutoff_dist {
                    cutoff_dist = scores[pos];
                    best = Some((scores[pos], pos));
                    if cutoff_dist == 0 {
                        return best;
                    }
                }
            }
            let cell_diff = last - first;
            if cell_diff == 1 {
                continue;
            }
            // Shifting a window by one changes its distance by at most two, so the distances
            // at both ends bound what any window between them can reach.
            let known_edits = scores[first].abs_diff(scores[last]);
            let max_improvement = (cell_diff.saturating_sub(known_edits / 2)) / 2 * 2;
            let min_score = scores[first].min(scores[last]) as isize - max_improvement as isize;
            if min_score < cutoff_dist as isize {
                let center = cell_diff / 2;
                next.push((first, first + center));
                next.push((first + center, last));
            }
        }
        std::mem::swap(&mut windows, &mut next);
        next.clear();
    }
    best
}

/// The C++ `partial_ratio_impl` for `1 <= len(needle) <= len(hay)`.
fn partial_ratio_impl(needle: &[char], hay: &[char], mut score_cutoff: f64) -> Alignment {
    let cached = CachedNeedle::new(needle);
    let (len1, len2) = (needle.len(), hay.len());
    let mut res = Alignment::whole(0.0, len1);

    if len2 > len1 {
        let maximum = 2 * len1;
        let cutoff_dist = (maximum as f64 * norm_dist_cutoff(score_cutoff)).ceil() as usize;
        if let Some((dist, pos)) = best_full_window(&cached, hay, cutoff_dist) {
            res.dest_start = pos;
            res.dest_end = pos + len1;
            if dist == 0 {
                res.score = 100.0;
                return res;
            }
            let score = (1.0 - dist as f64 / maximum as f64) * 100.0;
            if score >= score_cutoff {
                score_cutoff = score;
                res.score = score;
            }
        }
    }

    // Windows shorter than the needle touching the haystack's start, then its end; distances for
    // all of them come from one bit-parallel pass each, the visiting order is the C++'s.
    let prefix = cached.prefix_distances(&hay[..len1 - 1]);
    for i in 1..len1 {
        if !cached.chars.contains(hay[i - 1]) {
            continue;
        }
        let ratio = ratio_from_distance(prefix[i - 1], len1 + i, score_cutoff);
        if ratio > res.score {
            score_cutoff = ratio;
            res.score = ratio;
            res.dest_start = 0;
            res.dest_end = i;
            if ratio == 100.0 {
                return res;
            }
        }
    }

    let suffix = cached.suffix_distances(&hay[len2 - len1..]);
    for (i, &first) in hay.iter().enumerate().skip(len2 - len1) {
        if !cached.chars.contains(first) {
            continue;
        }
        let k = len2 - i;
        let ratio = ratio_from_distance(suffix[k - 1], len1 + k, score_cutoff);
        if ratio > res.score {
            score_cutoff = ratio;
            res.score = ratio;
            res.dest_start = i;
            res.dest_end = len2;
            if ratio == 100.0 {
                return res;
            }
        }
    }
    res
}

/// rapidfuzz's C++ `partial_ratio_alignment(s1, s2, score_cutoff)`: the best window of the longer
/// string for the shorter one. A score below `score_cutoff` may come back as 0.
pub fn partial_ratio_alignment_raw(s1: &[char], s2: &[char], score_cutoff: f64) -> Alignment {
    let (len1, len2) = (s1.len(), s2.len());
    if len1 > len2 {
        return partial_ratio_alignment_raw(s2, s1, score_cutoff).swapped();
    }
    if score_cutoff > 100.0 {
        return Alignment::whole(0.0, len1);
    }
    if len1 == 0 || len2 == 0 {
        let score = if len1 == len2 { 100.0 } else { 0.0 };
        return Alignment::whole(score, len1);
    }
    let alignment = partial_ratio_impl(s1, s2, score_cutoff);
    if alignment.score != 100.0 && len1 == len2 {
        let cutoff = score_cutoff.max(alignment.score);
        let alignment2 = partial_ratio_impl(s2, s1, cutoff);
        if alignment2.score > alignment.score {
            return alignment2.swapped();
        }
    }
    alignment
}

/// Python rapidfuzz's `fuzz.partial_ratio_alignment(s1, s2, score_cutoff=...)`: `None` when the
/// best score is below the cut-off.
pub fn partial_ratio_alignment(s1: &[char], s2: &[char], score_cutoff: f64) -> Option<Alignment> {
    let alignment = partial_ratio_alignment_raw(s1, s2, score_cutoff);
    (alignment.score >= score_cutoff).then_some(alignment)
}

/// Moves the edges of the window `hay[start..end]` by up to `slack` chars each to maximise its
/// Indel similarity with `needle`, one edge at a time, twice. Ties keep the edge where it was.
///
/// Partial ratio compares the needle with windows of its own length, so when the text holds a
/// few more (or fewer) characters than the quote, the best window clips a word at one edge; this
/// lets the window grow or shrink to what the quote actually covers. Returns a non-empty window.
pub fn tighten_window(
    needle: &[char],
    hay: &[char],
    start: usize,
    end: usize,
    slack: usize,
) -> (usize, usize) {
    let cached = CachedNeedle::new(needle);
    // Similarity as (2 * lcs, total length), compared by cross-multiplication.
    let sim = |dist: usize, window: usize| (needle.len() + window - dist, needle.len() + window);
    let better = |x: (usize, usize), y: (usize, usize)| x.0 * y.1 > y.0 * x.1;
    let (mut start, mut end) = (start, end);
    for _ in 0..2 {
        // Ends from start + 1 to end + slack, all from one pass over hay[start..].
        let far_end = (end + slack).min(hay.len());
        let ends = cached.prefix_distances(&hay[start..far_end]);
        let mut best = sim(ends[end - start - 1], end - start);
        for b in end.saturating_sub(slack).max(start + 1)..=far_end {
            let candidate = sim(ends[b - start - 1], b - start);
            if better(candidate, best) {
                (best, end) = (candidate, b);
            }
        }
        // Starts from start - slack to end - 1, all from one reversed pass over hay[..end].
        let far_start = start.saturating_sub(slack);
        let starts = cached.suffix_distances(&hay[far_start..end]);
        for a in far_start..=(start + slack).min(end - 1) {
            let candidate = sim(starts[end - a - 1], end - a);
            if better(candidate, best) {
                (best, start) = (candidate, a);
            }
        }
    }
    (start, end)
}

/// `fuzz.ratio` on `char` slices, in `[0, 100]`.
pub fn ratio(s1: &[char], s2: &[char]) -> f64 {
    let maximum = s1.len() + s2.len();
    if maximum == 0 {
        return 100.0;
    }
    let dist = indel::distance(s1.iter().copied(), s2.iter().copied());
    (1.0 - dist as f64 / maximum as f64) * 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn table() {
        // (needle, haystack, score, dest_start, dest_end)
        let cases: &[(&str, &str, f64, usize, usize)] = &[
            ("this is a test", "this is a test!", 100.0, 0, 14),
            ("test", "a test here", 100.0, 2, 6),
            ("", "", 100.0, 0, 0),
            ("abc", "", 0.0, 0, 0),
            ("xyz", "abcdef", 0.0, 0, 3),
            ("fgh", "abcdefg", 80.0, 5, 7),
        ];
        for &(needle, hay, score, ds, de) in cases {
            let a = partial_ratio_alignment_raw(&chars(needle), &chars(hay), 0.0);
            assert!(
                (a.score - score).abs() < 1e-9,
                "{needle:?} in {hay:?}: {a:?}"
            );
            assert_eq!(
                (a.dest_start, a.dest_end),
                (ds, de),
                "{needle:?} in {hay:?}"
            );
        }
    }

    #[test]
    fn below_cutoff_is_none() {
        assert!(partial_ratio_alignment(&chars("xyz"), &chars("abcdef"), 85.0).is_none());
    }

    #[test]
    fn ratio_matches_definition() {
        assert!((ratio(&chars("abcd"), &chars("abce")) - 75.0).abs() < 1e-9);
        assert_eq!(ratio(&[], &[]), 100.0);
    }
}
