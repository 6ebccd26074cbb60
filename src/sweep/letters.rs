//! Rung 5b of the ladder: gap-tolerant re-anchoring by letters, for text another extractor (or a
//! reflow) changed everywhere, where the line-and-char diff of rung 5 finds little.
//!
//! Both revisions are projected to their letters and digits: folded (the current normaliser),
//! then accents (combining or spacing, `´e`, `ˆe`), punctuation, whitespace, hyphens and the
//! `(cid:NN)` placeholders of glyphs an extractor could not map dropped, and the names another
//! writes for font-variant glyphs (`/one.taboldstyle`, `/b.sc`) read as the letter they name,
//! so `char-\nacters` and `characters`, `deﬁned` and `defined`, `g´enie` and `génie`,
//! `/two.taboldstyle` and `2` project alike; a letter the old revision never has (a script one
//! extractor dropped and the other kept) is inserted material and left out of the new
//! projection. A span's letters are cut into [`GRAM`]-letter grams; a gram that occurs exactly
//! once in each projection is an anchor. A span of fewer than [`MIN_LETTERS`] letters is not
//! placed here. Three ways to place a span:
//!
//! 1. its own anchors: those that keep their order (longest increasing chain, cut where two
//!    anchors lie too far apart in the new text) cover at least [`CHAIN_FLOOR`] of its
//!    letters, and at least [`LETTERS_ACCEPT`] of its letters are found in order (longest
//!    common subsequence) around the region the chain points at (last, with each unanchored
//!    edge allowed [`MAX_STRETCH`] times its length, counting only runs of [`COUNTED_RUN`]);
//! 2. repeated text (a formula sentence written in many places, few grams of its own): each
//!    gram is paired with the copy of the same rank in the new text when it occurs as often in
//!    both (repeated text keeps the order of its copies); the chain of those pairs must cover
//!    [`CHAIN_MIN`] of the span, next to nothing may have been inserted among its letters
//!    unless the diff carried most of the cited copy's chars into the same region, and a copy
//!    that the diff carried from another old copy is refused;
//! 3. a span with too few anchors of its own (a table of contents, boilerplate): the landmarks
//!    around it (anchors in order over the whole document, at most [`LANDMARK_REACH`] letters
//!    away) bound a region, and the best window of its letters there (partial ratio, edges
//!    tightened) must score [`LANDMARK_ACCEPT`].
//!
//! Material inserted inside the span in the new text (running heads, page and line numbers,
//! margin notes, doubled blank lines, formulas) breaks only the grams that straddle it, so the
//! reported span covers the cited text with the insertions inside it, and the reason says how
//! many characters they add. The reported span ends at the first and last letters found (in
//! runs of at least [`EDGE_RUN`]), never at letters assumed to be there.
//!
//! Invariants: the region spans at most [`MAX_STRETCH`] times the span's letters (plus
//! [`STRETCH_SLACK`]); anchors are unique in both revisions or paired by rank, so deleted text
//! (its letters gone, the order broken) is not placed here; the anchor is `degraded` (method
//! `diff`), and a number or negation that differs is named in the reason. A region cut to the
//! part with most of the span's letters (its parts standing apart) is placed only when that
//! part holds half the span's letters in runs of [`PARTLY_RUN`], as rung 5d asks.

use super::alphabet::{Alphabet, Spelled};
use super::grams::{GramPairs, NONE};
use super::monotone::Monotone;
use super::{trim, Anchor, Changed, Citation, DocumentSweep, Method, Status, DELETED_BELOW};
use crate::text::lcs::PatternBits;
use crate::text::locate::meaning_change;
use crate::text::{fold, Folded};
use std::borrow::Cow;
use unicode_normalization::char::decompose_canonical;

/// Share of a span's letters found in order from which its reason says every letter is there.
const ALL_LETTERS: f64 = 0.995;
/// Letters per anchor gram.
pub(super) const GRAM: usize = 10;
/// Fewest letters a span needs for this rung to place it (two grams).
pub(super) const MIN_LETTERS: usize = 2 * GRAM;
/// Share of a span's letters the chained anchors must cover: enough to say where it went.
pub(super) const CHAIN_MIN: f64 = 0.5;
/// Share of a span's letters that must be found, in order, in the region the chain points at.
pub(super) const LETTERS_ACCEPT: f64 = 0.85;
/// Most new letters the chain may stretch over, per letter of the span.
pub(super) const MAX_STRETCH: usize = 3;
/// Spans with fewer letters than this need [`SHORT_ACCEPT`] of them in order, not
/// [`LETTERS_ACCEPT`].
pub(super) const SHORT_SPAN: usize = 40;
/// Share of a short span's letters that must be found in order.
pub(super) const SHORT_ACCEPT: f64 = 0.9;
/// Partial-ratio score (of letters) a span placed between landmarks must reach.
pub(super) const LANDMARK_ACCEPT: f64 = 90.0;
/// Farthest a landmark may be from the span it places, in letters.
pub(super) const LANDMARK_REACH: usize = 2000;
/// Letters of stretch allowed on top of [`MAX_STRETCH`] (a running head and a page number).
pub(super) const STRETCH_SLACK: usize = 160;
/// Share of a span's letters the chained anchors must cover for its region to be tried at
/// all (below [`CHAIN_MIN`], the landmarks around it are tried when the region fails).
pub(super) const CHAIN_FLOOR: f64 = 0.25;
/// Slack searched either side of the chain's region, per letter of the span: the span's
/// unanchored edges may sit beyond inserted material.
pub(super) const EDGE_PAD: f64 = 0.25;
/// Most copies of a gram in each projection for its copies to be paired by rank.
pub(super) const MAX_COPIES: usize = 16;
/// A span placed by copies of repeated text may hold at most one letter in this many of the
/// span's length that the span did not have.
pub(super) const COPY_INSERTED: usize = 4;
/// Shortest run of letters found at either end of a placed span: shorter ones at its edges are
/// letters the slack around it matched by chance.
pub(super) const EDGE_RUN: usize = 3;
/// A run of at least this many letters found in order is a piece of the span's text; shorter
/// ones may be chance.
pub(super) const COUNTED_RUN: usize = 4;
/// A placed span holding more than this many times the span's letters must have its letters
/// found in runs of [`COUNTED_RUN`] or more: in a region several times the span's length the
/// letters of unrelated text match it in order by chance (a rewritten paragraph of the same
/// vocabulary reached 87% of its letters in order over five times its length), while a span's
/// surviving text is found in long runs (words, cut where something was inserted or edited).
pub(super) const LOOSE_REGION: usize = 2;

/// A text's letters and digits, each with the raw char it came from (a [`Monotone`]: a
/// projection of a 9 MB document is 5 bytes a letter, not 8 as with a `u32` each).
#[derive(Debug, Default)]
pub(super) struct Projection<L = Vec<char>> {
    letters: L,
    raw: Monotone,
}

impl Projection {
    /// The projection of `raw`, folded and projected a piece at a time (see [`PIECE`]): the
    /// same as [`Projection::new`] of the whole fold (tested), without the whole fold, which
    /// was 72 MB of a 9 MB document's sweep at its peak (beside both projections).
    fn of_raw(raw: &[char]) -> Self {
        Self::of_raw_in_pieces(raw, PIECE, None)
    }

    /// [`Projection::of_raw`], in pieces of at least `piece` chars, keeping only the letters
    /// `known` has (all without it).
    fn of_raw_in_pieces(raw: &[char], piece: usize, known: Option<&Alphabet>) -> Self {
        let mut out = Projection {
            letters: Vec::with_capacity(raw.len()),
            raw: Monotone::with_capacity(raw.len()),
        };
        let mut start = 0;
        while start < raw.len() {
            let end = piece_end(raw, start, piece);
            let folded = fold_for_letters(&raw[start..end]);
            out.push_projected(&folded, start as u32, known);
            start = end;
        }
        out
    }

    /// The projection of a whole fold.
    #[cfg(test)]
    fn new(folded: &Folded) -> Self {
        let mut out = Projection::default();
        out.push_projected(folded, 0, None);
        out
    }

    /// Appends `letter`, from raw char `raw`, unless `known` lacks it.
    fn push(&mut self, letter: char, raw: u32, known: Option<&Alphabet>) {
        if known.is_none_or(|k| k.has(letter)) {
            self.letters.push(letter);
            self.raw.push(raw);
        }
    }

    /// Appends the projection of `folded`, a piece of a text starting at raw char `offset`,
    /// keeping only the letters `known` has (all without it).
    fn push_projected(&mut self, folded: &Folded, offset: u32, known: Option<&Alphabet>) {
        let out = self;
        let chars = &folded.chars;
        let mut i = 0;
        while i < chars.len() {
            let (c, raw) = (chars[i], folded.back[i] + offset);
            i += 1;
            if c.is_ascii() {
                if c == '(' {
                    // `(cid:104)`: a glyph the extractor could not map to text (pdfminer) carries
                    // no letters of the document.
                    if let Some(len) = cid_placeholder(&chars[i..]) {
                        i += len;
                        continue;
                    }
                }
                if c == '/' {
                    // `/one.taboldstyle`, `/b.sc`: a glyph of a font variant without a Unicode
                    // mapping, written as its name (pypdf); it is the letter its name names.
                    if let Some((len, named)) = glyph_name(&chars[i..]) {
                        // Each letter stands at the name's `/`: a span starts with the name.
                        for ch in named.chars() {
                            out.push(ch, raw, known);
                        }
                        i += len;
                        continue;
                    }
                }
                if c.is_ascii_alphanumeric() {
                    out.push(c, raw, known);
                }
                continue;
            }
            if SPACING_MODIFIERS.contains(&c) {
                // `ˆetre`: an accent some extractors emit as a letter beside its base.
                continue;
            }
            decompose_canonical(c, |d| {
                if d.is_alphanumeric() {
                    out.push(d, raw, known);
                }
            });
        }
    }

    /// These letters spelled with `alphabet` (which has them all).
    fn spelled(self, alphabet: &Alphabet) -> Projection<Spelled> {
        Projection {
            letters: Spelled::new(self.letters, alphabet),
            raw: self.raw,
        }
    }
}

impl<L> Projection<L> {
    /// The raw chars `[start, end)` from the letter at `a` to the letter before `b`.
    fn raw_range(&self, a: usize, b: usize) -> (usize, usize) {
        (self.raw.get(a) as usize, self.raw.get(b - 1) as usize + 1)
    }

    /// Letters whose raw char lies in `[start, end)`.
    fn range_of(&self, start: usize, end: usize) -> (usize, usize) {
        (
            self.raw
                .count_below(u32::try_from(start).unwrap_or(u32::MAX)),
            self.raw.count_below(u32::try_from(end).unwrap_or(u32::MAX)),
        )
    }
}

/// Raw chars per piece folded and projected at a time, at least (a piece ends at the next cut
/// [`piece_end`] allows).
const PIECE: usize = 1 << 16;

/// End of the piece of `raw` that starts at `start`: just after the first ASCII whitespace at
/// or past `start + len` that an ASCII char follows, else the end of the text. Such a cut
/// changes nothing: the fold starts a segment at that ASCII char (as [`fold_for_letters`]
/// does), and no token the projection reads ahead for (`(cid:NN)`, `/b.sc`) holds whitespace,
/// so both sides project as they would in the whole text.
fn piece_end(raw: &[char], start: usize, len: usize) -> usize {
    let mut i = start.saturating_add(len);
    while i < raw.len() {
        if raw[i - 1].is_ascii_whitespace() && raw[i].is_ascii() {
            return i;
        }
        i += 1;
    }
    raw.len()
}

/// `raw` folded for its projection: ASCII that no other char follows is lowercased where it
/// stands (what the fold makes of it), every stretch holding other chars goes through the fold
/// itself, from its segment's ASCII starter on. The projection of this and of the whole fold
/// are the same (tested): the fold is local to segments, and an ASCII char always starts one;
/// only its spaces differ, which the projection drops. Most extracted text is ASCII, and the
/// whole fold of the old revision was a twentieth of a re-extracted document's sweep.
fn fold_for_letters(raw: &[char]) -> Folded {
    let mut out = Folded {
        chars: Vec::with_capacity(raw.len()),
        back: Vec::with_capacity(raw.len()),
        wide: Vec::new(),
    };
    // ASCII followed by ASCII (or nothing): no combining mark can join it.
    let plain = |i: usize| raw[i].is_ascii() && raw.get(i + 1).is_none_or(char::is_ascii);
    let mut i = 0;
    while i < raw.len() {
        if plain(i) {
            out.chars.push(raw[i].to_ascii_lowercase());
            out.back.push(i as u32);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < raw.len() && !plain(i) {
            i += 1;
        }
        let folded = fold(&raw[start..i].iter().collect::<String>());
        out.chars.extend(&folded.chars);
        out.back
            .extend(folded.back.iter().map(|b| b + start as u32));
    }
    out
}

/// Spacing modifier letters (`ˆ`, `ˇ`, `ˉ`, `ʼ`): accents and marks written beside a letter,
/// never letters of a word.
const SPACING_MODIFIERS: std::ops::RangeInclusive<char> = '\u{2B0}'..='\u{2FF}';

/// Length of `cid:NNN)` at the start of `rest` (what follows a `(`), if it is one.
fn cid_placeholder(rest: &[char]) -> Option<usize> {
    let tail = rest.strip_prefix(&['c', 'i', 'd', ':'][..])?;
    let digits = tail.iter().take_while(|c| c.is_ascii_digit()).count();
    (digits > 0 && tail.get(digits) == Some(&')')).then_some(4 + digits + 1)
}

/// Suffixes of font-variant glyph names (small capitals, old-style and tabular figures,
/// superiors, alternates): `one.taboldstyle` is the digit 1 as the font draws it.
const GLYPH_SUFFIXES: &[&str] = &[
    "taboldstyle",
    "oldstyle",
    "superior",
    "inferior",
    "swash",
    "smcp",
    "c2sc",
    "tosf",
    "onum",
    "lnum",
    "tnum",
    "pnum",
    "sups",
    "subs",
    "sinf",
    "numr",
    "dnom",
    "osf",
    "os",
    "tlf",
    "alt",
    "sc",
    "lf",
    "tf",
];

/// Digits by their glyph names.
const DIGIT_NAMES: [&str; 10] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];

/// Length and letters of a variant glyph's name at the start of `rest` (what follows a `/`):
/// a base (one letter, a digit's name, or letters joined by `_` for a ligature such as `f_i`)
/// and at least one known suffix (`.sc`, `.taboldstyle`, …), which may be followed directly
/// by the next letter (`/two.taboldstylea`). Anything else (`/usr/bin`, a URL) is not one.
fn glyph_name(rest: &[char]) -> Option<(usize, String)> {
    let base_len = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
        .count();
    let base: String = rest[..base_len].iter().collect();
    let letters = if let Some(d) = DIGIT_NAMES
        .iter()
        .position(|n| base.eq_ignore_ascii_case(n))
    {
        char::from_digit(d as u32, 10)?.to_string()
    } else if base
        .split('_')
        .all(|part| part.len() == 1 && part.chars().all(|c| c.is_ascii_alphabetic()))
    {
        base.replace('_', "")
    } else {
        return None;
    };
    let mut len = base_len;
    while rest.get(len) == Some(&'.') {
        let after = &rest[len + 1..];
        let starts_with = |s: &&&str| {
            s.len() <= after.len()
                && after[..s.len()]
                    .iter()
                    .map(|c| c.to_ascii_lowercase())
                    .eq(s.chars())
        };
        let Some(suffix) = GLYPH_SUFFIXES.iter().find(starts_with) else {
            break;
        };
        len += 1 + suffix.len();
    }
    (len > base_len).then_some((len, letters))
}

/// `end` moved past the rest of a glyph name whose letter is the last before it (`/b` of
/// `/b.sc`): a span ends where the glyph's name does.
fn past_glyph_name(chars: &[char], end: usize) -> usize {
    let Some(slash) = (end.saturating_sub(6)..end)
        .rev()
        .find(|&p| chars[p] == '/')
    else {
        return end;
    };
    match glyph_name(&chars[slash + 1..]) {
        Some((len, _)) if slash + 1 + len > end => slash + 1 + len,
        _ => end,
    }
}

/// `text` with each variant glyph's name read as the letters it names (`/one.taboldstyle` is
/// `1`), for comparing the numbers of a span with the cited ones.
fn read_glyph_names(text: &[char]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] == '/' {
            if let Some((len, letters)) = glyph_name(&text[i + 1..]) {
                out += &letters;
                i += 1 + len;
                continue;
            }
        }
        out.push(text[i]);
        i += 1;
    }
    out
}

/// Where rung 5b put a span, in raw chars of the new revision.
#[derive(Debug, Clone, Copy)]
pub(super) struct LettersSpan {
    /// First char of the span in the new revision.
    pub(super) start: usize,
    /// One past its last char.
    pub(super) end: usize,
    /// Share of the span's letters found there.
    pub(super) share: f64,
    /// How the region was found (the reason says so for blocks out of order).
    pub(super) how: Found,
    /// Letters of the span found in order beyond text longer than the span, left out.
    pub(super) apart: Option<Apart>,
}

/// Letters of a span that rung 5b found in order but beyond a stretch of text longer than the
/// span (a block of line numbers, a table's other column, an index's next letter): the region
/// is the part with most of the span's letters, and these are left out of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Apart {
    /// How many of the span's letters stand apart.
    pub(super) letters: usize,
    /// Whether they stand before the region, after it, or on both sides.
    pub(super) side: Side,
}

/// A region [`Letters::apart`] cut to the part with most of the span's letters.
#[derive(Debug, Clone, Copy)]
struct Compacted {
    /// The part kept, in new letters.
    region: (usize, usize),
    /// The span's letters found in order in it.
    found: usize,
    /// Of those, the letters in runs of at least [`PARTLY_RUN`].
    in_long_runs: usize,
    /// What was left out.
    apart: Apart,
}

/// Where letters left out of a region stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// Before the region.
    Before,
    /// After it.
    After,
    /// Some before, some after.
    Both,
}

/// How [`Letters::place`] found a region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Found {
    /// By grams unique to both revisions, or between landmarks.
    Anchors,
    /// By copies of repeated text paired by rank, next to nothing inserted among its letters.
    Copies,
    /// By copies paired by rank, with more inserted among its letters (a licence header of
    /// every listing, with the URLs one extractor put inside it): taken only where the diff
    /// carried most of the cited copy too.
    CopiesWithInserted,
    /// By grams paired by rank, in any order, in one stretch of the new text (blocks the
    /// extractor put in another order, when `reordered`): checked like copies.
    Pieces {
        /// The grams are not in the span's order.
        reordered: bool,
        /// The region is the part of the stretch found in order, the blocks out of order
        /// beside it left out.
        in_order_part: bool,
    },
}

/// Both projections and their grams paired, built once per document on first need.
#[derive(Debug, Default)]
pub(super) struct Letters {
    /// The old projection's letters, numbered (both projections are spelled with it).
    alphabet: Alphabet,
    old: Projection<Spelled>,
    new: Projection<Spelled>,
    /// Per gram of the old projection: where it is in the new one (unique to both, or the
    /// copy of the same rank when it occurs as often in both, at most [`MAX_COPIES`] times).
    pairs: GramPairs,
    /// Old letter positions of the grams unique in both projections that keep their order
    /// over the whole document, sorted (the new position is `pairs.unique`'s): the landmarks
    /// around a span without anchors of its own (a repetitive listing, a table of contents).
    /// Built on first need, as few spans need them: their chain over a 9 MB document took
    /// 47 MB, at the sweep's peak, on top of the projections and pairs.
    landmarks: std::sync::OnceLock<Vec<u32>>,
}

impl Letters {
    /// Both revisions' chars, each folded and projected a piece at a time (the whole fold of
    /// the new revision is not kept for this, 72 MB of a 9 MB document's sweep).
    pub(super) fn new(old: &[char], new: &[char]) -> Self {
        let old = Projection::of_raw(old);
        let alphabet = Alphabet::of(&old.letters);
        // Without the letters the old text never has: no cited letter can be one, so they
        // are material inserted among the cited ones, like a page number (the Chinese of a
        // bilingual manual that one extractor dropped entirely and the other interleaves with
        // the English). Left out, they do not split the span's letters into grams that match
        // nothing.
        let new = Projection::of_raw_in_pieces(new, PIECE, Some(&alphabet));
        let (old, new) = (old.spelled(&alphabet), new.spelled(&alphabet));
        let pairs = old.letters.pairs(&new.letters, GRAM, MAX_COPIES);
        Letters {
            alphabet,
            landmarks: std::sync::OnceLock::new(),
            pairs,
            old,
            new,
        }
    }

    /// The old projection's letters `[lo, hi)`.
    fn old_letters(&self, lo: usize, hi: usize) -> Cow<'_, [char]> {
        self.old.letters.chars(&self.alphabet, lo, hi)
    }

    /// The new projection's letters `[lo, hi)`.
    fn new_letters(&self, lo: usize, hi: usize) -> Cow<'_, [char]> {
        self.new.letters.chars(&self.alphabet, lo, hi)
    }

    /// The landmarks (see [`Letters::landmarks`]), built on first call.
    fn landmarks(&self) -> &[u32] {
        self.landmarks.get_or_init(|| {
            let pairs = &self.pairs;
            let unique: Vec<u32> = paired(
                |i| pairs.unique(i),
                pairs.by_rank.len(),
                0,
                self.old.letters.len(),
            )
            .map(|(o, _)| o as u32)
            .collect();
            super::diff::longest_increasing(unique, |o| pairs.unique(o as usize) as usize)
        })
    }

    /// Letters of the old text around raw `old` that also surround raw `new` in the new text,
    /// up to `reach` each side: context agreement that typography and reflow do not break.
    pub(super) fn context_agreement(
        &self,
        old: (usize, usize),
        new: (usize, usize),
        reach: usize,
    ) -> usize {
        let (olo, ohi) = self.old.range_of(old.0, old.1);
        let (nlo, nhi) = self.new.range_of(new.0, new.1);
        self.old
            .letters
            .agreement(&self.new.letters, (olo, nlo), (ohi, nhi), reach)
    }

    /// Where the span's letters `[lo, hi)` went, judged from the landmarks around it: the best
    /// window of the new letters between the nearest landmark before the span and the nearest
    /// after it (each at most [`LANDMARK_REACH`] letters away), by partial-ratio alignment of
    /// letters, edges tightened, accepted at [`LANDMARK_ACCEPT`].
    fn place_between_landmarks(&self, lo: usize, hi: usize) -> Option<((usize, usize), f64)> {
        let n = hi - lo;
        let at = |o: u32| (o as usize, self.pairs.unique(o as usize) as usize);
        let landmarks = self.landmarks();
        let k = landmarks.partition_point(|&o| (o as usize) < lo);
        let (before_old, before_new) = at(*landmarks[..k].last()?);
        let (after_old, after_new) =
            at(*landmarks[k..].iter().find(|&&o| o as usize + GRAM >= hi)?);
        if lo - before_old > LANDMARK_REACH || after_old + GRAM - hi > LANDMARK_REACH {
            return None;
        }
        let (ra, rb) = (before_new, (after_new + GRAM).min(self.new.letters.len()));
        if rb <= ra || rb - ra < n / 2 {
            return None;
        }
        let span = self.old_letters(lo, hi);
        let region = self.new_letters(ra, rb);
        // What is left of the span between its landmarks may be shorter than the span: the
        // fuzzy rung's alignment then charges for what is missing, as partial ratio would not.
        let (a, b, score) = super::fuzzy::align(&span, &region)?;
        if score < LANDMARK_ACCEPT {
            return None;
        }
        (b > a).then_some(((ra + a, ra + b), score / 100.0))
    }

    /// Where the old span's letters may have gone, best first: the new letters `[a, b)`, the
    /// share of the span's letters found there, and whether it was placed by copies of
    /// repeated text (which the caller checks against the diff). Empty when too little of the
    /// span is anchored or too little of it is found.
    fn place(&self, start: usize, end: usize) -> Vec<((usize, usize), f64, Found)> {
        let (lo, hi) = self.old.range_of(start, end);
        let n = hi - lo;
        // A span of a word or two: grams unique to both texts are what a phrase repeated
        // elsewhere has too, not evidence of where the cited one went.
        if n < MIN_LETTERS {
            return Vec::new();
        }
        let span = &*self.old_letters(lo, hi);
        // The grams unique on both sides.
        let chain = self.chain_of(|i| self.pairs.unique(i), lo, hi);
        let covered = coverage(&chain);
        let mut out = Vec::new();
        if (covered as f64) < CHAIN_FLOOR * n as f64 {
            out.extend(self.place_by_copies(lo, hi));
        } else if let Some((r, share)) = self.place_by_chain(span, &chain) {
            return vec![(r, share, Found::Anchors)];
        }
        if (covered as f64) < CHAIN_MIN * n as f64 {
            out.extend(
                self.place_between_landmarks(lo, hi)
                    .map(|(r, share)| (r, share, Found::Anchors)),
            );
        }
        out.extend(self.place_by_pieces(lo, hi, end - start));
        out
    }

    /// Region `[ra, rb)` of the new letters, where the span's letters `[lo, hi)` were placed in
    /// order, cut to the part that holds most of them when runs of them (of [`COUNTED_RUN`] or
    /// more) [stand apart](Self::stand_apart): text longer than the span between two of its
    /// parts is not the span's (a block of line numbers, a table's other column that the
    /// extractor put between its cells), and a region stretched over it would show the reader
    /// that text as cited. `None` when the letters stand together. The cut part's letters
    /// are counted out: `(region, letters found in it, apart)`.
    fn apart(
        &self,
        lo: usize,
        hi: usize,
        (ra, rb): (usize, usize),
        len: usize,
    ) -> Option<Compacted> {
        let n = hi - lo;
        let span = &*self.old_letters(lo, hi);
        let runs = PatternBits::new(span.iter().copied(), n).runs(span, &self.new_letters(ra, rb));
        let mut parts: Vec<(usize, usize)> = Vec::new();
        for &(_, at, len_run) in runs.iter().filter(|r| r.2 >= COUNTED_RUN) {
            match parts.last_mut() {
                Some(part) if !self.stand_apart(ra + part.1, ra + at, n, len) => {
                    part.1 = at + len_run;
                }
                _ => parts.push((at, at + len_run)),
            }
        }
        if parts.len() < 2 {
            return None;
        }
        // Letters in the runs of at least `shortest` letters that lie in part `(a, b)`.
        let found_in = |&(a, b): &(usize, usize), shortest: usize| -> usize {
            runs.iter()
                .filter(|r| r.1 >= a && r.1 + r.2 <= b && r.2 >= shortest)
                .map(|r| r.2)
                .sum()
        };
        let all: usize = runs.iter().map(|r| r.2).sum();
        let (k, kept) = parts
            .iter()
            .enumerate()
            .max_by_key(|(k, p)| (found_in(p, 0), std::cmp::Reverse(*k)))?;
        let found = found_in(kept, 0);
        let in_long_runs = found_in(kept, PARTLY_RUN);
        let side = match (k > 0, k + 1 < parts.len()) {
            (true, true) => Side::Both,
            (true, false) => Side::Before,
            _ => Side::After,
        };
        Some(Compacted {
            region: (ra + kept.0, ra + kept.1),
            found,
            in_long_runs,
            apart: Apart {
                letters: all - found,
                side,
            },
        })
    }

    /// The last try: a span whose blocks the extractor put in another order (lines of a code
    /// listing, rows of a table, a margin label moved after its paragraph). Its grams paired
    /// with the new text (unique, or copies of the same rank), taken in any order, must lie
    /// within one stretch of the new letters no longer than [`LOOSE_REGION`] times the span
    /// (plus [`STRETCH_SLACK`]) and cover [`LETTERS_ACCEPT`] of its letters; the region runs
    /// from the first of those grams to the last, and says whether the grams are out of order.
    /// Spans under [`SHORT_SPAN`] letters are left to the rungs that need their letters in
    /// order (a few words of a deleted sentence recur together by chance).
    fn place_by_pieces(
        &self,
        lo: usize,
        hi: usize,
        len: usize,
    ) -> Option<((usize, usize), f64, Found)> {
        let n = hi - lo;
        if n < SHORT_SPAN {
            return None;
        }
        let mut pairs: Vec<(usize, usize)> =
            paired(|i| self.pairs.by_rank[i], self.pairs.by_rank.len(), lo, hi).collect();
        pairs.sort_unstable_by_key(|&(_, at)| at);
        let (covered, window) = densest_cover(&pairs, n, LOOSE_REGION * n + STRETCH_SLACK)?;
        if (covered as f64) < LETTERS_ACCEPT * n as f64 {
            return None;
        }
        // Blocks farther apart than the span is long hold text that is not the span's: the
        // region is the part with most of its letters, and only they are counted.
        let (covered, window) = self.most_covered_part(window, n, len);
        let (first, last) = (window.first()?.1, window.last()?.1);
        // Out of order when too few of the letters there are found in order.
        let span = &*self.old_letters(lo, hi);
        let runs = PatternBits::new(span.iter().copied(), n)
            .runs(span, &self.new_letters(first, last + GRAM));
        let in_order: usize = runs.iter().map(|r| r.2).sum();
        let reordered = (in_order as f64) < LETTERS_ACCEPT * covered as f64;
        // Out of order with other text among the blocks (more than a [`COPY_INSERTED`]th of
        // the span), but half the span or more in order in runs that count: that part is
        // where the span went, and a block the extractor put beyond other text (a line moved
        // after the next paragraph) is left out rather than covered with what stands
        // between. Rows swapped with nothing between stay one region.
        let counted: Vec<_> = runs.iter().filter(|r| r.2 >= COUNTED_RUN).collect();
        let held: usize = counted.iter().map(|r| r.2).sum();
        let foreign = (last + GRAM - first).saturating_sub(covered);
        if reordered && foreign > n / COPY_INSERTED && held as f64 >= DELETED_BELOW * n as f64 {
            let (a, b) = (counted.first()?, counted.last()?);
            return Some((
                (first + a.1, first + b.1 + b.2),
                held as f64 / n as f64,
                Found::Pieces {
                    reordered,
                    in_order_part: true,
                },
            ));
        }
        // The share the reason states: of letters in the stretch's grams when the blocks are
        // out of order, else of letters found in order.
        let share = if reordered { covered } else { in_order };
        Some((
            (first, last + GRAM),
            share as f64 / n as f64,
            Found::Pieces {
                reordered,
                in_order_part: false,
            },
        ))
    }

    /// Whether the new text from letter `end` (one past a part of a span of `n` letters and
    /// `len` raw chars) to letter `next` (where the next part starts) is longer than the span
    /// both in letters and in raw chars: lines one extractor dropped inside the span are
    /// shorter, and dot leaders or spacing, which hold no letters, do not count.
    fn stand_apart(&self, end: usize, next: usize, n: usize, len: usize) -> bool {
        if next <= end || next - end <= n {
            return false;
        }
        let (before, at) = (
            self.new.raw_range(end - 1, end).1,
            self.new.raw_range(next, next + 1).0,
        );
        at.saturating_sub(before) > len
    }

    /// The part of `window` (gram pairs sorted by new position) whose consecutive grams do not
    /// [stand apart](Self::stand_apart), covering the most of the span's `n` letters: that
    /// count and the part.
    fn most_covered_part<'w>(
        &self,
        window: &'w [(usize, usize)],
        n: usize,
        len: usize,
    ) -> (usize, &'w [(usize, usize)]) {
        let covered = |part: &[(usize, usize)]| {
            let mut by_offset = part.to_vec();
            by_offset.sort_unstable();
            coverage(&by_offset)
        };
        let mut best: (usize, &[(usize, usize)]) = (0, &[]);
        let mut from = 0;
        for k in 1..=window.len() {
            let last = k == window.len();
            if last || self.stand_apart(window[k - 1].1 + GRAM, window[k].1, n, len) {
                let part = &window[from..k];
                let c = covered(part);
                if c > best.0 {
                    best = (c, part);
                }
                from = k;
            }
        }
        best
    }

    /// A span of repeated text (the same sentence in several places, few grams of its own):
    /// its grams paired with the copy of the same rank in the new projection (repeated text
    /// keeps the order of its copies), then placed by that chain.
    fn place_by_copies(&self, lo: usize, hi: usize) -> Option<((usize, usize), f64, Found)> {
        let span = &*self.old_letters(lo, hi);
        let chain = self.chain_of(|i| self.pairs.by_rank[i], lo, hi);
        if (coverage(&chain) as f64) < CHAIN_MIN * span.len() as f64 {
            return None;
        }
        // Copies of a formula differ in a few words: a copy among whose letters more was
        // inserted is said so, for the caller to check against the diff.
        let ((a, b), share) = self.place_by_chain(span, &chain)?;
        let found = (share * span.len() as f64).round() as usize;
        let how = if (b - a).saturating_sub(found) <= span.len() / COPY_INSERTED {
            Found::Copies
        } else {
            Found::CopiesWithInserted
        };
        Some(((a, b), share, how))
    }

    /// The span's letters found in order in the region its chain of anchors points at (the
    /// uncovered edges assumed right before and after the chain), else with [`EDGE_PAD`] of
    /// the span's length of slack either side; the region cut to the first and last letters
    /// found in runs of at least [`EDGE_RUN`].
    fn place_by_chain(
        &self,
        span: &[char],
        chain: &[(usize, usize)],
    ) -> Option<((usize, usize), f64)> {
        let n = span.len();
        let (&(first_off, first_at), &(last_off, last_at)) = (chain.first()?, chain.last()?);
        let a = first_at.saturating_sub(first_off);
        let b = (last_at + GRAM + (n - (last_off + GRAM))).min(self.new.letters.len());
        if b <= a || b - a > MAX_STRETCH * n + STRETCH_SLACK {
            return None;
        }
        // A short span's letters match by chance more easily: it needs more of them.
        let needed = if n < SHORT_SPAN {
            SHORT_ACCEPT
        } else {
            LETTERS_ACCEPT
        };
        // The region the chain points at first; with slack only when that is not enough (the
        // slack lets a word of the text around match the span's first or last word).
        [0, (n as f64 * EDGE_PAD) as usize]
            .into_iter()
            .find_map(|pad| {
                let (ra, rb) = (a.saturating_sub(pad), (b + pad).min(self.new.letters.len()));
                let runs = found_in_order(span, &self.new_letters(ra, rb), needed);
                let ((a, b), found) = extent(&runs, ra)?;
                let share = found as f64 / n as f64;
                let in_runs: usize = runs.iter().map(|r| r.1).filter(|&l| l >= COUNTED_RUN).sum();
                let by_chance = b - a > LOOSE_REGION * n && (in_runs as f64) < needed * n as f64;
                (share >= needed && !by_chance).then_some(((a, b), share))
            })
            .or_else(|| self.place_stretched(span, chain, needed))
    }

    /// The last try of [`Self::place_by_chain`]: material inserted all through the span's
    /// unanchored part (text one extractor dropped and the other kept, a block of figures
    /// between its lines) pushes its letters past the region its chain assumed, so each
    /// unanchored edge may stretch [`MAX_STRETCH`] times its length. Over such a region only
    /// letters found in runs of [`COUNTED_RUN`] or more count (chance matches one or two),
    /// and the span is cut to the first and last of those runs.
    fn place_stretched(
        &self,
        span: &[char],
        chain: &[(usize, usize)],
        needed: f64,
    ) -> Option<((usize, usize), f64)> {
        let n = span.len();
        let (ra, rb) = self.stretched(chain, n)?;
        let runs: Vec<(usize, usize)> = found_in_order(span, &self.new_letters(ra, rb), needed)
            .into_iter()
            .filter(|r| r.1 >= COUNTED_RUN)
            .collect();
        let ((a, b), found) = extent(&runs, ra)?;
        let share = found as f64 / n as f64;
        (share >= needed && b - a <= MAX_STRETCH * n + STRETCH_SLACK).then_some(((a, b), share))
    }
}

/// Shortest run of a span's letters, found in order, that rung 5d counts as text an edit left
/// alone (a few words; shorter runs are letters a rewritten sentence shares by chance).
pub(super) const PARTLY_RUN: usize = 12;

/// What survives of a partly edited span in the new revision (rung 5d): its runs of letters
/// found in order, each as raw `[start, end)` in the old and in the new revision, and the
/// share of the span's letters they hold.
#[derive(Debug, Clone)]
pub(super) struct Surviving {
    /// `(old raw range, new raw range)` per run, in order.
    pub(super) runs: Vec<((usize, usize), (usize, usize))>,
    /// Share of the span's letters in `runs`.
    pub(super) share: f64,
}

impl Letters {
    /// Rung 5d's evidence for the old raw span `[start, end)`: the span's letters found in
    /// order in runs of at least `min_run` ([`PARTLY_RUN`], or fewer where the caller has other
    /// evidence) must hold `accept` of them, within
    /// [`MAX_STRETCH`] times the span (plus [`STRETCH_SLACK`]), in the region its grams
    /// unique to both revisions point at (chained in order, covering [`CHAIN_FLOOR`] of its
    /// letters, each unanchored edge stretched [`MAX_STRETCH`] times its length), else around
    /// `carried`, the new raw range the char diff carried the span's surviving chars to (the
    /// span's length either side: a span of common phrases has few unique grams), else where
    /// its grams paired copy for copy point (repeated text). `None`
    /// otherwise, and for spans under [`SHORT_SPAN`] letters. The runs are those of the
    /// longest common subsequence, or with [`Align::Blocks`] the longest blocks first when
    /// they hold more.
    pub(super) fn surviving(
        &self,
        start: usize,
        end: usize,
        accept: f64,
        min_run: usize,
        carried: Option<(usize, usize)>,
        align: Align,
    ) -> Option<Surviving> {
        let (lo, hi) = self.old.range_of(start, end);
        let n = hi - lo;
        if n < SHORT_SPAN {
            return None;
        }
        let by_chain = self.chain_region(|i| self.pairs.unique(i), CHAIN_FLOOR, lo, hi);
        let by_diff = carried.map(|(a, b)| {
            let (a, b) = self.new.range_of(a, b);
            (a.saturating_sub(n), (b + n).min(self.new.letters.len()))
        });
        let span = &*self.old_letters(lo, hi);
        // Repeated text (a table of contents' entry, a heading it repeats) has no unique
        // grams: last, where its copies, paired by rank, point (computed only then).
        let by_copies = std::iter::once_with(|| {
            self.chain_region(|i| self.pairs.by_rank[i], CHAIN_MIN, lo, hi)
        })
        .flatten();
        let ((ra, _), runs, found) = [by_chain, by_diff]
            .into_iter()
            .flatten()
            .chain(by_copies)
            .find_map(|region| self.runs_in(span, region, accept, min_run, align))?;
        Some(Surviving {
            runs: runs
                .iter()
                .map(|&(p, t, len)| {
                    (
                        self.old.raw_range(lo + p, lo + p + len),
                        self.new.raw_range(ra + t, ra + t + len),
                    )
                })
                .collect(),
            share: found as f64 / n as f64,
        })
    }

    /// The span `[lo, hi)`'s grams paired by `new_at` (an old gram's new position, or
    /// [`NONE`]) as `(offset in the span, new position)`, kept on their longest chain in order
    /// and cut to its [densest](densest) part.
    fn chain_of(&self, new_at: impl Fn(usize) -> u32, lo: usize, hi: usize) -> Vec<(usize, usize)> {
        let pairs = paired(new_at, self.pairs.by_rank.len(), lo, hi).collect();
        let mut chain = increasing_chain(pairs);
        let keep = densest(&chain, hi - lo);
        chain.truncate(keep.end);
        chain.drain(..keep.start);
        chain
    }

    /// The new letters `[a, b)` the chain of the span's grams paired by `new_at` points at
    /// (each unanchored edge stretched [`MAX_STRETCH`] times its length), when the chain
    /// covers `floor` of the span's letters `[lo, hi)`: its grams unique to both revisions
    /// ([`CHAIN_FLOOR`]), or (repeated text) paired copy for copy, the k-th copy with the k-th
    /// ([`CHAIN_MIN`]).
    fn chain_region(
        &self,
        new_at: impl Fn(usize) -> u32,
        floor: f64,
        lo: usize,
        hi: usize,
    ) -> Option<(usize, usize)> {
        let n = hi - lo;
        let chain = self.chain_of(new_at, lo, hi);
        if (coverage(&chain) as f64) < floor * n as f64 {
            return None;
        }
        self.stretched(&chain, n)
    }

    /// The new letters a chain of anchors of a span of `n` letters points at, each unanchored
    /// edge stretched [`MAX_STRETCH`] times its length (inserted material may push the span's
    /// letters that far past its anchors).
    fn stretched(&self, chain: &[(usize, usize)], n: usize) -> Option<(usize, usize)> {
        let (&(first_off, first_at), &(last_off, last_at)) = (chain.first()?, chain.last()?);
        let tail = n - (last_off + GRAM);
        let ra = first_at.saturating_sub(MAX_STRETCH * first_off);
        let rb = (last_at + GRAM + MAX_STRETCH * tail).min(self.new.letters.len());
        Some((ra, rb))
    }

    /// The runs of at least `min_run` of `span`'s letters found in order in the new
    /// letters `region` (`(offset in span, offset in region, length)`) and the letters they
    /// hold, when those are `accept` of the span and lie within [`MAX_STRETCH`] times it.
    #[allow(clippy::type_complexity)]
    fn runs_in(
        &self,
        span: &[char],
        region: (usize, usize),
        accept: f64,
        min_run: usize,
        align: Align,
    ) -> Option<((usize, usize), Vec<(usize, usize, usize)>, usize)> {
        let n = span.len();
        let (ra, rb) = region;
        let region_letters = self.new_letters(ra, rb);
        let (runs, found) = match align {
            Align::PastNumbers => runs_past_numbers(span, &region_letters, min_run),
            Align::Subsequence | Align::Blocks => {
                let runs = runs_in_order(span, &region_letters, min_run, align);
                let found = runs.iter().map(|r| r.2).sum();
                (runs, found)
            }
        };
        let (first, last) = (runs.first()?, runs.last()?);
        ((found as f64) >= accept * n as f64
            && last.1 + last.2 - first.1 <= MAX_STRETCH * n + STRETCH_SLACK)
            .then_some((region, runs, found))
    }
}

/// The runs of at least `min_run` of `span`'s letters found in order in `region`
/// (`(offset in span, offset in region, length)`): those of the longest common subsequence,
/// or with [`Align::Blocks`] the longest blocks first when they hold more.
fn runs_in_order(
    span: &[char],
    region: &[char],
    min_run: usize,
    align: Align,
) -> Vec<(usize, usize, usize)> {
    let n = span.len();
    let mut by_lcs: Vec<(usize, usize, usize)> = PatternBits::new(span.iter().copied(), n)
        .runs(span, region)
        .into_iter()
        .filter(|r| r.2 >= min_run)
        .collect();
    nearest_copies(span, region, &mut by_lcs);
    // The longest common subsequence may trade a long run for more letters in short ones
    // (a dropped title's letters matched one by one inside the navigation line that
    // survives, which then matches only in part): the longest blocks first, as a diff
    // reads them, keep that run whole.
    let mut by_blocks = Vec::new();
    if align == Align::Blocks {
        longest_blocks(
            span,
            region,
            (0, n),
            (0, region.len()),
            min_run,
            &mut by_blocks,
        );
    }
    by_blocks.sort_unstable();
    latest_copies(span, region, &mut by_blocks);
    let held = |runs: &[(usize, usize, usize)]| runs.iter().map(|r| r.2).sum::<usize>();
    if held(&by_blocks) > held(&by_lcs) {
        by_blocks
    } else {
        by_lcs
    }
}

/// How [`Letters::surviving`] aligns a span's letters with the new text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Align {
    /// The longest common subsequence: most letters in order.
    Subsequence,
    /// Also the longest blocks first, kept when their runs hold more: a run the subsequence
    /// broke to match a dropped line's letters one by one elsewhere stays whole. Only where
    /// the caller checks that whole lines were dropped: blocks found anywhere in the region
    /// also find a deleted sentence's stock phrases.
    Blocks,
    /// The longest common subsequence with the digits of both sides left out
    /// ([`runs_past_numbers`]): a listing's line numbers, which one extractor prints on lines
    /// of their own and another beside each line (or not at all), cut every run of the code's
    /// letters at each line. Only for a span that holds such line numbers.
    PastNumbers,
}

/// The runs of [`Align::PastNumbers`]: `span`'s letters other than digits found in order in
/// the `region`'s letters other than digits, in runs of at least `min_run`, each cut where a
/// digit stands inside it on either side (a run is the same length in both), and the letters
/// they hold plus the span's digits found in order among the region's digits from the first
/// run to the last (the line numbers that survive, laid out anew).
fn runs_past_numbers(
    span: &[char],
    region: &[char],
    min_run: usize,
) -> (Vec<(usize, usize, usize)>, usize) {
    let not_digits = |text: &[char]| -> (Vec<usize>, Vec<char>) {
        text.iter()
            .enumerate()
            .filter(|(_, x)| !x.is_ascii_digit())
            .map(|(i, &x)| (i, x))
            .unzip()
    };
    let ((span_at, span_kept), (region_at, region_kept)) = (not_digits(span), not_digits(region));
    let runs: Vec<(usize, usize, usize)> =
        PatternBits::new(span_kept.iter().copied(), span_kept.len())
            .runs(&span_kept, &region_kept)
            .into_iter()
            .filter(|r| r.2 >= min_run)
            .collect();
    let mut found: usize = runs.iter().map(|r| r.2).sum();
    let mut pieces = Vec::new();
    for &(p, t, len) in &runs {
        let mut from = 0;
        for k in 1..=len {
            let joined = k < len
                && span_at[p + k] == span_at[p + k - 1] + 1
                && region_at[t + k] == region_at[t + k - 1] + 1;
            if !joined {
                pieces.push((span_at[p + from], region_at[t + from], k - from));
                from = k;
            }
        }
    }
    if let (Some(first), Some(last)) = (pieces.first(), pieces.last()) {
        let digits = |text: &[char]| -> Vec<char> {
            text.iter().copied().filter(char::is_ascii_digit).collect()
        };
        let span_digits = digits(span);
        let region_digits = digits(&region[first.1..last.1 + last.2]);
        let in_order = PatternBits::new(span_digits.iter().copied(), span_digits.len())
            .prefix_lcs(region_digits.iter().copied())
            .last()
            .copied()
            .unwrap_or(0);
        found += in_order;
    }
    (pieces, found)
}

/// The blocks of at least `min_run` letters that `span[a.0..a.1]` and `region[b.0..b.1]`
/// share, longest first, each splitting what is left into the parts before it and after it
/// (as `difflib`'s matching blocks, with no junk): `(offset in span, offset in region,
/// length)`, pushed to `out` in no particular order.
fn longest_blocks(
    span: &[char],
    region: &[char],
    a: (usize, usize),
    b: (usize, usize),
    min_run: usize,
    out: &mut Vec<(usize, usize, usize)>,
) {
    if a.1 - a.0 < min_run || b.1 - b.0 < min_run {
        return;
    }
    // Longest common substring by the classic row-by-row table: `row[j]` is the length of the
    // common suffix of span[..i] and region[..j] within the bounds.
    let width = b.1 - b.0;
    let (mut prev, mut row) = (vec![0u32; width + 1], vec![0u32; width + 1]);
    let mut best = (0usize, 0usize, 0usize);
    for (i, &x) in span.iter().enumerate().take(a.1).skip(a.0) {
        for (j, &y) in region[b.0..b.1].iter().enumerate() {
            row[j + 1] = if x == y { prev[j] + 1 } else { 0 };
            let len = row[j + 1] as usize;
            if len > best.2 {
                best = (i + 1 - len, b.0 + j + 1 - len, len);
            }
        }
        std::mem::swap(&mut prev, &mut row);
    }
    let (p, t, len) = best;
    if len < min_run {
        return;
    }
    out.push(best);
    longest_blocks(span, region, (a.0, p), (b.0, t), min_run, out);
    longest_blocks(span, region, (p + len, a.1), (t + len, b.1), min_run, out);
}

/// Each run after the first moved to the first copy of its letters after the run before it,
/// when one stands before where the alignment put it: the alignment matches letters as late
/// as it can, so a table row that repeats the last cited row's name (`builtins.input`, then
/// `builtins.input/result`) took the span's last run past the rows it should end on. Every
/// run keeps its letters and order; only the gaps between them shrink.
fn nearest_copies(span: &[char], region: &[char], runs: &mut [(usize, usize, usize)]) {
    for k in 1..runs.len() {
        let (p, at, len) = runs[k];
        let from = runs[k - 1].1 + runs[k - 1].2;
        let letters = &span[p..p + len];
        if let Some(first) = region[from..at + len]
            .windows(len)
            .position(|w| w == letters)
        {
            runs[k].1 = from + first;
        }
    }
}

/// Each run before the last moved to the last copy of its letters before the run after it,
/// when one stands after where the alignment put it: the longest blocks are read first, and a
/// shorter one found before a longer one takes the first copy of its letters in what is left,
/// so a line whose letters begin another line further up (`tibtnextraon` in
/// `tibtnextraone`, a table's rows pdfminer read as one column) took the span's first run
/// rows away from the rest. Every run keeps its letters and order; only the gaps between them
/// shrink.
fn latest_copies(span: &[char], region: &[char], runs: &mut [(usize, usize, usize)]) {
    for k in (0..runs.len().saturating_sub(1)).rev() {
        let (p, at, len) = runs[k];
        let upto = runs[k + 1].1;
        let letters = &span[p..p + len];
        if let Some(last) = region[at..upto].windows(len).rposition(|w| w == letters) {
            runs[k].1 = at + last;
        }
    }
}

/// `(offset from lo, new position)` of the paired grams lying wholly in the old letters
/// `[lo, hi)`: `new_at` gives an old gram's new position (or [`NONE`]), for `grams` grams.
fn paired(
    new_at: impl Fn(usize) -> u32,
    grams: usize,
    lo: usize,
    hi: usize,
) -> impl Iterator<Item = (usize, usize)> {
    let last = (hi + 1).saturating_sub(GRAM).min(grams).max(lo);
    (lo..last)
        .map(move |i| (i - lo, new_at(i)))
        .filter(|&(_, at)| at != NONE)
        .map(|(off, at)| (off, at as usize))
}

/// The new letters from the first run's start to the last run's end (runs found in the
/// region starting at `ra`), and the letters the runs hold; `None` without runs.
fn extent(runs: &[(usize, usize)], ra: usize) -> Option<((usize, usize), usize)> {
    let (&(first, _), &(last, last_len)) = (runs.first()?, runs.last()?);
    let found = runs.iter().map(|r| r.1).sum();
    Some(((ra + first, ra + last + last_len), found))
}

/// Letters of the span the chain's grams cover.
fn coverage(chain: &[(usize, usize)]) -> usize {
    let mut covered = 0;
    let mut reach = 0;
    for &(off, _) in chain {
        covered += (off + GRAM).saturating_sub(reach.max(off));
        reach = off + GRAM;
    }
    covered
}

/// The stretch of `pairs` (sorted by new position) at most `width` new letters long whose
/// grams cover the most letters of a span of `n`: that count and the stretch. One pass, the
/// cover of each of the span's letters kept as the stretch slides.
fn densest_cover(
    pairs: &[(usize, usize)],
    n: usize,
    width: usize,
) -> Option<(usize, &[(usize, usize)])> {
    let mut cover = vec![0u32; n];
    let mut covered = 0usize;
    let mut best: Option<(usize, usize, usize)> = None;
    let mut left = 0;
    for (right, &(off, at)) in pairs.iter().enumerate() {
        for t in &mut cover[off..off + GRAM] {
            *t += 1;
            covered += usize::from(*t == 1);
        }
        while at + GRAM - pairs[left].1 > width {
            for t in &mut cover[pairs[left].0..pairs[left].0 + GRAM] {
                *t -= 1;
                covered -= usize::from(*t == 0);
            }
            left += 1;
        }
        if best.is_none_or(|(c, _, _)| covered > c) {
            best = Some((covered, left, right));
        }
    }
    best.map(|(covered, l, r)| (covered, &pairs[l..=r]))
}

/// The part of an increasing chain (the range of its indexes) whose consecutive anchors lie
/// no farther apart in the new text than a whole span of `n` letters may stretch
/// ([`MAX_STRETCH`] times `n` plus [`STRETCH_SLACK`]), covering the most letters: an anchor
/// that far from the others is a gram that survived elsewhere.
fn densest(chain: &[(usize, usize)], n: usize) -> std::ops::Range<usize> {
    let mut best = 0..0;
    let mut from = 0;
    for k in 1..=chain.len() {
        let split =
            k == chain.len() || chain[k].1 - chain[k - 1].1 > MAX_STRETCH * n + STRETCH_SLACK;
        if split {
            if coverage(&chain[from..k]) > coverage(&chain[best.clone()]) {
                best = from..k;
            }
            from = k;
        }
    }
    best
}

/// Runs of `span`'s letters found in order in `region` (their longest common subsequence):
/// `(start in region, length)`, without runs shorter than [`EDGE_RUN`] at either end (letters
/// the slack around the span matched by chance). None at all when fewer than `needed` of the
/// span's letters can be found in order there: every caller refuses a share below `needed`.
/// The alignment is bit-parallel ([`PatternBits::runs`]): an edit-script diff's cost grows with
/// the region's surplus, and was a seventh of the PDF sweep's time.
fn found_in_order(span: &[char], region: &[char], needed: f64) -> Vec<(usize, usize)> {
    let aligned = PatternBits::new(span.iter().copied(), span.len()).runs(span, region);
    let lcs: usize = aligned.iter().map(|r| r.2).sum();
    if (lcs as f64) < needed * span.len() as f64 {
        return Vec::new();
    }
    let mut runs: Vec<(usize, usize)> = aligned.iter().map(|r| (r.1, r.2)).collect();
    let keep_from = runs
        .iter()
        .position(|r| r.1 >= EDGE_RUN)
        .unwrap_or(runs.len());
    runs.drain(..keep_from);
    while runs.last().is_some_and(|r| r.1 < EDGE_RUN) {
        runs.pop();
    }
    runs
}

/// The longest subsequence of `pairs` (sorted by their first element) increasing in the second.
fn increasing_chain(pairs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    super::diff::longest_increasing(pairs, |(_, at)| at)
}

impl DocumentSweep<'_> {
    /// Rung 5b: the span's letters found, in order, in the new revision.
    pub(super) fn follow_letters(
        &self,
        ch: &Changed,
        c: &Citation<'_>,
        needle: &Folded,
    ) -> Option<Anchor> {
        let placed = self.letters_span(ch, c)?;
        Some(self.letters_anchor(ch, c, needle, placed))
    }

    /// Where rung 5b puts the span: new `[start, end)`, the share of its letters found there
    /// (the anchor's score is that share in percent) and how.
    pub(super) fn letters_span(&self, ch: &Changed, c: &Citation<'_>) -> Option<LettersSpan> {
        let letters = self.letters(ch);
        // A copy of repeated text that the diff carried from another copy in the old revision
        // is that copy, not where the cited one went.
        let raw = |(a, b): (usize, usize)| letters.new.raw_range(a, b);
        let len = c.end - c.start;
        let (region, mut share, how) =
            letters
                .place(c.start, c.end)
                .into_iter()
                .find(|&(r, _, how)| {
                    let (s, e) = raw(r);
                    match how {
                        Found::Anchors => true,
                        Found::Copies | Found::Pieces { .. } => {
                            !ch.is_lookalike(s, e, c.start, c.end)
                        }
                        Found::CopiesWithInserted => {
                            !ch.is_lookalike(s, e, c.start, c.end)
                                && 2 * ch.diff.carried((s, e), (c.start, c.end)) > len
                        }
                    }
                })?;
        // Blocks out of order stand apart by nature: only letters found in order are cut.
        let (lo, hi) = letters.old.range_of(c.start, c.end);
        let compacted = match how {
            Found::Pieces {
                reordered: true, ..
            } => None,
            _ => letters.apart(lo, hi, region, len),
        };
        let (start, end) = raw(compacted.map_or(region, |k| k.region));
        if let Some(k) = compacted {
            // The part kept must stand on its own, as what survives of a partly edited span
            // does (rung 5d): half the span's letters in runs of whole words. Parts apart
            // that each hold less are words a rewritten text shares with it by chance.
            if (k.in_long_runs as f64) < DELETED_BELOW * (hi - lo) as f64 {
                return None;
            }
            share = k.found as f64 / (hi - lo) as f64;
        }
        let (mut start, mut end) = (start, end);
        // Punctuation at the span's edges (a closing period, an opening parenthesis) is not a
        // letter: it is kept where the new text has it too.
        let cited = &ch.old.chars[c.start..c.end];
        let lead = cited.iter().take_while(|x| !x.is_alphanumeric()).count();
        let tail = cited
            .iter()
            .rev()
            .take_while(|x| !x.is_alphanumeric())
            .count();
        if lead < cited.len() {
            if start >= lead && ch.new.chars[start - lead..start] == cited[..lead] {
                start -= lead;
            }
            if ch.new.chars.get(end..end + tail) == Some(&cited[cited.len() - tail..]) {
                end += tail;
            }
        }
        let end = past_glyph_name(&ch.new.chars, end);
        let (start, end) = trim(&ch.new.chars, start, end)?;
        Some(LettersSpan {
            start,
            end,
            share,
            how,
            apart: compacted.map(|k| k.apart),
        })
    }

    /// Rung 5b's anchor for the span placed at new `[start, end)` with `share` of its letters:
    /// the reason counts what was inserted and names a number or negation that differs.
    pub(super) fn letters_anchor(
        &self,
        ch: &Changed,
        c: &Citation<'_>,
        needle: &Folded,
        placed: LettersSpan,
    ) -> Anchor {
        let LettersSpan {
            start,
            end,
            share,
            how,
            apart,
        } = placed;
        // The reason names what the letters show, not a guess at the cause: blocks out of
        // order, every letter there (only spacing, breaks or punctuation differ), or letters
        // gone (the words changed).
        let percent = share * 100.0;
        let mut reason = match (how, apart) {
            (
                Found::Pieces {
                    reordered: true,
                    in_order_part: true,
                },
                _,
            ) => format!(
                "blocks in another order: {percent:.0}% of the span's letters are found in \
                 order here; the rest stand out of order nearby and are left out"
            ),
            (
                Found::Pieces {
                    reordered: true, ..
                },
                _,
            ) => format!(
                "blocks in another order: {percent:.0}% of the span's letters are found in one stretch"
            ),
            (_, Some(apart)) => format!(
                "{percent:.0}% of the span's letters are found in order here; {} more stand {}, \
                 past text longer than the span, and are left out",
                apart.letters,
                match apart.side {
                    Side::Before => "before it",
                    Side::After => "after it",
                    Side::Both => "before and after it",
                }
            ),
            _ if share >= ALL_LETTERS => "laid out anew: every letter of the span is found in \
                 order; spacing, line breaks or punctuation differ"
                .to_string(),
            _ => format!(
                "{percent:.0}% of the span's letters are found in order, the rest changed or gone"
            ),
        };
        let inserted = (end - start).saturating_sub(c.end - c.start);
        if inserted > 0 {
            reason += &format!(
                "; the span now holds {} more",
                crate::text::plural(inserted, "character", "characters")
            );
        }
        let now = fold(&read_glyph_names(&ch.new.chars[start..end]));
        if let Some(change) = meaning_change(&needle.chars, &now.chars) {
            reason += &format!("; {change}");
        }
        self.found(
            Status::Degraded,
            start,
            end,
            share * 100.0,
            Method::Diff,
            Some(reason),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_keeps_order_and_drops_strays() {
        let pairs = [(0, 10), (1, 11), (2, 50), (3, 12), (4, 13), (5, 1)];
        assert_eq!(
            increasing_chain(pairs.to_vec()),
            vec![(0, 10), (1, 11), (3, 12), (4, 13)]
        );
        assert!(increasing_chain(Vec::new()).is_empty());
    }

    #[test]
    fn the_quick_fold_projects_as_the_fold() {
        let fixed = [
            "",
            "plain ASCII, Mixed Case 123",
            "e\u{301}t\u{e9} caf\u{e9}",
            "a\u{301}",
            "\u{301}lead",
            "de\u{FB01}ned  char-\nacters",
            "(cid:104)x(CID:12)y( cid:1) (cid:\u{A0}3)",
            "/one.taboldstyle/B.SC /two.taboldstyle\u{e9}",
            "\u{FF21}\u{FF42} \u{2163} stra\u{DF}e \u{130}I",
            "g\u{B4}enie \u{2C6}etre \u{1100}\u{1161}\u{11A8}",
            "tab\there\r\n\u{7}bell\u{AD}soft\u{200B}zw",
        ];
        let mut seed = 11u64;
        let alphabet: Vec<char> = "aB( c/id:1.)_\u{301}\u{e9}\u{FB01}\u{A0}\u{2163}\u{DF}\n-"
            .chars()
            .collect();
        let random = (0..300).map(|_| {
            (0..40)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    alphabet[(seed >> 33) as usize % alphabet.len()]
                })
                .collect::<String>()
        });
        for text in fixed.iter().map(|s| s.to_string()).chain(random) {
            let chars: Vec<char> = text.chars().collect();
            let (whole, quick) = (
                Projection::new(&fold(&text)),
                Projection::new(&fold_for_letters(&chars)),
            );
            assert_eq!(
                (&whole.letters, &whole.raw),
                (&quick.letters, &quick.raw),
                "{text:?}"
            );
            // Cut into pieces of every length, the projection is the same.
            for piece in 1..=chars.len() {
                let pieces = Projection::of_raw_in_pieces(&chars, piece, None);
                assert_eq!(
                    (&whole.letters, &whole.raw),
                    (&pieces.letters, &pieces.raw),
                    "{text:?} in pieces of {piece}"
                );
            }
        }
    }

    #[test]
    fn projections_ignore_hyphenation_ligatures_accents_and_spacing() {
        let p = |s: &str| -> String { Projection::new(&fold(s)).letters.iter().collect() };
        assert_eq!(
            p("the char-\nacters are de\u{FB01}ned"),
            p("the characters are defined")
        );
        assert_eq!(p("g\u{B4}enie civil"), p("g\u{E9}nie civil"));
        assert_eq!(p("Page 12 \u{2014} Text"), "page12text");
    }

    #[test]
    fn letters_the_old_text_never_has_are_left_out_of_the_new_projection() {
        let old: Vec<char> = "\\pascalset {⟨ Pascal ⟩} key-value 3 shape"
            .chars()
            .collect();
        let new = "\\pascalset {⟨外观选项⟩} 用于设置一个 Pascal 三角形 key-value 3 外观 shape";
        let raw: Vec<char> = new.chars().collect();
        let letters = Letters::new(&old, &raw);
        let all_new = |l: &Letters| l.new_letters(0, l.new.letters.len()).into_owned();
        let projected: String = all_new(&letters).iter().collect();
        assert_eq!(projected, "pascalsetpascalkeyvalue3shape");
        // Each letter kept still stands for its raw char.
        for (&letter, at) in all_new(&letters).iter().zip(letters.new.raw.iter()) {
            assert_eq!(raw[at as usize].to_ascii_lowercase(), letter);
        }
        // Text in one script throughout keeps every letter.
        let same = Letters::new(&old, &old);
        let all_old = same.old_letters(0, same.old.letters.len()).into_owned();
        assert_eq!(all_new(&same), all_old);
    }

    #[test]
    fn variant_glyph_names_project_as_the_letters_they_name() {
        let p = |s: &str| -> String { Projection::new(&fold(s)).letters.iter().collect() };
        for (raw, letters) in [
            (
                "version /zero.taboldstyle./one.taboldstyle/zero.taboldstylea",
                "version010a",
            ),
            ("true /b.sc /o.sc /h.sc /r.sc will", "truebohrwill"),
            ("Till T/a.sc /n.sc /t.sc/a.sc/u.sc.", "tilltantau"),
            ("the /f_i.alt rst", "thefirst"),
            // skmath.pdf's change history by pypdf: old-style figures as `.os`.
            ("v/zero.os./five.osa expl/three.os", "v05aexpl3"),
            // Not glyph names: a path, a URL, a name without a known suffix.
            (
                "/usr/bin and http://mirror.ctan.org/a.out",
                "usrbinandhttpmirrorctanorgaout",
            ),
            ("/bin.sc and /a.out", "binscandaout"),
        ] {
            assert_eq!(p(raw), letters, "{raw}");
        }
    }
}

#[cfg(test)]
mod copies_tests {
    use super::{Align, Letters, PARTLY_RUN};

    #[test]
    fn a_repeated_title_partly_edited_is_found_at_the_copy_of_its_rank() {
        // texlive-science-doc's mecaso.pdf: a table of contents entry, its title repeated as
        // the section's heading further on. pdftotext (old) prints the entry's page numbers
        // after the table (`iii`, `17`, `18`); pypdf (new) beside each entry, and writes `è`
        // as a spacing grave before the `e`. The title has no gram unique to either text,
        // and the char diff carries none of it: its copies, paired by rank, point at the
        // first copy, the entry.
        let entry = "7.3.2 Transport du moment dynamique : deuxie\u{300}me formule .";
        let old = format!(
            "Contents\n7.3.1 Transport du moment dynamique : premie\u{300}re formule .\n{entry}\n\niii\n\n17\n17\n17\n18\n\n\u{c}Introduction\n\nCe package a e\u{301}te\u{301} cre\u{301}e\u{301} pour les e\u{301}tudiants.\n\n7.3.2\n\nTransport du moment dynamique : deuxie\u{300}me formule\n\nLa commande \\AVARD{{}}{{}}{{}} e\u{301}crit directement la formule de Varignon.\n"
        );
        let new = "Contents\n7.3.1 Transport du moment dynamique : premi`ere formule . 17\n7.3.2 Transport du moment dynamique : deuxi`eme formule . 18\n8 Energ´etique et puissance 19\nIntroduction\nCe package a ´et´e cr´e´e pour les ´etudiants.\n7.3.2 Transport du moment dynamique : deuxi`eme formule\nLa commande \\AVARD{}{}{} ´ecrit directement la formule de Varignon.\n";
        let old: Vec<char> = old.chars().collect();
        let new: Vec<char> = new.chars().collect();
        let letters = Letters::new(&old, &new);
        let at = |text: &[char], needle: &str| {
            let needle: Vec<char> = needle.chars().collect();
            text.windows(needle.len())
                .position(|w| w == needle)
                .unwrap()
        };
        let start = at(&old, "Transport du moment dynamique : deuxie");
        let end = at(&old, "18\n") + 2;
        let surviving = letters
            .surviving(start, end, 0.5, PARTLY_RUN, None, Align::Subsequence)
            .expect("the entry's title survives at the first copy");
        let first_copy = at(&new, "Transport du moment dynamique : deuxi`eme");
        let (first, last) = (surviving.runs[0].1, surviving.runs.last().unwrap().1);
        assert!(
            first.0 >= first_copy && last.1 <= first_copy + 50,
            "{surviving:?}"
        );
    }
}
