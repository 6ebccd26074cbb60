//! The Vercel AI SDK's `generateText` result, as JSON: the answer (`text`, or the last step's
//! `text` parts when only `steps` survive `JSON.stringify`), its `source` parts
//! (`{sourceType: "url", id, url, title}` or `{sourceType: "document", id, mediaType, title,
//! filename}`, from `sources` or any step's `content`), and `citations`
//! `[{source, startIndex?, endIndex?, citedText?}]`: `source` a source's `id` (or its index in
//! the sources), `startIndex`/`endIndex` **UTF-16 code units** of the answer (JS string
//! indices; both absent: the whole answer), `citedText` the source's text, a quote.
//!
//! A document source maps by `filename`, `title` or `id` onto the context; with `citedText` it
//! is located like a quote, without it the chunk is `review` evidence. A `url` source is
//! external. A result with sources and no citations is one claim, the whole answer, supported
//! by every source.

use super::json::{err, field, index, items, kind_of, string};
use super::offsets::{span, Unit};
use super::{answer, claim_at, external, names, uncited, Import};
use crate::cite::answer::AnswerError;
use crate::cite::Context;
use crate::model::citation::{Evidence, ExternalCitation};
use serde_json::Value;
use std::collections::BTreeMap;

/// A `source` part as read.
struct Source {
    id: Option<String>,
    url: Option<String>,
    title: Option<String>,
    filename: Option<String>,
}

impl Source {
    fn is_url(&self) -> bool {
        self.url.is_some()
    }

    fn names(&self) -> Vec<&str> {
        [&self.filename, &self.title, &self.id]
            .into_iter()
            .filter_map(|n| n.as_deref())
            .collect()
    }

    fn cite(&self, context: &Context, claim: &str, quote: Option<&str>) -> Cited {
        if self.is_url() {
            let web = external("url", self.url.clone(), self.title.clone(), claim);
            return Cited::External(web);
        }
        Cited::Evidence(names::evidence(context, &self.names(), claim, quote))
    }
}

enum Cited {
    Evidence(Evidence),
    External(ExternalCitation),
}

/// Reads a `generateText` result against `context`.
pub fn read(response: &Value, context: &Context) -> Result<Import, AnswerError> {
    let text = answer_text(response)?;
    let sources = read_sources(response)?;
    let citations = items(response, "", "citations")?;
    let mut claims: BTreeMap<(usize, usize), (Vec<Evidence>, Vec<ExternalCitation>)> =
        BTreeMap::new();
    let whole = (0, text.chars().count());
    if citations.is_empty() {
        if sources.is_empty() {
            return Ok(uncited(&text));
        }
        let claim = claims.entry(whole).or_default();
        for source in &sources {
            push(claim, source.cite(context, &text, None));
        }
    }
    for (citation, path) in citations {
        let source = source_of(citation, &path, &sources)?;
        let span = citation_span(citation, &path, &text, whole)?;
        let claim_text = super::offsets::slice(&text, span);
        let quote = string(citation, &path, "citedText")?;
        let quote = quote.as_deref().filter(|q| !crate::text::is_blank(q));
        push(
            claims.entry(span).or_default(),
            source.cite(context, &claim_text, quote),
        );
    }
    let mut built = Vec::new();
    let mut externals = Vec::new();
    for (span, (evidence, outside)) in claims {
        built.push(claim_at(&text, span, evidence));
        externals.push(outside);
    }
    Ok(Import::of(answer(&text, built), externals))
}

fn push(claim: &mut (Vec<Evidence>, Vec<ExternalCitation>), cited: Cited) {
    match cited {
        Cited::Evidence(ev) if !claim.0.contains(&ev) => claim.0.push(ev),
        Cited::Evidence(_) => {}
        Cited::External(web) => claim.1.push(web),
    }
}

/// `text`, else the text parts of the last step (what the result's `text` getter returns),
/// else the text parts of `content`.
fn answer_text(response: &Value) -> Result<String, AnswerError> {
    if let Some(text) = string(response, "", "text")? {
        return Ok(text);
    }
    let steps = items(response, "", "steps")?;
    let (holder, at) = match steps.last() {
        Some((step, at)) => (*step, at.clone()),
        None => (response, String::new()),
    };
    let parts = items(holder, &at, "content")?;
    if parts.is_empty() {
        return Err(err(
            "text",
            "missing; expected a generateText result with `text` (or `steps` whose `content` \
             holds text parts)",
        ));
    }
    let mut text = String::new();
    for (part, path) in parts {
        if string(part, &path, "type")?.as_deref() == Some("text") {
            text.push_str(&string(part, &path, "text")?.unwrap_or_default());
        }
    }
    Ok(text)
}

/// `sources`, else the `source` parts of every step's (or the result's) `content`.
fn read_sources(response: &Value) -> Result<Vec<Source>, AnswerError> {
    let mut parts = items(response, "", "sources")?;
    if field(response, "", "sources").is_none() {
        for (step, at) in items(response, "", "steps")? {
            parts.extend(items(step, &at, "content")?);
        }
        parts.extend(items(response, "", "content")?);
    }
    let mut out = Vec::new();
    for (part, path) in parts {
        let kind = string(part, &path, "type")?;
        if kind.as_deref().is_some_and(|k| k != "source") {
            continue;
        }
        let source_type = string(part, &path, "sourceType")?;
        let source = Source {
            id: string(part, &path, "id")?,
            url: string(part, &path, "url")?,
            title: string(part, &path, "title")?,
            filename: string(part, &path, "filename")?,
        };
        match source_type.as_deref() {
            Some("url") if source.url.is_none() => {
                return Err(err(
                    format!("{path}.url"),
                    "missing; a url source has its url",
                ))
            }
            Some("url") | Some("document") | None => out.push(source),
            Some(other) => {
                return Err(err(
                    format!("{path}.sourceType"),
                    format!("unknown source type {other:?}; expected url or document"),
                ))
            }
        }
    }
    Ok(out)
}

/// The source a citation names: by `id`, or by its index in the sources.
fn source_of<'s>(
    citation: &Value,
    path: &str,
    sources: &'s [Source],
) -> Result<&'s Source, AnswerError> {
    let at = format!("{path}.source");
    match citation.get("source") {
        Some(Value::String(id)) => sources
            .iter()
            .find(|s| s.id.as_deref() == Some(id.as_str()))
            .ok_or_else(|| {
                err(
                    at,
                    format!(
                        "no source has id {id:?}; the result has {} sources",
                        sources.len()
                    ),
                )
            }),
        Some(Value::Number(n)) => {
            n.as_u64()
                .and_then(|n| sources.get(n as usize))
                .ok_or_else(|| {
                    err(
                        at,
                        format!(
                            "{n} is not the index of one of the {} sources",
                            sources.len()
                        ),
                    )
                })
        }
        Some(v) => Err(err(
            at,
            format!("{} is neither a source id nor an index", kind_of(v)),
        )),
        None => Err(err(at, "missing; a citation names its source")),
    }
}

/// The citation's span in chars of the answer, from UTF-16 offsets.
fn citation_span(
    citation: &Value,
    path: &str,
    text: &str,
    whole: (usize, usize),
) -> Result<(usize, usize), AnswerError> {
    let start = index(citation, path, "startIndex")?;
    let end = index(citation, path, "endIndex")?;
    let (start, end) = match (start, end) {
        (None, None) => return Ok(whole),
        (Some(s), Some(e)) => (s, e),
        _ => {
            return Err(err(
                format!("{path}.endIndex"),
                "startIndex and endIndex come together (or neither, for the whole answer)",
            ))
        }
    };
    match span(text, start, end, Unit::Utf16) {
        Some((a, b)) if a < b => Ok((a, b)),
        _ => Err(err(
            format!("{path}.endIndex"),
            format!(
                "[{start}, {end}) is not a stretch of the answer in {} ({} of them; an offset \
                 may not split an emoji's surrogate pair)",
                Unit::Utf16.name(),
                text.encode_utf16().count()
            ),
        )),
    }
}
