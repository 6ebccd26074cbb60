//! Re-anchoring: where is each citation of an old revision in the new revision of its document?
//!
//! Pure library code (issue 5, step c): the store hands over, per document, the old revision's
//! text, the new revision's text, the new chunking and the document's citations; a
//! [`DocumentSweep`] answers with one [`Anchor`] per citation, in the same order. No SQL, no I/O.
//!
//! Steps, stopping at the first that answers:
//! 1. same text → `intact` (method `same-text`), the chunk found by containment;
//! 2. the old chunk's content hash is in the new chunking (exactly one chunk whose text, at the
//!    span's relative offset, is the span's text) → `intact`/`moved` (`content-hash`);
//! 3. exact search of the span text (and of the model's quote) in the new revision — every
//!    pattern of the document in one Aho-Corasick pass. One occurrence → `intact`/`moved`;
//!    several are ranked by how much of the old text around the span surrounds each one; a clear
//!    leader → `moved`/`intact`, else `degraded`, reason `ambiguous` (`exact`). A quote found
//!    verbatim where the span's text is not → `degraded` (`exact`);
//! 4. search of the folded span (normaliser v1) in the folded new revision, one Aho-Corasick
//!    pass for all the document's pending spans, mapped back to raw offsets → `degraded`
//!    (`folded`), ranked the same way;
//! 5. the old → new diff ([`diff`]): when at least [`FOLLOW_DIFF`] of the span's chars survive,
//!    the span is followed to where they went → `degraded` (`diff`), score = the surviving share.
//!    Inserted material inside (a running header, a page number) widens the span and does not
//!    lower the score;
//! 6. fuzzy alignment (partial ratio, tightened edges) of the folded span in the folded new
//!    text: the window around the old position carried through the diff first, then every
//!    stretch of new text the diff did not map from the old revision. A candidate made mostly of
//!    text that the old revision already had elsewhere is a look-alike, never the cited span.
//!    The best must lead the second by [`FUZZY_MARGIN`], else `degraded`, reason `ambiguous`;
//! 7. nothing at or above [`REVIEW_CUTOFF`] → `lost`, keeping the last known span.
//!
//! Invariants:
//! - `intact` and `moved` only when the new revision holds the span's exact text at the reported
//!   offsets; `intact` only when those offsets are the old ones.
//! - A span whose exact text occurs exactly once in the new revision is `intact` or `moved`.
//! - Identical texts cost one comparison per citation (no diff, no fold, no search).
//! - When the diff says the span was deleted (less than [`DELETED_BELOW`] of it survives), a
//!   candidate elsewhere must score at least [`ELSEWHERE_ACCEPT`] and be made of new text; a
//!   look-alike that changes a number or a negation is never accepted.
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

pub mod diff;
mod missing;
mod reanchor;
pub mod run;
pub mod shard;
mod source;

use crate::text::align::{partial_ratio_alignment, tighten_window};
use crate::text::locate::meaning_change;
use crate::text::{fold, Folded};
use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use diff::{DiffMap, Mapped};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Score below which nothing is a candidate (the review cut-off of seed 001).
pub const REVIEW_CUTOFF: f64 = 85.0;
/// Share of the span's chars that must survive in the diff for the diff alone to place it.
pub const FOLLOW_DIFF: f64 = 0.85;
/// Below this surviving share the diff says the span was deleted.
pub const DELETED_BELOW: f64 = 0.5;
/// Score a candidate away from a deleted span's place must reach.
pub const ELSEWHERE_ACCEPT: f64 = 95.0;
/// Points by which the best fuzzy candidate must lead the second.
pub const FUZZY_MARGIN: f64 = 5.0;
/// Chars of surrounding old text by which the best exact occurrence must lead the second.
pub const CONTEXT_MARGIN: usize = 8;
/// A candidate with more than this share of its chars mapped from other old text is a look-alike.
pub const LOOKALIKE_SHARE: f64 = 0.5;
/// Most fuzzy alignments tried for one citation (windows and the parts they split into).
pub const MAX_ALIGNMENTS: usize = 24;
/// Shortest folded span tried by fuzzy alignment: shorter ones match anything.
pub const MIN_FUZZY_CHARS: usize = 12;

/// One chunk of the new chunking, in new-revision chars.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewChunk {
    /// Its stable id.
    pub chunk_id: String,
    /// First char.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// v1 content hash of its text.
    pub content_hash: String,
}

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
    /// Start of that chunk in the old revision.
    pub chunk_start: usize,
}

/// What a sweep says about a citation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The exact text at the same offsets.
    Intact,
    /// The exact text at other offsets.
    Moved,
    /// Found only after normalisation, by the diff or by fuzzy alignment, or ambiguously.
    Degraded,
    /// No candidate at or above the review cut-off.
    Lost,
}

impl Status {
    /// The lowercase name used in JSON and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Intact => "intact",
            Status::Moved => "moved",
            Status::Degraded => "degraded",
            Status::Lost => "lost",
        }
    }
}

/// Which step placed the anchor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// The revision's text did not change.
    SameText,
    /// The old chunk's content hash is in the new chunking.
    ContentHash,
    /// Exact search of the span text or the quote.
    Exact,
    /// Exact search in folded space.
    Folded,
    /// Followed through the old → new diff.
    Diff,
    /// Fuzzy alignment.
    Fuzzy,
    /// Nothing placed it (lost).
    None,
}

impl Method {
    /// The kebab-case name used in JSON and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::SameText => "same-text",
            Method::ContentHash => "content-hash",
            Method::Exact => "exact",
            Method::Folded => "folded",
            Method::Diff => "diff",
            Method::Fuzzy => "fuzzy",
            Method::None => "none",
        }
    }
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

/// A text as chars, with the byte → char conversion for search hits.
#[derive(Debug)]
struct CharText {
    chars: Vec<char>,
    /// Byte offset of every char, or `None` when the text is ASCII (byte = char).
    starts: Option<Vec<usize>>,
}

impl CharText {
    fn new(text: &str) -> Self {
        CharText {
            chars: text.chars().collect(),
            starts: (!text.is_ascii()).then(|| text.char_indices().map(|(b, _)| b).collect()),
        }
    }

    fn char_at_byte(&self, byte: usize) -> usize {
        match &self.starts {
            None => byte,
            Some(starts) => starts.partition_point(|&b| b < byte),
        }
    }

    fn holds_at(&self, at: usize, text: &[char]) -> bool {
        self.chars.get(at..at + text.len()) == Some(text)
    }
}

/// Start positions (chars, overlapping occurrences included) of every pattern in `hay`, found in
/// one Aho-Corasick pass.
fn occurrences(patterns: &[&str], hay: &str, hay_text: &CharText) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); patterns.len()];
    if patterns.is_empty() {
        return out;
    }
    // A contiguous NFA: the automaton serves one pass over one document, and building a DFA
    // for a hundred long patterns costs far more than that pass (measured: 3/4 of a sweep).
    match AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .kind(Some(AhoCorasickKind::ContiguousNFA))
        .build(patterns)
    {
        Ok(ac) => {
            for m in ac.find_overlapping_iter(hay) {
                out[m.pattern().as_usize()].push(hay_text.char_at_byte(m.start()));
            }
        }
        // Too many or too long patterns for one automaton: one pass per pattern instead.
        Err(_) => {
            for (i, p) in patterns.iter().enumerate() {
                let finder = memchr::memmem::Finder::new(p.as_bytes());
                out[i] = finder
                    .find_iter(hay.as_bytes())
                    .map(|b| hay_text.char_at_byte(b))
                    .collect();
            }
        }
    }
    out
}

/// Deduplicates patterns: returns the distinct non-empty patterns and, per input, its index.
fn dedup<'p>(inputs: impl Iterator<Item = &'p str>) -> (Vec<&'p str>, Vec<Option<usize>>) {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut distinct = Vec::new();
    let ids = inputs
        .map(|p| {
            (!p.is_empty()).then(|| {
                *index.entry(p).or_insert_with(|| {
                    distinct.push(p);
                    distinct.len() - 1
                })
            })
        })
        .collect();
    (distinct, ids)
}

/// Chars of old text around `[os, oe)` that also surround `[ns, ne)` in the new text, up to
/// `reach` on each side: common suffix of what precedes plus common prefix of what follows.
fn context_agreement(
    old: &[char],
    (os, oe): (usize, usize),
    new: &[char],
    (ns, ne): (usize, usize),
    reach: usize,
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
    before + after
}

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

/// Several equally good places: which one is reported, and how many there were.
enum Pick {
    One(usize),
    Tie { best: usize, count: usize },
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
    new_folded: OnceLock<(Folded, String, CharText)>,
}

impl Changed {
    /// True when new `[a, b)` is mostly text the old revision had outside the cited span: a
    /// look-alike that was already there, not where the span went.
    fn is_lookalike(&self, a: usize, b: usize, own_start: usize, own_end: usize) -> bool {
        let p = self.diff.provenance(a, b, own_start, own_end);
        p.other as f64 > LOOKALIKE_SHARE * (b - a) as f64
    }
}

/// The re-anchoring of one document's citations from one revision to the next.
#[derive(Debug)]
pub struct DocumentSweep<'a> {
    new: &'a str,
    /// Chunks sorted by start.
    chunks: Vec<&'a NewChunk>,
    chunks_by_hash: HashMap<&'a str, Vec<usize>>,
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
        let mut chunks_by_hash: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, c) in sorted.iter().enumerate() {
            chunks_by_hash.entry(&c.content_hash).or_default().push(i);
        }
        let changed = (old != new).then(|| Self::prepare(old, new, citations));
        DocumentSweep {
            new,
            chunks: sorted,
            chunks_by_hash,
            citations,
            changed,
        }
    }

    fn prepare(old: &str, new: &str, citations: &[Citation]) -> Changed {
        let old_text = CharText::new(old);
        let new_text = CharText::new(new);
        let diff = DiffMap::new(&old_text.chars, &new_text.chars);
        let quotes = citations
            .iter()
            .map(|c| if c.quote == c.span_text { "" } else { c.quote });
        let (patterns, ids) = dedup(citations.iter().map(|c| c.span_text).chain(quotes));
        let hits = occurrences(&patterns, new, &new_text);
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
        }
    }

    /// One anchor per citation, in the citations' order.
    pub fn reanchor_all(&self) -> Vec<Anchor> {
        let Some(changed) = &self.changed else {
            // Byte offset of every char, only when chars and bytes differ.
            let starts: Option<Vec<usize>> =
                (!self.new.is_ascii()).then(|| self.new.char_indices().map(|(b, _)| b).collect());
            return self
                .citations
                .iter()
                .map(|c| self.same_text(c, starts.as_deref()))
                .collect();
        };
        let mut out: Vec<Option<Anchor>> = self
            .citations
            .iter()
            .enumerate()
            .map(|(i, c)| self.exact_steps(changed, i, c))
            .collect();
        let pending: Vec<usize> = (0..out.len()).filter(|&i| out[i].is_none()).collect();
        if !pending.is_empty() {
            let needles: Vec<Folded> = pending
                .iter()
                .map(|&i| fold(self.citations[i].span_text))
                .collect();
            let folded_hits = self.folded_occurrences(changed, &needles);
            for ((&i, needle), hits) in pending.iter().zip(&needles).zip(&folded_hits) {
                out[i] = Some(self.approximate_steps(changed, &self.citations[i], needle, hits));
            }
        }
        out.into_iter().flatten().collect()
    }

    /// Step 1: the text did not change.
    fn same_text(&self, c: &Citation, starts: Option<&[usize]>) -> Anchor {
        // Identical texts: the span's text is there if the citation is consistent with its
        // revision; one slice comparison checks it.
        let byte = match starts {
            None => (c.start <= self.new.len()).then_some(c.start),
            Some(starts) => starts.get(c.start).copied(),
        };
        let consistent = c.span_text.chars().count() == c.end.saturating_sub(c.start)
            && byte.is_some_and(|b| self.new[b..].starts_with(c.span_text));
        if consistent {
            self.found(
                Status::Intact,
                c.start,
                c.end,
                100.0,
                Method::SameText,
                None,
            )
        } else {
            self.lost(c, 0.0, inconsistent(c))
        }
    }

    /// Steps 2 and 3: content hash, exact search. `None` when neither answers.
    fn exact_steps(&self, ch: &Changed, i: usize, c: &Citation) -> Option<Anchor> {
        let span: Vec<char> = c.span_text.chars().collect();
        if span.is_empty() {
            return Some(self.lost(c, 0.0, "the citation's span is empty".into()));
        }
        if !ch.old.holds_at(c.start, &span) || c.end != c.start + span.len() {
            return Some(self.lost(c, 0.0, inconsistent(c)));
        }
        let len = span.len();
        let exact = |start: usize, method| {
            let status = if start == c.start {
                Status::Intact
            } else {
                Status::Moved
            };
            self.found(status, start, start + len, 100.0, method, None)
        };
        if let Some(start) = self.by_content_hash(ch, c, &span) {
            return Some(exact(start, Method::ContentHash));
        }
        let hits = &ch.span_hits[i];
        if !hits.is_empty() {
            let cands: Vec<(usize, usize)> = hits.iter().map(|&h| (h, h + len)).collect();
            return Some(match Self::rank(ch, c, &cands) {
                Pick::One(start) => exact(start, Method::Exact),
                Pick::Tie { best, count } => self.found(
                    Status::Degraded,
                    best,
                    best + len,
                    100.0,
                    Method::Exact,
                    Some(ambiguous(count)),
                ),
            });
        }
        // The quote elsewhere in the old text already (the model copied another passage) is a
        // look-alike, like any candidate made of other old text.
        let qlen = c.quote.chars().count();
        let cands: Vec<(usize, usize)> = ch.quote_hits[i]
            .iter()
            .map(|&h| (h, h + qlen))
            .filter(|&(a, b)| !ch.is_lookalike(a, b, c.start, c.start + len))
            .collect();
        if !cands.is_empty() {
            let (start, reason) = match Self::rank(ch, c, &cands) {
                Pick::One(s) => (s, QUOTE_ONLY.to_string()),
                Pick::Tie { best, count } => (best, format!("{}; {QUOTE_ONLY}", ambiguous(count))),
            };
            return Some(self.found(
                Status::Degraded,
                start,
                start + qlen,
                100.0,
                Method::Exact,
                Some(reason),
            ));
        }
        None
    }

    /// Step 2: the one new chunk with the old chunk's hash that holds the span at the same
    /// relative offset.
    fn by_content_hash(&self, ch: &Changed, c: &Citation, span: &[char]) -> Option<usize> {
        let relative = c.start.checked_sub(c.chunk_start)?;
        let mut verified = self
            .chunks_by_hash
            .get(c.chunk_content_hash)?
            .iter()
            .map(|&k| self.chunks[k].start + relative)
            .filter(|&start| ch.new.holds_at(start, span));
        let first = verified.next()?;
        verified.next().is_none().then_some(first)
    }

    /// Ranks candidate new spans of the citation by how much of the old text around the span
    /// surrounds each one: chars equal on both sides up to the first difference, plus chars of
    /// the surroundings that the diff carried from the old surroundings (robust to a nearby
    /// edit). Ties go to the one nearest the old position carried through the diff.
    fn rank(ch: &Changed, c: &Citation, cands: &[(usize, usize)]) -> Pick {
        if let [only] = cands {
            return Pick::One(only.0);
        }
        let reach = context_reach(c);
        let old_span = (c.start, c.start + c.span_text.chars().count());
        let mapped = ch.diff.map_point(c.start);
        let mut scored: Vec<(usize, usize, usize)> = cands
            .iter()
            .map(|&(a, b)| {
                let equal =
                    context_agreement(&ch.old.chars, old_span, &ch.new.chars, (a, b), reach);
                let carried = ch.diff.carried(
                    (a.saturating_sub(reach), a),
                    (old_span.0.saturating_sub(reach), old_span.0),
                ) + ch
                    .diff
                    .carried((b, b + reach), (old_span.1, old_span.1 + reach));
                (equal + carried, a.abs_diff(mapped), a)
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let (best, second) = (scored[0], scored[1]);
        if best.0 >= second.0 + CONTEXT_MARGIN {
            Pick::One(best.2)
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

    /// The new revision folded, with its text as a string and char positions of that string.
    fn new_folded<'c>(&self, ch: &'c Changed) -> &'c (Folded, String, CharText) {
        ch.new_folded.get_or_init(|| {
            let folded = fold(self.new);
            let text = folded.text();
            let chars = CharText::new(&text);
            (folded, text, chars)
        })
    }

    /// Step 4's search: folded starts of every pending folded span, one pass.
    fn folded_occurrences(&self, ch: &Changed, needles: &[Folded]) -> Vec<Vec<usize>> {
        let (_, text, chars) = self.new_folded(ch);
        let strings: Vec<String> = needles.iter().map(Folded::text).collect();
        let (patterns, ids) = dedup(strings.iter().map(String::as_str));
        let hits = occurrences(&patterns, text, chars);
        ids.iter()
            .map(|id| id.map_or_else(Vec::new, |i| hits[i].clone()))
            .collect()
    }

    /// Steps 4 to 7 for a citation the exact steps did not place.
    fn approximate_steps(
        &self,
        ch: &Changed,
        c: &Citation,
        needle: &Folded,
        folded_hits: &[usize],
    ) -> Anchor {
        let len = c.span_text.chars().count();
        let (own_start, own_end) = (c.start, c.start + len);
        let mapped = ch.diff.map_span(own_start, own_end);
        let survival = mapped.surviving as f64 / len as f64;
        let (new_folded, _, _) = self.new_folded(ch);
        let lookalike =
            |cand: &Candidate| ch.is_lookalike(cand.start, cand.end, own_start, own_end);

        // Step 4: folded exact.
        let folded_cands: Vec<Candidate> = folded_hits
            .iter()
            .map(|&a| {
                let (start, end) = new_folded.raw_span(a, a + needle.len());
                Candidate {
                    start,
                    end,
                    score: 100.0,
                }
            })
            .filter(|cand| !lookalike(cand))
            .collect();
        if !folded_cands.is_empty() {
            let spans: Vec<(usize, usize)> =
                folded_cands.iter().map(|k| (k.start, k.end)).collect();
            let (start, reason) = match Self::rank(ch, c, &spans) {
                Pick::One(a) => (a, TYPOGRAPHY.to_string()),
                Pick::Tie { best, count } => (best, format!("{}; {TYPOGRAPHY}", ambiguous(count))),
            };
            let end = spans.iter().find(|k| k.0 == start).map_or(start, |k| k.1);
            return self.found(
                Status::Degraded,
                start,
                end,
                100.0,
                Method::Folded,
                Some(reason),
            );
        }

        // Step 5: follow the diff.
        if survival >= FOLLOW_DIFF {
            if let Some(anchor) = self.follow_diff(ch, needle, &mapped, survival) {
                return anchor;
            }
        }

        // Step 6: fuzzy alignment.
        self.fuzzy(ch, c, needle, &mapped, survival, &lookalike)
    }

    /// Step 5: the region the span's surviving chars went to.
    fn follow_diff(
        &self,
        ch: &Changed,
        needle: &Folded,
        mapped: &Mapped,
        survival: f64,
    ) -> Option<Anchor> {
        let (a, b) = mapped.region?;
        let (a, b) = trim(&ch.new.chars, a, b)?;
        // However much was inserted, the span's own text is all there: cover it and say so.
        let inserted = (b - a).saturating_sub(mapped.surviving);
        let mut reason = format!(
            "edited: {:.0}% of the span's characters survive in the diff",
            survival * 100.0
        );
        if inserted > 0 {
            reason += &format!(
                "; the span now holds {}",
                crate::text::plural(inserted, "new character", "new characters")
            );
        }
        let now = fold(&ch.new.chars[a..b].iter().collect::<String>());
        if let Some(change) = meaning_change(&needle.chars, &now.chars) {
            reason += &format!("; {change}");
        }
        Some(self.found(
            Status::Degraded,
            a,
            b,
            survival * 100.0,
            Method::Diff,
            Some(reason),
        ))
    }

    /// Step 6: fuzzy alignment near the old position, then in the new text the diff did not map.
    fn fuzzy(
        &self,
        ch: &Changed,
        c: &Citation,
        needle: &Folded,
        mapped: &Mapped,
        survival: f64,
        lookalike: &dyn Fn(&Candidate) -> bool,
    ) -> Anchor {
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
        let (new_folded, _, _) = self.new_folded(ch);
        let hay = &new_folded.chars;
        let n = needle.len();
        let to_folded = |raw: usize| new_folded.back.partition_point(|&b| b < raw);
        let (near_a, near_b) = mapped.region.unwrap_or((mapped.point, mapped.point));
        let pad = n / 2 + 32;
        let near = (
            to_folded(near_a).saturating_sub(pad),
            (to_folded(near_b) + n + pad).min(hay.len()),
        );
        let mut windows = vec![near];
        for (a, b) in ch.diff.fresh_regions(ch.new.chars.len(), n) {
            let w = (
                to_folded(a).saturating_sub(n),
                (to_folded(b) + n).min(hay.len()),
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
            let meaning = meaning_change(&needle.chars, &hay[fa..fb]);
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
                let (start, reason) = match Self::rank(ch, c, &spans) {
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

    fn lost(&self, c: &Citation, score: f64, reason: String) -> Anchor {
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

    /// The chunk that contains `[start, end)` (the shortest such), else the one overlapping it
    /// most.
    fn chunk_holding(&self, start: usize, end: usize) -> Option<String> {
        let upto = self.chunks.partition_point(|c| c.start <= start);
        let containing = self.chunks[..upto]
            .iter()
            .rev()
            .take(CHUNK_LOOKBACK)
            .filter(|c| c.end >= end)
            .min_by_key(|c| c.end - c.start);
        if let Some(c) = containing {
            return Some(c.chunk_id.clone());
        }
        let from = upto.saturating_sub(CHUNK_LOOKBACK);
        self.chunks[from..]
            .iter()
            .take_while(|c| c.start < end)
            .map(|c| (c.end.min(end).saturating_sub(c.start.max(start)), c))
            .filter(|(overlap, _)| *overlap > 0)
            .max_by_key(|(overlap, _)| *overlap)
            .map(|(_, c)| c.chunk_id.clone())
    }
}

// Documents are independent: a sweep may spread them over threads.
const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<DocumentSweep<'static>>();
};

/// Chunks looked at before a span's start when finding its chunk (overlapping chunkers).
const CHUNK_LOOKBACK: usize = 8;

const QUOTE_ONLY: &str = "the model's quote occurs verbatim; the old span's text does not";
const TYPOGRAPHY: &str = "found after normalisation (typography or case changed)";

fn inconsistent(c: &Citation) -> String {
    format!(
        "citation {} is inconsistent: its span text is not the old revision's text at [{}, {})",
        c.id, c.start, c.end
    )
}

fn ambiguous(count: usize) -> String {
    format!("ambiguous: {count} places hold the text and the context does not tell them apart")
}

/// How far context ranking compares: the citation's stored context, at least 256 chars and at
/// most 4096 (the stored context was grown until it made the span unique in the old revision).
fn context_reach(c: &Citation) -> usize {
    let stored = c.prefix.chars().count().max(c.suffix.chars().count());
    stored.clamp(256, 4096)
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

/// Best window of `needle` in `hay` at or above the review cut-off, edges tightened:
/// `(start, end, score)` in `hay`'s coordinates.
fn align(needle: &[char], hay: &[char]) -> Option<(usize, usize, f64)> {
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

#[cfg(test)]
mod tests;
