//! The model's answer, as `schemas/emit_answer.json` describes it, parsed with JSON paths in
//! every error so a user can find the bad field.

pub use crate::model::citation::{Answer, Claim, Evidence};

/// The tool schema the model fills in (`citestore schema` prints it).
pub const EMIT_ANSWER_SCHEMA: &str = include_str!("../../schemas/emit_answer.json");

/// Why an answer was refused, with the JSON path of the offending value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct AnswerError {
    /// Where, e.g. `claims[2].evidence[0].quote`.
    pub path: String,
    /// What is wrong and what is expected.
    pub message: String,
}

/// Parses and validates an answer; errors name the JSON path.
pub fn parse_answer(json: &str) -> Result<Answer, AnswerError> {
    let de = &mut serde_json::Deserializer::from_str(json);
    let answer: Answer = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let message = inner.to_string();
        if inner.is_syntax() || inner.is_eof() || path == "." || path == "?" {
            // Not JSON, or wrong at the top: the line and column are what locate it.
            return AnswerError {
                path: "$".into(),
                message: format!("{message} (see `citestore schema`)"),
            };
        }
        let message = message.split(" at line ").next().unwrap_or(&message);
        AnswerError {
            path,
            message: format!("{message} (see `citestore schema`)"),
        }
    })?;
    validate(&answer)?;
    Ok(answer)
}

fn empty(path: String, what: &str) -> AnswerError {
    AnswerError {
        path,
        message: format!("{what} is empty; the schema requires at least one character"),
    }
}

fn validate(answer: &Answer) -> Result<(), AnswerError> {
    for (i, claim) in answer.claims.iter().enumerate() {
        if claim.text.trim().is_empty() {
            return Err(empty(format!("claims[{i}].text"), "the claim"));
        }
        for (j, ev) in claim.evidence.iter().enumerate() {
            if ev.chunk_id.trim().is_empty() {
                return Err(empty(
                    format!("claims[{i}].evidence[{j}].chunk_id"),
                    "the chunk id",
                ));
            }
            if ev.quote.is_empty() {
                return Err(empty(
                    format!("claims[{i}].evidence[{j}].quote"),
                    "the quote",
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_json_path() {
        // (answer, path in the error)
        let cases = [
            ("{", "$"),
            (r#"{"claims": 3}"#, "claims"),
            (r#"{"claims": [{"text": "a"}]}"#, "claims[0]"),
            (
                r#"{"claims": [{"text": "a", "evidence": [{"chunk_id": "k", "quote": 5}]}]}"#,
                "claims[0].evidence[0].quote",
            ),
            (
                r#"{"claims": [{"text": "a", "evidence": []}, {"text": " ", "evidence": []}]}"#,
                "claims[1].text",
            ),
            (
                r#"{"claims": [{"text": "a", "evidence": [{"chunk_id": "k", "quote": ""}]}]}"#,
                "claims[0].evidence[0].quote",
            ),
            (r#"{"claims": [], "extra": 1}"#, "extra"),
        ];
        for (json, path) in cases {
            let err = parse_answer(json).unwrap_err();
            assert_eq!(err.path, path, "{json}: {err}");
        }
    }

    #[test]
    fn schema_is_valid_json_with_the_seed_structure() {
        let schema: serde_json::Value = serde_json::from_str(EMIT_ANSWER_SCHEMA).unwrap();
        let evidence =
            &schema["input_schema"]["properties"]["claims"]["items"]["properties"]["evidence"];
        assert_eq!(
            evidence["items"]["required"],
            serde_json::json!(["chunk_id", "quote"])
        );
    }
}
