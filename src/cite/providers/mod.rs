//! Cited answers in each model provider's own shape, read into one [`Import`]: the claims with
//! where each stands in the answer, the evidence each names, and the citations that point
//! outside the store. `citestore import FORMAT` is the one verb over all of them.
//!
//! The shapes differ in where their offsets point, and each reader converts at its edge:
//! - `anthropic` ([`super::anthropic`]): offsets into the *source*, checked against our text;
//! - `cohere`: `start`/`end` index the *answer* (checked against the citation's `text`, as chars,
//!   UTF-16 or bytes); the source is named, never quoted;
//! - `gemini`: `segment` offsets are UTF-8 *bytes* of an answer part; a `retrievedContext` with
//!   `text` is a quote, one without names a source; `web` chunks are external;
//! - `openai-responses`: `file_citation` marks a position in the answer (the claim is the
//!   sentence ending there) and names a file; `file_search_call.results`, when included, give
//!   the file's retrieved text as quotes; `url_citation` is external;
//! - `ai-sdk`: citation `startIndex`/`endIndex` are UTF-16 code units of the answer (JS string
//!   indices), `citedText` a quote; `url` sources are external;
//! - `langchain-quoted`: `{answer, citations: [{source_id, quote}]}`, `source_id` the context
//!   chunk's index.
//!
//! Invariants: a claim's [`AnswerSpan`](crate::model::citation::AnswerSpan) is chars of
//! [`Answer::text`](crate::model::citation::Answer::text) and its `text` is the answer there;
//! a source the provider names but does not quote becomes [`Evidence::chunk_only`] (cited as
//! `review`, never located); a source naming nothing in the context keeps the provider's name,
//! so it is `unknown-chunk`; a malformed response is an [`AnswerError`] naming the JSON path,
//! and nothing is read of it.

pub mod ai_sdk;
pub mod cohere;
pub mod gemini;
mod json;
pub mod langchain;
mod names;
mod offsets;
pub mod openai_responses;

use super::answer::{Answer, AnswerError};
use super::anthropic::{self, Sent};
use super::{ApiLocation, Context, ExternalCitation};
use crate::model::citation::Evidence;

/// A provider response read: the answer, each evidence string's API location (Anthropic
/// only), each claim's external citations.
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    /// Claims and evidence to cite.
    pub answer: Answer,
    /// `locations[claim][evidence]`: the API's location of each evidence string.
    pub locations: Vec<Vec<Option<ApiLocation>>>,
    /// `external[claim]`: citations that point outside the store.
    pub external: Vec<Vec<ExternalCitation>>,
}

impl Import {
    /// An import of `answer` with no API locations and the given external citations per claim.
    fn of(answer: Answer, external: Vec<Vec<ExternalCitation>>) -> Self {
        let locations = answer
            .claims
            .iter()
            .map(|c| vec![None; c.evidence.len()])
            .collect();
        Import {
            answer,
            locations,
            external,
        }
    }
}

/// A provider's response shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Anthropic's Messages API with citations.
    Anthropic,
    /// Cohere's v2 chat.
    Cohere,
    /// Gemini / Vertex AI `generateContent` with grounding metadata.
    Gemini,
    /// OpenAI's Responses API (`file_search`, web search).
    OpenaiResponses,
    /// The Vercel AI SDK's `generateText` result.
    AiSdk,
    /// LangChain's quoted-answer pattern.
    LangchainQuoted,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 6] = [
        Format::Anthropic,
        Format::Cohere,
        Format::Gemini,
        Format::OpenaiResponses,
        Format::AiSdk,
        Format::LangchainQuoted,
    ];

    /// The name on the command line, in the store (`answers.source`) and in every face.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Anthropic => "anthropic",
            Format::Cohere => "cohere",
            Format::Gemini => "gemini",
            Format::OpenaiResponses => "openai-responses",
            Format::AiSdk => "ai-sdk",
            Format::LangchainQuoted => "langchain-quoted",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
                format!(
                    "unknown response format {s:?}; expected one of {}",
                    names.join(", ")
                )
            })
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads `response_json` in `format` against `context`; `sent` (what was sent as documents)
/// matters to Anthropic's document indexes only.
pub fn read(
    format: Format,
    response_json: &str,
    context: &Context,
    sent: Sent,
) -> Result<Import, AnswerError> {
    if format == Format::Anthropic {
        return anthropic::read_response(response_json, context, sent);
    }
    let response = json::parse(response_json, format)?;
    match format {
        Format::Anthropic => unreachable!("read above"),
        Format::Cohere => cohere::read(&response, context),
        Format::Gemini => gemini::read(&response, context),
        Format::OpenaiResponses => openai_responses::read(&response, context),
        Format::AiSdk => ai_sdk::read(&response, context),
        Format::LangchainQuoted => langchain::read(&response, context),
    }
}

/// One uncited claim holding the whole answer, for a response that cites nothing; none when
/// the answer is blank.
fn uncited(text: &str) -> Import {
    let claims = if crate::text::is_blank(text) {
        Vec::new()
    } else {
        let end = text.chars().count();
        vec![claim_at(text, (0, end), Vec::new())]
    };
    let external = vec![Vec::new(); claims.len()];
    Import::of(answer(text, claims), external)
}

/// The claim at chars `[start, end)` of the answer `text`.
fn claim_at(
    text: &str,
    (start, end): (usize, usize),
    evidence: Vec<Evidence>,
) -> crate::model::citation::Claim {
    let segment: String = text.chars().skip(start).take(end - start).collect();
    crate::model::citation::Claim {
        text: segment,
        evidence,
        answer_span: Some(crate::model::citation::AnswerSpan { start, end }),
    }
}

fn answer(text: &str, claims: Vec<crate::model::citation::Claim>) -> Answer {
    Answer {
        claims,
        text: Some(text.to_string()),
    }
}

/// An external citation as an import keys and stores it: only what is read of it, so the same
/// response as a dict, JSON text or an SDK object is one import.
fn external(
    kind: &str,
    url: Option<String>,
    title: Option<String>,
    cited: &str,
) -> ExternalCitation {
    let mut raw = serde_json::Map::new();
    raw.insert("type".into(), kind.into());
    if let Some(url) = &url {
        raw.insert("url".into(), url.clone().into());
    }
    if let Some(title) = &title {
        raw.insert("title".into(), title.clone().into());
    }
    ExternalCitation {
        kind: kind.to_string(),
        url,
        title,
        cited_text: cited.to_string(),
        raw: serde_json::Value::Object(raw),
    }
}
