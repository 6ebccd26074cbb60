//! `citestore::text::locate_with(chunk, quote, &LocateOptions::default())` over all 400 lines of
//! `fixtures/vectors/locate.jsonl`, timed the way `bench/bench_python_package.py` times the
//! Python package (`timeit`: the best of REPEAT passes of NUMBER runs over the file), so the two
//! per-call figures compare like with like. Prints one JSON line: `{"calls", "repeat",
//! "number", "best_us", "median_us"}` (µs per call).
//!
//! `cargo bench --bench locate_passes -- [REPEAT] [NUMBER]` (default 7 5).

use citestore::text::{locate_with, LocateOptions};
use serde::Deserialize;
use std::hint::black_box;
use std::time::Instant;

#[derive(Deserialize)]
struct Case {
    chunk: String,
    quote: String,
}

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/vectors/locate.jsonl");
    let text = std::fs::read_to_string(path).expect("the reference vectors");
    let cases: Vec<Case> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a vector line"))
        .collect();
    // `cargo bench` passes `--bench`; numbers are REPEAT and NUMBER.
    let numbers: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let repeat = numbers.first().copied().unwrap_or(7);
    let number = numbers.get(1).copied().unwrap_or(5);
    let options = LocateOptions::default();
    let mut passes: Vec<f64> = (0..repeat)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..number {
                for case in &cases {
                    black_box(locate_with(
                        black_box(&case.chunk),
                        black_box(&case.quote),
                        &options,
                    ));
                }
            }
            started.elapsed().as_secs_f64() * 1e6 / (number * cases.len()) as f64
        })
        .collect();
    passes.sort_by(f64::total_cmp);
    println!(
        "{{\"calls\": {}, \"repeat\": {repeat}, \"number\": {number}, \"best_us\": {:.3}, \"median_us\": {:.3}}}",
        cases.len(),
        passes[0],
        passes[passes.len() / 2]
    );
}
