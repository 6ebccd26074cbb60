//! Cohere v2 chat: `message.citations[]` are `{start, end, text, sources, type}`, where
//! `start`/`end` index the **answer** (`message.content[content_index].text`) and `text` is the
//! answer's text there; each source (`{type: "document" | "tool", id, document | tool_output}`)
//! names what was sent, never a quote of it. So every source is chunk-level evidence, `review`.
//!
//! Sources map by `id`: the id given with the document when sending it (a chunk's label, chunk
//! id, caller id or document id), or Cohere's own `doc:N` / `doc_N` for documents sent without
//! one (context chunk N). The offsets are checked against `text` (as chars, then UTF-16, then
//! bytes; else `text`'s only occurrence); citations of the model's plan or thinking
//! (`type` `PLAN`, `THINKING_CONTENT`) are not about the answer and are passed over.

use super::json::{err, index, items, object, required_string, string};
use super::offsets::{find_segment, Unit};
use super::{answer, claim_at, names, uncited, Import};
use crate::cite::answer::AnswerError;
use crate::cite::Context;
use serde_json::Value;

/// Reads a Cohere v2 chat response (or its `message`) against `context`.
pub fn read(response: &Value, context: &Context) -> Result<Import, AnswerError> {
    let (message, at) = match response.get("message") {
        Some(_) => object(response, "", "message")?,
        None => (response, String::new()),
    };
    let parts = text_parts(message, &at)?;
    let text: String = parts.iter().map(|(_, t)| t.as_str()).collect();
    let citations = items(message, &at, "citations")?;
    let mut claims = Vec::new();
    for (citation, path) in citations {
        let kind = string(citation, &path, "type")?;
        if matches!(kind.as_deref(), Some("PLAN" | "THINKING_CONTENT")) {
            continue;
        }
        let span = answer_span(citation, &path, &parts)?;
        let segment = super::offsets::slice(&text, span);
        let mut evidence = Vec::new();
        for (source, source_at) in items(citation, &path, "sources")? {
            let id = source_name(source, &source_at)?;
            let chunk = auto_id(&id).filter(|&n| n < context.chunks.len());
            let name = chunk.map_or(id.clone(), |n| context.chunks[n].chunk_id.clone());
            evidence.push(names::evidence(context, &[&name], &segment, None));
        }
        claims.push(claim_at(&text, span, evidence));
    }
    if claims.is_empty() {
        return Ok(uncited(&text));
    }
    let external = vec![Vec::new(); claims.len()];
    Ok(Import::of(answer(&text, claims), external))
}

/// The text items of `message.content`, each with its char offset in the whole answer.
fn text_parts(message: &Value, at: &str) -> Result<Vec<(usize, String)>, AnswerError> {
    let mut texts = Vec::new();
    for (item, path) in items(message, at, "content")? {
        texts.push(match string(item, &path, "type")?.as_deref() {
            Some("text") => required_string(item, &path, "text")?,
            _ => String::new(),
        });
    }
    Ok(super::offsets::based(texts))
}

/// The citation's span in chars of the whole answer.
fn answer_span(
    citation: &Value,
    path: &str,
    parts: &[(usize, String)],
) -> Result<(usize, usize), AnswerError> {
    let start = index(citation, path, "start")?;
    let end = index(citation, path, "end")?;
    let segment = required_string(citation, path, "text")?;
    let part = index(citation, path, "contentIndex")?.unwrap_or(0);
    let Some((base, text)) = parts.get(part) else {
        return Err(err(
            format!("{path}.content_index"),
            format!("{part} is past the message's {} content items", parts.len()),
        ));
    };
    let (start, end) = match (start, end) {
        (Some(s), Some(e)) => (s, e),
        _ => (0, 0),
    };
    let all = [Unit::Chars, Unit::Utf16, Unit::Bytes];
    match find_segment(text, start, end, &segment, &all) {
        Some((a, b)) if a < b => Ok((base + a, base + b)),
        _ => Err(err(
            format!("{path}.start"),
            format!(
                "[{start}, {end}) is not where the citation's text {segment:?} stands in the \
                 answer (as chars, UTF-16 or bytes), and that text does not occur exactly once \
                 in it; check that this is the response as received"
            ),
        )),
    }
}

/// A source's id: its own `id`, else its document's.
fn source_name(source: &Value, path: &str) -> Result<String, AnswerError> {
    if let Some(id) = string(source, path, "id")? {
        return Ok(id);
    }
    if let Some(document) = source.get("document") {
        if let Some(id) = string(document, &format!("{path}.document"), "id")? {
            return Ok(id);
        }
    }
    Err(err(
        format!("{path}.id"),
        "missing; a source names the document or tool result it cites by its id",
    ))
}

/// The chunk index in Cohere's own id for a document sent without one: `doc:N` or `doc_N`.
fn auto_id(id: &str) -> Option<usize> {
    id.strip_prefix("doc:")
        .or_else(|| id.strip_prefix("doc_"))
        .and_then(|n| n.parse().ok())
}
