//! What verification reads and writes: claims with their located spans, the judge's relation
//! and confidence, and the verdict code routes them to.
//!
//! Invariants: `Verdict::Fabricated`, `Ambiguous`, `UnknownChunk` and `Uncited` are decided
//! without a judge; `Supported`, `Contradicted`, `Unsupported` only from a judge's answer at or
//! above the accept threshold; a claim with a span located only for review is at best `Review`.

use super::citation::Verdict;
use serde::{Deserialize, Serialize};

/// What a judge says the premise does to the claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    /// The premise makes the claim true.
    Supports,
    /// The premise makes the claim false.
    Contradicts,
    /// The premise says nothing either way.
    Silent,
}

impl Relation {
    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Supports => "supports",
            Relation::Contradicts => "contradicts",
            Relation::Silent => "silent",
        }
    }
}

/// A judge's answer (other fields a judge adds, such as a rationale, are ignored).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// The relation.
    pub relation: Relation,
    /// In `[0, 1]`.
    pub confidence: f64,
}

/// A claim's verification verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimVerdict {
    /// The judge says supports, confidently.
    Supported,
    /// The judge says contradicts, confidently.
    Contradicted,
    /// The judge says the premise is silent, confidently.
    Unsupported,
    /// A person should look: low confidence, or evidence located only for review.
    Review,
    /// No evidence was located: the quotes are not in the source.
    Fabricated,
    /// The evidence could be in several places.
    Ambiguous,
    /// The evidence named chunks outside the context.
    UnknownChunk,
    /// The claim carries no evidence by choice.
    Uncited,
    /// Located, but no judge was configured.
    Unjudged,
    /// The judge failed for this claim (timeout, exit status, unreadable reply).
    Error,
}

impl ClaimVerdict {
    /// Every verdict, in the order `verify --fail-on` lists them.
    pub const ALL: [ClaimVerdict; 10] = [
        ClaimVerdict::Supported,
        ClaimVerdict::Contradicted,
        ClaimVerdict::Unsupported,
        ClaimVerdict::Review,
        ClaimVerdict::Fabricated,
        ClaimVerdict::Ambiguous,
        ClaimVerdict::UnknownChunk,
        ClaimVerdict::Uncited,
        ClaimVerdict::Unjudged,
        ClaimVerdict::Error,
    ];

    /// The kebab-case name used in JSON, tables and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            ClaimVerdict::Supported => "supported",
            ClaimVerdict::Contradicted => "contradicted",
            ClaimVerdict::Unsupported => "unsupported",
            ClaimVerdict::Review => "review",
            ClaimVerdict::Fabricated => "fabricated",
            ClaimVerdict::Ambiguous => "ambiguous",
            ClaimVerdict::UnknownChunk => "unknown-chunk",
            ClaimVerdict::Uncited => "uncited",
            ClaimVerdict::Unjudged => "unjudged",
            ClaimVerdict::Error => "error",
        }
    }
}

super::names::by_name!(ClaimVerdict => "verification verdict");

/// A located span of a claim, with the text it indexes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimSpan {
    /// Public citation id.
    pub citation_id: String,
    /// Document.
    pub doc_id: String,
    /// Revision the offsets index.
    pub revision: u32,
    /// Start, chars.
    pub start: usize,
    /// End (exclusive), chars.
    pub end: usize,
    /// The citing verdict (a located one: exact, fuzzy, review, repaired).
    pub verdict: Verdict,
}

/// A claim as verification sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimToVerify {
    /// Row id in `claims`.
    pub claim_row: i64,
    /// The claim.
    pub text: String,
    /// No evidence given.
    pub uncited: bool,
    /// Located spans (one premise together).
    pub spans: Vec<ClaimSpan>,
    /// Citing verdicts of the evidence that was not located (`fabricated`, `ambiguous`,
    /// `unknown-chunk`), with their quotes.
    pub unlocated: Vec<(String, String)>,
}

/// Which claims to verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Claims of every answer cited against this context.
    Context(String),
    /// Every claim in the store.
    All,
    /// The claims that own these citations.
    Citations(Vec<String>),
}

/// One verification result, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerificationRecord {
    /// Row id in `claims`.
    pub claim_row: i64,
    /// The judge spec (`none` when no judge was asked).
    pub judge: String,
    /// The judge's answer, when it gave one.
    pub judgement: Option<Judgement>,
    /// The routed verdict.
    pub verdict: ClaimVerdict,
    /// Why (thresholds, unlocated evidence, judge failure).
    pub reason: Option<String>,
    /// What the judge read.
    pub premise: Option<String>,
}
