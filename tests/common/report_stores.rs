//! The stores the report tests look at, built through the real binary: the bundled demo
//! (two documents, cited, version 2 swept in) and a store of hostile documents whose ids,
//! text, quotes and claims try to run script in the report page.
#![allow(dead_code)]

use crate::common::Scratch;
use serde::Deserialize;
use serde_json::json;
use std::path::PathBuf;

pub(crate) fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// One line of `citestore export`.
#[derive(Debug, Deserialize)]
pub(crate) struct Exported {
    pub id: String,
    pub doc_id: String,
    pub quote: String,
    pub status: String,
}

pub(crate) fn export(s: &Scratch) -> Vec<Exported> {
    s.succeeds(&["export"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The demo of fixtures/demo/run.sh: cite version 1, swap in version 2, sweep (sweep 1), and
/// sweep again with nothing changed (sweep 2).
pub(crate) fn demo() -> Scratch {
    let s = crate::common::cited_example();
    crate::common::swap_in_version_2(&s);
    s.succeeds(&["sweep", "--chunker", "paragraph:200"]);
    s.succeeds(&["sweep"]);
    s
}

/// A document id that tries to close an attribute and open an element.
pub(crate) const HOSTILE_DOC: &str = "\"><svg onload=window.__pwned='docid'>.md";
/// A document id with a right-to-left override (it would display as `invoicedm.pdf`).
pub(crate) const RTL_DOC: &str = "invoice\u{202E}fdp.md";

/// Paragraphs of the hostile document, each quoted by one citation.
pub(crate) const PAYLOADS: [&str; 5] = [
    "First: <script>window.__pwned='script'</script> runs nothing here.",
    "Second: <img src=x onerror=\"window.__pwned='img'\"> shows no image at all.",
    "Third: \"><svg onload=\"window.__pwned='svg'\"> draws nothing at all here.",
    "Fourth: [a link](javascript:window.__pwned='js') and <a href=\"javascript:window.__pwned='a'\">another</a> go nowhere.",
    "Fifth: </script><script>window.__pwned='close'</script><!-- stays plain text.",
];
/// The paragraph of the RTL document that is quoted.
pub(crate) const RTL_PARAGRAPH: &str = "Totals: the amount is \u{202E} 0001 \u{202C} dollars, and <b onmouseover=\"window.__pwned='b'\">bold</b> is text; a line\u{2028}separator.";

fn hostile_v1() -> String {
    format!(
        "# Notes <script>window.__pwned='title'</script>\n\n{}\n",
        PAYLOADS.join("\n\n")
    )
}

/// Version 2: a paragraph above everything (all move), the second payload re-spaced (degraded),
/// the fourth deleted (lost).
fn hostile_v2() -> String {
    let mut paragraphs: Vec<String> = PAYLOADS.iter().map(|p| p.to_string()).collect();
    paragraphs[1] = paragraphs[1].replace("no image", "no  image");
    paragraphs.remove(3);
    format!(
        "# Notes <script>window.__pwned='title'</script>\n\nAdded <script>window.__pwned='v2'</script> above.\n\n{}\n",
        paragraphs.join("\n\n")
    )
}

#[derive(Deserialize)]
struct ContextOut {
    context: String,
    chunks: Vec<ContextChunk>,
}

#[derive(Deserialize)]
struct ContextChunk {
    label: String,
    text: String,
}

/// The hostile store: cited, then version 2 swept in (sweep 1).
pub(crate) fn hostile() -> Scratch {
    let s = Scratch::new();
    s.write(&format!("docs/{HOSTILE_DOC}"), hostile_v1());
    s.write(
        &format!("docs/{RTL_DOC}"),
        format!("{RTL_PARAGRAPH}\n\nMore text follows here.\n"),
    );
    s.succeeds(&["ingest", "docs", "--chunker", "paragraph:4000"]);
    let context: ContextOut = serde_json::from_str(&s.succeeds(&[
        "context",
        "--doc",
        HOSTILE_DOC,
        "--doc",
        RTL_DOC,
        "--json",
    ]))
    .unwrap();
    let label = |quote: &str| {
        context
            .chunks
            .iter()
            .find(|c| c.text.contains(quote))
            .unwrap_or_else(|| panic!("no chunk holds {quote:?}"))
            .label
            .clone()
    };
    let mut claims: Vec<serde_json::Value> = PAYLOADS
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({"text": format!("Claim {i} <script>window.__pwned='claim{i}'</script>"),
                   "evidence": [{"chunk_id": label(p), "quote": p}]})
        })
        .collect();
    claims.push(
        json!({"text": "Totals <img src=x onerror=\"window.__pwned='claim'\">",
                       "evidence": [{"chunk_id": label(RTL_PARAGRAPH), "quote": RTL_PARAGRAPH}]}),
    );
    let answer = s.write("answer.json", json!({ "claims": claims }).to_string());
    let cited: serde_json::Value = serde_json::from_str(&s.succeeds(&[
        "cite",
        "--context",
        &context.context,
        answer.to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    assert_eq!(
        cited["summary"]["exact"], 6,
        "every hostile quote is cited exactly: {cited}"
    );
    s.write(&format!("docs/{HOSTILE_DOC}"), hostile_v2());
    s.write(
        &format!("docs/{RTL_DOC}"),
        format!("A new first line.\n\n{RTL_PARAGRAPH}\n\nMore text follows here.\n"),
    );
    s.succeeds(&["sweep"]);
    s
}
