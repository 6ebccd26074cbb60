//! Chunks the caller made: a RAG team whose own splitter (LangChain, LlamaIndex, …) cut the
//! chunks the model saw stores those spans as they are, each with an optional id of its own
//! (e.g. a vector-store id).
//!
//! Invariants (checked by [`check`] before anything is stored): every span is `start < end`
//! inside the text, in chars (Python `str` indices); ids are unique within one chunking, not
//! empty and without control characters; a chunk that carries its `text` must equal the text at
//! its span (this catches byte or UTF-16 offsets passed as chars). Overlaps and gaps are allowed:
//! the caller's chunks need not tile the text. They are stored in text order (by start, then
//! end), as every chunking is.

use crate::error::{without_bom, Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The spec stored beside a chunking made of caller chunks.
pub const CALLER_SPEC: &str = "caller";

/// Chunks a new revision of a caller-chunked document when the caller gives no chunks for it and
/// no chunker is given (`--chunker`) or configured (`[chunker]`): the caller's spans index the
/// old text, so they cannot be carried over.
pub const FALLBACK_SPEC: super::ChunkSpec = super::ChunkSpec::Paragraph { max: 1500 };

/// One chunk as the caller made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallerChunk {
    /// First char, in the document's text.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// The caller's id for it (unique within the chunking), by which `context --chunk` finds it.
    #[serde(default)]
    pub id: Option<String>,
    /// The chunk's text, when the caller has it: checked against the span, never stored.
    #[serde(default)]
    pub text: Option<String>,
}

/// A chunk and where it came from, for error messages (`CHUNKS.jsonl line 3`, `chunks[2]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// Where it was given.
    pub input: String,
    /// The chunk.
    pub chunk: CallerChunk,
}

fn bad(input: &str, message: impl Into<String>) -> Error {
    Error::BadChunks {
        input: input.to_string(),
        message: message.into(),
    }
}

/// Parses JSON Lines of `{"start", "end", "id"?, "text"?}` (other fields are ignored, blank
/// lines skipped); `name` is the file in errors.
pub fn parse_jsonl(name: &str, jsonl: &str) -> Result<Vec<Located>> {
    let mut out = Vec::new();
    for (i, line) in without_bom(jsonl).lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let input = format!("{name} line {}", i + 1);
        let chunk: CallerChunk = serde_json::from_str(line).map_err(|e| {
            let why = e.to_string();
            let why = why.split(" at line ").next().unwrap_or(&why).to_string();
            bad(
                &input,
                format!("{why}; each line is {{\"start\": N, \"end\": N, \"id\": \"…\"}}, offsets in chars"),
            )
        })?;
        out.push(Located { input, chunk });
    }
    if out.is_empty() {
        return Err(bad(
            name,
            "no chunks; give one {\"start\", \"end\", \"id\"} per line",
        ));
    }
    Ok(out)
}

/// Caller chunks from a JSON array (what a face's own layer made of its language's chunk
/// objects), each named `chunks[i]`; the error says what is wrong, then `list_hint` (for a
/// value that is not an array of objects) or `item_hint` (for one bad chunk), in the face's
/// words.
pub fn parse_json_list(
    json: &str,
    list_hint: &str,
    item_hint: &str,
) -> std::result::Result<Vec<Located>, String> {
    let values: Vec<serde_json::Value> =
        serde_json::from_str(json).map_err(|e| format!("chunks: {e}; {list_hint}"))?;
    values
        .into_iter()
        .enumerate()
        .map(|(i, value)| {
            let input = format!("chunks[{i}]");
            let chunk: CallerChunk =
                serde_json::from_value(value).map_err(|e| format!("{input}: {e}; {item_hint}"))?;
            Ok(Located { input, chunk })
        })
        .collect()
}

/// Checks caller chunks against the text they cut (see the module invariants).
pub fn check(chunks: &[Located], text: &str, doc_id: &str) -> Result<()> {
    if chunks.is_empty() {
        return Err(bad(
            doc_id,
            "no chunks given; give at least one {start, end}",
        ));
    }
    let char_len = text.chars().count();
    let mut seen: HashMap<&str, &str> = HashMap::new();
    let bytes_at: Vec<usize> = text
        .char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(text.len()))
        .collect();
    for Located { input, chunk } in chunks {
        let (start, end) = (chunk.start, chunk.end);
        if start >= end {
            return Err(bad(
                input,
                format!("start {start} is not before end {end}; a chunk is [start, end) in chars, start < end"),
            ));
        }
        if end > char_len {
            return Err(bad(
                input,
                format!("[{start}, {end}) runs past the end of {doc_id} ({char_len} chars); offsets are chars (Python str indices), not bytes"),
            ));
        }
        if let Some(id) = &chunk.id {
            check_id(input, id)?;
            if let Some(first) = seen.insert(id, input) {
                return Err(bad(
                    input,
                    format!("chunk id {id:?} is given twice (first at {first}); ids must be unique within a document's chunks"),
                ));
            }
        }
        if let Some(given) = &chunk.text {
            let at = &text[bytes_at[start]..bytes_at[end]];
            if given != at {
                return Err(bad(
                    input,
                    format!("its text differs from {doc_id}'s text at [{start}, {end}); offsets are chars (Python str indices) into the text ingested"),
                ));
            }
        }
    }
    Ok(())
}

fn check_id(input: &str, id: &str) -> Result<()> {
    if id.trim().is_empty() {
        return Err(bad(
            input,
            "chunk id is empty; leave \"id\" out or give a non-empty one",
        ));
    }
    if let Some(c) = id.chars().find(|c| c.is_control()) {
        return Err(bad(
            input,
            format!(
                "chunk id {id:?} holds the control character U+{:04X}",
                c as u32
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(start: usize, end: usize, id: Option<&str>, text: Option<&str>) -> Located {
        Located {
            input: "chunks[0]".into(),
            chunk: CallerChunk {
                start,
                end,
                id: id.map(String::from),
                text: text.map(String::from),
            },
        }
    }

    #[test]
    fn bad_chunks_are_refused_with_why() {
        let text = "Prix – 5 €. Second line.";
        let cases: &[(Vec<Located>, &str)] = &[
            (vec![chunk(3, 3, None, None)], "start 3 is not before end 3"),
            (vec![chunk(5, 2, None, None)], "start 5 is not before end 2"),
            (
                vec![chunk(0, 25, None, None)],
                "runs past the end of d (24 chars)",
            ),
            (
                vec![chunk(0, 4, Some("a"), None), chunk(2, 8, Some("a"), None)],
                "given twice",
            ),
            (vec![chunk(0, 4, Some(" "), None)], "chunk id is empty"),
            (vec![chunk(0, 4, Some("a\nb"), None)], "U+000A"),
            (vec![chunk(0, 4, None, Some("Prix "))], "its text differs"),
            (vec![], "no chunks given"),
        ];
        for (chunks, want) in cases {
            let err = check(chunks, text, "d").unwrap_err().to_string();
            assert!(err.contains(want), "{err} lacks {want}");
            assert!(!err.contains('\n'));
        }
    }

    #[test]
    fn overlaps_gaps_and_matching_text_are_fine() {
        let text = "Prix – 5 €. Second line.";
        let chunks = vec![
            chunk(0, 11, Some("v1"), Some("Prix – 5 €.")),
            chunk(5, 15, Some("v2"), None),
            chunk(18, 24, None, None),
        ];
        check(&chunks, text, "d").unwrap();
    }

    #[test]
    fn jsonl_names_the_line_and_ignores_other_fields() {
        let ok = parse_jsonl(
            "c.jsonl",
            "{\"start\":0,\"end\":4,\"id\":\"x\",\"score\":1}\n\n{\"start\":4,\"end\":9}\n",
        )
        .unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(ok[1].input, "c.jsonl line 3");
        let err =
            parse_jsonl("c.jsonl", "{\"start\":0,\"end\":4}\n{\"start\":\"a\"}\n").unwrap_err();
        assert!(
            err.to_string().starts_with("c.jsonl line 2: invalid type"),
            "{err}"
        );
        assert!(parse_jsonl("c.jsonl", "\n")
            .unwrap_err()
            .to_string()
            .contains("no chunks"));
    }
}
