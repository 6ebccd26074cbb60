//! Reading a provider's JSON with the path of every value, so an error names where it is. Each
//! field is looked up under its REST name and its Python SDK name (`groundingChunks`,
//! `grounding_chunks`): the same response as JSON text or an SDK's dump reads the same.

use super::Format;
use crate::cite::answer::AnswerError;
use serde_json::Value;

pub(super) fn err(path: impl Into<String>, message: impl Into<String>) -> AnswerError {
    AnswerError {
        path: path.into(),
        message: message.into(),
    }
}

/// The response parsed; not JSON, or not an object, is an error at `$`.
pub(super) fn parse(text: &str, format: Format) -> Result<Value, AnswerError> {
    let value: Value = serde_json::from_str(crate::error::without_bom(text))
        .map_err(|e| err("$", format!("{e}; expected a {format} response as JSON")))?;
    if !value.is_object() {
        return Err(err(
            "$",
            format!("not a JSON object; expected a {format} response"),
        ));
    }
    Ok(value)
}

/// `path.name`, or `name` at the top.
pub(super) fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// The camelCase name's snake_case twin (`groundingChunkIndices` → `grounding_chunk_indices`).
fn snake(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The field `name` of `value` (or its snake_case twin), `None` when absent or `null`, with
/// its path.
pub(super) fn field<'v>(value: &'v Value, path: &str, name: &str) -> Option<(&'v Value, String)> {
    let twin = snake(name);
    let found = [name, twin.as_str()]
        .into_iter()
        .find_map(|n| match value.get(n) {
            None | Some(Value::Null) => None,
            Some(v) => Some((v, join(path, n))),
        });
    found
}

/// An optional string field.
pub(super) fn string(value: &Value, path: &str, name: &str) -> Result<Option<String>, AnswerError> {
    match field(value, path, name) {
        None => Ok(None),
        Some((Value::String(s), _)) => Ok(Some(s.clone())),
        Some((v, at)) => Err(err(at, format!("{v} is not a string"))),
    }
}

/// A string field the shape requires.
pub(super) fn required_string(
    value: &Value,
    path: &str,
    name: &str,
) -> Result<String, AnswerError> {
    string(value, path, name)?
        .ok_or_else(|| err(join(path, name), "missing; the provider always sends it"))
}

/// An optional non-negative integer field.
pub(super) fn index(value: &Value, path: &str, name: &str) -> Result<Option<usize>, AnswerError> {
    match field(value, path, name) {
        None => Ok(None),
        Some((v, at)) => match v.as_i64() {
            Some(n) if n < 0 => Err(err(at, format!("{n} is negative; an index is 0 or more"))),
            Some(n) => Ok(Some(n as usize)),
            None => Err(err(at, format!("{v} is not an integer"))),
        },
    }
}

/// An optional array field, empty when absent, with each item's path.
pub(super) fn items<'v>(
    value: &'v Value,
    path: &str,
    name: &str,
) -> Result<Vec<(&'v Value, String)>, AnswerError> {
    match field(value, path, name) {
        None => Ok(Vec::new()),
        Some((Value::Array(items), at)) => Ok(items
            .iter()
            .enumerate()
            .map(|(i, v)| (v, format!("{at}[{i}]")))
            .collect()),
        Some((v, at)) => Err(err(at, format!("{} is not an array", kind_of(v)))),
    }
}

/// An object field the shape requires.
pub(super) fn object<'v>(
    value: &'v Value,
    path: &str,
    name: &str,
) -> Result<(&'v Value, String), AnswerError> {
    match field(value, path, name) {
        Some((v, at)) if v.is_object() => Ok((v, at)),
        Some((v, at)) => Err(err(at, format!("{} is not an object", kind_of(v)))),
        None => Err(err(
            join(path, name),
            "missing; the provider always sends it",
        )),
    }
}

/// "a string", "an array", … for messages.
pub(super) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
