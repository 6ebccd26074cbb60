//! Chunkers: split a revision's text into spans a retriever serves.
//!
//! Invariants (checked by the tests below, including a property test):
//! - Offsets are chars (Unicode scalar values), half-open `[start, end)`, into the text given.
//! - The spans cover the whole text: the first starts at 0, the last ends at its length, and each
//!   span starts at or before the previous one's end (overlap is allowed, gaps are not).
//! - Every span is non-empty and spans are in increasing `start` order.
//! - A spec's [`Display`](std::fmt::Display) form parses back to the same spec, so the string
//!   stored beside a chunking names exactly the chunker that made it.

pub mod caller;

use crate::error::{Error, Result};
use std::cell::Cell;
use std::fmt;
use std::str::FromStr;

/// One chunk's place in the text, in chars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First char of the chunk.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
}

/// A chunker and its parameters, as written on the command line and stored with a chunking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunkSpec {
    /// `chars:SIZE:OVERLAP`: windows of about `size` chars, ends snapped back to whitespace, each
    /// window starting about `overlap` chars before the previous one ended.
    Chars {
        /// Largest window, in chars.
        size: usize,
        /// Chars shared with the previous window (before snapping).
        overlap: usize,
    },
    /// `paragraph:MAX`: blank-line-separated paragraphs merged while they fit in `max` chars; a
    /// paragraph longer than `max` is split as `chars:MAX:0`.
    Paragraph {
        /// Largest chunk, in chars.
        max: usize,
    },
}

impl fmt::Display for ChunkSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChunkSpec::Chars { size, overlap } => write!(f, "chars:{size}:{overlap}"),
            ChunkSpec::Paragraph { max } => write!(f, "paragraph:{max}"),
        }
    }
}

impl FromStr for ChunkSpec {
    type Err = Error;

    fn from_str(spec: &str) -> Result<Self> {
        let bad = |reason: &str| Error::BadChunkerSpec {
            spec: spec.to_string(),
            reason: reason.to_string(),
        };
        let number = |s: &str, what: &str| -> Result<usize> {
            s.parse::<usize>()
                .map_err(|_| bad(&format!("{what} must be a whole number, got {s:?}")))
        };
        let parts: Vec<&str> = spec.split(':').collect();
        match parts.as_slice() {
            ["chars", size, overlap] => {
                let size = number(size, "SIZE")?;
                let overlap = number(overlap, "OVERLAP")?;
                if size == 0 {
                    return Err(bad("SIZE must be at least 1"));
                }
                if overlap > (size - 1) / 2 {
                    return Err(bad("OVERLAP must be less than half of SIZE"));
                }
                Ok(ChunkSpec::Chars { size, overlap })
            }
            ["paragraph", max] => {
                let max = number(max, "MAX")?;
                if max == 0 {
                    return Err(bad("MAX must be at least 1"));
                }
                Ok(ChunkSpec::Paragraph { max })
            }
            ["chars", ..] => Err(bad("expected chars:SIZE:OVERLAP")),
            ["paragraph", ..] => Err(bad("expected paragraph:MAX")),
            _ => Err(bad(
                "unknown chunker; use chars:SIZE:OVERLAP or paragraph:MAX",
            )),
        }
    }
}

impl ChunkSpec {
    /// The spans of `text` under this spec (empty for empty text).
    pub fn spans(&self, text: &str) -> Vec<Span> {
        // An ASCII text is its own char array: a large document is not copied four times over.
        // Other text is read where the chunker looks (a few chars around each window's end),
        // through a cursor: no copy of it as chars, and no pass over the chars it skips.
        if text.is_ascii() {
            self.spans_of(&Ascii(text.as_bytes()))
        } else {
            self.spans_of(&Utf8::new(text))
        }
    }

    fn spans_of<C: Chars + ?Sized>(&self, chars: &C) -> Vec<Span> {
        match *self {
            ChunkSpec::Chars { size, overlap } => {
                char_windows(chars, 0, chars.len(), size, overlap)
            }
            ChunkSpec::Paragraph { max } => paragraphs(chars, max),
        }
    }
}

/// A text's chars by index.
trait Chars {
    /// Number of chars.
    fn len(&self) -> usize;
    /// The char at `i`.
    fn at(&self, i: usize) -> char;
}

/// A text as an array of its chars: what [`Utf8`] must agree with (tests).
#[cfg(test)]
impl Chars for [char] {
    fn len(&self) -> usize {
        <[char]>::len(self)
    }
    fn at(&self, i: usize) -> char {
        self[i]
    }
}

/// The bytes of an ASCII text, each one char.
struct Ascii<'a>(&'a [u8]);

impl Chars for Ascii<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn at(&self, i: usize) -> char {
        char::from(self.0[i])
    }
}

/// The chars of a UTF-8 text by index, found from the last one asked (the chunker asks in
/// nearly increasing order): forward by whole runs of chars at a time, back one char at a time.
struct Utf8<'a> {
    text: &'a str,
    /// Number of chars.
    len: usize,
    /// The last char index asked, and its byte offset.
    at: Cell<(usize, usize)>,
}

impl<'a> Utf8<'a> {
    fn new(text: &'a str) -> Self {
        Utf8 {
            text,
            len: text.chars().count(),
            at: Cell::new((0, 0)),
        }
    }
}

impl Chars for Utf8<'_> {
    fn len(&self) -> usize {
        self.len
    }

    fn at(&self, i: usize) -> char {
        let (char_at, byte_at) = self.at.get();
        let byte = if i >= char_at {
            let mut ahead = self.text[byte_at..].chars();
            if i > char_at {
                ahead
                    .nth(i - char_at - 1)
                    .expect("a char index inside the text");
            }
            self.text.len() - ahead.as_str().len()
        } else {
            let mut behind = self.text[..byte_at].chars();
            behind
                .nth_back(char_at - i - 1)
                .expect("a char index inside the text");
            behind.as_str().len()
        };
        self.at.set((i, byte));
        self.text[byte..]
            .chars()
            .next()
            .expect("a char index inside the text")
    }
}

/// Windows over `chars[from..to]` (see [`ChunkSpec::Chars`]).
fn char_windows<C: Chars + ?Sized>(
    chars: &C,
    from: usize,
    to: usize,
    size: usize,
    overlap: usize,
) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut start = from;
    while start < to {
        if to - start <= size {
            spans.push(Span { start, end: to });
            break;
        }
        let end = snap_end(chars, start, start + size);
        spans.push(Span { start, end });
        start = if overlap == 0 {
            end
        } else {
            snap_start(chars, start, end - overlap, end, overlap)
        };
    }
    spans
}

/// Moves a window end back to just after whitespace, if there is whitespace in the last quarter
/// of the window; otherwise keeps the hard cut.
fn snap_end<C: Chars + ?Sized>(chars: &C, start: usize, end: usize) -> usize {
    let lowest = end - (end - start) / 4;
    (lowest.max(start + 1)..=end)
        .rev()
        .find(|&p| chars.at(p - 1).is_whitespace() && !chars.at(p).is_whitespace())
        .unwrap_or(end)
}

/// Moves an overlapping start to the nearest beginning of a word: back by at most `overlap`
/// (staying after the previous window's start, so windows always advance) or forward (staying
/// before `end`, so there is no gap); a tie goes back. Without a word start nearby, keeps `at`.
fn snap_start<C: Chars + ?Sized>(
    chars: &C,
    prev_start: usize,
    at: usize,
    end: usize,
    overlap: usize,
) -> usize {
    let word_starts = |p: &usize| chars.at(p - 1).is_whitespace() && !chars.at(*p).is_whitespace();
    let lowest = at.saturating_sub(overlap).max(prev_start + 1);
    let back = (lowest..=at).rev().find(word_starts);
    let forward = (at + 1..end).find(word_starts);
    match (back, forward) {
        (Some(b), Some(f)) if f - at < at - b => f,
        (Some(b), _) => b,
        (None, Some(f)) => f,
        (None, None) => at,
    }
}

/// Paragraph chunks: each paragraph owns the blank lines after it, so the pieces tile the text;
/// neighbours are merged while they fit in `max`.
fn paragraphs<C: Chars + ?Sized>(chars: &C, max: usize) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::new();
    let mut open: Option<Span> = None;
    for piece in paragraph_pieces(chars) {
        if piece.end - piece.start > max {
            spans.extend(open.take());
            spans.extend(char_windows(chars, piece.start, piece.end, max, 0));
            continue;
        }
        open = match open {
            Some(span) if piece.end - span.start <= max => Some(Span {
                start: span.start,
                end: piece.end,
            }),
            Some(span) => {
                spans.push(span);
                Some(piece)
            }
            None => Some(piece),
        };
    }
    spans.extend(open);
    spans
}

/// Splits the text into paragraphs, each with the blank lines that follow it; a new piece starts
/// at a non-blank line that comes after a blank one.
fn paragraph_pieces<C: Chars + ?Sized>(chars: &C) -> Vec<Span> {
    let mut pieces = Vec::new();
    let mut piece_start = 0;
    let mut line_start = 0;
    let mut seen_text = false;
    let mut after_blank = false;
    while line_start < chars.len() {
        let line_end = (line_start..chars.len())
            .find(|&i| chars.at(i) == '\n')
            .map_or(chars.len(), |i| i + 1);
        let blank = (line_start..line_end).all(|i| chars.at(i).is_whitespace());
        if !blank {
            if seen_text && after_blank {
                pieces.push(Span {
                    start: piece_start,
                    end: line_start,
                });
                piece_start = line_start;
            }
            seen_text = true;
        }
        after_blank = blank;
        line_start = line_end;
    }
    if piece_start < chars.len() {
        pieces.push(Span {
            start: piece_start,
            end: chars.len(),
        });
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn texts(text: &str, spans: &[Span]) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        spans
            .iter()
            .map(|s| chars[s.start..s.end].iter().collect())
            .collect()
    }

    fn assert_tiles(text: &str, spans: &[Span]) {
        let len = text.chars().count();
        if len == 0 {
            assert!(spans.is_empty());
            return;
        }
        assert_eq!(spans.first().unwrap().start, 0, "{spans:?}");
        assert_eq!(spans.last().unwrap().end, len, "{spans:?}");
        for pair in spans.windows(2) {
            assert!(pair[1].start > pair[0].start, "{spans:?}");
            assert!(pair[1].start <= pair[0].end, "gap in {spans:?}");
        }
        assert!(spans.iter().all(|s| s.start < s.end), "{spans:?}");
    }

    #[test]
    fn specs_parse_and_print_back() {
        let good = [
            (
                "chars:1000:200",
                ChunkSpec::Chars {
                    size: 1000,
                    overlap: 200,
                },
            ),
            (
                "chars:10:0",
                ChunkSpec::Chars {
                    size: 10,
                    overlap: 0,
                },
            ),
            ("paragraph:1500", ChunkSpec::Paragraph { max: 1500 }),
        ];
        for (text, want) in good {
            let spec: ChunkSpec = text.parse().unwrap();
            assert_eq!(spec, want);
            assert_eq!(spec.to_string(), text);
        }
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let bad = [
            ("chars:0:0", "SIZE must be at least 1"),
            ("chars:100:50", "OVERLAP must be less than half of SIZE"),
            ("chars:100", "expected chars:SIZE:OVERLAP"),
            ("chars:x:1", "SIZE must be a whole number"),
            ("paragraph:-3", "MAX must be a whole number"),
            ("paragraph:0", "MAX must be at least 1"),
            ("paragraph", "expected paragraph:MAX"),
            ("sentences:3", "unknown chunker"),
        ];
        for (text, want) in bad {
            let err = text.parse::<ChunkSpec>().unwrap_err().to_string();
            assert!(err.contains(text) && err.contains(want), "{text}: {err}");
        }
    }

    #[test]
    fn chars_table() {
        let cases: [(&str, &str, &[&str]); 6] = [
            ("chars:10:0", "short", &["short"]),
            (
                "chars:12:0",
                "alpha beta gamma delta",
                &["alpha beta ", "gamma delta"],
            ),
            (
                "chars:10:0",
                "alpha beta gamma delta",
                &["alpha beta", " gamma del", "ta"],
            ),
            ("chars:4:0", "abcdefghij", &["abcd", "efgh", "ij"]),
            (
                "chars:10:3",
                "aaaa bbbb cccc dddd",
                &["aaaa bbbb ", "bbbb cccc ", "cccc dddd"],
            ),
            ("chars:4:0", "ééééé", &["éééé", "é"]),
        ];
        for (spec, text, want) in cases {
            let spans = spec.parse::<ChunkSpec>().unwrap().spans(text);
            assert_tiles(text, &spans);
            assert_eq!(texts(text, &spans), want, "{spec} {text:?}");
        }
    }

    #[test]
    fn paragraph_table() {
        let cases: [(&str, &str, &[&str]); 5] = [
            ("paragraph:100", "one\n\ntwo\n", &["one\n\ntwo\n"]),
            ("paragraph:6", "one\n\ntwo\n", &["one\n\n", "two\n"]),
            ("paragraph:9", "\n\na\nb\n\n \nc", &["\n\na\nb\n\n \n", "c"]),
            (
                "paragraph:9",
                "p1\n\np2\n\np3\n\np4",
                &["p1\n\np2\n\n", "p3\n\np4"],
            ),
            (
                "paragraph:5",
                "x\n\nlong words here\n\ny",
                &["x\n\n", "long ", "words", " here", "\n\n", "y"],
            ),
        ];
        for (spec, text, want) in cases {
            let spans = spec.parse::<ChunkSpec>().unwrap().spans(text);
            assert_tiles(text, &spans);
            assert_eq!(texts(text, &spans), want, "{spec} {text:?}");
        }
    }

    #[test]
    fn empty_text_has_no_chunks() {
        assert!(ChunkSpec::Paragraph { max: 5 }.spans("").is_empty());
        assert!(ChunkSpec::Chars {
            size: 5,
            overlap: 1
        }
        .spans("")
        .is_empty());
    }

    fn any_spec() -> impl Strategy<Value = ChunkSpec> {
        prop_oneof![
            (1usize..60)
                .prop_flat_map(|size| (Just(size), 0..=size.saturating_sub(1) / 2))
                .prop_map(|(size, overlap)| ChunkSpec::Chars { size, overlap }),
            (1usize..60).prop_map(|max| ChunkSpec::Paragraph { max }),
        ]
    }

    proptest! {
        /// Read through the cursor, a text chunks as its array of chars does, with the cursor
        /// asked in any order.
        #[test]
        fn the_cursor_reads_as_the_char_array(
            text in "[a-zé😀 \n\t]{1,300}",
            spec in any_spec(),
            asked in proptest::collection::vec(0usize..300, 0..40),
        ) {
            let chars: Vec<char> = text.chars().collect();
            let utf8 = Utf8::new(&text);
            prop_assert_eq!(spec.spans_of(&utf8), spec.spans_of(chars.as_slice()));
            prop_assert_eq!(Chars::len(&utf8), chars.len());
            for i in asked.into_iter().map(|i| i % chars.len()) {
                prop_assert_eq!(utf8.at(i), chars[i]);
            }
        }

        #[test]
        fn chunks_tile_the_text(text in "[a-zé \n\t]{0,300}", spec in any_spec()) {
            let spans = spec.spans(&text);
            assert_tiles(&text, &spans);
            let limit = match spec {
                ChunkSpec::Chars { size, .. } => size,
                ChunkSpec::Paragraph { max } => max,
            };
            prop_assert!(spans.iter().all(|s| s.end - s.start <= limit));
            let parsed: ChunkSpec = spec.to_string().parse().unwrap();
            prop_assert_eq!(parsed, spec);
        }
    }
}
