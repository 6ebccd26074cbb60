//! Parity with the reference locator (Python rapidfuzz 3.14.6 running seed 001's algorithm),
//! over the vectors in `fixtures/vectors/` (contract: `fixtures/vectors/README.md`).

use citestore::text::align::{partial_ratio_alignment_raw, ratio};
use citestore::text::{locate_with, How, LocateOptions, Normaliser};
use serde::Deserialize;

fn lines<T: for<'de> Deserialize<'de>>(name: &str) -> Vec<T> {
    let path = format!("{}/fixtures/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rows: Vec<T> = text
        .lines()
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1)))
        .collect();
    assert!(!rows.is_empty(), "{path} has no vectors");
    rows
}

fn assert_all_agree(failures: &[String], total: usize) {
    assert!(
        failures.is_empty(),
        "{} of {total} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

#[derive(Deserialize)]
struct FoldCase {
    raw: String,
    folded: String,
    back: Vec<u32>,
}

#[test]
fn fold_matches_reference() {
    let cases: Vec<FoldCase> = lines("fold.jsonl");
    for case in &cases {
        let got = Normaliser::V1.fold(&case.raw);
        assert_eq!(got.text(), case.folded, "raw {:?}", case.raw);
        assert_eq!(got.back, case.back, "raw {:?}", case.raw);
    }
}

#[derive(Deserialize)]
struct PartialCase {
    needle: String,
    haystack: String,
    kind: String,
    score: f64,
    dest_start: usize,
    dest_end: usize,
    best_score: f64,
    unique_best: bool,
}

#[test]
fn partial_ratio_matches_reference() {
    let cases: Vec<PartialCase> = lines("partial_ratio.jsonl");
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let (needle, hay) = (chars(&case.needle), chars(&case.haystack));
        let got = partial_ratio_alignment_raw(&needle, &hay, 0.0);
        let window = &hay[got.dest_start..got.dest_end];
        let window_ratio = ratio(&needle, window);
        let ok_score = (got.score - case.score).abs() < 1e-9;
        let ok_window = if case.unique_best {
            (got.dest_start, got.dest_end) == (case.dest_start, case.dest_end)
        } else {
            (window_ratio - case.best_score).abs() < 1e-9
        };
        if !(ok_score && ok_window) {
            failures.push(format!(
                "line {} ({}): got {:.6} [{}, {}), want {:.6} [{}, {})",
                i + 1,
                case.kind,
                got.score,
                got.dest_start,
                got.dest_end,
                case.score,
                case.dest_start,
                case.dest_end
            ));
        }
    }
    assert_all_agree(&failures, cases.len());
}

#[derive(Deserialize)]
struct Expect {
    start: usize,
    end: usize,
    score: f64,
    how: How,
}

#[derive(Deserialize)]
struct LocateCase {
    chunk: String,
    quote: String,
    kind: String,
    expect: Option<Expect>,
}

#[test]
fn locate_matches_reference() {
    let cases: Vec<LocateCase> = lines("locate.jsonl");
    let seed = LocateOptions::seed();
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let got = locate_with(&case.chunk, &case.quote, &seed);
        let same = match (&got, &case.expect) {
            (None, None) => true,
            (Some(g), Some(e)) => {
                g.how == e.how
                    && g.start == e.start
                    && g.end == e.end
                    && (g.score - e.score).abs() < 1e-9
            }
            _ => false,
        };
        if !same {
            failures.push(format!(
                "line {} ({}): got {:?}, want {:?}",
                i + 1,
                case.kind,
                got.map(|g| (g.how, g.start, g.end, g.score)),
                case.expect
                    .as_ref()
                    .map(|e| (e.how, e.start, e.end, e.score))
            ));
        }
    }
    assert_all_agree(&failures, cases.len());
}
