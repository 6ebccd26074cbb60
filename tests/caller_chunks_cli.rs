//! Chunks the caller made (`ingest FILE --chunks CHUNKS.jsonl`), through the real binary:
//! stored as given with the caller's ids, found by `context --chunk ID`, cited against, kept by
//! sweeps while the text is unchanged, replaced by the configured chunker (or paragraph:1500)
//! when the file changes, and by the caller's new chunks when the caller ingests them; bad spans
//! are one line, exit 2, nothing stored.

use crate::common;

use citestore::cli::json::{CiteOutput, ContextOutput, ExportLine};
use citestore::sweep::run::SweepSummary;
use common::{count, repo, Scratch};

/// Char spans of the blank-line-separated paragraphs of `text` (trailing newlines left out).
fn paragraphs(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut spans = Vec::new();
    let mut start = None;
    let mut i = 0;
    while i < chars.len() {
        let blank = chars[i] == '\n' && (i + 1 >= chars.len() || chars[i + 1] == '\n');
        match (start, blank) {
            (None, false) if chars[i] != '\n' => start = Some(i),
            (Some(s), true) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(s) = start {
        spans.push((s, chars.len()));
    }
    spans
}

/// JSON Lines of the paragraphs of `text`, ids `{prefix}-{n}`.
fn chunks_jsonl(text: &str, prefix: &str) -> String {
    paragraphs(text)
        .iter()
        .enumerate()
        .map(|(n, (start, end))| {
            format!("{{\"start\": {start}, \"end\": {end}, \"id\": \"{prefix}-{n}\"}}\n")
        })
        .collect()
}

fn rate_card() -> String {
    std::fs::read_to_string(repo("fixtures/cite/docs/rate-card.md")).unwrap()
}

/// rate-card.md ingested with its paragraphs as caller chunks `vec-0`, `vec-1`, …
fn caller_store() -> Scratch {
    let s = Scratch::new();
    let text = rate_card();
    s.write("rate-card.md", &text);
    s.write("chunks.jsonl", chunks_jsonl(&text, "vec"));
    let report = s.ingest(&["rate-card.md", "--chunks", "chunks.jsonl"]);
    let chunking = report.documents[0].chunking.as_ref().unwrap();
    assert_eq!(
        (chunking.spec.as_str(), chunking.chunks, chunking.created),
        ("caller", 8, true)
    );
    s
}

fn growth_answer(s: &Scratch, label: &str) -> std::path::PathBuf {
    s.write(
        "answer.json",
        format!(
            r#"{{"claims": [{{"text": "Growth overage is $0.12 per 1,000 calls.",
                "evidence": [{{"chunk_id": "{label}", "quote": "overage $0.12 per 1,000 calls"}}]}}]}}"#
        ),
    )
}

#[test]
fn caller_ids_make_a_context_and_its_citations() {
    let s = caller_store();
    let ctx: ContextOutput = s.json(&["context", "--chunk", "vec-3", "--chunk", "vec-2", "--json"]);
    let ids: Vec<(&str, Option<&str>)> = ctx
        .chunks
        .iter()
        .map(|c| (c.chunk_id.as_str(), c.caller_id.as_deref()))
        .collect();
    let text = rate_card();
    let spans = paragraphs(&text);
    let id = |n: usize| format!("rate-card.md@r1#{}-{}", spans[n].0, spans[n].1);
    assert_eq!(
        ids,
        vec![
            (id(3).as_str(), Some("vec-3")),
            (id(2).as_str(), Some("vec-2"))
        ]
    );
    assert!(ctx.chunks[0].text.starts_with("Growth — included 500,000"));
    // The full chunk id finds the same chunk, and the same context.
    let again: ContextOutput =
        s.json(&["context", "--chunk", &id(3), "--chunk", "vec-2", "--json"]);
    assert_eq!(again.context, ctx.context);

    growth_answer(&s, &ctx.chunks[0].label);
    let cited: CiteOutput = s.json(&["cite", "--context", &ctx.context, "answer.json", "--json"]);
    let ev = &cited.claims[0].evidence[0];
    assert_eq!(ev.verdict, "exact");
    assert_eq!(ev.chunk_id.as_deref(), Some(id(3).as_str()));
    assert_eq!(ev.caller_id.as_deref(), Some("vec-3"));
    assert_eq!(ev.text.as_deref(), Some("overage $0.12 per 1,000 calls"));
    let start: usize = text
        .find("overage $0.12")
        .map(|b| text[..b].chars().count())
        .unwrap();
    assert_eq!(ev.start, Some(start));

    // `docs` shows the caller's chunking.
    let docs = s.docs();
    assert_eq!(docs[0].chunking.as_deref(), Some("caller"));
    assert_eq!(docs[0].chunks, 8);
    // The human listing names the caller's id beside the chunk id.
    let out = s
        .cmd()
        .args(["context", "--chunk", "vec-3"])
        .output()
        .unwrap();
    let listing = String::from_utf8(out.stdout).unwrap();
    assert!(
        listing.contains(&format!("] {} (your id vec-3)\n", id(3))),
        "{listing}"
    );
    // The same chunks again store nothing new.
    let report = s.ingest(&["rate-card.md", "--chunks", "chunks.jsonl"]);
    assert!(!report.documents[0].chunking.as_ref().unwrap().created);
    assert_eq!(count(&s.db(), "SELECT COUNT(*) FROM chunkings"), 1);
}

#[test]
fn overlapping_and_gapped_chunks_in_any_order_are_stored_in_text_order() {
    let s = Scratch::new();
    s.write("a.txt", "alpha beta gamma delta");
    s.write(
        "c.jsonl",
        "{\"start\": 11, \"end\": 22, \"id\": \"z\"}\n{\"start\": 0, \"end\": 10, \"id\": \"a\", \"text\": \"alpha beta\"}\n{\"start\": 6, \"end\": 16}\n",
    );
    s.ingest(&["a.txt", "--chunks", "c.jsonl"]);
    let ctx: ContextOutput = s.json(&["context", "--doc", "a.txt", "--json"]);
    let got: Vec<(usize, usize, Option<&str>, &str)> = ctx
        .chunks
        .iter()
        .map(|c| (c.start, c.end, c.caller_id.as_deref(), c.text.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (0, 10, Some("a"), "alpha beta"),
            (6, 16, None, "beta gamma"),
            (11, 22, Some("z"), "gamma delta"),
        ]
    );
}

#[test]
fn bad_chunks_are_one_line_exit_2_and_nothing_is_stored() {
    let cases: &[(&str, &str)] = &[
        ("{\"start\": 5, \"end\": 5}\n", "c.jsonl line 1: start 5 is not before end 5"),
        (
            "{\"start\": 0, \"end\": 4}\n{\"start\": 9, \"end\": 3}\n",
            "c.jsonl line 2: start 9 is not before end 3",
        ),
        (
            "{\"start\": 0, \"end\": 23}\n",
            "c.jsonl line 1: [0, 23) runs past the end of a.txt (22 chars)",
        ),
        (
            "{\"start\": 0, \"end\": 4, \"id\": \"v\"}\n{\"start\": 4, \"end\": 9, \"id\": \"v\"}\n",
            "c.jsonl line 2: chunk id \"v\" is given twice (first at c.jsonl line 1)",
        ),
        (
            "{\"start\": 0, \"end\": 5, \"text\": \"alphx\"}\n",
            "c.jsonl line 1: its text differs from a.txt's text at [0, 5)",
        ),
        ("{\"start\": -1, \"end\": 5}\n", "c.jsonl line 1: invalid value"),
        ("not json\n", "c.jsonl line 1: expected ident"),
        ("\n", "c.jsonl: no chunks"),
    ];
    for (jsonl, want) in cases {
        let s = Scratch::new();
        s.write("a.txt", "alpha beta gamma delta");
        s.write("c.jsonl", jsonl);
        let line = s.fails(&["ingest", "a.txt", "--chunks", "c.jsonl"]);
        assert!(line.starts_with(&format!("citestore: {want}")), "{line}");
        assert!(!s.db().exists(), "{want}: a failed ingest left a database");
    }
    // Into an existing store: nothing changes.
    let s = Scratch::new();
    s.write("a.txt", "alpha beta gamma delta");
    s.ingest(&["a.txt", "--chunker", "chars:10:0"]);
    let before = common::dump(&s.db());
    s.write("a.txt", "alpha beta gamma delta epsilon");
    s.write("c.jsonl", "{\"start\": 0, \"end\": 99}\n");
    s.fails(&["ingest", "a.txt", "--chunks", "c.jsonl"]);
    assert_eq!(common::dump(&s.db()), before);
    // --chunks takes one file, and no chunker.
    s.write("dir/b.txt", "beta");
    let line = s.fails(&["ingest", "dir", "--chunks", "c.jsonl"]);
    assert!(line.contains("--chunks needs exactly one file"), "{line}");
    let line = s.fails(&[
        "ingest",
        "a.txt",
        "--chunks",
        "c.jsonl",
        "--chunker",
        "chars:10:0",
    ]);
    assert!(line.contains("cannot be used with"), "{line}");
}

#[test]
fn a_caller_id_in_two_documents_is_ambiguous_and_says_which() {
    let s = Scratch::new();
    s.write("a.txt", "alpha beta");
    s.write("b.txt", "gamma delta");
    s.write("c.jsonl", "{\"start\": 0, \"end\": 5, \"id\": \"v1\"}\n");
    s.ingest(&["a.txt", "--chunks", "c.jsonl"]);
    s.ingest(&["b.txt", "--chunks", "c.jsonl"]);
    let line = s.fails(&["context", "--chunk", "v1"]);
    assert_eq!(
        line,
        "citestore: chunk id \"v1\" names chunks of several documents (a.txt, b.txt); give the full chunk id, e.g. b.txt@r1#0-5"
    );
    let line = s.fails(&["context", "--chunk", "v9"]);
    assert!(line.contains("chunk \"v9\" is not in the store"), "{line}");
}

fn sweep(s: &Scratch, args: &[&str]) -> SweepSummary {
    let mut all = vec!["sweep", "--json"];
    all.extend_from_slice(args);
    s.json(&all)
}

fn export(s: &Scratch) -> Vec<ExportLine> {
    s.succeeds(&["export"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The caller store with one citation of the Growth paragraph.
fn cited_caller_store() -> Scratch {
    let s = caller_store();
    let ctx: ContextOutput = s.json(&["context", "--chunk", "vec-3", "--json"]);
    growth_answer(&s, &ctx.chunks[0].label);
    let _: CiteOutput = s.json(&["cite", "--context", &ctx.context, "answer.json", "--json"]);
    s
}

fn current_spec(s: &Scratch) -> String {
    s.docs()[0].chunking.clone().unwrap()
}

#[test]
fn a_sweep_keeps_the_callers_chunks_while_the_text_is_unchanged() {
    let s = cited_caller_store();
    let summary = sweep(&s, &["--chunker", "paragraph:150"]);
    assert_eq!(summary.rechunked, 0);
    assert_eq!(current_spec(&s), "caller");
    assert_eq!(export(&s)[0].status.as_str(), "intact");
}

/// The current chunking's spec of every document, by doc id.
fn specs(s: &Scratch) -> std::collections::BTreeMap<String, String> {
    s.docs()
        .into_iter()
        .map(|d| (d.doc_id, d.chunking.unwrap_or_default()))
        .collect()
}

/// A sweep that only changes the chunker chunks the texts it keeps a batch of documents at a
/// time (more than one batch here), whether it looks at the files or not: each document is
/// counted re-chunked once, the caller's chunks stay, a missing document keeps the chunking it
/// had, and the citation stays intact.
#[test]
fn a_sweep_that_only_changes_the_chunker_rechunks_every_kept_text_once() {
    let s = cited_caller_store();
    for i in 0..70 {
        s.write(
            &format!("plain/p{i:02}.md"),
            format!("Paragraph {i}, the first.\n\nParagraph {i}, the second and a longer one.\n"),
        );
    }
    s.write(
        "gone.md",
        "A file about to be deleted.\n\nIts second paragraph.\n",
    );
    s.ingest(&["plain", "gone.md", "--chunker", "paragraph:150"]);
    std::fs::remove_file(s.path("gone.md")).unwrap();
    let first = sweep(&s, &[]);
    assert_eq!(first.sources_missing, ["gone.md"]);
    assert_eq!(first.rechunked, 0);
    let spec_of =
        |specs: &std::collections::BTreeMap<String, String>, doc: &str| specs[doc].clone();
    for (args, spec) in [
        (
            &["--no-extract", "--chunker", "chars:40:0"][..],
            "chars:40:0",
        ),
        (&["--chunker", "chars:50:0"][..], "chars:50:0"),
    ] {
        let summary = sweep(&s, args);
        assert_eq!(summary.rechunked, 70, "{args:?}");
        assert_eq!(summary.errors.len(), 0, "{args:?}");
        let specs = specs(&s);
        assert!(
            (0..70).all(|i| spec_of(&specs, &format!("p{i:02}.md")) == spec),
            "{args:?}: {specs:?}"
        );
        assert_eq!(spec_of(&specs, "rate-card.md"), "caller", "{args:?}");
        assert_eq!(spec_of(&specs, "gone.md"), "paragraph:150", "{args:?}");
        assert_eq!(export(&s)[0].status.as_str(), "intact", "{args:?}");
        // Chunked already: the same sweep again re-chunks nothing.
        assert_eq!(sweep(&s, args).rechunked, 0, "{args:?}");
    }
}

#[test]
fn an_edited_file_is_rechunked_by_the_configured_chunker_else_paragraph_1500() {
    for (args, spec) in [
        (&["--chunker", "paragraph:150"][..], "paragraph:150"),
        (&[][..], "paragraph:1500"),
    ] {
        let s = cited_caller_store();
        s.write(
            "rate-card.md",
            std::fs::read(repo("fixtures/demo/v2/rate-card.md")).unwrap(),
        );
        let summary = sweep(&s, args);
        assert_eq!(summary.re_extracted, 1);
        assert_eq!(current_spec(&s), spec);
        let line = &export(&s)[0];
        assert_eq!(line.status.as_str(), "moved", "{spec}");
        let current = line.current.as_ref().unwrap();
        assert_eq!(current.revision, 2);
        assert!(current
            .chunk_id
            .as_deref()
            .unwrap()
            .starts_with("rate-card.md@r2#"));
    }
}

#[test]
fn the_callers_new_chunks_for_an_edited_file_are_kept_by_the_sweep() {
    let s = cited_caller_store();
    let v2 = std::fs::read_to_string(repo("fixtures/demo/v2/rate-card.md")).unwrap();
    s.write("rate-card.md", &v2);
    s.write("chunks-v2.jsonl", chunks_jsonl(&v2, "v2"));
    s.ingest(&["rate-card.md", "--chunks", "chunks-v2.jsonl"]);
    let summary = sweep(&s, &["--chunker", "paragraph:150"]);
    assert_eq!(summary.re_extracted + summary.rechunked, 0);
    assert_eq!(summary.reanchored_documents, 1);
    assert_eq!(current_spec(&s), "caller");
    let line = &export(&s)[0];
    assert_eq!(line.status.as_str(), "moved");
    let growth = paragraphs(&v2)
        .into_iter()
        .find(|&(a, _)| v2.chars().skip(a).collect::<String>().starts_with("Growth"))
        .unwrap();
    assert_eq!(
        line.current.as_ref().unwrap().chunk_id.as_deref(),
        Some(format!("rate-card.md@r2#{}-{}", growth.0, growth.1).as_str())
    );
    // Where it is now names the holding chunk by the caller's id too, in export and list.
    assert_eq!(
        line.current.as_ref().unwrap().caller_id.as_deref(),
        Some("v2-4")
    );
    let listed: Vec<serde_json::Value> = s
        .succeeds(&["list", "--json"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(listed[0]["current"]["caller_id"], "v2-4");
    // And the new caller ids name the new chunks.
    let ctx: ContextOutput = s.json(&["context", "--chunk", "v2-4", "--json"]);
    assert!(
        ctx.chunks[0].text.starts_with("Growth"),
        "{}",
        ctx.chunks[0].text
    );
}
