//! LangChain's quoted-answer pattern (its "how to get a RAG application to add citations"
//! guide): the model fills `QuotedAnswer {answer, citations: [Citation {source_id, quote}]}`
//! over documents listed as `Source ID: i`, so `source_id` is the context chunk's index. The
//! guide's `CitedAnswer {answer, citations: [int]}` (ids only) names chunks without quotes:
//! `review` evidence. The whole answer is one claim.

use super::json::{err, items, kind_of, required_string};
use super::{answer, claim_at, Import};
use crate::cite::answer::AnswerError;
use crate::cite::Context;
use crate::model::citation::Evidence;
use serde_json::Value;

/// Reads `{answer, citations}` against `context`.
pub fn read(response: &Value, context: &Context) -> Result<Import, AnswerError> {
    let text = required_string(response, "", "answer")?;
    if crate::text::is_blank(&text) {
        return Err(err("answer", "the answer is empty"));
    }
    let mut evidence = Vec::new();
    for (citation, path) in items(response, "", "citations")? {
        let (n, quote) = match citation {
            Value::Object(_) => {
                let n = source_id(citation.get("source_id"), &format!("{path}.source_id"))?;
                let quote = required_string(citation, &path, "quote")?;
                if crate::text::is_blank(&quote) {
                    return Err(err(
                        format!("{path}.quote"),
                        "the quote has no visible characters; quote the source's words, or give \
                         its id alone",
                    ));
                }
                (n, Some(quote))
            }
            other => (source_id(Some(other), &path)?, None),
        };
        let name = match context.chunks.get(n) {
            Some(chunk) => chunk.chunk_id.clone(),
            None => format!("source_id {n}"),
        };
        evidence.push(match quote {
            Some(quote) => Evidence::quoted(name, quote),
            None => Evidence::chunk_only(name),
        });
    }
    let whole = (0, text.chars().count());
    let claims = vec![claim_at(&text, whole, evidence)];
    Ok(Import::of(answer(&text, claims), vec![Vec::new()]))
}

fn source_id(value: Option<&Value>, path: &str) -> Result<usize, AnswerError> {
    match value {
        Some(v) => v.as_u64().map(|n| n as usize).ok_or_else(|| {
            err(
                path,
                format!(
                    "{} is not a source id (an integer, 0 or more)",
                    match v {
                        Value::Number(n) => n.to_string(),
                        other => kind_of(other).to_string(),
                    }
                ),
            )
        }),
        None => Err(err(
            path,
            "missing; a citation names its source by source_id",
        )),
    }
}
