//! `citestore export --format w3c` through the real binary: every annotation's `exact` is the
//! document's text at its `TextPositionSelector`, prefix + exact + suffix occurs exactly once in
//! the revision, lost citations carry their last known selectors and say so, and `--utf16`
//! positions are what JavaScript's string indices are.

use crate::common;

use citestore::cli::json::ExportLine;
use citestore::report::w3c::{Annotation, Selector};
use common::{cited_example, count, swap_in_version_2, Scratch};

fn export(s: &Scratch, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["export"];
    args.extend_from_slice(extra);
    s.succeeds(&args).lines().map(String::from).collect()
}

fn annotations(s: &Scratch, extra: &[&str]) -> Vec<Annotation> {
    let mut args = vec!["--format", "w3c"];
    args.extend_from_slice(extra);
    export(s, &args)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn revision_text(s: &Scratch, doc_id: &str, seq: u32) -> String {
    common::row_texts(
        &s.db(),
        &format!(
            "SELECT r.text FROM revisions r JOIN documents d ON d.id = r.document_id \
             WHERE d.doc_id = '{}' AND r.seq = {seq}",
            doc_id.replace('\'', "''")
        ),
    )
    .remove(0)
}

/// Checks the selector invariants of every annotation; returns (status, revision) of each.
fn check(s: &Scratch, all: &[Annotation]) -> Vec<(String, u32)> {
    all.iter()
        .map(|a| {
            let text = revision_text(s, &a.target.source, a.target.state.revision);
            let chars: Vec<char> = text.chars().collect();
            let [Selector::TextQuoteSelector {
                exact,
                prefix,
                suffix,
            }, Selector::TextPositionSelector { start, end, .. }] = &a.target.selector[..]
            else {
                panic!("{}: a quote and a position selector", a.id)
            };
            let at: String = chars[*start..*end].iter().collect();
            assert_eq!(&at, exact, "{}: exact is the text at the position", a.id);
            let whole = format!("{prefix}{exact}{suffix}");
            assert_eq!(
                text.matches(&whole).count(),
                1,
                "{}: prefix + exact + suffix occurs once",
                a.id
            );
            assert!(chars[..*start]
                .iter()
                .collect::<String>()
                .ends_with(prefix.as_str()));
            assert!(chars[*end..]
                .iter()
                .collect::<String>()
                .starts_with(suffix.as_str()));
            assert_eq!(a.kind, "Annotation");
            assert_eq!(a.body.kind, "TextualBody");
            assert_eq!(a.target.state.kind, "TimeState");
            assert_eq!(a.lost.is_some(), a.status.as_str() == "lost", "{}", a.id);
            (a.status.to_string(), a.target.state.revision)
        })
        .collect()
}

#[test]
fn annotations_of_the_bundled_example_before_and_after_a_sweep() {
    let s = cited_example();
    let before = annotations(&s, &[]);
    assert_eq!(before.len(), 4);
    assert!(check(&s, &before)
        .iter()
        .all(|(status, rev)| status == "intact" && *rev == 1));
    assert_eq!(
        before[0].body.value,
        "Starter overage is billed at $0.20 per 1,000 calls."
    );

    swap_in_version_2(&s);
    s.succeeds(&["sweep"]);
    // The sweep stored each placed anchor's own context.
    assert_eq!(
        count(
            &s.db(),
            "SELECT count(*) FROM anchors WHERE status != 'lost' AND (prefix IS NULL OR suffix IS NULL)"
        ),
        0
    );
    let after = annotations(&s, &[]);
    let plain: Vec<ExportLine> = export(&s, &[])
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let states = check(&s, &after);
    for ((status, revision), line) in states.iter().zip(&plain) {
        assert_eq!(status, line.status.as_str(), "{}", line.id);
        match &line.current {
            Some(current) => assert_eq!(*revision, current.revision),
            None => assert_eq!(*revision, 1, "lost: the last known place, in revision 1"),
        }
    }
    let statuses: Vec<&str> = states.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(statuses, ["moved", "degraded", "lost", "moved"]);
    // A degraded citation's exact is the document's text now, not the model's quote.
    let Selector::TextQuoteSelector { exact, .. } = &after[1].target.selector[0] else {
        panic!()
    };
    assert_eq!(
        exact,
        "Growth \u{2014} included 600,000 calls/mo; overage $0.12 per 1,000 calls"
    );
    assert!(after[2].lost.as_deref().unwrap().contains("revision 1"));
}

#[test]
fn utf16_positions_count_surrogate_pairs() {
    let s = Scratch::new();
    s.write(
        "docs/emoji.md",
        "Launch 🚀🚀 notes.\n\nThe limit is 500 calls per month.\n",
    );
    s.ingest(&["docs", "--chunker", "paragraph:2000"]);
    let context: citestore::cli::json::ContextOutput =
        s.json(&["context", "--doc", "emoji.md", "--json"]);
    let answer = serde_json::json!({"claims": [{"text": "The limit is 500.", "evidence": [
        {"chunk_id": context.chunks[0].label, "quote": "The limit is 500 calls per month."}]}]});
    let path = s.write("answer.json", answer.to_string());
    s.succeeds(&[
        "cite",
        "--context",
        &context.context,
        path.to_str().unwrap(),
    ]);
    let all = annotations(&s, &["--utf16"]);
    check(&s, &all);
    let Selector::TextPositionSelector {
        start,
        end,
        utf16_start,
        utf16_end,
    } = &all[0].target.selector[1]
    else {
        panic!()
    };
    let text = revision_text(&s, "emoji.md", 1);
    let js_index = text.encode_utf16().count()
        - text[text.find("The limit").unwrap()..]
            .encode_utf16()
            .count();
    assert_eq!(*utf16_start, Some(js_index));
    assert_eq!(
        (*start, *utf16_start),
        (18, Some(20)),
        "two rockets, two surrogate pairs"
    );
    assert_eq!(utf16_end.unwrap() - utf16_start.unwrap(), end - start);
    let plain = annotations(&s, &[]);
    let Selector::TextPositionSelector { utf16_start, .. } = &plain[0].target.selector[1] else {
        panic!()
    };
    assert!(utf16_start.is_none(), "UTF-16 positions only with --utf16");
    let line = s.fails(&["export", "--utf16"]);
    assert!(
        line.contains("--utf16 applies to --format w3c only"),
        "{line}"
    );
}

/// A store swept before anchors kept their context (schema version 5) upgrades to 0007, keeps
/// its data, and exports W3C annotations whose context is computed from the revision.
#[test]
fn schema_v5_fixture_upgrades_and_exports_annotations() {
    if common::sqlite_only("a SQLite fixture file") {
        return;
    }
    let s = Scratch::new();
    {
        let conn = rusqlite::Connection::open(s.db()).unwrap();
        conn.execute_batch(include_str!("../fixtures/store/schema-v5.sql"))
            .unwrap();
    }
    let line = s.fails(&["export", "--format", "w3c"]);
    assert!(line.contains("older than this citestore"), "{line}");
    s.succeeds(&["init"]);
    assert_eq!(
        count(&s.db(), "PRAGMA user_version"),
        citestore::store::MIGRATIONS.len() as i64
    );
    assert_eq!(
        count(&s.db(), "SELECT count(*) FROM anchors WHERE prefix IS NULL"),
        4,
        "old anchors kept as they were"
    );
    let all = annotations(&s, &[]);
    let statuses: Vec<String> = check(&s, &all).into_iter().map(|(s, _)| s).collect();
    assert_eq!(statuses, ["moved", "degraded", "lost", "moved"]);
}
