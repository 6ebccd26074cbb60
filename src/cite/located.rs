//! Citing an evidence string that comes with an API's own location (Anthropic's character
//! offsets, page range, block range or search-result index, resolved to a stretch of our text).
//!
//! The location is a claim about our text, so it is checked, never trusted: the quote is looked
//! for inside the stretch it names (character offsets: around it, since the text sent may
//! differ a little from ours). Found there, exactly or accepted fuzzy → that position is the
//! citation (so of two identical sentences the one the API pointed at is stored, and a sentence
//! repeated on two pages is placed on the page the API named); the check says `agrees`, or for
//! offsets that are not exactly the span, `differs` with the span found. Found there more than
//! once (a page holding the sentence twice) → `ambiguous`, as without a location. Not found
//! there (or only as a review candidate), or the location names nothing we hold → the evidence
//! is cited exactly as without a location, the check says `differs` and the reason names the
//! location that disagreed.

use super::{
    cite_evidence, located, rejected, trim_span, Agreement, ApiLocation, ApiTarget, Context,
    Evidence, EvidenceResult, LocationCheck, Position, Verdict,
};
use crate::text::{Haystack, How, LocateHints, LocateOptions, Located};

fn check(location: &ApiLocation, agreement: Agreement, note: Option<String>) -> LocationCheck {
    LocationCheck {
        kind: location.kind.clone(),
        raw: location.raw.clone(),
        agreement,
        note,
    }
}

fn join_reason(first: Option<String>, second: Option<String>) -> Option<String> {
    match (first, second) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    }
}

/// Cites `ev` using `location` (see the module docs).
pub(super) fn cite_at_location(
    context: &Context,
    haystacks: &[Haystack<'_>],
    ev: &Evidence,
    location: &ApiLocation,
    options: &LocateOptions,
) -> EvidenceResult {
    let fallback = |why: String| -> EvidenceResult {
        let mut result = cite_evidence(context, haystacks, ev, options);
        result.reason = join_reason(Some(why.clone()), result.reason);
        result.location = Some(check(location, Agreement::Differs, Some(why)));
        result
    };
    let Some(target) = &location.target else {
        let problem = location
            .problem
            .clone()
            .unwrap_or_else(|| "it names no text of the context".into());
        return fallback(format!("the API's {}: {problem}", location.describe));
    };
    let Some(doc) = context
        .revisions
        .get(&(target.doc_id.clone(), target.revision))
    else {
        return fallback(format!(
            "the API's {} names {} r{}, which is not in the context",
            location.describe, target.doc_id, target.revision
        ));
    };
    let chars: Vec<char> = doc.chars().collect();
    let (a, b) = search_window(target, chars.len());
    let region: String = chars[a..b].iter().collect();
    // Offsets index the text as sent, which may differ a little from ours (typography, a
    // trimmed edge): the quote is looked for around them, the occurrence nearest the API's
    // start taken.
    let hints = LocateHints {
        near: Some(target.start.saturating_sub(a)),
        ..LocateHints::default()
    };
    let found = Haystack::new(&region).locate_hinted(&ev.quote, options, &hints);
    // Only an accepted match counts as the API's place: a review candidate there (a clipped
    // look-alike) is no better than what the context says without the location.
    let Some((hit, _)) = found.filter(|(hit, _)| hit.how != How::Review) else {
        return fallback(format!(
            "the API's {} does not hold the quote in our text",
            location.describe
        ));
    };
    if hit.occurrences > 1 && !target.exact {
        let why = format!(
            "the quote occurs {} times in the API's {}",
            hit.occurrences, location.describe
        );
        let mut result = rejected(ev, Verdict::Ambiguous, why.clone());
        result.location = Some(check(location, Agreement::Agrees, Some(why)));
        return result;
    }
    let Some((s, e)) = trim_span(&region, hit.start, hit.end) else {
        return fallback(format!(
            "the API's {} holds only whitespace of the quote",
            location.describe
        ));
    };
    let (doc_start, doc_end) = (a + s, a + e);
    let Some(chunk) = holding_chunk(context, target, doc_start, doc_end) else {
        return fallback(format!(
            "the API's {} is outside the context's chunks",
            location.describe
        ));
    };
    let within_one = {
        let c = &context.chunks[chunk];
        c.start <= doc_start && doc_end <= c.end
    };
    let crossed = if within_one {
        Vec::new()
    } else {
        crossed_chunks(context, target, doc_start, doc_end)
    };
    let chunk_start = context.chunks[chunk].start;
    let position = Position {
        chunk,
        located: Located {
            start: doc_start - chunk_start,
            end: doc_end - chunk_start,
            ..hit
        },
        doc_start,
        doc_end,
    };
    let mut result = located(context, ev, &position, None);
    if crossed.len() > 1 {
        let across = format!("the quote runs across chunks {}", crossed.join(", "));
        result.reason = join_reason(Some(across), result.reason);
    }
    let note = (target.exact && !same_place(&chars, target, doc_start, doc_end)).then(|| {
        format!(
            "the API's {} is not where our text holds the quote: found at [{doc_start}, {doc_end})",
            location.describe
        )
    });
    let agreement = if note.is_some() {
        Agreement::Differs
    } else {
        Agreement::Agrees
    };
    if let Some(note) = &note {
        result.reason = join_reason(Some(note.clone()), result.reason);
    }
    result.location = Some(check(location, agreement, note));
    result
}

/// Where to look for the quote: the target itself, or for character offsets the target
/// widened by a quarter of its length (at least 16 chars) each side.
fn search_window(target: &ApiTarget, len: usize) -> (usize, usize) {
    let (start, end) = (target.start.min(len), target.end.min(len));
    if !target.exact {
        return (start, end);
    }
    let slack = ((end - start) / 4).max(16);
    (start.saturating_sub(slack), (end + slack).min(len))
}

/// True when `[start, end)` is the target's span but for whitespace at its edges.
fn same_place(chars: &[char], target: &ApiTarget, start: usize, end: usize) -> bool {
    let (a, b) = (target.start.min(chars.len()), target.end.min(chars.len()));
    let text: String = chars[a..b].iter().collect();
    trim_span(&text, 0, b - a).map(|(s, e)| (a + s, a + e)) == Some((start, end))
}

/// The context chunk of the target's revision that holds `[start, end)`: one containing it
/// whole, else the one containing its start.
fn holding_chunk(context: &Context, target: &ApiTarget, start: usize, end: usize) -> Option<usize> {
    let of_revision = |i: &usize| {
        let c = &context.chunks[*i];
        c.doc_id == target.doc_id && c.revision == target.revision
    };
    let all: Vec<usize> = (0..context.chunks.len()).filter(of_revision).collect();
    all.iter()
        .copied()
        .find(|&i| context.chunks[i].start <= start && end <= context.chunks[i].end)
        .or_else(|| {
            all.iter()
                .copied()
                .find(|&i| context.chunks[i].start <= start && start < context.chunks[i].end)
        })
}

/// Ids of the context chunks of the target's revision that `[start, end)` overlaps, in order.
fn crossed_chunks(context: &Context, target: &ApiTarget, start: usize, end: usize) -> Vec<String> {
    let mut hit: Vec<&super::ContextChunk> = context
        .chunks
        .iter()
        .filter(|c| c.doc_id == target.doc_id && c.revision == target.revision)
        .filter(|c| c.start < end && start < c.end)
        .collect();
    hit.sort_by_key(|c| (c.start, c.end));
    hit.dedup_by_key(|c| (c.start, c.end));
    hit.into_iter().map(|c| c.chunk_id.clone()).collect()
}
