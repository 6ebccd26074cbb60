//! Rung 4: the span folded (the normaliser), searched in the folded new revision, one
//! Aho-Corasick pass for every citation the exact rungs left, mapped back to raw offsets.
//!
//! Invariant: a folded hit made mostly of text the old revision had elsewhere is a look-alike
//! and never placed; several hits are ranked by context; the anchor is `degraded` (`folded`).

use super::exact::{dedup, occurrences, CharStarts};
use super::letters::Letters;
use super::rank::Pick;
use super::{ambiguous, Anchor, Changed, Citation, DocumentSweep, Method, Placed, Status};
use crate::text::{fold, Folded};

impl DocumentSweep<'_> {
    /// The new revision folded, built once on first need for the fuzzy rung (rung 4's search
    /// folds it for itself and keeps it only for a text of at most [`KEEP_FOLD_BYTES`]: the
    /// fold of a 9 MB document is 72 MB, and the letters rung, which builds its projections
    /// after rung 4, does not need it).
    pub(super) fn new_folded<'c>(&self, ch: &'c Changed) -> &'c Folded {
        ch.new_folded.get_or_init(|| fold(self.new))
    }

    /// The letter projections of rung 5b, built once on first need from the new revision's
    /// chars.
    pub(super) fn letters<'c>(&self, ch: &'c Changed) -> &'c Letters {
        ch.letters
            .get_or_init(|| Letters::new(&ch.old.chars, &ch.new.chars))
    }

    /// Rung 4's search: raw spans of every folded hit of every pending folded span, one pass
    /// over the folded new revision, which is kept for the fuzzy rung when the text is short
    /// and dropped after it otherwise (see [`Self::new_folded`]). Nothing pending: no fold.
    pub(super) fn folded_occurrences(
        &self,
        ch: &Changed,
        needles: &[Folded],
    ) -> Vec<Vec<(usize, usize)>> {
        if needles.is_empty() {
            return Vec::new();
        }
        let new_folded = fold(self.new);
        let text = new_folded.text();
        let starts = CharStarts::new(&text);
        let strings: Vec<String> = needles.iter().map(Folded::text).collect();
        let (patterns, ids) = dedup(strings.iter().map(String::as_str));
        let hits = occurrences(&patterns, &text, &starts);
        let spans = ids
            .iter()
            .zip(needles)
            .map(|(id, needle)| {
                id.map_or_else(Vec::new, |i| {
                    hits[i]
                        .iter()
                        .map(|&a| new_folded.raw_span(a, a + needle.len()))
                        .collect()
                })
            })
            .collect();
        if self.new.len() <= KEEP_FOLD_BYTES {
            // Folding the text again for the fuzzy rung cost 1.3% of a PDF set's sweep.
            let _ = ch.new_folded.set(new_folded);
        }
        spans
    }

    /// Rung 4: a folded hit, mapped back to raw offsets.
    pub(super) fn folded(
        &self,
        ch: &Changed,
        c: &Citation<'_>,
        placed: &Placed,
        folded_hits: &[(usize, usize)],
    ) -> Option<Anchor> {
        let (own_start, own_end) = placed.own;
        let spans: Vec<(usize, usize)> = folded_hits
            .iter()
            .copied()
            .filter(|&(a, b)| !ch.is_lookalike(a, b, own_start, own_end))
            .collect();
        if spans.is_empty() {
            return None;
        }
        let (start, reason) = match self.rank(ch, c, &spans) {
            Pick::One(a) => (a, TYPOGRAPHY.to_string()),
            Pick::Tie { best, count } => (best, format!("{}; {TYPOGRAPHY}", ambiguous(count))),
        };
        let end = spans.iter().find(|k| k.0 == start).map_or(start, |k| k.1);
        Some(self.found(
            Status::Degraded,
            start,
            end,
            100.0,
            Method::Folded,
            Some(reason),
        ))
    }
}

/// New texts of at most this many bytes keep the fold rung 4 made for the fuzzy rung (at most
/// about 8 MB of fold); longer ones fold again if the fuzzy rung needs it, so that a long
/// document's fold is not held through the letters rung.
const KEEP_FOLD_BYTES: usize = 1 << 20;

const TYPOGRAPHY: &str = "found after normalisation (typography or case changed)";
