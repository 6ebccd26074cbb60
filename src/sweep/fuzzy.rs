//! Rungs 6 and 7 of the ladder: fuzzy alignment (partial ratio, edges tightened) of the folded
//! span in the folded new text — the window around the old position carried through the diff
//! first, then every stretch of new text the diff did not map from the old revision (not in a
//! text another extractor rewrote everywhere, [`super::diff::DiffMap::rewritten`]) — and
//! `lost` when nothing is good enough.
//!
//! Invariants: a candidate made mostly of text the old revision had elsewhere is a look-alike,
//! never the cited span; a candidate that changes a number or a negation is refused; where the
//! diff says the span was deleted, a candidate must score [`ELSEWHERE_ACCEPT`]; the best must
//! lead the second by [`FUZZY_MARGIN`] (or the old context must tell them apart), else
//! `ambiguous`.

use super::rank::Pick;
use super::{
    ambiguous, trim, Anchor, Changed, Citation, DocumentSweep, Method, Placed, Status,
    DELETED_BELOW, ELSEWHERE_ACCEPT, FUZZY_MARGIN, MAX_ALIGNMENTS, MIN_FUZZY_CHARS, REVIEW_CUTOFF,
};
use crate::text::align::{partial_ratio_alignment, tighten_window};
use crate::text::locate::meaning_change_with;
use crate::text::Folded;

/// One place the span may be now.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    start: usize,
    end: usize,
    score: f64,
}

impl Candidate {
    fn overlaps(&self, other: &Candidate) -> bool {
        self.start < other.end && other.start < self.end
    }
}

impl DocumentSweep<'_> {
    /// Rungs 6 and 7: fuzzy alignment near the old position, then in the new text the diff
    /// did not map; nothing good enough is `lost`.
    pub(super) fn fuzzy(
        &self,
        ch: &Changed,
        c: &Citation<'_>,
        placed: &Placed,
        needle: &Folded,
    ) -> Anchor {
        let (mapped, survival) = (&placed.mapped, placed.survival);
        let (own_start, own_end) = placed.own;
        let lookalike =
            |cand: &Candidate| ch.is_lookalike(cand.start, cand.end, own_start, own_end);
        let deleted = survival < DELETED_BELOW;
        let why_deleted = || {
            format!(
                "{:.0}% of the span's characters survive in the diff",
                survival * 100.0
            )
        };
        if needle.len() < MIN_FUZZY_CHARS {
            return self.lost(c, 0.0, format!("{}; too short to align", why_deleted()));
        }
        let new_folded = self.new_folded(ch);
        let hay = &new_folded.chars;
        let n = needle.len();
        let (near_a, near_b) = mapped.region.unwrap_or((mapped.point, mapped.point));
        let pad = n / 2 + 32;
        let near = (
            new_folded.folded_at(near_a).saturating_sub(pad),
            (new_folded.folded_at(near_b) + n + pad).min(hay.len()),
        );
        let mut windows = vec![near];
        // In a text another extractor changed everywhere, what the diff did not map is that
        // extractor's noise between nearly every few words, not text moved there, and the
        // letters rung has already searched the whole text by the span's own grams: only the
        // window around the span's mapped place is aligned (on 12,000 PDF citations this
        // changed no status and no span, and saved 15% of the sweep).
        let fresh = if ch.diff.rewritten() {
            Vec::new()
        } else {
            ch.diff.fresh_regions(ch.new.chars.len(), n)
        };
        for (a, b) in fresh {
            let w = (
                new_folded.folded_at(a).saturating_sub(n),
                (new_folded.folded_at(b) + n).min(hay.len()),
            );
            if w.1 > w.0 && !(w.0 >= near.0 && w.1 <= near.1) {
                windows.push(w);
            }
        }
        let mut accepted: Vec<Candidate> = Vec::new();
        let mut rejected: Option<(f64, String)> = None;
        // Windows in order (near first); each match splits its window so the rest of it can
        // offer a second candidate for the margin test.
        let mut queue: std::collections::VecDeque<(usize, usize)> = windows.into();
        let mut alignments = 0;
        while let Some((wa, wb)) = queue.pop_front() {
            if alignments == MAX_ALIGNMENTS || wb - wa < n / 2 {
                continue;
            }
            alignments += 1;
            let Some((fa, fb, score)) = align(&needle.chars, &hay[wa..wb]) else {
                continue;
            };
            if fb <= fa {
                continue;
            }
            let (fa, fb) = (wa + fa, wa + fb);
            queue.push_back((wa, fa));
            queue.push_back((fb, wb));
            let (start, end) = new_folded.raw_span(fa, fb);
            let Some((start, end)) = trim(&ch.new.chars, start, end) else {
                continue;
            };
            let cand = Candidate { start, end, score };
            // Numbers added inside the span (page numbers of another extractor) change nothing the
            // span said; a number changed or gone does.
            let meaning = meaning_change_with(&needle.chars, &hay[fa..fb], true);
            let refusal = if lookalike(&cand) {
                Some("a look-alike the old revision already had elsewhere".to_string())
            } else if let Some(m) = meaning {
                Some(m)
            } else if deleted && score < ELSEWHERE_ACCEPT {
                Some(format!(
                    "the span was deleted here and the text elsewhere scores below {ELSEWHERE_ACCEPT}"
                ))
            } else {
                None
            };
            match refusal {
                Some(r) => {
                    if rejected.as_ref().is_none_or(|(s, _)| score > *s) {
                        rejected = Some((
                            score,
                            format!("best candidate scored {score:.1} but is {r}"),
                        ));
                    }
                }
                None => {
                    if !accepted.iter().any(|k| k.overlaps(&cand)) {
                        accepted.push(cand);
                    }
                }
            }
        }
        accepted.sort_by(|x, y| y.score.total_cmp(&x.score));
        match accepted.as_slice() {
            [] => {
                let (score, why) = rejected
                    .unwrap_or((0.0, format!("no candidate scored {REVIEW_CUTOFF} or more")));
                self.lost(c, score, format!("{}; {why}", why_deleted()))
            }
            [best, ..] => {
                // Candidates within the margin of the best are told apart by the old context
                // around the span, as exact occurrences are; failing that, it is ambiguous.
                let close: Vec<Candidate> = accepted
                    .iter()
                    .copied()
                    .filter(|k| best.score - k.score < FUZZY_MARGIN)
                    .collect();
                let spans: Vec<(usize, usize)> = close.iter().map(|k| (k.start, k.end)).collect();
                let score_note = format!("found by fuzzy alignment, score {:.1}", best.score);
                let (start, reason) = match self.rank(ch, c, &spans) {
                    Pick::One(start) if close.len() == 1 => (start, score_note),
                    Pick::One(start) => (
                        start,
                        format!(
                            "{score_note}; the old context picks it among {} similar places",
                            close.len()
                        ),
                    ),
                    Pick::Tie { best, count } => (best, ambiguous(count)),
                };
                let chosen = close
                    .iter()
                    .find(|k| k.start == start)
                    .copied()
                    .unwrap_or(*best);
                self.found(
                    Status::Degraded,
                    chosen.start,
                    chosen.end,
                    chosen.score,
                    Method::Fuzzy,
                    Some(reason),
                )
            }
        }
    }
}

/// Best window of `needle` in `hay` at or above the review cut-off, edges tightened:
/// `(start, end, score)` in `hay`'s coordinates.
pub(super) fn align(needle: &[char], hay: &[char]) -> Option<(usize, usize, f64)> {
    if hay.is_empty() {
        return None;
    }
    if hay.len() < needle.len() {
        // Partial ratio would score the short text inside the span; what is left of the span
        // here is all of `hay`, and the plain ratio charges for what is missing.
        let score = crate::text::align::ratio(needle, hay);
        return (score >= REVIEW_CUTOFF).then_some((0, hay.len(), score));
    }
    let al = partial_ratio_alignment(needle, hay, REVIEW_CUTOFF)?;
    let (a, b) = if al.score < 100.0 && needle.len() < hay.len() {
        let slack = (needle.len() / 8).max(4);
        tighten_window(needle, hay, al.dest_start, al.dest_end, slack)
    } else {
        (al.dest_start, al.dest_end)
    };
    Some((a, b, al.score))
}
