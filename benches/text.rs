//! Speed of the text core on the reference vectors (issue 2, "Must show").
//!
//! - `locate/seed` and `locate/default`: `locate_with(chunk, quote, options)` over all 400 lines
//!   of `fixtures/vectors/locate.jsonl`; one iteration is all 400 calls.
//! - `partial_ratio_alignment_raw`: the alignment over all 400 lines of
//!   `fixtures/vectors/partial_ratio.jsonl`, chars collected outside the timing (Python's
//!   rapidfuzz also receives ready `str` objects); one iteration is all 400 calls.
//!
//! Per-call cost = reported time / 400. `bench/bench_python.py` times the Python seed and
//! rapidfuzz on the same files; `bench/README.md` has the figures and commands.

use citestore::text::align::partial_ratio_alignment_raw;
use citestore::text::{locate_with, LocateOptions};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use serde::Deserialize;
use std::path::Path;
use std::time::Duration;

#[derive(Deserialize)]
struct LocateCase {
    chunk: String,
    quote: String,
}

#[derive(Deserialize)]
struct PartialRatioCase {
    needle: String,
    haystack: String,
}

fn read_vectors<T: for<'de> Deserialize<'de>>(name: &str) -> Vec<T> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/vectors")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{} line {}: {e}", path.display(), i + 1))
        })
        .collect()
}

fn bench_locate(c: &mut Criterion) {
    let cases: Vec<LocateCase> = read_vectors("locate.jsonl");
    let mut group = c.benchmark_group("locate");
    group.throughput(Throughput::Elements(cases.len() as u64));
    for (name, options) in [
        ("seed", LocateOptions::seed()),
        ("default", LocateOptions::default()),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                for case in &cases {
                    black_box(locate_with(
                        black_box(&case.chunk),
                        black_box(&case.quote),
                        &options,
                    ));
                }
            })
        });
    }
    group.finish();
}

fn bench_partial_ratio(c: &mut Criterion) {
    let cases: Vec<(Vec<char>, Vec<char>)> =
        read_vectors::<PartialRatioCase>("partial_ratio.jsonl")
            .into_iter()
            .map(|case| {
                (
                    case.needle.chars().collect(),
                    case.haystack.chars().collect(),
                )
            })
            .collect();
    let mut group = c.benchmark_group("partial_ratio");
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("alignment_raw", |b| {
        b.iter(|| {
            for (needle, hay) in &cases {
                black_box(partial_ratio_alignment_raw(
                    black_box(needle),
                    black_box(hay),
                    0.0,
                ));
            }
        })
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_locate, bench_partial_ratio
}
criterion_main!(benches);
