//! Every command's `--json` through the real binary, parsed into the library's public output
//! types (`citestore::cli::json` and the library types they print), and the shared vocabulary
//! checked: a citation is `id` everywhere, and its `current{…}` is the same in `export`, `list`
//! and `show`.
//!
//! Each output is parsed twice, as a `serde_json::Value` and as its type, and the type written
//! back must equal the value: a field the type does not know, or one it drops, fails the test
//! (what `deny_unknown_fields` would say, also through `#[serde(flatten)]`).

use crate::common;

use citestore::cli::json::{
    ChangesOutput, ChunkOutput, ChunksOutput, CiteOutput, ContextOutput, DocsOutput, ExportLine,
    HealthOutput, InitOutput, ListLine, MigrateOutput, ReportOutput, RetireOutput, ShowOutput,
    VerifyOutput,
};
use citestore::ingest::IngestReport;
use citestore::sweep::run::SweepSummary;
use citestore::text::Located;
use common::{cited_example, repo, swap_in_version_2, Scratch};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One `locate --json` line: the located span and its text.
#[derive(Debug, Serialize, Deserialize)]
struct LocateLine {
    #[serde(flatten)]
    located: Located,
    text: String,
}

/// Parses one JSON document into `T`, and checks `T` knows every field it printed.
fn exact<T: DeserializeOwned + Serialize>(what: &str, text: &str) -> T {
    let value: serde_json::Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}: {text}"));
    let typed: T = serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("{what}: not its type: {e}: {text}"));
    assert_eq!(
        serde_json::to_value(&typed).unwrap(),
        value,
        "{what}: the type does not round-trip what the binary printed"
    );
    typed
}

/// Runs a command printing one JSON object and parses it exactly.
fn object<T: DeserializeOwned + Serialize>(s: &Scratch, args: &[&str]) -> T {
    let text = s.succeeds(args);
    assert_eq!(text.lines().count(), 1, "{args:?}: one line: {text}");
    exact(&args.join(" "), &text)
}

/// Runs a command printing JSON Lines and parses each line exactly.
fn lines<T: DeserializeOwned + Serialize>(s: &Scratch, args: &[&str]) -> Vec<T> {
    s.succeeds(args)
        .lines()
        .map(|l| exact(&args.join(" "), l))
        .collect()
}

#[test]
fn every_json_shape_parses_into_its_type_and_the_shared_fields_agree() {
    let s = cited_example();
    let empty = Scratch::new();
    let fresh: InitOutput = object(&empty, &["init", "--json"]);
    assert_eq!(fresh.db, empty.db().to_string_lossy(), "{fresh:?}");

    let docs: DocsOutput = object(&s, &["docs", "--json"]);
    assert_eq!(docs.documents.len(), 2);
    let chunks: ChunksOutput = object(&s, &["chunks", "rate-card.md", "--json"]);
    assert_eq!(
        chunks.chunking.as_deref(),
        docs.documents[1].chunking.as_deref()
    );
    assert_eq!(chunks.chunks.len(), docs.documents[1].chunks as usize);
    assert_eq!(chunks.revision as i64, docs.documents[1].latest_seq);
    let context: ContextOutput = object(
        &s,
        &[
            "context",
            "--doc",
            "rate-card.md",
            "--doc",
            "plans.md",
            "--json",
        ],
    );
    let answer = repo("fixtures/cite/answer.json").display().to_string();
    let cite: CiteOutput = object(
        &s,
        &["cite", "--context", &context.context, &answer, "--json"],
    );
    assert!(!cite.claims.is_empty());
    let response = repo("fixtures/cite/anthropic-response.json")
        .display()
        .to_string();
    let imported: CiteOutput = object(
        &s,
        &[
            "import-anthropic",
            "--context",
            &context.context,
            &response,
            "--json",
        ],
    );
    assert!(imported.claims.iter().any(|c| !c.external.is_empty()));
    assert!(imported
        .claims
        .iter()
        .flat_map(|c| &c.evidence)
        .all(|e| e.location.is_some()));

    let located: Vec<LocateLine> = lines(
        &s,
        &[
            "locate",
            "--json",
            "--chunk",
            "docs/plans.md",
            "--quote",
            "Growth",
        ],
    );
    assert_eq!(located.len(), 1, "{located:?}");
    assert_eq!(located[0].text, "Growth");

    let judge = format!(
        "command:python3 {} table {}",
        repo("tests/judges/fixed_table.py").display(),
        repo("fixtures/verify/judge-table.json").display()
    );
    let verified: VerifyOutput = object(
        &s,
        &[
            "verify",
            "--context",
            &context.context,
            "--judge",
            &judge,
            "--json",
        ],
    );
    assert!(!verified.claims.is_empty());

    swap_in_version_2(&s);
    let ingested: IngestReport = object(&s, &["ingest", "docs", "--json"]);
    assert_eq!(ingested.documents.len(), 2, "{ingested:?}");
    let rechunked: ChunkOutput = object(&s, &["chunk", "--chunker", "paragraph:200", "--json"]);
    assert!(!rechunked.documents.is_empty(), "{rechunked:?}");
    let swept: SweepSummary = object(&s, &["sweep", "--json"]);
    assert!(swept.citations_reanchored > 0, "{swept:?}");

    // A citation is `id` with `current{…}`, the same in export, list and show.
    let exported: Vec<ExportLine> = lines(&s, &["export", "--json"]);
    let annotations: Vec<citestore::report::w3c::Annotation> =
        lines(&s, &["export", "--format", "w3c", "--utf16"]);
    assert_eq!(annotations.len(), exported.len());
    let listed: Vec<ListLine> = lines(&s, &["list", "--json"]);
    assert_eq!(
        listed.len(),
        exported.len(),
        "list without --status lists all"
    );
    let listed: BTreeMap<_, _> = listed.into_iter().map(|l| (l.id.clone(), l)).collect();
    for line in &exported {
        let l = &listed[&line.id];
        assert_eq!(
            l.state.citation_id, line.id,
            "the old field stays beside `id`"
        );
        assert_eq!(l.current, line.current, "{}", line.id);
        assert_eq!(l.state.status, line.status);
        let shown: ShowOutput = object(&s, &["show", &line.id, "--json"]);
        assert_eq!(shown.id, line.id);
        assert_eq!(shown.citation.citation_id, line.id);
        assert_eq!(shown.current, line.current, "{}", line.id);
        assert_eq!(shown.status, line.status);
    }
    let statuses: Vec<&str> = exported.iter().map(|l| l.status.as_str()).collect();
    assert!(statuses.iter().any(|s| *s != "intact"), "{statuses:?}");

    let changes: ChangesOutput = object(&s, &["changes", "--json"]);
    assert!(!changes.changes.is_empty());
    for c in &changes.changes {
        assert_eq!(c.id, c.change.citation_id);
        let line = exported
            .iter()
            .find(|l| l.id == c.id)
            .expect("an exported id");
        assert_eq!(c.change.after.status, line.status);
    }

    let health: HealthOutput = object(&s, &["health", "--json"]);
    assert_eq!(health.documents.len(), 2);
    let report: ReportOutput = object(&s, &["report", "--json"]);
    assert!(s.path("").join(&report.out).exists(), "{report:?}");
    let schema: serde_json::Value = object(&s, &["schema", "--json"]);
    let pretty: serde_json::Value = serde_json::from_str(&s.succeeds(&["schema"])).unwrap();
    assert_eq!(
        schema, pretty,
        "schema --json is the same schema, on one line"
    );
    for format in ["anthropic", "openai", "openai-responses", "ai-sdk"] {
        let one: serde_json::Value = object(&s, &["schema", "--format", format, "--json"]);
        let pretty: serde_json::Value =
            serde_json::from_str(&s.succeeds(&["schema", "--format", format])).unwrap();
        assert_eq!(one, pretty, "{format}");
    }
    let retired: RetireOutput = object(&s, &["retire", "plans.md", "--json"]);
    assert_eq!(retired.retired.len(), 1);
    let copy = s.path("copy.db");
    let copy = copy.to_str().unwrap();
    let db = s.db();
    let migrated: MigrateOutput = object(
        &s,
        &[
            "migrate",
            "--from",
            db.to_str().unwrap(),
            "--to",
            copy,
            "--json",
        ],
    );
    assert_eq!(migrated.to, copy);
    assert_eq!(migrated.tables["citations"], exported.len() as i64);
    assert_eq!(migrated.rows, migrated.tables.values().sum::<i64>());
}

#[test]
fn list_filters_by_one_or_several_statuses() {
    let s = cited_example();
    swap_in_version_2(&s);
    s.ingest(&["docs"]);
    let _: SweepSummary = object(&s, &["sweep", "--json"]);
    let all: Vec<ListLine> = lines(&s, &["list", "--json"]);
    let mut by_status: BTreeMap<String, usize> = BTreeMap::new();
    for l in &all {
        *by_status.entry(l.state.status.to_string()).or_default() += 1;
    }
    assert!(by_status.len() >= 2, "{by_status:?}");
    let (a, b) = {
        let mut keys = by_status.keys();
        (keys.next().unwrap().clone(), keys.next().unwrap().clone())
    };
    let one: Vec<ListLine> = lines(&s, &["list", "--status", &a, "--json"]);
    assert_eq!(one.len(), by_status[&a]);
    assert!(one.iter().all(|l| l.state.status.as_str() == a));
    let both: Vec<ListLine> = lines(&s, &["list", "--status", &format!("{a},{b}"), "--json"]);
    assert_eq!(both.len(), by_status[&a] + by_status[&b]);
    let table = s.succeeds(&["list"]);
    assert!(
        table
            .trim_end()
            .ends_with(&format!("{} citations", all.len())),
        "{table}"
    );
}
