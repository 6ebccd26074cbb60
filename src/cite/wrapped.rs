//! An `emit_answer` answer as the model APIs hand it back, unwrapped: the tool input object
//! itself, or wrapped by Anthropic's Messages API or OpenAI's Chat Completions or Responses API.
//!
//! Shapes recognised (by their own fields, never by guessing from content):
//! - the tool input object: `{"claims": [...]}`;
//! - an Anthropic `tool_use` block `{"type": "tool_use", "name", "input": {...}}`, or a whole
//!   Messages response `{"type": "message", "content": [..., tool_use, ...]}`;
//! - an OpenAI Chat Completions response `{"object": "chat.completion", "choices": [{"message":
//!   {"tool_calls": [...]}}]}`, one `tool_calls` entry `{"type": "function", "function":
//!   {"name", "arguments": "<JSON string>"}}`, or the `arguments` string itself (a JSON string
//!   holding the object);
//! - an OpenAI Responses API `function_call` item `{"type": "function_call", "name",
//!   "arguments": "<JSON string>"}`, or a whole Responses object `{"object": "response",
//!   "output": [...]}`.
//!
//! Where a response holds several tool calls, the one named `emit_answer` is taken; several of
//! those, or none and several others, is an error naming them. Invariant: every error names the
//! JSON path in the file as given, down into the arguments string
//! (`choices[0].message.tool_calls[0].function.arguments.claims[0].text`).

use super::answer::{parse_answer, Answer, AnswerError};
use serde_json::Value;

/// The tool's name in `schemas/emit_answer.json`.
pub const TOOL_NAME: &str = "emit_answer";

/// Which wrapper an answer came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerShape {
    /// The tool input object itself.
    ToolInput,
    /// The `arguments` string of an OpenAI tool call, on its own.
    ArgumentsString,
    /// An Anthropic `tool_use` content block.
    AnthropicToolUse,
    /// A whole Anthropic Messages response.
    AnthropicMessage,
    /// An OpenAI Chat Completions response.
    OpenAiChatCompletion,
    /// One entry of a Chat Completions message's `tool_calls`.
    OpenAiToolCall,
    /// An OpenAI Responses API `function_call` output item.
    OpenAiFunctionCall,
    /// A whole OpenAI Responses API response.
    OpenAiResponse,
}

impl AnswerShape {
    /// A short name for messages and output.
    pub fn as_str(self) -> &'static str {
        match self {
            AnswerShape::ToolInput => "tool input",
            AnswerShape::ArgumentsString => "arguments string",
            AnswerShape::AnthropicToolUse => "anthropic tool_use block",
            AnswerShape::AnthropicMessage => "anthropic message",
            AnswerShape::OpenAiChatCompletion => "openai chat completion",
            AnswerShape::OpenAiToolCall => "openai tool call",
            AnswerShape::OpenAiFunctionCall => "openai function_call item",
            AnswerShape::OpenAiResponse => "openai response",
        }
    }
}

fn err(path: impl Into<String>, message: impl Into<String>) -> AnswerError {
    AnswerError {
        path: path.into(),
        message: message.into(),
    }
}

/// `inner` (a path inside the unwrapped answer, `$` for its top) under `prefix`.
fn join(prefix: &str, inner: &str) -> String {
    match (prefix, inner) {
        ("", inner) => inner.to_string(),
        (prefix, "$") => prefix.to_string(),
        (prefix, inner) if inner.starts_with('[') => format!("{prefix}{inner}"),
        (prefix, inner) => format!("{prefix}.{inner}"),
    }
}

/// Parses an answer in any of the shapes in the module docs; errors name the JSON path in the
/// text as given.
///
/// ```
/// use citestore::cite::wrapped::{parse_wrapped_answer, AnswerShape};
///
/// let call = r#"{"type": "function_call", "call_id": "call_1", "name": "emit_answer",
///   "arguments": "{\"claims\": [{\"text\": \"t\", \"evidence\": []}]}"}"#;
/// let (answer, shape) = parse_wrapped_answer(call).unwrap();
/// assert_eq!((answer.claims.len(), shape), (1, AnswerShape::OpenAiFunctionCall));
/// ```
pub fn parse_wrapped_answer(json: &str) -> Result<(Answer, AnswerShape), AnswerError> {
    let json = crate::error::without_bom(json);
    let Ok(value) = serde_json::from_str::<Value>(json) else {
        // Not JSON: the plain parser reports the line and column.
        return parse_answer(json).map(|a| (a, AnswerShape::ToolInput));
    };
    let (shape, path, inner) = unwrap(&value)?;
    let answer = match inner {
        Inner::Text(text) => parse_answer(text),
        Inner::Object(object) => parse_answer(&object.to_string()),
    }
    .map_err(|e| err(join(&path, &e.path), e.message))?;
    Ok((answer, shape))
}

enum Inner<'a> {
    /// A JSON string holding the answer (OpenAI's `arguments`).
    Text(&'a str),
    /// The answer object (Anthropic's `input`).
    Object(&'a Value),
}

fn kind(value: &Value) -> Option<&str> {
    value.get("type").and_then(Value::as_str)
}

fn unwrap(value: &Value) -> Result<(AnswerShape, String, Inner<'_>), AnswerError> {
    if let Value::String(text) = value {
        return Ok((
            AnswerShape::ArgumentsString,
            String::new(),
            Inner::Text(text),
        ));
    }
    let Some(object) = value.as_object() else {
        // An array or a scalar: the plain parser names what is wrong with it.
        return Ok((AnswerShape::ToolInput, String::new(), Inner::Object(value)));
    };
    if object.contains_key("claims") {
        return Ok((AnswerShape::ToolInput, String::new(), Inner::Object(value)));
    }
    match kind(value) {
        Some("tool_use") => {
            let input = value
                .get("input")
                .ok_or_else(|| err("input", "a tool_use block without `input`"))?;
            return Ok((
                AnswerShape::AnthropicToolUse,
                "input".into(),
                Inner::Object(input),
            ));
        }
        Some("function") if value.get("function").is_some() => {
            let (path, inner) = arguments(&value["function"], "function")?;
            return Ok((AnswerShape::OpenAiToolCall, path, inner));
        }
        Some("function_call") => {
            let (path, inner) = arguments(value, "")?;
            return Ok((AnswerShape::OpenAiFunctionCall, path, inner));
        }
        _ => {}
    }
    if let Some(content) = value.get("content").and_then(Value::as_array) {
        let has_tool_use = content.iter().any(|b| kind(b) == Some("tool_use"));
        let has_citations = content.iter().any(|b| {
            b.get("citations")
                .and_then(Value::as_array)
                .is_some_and(|c| !c.is_empty())
        });
        if !has_tool_use && has_citations {
            return Err(err(
                "content",
                "a Citations API response (text blocks with citations), not an emit_answer \
                 tool call; cite it with `citestore import-anthropic`",
            ));
        }
        let calls = named_calls(content, "content", |b| {
            (kind(b) == Some("tool_use")).then(|| b.get("name").and_then(Value::as_str))
        })?;
        let (i, block) = calls;
        let input = block.get("input").ok_or_else(|| {
            err(
                format!("content[{i}].input"),
                "a tool_use block without `input`",
            )
        })?;
        return Ok((
            AnswerShape::AnthropicMessage,
            format!("content[{i}].input"),
            Inner::Object(input),
        ));
    }
    if let Some(choices) = value.get("choices").and_then(Value::as_array) {
        if choices.len() != 1 {
            return Err(err(
                "choices",
                format!(
                    "{} choices; pass a response with one choice (n=1), or one tool_calls entry",
                    choices.len()
                ),
            ));
        }
        let calls = choices[0]
            .pointer("/message/tool_calls")
            .and_then(Value::as_array)
            .ok_or_else(|| {
                err(
                    "choices[0].message.tool_calls",
                    "the response has no tool calls; ask for the emit_answer tool \
                     (`citestore schema --format openai`)",
                )
            })?;
        let (i, call) = named_calls(calls, "choices[0].message.tool_calls", |c| {
            Some(c.pointer("/function/name").and_then(Value::as_str))
        })?;
        let (path, inner) = arguments(
            &call["function"],
            &format!("choices[0].message.tool_calls[{i}].function"),
        )?;
        return Ok((AnswerShape::OpenAiChatCompletion, path, inner));
    }
    if let Some(output) = value.get("output").and_then(Value::as_array) {
        let (i, item) = named_calls(output, "output", |item| {
            (kind(item) == Some("function_call")).then(|| item.get("name").and_then(Value::as_str))
        })?;
        let (path, inner) = arguments(item, &format!("output[{i}]"))?;
        return Ok((AnswerShape::OpenAiResponse, path, inner));
    }
    // Nothing recognised: the plain parser says `claims` is missing, and the hint names the
    // shapes that would have been taken.
    Err(err(
        "$",
        "neither an emit_answer tool input (`claims`) nor a tool call from a known API \
         (Anthropic tool_use / Messages response; OpenAI tool_calls entry, Chat Completions \
         response, Responses function_call item or response); see `citestore schema`",
    ))
}

/// The one call among `items` to take: `call_name` says whether an item is a tool call (and
/// its name). The call named [`TOOL_NAME`] when there is one, else the only call.
fn named_calls<'v>(
    items: &'v [Value],
    path: &str,
    call_name: impl Fn(&Value) -> Option<Option<&str>>,
) -> Result<(usize, &'v Value), AnswerError> {
    let calls: Vec<(usize, Option<&str>)> = items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| call_name(item).map(|name| (i, name)))
        .collect();
    let ours: Vec<usize> = calls
        .iter()
        .filter(|(_, name)| *name == Some(TOOL_NAME))
        .map(|(i, _)| *i)
        .collect();
    match (ours.as_slice(), calls.as_slice()) {
        ([i], _) => Ok((*i, &items[*i])),
        ([], [(i, _)]) => Ok((*i, &items[*i])),
        ([], []) => Err(err(
            path,
            "no tool call in the response; ask for the emit_answer tool (see `citestore schema`)",
        )),
        ([], many) => Err(err(
            path,
            format!(
                "{} tool calls and none named {TOOL_NAME} ({}); pass the one that holds the answer",
                many.len(),
                many.iter()
                    .map(|(i, n)| format!("[{i}] {}", n.unwrap_or("unnamed")))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
        (many, _) => Err(err(
            path,
            format!(
                "{} calls of {TOOL_NAME} (at {}); pass the one to cite",
                many.len(),
                many.iter()
                    .map(|i| format!("[{i}]"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// The `arguments` of a function call object at `path`: the JSON string OpenAI returns (or an
/// object, as some compatible servers send).
fn arguments<'v>(call: &'v Value, path: &str) -> Result<(String, Inner<'v>), AnswerError> {
    let at = join(path, "arguments");
    match call.get("arguments") {
        Some(Value::String(text)) => Ok((at, Inner::Text(text))),
        Some(object @ Value::Object(_)) => Ok((at, Inner::Object(object))),
        Some(_) => Err(err(at, "not a JSON string holding the tool's arguments")),
        None => Err(err(at, "missing: a function call without `arguments`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARGS: &str =
        r#"{"claims": [{"text": "t", "evidence": [{"chunk_id": "k", "quote": "q"}]}]}"#;

    #[test]
    fn every_shape_unwraps() {
        let args = serde_json::to_string(ARGS).unwrap(); // as a JSON string
        let cases: Vec<(String, AnswerShape)> = vec![
            (ARGS.into(), AnswerShape::ToolInput),
            (args.clone(), AnswerShape::ArgumentsString),
            (
                format!(
                    r#"{{"type": "tool_use", "id": "toolu_1", "name": "emit_answer", "input": {ARGS}}}"#
                ),
                AnswerShape::AnthropicToolUse,
            ),
            (
                format!(
                    r#"{{"type": "message", "role": "assistant", "content": [
                        {{"type": "text", "text": "Here."}},
                        {{"type": "tool_use", "id": "toolu_1", "name": "emit_answer", "input": {ARGS}}}]}}"#
                ),
                AnswerShape::AnthropicMessage,
            ),
            (
                format!(
                    r#"{{"object": "chat.completion", "choices": [{{"index": 0, "message": {{"role": "assistant",
                        "content": null, "tool_calls": [{{"id": "call_1", "type": "function",
                        "function": {{"name": "emit_answer", "arguments": {args}}}}}]}}}}]}}"#
                ),
                AnswerShape::OpenAiChatCompletion,
            ),
            (
                format!(
                    r#"{{"id": "call_1", "type": "function", "function": {{"name": "emit_answer", "arguments": {args}}}}}"#
                ),
                AnswerShape::OpenAiToolCall,
            ),
            (
                format!(
                    r#"{{"type": "function_call", "call_id": "c", "name": "emit_answer", "arguments": {args}}}"#
                ),
                AnswerShape::OpenAiFunctionCall,
            ),
            (
                format!(
                    r#"{{"object": "response", "output": [{{"type": "reasoning", "summary": []}},
                        {{"type": "function_call", "call_id": "c", "name": "emit_answer", "arguments": {args}}}]}}"#
                ),
                AnswerShape::OpenAiResponse,
            ),
        ];
        for (json, shape) in cases {
            let (answer, got) =
                parse_wrapped_answer(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(got, shape);
            assert_eq!(answer.claims[0].evidence[0].quote, "q");
        }
    }

    #[test]
    fn errors_name_the_path_through_the_wrapper() {
        let bad = serde_json::to_string(r#"{"claims": [{"text": "", "evidence": []}]}"#).unwrap();
        let cases = [
            (
                format!(
                    r#"{{"choices": [{{"message": {{"tool_calls": [{{"type": "function",
                        "function": {{"name": "emit_answer", "arguments": {bad}}}}}]}}}}]}}"#
                ),
                "choices[0].message.tool_calls[0].function.arguments.claims[0].text",
            ),
            (
                r#"{"type": "tool_use", "name": "emit_answer", "input": {"claims": 3}}"#.into(),
                "input.claims",
            ),
            (
                r#"{"output": [{"type": "message", "content": []}]}"#.into(),
                "output",
            ),
            (
                r#"{"choices": [{"message": {"content": "hi"}}]}"#.into(),
                "choices[0].message.tool_calls",
            ),
            (r#"{"hello": 1}"#.into(), "$"),
            (
                r#"{"content": [{"type": "text", "text": "t", "citations": [{"type": "char_location"}]}]}"#
                    .into(),
                "content",
            ),
            (
                r#"{"type": "function_call", "name": "emit_answer", "arguments": "{\"claims\": ["}"#
                    .into(),
                "arguments",
            ),
        ];
        for (json, path) in cases {
            let e = parse_wrapped_answer(&json).unwrap_err();
            assert_eq!(e.path, path, "{json}: {e}");
        }
    }
}
