//! Property tests for the text core (issue 2): the locator, the v1 fold and partial-ratio
//! alignment must be right on inputs no reference vector covers.
//!
//! 1. Any non-empty substring of any text is found `exact` at its first occurrence, with the
//!    number of (overlapping) occurrences.
//! 2. Typography changes to a word-aligned, unambiguous substring map back to that substring's raw
//!    span, never a shifted one, with the seed's plain rules and with the default options.
//! 3. Fold invariants: the map back, idempotence, `content_hash` shape and typography blindness.
//! 4. Partial-ratio alignment: the score is the ratio of the windows it reports, and on small
//!    inputs it is the optimum over every window the vectors README defines.
//! 5. No panics, whatever the chunk and the quote.
//!
//! Each property runs at most 256 cases so the file stays fast in a debug build. Failures are not
//! persisted to a regressions file: a failing case is printed, shrunk, and belongs in a table test.

use citestore::text::align::{partial_ratio_alignment_raw, ratio};
use citestore::text::{
    content_hash, fold, fold_text, locate, locate_with, How, LocateOptions, Located, Normaliser,
};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::Config;

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

/// `text[start..end]` in chars.
fn char_slice(text: &str, start: usize, end: usize) -> String {
    text.chars().skip(start).take(end - start).collect()
}

/// Characters that make offsets interesting: multi-byte letters, combining marks, emoji with a
/// skin-tone modifier and a zero-width joiner, CJK, NBSP, curly quotes, dashes, a soft hyphen, a
/// ligature, newlines. `a` and `b` are repeated so that substrings recur and "first occurrence"
/// and overlapping counts are actually exercised.
const TEXT_CHARS: &str = "aaabb  \ne\u{e9}\u{301}\u{308}\u{1F600}\u{1F44D}\u{1F3FD}\u{200D}\
    \u{6F22}\u{5B57}\u{A0}\u{2018}\u{2019}\u{201C}\u{201D}'\"\u{2014}-\u{AD}\u{DF}\u{FB01}\r";

fn text_char() -> impl Strategy<Value = char> {
    select(chars(TEXT_CHARS))
}

fn rich_text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(text_char(), 0..max).prop_map(String::from_iter)
}

// ---------------------------------------------------------------------------------------------
// 1. Exact substrings.

/// Text over three letters, one of them two bytes long, so that short substrings recur and
/// overlap ("aa" in "aaa") and byte and char offsets differ.
fn repetitive_text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(select(vec!['a', 'b', '\u{e9}']), 0..max).prop_map(String::from_iter)
}

/// Overlapping occurrences of `needle` in `hay`, counted over char positions.
fn count_overlapping(hay: &[char], needle: &[char]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn every_substring_is_found_exactly_at_its_first_occurrence(
        text in prop_oneof![rich_text(48), repetitive_text(32)],
        from in any::<Index>(),
        len in any::<Index>(),
        max_len in select(vec![2usize, 4, 48]),
    ) {
        let text_chars = chars(&text);
        prop_assume!(!text_chars.is_empty());
        let start = from.index(text_chars.len());
        let end = start + 1 + len.index((text_chars.len() - start).min(max_len));
        let quote: String = text_chars[start..end].iter().collect();

        let first_byte = text.find(&quote).expect("a substring occurs");
        let first = text[..first_byte].chars().count();
        let expected = Located {
            start: first,
            end: first + (end - start),
            score: 100.0,
            how: How::Exact,
            occurrences: count_overlapping(&text_chars, &text_chars[start..end]),
            reason: None,
        };
        prop_assert!(expected.occurrences >= 1);
        for options in [LocateOptions::seed(), LocateOptions::default()] {
            let got = locate_with(&text, &quote, &options);
            prop_assert_eq!(got.as_ref(), Some(&expected), "options {:?}", options);
        }
        prop_assert_eq!(locate(&text, &quote), Some(expected));
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Typography changes map back to the raw span.

/// Words a chunk is made of. Every word starts and ends with a character the fold keeps and does
/// not turn into a space (so a word's edges are raw characters the map back can point at), and
/// every character's case changes survive case folding (no final sigma, no dotted I). Soft
/// hyphens and zero-width spaces appear only inside words, as PDF extraction leaves them.
const WORDS: &[&str] = &[
    "the",
    "limit",
    "is",
    "not",
    "enforced",
    "for",
    "enterprise",
    "accounts",
    "Growth",
    "included",
    "500,000",
    "calls/mo;",
    "overage",
    "$0.12",
    "per",
    "1,000",
    "(annual",
    "contracts:",
    "$0.09).",
    "it's",
    "don\u{2019}t",
    "\u{201C}quoted\u{201D}",
    "'single'",
    "\"double\"",
    "well-known",
    "2014\u{2013}2020",
    "\u{2014}",
    "A\u{2212}B",
    "non\u{2011}breaking",
    "re\u{2010}enter",
    "e.g.",
    "file",
    "office",
    "offline",
    "flow",
    "\u{FB01}nal",
    "o\u{FB00}er",
    "caf\u{e9}",
    "nai\u{308}ve",
    "cafe\u{301}",
    "Stra\u{DF}e",
    "\u{FC}ber",
    "\u{65E5}\u{672C}\u{8A9E}",
    "\u{6F22}\u{5B57}",
    "\u{1F600}",
    "\u{1F44D}\u{1F3FD}",
    "\u{395}\u{3BB}\u{3BB}\u{3AC}\u{3B4}\u{3B1}",
    "sub\u{AD}scription",
    "zero\u{200B}width",
];

/// What may separate two words in a chunk: the fold turns every one of these into one space. Some
/// start with a character the fold drops, so the raw char after a word's end is not always the
/// one the next folded char comes from (a span mapped back with `back[b]` instead of
/// `back[b - 1] + 1` would swallow it).
const SEPARATORS: &[&str] = &[
    " ",
    " ",
    " ",
    "  ",
    "\n",
    " \n",
    "\u{A0}",
    "\t",
    "\r\n",
    "\u{AD} ",
    "\u{200B}\n",
    "\u{FEFF}\u{AD}  ",
    " \u{200B}",
];

/// A chunk of words, with the char span of each word.
#[derive(Debug, Clone)]
struct Chunk {
    text: String,
    words: Vec<(usize, usize)>,
}

fn chunk_strategy() -> impl Strategy<Value = Chunk> {
    prop::collection::vec((select(WORDS), select(SEPARATORS)), 1..24).prop_map(|parts| {
        let mut text = String::new();
        let mut words = Vec::new();
        let mut at = 0;
        for (i, (word, sep)) in parts.iter().enumerate() {
            if i > 0 {
                text.push_str(sep);
                at += sep.chars().count();
            }
            let len = word.chars().count();
            text.push_str(word);
            words.push((at, at + len));
            at += len;
        }
        Chunk { text, words }
    })
}

#[derive(Debug, Clone, Copy)]
enum CaseChange {
    Keep,
    Upper,
    Lower,
    /// Per character, upper or lower as the choice bits say.
    Mixed,
}

/// Which typography changes to make; `choices` picks variants per character (cycled).
#[derive(Debug, Clone)]
struct Typography {
    case: CaseChange,
    ligatures: bool,
    quotes: bool,
    dashes: bool,
    spaces: bool,
    invisibles: bool,
    choices: Vec<u8>,
}

fn typography_strategy() -> impl Strategy<Value = Typography> {
    (
        select(vec![
            CaseChange::Keep,
            CaseChange::Upper,
            CaseChange::Lower,
            CaseChange::Mixed,
        ]),
        any::<[bool; 5]>(),
        prop::collection::vec(any::<u8>(), 1..64),
    )
        .prop_map(|(case, flags, choices)| Typography {
            case,
            ligatures: flags[0],
            quotes: flags[1],
            dashes: flags[2],
            spaces: flags[3],
            invisibles: flags[4],
            choices,
        })
}

const DASHES: &[char] = &[
    '-', '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2212}',
];
const SINGLE_QUOTES: &[char] = &['\'', '\u{2018}', '\u{2019}'];
const DOUBLE_QUOTES: &[char] = &['"', '\u{201C}', '\u{201D}'];
/// Replacements for one whitespace character: NBSP, narrow NBSP, thin space, doubled spaces.
const SPACES: &[&str] = &[" ", "\u{A0}", "\u{202F}", "\u{2009}", "  ", " \u{A0}", "\n"];
const INVISIBLES: &[char] = &['\u{AD}', '\u{200B}', '\u{FEFF}'];

impl Typography {
    fn choice(&self, i: usize) -> usize {
        usize::from(self.choices[i % self.choices.len()])
    }

    /// `text` as a model or another extractor might render it: the same words, other typography.
    fn apply(&self, text: &str) -> String {
        let cased: Vec<char> = text
            .chars()
            .enumerate()
            .flat_map(|(i, c)| -> Vec<char> {
                let upper = match self.case {
                    CaseChange::Keep => return vec![c],
                    CaseChange::Upper => true,
                    CaseChange::Lower => false,
                    CaseChange::Mixed => self.choice(i) % 2 == 0,
                };
                if upper {
                    c.to_uppercase().collect()
                } else {
                    c.to_lowercase().collect()
                }
            })
            .collect();

        let mut ligated = Vec::with_capacity(cased.len());
        let mut i = 0;
        while i < cased.len() {
            let c = cased[i];
            let next = cased.get(i + 1).copied();
            let ligature = match (c, next) {
                ('f', Some('i')) => Some('\u{FB01}'),
                ('f', Some('l')) => Some('\u{FB02}'),
                ('f', Some('f')) => Some('\u{FB00}'),
                _ => None,
            };
            match (self.ligatures, ligature, c) {
                (true, Some(lig), _) if self.choice(i) % 2 == 0 => {
                    ligated.push(lig);
                    i += 2;
                    continue;
                }
                (true, _, '\u{FB01}') => ligated.extend(['f', 'i']),
                (true, _, '\u{FB02}') => ligated.extend(['f', 'l']),
                (true, _, '\u{FB00}') => ligated.extend(['f', 'f']),
                _ => ligated.push(c),
            }
            i += 1;
        }

        let mut out = String::new();
        for (i, &c) in ligated.iter().enumerate() {
            let pick = self.choice(i + 7);
            if self.quotes && SINGLE_QUOTES.contains(&c) {
                out.push(SINGLE_QUOTES[pick % SINGLE_QUOTES.len()]);
            } else if self.quotes && DOUBLE_QUOTES.contains(&c) {
                out.push(DOUBLE_QUOTES[pick % DOUBLE_QUOTES.len()]);
            } else if self.dashes && DASHES.contains(&c) {
                out.push(DASHES[pick % DASHES.len()]);
            } else if self.spaces && c.is_whitespace() {
                out.push_str(SPACES[pick % SPACES.len()]);
            } else {
                out.push(c);
            }
            if self.invisibles && i + 1 < ligated.len() && pick % 3 == 0 {
                out.push(INVISIBLES[(pick / 3) % INVISIBLES.len()]);
            }
        }
        out
    }
}

/// A chunk, a word-aligned substring of it given as its char span, and a typography variant of
/// that substring (the quote a model returned).
fn changed_substring() -> impl Strategy<Value = (Chunk, (usize, usize), String)> {
    (
        chunk_strategy(),
        any::<Index>(),
        any::<Index>(),
        typography_strategy(),
    )
        .prop_map(|(chunk, first, count, typography)| {
            let n = chunk.words.len();
            let first_word = first.index(n);
            let last_word = first_word + count.index((n - first_word).min(6));
            let span = (chunk.words[first_word].0, chunk.words[last_word].1);
            let quote = typography.apply(&char_slice(&chunk.text, span.0, span.1));
            (chunk, span, quote)
        })
}

/// The located span must be the substring's raw span, whatever the options.
///
/// Why the generator's preconditions are needed for "the raw span" to be well defined:
/// - Word-aligned edges. The fold collapses whitespace runs (a span starting at a space, or at the
///   second space of a run, has no folded position of its own) and drops soft hyphens and
///   zero-width spaces (a span ending just after one maps back to the char before it). A span that
///   starts and ends on characters the fold keeps, with no whitespace at its edges, is exactly the
///   raw image of a folded range.
/// - Unique folded form. Partial-ratio reports one of several perfect windows (its bisection stops
///   at the first score of 100 it happens to visit, not the leftmost), so with two folded
///   occurrences either raw span would be a correct answer.
fn assert_maps_back(
    chunk: &Chunk,
    span: (usize, usize),
    quote: &str,
    options: &LocateOptions,
    seed_rules: bool,
) -> Result<(), TestCaseError> {
    let (start, end) = span;
    let original = char_slice(&chunk.text, start, end);
    let got = locate_with(&chunk.text, quote, options)
        .ok_or_else(|| TestCaseError::fail(format!("{quote:?} not found with {options:?}")))?;
    prop_assert_eq!(
        (got.start, got.end),
        (start, end),
        "span {:?} for quote {:?}, want {:?} ({:?}), options {:?}, got {:?}",
        char_slice(&chunk.text, got.start, got.end),
        quote,
        original,
        chunk.text,
        options,
        got
    );
    if got.how == How::Exact {
        prop_assert_eq!(quote, original.as_str());
        return Ok(());
    }
    prop_assert!(
        quote != original,
        "an unchanged quote must be exact: {:?}",
        got
    );
    prop_assert_eq!(got.score, 100.0, "{:?}", got);
    if seed_rules {
        // Score 100 clears `accept`, and with the seed rules nothing but the span/quote length
        // ratio can still send the match to review.
        let length_ratio = (end - start) as f64 / quote.chars().count() as f64;
        let in_band = (options.min_length_ratio..=options.max_length_ratio).contains(&length_ratio);
        let want = if in_band { How::Fuzzy } else { How::Review };
        prop_assert_eq!(got.how, want, "length ratio {}: {:?}", length_ratio, got);
    } else {
        prop_assert!(matches!(got.how, How::Folded | How::Review), "{:?}", got);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn typography_changes_map_back_to_the_raw_span(
        (chunk, span, quote) in changed_substring(),
    ) {
        let original = char_slice(&chunk.text, span.0, span.1);
        let folded_quote = fold_text(&quote);
        // The generator only makes changes the fold is meant to undo.
        prop_assert_eq!(&folded_quote, &fold_text(&original), "quote {:?}", quote);
        let folded_chunk = fold_text(&chunk.text);
        let first = folded_chunk.find(&folded_quote);
        prop_assume!(first.is_some() && first == folded_chunk.rfind(&folded_quote));

        assert_maps_back(&chunk, span, &quote, &LocateOptions::seed(), true)?;
        assert_maps_back(&chunk, span, &quote, &LocateOptions::default(), false)?;
    }
}

/// A chunk, a word-aligned substring of at least five words, and a quote that is a typography
/// variant of it with one letter of an inner word replaced (a change the fold does not undo), so
/// the locator must align rather than take the unique-folded-hit shortcut.
fn edited_substring() -> impl Strategy<Value = (Chunk, (usize, usize), String)> {
    (
        chunk_strategy(),
        any::<Index>(),
        any::<Index>(),
        typography_strategy(),
        any::<Index>(),
    )
        .prop_filter_map(
            "five words or more",
            |(chunk, first, count, typography, at)| {
                let n = chunk.words.len();
                if n < 5 {
                    return None;
                }
                let first_word = first.index(n - 4);
                let last_word = (first_word + 4 + count.index(5)).min(n - 1);
                let span = (chunk.words[first_word].0, chunk.words[last_word].1);
                // An inner word made of ASCII letters only, long enough that one letter is a light
                // edit: its middle letter becomes another letter.
                let inner: Vec<(usize, usize)> = chunk.words[first_word + 1..last_word]
                    .iter()
                    .copied()
                    .filter(|&(a, b)| {
                        b - a >= 4
                            && char_slice(&chunk.text, a, b)
                                .chars()
                                .all(|c| c.is_ascii_alphabetic())
                    })
                    .collect();
                if inner.is_empty() {
                    return None;
                }
                let (a, b) = inner[at.index(inner.len())];
                let mid = (a + b) / 2;
                let old = chunk.text.chars().nth(mid).unwrap();
                let new = if old.eq_ignore_ascii_case(&'q') {
                    'x'
                } else {
                    'q'
                };
                let original = char_slice(&chunk.text, span.0, span.1);
                let edited: String = original
                    .chars()
                    .enumerate()
                    .map(|(i, c)| if i == mid - span.0 { new } else { c })
                    .collect();
                Some((chunk, span, typography.apply(&edited)))
            },
        )
}

proptest! {
    #![proptest_config(config(256))]

    /// A real edit plus typography: the alignment's window, tightened and mapped back through the
    /// fold, is the original's raw span, edge for edge.
    #[test]
    fn an_edited_quote_maps_back_to_the_raw_span_after_alignment(
        (chunk, span, quote) in edited_substring(),
    ) {
        let original = char_slice(&chunk.text, span.0, span.1);
        let folded_chunk = fold_text(&chunk.text);
        let folded_original = fold_text(&original);
        // One folded occurrence of the original, and the quote is not a fold of it.
        // One folded occurrence, overlapping ones counted.
        let first = folded_chunk.find(&folded_original);
        prop_assume!(first.is_some() && first == folded_chunk.rfind(&folded_original));
        prop_assume!(fold_text(&quote) != folded_original);
        let got = locate_with(&chunk.text, &quote, &LocateOptions::default());
        let got = got.ok_or_else(|| TestCaseError::fail(format!("{quote:?} not found in {:?}", chunk.text)))?;
        prop_assert!(got.score < 100.0, "{:?}", got);
        prop_assert_eq!(
            (got.start, got.end),
            span,
            "span {:?} for quote {:?}, want {:?}, chunk {:?}, got {:?}",
            char_slice(&chunk.text, got.start, got.end),
            quote,
            original,
            chunk.text,
            got
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Fold invariants.

/// Characters the fold treats specially, or that NFKC or case folding expand: ligatures, ß and
/// capital ẞ, superscripts, fractions, full-width letters, a titlecase digraph, a Greek letter
/// with two diacritics, a spacing diaeresis (NFKC gives a space plus a combining mark), wide and
/// narrow spaces, information separators, the dropped invisibles.
const FOLD_CHARS: &[char] = &[
    '\u{FB01}', '\u{FB00}', '\u{FB03}', '\u{DF}', '\u{1E9E}', '\u{B2}', '\u{BD}', '\u{2122}',
    '\u{FF21}', '\u{1C5}', '\u{390}', '\u{A8}', '\u{2000}', '\u{3000}', '\u{1C}', '\u{1F}', '\r',
    '\u{AD}', '\u{200B}', '\u{FEFF}', '\u{345}', '\u{212B}', 'A', 'z', ' ', ' ', '\u{A0}',
];

fn fold_input() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![text_char(), select(FOLD_CHARS), any::<char>()],
        0..48,
    )
    .prop_map(String::from_iter)
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn fold_map_back_is_well_formed(raw in fold_input()) {
        let folded = fold(&raw);
        let raw_len = raw.chars().count();
        prop_assert_eq!(folded.back.len(), folded.chars.len());
        prop_assert!(folded.back.windows(2).all(|w| w[0] <= w[1]), "{:?}", folded.back);
        prop_assert!(folded.back.iter().all(|&i| (i as usize) < raw_len), "{:?}", folded.back);
        prop_assert_eq!(folded.text(), fold_text(&raw));
    }

    #[test]
    fn fold_is_idempotent(raw in fold_input()) {
        let once = fold_text(&raw);
        prop_assert_eq!(fold_text(&once), once);
    }

    #[test]
    fn content_hash_is_hex_and_blind_to_typography(
        chunk in chunk_strategy(),
        typography in typography_strategy(),
    ) {
        let hash = content_hash(&chunk.text);
        prop_assert_eq!(hash.len(), 64);
        prop_assert!(hash.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')), "{}", hash);
        let variant = typography.apply(&chunk.text);
        prop_assert_eq!(fold_text(&variant), fold_text(&chunk.text), "variant {:?}", variant);
        prop_assert_eq!(content_hash(&variant), hash, "variant {:?}", variant);
    }
}

/// Idempotence one character at a time, over every Unicode scalar value: a random string almost
/// never contains the few compatibility characters that could break it, so they are not left to
/// chance. (Space collapsing is the only thing the fold does across characters, and its output
/// never holds two spaces in a row, so per-character idempotence plus the string property above
/// cover the fold.)
/// Normaliser v1 is the seed's fold exactly (the reference vectors pin it), and the seed maps the
/// six dashes *before* NFKC: five compatibility characters become U+2212, U+2014 or U+2013 under
/// NFKC and are left there, so folding them twice differs from folding once. This pins that set
/// for v1; v2 (the current fold) applies the tables after NFKC and has no exception at all.
#[test]
fn fold_is_idempotent_on_every_char_v2_always_v1_but_the_known_dash_quirk() {
    let broken = |normaliser: Normaliser| -> Vec<String> {
        let mut buf = [0u8; 4];
        (0..=char::MAX as u32)
            .filter_map(char::from_u32)
            .filter_map(|c| {
                let once = normaliser.fold(c.encode_utf8(&mut buf)).text();
                let twice = normaliser.fold(&once).text();
                (twice != once).then(|| format!("U+{:04X} -> {once:?} -> {twice:?}", c as u32))
            })
            .collect()
    };
    let known_v1 = [
        "U+207B -> \"\u{2212}\" -> \"-\"",
        "U+208B -> \"\u{2212}\" -> \"-\"",
        "U+FE31 -> \"\u{2014}\" -> \"-\"",
        "U+FE32 -> \"\u{2013}\" -> \"-\"",
        "U+FE58 -> \"\u{2014}\" -> \"-\"",
    ];
    let v1 = broken(Normaliser::V1);
    assert_eq!(v1, known_v1, "v1: {} chars:\n{}", v1.len(), v1.join("\n"));
    let v2 = broken(Normaliser::V2);
    assert!(v2.is_empty(), "v2: {} chars:\n{}", v2.len(), v2.join("\n"));
    assert_eq!(fold_text("\u{FE58}\u{207B}\u{2212}"), "---");
}

// ---------------------------------------------------------------------------------------------
// 4. Partial-ratio alignment.

/// Alphabets for alignment inputs: tiny ones make near-matches, and so ties and hard
/// bisection ranges, common.
const ALPHABETS: &[&[char]] = &[
    &['a', 'b'],
    &['a', 'b', 'c', ' '],
    &['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
    &['a', '\u{e9}', '\u{6F22}', ' ', '\u{1F600}'],
];

fn alignment_input(
    max_needle: usize,
    max_hay: usize,
) -> impl Strategy<Value = (Vec<char>, Vec<char>)> {
    (
        select(ALPHABETS),
        prop::collection::vec(any::<Index>(), 1..=max_needle),
        prop::collection::vec(any::<Index>(), 1..=max_hay),
    )
        .prop_map(|(alphabet, needle, hay)| {
            let pick = |ix: &Index| alphabet[ix.index(alphabet.len())];
            (
                needle.iter().map(pick).collect(),
                hay.iter().map(pick).collect(),
            )
        })
}

/// The partial ratio by brute force, as `fixtures/vectors/README.md` defines it for
/// `len(short) <= len(long)`: the best ratio over every window of `long` of `short`'s length,
/// plus the shorter windows that touch `long`'s start or end.
fn brute_partial_ratio(short: &[char], long: &[char]) -> f64 {
    let (n, m) = (short.len(), long.len());
    let full = (0..=m - n).map(|i| &long[i..i + n]);
    let prefixes = (1..n).map(|i| &long[..i]);
    let suffixes = (m - n + 1..m).map(|i| &long[i..]);
    full.chain(prefixes)
        .chain(suffixes)
        .map(|window| ratio(short, window))
        .fold(0.0, f64::max)
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn alignment_score_is_the_ratio_of_its_windows((needle, hay) in alignment_input(40, 80)) {
        let al = partial_ratio_alignment_raw(&needle, &hay, 0.0);
        prop_assert!(al.src_start <= al.src_end && al.src_end <= needle.len(), "{:?}", al);
        prop_assert!(al.dest_start <= al.dest_end && al.dest_end <= hay.len(), "{:?}", al);
        if needle.len() < hay.len() {
            // The whole needle is compared with a window of the haystack.
            prop_assert_eq!((al.src_start, al.src_end), (0, needle.len()));
            prop_assert!(al.dest_end - al.dest_start <= needle.len(), "{:?}", al);
        }
        // With equal lengths rapidfuzz also aligns the second string inside the first and, when
        // that scores higher, reports a window of the needle against the whole haystack: so the
        // general statement is over both windows.
        let window_ratio = ratio(
            &needle[al.src_start..al.src_end],
            &hay[al.dest_start..al.dest_end],
        );
        prop_assert!((al.score - window_ratio).abs() < 1e-9, "{:?} ratio {}", al, window_ratio);
        if al.src_start == 0 && al.src_end == needle.len() {
            prop_assert!((al.score - ratio(&needle, &hay[al.dest_start..al.dest_end])).abs() < 1e-9);
        }
    }

    #[test]
    fn alignment_is_optimal_on_small_inputs((needle, hay) in alignment_input(12, 40)) {
        let al = partial_ratio_alignment_raw(&needle, &hay, 0.0);
        let best = match needle.len().cmp(&hay.len()) {
            std::cmp::Ordering::Less => brute_partial_ratio(&needle, &hay),
            std::cmp::Ordering::Greater => brute_partial_ratio(&hay, &needle),
            // Equal lengths: rapidfuzz tries both directions and keeps the better.
            std::cmp::Ordering::Equal => {
                brute_partial_ratio(&needle, &hay).max(brute_partial_ratio(&hay, &needle))
            }
        };
        prop_assert!(
            (al.score - best).abs() < 1e-9,
            "needle {:?} hay {:?}: got {:?}, brute force {}",
            String::from_iter(&needle),
            String::from_iter(&hay),
            al,
            best
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 5. No panics.

fn any_text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![any::<char>(), text_char(), select(FOLD_CHARS)],
        0..max,
    )
    .prop_map(String::from_iter)
}

/// A quote made from a piece of `chunk` with a few characters replaced, inserted or deleted, so
/// that the fuzzy path (alignment, edge tightening, the map back, the meaning guard) runs on
/// arbitrary Unicode rather than only on quotes that match nothing.
fn edited_quote(chunk: &str, at: Index, len: Index, edits: &[(u8, Index, char)]) -> String {
    let source = chars(chunk);
    let start = if source.is_empty() {
        0
    } else {
        at.index(source.len())
    };
    let end = start + len.index(source.len() - start + 1);
    let mut quote = source[start..end].to_vec();
    for &(kind, pos, c) in edits {
        let i = pos.index(quote.len() + 1);
        match kind % 3 {
            0 if i < quote.len() => quote[i] = c,
            1 if i < quote.len() => {
                quote.remove(i);
            }
            _ => quote.insert(i, c),
        }
    }
    quote.into_iter().collect()
}

fn check_located(chunk: &str, quote: &str, got: Option<Located>) -> Result<(), TestCaseError> {
    if quote.is_empty() {
        prop_assert!(got.is_none(), "{:?}", got);
    }
    if let Some(l) = got {
        prop_assert!(
            l.start < l.end && l.end <= chunk.chars().count(),
            "{:?} in a chunk of {} chars",
            l,
            chunk.chars().count()
        );
        prop_assert!((0.0..=100.0).contains(&l.score), "{:?}", l);
        if l.how == How::Exact {
            prop_assert_eq!(char_slice(chunk, l.start, l.end), quote);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn locate_never_panics_on_unrelated_strings(chunk in any_text(60), quote in any_text(90)) {
        for options in [LocateOptions::seed(), LocateOptions::default()] {
            check_located(&chunk, &quote, locate_with(&chunk, &quote, &options))?;
        }
    }

    #[test]
    fn locate_never_panics_on_edited_pieces(
        chunk in any_text(60),
        at in any::<Index>(),
        len in any::<Index>(),
        edits in prop::collection::vec(
            (any::<u8>(), any::<Index>(), prop_oneof![any::<char>(), select(FOLD_CHARS)]),
            0..6,
        ),
    ) {
        let quote = edited_quote(&chunk, at, len, &edits);
        for options in [LocateOptions::seed(), LocateOptions::default()] {
            check_located(&chunk, &quote, locate_with(&chunk, &quote, &options))?;
        }
    }
}
