//! The programs citestore starts — `command:` judges and `--extract-cmd` extractors — through
//! the real binary: a file name reaches an extractor whole, whatever it holds; a judge that does
//! not read, floods stderr, leaves a child holding its output or outlives its timeout costs
//! that claim an `error` (or nothing) and never the run, and leaves no process behind; and
//! every float option or configuration value out of range is a one-line error, exit 2, with
//! nothing written.

use crate::common;

use common::{count, dump, listing, row_texts, Scratch};
use serde::Deserialize;
use std::path::Path;
use std::time::{Duration, Instant};

#[derive(Debug, Deserialize)]
struct VerifyOut {
    claims: Vec<ClaimOut>,
}

#[derive(Debug, Deserialize)]
struct ClaimOut {
    verdict: String,
    reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ContextOut {
    context: String,
}

/// The text stored for `doc_id`'s latest revision.
fn stored_text(s: &Scratch, doc_id: &str) -> String {
    row_texts(
        &s.db(),
        &format!(
            "SELECT r.text FROM revisions r JOIN documents d ON d.id = r.document_id \
             WHERE d.doc_id = '{doc_id}' ORDER BY r.seq DESC LIMIT 1"
        ),
    )
    .remove(0)
}

#[test]
fn an_extract_cmd_gets_any_file_name_whole_and_once() {
    let s = Scratch::new();
    // Neighbours a glob or a split name would pick up instead.
    for (name, text) in [
        ("a", "A\n"),
        ("b.txt", "B\n"),
        ("c.txt", "C\n"),
        ("x", "X\n"),
    ] {
        s.write(&format!("d/{name}"), text);
    }
    let names = [
        "a b.txt",
        "*.txt",
        "$(touch pwned).txt",
        ";rm x",
        "it's \"quoted\".txt",
        "new\nline.txt",
        "-n.txt",
    ];
    let templates = [
        "cat {}",
        "cat \"{}\"",
        "cat '{}'",
        "cat < {}",
        "x=\"$(cat {})\"; printf '%s\\n' \"$x\"",
        "cat \"$CITESTORE_FILE\"",
        "cat --",
    ];
    let before: Vec<String> = listing(&s.path("d"));
    for (n, name) in names.iter().enumerate() {
        let path = s.write(&format!("d/{name}"), format!("the text of file {n}\n"));
        for (t, template) in templates.iter().enumerate() {
            let doc_id = format!("n{n}t{t}");
            s.ingest(&[
                path.to_str().unwrap(),
                "--doc-id",
                &doc_id,
                "--extract-cmd",
                template,
                "--extract-version",
                "1",
            ]);
            assert_eq!(
                stored_text(&s, &doc_id),
                format!("the text of file {n}\n"),
                "{name:?} through {template:?}"
            );
        }
        std::fs::remove_file(&path).unwrap();
    }
    assert!(!s.path("pwned").exists() && !s.path("d/pwned").exists());
    assert_eq!(listing(&s.path("d")), before, "no file made or removed");
}

#[test]
fn an_extract_cmd_that_would_hand_the_name_to_another_shell_is_refused() {
    let s = Scratch::new();
    s.write("a.txt", "text\n");
    for (template, want) in [
        ("sh -c 'cat {}'", "inside single quotes"),
        ("cat \"{}", "a double quote is not closed"),
    ] {
        let line = s.fails(&[
            "ingest",
            "a.txt",
            "--extract-cmd",
            template,
            "--extract-version",
            "1",
        ]);
        assert!(
            line.contains("--extract-cmd") && line.contains(want),
            "{template}: {line}"
        );
        assert!(!s.db().exists(), "{template}: a refused ingest wrote");
    }
}

/// The verify fixture ingested and its answer cited; the context id.
fn cited() -> (Scratch, String) {
    let s = Scratch::new();
    s.ingest(&[
        common::repo("fixtures/verify/docs").to_str().unwrap(),
        "--chunker",
        "paragraph:2000",
    ]);
    let context: ContextOut = s.json(&["context", "--doc", "retry.md", "--json"]);
    let answer = common::repo("fixtures/verify/answer.json");
    s.succeeds(&[
        "cite",
        "--context",
        &context.context,
        answer.to_str().unwrap(),
    ]);
    (s, context.context)
}

/// A `command:` judge: `body` as a shell script in the scratch folder.
fn judge(s: &Scratch, name: &str, body: &str) -> String {
    let path = s.write(name, format!("#!/bin/sh\n{body}\n"));
    format!("command:sh {}", path.display())
}

const REPLY: &str = r#"echo '{"relation": "supports", "confidence": 0.9}'"#;

/// `verify --json` of `context` with `judge` and `--timeout secs`; the output, exit code and
/// how long it took.
fn verify(s: &Scratch, context: &str, judge: &str, secs: &str) -> (VerifyOut, i32, Duration) {
    let started = Instant::now();
    let out = s
        .cmd()
        .args(["verify", "--context", context, "--json", "--judge", judge])
        .args(["--timeout", secs])
        .output()
        .unwrap();
    let took = started.elapsed();
    let code = out.status.code().unwrap_or_else(|| {
        panic!(
            "verify died of {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let parsed = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (parsed, code, took)
}

/// The verdicts of the fixture's claims, fabricated (never judged) left out.
fn judged(out: &VerifyOut) -> Vec<&ClaimOut> {
    out.claims
        .iter()
        .filter(|c| c.verdict != "fabricated")
        .collect()
}

/// The pids a judge wrote to `file`, one a line.
fn pids(file: &Path) -> Vec<libc::pid_t> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

/// True once `pid` is no longer a live process (a zombie counts as gone), within a second.
fn gone(pid: libc::pid_t) -> bool {
    for _ in 0..20 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|r| r.split_whitespace().next());
        if matches!(state, None | Some("Z") | Some("X")) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn a_judge_that_does_not_read_its_request_is_an_error_and_the_run_goes_on() {
    let s = Scratch::new();
    s.ingest(&[
        common::repo("fixtures/verify/docs").to_str().unwrap(),
        "--chunker",
        "paragraph:2000",
    ]);
    let context: ContextOut = s.json(&["context", "--doc", "retry.md", "--json"]);
    // Claims far longer than a pipe's buffer: the request cannot be written before the judge
    // exits, so the write always meets a closed pipe.
    let quote = "A client SHOULD wait at least 1 second before the first retry.";
    let long_claim = |n: usize| format!("Claim {n}: {}", "clients wait a second. ".repeat(8000));
    let claims: Vec<serde_json::Value> = [1, 2]
        .map(|n| {
            serde_json::json!({
                "text": long_claim(n),
                "evidence": [{"chunk_id": "retry.md@r1#0-817", "quote": quote}],
            })
        })
        .into();
    let answer = serde_json::json!({ "claims": claims });
    let answer_path = s.write("answer.json", answer.to_string());
    s.succeeds(&[
        "cite",
        "--context",
        &context.context,
        answer_path.to_str().unwrap(),
    ]);
    let deaf = judge(&s, "deaf.sh", REPLY);
    for run in 1..=3 {
        let (out, code, _) = verify(&s, &context.context, &deaf, "30");
        assert_eq!(code, 0, "run {run}");
        assert_eq!(out.claims.len(), 2);
        for claim in &out.claims {
            assert_eq!(claim.verdict, "error", "run {run}");
            let reason = claim.reason.as_deref().unwrap();
            assert!(reason.contains("without reading its request"), "{reason}");
        }
        assert_eq!(
            count(&s.db(), "SELECT count(*) FROM verifications"),
            2 * run
        );
    }
}

#[test]
fn a_judge_whose_child_holds_its_output_is_stopped_at_the_timeout() {
    let (s, context) = cited();
    let pid_file = s.path("pids");
    let body = format!(
        "read -r request\nsleep 30 &\necho $! >> '{}'\n{REPLY}",
        pid_file.display()
    );
    let holder = judge(&s, "holder.sh", &body);
    let (out, code, took) = verify(&s, &context, &holder, "1");
    assert_eq!(code, 0);
    // Seven judgements, four at a time, each stopped at one second.
    assert!(took < Duration::from_secs(15), "took {took:?}");
    for claim in judged(&out) {
        assert_eq!(claim.verdict, "error");
        let reason = claim.reason.as_deref().unwrap();
        assert!(
            reason.contains("timed out after 1 s") && reason.contains("kept its output open"),
            "{reason}"
        );
    }
    let children = pids(&pid_file);
    assert_eq!(children.len(), 7);
    for pid in children {
        assert!(gone(pid), "the judge's child {pid} outlived verify");
    }
}

#[test]
fn a_judge_past_its_timeout_is_killed_with_its_children() {
    let (s, context) = cited();
    let pid_file = s.path("pids");
    // The child leaves the judge's stdout alone: only the process group can reach it.
    let body = format!(
        "read -r request\nsleep 31 >/dev/null 2>&1 &\necho $! >> '{}'\nsleep 30",
        pid_file.display()
    );
    let slow = judge(&s, "slow.sh", &body);
    let (out, code, took) = verify(&s, &context, &slow, "1");
    assert_eq!(code, 0);
    assert!(took < Duration::from_secs(15), "took {took:?}");
    let children = pids(&pid_file);
    assert_eq!(children.len(), 7);
    for pid in children {
        assert!(gone(pid), "the judge's child {pid} outlived its timeout");
    }
    for claim in judged(&out) {
        assert_eq!(claim.verdict, "error");
        assert!(claim
            .reason
            .as_deref()
            .unwrap()
            .contains("timed out after 1 s"));
    }
}

#[test]
fn a_judge_that_floods_stderr_keeps_its_reply_and_one_that_floods_stdout_is_an_error() {
    let (s, context) = cited();
    // 1 MiB on stderr before the reply: far past a pipe's buffer.
    let chatty = judge(
        &s,
        "chatty.sh",
        &format!("read -r request\nhead -c 1048576 /dev/zero | tr '\\0' x >&2\n{REPLY}"),
    );
    let (out, code, _) = verify(&s, &context, &chatty, "60");
    assert_eq!(code, 0);
    for claim in judged(&out) {
        assert_eq!(claim.verdict, "supported", "{:?}", claim.reason);
    }
    let flood = judge(
        &s,
        "flood.sh",
        "read -r request\nhead -c 2000000 /dev/zero | tr '\\0' ' '",
    );
    let (out, code, _) = verify(&s, &context, &flood, "60");
    assert_eq!(code, 0);
    for claim in judged(&out) {
        assert_eq!(claim.verdict, "error");
        let reason = claim.reason.as_deref().unwrap();
        assert!(reason.contains("passed 1048576 bytes"), "{reason}");
    }
}

#[test]
fn a_failing_judge_shows_the_last_error_line_of_a_long_stderr() {
    let (s, context) = cited();
    let failing = judge(
        &s,
        "failing.sh",
        "read -r request\nhead -c 1048576 /dev/zero | tr '\\0' x >&2\necho >&2\necho 'Error: model not loaded' >&2\nexit 4",
    );
    let (out, _, _) = verify(&s, &context, &failing, "60");
    for claim in judged(&out) {
        assert_eq!(claim.verdict, "error");
        let reason = claim.reason.as_deref().unwrap();
        assert!(reason.ends_with("Error: model not loaded"), "{reason}");
    }
}

#[test]
fn every_float_option_out_of_range_is_one_line_exit_2_and_writes_nothing() {
    let (s, context) = cited();
    let before = dump(&s.db());
    s.write("doc.txt", "text\n");
    // (arguments, what the line must say)
    let flags: &[(&[&str], &str)] = &[
        (
            &["--timeout", "1e30"],
            "--timeout 1e30 (or [verify] timeout_secs): give a positive number of seconds",
        ),
        (&["--timeout", "nan"], "--timeout NaN"),
        (&["--timeout", "-1"], "--timeout -1"),
        (&["--timeout", "inf"], "--timeout inf"),
        (&["--timeout", "0"], "--timeout 0"),
        (&["--timeout", "1e-12"], "rounds to 0"),
        (&["--accept", "nan"], "--accept NaN"),
        (&["--accept", "1e30"], "--accept 1e30"),
    ];
    for (args, want) in flags {
        let mut all = vec!["verify", "--context", &context];
        all.extend_from_slice(args);
        let line = s.fails(&all);
        assert!(line.contains(want), "{args:?}: {line}");
    }
    for (command, bad) in [("ingest", "1e30"), ("ingest", "nan"), ("sweep", "-inf")] {
        let flag = format!("--extract-timeout={bad}");
        let mut all = vec![command, &flag];
        if command == "ingest" {
            all.push("doc.txt");
        }
        let line = s.fails(&all);
        assert!(
            line.contains("--extract-timeout") && line.contains("positive number of seconds"),
            "{command} {bad}: {line}"
        );
    }
    // (citestore.toml, what the line must say)
    let configs = [
        (
            "[verify]\ntimeout_secs = 1e30\n",
            "[verify] timeout_secs 1e30: give a positive number of seconds",
        ),
        (
            "[verify]\ntimeout_secs = nan\n",
            "[verify] timeout_secs NaN",
        ),
        ("[verify]\ntimeout_secs = -1\n", "[verify] timeout_secs -1"),
        ("[verify]\naccept = nan\n", "[verify] accept NaN"),
        ("[verify.openai]\ntemperature = nan\n", "temperature NaN"),
    ];
    for (config, want) in configs {
        s.write("citestore.toml", config);
        let line = s.fails(&["verify", "--context", &context]);
        assert!(
            line.contains("citestore.toml") && line.contains(want),
            "{config:?}: {line}"
        );
    }
    std::fs::remove_file(s.path("citestore.toml")).unwrap();
    assert_eq!(dump(&s.db()), before, "a refused command wrote");
}
