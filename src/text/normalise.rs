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
use std::cell::RefCell;
use std::collections::HashMap;
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

    /// The first folded char whose segment starts at or after raw index `raw` (the folded
    /// length when none does): where a raw offset falls in the folded text.
    pub fn folded_at(&self, raw: usize) -> usize {
        self.back.partition_point(|&b| (b as usize) < raw)
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
///
/// Remembered per thread (a pure function of the segment; a text repeats the same few
/// accented letters): the three normalisations and two case folds run once per distinct
/// segment, not once per occurrence.
fn caseless_form(chars: &[char], out: &mut String) {
    /// Distinct segments remembered before the memory is emptied.
    const REMEMBERED: usize = 4096;
    thread_local! {
        static FORMS: RefCell<HashMap<Vec<char>, String>> = RefCell::new(HashMap::new());
    }
    FORMS.with(|forms| {
        let mut forms = forms.borrow_mut();
        out.clear();
        if let Some(form) = forms.get(chars) {
            out.push_str(form);
            return;
        }
        let nfd: String = chars.iter().copied().nfd().collect();
        let once: String = caseless::default_case_fold_str(&nfd).nfkd().collect();
        out.extend(caseless::default_case_fold_str(&once).nfkc());
        if forms.len() >= REMEMBERED {
            forms.clear();
        }
        forms.insert(chars.to_vec(), out.clone());
    });
}

/// Where the v2 fold's chars go: a [`Folded`] (with the map back), or a hash.
trait Sink {
    /// Folded char `c`, from the segment starting at raw char `raw`.
    fn push(&mut self, c: char, raw: usize);
    /// The segment of raw chars `[first, end)`, longer than one char, produced chars.
    fn wide(&mut self, first: usize, end: usize);
    /// For a sink that keeps no map back: the bytes of its folded UTF-8, to append ASCII to
    /// directly ([`Out::push_ascii`]); `None` when each char needs its raw index.
    fn ascii_bytes(&mut self) -> Option<&mut Vec<u8>> {
        None
    }
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

impl Hashing {
    /// Hands the buffer to the hash once it holds a few KiB (SHA-256 streams: where the
    /// buffer is cut changes nothing).
    #[inline]
    fn spill(&mut self) {
        if self.buffer.len() >= 4096 {
            self.hasher.update(&self.buffer);
            self.buffer.clear();
        }
    }
}

impl Sink for Hashing {
    fn push(&mut self, c: char, _raw: usize) {
        if c.is_ascii() {
            self.buffer.push(c as u8);
        } else {
            self.buffer
                .extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        }
        self.spill();
    }

    fn wide(&mut self, _first: usize, _end: usize) {}

    fn ascii_bytes(&mut self) -> Option<&mut Vec<u8>> {
        self.spill();
        Some(&mut self.buffer)
    }
}

/// What the v2 fold makes of each ASCII byte that is a segment of its own, as
/// [`Out::push`] would: printable ASCII lowercased, space and newline a space (runs of them
/// collapse); 0 for the rest (tabs, carriage returns, control chars), left to [`Out::push`].
static ASCII_FOLD: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = if c.is_ascii_graphic() {
            c.to_ascii_lowercase()
        } else if c == b' ' || c == b'\n' {
            b' '
        } else {
            0
        };
        b += 1;
    }
    table
};

/// Eight ASCII bytes (little-endian) folded as [`ASCII_FOLD`] and the space collapsing of
/// [`Out::push`] would, all at once, when each becomes one byte: none is a control char or
/// DEL, and no space (or newline) follows a space (`prev_space` for the first). Returns the
/// folded bytes and whether the last is a space; `None` leaves them to the byte loop.
#[inline]
fn fold_word(word: u64, prev_space: bool) -> Option<(u64, bool)> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // Bytes below 0x80: adding up to 0x7f carries out of no byte, so each test below sets
    // the byte's high bit exactly where it holds.
    let at_least = |n: u8| (word + ONES * u64::from(0x80 - n)) & HIGH;
    let equal = |x: u64, n: u8| {
        let y = x ^ (ONES * u64::from(n));
        !(((y & LOW7) + LOW7) | y | LOW7)
    };
    let newline = equal(word, b'\n');
    let control = !at_least(0x20) & HIGH & !newline;
    let del = at_least(0x7f);
    if control | del != 0 {
        return None;
    }
    let upper = at_least(b'A') & !at_least(b'Z' + 1);
    // Uppercase + 0x20; newline (0x0a) + 0x16 = space.
    let folded = word + (upper >> 2) + (newline >> 7) * u64::from(b' ' - b'\n');
    let space = equal(folded, b' ');
    if space & (space << 8) != 0 || (prev_space && space & 0x80 != 0) {
        return None;
    }
    Some((folded, space >> 63 != 0))
}

/// Length of the ASCII prefix of `bytes`, eight bytes at a time.
fn ascii_prefix(bytes: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    let mut n = 0;
    for word in &mut words {
        let high = u64::from_le_bytes(word.try_into().expect("eight bytes")) & HIGH;
        if high != 0 {
            return n + high.trailing_zeros() as usize / 8;
        }
        n += 8;
    }
    n + words
        .remainder()
        .iter()
        .take_while(|b| b.is_ascii())
        .count()
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
        if self.sink.ascii_bytes().is_some() {
            return self.push_ascii_bytes(run, first);
        }
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

    /// [`Out::push_ascii`] into a sink without a map back: the same folded bytes appended
    /// to its buffer in one loop (a few KiB at a time, so the buffer stays small), only other
    /// ASCII (tabs, control chars) through [`Out::push`].
    fn push_ascii_bytes(&mut self, run: &[u8], first: usize) {
        /// Bytes folded at a time, on the stack, before they are appended.
        const PIECE: usize = 1024;
        let mut folded = [0u8; PIECE];
        let mut k = 0;
        while k < run.len() {
            let mut prev_space = self.prev_space;
            let piece = &run[k..run.len().min(k + PIECE)];
            let (mut n, mut used) = (0, 0);
            // Eight bytes at a time where they fold alone (see `fold_word`), else one at a
            // time up to the next eight: every byte is written, and the write position moves
            // on unless the byte is a space after a space. A byte the table leaves (a tab, a
            // control char) ends the piece, for `push`.
            'piece: while used < piece.len() {
                if let Some(word) = piece.get(used..used + 8) {
                    let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
                    if let Some((word, last_space)) = fold_word(word, prev_space) {
                        folded[n..n + 8].copy_from_slice(&word.to_le_bytes());
                        (n, used, prev_space) = (n + 8, used + 8, last_space);
                        continue;
                    }
                }
                for &b in &piece[used..piece.len().min(used + 8)] {
                    let f = ASCII_FOLD[usize::from(b & 0x7f)];
                    if f == 0 {
                        break 'piece;
                    }
                    let space = f == b' ';
                    folded[n] = f;
                    n += usize::from(!(space && prev_space));
                    prev_space = space;
                    used += 1;
                }
            }
            let Some(bytes) = self.sink.ascii_bytes() else {
                unreachable!("checked by push_ascii")
            };
            bytes.extend_from_slice(&folded[..n]);
            self.emitted += n;
            self.prev_space = prev_space;
            k += used;
            if used < piece.len() {
                self.push(char::from(run[k]), first + k);
                k += 1;
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
        let run = ascii_prefix(&bytes[at..]);
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

    proptest::proptest! {
        /// The hash streams the fold (ASCII runs appended a few KiB at a time): it is the
        /// SHA-256 of the folded text, whatever the mix of ASCII, spaces, control chars and
        /// combining sequences, and however long the runs.
        #[test]
        fn hash_is_the_hash_of_the_folded_text(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    "[a-zA-Z0-9 .,;\\n\\t\\r\\x01\\x1c]{0,40}",
                    "[\u{e9}\u{301}\u{2014}\u{201c}\u{a0}\u{ad}\u{fb01}\u{3000}\u{1100}\u{1161}]{0,4}",
                    "[A-Za-z \\n]{4000,9000}",
                ],
                0..6,
            )
        ) {
            let text: String = parts.concat();
            let folded = fold_text(&text);
            proptest::prop_assert_eq!(
                content_hash(&text),
                hex(&Sha256::digest(folded.as_bytes()))
            );
        }
    }

    #[test]
    fn ascii_prefix_stops_at_the_first_other_byte() {
        let text = "abcdefghijklmnopqrstuvwxyz";
        for cut in 0..=text.len() {
            let mixed = format!("{}é{}", &text[..cut], &text[cut..]);
            assert_eq!(ascii_prefix(mixed.as_bytes()), cut, "{mixed}");
        }
        assert_eq!(ascii_prefix(text.as_bytes()), text.len());
        assert_eq!(ascii_prefix(b""), 0);
    }

    #[test]
    fn a_word_folds_as_its_bytes_do() {
        // Every pair of bytes at every pair of places in a word of letters, after a space or
        // not: the word folds as the byte table does, or is left to it.
        let mut checked = 0;
        for a in 0u8..128 {
            for b in [
                0u8, 9, 10, 13, 31, 32, 33, 64, 65, 90, 91, 96, 97, 122, 127, a,
            ] {
                for (i, j) in [(0, 1), (0, 7), (3, 4), (6, 7), (2, 5)] {
                    let mut bytes = *b"xYzAbCdQ";
                    (bytes[i], bytes[j]) = (a, b);
                    for prev in [false, true] {
                        let mut want = Vec::new();
                        let mut space = prev;
                        for &c in &bytes {
                            let f = ASCII_FOLD[usize::from(c)];
                            if f == b' ' && space {
                                continue;
                            }
                            space = f == b' ';
                            want.push(f);
                        }
                        let simple = want.len() == 8 && !want.contains(&0);
                        match fold_word(u64::from_le_bytes(bytes), prev) {
                            Some((word, last)) => {
                                assert!(simple, "{bytes:?} after space {prev}");
                                assert_eq!(word.to_le_bytes().to_vec(), want, "{bytes:?}");
                                assert_eq!(last, want[7] == b' ', "{bytes:?}");
                                checked += 1;
                            }
                            None => assert!(!simple, "{bytes:?} after space {prev} left"),
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn the_ascii_table_folds_as_push_does() {
        for b in 0u8..128 {
            let mut slow = Out::<Folded>::default();
            slow.push(char::from(b), 0);
            let want = match slow.sink.chars.as_slice() {
                [c] if b.is_ascii_graphic() || b == b' ' || b == b'\n' => *c as u8,
                _ => 0,
            };
            let folded = if b.is_ascii_graphic() {
                want.to_ascii_lowercase()
            } else {
                want
            };
            assert_eq!(ASCII_FOLD[usize::from(b)], folded, "byte {b}");
        }
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
