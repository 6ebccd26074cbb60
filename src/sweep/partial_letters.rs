//! Rung 5d of the ladder: a partly edited span in text another loader laid out anew. Rung 5c
//! (`partial.rs`) reads the char diff, which a re-wrap or a new extractor breaks into short
//! runs; here the span's letters (the projection of rung 5b, `letters.rs`) are matched instead,
//! so a line the new loader dropped inside the span (a heading, a navigation line, an
//! admonition title, a definition term) leaves the rest of the span in long runs.
//!
//! When half of the span's letters survive, in order, in runs of at least
//! [`PARTLY_RUN`] letters, around its grams unique to both revisions, around where the char
//! diff carried what survives of it, or (repeated text: a table of contents' entry whose title
//! is also a heading) where its grams paired copy for copy point, the span is `degraded`
//! (`diff`) from the first surviving run to the last, the reason naming what changed; the
//! span's first (last) whole lines, when the loader kept them right before the first run
//! (after the last) with no other letter between, count as runs however short
//! ([`with_kept_edge_lines`]). When
//! only whole lines of the span are gone and nothing stands in their place (what a loader that
//! has no place for a heading, a navigation line or a table column does: each line kept or
//! dropped nearly whole, the new text between and around the surviving runs made of old text
//! from there), [`PARTLY_ACCEPT`] is enough, in runs of [`LINE_RUN`] letters if need be. Where the letters' longest common
//! subsequence broke a surviving line's run (a dropped title's letters matched one by one
//! further on), the longest blocks first are read instead, for half the span's letters in
//! whole lines. A listing whose line numbers stand on lines of their own in the old text (one
//! extractor prints them as a column before the code, another on the line before each line of
//! code, [`has_line_numbers`]) and elsewhere or nowhere in the new one is read with the digits
//! left out of both sides, since the numbers cut the code's letters at every line.
//!
//! Invariants: a span of which less than [`PARTLY_ACCEPT`] of its letters survive in such runs
//! is never placed here, nor one under half whose lost lines new words replaced (an edit:
//! deleted text stays `lost`), nor half of a span under twice `SHORT_SPAN` letters that
//! survives as one run under `SHORT_SPAN` letters (a phrase a deleted sentence shares by
//! chance; a whole clause of it is where it went); the region holds only runs of the span's
//! own letters and what lies between them, spans at most [`SPREAD`] times the span's length,
//! and a region the look-alike guard refuses (mostly text the old revision had elsewhere) is
//! not placed; a number or negation that differs is named in the reason.

use super::letters::{
    Align::Blocks, Align::PastNumbers, Align::Subsequence, Surviving, PARTLY_RUN, SHORT_SPAN,
};
use super::partial::{in_order_within, letters_of, Kept};
use super::{trim, Anchor, Changed, Citation, DocumentSweep, Placed, DELETED_BELOW};
use crate::text::Folded;

/// Share of the span's letters that must survive in long runs where only whole lines of it
/// were dropped and nothing replaced them; else [`DELETED_BELOW`]. Lower than that because a
/// loader that drops a line inside the span also re-wraps the rest, and the letters of a word
/// list or a short line between two breaks lie in runs too short to count: a span the oracle
/// finds 50-70% of measures 42-46% here (the HTML loader switch, `bench/`). Deleted text, with
/// under a fifth of its letters left anywhere, cannot reach it.
pub(super) const PARTLY_ACCEPT: f64 = 0.4;

/// How many times the cited span's length what survives of it may take in the new text.
pub(super) const SPREAD: usize = 2;

/// Shortest run of letters counted when only whole lines of the span were dropped: a table
/// row's cell (`ctypes.cdata`) whose neighbours the new loader left out.
pub(super) const LINE_RUN: usize = 8;

impl DocumentSweep<'_> {
    /// Rung 5d: see the module's docs.
    pub(in crate::sweep) fn follow_partly_letters(
        &self,
        ch: &Changed,
        c: &Citation<'_>,
        placed: &Placed,
        needle: &Folded,
    ) -> Option<Anchor> {
        let carried = placed.mapped.region.filter(|_| placed.mapped.grounded());
        let letters = self.letters(ch);
        let own = (c.start, c.end);
        let surviving = letters
            .surviving(
                c.start,
                c.end,
                PARTLY_ACCEPT,
                PARTLY_RUN,
                carried,
                Subsequence,
            )
            .filter(|s| {
                (s.share >= DELETED_BELOW && !one_phrase(ch, own, s))
                    || only_lines_dropped(ch, own, &s.runs)
            })
            .or_else(|| {
                letters
                    .surviving(
                        c.start,
                        c.end,
                        PARTLY_ACCEPT,
                        LINE_RUN,
                        carried,
                        Subsequence,
                    )
                    .filter(|s| only_lines_dropped(ch, own, &s.runs))
            })
            .or_else(|| {
                letters
                    .surviving(c.start, c.end, DELETED_BELOW, PARTLY_RUN, carried, Blocks)
                    .filter(|s| only_lines_dropped(ch, own, &s.runs))
            });
        // A listing whose line numbers the new loader moved beside their lines, or dropped: its
        // code's letters survive in order once the digits are left out.
        let mut measured = "letters survive in order";
        let surviving = match surviving {
            Some(s) => s,
            None if has_line_numbers(&ch.old.chars[c.start..c.end]) => {
                measured = "letters survive in order, its line numbers left out";
                letters
                    .surviving(
                        c.start,
                        c.end,
                        DELETED_BELOW,
                        PARTLY_RUN,
                        carried,
                        PastNumbers,
                    )
                    .filter(|s| !one_phrase(ch, own, s))?
            }
            None => return None,
        };
        let (mut runs, share) = with_kept_edge_lines(ch, own, surviving);
        let (first, last) = (*runs.first()?, *runs.last()?);
        let ((oa, a), (ob, b)) = region(ch, own, &first, &last);
        // The runs widened as the region is, so the reason calls changed only what is.
        runs[0].0 .0 = oa;
        runs[0].1 .0 = a;
        let n = runs.len() - 1;
        runs[n].0 .1 = ob;
        runs[n].1 .1 = b;
        let runs = &runs;
        let (a, b) = trim(&ch.new.chars, a, b)?;
        // What survives of a span partly edited, or of one a loader dropped lines of, takes
        // about the span's room or less; runs spread over much more are words of other
        // sentences that share the span's stock phrases by chance.
        if ch.is_lookalike(a, b, c.start, c.end) || b - a > SPREAD * (c.end - c.start) {
            return None;
        }
        Some(self.partly_edited(ch, own, runs, (a, b), share, measured, needle))
    }
}

/// `surviving`'s runs with the span's first and last whole lines added as runs where the new
/// loader kept them and dropped the lines between them and the first (last) run: their letters,
/// at least [`LINE_RUN`] of them, stand right before the first run's new text (right after the
/// last's) with no other letter between (`implementation. |` and then the next kept row, where
/// the old text had `implementation.`, two dropped lines, the row). Too short for a run of
/// their own, they are the span's text all the same: the region covers them and the reason
/// says lines were dropped, not that the span's start changed. Returns the runs and the share
/// of the span's letters they hold.
fn with_kept_edge_lines(
    ch: &Changed,
    own: (usize, usize),
    surviving: Surviving,
) -> (Vec<Kept>, f64) {
    let Surviving { mut runs, share } = surviving;
    let (old, new) = (&ch.old.chars, &ch.new.chars);
    let total = letters_of(&old[own.0..own.1]).len().max(1);
    let mut added = 0;
    if let Some(&((first_old, _), (first_new, _))) = runs.first() {
        let head_lines = (own.0..first_old).filter(|&i| old[i] == '\n');
        if let Some((run, letters)) = head_lines
            .rev()
            .find_map(|end| kept_next_to(old, new, (own.0, end), first_new, Back))
        {
            added += letters;
            runs.insert(0, run);
        }
    }
    if let Some(&((_, last_old), (_, last_new))) = runs.last() {
        let tail_lines = (last_old..own.1).filter(|&i| old[i] == '\n');
        if let Some((run, letters)) = tail_lines
            .filter_map(|start| kept_next_to(old, new, (start + 1, own.1), last_new, Ahead))
            .next()
        {
            added += letters;
            runs.push(run);
        }
    }
    (runs, (share + added as f64 / total as f64).min(1.0))
}

/// The old lines `lines` as a run next to `at` in the new text (ending there for `Back`,
/// starting there for `Ahead`) when the new text's letters there are theirs, [`LINE_RUN`] or
/// more: `(old range, new range)`, and how many letters it holds.
fn kept_next_to(
    old: &[char],
    new: &[char],
    lines: (usize, usize),
    at: usize,
    way: Way,
) -> Option<(Kept, usize)> {
    let want = letters_of(&old[lines.0..lines.1]);
    if want.len() < LINE_RUN {
        return None;
    }
    let (found, mut at_letters): (Vec<char>, Vec<usize>) = match way {
        Back => (
            letters_before(new, at, want.len()),
            (0..at)
                .rev()
                .filter(|&i| new[i].is_alphanumeric())
                .take(want.len())
                .collect(),
        ),
        Ahead => (
            letters_after(new, at, want.len()),
            (at..new.len())
                .filter(|&i| new[i].is_alphanumeric())
                .take(want.len())
                .collect(),
        ),
    };
    if found != want {
        return None;
    }
    at_letters.sort_unstable();
    let (first, last) = (*at_letters.first()?, *at_letters.last()?);
    Some(((lines, (first, last + 1)), want.len()))
}

/// Fewest line numbers in a row [`has_line_numbers`] looks for.
const LINE_NUMBERS: usize = 3;

/// Whether `text` holds a listing's line numbers on lines of their own: [`LINE_NUMBERS`] or
/// more bare numbers, each one more than the one before, as one column before the code (what
/// `pdftotext` prints) or each on the line before its code (what pdfminer prints); lines of
/// other text between them do not break the count.
fn has_line_numbers(text: &[char]) -> bool {
    let mut count = 0;
    let mut last: Option<u64> = None;
    for line in text.split(|&x| x == '\n') {
        let line: String = line.iter().collect();
        let Ok(number) = line.trim().parse::<u64>() else {
            continue;
        };
        count = match last {
            Some(before) if number == before + 1 => count + 1,
            _ => 1,
        };
        if count >= LINE_NUMBERS {
            return true;
        }
        last = Some(number);
    }
    false
}

/// Whether what survives of a short span (under twice [`SHORT_SPAN`] letters) is one run of
/// under [`SHORT_SPAN`] letters: a phrase of a few words, which a deleted sentence shares by
/// chance with another one; half of a short span needs two runs, one run as long as a clause,
/// or whole lines dropped, to be where the span went.
fn one_phrase(ch: &Changed, own: (usize, usize), surviving: &Surviving) -> bool {
    let letters = |(a, b): (usize, usize)| letters_of(&ch.old.chars[a..b]).len();
    match surviving.runs.as_slice() {
        [(run, _)] => letters(own) < 2 * SHORT_SPAN && letters(*run) < SHORT_SPAN,
        _ => false,
    }
}

/// The new region from the `first` surviving run to the `last` (with the old positions its
/// edges stand for), widened over the letters next to them that agree on both sides
/// ([`agreeing`]) and over the punctuation next to them that the old span has there too (a
/// colon after the last word, an opening parenthesis): letters runs hold letters only.
fn region(ch: &Changed, own: (usize, usize), first: &Kept, last: &Kept) -> (Edge, Edge) {
    let (old, new) = (&ch.old.chars, &ch.new.chars);
    let is_mark = |x: &char| !x.is_alphanumeric() && !x.is_whitespace();
    let ((mut oa, mut a), (mut ob, mut b)) = edges(ch, own, first, last);
    while oa > own.0 && a > 0 && old[oa - 1] == new[a - 1] && is_mark(&new[a - 1]) {
        (oa, a) = (oa - 1, a - 1);
    }
    while ob < own.1 && b < new.len() && old[ob] == new[b] && is_mark(&new[b]) {
        (ob, b) = (ob + 1, b + 1);
    }
    ((oa, a), (ob, b))
}

/// Whether what the span lost is whole lines, dropped and not replaced: each line kept or lost
/// nearly whole ([`whole_lines_dropped`]), and the new text around and between the surviving
/// runs made of old text from there (the loader left lines out, maybe more beyond the span's
/// edge; an edit that rewrote them puts new words there).
fn only_lines_dropped(ch: &Changed, own: (usize, usize), runs: &[Kept]) -> bool {
    let (old, new) = (&ch.old.chars, &ch.new.chars);
    let (Some(first), Some(last)) = (runs.first(), runs.last()) else {
        return false;
    };
    // New letters between two surviving runs are old letters of the gap between them, in
    // order (the span's own, in runs too short to count), never new words.
    let nothing_new_between = runs.windows(2).all(|w| {
        in_order_within(
            &letters_of(&old[w[0].0 .1..w[1].0 .0]),
            &letters_of(&new[w[0].1 .1..w[1].1 .0]),
        )
    });
    // Where the span's first or last lines are gone, the new text next to the first or last
    // surviving run goes on with the old text just outside the span.
    let (head, tail) = edges(ch, own, first, last);
    let head_dropped = has_letters(&old[own.0..head.0]);
    let tail_dropped = has_letters(&old[tail.0..own.1]);
    // The old letters the new text there may hold: the span's own dropped edge (kept by the
    // loader in runs too short to count) and what stood just beyond it.
    let before = [
        letters_before(old, own.0, 3 * AROUND),
        letters_of(&old[own.0..head.0]),
    ]
    .concat();
    let after = [
        letters_of(&old[tail.0..own.1]),
        letters_after(old, own.1, 3 * AROUND),
    ]
    .concat();
    nothing_new_between
        && (!head_dropped || in_order_within(&before, &letters_before(new, head.1, AROUND)))
        && (!tail_dropped || in_order_within(&after, &letters_after(new, tail.1, AROUND)))
        && (whole_lines_dropped(old, own, runs) || kept_lines_make_the_region(ch, own, first, last))
}

/// Whether the new letters from the `first` surviving run to the `last` are exactly some of
/// the old span's lines, whole and in order (the first and last possibly cut where the runs
/// start and end): a table whose rows repeat a prefix (`builtins.input`,
/// `builtins.input/result`) lets the letters alignment give a kept line's letters to its
/// neighbour, which [`whole_lines_dropped`] then sees as half-kept; read line by line, the
/// loader kept some lines whole and dropped the others.
fn kept_lines_make_the_region(
    ch: &Changed,
    own: (usize, usize),
    first: &Kept,
    last: &Kept,
) -> bool {
    let region = letters_of(&ch.new.chars[first.1 .0..last.1 .1]);
    let lines: Vec<Vec<char>> = ch.old.chars[own.0..own.1]
        .split(|&x| x == '\n')
        .map(letters_of)
        .filter(|l| !l.is_empty())
        .collect();
    let mut at = 0;
    for line in &lines {
        let rest = &region[at..];
        if rest.is_empty() {
            break;
        }
        if rest.starts_with(line) {
            at += line.len();
        } else if at == 0 {
            // The first run may start inside a line: the line's end.
            if let Some(cut) = (1..line.len()).find(|&i| rest.starts_with(&line[i..])) {
                at += line.len() - cut;
            }
        } else if line.starts_with(rest) {
            // The last run may end inside a line: the line's start.
            at = region.len();
        }
    }
    at == region.len()
}

/// An (old, new) pair of raw positions.
type Edge = (usize, usize);

/// Where what survives of span `own` starts and ends: the first run's start and the last run's
/// end, each moved past the letters next to it that agree on both sides (the alignment may
/// leave a run's first or last letter to chance).
fn edges(ch: &Changed, own: (usize, usize), first: &Kept, last: &Kept) -> (Edge, Edge) {
    let (old, new) = (&ch.old.chars, &ch.new.chars);
    (
        agreeing(old, new, (first.0 .0, first.1 .0), own.0, Back),
        agreeing(old, new, (last.0 .1, last.1 .1), own.1, Ahead),
    )
}

/// Which way [`agreeing`] walks.
#[derive(Clone, Copy, PartialEq)]
enum Way {
    Back,
    Ahead,
}
use Way::{Ahead, Back};

/// From the raw positions `at` (old, new) of a run's edge, the positions past the letters that
/// agree on both sides walking `way`, the old side not crossing `limit` (the span's edge).
fn agreeing(
    old: &[char],
    new: &[char],
    at: (usize, usize),
    limit: usize,
    way: Way,
) -> (usize, usize) {
    let (mut o, mut n) = at;
    let letter = |t: &[char], i: usize| t[i].to_lowercase().next();
    loop {
        let (next_o, next_n) = match way {
            Back => (
                (limit..o).rev().find(|&i| old[i].is_alphanumeric()),
                (0..n).rev().find(|&i| new[i].is_alphanumeric()),
            ),
            Ahead => (
                (o..limit).find(|&i| old[i].is_alphanumeric()),
                (n..new.len()).find(|&i| new[i].is_alphanumeric()),
            ),
        };
        match (next_o, next_n) {
            (Some(i), Some(j)) if letter(old, i) == letter(new, j) => {
                (o, n) = if way == Back { (i, j) } else { (i + 1, j + 1) };
            }
            _ => return (o, n),
        }
    }
}

/// Letters compared next to a span's surviving runs, to say the text goes on as before.
const AROUND: usize = 12;

fn has_letters(text: &[char]) -> bool {
    text.iter().any(|c| c.is_alphanumeric())
}

/// The last `n` letters and digits before `at`, lowercased.
fn letters_before(text: &[char], at: usize, n: usize) -> Vec<char> {
    let mut out: Vec<char> = text[..at]
        .iter()
        .rev()
        .filter(|c| c.is_alphanumeric())
        .take(n)
        .flat_map(|c| c.to_lowercase())
        .collect();
    out.reverse();
    out
}

/// The first `n` letters and digits from `at` on, lowercased.
fn letters_after(text: &[char], at: usize, n: usize) -> Vec<char> {
    text[at..]
        .iter()
        .filter(|c| c.is_alphanumeric())
        .take(n)
        .flat_map(|c| c.to_lowercase())
        .collect()
}

/// Whether each line of the old span `own` kept its letters or lost them, nearly whole (at
/// most a quarter of a line's letters on the other side: the alignment gives a kept line's
/// first letters to the run before it now and then): the loader dropped whole lines (a
/// heading, a navigation line, the cells of a table column, a list the new layout has no place
/// for) and left the others alone, as an edit rewording a sentence does not.
fn whole_lines_dropped(old: &[char], own: (usize, usize), runs: &[Kept]) -> bool {
    let mixed =
        |kept: usize, dropped: usize| 4 * kept > kept + dropped && 4 * dropped > kept + dropped;
    let mut next = 0;
    let (mut kept, mut dropped) = (0, 0);
    for (i, &x) in old.iter().enumerate().take(own.1).skip(own.0) {
        if x == '\n' {
            if mixed(kept, dropped) {
                return false;
            }
            (kept, dropped) = (0, 0);
            continue;
        }
        if !x.is_alphanumeric() {
            continue;
        }
        while next < runs.len() && runs[next].0 .1 <= i {
            next += 1;
        }
        if runs.get(next).is_some_and(|r| r.0 .0 <= i) {
            kept += 1;
        } else {
            dropped += 1;
        }
    }
    !mixed(kept, dropped)
}

#[cfg(test)]
mod tests {
    use super::has_line_numbers;

    #[test]
    fn line_numbers_are_told_from_other_numbers() {
        // (text, whether it holds a listing's line numbers on lines of their own)
        let cases: &[(&str, bool)] = &[
            // pdftotext: the numbers as one column before the code.
            ("proof\n1\n2\n3\n4\n\n\\[\n\\ Jproof {", true),
            // pdfminer: each number on the line before its code (texlive's cvss.pdf).
            (
                "\\exp_args:Ne\n140\n% IF ISC <=0\n141\n{\n142\n% ISC <=0",
                true,
            ),
            // Two numbers are not a listing.
            ("code\n41\n42\nmore code", false),
            // A table of contents' page numbers do not count up by one.
            ("Vecteur\n17\n17\n17\n18\nExemples", false),
            // Numbers inside lines of text are not line numbers.
            ("step 1 of 3\nstep 2 of 3\nstep 3 of 3", false),
        ];
        for &(text, expected) in cases {
            let chars: Vec<char> = text.chars().collect();
            assert_eq!(has_line_numbers(&chars), expected, "{text:?}");
        }
    }
}
