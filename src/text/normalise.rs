//! Normaliser v1: the fold that makes typography differences disappear, with a map back.
//!
//! Invariants:
//! - The fold works one raw `char` at a time (seed 001): drop U+00AD, U+200B, U+FEFF; the six
//!   dashes become `-`; the four curly quotes become straight; anything else is NFKC-normalised,
//!   then fully case-folded; a result made only of whitespace becomes one space, and runs of spaces
//!   collapse to the first.
//! - `Folded::back` has exactly one entry per folded `char`, and `back[i]` is the index (in
//!   `char`s) of the raw character that produced folded character `i`. It never decreases.
//! - A match at folded `[a, b)` is the raw span `[back[a], back[b - 1] + 1)`: going through
//!   `b - 1` keeps the arithmetic on characters that survived the fold (`back[b]` may not exist,
//!   and when it does it skips whatever the fold dropped between the two).
//! - Changing any of this is a new normaliser version, never a silent change: hashes made with
//!   `v1` are stored beside the string `"v1"`.

use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;

/// The version stored beside every hash and folded offset made by this module.
pub const NORMALISER_VERSION: &str = "v1";

/// Text after the v1 fold, with the map back to raw character indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folded {
    /// The folded text, one `char` per entry.
    pub chars: Vec<char>,
    /// For each folded char, the index of the raw char it came from.
    pub back: Vec<usize>,
}

impl Folded {
    /// The folded text as a `String`.
    pub fn text(&self) -> String {
        self.chars.iter().collect()
    }

    /// Number of folded characters.
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// True when the fold left nothing.
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// Maps the folded half-open range `[a, b)` (with `a < b`) to a raw half-open range.
    pub fn raw_span(&self, a: usize, b: usize) -> (usize, usize) {
        debug_assert!(a < b && b <= self.back.len());
        (self.back[a], self.back[b - 1] + 1)
    }
}

/// Python's `str.isspace`: Rust's White_Space plus the four ASCII information separators.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

fn is_dropped(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{200B}' | '\u{FEFF}')
}

fn is_dash(c: char) -> bool {
    matches!(
        c,
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}'
    )
}

fn straight_quote(c: char) -> Option<char> {
    match c {
        '\u{2018}' | '\u{2019}' => Some('\''),
        '\u{201C}' | '\u{201D}' => Some('"'),
        _ => None,
    }
}

/// Folds one raw char, pushing its folded chars into `out` (the seed's `_fold`).
fn fold_char(ch: char, out: &mut Vec<char>) {
    if ch.is_ascii() {
        out.push(if is_py_space(ch) {
            ' '
        } else {
            ch.to_ascii_lowercase()
        });
        return;
    }
    if is_dropped(ch) {
        return;
    }
    if is_dash(ch) {
        out.push('-');
        return;
    }
    if let Some(q) = straight_quote(ch) {
        out.push(q);
        return;
    }
    let start = out.len();
    out.extend(
        caseless::default_case_fold_str(&std::iter::once(ch).nfkc().collect::<String>()).chars(),
    );
    if out.len() > start && out[start..].iter().all(|&c| is_py_space(c)) {
        out.truncate(start);
        out.push(' ');
    }
}

/// Folds `raw` with normaliser v1 and returns the folded text with its map back.
pub fn fold(raw: &str) -> Folded {
    let mut chars = Vec::with_capacity(raw.len());
    let mut back = Vec::with_capacity(raw.len());
    let mut scratch = Vec::with_capacity(4);
    let mut prev_space = false;
    for (i, ch) in raw.chars().enumerate() {
        scratch.clear();
        fold_char(ch, &mut scratch);
        for &c in &scratch {
            if c == ' ' {
                if prev_space {
                    continue;
                }
                prev_space = true;
            } else {
                prev_space = false;
            }
            chars.push(c);
            back.push(i);
        }
    }
    Folded { chars, back }
}

/// The v1-folded text of `raw`, without the map.
pub fn fold_text(raw: &str) -> String {
    fold(raw).text()
}

/// `contentHash`: lowercase hex SHA-256 of the v1-folded text, UTF-8 encoded.
pub fn content_hash(text: &str) -> String {
    let digest = Sha256::digest(fold_text(text).as_bytes());
    hex(&digest)
}

/// Lowercase hex of raw bytes (SHA-256 digests).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        // (raw, folded)
        let cases = [
            ("", ""),
            ("   ", " "),
            ("A\u{00AD}b", "ab"),
            ("x \u{00A0}\t y", "x y"),
            ("\u{201C}Hi\u{201D} \u{2014} it\u{2019}s", "\"hi\" - it's"),
            ("\u{FB01}ne Stra\u{00DF}e", "fine strasse"),
            ("a\u{1c}b", "a b"),
        ];
        for (raw, want) in cases {
            assert_eq!(fold_text(raw), want, "raw {raw:?}");
        }
    }

    #[test]
    fn back_points_at_producing_char() {
        let f = fold("\u{FB01}x");
        assert_eq!(f.text(), "fix");
        assert_eq!(f.back, vec![0, 0, 1]);
        assert_eq!(f.raw_span(0, 3), (0, 2));
    }

    #[test]
    fn hash_ignores_typography() {
        assert_eq!(
            content_hash("It\u{2019}s  \u{201C}fine\u{201D}"),
            content_hash("it's \"FINE\"")
        );
        assert_eq!(content_hash("").len(), 64);
    }
}
