//! Concurrent `cite` writers (issue 13): W writer threads, each with its own connection, each
//! citing C answers of K claims against contexts of the store's documents, while a sweep runs
//! in another process (started by bench/postgres.sh). Then it checks what the store holds:
//! every citation id a writer was given is in the store exactly once (0 lost, 0 duplicates),
//! and every claim of every answer is stored once; and it reports writer errors.
//!
//! ```sh
//! cargo bench --bench cite_writers -- DB [WRITERS] [ANSWERS] [CLAIMS]   # default 4 100 100
//! ```
//!
//! DB is a SQLite file or a postgres:// URL holding a store made by `sweep_scale setup` (its
//! documents `doc00000.md` …). Prints one JSON line. Not a test: nothing here asserts a time.

use citestore::cite::answer::{Answer, Claim, Evidence};
use citestore::cite::record::{cite_and_record, record_context, ChunkSelector};
use citestore::store::{Location, Store};
use citestore::text::LocateOptions;
use std::collections::HashSet;
use std::time::Instant;

/// What one writer did.
#[derive(Default)]
struct Written {
    ids: Vec<String>,
    claims: usize,
    errors: Vec<String>,
}

/// Writer `w`: `answers` answers of `claims` claims, each against the context of one document.
fn writer(db: Location, w: usize, answers: usize, claims: usize, docs: usize) -> Written {
    let mut out = Written::default();
    let mut store = match Store::open_existing(&db) {
        Ok(store) => store,
        Err(e) => {
            out.errors.push(e.to_string());
            return out;
        }
    };
    let now = "2026-12-03T00:00:00Z";
    let options = LocateOptions::default();
    for k in 0..answers {
        // Writers overlap on documents (and so on contexts): contexts are recorded by all.
        let doc = (k * 37 + w * 11) % docs;
        let doc_id = format!("doc{doc:05}.md");
        let context = match record_context(&mut store, &[ChunkSelector::Doc(doc_id)], now) {
            Ok(context) => context,
            Err(e) => {
                out.errors.push(e.to_string());
                continue;
            }
        };
        let sentences: Vec<(String, String)> = context
            .chunks
            .iter()
            .flat_map(|c| {
                c.text
                    .split_inclusive(". ")
                    .filter(|s| s.starts_with("Item ") && s.len() > 20)
                    .map(|s| (c.label.clone(), s.trim_end().to_string()))
                    .collect::<Vec<_>>()
            })
            .collect();
        let answer = Answer {
            text: None,
            claims: (0..claims)
                .map(|i| {
                    let (label, quote) = &sentences[(i * 7 + k) % sentences.len()];
                    Claim {
                        answer_span: None,
                        text: format!("writer {w} answer {k} claim {i}"),
                        evidence: vec![Evidence {
                            unquoted: false,
                            chunk_id: label.clone(),
                            quote: quote.clone(),
                        }],
                    }
                })
                .collect(),
        };
        match cite_and_record(&mut store, &context.id, &answer, "bench", &options, now) {
            Ok(report) => {
                out.claims += report.claims.len();
                out.ids
                    .extend(report.citation_ids.into_iter().flatten().flatten());
            }
            Err(e) => out.errors.push(e.to_string()),
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(db) = args.first().map(Location::parse) else {
        println!("usage: cargo bench --bench cite_writers -- DB [WRITERS] [ANSWERS] [CLAIMS]");
        return;
    };
    let number =
        |i: usize, default: usize| args.get(i).and_then(|v| v.parse().ok()).unwrap_or(default);
    let (writers, answers, claims) = (number(1, 4), number(2, 100), number(3, 100));
    let store = Store::open_read(&db).expect("open the store");
    let docs = store.summaries().expect("documents").len();
    let before: usize = store.citations().expect("citations").len();
    drop(store);
    let started = Instant::now();
    let handles: Vec<_> = (0..writers)
        .map(|w| {
            let db = db.clone();
            std::thread::spawn(move || writer(db, w, answers, claims, docs))
        })
        .collect();
    let results: Vec<Written> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let seconds = started.elapsed().as_secs_f64();

    let store = Store::open_read(&db).expect("open the store");
    let stored: Vec<String> = store
        .citations()
        .expect("citations")
        .into_iter()
        .map(|c| c.citation_id)
        .collect();
    let distinct: HashSet<&str> = stored.iter().map(String::as_str).collect();
    let given: HashSet<&str> = results
        .iter()
        .flat_map(|r| r.ids.iter().map(String::as_str))
        .collect();
    let lost = given.iter().filter(|id| !distinct.contains(*id)).count();
    let duplicates = stored.len() - distinct.len();
    let errors: Vec<&String> = results.iter().flat_map(|r| &r.errors).collect();
    let claims_written: usize = results.iter().map(|r| r.claims).sum();
    println!(
        "{}",
        serde_json::json!({
            "db": store.backend_name(),
            "writers": writers,
            "claims": claims_written,
            "citations_given": given.len(),
            "citations_added": stored.len() - before,
            "lost": lost,
            "duplicates": duplicates,
            "errors": errors.len(),
            "first_error": errors.first(),
            "seconds": seconds,
            "claims_per_second": claims_written as f64 / seconds,
        })
    );
}
