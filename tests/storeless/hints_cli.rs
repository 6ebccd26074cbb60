//! `citestore locate --prefix/--suffix/--near` through the real binary, on the duplicate-occurrence
//! cases of Hypothesis's and Apache Annotator's own anchoring tests (`fixtures/hints/`).

use assert_cmd::Command;
use serde::Deserialize;
use std::path::PathBuf;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    source: String,
    chunk: String,
    quote: String,
    prefix: Option<String>,
    suffix: Option<String>,
    near: Option<usize>,
    expected_start: usize,
    expected_tied: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Hints {
    candidates: usize,
    chosen: usize,
    agreement: f64,
    tied: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Found {
    start: usize,
    end: usize,
    score: f64,
    how: String,
    occurrences: usize,
    text: String,
    reason: Option<String>,
    hints: Option<Hints>,
}

fn cases_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/hints/cases.jsonl")
}

fn cases() -> Vec<Case> {
    std::fs::read_to_string(cases_path())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn batch(input: &[u8]) -> Vec<Option<Found>> {
    let out = Command::cargo_bin("citestore")
        .unwrap()
        .args(["locate", "--batch", "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn every_public_case_is_resolved_by_its_hints() {
    let cases = cases();
    assert_eq!(cases.len(), 17);
    let found = batch(&std::fs::read(cases_path()).unwrap());
    for (case, found) in cases.iter().zip(&found) {
        let found = found
            .as_ref()
            .unwrap_or_else(|| panic!("{}: not found", case.source));
        assert!(
            case.prefix.is_some() || case.suffix.is_some() || case.near.is_some(),
            "{}: every case carries a hint",
            case.source
        );
        assert!((0.0..=100.0).contains(&found.score));
        assert_eq!(
            found.reason.is_some(),
            found.how == "review",
            "{}",
            case.source
        );
        if found.how == "exact" {
            assert!(found.occurrences >= 1);
        }
        assert_eq!(found.start, case.expected_start, "{}", case.source);
        let tied = found.hints.as_ref().is_some_and(|h| h.tied);
        assert_eq!(tied, case.expected_tied, "{}", case.source);
        let chars: Vec<char> = case.chunk.chars().collect();
        let at: String = chars[found.start..found.end].iter().collect();
        assert_eq!(at, found.text, "{}", case.source);
        if let Some(h) = &found.hints {
            assert!(h.chosen >= 1 && h.chosen <= h.candidates && h.candidates >= 2);
            assert!((0.0..=2.0).contains(&h.agreement));
        }
    }
}

/// The same cases without their hints: the first occurrence every time, as before hints
/// existed. The cases whose expected start is not the first occurrence are the ones only the
/// hints resolve.
#[test]
fn without_hints_the_first_occurrence_is_taken() {
    let cases = cases();
    let plain: Vec<u8> = cases
        .iter()
        .flat_map(|c| {
            let line = serde_json::json!({"chunk": c.chunk, "quote": c.quote});
            format!("{line}\n").into_bytes()
        })
        .collect();
    let found = batch(&plain);
    let mut resolved_by_hints = 0;
    for (case, found) in cases.iter().zip(&found) {
        let found = found.as_ref().unwrap();
        assert!(found.hints.is_none());
        if found.start != case.expected_start {
            resolved_by_hints += 1;
        }
    }
    assert_eq!(resolved_by_hints, 6, "cases only the hints get right");
}

#[test]
fn flags_on_one_quote() {
    let dir = tempfile::tempdir().unwrap();
    let chunk = dir.path().join("chunk.txt");
    std::fs::write(&chunk, "lorem ipsum dolor amet yada yada").unwrap();
    let run = |extra: &[&str]| -> Found {
        let out = Command::cargo_bin("citestore")
            .unwrap()
            .args(["locate", "--json", "--quote", "yada", "--chunk"])
            .arg(&chunk)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        serde_json::from_slice(&out.stdout).unwrap()
    };
    // (flags, start)
    let cases: [(&[&str], usize); 4] = [
        (&[], 23),
        (&["--prefix", "a "], 28),
        (&["--suffix", " yada"], 23),
        (&["--near", "30"], 28),
    ];
    for (flags, start) in cases {
        assert_eq!(run(flags).start, start, "{flags:?}");
    }
    assert!(run(&[]).hints.is_none(), "no hints, no hint report");
    let human = Command::cargo_bin("citestore")
        .unwrap()
        .args(["locate", "--quote", "yada", "--prefix", "a ", "--chunk"])
        .arg(&chunk)
        .output()
        .unwrap();
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(
        text.contains("occurrence 2 of 2 chosen by the hints"),
        "{text}"
    );
}
