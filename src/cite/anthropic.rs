//! Citations from an Anthropic Citations API response, turned into an [`Answer`] so they are
//! re-located in our stored text exactly like a model's quotes.
//!
//! The API's `start_char_index`/`end_char_index` index the document text that was *sent*, which
//! need not be our raw revision (a different extractor, a trimmed chunk), so only `cited_text` is
//! trusted; it is located again. The documents sent are taken to be the context's chunks, in the
//! context's order: `document_index` i is chunk i. Text blocks with citations become claims;
//! text blocks without any become uncited claims (never silently passed), blank ones are skipped.

use super::answer::{Answer, AnswerError, Claim, Evidence};
use super::Context;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
struct Response {
    content: Vec<Block>,
}

#[derive(Debug, Deserialize)]
struct Block {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    citations: Option<Vec<Citation>>,
}

#[derive(Debug, Deserialize)]
struct Citation {
    cited_text: String,
    document_index: usize,
}

/// Converts an Anthropic Messages response with citations into an answer over `context`.
pub fn to_answer(response_json: &str, context: &Context) -> Result<Answer, AnswerError> {
    let de = &mut serde_json::Deserializer::from_str(response_json);
    let response: Response = serde_path_to_error::deserialize(de).map_err(|e| AnswerError {
        path: match e.path().to_string() {
            p if p == "." || p == "?" => "$".into(),
            p => p,
        },
        message: format!(
            "{}; expected an Anthropic Messages response with `content` blocks",
            e.into_inner()
        ),
    })?;
    let mut claims = Vec::new();
    for block in response.content.iter().filter(|b| b.kind == "text") {
        let text = block.text.trim();
        let evidence: Vec<Evidence> = block
            .citations
            .iter()
            .flatten()
            .filter(|c| !crate::text::is_blank(&c.cited_text))
            .map(|c| Evidence {
                chunk_id: context
                    .chunks
                    .get(c.document_index)
                    .map(|chunk| chunk.chunk_id.clone())
                    .unwrap_or_else(|| format!("document_index {}", c.document_index)),
                quote: c.cited_text.clone(),
            })
            .collect();
        if text.is_empty() && evidence.is_empty() {
            continue;
        }
        claims.push(Claim {
            text: if text.is_empty() {
                "(cited text block)".into()
            } else {
                text.to_string()
            },
            evidence,
        });
    }
    Ok(Answer { claims })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cite::ContextChunk;

    fn context() -> Context {
        let chunk = |id: &str, text: &str| ContextChunk {
            label: String::new(),
            chunk_id: id.into(),
            doc_id: "d".into(),
            revision: 1,
            content_hash: String::new(),
            start: 0,
            end: text.chars().count(),
            text: text.into(),
            caller_id: None,
        };
        Context {
            id: "c".into(),
            chunks: vec![chunk("d@r1#0-10", "alpha"), chunk("d@r1#10-20", "beta")],
            revisions: Default::default(),
        }
    }

    #[test]
    fn blocks_become_claims_by_document_index() {
        let json = r#"{"content": [
            {"type": "text", "text": "According to the documents, "},
            {"type": "text", "text": "beta holds.", "citations": [
                {"type": "char_location", "cited_text": "beta", "document_index": 1,
                 "document_title": null, "start_char_index": 0, "end_char_index": 4}]},
            {"type": "text", "text": "Missing.", "citations": [
                {"type": "char_location", "cited_text": "x", "document_index": 7,
                 "document_title": null, "start_char_index": 0, "end_char_index": 1}]},
            {"type": "text", "text": "  "}
        ]}"#;
        let answer = to_answer(json, &context()).unwrap();
        assert_eq!(answer.claims.len(), 3);
        assert!(
            answer.claims[0].evidence.is_empty(),
            "uncited connective text is kept"
        );
        assert_eq!(answer.claims[1].evidence[0].chunk_id, "d@r1#10-20");
        assert_eq!(answer.claims[2].evidence[0].chunk_id, "document_index 7");
        assert_eq!(to_answer("{}", &context()).unwrap_err().path, "$");
    }
}
