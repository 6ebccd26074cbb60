//! `citestore import-anthropic` through the real binary, on public material: Anthropic's
//! documented citations example, responses the API returned (recorded in a public test suite),
//! one citation of every type in the SDK's union, a repeated sentence chosen by the API's
//! offsets, a sentence on two pages chosen by the API's page, and the bundled example.
//! JSON output is parsed into the public types.

use crate::common;

use citestore::cli::json::{CiteOutput, ContextOutput, EvidenceOutput};
use common::{count, dump, repo, succeeded, Scratch};

fn fixture(rel: &str) -> String {
    repo("fixtures/anthropic").join(rel).display().to_string()
}

/// The documents of `fixtures/anthropic/docs`, ingested; `blocks.txt` one chunk per sentence.
fn store() -> Scratch {
    let s = Scratch::new();
    s.ingest(&[&fixture("docs"), "--chunker", "paragraph:2000"]);
    s.succeeds(&["chunk", "--chunker", "chars:20:0", "--doc", "blocks.txt"]);
    s
}

fn import(s: &Scratch, ctx: &str, sent: &str, response: &str) -> CiteOutput {
    s.json(&[
        "import-anthropic",
        "--context",
        ctx,
        "--sent",
        sent,
        response,
        "--json",
    ])
}

fn evidence(out: &CiteOutput) -> Vec<&EvidenceOutput> {
    out.claims.iter().flat_map(|c| c.evidence.iter()).collect()
}

/// (verdict, start, end, agreement) of every evidence string.
fn placed(out: &CiteOutput) -> Vec<(String, Option<usize>, Option<usize>, String)> {
    evidence(out)
        .iter()
        .map(|e| {
            (
                e.verdict.clone(),
                e.start,
                e.end,
                e.location
                    .as_ref()
                    .map_or("-".into(), |l| l.agreement.clone()),
            )
        })
        .collect()
}

fn row(verdict: &str, start: usize, end: usize) -> (String, Option<usize>, Option<usize>, String) {
    (verdict.into(), Some(start), Some(end), "agrees".into())
}

#[test]
fn documented_example_and_recorded_responses() {
    let s = store();
    let grass = s.context(&["grass-and-sky.txt"]);
    for response in [
        "docs-example.json",
        "recorded-text.json",
        "recorded-pdf.json",
    ] {
        let out = import(&s, &grass, "documents", &fixture(response));
        assert_eq!(
            placed(&out),
            [row("exact", 0, 19), row("exact", 20, 36)],
            "{response}"
        );
        assert_eq!(
            out.claims.len(),
            2,
            "{response}: connective text joins claims"
        );
        assert!(out.claims.iter().all(|c| !c.uncited), "{response}");
        assert!(
            out.claims[1].text.ends_with("the sky is blue."),
            "{response}: {}",
            out.claims[1].text
        );
    }
    let docs_example = import(&s, &grass, "documents", &fixture("docs-example.json"));
    let texts: Vec<&str> = docs_example
        .claims
        .iter()
        .map(|c| c.text.as_str())
        .collect();
    assert_eq!(
        texts,
        [
            "According to the document, the grass is green",
            "and the sky is blue."
        ]
    );
    let blocks = s.context(&["blocks.txt"]);
    let out = import(
        &s,
        &blocks,
        "documents",
        &fixture("recorded-custom-content.json"),
    );
    assert_eq!(
        placed(&out),
        [row("exact", 0, 19), row("exact", 20, 36)],
        "a block is a chunk"
    );
    let chunks: Vec<&str> = evidence(&out)
        .iter()
        .map(|e| e.chunk_id.as_deref().unwrap_or("-"))
        .collect();
    assert_eq!(chunks, ["blocks.txt@r1#0-20", "blocks.txt@r1#20-37"]);
    // The API's location is stored beside each evidence string, with the agreement.
    assert_eq!(
        count(
            &s.db(),
            "SELECT count(*) FROM evidence_locations WHERE agreement = 'agrees'"
        ),
        8
    );
    assert_eq!(
        count(
            &s.db(),
            // The JSON path in each backend's dialect.
            if citestore::store::is_postgres(&s.db()) {
                "SELECT count(*) FROM evidence_locations WHERE kind = 'content_block_location' \
                 AND (location::json->>'start_block_index')::int = 1"
            } else {
                "SELECT count(*) FROM evidence_locations WHERE kind = 'content_block_location' \
                 AND json_extract(location, '$.start_block_index') = 1"
            }
        ),
        1
    );
}

#[test]
fn every_location_type_of_the_sdk() {
    let s = store();
    let ctx = s.context(&["grass-and-sky.txt", "pages.txt", "blocks.txt"]);
    let out = import(&s, &ctx, "documents", &fixture("every-location-type.json"));
    assert_eq!(
        placed(&out),
        [
            row("exact", 20, 36), // char_location
            row("exact", 58, 75), // page_location, page 3
            row("exact", 20, 36), // content_block_location, block 1 of blocks.txt
            row("exact", 29, 57), // search_result_location, result 1 = chunk 1
        ]
    );
    let kinds: Vec<&str> = evidence(&out)
        .iter()
        .map(|e| e.location.as_ref().unwrap().kind.as_str())
        .collect();
    assert_eq!(
        kinds,
        [
            "char_location",
            "page_location",
            "content_block_location",
            "search_result_location"
        ]
    );
    // The web search result: reported with its URL, never located, never a citation.
    let web = out.claims.last().unwrap();
    assert!(web.uncited && web.evidence.is_empty());
    assert_eq!(
        web.external[0].url.as_deref(),
        Some("https://en.wikipedia.org/wiki/Claude_Shannon")
    );
    assert_eq!(out.summary.get("external"), Some(&1));
    assert_eq!(count(&s.db(), "SELECT count(*) FROM citations"), 4);
    assert_eq!(
        count(
            &s.db(),
            "SELECT count(*) FROM external_citations WHERE title = 'Claude Shannon - Wikipedia'"
        ),
        1
    );
}

#[test]
fn the_api_offsets_choose_the_repeated_sentence_and_the_page_its_page() {
    let s = store();
    let repeated = s.context(&["repeated.txt"]);
    let out = import(
        &s,
        &repeated,
        "documents",
        &fixture("repeated-by-offsets.json"),
    );
    assert_eq!(placed(&out), [row("exact", 37, 56)], "the second copy");
    let pages = s.context(&["pages.txt"]);
    let out = import(&s, &pages, "documents", &fixture("page-by-number.json"));
    assert_eq!(placed(&out), [row("exact", 100, 128)], "page 5, not page 1");

    // Without the API's location the same quotes cannot be placed: which copy is unknowable.
    for (ctx, doc, quote) in [
        (&repeated, "repeated.txt", "The grass is green."),
        (&pages, "pages.txt", "Water is essential for life."),
    ] {
        let answer = serde_json::json!({"claims": [{"text": "t", "evidence": [
            {"chunk_id": "", "quote": quote}]}]});
        let label = s.json::<ContextOutput>(&["context", "--doc", doc, "--json"]);
        let mut answer = answer;
        answer["claims"][0]["evidence"][0]["chunk_id"] = label.chunks[0].label.clone().into();
        let path = s.write("answer.json", answer.to_string());
        let out: CiteOutput = s.json(&[
            "cite",
            "--context",
            ctx,
            &path.display().to_string(),
            "--json",
        ]);
        assert_eq!(out.claims[0].evidence[0].verdict, "ambiguous", "{quote}");
    }
}

#[test]
fn offsets_that_disagree_are_reported_never_trusted() {
    let s = store();
    let repeated = s.context(&["repeated.txt"]);
    // The offsets name "The sky is blue." while the cited text is the repeated sentence.
    let response = serde_json::json!({"content": [{"type": "text", "text": "green", "citations": [
        {"type": "char_location", "cited_text": "The grass is green.", "document_index": 0,
         "document_title": null, "start_char_index": 20, "end_char_index": 36}]}]});
    let path = s.write("wrong.json", response.to_string());
    let out = import(&s, &repeated, "documents", &path.display().to_string());
    let ev = &out.claims[0].evidence[0];
    assert_eq!(ev.verdict, "ambiguous");
    let location = ev.location.as_ref().unwrap();
    assert_eq!(location.agreement, "differs");
    assert!(
        ev.reason
            .as_deref()
            .unwrap()
            .contains("char_location [20, 36) of document 0 does not hold the quote"),
        "{:?}",
        ev.reason
    );
}

#[test]
fn bundled_example_chunks_sent_as_documents() {
    let s = Scratch::new();
    s.ingest(&[
        &repo("fixtures/cite/docs").display().to_string(),
        "--chunker",
        "paragraph:150",
    ]);
    let ctx = s.context(&["rate-card.md", "plans.md"]);
    assert_eq!(ctx, "ctx-504cd163e2ad");
    let response = repo("fixtures/cite/anthropic-response.json")
        .display()
        .to_string();
    let out = import(&s, &ctx, "chunks", &response);
    assert_eq!(
        placed(&out),
        [
            row("exact", 105, 172),
            row("exact", 166, 221),
            row("exact", 261, 334)
        ]
    );
    let docs: Vec<&str> = evidence(&out)
        .iter()
        .map(|e| e.chunk_id.as_deref().unwrap_or("-"))
        .collect();
    assert_eq!(
        docs,
        [
            "rate-card.md@r1#105-201",
            "plans.md@r1#166-295",
            "rate-card.md@r1#201-348"
        ],
        "the support sentence is in both documents; the API named plans.md"
    );
    assert_eq!(out.claims.len(), 4);
    let texts: Vec<&str> = out.claims.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "According to the rate card, Growth overage is $0.12 per 1,000 calls",
            "and the plan comparison says every plan has e-mail support in business hours.",
            "Enterprise pricing is on request;",
            "metered billing of this kind is common."
        ],
        "connective text joins the claims around it, split after a sentence end"
    );
    assert!(out.claims[3].uncited && out.claims[3].external.len() == 1);
    // `show` gives the API's location beside the citation.
    let id = out.claims[1].evidence[0].citation.clone().unwrap();
    let shown: citestore::cli::json::ShowOutput = s.json(&["show", &id, "--json"]);
    let api = shown.api_location.unwrap();
    assert_eq!(
        (api.kind.as_str(), api.agreement.as_str()),
        ("char_location", "agrees")
    );
    assert_eq!(api.api["document_index"], 6);
    let human = s.cmd().args(["show", &id]).output().unwrap();
    let human = String::from_utf8(human.stdout).unwrap();
    assert!(human.contains("api      char_location {"), "{human}");
    // The human table lists the web citation as external, and stdin works.
    let table = succeeded(
        s.cmd()
            .args(["import-anthropic", "--context", &ctx, "-"])
            .write_stdin(std::fs::read(repo("fixtures/cite/anthropic-response.json")).unwrap()),
    );
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(text.contains("external"), "{text}");
    assert!(
        text.contains("already cited"),
        "the same response again stores nothing"
    );
}

#[test]
fn bad_citations_are_one_line_naming_the_block_and_store_nothing() {
    let s = store();
    let ctx = s.context(&["grass-and-sky.txt"]);
    let before = dump(&s.db());
    let good = r#"{"type": "char_location", "cited_text": "The sky is blue.", "document_index": 0, "start_char_index": 20, "end_char_index": 36}"#;
    // (bad citation, what the message names)
    let cases = [
        (
            r#"{"type": "quote_location", "cited_text": "x", "document_index": 0}"#,
            "content[1].citations[1].type: unknown citation type \"quote_location\"",
        ),
        (
            r#"{"type": "char_location", "cited_text": "x", "document_index": 0, "start_char_index": 9, "end_char_index": 3}"#,
            "content[1].citations[1].end_char_index: end_char_index 3 is not after start_char_index 9",
        ),
        (
            r#"{"type": "page_location", "cited_text": "x", "document_index": 0, "start_page_number": -3, "end_page_number": 1}"#,
            "content[1].citations[1].start_page_number: -3 is negative",
        ),
        (
            r#"{"type": "page_location", "cited_text": "x", "document_index": 0, "start_page_number": 0, "end_page_number": 1}"#,
            "content[1].citations[1].start_page_number: 0 is not a page",
        ),
        (
            r#"{"type": "search_result_location", "cited_text": "x", "source": "s", "start_block_index": 0, "end_block_index": 1}"#,
            "content[1].citations[1].search_result_index: missing",
        ),
        // An empty or blank cited text is refused as `cite` refuses an empty quote, never
        // turned into an uncited claim.
        (
            r#"{"type": "char_location", "cited_text": "", "document_index": 0, "start_char_index": 20, "end_char_index": 36}"#,
            "content[1].citations[1].cited_text: the cited text is empty or has no visible characters",
        ),
        (
            r#"{"type": "page_location", "cited_text": " \n\u200b", "document_index": 0, "start_page_number": 1, "end_page_number": 2}"#,
            "content[1].citations[1].cited_text: the cited text is empty or has no visible characters",
        ),
    ];
    for (bad, names) in cases {
        let response = format!(
            r#"{{"content": [{{"type": "text", "text": "Intro "}},
                {{"type": "text", "text": "claim", "citations": [{good}, {bad}]}}]}}"#
        );
        let path = s.write("bad.json", response);
        let line = s.fails(&[
            "import-anthropic",
            "--context",
            &ctx,
            "--sent",
            "documents",
            &path.display().to_string(),
        ]);
        assert!(line.contains(names), "{line}");
        assert!(line.contains("nothing was stored"), "{line}");
        assert_eq!(dump(&s.db()), before, "{bad}: nothing stored");
    }
}

/// A `content_block_location` spanning two blocks (two chunks) is cited whole, across them.
#[test]
fn a_block_range_across_two_chunks_is_cited_whole() {
    let s = store();
    let blocks = s.context(&["blocks.txt"]);
    let response = serde_json::json!({"content": [{"type": "text", "text": "both", "citations": [
        {"type": "content_block_location", "cited_text": "The grass is green.\nThe sky is blue.",
         "document_index": 0, "document_title": null, "start_block_index": 0, "end_block_index": 2}]}]});
    let path = s.write("two-blocks.json", response.to_string());
    let out = import(&s, &blocks, "documents", &path.display().to_string());
    assert_eq!(placed(&out), [row("exact", 0, 36)]);
    let reason = out.claims[0].evidence[0].reason.as_deref().unwrap();
    assert!(
        reason.contains("runs across chunks blocks.txt@r1#0-20, blocks.txt@r1#20-37"),
        "{reason}"
    );
}

/// A PDF of one line per page (ASCII text, no escapes), pages in order.
fn pdf_of_pages(pages: &[&str]) -> Vec<u8> {
    let n = pages.len();
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        format!(
            "<< /Type /Pages /Kids [{}] /Count {n} >>",
            (0..n)
                .map(|i| format!("{} 0 R", 4 + 2 * i))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    for (i, line) in pages.iter().enumerate() {
        let stream = format!("BT /F1 12 Tf 72 720 Td ({line}) Tj ET");
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {} 0 R \
             /Resources << /Font << /F1 3 0 R >> >> >>",
            5 + 2 * i
        ));
        objects.push(format!(
            "<< /Length {} >>\nstream\n{stream}\nendstream",
            stream.len()
        ));
    }
    common::pdf_from_objects(&objects)
}

/// The documented `page_location` example on a real PDF through `pdftotext`: the sentence is
/// on pages 1 and 5, and the API's page 5 chooses the copy on page 5.
#[test]
fn a_pdf_page_citation_is_placed_on_its_page() {
    if !common::have_tool("pdftotext", "poppler-utils") {
        return;
    }
    let s = Scratch::new();
    let pdf = pdf_of_pages(&[
        "Water is essential for life.",
        "Plants need light and water.",
        "Soil holds water.",
        "Roots take up minerals.",
        "Water is essential for life.",
    ]);
    let path = s.write("pages.pdf", pdf);
    s.ingest(&[
        &path.display().to_string(),
        "--doc-id",
        "pages.pdf",
        "--chunker",
        "paragraph:2000",
    ]);
    let ctx = s.context(&["pages.pdf"]);
    let text = common::row_texts(&s.db(), "SELECT text FROM revisions").remove(0);
    assert_eq!(
        text.matches('\u{c}').count(),
        5,
        "pdftotext ends each page with a form feed"
    );
    let page5 = text.chars().count() - text[text.rfind("Water").unwrap()..].chars().count();
    let out = import(&s, &ctx, "documents", &fixture("page-by-number.json"));
    let ev = &out.claims[0].evidence[0];
    assert_eq!(ev.verdict, "exact", "{:?}", ev.reason);
    assert_eq!(ev.start, Some(page5), "the copy on page 5");
    assert_eq!(ev.location.as_ref().unwrap().agreement, "agrees");
    // A page past the end is a disagreement, reported; the quote is then ambiguous.
    let response = serde_json::json!({"content": [{"type": "text", "text": "water", "citations": [
        {"type": "page_location", "cited_text": "Water is essential for life.", "document_index": 0,
         "document_title": null, "start_page_number": 9, "end_page_number": 10}]}]});
    let bad = s.write("page9.json", response.to_string());
    let out = import(&s, &ctx, "documents", &bad.display().to_string());
    let ev = &out.claims[0].evidence[0];
    assert_eq!(ev.verdict, "ambiguous");
    assert!(
        ev.reason
            .as_deref()
            .unwrap()
            .contains("document 0 has 5 pages in our text"),
        "{:?}",
        ev.reason
    );
}

/// A UTF-8 byte order mark before the response (written by some Windows tools) is not part of
/// the JSON: the response is read as without it, from a file and from stdin.
#[test]
fn a_byte_order_mark_before_the_response_is_accepted() {
    let s = store();
    let ctx = s.context(&["grass-and-sky.txt"]);
    let response = r#"{"content": [{"type": "text", "text": "claim", "citations": [{"type": "char_location", "cited_text": "The sky is blue.", "document_index": 0, "start_char_index": 20, "end_char_index": 36}]}]}"#;
    let path = s.write("bom.json", format!("\u{feff}{response}"));
    let out = import(&s, &ctx, "documents", &path.display().to_string());
    assert_eq!(placed(&out), [row("exact", 20, 36)]);
    let piped = succeeded(
        s.cmd()
            .args(["import-anthropic", "--context", &ctx, "--sent", "documents"])
            .args(["-", "--json"])
            .write_stdin(format!("\u{feff}{response}")),
    );
    let again: CiteOutput = serde_json::from_slice(&piped.stdout).unwrap();
    assert!(again.already_recorded, "the same response, BOM or not");
}

/// `response` as the Anthropic SDK's `model_dump()` gives it (anthropic 2.17): every optional
/// field present, `null` when unset (`citations: null` on a plain text block, the message's
/// `container`, `stop_sequence` and `usage` fields, a location's `document_title` and
/// `file_id`), keys sorted, on one line.
fn as_sdk_dumps(response: &serde_json::Value) -> String {
    let mut dumped = response.clone();
    let message = dumped.as_object_mut().unwrap();
    for field in ["id", "model", "stop_reason"] {
        message.entry(field).or_insert_with(|| "x".into());
    }
    for field in ["container", "diagnostics", "stop_details", "stop_sequence"] {
        message.entry(field).or_insert(serde_json::Value::Null);
    }
    message.entry("usage").or_insert(serde_json::json!({
        "cache_creation": null, "cache_creation_input_tokens": null,
        "cache_read_input_tokens": null, "inference_geo": null, "input_tokens": 10,
        "output_tokens": 20, "output_tokens_details": null, "server_tool_use": null,
        "service_tier": null, "speed": null}));
    for block in message["content"].as_array_mut().unwrap() {
        let block = block.as_object_mut().unwrap();
        let citations = block.entry("citations").or_insert(serde_json::Value::Null);
        for citation in citations.as_array_mut().into_iter().flatten() {
            let citation = citation.as_object_mut().unwrap();
            if citation.contains_key("document_index") {
                citation
                    .entry("document_title")
                    .or_insert(serde_json::Value::Null);
                citation.entry("file_id").or_insert(serde_json::Value::Null);
            }
        }
    }
    dumped.to_string()
}

/// `value` without its `null` fields, as a hand-written dict or `model_dump(exclude_none=True)`
/// gives it.
fn without_nulls(value: &serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.clone(), without_nulls(v)))
            .collect(),
        serde_json::Value::Array(items) => items.iter().map(without_nulls).collect(),
        other => other.clone(),
    }
}

/// The citation id of each evidence string.
fn citation_ids(out: &CiteOutput) -> Vec<Option<String>> {
    evidence(out).iter().map(|e| e.citation.clone()).collect()
}

/// The same response as pretty JSON without nulls, as the fixture has it, and as the SDK's
/// dump is one import: the second and third store nothing and give the same citation ids
/// (issue "Python in full", item 4: the Python layer hands the CLI's reader the SDK's dump).
#[test]
fn the_same_response_as_a_dict_or_the_sdks_dump_is_one_import() {
    for (fixture_name, docs, sent) in [
        (
            "every-location-type.json",
            &["grass-and-sky.txt", "pages.txt", "blocks.txt"][..],
            "documents",
        ),
        ("docs-example.json", &["grass-and-sky.txt"][..], "documents"),
    ] {
        let s = store();
        let ctx = s.context(docs);
        let text = std::fs::read_to_string(fixture(fixture_name)).unwrap();
        let response: serde_json::Value = serde_json::from_str(&text).unwrap();
        let forms = [
            (
                "pretty, no nulls",
                serde_json::to_string_pretty(&without_nulls(&response)).unwrap(),
            ),
            ("as the fixture has it", text.clone()),
            ("the SDK's dump", as_sdk_dumps(&response)),
        ];
        let mut first: Option<(CiteOutput, Vec<String>)> = None;
        for (what, body) in forms {
            let path = s.write("response.json", body);
            let out = import(&s, &ctx, sent, &path.display().to_string());
            let stored = dump(&s.db());
            match &first {
                None => {
                    assert!(!out.already_recorded, "{fixture_name}: {what}");
                    assert!(citation_ids(&out).iter().any(Option::is_some));
                    first = Some((out, stored));
                }
                Some((once, before)) => {
                    assert!(out.already_recorded, "{fixture_name}: {what}");
                    assert_eq!(&stored, before, "{fixture_name}: {what} stores nothing");
                    assert_eq!(citation_ids(&out), citation_ids(once), "{what}");
                }
            }
        }
    }
}
