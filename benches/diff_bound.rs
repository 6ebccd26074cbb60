//! Cost of the old → new diff and of re-anchoring when a document is rewritten from scratch:
//! the case that must not stall the nightly job. For each size, two unrelated texts of random
//! words (three cited sentences survive, moved; three vanish) are diffed and swept.
//!
//! Run: `cargo bench --bench diff_bound` (sizes in KB: `-- 50 200 2048`, default all three).

use citestore::chunk::ChunkSpec;
use citestore::cite::unique_context;
use citestore::sweep::diff::DiffMap;
use citestore::sweep::{Citation, DocumentSweep, NewChunk, Status};
use citestore::text::content_hash;
use std::time::Instant;

const WORDS: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
];

fn lines(seed: u64, bytes: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    let mut total = 0;
    while total < bytes {
        let line: Vec<&str> = (0..12).map(|_| WORDS[rng.usize(..WORDS.len())]).collect();
        let line = line.join(" ");
        total += line.len() + 1;
        out.push(line);
    }
    out
}

fn chunks(text: &str) -> Vec<NewChunk> {
    let chars: Vec<char> = text.chars().collect();
    ChunkSpec::Paragraph { max: 1500 }
        .spans(text)
        .into_iter()
        .map(|s| NewChunk {
            chunk_id: format!("d#{}-{}", s.start, s.end),
            start: s.start,
            end: s.end,
            content_hash: content_hash(&chars[s.start..s.end].iter().collect::<String>()),
            normaliser: citestore::text::NORMALISER_VERSION.into(),
        })
        .collect()
}

fn run(kb: usize) {
    let survivors: Vec<String> = (0..3)
        .map(|k| {
            format!(
                "Survivor sentence {k} keeps the quota at {} requests per day.",
                k * 11 + 5
            )
        })
        .collect();
    let vanished: Vec<String> = (0..3)
        .map(|k| {
            format!(
                "Deprecated endpoint {k} was retired on day {} of the migration.",
                k * 13 + 2
            )
        })
        .collect();
    let mut old_lines = lines(1, kb * 1024);
    let mut new_lines = lines(2, kb * 1024);
    let len = old_lines.len();
    for (k, s) in survivors.iter().enumerate() {
        old_lines.insert((k + 1) * len / 8, s.clone());
        new_lines.insert((7 - k) * len / 8, s.clone());
    }
    for (k, v) in vanished.iter().enumerate() {
        old_lines.insert((k + 4) * len / 8 + 3, v.clone());
    }
    let old = old_lines.join("\n") + "\n";
    let new = new_lines.join("\n") + "\n";
    let (o, n): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());

    let started = Instant::now();
    let map = DiffMap::new(&o, &n);
    let diff_secs = started.elapsed().as_secs_f64();

    let old_chunks = chunks(&old);
    let stored: Vec<(usize, usize, String, String, String, String, usize)> = survivors
        .iter()
        .chain(&vanished)
        .map(|text| {
            let byte = old.find(text.as_str()).unwrap();
            let start = old[..byte].chars().count();
            let end = start + text.chars().count();
            let (prefix, span, suffix) = unique_context(&old, start, end);
            let chunk = old_chunks
                .iter()
                .find(|c| c.start <= start && start < c.end)
                .unwrap();
            (
                start,
                end,
                prefix,
                span,
                suffix,
                chunk.content_hash.clone(),
                chunk.start,
            )
        })
        .collect();
    let citations: Vec<Citation<'_>> = stored
        .iter()
        .zip(survivors.iter().chain(&vanished))
        .map(|(s, quote)| Citation {
            id: "c",
            start: s.0,
            end: s.1,
            quote,
            span_text: &s.3,
            prefix: &s.2,
            suffix: &s.4,
            chunk_content_hash: &s.5,
            chunk_normaliser: citestore::text::NORMALISER_VERSION,
            chunk_start: s.6,
        })
        .collect();
    let new_chunks = chunks(&new);
    let started = Instant::now();
    let anchors = DocumentSweep::new(&old, &new, &new_chunks, &citations).reanchor_all();
    let sweep_secs = started.elapsed().as_secs_f64();
    let moved = anchors.iter().filter(|a| a.status == Status::Moved).count();
    let lost = anchors.iter().filter(|a| a.status == Status::Lost).count();
    println!(
        "{kb:>6} KB  diff {diff_secs:>8.3} s ({} runs)  re-anchor 6 citations {sweep_secs:>8.3} s  moved {moved} lost {lost}",
        map.runs().len()
    );
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![50, 200, 2048]
    } else {
        sizes
    };
    for kb in sizes {
        run(kb);
    }
}
