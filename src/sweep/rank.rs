//! Ranking by context: when several places in the new revision hold the cited text (exact,
//! folded or fuzzy), the one surrounded by the most of the old text around the span wins.
//!
//! Invariant: a place is picked only when it leads the next by [`CONTEXT_MARGIN`] chars of
//! agreeing context, and a copy of repeated text against the order of the copies only when it
//! still leads the copy of the cited one's rank counting whole lines of context; otherwise the
//! caller reports `ambiguous` with the count of close places.

use super::{Changed, Citation, DocumentSweep, CONTEXT_MARGIN};

/// Several equally good places: which one is reported, and how many there were.
pub(super) enum Pick {
    One(usize),
    Tie { best: usize, count: usize },
}

/// Chars of old text around `[os, oe)` that also surround `[ns, ne)` in the new text, up to
/// `reach` on each side: common suffix of what precedes plus common prefix of what follows.
/// With `whole_lines`, each side counts only up to its last line break before the first
/// difference (the whole of it when it ends at `reach` or at either text's edge): a word of
/// chance agreement past a paragraph's end ("Function " beginning two different paragraphs)
/// does not count, a whole line or paragraph around a repeated passage does.
fn context_agreement(
    old: &[char],
    (os, oe): (usize, usize),
    new: &[char],
    (ns, ne): (usize, usize),
    reach: usize,
    whole_lines: bool,
) -> usize {
    let before = old[..os]
        .iter()
        .rev()
        .zip(new[..ns].iter().rev())
        .take(reach)
        .take_while(|(a, b)| a == b)
        .count();
    let after = old[oe..]
        .iter()
        .zip(&new[ne..])
        .take(reach)
        .take_while(|(a, b)| a == b)
        .count();
    if !whole_lines {
        return before + after;
    }
    let before = if before == reach || before == os || before == ns {
        before
    } else {
        old[os - before..os]
            .iter()
            .position(|&c| c == '\n')
            .map_or(0, |k| before - k)
    };
    let after = if after == reach || oe + after == old.len() || ne + after == new.len() {
        after
    } else {
        old[oe..oe + after]
            .iter()
            .rposition(|&c| c == '\n')
            .map_or(0, |k| k + 1)
    };
    before + after
}

impl DocumentSweep<'_> {
    /// Ranks candidate new spans of the citation by how much of the old text around the span
    /// surrounds each one: chars equal on both sides up to the first difference, plus chars of
    /// the surroundings that the diff carried from the old surroundings (robust to a nearby
    /// edit). Ties go to the one nearest the old position carried through the diff.
    pub(super) fn rank(&self, ch: &Changed, c: &Citation<'_>, cands: &[(usize, usize)]) -> Pick {
        self.rank_copies(ch, c, cands, None)
    }

    /// [`Self::rank`] for exact copies of repeated text, `same_rank` the candidate start whose
    /// rank among the new copies is the cited copy's among the old ones (both revisions
    /// holding as many): another candidate is taken against the order of the copies only
    /// when it still leads that one counting whole lines of context (never by the letters
    /// tie-break), else the copies are a tie.
    pub(super) fn rank_copies(
        &self,
        ch: &Changed,
        c: &Citation<'_>,
        cands: &[(usize, usize)],
        same_rank: Option<usize>,
    ) -> Pick {
        if let [only] = cands {
            return Pick::One(only.0);
        }
        let reach = context_reach(c);
        let old_span = (c.start, c.start + c.span_text.chars().count());
        let mapped = ch.diff.map_point(c.start);
        let score = |(a, b): (usize, usize), whole_lines: bool| {
            let equal = context_agreement(
                &ch.old.chars,
                old_span,
                &ch.new.chars,
                (a, b),
                reach,
                whole_lines,
            );
            let carried = ch.diff.carried(
                (a.saturating_sub(reach), a),
                (old_span.0.saturating_sub(reach), old_span.0),
            ) + ch
                .diff
                .carried((b, b + reach), (old_span.1, old_span.1 + reach));
            equal + carried
        };
        let mut scored: Vec<(usize, usize, usize)> = cands
            .iter()
            .map(|&(a, b)| (score((a, b), false), a.abs_diff(mapped), a))
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let (best, second) = (scored[0], scored[1]);
        if best.0 >= second.0 + CONTEXT_MARGIN {
            let span_len = old_span.1 - old_span.0;
            let against_order = same_rank.is_some_and(|s| {
                s != best.2
                    && score((best.2, best.2 + span_len), true)
                        < score((s, s + span_len), true) + CONTEXT_MARGIN
            });
            if against_order {
                Pick::Tie {
                    best: best.2,
                    count: 2,
                }
            } else {
                Pick::One(best.2)
            }
        } else if let Some(a) = self
            .rank_by_letters(ch, old_span, cands, reach)
            // Letters of context (no line breaks to cut at) do not take a copy against the
            // order of the copies: raw context did not tell them apart.
            .filter(|&a| same_rank.is_none_or(|s| s == a))
        {
            Pick::One(a)
        } else {
            let count = scored
                .iter()
                .filter(|s| s.0 + CONTEXT_MARGIN > best.0)
                .count();
            Pick::Tie {
                best: best.2,
                count,
            }
        }
    }
}

impl DocumentSweep<'_> {
    /// The tie-break when raw context does not decide (another extractor changed the typography
    /// and line breaks around every copy): the same comparison over the letters of the context.
    fn rank_by_letters(
        &self,
        ch: &Changed,
        old_span: (usize, usize),
        cands: &[(usize, usize)],
        reach: usize,
    ) -> Option<usize> {
        let letters = self.letters(ch);
        let mut scored: Vec<(usize, usize)> = cands
            .iter()
            .map(|&(a, b)| (letters.context_agreement(old_span, (a, b), reach), a))
            .collect();
        scored.sort_by_key(|x| std::cmp::Reverse(x.0));
        (scored[0].0 >= scored[1].0 + CONTEXT_MARGIN).then_some(scored[0].1)
    }
}

/// How far context ranking compares: the citation's stored context, at least 256 chars and at
/// most 4096 (the stored context was grown until it made the span unique in the old revision).
fn context_reach(c: &Citation<'_>) -> usize {
    let stored = c.prefix.chars().count().max(c.suffix.chars().count());
    stored.clamp(256, 4096)
}
