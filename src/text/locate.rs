//! Turning a model's quote into a span of text we hold (seed 001, "Matching a quote back").
//!
//! Order, stopping at the first that answers:
//! 1. exact search of the raw quote in the raw chunk → `exact`, score 100, first occurrence;
//! 2. fold both (normaliser v2 by default, v1 under the seed's rules), partial-ratio alignment of the folded quote in the folded
//!    chunk, the window mapped back with `back[a]` and the end of `back[b - 1]`'s segment;
//! 3. below the review cut-off (85) → no span at all; below accept (95), or a span/quote length
//!    ratio outside 0.85–1.20 (v1: raw chars; v2: folded chars, whitespace runs one space)
//!    → `review`; a folded quote found as it is (score 100) → `folded`
//!    (normaliser v2; the seed's v1 rules call it `fuzzy`); otherwise `fuzzy`.
//!
//! On top of the seed, the meaning guard downgrades a `fuzzy` match whose folded quote and folded
//! span differ in a number, a negation or an ellipsis to `review`: a high score that drops "not"
//! must never be accepted. `LocateOptions::meaning_guard = false` gives the plain seed rules.
//!
//! Invariants: offsets are `char` indices into the raw chunk, half-open; an `exact` span's text
//! equals the quote; every span is non-empty when the quote is.

use super::align::{partial_ratio_alignment, tighten_window, Alignment};
use super::normalise::{Folded, Normaliser};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::OnceLock;

/// How a quote was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum How {
    /// The raw quote occurs in the raw text.
    Exact,
    /// Not verbatim, but the folded quote occurs in the folded text as it is (score 100): the
    /// same text up to typography, case, compatibility forms and NFC/NFD. Normaliser v2 only;
    /// the seed's rules (v1) call this `fuzzy`, as the reference vectors do.
    Folded,
    /// Found in folded space, score and length ratio inside the accept band.
    Fuzzy,
    /// A candidate exists but a person should look: low score, odd length, or changed meaning.
    Review,
}

impl How {
    /// The lowercase name used in JSON and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            How::Exact => "exact",
            How::Folded => "folded",
            How::Fuzzy => "fuzzy",
            How::Review => "review",
        }
    }
}

/// A located span.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Located {
    /// Start, in chars of the raw text.
    pub start: usize,
    /// End (exclusive), in chars of the raw text.
    pub end: usize,
    /// Similarity in `[0, 100]`; 100 for exact.
    pub score: f64,
    /// How it was found.
    pub how: How,
    /// How many times the raw quote occurs exactly (overlaps counted); more than one is ambiguous.
    pub occurrences: usize,
    /// Why a match went to review, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Cut-offs and switches for `locate`. `Default` is the seed's 95/85 and 0.85–1.20, guard on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LocateOptions {
    /// Score at or above which a fuzzy match is accepted.
    pub accept: f64,
    /// Score below which there is no candidate at all.
    pub review: f64,
    /// Smallest accepted span/quote length ratio.
    pub min_length_ratio: f64,
    /// Largest accepted span/quote length ratio.
    pub max_length_ratio: f64,
    /// Downgrade fuzzy matches that change a number, a negation or an ellipsis.
    pub meaning_guard: bool,
    /// Let a fuzzy span's edges grow or shrink to what the quote covers (the seed's window has
    /// the quote's folded length, so extra or missing characters clip a word at one edge).
    pub tighten_edges: bool,
    /// The fold both sides go through before alignment.
    #[serde(default = "current_normaliser")]
    pub normaliser: Normaliser,
}

fn current_normaliser() -> Normaliser {
    Normaliser::CURRENT
}

impl Default for LocateOptions {
    fn default() -> Self {
        LocateOptions {
            accept: 95.0,
            review: 85.0,
            min_length_ratio: 0.85,
            max_length_ratio: 1.20,
            meaning_guard: true,
            tighten_edges: true,
            normaliser: Normaliser::CURRENT,
        }
    }
}

impl LocateOptions {
    /// Checks the cut-offs: each a number from 0 to 100 (not NaN), and review <= accept.
    /// `names` are what the user set them as (e.g. `["--accept", "--review"]`), for the message.
    pub fn check_cutoffs(&self, names: [&str; 2]) -> Result<(), String> {
        let [accept_name, review_name] = names;
        for (name, value) in [(accept_name, self.accept), (review_name, self.review)] {
            if !(0.0..=100.0).contains(&value) {
                return Err(format!("{name} {value} is not a score from 0 to 100"));
            }
        }
        if self.review > self.accept {
            return Err(format!(
                "{review_name} {} is above {accept_name} {}; review must be <= accept",
                self.review, self.accept
            ));
        }
        Ok(())
    }

    /// The seed's plain rules: the same cut-offs, no meaning guard, no edge tightening. The
    /// reference vectors are made with these.
    pub fn seed() -> Self {
        LocateOptions {
            meaning_guard: false,
            tighten_edges: false,
            normaliser: Normaliser::V1,
            ..Self::default()
        }
    }
}

/// A chunk prepared once for many quotes: its raw text and its fold.
#[derive(Debug, Clone)]
pub struct Haystack<'a> {
    raw: Cow<'a, str>,
    /// Folded on first need, per normaliser (v1, v2): most quotes are found by the raw exact
    /// search alone.
    folded: [OnceLock<FoldedHay>; 2],
}

/// The chunk's fold, plus (past [`SHORT_HAYSTACK`] chars) its folded text as a string for a
/// linear substring search.
#[derive(Debug, Clone)]
struct FoldedHay {
    folded: Folded,
    text: OnceLock<String>,
}

impl<'a> Haystack<'a> {
    /// Folds `raw` once.
    pub fn new(raw: &'a str) -> Self {
        Haystack {
            raw: Cow::Borrowed(raw),
            folded: Default::default(),
        }
    }

    /// Folds `raw` once, keeping it.
    pub fn owned(raw: String) -> Haystack<'static> {
        Haystack {
            raw: Cow::Owned(raw),
            folded: Default::default(),
        }
    }

    /// The raw text.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// The folded text (current normaliser) and its map back.
    pub fn folded(&self) -> &Folded {
        &self.folded_hay(Normaliser::CURRENT).folded
    }

    fn folded_hay(&self, normaliser: Normaliser) -> &FoldedHay {
        let slot = match normaliser {
            Normaliser::V1 => &self.folded[0],
            Normaliser::V2 => &self.folded[1],
        };
        slot.get_or_init(|| {
            let folded = normaliser.fold(&self.raw);
            FoldedHay {
                folded,
                text: OnceLock::new(),
            }
        })
    }

    /// Where the folded quote occurs in the folded chunk, when it occurs exactly once: then the
    /// alignment's answer is known (score 100 at that window) without searching.
    fn unique_folded_hit(&self, needle: &Folded, normaliser: Normaliser) -> Option<Alignment> {
        let hay = self.folded_hay(normaliser);
        let start = if hay.folded.len() > SHORT_HAYSTACK {
            // Long: as text, where the search is linear.
            let text = hay.text.get_or_init(|| hay.folded.text());
            let needle_text = needle.text();
            let byte = find_bytes(text.as_bytes(), needle_text.as_bytes(), 0)?;
            let next = byte + text[byte..].chars().next().map_or(1, char::len_utf8);
            if find_bytes(text.as_bytes(), needle_text.as_bytes(), next).is_some() {
                return None;
            }
            char_index(text, byte)
        } else {
            let start = find_chars(&hay.folded.chars, &needle.chars, 0)?;
            if find_chars(&hay.folded.chars, &needle.chars, start + 1).is_some() {
                return None;
            }
            start
        };
        Some(Alignment {
            score: 100.0,
            src_start: 0,
            src_end: needle.len(),
            dest_start: start,
            dest_end: start + needle.len(),
        })
    }

    /// Locates `quote` in this chunk; `None` when no span is good enough to review.
    pub fn locate(&self, quote: &str, options: &LocateOptions) -> Option<Located> {
        if quote.is_empty() {
            return None;
        }
        if let Some(byte) = find_bytes(self.raw.as_bytes(), quote.as_bytes(), 0) {
            let start = char_index(&self.raw, byte);
            return Some(Located {
                start,
                end: start + quote.chars().count(),
                score: 100.0,
                how: How::Exact,
                occurrences: count_occurrences(&self.raw, quote, byte),
                reason: None,
            });
        }
        self.locate_folded(quote, options)
    }

    fn locate_folded(&self, quote: &str, options: &LocateOptions) -> Option<Located> {
        let needle = options.normaliser.fold(quote);
        if needle.is_empty() {
            return None;
        }
        let hay = &self.folded_hay(options.normaliser).folded;
        let al = match self.unique_folded_hit(&needle, options.normaliser) {
            Some(hit) => hit,
            None => partial_ratio_alignment(&needle.chars, &hay.chars, options.review)?,
        };
        let (a, b) = if options.tighten_edges && al.score < 100.0 && needle.len() < hay.len() {
            let slack = (needle.len() / 8).max(4);
            tighten_window(&needle.chars, &hay.chars, al.dest_start, al.dest_end, slack)
        } else {
            (al.dest_start, al.dest_end)
        };
        let (start, end) = hay.raw_span(a, b);
        // Under v2 the span folded alone gives both its length and whether it is the quote
        // folded: folded once, and the quote's own fold is `needle`.
        let span = (options.normaliser == Normaliser::V2)
            .then(|| Normaliser::V2.fold(self.raw_chars(start, end)));
        let length_ratio = match &span {
            Some(span) => ratio(folded_len(span), folded_len(&needle)),
            None => ratio(end - start, quote.chars().count()),
        };
        let reason = if al.score < options.accept {
            Some(format!(
                "score {:.1} below accept {}",
                al.score, options.accept
            ))
        } else if !(options.min_length_ratio..=options.max_length_ratio).contains(&length_ratio) {
            Some(format!(
                "span/quote length ratio {length_ratio:.2} outside {}-{}",
                options.min_length_ratio, options.max_length_ratio
            ))
        } else if options.meaning_guard {
            let span_folded = &hay.chars[a..b];
            meaning_change(&needle.chars, span_folded)
        } else {
            None
        };
        Some(Located {
            start,
            end,
            score: al.score,
            how: match reason {
                Some(_) => How::Review,
                // A match inside one raw character's fold (`inance` in `ﬁnance`, a space in
                // U+0384's ` ́`) maps back to the whole character, whose fold is more than the
                // quote: that span is not `folded`.
                None if al.score == 100.0
                    && span.is_some_and(|span| span.chars == needle.chars) =>
                {
                    How::Folded
                }
                None => How::Fuzzy,
            },
            occurrences: 0,
            reason,
        })
    }
}

impl Haystack<'_> {
    /// The raw chars `[start, end)`.
    fn raw_chars(&self, start: usize, end: usize) -> &str {
        let mut bytes = self.raw.char_indices().map(|(at, _)| at).skip(start);
        let from = bytes.next().unwrap_or(self.raw.len());
        let to = bytes.nth(end - start - 1).unwrap_or(self.raw.len());
        &self.raw[from..to]
    }
}

/// Span length over quote length. v1 (the seed) counts raw chars; v2 counts folded chars
/// (whitespace runs collapsed to one space, NFC and NFD alike), so a quote that differs from
/// the text only in whitespace (the indentation of a code block or a reST paragraph, a line
/// break for a space) is not sent to review for its length (8% of such quotes were).
fn ratio(span_len: usize, quote_len: usize) -> f64 {
    span_len as f64 / quote_len.max(1) as f64
}

/// The length in chars of a text folded (normaliser v2), without the space a whitespace run at
/// either edge folds to: the quote's edges are what the model copied, the span's what the
/// alignment took.
fn folded_len(folded: &Folded) -> usize {
    let chars = &folded.chars;
    let lead = usize::from(chars.first() == Some(&' '));
    let trail = usize::from(chars.len() > lead && chars.last() == Some(&' '));
    chars.len() - lead - trail
}

/// True when `quote` has no visible character: it is empty, or holds only whitespace, control
/// characters and the invisible characters the fold drops or keeps unseen (soft hyphen,
/// zero-width space, non-joiner and joiner, word joiner, BOM). Such a quote names no words: the
/// command line refuses it as bad input, and an answer holding one is refused, since an exact
/// match of whitespace is not evidence. ([`Haystack::locate`] still finds it: any substring is
/// found exactly.)
pub fn is_blank(quote: &str) -> bool {
    quote.chars().all(|c| {
        c.is_whitespace()
            || c.is_control()
            || matches!(
                c,
                '\u{00AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}'
            )
    })
}

/// Locates `quote` in `chunk` with the default options (seed cut-offs, meaning guard on).
pub fn locate(chunk: &str, quote: &str) -> Option<Located> {
    Haystack::new(chunk).locate(quote, &LocateOptions::default())
}

/// Locates `quote` in `chunk` with the given options.
pub fn locate_with(chunk: &str, quote: &str, options: &LocateOptions) -> Option<Located> {
    Haystack::new(chunk).locate(quote, options)
}

/// The char index of byte offset `byte` (a char boundary) in `text`.
pub fn char_index(text: &str, byte: usize) -> usize {
    text[..byte].chars().count()
}

/// Haystacks up to this many bytes, or folded chars (a chunk), are searched by comparing
/// candidates in place.
const SHORT_HAYSTACK: usize = 8 * 1024;

/// The first byte offset at or after `from` where `needle` (not empty) starts in `hay`.
///
/// Chunks are short and each quote is searched for once or twice, so building a searcher
/// (`str::find`'s Two-Way, or memchr's `Finder`) costs more than it saves: candidates come from
/// `memchr` on the needle's first byte and are compared in place. A UTF-8 needle starts with a
/// lead byte, so every match starts on a char boundary. Past [`SHORT_HAYSTACK`] bytes the
/// in-place comparison could cost quadratic time (`aaa…b` in `aaaa…`), so memchr's linear
/// `memmem` searches instead.
fn find_bytes(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let (&first, _) = needle.split_first()?;
    let hay = hay.get(from..)?;
    if hay.len() > SHORT_HAYSTACK {
        return memchr::memmem::find(hay, needle).map(|at| from + at);
    }
    memchr::memchr_iter(first, hay)
        .find(|&at| hay[at..].starts_with(needle))
        .map(|at| from + at)
}

/// The first index at or after `from` where `needle` (not empty) starts in `hay`, a short
/// haystack (see [`find_bytes`]): candidates by the first char, compared in place.
fn find_chars(hay: &[char], needle: &[char], from: usize) -> Option<usize> {
    let (&first, _) = needle.split_first()?;
    let hay = hay.get(from..)?;
    (0..hay.len())
        .find(|&at| hay[at] == first && hay[at..].starts_with(needle))
        .map(|at| from + at)
}

/// Occurrences of `needle` in `text`, overlapping ones included, the first being at `first`.
fn count_occurrences(text: &str, needle: &str, first: usize) -> usize {
    let mut count = 0;
    let mut from = first;
    while let Some(at) = find_bytes(text.as_bytes(), needle.as_bytes(), from) {
        count += 1;
        from = at + text[at..].chars().next().map_or(1, char::len_utf8);
        if from > text.len() {
            break;
        }
    }
    count
}

const NEGATIONS: &[&str] = &["not", "no", "never", "without", "cannot", "nor"];

/// The negations among the words of folded text (runs of alphanumerics and apostrophes), each
/// without its edge apostrophes: only these are kept, so no other word is copied.
fn negations(folded: &[char]) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    for (at, &c) in folded.iter().enumerate() {
        if !(c.is_alphanumeric() || c == '\'') {
            push_negation(&folded[start..at], &mut out);
            start = at + 1;
        }
    }
    push_negation(&folded[start..], &mut out);
    out
}

/// Pushes `word` to `out`, without its edge apostrophes, when it is a negation.
fn push_negation(word: &[char], out: &mut Vec<String>) {
    let word = trim_apostrophes(word);
    if is_negation(word) {
        out.push(word.iter().collect());
    }
}

fn trim_apostrophes(word: &[char]) -> &[char] {
    let start = word.iter().position(|&c| c != '\'').unwrap_or(word.len());
    let end = word
        .iter()
        .rposition(|&c| c != '\'')
        .map_or(start, |at| at + 1);
    &word[start..end]
}

fn is_negation(word: &[char]) -> bool {
    let same = |name: &str| name.len() == word.len() && word.iter().copied().eq(name.chars());
    word.ends_with(&['n', '\'', 't']) || NEGATIONS.iter().any(|name| same(name))
}

/// Numbers in folded text: digit runs joined by single `.` or `,` between digits.
fn numbers(folded: &[char]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < folded.len() {
        if !folded[i].is_numeric() {
            i += 1;
            continue;
        }
        let mut num = String::new();
        while i < folded.len() {
            let c = folded[i];
            let joins = matches!(c, '.' | ',')
                && !num.is_empty()
                && folded.get(i + 1).is_some_and(|n| n.is_numeric());
            if c.is_numeric() || joins {
                num.push(c);
                i += 1;
            } else {
                break;
            }
        }
        out.push(num);
    }
    out
}

fn ellipses(folded: &[char]) -> usize {
    folded.windows(3).filter(|w| w == &['.', '.', '.']).count()
}

/// Why a fuzzy match between folded `quote` and folded `span` may say something else, if it may.
pub fn meaning_change(quote: &[char], span: &[char]) -> Option<String> {
    meaning_change_with(quote, span, false)
}

/// [`meaning_change`], except that with `added_numbers_ok` numbers the span holds beyond the
/// quote's are no change as long as every number of the quote is there, in order: a page or
/// line number an extractor put inside a passage adds a number without changing one.
pub fn meaning_change_with(
    quote: &[char],
    span: &[char],
    added_numbers_ok: bool,
) -> Option<String> {
    let (qn, sn) = (numbers(quote), numbers(span));
    let kept = |q: &[String], s: &[String]| {
        let mut rest = s.iter();
        q.iter().all(|n| rest.any(|m| m == n))
    };
    if qn != sn && !(added_numbers_ok && kept(&qn, &sn)) {
        return Some(format!(
            "numbers differ: quote has [{}], text has [{}]",
            qn.join(" "),
            sn.join(" ")
        ));
    }
    let (qneg, sneg) = (negations(quote), negations(span));
    if qneg != sneg {
        return Some(format!(
            "negation differs: quote has [{}], text has [{}]",
            qneg.join(" "),
            sneg.join(" ")
        ));
    }
    let (qe, se) = (ellipses(quote), ellipses(span));
    if qe != se {
        return Some(format!(
            "ellipsis differs: quote has {qe}, text has {se} (text may have been cut)"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_bytes_and_counts_agree_with_str_find() {
        let long = "a".repeat(SHORT_HAYSTACK + 10) + "ab";
        // (haystack, needle, from, first match, overlapping occurrences from the first)
        let cases: &[(&str, &str, usize, Option<usize>, usize)] = &[
            ("xx xx xx", "xx xx", 0, Some(0), 2),
            ("abc", "abcd", 0, None, 0),
            ("abcabc", "bc", 2, Some(4), 1),
            ("é é", "é", 2, Some(3), 1),
            ("", "a", 0, None, 0),
            ("ab", "b", 5, None, 0),
            (&long, "aab", 0, Some(SHORT_HAYSTACK + 9), 1),
        ];
        for &(hay, needle, from, want, count) in cases {
            let got = find_bytes(hay.as_bytes(), needle.as_bytes(), from);
            assert_eq!(got, want, "{needle:?} in {hay:.20?} from {from}");
            assert_eq!(
                got,
                hay.get(from..)
                    .and_then(|h| h.find(needle))
                    .map(|b| b + from)
            );
            if let Some(first) = got {
                assert_eq!(count_occurrences(hay, needle, first), count, "{needle:?}");
            }
        }
    }

    const RATE_CARD: &str = "Plans.\nGrowth \u{2014} included 500,000 calls / mo; overage $0.12 per 1,000 calls\n(annual contracts: $0.09).";

    /// The seed's trace, case c3: en dash for em dash, spaces around the slash. The plain seed
    /// window clips "G" and "s" (the raw text is two characters longer than the quote); the
    /// tightened span covers the whole phrase.
    #[test]
    fn seed_trace_accepts_en_dash_quote() {
        let quote = "Growth \u{2013} included 500,000 calls/mo; overage $0.12 per 1,000 calls";
        let got = locate(RATE_CARD, quote).expect("located");
        assert_eq!(got.how, How::Fuzzy);
        let span: String = RATE_CARD
            .chars()
            .skip(got.start)
            .take(got.end - got.start)
            .collect();
        assert_eq!(
            span,
            "Growth \u{2014} included 500,000 calls / mo; overage $0.12 per 1,000 calls"
        );
    }

    #[test]
    fn table() {
        // (chunk, quote, how or None, occurrences)
        let cases: &[(&str, &str, Option<How>, usize)] = &[
            ("abc abc abc", "abc", Some(How::Exact), 3),
            ("aaaa", "aa", Some(How::Exact), 3),
            ("short", "", None, 0),
            ("caf\u{e9} au lait", "caf\u{e9}", Some(How::Exact), 1),
            // The same text but for case and NFC/NFD: folded.
            (
                "Le caf\u{e9} ferme.",
                "LE CAFE\u{301} FERME.",
                Some(How::Folded),
                0,
            ),
            // Inside a ligature's fold: the span is the whole ligature, more than the quote.
            (
                "the \u{fb01}nance report is due",
                "inance report is due",
                Some(How::Fuzzy),
                0,
            ),
            // Found by the fuzzer: a space inside U+0384's fold (space + acute).
            ("/\u{7}\u{384}", "\n", Some(How::Fuzzy), 0),
            (
                "The limit is not enforced for enterprise accounts at all.",
                "The limit is enforced for enterprise accounts at all.",
                Some(How::Review),
                0,
            ),
            (
                "Overage is billed at $0.12 per 1,000 calls for Growth.",
                "Overage is billed at $0.13 per 1,000 calls for Growth.",
                Some(How::Review),
                0,
            ),
            (
                "nothing like it",
                "completely unrelated words here",
                None,
                0,
            ),
        ];
        for &(chunk, quote, how, occ) in cases {
            let got = locate(chunk, quote);
            assert_eq!(got.as_ref().map(|l| l.how), how, "{quote:?} in {chunk:?}");
            if let Some(l) = got {
                assert_eq!(l.occurrences, occ, "{quote:?} in {chunk:?}");
            }
        }
    }

    #[test]
    fn guard_off_accepts_dropped_not() {
        let chunk = "Section 4. The monthly request limit is not enforced for enterprise accounts that signed an annual contract before March.";
        let quote = "The monthly request limit is enforced for enterprise accounts that signed an annual contract before March.";
        let got = locate_with(chunk, quote, &LocateOptions::seed()).unwrap();
        assert_eq!(got.how, How::Fuzzy);
        assert!(got.score >= 95.0, "score {}", got.score);
        let guarded = locate(chunk, quote).unwrap();
        assert_eq!(guarded.how, How::Review);
        assert!(guarded.reason.unwrap().contains("negation"));
    }

    #[test]
    fn numbers_parse() {
        let c: Vec<char> = "from 1,000 to 2.5, then 3.".chars().collect();
        assert_eq!(numbers(&c), vec!["1,000", "2.5", "3"]);
    }
}
