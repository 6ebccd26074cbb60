//! The normalisers: the fold that makes typography differences disappear, with a map back.
//!
//! Two versions, each stored beside every hash it made ([`Normaliser`]); the current one is
//! [`NORMALISER_VERSION`].
//!
//! **v1** (seed 001, pinned by the reference vectors) works one raw `char` at a time: drop
//! U+00AD, U+200B, U+FEFF; the six dashes become `-`; the four curly quotes become straight;
//! anything else is NFKC-normalised, then fully case-folded; a result made only of whitespace
//! becomes one space, and runs of spaces collapse to the first. Per char, `é` (U+00E9) and
//! `e` + U+0301 stay different, and five compatibility dashes (U+207B, U+208B, U+FE31, U+FE32,
//! U+FE58) fold to a dash the table never sees.
//!
//! **v2** folds whole combining sequences: the text is split into segments (a starter with the
//! combining marks and conjoining characters that follow it — anything canonical composition
//! could join), and each segment becomes the compatibility caseless form of Unicode D145
//! (NFKD, case fold, NFKD, case fold), recomposed (NFKC). So NFC, NFD, NFKC and NFKD renderings
//! of a text fold identically. Then, on the normalised output, the dash and quote tables apply
//! (which fixes the five-dash quirk: folding twice equals folding once), whitespace becomes one
//! space and runs collapse; U+00AD, U+200B and U+FEFF are dropped as in v1.
//!
//! Invariants (both versions):
//! - `Folded::back` has exactly one entry per folded `char`, and `back[i]` is the index (in
//!   `char`s) of the first raw character of the segment that produced folded character `i` (in
//!   v1 every segment is one raw char). It never decreases.
//! - A match at folded `[a, b)` is the raw span `[back[a], end(back[b - 1]))` ([`Folded::raw_span`]),
//!   where `end(r)` is one past the last raw char of the segment starting at `r` (`r + 1` in v1):
//!   going through `b - 1` keeps the arithmetic on characters that survived the fold (`back[b]`
//!   may not exist, and when it does it skips whatever the fold dropped between the two), and a
//!   span never ends inside a combining sequence.
//! - Changing any of this is a new normaliser version, never a silent change: hashes are stored
//!   beside the version's name (`"v1"`, `"v2"`), and a hash is only ever compared with a hash of
//!   the same version.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use unicode_normalization::char::{canonical_combining_class, compose, decompose_compatible};
use unicode_normalization::UnicodeNormalization;

/// The version new hashes are made with, stored beside each of them.
pub const NORMALISER_VERSION: &str = "v2";

/// A normaliser version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Normaliser {
    /// Seed 001's fold, one raw char at a time (what hashes made before v2 used).
    V1,
    /// Canonical equivalence over whole combining sequences; the dash and quote tables applied
    /// after normalisation.
    V2,
}

impl Normaliser {
    /// The version new hashes are made with.
    pub const CURRENT: Normaliser = Normaliser::V2;

    /// The name stored beside hashes.
    pub fn as_str(self) -> &'static str {
        match self {
            Normaliser::V1 => "v1",
            Normaliser::V2 => "v2",
        }
    }

    /// The version named `name` as stored (`"v1"`, `"v2"`); `None` for anything else.
    pub fn parse(name: &str) -> Option<Normaliser> {
        match name {
            "v1" => Some(Normaliser::V1),
            "v2" => Some(Normaliser::V2),
            _ => None,
        }
    }

    /// Folds `raw` with this version, with the map back.
    pub fn fold(self, raw: &str) -> Folded {
        assert!(raw.len() < u32::MAX as usize, "text too long to fold");
        match self {
            Normaliser::V1 => fold_v1(raw),
            Normaliser::V2 => fold_v2(raw),
        }
    }

    /// `contentHash` under this version: lowercase hex SHA-256 of the folded text, UTF-8. (v2
    /// streams the folded text into the hash: no map back, no folded copy of the text.)
    pub fn content_hash(self, text: &str) -> String {
        match self {
            Normaliser::V1 => hex(&Sha256::digest(self.fold(text).text().as_bytes())),
            Normaliser::V2 => {
                let mut hashing = fold_v2_into(text, Hashing::default());
                hashing.hasher.update(&hashing.buffer);
                hex(&hashing.hasher.finalize())
            }
        }
    }
}

/// Text after a fold, with the map back to raw character indices.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Folded {
    /// The folded text, one `char` per entry.
    pub chars: Vec<char>,
    /// For each folded char, the index of the first raw char of the segment it came from
    /// (`u32`: half the memory of `usize` on a document of millions of chars; extracted text
    /// is at most `extract::MAX_EXTRACTED_BYTES` (512 MiB), and [`Normaliser::fold`] asserts
    /// a text under 4 GiB).
    pub back: Vec<u32>,
    /// Raw `[start, end)` of every segment longer than one raw char that produced folded chars
    /// (v2's combining sequences), sorted; empty for v1 and for text without them.
    pub wide: Vec<(usize, usize)>,
}

impl Folded {
    /// Empty, with room for `n` folded chars.
    fn with_capacity(n: usize) -> Self {
        Folded {
            chars: Vec::with_capacity(n),
            back: Vec::with_capacity(n),
            wide: Vec::new(),
        }
    }

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

    /// Maps the folded half-open range `[a, b)` (with `a < b`) to a raw half-open range that
    /// starts and ends on segment boundaries.
    pub fn raw_span(&self, a: usize, b: usize) -> (usize, usize) {
        debug_assert!(a < b && b <= self.back.len());
        (
            self.back[a] as usize,
            self.raw_end(self.back[b - 1] as usize),
        )
    }

    /// One past the last raw char of the segment that starts at raw index `start`.
    pub fn raw_end(&self, start: usize) -> usize {
        match self.wide.binary_search_by_key(&start, |w| w.0) {
            Ok(k) => self.wide[k].1,
            Err(_) => start + 1,
        }
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

/// Folds `raw` with the current normaliser ([`NORMALISER_VERSION`]), with its map back.
pub fn fold(raw: &str) -> Folded {
    Normaliser::CURRENT.fold(raw)
}

/// Folds `raw` with normaliser v1 and returns the folded text with its map back.
fn fold_v1(raw: &str) -> Folded {
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
            back.push(i as u32);
        }
    }
    Folded {
        chars,
        back,
        wide: Vec::new(),
    }
}

/// One v2 segment being gathered: a starter and what canonical composition could join to it,
/// as NFKD chars of raw chars `first..=last`.
#[derive(Debug, Default)]
struct Segment {
    chars: Vec<char>,
    first: usize,
    last: usize,
    /// The segment's first char with everything so far composed into it.
    composed: char,
}

impl Segment {
    fn start(&mut self, c: char, raw: usize) {
        self.chars.clear();
        self.chars.push(c);
        (self.first, self.last, self.composed) = (raw, raw, c);
    }

    /// Joins `c` (from raw char `raw`) when normalisation could combine it with the segment: a
    /// combining mark always; a starter when it composes with the segment (Hangul jamo, some
    /// Indic vowel signs). Joining too much only coarsens the map back; too little would break
    /// canonical equivalence, so the test errs on joining.
    fn join(&mut self, c: char, raw: usize) -> bool {
        if self.chars.is_empty() {
            return false;
        }
        let composed = compose(self.composed, c);
        if canonical_combining_class(c) == 0 && composed.is_none() {
            return false;
        }
        if let Some(k) = composed {
            self.composed = k;
        }
        self.chars.push(c);
        self.last = raw;
        true
    }
}

/// Spaces, dashes and curly quotes: the chars the tables after normalisation map.
fn has_table_fold(c: char) -> bool {
    is_py_space(c) || is_dash(c) || straight_quote(c).is_some()
}

/// Unicode D145, compatibility caseless: NFKD(CF(NFKD(CF(NFD(X))))), recomposed (NFKC), of
/// one segment's chars, into `out`.
fn caseless_form(chars: &[char], out: &mut String) {
    let nfd: String = chars.iter().copied().nfd().collect();
    let once: String = caseless::default_case_fold_str(&nfd).nfkd().collect();
    out.clear();
    out.extend(caseless::default_case_fold_str(&once).nfkc());
}

/// Where the v2 fold's chars go: a [`Folded`] (with the map back), or a hash.
trait Sink {
    /// Folded char `c`, from the segment starting at raw char `raw`.
    fn push(&mut self, c: char, raw: usize);
    /// The segment of raw chars `[first, end)`, longer than one char, produced chars.
    fn wide(&mut self, first: usize, end: usize);
}

impl Sink for Folded {
    #[inline]
    fn push(&mut self, c: char, raw: usize) {
        self.chars.push(c);
        self.back.push(raw as u32);
    }

    fn wide(&mut self, first: usize, end: usize) {
        self.wide.push((first, end));
    }
}

/// The folded text's UTF-8 into SHA-256, a buffer at a time.
#[derive(Default)]
struct Hashing {
    hasher: Sha256,
    buffer: Vec<u8>,
}

impl Sink for Hashing {
    fn push(&mut self, c: char, _raw: usize) {
        if c.is_ascii() {
            self.buffer.push(c as u8);
        } else {
            self.buffer
                .extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        }
        if self.buffer.len() >= 4096 {
            self.hasher.update(&self.buffer);
            self.buffer.clear();
        }
    }

    fn wide(&mut self, _first: usize, _end: usize) {}
}

/// The v2 output under construction.
#[derive(Debug, Default)]
struct Out<S> {
    sink: S,
    /// Chars pushed to `sink`.
    emitted: usize,
    prev_space: bool,
    scratch: String,
}

impl<S: Sink> Out<S> {
    /// ASCII chars that are each a segment of their own, `run[k]` raw char `first + k`: what
    /// [`Out::push`] does with each, lowercased, in one loop.
    fn push_ascii(&mut self, run: &[u8], first: usize) {
        for (k, &b) in run.iter().enumerate() {
            if b.is_ascii_graphic() {
                self.prev_space = false;
                self.sink
                    .push(char::from(b.to_ascii_lowercase()), first + k);
                self.emitted += 1;
            } else if b == b' ' || b == b'\n' {
                if !self.prev_space {
                    self.prev_space = true;
                    self.sink.push(' ', first + k);
                    self.emitted += 1;
                }
            } else {
                self.push(char::from(b), first + k);
            }
        }
    }

    fn push(&mut self, c: char, raw: usize) {
        // Printable ASCII is itself after every table (most text is): skip the tables.
        if c.is_ascii_graphic() {
            self.prev_space = false;
            self.sink.push(c, raw);
            self.emitted += 1;
            return;
        }
        let c = if is_py_space(c) {
            ' '
        } else if is_dash(c) {
            '-'
        } else if let Some(q) = straight_quote(c) {
            q
        } else if is_dropped(c) {
            return;
        } else {
            c
        };
        if c == ' ' {
            if self.prev_space {
                return;
            }
            self.prev_space = true;
        } else {
            self.prev_space = false;
        }
        self.sink.push(c, raw);
        self.emitted += 1;
    }

    /// Emits the segment's folded chars and empties it.
    fn flush(&mut self, seg: &mut Segment) {
        match seg.chars.as_slice() {
            [] => return,
            [c] if c.is_ascii() => self.push(c.to_ascii_lowercase(), seg.first),
            // A lone space, dash or curly quote is its own caseless form (tested over every
            // scalar value): the tables below give its folded char without three allocations.
            [c] if has_table_fold(*c) => self.push(*c, seg.first),
            chars => {
                caseless_form(chars, &mut self.scratch);
                let before = self.emitted;
                let text = std::mem::take(&mut self.scratch);
                for c in text.chars() {
                    self.push(c, seg.first);
                }
                self.scratch = text;
                if seg.last > seg.first && self.emitted > before {
                    self.sink.wide(seg.first, seg.last + 1);
                }
            }
        }
        seg.chars.clear();
    }
}

/// Folds `raw` with normaliser v2 (see the module docs).
fn fold_v2(raw: &str) -> Folded {
    fold_v2_into(raw, Folded::with_capacity(raw.len()))
}

/// Folds `raw` with normaliser v2 into `sink`.
fn fold_v2_into<S: Sink>(raw: &str, sink: S) -> S {
    let mut out = Out {
        sink,
        emitted: 0,
        prev_space: false,
        scratch: String::new(),
    };
    let mut seg = Segment::default();
    let bytes = raw.as_bytes();
    // Byte offset and char index of the next raw char.
    let (mut at, mut i) = (0, 0);
    while at < bytes.len() {
        let run = bytes[at..].iter().take_while(|b| b.is_ascii()).count();
        if run > 0 {
            // ASCII is a starter that composes with nothing before it, nor with ASCII after
            // it: each char of the run but the last is a segment of its own, emitted at once
            // (most text); the last may take the combining marks that follow.
            out.flush(&mut seg);
            let own = if at + run == bytes.len() {
                run
            } else {
                run - 1
            };
            out.push_ascii(&bytes[at..at + own], i);
            if own < run {
                seg.start(char::from(bytes[at + own]), i + own);
            }
            (at, i) = (at + run, i + run);
            continue;
        }
        let ch = raw[at..].chars().next().expect("a char starts here");
        let raw_index = i;
        (at, i) = (at + ch.len_utf8(), i + 1);
        if is_dropped(ch) {
            continue;
        }
        decompose_compatible(ch, |d| {
            if !seg.join(d, raw_index) {
                out.flush(&mut seg);
                seg.start(d, raw_index);
            }
        });
    }
    out.flush(&mut seg);
    out.sink
}

/// The folded text of `raw` (current normaliser), without the map.
pub fn fold_text(raw: &str) -> String {
    fold(raw).text()
}

/// `contentHash` with the current normaliser: lowercase hex SHA-256 of the folded text, UTF-8.
pub fn content_hash(text: &str) -> String {
    Normaliser::CURRENT.content_hash(text)
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
    fn lone_table_chars_are_their_own_caseless_form() {
        // The fast path in `Out::flush` skips `caseless_form` for these: it must change nothing.
        let mut form = String::new();
        for c in (0..=char::MAX as u32).filter_map(char::from_u32) {
            if !c.is_ascii() && has_table_fold(c) {
                caseless_form(&[c], &mut form);
                let mut slow = Out::<Folded>::default();
                for f in form.chars() {
                    slow.push(f, 0);
                }
                let mut fast = Out::<Folded>::default();
                fast.push(c, 0);
                assert_eq!(slow.sink.chars, fast.sink.chars, "U+{:04X}", c as u32);
            }
        }
    }

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
