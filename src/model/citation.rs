//! What citing produces and consumes: the model's answer, a retrieval context, and the verdict
//! and span of every evidence string. Plain data; the rules live in `cite`.
//!
//! Invariants: a `Span`'s `source` offsets are chars into the raw text of `source.revision`, its
//! `text` is that text at `[start, end)`, never starting or ending with whitespace; a located
//! verdict (`exact`, `fuzzy`, `review`, `repaired`) always carries a span, the others never do.

use super::sourceref::SourceRef;
use crate::text::How;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A whole answer: claims in reading order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// One proposition each.
    pub claims: Vec<Claim>,
    /// The answer as the provider wrote it, when it cites spans of its own text (Cohere, Gemini,
    /// OpenAI's Responses, the AI SDK): each claim's [`Claim::answer_span`] indexes it. `None`
    /// for an `emit_answer` answer, whose claims are its text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// Where a claim stands in the answer's text: chars `[start, end)` of [`Answer::text`],
/// converted from the provider's bytes or UTF-16 code units when it counts so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerSpan {
    /// First char of the claim in the answer.
    pub start: usize,
    /// End (exclusive).
    pub end: usize,
}

/// One proposition and the quotes offered for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The proposition in the model's words.
    pub text: String,
    /// Quotes that establish it; empty means the claim is uncited.
    pub evidence: Vec<Evidence>,
    /// Where the claim stands in [`Answer::text`] (provider imports only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_span: Option<AnswerSpan>,
}

impl Claim {
    /// A claim of an `emit_answer` answer: its text and evidence, no answer span.
    pub fn new(text: impl Into<String>, evidence: Vec<Evidence>) -> Self {
        Claim {
            text: text.into(),
            evidence,
            answer_span: None,
        }
    }
}

/// A quote and the chunk (label or chunk id) it was copied from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    /// A label from the context, or a real chunk id.
    pub chunk_id: String,
    /// The quote, as the model gave it; empty when [`Evidence::unquoted`].
    pub quote: String,
    /// True when the provider named the chunk but quoted nothing (Cohere, Gemini without
    /// retrieved text, OpenAI's `file_citation`): the evidence is the whole chunk, `review`,
    /// never a located quote.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unquoted: bool,
}

impl Evidence {
    /// A quote from the chunk `chunk_id` names (a label, chunk id, or a provider's name for it).
    pub fn quoted(chunk_id: impl Into<String>, quote: impl Into<String>) -> Self {
        Evidence {
            chunk_id: chunk_id.into(),
            quote: quote.into(),
            unquoted: false,
        }
    }

    /// The chunk `chunk_id` names, with no quote from it.
    pub fn chunk_only(chunk_id: impl Into<String>) -> Self {
        Evidence {
            chunk_id: chunk_id.into(),
            quote: String::new(),
            unquoted: true,
        }
    }
}

/// One chunk shown to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextChunk {
    /// Short opaque label the model cites by.
    pub label: String,
    /// The chunk's stable id.
    pub chunk_id: String,
    /// Its document.
    pub doc_id: String,
    /// The document revision it was cut from.
    pub revision: u32,
    /// contentHash of its text.
    pub content_hash: String,
    /// The normaliser version of `content_hash` (`v1`, `v2`).
    pub normaliser: String,
    /// Start in the revision, chars.
    pub start: usize,
    /// End (exclusive) in the revision, chars.
    pub end: usize,
    /// Its text (the revision's `[start, end)`).
    pub text: String,
    /// The caller's id of a chunk the caller made (`ingest --chunks`), else `None`.
    #[serde(default)]
    pub caller_id: Option<String>,
}

/// The chunks of one retrieval, plus the full text of each revision they come from.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The context's id.
    pub id: String,
    /// Chunks in the order they were retrieved.
    pub chunks: Vec<ContextChunk>,
    /// `(doc_id, revision)` → raw revision text, for context uniqueness.
    pub revisions: HashMap<(String, u32), String>,
}

impl Context {
    /// The chunk a model's `chunk_id` names: a label, or a real chunk id.
    pub fn resolve(&self, given: &str) -> Option<usize> {
        self.chunks
            .iter()
            .position(|c| c.label == given)
            .or_else(|| self.chunks.iter().position(|c| c.chunk_id == given))
    }
}

/// The outcome for one evidence string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Found verbatim in the named chunk.
    Exact,
    /// Found after folding / fuzzy alignment, accepted.
    Fuzzy,
    /// A candidate exists; a person should look.
    Review,
    /// Not in the named chunk, but in exactly one other position of the context.
    Repaired,
    /// In two or more positions: no way to tell which was meant; dropped.
    Ambiguous,
    /// Nowhere in the context, not even as a review candidate.
    Fabricated,
    /// The chunk id is not in the context: hard reject.
    UnknownChunk,
}

impl Verdict {
    /// Every verdict, located ones first (the order of the database's `CHECK`).
    pub const ALL: [Verdict; 7] = [
        Verdict::Exact,
        Verdict::Fuzzy,
        Verdict::Review,
        Verdict::Repaired,
        Verdict::Ambiguous,
        Verdict::Fabricated,
        Verdict::UnknownChunk,
    ];

    /// The kebab-case name used in JSON, tables and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Exact => "exact",
            Verdict::Fuzzy => "fuzzy",
            Verdict::Review => "review",
            Verdict::Repaired => "repaired",
            Verdict::Ambiguous => "ambiguous",
            Verdict::Fabricated => "fabricated",
            Verdict::UnknownChunk => "unknown-chunk",
        }
    }

    /// True when the evidence yields a stored citation.
    pub fn is_located(self) -> bool {
        matches!(
            self,
            Verdict::Exact | Verdict::Fuzzy | Verdict::Review | Verdict::Repaired
        )
    }
}

super::names::by_name!(Verdict => "citing verdict");

/// A located span, ready to store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Span {
    /// The SourceRef: document, chunk hash, offsets, revision.
    pub source: SourceRef,
    /// The normaliser version of `source.content_hash` (the cited chunk's).
    pub normaliser: String,
    /// The chunk that holds it.
    pub chunk_id: String,
    /// How the text core found it.
    pub how: How,
    /// Alignment score, 100 for exact.
    pub score: f64,
    /// The revision's text at `[start, end)`.
    pub text: String,
    /// Context before the span.
    pub prefix: String,
    /// Context after the span.
    pub suffix: String,
    /// The named chunk, when the quote was found in another one.
    pub repaired_from: Option<String>,
}

/// Where a model API said an evidence string is (an Anthropic citation's location), resolved
/// against the context: a hint the citer checks against our text, never trusted blindly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApiLocation {
    /// The API's citation type (`char_location`, `page_location`, …).
    pub kind: String,
    /// The API's citation object as received (stored beside the citation).
    pub raw: serde_json::Value,
    /// The stretch of our text it names; `None` when it names nothing we hold.
    pub target: Option<ApiTarget>,
    /// Why it names nothing we hold (a page past the document's end, …).
    pub problem: Option<String>,
    /// How a reason names it, e.g. `char_location [20, 36) of document 0`.
    pub describe: String,
}

/// A stretch of one revision an API location names, in chars.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiTarget {
    /// The document.
    pub doc_id: String,
    /// Its revision.
    pub revision: u32,
    /// Start, chars into the revision.
    pub start: usize,
    /// End (exclusive).
    pub end: usize,
    /// True when the offsets name the cited text itself (`char_location`), false when they
    /// name a page or block range holding it.
    pub exact: bool,
}

/// Whether our text agreed with an API location.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Agreement {
    /// The quote was found where the API said.
    Agrees,
    /// It was not (or the location names nothing we hold): the reason says so.
    Differs,
}

impl Agreement {
    /// The lowercase name stored and printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Agreement::Agrees => "agrees",
            Agreement::Differs => "differs",
        }
    }
}

/// An API location and what our text said about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LocationCheck {
    /// The API's citation type.
    pub kind: String,
    /// The API's citation object as received.
    pub raw: serde_json::Value,
    /// Agreed or not.
    pub agreement: Agreement,
    /// What differed, or why several places remained.
    pub note: Option<String>,
}

/// A citation that points outside the store (a web search result): kept and reported, never
/// located in our text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExternalCitation {
    /// The API's citation type (`web_search_result_location`).
    pub kind: String,
    /// The page cited.
    pub url: Option<String>,
    /// Its title.
    pub title: Option<String>,
    /// The text the API says it cited.
    pub cited_text: String,
    /// The API's citation object as received.
    pub raw: serde_json::Value,
}

/// One evidence string's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvidenceResult {
    /// The chunk id or label as the model gave it.
    pub given_chunk_id: String,
    /// The quote as given.
    pub quote: String,
    /// What became of it.
    pub verdict: Verdict,
    /// The span, for located verdicts.
    pub span: Option<Span>,
    /// Why, for review, ambiguous and rejected evidence.
    pub reason: Option<String>,
    /// The API's own location for it, and whether our text agreed (imported citations only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<LocationCheck>,
    /// For evidence the provider gave no quote for: the chunk's sentence that best matches the
    /// claim, proposed for a person to confirm, never a located quote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposal: Option<Proposal>,
}

/// A sentence citestore proposes as the quote a provider did not give: chars `[start, end)` of
/// the revision the evidence's span indexes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    /// Start, chars into the revision.
    pub start: usize,
    /// End (exclusive).
    pub end: usize,
    /// The revision's text there.
    pub text: String,
    /// How much of the claim's words it holds, 0–100.
    pub score: f64,
}

/// One claim's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimResult {
    /// The claim's text.
    pub text: String,
    /// True when the model gave no evidence: the claim is explicitly uncited.
    pub uncited: bool,
    /// One result per evidence string, in the answer's order; together they are one premise.
    pub evidence: Vec<EvidenceResult>,
    /// Citations pointing outside the store (web search results), reported as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub external: Vec<ExternalCitation>,
    /// Where the claim stands in the answer's text (provider imports only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_span: Option<AnswerSpan>,
}
