//! Sweep at scale (issue 5): 10,000 generated documents of ~5 KB, 100 citations each (1M
//! citations); then 10% of the documents are revised on disk. The sweep itself is timed by
//! running the real binary, so its wall time and peak RSS come from `/usr/bin/time -v`:
//!
//! ```sh
//! cargo bench --bench sweep_scale -- setup /tmp/scale          # builds /tmp/scale/bench.db
//! cargo build --release
//! /usr/bin/time -v target/release/citestore --db /tmp/scale/bench.db sweep --chunker paragraph:1200 --json
//! /usr/bin/time -v target/release/citestore --db /tmp/scale/bench.db sweep --json   # nothing changed
//! ```
//!
//! `CITESTORE_BENCH_DOCS` and `CITESTORE_BENCH_CITATIONS` change the sizes. Not a test: nothing
//! here asserts a time. Setup uses the library directly (ingest, record_context, cite).

use citestore::chunk::ChunkSpec;
use citestore::cite::answer::{Answer, Claim, Evidence};
use citestore::cite::record::{cite_and_record, record_context, ChunkSelector};
use citestore::ingest::{ingest, plan_paths, ChunkPolicy};
use citestore::store::{Location, Store};
use citestore::text::LocateOptions;
use std::path::{Path, PathBuf};
use std::time::Instant;

const WORDS: &[&str] = &[
    "the",
    "plan",
    "includes",
    "calls",
    "per",
    "month",
    "overage",
    "is",
    "charged",
    "at",
    "rate",
    "customers",
    "may",
    "cancel",
    "any",
    "time",
    "refunds",
    "within",
    "days",
    "of",
    "purchase",
    "service",
    "level",
    "agreement",
    "uptime",
    "credit",
    "caf\u{e9}",
    "\u{2014}",
    "limits",
    "apply",
    "and",
    "or",
    "support",
    "tickets",
    "answered",
    "hours",
    "region",
    "storage",
];

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A sentence with a unique number, so every cited sentence occurs once in its document.
fn sentence(rng: &mut fastrand::Rng, doc: usize, n: usize) -> String {
    let words: Vec<&str> = (0..8 + rng.usize(..10))
        .map(|_| WORDS[rng.usize(..WORDS.len())])
        .collect();
    format!("Item {doc}.{n}: {}.", words.join(" "))
}

/// A document of ~5 KB: paragraphs of sentences; returns the text and its sentences.
fn document(rng: &mut fastrand::Rng, doc: usize) -> (String, Vec<String>) {
    let mut text = format!("# Document {doc}\n\n");
    let mut sentences = Vec::new();
    let mut n = 0;
    while text.len() < 5000 {
        let paragraph: Vec<String> = (0..3 + rng.usize(..4))
            .map(|_| {
                n += 1;
                sentence(rng, doc, n)
            })
            .collect();
        text.push_str(&paragraph.join(" "));
        text.push_str("\n\n");
        sentences.extend(paragraph);
    }
    (text, sentences)
}

/// A light revision: a paragraph inserted at the top, one sentence deleted, one word changed.
fn revise(rng: &mut fastrand::Rng, text: &str, sentences: &[String]) -> String {
    let mut out = text.replacen(
        "\n\n",
        "\n\nRevised: this paragraph was added above everything.\n\n",
        1,
    );
    let gone = &sentences[rng.usize(..sentences.len())];
    out = out.replacen(&format!("{gone} "), "", 1);
    let edited = &sentences[rng.usize(..sentences.len())];
    out.replacen(edited, &edited.replacen(' ', "  ", 1), 1)
}

fn setup(dir: &Path) {
    let docs = env_usize("CITESTORE_BENCH_DOCS", 10_000);
    let per_doc = env_usize("CITESTORE_BENCH_CITATIONS", 100);
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).expect("create corpus folder");
    let db = dir.join("bench.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let mut rng = fastrand::Rng::with_seed(5);
    let started = Instant::now();
    let mut all_sentences = Vec::with_capacity(docs);
    for d in 0..docs {
        let (text, sentences) = document(&mut rng, d);
        std::fs::write(corpus.join(format!("doc{d:05}.md")), text).expect("write document");
        all_sentences.push(sentences);
    }
    let mut store = Store::open(&Location::from(db.as_path())).expect("open store");
    let now = "2026-12-02T00:00:00Z";
    {
        let plan = plan_paths(std::slice::from_ref(&corpus), None, None).expect("plan");
        let writer = store.writer().expect("writer");
        let policy = ChunkPolicy {
            explicit: Some("paragraph:1500".parse::<ChunkSpec>().expect("spec")),
            configured: None,
        };
        ingest(&writer, &plan, policy, now).expect("ingest");
        writer.commit().expect("commit");
    }
    println!(
        "generated and ingested {docs} documents in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let citing = Instant::now();
    let options = LocateOptions::default();
    for (d, sentences) in all_sentences.iter().enumerate() {
        let doc_id = format!("doc{d:05}.md");
        let context =
            record_context(&mut store, &[ChunkSelector::Doc(doc_id)], now).expect("context");
        let claims = (0..per_doc)
            .map(|i| {
                let quote = &sentences[(i * 7 + d) % sentences.len()];
                let chunk = context
                    .chunks
                    .iter()
                    .find(|c| c.text.contains(quote.as_str()))
                    .expect("a chunk holds the sentence");
                Claim {
                    answer_span: None,
                    text: format!("claim {d}/{i}"),
                    evidence: vec![Evidence {
                        unquoted: false,
                        chunk_id: chunk.label.clone(),
                        quote: quote.clone(),
                    }],
                }
            })
            .collect();
        cite_and_record(
            &mut store,
            &context.id,
            &Answer { text: None, claims },
            "bench",
            &options,
            now,
        )
        .expect("cite");
    }
    println!(
        "cited {} citations in {:.1} s",
        docs * per_doc,
        citing.elapsed().as_secs_f64()
    );
    // Revise 10% of the documents on disk; the sweep re-extracts them.
    let revised = docs / 10;
    for (d, sentences) in all_sentences.iter().enumerate().take(revised) {
        let path = corpus.join(format!("doc{d:05}.md"));
        let text = std::fs::read_to_string(&path).expect("read");
        std::fs::write(&path, revise(&mut rng, &text, sentences)).expect("write");
    }
    let size = std::fs::metadata(&db).map(|m| m.len()).unwrap_or(0);
    println!(
        "revised {revised} documents; database {} ({:.1} MB)",
        db.display(),
        size as f64 / 1e6
    );
}

fn main() {
    // `cargo bench` passes `--bench`; the arguments that matter follow `--`.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.as_slice() {
        [cmd, dir] if cmd == "setup" => setup(&PathBuf::from(dir)),
        _ => println!(
            "usage: cargo bench --bench sweep_scale -- setup DIR   (then time `citestore sweep`, see benches/sweep_scale.rs)"
        ),
    }
}
