//! Normaliser v2 through the real binary: an NFC quote of NFD text is found (score 100, the raw
//! span covering the combining marks) by `locate` and by `cite`; new citations carry `v2` beside
//! their hash; citations made with v1 keep their v1 hash and are compared with v1 hashes by the
//! sweep.

use crate::common;

use citestore::cli::json::{CiteOutput, ExportLine};
use citestore::text::Normaliser;
use common::Scratch;
use serde::Deserialize;
use unicode_normalization::UnicodeNormalization;

const TEXT: &str = "Opening hours.\n\nLe café près de la gare est fermé le lundi et ouvert le dimanche.\n\nPrices are on the board.\n";

#[derive(Debug, Deserialize)]
struct Found {
    start: usize,
    end: usize,
    score: f64,
    how: String,
    text: String,
}

#[test]
fn locate_finds_an_nfc_quote_in_nfd_text_with_the_marks_inside_the_span() {
    let s = Scratch::new();
    let nfd: String = TEXT.nfd().collect();
    let chunk = s.write("chunk.txt", &nfd);
    let quote: String = "café près de la gare est fermé".nfc().collect();
    assert!(
        !nfd.contains(&quote),
        "the quote is not in the text verbatim"
    );
    let out = s
        .cmd()
        .args(["locate", "--json", "--chunk"])
        .arg(&chunk)
        .args(["--quote", &quote])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found: Found = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((found.how.as_str(), found.score), ("folded", 100.0));
    // The span is the NFD text of the quote, every combining mark inside it.
    let want: String = quote.nfd().collect();
    assert_eq!(found.text, want);
    let start = nfd.find(&want).map(|b| nfd[..b].chars().count()).unwrap();
    assert_eq!(
        (found.start, found.end),
        (start, start + want.chars().count())
    );
    // The ends: the char after the span is not a combining mark.
    let after = nfd.chars().nth(found.end).unwrap();
    assert_eq!(after, ' ');
}

/// `cite` used to call this quote fabricated: it is found, and the citation says `v2`.
#[test]
fn cite_finds_an_nfc_quote_of_an_nfd_document_and_stores_v2() {
    let s = Scratch::new();
    let nfd: String = TEXT.nfd().collect();
    s.write("docs/cafe.txt", &nfd);
    s.ingest(&["docs", "--chunker", "paragraph:200"]);
    #[derive(Deserialize)]
    struct Ctx {
        context: String,
        chunks: Vec<Chunk>,
    }
    #[derive(Deserialize)]
    struct Chunk {
        label: String,
        text: String,
    }
    let ctx: Ctx = s.json(&["context", "--doc", "cafe.txt", "--json"]);
    let label = &ctx
        .chunks
        .iter()
        .find(|c| c.text.contains("gare"))
        .unwrap()
        .label;
    let quote: String = "Le café près de la gare est fermé le lundi".nfc().collect();
    let answer = serde_json::json!({"claims": [{"text": "The café is closed on Mondays.",
        "evidence": [{"chunk_id": label, "quote": quote}]}]});
    let path = s.write("answer.json", answer.to_string());
    let out: CiteOutput = s.json(&[
        "cite",
        "--context",
        &ctx.context,
        path.to_str().unwrap(),
        "--json",
    ]);
    let evidence = &out.claims[0].evidence[0];
    assert_eq!(evidence.verdict, "fuzzy", "{evidence:?}");
    let want: String = quote.nfd().collect();
    assert_eq!(evidence.text.as_deref(), Some(want.as_str()));
    let line = export(&s).pop().unwrap();
    assert_eq!(line.normaliser, "v2");
}

fn export(s: &Scratch) -> Vec<ExportLine> {
    s.succeeds(&["export"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A store made before v2: every chunk and citation hashed with v1 and saying so.
fn make_v1(s: &Scratch) {
    let conn = rusqlite::Connection::open(s.db()).unwrap();
    let rows: Vec<(i64, String, i64, i64)> = conn
        .prepare(
            "SELECT c.id, r.text, c.start_char, c.end_char FROM chunks c \
             JOIN chunkings k ON k.id = c.chunking_id JOIN revisions r ON r.id = k.revision_id",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for (id, text, start, end) in rows {
        let chunk: String = text
            .chars()
            .skip(start as usize)
            .take((end - start) as usize)
            .collect();
        let v1 = Normaliser::V1.content_hash(&chunk);
        conn.execute(
            "UPDATE chunks SET content_hash = ?1, normaliser = 'v1' WHERE id = ?2",
            rusqlite::params![v1, id],
        )
        .unwrap();
    }
    conn.execute_batch(
        "UPDATE citations SET normaliser = 'v1', content_hash = \
           (SELECT c.content_hash FROM chunks c WHERE c.chunk_id = citations.chunk_id \
            ORDER BY c.id DESC LIMIT 1); \
         UPDATE revisions SET normaliser = 'v1';",
    )
    .unwrap();
}

#[derive(Debug, Deserialize)]
struct Summary {
    method: std::collections::BTreeMap<String, usize>,
}

/// Citations hashed with v1 stay valid: their hash and version are kept, and the sweep compares
/// them with v1 hashes of the new chunks (made with v2; for NFD text the two differ), so an
/// unchanged paragraph that moved is found by its content hash, not only by searching.
#[test]
fn v1_citations_keep_their_hash_and_are_compared_with_v1() {
    if common::sqlite_only("it writes a v1 row into the SQLite file with rusqlite") {
        return;
    }
    let s = Scratch::new();
    let nfd: String = TEXT.nfd().collect();
    s.write("docs/cafe.txt", &nfd);
    s.ingest(&["docs", "--chunker", "paragraph:80"]);
    let ctx = context(&s);
    let quote: String = "est fermé le lundi".nfd().collect();
    let answer = serde_json::json!({"claims": [{"text": "Closed on Mondays.",
        "evidence": [{"chunk_id": ctx.1, "quote": quote}]}]});
    let path = s.write("answer.json", answer.to_string());
    let _: CiteOutput = s.json(&[
        "cite",
        "--context",
        &ctx.0,
        path.to_str().unwrap(),
        "--json",
    ]);
    make_v1(&s);
    let before = export(&s);
    assert_eq!(before.len(), 1);
    assert_eq!(before[0].normaliser, "v1");
    let paragraph: String = "Le café près de la gare est fermé le lundi et ouvert le dimanche."
        .nfd()
        .collect();
    assert_ne!(
        Normaliser::V1.content_hash(&paragraph),
        Normaliser::V2.content_hash(&paragraph),
        "the test needs text whose v1 and v2 hashes differ"
    );
    // A new first paragraph moves every chunk.
    s.write(
        "docs/cafe.txt",
        format!("A new opening paragraph.\n\n{nfd}"),
    );
    let summary: Summary = s.json(&["sweep", "--json"]);
    assert_eq!(
        summary.method.get("content-hash"),
        Some(&1),
        "{:?}",
        summary.method
    );
    let after = export(&s);
    assert_eq!(
        (
            &after[0].content_hash,
            after[0].normaliser.as_str(),
            after[0].status.as_str()
        ),
        (&before[0].content_hash, "v1", "moved")
    );
    // The new chunking is v2.
    assert!(
        common::count(
            &s.db(),
            "SELECT count(*) FROM chunks WHERE normaliser = 'v2'"
        ) > 0
    );
}

/// The context of `cafe.txt`: its id and the label of the paragraph about the café.
fn context(s: &Scratch) -> (String, String) {
    #[derive(Deserialize)]
    struct Ctx {
        context: String,
        chunks: Vec<Chunk>,
    }
    #[derive(Deserialize)]
    struct Chunk {
        label: String,
        text: String,
    }
    let ctx: Ctx = s.json(&["context", "--doc", "cafe.txt", "--json"]);
    let label = ctx
        .chunks
        .iter()
        .find(|c| c.text.contains("gare"))
        .unwrap()
        .label
        .clone();
    (ctx.context, label)
}
