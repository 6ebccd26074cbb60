//! Bit-parallel LCS of one pattern against every prefix of a text, in one pass.
//!
//! The `rapidfuzz` crate scores one pair at a time. Partial-ratio alignment and edge tightening
//! need the LCS of the needle with every prefix (or, reversed, every suffix) of a stretch of
//! text; scoring each from scratch is quadratic. Hyyrö's bit-vector recurrence (2004) gives
//! `LCS(pattern, text[..k])` after step `k` for free, so one pass yields all of them. Kept
//! column by column, the same states give one longest alignment itself ([`PatternBits::runs`]),
//! read back from the ends.
//!
//! Invariants: bit `j` of the state stands for pattern char `j`; bits past the pattern's length
//! are ones and stay ones (their match mask is zero), so counting zero bits counts the LCS.

use std::collections::HashMap;

/// Match masks of a pattern: for each char, the bit set of positions where it occurs.
pub(crate) struct PatternBits {
    words: usize,
    ascii: Vec<u64>,
    other: HashMap<char, Vec<u64>>,
}

impl PatternBits {
    /// Builds masks for `pattern` (in the order given).
    pub(crate) fn new(pattern: impl Iterator<Item = char>, len: usize) -> Self {
        let words = len.div_ceil(64).max(1);
        let mut bits = PatternBits {
            words,
            ascii: vec![0; 128 * words],
            other: HashMap::new(),
        };
        for (j, c) in pattern.enumerate() {
            let (word, bit) = (j / 64, 1u64 << (j % 64));
            if c.is_ascii() {
                bits.ascii[c as usize * words + word] |= bit;
            } else {
                bits.other.entry(c).or_insert_with(|| vec![0; words])[word] |= bit;
            }
        }
        bits
    }

    fn mask(&self, c: char) -> Option<&[u64]> {
        if c.is_ascii() {
            let at = c as usize * self.words;
            Some(&self.ascii[at..at + self.words])
        } else {
            self.other.get(&c).map(Vec::as_slice)
        }
    }

    /// `out[k - 1] = LCS(pattern, text[..k])` for every `k` from 1 to the text's length.
    pub(crate) fn prefix_lcs(&self, text: impl Iterator<Item = char>) -> Vec<usize> {
        match self.words {
            1 => self.prefix_lcs_in::<1>(text),
            2 => self.prefix_lcs_in::<2>(text),
            3 => self.prefix_lcs_in::<3>(text),
            4 => self.prefix_lcs_in::<4>(text),
            _ => {
                let mut state = vec![u64::MAX; self.words];
                let mut lcs = 0;
                let mut out = Vec::with_capacity(text.size_hint().0);
                for c in text {
                    if let Some(mask) = self.mask(c) {
                        lcs += usize::from(Self::step(&mut state, mask));
                    }
                    out.push(lcs);
                }
                out
            }
        }
    }

    /// [`PatternBits::prefix_lcs`] for a pattern of `N` words, the state in registers (most
    /// quotes are under 256 chars).
    fn prefix_lcs_in<const N: usize>(&self, text: impl Iterator<Item = char>) -> Vec<usize> {
        let mut state = [u64::MAX; N];
        let mut lcs = 0;
        let mut out = Vec::with_capacity(text.size_hint().0);
        for c in text {
            if let Some(mask) = self.mask_in::<N>(c) {
                lcs += usize::from(Self::step_in(&mut state, mask));
            }
            out.push(lcs);
        }
        out
    }

    /// `LCS(pattern, text)`: [`PatternBits::prefix_lcs`]'s last value, without the others.
    pub(crate) fn lcs(&self, text: &[char]) -> usize {
        match self.words {
            1 => self.lcs_in::<1>(text),
            2 => self.lcs_in::<2>(text),
            3 => self.lcs_in::<3>(text),
            4 => self.lcs_in::<4>(text),
            _ => {
                let mut state = vec![u64::MAX; self.words];
                for &c in text {
                    if let Some(mask) = self.mask(c) {
                        Self::step(&mut state, mask);
                    }
                }
                Self::count(&state)
            }
        }
    }

    fn lcs_in<const N: usize>(&self, text: &[char]) -> usize {
        let mut state = [u64::MAX; N];
        for &c in text {
            if let Some(mask) = self.mask_in::<N>(c) {
                Self::step_in(&mut state, mask);
            }
        }
        Self::count(&state)
    }

    /// [`PatternBits::mask`] of a pattern of `N` words.
    #[inline(always)]
    fn mask_in<const N: usize>(&self, c: char) -> Option<&[u64; N]> {
        let mask = if c.is_ascii() {
            let at = c as usize * N;
            &self.ascii[at..at + N]
        } else {
            self.other.get(&c)?.as_slice()
        };
        mask.try_into().ok()
    }

    /// [`PatternBits::step`] on a state of `N` words.
    #[inline(always)]
    fn step_in<const N: usize>(state: &mut [u64; N], mask: &[u64; N]) -> bool {
        let mut carry = 0u128;
        for (s, &m) in state.iter_mut().zip(mask) {
            // One add with carry in and out, as the hardware does it.
            let sum = u128::from(*s) + u128::from(*s & m) + carry;
            carry = sum >> 64;
            *s = sum as u64 | (*s & !m);
        }
        carry != 0
    }

    /// The equal runs `(pattern start, text start, length)`, in order, of one longest common
    /// subsequence of the pattern (`pattern`, the chars the masks were built from) and `text`.
    ///
    /// Every column's state is kept (`text.len() + 1` states of one word per 64 pattern chars)
    /// and the alignment is read back from the ends: a run of matches is continued while it
    /// can be, else a text char is passed over before a pattern char is. So text around the
    /// pattern's own letters is left unmatched where those letters serve (a chance letter
    /// past the end of a quoted sentence does not take its last letter from it), and the runs
    /// are as long as the walk back can keep them. Costs O(text × pattern / 64), where an
    /// edit-script diff costs O((pattern + text) × edits).
    pub(crate) fn runs(&self, pattern: &[char], text: &[char]) -> Vec<(usize, usize, usize)> {
        let w = self.words;
        let mut states = vec![u64::MAX; (text.len() + 1) * w];
        for (j, &c) in text.iter().enumerate() {
            let (done, next) = states.split_at_mut((j + 1) * w);
            next[..w].copy_from_slice(&done[j * w..]);
            if let Some(mask) = self.mask(c) {
                Self::step(&mut next[..w], mask);
            }
        }
        Self::walk_back(&states, w, pattern, text)
    }

    /// One alignment read back from the ends of the kept column `states`: a run of matches is
    /// continued while it can be; otherwise a text char is passed over while that keeps the
    /// alignment longest, and a match taken only when it must be.
    fn walk_back(
        states: &[u64],
        w: usize,
        pattern: &[char],
        text: &[char],
    ) -> Vec<(usize, usize, usize)> {
        // LCS(pattern[..i], text[..j]): the zero bits below bit i of column j's state.
        let lcs = |i: usize, j: usize| Self::count_below(&states[j * w..(j + 1) * w], i);
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        let (mut i, mut j) = (pattern.len(), text.len());
        let mut in_run = false;
        while i > 0 && j > 0 {
            let here = lcs(i, j);
            let can_match = pattern[i - 1] == text[j - 1] && lcs(i - 1, j - 1) + 1 == here;
            let can_pass_text = lcs(i, j - 1) == here;
            if can_match && (in_run || !can_pass_text) {
                match runs.last_mut() {
                    Some(run) if in_run => {
                        run.0 -= 1;
                        run.1 -= 1;
                        run.2 += 1;
                    }
                    _ => runs.push((i - 1, j - 1, 1)),
                }
                (i, j, in_run) = (i - 1, j - 1, true);
            } else if can_pass_text {
                (j, in_run) = (j - 1, false);
            } else {
                (i, in_run) = (i - 1, false);
            }
        }
        runs.reverse();
        runs
    }

    /// Zero bits of `state` below bit `i`.
    fn count_below(state: &[u64], i: usize) -> usize {
        let (full, rest) = (i / 64, i % 64);
        let mut zeros: usize = state[..full]
            .iter()
            .map(|s| (!s).count_ones() as usize)
            .sum();
        if rest > 0 {
            zeros += (!state[full] & ((1u64 << rest) - 1)).count_ones() as usize;
        }
        zeros
    }

    /// Hyyrö's step for one text char whose match mask is `mask`. Returns whether the LCS grew
    /// by one (it grows by at most one a char): exactly when the addition carries out of the
    /// top word. In each run of one bits the matches' sum leaves one zero, at its lowest
    /// match, and carries into the zero above the run, which becomes a one; only a run at
    /// the top has no zero above it, and there the carry leaves the state (the bits past the
    /// pattern's length are ones without matches, so they belong to that run). So the LCS is
    /// counted as it grows, without counting zero bits each step.
    fn step(state: &mut [u64], mask: &[u64]) -> bool {
        let mut carry = false;
        for (s, &m) in state.iter_mut().zip(mask) {
            let u = *s & m;
            let (sum, c1) = s.overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            carry = c1 || c2;
            *s = sum | (*s & !m);
        }
        carry
    }

    /// The LCS so far: the state's zero bits.
    fn count(state: &[u64]) -> usize {
        state.iter().map(|s| (!s).count_ones() as usize).sum()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A fixed pseudo-random sequence (xorshift) for table-free tests: `next(k)` is in `0..k`,
    /// and the same seed repeats a failure.
    pub(crate) fn draws(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |k| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % k
        }
    }

    /// Longest common subsequence by dynamic programming, the reference the bit-parallel
    /// kernel and the sweep's diff are checked against.
    pub(crate) fn lcs_dp(a: &[char], b: &[char]) -> usize {
        let mut row = vec![0; b.len() + 1];
        for &x in a {
            let mut diag = 0;
            for (j, &y) in b.iter().enumerate() {
                let up = row[j + 1];
                row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
                diag = up;
            }
        }
        row[b.len()]
    }

    /// `(pattern start, text start, length)`.
    type Run = (usize, usize, usize);

    /// Checks that `runs` is an alignment of `a` and `b` (in order in both, equal chars) as
    /// long as their LCS.
    fn assert_longest_alignment(a: &[char], b: &[char], runs: &[Run]) {
        let (mut ia, mut ib) = (0, 0);
        for &(sa, sb, len) in runs {
            assert!(
                len > 0 && sa >= ia && sb >= ib,
                "runs {runs:?} out of order"
            );
            assert_eq!(a[sa..sa + len], b[sb..sb + len], "run {sa} {sb} {len}");
            (ia, ib) = (sa + len, sb + len);
        }
        let total: usize = runs.iter().map(|r| r.2).sum();
        assert_eq!(
            total,
            lcs_dp(a, b),
            "{:?} / {:?}",
            String::from_iter(a),
            String::from_iter(b)
        );
    }

    #[test]
    fn runs_are_a_longest_common_subsequence() {
        // A small alphabet (many ties) and lengths across word boundaries; the sequence is
        // fixed, so a failure repeats.
        let mut next = draws(0x2545_f491_4f6c_dd1d);
        for _ in 0..400 {
            let la = next(150) as usize;
            let lb = next(300) as usize;
            let a: Vec<char> = (0..la).map(|_| (b'a' + next(4) as u8) as char).collect();
            let b: Vec<char> = (0..lb).map(|_| (b'a' + next(5) as u8) as char).collect();
            let runs = PatternBits::new(a.iter().copied(), a.len()).runs(&a, &b);
            assert_longest_alignment(&a, &b, &runs);
        }
    }

    #[test]
    fn runs_keep_the_pattern_whole_and_leave_chance_letters_around_it() {
        let cases: &[(&str, &str, &[Run])] = &[
            // The span's last letter also after it, its first also before it.
            ("abcdef", "xaxxabcdefyfy", &[(0, 4, 6)]),
            // Inserted material inside: two runs, nothing taken from the slack.
            (
                "thequickbrownfox",
                "dthequickpage12brownfoxq",
                &[(0, 1, 8), (8, 15, 8)],
            ),
            ("", "abc", &[]),
            ("abc", "", &[]),
            ("abc", "xyz", &[]),
        ];
        for &(a, b, want) in cases {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let runs = PatternBits::new(a.iter().copied(), a.len()).runs(&a, &b);
            assert_eq!(
                runs,
                want,
                "{:?} in {:?}",
                String::from_iter(&a),
                String::from_iter(&b)
            );
        }
    }

    #[test]
    fn matches_dynamic_programming_across_word_boundaries() {
        let pattern: Vec<char> = "the quick brown fox jumps over the lazy dog, \u{e9}t\u{e9} \u{2014} and then some more words to pass sixty-four chars".chars().collect();
        let text: Vec<char> = "a lazy dog jumps; the quick fox is brown \u{e9}t\u{e9}, and more words pass by sixty chars".chars().collect();
        let got = PatternBits::new(pattern.iter().copied(), pattern.len())
            .prefix_lcs(text.iter().copied());
        for k in 1..=text.len() {
            assert_eq!(got[k - 1], lcs_dp(&pattern, &text[..k]), "prefix {k}");
        }
        let bits = PatternBits::new(pattern.iter().copied(), pattern.len());
        assert_longest_alignment(&pattern, &text, &bits.runs(&pattern, &text));
    }

    /// The LCS counted as it grows (a carry out of the top word) and the whole-text LCS, for
    /// patterns of one to six words (the unrolled sizes and the general one), lengths at and
    /// around each word boundary, with a small alphabet (many matches) and non-ASCII chars.
    #[test]
    fn counted_lcs_matches_dynamic_programming_for_every_width() {
        let mut next = draws(0x9e37_79b9_7f4a_7c15);
        let alphabet = ['a', 'b', 'c', ' ', '\u{e9}', '\u{6F22}'];
        let mut draw = |n: usize, k: u64| -> Vec<char> {
            (0..n).map(|_| alphabet[next(k) as usize]).collect()
        };
        for len in [
            1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 200, 255, 256, 257, 300, 384,
        ] {
            for k in [2, 6] {
                let pattern = draw(len, k);
                let text = draw(len / 2 + 90, k);
                let bits = PatternBits::new(pattern.iter().copied(), pattern.len());
                let prefixes = bits.prefix_lcs(text.iter().copied());
                for end in 1..=text.len() {
                    let want = lcs_dp(&pattern, &text[..end]);
                    assert_eq!(prefixes[end - 1], want, "pattern {len}, prefix {end}");
                }
                assert_eq!(bits.lcs(&text), lcs_dp(&pattern, &text), "pattern {len}");
            }
        }
    }
}
