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
    let json = crate::error::without_bom(json);
    // Not JSON at all is reported by the typed parse below, with its line and column.
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(json) {
        refuse_positional(&value)?;
    }
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

/// serde fills a struct from a JSON array by position (`["text", []]` as a claim); the schema
/// requires objects with named fields, so an array where an object belongs is refused, with its
/// path, before the typed parse could accept it.
fn refuse_positional(answer: &serde_json::Value) -> Result<(), AnswerError> {
    let refuse = |path: String| AnswerError {
        path,
        message: "an array where the schema requires an object; give the fields by name \
                  (see `citestore schema`)"
            .into(),
    };
    if answer.is_array() {
        return Err(refuse("$".into()));
    }
    only_schema_fields(answer, "", &["claims"])?;
    let Some(claims) = answer.get("claims").and_then(|c| c.as_array()) else {
        return Ok(());
    };
    for (i, claim) in claims.iter().enumerate() {
        if claim.is_array() {
            return Err(refuse(format!("claims[{i}]")));
        }
        only_schema_fields(claim, &format!("claims[{i}]."), &["text", "evidence"])?;
        let Some(evidence) = claim.get("evidence").and_then(|e| e.as_array()) else {
            continue;
        };
        if let Some(j) = evidence.iter().position(|ev| ev.is_array()) {
            return Err(refuse(format!("claims[{i}].evidence[{j}]")));
        }
        for (j, ev) in evidence.iter().enumerate() {
            only_schema_fields(
                ev,
                &format!("claims[{i}].evidence[{j}]."),
                &["chunk_id", "quote"],
            )?;
        }
    }
    Ok(())
}

/// The answer types also carry what provider imports add (the answer's text, answer spans,
/// unquoted evidence); the tool schema has none of it, so a model's answer giving them is
/// refused as serde refuses any other unknown field.
fn only_schema_fields(
    value: &serde_json::Value,
    at: &str,
    known: &[&str],
) -> Result<(), AnswerError> {
    let Some(object) = value.as_object() else {
        return Ok(());
    };
    match object.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => Err(AnswerError {
            path: format!("{at}{key}"),
            message: format!(
                "unknown field `{key}`, expected {} (see `citestore schema`)",
                known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        }),
        None => Ok(()),
    }
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
            if crate::text::is_blank(&ev.quote) {
                return Err(AnswerError {
                    path: format!("claims[{i}].evidence[{j}].quote"),
                    message: "the quote has no visible characters (only whitespace or \
                              invisible ones); quote the words of the chunk, or give the claim \
                              no evidence"
                        .into(),
                });
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
            // What provider imports carry is not the tool schema's.
            (r#"{"claims": [], "text": "an answer"}"#, "text"),
            (
                r#"{"claims": [{"text": "a", "evidence": [], "answer_span": {"start": 0, "end": 1}}]}"#,
                "claims[0].answer_span",
            ),
            (
                r#"{"claims": [{"text": "a", "evidence": [{"chunk_id": "k", "quote": "", "unquoted": true}]}]}"#,
                "claims[0].evidence[0].unquoted",
            ),
            // Positional arrays where the schema requires objects.
            (r#"[[]]"#, "$"),
            (r#"{"claims": [["a", []]]}"#, "claims[0]"),
            (
                r#"{"claims": [{"text": "a", "evidence": []}, {"text": "b", "evidence": [{"chunk_id": "k", "quote": "q"}, ["k", "q"]]}]}"#,
                "claims[1].evidence[1]",
            ),
            // A quote with no visible characters.
            (
                r#"{"claims": [{"text": "a", "evidence": [{"chunk_id": "k", "quote": " \u200b\n"}]}]}"#,
                "claims[0].evidence[0].quote",
            ),
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
