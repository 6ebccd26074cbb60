//! `citestore verify` through the real binary, with a test judge that answers from a fixed table
//! (tests/judges/fixed_table.py) and an OpenAI-compatible server on loopback.
//!
//! The fixture (fixtures/verify) demonstrates the mechanism — four of its eight citations are
//! broken on purpose — and is not an accuracy benchmark.

use crate::common;

use common::{count, Scratch};
use serde::Deserialize;
use std::path::PathBuf;

#[derive(Debug, Deserialize)]
struct VerifyOut {
    claims: Vec<ClaimOut>,
    summary: std::collections::BTreeMap<String, usize>,
}

#[derive(Debug, Deserialize)]
struct ClaimOut {
    text: String,
    verdict: String,
    relation: Option<String>,
    confidence: Option<f64>,
    citations: Vec<String>,
    reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ContextOut {
    context: String,
}

fn fixture(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .display()
        .to_string()
}

fn table_judge(mode: &str) -> String {
    let script = fixture("tests/judges/fixed_table.py");
    match mode {
        "table" => format!(
            "command:python3 {script} table {}",
            fixture("fixtures/verify/judge-table.json")
        ),
        other => format!("command:python3 {script} {other}"),
    }
}

/// The standards section ingested, its eight citations made; returns the context id.
fn cited() -> (Scratch, String) {
    let s = Scratch::new();
    s.ingest(&[
        &fixture("fixtures/verify/docs"),
        "--chunker",
        "paragraph:2000",
    ]);
    let context: ContextOut = s.json(&["context", "--doc", "retry.md", "--json"]);
    s.succeeds(&[
        "cite",
        "--context",
        &context.context,
        &fixture("fixtures/verify/answer.json"),
    ]);
    (s, context.context)
}

fn verify(s: &Scratch, context: &str, extra: &[&str], env: &[(&str, &str)]) -> (VerifyOut, i32) {
    let mut cmd = s.cmd();
    cmd.args(["verify", "--context", context, "--json"])
        .args(extra);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let parsed = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (parsed, out.status.code().unwrap())
}

const EXPECTED: [&str; 8] = [
    "supported",
    "supported",
    "supported",
    "supported",
    "fabricated",
    "contradicted",
    "unsupported",
    "review",
];

#[test]
fn eight_citations_four_broken() {
    let (s, context) = cited();
    let log = s.path("judge-log.jsonl");
    let judge = table_judge("table");
    let (out, code) = verify(
        &s,
        &context,
        &["--judge", &judge, "--fail-on", "fabricated,contradicted"],
        &[("JUDGE_LOG", log.to_str().unwrap())],
    );
    let verdicts: Vec<&str> = out.claims.iter().map(|c| c.verdict.as_str()).collect();
    assert_eq!(verdicts, EXPECTED);
    assert_eq!(code, 1, "--fail-on matched");
    let fabricated = &out.claims[4];
    assert!(fabricated.relation.is_none() && fabricated.citations.is_empty());
    assert!(fabricated
        .reason
        .as_deref()
        .unwrap()
        .contains("no evidence located"));
    assert_eq!(out.claims[7].confidence, Some(0.55));
    // The fabricated claim never reached the judge; the seven located ones did, each once.
    let calls: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(calls.len(), 7);
    assert!(calls.iter().all(|c| c["claim"] != fabricated.text.as_str()));
    assert!(calls
        .iter()
        .all(|c| c["premise"].as_str().unwrap().contains('\u{27E6}')));
    assert_eq!(
        (
            out.summary["judge_calls"],
            out.summary["decided_without_judge"]
        ),
        (7, 1)
    );
    assert_eq!(count(&s.db(), "SELECT count(*) FROM verifications"), 8);
}

#[test]
fn without_a_judge_located_claims_are_unjudged() {
    let (s, context) = cited();
    let (out, code) = verify(&s, &context, &[], &[]);
    let verdicts: Vec<&str> = out.claims.iter().map(|c| c.verdict.as_str()).collect();
    let mut expected = ["unjudged"; 8];
    expected[4] = "fabricated";
    assert_eq!(verdicts, expected);
    assert_eq!(code, 0);
}

#[test]
fn a_failing_judge_is_an_error_for_each_item_and_keeps_what_was_stored() {
    let (s, context) = cited();
    verify(&s, &context, &["--judge", &table_judge("table")], &[]);
    let stored = common::dump(&s.db());
    for mode in ["hang", "garbage", "fail"] {
        // Only the hanging judge needs a short timeout; the others must not time out on a
        // loaded machine before they fail in their own way.
        let timeout = if mode == "hang" { "1" } else { "30" };
        let (out, code) = verify(
            &s,
            &context,
            &["--judge", &table_judge(mode), "--timeout", timeout],
            &[],
        );
        assert_eq!(code, 0, "{mode}");
        for (claim, expected) in out.claims.iter().zip(EXPECTED) {
            let want = if expected == "fabricated" {
                "fabricated"
            } else {
                "error"
            };
            assert_eq!(claim.verdict, want, "{mode}: {}", claim.text);
        }
        let reason = out.claims[0].reason.clone().unwrap();
        let fragment = match mode {
            "hang" => "timed out",
            "garbage" => "reply is not",
            _ => "exited with",
        };
        assert!(reason.contains(fragment), "{mode}: {reason}");
    }
    // Earlier rows are untouched; each run appended its own.
    let after = common::dump(&s.db());
    assert!(stored.iter().all(|row| after.contains(row)));
    assert_eq!(count(&s.db(), "SELECT count(*) FROM verifications"), 32);
}

#[test]
fn openai_compatible_judge_with_a_retry() {
    let (s, context) = cited();
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let port = server.server_addr().to_ip().unwrap().port();
    let table: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("fixtures/verify/judge-table.json")).unwrap(),
    )
    .unwrap();
    let handle = std::thread::spawn(move || {
        let mut served = 0;
        while let Ok(Some(mut request)) = server.recv_timeout(std::time::Duration::from_secs(20)) {
            served += 1;
            let mut body = String::new();
            request.as_reader().read_to_string(&mut body).unwrap();
            if served == 1 {
                request
                    .respond(tiny_http::Response::from_string("busy").with_status_code(503))
                    .unwrap();
                continue;
            }
            let body: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert_eq!(body["model"], "judge-model");
            assert!(
                body.get("temperature").is_none() && body.get("top_p").is_none(),
                "sampling parameters are sent only when configured: {body}"
            );
            let asked: serde_json::Value =
                serde_json::from_str(body["messages"][1]["content"].as_str().unwrap()).unwrap();
            let reply = &table[asked["claim"].as_str().unwrap()];
            let response = serde_json::json!({"choices": [{"message": {"role": "assistant", "content": reply.to_string()}}]});
            request
                .respond(tiny_http::Response::from_string(response.to_string()))
                .unwrap();
            if served == 8 {
                break;
            }
        }
        served
    });
    let judge = format!("openai:judge-model@http://127.0.0.1:{port}/v1");
    let (out, _) = verify(&s, &context, &["--judge", &judge], &[]);
    let verdicts: Vec<&str> = out.claims.iter().map(|c| c.verdict.as_str()).collect();
    assert_eq!(verdicts, EXPECTED);
    assert_eq!(
        handle.join().unwrap(),
        8,
        "seven judgements plus one retried 503"
    );
}

#[test]
fn calibration_reports_agreement_and_review_rate() {
    let s = Scratch::new();
    let calibrate = |labels: &dyn AsRef<std::ffi::OsStr>| -> serde_json::Value {
        let out = s
            .cmd()
            .args([
                "verify",
                "--json",
                "--judge",
                &table_judge("table"),
                "--calibrate",
            ])
            .arg(labels.as_ref())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let report = calibrate(&fixture("fixtures/verify/labels.jsonl"));
    let at = |t: f64| {
        report["thresholds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| (r["threshold"].as_f64().unwrap() - t).abs() < 1e-9)
            .cloned()
            .unwrap()
    };
    // (threshold, review rate, agreement among decided)
    let cases = [
        (0.5, 0.0, 6.0 / 8.0),
        (0.6, 1.0 / 8.0, 6.0 / 7.0),
        (0.9, 2.0 / 8.0, 5.0 / 6.0),
        (0.95, 5.0 / 8.0, 2.0 / 3.0),
    ];
    for (t, review, agreement) in cases {
        let row = at(t);
        assert!(
            (row["review_rate"].as_f64().unwrap() - review).abs() < 1e-9,
            "{t}: {row}"
        );
        assert!(
            (row["agreement"].as_f64().unwrap() - agreement).abs() < 1e-9,
            "{t}: {row}"
        );
    }
    // The same labels saved by an editor that puts a BOM first: the same report.
    let mut labels = b"\xef\xbb\xbf".to_vec();
    labels.extend(std::fs::read(fixture("fixtures/verify/labels.jsonl")).unwrap());
    let with_bom = s.write("labels-bom.jsonl", labels);
    let again = calibrate(&with_bom);
    assert_eq!(again["thresholds"], report["thresholds"]);
}

#[test]
fn schema_v2_fixture_upgrades_and_its_citations_verify() {
    if common::sqlite_only("a SQLite fixture file") {
        return;
    }
    let s = Scratch::new();
    {
        let conn = rusqlite::Connection::open(s.db()).unwrap();
        conn.execute_batch(include_str!("../fixtures/store/schema-v2.sql"))
            .unwrap();
    }
    let out: VerifyOut = s.json(&["verify", "--all", "--json"]);
    let verdicts: Vec<&str> = out.claims.iter().map(|c| c.verdict.as_str()).collect();
    assert_eq!(
        verdicts,
        [
            "unjudged",
            "unjudged",
            "unjudged",
            "fabricated",
            "unjudged",
            "ambiguous",
            "uncited",
            "unknown-chunk"
        ]
    );
    assert_eq!(
        count(&s.db(), "SELECT user_version FROM pragma_user_version"),
        citestore::store::MIGRATIONS.len() as i64
    );
    assert_eq!(count(&s.db(), "SELECT count(*) FROM citations"), 4);
}

#[test]
fn verification_reads_where_the_sweep_anchored_the_spans() {
    let s = Scratch::new();
    let doc = s.write(
        "docs/retry.md",
        std::fs::read(fixture("fixtures/verify/docs/retry.md")).unwrap(),
    );
    s.ingest(&["docs", "--chunker", "paragraph:2000"]);
    let context: ContextOut = s.json(&["context", "--doc", "retry.md", "--json"]);
    s.succeeds(&[
        "cite",
        "--context",
        &context.context,
        &fixture("fixtures/verify/answer.json"),
    ]);
    // Version 2 drops the limits section and adds an introduction line above everything.
    let text = std::fs::read_to_string(&doc).unwrap();
    let cut = text.find("## 4.3 Limits").unwrap();
    std::fs::write(&doc, format!("Draft 2.\n\n{}", &text[..cut])).unwrap();
    s.succeeds(&["sweep"]);
    let log = s.path("log.jsonl");
    let (out, _) = verify(
        &s,
        &context.context,
        &["--judge", &table_judge("table")],
        &[("JUDGE_LOG", log.to_str().unwrap())],
    );
    let verdicts: Vec<&str> = out.claims.iter().map(|c| c.verdict.as_str()).collect();
    // Claims 4 and 6 quoted the deleted limits section: lost, so review, without a judge call.
    assert_eq!(
        verdicts,
        [
            "supported",
            "supported",
            "supported",
            "review",
            "fabricated",
            "review",
            "unsupported",
            "review"
        ]
    );
    assert!(out.claims[3].reason.as_deref().unwrap().contains("lost"));
    let calls = std::fs::read_to_string(&log).unwrap();
    assert_eq!(calls.lines().count(), 5);
    assert!(
        calls.lines().all(|l| l.contains("[retry.md r2]")),
        "premises come from revision 2"
    );
}

#[test]
fn verify_by_citation_id_judges_only_those_claims() {
    let (s, context) = cited();
    let all: VerifyOut = s.json(&["verify", "--context", &context, "--json"]);
    let wanted = all.claims[5].citations[0].clone();
    let out: VerifyOut = s.json(&[
        "verify",
        "--citation",
        &wanted,
        "--judge",
        &table_judge("table"),
        "--json",
    ]);
    assert_eq!(out.claims.len(), 1);
    assert_eq!(out.claims[0].verdict, "contradicted");
    let line = s.fails(&["verify", "--citation", "c-000000000000"]);
    assert!(line.contains("c-000000000000"), "{line}");
}

#[test]
fn quiet_prints_nothing_and_keeps_the_exit_code() {
    let (s, context) = cited();
    let args = ["verify", "--context", &context, "--fail-on", "fabricated"];
    let loud = s.cmd().args(args).output().unwrap();
    assert_eq!(loud.status.code(), Some(1));
    assert!(!loud.stdout.is_empty());
    let quiet = s.cmd().args(args).arg("--quiet").output().unwrap();
    assert_eq!(quiet.status.code(), Some(1), "the exit code still says so");
    assert_eq!(
        (quiet.stdout.as_slice(), quiet.stderr.as_slice()),
        (&b""[..], &b""[..])
    );
}

#[test]
fn openai_judge_sends_the_configured_sampling_parameters() {
    let (s, context) = cited();
    s.write(
        "citestore.toml",
        "[verify.openai]\ntemperature = 0.3\ntop_p = 0.9\n",
    );
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let port = server.server_addr().to_ip().unwrap().port();
    let handle = std::thread::spawn(move || {
        let mut seen = Vec::new();
        while let Ok(Some(mut request)) = server.recv_timeout(std::time::Duration::from_secs(20)) {
            let mut body = String::new();
            request.as_reader().read_to_string(&mut body).unwrap();
            let body: serde_json::Value = serde_json::from_str(&body).unwrap();
            seen.push((body["temperature"].as_f64(), body["top_p"].as_f64()));
            let reply = serde_json::json!({"relation": "supports", "confidence": 0.9});
            let response = serde_json::json!({"choices": [{"message": {"role": "assistant", "content": reply.to_string()}}]});
            request
                .respond(tiny_http::Response::from_string(response.to_string()))
                .unwrap();
            if seen.len() == 7 {
                break;
            }
        }
        seen
    });
    let judge = format!("openai:judge-model@http://127.0.0.1:{port}/v1");
    verify(&s, &context, &["--judge", &judge], &[]);
    let seen = handle.join().unwrap();
    assert_eq!(seen.len(), 7);
    assert!(
        seen.iter().all(|&p| p == (Some(0.3), Some(0.9))),
        "{seen:?}"
    );
    s.write("citestore.toml", "[verify.openai]\ntemperature = 7\n");
    let line = s.fails(&["verify", "--context", &context, "--judge", &judge]);
    assert!(
        line.contains("[verify.openai] temperature 7 is not from 0 to 2"),
        "{line}"
    );
}
