//! OpenAI's Responses API: each `output_text` of a `message` output item carries
//! `annotations[]`:
//! - `file_citation {file_id, filename, index}` (file search): `index` is the char position in
//!   the text where the citation stands, at the end of what it supports; the claim is the
//!   sentence (or the stretch since the previous citation) ending there. It names a file, never
//!   a quote: the file's chunk is `review` evidence, unless the response includes the search's
//!   results (`include: ["file_search_call.results"]`), whose `text` for that file are located
//!   like quotes.
//! - `url_citation {url, title, start_index, end_index}` (web search) and
//!   `container_file_citation {container_id, file_id, filename, start_index, end_index}` (a
//!   file the code interpreter wrote): outside the store, kept as external citations of the
//!   answer's `[start_index, end_index)`.
//! - `file_path` (a link to a generated file) cites nothing and is passed over.
//!
//! Files map by `file_id` or `filename` onto the context (a chunk's id or caller id, a document
//! id, or a path ending in one). Offsets are chars (the API's text is indexed as Python
//! strings).

use super::json::{err, index, items, required_string, string};
use super::offsets::slice;
use super::{answer, claim_at, external, names, uncited, Import};
use crate::cite::answer::AnswerError;
use crate::cite::Context;
use crate::model::citation::{Evidence, ExternalCitation};
use serde_json::Value;
use std::collections::BTreeMap;

/// What a claim is made of before it is built: its evidence and external citations.
#[derive(Default)]
struct Cited {
    evidence: Vec<Evidence>,
    external: Vec<ExternalCitation>,
}

/// Reads a Responses API response (`{"output": [...]}`) against `context`.
pub fn read(response: &Value, context: &Context) -> Result<Import, AnswerError> {
    let output = items(response, "", "output")?;
    if output.is_empty() && response.get("output").is_none() {
        return Err(err(
            "output",
            "missing; expected an OpenAI Responses API response with `output` items",
        ));
    }
    let results = search_results(&output)?;
    let mut text = String::new();
    // Claims by their span in the whole answer, in answer order.
    let mut claims: BTreeMap<(usize, usize), Cited> = BTreeMap::new();
    for (item, path) in &output {
        if string(item, path, "type")?.as_deref() != Some("message") {
            continue;
        }
        for (content, c_at) in items(item, path, "content")? {
            if string(content, &c_at, "type")?.as_deref() != Some("output_text") {
                continue;
            }
            let part = required_string(content, &c_at, "text")?;
            let base = text.chars().count();
            text.push_str(&part);
            read_annotations(content, &c_at, &part, base, &results, context, &mut claims)?;
        }
    }
    if claims.is_empty() {
        return Ok(uncited(&text));
    }
    let mut built = Vec::new();
    let mut externals = Vec::new();
    for (span, cited) in claims {
        built.push(claim_at(&text, span, cited.evidence));
        externals.push(cited.external);
    }
    Ok(Import::of(answer(&text, built), externals))
}

/// `file_search_call` results by file id: the retrieved texts, in order.
fn search_results(
    output: &[(&Value, String)],
) -> Result<BTreeMap<String, Vec<String>>, AnswerError> {
    let mut by_file: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (item, path) in output {
        if string(item, path, "type")?.as_deref() != Some("file_search_call") {
            continue;
        }
        for (result, r_at) in items(item, path, "results")? {
            let file = required_string(result, &r_at, "file_id")?;
            if let Some(text) = string(result, &r_at, "text")? {
                if !crate::text::is_blank(&text) {
                    by_file.entry(file).or_default().push(text);
                }
            }
        }
    }
    Ok(by_file)
}

#[allow(clippy::too_many_arguments)]
fn read_annotations(
    content: &Value,
    at: &str,
    part: &str,
    base: usize,
    results: &BTreeMap<String, Vec<String>>,
    context: &Context,
    claims: &mut BTreeMap<(usize, usize), Cited>,
) -> Result<(), AnswerError> {
    let chars = part.chars().count();
    let mut since = 0;
    let mut last: Option<(usize, usize)> = None;
    for (note, path) in items(content, at, "annotations")? {
        let kind = required_string(note, &path, "type")?;
        match kind.as_str() {
            "file_citation" => {
                let at_char = index(note, &path, "index")?.ok_or_else(|| {
                    err(format!("{path}.index"), "missing; the API always sends it")
                })?;
                if at_char > chars {
                    return Err(err(
                        format!("{path}.index"),
                        format!("{at_char} is past the end of the text ({chars} chars)"),
                    ));
                }
                // A second citation at the same place supports the same claim.
                let span = match sentence_before(part, since, at_char) {
                    Some(span) => span,
                    None => match last {
                        Some(span) => span,
                        None => continue,
                    },
                };
                (since, last) = (at_char.max(since), Some(span));
                let file = required_string(note, &path, "file_id")?;
                let filename = string(note, &path, "filename")?;
                let mut names = vec![file.as_str()];
                names.extend(filename.as_deref());
                let claim = slice(part, span);
                let cited = claims.entry((base + span.0, base + span.1)).or_default();
                match results.get(&file) {
                    Some(texts) => {
                        for quote in texts {
                            let ev = names::evidence(context, &names, &claim, Some(quote));
                            if !cited.evidence.contains(&ev) {
                                cited.evidence.push(ev);
                            }
                        }
                    }
                    None => {
                        let ev = names::evidence(context, &names, &claim, None);
                        if !cited.evidence.contains(&ev) {
                            cited.evidence.push(ev);
                        }
                    }
                }
            }
            "url_citation" | "container_file_citation" => {
                let start = index(note, &path, "start_index")?;
                let end = index(note, &path, "end_index")?;
                let (Some(start), Some(end)) = (start, end) else {
                    return Err(err(
                        format!("{path}.start_index"),
                        "missing; the API always sends start_index and end_index",
                    ));
                };
                if start >= end || end > chars {
                    return Err(err(
                        format!("{path}.end_index"),
                        format!(
                            "[{start}, {end}) is not a stretch of the text ({chars} chars); the \
                             range is [start, end), end exclusive"
                        ),
                    ));
                }
                let (url, title) = if kind == "url_citation" {
                    (string(note, &path, "url")?, string(note, &path, "title")?)
                } else {
                    (None, string(note, &path, "filename")?)
                };
                let cited = slice(part, (start, end));
                let claim = claims.entry((base + start, base + end)).or_default();
                claim.external.push(external(&kind, url, title, &cited));
            }
            "file_path" => {}
            other => {
                return Err(err(
                    format!("{path}.type"),
                    format!(
                        "unknown annotation type {other:?}; expected file_citation, \
                         url_citation, container_file_citation or file_path"
                    ),
                ))
            }
        }
    }
    Ok(())
}

/// The claim a citation at char `at` supports: from the start of the sentence that ends there
/// (not before `since`, the previous citation) to `at`, trimmed; `None` when that is blank (a
/// second citation at the same place joins the first's claim through the caller's map).
fn sentence_before(text: &str, since: usize, at: usize) -> Option<(usize, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut end = at;
    while end > since && chars[end - 1].is_whitespace() {
        end -= 1;
    }
    if end == since {
        // Same place as the previous citation: its claim.
        return None;
    }
    // The sentence's start: after the last sentence end before its own final char.
    let mut start = end - 1;
    while start > since {
        let c = chars[start - 1];
        let next_blank = chars.get(start).is_some_and(|n| n.is_whitespace());
        if c == '\n' || (matches!(c, '.' | '!' | '?') && next_blank) {
            break;
        }
        start -= 1;
    }
    while start < end && chars[start].is_whitespace() {
        start += 1;
    }
    (start < end).then_some((start, end))
}

#[cfg(test)]
mod tests {
    use super::sentence_before;

    #[test]
    fn a_file_citation_supports_the_sentence_ending_at_it() {
        let text = "Penguins swim. Emperors are tallest. They live south.";
        // (since, at, claim)
        let cases = [
            (0, 36, Some("Emperors are tallest.")),
            (0, 14, Some("Penguins swim.")),
            (0, 53, Some("They live south.")),
            (36, 36, None),
            (20, 36, Some("ors are tallest.")),
        ];
        for (since, at, want) in cases {
            let got = sentence_before(text, since, at).map(|(a, b)| &text[a..b]);
            assert_eq!(got, want, "{since}..{at}");
        }
    }
}
