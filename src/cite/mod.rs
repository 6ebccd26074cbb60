//! Citing a model's answer against a retrieval context (seeds 000 and 001).
//!
//! For every evidence string, in this order:
//! 1. an id that is neither a label nor a chunk id of the context → `unknown-chunk`;
//! 2. the quote is located in the named chunk (text core, meaning guard on); an exact quote that
//!    occurs more than once there → `ambiguous` (which one was meant is unknowable);
//! 3. otherwise — or when the named chunk only offers a `review` candidate — every other chunk of
//!    the context is tried: exactly one *document position* holding the quote (`exact` or
//!    `fuzzy`) → `repaired`, keeping both chunk ids; overlapping chunks that hold the same
//!    occurrence are one position; two or more positions → `ambiguous`; then, before giving up,
//!    contiguous chunks of one revision are joined (a quote may run across a chunk boundary);
//!    none, and no candidate at or above the review cut-off anywhere → `fabricated`.
//!
//! Invariants: a stored span is in document (revision) coordinates (chunk start + local offset),
//! never starts or ends with whitespace, and carries prefix/suffix context of at least
//! [`MIN_CONTEXT`] chars each, grown until quote plus context occurs once in the revision (or the
//! document's edges are reached). Claims without evidence are `uncited`, never dropped.

pub mod answer;
pub mod anthropic;
pub mod labels;
mod located;
pub mod prompt;
pub mod proposal;
pub mod providers;
pub mod record;
pub mod schema;
mod unquoted;
pub mod wrapped;

pub use crate::model::citation::{
    Agreement, Answer, AnswerSpan, ApiLocation, ApiTarget, Claim, ClaimResult, Context,
    ContextChunk, Evidence, EvidenceResult, ExternalCitation, LocationCheck, Proposal, Span,
    Verdict,
};
use crate::model::SourceRef;
use crate::text::{Haystack, How, LocateOptions, Located};

/// Fewest context chars kept on each side of a span.
pub const MIN_CONTEXT: usize = 32;

/// A candidate position of the quote in document coordinates.
#[derive(Debug, Clone)]
struct Position {
    chunk: usize,
    located: Located,
    doc_start: usize,
    doc_end: usize,
}

impl Position {
    fn overlaps(&self, other: &Position, context: &Context) -> bool {
        let (a, b) = (&context.chunks[self.chunk], &context.chunks[other.chunk]);
        a.doc_id == b.doc_id
            && a.revision == b.revision
            && self.doc_start < other.doc_end
            && other.doc_start < self.doc_end
    }
}

/// Cites every claim of `answer` against `context` (pure: nothing is stored; see
/// [`record::cite_and_record`] for the stored workflow behind `citestore cite`).
///
/// ```
/// use citestore::cite::{answer::parse_answer, cite, Context, ContextChunk, Verdict};
/// use citestore::text::{content_hash, LocateOptions, NORMALISER_VERSION};
///
/// let text = "Growth \u{2014} included 500,000 calls / mo; overage $0.12 per 1,000 calls";
/// let chunk = ContextChunk {
///     label: "k7q2".into(),
///     chunk_id: "rate-card.md@r1#0-70".into(),
///     doc_id: "rate-card.md".into(),
///     revision: 1,
///     content_hash: content_hash(text),
///     normaliser: NORMALISER_VERSION.into(),
///     start: 0,
///     end: text.chars().count(),
///     text: text.into(),
///     caller_id: None,
/// };
/// let context = Context { id: "ctx-1".into(), chunks: vec![chunk], ..Context::default() };
/// let answer = parse_answer(r#"{"claims": [
///     {"text": "Growth overage is $0.12 per 1,000 calls.",
///      "evidence": [{"chunk_id": "k7q2", "quote": "overage $0.12 per 1,000 calls"}]},
///     {"text": "Growth is the cheapest plan at 800k calls.", "evidence": []}]}"#).unwrap();
/// let results = cite(&context, &answer, &LocateOptions::default());
/// let evidence = &results[0].evidence[0];
/// assert_eq!(evidence.verdict, Verdict::Exact);
/// let source = &evidence.span.as_ref().unwrap().source; // the SourceRef
/// assert_eq!((source.doc_id.as_str(), source.start, source.end), ("rate-card.md", 38, 67));
/// assert!(results[1].uncited);
/// ```
pub fn cite(context: &Context, answer: &Answer, options: &LocateOptions) -> Vec<ClaimResult> {
    cite_located(context, answer, &[], options)
}

/// [`cite`], where some evidence strings come with a location an API gave
/// (`locations[claim][evidence]`; a missing entry means none): the location is checked against
/// our text and chooses among identical occurrences; when our text disagrees, the evidence is
/// cited as without it and the reason says so. Each result carries the [`LocationCheck`].
pub fn cite_located(
    context: &Context,
    answer: &Answer,
    locations: &[Vec<Option<ApiLocation>>],
    options: &LocateOptions,
) -> Vec<ClaimResult> {
    let haystacks: Vec<Haystack<'_>> = context
        .chunks
        .iter()
        .map(|c| Haystack::new(&c.text))
        .collect();
    answer
        .claims
        .iter()
        .enumerate()
        .map(|(ci, claim)| ClaimResult {
            text: claim.text.clone(),
            uncited: claim.evidence.is_empty(),
            evidence: claim
                .evidence
                .iter()
                .enumerate()
                .map(|(ei, ev)| {
                    let location = locations
                        .get(ci)
                        .and_then(|l| l.get(ei))
                        .and_then(Option::as_ref);
                    match location {
                        _ if ev.unquoted => unquoted::cite_unquoted(context, ev, &claim.text),
                        Some(location) => {
                            located::cite_at_location(context, &haystacks, ev, location, options)
                        }
                        None => cite_evidence(context, &haystacks, ev, options),
                    }
                })
                .collect(),
            external: Vec::new(),
            answer_span: claim.answer_span,
        })
        .collect()
}

fn rejected(ev: &Evidence, verdict: Verdict, reason: String) -> EvidenceResult {
    EvidenceResult {
        given_chunk_id: ev.chunk_id.clone(),
        quote: ev.quote.clone(),
        verdict,
        span: None,
        reason: Some(reason),
        location: None,
        proposal: None,
    }
}

fn cite_evidence(
    context: &Context,
    haystacks: &[Haystack<'_>],
    ev: &Evidence,
    options: &LocateOptions,
) -> EvidenceResult {
    let Some(named) = context.resolve(&ev.chunk_id) else {
        let reason = format!(
            "chunk id {:?} is not in context {}",
            ev.chunk_id, context.id
        );
        return rejected(ev, Verdict::UnknownChunk, reason);
    };
    let in_named = position_in(context, haystacks, named, &ev.quote, options);
    if let Some(p) = &in_named {
        if p.located.occurrences > 1 {
            let reason = format!(
                "the quote occurs {} times in chunk {}",
                p.located.occurrences, context.chunks[named].chunk_id
            );
            return rejected(ev, Verdict::Ambiguous, reason);
        }
        if p.located.how != How::Review {
            return located(context, ev, p, None);
        }
    }
    let (strong, weak) = elsewhere(context, haystacks, named, &ev.quote, options);
    let named_id = context.chunks[named].chunk_id.clone();
    match (strong.as_slice(), in_named) {
        ([only], _) => located(context, ev, only, Some(named_id)),
        (_, Some(review)) => better_across(context, ev, named, options)
            .unwrap_or_else(|| located(context, ev, &review, None)),
        ([], None) => match weak.as_slice() {
            [] => across_chunks(context, ev, named, options),
            [only] => better_across(context, ev, named, options)
                .unwrap_or_else(|| located(context, ev, only, Some(named_id))),
            many => ambiguous(context, ev, many),
        },
        (many, None) => ambiguous(context, ev, many),
    }
}

/// A quote that holds a whole chunk and runs on into the next one only offers a `review`
/// candidate in any single chunk (the span cut at the chunk's end, the length ratio low); the
/// joined text holds all of it. An accepted (not review) position across chunks wins over a
/// review candidate inside one.
fn better_across(
    context: &Context,
    ev: &Evidence,
    named: usize,
    options: &LocateOptions,
) -> Option<EvidenceResult> {
    let across = across_chunks(context, ev, named, options);
    (across.span.is_some() && across.verdict != Verdict::Review).then_some(across)
}

/// Last resort before `fabricated`: the quote may run across the boundary of adjacent chunks
/// of one revision (a model quoting two paragraphs the chunker split). Contiguous context chunks
/// are joined and searched; exactly one position → located (repaired when it starts outside the
/// named chunk), several → ambiguous, none → fabricated.
fn across_chunks(
    context: &Context,
    ev: &Evidence,
    named: usize,
    options: &LocateOptions,
) -> EvidenceResult {
    let mut found: Vec<Position> = Vec::new();
    for region in joined_regions(context) {
        let hay = Haystack::new(&region.text);
        let Some(hit) = hay.locate(&ev.quote, options) else {
            continue;
        };
        let Some((start, end)) = trim_span(&region.text, hit.start, hit.end) else {
            continue;
        };
        let (doc_start, doc_end) = (region.start + start, region.start + end);
        let chunk = region
            .chunks
            .iter()
            .copied()
            .find(|&i| context.chunks[i].start <= doc_start && doc_start < context.chunks[i].end)
            .unwrap_or(region.chunks[0]);
        let crossed: Vec<&str> = region
            .chunks
            .iter()
            .map(|&i| &context.chunks[i])
            .filter(|c| c.start < doc_end && doc_start < c.end)
            .map(|c| c.chunk_id.as_str())
            .collect();
        let chunk_start = context.chunks[chunk].start;
        let reason = format!("the quote runs across chunks {}", crossed.join(", "));
        let repeats = hit.occurrences.max(1);
        for _ in 0..repeats {
            found.push(Position {
                chunk,
                located: Located {
                    start: doc_start - chunk_start,
                    end: doc_end - chunk_start,
                    reason: Some(match &hit.reason {
                        Some(r) => format!("{reason}; {r}"),
                        None => reason.clone(),
                    }),
                    ..hit.clone()
                },
                doc_start,
                doc_end,
            });
        }
    }
    match found.as_slice() {
        [] => rejected(
            ev,
            Verdict::Fabricated,
            "no chunk of the context holds the quote, not even as a review candidate".into(),
        ),
        [only] => {
            let from = (only.chunk != named).then(|| context.chunks[named].chunk_id.clone());
            located(context, ev, only, from)
        }
        many => ambiguous(context, ev, many),
    }
}

/// A stretch of one revision covered by two or more contiguous (touching or overlapping)
/// context chunks.
struct Region {
    start: usize,
    text: String,
    chunks: Vec<usize>,
}

fn joined_regions(context: &Context) -> Vec<Region> {
    let mut order: Vec<usize> = (0..context.chunks.len()).collect();
    order.sort_by_key(|&i| {
        let c = &context.chunks[i];
        (c.doc_id.clone(), c.revision, c.start)
    });
    let mut groups: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    for i in order {
        let c = &context.chunks[i];
        match groups.last_mut() {
            Some((_, end, members))
                if {
                    let first = &context.chunks[members[0]];
                    first.doc_id == c.doc_id && first.revision == c.revision && c.start <= *end
                } =>
            {
                *end = (*end).max(c.end);
                members.push(i);
            }
            _ => groups.push((c.start, c.end, vec![i])),
        }
    }
    groups
        .into_iter()
        .filter(|(_, _, members)| members.len() > 1)
        .filter_map(|(start, end, members)| {
            let first = &context.chunks[members[0]];
            let doc = context
                .revisions
                .get(&(first.doc_id.clone(), first.revision))?;
            let text = doc.chars().skip(start).take(end - start).collect();
            Some(Region {
                start,
                text,
                chunks: members,
            })
        })
        .collect()
}

fn ambiguous(context: &Context, ev: &Evidence, positions: &[Position]) -> EvidenceResult {
    let ids: Vec<&str> = positions
        .iter()
        .map(|p| context.chunks[p.chunk].chunk_id.as_str())
        .collect();
    let reason = format!(
        "not in the named chunk, and {} other positions hold it ({})",
        positions.len(),
        ids.join(", ")
    );
    rejected(ev, Verdict::Ambiguous, reason)
}

/// The quote's position in chunk `index`, trimmed, in document coordinates.
fn position_in(
    context: &Context,
    haystacks: &[Haystack<'_>],
    index: usize,
    quote: &str,
    options: &LocateOptions,
) -> Option<Position> {
    let located = haystacks[index].locate(quote, options)?;
    let (start, end) = trim_span(&context.chunks[index].text, located.start, located.end)?;
    let chunk_start = context.chunks[index].start;
    Some(Position {
        chunk: index,
        located: Located {
            start,
            end,
            ..located
        },
        doc_start: chunk_start + start,
        doc_end: chunk_start + end,
    })
}

/// Positions in the other chunks: (accepted ones, review-only ones), overlapping duplicates
/// from overlapping chunks merged. An exact quote repeated inside one chunk counts twice.
fn elsewhere(
    context: &Context,
    haystacks: &[Haystack<'_>],
    named: usize,
    quote: &str,
    options: &LocateOptions,
) -> (Vec<Position>, Vec<Position>) {
    let mut strong: Vec<Position> = Vec::new();
    let mut weak: Vec<Position> = Vec::new();
    for index in (0..context.chunks.len()).filter(|&i| i != named) {
        let Some(p) = position_in(context, haystacks, index, quote, options) else {
            continue;
        };
        let bucket = if p.located.how == How::Review {
            &mut weak
        } else {
            &mut strong
        };
        if bucket.iter().any(|q| q.overlaps(&p, context)) {
            continue;
        }
        let repeats = p.located.occurrences.max(1);
        for _ in 0..repeats {
            bucket.push(p.clone());
        }
    }
    (strong, weak)
}

fn located(
    context: &Context,
    ev: &Evidence,
    p: &Position,
    repaired_from: Option<String>,
) -> EvidenceResult {
    let chunk = &context.chunks[p.chunk];
    let verdict = match (&repaired_from, p.located.how) {
        (Some(_), How::Review) | (None, How::Review) => Verdict::Review,
        (Some(_), _) => Verdict::Repaired,
        (None, How::Exact) => Verdict::Exact,
        (None, How::Folded | How::Fuzzy) => Verdict::Fuzzy,
    };
    let revision_text = context
        .revisions
        .get(&(chunk.doc_id.clone(), chunk.revision))
        .map(String::as_str);
    let (prefix, text, suffix) = match revision_text {
        Some(doc) => unique_context(doc, p.doc_start, p.doc_end),
        // Without the revision, context comes from the chunk alone.
        None => unique_context(&chunk.text, p.located.start, p.located.end),
    };
    let reason = match (&repaired_from, p.located.reason.clone()) {
        (Some(from), r) => Some(
            format!("quote not in {from}; found in {}", chunk.chunk_id)
                + &r.map(|r| format!("; {r}")).unwrap_or_default(),
        ),
        (None, r) => r,
    };
    EvidenceResult {
        given_chunk_id: ev.chunk_id.clone(),
        quote: ev.quote.clone(),
        verdict,
        span: Some(Span {
            source: SourceRef {
                doc_id: chunk.doc_id.clone(),
                content_hash: chunk.content_hash.clone(),
                start: p.doc_start,
                end: p.doc_end,
                revision: chunk.revision,
            },
            normaliser: chunk.normaliser.clone(),
            chunk_id: chunk.chunk_id.clone(),
            how: p.located.how,
            score: p.located.score,
            text,
            prefix,
            suffix,
            repaired_from,
        }),
        reason,
        location: None,
        proposal: None,
    }
}

/// Shrinks `[start, end)` of `text` to its non-whitespace edges; `None` if nothing is left.
pub fn trim_span(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let span: Vec<char> = text.chars().skip(start).take(end - start).collect();
    let lead = span.iter().take_while(|c| c.is_whitespace()).count();
    if lead == span.len() {
        return None;
    }
    let trail = span.iter().rev().take_while(|c| c.is_whitespace()).count();
    Some((start + lead, end - trail))
}

/// `(prefix, span, suffix)` of `text` around `[start, end)`: at least [`MIN_CONTEXT`] chars each
/// side, doubled until prefix + span + suffix occurs once in `text` or both edges are reached.
pub fn unique_context(text: &str, start: usize, end: usize) -> (String, String, String) {
    unique_context_at(&CharBytes::new(text), start, end)
}

/// [`unique_context`] for a caller holding a text's char boundaries: many spans of one text
/// without walking it each time; each candidate context is a slice of the text, so growing it
/// allocates nothing.
pub fn unique_context_at(
    bytes: &CharBytes<'_>,
    start: usize,
    end: usize,
) -> (String, String, String) {
    let (text, chars) = (bytes.text, bytes.chars);
    let slice = |a: usize, b: usize| &text[bytes.byte(a)..bytes.byte(b)];
    let mut width = MIN_CONTEXT;
    loop {
        let from = start.saturating_sub(width);
        let to = (end + width).min(chars);
        if (from == 0 && to == chars) || occurs_once(text, slice(from, to)) {
            return (
                slice(from, start).to_string(),
                slice(start, end).to_string(),
                slice(end, to).to_string(),
            );
        }
        width *= 2;
    }
}

/// Chars between two byte offsets [`CharBytes`] keeps.
const CHAR_BYTES_STRIDE: usize = 64;

/// Where each char of a text starts, in bytes, without a number per char: nothing for ASCII
/// (a char is a byte), else the byte offset of every `CHAR_BYTES_STRIDE`th char, the chars
/// after it walked. The sweep held a `usize` per char of both revisions of a document (16
/// bytes a char, 144 MB of a 9 MB document's 631 MB peak: issue 22).
#[derive(Debug)]
pub struct CharBytes<'t> {
    text: &'t str,
    chars: usize,
    /// Byte offset of char `k * CHAR_BYTES_STRIDE`, for each `k`; empty for ASCII.
    every: Vec<usize>,
}

impl<'t> CharBytes<'t> {
    /// One walk over `text`.
    pub fn new(text: &'t str) -> Self {
        if text.is_ascii() {
            return CharBytes {
                text,
                chars: text.len(),
                every: Vec::new(),
            };
        }
        let mut every = Vec::new();
        let mut chars = 0;
        for (i, (b, _)) in text.char_indices().enumerate() {
            if i % CHAR_BYTES_STRIDE == 0 {
                every.push(b);
            }
            chars = i + 1;
        }
        CharBytes { text, chars, every }
    }

    /// The text's length in chars.
    pub fn chars(&self) -> usize {
        self.chars
    }

    /// The byte offset of char `i` (`text.len()` for `i` = [`Self::chars`]).
    pub fn byte(&self, i: usize) -> usize {
        if self.every.is_empty() {
            return i;
        }
        if i == self.chars {
            return self.text.len();
        }
        let from = self.every[i / CHAR_BYTES_STRIDE];
        self.text[from..]
            .char_indices()
            .nth(i % CHAR_BYTES_STRIDE)
            .map_or(self.text.len(), |(b, _)| from + b)
    }

    /// The text of chars `[a, b)`.
    pub fn slice(&self, a: usize, b: usize) -> &'t str {
        &self.text[self.byte(a)..self.byte(b)]
    }
}

/// True when `needle` occurs exactly once in `text` (overlapping occurrences count). Byte
/// search finds the same places as a char search: UTF-8 needles only match on char boundaries.
fn occurs_once(text: &str, needle: &str) -> bool {
    let Some(search) = crate::text::find::Needle::new(needle.as_bytes()) else {
        // The empty needle is everywhere: once only in an empty text.
        return text.is_empty();
    };
    match search.find(text.as_bytes(), 0) {
        None => false,
        Some(first) => {
            let next = first + needle.chars().next().map_or(1, char::len_utf8);
            search.find(text.as_bytes(), next).is_none()
        }
    }
}

/// Counts of results by verdict, plus uncited claims and external (web) citations.
pub fn summary(results: &[ClaimResult]) -> std::collections::BTreeMap<String, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for claim in results {
        if claim.uncited {
            *counts.entry("uncited".to_string()).or_insert(0) += 1;
        }
        for ev in &claim.evidence {
            *counts.entry(ev.verdict.as_str().to_string()).or_insert(0) += 1;
        }
        if !claim.external.is_empty() {
            *counts.entry("external".to_string()).or_insert(0) += claim.external.len();
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::answer::{parse_answer, Claim};
    use super::*;
    use crate::text::{content_hash, NORMALISER_VERSION};
    use std::collections::HashMap;

    const CARD: &str = include_str!("../../fixtures/cite/docs/rate-card.md");
    const PLANS: &str = include_str!("../../fixtures/cite/docs/plans.md");

    /// Paragraph chunks of each document (blank-line separated), plus one chunk that overlaps
    /// the last two paragraphs of the rate card, as a windowed chunker would make.
    fn context() -> Context {
        let mut chunks = Vec::new();
        let mut revisions = HashMap::new();
        for (doc_id, text) in [("rate-card.md", CARD), ("plans.md", PLANS)] {
            revisions.insert((doc_id.to_string(), 1), text.to_string());
            let chars: Vec<char> = text.chars().collect();
            let mut start = 0;
            let mut push = |start: usize, end: usize| {
                let chunk_text: String = chars[start..end].iter().collect();
                chunks.push(ContextChunk {
                    label: String::new(),
                    chunk_id: format!("{doc_id}@r1#{start}-{end}"),
                    doc_id: doc_id.to_string(),
                    revision: 1,
                    content_hash: content_hash(&chunk_text),
                    normaliser: NORMALISER_VERSION.into(),
                    start,
                    end,
                    text: chunk_text,
                    caller_id: None,
                });
            };
            for (i, w) in chars.windows(2).enumerate() {
                if w == ['\n', '\n'] {
                    push(start, i + 1);
                    start = i + 2;
                }
            }
            push(start, chars.len());
        }
        let overlap_start = chunks
            .iter()
            .find(|c| c.text.starts_with("Enterprise pricing"))
            .unwrap()
            .start;
        let card_len = CARD.chars().count();
        let text: String = CARD.chars().skip(overlap_start).collect();
        chunks.push(ContextChunk {
            label: String::new(),
            chunk_id: format!("rate-card.md@r1#{overlap_start}-{card_len}"),
            doc_id: "rate-card.md".into(),
            revision: 1,
            content_hash: content_hash(&text),
            normaliser: NORMALISER_VERSION.into(),
            start: overlap_start,
            end: card_len,
            text,
            caller_id: None,
        });
        let ids: Vec<String> = chunks.iter().map(|c| c.chunk_id.clone()).collect();
        for (chunk, label) in chunks.iter_mut().zip(labels::assign("ctx", &ids)) {
            chunk.label = label;
        }
        Context {
            id: "ctx".into(),
            chunks,
            revisions,
        }
    }

    fn label_of(context: &Context, starts_with: &str) -> String {
        context
            .chunks
            .iter()
            .find(|c| c.text.starts_with(starts_with))
            .unwrap_or_else(|| panic!("no chunk starts with {starts_with:?}"))
            .label
            .clone()
    }

    #[test]
    fn verdicts_for_the_seed_trace() {
        let ctx = context();
        let growth = label_of(&ctx, "Growth");
        let enterprise = label_of(&ctx, "Enterprise pricing");
        let seats = label_of(&ctx, "Starter includes");
        let plans_heading = label_of(&ctx, "## Plans");
        // (chunk label, quote, verdict, stored span text)
        let cases: Vec<(String, &str, Verdict, Option<&str>)> = vec![
            (
                growth.clone(),
                "overage $0.12 per 1,000 calls",
                Verdict::Exact,
                Some("overage $0.12 per 1,000 calls"),
            ),
            (
                growth.clone(),
                "Growth \u{2013} included 500,000 calls/mo; overage $0.12 per 1,000 calls",
                Verdict::Fuzzy,
                Some("Growth \u{2014} included 500,000 calls / mo; overage $0.12 per 1,000 calls"),
            ),
            (
                enterprise.clone(),
                "Enterprise pricing is available upon request from your account manager",
                Verdict::Review,
                Some(
                    "Enterprise pricing is available on request through your ac\u{ad}count manager",
                ),
            ),
            (
                growth.clone(),
                "Growth includes a four-hour first-response SLA",
                Verdict::Fabricated,
                None,
            ),
            (
                growth.clone(),
                "Enterprise includes unlimited seats",
                Verdict::Repaired,
                Some("Enterprise includes unlimited seats"),
            ),
            (
                seats.clone(),
                "All plans include e-mail support during business hours.",
                Verdict::Ambiguous,
                None,
            ),
            (
                plans_heading,
                "Enterprise adds a named engineer",
                Verdict::Repaired,
                Some("Enterprise adds a named engineer"),
            ),
            (
                "zzzz".into(),
                "overage $0.12 per 1,000 calls",
                Verdict::UnknownChunk,
                None,
            ),
        ];
        let answer = Answer {
            text: None,
            claims: cases
                .iter()
                .map(|(label, quote, _, _)| Claim {
                    answer_span: None,
                    text: format!("claim for {quote}"),
                    evidence: vec![Evidence {
                        unquoted: false,
                        chunk_id: label.clone(),
                        quote: quote.to_string(),
                    }],
                })
                .collect(),
        };
        let results = cite(&ctx, &answer, &LocateOptions::default());
        for ((_, quote, verdict, text), result) in cases.iter().zip(&results) {
            let ev = &result.evidence[0];
            assert_eq!(ev.verdict, *verdict, "{quote:?}: {:?}", ev.reason);
            assert_eq!(
                ev.span.as_ref().map(|s| s.text.as_str()),
                *text,
                "{quote:?}"
            );
            if let Some(span) = &ev.span {
                let doc = &ctx.revisions[&(span.source.doc_id.clone(), 1)];
                let at: String = doc
                    .chars()
                    .skip(span.source.start)
                    .take(span.source.end - span.source.start)
                    .collect();
                assert_eq!(&at, &span.text, "document coordinates");
                assert!(span.prefix.chars().count() >= MIN_CONTEXT.min(span.source.start));
                let whole = format!("{}{}{}", span.prefix, span.text, span.suffix);
                assert_eq!(
                    doc.matches(&whole).count(),
                    1,
                    "context makes the span unique"
                );
            }
        }
        let repaired = results[4].evidence[0].span.as_ref().unwrap();
        assert!(repaired
            .repaired_from
            .as_deref()
            .unwrap()
            .starts_with("rate-card.md@r1#"));
        assert!(repaired.chunk_id.starts_with("plans.md@r1#"));
    }

    /// `d.md` as two chunks, `aaaa` = its first paragraph (and the blank line), `bbbb` = the
    /// second.
    fn two_paragraph_context() -> Context {
        let doc = "Alpha one two three.\n\nBeta four five six.\n";
        let chunk = |label: &str, start: usize, end: usize| {
            let text: String = doc.chars().skip(start).take(end - start).collect();
            ContextChunk {
                label: label.into(),
                chunk_id: format!("d.md@r1#{start}-{end}"),
                doc_id: "d.md".into(),
                revision: 1,
                content_hash: content_hash(&text),
                normaliser: NORMALISER_VERSION.into(),
                start,
                end,
                text,
                caller_id: None,
            }
        };
        Context {
            id: "ctx".into(),
            chunks: vec![chunk("aaaa", 0, 22), chunk("bbbb", 22, 42)],
            revisions: HashMap::from([(("d.md".to_string(), 1), doc.to_string())]),
        }
    }

    #[test]
    fn a_quote_across_a_chunk_boundary_is_found_not_fabricated() {
        let context = two_paragraph_context();
        // (named chunk, verdict, repaired from)
        let cases = [
            ("aaaa", Verdict::Exact, None),
            ("bbbb", Verdict::Repaired, Some("d.md@r1#22-42")),
        ];
        for (label, verdict, from) in cases {
            let answer = Answer {
                text: None,
                claims: vec![Claim {
                    answer_span: None,
                    text: "t".into(),
                    evidence: vec![Evidence {
                        unquoted: false,
                        chunk_id: label.into(),
                        quote: "two three.\n\nBeta four".into(),
                    }],
                }],
            };
            let ev = &cite(&context, &answer, &LocateOptions::default())[0].evidence[0];
            assert_eq!(ev.verdict, verdict, "{label}: {:?}", ev.reason);
            let span = ev.span.as_ref().unwrap();
            assert_eq!((span.source.start, span.source.end), (10, 31));
            assert_eq!(span.repaired_from.as_deref(), from);
            assert!(ev.reason.as_deref().unwrap().contains("runs across chunks"));
        }
    }

    #[test]
    fn a_quote_holding_a_whole_chunk_and_running_on_is_found_whole() {
        let context = two_paragraph_context();
        let answer = Answer {
            text: None,
            claims: vec![Claim {
                answer_span: None,
                text: "t".into(),
                evidence: vec![Evidence {
                    unquoted: false,
                    chunk_id: "aaaa".into(),
                    quote: "Alpha one two three.\n\nBeta four".into(),
                }],
            }],
        };
        let ev = &cite(&context, &answer, &LocateOptions::default())[0].evidence[0];
        assert_eq!(ev.verdict, Verdict::Exact, "{:?}", ev.reason);
        let span = ev.span.as_ref().unwrap();
        assert_eq!((span.source.start, span.source.end), (0, 31));
    }

    #[test]
    fn empty_evidence_is_uncited_and_counted() {
        let answer = parse_answer(
            r#"{"claims": [{"text": "Growth is cheapest at 800k calls", "evidence": []}]}"#,
        )
        .unwrap();
        let results = cite(&context(), &answer, &LocateOptions::default());
        assert!(results[0].uncited);
        assert_eq!(summary(&results).get("uncited"), Some(&1));
    }

    #[test]
    fn spans_are_trimmed_and_context_grows_until_unique() {
        assert_eq!(trim_span("  ab c \n", 0, 8), Some((2, 6)));
        assert_eq!(trim_span(" \n ", 0, 3), None);
        let text = format!("{}needle{}", "x".repeat(100), "x".repeat(100));
        let (prefix, span, suffix) = unique_context(&text, 100, 106);
        assert_eq!(span, "needle");
        assert_eq!((prefix.len(), suffix.len()), (MIN_CONTEXT, MIN_CONTEXT));
        let repeated = "ab ".repeat(50);
        let (prefix, _, suffix) = unique_context(&repeated, 75, 77);
        assert_eq!(
            (prefix.len(), suffix.len()),
            (75, 73),
            "grown to both edges"
        );
    }

    /// The rule written over chars, building each candidate context: the reference the
    /// byte-offset version is checked against.
    fn unique_context_in(
        text: &str,
        chars: &[char],
        start: usize,
        end: usize,
    ) -> (String, String, String) {
        let span: String = chars[start..end].iter().collect();
        let mut width = MIN_CONTEXT;
        loop {
            let from = start.saturating_sub(width);
            let to = (end + width).min(chars.len());
            let prefix: String = chars[from..start].iter().collect();
            let suffix: String = chars[end..to].iter().collect();
            let whole = format!("{prefix}{span}{suffix}");
            if (from == 0 && to == chars.len()) || occurs_once(text, &whole) {
                return (prefix, span, suffix);
            }
            width *= 2;
        }
    }

    #[test]
    fn char_bytes_are_the_char_boundaries_at_every_length() {
        for len in [0, 1, 63, 64, 65, 128, 200] {
            let text: String = (0..len).map(|i| ['a', 'é', '—', '😀'][i % 4]).collect();
            let bytes = CharBytes::new(&text);
            let want: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
            assert_eq!(bytes.chars(), len);
            for (i, &b) in want.iter().enumerate() {
                assert_eq!(bytes.byte(i), b, "char {i} of {len}");
            }
            assert_eq!(bytes.byte(len), text.len(), "the end of {len}");
        }
    }

    #[test]
    fn context_by_byte_offsets_is_context_by_chars() {
        // Repeats (context must grow), multi-byte chars (offsets are chars), both edges.
        let texts = [
            "ab ".repeat(40),
            format!("caf\u{e9} \u{2014} {}", "caf\u{e9} na\u{ef}ve ".repeat(12)),
            format!("{}x{}", "\u{1F600}".repeat(70), "\u{1F600}".repeat(70)),
        ];
        for text in &texts {
            let chars: Vec<char> = text.chars().collect();
            let bytes = CharBytes::new(text);
            for start in (0..chars.len()).step_by(7) {
                for end in (start..=chars.len()).step_by(11) {
                    assert_eq!(
                        unique_context_at(&bytes, start, end),
                        unique_context_in(text, &chars, start, end),
                        "[{start}, {end}) of {text:?}"
                    );
                }
            }
        }
    }
}
