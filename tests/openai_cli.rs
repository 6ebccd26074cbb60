//! `citestore schema --format` and `citestore cite` on the shapes the model APIs return, through
//! the real binary: the strict structured-output rules checked on the printed schema, and the
//! bundled answer cited from an OpenAI Chat Completions response, a `tool_calls` entry, its
//! `arguments` string, a Responses API `function_call` item and response, an Anthropic
//! `tool_use` block and Messages response, from a file and from stdin.

use crate::common;

use citestore::cli::json::CiteOutput;
use common::{dump, example_context, repo, succeeded, Scratch};
use serde_json::Value;

fn schema(format: &str) -> Value {
    let s = Scratch::new();
    let text = s.succeeds(&["schema", "--format", format, "--json"]);
    assert_eq!(text.lines().count(), 1, "--json is one line");
    serde_json::from_str(&text).unwrap()
}

/// Every object schema under `schema`, with its path.
fn objects<'a>(schema: &'a Value, path: String, out: &mut Vec<(String, &'a Value)>) {
    if let Value::Object(map) = schema {
        if map.get("type") == Some(&Value::from("object")) {
            out.push((path.clone(), schema));
        }
        for (key, value) in map {
            objects(value, format!("{path}.{key}"), out);
        }
    }
}

/// Keywords OpenAI's strict mode documents as not supported (Structured Outputs, "Supported
/// schemas").
const UNSUPPORTED: [&str; 12] = [
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "multipleOf",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
];

#[test]
fn openai_schemas_obey_strict_mode() {
    // (format, where the name is, where the parameters are)
    let cases = [
        (
            "openai",
            "/function/name",
            "/function/parameters",
            "/function/strict",
        ),
        ("openai-responses", "/name", "/parameters", "/strict"),
    ];
    for (format, name, params, strict) in cases {
        let tool = schema(format);
        assert_eq!(tool["type"], "function", "{format}");
        assert_eq!(tool.pointer(name).unwrap(), "emit_answer", "{format}");
        assert_eq!(tool.pointer(strict).unwrap(), true, "{format}");
        let params = tool.pointer(params).unwrap();
        assert_eq!(params["type"], "object", "{format}: the root is an object");
        let mut found = Vec::new();
        objects(params, "$".into(), &mut found);
        assert_eq!(found.len(), 3, "{format}: answer, claim, evidence");
        for (path, object) in found {
            assert_eq!(object["additionalProperties"], false, "{format} {path}");
            let mut props: Vec<String> = object["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect();
            let mut required: Vec<String> = object["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            props.sort();
            required.sort();
            assert_eq!(props, required, "{format} {path}: every property required");
        }
        let text = params.to_string();
        for keyword in UNSUPPORTED {
            assert!(
                !text.contains(&format!("\"{keyword}\"")),
                "{format}: {keyword}"
            );
        }
    }
    let anthropic = schema("anthropic");
    assert_eq!(anthropic["name"], "emit_answer");
    assert!(anthropic["input_schema"].is_object());
    assert_eq!(
        schema("anthropic"),
        {
            let s = Scratch::new();
            let out = s.cmd().arg("schema").output().unwrap();
            serde_json::from_slice::<Value>(&out.stdout).unwrap()
        },
        "anthropic is the default"
    );
    let s = Scratch::new();
    let line = s.fails(&["schema", "--format", "gemini"]);
    assert!(
        line.contains("anthropic, openai, openai-responses"),
        "{line}"
    );
}

fn verdicts(out: &CiteOutput) -> Vec<String> {
    out.claims
        .iter()
        .map(|c| {
            if c.uncited {
                "uncited".to_string()
            } else {
                c.evidence[0].verdict.clone()
            }
        })
        .collect()
}

#[test]
fn every_wrapper_gives_the_same_citations() {
    let s = example_context();
    let cite = |path: &str| -> CiteOutput {
        s.json(&["cite", "--context", "ctx-504cd163e2ad", path, "--json"])
    };
    let plain = cite(&repo("fixtures/cite/answer.json").display().to_string());
    let expected = [
        "exact",
        "fuzzy",
        "review",
        "fabricated",
        "repaired",
        "ambiguous",
        "uncited",
        "unknown-chunk",
    ];
    assert_eq!(verdicts(&plain), expected);
    let chat: Value = serde_json::from_slice(
        &std::fs::read(repo("fixtures/cite/openai-chat-completion.json")).unwrap(),
    )
    .unwrap();
    let tool_call = &chat["choices"][0]["message"]["tool_calls"][0];
    let arguments = &tool_call["function"]["arguments"];
    assert!(
        arguments.is_string(),
        "the API returns arguments as a JSON string"
    );
    let input: Value = serde_json::from_str(arguments.as_str().unwrap()).unwrap();
    let tool_use = serde_json::json!({"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9",
        "name": "emit_answer", "input": input});
    let message = serde_json::json!({"id": "msg_01", "type": "message", "role": "assistant",
        "model": "claude-sonnet-4-5", "content": [
            {"type": "text", "text": "I'll record the answer."}, tool_use.clone()],
        "stop_reason": "tool_use"});
    let shapes: Vec<(&str, String)> = vec![
        (
            "chat completion",
            repo("fixtures/cite/openai-chat-completion.json")
                .display()
                .to_string(),
        ),
        (
            "responses",
            repo("fixtures/cite/openai-response.json")
                .display()
                .to_string(),
        ),
        (
            "tool_calls entry",
            s.write("call.json", tool_call.to_string())
                .display()
                .to_string(),
        ),
        (
            "arguments string",
            s.write("args.json", arguments.to_string())
                .display()
                .to_string(),
        ),
        (
            "tool_use",
            s.write("tool_use.json", tool_use.to_string())
                .display()
                .to_string(),
        ),
        (
            "messages",
            s.write("message.json", message.to_string())
                .display()
                .to_string(),
        ),
    ];
    for (what, path) in shapes {
        let out = cite(&path);
        assert_eq!(verdicts(&out), expected, "{what}");
        assert!(
            out.already_recorded,
            "{what}: the same answer, already cited"
        );
        let ids: Vec<_> = out
            .claims
            .iter()
            .map(|c| c.evidence.first().and_then(|e| e.citation.clone()))
            .collect();
        let plain_ids: Vec<_> = plain
            .claims
            .iter()
            .map(|c| c.evidence.first().and_then(|e| e.citation.clone()))
            .collect();
        assert_eq!(ids, plain_ids, "{what}");
    }
    // The Responses API item on its own, from stdin.
    let response: Value =
        serde_json::from_slice(&std::fs::read(repo("fixtures/cite/openai-response.json")).unwrap())
            .unwrap();
    let item = response["output"][0].to_string();
    let out = succeeded(
        s.cmd()
            .args(["cite", "--context", "ctx-504cd163e2ad", "-", "--json"])
            .write_stdin(item),
    );
    let out: CiteOutput = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdicts(&out), expected, "function_call item on stdin");
}

#[test]
fn a_bad_answer_inside_a_wrapper_names_its_path_and_stores_nothing() {
    let s = example_context();
    let before = dump(&s.db());
    let bad_args = serde_json::to_string(
        r#"{"claims": [{"text": "t", "evidence": [{"chunk_id": "8k34", "quote": ""}]}]}"#,
    )
    .unwrap();
    // (file content, what the one line names)
    let cases = [
        (
            format!(
                r#"{{"object": "chat.completion", "choices": [{{"index": 0, "message": {{"role": "assistant",
                   "tool_calls": [{{"id": "c", "type": "function", "function": {{"name": "emit_answer",
                   "arguments": {bad_args}}}}}]}}}}]}}"#
            ),
            "choices[0].message.tool_calls[0].function.arguments.claims[0].evidence[0].quote: the quote is empty",
        ),
        (
            r#"{"object": "response", "output": [{"type": "message", "content": []}]}"#.to_string(),
            "output: no tool call",
        ),
        (
            r#"{"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": "Hello"}}]}"#.to_string(),
            "choices[0].message.tool_calls: the response has no tool calls",
        ),
        (
            r#"{"type": "function_call", "name": "emit_answer", "arguments": "{\"claims\": [}"}"#.to_string(),
            "arguments",
        ),
    ];
    let cases = cases.into_iter().chain([(
        String::from_utf8(std::fs::read(repo("fixtures/cite/anthropic-response.json")).unwrap())
            .unwrap(),
        "content: a Citations API response (text blocks with citations), not an emit_answer tool call; cite it with `citestore import-anthropic`",
    )]);
    for (content, names) in cases {
        let path = s.write("bad.json", content);
        let line = s.fails(&[
            "cite",
            "--context",
            "ctx-504cd163e2ad",
            &path.display().to_string(),
        ]);
        assert!(line.contains(names), "{line}");
        assert!(line.contains("nothing was stored"), "{line}");
        assert_eq!(dump(&s.db()), before);
    }
}

/// `value` with `fields` set to `null` in the object at each of `at` (JSON pointers) where
/// missing: what the OpenAI SDK's `model_dump()` adds for the optional fields it leaves unset.
fn with_nulls(mut value: Value, at: &[&str], fields: &[&str]) -> Value {
    for pointer in at {
        let object = value.pointer_mut(pointer).unwrap().as_object_mut().unwrap();
        for field in fields {
            object.entry(*field).or_insert(Value::Null);
        }
    }
    value
}

/// The Chat Completions response as the SDK's `model_dump()` gives it (openai 3.60): keys
/// sorted, on one line, every optional field present.
fn chat_as_sdk_dumps(chat: &Value) -> String {
    let chat = with_nulls(
        chat.clone(),
        &[""],
        &[
            "metadata",
            "moderation",
            "service_tier",
            "system_fingerprint",
            "usage",
        ],
    );
    let chat = with_nulls(chat, &["/choices/0"], &["logprobs"]);
    let chat = with_nulls(
        chat,
        &["/choices/0/message"],
        &["audio", "function_call", "annotations"],
    );
    chat.to_string()
}

/// The Responses API response as the SDK's `model_dump()` gives it (openai 3.60).
fn response_as_sdk_dumps(response: &Value) -> String {
    let response = with_nulls(
        response.clone(),
        &[""],
        &[
            "error",
            "incomplete_details",
            "instructions",
            "metadata",
            "previous_response_id",
            "reasoning",
            "temperature",
            "text",
            "top_p",
            "usage",
            "user",
        ],
    );
    with_nulls(response, &["/output/0"], &["async_", "caller", "namespace"]).to_string()
}

/// `value` without its `null` fields (`model_dump(exclude_none=True)`), pretty.
fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.clone(), without_nulls(v)))
            .collect(),
        Value::Array(items) => items.iter().map(without_nulls).collect(),
        other => other.clone(),
    }
}

/// The same answer as pretty JSON (the fixtures), without nulls, and as the SDK's dump, from a
/// Chat Completions and a Responses response, is one answer: only the first cite stores
/// anything, and every cite gives the same citation ids (issue "Python in full", item 4).
#[test]
fn the_same_answer_as_a_dict_or_the_sdks_dump_is_one_answer() {
    let s = example_context();
    let read = |rel: &str| -> Value {
        serde_json::from_slice(&std::fs::read(repo(rel)).unwrap()).unwrap()
    };
    let chat = read("fixtures/cite/openai-chat-completion.json");
    let response = read("fixtures/cite/openai-response.json");
    let forms: Vec<(&str, String)> = vec![
        (
            "chat completion, pretty",
            serde_json::to_string_pretty(&chat).unwrap(),
        ),
        (
            "chat completion, no nulls",
            without_nulls(&chat).to_string(),
        ),
        ("chat completion, SDK dump", chat_as_sdk_dumps(&chat)),
        (
            "response, pretty",
            serde_json::to_string_pretty(&response).unwrap(),
        ),
        (
            "response, no nulls",
            serde_json::to_string_pretty(&without_nulls(&response)).unwrap(),
        ),
        ("response, SDK dump", response_as_sdk_dumps(&response)),
    ];
    let ids = |out: &CiteOutput| -> Vec<Option<String>> {
        out.claims
            .iter()
            .flat_map(|c| c.evidence.iter().map(|e| e.citation.clone()))
            .collect()
    };
    let mut first: Option<(Vec<Option<String>>, Vec<String>)> = None;
    for (what, body) in forms {
        let path = s.write("answer.json", body);
        let out: CiteOutput = s.json(&[
            "cite",
            "--context",
            "ctx-504cd163e2ad",
            &path.display().to_string(),
            "--json",
        ]);
        let stored = dump(&s.db());
        match &first {
            None => {
                assert!(!out.already_recorded, "{what}");
                first = Some((ids(&out), stored));
            }
            Some((once, before)) => {
                assert!(out.already_recorded, "{what}");
                assert_eq!(&stored, before, "{what} stores nothing");
                assert_eq!(&ids(&out), once, "{what}");
            }
        }
    }
}
