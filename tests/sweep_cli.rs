//! `citestore sweep`, `health`, `list`, `show` and `export` through the real binary: the bundled
//! two-version example, a second sweep that writes nothing, the exact-text invariant on every
//! exported anchor, and a sweep killed mid-run that ends, when run again, where an uninterrupted
//! one does.

use crate::common;

use common::{cited_example, count, dump, succeeded, swap_in_version_2, Scratch};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Deserialize)]
struct Summary {
    re_extracted: usize,
    sources_missing: Vec<String>,
    unchanged_documents: usize,
    citations_reanchored: usize,
    anchors_written: usize,
    status: BTreeMap<String, i64>,
}

#[derive(Debug, Deserialize)]
struct Current {
    revision: u32,
    start: usize,
    end: usize,
    chunk_id: Option<String>,
    method: String,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    score: f64,
}

#[derive(Debug, Deserialize)]
struct ExportLine {
    id: String,
    doc_id: String,
    start: usize,
    end: usize,
    quote: String,
    status: String,
    current: Option<Current>,
    #[serde(default)]
    last_known: Option<LastKnown>,
}

#[derive(Debug, Deserialize)]
struct LastKnown {
    revision: u32,
    start: usize,
    end: usize,
    reason: Option<String>,
}

fn export(s: &Scratch) -> Vec<ExportLine> {
    s.succeeds(&["export"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `text` as an SQL string literal (the doc ids and citation ids of these tests).
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn revision_text(s: &Scratch, doc_id: &str, seq: u32) -> Vec<char> {
    let text = common::row_texts(
        &s.db(),
        &format!(
            "SELECT r.text FROM revisions r JOIN documents d ON d.id = r.document_id \
             WHERE d.doc_id = {} AND r.seq = {seq}",
            literal(doc_id)
        ),
    );
    text[0].chars().collect()
}

/// The text of `line`'s current span in its current revision.
fn current_text(s: &Scratch, line: &ExportLine) -> String {
    let cur = line.current.as_ref().expect("a current span");
    revision_text(s, &line.doc_id, cur.revision)[cur.start..cur.end]
        .iter()
        .collect()
}

/// The reason of `line`'s current anchor ("" when it has none).
fn current_reason(line: &ExportLine) -> &str {
    line.current
        .as_ref()
        .and_then(|c| c.reason.as_deref())
        .unwrap_or_default()
}

/// A store holding `text` as `docs/d.rst`, cut by `chunker`, and a context of its chunks (the
/// JSON of `context --json`).
fn one_document(text: String, chunker: &str) -> (Scratch, serde_json::Value) {
    let s = Scratch::new();
    s.write("docs/d.rst", text);
    s.ingest(&["docs", "--chunker", chunker]);
    let context = s.json(&["context", "--doc", "d.rst", "--json"]);
    (s, context)
}

/// Cites `quote` from the chunk labelled `label` of `context` (the JSON of `context --json`),
/// as a model's answer would.
fn cite_quote(s: &Scratch, context: &serde_json::Value, label: &str, quote: &str) {
    let answer = s.write(
        "answer.json",
        serde_json::json!({"claims": [{"text": "t", "evidence": [{"chunk_id": label, "quote": quote}]}]})
            .to_string(),
    );
    s.succeeds(&[
        "cite",
        "--context",
        context["context"].as_str().unwrap(),
        answer.to_str().unwrap(),
    ]);
}

/// Cites `quote` from the first chunk of `text` (cut by `chunker`), as [`one_document`] and
/// [`cite_quote`] do.
fn cited_in_first_chunk(text: &str, chunker: &str, quote: &str) -> Scratch {
    let (s, context) = one_document(text.to_string(), chunker);
    let label = context["chunks"][0]["label"].as_str().unwrap();
    cite_quote(&s, &context, label, quote);
    s
}

/// The document rewritten to `text`, swept; the citation as `export` then shows it.
fn swept_to(s: &Scratch, text: &str) -> ExportLine {
    s.write("docs/d.rst", text);
    s.json::<Summary>(&["sweep", "--json"]);
    export(s).pop().unwrap()
}

/// No citation is intact or moved unless its cited text is exactly at the reported span, or its
/// words are there in other whitespace or typography and its reason says so.
fn assert_exact_text_where_intact_or_moved(s: &Scratch) {
    for line in export(s) {
        if line.status != "intact" && line.status != "moved" {
            continue;
        }
        let cited = common::row_texts(
            &s.db(),
            &format!(
                "SELECT span_text FROM citations WHERE citation_id = {}",
                literal(&line.id)
            ),
        )
        .remove(0);
        let cur = line.current.as_ref().unwrap();
        let text = revision_text(s, &line.doc_id, cur.revision);
        let at: String = text[cur.start..cur.end].iter().collect();
        // The same words in other whitespace or typography say so.
        let typography = cur
            .reason
            .as_deref()
            .is_some_and(|r| r.starts_with("typography changed"));
        if typography {
            assert_eq!(
                citestore::text::fold_text(&at),
                citestore::text::fold_text(&cited),
                "{} is {} (typography changed) but its words are not at the span",
                line.id,
                line.status
            );
            continue;
        }
        assert_eq!(
            at, cited,
            "{} is {} but its text is not at the span",
            line.id, line.status
        );
    }
}

#[test]
fn version_2_of_the_example() {
    let s = cited_example();
    swap_in_version_2(&s);
    let summary: Summary = s.json(&["sweep", "--chunker", "paragraph:200", "--json"]);
    assert_eq!(summary.re_extracted, 2);
    assert_eq!(summary.citations_reanchored, 4);
    let lines = export(&s);
    let status: BTreeMap<&str, &str> = lines
        .iter()
        .map(|l| (l.quote.as_str(), l.status.as_str()))
        .collect();
    // (quote, status): an edit above moves the exact quote; the included volume changed beside
    // a respaced slash degrades the fuzzy one; the deleted sentence is lost, not re-anchored to
    // a look-alike; the moved section moves the repaired one.
    let expected = [
        ("overage $0.20 per 1,000 calls", "moved"),
        (
            "Growth \u{2013} included 500,000 calls/mo; overage $0.12 per 1,000 calls",
            "degraded",
        ),
        (
            "Enterprise pricing is available upon request from your account manager",
            "lost",
        ),
        ("Enterprise includes unlimited seats", "moved"),
    ];
    for (quote, want) in expected {
        assert_eq!(status[quote], want, "{quote}");
    }
    for line in &lines {
        match &line.current {
            None => {
                assert_eq!(line.status, "lost");
                // Lost keeps where its text was last known, and says why.
                let last = line
                    .last_known
                    .as_ref()
                    .expect("a lost line says where and why");
                assert_eq!(
                    (last.revision, last.start, last.end),
                    (1, line.start, line.end)
                );
                assert!(
                    last.reason.as_deref().unwrap_or("").contains("survive"),
                    "{last:?}"
                );
            }
            Some(cur) => {
                assert!(line.last_known.is_none(), "{}", line.id);
                assert_eq!(cur.revision, 2, "{}", line.id);
                assert!(
                    cur.chunk_id.as_deref().unwrap().contains("@r2#"),
                    "{}",
                    line.id
                );
                assert_ne!(cur.method, "cited");
            }
        }
    }
    assert_exact_text_where_intact_or_moved(&s);
    assert_eq!(summary.status["lost"], 1);
    // --fail-on turns a lost citation into exit 1.
    let out = s
        .cmd()
        .args(["sweep", "--fail-on", "lost"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    // The original citation rows are untouched: the SourceRef still points into revision 1.
    assert_eq!(
        count(&s.db(), "SELECT count(*) FROM citations WHERE revision = 1"),
        4
    );
    common::assert_counts_agree(&s.db());
}

#[test]
fn a_second_sweep_with_nothing_changed_writes_nothing() {
    let s = cited_example();
    swap_in_version_2(&s);
    s.json::<Summary>(&["sweep", "--json"]);
    let anchors = count(&s.db(), "SELECT count(*) FROM anchors");
    let before: Vec<String> = dump(&s.db())
        .into_iter()
        .filter(|r| !r.starts_with("sweeps:"))
        .collect();
    let again: Summary = s.json(&["sweep", "--json"]);
    assert_eq!(
        (
            again.unchanged_documents,
            again.citations_reanchored,
            again.anchors_written
        ),
        (2, 0, 0)
    );
    let after: Vec<String> = dump(&s.db())
        .into_iter()
        .filter(|r| !r.starts_with("sweeps:"))
        .collect();
    assert_eq!(after, before, "only the sweeps row is new");
    assert_eq!(count(&s.db(), "SELECT count(*) FROM anchors"), anchors);
}

#[test]
fn rechunking_alone_leaves_every_citation_intact() {
    let s = cited_example();
    let summary: Summary = s.json(&["sweep", "--chunker", "chars:60:10", "--json"]);
    assert_eq!(summary.status.get("intact"), Some(&4));
    assert_eq!(summary.anchors_written, 0);
    for line in export(&s) {
        let cur = line.current.unwrap();
        assert!(
            cur.chunk_id.is_some(),
            "{}: a chunk of the new chunking holds it",
            line.id
        );
    }
    common::assert_counts_agree(&s.db());
}

#[test]
fn health_list_and_show() {
    let s = cited_example();
    swap_in_version_2(&s);
    s.json::<Summary>(&["sweep", "--json"]);
    let health: serde_json::Value = s.json(&["health", "--json"]);
    assert_eq!(health["status"]["lost"], 1);
    assert_eq!(
        health["documents"][0]["doc_id"], "rate-card.md",
        "worst first"
    );
    assert_eq!(health["trend"].as_array().unwrap().len(), 1);
    let lost: Vec<serde_json::Value> = {
        let out = s
            .cmd()
            .args(["list", "--status", "lost", "--json"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    assert_eq!(lost.len(), 1);
    let id = lost[0]["citation_id"].as_str().unwrap();
    let shown: serde_json::Value = s.json(&["show", id, "--json"]);
    assert_eq!(shown["status"], "lost");
    assert!(shown["current"].is_null());
    assert_eq!(shown["history"].as_array().unwrap().len(), 1);
    assert_eq!(
        shown["citation"]["span_text"],
        "Enterprise pricing is available on request through your ac\u{ad}count manager",
        "a lost citation keeps its last known text"
    );
    let degraded = export(&s)
        .into_iter()
        .find(|l| l.status == "degraded")
        .unwrap();
    let shown: serde_json::Value = s.json(&["show", &degraded.id, "--json"]);
    assert!(
        shown["changes"].as_str().unwrap().contains("[- -]"),
        "{}",
        shown["changes"]
    );
    let human = s.cmd().args(["show", &degraded.id]).output().unwrap();
    let human = String::from_utf8(human.stdout).unwrap();
    assert!(
        human.contains("[[Growth \u{2014} included 600,000 calls/mo;"),
        "{human}"
    );
    let by_doc: serde_json::Value = s.json(&["health", "--by", "doc", "--json"]);
    assert_eq!(by_doc["documents"].as_array().unwrap().len(), 2);
    let out = s
        .cmd()
        .args(["list", "--status", "moved", "--doc", "plans.md", "--json"])
        .output()
        .unwrap();
    let moved: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0]["doc_id"], "plans.md");
    let missing = s.fails(&["show", "c-000000000000"]);
    assert!(missing.contains("c-000000000000"), "{missing}");
}

/// A corpus big enough that a sweep takes a while in a debug build: `docs` documents of
/// numbered sentences, each cited `per_doc` times.
fn generated(docs: usize, per_doc: usize) -> Scratch {
    let s = Scratch::new();
    for d in 0..docs {
        let text: String = (0..40)
            .map(|i| {
                format!(
                    "Document {d} sentence {i} says the limit is {} units per hour.\n\n",
                    d * 100 + i
                )
            })
            .collect();
        s.write(&format!("corpus/doc{d:03}.md"), text);
    }
    s.ingest(&["corpus", "--chunker", "paragraph:400"]);
    let mut args = vec!["context".to_string(), "--json".to_string()];
    for d in 0..docs {
        args.push("--doc".into());
        args.push(format!("doc{d:03}.md"));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let context: serde_json::Value = s.json(&args);
    let chunks = context["chunks"].as_array().unwrap();
    let mut claims = Vec::new();
    for d in 0..docs {
        for i in 0..per_doc {
            let sentence = format!(
                "Document {d} sentence {} says the limit is {} units per hour.",
                i * 3,
                d * 100 + i * 3
            );
            let chunk = chunks
                .iter()
                .find(|c| c["text"].as_str().unwrap().contains(&sentence))
                .unwrap();
            claims.push(serde_json::json!({"text": format!("claim {d}/{i}"), "evidence": [{"chunk_id": chunk["label"], "quote": sentence}]}));
        }
    }
    s.cite_claims("answer.json", context["context"].as_str().unwrap(), &claims);
    // Version 2: a line inserted at the top of every other document, a sentence deleted from
    // every third, a number changed in every fifth.
    for d in 0..docs {
        let path = s.path(&format!("corpus/doc{d:03}.md"));
        let mut text = std::fs::read_to_string(&path).unwrap();
        if d % 2 == 0 {
            text.insert_str(0, "Revised edition.\n\n");
        }
        if d % 3 == 0 {
            text = text.replace(
                &format!(
                    "Document {d} sentence 3 says the limit is {} units per hour.\n\n",
                    d * 100 + 3
                ),
                "",
            );
        }
        if d % 5 == 0 {
            text = text.replace(
                &format!("limit is {} units", d * 100 + 6),
                &format!("limit is {} units", d * 100 + 7),
            );
        }
        std::fs::write(&path, text).unwrap();
    }
    s
}

fn statuses(db: &std::path::Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT citation_id, status, revision, start_char, end_char FROM citation_status ORDER BY citation_id")
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            Ok(format!(
                "{} {} r{} [{}, {})",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?
            ))
        })
        .unwrap();
    rows.collect::<Result<_, _>>().unwrap()
}

#[test]
fn a_killed_sweep_run_again_ends_where_an_uninterrupted_one_does() {
    if common::sqlite_only("VACUUM INTO copies (twin: shard_cli)") {
        return;
    }
    const DOCS: usize = 200;
    let s = generated(DOCS, 8);
    let reference = s.path("reference.db");
    rusqlite::Connection::open(s.db())
        .unwrap()
        .execute("VACUUM INTO ?1", [reference.to_str().unwrap()])
        .unwrap();
    succeeded(
        assert_cmd::Command::cargo_bin("citestore")
            .unwrap()
            .current_dir(s.dir.path())
            .env("CITESTORE_NOW", common::NOW)
            .arg("--db")
            .arg(&reference)
            .args(["sweep", "--json"]),
    );
    let expected = statuses(&reference);
    assert!(
        expected.iter().any(|r| r.contains(" lost ")),
        "the corpus has deleted spans"
    );
    assert!(expected.iter().any(|r| r.contains(" moved ")));

    // Kill sweeps at growing delays, each on a fresh copy of the store, until one is caught with
    // some documents done and others not; then run the sweep again to the end.
    let original = s.path("original.db");
    rusqlite::Connection::open(s.db())
        .unwrap()
        .execute("VACUUM INTO ?1", [original.to_str().unwrap()])
        .unwrap();
    let mut partial = None;
    for delay_ms in [20u64, 40, 80, 120, 200, 300, 450, 700, 1000] {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", s.db().display()));
        }
        std::fs::copy(&original, s.db()).unwrap();
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("citestore"))
            .current_dir(s.dir.path())
            .env("CITESTORE_NOW", common::NOW)
            .arg("--db")
            .arg(s.db())
            .args(["sweep", "--json"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        child.kill().ok();
        child.wait().unwrap();
        let done = count(&s.db(), "SELECT count(*) FROM swept_documents");
        if done > 0 && done < DOCS as i64 {
            partial = Some(done);
            break;
        }
    }
    assert!(partial.is_some(), "no sweep was caught mid-run");
    // The interrupted sweep shows what it committed, and its counts add up.
    let health: serde_json::Value = s.json(&["health", "--json"]);
    let row = &health["trend"][0];
    assert!(row["finished_at"].is_null(), "{row}");
    let outcomes: i64 = [
        "re_extracted",
        "rechunked",
        "reanchored",
        "unchanged",
        "missing",
        "retired",
        "failed",
    ]
    .iter()
    .map(|k| row[k].as_i64().unwrap())
    .sum();
    assert_eq!(outcomes, row["documents"].as_i64().unwrap(), "{row}");
    assert!(
        row["documents"].as_i64().unwrap() >= partial.unwrap(),
        "{row}"
    );
    s.succeeds(&["sweep", "--json"]);
    assert_eq!(statuses(&s.db()), expected);
    assert_exact_text_where_intact_or_moved(&s);
    common::assert_counts_agree(&s.db());
}

#[test]
fn a_degraded_citation_stays_degraded_when_a_later_edit_leaves_it_alone() {
    let s = cited_example();
    swap_in_version_2(&s);
    s.json::<Summary>(&["sweep", "--json"]);
    let degraded = |s: &Scratch| {
        export(s)
            .into_iter()
            .find(|l| l.quote.starts_with("Growth"))
            .unwrap()
    };
    assert_eq!(degraded(&s).status, "degraded");
    // Version 3 only adds a line above everything: the edited Growth line is found verbatim
    // again, but it is still not the text that was cited.
    let path = s.path("docs/rate-card.md");
    let v2 = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("Draft 3.\n\n{v2}")).unwrap();
    s.json::<Summary>(&["sweep", "--json"]);
    let line = degraded(&s);
    assert_eq!(line.status, "degraded");
    assert_eq!(line.current.as_ref().unwrap().revision, 3);
    assert_exact_text_where_intact_or_moved(&s);
}

#[test]
fn repeated_blocks_are_told_apart_by_the_context_stored_at_citing() {
    let left: Vec<String> = (0..60).map(|i| format!("left{i:03}")).collect();
    let right: Vec<String> = (0..60).map(|i| format!("right{i:03}")).collect();
    let other: Vec<String> = (0..30).map(|i| format!("other{i:03}")).collect();
    let quote = "This sentence is the quote.";
    let block = format!("{} {quote} {}", left.join(" "), right.join(" "));
    let other = other.join(" ");
    let (s, context) = one_document(
        format!("Apple section.\n\n{block}\n\nBanana part.\n\n{block}\n\nCherry.\n\n{other}\n"),
        "paragraph:1500",
    );
    let label = context["chunks"][0]["label"].as_str().unwrap();
    cite_quote(&s, &context, label, quote);
    // The Apple section moves to the end; the Banana copy of the block now sits where it was.
    s.write(
        "docs/d.rst",
        format!("Banana part.\n\n{block}\n\nCherry.\n\n{other}\n\nApple section.\n\n{block}\n"),
    );
    s.json::<Summary>(&["sweep", "--chunker", "chars:1000:100", "--json"]);
    let line = export(&s).pop().unwrap();
    assert_eq!(line.status, "moved", "{line:?}");
    let cur = line.current.unwrap();
    let text = revision_text(&s, "d.rst", 2);
    let before: String = text[..cur.start].iter().collect();
    assert!(
        before.contains("Apple section."),
        "anchored in the Apple copy"
    );
    assert_exact_text_where_intact_or_moved(&s);
}

#[test]
fn copies_of_a_repeated_paragraph_keep_their_order_against_a_word_of_chance_context() {
    // The cited second copy of a paragraph lost both its neighbours; the text now after the
    // first copy begins like the old text after the cited one ("Function "). Both versions hold
    // two copies: the sweep does not report the first one as the cited one.
    let filler = |n: usize| -> String {
        (0..n)
            .map(|i| format!("filler{n}x{i:02}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let twin = format!(
        "Function calls are cached by the builder. The cache is cleared when the configuration \
         changes. {}",
        filler(20)
    );
    let after = format!(
        "Function signatures are read from the docstrings. {}",
        filler(21)
    );
    let inserted = format!("A paragraph the new release inserted. {}", filler(22));
    let (p2, p3, p4) = (filler(23), filler(24), filler(25));
    let top = "The opening paragraph of the guide.";
    let (s, context) = one_document(
        format!("{top}\n\n{twin}\n\n{p2}\n\n{p3}\n\n{twin}\n\n{after}\n\n{p4}\n"),
        "paragraph:400",
    );
    let quote = "The cache is cleared when the configuration changes.";
    let second_copy = context["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["text"].as_str().unwrap().contains(quote))
        .nth(1)
        .expect("two chunks hold the twin");
    cite_quote(&s, &context, second_copy["label"].as_str().unwrap(), quote);
    s.write(
        "docs/d.rst",
        format!("{top}\n\n{twin}\n\n{twin}\n\n{inserted}\n\n{after}\n\n{p4}\n"),
    );
    s.json::<Summary>(&["sweep", "--json"]);
    let line = export(&s).pop().unwrap();
    let cur = line.current.as_ref().unwrap();
    let text = revision_text(&s, "d.rst", 2);
    let first_copy = text
        .windows(quote.chars().count())
        .position(|w| w.iter().copied().eq(quote.chars()))
        .unwrap();
    assert!(
        cur.start != first_copy || line.status == "degraded",
        "the first copy reported as the cited one: {line:?}"
    );
    assert_exact_text_where_intact_or_moved(&s);
}

#[test]
fn schema_v3_fixture_upgrades_and_sweeps() {
    if common::sqlite_only("a SQLite fixture file") {
        return;
    }
    let s = Scratch::new();
    {
        let conn = rusqlite::Connection::open(s.db()).unwrap();
        conn.execute_batch(include_str!("../fixtures/store/schema-v3.sql"))
            .unwrap();
    }
    // Its sources are not here: their citations are lost (never left intact), and it says so.
    let summary: Summary = s.json(&["sweep", "--json"]);
    assert_eq!(summary.status.get("lost"), Some(&4));
    assert_eq!(summary.status.get("intact"), None);
    assert_eq!(
        summary.sources_missing,
        ["plans.md", "rate-card.md"],
        "and says so"
    );
    assert_eq!(
        count(&s.db(), "SELECT user_version FROM pragma_user_version"),
        citestore::store::MIGRATIONS.len() as i64
    );
    let health: serde_json::Value = s.json(&["health", "--json"]);
    assert_eq!(
        health["verification"]["supported"], 1,
        "the v3 verification survives"
    );
    common::assert_counts_agree(&s.db());
}

#[test]
fn rows_another_extraction_put_in_another_order_are_found_as_one_span() {
    // A table whose last two rows the new extraction gives first: the cited rows are one span
    // of the new text, `degraded`, and the reason says the blocks are in another order.
    let intro = "Table 2 lists the options of the box environment.\nname default meaning";
    let rows = [
        "width 4cm the width of the box, frame included",
        "height 2cm the height of the box above its baseline",
        "colour black the colour of the frame and the rules",
        "shadow none whether a drop shadow is drawn under it",
    ];
    let outro = "The options may be given in any order, separated by commas.";
    let (s, context) = one_document(
        format!("{intro}\n{}\n{outro}\n", rows.join("\n")),
        "paragraph:1200",
    );
    let label = context["chunks"][0]["label"].as_str().unwrap();
    cite_quote(&s, &context, label, &rows.join("\n"));
    let reordered = [rows[2], rows[3], rows[0], rows[1]].join("\n");
    s.write("docs/d.rst", format!("{intro}\n{reordered}\n{outro}\n"));
    s.json::<Summary>(&["sweep", "--json"]);
    let line = export(&s).pop().unwrap();
    assert_eq!(line.status, "degraded", "{line:?}");
    let text = current_text(&s, &line);
    for row in rows {
        assert!(text.contains(row), "{row:?} not in {text:?}");
    }
    assert!(
        !text.contains("meaning") && !text.contains("The options"),
        "{text:?}"
    );
    let changes = s.json::<serde_json::Value>(&["changes", "--json"]);
    assert!(
        changes.to_string().contains("blocks in another order"),
        "{changes}"
    );
}

/// A paragraph re-wrapped (the same words, other line breaks and indentation) does not page
/// anyone (issue 24): the citation in it is `intact` where its start did not move and `moved`
/// where it did, score 100, the reason saying the typography changed, and
/// `sweep --fail-on degraded` exits 0.
#[test]
fn a_re_wrapped_paragraph_is_intact_or_moved_and_says_typography_changed() {
    let para = "The nightly job re-extracts every source, re-chunks it and re-anchors every \
                citation that points into it, marking each one intact, moved, degraded or lost.";
    let (s, context) = one_document(format!("Intro.\n\n{para}\n\nEnd.\n"), "paragraph:400");
    let label = context["chunks"][0]["label"].as_str().unwrap();
    let first = "The nightly job re-extracts every source, re-chunks it";
    let second = "re-anchors every citation that points into it, marking each one";
    cite_quote(&s, &context, label, first);
    cite_quote(&s, &context, label, second);
    // Wrapped at 40 columns and indented: the first quote keeps its start, the second's moves.
    let wrapped = "The nightly job re-extracts every\n  source, re-chunks it and re-anchors\n  every \
                   citation that points into\n  it, marking each one intact, moved,\n  degraded or lost.";
    s.write("docs/d.rst", format!("Intro.\n\n{wrapped}\n\nEnd.\n"));
    s.succeeds(&["sweep", "--fail-on", "degraded"]);
    let lines = export(&s);
    let by_quote = |q: &str| lines.iter().find(|l| l.quote == q).unwrap();
    for (quote, status) in [(first, "intact"), (second, "moved")] {
        let line = by_quote(quote);
        assert_eq!(line.status, status, "{line:?}");
        let cur = line.current.as_ref().unwrap();
        assert_eq!(cur.score, 100.0, "{line:?}");
        assert!(
            cur.reason
                .as_deref()
                .unwrap_or("")
                .starts_with("typography changed"),
            "{line:?}"
        );
        let text: String = revision_text(&s, "d.rst", cur.revision)[cur.start..cur.end]
            .iter()
            .collect();
        assert_eq!(
            text.split_whitespace().collect::<Vec<_>>(),
            quote.split_whitespace().collect::<Vec<_>>(),
            "the span holds the quote's words"
        );
    }
}

/// Which whitespace changes are typography (issue 24): a re-wrap keeps the words as a reader
/// splits them, `intact`, reason `typography changed`, and `sweep --fail-on degraded` exits 0.
/// A space taken out or put in (`calls / mo` → `calls/mo`, `no thing` → `nothing`) changes
/// them: `degraded`, exit 1 (a citation is never called whole on a guess about which spaces
/// matter: `no thing` → `nothing` drops a negation), its reason counting no new character
/// where only spaces went; a changed number is named.
#[test]
fn a_re_wrap_is_typography_and_a_space_taken_out_or_put_in_is_an_edit() {
    let cited = "Growth includes 500,000 calls / mo ( billed monthly ) for every no thing seat";
    let cases = [
        // (the cited text's new form, status, exit code, what the reason says)
        (
            "Growth includes 500,000 calls / mo\n  ( billed monthly ) for every no thing seat",
            "intact",
            0,
            "typography changed",
        ),
        (
            "Growth includes 500,000 calls/mo (billed monthly) for every no thing seat",
            "degraded",
            1,
            "spacing, line breaks or punctuation differ",
        ),
        (
            "Growth includes 500,000 calls / mo ( billed monthly ) for every nothing seat",
            "degraded",
            1,
            "negation differs",
        ),
        (
            "Growth includes 400,000 calls / mo ( billed monthly ) for every no thing seat",
            "degraded",
            1,
            "numbers differ",
        ),
    ];
    for (now, status, code, says) in cases {
        let (s, context) = one_document(format!("Intro.\n\n{cited}.\n\nEnd.\n"), "paragraph:400");
        let label = context["chunks"][0]["label"].as_str().unwrap();
        cite_quote(&s, &context, label, cited);
        s.write("docs/d.rst", format!("Intro.\n\n{now}.\n\nEnd.\n"));
        let out = s
            .cmd()
            .args(["sweep", "--fail-on", "degraded"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{now}");
        let lines = export(&s);
        assert_eq!(lines[0].status, status, "{now}: {:?}", lines[0]);
        let reason = lines[0].current.as_ref().unwrap().reason.clone();
        let reason = reason.unwrap_or_default();
        assert!(reason.contains(says), "{now}: {reason}");
        assert_eq!(
            reason.contains("new character"),
            now.contains("400,000"),
            "only spaces went, but for the number: {reason}"
        );
    }
}

#[derive(Debug, Deserialize)]
struct ChangeSpan {
    status: String,
    revision: u32,
    start: usize,
    end: usize,
}

#[derive(Debug, Deserialize)]
struct ChangeLine {
    id: String,
    before: ChangeSpan,
    after: ChangeSpan,
}

#[derive(Debug, Deserialize)]
struct Changes {
    changes: Vec<ChangeLine>,
    revision_only: Vec<ChangeLine>,
}

#[test]
fn a_citation_carried_to_a_new_revision_unchanged_is_listed_apart_from_changes() {
    let (s, context) = one_document(
        "The cache is cleared when the configuration changes.\n\nWorkers restart after an upgrade.\n\nThe log rotates daily at midnight.\n".into(),
        "paragraph:60",
    );
    let label = |i: usize| context["chunks"][i]["label"].as_str().unwrap().to_string();
    cite_quote(&s, &context, &label(0), "The cache is cleared");
    cite_quote(&s, &context, &label(2), "The log rotates daily");
    // An edit between them: the first keeps its span in the new revision, the second moves.
    s.write(
        "docs/d.rst",
        "The cache is cleared when the configuration changes.\n\nWorkers restart after every upgrade.\n\nThe log rotates daily at midnight.\n",
    );
    let summary: serde_json::Value = s.json(&["sweep", "--json"]);
    assert_eq!(
        (
            summary["citations_changed"].as_u64(),
            summary["citations_carried"].as_u64()
        ),
        (Some(1), Some(1)),
        "{summary}"
    );
    let out: Changes = s.json(&["changes", "--json"]);
    assert_eq!(out.changes.len(), 1, "{out:?}");
    let moved = &out.changes[0];
    assert_eq!(
        (moved.before.status.as_str(), moved.after.status.as_str()),
        ("intact", "moved")
    );
    assert_eq!(out.revision_only.len(), 1, "{out:?}");
    let carried = &out.revision_only[0];
    assert_ne!(carried.id, moved.id);
    assert_eq!(carried.before.status, "intact");
    assert_eq!(carried.after.status, "intact");
    assert_eq!(
        (carried.before.start, carried.before.end),
        (carried.after.start, carried.after.end)
    );
    assert_eq!((carried.before.revision, carried.after.revision), (1, 2));
    // The text listing shows the move, and counts the carried one apart.
    let text = s.succeeds(&["changes"]);
    assert!(text.contains(&moved.id), "{text}");
    assert!(!text.contains(&carried.id), "{text}");
    assert!(
        text.contains("1 citation changed in sweep 1; 1 more carried to a new revision with the same status and span"),
        "{text}"
    );
    // So does the report.
    let page = s.path("r.html");
    s.succeeds(&["report", "--out", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("data-count=\"1\">1</b> citation changed status or span"),
        "report counts the move only"
    );
    assert!(
        html.contains("id=\"revision-only\" data-count=\"1\""),
        "report counts the carried one apart"
    );
    // And health's trend, per sweep.
    let health: serde_json::Value = s.json(&["health", "--json"]);
    let sweep = &health["trend"][0];
    assert_eq!(
        (
            sweep["citations"].as_i64(),
            sweep["citations_changed"].as_i64(),
            sweep["citations_carried"].as_i64()
        ),
        (Some(2), Some(1), Some(1)),
        "{health}"
    );
    let text = s.succeeds(&["health"]);
    let header = text.lines().find(|l| l.starts_with("SWEEP")).unwrap();
    let row = text.lines().find(|l| l.starts_with("1 ")).unwrap();
    let column = |name: &str| {
        let at = header.split_whitespace().position(|h| h == name).unwrap();
        row.split_whitespace().nth(at).unwrap().to_string()
    };
    assert_eq!(
        (column("CHANGED"), column("CARRIED")),
        ("1".into(), "1".into()),
        "{text}"
    );
    common::assert_counts_agree(&s.db());
}

/// A table another extraction reads by rows where the old one read it by columns (issue 24):
/// every word of the cited cells survives in another order, so the citation is kept,
/// `degraded`, over the rows that hold them, the reason saying the words are laid out anew;
/// the same table deleted leaves it `lost`.
#[test]
fn a_table_read_by_rows_instead_of_columns_keeps_its_citation_over_the_same_words() {
    let cells = include_str!("../fixtures/sweep/units.columns.txt").trim_end();
    let rows = include_str!("../fixtures/sweep/units.rows.txt").trim_end();
    let before = "Units of length are typed with the commands of the table below.";
    let after = "Other units follow in the next section of the manual.";
    let (s, context) = one_document(
        format!("{before}\n\nUnità\n\nCodice equivalente\n\n{cells}\n\n{after}\n"),
        "paragraph:1200",
    );
    let label = context["chunks"][0]["label"].as_str().unwrap();
    cite_quote(&s, &context, label, cells);
    s.write(
        "docs/d.rst",
        format!("{before}\n\nUnità Codice equivalente\n{rows}\n\n{after}\n"),
    );
    s.json::<Summary>(&["sweep", "--json"]);
    let line = export(&s).pop().unwrap();
    assert_eq!(line.status, "degraded", "{line:?}");
    let text = current_text(&s, &line);
    assert_eq!(text, rows, "{line:?}");
    let reason = current_reason(&line);
    assert!(reason.contains("the same words laid out anew"), "{reason}");
    // The table gone with its words: lost.
    s.write("docs/d.rst", format!("{before}\n\n{after}\n"));
    s.json::<Summary>(&["sweep", "--json"]);
    assert_eq!(export(&s).pop().unwrap().status, "lost");
}

/// Cells of a table another extraction joined row by row (issue 24, rung 6b): the cited
/// stretch keeps most of its characters, in an order neither the diff nor the letters and
/// words rungs follow; it is aligned by edit distance where the text around it went and kept
/// `degraded` there, the reason saying so. In the same re-extraction without those tables, it
/// is `lost`.
#[test]
fn table_cells_joined_row_by_row_keep_their_citation_where_their_neighbours_went() {
    let old = include_str!("../fixtures/sweep/itengtlc.pdftotext.txt");
    let new = include_str!("../fixtures/sweep/itengtlc.pypdf.txt");
    let cells = "kilometri\n\n\\um\n\\mm\n\\cm\n\\dm\n\\m\n\\km\n\nµm\nmm\ncm\ndm\nm\nkm\n\n\
                 Unità\n\nCodice equivalente\n\nVisualizzazione";
    // One chunk holds the whole page of tables.
    let s = cited_in_first_chunk(old, "chars:6000:0", cells);
    // The new extraction without the tables of lengths and currents: lost.
    let (from, to) = (
        new.find("Unità di misura spaziali").unwrap(),
        new.find("Misure di tensione").unwrap(),
    );
    let without = format!("{}{}", &new[..from], &new[to..]);
    assert_eq!(swept_to(&s, &without).status, "lost");
    // The whole new extraction: kept where its neighbours went.
    let line = swept_to(&s, new);
    assert_eq!(line.status, "degraded", "{line:?}");
    assert_eq!(
        current_text(&s, &line),
        "kilometri \\km km\nMisure di corrente\nUnità Codice equivalente Visualizzazione",
        "{line:?}"
    );
    let reason = current_reason(&line);
    assert!(reason.starts_with("laid out anew:"), "{reason}");
    assert!(reason.contains("characters align"), "{reason}");
}

/// Release edits through the binary: a sentence partly rewritten in place between its
/// surviving neighbours keeps its citation, `degraded` over the new wording with a reason
/// saying so; a span the new release cut out (Django 4.2 -> 5.0, `docs/topics/i18n/index.txt`)
/// stays lost though what stands between its neighbours shares 70% of its characters.
#[test]
fn a_sentence_partly_rewritten_in_place_keeps_its_citation_and_a_cut_one_is_lost() {
    let old = "Options\n=======\n\n.. confval:: html_permalinks_icon\n\n   \
               A text for permalinks for each heading and description environment.  HTML\n   \
               tags are allowed.  Default: a paragraph sign; ``¶``\n";
    let new = "Options\n=======\n\n.. confval:: html_permalinks_icon\n\n   \
               Text for link anchors for each heading and description environment.\n   \
               HTML entities and Unicode are allowed.  Default: a paragraph sign; ``¶``\n";
    let s = cited_in_first_chunk(
        old,
        "paragraph:1200",
        "A text for permalinks for each heading",
    );
    let line = swept_to(&s, new);
    assert_eq!(line.status, "degraded", "{line:?}");
    assert_eq!(
        current_text(&s, &line),
        "Text for link anchors for each heading",
        "{line:?}"
    );
    let reason = current_reason(&line);
    assert!(reason.starts_with("partly rewritten:"), "{reason}");

    let old = include_str!("../fixtures/sweep/django-i18n-index.4.2.txt");
    let new = include_str!("../fixtures/sweep/django-i18n-index.5.0.txt");
    let s = cited_in_first_chunk(
        old,
        "chars:6000:0",
        "setting:`USE_L10N` settings respectively",
    );
    assert_eq!(swept_to(&s, new).status, "lost");
}

/// A citation made from an old context after the document's last sweep (its chunks are those
/// of the revision before): the next sweep re-anchors it though the file, the revision and the
/// chunking are as that sweep left them (the batch read of what the last sweep covered sees
/// the citation newer than it).
#[test]
fn a_citation_made_after_the_last_sweep_is_re_anchored_by_the_next_quiet_one() {
    let (s, old_context) = one_document(
        "Intro.\n\nThe limit is 500 calls per month.\n".into(),
        "paragraph:1200",
    );
    s.write(
        "docs/d.rst",
        "Intro, rewritten at length.\n\nThe limit is 500 calls per month.\n",
    );
    let summary = s.json::<Summary>(&["sweep", "--json"]);
    assert_eq!(summary.re_extracted, 1, "{summary:?}");
    // Cited from the context of revision 1, after the sweep that made revision 2.
    let label = old_context["chunks"][0]["label"].as_str().unwrap();
    cite_quote(&s, &old_context, label, "The limit is 500 calls per month");
    let before = export(&s).pop().unwrap();
    assert_eq!(
        before.current.as_ref().map(|c| c.revision),
        Some(1),
        "{before:?}"
    );
    let summary = s.json::<Summary>(&["sweep", "--json"]);
    assert_eq!(summary.re_extracted, 0, "{summary:?}");
    let line = export(&s).pop().unwrap();
    assert_eq!(line.status, "moved", "{line:?}");
    let current = line.current.as_ref().expect("re-anchored");
    assert_eq!(current.revision, 2, "{line:?}");
    assert_eq!(current_text(&s, &line), "The limit is 500 calls per month");
    // Nothing new since: the sweep after finds nothing to do.
    let summary = s.json::<Summary>(&["sweep", "--json"]);
    assert_eq!(summary.unchanged_documents, 1, "{summary:?}");
}

/// A revision ingested before the sweep (its file as last extracted, so the sweep keeps its
/// text) whose citations the sweep re-anchors while it re-chunks it: the spans and their
/// chunks are the ones a sweep that ingests the revision itself gives, in the new chunking.
#[test]
fn citations_reanchored_onto_a_revision_the_same_sweep_rechunks_name_its_new_chunks() {
    // Each citation's quote, status and current span with its chunk.
    type Placed = (String, String, Option<(usize, usize, Option<String>)>);
    let placed = |s: &Scratch| -> Vec<Placed> {
        export(s)
            .into_iter()
            .map(|l| {
                let at = l.current.map(|c| (c.start, c.end, c.chunk_id));
                (l.quote, l.status, at)
            })
            .collect()
    };
    let swept_itself = cited_example();
    swap_in_version_2(&swept_itself);
    let summary: Summary = swept_itself.json(&["sweep", "--chunker", "chars:300:0", "--json"]);
    assert_eq!(summary.re_extracted, 2);
    let ingested_first = cited_example();
    swap_in_version_2(&ingested_first);
    ingested_first.ingest(&["docs", "--chunker", "paragraph:150"]);
    let summary: Summary = ingested_first.json(&["sweep", "--chunker", "chars:300:0", "--json"]);
    assert_eq!((summary.re_extracted, summary.citations_reanchored), (0, 4));
    let got = placed(&ingested_first);
    assert_eq!(got, placed(&swept_itself));
    // The anchors name the chunks they were placed in (export alone would derive them).
    let stored = |s: &Scratch| {
        common::rows(
            &s.db(),
            "SELECT c.citation_id, a.status, COALESCE(a.chunk_id, 'none') FROM anchors a \
             JOIN citations c ON c.id = a.citation_id ORDER BY c.citation_id",
        )
    };
    assert_eq!(stored(&ingested_first), stored(&swept_itself));
    let chunks: Vec<&String> = got
        .iter()
        .filter_map(|(_, _, at)| at.as_ref()?.2.as_ref())
        .collect();
    assert!(!chunks.is_empty());
    for chunk in chunks {
        let (start, end) = chunk.rsplit_once('#').unwrap().1.split_once('-').unwrap();
        let (start, end): (usize, usize) = (start.parse().unwrap(), end.parse().unwrap());
        assert!(chunk.contains("@r2#") && end - start <= 300, "{chunk}");
    }
}
