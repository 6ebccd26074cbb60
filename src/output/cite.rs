//! What `context --json`, `cite --json` and `import-anthropic --json` print.

use crate::cite::record::CiteReport;
use crate::cite::summary;
use crate::model::citation::{Context, ContextChunk};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What `context --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ContextOutput {
    /// The context id, for `citestore cite --context`.
    pub context: String,
    /// Its chunks, in retrieval order.
    pub chunks: Vec<ContextChunk>,
}

/// The printed form of a recorded context.
pub fn context_output(context: Context) -> ContextOutput {
    ContextOutput {
        context: context.id,
        chunks: context.chunks,
    }
}

/// One evidence line of the JSON output.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EvidenceOutput {
    /// The chunk id or label as the model gave it.
    pub label: String,
    /// citestore's id of the chunk: the one holding the span, else the one the model named
    /// (its label resolved); `null` when it names no chunk of the context (`unknown-chunk`).
    pub chunk_id: Option<String>,
    /// The caller's own id of that chunk (`ingest --chunks`), else `null`.
    pub caller_id: Option<String>,
    /// The quote as given.
    pub quote: String,
    /// exact, fuzzy, review, repaired, ambiguous, fabricated or unknown-chunk.
    pub verdict: String,
    /// The stored citation's id.
    pub citation: Option<String>,
    /// Span start, chars into the revision.
    pub start: Option<usize>,
    /// Span end (exclusive).
    pub end: Option<usize>,
    /// The revision the span indexes.
    pub revision: Option<u32>,
    /// Alignment score (100 for exact).
    pub score: Option<f64>,
    /// The chunk the model named, when the quote was found in another one.
    pub repaired_from: Option<String>,
    /// The revision's text at the span.
    pub text: Option<String>,
    /// Why (review, repaired, rejected).
    pub reason: Option<String>,
    /// The API's own location and whether our text agreed (`import anthropic` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<LocationOutput>,
    /// When the provider gave no quote (`quote` is empty, the verdict `review`): the chunk's
    /// sentence that best matches the claim, for a person to confirm; never a located quote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposal: Option<ProposalOutput>,
}

/// A sentence proposed as the quote a provider did not give.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProposalOutput {
    /// Start, chars into the revision (the evidence's `revision`).
    pub start: usize,
    /// End (exclusive).
    pub end: usize,
    /// The revision's text there.
    pub text: String,
    /// The share of the claim's words it holds, 0–100.
    pub score: f64,
}

/// Where a claim stands in the answer: chars `[start, end)` of the output's `answer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerSpanOutput {
    /// First char.
    pub start: usize,
    /// End (exclusive).
    pub end: usize,
}

/// An API location as checked against our text.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LocationOutput {
    /// The API's citation type (`char_location`, `page_location`, …).
    pub kind: String,
    /// `agrees` or `differs`.
    pub agreement: String,
    /// What differed, or why several places remained.
    pub note: Option<String>,
    /// The API's citation object as received.
    pub api: serde_json::Value,
}

/// A citation pointing outside the store (a web search result), reported as given.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExternalOutput {
    /// `web_search_result_location`.
    pub kind: String,
    /// The page cited.
    pub url: Option<String>,
    /// Its title.
    pub title: Option<String>,
    /// The text the API says it cited.
    pub cited_text: String,
}

/// One claim of the JSON output.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClaimOutput {
    /// The claim.
    pub text: String,
    /// No evidence was given.
    pub uncited: bool,
    /// In the answer's order; together one premise.
    pub evidence: Vec<EvidenceOutput>,
    /// Citations outside the store (web search results): never located, never a citation id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub external: Vec<ExternalOutput>,
    /// Where the claim stands in `answer` (imports of providers that cite the answer's text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_span: Option<AnswerSpanOutput>,
}

/// What `cite --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CiteOutput {
    /// The context cited against.
    pub context: String,
    /// The answer's text as the provider wrote it (imports of providers that cite it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// True when this answer was cited before (nothing new written).
    pub already_recorded: bool,
    /// Claims in the answer's order.
    pub claims: Vec<ClaimOutput>,
    /// Counts by verdict, plus `uncited`.
    pub summary: BTreeMap<String, usize>,
}

/// The printed form of a cite report.
pub fn cite_output(report: &CiteReport) -> CiteOutput {
    let claims = report
        .claims
        .iter()
        .zip(&report.citation_ids)
        .map(|(claim, ids)| ClaimOutput {
            text: claim.text.clone(),
            uncited: claim.uncited,
            evidence: claim
                .evidence
                .iter()
                .zip(ids)
                .map(|(ev, id)| {
                    let span = ev.span.as_ref();
                    let chunk = match span {
                        Some(s) => report.chunk_by_id(&s.chunk_id),
                        None => report.chunk_named(&ev.given_chunk_id),
                    };
                    EvidenceOutput {
                        label: ev.given_chunk_id.clone(),
                        chunk_id: span
                            .map(|s| s.chunk_id.clone())
                            .or_else(|| chunk.map(|c| c.chunk_id.clone())),
                        caller_id: chunk.and_then(|c| c.caller_id.clone()),
                        quote: ev.quote.clone(),
                        verdict: ev.verdict.as_str().to_string(),
                        citation: id.clone(),
                        start: span.map(|s| s.source.start),
                        end: span.map(|s| s.source.end),
                        revision: span.map(|s| s.source.revision),
                        score: span.map(|s| s.score),
                        repaired_from: span.and_then(|s| s.repaired_from.clone()),
                        text: span.map(|s| s.text.clone()),
                        reason: ev.reason.clone(),
                        location: ev.location.as_ref().map(|l| LocationOutput {
                            kind: l.kind.clone(),
                            agreement: l.agreement.as_str().to_string(),
                            note: l.note.clone(),
                            api: l.raw.clone(),
                        }),
                        proposal: ev.proposal.as_ref().map(|p| ProposalOutput {
                            start: p.start,
                            end: p.end,
                            text: p.text.clone(),
                            score: p.score,
                        }),
                    }
                })
                .collect(),
            external: claim
                .external
                .iter()
                .map(|e| ExternalOutput {
                    kind: e.kind.clone(),
                    url: e.url.clone(),
                    title: e.title.clone(),
                    cited_text: e.cited_text.clone(),
                })
                .collect(),
            answer_span: claim.answer_span.map(|s| AnswerSpanOutput {
                start: s.start,
                end: s.end,
            }),
        })
        .collect();
    CiteOutput {
        context: report.context_id.clone(),
        answer: report.answer_text.clone(),
        already_recorded: report.already_recorded,
        claims,
        summary: summary(&report.claims),
    }
}
