//! An `emit_answer` answer as the model APIs hand it back, unwrapped: the tool input object
//! itself, or wrapped by Anthropic's Messages API, OpenAI's Chat Completions or Responses API, or
//! the Vercel AI SDK's `generateText`.
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
//!   "output": [...]}`;
//! - a Vercel AI SDK tool call, an entry of `generateText`'s `result.toolCalls`: `{"type":
//!   "tool-call", "toolCallId", "toolName", "input": {...}}` (AI SDK 5 and later; `"args"` in AI
//!   SDK 4), a list of them (`result.toolCalls` itself), or a whole result as `JSON.stringify`
//!   writes it: `{"toolCalls": [...], ...}` (AI SDK 4, whose result object holds its fields, or
//!   an object made of the fields), `{"steps": [{"content": [...]}], ...}` (AI SDK 5, whose
//!   `toolCalls` and `text` are getters that `JSON.stringify` leaves out), or one step or
//!   assistant message `{"content": [..., tool-call, ...]}`.
//!
//! Where a response holds several tool calls, the one named `emit_answer` is taken; several of
//! those, or none and several others, is an error naming them. An AI SDK call must be named
//! `emit_answer` (the key of the tool in `generateText`'s `tools`): a call of another tool, even
//! the only one, is an error naming its `toolName`. Invariant: every error names the JSON path
//! in the file as given, down into the arguments string
//! (`choices[0].message.tool_calls[0].function.arguments.claims[0].text`,
//! `steps[0].content[1].input.claims[0].text`).

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
    /// One Vercel AI SDK tool call, an entry of `generateText`'s `toolCalls`.
    AiSdkToolCall,
    /// A list of AI SDK tool calls: `generateText`'s `toolCalls`.
    AiSdkToolCalls,
    /// A whole AI SDK `generateText` result (or one of its steps or response messages).
    AiSdkResult,
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
            AnswerShape::AiSdkToolCall => "ai sdk tool call",
            AnswerShape::AiSdkToolCalls => "ai sdk tool calls",
            AnswerShape::AiSdkResult => "ai sdk generateText result",
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
    if let Value::Array(items) = value {
        // `result.toolCalls` (empty when the model called no tool); any other array is the
        // plain parser's to name.
        if items.is_empty() || items.iter().any(is_ai_sdk_call) {
            let (path, inner) = ai_sdk_answer(ai_sdk_calls(items, ""), "")?;
            return Ok((AnswerShape::AiSdkToolCalls, path, inner));
        }
    }
    let Some(object) = value.as_object() else {
        // An array or a scalar: the plain parser names what is wrong with it.
        return Ok((AnswerShape::ToolInput, String::new(), Inner::Object(value)));
    };
    if object.contains_key("claims") {
        return Ok((AnswerShape::ToolInput, String::new(), Inner::Object(value)));
    }
    if is_ai_sdk_call(value) {
        let (path, inner) = ai_sdk_input(value, "")?;
        return Ok((AnswerShape::AiSdkToolCall, path, inner));
    }
    if let Some(calls) = value.get("toolCalls").and_then(Value::as_array) {
        let (path, inner) = ai_sdk_answer(ai_sdk_calls(calls, ""), "toolCalls")?;
        return Ok((AnswerShape::AiSdkResult, path, inner));
    }
    if let Some(steps) = value.get("steps").and_then(Value::as_array) {
        // AI SDK 5 and later: each step's own `content` (4: its `toolCalls`).
        let mut calls = Vec::new();
        for (i, step) in steps.iter().enumerate() {
            for field in ["toolCalls", "content"] {
                if let Some(parts) = step.get(field).and_then(Value::as_array) {
                    calls.extend(ai_sdk_calls(parts, &format!("[{i}].{field}")));
                    break;
                }
            }
        }
        let (path, inner) = ai_sdk_answer(calls, "steps")?;
        return Ok((AnswerShape::AiSdkResult, path, inner));
    }
    if let Some(content) = value.get("content").and_then(Value::as_array) {
        if content.iter().any(is_ai_sdk_call) {
            let (path, inner) = ai_sdk_answer(ai_sdk_calls(content, ""), "content")?;
            return Ok((AnswerShape::AiSdkResult, path, inner));
        }
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
        let (at, block) = named_calls(content, "content", |b| {
            (kind(b) == Some("tool_use")).then(|| b.get("name").and_then(Value::as_str))
        })?;
        let input = block.get("input").ok_or_else(|| {
            err(
                format!("content{at}.input"),
                "a tool_use block without `input`",
            )
        })?;
        return Ok((
            AnswerShape::AnthropicMessage,
            format!("content{at}.input"),
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
        let (at, call) = named_calls(calls, "choices[0].message.tool_calls", |c| {
            Some(c.pointer("/function/name").and_then(Value::as_str))
        })?;
        let (path, inner) = arguments(
            &call["function"],
            &format!("choices[0].message.tool_calls{at}.function"),
        )?;
        return Ok((AnswerShape::OpenAiChatCompletion, path, inner));
    }
    if let Some(output) = value.get("output").and_then(Value::as_array) {
        let (at, item) = named_calls(output, "output", |item| {
            (kind(item) == Some("function_call")).then(|| item.get("name").and_then(Value::as_str))
        })?;
        let (path, inner) = arguments(item, &format!("output{at}"))?;
        return Ok((AnswerShape::OpenAiResponse, path, inner));
    }
    // Nothing recognised: the plain parser says `claims` is missing, and the hint names the
    // shapes that would have been taken.
    Err(err(
        "$",
        "neither an emit_answer tool input (`claims`) nor a tool call from a known API \
         (Anthropic tool_use / Messages response; OpenAI tool_calls entry, Chat Completions \
         response, Responses function_call item or response; Vercel AI SDK tool call, \
         toolCalls or generateText result); see `citestore schema`",
    ))
}

/// A tool call found in a response.
struct Call<'v> {
    /// Where it is, under the path of the list it was found in (`[2]`, `[0].content[1]`).
    at: String,
    /// Its tool's name, when it has one.
    name: Option<&'v str>,
    /// The call.
    item: &'v Value,
}

/// The one call among `calls`, found under `path`, to take: the call named [`TOOL_NAME`] when
/// there is one, else the only call.
fn pick<'v>(calls: Vec<Call<'v>>, path: &str) -> Result<Call<'v>, AnswerError> {
    let ours = calls.iter().filter(|c| c.name == Some(TOOL_NAME)).count();
    match (ours, calls.len()) {
        (1, _) => Ok(calls
            .into_iter()
            .find(|c| c.name == Some(TOOL_NAME))
            .expect("counted")),
        (0, 1) => Ok(calls.into_iter().next().expect("counted")),
        (0, 0) => Err(err(
            path,
            "no tool call in the response; ask for the emit_answer tool (see `citestore schema`)",
        )),
        (0, many) => Err(err(
            path,
            format!(
                "{many} tool calls and none named {TOOL_NAME} ({}); pass the one that holds the \
                 answer",
                calls
                    .iter()
                    .map(|c| format!("{} {}", c.at, c.name.unwrap_or("unnamed")))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
        (many, _) => Err(err(
            path,
            format!(
                "{many} calls of {TOOL_NAME} (at {}); pass the one to cite",
                calls
                    .iter()
                    .filter(|c| c.name == Some(TOOL_NAME))
                    .map(|c| c.at.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// The one call among `items` to take (see [`pick`]): `call_name` says whether an item is a
/// tool call (and its name). Returns where it is under `path` (`[i]`) and the call.
fn named_calls<'v>(
    items: &'v [Value],
    path: &str,
    call_name: impl Fn(&'v Value) -> Option<Option<&'v str>>,
) -> Result<(String, &'v Value), AnswerError> {
    let calls = items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            call_name(item).map(|name| Call {
                at: format!("[{i}]"),
                name,
                item,
            })
        })
        .collect();
    pick(calls, path).map(|call| (call.at, call.item))
}

/// Whether `value` is a Vercel AI SDK tool call: `{"type": "tool-call", ...}` (`TypedToolCall`
/// in AI SDK 5, `ToolCall` in 4; also the tool-call parts of a step's `content` and of an
/// assistant message).
fn is_ai_sdk_call(value: &Value) -> bool {
    kind(value) == Some("tool-call")
}

/// The AI SDK tool calls among `items`, each `at` `{prefix}[i]`.
fn ai_sdk_calls<'v>(items: &'v [Value], prefix: &str) -> Vec<Call<'v>> {
    items
        .iter()
        .enumerate()
        .filter(|(_, item)| is_ai_sdk_call(item))
        .map(|(i, item)| Call {
            at: format!("{prefix}[{i}]"),
            name: item.get("toolName").and_then(Value::as_str),
            item,
        })
        .collect()
}

/// The input of the `emit_answer` call among the AI SDK `calls` found under `path` (`""` for
/// the top).
fn ai_sdk_answer<'v>(calls: Vec<Call<'v>>, path: &str) -> Result<(String, Inner<'v>), AnswerError> {
    let call = pick(calls, if path.is_empty() { "$" } else { path })?;
    ai_sdk_input(call.item, &join(path, &call.at))
}

/// The input of the AI SDK tool call at `path`: `input` (AI SDK 5; a JSON string where the SDK
/// could not parse the model's text) or `args` (AI SDK 4). A call of another tool is an error.
fn ai_sdk_input<'v>(call: &'v Value, path: &str) -> Result<(String, Inner<'v>), AnswerError> {
    match call.get("toolName").and_then(Value::as_str) {
        Some(TOOL_NAME) => {}
        Some(other) => {
            return Err(err(
                join(path, "toolName"),
                format!(
                    "a call of the tool {other:?}, not {TOOL_NAME}; give the tool the key \
                     {TOOL_NAME} in generateText's `tools` (see `citestore schema --format \
                     ai-sdk`)"
                ),
            ))
        }
        None => {
            return Err(err(
                join(path, "toolName"),
                "missing: an AI SDK tool call without `toolName`",
            ))
        }
    }
    let (field, input) = match (call.get("input"), call.get("args")) {
        (Some(input), _) => ("input", input),
        (None, Some(args)) => ("args", args),
        (None, None) => {
            return Err(err(
                join(path, "input"),
                "missing: an AI SDK tool call without `input` (AI SDK 5) or `args` (AI SDK 4)",
            ))
        }
    };
    let at = join(path, field);
    match input {
        Value::Object(_) => Ok((at, Inner::Object(input))),
        Value::String(text) => Ok((at, Inner::Text(text))),
        _ => Err(err(at, "not the tool's input object")),
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
            // The Vercel AI SDK: one `toolCalls` entry (5: `input`; 4: `args`), the list, and
            // the result as `JSON.stringify` writes it (4: its fields; 5: its steps).
            (
                format!(
                    r#"{{"type": "tool-call", "toolCallId": "toolu_1", "toolName": "emit_answer", "input": {ARGS}}}"#
                ),
                AnswerShape::AiSdkToolCall,
            ),
            (
                format!(
                    r#"{{"type": "tool-call", "toolCallId": "call_1", "toolName": "emit_answer", "args": {ARGS}}}"#
                ),
                AnswerShape::AiSdkToolCall,
            ),
            (
                format!(
                    r#"{{"type": "tool-call", "toolCallId": "t", "toolName": "emit_answer", "input": {args}, "invalid": true}}"#
                ),
                AnswerShape::AiSdkToolCall,
            ),
            (
                format!(
                    r#"[{{"type": "tool-call", "toolCallId": "t0", "toolName": "search", "input": {{"q": "x"}}}},
                        {{"type": "tool-call", "toolCallId": "t1", "toolName": "emit_answer", "input": {ARGS}}}]"#
                ),
                AnswerShape::AiSdkToolCalls,
            ),
            (
                format!(
                    r#"{{"text": "", "toolCalls": [{{"type": "tool-call", "toolCallId": "t", "toolName": "emit_answer", "args": {ARGS}}}],
                        "toolResults": [], "finishReason": "tool-calls"}}"#
                ),
                AnswerShape::AiSdkResult,
            ),
            (
                format!(
                    r#"{{"steps": [
                        {{"content": [{{"type": "tool-call", "toolCallId": "t0", "toolName": "search", "input": {{}}}},
                                      {{"type": "tool-result", "toolCallId": "t0", "toolName": "search", "output": []}}]}},
                        {{"content": [{{"type": "text", "text": "Here."}},
                                      {{"type": "tool-call", "toolCallId": "t1", "toolName": "emit_answer", "input": {ARGS}}}],
                          "finishReason": "tool-calls"}}]}}"#
                ),
                AnswerShape::AiSdkResult,
            ),
            (
                format!(
                    r#"{{"role": "assistant", "content": [{{"type": "text", "text": "Here."}},
                        {{"type": "tool-call", "toolCallId": "t", "toolName": "emit_answer", "input": {ARGS}}}]}}"#
                ),
                AnswerShape::AiSdkResult,
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
            // The AI SDK: a call of another tool, even the only one, names its toolName.
            (
                r#"{"type": "tool-call", "toolCallId": "t", "toolName": "get_weather", "input": {}}"#
                    .into(),
                "toolName",
            ),
            (
                r#"[{"type": "tool-call", "toolCallId": "t", "toolName": "emitAnswer", "input": {}}]"#
                    .into(),
                "[0].toolName",
            ),
            (
                r#"{"steps": [{"content": [{"type": "text", "text": "t"}]},
                    {"content": [{"type": "tool-call", "toolCallId": "t", "toolName": "search", "input": {}}]}]}"#
                    .into(),
                "steps[1].content[0].toolName",
            ),
            (
                r#"{"text": "t", "toolCalls": [
                    {"type": "tool-call", "toolCallId": "a", "toolName": "a", "input": {}},
                    {"type": "tool-call", "toolCallId": "b", "toolName": "b", "input": {}}]}"#
                    .into(),
                "toolCalls",
            ),
            (
                r#"{"steps": [{"content": [{"type": "text", "text": "No tool."}]}]}"#.into(),
                "steps",
            ),
            ("[]".into(), "$"),
            (
                r#"{"type": "tool-call", "toolCallId": "t", "toolName": "emit_answer"}"#.into(),
                "input",
            ),
            (
                r#"{"type": "tool-call", "toolName": "emit_answer", "args": {"claims": [{"text": "t", "evidence": 3}]}}"#
                    .into(),
                "args.claims[0].evidence",
            ),
            (
                r#"{"steps": [{"content": [{"type": "tool-call", "toolCallId": "t", "toolName": "emit_answer",
                    "input": {"claims": [{"text": "t", "evidence": [{"chunk_id": "k", "quote": " "}]}]}}]}]}"#
                    .into(),
                "steps[0].content[0].input.claims[0].evidence[0].quote",
            ),
            (
                r#"[{"type": "tool-call", "toolName": "emit_answer", "input": {"claims": []}},
                    {"type": "tool-call", "toolName": "emit_answer", "input": {"claims": []}}]"#
                    .into(),
                "$",
            ),
        ];
        for (json, path) in cases {
            let e = parse_wrapped_answer(&json).unwrap_err();
            assert_eq!(e.path, path, "{json}: {e}");
        }
    }

    #[test]
    fn ai_sdk_errors_say_what_to_do() {
        let one =
            r#"{"type": "tool-call", "toolCallId": "t", "toolName": "get_weather", "input": {}}"#;
        let e = parse_wrapped_answer(one).unwrap_err().to_string();
        assert!(
            e.contains(r#"a call of the tool "get_weather", not emit_answer"#),
            "{e}"
        );
        let none = r#"{"steps": [{"content": [{"type": "text", "text": "No tool."}]}]}"#;
        let e = parse_wrapped_answer(none).unwrap_err().to_string();
        assert!(e.contains("no tool call"), "{e}");
        let two = r#"[{"type": "tool-call", "toolName": "emit_answer", "input": {}},
            {"type": "text", "text": "t"}, {"type": "tool-call", "toolName": "emit_answer", "input": {}}]"#;
        let e = parse_wrapped_answer(two).unwrap_err().to_string();
        assert!(e.contains("2 calls of emit_answer (at [0], [2])"), "{e}");
        let many = r#"{"steps": [{"content": [{"type": "tool-call", "toolName": "a", "input": {}}]},
            {"content": [{"type": "tool-call", "toolName": "b", "input": {}}]}]}"#;
        let e = parse_wrapped_answer(many).unwrap_err().to_string();
        assert!(
            e.contains(
                "2 tool calls and none named emit_answer ([0].content[0] a, [1].content[0] b)"
            ),
            "{e}"
        );
        // Not a tool-call list: the plain parser's message, as before.
        let e = parse_wrapped_answer("[[]]").unwrap_err().to_string();
        assert!(
            e.contains("an array where the schema requires an object"),
            "{e}"
        );
    }
}
