//! The Vercel AI SDK's shapes through the real binary: `citestore schema --format ai-sdk`, and
//! the bundled answer cited from what `generateText` returns — `result.toolCalls`, one entry of
//! it, the whole result as `JSON.stringify` writes it in AI SDK 5 (`{steps: [...]}`) and in AI
//! SDK 4 (`{text, toolCalls, ...}`, `args` for `input`), one step — each giving the citations the
//! plain tool input gives. The fixtures were written by the `ai` package itself
//! (`fixtures/ai-sdk/README.md`).

use crate::common;

use citestore::cli::json::CiteOutput;
use common::{dump, example_context, repo, succeeded, Scratch};
use serde_json::Value;

fn schema(s: &Scratch, format: &str) -> Value {
    serde_json::from_str(&s.succeeds(&["schema", "--format", format, "--json"])).unwrap()
}

fn fixture(rel: &str) -> Value {
    serde_json::from_slice(&std::fs::read(repo(rel)).unwrap()).unwrap()
}

/// `{description, inputSchema}`: the same description as the Anthropic tool, and the same
/// strict schema body as the OpenAI shapes, which the fixtures' generator passed to the AI SDK's
/// own `jsonSchema()`.
#[test]
fn the_ai_sdk_schema_is_description_and_input_schema() {
    let s = Scratch::new();
    let tool = schema(&s, "ai-sdk");
    let keys: Vec<&String> = tool.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["description", "inputSchema"]);
    assert_eq!(tool["description"], schema(&s, "anthropic")["description"]);
    assert_eq!(
        tool["inputSchema"],
        schema(&s, "openai-responses")["parameters"]
    );
    assert_eq!(tool["inputSchema"]["type"], "object");
    assert_eq!(tool["inputSchema"]["required"][0], "claims");
    let pretty: Value =
        serde_json::from_str(&s.succeeds(&["schema", "--format", "ai-sdk"])).unwrap();
    assert_eq!(pretty, tool, "pretty and --json are one schema");
    let line = s.fails(&["schema", "--format", "vercel"]);
    assert!(
        line.contains("anthropic, openai, openai-responses, ai-sdk"),
        "{line}"
    );
}

fn cite(s: &Scratch, path: &str) -> CiteOutput {
    s.json(&["cite", "--context", "ctx-504cd163e2ad", path, "--json"])
}

#[test]
fn every_ai_sdk_shape_gives_the_plain_answers_citations() {
    let s = example_context();
    let plain = cite(&s, &repo("fixtures/cite/answer.json").display().to_string());
    assert!(!plain.already_recorded);
    assert_eq!(plain.claims.len(), 8);
    let answer = fixture("fixtures/cite/answer.json");

    let tool_calls = fixture("fixtures/ai-sdk/tool-calls.json");
    let result = fixture("fixtures/ai-sdk/generate-text.json");
    let result_v4 = fixture("fixtures/ai-sdk/generate-text-v4.json");
    // The fixtures are what the SDK made of the bundled answer, in each version's field.
    assert_eq!(tool_calls[0]["type"], "tool-call");
    assert_eq!(tool_calls[0]["toolName"], "emit_answer");
    assert_eq!(tool_calls[0]["input"], answer);
    assert_eq!(result["steps"][0]["content"][1], tool_calls[0]);
    assert!(
        result.get("toolCalls").is_none(),
        "AI SDK 5: toolCalls is a getter, not in JSON"
    );
    assert_eq!(result_v4["toolCalls"][0]["args"], answer);

    let entry = tool_calls[0].to_string();
    // What a caller of AI SDK 5 writes to get the AI SDK 4 form.
    let text_and_calls =
        serde_json::json!({"text": "I'll record the answer.", "toolCalls": tool_calls});
    let step = result["steps"][0].to_string();
    let shapes: Vec<(&str, String)> = vec![
        (
            "result.toolCalls",
            repo("fixtures/ai-sdk/tool-calls.json")
                .display()
                .to_string(),
        ),
        (
            "generateText result (AI SDK 5)",
            repo("fixtures/ai-sdk/generate-text.json")
                .display()
                .to_string(),
        ),
        (
            "generateText result (AI SDK 4)",
            repo("fixtures/ai-sdk/generate-text-v4.json")
                .display()
                .to_string(),
        ),
        (
            "one toolCalls entry",
            s.write("entry.json", &entry).display().to_string(),
        ),
        (
            "{text, toolCalls}",
            s.write("text-and-calls.json", text_and_calls.to_string())
                .display()
                .to_string(),
        ),
        (
            "one step",
            s.write("step.json", &step).display().to_string(),
        ),
    ];
    let claims = serde_json::to_value(&plain.claims).unwrap();
    let stored = dump(&s.db());
    for (what, path) in shapes {
        let out = cite(&s, &path);
        assert!(
            out.already_recorded,
            "{what}: the same answer, already cited"
        );
        assert_eq!(serde_json::to_value(&out.claims).unwrap(), claims, "{what}");
        assert_eq!(out.summary, plain.summary, "{what}");
        assert_eq!(dump(&s.db()), stored, "{what}: nothing new stored");
    }
    // The list on stdin.
    let out = succeeded(
        s.cmd()
            .args(["cite", "--context", "ctx-504cd163e2ad", "-", "--json"])
            .write_stdin(tool_calls.to_string()),
    );
    let out: CiteOutput = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        serde_json::to_value(&out.claims).unwrap(),
        claims,
        "toolCalls on stdin"
    );
}

#[test]
fn a_bad_ai_sdk_answer_names_its_path_and_stores_nothing() {
    let s = example_context();
    let before = dump(&s.db());
    let mut other_tool = fixture("fixtures/ai-sdk/generate-text.json");
    other_tool["steps"][0]["content"][1]["toolName"] = "answer".into();
    let mut empty_quote = fixture("fixtures/ai-sdk/generate-text-v4.json");
    empty_quote["toolCalls"][0]["args"]["claims"][1]["evidence"][0]["quote"] = "".into();
    let mut no_input = fixture("fixtures/ai-sdk/tool-calls.json");
    no_input[0].as_object_mut().unwrap().remove("input");
    let mut text_only = fixture("fixtures/ai-sdk/generate-text.json");
    text_only["steps"][0]["content"]
        .as_array_mut()
        .unwrap()
        .truncate(1);
    // (file content, what the one line names)
    let cases = [
        (
            other_tool.to_string(),
            r#"steps[0].content[1].toolName: a call of the tool "answer", not emit_answer"#,
        ),
        (
            empty_quote.to_string(),
            "toolCalls[0].args.claims[1].evidence[0].quote: the quote is empty",
        ),
        (
            no_input.to_string(),
            "[0].input: missing: an AI SDK tool call without `input`",
        ),
        (text_only.to_string(), "steps: no tool call in the response"),
        ("[]".to_string(), "$: no tool call in the response"),
    ];
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
