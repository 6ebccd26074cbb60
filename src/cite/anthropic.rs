//! Citations from an Anthropic Messages response (the Citations API, and search results), turned
//! into an [`Answer`] whose evidence carries the API's own location, so each cited text is
//! re-located in our stored text and the location is checked, never trusted.
//!
//! What was sent ([`Sent`]): the context's chunks, one document each, in the context's order
//! (`document_index` i is chunk i), or the context's distinct documents, whole, in order of
//! first appearance. Locations resolve against that:
//! - `char_location`: `[start_char_index, end_char_index)` of the document sent (chars);
//! - `page_location`: pages `[start_page_number, end_page_number)`, 1-based, pages of our text
//!   separated by form feeds (as `pdftotext` writes them);
//! - `content_block_location`: blocks `[start_block_index, end_block_index)`, a document's
//!   blocks being its chunks in the context (one block when chunks were sent);
//! - `search_result_location`: the search result is the context chunk whose id or label is its
//!   `source`, else chunk `search_result_index` (chunks passed as `search_result` blocks), one
//!   block each;
//! - `web_search_result_location`: points outside the store; kept as an [`ExternalCitation`]
//!   with its URL and title, reported, never located.
//!
//! Claims: each text block with citations is a claim; text blocks without citations join the
//! neighbouring claims' prose, so connective text ("According to the document, ", " and ")
//! never becomes an uncited claim: text before the first citation leads the first claim, text
//! after the last ends the last one, and text between two is split after its last sentence end
//! (what comes before ends the previous claim, the rest leads the next).
//! A response with no citation at all is one uncited claim. A claim whose only citations are
//! web results is uncited in our store, its web citations listed.
//!
//! Invariants: an unknown citation type, a negative or impossible index (start after end, a page
//! below 1, an empty range) or an empty or blank `cited_text` of a located citation is an error
//! naming the block and field; nothing is cited then.

use super::answer::{Answer, AnswerError, Claim, Evidence};
use super::{ApiLocation, ApiTarget, Context, ExternalCitation};
use crate::error::without_bom;
use serde_json::Value;

/// What was sent to the API as documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sent {
    /// The context's chunks, in order, one document each.
    #[default]
    Chunks,
    /// The context's distinct documents (revisions), whole, in order of first appearance.
    Documents,
}

impl std::str::FromStr for Sent {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "chunks" => Ok(Sent::Chunks),
            "documents" => Ok(Sent::Documents),
            other => Err(format!(
                "unknown value {other:?} for what was sent; expected chunks or documents"
            )),
        }
    }
}

/// A response read (the one shape every provider's reader gives).
pub type AnthropicImport = super::providers::Import;

/// The citation types this reader knows.
pub const CITATION_TYPES: [&str; 5] = [
    "char_location",
    "page_location",
    "content_block_location",
    "search_result_location",
    "web_search_result_location",
];

/// The fields of a citation object of type `kind` that this reader reads, besides `type`: all
/// that an import takes from a citation, so all that may tell two imports apart
/// ([`citation_key`]). Kept beside [`read_citation`], which reads exactly these.
fn fields_read(kind: &str) -> &'static [&'static str] {
    match kind {
        "char_location" => &[
            "cited_text",
            "document_index",
            "start_char_index",
            "end_char_index",
        ],
        "page_location" => &[
            "cited_text",
            "document_index",
            "start_page_number",
            "end_page_number",
        ],
        "content_block_location" => &[
            "cited_text",
            "document_index",
            "start_block_index",
            "end_block_index",
        ],
        "search_result_location" => &[
            "cited_text",
            "search_result_index",
            "source",
            "start_block_index",
            "end_block_index",
        ],
        "web_search_result_location" => &["cited_text", "url", "title"],
        _ => &[],
    }
}

/// A citation object as this reader sees it: `type` and the fields read of that type, a
/// missing field and a `null` alike left out, built in one order whatever the input's. What an
/// SDK's `model_dump()` adds (`document_title: null`, `file_id: null`, `encrypted_index`), key
/// order and whitespace change nothing here, so the same response as a dict, JSON text or an
/// SDK object is one import: the store's answer key is made of this ([`super::record`]).
pub fn citation_key(raw: &Value) -> Value {
    let kind = raw.get("type").cloned().unwrap_or(Value::Null);
    if !CITATION_TYPES.contains(&kind.as_str().unwrap_or_default()) {
        // Another provider's citation: its reader builds it of what it read, nothing more.
        return raw.clone();
    }
    let mut key = serde_json::Map::new();
    for field in fields_read(kind.as_str().unwrap_or_default()) {
        match raw.get(*field) {
            None | Some(Value::Null) => {}
            Some(value) => {
                key.insert((*field).to_string(), value.clone());
            }
        }
    }
    key.insert("type".into(), kind);
    Value::Object(key)
}

/// One document as sent: its text, where that text sits in its revision, and its blocks.
struct SentDoc {
    doc_id: String,
    revision: u32,
    /// The revision offset of the document's first char (a chunk's start; 0 for a document).
    base: usize,
    /// The text as sent.
    text: String,
    /// Context chunk indexes: the document's blocks, in order.
    blocks: Vec<usize>,
}

fn documents_sent(context: &Context, sent: Sent) -> Vec<SentDoc> {
    match sent {
        Sent::Chunks => context
            .chunks
            .iter()
            .enumerate()
            .map(|(i, c)| SentDoc {
                doc_id: c.doc_id.clone(),
                revision: c.revision,
                base: c.start,
                text: c.text.clone(),
                blocks: vec![i],
            })
            .collect(),
        Sent::Documents => {
            let mut docs: Vec<SentDoc> = Vec::new();
            for (i, c) in context.chunks.iter().enumerate() {
                if let Some(doc) = docs
                    .iter_mut()
                    .find(|d| d.doc_id == c.doc_id && d.revision == c.revision)
                {
                    doc.blocks.push(i);
                    continue;
                }
                let text = context
                    .revisions
                    .get(&(c.doc_id.clone(), c.revision))
                    .cloned()
                    .unwrap_or_default();
                docs.push(SentDoc {
                    doc_id: c.doc_id.clone(),
                    revision: c.revision,
                    base: 0,
                    text,
                    blocks: vec![i],
                });
            }
            docs
        }
    }
}

fn err(path: String, message: impl Into<String>) -> AnswerError {
    AnswerError {
        path,
        message: message.into(),
    }
}

/// A non-negative integer field of a citation.
fn index(citation: &Value, path: &str, field: &str) -> Result<usize, AnswerError> {
    let at = format!("{path}.{field}");
    match citation.get(field) {
        None | Some(Value::Null) => Err(err(at, "missing; the API always sends it")),
        Some(v) => match v.as_i64() {
            Some(n) if n < 0 => Err(err(at, format!("{n} is negative; an index is 0 or more"))),
            Some(n) => Ok(n as usize),
            None => Err(err(at, format!("{v} is not an integer"))),
        },
    }
}

fn text_field(citation: &Value, path: &str, field: &str) -> Result<Option<String>, AnswerError> {
    match citation.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => Err(err(
            format!("{path}.{field}"),
            format!("{v} is not a string"),
        )),
    }
}

/// A half-open range `[start, end)` from two fields, refused when empty or reversed.
fn range(
    citation: &Value,
    path: &str,
    (start_field, end_field): (&str, &str),
) -> Result<(usize, usize), AnswerError> {
    let start = index(citation, path, start_field)?;
    let end = index(citation, path, end_field)?;
    if end <= start {
        return Err(err(
            format!("{path}.{end_field}"),
            format!(
                "{end_field} {end} is not after {start_field} {start}; the range is \
                 [start, end), end exclusive"
            ),
        ));
    }
    Ok((start, end))
}

/// One citation object read: an evidence string with its location, or an external citation.
enum Read {
    Located(Evidence, ApiLocation),
    External(ExternalCitation),
}

/// Char ranges of the pages of `text`: form-feed separated, as `pdftotext` writes them (it ends
/// every page with one, so a form feed at the very end starts no page).
fn pages(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut at = 0;
    for c in text.chars() {
        if c == '\u{c}' {
            out.push((start, at));
            start = at + 1;
        }
        at += 1;
    }
    if start < at || out.is_empty() {
        out.push((start, at));
    }
    out
}

fn read_citation(
    citation: &Value,
    path: &str,
    context: &Context,
    docs: &[SentDoc],
) -> Result<Read, AnswerError> {
    let kind = match citation.get("type") {
        Some(Value::String(k)) => k.clone(),
        Some(v) => return Err(err(format!("{path}.type"), format!("{v} is not a string"))),
        None => {
            return Err(err(
                format!("{path}.type"),
                "missing; a citation names its type",
            ))
        }
    };
    if !CITATION_TYPES.contains(&kind.as_str()) {
        return Err(err(
            format!("{path}.type"),
            format!(
                "unknown citation type {kind:?}; expected one of {}",
                CITATION_TYPES.join(", ")
            ),
        ));
    }
    let cited_text = text_field(citation, path, "cited_text")?.ok_or_else(|| {
        err(
            format!("{path}.cited_text"),
            "missing; the API always sends it",
        )
    })?;
    if kind == "web_search_result_location" {
        return Ok(Read::External(ExternalCitation {
            kind,
            url: text_field(citation, path, "url")?,
            title: text_field(citation, path, "title")?,
            cited_text,
            raw: citation.clone(),
        }));
    }
    // Every field is checked before the cited text: a bad index is named first, whatever it
    // cites.
    let (chunk_id, target, problem, describe) = match kind.as_str() {
        "search_result_location" => {
            let n = index(citation, path, "search_result_index")?;
            let blocks = range(citation, path, ("start_block_index", "end_block_index"))?;
            let source = text_field(citation, path, "source")?;
            search_result(context, n, source.as_deref(), blocks)
        }
        _ => {
            let n = index(citation, path, "document_index")?;
            let what = match kind.as_str() {
                "char_location" => Pointer::Chars(range(
                    citation,
                    path,
                    ("start_char_index", "end_char_index"),
                )?),
                "page_location" => {
                    let (start, end) =
                        range(citation, path, ("start_page_number", "end_page_number"))?;
                    if start < 1 {
                        return Err(err(
                            format!("{path}.start_page_number"),
                            "0 is not a page; pages are numbered from 1",
                        ));
                    }
                    Pointer::Pages(start, end)
                }
                _ => Pointer::Blocks(range(
                    citation,
                    path,
                    ("start_block_index", "end_block_index"),
                )?),
            };
            in_document(context, docs, n, &kind, what)
        }
    };
    if crate::text::is_blank(&cited_text) {
        // As `cite` refuses an empty quote: a citation that cites nothing is a broken response,
        // not a claim without evidence.
        return Err(err(
            format!("{path}.cited_text"),
            "the cited text is empty or has no visible characters (only whitespace or invisible \
             ones); the API always cites some text: check that this is the response as received",
        ));
    }
    Ok(Read::Located(
        Evidence::quoted(chunk_id, cited_text),
        ApiLocation {
            kind,
            raw: citation.clone(),
            target,
            problem,
            describe,
        },
    ))
}

enum Pointer {
    Chars((usize, usize)),
    Pages(usize, usize),
    Blocks((usize, usize)),
}

type Resolved = (String, Option<ApiTarget>, Option<String>, String);

/// The chunk id to name, the target, a problem when it names nothing we hold, a description.
fn in_document(
    context: &Context,
    docs: &[SentDoc],
    n: usize,
    kind: &str,
    what: Pointer,
) -> Resolved {
    let range_text = match &what {
        Pointer::Chars((s, e)) => format!("[{s}, {e})"),
        Pointer::Pages(s, e) if e - s == 1 => format!("page {s}"),
        Pointer::Pages(s, e) => format!("pages {s}-{}", e - 1),
        Pointer::Blocks((s, e)) => format!("blocks [{s}, {e})"),
    };
    let describe = format!("{kind} {range_text} of document {n}");
    let Some(doc) = docs.get(n) else {
        let problem = format!(
            "{} documents were sent, so there is no document {n}",
            docs.len()
        );
        return (format!("document_index {n}"), None, Some(problem), describe);
    };
    let chars = doc.text.chars().count();
    let span = match what {
        Pointer::Chars((s, e)) if e <= chars => Ok((doc.base + s, doc.base + e, true)),
        Pointer::Chars((_, e)) => Err(format!(
            "end_char_index {e} is past the end of document {n} ({chars} chars in our text)"
        )),
        Pointer::Pages(s, e) => {
            let pages = pages(&doc.text);
            if e - 1 > pages.len() {
                Err(format!(
                    "document {n} has {} page{} in our text",
                    pages.len(),
                    if pages.len() == 1 { "" } else { "s" }
                ))
            } else {
                Ok((doc.base + pages[s - 1].0, doc.base + pages[e - 2].1, false))
            }
        }
        Pointer::Blocks((s, e)) if e <= doc.blocks.len() => {
            let covered = &doc.blocks[s..e];
            let start = covered.iter().map(|&i| context.chunks[i].start).min();
            let end = covered.iter().map(|&i| context.chunks[i].end).max();
            Ok((start.unwrap_or(0), end.unwrap_or(0), false))
        }
        Pointer::Blocks((_, e)) => Err(format!(
            "end_block_index {e} is past document {n}'s {} block{}",
            doc.blocks.len(),
            if doc.blocks.len() == 1 { "" } else { "s" }
        )),
    };
    let chunk_id = |start: usize| {
        doc.blocks
            .iter()
            .map(|&i| &context.chunks[i])
            .find(|c| c.start <= start && start < c.end)
            .or_else(|| doc.blocks.first().map(|&i| &context.chunks[i]))
            .map(|c| c.chunk_id.clone())
            .unwrap_or_else(|| format!("document_index {n}"))
    };
    match span {
        Ok((start, end, exact)) => (
            chunk_id(start),
            Some(ApiTarget {
                doc_id: doc.doc_id.clone(),
                revision: doc.revision,
                start,
                end,
                exact,
            }),
            None,
            describe,
        ),
        Err(problem) => (chunk_id(doc.base), None, Some(problem), describe),
    }
}

fn search_result(
    context: &Context,
    n: usize,
    source: Option<&str>,
    (start, end): (usize, usize),
) -> Resolved {
    let describe = format!("search_result_location blocks [{start}, {end}) of search result {n}");
    let chunk = source
        .and_then(|s| context.resolve(s))
        .or_else(|| (n < context.chunks.len()).then_some(n));
    let Some(i) = chunk else {
        let problem = format!(
            "the context has {} chunks, and no chunk id or label is the result's source {:?}",
            context.chunks.len(),
            source.unwrap_or("")
        );
        return (
            format!("search_result_index {n}"),
            None,
            Some(problem),
            describe,
        );
    };
    let c = &context.chunks[i];
    if end > 1 {
        let problem = format!(
            "end_block_index {end} is past the one block of search result {n} (chunk {})",
            c.chunk_id
        );
        return (c.chunk_id.clone(), None, Some(problem), describe);
    }
    (
        c.chunk_id.clone(),
        Some(ApiTarget {
            doc_id: c.doc_id.clone(),
            revision: c.revision,
            start: c.start,
            end: c.end,
            exact: false,
        }),
        None,
        describe,
    )
}

/// Reads an Anthropic Messages response (`{"content": [...]}`) against `context`, the documents
/// sent being `sent` (see the module docs).
pub fn read_response(
    response_json: &str,
    context: &Context,
    sent: Sent,
) -> Result<AnthropicImport, AnswerError> {
    let response: Value = serde_json::from_str(without_bom(response_json)).map_err(|e| {
        err(
            "$".into(),
            format!("{e}; expected an Anthropic Messages response with `content` blocks"),
        )
    })?;
    let content = match response.get("content") {
        Some(Value::Array(blocks)) => blocks,
        Some(_) => return Err(err("content".into(), "not an array of content blocks")),
        None => {
            return Err(err(
                "$".into(),
                "missing field `content`; expected an Anthropic Messages response with \
                 `content` blocks",
            ))
        }
    };
    let docs = documents_sent(context, sent);
    let mut import = AnthropicImport {
        answer: Answer {
            claims: Vec::new(),
            text: None,
        },
        locations: Vec::new(),
        external: Vec::new(),
    };
    // Uncited text waiting for the next cited block.
    let mut pending = String::new();
    let mut any_citation = false;
    for (bi, block) in content.iter().enumerate() {
        if block.get("type").and_then(Value::as_str) != Some("text") {
            continue;
        }
        let path = format!("content[{bi}]");
        let text = text_field(block, &path, "text")?.unwrap_or_default();
        let citations = match block.get("citations") {
            None | Some(Value::Null) => &[][..],
            Some(Value::Array(c)) => c.as_slice(),
            Some(_) => return Err(err(format!("{path}.citations"), "not an array")),
        };
        if citations.is_empty() {
            pending.push_str(&text);
            continue;
        }
        any_citation = true;
        let mut evidence = Vec::new();
        let mut locations = Vec::new();
        let mut external = Vec::new();
        for (ci, citation) in citations.iter().enumerate() {
            let path = format!("{path}.citations[{ci}]");
            match read_citation(citation, &path, context, &docs)? {
                Read::Located(ev, location) => {
                    evidence.push(ev);
                    locations.push(Some(location));
                }
                Read::External(ext) => external.push(ext),
            }
        }
        let between = std::mem::take(&mut pending);
        let lead = match import.answer.claims.last_mut() {
            Some(previous) => {
                let (ends_previous, leads_next) = split_connective(&between);
                previous.text.push_str(ends_previous);
                leads_next
            }
            None => &between,
        };
        let prose = format!("{lead}{text}");
        import.answer.claims.push(Claim::new(prose, evidence));
        import.locations.push(locations);
        import.external.push(external);
    }
    if !any_citation {
        if !crate::text::is_blank(&pending) {
            import
                .answer
                .claims
                .push(Claim::new(pending.trim(), Vec::new()));
            import.locations.push(Vec::new());
            import.external.push(Vec::new());
        }
        return Ok(import);
    }
    if let Some(last) = import.answer.claims.last_mut() {
        last.text.push_str(&pending);
    }
    for claim in &mut import.answer.claims {
        // A claim led by the rest of a connective (", and the plan comparison says …") starts
        // at its first word.
        claim.text = claim
            .text
            .trim_start_matches(|c: char| c == ',' || c.is_whitespace())
            .trim_end()
            .to_string();
        if claim.text.is_empty() {
            claim.text = "(cited text block)".into();
        }
    }
    Ok(import)
}

/// Uncited text between two cited blocks, split where it stops belonging to the first: after
/// its last sentence end (`.`, `!`, `?`, `;` or `:` followed by whitespace). ". Information
/// from page 5 states that " ends the previous claim with "." and leads the next with the rest;
/// " and " leads the next claim whole.
fn split_connective(text: &str) -> (&str, &str) {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let cut = chars.windows(2).rev().find_map(|w| {
        let ((at, c), (_, next)) = (w[0], w[1]);
        (matches!(c, '.' | '!' | '?' | ';' | ':') && next.is_whitespace()).then_some(at + 1)
    });
    let cut = cut.or_else(|| {
        // A sentence end as the very last char also ends the previous claim.
        chars
            .last()
            .filter(|(_, c)| matches!(c, '.' | '!' | '?' | ';' | ':'))
            .map(|_| text.len())
    });
    match cut {
        Some(at) => text.split_at(at),
        None => ("", text),
    }
}

/// The answer alone, documents sent being the context's chunks (the reading before locations
/// were kept; [`read_response`] gives the locations too).
pub fn to_answer(response_json: &str, context: &Context) -> Result<Answer, AnswerError> {
    read_response(response_json, context, Sent::Chunks).map(|i| i.answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cite::ContextChunk;

    fn context() -> Context {
        let doc = "alpha one.\u{c}beta two. alpha one.";
        let chunk = |id: &str, start: usize, end: usize| ContextChunk {
            label: format!("L{start}"),
            chunk_id: id.into(),
            doc_id: "d".into(),
            revision: 1,
            content_hash: String::new(),
            normaliser: String::new(),
            start,
            end,
            text: doc.chars().skip(start).take(end - start).collect(),
            caller_id: None,
        };
        Context {
            id: "c".into(),
            chunks: vec![chunk("d@r1#0-11", 0, 11), chunk("d@r1#11-31", 11, 31)],
            revisions: [(("d".to_string(), 1), doc.to_string())].into(),
        }
    }

    #[test]
    fn connective_text_joins_claims() {
        let json = r#"{"content": [
            {"type": "text", "text": "According to the documents, "},
            {"type": "text", "text": "beta holds", "citations": [
                {"type": "char_location", "cited_text": "beta two.", "document_index": 1,
                 "document_title": null, "start_char_index": 0, "end_char_index": 9}]},
            {"type": "text", "text": " and "},
            {"type": "text", "text": "the web agrees", "citations": [
                {"type": "web_search_result_location", "cited_text": "x", "url": "https://example.org/",
                 "title": "Example", "encrypted_index": "abc"}]},
            {"type": "text", "text": "."}
        ]}"#;
        let import = read_response(json, &context(), Sent::Chunks).unwrap();
        let texts: Vec<&str> = import
            .answer
            .claims
            .iter()
            .map(|c| c.text.as_str())
            .collect();
        assert_eq!(
            texts,
            [
                "According to the documents, beta holds",
                "and the web agrees."
            ]
        );
        assert_eq!(import.answer.claims[0].evidence[0].chunk_id, "d@r1#11-31");
        let target = import.locations[0][0]
            .as_ref()
            .unwrap()
            .target
            .clone()
            .unwrap();
        assert_eq!((target.start, target.end, target.exact), (11, 20, true));
        assert!(import.answer.claims[1].evidence.is_empty());
        assert_eq!(
            import.external[1][0].url.as_deref(),
            Some("https://example.org/")
        );
    }

    #[test]
    fn locations_resolve_per_what_was_sent() {
        let ctx = context();
        let one = |citation: &str, sent: Sent| -> ApiLocation {
            let json = format!(
                r#"{{"content": [{{"type": "text", "text": "t", "citations": [{citation}]}}]}}"#
            );
            read_response(&json, &ctx, sent).unwrap().locations[0][0]
                .clone()
                .unwrap()
        };
        // (citation, sent, target start/end or None)
        type Case<'a> = (&'a str, Sent, Option<(usize, usize)>);
        let cases: [Case<'_>; 6] = [
            (
                r#"{"type": "char_location", "cited_text": "alpha one.", "document_index": 0, "start_char_index": 21, "end_char_index": 31}"#,
                Sent::Documents,
                Some((21, 31)),
            ),
            (
                r#"{"type": "page_location", "cited_text": "alpha one.", "document_index": 0, "start_page_number": 2, "end_page_number": 3}"#,
                Sent::Documents,
                Some((11, 31)),
            ),
            (
                r#"{"type": "page_location", "cited_text": "alpha one.", "document_index": 0, "start_page_number": 3, "end_page_number": 4}"#,
                Sent::Documents,
                None,
            ),
            (
                r#"{"type": "content_block_location", "cited_text": "alpha one.", "document_index": 0, "start_block_index": 0, "end_block_index": 2}"#,
                Sent::Documents,
                Some((0, 31)),
            ),
            (
                r#"{"type": "search_result_location", "cited_text": "beta", "search_result_index": 0, "source": "d@r1#11-31", "title": null, "start_block_index": 0, "end_block_index": 1}"#,
                Sent::Chunks,
                Some((11, 31)),
            ),
            (
                r#"{"type": "search_result_location", "cited_text": "beta", "search_result_index": 0, "source": "https://x", "title": null, "start_block_index": 0, "end_block_index": 1}"#,
                Sent::Chunks,
                Some((0, 11)),
            ),
        ];
        for (citation, sent, want) in cases {
            let got = one(citation, sent).target.map(|t| (t.start, t.end));
            assert_eq!(got, want, "{citation}");
        }
    }

    #[test]
    fn bad_citations_name_the_block_and_field() {
        let ctx = context();
        // (citation, path)
        let cases = [
            (
                r#"{"type": "quote_location", "cited_text": "a", "document_index": 0}"#,
                "content[0].citations[0].type",
            ),
            (
                r#"{"type": "char_location", "cited_text": "a", "document_index": 0, "start_char_index": 5, "end_char_index": 2}"#,
                "content[0].citations[0].end_char_index",
            ),
            (
                r#"{"type": "page_location", "cited_text": "a", "document_index": 0, "start_page_number": -3, "end_page_number": 2}"#,
                "content[0].citations[0].start_page_number",
            ),
            (
                r#"{"type": "page_location", "cited_text": "a", "document_index": 0, "start_page_number": 0, "end_page_number": 1}"#,
                "content[0].citations[0].start_page_number",
            ),
            (
                r#"{"type": "char_location", "cited_text": "a", "start_char_index": 0, "end_char_index": 1}"#,
                "content[0].citations[0].document_index",
            ),
        ];
        for (citation, path) in cases {
            let json = format!(
                r#"{{"content": [{{"type": "text", "text": "t", "citations": [{citation}]}}]}}"#
            );
            let e = read_response(&json, &ctx, Sent::Chunks).unwrap_err();
            assert_eq!(e.path, path, "{citation}: {e}");
        }
        assert_eq!(to_answer("{}", &ctx).unwrap_err().path, "$");
    }

    /// What an import reads of a response: everything but the citation objects as received.
    fn read_of(import: &AnthropicImport) -> String {
        let located: Vec<Vec<_>> = import
            .locations
            .iter()
            .map(|l| {
                l.iter()
                    .map(|l| {
                        l.as_ref()
                            .map(|l| (&l.kind, &l.target, &l.problem, &l.describe))
                    })
                    .collect()
            })
            .collect();
        let web: Vec<Vec<_>> = import
            .external
            .iter()
            .map(|e| {
                e.iter()
                    .map(|e| (&e.kind, &e.url, &e.title, &e.cited_text))
                    .collect()
            })
            .collect();
        format!("{:?} {located:?} {web:?}", import.answer)
    }

    /// [`citation_key`] keeps every field the reader reads: a response whose citations are
    /// replaced by their keys reads the same, for every citation type of the SDK.
    #[test]
    fn the_citation_key_keeps_all_that_is_read() {
        let fixture = include_str!("../../fixtures/anthropic/every-location-type.json");
        let mut response: Value = serde_json::from_str(fixture).unwrap();
        let mut kinds = std::collections::BTreeSet::new();
        for block in response["content"].as_array_mut().unwrap() {
            for citation in block["citations"].as_array_mut().into_iter().flatten() {
                kinds.insert(citation["type"].as_str().unwrap().to_string());
                *citation = citation_key(citation);
            }
        }
        let all: std::collections::BTreeSet<String> =
            CITATION_TYPES.iter().map(|k| k.to_string()).collect();
        assert_eq!(kinds, all, "the fixture has one citation of every type");
        for sent in [Sent::Chunks, Sent::Documents] {
            let given = read_response(fixture, &context(), sent).unwrap();
            let keyed = read_response(&response.to_string(), &context(), sent).unwrap();
            assert_eq!(read_of(&keyed), read_of(&given), "{sent:?}");
        }
    }

    #[test]
    fn connective_text_splits_at_its_last_sentence_end() {
        // (text between two cited blocks, to the previous claim, to the next)
        let cases = [
            (" and ", "", " and "),
            (". ", ".", " "),
            (
                ". Information from page 5 states that ",
                ".",
                " Information from page 5 states that ",
            ),
            ("; ", ";", " "),
            (".", ".", ""),
            (
                ", costing $0.12 each, and ",
                "",
                ", costing $0.12 each, and ",
            ),
            ("", "", ""),
        ];
        for (text, previous, next) in cases {
            assert_eq!(split_connective(text), (previous, next), "{text:?}");
        }
    }

    #[test]
    fn pages_are_form_feed_separated() {
        assert_eq!(pages("a\u{c}bc\u{c}"), [(0, 1), (2, 4)]);
        assert_eq!(pages("a\u{c}bc"), [(0, 1), (2, 4)]);
        assert_eq!(pages(""), [(0, 0)]);
    }

    #[test]
    fn a_response_without_citations_is_one_uncited_claim() {
        let json = r#"{"content": [{"type": "text", "text": "I could not find it "},
                                   {"type": "text", "text": "in the documents."}]}"#;
        let answer = to_answer(json, &context()).unwrap();
        assert_eq!(answer.claims.len(), 1);
        assert_eq!(
            answer.claims[0].text,
            "I could not find it in the documents."
        );
        assert!(answer.claims[0].evidence.is_empty());
    }
}
