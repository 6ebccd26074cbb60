//! The letters of rung 5b's projections, a byte each: the old text's alphabet (its distinct
//! letters, numbered in the order it first has them) and each projection's letters written as
//! their numbers while the alphabet has at most 256 letters (any text in one or two alphabetic
//! scripts: accents are dropped before this), else as chars. Held as chars, the two letter
//! lists of a 9 MB document were 60 MB at the sweep's peak; as bytes they are 15.
//!
//! Invariants: both projections are written with the same alphabet, in the same way (both
//! bytes or both chars), so two letters are equal exactly when their entries are; the new
//! projection only has letters of the alphabet (the rung leaves the others out).

use super::grams::{GramPairs, Item};
use std::borrow::Cow;

/// The distinct letters of a text, numbered in the order it first has them.
#[derive(Debug)]
pub(super) struct Alphabet {
    /// Number of each ASCII letter, or [`Alphabet::ABSENT`].
    ascii: [u32; 128],
    /// Number of each other letter.
    rest: foldhash::HashMap<char, u32>,
    /// The letters by number.
    letters: Vec<char>,
}

impl Default for Alphabet {
    fn default() -> Self {
        Alphabet {
            ascii: [Self::ABSENT; 128],
            rest: foldhash::HashMap::default(),
            letters: Vec::new(),
        }
    }
}

impl Alphabet {
    /// An ASCII letter the text does not have.
    const ABSENT: u32 = u32::MAX;

    /// The alphabet of `letters`.
    pub(super) fn of(letters: &[char]) -> Self {
        let mut out = Alphabet::default();
        for &c in letters {
            if out.number(c).is_none() {
                let n = out.letters.len() as u32;
                out.letters.push(c);
                if c.is_ascii() {
                    out.ascii[c as usize] = n;
                } else {
                    out.rest.insert(c, n);
                }
            }
        }
        out
    }

    /// The number of `c`, if the text has it.
    pub(super) fn number(&self, c: char) -> Option<u32> {
        if c.is_ascii() {
            Some(self.ascii[c as usize]).filter(|&n| n != Self::ABSENT)
        } else {
            self.rest.get(&c).copied()
        }
    }

    /// True when the text has `c`.
    pub(super) fn has(&self, c: char) -> bool {
        self.number(c).is_some()
    }

    /// True when every letter's number fits a byte.
    fn fits_bytes(&self) -> bool {
        self.letters.len() <= 256
    }
}

/// A projection's letters: their numbers in the old text's [`Alphabet`] as bytes when it fits
/// them, else the chars.
#[derive(Debug)]
pub(super) enum Spelled {
    /// Numbers in the alphabet.
    Bytes(Vec<u8>),
    /// The letters themselves.
    Chars(Vec<char>),
}

impl Default for Spelled {
    fn default() -> Self {
        Spelled::Chars(Vec::new())
    }
}

impl Spelled {
    /// `letters` (all in `alphabet`), as bytes when the alphabet fits them.
    pub(super) fn new(letters: Vec<char>, alphabet: &Alphabet) -> Self {
        if !alphabet.fits_bytes() {
            return Spelled::Chars(letters);
        }
        let number = |&c: &char| alphabet.number(c).expect("a letter of the alphabet") as u8;
        Spelled::Bytes(letters.iter().map(number).collect())
    }

    /// Number of letters.
    pub(super) fn len(&self) -> usize {
        match self {
            Spelled::Bytes(b) => b.len(),
            Spelled::Chars(c) => c.len(),
        }
    }

    /// Letters `[lo, hi)` as chars.
    pub(super) fn chars(&self, alphabet: &Alphabet, lo: usize, hi: usize) -> Cow<'_, [char]> {
        match self {
            Spelled::Bytes(b) => b[lo..hi]
                .iter()
                .map(|&n| alphabet.letters[n as usize])
                .collect(),
            Spelled::Chars(c) => Cow::Borrowed(&c[lo..hi]),
        }
    }

    /// Letters that `self` before `at` and `other` before `other_at` end with alike (at most
    /// `reach`), and that `self` from `from` and `other` from `other_from` start with alike.
    pub(super) fn agreement(
        &self,
        other: &Spelled,
        (at, other_at): (usize, usize),
        (from, other_from): (usize, usize),
        reach: usize,
    ) -> usize {
        fn agree<T: Eq>(
            o: &[T],
            n: &[T],
            (a, na): (usize, usize),
            (f, nf): (usize, usize),
            reach: usize,
        ) -> usize {
            let before = o[..a]
                .iter()
                .rev()
                .zip(n[..na].iter().rev())
                .take(reach)
                .take_while(|(x, y)| x == y)
                .count();
            let after = o[f..]
                .iter()
                .zip(&n[nf..])
                .take(reach)
                .take_while(|(x, y)| x == y)
                .count();
            before + after
        }
        match (self, other) {
            (Spelled::Bytes(o), Spelled::Bytes(n)) => {
                agree(o, n, (at, other_at), (from, other_from), reach)
            }
            (Spelled::Chars(o), Spelled::Chars(n)) => {
                agree(o, n, (at, other_at), (from, other_from), reach)
            }
            _ => unreachable!("both projections are spelled with one alphabet"),
        }
    }

    /// The grams of `self` (the old letters) paired with those of `new`.
    pub(super) fn pairs(&self, new: &Spelled, len: usize, max_copies: usize) -> GramPairs {
        fn pairs<T: Item>(o: &[T], n: &[T], len: usize, max_copies: usize) -> GramPairs {
            GramPairs::new(o, n, len, max_copies)
        }
        match (self, new) {
            (Spelled::Bytes(o), Spelled::Bytes(n)) => pairs(o, n, len, max_copies),
            (Spelled::Chars(o), Spelled::Chars(n)) => pairs(o, n, len, max_copies),
            _ => unreachable!("both projections are spelled with one alphabet"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_read_back_alike_as_bytes_or_chars() {
        let narrow: Vec<char> = "straße über 42 straße"
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect();
        let wide: Vec<char> = (0..300u32)
            .filter_map(|n| char::from_u32(0x4E00 + n))
            .chain(narrow.iter().copied())
            .collect();
        for letters in [narrow, wide] {
            let alphabet = Alphabet::of(&letters);
            let spelled = Spelled::new(letters.clone(), &alphabet);
            assert_eq!(
                matches!(spelled, Spelled::Bytes(_)),
                letters.len() < 256,
                "bytes exactly when the alphabet fits them"
            );
            assert_eq!(spelled.len(), letters.len());
            assert_eq!(&*spelled.chars(&alphabet, 0, letters.len()), &letters[..]);
            assert_eq!(&*spelled.chars(&alphabet, 3, 7), &letters[3..7]);
            assert!(letters.iter().all(|&c| alphabet.has(c)));
            assert!(!alphabet.has('#'));
        }
    }
}
