//! Gemini and Vertex AI `generateContent` with `groundingMetadata`: `groundingSupports[]` tie a
//! `segment` of the answer (`partIndex`, `startIndex`, `endIndex` in **UTF-8 bytes** of that
//! part's text, `text`) to `groundingChunkIndices` into `groundingChunks[]`, each a
//! `retrievedContext {uri, title, text}` (retrieval: ours) or a `web {uri, title}` (search:
//! external). Proto3 JSON leaves out zeros, so a missing `partIndex` or `startIndex` is 0; the
//! Python SDK's dump names the same fields in snake_case, read alike.
//!
//! A `retrievedContext` with `text` quotes it: that text is located like any quote, in the
//! chunk its `uri` or `title` names (or, naming none, the only chunk holding it). Without
//! `text` it names the chunk only: `review`. `confidenceScores` (empty from Gemini 2.5 on)
//! decide nothing here. The first candidate is the answer.

use super::json::{err, field, index, items, object, string};
use super::offsets::{find_segment, slice, span, Unit};
use super::{answer, claim_at, external, names, uncited, Import};
use crate::cite::answer::AnswerError;
use crate::cite::Context;
use crate::model::citation::ExternalCitation;
use serde_json::Value;

/// One grounding chunk as read.
enum Grounding {
    Retrieved {
        names: Vec<String>,
        text: Option<String>,
    },
    Web {
        uri: Option<String>,
        title: Option<String>,
    },
}

/// Reads a `generateContent` response against `context`.
pub fn read(response: &Value, context: &Context) -> Result<Import, AnswerError> {
    let candidates = items(response, "", "candidates")?;
    let Some((candidate, at)) = candidates.first() else {
        return Err(err(
            "candidates",
            "missing or empty; a generateContent response has at least one candidate",
        ));
    };
    let parts = text_parts(candidate, at)?;
    let text: String = parts.iter().map(|(_, t)| t.as_str()).collect();
    let Some((metadata, meta_at)) = field(candidate, at, "groundingMetadata") else {
        return Ok(uncited(&text));
    };
    let chunks = grounding_chunks(metadata, &meta_at)?;
    let mut claims = Vec::new();
    let mut externals = Vec::new();
    for (support, path) in items(metadata, &meta_at, "groundingSupports")? {
        let span = segment_span(support, &path, &parts)?;
        let segment = slice(&text, span);
        let mut evidence = Vec::new();
        let mut outside: Vec<ExternalCitation> = Vec::new();
        for (i, i_at) in items(support, &path, "groundingChunkIndices")? {
            let n = match i.as_u64() {
                Some(n) => n as usize,
                None => return Err(err(i_at, format!("{i} is not an index (0 or more)"))),
            };
            match chunks.get(n) {
                None => {
                    return Err(err(
                        i_at,
                        format!("{n} is past the {} grounding chunks", chunks.len()),
                    ))
                }
                Some(Grounding::Retrieved { names, text }) => {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    let quote = text.as_deref().filter(|t| !crate::text::is_blank(t));
                    evidence.push(names::evidence(context, &names, &segment, quote));
                }
                Some(Grounding::Web { uri, title }) => {
                    outside.push(external("web", uri.clone(), title.clone(), &segment));
                }
            }
        }
        claims.push(claim_at(&text, span, evidence));
        externals.push(outside);
    }
    if claims.is_empty() {
        return Ok(uncited(&text));
    }
    Ok(Import::of(answer(&text, claims), externals))
}

/// The candidate's parts, each with its char offset in the whole answer and its text (empty
/// for a part that is not text).
fn text_parts(candidate: &Value, at: &str) -> Result<Vec<(usize, String)>, AnswerError> {
    let Some((content, content_at)) = field(candidate, at, "content") else {
        return Ok(Vec::new());
    };
    let mut texts = Vec::new();
    for (part, path) in items(content, &content_at, "parts")? {
        texts.push(string(part, &path, "text")?.unwrap_or_default());
    }
    Ok(super::offsets::based(texts))
}

fn grounding_chunks(metadata: &Value, at: &str) -> Result<Vec<Grounding>, AnswerError> {
    let mut out = Vec::new();
    for (chunk, path) in items(metadata, at, "groundingChunks")? {
        if let Some((web, web_at)) = field(chunk, &path, "web") {
            out.push(Grounding::Web {
                uri: string(web, &web_at, "uri")?,
                title: string(web, &web_at, "title")?,
            });
            continue;
        }
        let Some((retrieved, r_at)) = field(chunk, &path, "retrievedContext") else {
            return Err(err(
                path,
                "a grounding chunk holds neither `retrievedContext` nor `web`; check that this \
                 is the response as received",
            ));
        };
        let mut names = Vec::new();
        for name in ["documentName", "uri", "title"] {
            if let Some(n) = string(retrieved, &r_at, name)? {
                names.push(n);
            }
        }
        out.push(Grounding::Retrieved {
            names,
            text: string(retrieved, &r_at, "text")?,
        });
    }
    Ok(out)
}

/// A support's segment in chars of the whole answer: its byte offsets in its part, checked
/// against its `text` when given (else its only occurrence in the part).
fn segment_span(
    support: &Value,
    path: &str,
    parts: &[(usize, String)],
) -> Result<(usize, usize), AnswerError> {
    let (segment, at) = object(support, path, "segment")?;
    let part = index(segment, &at, "partIndex")?.unwrap_or(0);
    let start = index(segment, &at, "startIndex")?.unwrap_or(0);
    let end = index(segment, &at, "endIndex")?.ok_or_else(|| {
        err(
            format!("{at}.endIndex"),
            "missing; a segment always ends somewhere",
        )
    })?;
    let Some((base, text)) = parts.get(part) else {
        return Err(err(
            format!("{at}.partIndex"),
            format!("{part} is past the answer's {} parts", parts.len()),
        ));
    };
    let found = match string(segment, &at, "text")? {
        Some(given) => find_segment(text, start, end, &given, &[Unit::Bytes]),
        None => span(text, start, end, Unit::Bytes),
    };
    match found {
        Some((a, b)) if a < b => Ok((base + a, base + b)),
        _ => Err(err(
            format!("{at}.endIndex"),
            format!(
                "bytes [{start}, {end}) of part {part} ({} bytes) are not the segment's text \
                 (or not on char boundaries); Gemini counts UTF-8 bytes of the part: check that \
                 this is the response as received",
                text.len()
            ),
        )),
    }
}
