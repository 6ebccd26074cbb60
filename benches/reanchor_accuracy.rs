//! Re-anchoring accuracy on real text: the Rust half of `bench/sphinx_accuracy.py`.
//!
//! Reads documents (JSON Lines: `{"doc", "old", "new", "spans": [[start, end], ...]}`, chars) from
//! the path in `CITESTORE_SWEEP_CASES`, cites every span as `cite` stores it (trimmed span, context
//! grown until unique, the old chunk's hash under `paragraph:1500`), re-chunks the new text with
//! `chars:1000:100`, and re-anchors each document's citations with one `DocumentSweep`. Two
//! baselines locate each span's text in the whole new document: `accept-all` (any approximate
//! match, cut-off 0) and `seed-85` (the seed's plain rules, `LocateOptions::seed()`).
//!
//! Writes one line per (system, span) to `CITESTORE_SWEEP_RESULTS` and prints the timings as one
//! JSON line on stdout. The scoring (against a difflib oracle) is the Python script's.
//!
//! Run: `python3 bench/sphinx_accuracy.py` (it sets both variables and runs
//! `cargo bench --bench reanchor_accuracy`).

use citestore::chunk::ChunkSpec;
use citestore::cite::unique_context;
use citestore::sweep::{Anchor, Citation, DocumentSweep, NewChunk, Status};
use citestore::text::{content_hash, How, LocateOptions, Located};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufWriter, Write};
use std::time::{Duration, Instant};

#[derive(Deserialize)]
struct DocCase {
    doc: String,
    old: String,
    new: String,
    spans: Vec<(usize, usize)>,
}

#[derive(Serialize)]
struct Out<'a> {
    system: &'a str,
    doc: &'a str,
    i: usize,
    status: Status,
    start: usize,
    end: usize,
    method: String,
    score: f64,
    reason: Option<String>,
}

struct Stored {
    id: String,
    start: usize,
    end: usize,
    text: String,
    prefix: String,
    suffix: String,
    chunk_hash: String,
    chunk_start: usize,
}

fn chunks(text: &str, spec: ChunkSpec) -> Vec<NewChunk> {
    let chars: Vec<char> = text.chars().collect();
    spec.spans(text)
        .into_iter()
        .map(|s| NewChunk {
            chunk_id: format!("#{}-{}", s.start, s.end),
            start: s.start,
            end: s.end,
            content_hash: content_hash(&chars[s.start..s.end].iter().collect::<String>()),
            normaliser: citestore::text::NORMALISER_VERSION.into(),
        })
        .collect()
}

fn cite_all(case: &DocCase) -> Vec<Stored> {
    let old_chunks = chunks(&case.old, ChunkSpec::Paragraph { max: 1500 });
    case.spans
        .iter()
        .enumerate()
        .map(|(i, &(start, end))| {
            let (prefix, text, suffix) = unique_context(&case.old, start, end);
            let chunk = old_chunks
                .iter()
                .find(|c| c.start <= start && start < c.end)
                .expect("chunks cover the text");
            Stored {
                id: format!("{}#{i}", case.doc),
                start,
                end,
                text,
                prefix,
                suffix,
                chunk_hash: chunk.content_hash.clone(),
                chunk_start: chunk.start,
            }
        })
        .collect()
}

fn baseline(located: Option<Located>, old_start: usize, stored: &Stored) -> Anchor {
    let Some(l) = located else {
        return Anchor {
            status: Status::Lost,
            start: stored.start,
            end: stored.end,
            chunk_id: None,
            score: 0.0,
            method: citestore::sweep::Method::None,
            reason: None,
        };
    };
    let status = match (l.how, l.start == old_start) {
        (How::Exact, true) => Status::Intact,
        (How::Exact, false) => Status::Moved,
        _ => Status::Degraded,
    };
    Anchor {
        status,
        start: l.start,
        end: l.end,
        chunk_id: None,
        score: l.score,
        method: citestore::sweep::Method::Fuzzy,
        reason: l.reason,
    }
}

/// One line on stderr, exit 2.
fn fail(message: &str) -> ! {
    eprintln!("reanchor_accuracy: {message}");
    std::process::exit(2)
}

fn main() {
    // `cargo bench` runs every bench target; without the Python script's cases there is
    // nothing to measure, which is not an error.
    let (Ok(cases_path), Ok(results_path)) = (
        std::env::var("CITESTORE_SWEEP_CASES"),
        std::env::var("CITESTORE_SWEEP_RESULTS"),
    ) else {
        eprintln!("reanchor_accuracy: skipped; run python3 bench/sphinx_accuracy.py (it sets CITESTORE_SWEEP_CASES and CITESTORE_SWEEP_RESULTS)");
        return;
    };
    let file = std::fs::File::open(&cases_path).unwrap_or_else(|e| {
        fail(&format!(
            "{cases_path}: {e}; run python3 bench/sphinx_accuracy.py to write it"
        ))
    });
    let mut out = BufWriter::new(
        std::fs::File::create(&results_path)
            .unwrap_or_else(|e| fail(&format!("{results_path}: {e}; check its folder"))),
    );
    let accept_all = LocateOptions {
        accept: 0.0,
        review: 0.0,
        min_length_ratio: 0.0,
        max_length_ratio: f64::MAX,
        ..LocateOptions::seed()
    };
    let seed = LocateOptions::seed();
    let (mut sweep_time, mut accept_time, mut seed_time) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut citations_total = 0usize;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.unwrap_or_else(|e| fail(&format!("{cases_path}: {e}")));
        let case: DocCase = serde_json::from_str(&line).unwrap_or_else(|e| {
            fail(&format!(
                "{cases_path}: not a document line ({e}); rerun bench/sphinx_accuracy.py"
            ))
        });
        let stored = cite_all(&case);
        let new_chunks = chunks(
            &case.new,
            ChunkSpec::Chars {
                size: 1000,
                overlap: 100,
            },
        );
        let citations: Vec<Citation<'_>> = stored
            .iter()
            .map(|s| Citation {
                id: &s.id,
                start: s.start,
                end: s.end,
                quote: &s.text,
                span_text: &s.text,
                prefix: &s.prefix,
                suffix: &s.suffix,
                chunk_content_hash: &s.chunk_hash,
                chunk_normaliser: citestore::text::NORMALISER_VERSION,
                chunk_start: s.chunk_start,
            })
            .collect();
        citations_total += citations.len();
        let t = Instant::now();
        let anchors =
            DocumentSweep::new(&case.old, &case.new, &new_chunks, &citations).reanchor_all();
        sweep_time += t.elapsed();
        let hay = citestore::text::Haystack::new(&case.new);
        let mut write = |system: &str, i: usize, a: &Anchor| {
            let line = serde_json::to_string(&Out {
                system,
                doc: &case.doc,
                i,
                status: a.status,
                start: a.start,
                end: a.end,
                method: a.method.as_str().to_string(),
                score: a.score,
                reason: a.reason.clone(),
            })
            .expect("serialisable");
            writeln!(out, "{line}").unwrap_or_else(|e| fail(&format!("{results_path}: {e}")));
        };
        for (i, a) in anchors.iter().enumerate() {
            write("sweep", i, a);
        }
        for (i, s) in stored.iter().enumerate() {
            let t = Instant::now();
            let a = baseline(hay.locate(&s.text, &accept_all), s.start, s);
            accept_time += t.elapsed();
            write("accept-all", i, &a);
            let t = Instant::now();
            let a = baseline(hay.locate(&s.text, &seed), s.start, s);
            seed_time += t.elapsed();
            write("seed-85", i, &a);
        }
    }
    out.flush()
        .unwrap_or_else(|e| fail(&format!("{results_path}: {e}")));
    let per = |d: Duration| d.as_secs_f64() / citations_total.max(1) as f64;
    println!(
        "{}",
        serde_json::json!({
            "citations": citations_total,
            "sweep_seconds": sweep_time.as_secs_f64(),
            "sweep_seconds_per_citation": per(sweep_time),
            "accept-all_seconds_per_citation": per(accept_time),
            "seed-85_seconds_per_citation": per(seed_time),
        })
    );
}
