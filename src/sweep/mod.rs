//! Re-anchoring: where is each citation of an old revision in the new revision of its document?
//!
//! Pure library code (issue 5, step c): the store hands over, per document, the old revision's
//! text, the new revision's text, the new chunking and the document's citations; a
//! [`DocumentSweep`] answers with one [`Anchor`] per citation, in the same order. No SQL, no I/O.
//!
//! The ladder ([`DocumentSweep::reanchor_all`]), one file per rung, stopping at the first that
//! answers:
//! 1. same text → `intact` (method `same-text`), the chunk found by containment;
//! 2. (`exact.rs`) the old chunk's content hash is in the new chunking (exactly one chunk whose
//!    text, at the span's relative offset, is the span's text), while the span's text occurs once
//!    in the new revision → `intact`/`moved` (`content-hash`);
//! 3. exact search of the span text (and of the model's quote) in the new revision — every
//!    pattern of the document in one Aho-Corasick pass. One occurrence → `intact`/`moved`;
//!    several are ranked by how much of the old text around the span surrounds each one; a clear
//!    leader → `moved`/`intact`, else `degraded`, reason `ambiguous` (`exact`). A quote found
//!    verbatim where the span's text is not → `degraded` (`exact`);
//! 4. (`folded.rs`) search of the folded span (the current normaliser) in the folded new
//!    revision, one Aho-Corasick pass for all the document's pending spans, mapped back to raw
//!    offsets → `degraded` (`folded`), ranked the same way;
//! 5. (`diff.rs`) the old → new diff ([`diff`]): when at least [`FOLLOW_DIFF`] of the span's
//!    chars survive (at least [`MIN_FOLLOWED`] chars, on runs of twice that), the span is
//!    followed to where they went → `degraded` (`diff`), score = the surviving share.
//!    Inserted material inside (a running header, a page number) widens the span and does not
//!    lower the score. Then (rung 5c, `partial.rs`, after the letters rung 5b) a partly edited
//!    span: when [`DELETED_BELOW`] to [`FOLLOW_DIFF`] of its chars survive and at least
//!    [`DELETED_BELOW`] of it lies in long runs of equal text (a block inserted or dropped
//!    inside it, words replaced, its end rewritten) → `degraded` (`diff`) from the first to the
//!    last long run, the reason naming what changed (lines inserted or dropped, words replaced,
//!    a number or negation); then (rung 5d, `partial_letters.rs`) the same by letters, for text
//!    a new loader re-laid out: [`DELETED_BELOW`] of the span's letters in order in runs of
//!    whole words (40% when only whole lines of it were dropped and nothing replaced them; a
//!    listing's line numbers on lines of their own, moved or gone, read with the digits left
//!    out) → `degraded` (`diff`) over those runs; then (rung 5e, `same_words.rs`) a span whose words
//!    another extractor laid out in another order (a table read by rows, not columns): most of
//!    its words in one window near where the diff carries it → `degraded` (`diff`);
//! 6. (`fuzzy.rs`) fuzzy alignment (partial ratio, tightened edges) of the folded span in the
//!    folded new text: the window around the old position carried through the diff first, then every
//!    stretch of new text the diff did not map from the old revision. A candidate made mostly of
//!    text that the old revision already had elsewhere is a look-alike, never the cited span.
//!    The best must lead the second by [`FUZZY_MARGIN`], else `degraded`, reason `ambiguous`;
//!    a span shorter than [`MIN_FUZZY_CHARS`] is not aligned (a few words match anywhere);
//!    6b. (`approx.rs`) in a text another extractor changed everywhere, when rung 6 found
//!    nothing: the folded span aligned by edit distance (at most half its chars edited) in the
//!    new text over which the diff carries the old text around it — a table or key-value list
//!    joined row by row → `degraded` (`fuzzy`);
//! 7. (`fuzzy.rs`) nothing at or above [`REVIEW_CUTOFF`] → `lost`, keeping the last known span.
//!
//! Several places for one text (steps 3, 4 and 6) are told apart by ranking by context
//! (`rank.rs`): how much of the old text around the span surrounds each place.
//!
//! Invariants:
//! - `intact` and `moved` only when the new revision holds the span's exact text at the reported
//!   offsets; `intact` only when those offsets are the old ones.
//! - A span whose exact text occurs exactly once in the new revision is `intact` or `moved`.
//! - Identical texts cost one comparison per citation (no diff, no fold, no search).
//! - When the diff says the span was deleted (less than [`DELETED_BELOW`] of it survives), a
//!   candidate elsewhere must score at least [`ELSEWHERE_ACCEPT`] and be made of new text; a
//!   look-alike that changes a number or a negation is never accepted.
//! - A partly edited span (rung 5c) is placed only over its own surviving runs and the text
//!   inserted between them, never over text the old revision had elsewhere; less than
//!   [`DELETED_BELOW`] of it in long runs of equal text is not placed there.
//! - Offsets are chars; a `lost` anchor's span is the citation's last known span (old
//!   coordinates) and its chunk is `None`.
//!
//! Using it (what the store's sweep does per document):
//!
//! ```
//! use citestore::sweep::{Citation, DocumentSweep, Method, NewChunk, Status};
//! use citestore::text::content_hash;
//!
//! let old = "Intro.\n\nThe limit is 500 calls per month.\n";
//! let new = "Intro, rewritten.\n\nThe limit is 500 calls per month.\n";
//! let chunk = |text: &str, id: &str| NewChunk {
//!     chunk_id: id.into(),
//!     start: 0,
//!     end: text.chars().count(),
//!     content_hash: content_hash(text),
//!     normaliser: citestore::text::NORMALISER_VERSION.into(),
//! };
//! let citations = [Citation {
//!     id: "c-1",
//!     start: 8,
//!     end: 40,
//!     quote: "The limit is 500 calls per month",
//!     span_text: "The limit is 500 calls per month",
//!     prefix: "Intro.\n\n",
//!     suffix: ".\n",
//!     chunk_content_hash: &content_hash(old),
//!     chunk_normaliser: citestore::text::NORMALISER_VERSION,
//!     chunk_start: 0,
//! }];
//! let chunks = [chunk(new, "doc@r2#0-53")];
//! let anchors = DocumentSweep::new(old, new, &chunks, &citations).reanchor_all();
//! assert_eq!((anchors[0].status, anchors[0].method), (Status::Moved, Method::Exact));
//! assert_eq!((anchors[0].start, anchors[0].end), (19, 51));
//! assert_eq!(anchors[0].chunk_id.as_deref(), Some("doc@r2#0-53"));
//! ```
//!
//! For the store: `old` is the text of the revision the citation's offsets index (for a
//! citation already re-anchored once, the revision of its latest placed anchor, with that
//! anchor's span as `start`/`end`/`span_text`; the model's `quote` stays the original);
//! `chunk_content_hash`/`chunk_start` describe the chunk of `old` that holds the span. A `lost`
//! anchor keeps the span it was given, so the next sweep starts again from there.
//!
//! Why a diff and not similarity alone: a deleted sentence and a look-alike elsewhere ("…was
//! supported…" / "…is not supported…") score alike; where the span's characters went does not.

mod alphabet;
mod approx;
pub mod diff;
mod exact;
mod folded;
mod fuzzy;
mod grams;
pub mod integrity;
mod letters;
mod missing;
mod monotone;
mod outcome;
mod partial;
mod partial_letters;
mod rank;
mod reanchor;
mod same_words;
mod settle;
pub use settle::TYPOGRAPHY_CHANGED;
pub mod run;
pub mod shard;
mod source;

use crate::model::holding_key;
pub use crate::model::NewChunk;
/// The vocabulary lives in `model`; re-exported where the sweep's API has always named it.
pub use crate::model::{Method, Status};
use crate::text::{fold, Folded};
use diff::DiffMap;
use exact::{dedup, occurrences, CharText};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Score below which nothing is a candidate (the review cut-off of seed 001).
pub const REVIEW_CUTOFF: f64 = 85.0;
/// Share of the span's chars that must survive in the diff for the diff alone to place it.
pub const FOLLOW_DIFF: f64 = 0.85;
/// Fewest surviving chars by which the diff alone places a span: fewer (a word or two) are
/// shared by chance with whatever replaced a deleted sentence.
pub const MIN_FOLLOWED: usize = 12;
/// Below this surviving share the diff says the span was deleted.
pub const DELETED_BELOW: f64 = 0.5;
/// Score a candidate away from a deleted span's place must reach.
pub const ELSEWHERE_ACCEPT: f64 = 95.0;
/// Points by which the best fuzzy candidate must lead the second.
pub const FUZZY_MARGIN: f64 = 5.0;
/// Below this survival (percent) the diff's region is checked against the letters rung's.
pub const DIFF_MISSED: f64 = 95.0;
/// Points of the span's letters the letters rung must find above the diff's survival for its
/// region to be taken instead.
pub const LETTERS_BETTER: f64 = 5.0;
/// Chars of surrounding old text by which the best exact occurrence must lead the second.
pub const CONTEXT_MARGIN: usize = 8;
/// A candidate with more than this share of its chars mapped from other old text is a look-alike.
pub const LOOKALIKE_SHARE: f64 = 0.5;
/// Most fuzzy alignments tried for one citation (windows and the parts they split into).
pub const MAX_ALIGNMENTS: usize = 24;
/// Shortest folded span tried by fuzzy alignment: shorter ones match anything.
pub const MIN_FUZZY_CHARS: usize = 20;

/// A stored citation, as the sweep needs it (borrowed from the store's row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Citation<'a> {
    /// Public id, for messages.
    pub id: &'a str,
    /// Start in the old revision, chars.
    pub start: usize,
    /// End (exclusive) in the old revision, chars.
    pub end: usize,
    /// The quote as the model gave it.
    pub quote: &'a str,
    /// The old revision's text at `[start, end)`.
    pub span_text: &'a str,
    /// Context before the span (at least 32 chars unless the document starts sooner).
    pub prefix: &'a str,
    /// Context after the span.
    pub suffix: &'a str,
    /// Content hash of the old chunk cited from.
    pub chunk_content_hash: &'a str,
    /// The normaliser version of `chunk_content_hash` (`v1`, `v2`): it is compared only with
    /// hashes of the same version.
    pub chunk_normaliser: &'a str,
    /// Start of that chunk in the old revision.
    pub chunk_start: usize,
}

/// Where a citation is now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Anchor {
    /// The verdict.
    pub status: Status,
    /// Start in the new revision (for `lost`: the last known start, old revision).
    pub start: usize,
    /// End (exclusive), same coordinates as `start`.
    pub end: usize,
    /// The new chunk holding the span (containment, else most overlap); `None` when lost.
    pub chunk_id: Option<String>,
    /// 100 for exact; the surviving share or alignment score otherwise; for `lost` the best
    /// rejected candidate's score (0 when there was none).
    pub score: f64,
    /// The step that placed it.
    pub method: Method,
    /// Why it is degraded or lost.
    pub reason: Option<String>,
}

/// Work done once per changed document.
#[derive(Debug)]
struct Changed {
    old: CharText,
    new: CharText,
    diff: DiffMap,
    /// Per citation: starts of its span text in the new revision.
    span_hits: Vec<Vec<usize>>,
    /// Per citation: starts of its quote, when the quote differs from the span text.
    quote_hits: Vec<Vec<usize>>,
    /// The new revision folded, for the fuzzy rung, on first need.
    new_folded: OnceLock<Folded>,
    /// Letter projections for rung 5b, on first need.
    letters: OnceLock<letters::Letters>,
}

impl Changed {
    /// True when new `[a, b)` is mostly text the old revision had outside the cited span: a
    /// look-alike that was already there, not where the span went.
    fn is_lookalike(&self, a: usize, b: usize, own_start: usize, own_end: usize) -> bool {
        let p = self.diff.provenance(a, b, own_start, own_end);
        p.other as f64 > LOOKALIKE_SHARE * (b - a) as f64
    }
}

impl Changed {
    /// Diffs the texts and finds every citation's span text (and quote, where it differs) in
    /// the new text, one Aho-Corasick pass for the whole document.
    fn new(old: &str, new: &str, citations: &[Citation<'_>]) -> Changed {
        let old_text = CharText::new(old);
        let new_text = CharText::new(new);
        let diff = DiffMap::new(&old_text.chars, &new_text.chars);
        let quotes = citations
            .iter()
            .map(|c| if c.quote == c.span_text { "" } else { c.quote });
        let (patterns, ids) = dedup(citations.iter().map(|c| c.span_text).chain(quotes));
        let hits = occurrences(&patterns, new, &new_text.starts);
        let per_input: Vec<Vec<usize>> = ids
            .iter()
            .map(|id| id.map_or_else(Vec::new, |i| hits[i].clone()))
            .collect();
        let (span_hits, quote_hits) = per_input.split_at(citations.len());
        Changed {
            old: old_text,
            new: new_text,
            diff,
            span_hits: span_hits.to_vec(),
            quote_hits: quote_hits.to_vec(),
            new_folded: OnceLock::new(),
            letters: OnceLock::new(),
        }
    }
}

/// The re-anchoring of one document's citations from one revision to the next.
#[derive(Debug)]
pub struct DocumentSweep<'a> {
    old: &'a str,
    new: &'a str,
    /// Chunks sorted by start.
    chunks: Vec<&'a NewChunk>,
    /// Per normaliser (v1, v2), on first need: the new chunks (indices into `chunks`) by their
    /// content hash under that version (the stored hash when it has that version).
    chunks_by_hash: [OnceLock<HashMap<String, Vec<usize>>>; 2],
    citations: &'a [Citation<'a>],
    /// `None` when the texts are identical.
    changed: Option<Changed>,
}

impl<'a> DocumentSweep<'a> {
    /// Prepares the sweep of one document: compares the texts, and when they differ diffs them
    /// and finds every citation's span text (and quote) in the new text in one pass.
    pub fn new(
        old: &'a str,
        new: &'a str,
        chunks: &'a [NewChunk],
        citations: &'a [Citation<'a>],
    ) -> Self {
        let mut sorted: Vec<&NewChunk> = chunks.iter().collect();
        sorted.sort_by_key(|c| (c.start, c.end));
        let changed = (old != new).then(|| Changed::new(old, new, citations));
        DocumentSweep {
            old,
            new,
            chunks: sorted,
            chunks_by_hash: Default::default(),
            citations,
            changed,
        }
    }

    /// One anchor per citation, in the citations' order: the ladder. The exact rungs run per
    /// citation; the folded search runs once for every citation they left (one pass over the
    /// folded new text), then each of those climbs the rest of the ladder.
    pub fn reanchor_all(&self) -> Vec<Anchor> {
        let Some(ch) = &self.changed else {
            return self.same_text_all();
        };
        let mut out: Vec<Option<Anchor>> = self
            .citations
            .iter()
            .enumerate()
            .map(|(i, c)| {
                self.unusable(ch, c)
                    .or_else(|| self.by_content_hash(ch, i, c))
                    .or_else(|| self.exact(ch, i, c))
            })
            .collect();
        let pending: Vec<usize> = (0..out.len()).filter(|&i| out[i].is_none()).collect();
        let needles: Vec<Folded> = pending
            .iter()
            .map(|&i| fold(self.citations[i].span_text))
            .collect();
        let folded_hits = self.folded_occurrences(ch, &needles);
        for ((&i, needle), hits) in pending.iter().zip(&needles).zip(&folded_hits) {
            let c = &self.citations[i];
            let placed = Placed::new(ch, c);
            out[i] = Some(
                self.folded(ch, c, &placed, hits)
                    .or_else(|| {
                        let by_diff = self.follow_diff(ch, &placed, needle)?;
                        Some(self.unless_letters_hold_more(ch, c, needle, by_diff))
                    })
                    .or_else(|| self.follow_letters(ch, c, needle))
                    .or_else(|| self.follow_partial(ch, &placed, needle))
                    .or_else(|| self.follow_partly_letters(ch, c, &placed, needle))
                    .or_else(|| self.follow_same_words(ch, c, &placed))
                    .unwrap_or_else(|| self.fuzzy_else_edits(ch, c, &placed, needle)),
            );
        }
        out.into_iter()
            .flatten()
            .zip(self.citations)
            .map(|(anchor, c)| self.settle(ch, c, anchor))
            .collect()
    }

    /// The diff's region for a span, unless the letters rung holds clearly more of it: when
    /// the diff lost part of the span ([`DIFF_MISSED`]) and the letters rung finds
    /// [`LETTERS_BETTER`] points more of its letters in a region that holds the diff's whole,
    /// that region is where the span went (page numbers of a table of contents, which the
    /// other extractor put beside dot leaders, are the span's first letters; the char diff
    /// carried them from elsewhere and its region starts after them). A letters region that
    /// leaves out part of the diff's is not taken: there the diff saw the text and the letters
    /// rung may have matched a few words elsewhere (`index entry` for `noindexentry`).
    fn unless_letters_hold_more(
        &self,
        ch: &Changed,
        c: &Citation<'_>,
        needle: &Folded,
        by_diff: Anchor,
    ) -> Anchor {
        if by_diff.score >= DIFF_MISSED {
            return by_diff;
        }
        // The anchor (its reason, a meaning check) is made only for a region that wins.
        match self.letters_span(ch, c) {
            Some(placed)
                if placed.start <= by_diff.start
                    && by_diff.end <= placed.end
                    && placed.share * 100.0 >= by_diff.score + LETTERS_BETTER =>
            {
                self.letters_anchor(ch, c, needle, placed)
            }
            _ => by_diff,
        }
    }

    /// An anchor at new `[start, end)` with its chunk.
    fn found(
        &self,
        status: Status,
        start: usize,
        end: usize,
        score: f64,
        method: Method,
        reason: Option<String>,
    ) -> Anchor {
        Anchor {
            status,
            start,
            end,
            chunk_id: self.chunk_holding(start, end),
            score,
            method,
            reason,
        }
    }

    fn lost(&self, c: &Citation<'_>, score: f64, reason: String) -> Anchor {
        Anchor {
            status: Status::Lost,
            start: c.start,
            end: c.end,
            chunk_id: None,
            score,
            method: Method::None,
            reason: Some(reason),
        }
    }

    /// The chunk holding `[start, end)` by the one rule ([`holding_key`]), among the chunks
    /// that start before its end (looking back [`CHUNK_LOOKBACK`] chunks for overlapping ones).
    fn chunk_holding(&self, start: usize, end: usize) -> Option<String> {
        let upto = self.chunks.partition_point(|c| c.start <= start);
        let from = upto.saturating_sub(CHUNK_LOOKBACK);
        self.chunks[from..]
            .iter()
            .take_while(|c| c.start < end || c.start <= start)
            .filter_map(|c| Some((holding_key((c.start, c.end), (start, end))?, c)))
            .min_by_key(|(key, _)| *key)
            .map(|(_, c)| c.chunk_id.clone())
    }
}

/// Where the diff carried a pending citation's span: what the folded, diff and fuzzy rungs
/// share.
#[derive(Debug)]
struct Placed {
    /// The span in the old revision.
    own: (usize, usize),
    /// Where its chars went.
    mapped: diff::Mapped,
    /// Share of its chars that survive.
    survival: f64,
}

impl Placed {
    fn new(ch: &Changed, c: &Citation<'_>) -> Self {
        let len = c.span_text.chars().count();
        let own = (c.start, c.start + len);
        let mapped = ch.diff.map_span(own.0, own.1);
        let survival = mapped.surviving as f64 / len as f64;
        Placed {
            own,
            mapped,
            survival,
        }
    }
}

// Documents are independent: a sweep may spread them over threads.
const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<DocumentSweep<'static>>();
};

/// Chunks looked at before a span's start when finding its chunk (overlapping chunkers).
const CHUNK_LOOKBACK: usize = 8;

/// How the reason of a tie between places starts.
const AMBIGUOUS: &str = "ambiguous:";

fn ambiguous(count: usize) -> String {
    format!("{AMBIGUOUS} {count} places hold the text and the context does not tell them apart")
}

/// `[a, b)` without whitespace at its edges; `None` if nothing is left.
fn trim(chars: &[char], a: usize, b: usize) -> Option<(usize, usize)> {
    let lead = chars[a..b].iter().take_while(|c| c.is_whitespace()).count();
    if a + lead == b {
        return None;
    }
    let trail = chars[a..b]
        .iter()
        .rev()
        .take_while(|c| c.is_whitespace())
        .count();
    Some((a + lead, b - trail))
}

#[cfg(test)]
mod tests;
