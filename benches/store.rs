//! Store throughput: ingest + chunk of generated documents (default 10,000 of ~5 KB, a few
//! paragraphs each, some typography) into a fresh database in one transaction, chunker
//! `paragraph:1500`; then the same folder again (every document unchanged).
//!
//! Prints documents/s, MB/s and the database size. Not a test: nothing here asserts a time.
//!
//! Run: `cargo bench --bench store` (set CITESTORE_BENCH_DOCS to change the count).

use citestore::chunk::ChunkSpec;
use citestore::ingest::{ingest, plan_paths, ChunkPolicy};
use citestore::store::{Location, Store};
use std::path::Path;
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
    "café",
    "naïve",
    "résumé",
    "–",
    "—",
    "“quoted”",
    "500,000",
    "$0.12",
    "1,000",
    "API",
    "requests",
    "limits",
    "apply",
    "and",
    "or",
    "support",
    "tickets",
    "answered",
    "hours",
    "business",
    "enterprise",
    "growth",
    "starter",
];

/// A deterministic ~5 KB document: paragraphs of 40–120 words separated by blank lines.
fn document(seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = String::with_capacity(5300);
    while text.len() < 5000 {
        let words = 40 + next() % 80;
        for i in 0..words {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(WORDS[(next() % WORDS.len() as u64) as usize]);
        }
        text.push_str(".\n\n");
    }
    text
}

fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / 1_000_000.0
}

fn main() {
    let count: u64 = std::env::var("CITESTORE_BENCH_DOCS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir().expect("temp dir");
    let docs = dir.path().join("docs");
    let mut source_bytes = 0u64;
    for i in 0..count {
        let path = docs.join(format!("{:02}/doc{i:06}.md", i % 100));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text = document(i + 1);
        source_bytes += text.len() as u64;
        std::fs::write(&path, text).unwrap();
    }
    let db = dir.path().join("bench.db");
    let policy = ChunkPolicy {
        explicit: Some(ChunkSpec::Paragraph { max: 1500 }),
        configured: None,
    };
    let run = |label: &str| {
        let started = Instant::now();
        let plan = plan_paths(std::slice::from_ref(&docs), None, None).unwrap();
        let mut store = Store::open(&Location::from(db.as_path())).unwrap();
        let writer = store.writer().unwrap();
        let report = ingest(&writer, &plan, policy, "2026-01-01T00:00:00.000Z").unwrap();
        writer.commit().unwrap();
        drop(store);
        let secs = started.elapsed().as_secs_f64();
        let chunks: usize = report
            .documents
            .iter()
            .filter_map(|d| d.chunking.as_ref())
            .filter(|c| c.created)
            .map(|c| c.chunks)
            .sum();
        println!(
            "{label:<22} {count} documents ({:.1} MB) in {secs:.2} s: {:.0} documents/s, {:.1} MB/s, {:.1} µs/document; {chunks} chunks written",
            megabytes(source_bytes),
            count as f64 / secs,
            megabytes(source_bytes) / secs,
            secs * 1e6 / count as f64,
        );
    };
    run("ingest + chunk (new)");
    let size = file_size(&db);
    run("re-ingest (unchanged)");
    println!(
        "database size: {:.1} MB ({:.2}x the source text; text is stored once per revision)",
        megabytes(size),
        size as f64 / source_bytes as f64
    );
}

fn file_size(path: &Path) -> u64 {
    let wal = path.with_extension("db-wal");
    std::fs::metadata(path).map_or(0, |m| m.len()) + std::fs::metadata(wal).map_or(0, |m| m.len())
}
