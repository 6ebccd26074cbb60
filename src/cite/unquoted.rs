//! Evidence a provider gave no quote for: the chunk it named, whole, as a `review` citation,
//! with the sentence that best matches the claim proposed beside it
//! ([`super::proposal::propose`]).
//!
//! Invariants: such evidence is never `exact`, `fuzzy` or `repaired` (nothing was quoted, so
//! nothing was found); its span is the named chunk trimmed of whitespace; a name the context
//! does not hold is `unknown-chunk`, as for a quote.

use super::proposal::propose;
use super::{
    rejected, trim_span, unique_context, Context, Evidence, EvidenceResult, Span, Verdict,
};
use crate::model::SourceRef;
use crate::text::How;

/// What every such evidence's reason starts with.
pub(super) const NO_QUOTE: &str = "the provider gave no quote";

pub(super) fn cite_unquoted(context: &Context, ev: &Evidence, claim: &str) -> EvidenceResult {
    let Some(named) = context.resolve(&ev.chunk_id) else {
        let reason = format!(
            "{NO_QUOTE}, and its source {:?} is not a chunk of context {}",
            ev.chunk_id, context.id
        );
        return rejected(ev, Verdict::UnknownChunk, reason);
    };
    let chunk = &context.chunks[named];
    let chars = chunk.end - chunk.start;
    let Some((start, end)) = trim_span(&chunk.text, 0, chars) else {
        let reason = format!("{NO_QUOTE}, and chunk {} is blank", chunk.chunk_id);
        return rejected(ev, Verdict::Fabricated, reason);
    };
    let (doc_start, doc_end) = (chunk.start + start, chunk.start + end);
    let revision_text = context
        .revisions
        .get(&(chunk.doc_id.clone(), chunk.revision))
        .map(String::as_str);
    let (prefix, text, suffix) = match revision_text {
        Some(doc) => unique_context(doc, doc_start, doc_end),
        None => unique_context(&chunk.text, start, end),
    };
    let proposal = propose(chunk, claim);
    let reason = match &proposal {
        Some(p) => format!(
            "{NO_QUOTE}: the evidence is chunk {} as a whole; proposed, for a person to confirm: \
             {:?} (holds {}% of the claim's words)",
            chunk.chunk_id, p.text, p.score
        ),
        None => format!(
            "{NO_QUOTE}: the evidence is chunk {} as a whole; no sentence of it shares a word \
             with the claim",
            chunk.chunk_id
        ),
    };
    EvidenceResult {
        given_chunk_id: ev.chunk_id.clone(),
        quote: String::new(),
        verdict: Verdict::Review,
        span: Some(Span {
            source: SourceRef {
                doc_id: chunk.doc_id.clone(),
                content_hash: chunk.content_hash.clone(),
                start: doc_start,
                end: doc_end,
                revision: chunk.revision,
            },
            normaliser: chunk.normaliser.clone(),
            chunk_id: chunk.chunk_id.clone(),
            how: How::Review,
            score: 0.0,
            text,
            prefix,
            suffix,
            repaired_from: None,
        }),
        reason: Some(reason),
        location: None,
        proposal,
    }
}
