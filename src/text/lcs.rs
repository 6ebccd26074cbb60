//! Bit-parallel LCS of one pattern against every prefix of a text, in one pass.
//!
//! The `rapidfuzz` crate scores one pair at a time. Partial-ratio alignment and edge tightening
//! need the LCS of the needle with every prefix (or, reversed, every suffix) of a stretch of
//! text; scoring each from scratch is quadratic. Hyyrö's bit-vector recurrence (2004) gives
//! `LCS(pattern, text[..k])` after step `k` for free, so one pass yields all of them.
//!
//! Invariants: bit `j` of the state stands for pattern char `j`; bits past the pattern's length
//! are ones and stay ones (their match mask is zero), so counting zero bits counts the LCS.

use std::collections::HashMap;

/// Match masks of a pattern: for each char, the bit set of positions where it occurs.
pub struct PatternBits {
    words: usize,
    ascii: Vec<u64>,
    other: HashMap<char, Vec<u64>>,
}

impl PatternBits {
    /// Builds masks for `pattern` (in the order given).
    pub fn new(pattern: impl Iterator<Item = char>, len: usize) -> Self {
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
    pub fn prefix_lcs(&self, text: impl Iterator<Item = char>) -> Vec<usize> {
        let mut state = vec![u64::MAX; self.words];
        let mut lcs = 0;
        let mut out = Vec::new();
        for c in text {
            if let Some(mask) = self.mask(c) {
                Self::step(&mut state, mask);
                lcs = Self::count(&state);
            }
            out.push(lcs);
        }
        out
    }

    /// `LCS(pattern, text)`: [`Self::prefix_lcs`]'s last value, without the others.
    pub fn lcs(&self, text: impl Iterator<Item = char>) -> usize {
        let mut state = vec![u64::MAX; self.words];
        for c in text {
            if let Some(mask) = self.mask(c) {
                Self::step(&mut state, mask);
            }
        }
        Self::count(&state)
    }

    /// Hyyrö's step for one text char whose match mask is `mask`.
    fn step(state: &mut [u64], mask: &[u64]) {
        let mut carry = false;
        for (s, &m) in state.iter_mut().zip(mask) {
            let u = *s & m;
            let (sum, c1) = s.overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            carry = c1 || c2;
            *s = sum | (*s & !m);
        }
    }

    /// The LCS so far: the state's zero bits.
    fn count(state: &[u64]) -> usize {
        state.iter().map(|s| (!s).count_ones() as usize).sum()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

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
        assert_eq!(bits.lcs(text.iter().copied()), lcs_dp(&pattern, &text));
        assert_eq!(bits.lcs(std::iter::empty()), 0);
    }
}
