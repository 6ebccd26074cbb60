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
use std::cell::OnceCell;
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

/// The needle with its cached scorers: bit-parallel masks, forward for single windows and all
/// prefixes of a stretch at once, reversed for all its suffixes, and the needle's chars. Each
/// is built on first use: most alignments never scan the short windows at the edges (their
/// bound rules them out).
struct CachedNeedle<'a> {
    needle: &'a [char],
    len: usize,
    forward: OnceCell<PatternBits>,
    reversed: OnceCell<PatternBits>,
    chars: OnceCell<CharSet>,
}

impl<'a> CachedNeedle<'a> {
    fn new(needle: &'a [char]) -> Self {
        CachedNeedle {
            needle,
            len: needle.len(),
            forward: OnceCell::new(),
            reversed: OnceCell::new(),
            chars: OnceCell::new(),
        }
    }

    fn forward(&self) -> &PatternBits {
        self.forward
            .get_or_init(|| PatternBits::new(self.needle.iter().copied(), self.len))
    }

    /// The Indel distance of the needle to `window`: the chars outside their LCS.
    fn distance(&self, window: &[char]) -> usize {
        self.len + window.len() - 2 * self.forward().lcs(window)
    }

    /// Whether `c` occurs in the needle.
    fn contains(&self, c: char) -> bool {
        self.chars
            .get_or_init(|| CharSet::new(self.needle))
            .contains(c)
    }

    /// `out[k - 1]` = Indel distance of the needle to `text[..k]`, for every `k`.
    fn prefix_distances(&self, text: &[char]) -> Vec<usize> {
        let lcs = self.forward().prefix_lcs(text.iter().copied());
        self.distances(lcs)
    }

    /// `out[k - 1]` = Indel distance of the needle to the last `k` chars of `text`.
    fn suffix_distances(&self, text: &[char]) -> Vec<usize> {
        let reversed = self
            .reversed
            .get_or_init(|| PatternBits::new(self.needle.iter().rev().copied(), self.len));
        let lcs = reversed.prefix_lcs(text.iter().rev().copied());
        self.distances(lcs)
    }

    /// The Indel distances of the needle to stretches of 1, 2, … chars whose LCS with it are
    /// `lcs`, in place.
    fn distances(&self, mut lcs: Vec<usize>) -> Vec<usize> {
        for (k, l) in lcs.iter_mut().enumerate() {
            *l = self.len + k + 1 - 2 * *l;
        }
        lcs
    }
}

/// What the bisection over the full-length windows found.
struct FullWindows {
    /// The best distance found below the cut-off and its window start.
    best: Option<(usize, usize)>,
    /// The distances of the first window (`hay[..len1]`) and the last one bisected
    /// (`hay[len2 - len1 - 1..len2 - 1]`): every window shorter than the needle at the
    /// haystack's start lies inside the first, and every one at its end, but for its last
    /// char, inside the last, so they bound what those windows can score.
    first: usize,
    last: usize,
}

/// Bisection over the full-length windows `[0, len2 - len1)`.
fn best_full_window(
    needle: &CachedNeedle<'_>,
    hay: &[char],
    mut cutoff_dist: usize,
) -> FullWindows {
    let len1 = needle.len;
    let mut best: Option<(usize, usize)> = None;
    let mut scores = vec![usize::MAX; hay.len() - len1];
    let mut windows = vec![(0usize, hay.len() - len1 - 1)];
    let mut next = Vec::new();
    let found = |best, scores: &[usize]| FullWindows {
        best,
        first: scores[0],
        last: scores[scores.len() - 1],
    };
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
                        return found(best, &scores);
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
    found(best, &scores)
}

/// The C++ `partial_ratio_impl` for `1 <= len(needle) <= len(hay)`.
fn partial_ratio_impl(needle: &[char], hay: &[char], mut score_cutoff: f64) -> Alignment {
    let cached = CachedNeedle::new(needle);
    let (len1, len2) = (needle.len(), hay.len());
    let mut res = Alignment::whole(0.0, len1);
    // LCS bounds of the short windows at the start and at the end (see `FullWindows`); without
    // full-length windows (equal lengths), none.
    let (mut start_lcs, mut end_lcs) = (len1, len1);

    if len2 > len1 {
        let maximum = 2 * len1;
        let cutoff_dist = (maximum as f64 * norm_dist_cutoff(score_cutoff)).ceil() as usize;
        let full = best_full_window(&cached, hay, cutoff_dist);
        if let Some((dist, pos)) = full.best {
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
        // A window of the needle's length with Indel distance d has an LCS of len1 - d / 2.
        start_lcs = len1 - full.first / 2;
        end_lcs = (len1 - full.last / 2 + 1).min(len1);
    }

    // Windows shorter than the needle touching the haystack's start, then its end; distances for
    // all of them come from one bit-parallel pass each, the visiting order is the C++'s. A side
    // whose LCS bound says none of its windows can beat the best so far is not scored: a
    // window there changes the result only when it scores above it.
    if can_beat(start_lcs, len1, res.score, score_cutoff) {
        let before = res.score;
        res = best_start_window(&cached, hay, res, score_cutoff);
        if res.score != before {
            // The C++ raises its cut-off to each window it takes, and stops at a perfect one.
            if res.score == 100.0 {
                return res;
            }
            score_cutoff = res.score;
        }
    }
    if can_beat(end_lcs, len1, res.score, score_cutoff) {
        res = best_end_window(&cached, hay, res, score_cutoff);
    }
    res
}

/// Whether a window shorter than the needle (`len1` chars) whose LCS with it is at most `lcs`
/// can score above both `best` and `score_cutoff`: with `k` chars and an LCS of at most
/// `min(k, lcs)` it scores at most `200 lcs / (len1 + lcs)`. A margin far above rounding
/// keeps a window whose score could equal the bound's.
fn can_beat(lcs: usize, len1: usize, best: f64, score_cutoff: f64) -> bool {
    let bound = 200.0 * lcs as f64 / (len1 + lcs) as f64;
    bound + 1e-6 >= best.max(score_cutoff)
}

/// The C++'s scan of the windows `hay[..i]`, `1 <= i < len1`, from the shortest, that end in a
/// needle char: the first that scores above `res` replaces it.
fn best_start_window(
    cached: &CachedNeedle<'_>,
    hay: &[char],
    mut res: Alignment,
    mut score_cutoff: f64,
) -> Alignment {
    let len1 = cached.len;
    let prefix = cached.prefix_distances(&hay[..len1 - 1]);
    for i in 1..len1 {
        if !cached.contains(hay[i - 1]) {
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
    res
}

/// The C++'s scan of the windows `hay[i..]`, `len2 - len1 <= i < len2`, from the longest, that
/// start with a needle char: the first that scores above `res` replaces it.
fn best_end_window(
    cached: &CachedNeedle<'_>,
    hay: &[char],
    mut res: Alignment,
    mut score_cutoff: f64,
) -> Alignment {
    let (len1, len2) = (cached.len, hay.len());
    let suffix = cached.suffix_distances(&hay[len2 - len1..]);
    for (i, &first) in hay.iter().enumerate().skip(len2 - len1) {
        if !cached.contains(first) {
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

    /// The best score of any window, by brute force: every full-length window of `hay`, and
    /// the shorter ones touching its start or its end.
    fn brute_force(needle: &[char], hay: &[char]) -> f64 {
        let (n, m) = (needle.len(), hay.len());
        let full = (0..=m - n).map(|i| &hay[i..i + n]);
        let starts = (1..n).map(|i| &hay[..i]);
        let ends = (m - n + 1..m).map(|i| &hay[i..]);
        full.chain(starts)
            .chain(ends)
            .map(|window| ratio(needle, window))
            .fold(0.0, f64::max)
    }

    /// The edge windows a bound rules out are never the best: with every cut-off, the score
    /// found is the brute-force best, and there is an alignment exactly when it reaches the
    /// cut-off (a bound that ruled out a better edge window would report less, or nothing).
    /// Haystacks are longer than their needles: equal lengths also align the other way.
    #[test]
    fn the_edge_windows_left_unscored_never_hold_the_best() {
        let mut next = crate::text::lcs::tests::draws(0x2545_f491_4f6c_dd1d);
        for _ in 0..3000 {
            let (k, needle_len, extra) = (1 + next(4), 1 + next(30), 1 + next(60));
            let mut draw =
                |n: u64| -> Vec<char> { (0..n).map(|_| (b'a' + next(k) as u8) as char).collect() };
            let needle = draw(needle_len);
            let hay = draw(needle_len + extra);
            let best = brute_force(&needle, &hay);
            for cutoff in [0.0, 50.0, 85.0, 95.0] {
                let got = partial_ratio_alignment(&needle, &hay, cutoff);
                let what = format!("{needle:?} in {hay:?} at {cutoff}: {got:?}, best {best}");
                match got {
                    Some(al) => assert!((al.score - best).abs() < 1e-9, "{what}"),
                    None => assert!(best < cutoff, "{what}"),
                }
            }
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
