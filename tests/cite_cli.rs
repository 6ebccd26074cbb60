//! Citing through the real binary: the bundled example reproduces the seed's trace; citing is
//! idempotent; bad input stores nothing; an old context still cites its own revision.

use crate::common;

use common::{count, dump, Scratch};
use serde::Deserialize;
use std::path::PathBuf;

#[derive(Debug, Deserialize)]
struct ContextOut {
    context: String,
    chunks: Vec<ContextChunkOut>,
}

#[derive(Debug, Deserialize)]
struct ContextChunkOut {
    label: String,
    chunk_id: String,
    revision: u32,
    text: String,
}

#[derive(Debug, Deserialize, PartialEq)]
struct EvidenceOut {
    label: String,
    chunk_id: Option<String>,
    verdict: String,
    citation: Option<String>,
    start: Option<usize>,
    end: Option<usize>,
    revision: Option<u32>,
    repaired_from: Option<String>,
    text: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ClaimOut {
    uncited: bool,
    evidence: Vec<EvidenceOut>,
}

#[derive(Debug, Deserialize)]
struct CiteOut {
    already_recorded: bool,
    claims: Vec<ClaimOut>,
    summary: std::collections::BTreeMap<String, usize>,
}

fn fixture(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/cite")
        .join(rel)
        .display()
        .to_string()
}

/// The bundled example: both documents ingested with the chunker the answer's labels were made
/// for, and their context recorded.
fn example() -> (Scratch, ContextOut) {
    let s = Scratch::new();
    s.ingest(&[&fixture("docs"), "--chunker", "paragraph:150"]);
    let context: ContextOut = s.json(&[
        "context",
        "--doc",
        "rate-card.md",
        "--doc",
        "plans.md",
        "--json",
    ]);
    (s, context)
}

#[test]
fn bundled_example_reproduces_the_seed_trace() {
    let (s, context) = example();
    assert_eq!(
        context.context, "ctx-504cd163e2ad",
        "fixtures/cite/answer.json uses this context's labels"
    );
    assert_eq!(context.chunks.len(), 7);
    assert!(context
        .chunks
        .iter()
        .all(|c| c.label.len() == 4 && !c.chunk_id.contains(&c.label)));
    let out: CiteOut = s.json(&[
        "cite",
        "--context",
        &context.context,
        &fixture("answer.json"),
        "--json",
    ]);
    // (verdict, stored span text) per claim, in the answer's order.
    let expected: [(&str, Option<&str>); 8] = [
        ("exact", Some("overage $0.20 per 1,000 calls")),
        (
            "fuzzy",
            Some("Growth \u{2014} included 500,000 calls / mo; overage $0.12 per 1,000 calls"),
        ),
        (
            "review",
            Some("Enterprise pricing is available on request through your ac\u{ad}count manager"),
        ),
        ("fabricated", None),
        ("repaired", Some("Enterprise includes unlimited seats")),
        ("ambiguous", None),
        ("uncited", None),
        ("unknown-chunk", None),
    ];
    for (i, (claim, (verdict, text))) in out.claims.iter().zip(expected).enumerate() {
        if verdict == "uncited" {
            assert!(claim.uncited && claim.evidence.is_empty(), "claim {i}");
            continue;
        }
        let ev = &claim.evidence[0];
        assert_eq!(ev.verdict, verdict, "claim {i}");
        assert_eq!(ev.text.as_deref(), text, "claim {i}");
        assert_eq!(
            ev.citation.is_some(),
            text.is_some(),
            "claim {i}: stored iff located"
        );
    }
    let repaired = &out.claims[4].evidence[0];
    assert!(repaired
        .chunk_id
        .as_deref()
        .unwrap()
        .starts_with("plans.md@r1#"));
    // Rejected evidence: the model's label in its own field, the chunk it named (if any) in
    // `chunk_id` (an unknown label names none).
    let fabricated = &out.claims[3].evidence[0];
    assert_eq!(
        fabricated.chunk_id.as_deref(),
        Some("rate-card.md@r1#105-201")
    );
    assert_eq!(fabricated.label, "baxe");
    let unknown = &out.claims[7].evidence[0];
    assert_eq!(
        (unknown.label.as_str(), unknown.chunk_id.as_deref()),
        ("zzzz", None)
    );
    assert!(repaired
        .repaired_from
        .as_deref()
        .unwrap()
        .starts_with("rate-card.md@r1#"));
    assert_eq!(out.summary["uncited"], 1);
    // Every stored span is the revision's text at its offsets (SQLite's substr counts chars).
    assert_eq!(count(&s.db(), "SELECT count(*) FROM citations"), 4);
    assert_eq!(
        count(
            &s.db(),
            "SELECT count(*) FROM citations c JOIN documents d ON d.doc_id = c.doc_id \
             JOIN revisions r ON r.document_id = d.id AND r.seq = c.revision \
             WHERE substr(r.text, CAST(c.start_char + 1 AS INTEGER), \
             CAST(c.end_char - c.start_char AS INTEGER)) = c.span_text"
        ),
        4
    );
    assert_eq!(count(&s.db(), "SELECT count(*) FROM evidence"), 7);
    assert_eq!(
        count(&s.db(), "SELECT count(*) FROM claims WHERE uncited = 1"),
        1
    );
}

#[test]
fn citing_the_same_answer_twice_stores_nothing_new() {
    let (s, context) = example();
    let args = [
        "cite",
        "--context",
        &context.context,
        &fixture("answer.json"),
        "--json",
    ];
    let first: CiteOut = s.json(&args);
    let before = dump(&s.db());
    let second: CiteOut = s.json(&args);
    assert!(!first.already_recorded && second.already_recorded);
    assert_eq!(dump(&s.db()), before);
    let ids = |out: &CiteOut| -> Vec<Option<String>> {
        out.claims
            .iter()
            .flat_map(|c| c.evidence.iter().map(|e| e.citation.clone()))
            .collect()
    };
    assert_eq!(ids(&first), ids(&second));
}

#[test]
fn bad_answers_and_contexts_store_nothing() {
    let (s, context) = example();
    let wrong_type = s.write(
        "wrong.json",
        r#"{"claims": [{"text": "x", "evidence": [{"chunk_id": "8k34", "quote": 7}]}]}"#,
    );
    let not_json = s.write("broken.json", "{\"claims\": [");
    let latin1 = s.write(
        "latin1.json",
        b"{\"claims\": [{\"text\": \"caf\xe9\", \"evidence\": []}]}",
    );
    let before = dump(&s.db());
    // (args, what the one-line error names)
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "cite".into(),
                "--context".into(),
                context.context.clone(),
                wrong_type.display().to_string(),
            ],
            "claims[0].evidence[0].quote: invalid type: integer `7`, expected a string",
        ),
        (
            vec![
                "cite".into(),
                "--context".into(),
                context.context.clone(),
                not_json.display().to_string(),
            ],
            "broken.json: $: EOF while parsing",
        ),
        (
            vec![
                "cite".into(),
                "--context".into(),
                context.context.clone(),
                latin1.display().to_string(),
            ],
            "latin1.json: not valid UTF-8 at byte 25",
        ),
        (
            vec![
                "cite".into(),
                "--context".into(),
                "ctx-000000000000".into(),
                fixture("answer.json"),
            ],
            "context \"ctx-000000000000\" does not exist",
        ),
        (
            vec!["context".into(), "--chunk".into(), "nope.md@r1#0-5".into()],
            "chunk \"nope.md@r1#0-5\" is not in the store",
        ),
        (
            vec!["context".into(), "--doc".into(), "nope.md".into()],
            "nope.md",
        ),
    ];
    for (args, want) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let line = s.fails(&args);
        assert!(line.contains(want), "{args:?}: {line}");
    }
    assert_eq!(dump(&s.db()), before);
}

#[test]
fn an_old_context_cites_the_revision_it_was_shown() {
    let s = Scratch::new();
    let doc = s.write(
        "docs/policy.md",
        "Refunds are issued within 14 days.\n\nCancel at any time.\n",
    );
    s.ingest(&["docs", "--chunker", "paragraph:40"]);
    let old: ContextOut = s.json(&["context", "--doc", "policy.md", "--json"]);
    std::fs::write(
        &doc,
        "Cancel at any time.\n\nRefunds are issued within 30 days.\n",
    )
    .unwrap();
    s.ingest(&["docs"]);
    let label = &old.chunks[0].label;
    let answer = s.write(
        "answer.json",
        format!(r#"{{"claims": [{{"text": "Refunds take two weeks.", "evidence": [{{"chunk_id": "{label}", "quote": "Refunds are issued within 14 days."}}]}}]}}"#),
    );
    let out: CiteOut = s.json(&[
        "cite",
        "--context",
        &old.context,
        &answer.display().to_string(),
        "--json",
    ]);
    let ev = &out.claims[0].evidence[0];
    assert_eq!(ev.verdict, "exact");
    assert_eq!(
        (ev.revision, ev.start, ev.end),
        (Some(1), Some(0), Some(34))
    );
    assert_eq!(old.chunks[0].revision, 1);
    assert_eq!(count(&s.db(), "SELECT max(seq) FROM revisions"), 2);
}

#[test]
fn context_from_a_file_of_chunk_ids() {
    let (s, context) = example();
    let ids: Vec<&str> = context
        .chunks
        .iter()
        .rev()
        .take(2)
        .map(|c| c.chunk_id.as_str())
        .collect();
    let list = s.write(
        "ids.json",
        serde_json::to_string(&serde_json::json!({ "chunk_ids": ids })).unwrap(),
    );
    let from: ContextOut = s.json(&["context", "--from", &list.display().to_string(), "--json"]);
    let got: Vec<&str> = from.chunks.iter().map(|c| c.chunk_id.as_str()).collect();
    assert_eq!(got, ids);
    assert!(from.chunks.iter().all(|c| !c.text.is_empty()));
}

#[test]
fn anthropic_citations_are_relocated_in_our_text() {
    let (s, context) = example();
    let growth = context
        .chunks
        .iter()
        .position(|c| c.text.starts_with("Growth"))
        .unwrap();
    let response = serde_json::json!({
        "content": [
            {"type": "text", "text": "Per the rate card, "},
            {"type": "text", "text": "Growth overage is $0.12 per 1,000 calls.", "citations": [
                {"type": "char_location", "cited_text": "Growth - included 500,000 calls/mo; overage $0.12 per 1,000 calls",
                 "document_index": growth, "document_title": null, "start_char_index": 0, "end_char_index": 66}
            ]},
            {"type": "text", "text": "Something else.", "citations": [
                {"type": "char_location", "cited_text": "a quote from nowhere at all in these documents",
                 "document_index": growth, "document_title": null, "start_char_index": 3, "end_char_index": 40}
            ]}
        ]
    });
    let path = s.write("response.json", response.to_string());
    let out: citestore::cli::json::CiteOutput = s.json(&[
        "import-anthropic",
        "--context",
        &context.context,
        &path.display().to_string(),
        "--json",
    ]);
    let verdicts: Vec<&str> = out
        .claims
        .iter()
        .flat_map(|c| c.evidence.iter().map(|e| e.verdict.as_str()))
        .collect();
    assert_eq!(verdicts, ["fuzzy", "fabricated"]);
    assert_eq!(
        out.claims[0].text, "Per the rate card, Growth overage is $0.12 per 1,000 calls.",
        "connective text joins the claim after it"
    );
    assert!(out.claims.iter().all(|c| !c.uncited));
    assert_eq!(
        out.claims[0].evidence[0].text.as_deref(),
        Some("Growth \u{2014} included 500,000 calls / mo; overage $0.12 per 1,000 calls")
    );
    let agreement: Vec<&str> = out
        .claims
        .iter()
        .flat_map(|c| c.evidence.iter())
        .map(|e| e.location.as_ref().unwrap().agreement.as_str())
        .collect();
    assert_eq!(
        agreement,
        ["differs", "differs"],
        "the API's offsets are checked"
    );
}

#[test]
fn schema_prints_the_emit_answer_tool() {
    let s = Scratch::new();
    let out = s.cmd().arg("schema").output().unwrap();
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(schema["name"], "emit_answer");
}

/// A quote that holds a whole chunk and runs on into the next one is found whole in the joined
/// text, not sent to review with its span cut at the first chunk's end.
#[test]
fn a_quote_holding_a_whole_chunk_and_more_is_cited_whole() {
    let (s, context) = example();
    let heading = context
        .chunks
        .iter()
        .find(|c| c.text.starts_with("# Plan comparison"))
        .unwrap();
    let quote =
        "# Plan comparison\n\n## Seats\n\nStarter includes 3 seats and Growth includes 25 seats.";
    let answer = serde_json::json!({"claims": [{"text": "Starter has 3 seats.", "evidence": [
        {"chunk_id": heading.label, "quote": quote}]}]});
    let path = s.write("whole-chunk.json", answer.to_string());
    let out: citestore::cli::json::CiteOutput = s.json(&[
        "cite",
        "--context",
        &context.context,
        &path.display().to_string(),
        "--json",
    ]);
    let ev = &out.claims[0].evidence[0];
    assert_eq!(ev.verdict, "exact", "{:?}", ev.reason);
    assert_eq!((ev.start, ev.end), (Some(0), Some(quote.chars().count())));
    assert!(ev.reason.as_deref().unwrap().contains("runs across chunks"));
}
