//! Cost of re-anchoring one generated ~5 KB document with 100 citations (the shape of issue 5's
//! scale benchmark): unchanged text with a new chunking, and a revised text (a paragraph
//! inserted, one deleted, one moved, words edited, typography changed), and a text rewritten
//! from scratch (every citation goes through fuzzy alignment and is lost). Per citation =
//! reported time / 100.
//!
//! Run: `cargo bench --bench sweep`

use citestore::chunk::ChunkSpec;
use citestore::cite::unique_context;
use citestore::sweep::{Citation, DocumentSweep, NewChunk};
use citestore::text::content_hash;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

const WORDS: &[&str] = &[
    "sphinx",
    "builder",
    "theme",
    "extension",
    "directive",
    "role",
    "domain",
    "index",
    "toctree",
    "config",
    "value",
    "output",
    "source",
    "module",
    "function",
    "class",
    "method",
    "option",
    "default",
    "version",
    "the",
    "a",
    "of",
    "to",
    "and",
    "is",
    "in",
    "for",
    "with",
    "it's",
];

fn paragraph(rng: &mut fastrand::Rng) -> String {
    (0..3)
        .map(|_| {
            let mut s: Vec<String> = (0..12)
                .map(|_| WORDS[rng.usize(..WORDS.len())].to_string())
                .collect();
            s.push(format!("n{}", rng.u32(..1_000_000)));
            s.join(" ") + "."
        })
        .collect::<Vec<_>>()
        .join(" ")
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

struct Stored {
    start: usize,
    end: usize,
    text: String,
    prefix: String,
    suffix: String,
    hash: String,
    chunk_start: usize,
}

fn cite(text: &str, rng: &mut fastrand::Rng, count: usize) -> Vec<Stored> {
    let chars: Vec<char> = text.chars().collect();
    let old_chunks = chunks(text, ChunkSpec::Paragraph { max: 1500 });
    (0..count)
        .map(|_| {
            let mut start = rng.usize(..chars.len() - 200);
            while chars[start] == ' ' || (start > 0 && chars[start - 1] != ' ') {
                start += 1;
            }
            let mut end = start + 30 + rng.usize(..150);
            while chars[end - 1] == ' ' || chars[end - 1] == '\n' {
                end -= 1;
            }
            let (prefix, text, suffix) = unique_context(text, start, end);
            let chunk = old_chunks
                .iter()
                .find(|c| c.start <= start && start < c.end)
                .unwrap();
            Stored {
                start,
                end,
                text,
                prefix,
                suffix,
                hash: chunk.content_hash.clone(),
                chunk_start: chunk.start,
            }
        })
        .collect()
}

fn revise(paras: &[String], rng: &mut fastrand::Rng) -> String {
    let mut p = paras.to_vec();
    p.insert(2, paragraph(rng));
    p.remove(5);
    let moved = p.remove(1);
    p.push(moved);
    p[3] = p[3]
        .replacen(" the ", " a ", 2)
        .replace("it's", "it\u{2019}s");
    p[6] = p[6].replacen(" of ", " of all ", 1);
    p.join("\n\n")
}

fn bench(c: &mut Criterion) {
    let mut rng = fastrand::Rng::with_seed(7);
    let paras: Vec<String> = (0..17).map(|_| paragraph(&mut rng)).collect();
    let old = paras.join("\n\n");
    let stored = cite(&old, &mut rng, 100);
    let citations: Vec<Citation<'_>> = stored
        .iter()
        .map(|s| Citation {
            id: "c",
            start: s.start,
            end: s.end,
            quote: &s.text,
            span_text: &s.text,
            prefix: &s.prefix,
            suffix: &s.suffix,
            chunk_content_hash: &s.hash,
            chunk_normaliser: citestore::text::NORMALISER_VERSION,
            chunk_start: s.chunk_start,
        })
        .collect();
    let new = revise(&paras, &mut rng);
    let spec = ChunkSpec::Chars {
        size: 800,
        overlap: 100,
    };
    let same_chunks = chunks(&old, spec);
    let new_chunks = chunks(&new, spec);
    eprintln!(
        "document: {} chars old, {} chars new, {} citations",
        old.chars().count(),
        new.chars().count(),
        citations.len()
    );
    let mut group = c.benchmark_group("sweep_document_100_citations");
    group.sample_size(30);
    group.bench_function("unchanged_text_new_chunking", |b| {
        b.iter(|| {
            DocumentSweep::new(black_box(&old), black_box(&old), &same_chunks, &citations)
                .reanchor_all()
        })
    });
    group.bench_function("revised_text", |b| {
        b.iter(|| {
            DocumentSweep::new(black_box(&old), black_box(&new), &new_chunks, &citations)
                .reanchor_all()
        })
    });
    let rewritten: String = (0..17)
        .map(|_| paragraph(&mut rng))
        .collect::<Vec<_>>()
        .join("\n\n");
    let rewritten_chunks = chunks(&rewritten, spec);
    group.bench_function("rewritten_text", |b| {
        b.iter(|| {
            DocumentSweep::new(
                black_box(&old),
                black_box(&rewritten),
                &rewritten_chunks,
                &citations,
            )
            .reanchor_all()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
