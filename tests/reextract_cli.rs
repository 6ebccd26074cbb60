//! Re-extraction through the real binary: a document re-extracted by another parser (words
//! hyphenated across lines, ligatures, spacing accents, a running head and a page number inside
//! a cited passage, lines reflowed) keeps its citations: `sweep` places each one, degraded, over
//! the cited text with the insertions inside it, says how many characters were inserted, and
//! still loses a passage the new extraction does not have.

use crate::common;

use citestore::cli::json::ExportLine;
use common::Scratch;
use serde::Deserialize;

/// What pdftotext gave at ingest.
const OLD: &str = "Chapter 1. Fonts\n\n\
The package defines the characters that have to be defined before the document starts; \
they are loaded once and kept in memory for the rest of the run.\n\n\
Options are given in the preamble and cannot be changed later in the document.\n\n\
A separate section explains the encoding of the glyph tables used by the fonts.\n";

/// The same document from another extractor: `char-\nacters`, `deﬁned`, reflowed lines, a
/// running head and page number inside the first passage; the last paragraph is not there.
const NEW: &str = "Chapter 1. Fonts\n\n\
The package deﬁnes the char-\nacters that have to be deﬁned before\n\nMANUAL OF THE PACKAGE\n12\n\n\
the document starts; they are loaded once and kept in\nmemory for the rest of the run.\n\n\
Options are given in the preamble and cannot be changed\nlater in the document.\n";

#[derive(Debug, Deserialize)]
struct Chunk {
    label: String,
    text: String,
}

#[derive(Debug, Deserialize)]
struct Ctx {
    context: String,
    chunks: Vec<Chunk>,
}

fn export(s: &Scratch) -> Vec<ExportLine> {
    let out = s.cmd().arg("export").output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_reextracted_document_keeps_its_citations_and_loses_what_is_gone() {
    let s = Scratch::new();
    s.write("docs/manual.txt", OLD);
    s.ingest(&["docs", "--chunker", "paragraph:400"]);
    let ctx: Ctx = s.json(&["context", "--doc", "manual.txt", "--json"]);
    let label = |needle: &str| {
        ctx.chunks
            .iter()
            .find(|c| c.text.contains(needle))
            .unwrap()
            .label
            .clone()
    };
    let quotes = [
        "the characters that have to be defined before the document starts; they are loaded once and kept in memory",
        "Options are given in the preamble and cannot be changed later in the document.",
        "A separate section explains the encoding of the glyph tables used by the fonts.",
    ];
    let answer = serde_json::json!({"claims": quotes.iter().map(|q| serde_json::json!({
        "text": "claim", "evidence": [{"chunk_id": label(&q[..20]), "quote": q}]})).collect::<Vec<_>>()});
    let path = s.write("answer.json", answer.to_string());
    let out = s
        .cmd()
        .args(["cite", "--context", &ctx.context])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    s.write("docs/manual.txt", NEW);
    let out = s.cmd().args(["sweep", "--json"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = export(&s);
    let find = |q: &str| lines.iter().find(|l| l.quote == q).unwrap();
    let new_chars: Vec<char> = NEW.chars().collect();
    let text_at = |l: &ExportLine| -> String {
        let c = l.current.as_ref().unwrap();
        new_chars[c.start..c.end].iter().collect()
    };

    // Hyphenation, ligatures, a running head and a page number inside the span.
    let first = find(quotes[0]);
    assert_eq!(first.status.as_str(), "degraded", "{first:?}");
    let at = text_at(first);
    assert!(at.starts_with("the char-\nacters"), "{at:?}");
    assert!(at.ends_with("kept in\nmemory"), "{at:?}");
    assert!(at.contains("MANUAL OF THE PACKAGE\n12"), "{at:?}");
    let reason = first.current.as_ref().unwrap().reason.clone().unwrap();
    assert!(
        reason.contains("more"),
        "the reason counts the insertions: {reason}"
    );

    // Reflowed only: the same words, so found and not degraded (moved, as the reflow shifted
    // it), the whole sentence, the reason saying only the typography changed.
    let second = find(quotes[1]);
    assert_eq!(second.status.as_str(), "moved", "{second:?}");
    let reason = second.current.as_ref().unwrap().reason.clone().unwrap();
    assert!(reason.starts_with("typography changed"), "{reason}");
    assert_eq!(
        text_at(second),
        "Options are given in the preamble and cannot be changed\nlater in the document."
    );

    // Not in the new extraction: lost, never placed elsewhere.
    let third = find(quotes[2]);
    assert_eq!(third.status.as_str(), "lost", "{third:?}");
}
