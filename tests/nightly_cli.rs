//! The nightly job's plumbing through the real binary (issue 9): a deleted source makes its
//! citations lost and fails `--fail-on lost`; a retired document never fails; a document knows
//! where it lives and how it is extracted (a new path, an `--extract-cmd`), and is re-extracted
//! only when the file or the extractor changed (no extractor process on a no-change sweep of 100
//! PDFs); a document that cannot be swept exits 2 and names itself while the others commit; a
//! cron job in `/` with `--config` behaves like a run in the project folder; `changes` and
//! `health` say what a sweep did, with counts that add up.

use crate::common;

use common::{count, row_texts, succeeded, Scratch};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

#[derive(Debug, Deserialize)]
struct Summary {
    documents: usize,
    re_extracted: usize,
    unchanged_documents: usize,
    sources_missing: Vec<String>,
    retired: usize,
    extractions: usize,
    status: BTreeMap<String, i64>,
}

#[derive(Debug, Deserialize)]
struct StatusAt {
    status: String,
    revision: u32,
}

#[derive(Debug, Deserialize)]
struct Change {
    citation_id: String,
    doc_id: String,
    before: StatusAt,
    after: StatusAt,
    reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Changes {
    from_sweep: i64,
    changes: Vec<Change>,
}

#[derive(Debug, Deserialize)]
struct SweepRow {
    id: i64,
    finished_at: Option<String>,
    documents: i64,
    re_extracted: i64,
    rechunked: i64,
    reanchored: i64,
    unchanged: i64,
    missing: i64,
    retired: i64,
    failed: i64,
}

#[derive(Debug, Deserialize)]
struct Retired {
    documents: Vec<String>,
    citations: i64,
}

#[derive(Debug, Deserialize)]
struct Health {
    status: BTreeMap<String, i64>,
    retired: Retired,
    missing: Vec<String>,
    trend: Vec<SweepRow>,
}

#[derive(Debug, Deserialize)]
struct ListLine {
    doc_id: String,
    method: String,
    reason: Option<String>,
}

const GUIDE: &str = "# Guide\n\nThe Growth plan includes 500,000 calls a month.\n\nOverage is $0.12 per 1,000 calls.\n";
const FAQ: &str = "# FAQ\n\nYou can cancel at any time.\n\nRefunds are given within 30 days.\n";

fn run(s: &Scratch, args: &[&str]) -> Output {
    s.cmd().args(args).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// Cites one sentence of each of `docs` (ids as given) through `context` and `cite`.
fn cite_each(s: &Scratch, docs: &[(&str, &str)]) {
    let mut args = vec!["context", "--json"];
    for (doc, _) in docs {
        args.extend(["--doc", doc]);
    }
    let context: serde_json::Value = s.json(&args);
    let id = context["context"].as_str().expect("context id").to_string();
    let chunks = context["chunks"].as_array().unwrap();
    let claims: Vec<serde_json::Value> = docs
        .iter()
        .map(|(doc, quote)| {
            let label = chunks
                .iter()
                .find(|c| c["doc_id"] == *doc && c["text"].as_str().unwrap().contains(quote))
                .unwrap_or_else(|| panic!("no chunk of {doc} holds {quote:?}"))["label"]
                .clone();
            serde_json::json!({"text": format!("{doc} says so"), "evidence": [{"chunk_id": label, "quote": quote}]})
        })
        .collect();
    s.cite_claims("answer.json", &id, &claims);
}

/// Two documents in `docs/`, ingested as a folder and cited once each.
fn two_documents() -> Scratch {
    let s = Scratch::new();
    s.write("docs/guide.md", GUIDE);
    s.write("docs/faq.md", FAQ);
    s.ingest(&["docs", "--chunker", "paragraph:200"]);
    cite_each(
        &s,
        &[
            (
                "guide.md",
                "The Growth plan includes 500,000 calls a month.",
            ),
            ("faq.md", "Refunds are given within 30 days."),
        ],
    );
    s
}

#[test]
fn a_deleted_source_makes_its_citations_lost_and_fails_fail_on_lost() {
    let s = two_documents();
    std::fs::remove_file(s.path("docs/guide.md")).unwrap();
    let out = run(&s, &["sweep", "--fail-on", "lost", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let summary: Summary = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary.sources_missing, ["guide.md"]);
    assert_eq!(summary.status.get("lost"), Some(&1));
    assert_eq!(summary.status.get("intact"), Some(&1));

    let out = run(&s, &["list", "--status", "lost", "--json"]);
    let lost: Vec<ListLine> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lost.len(), 1);
    assert_eq!(
        (lost[0].doc_id.as_str(), lost[0].method.as_str()),
        ("guide.md", "missing")
    );
    let reason = lost[0].reason.as_deref().unwrap();
    assert!(
        reason.contains("guide.md") && reason.contains("missing"),
        "{reason}"
    );

    let health: Health = s.json(&["health", "--json"]);
    assert_eq!(health.missing, ["guide.md"]);
    let out = run(&s, &["health", "--fail-on", "lost"]);
    assert_eq!(out.status.code(), Some(1));

    // A second sweep with the file still gone writes no new anchors and still fails.
    let anchors = count(&s.db(), "SELECT count(*) FROM anchors");
    let out = run(&s, &["sweep", "--fail-on", "lost"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(count(&s.db(), "SELECT count(*) FROM anchors"), anchors);

    // The file comes back: the document is un-missed and its citation found again.
    s.write("docs/guide.md", GUIDE);
    let out = run(&s, &["sweep", "--fail-on", "lost", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: Summary = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary.status.get("intact"), Some(&2), "{summary:?}");
    let health: Health = s.json(&["health", "--json"]);
    assert!(health.missing.is_empty());
    common::assert_counts_agree(&s.db());
}

#[test]
fn a_retired_document_is_kept_apart_and_never_fails() {
    let s = two_documents();
    std::fs::remove_file(s.path("docs/guide.md")).unwrap();
    let retired: serde_json::Value = s.json(&["retire", "guide.md", "--json"]);
    assert_eq!(retired["retired"][0]["doc_id"], "guide.md");
    assert_eq!(retired["retired"][0]["changed"], true);
    let out = run(&s, &["sweep", "--fail-on", "lost,degraded", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: Summary = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary.retired, 1);
    assert!(summary.sources_missing.is_empty());
    let health: Health = s.json(&["health", "--json"]);
    assert_eq!(health.retired.documents, ["guide.md"]);
    assert_eq!(health.retired.citations, 1);
    assert_eq!(
        health.status.values().sum::<i64>(),
        1,
        "{:?}",
        health.status
    );
    // Its citation is still in the store.
    let export = run(&s, &["export"]);
    assert_eq!(String::from_utf8(export.stdout).unwrap().lines().count(), 2);
    // Unknown documents are refused and nothing is written.
    let before = common::dump(&s.db());
    let line = s.fails(&["retire", "nope.md"]);
    assert!(line.contains("nope.md"), "{line}");
    assert_eq!(common::dump(&s.db()), before);
    // Ingesting it again brings it back.
    s.write("docs/guide.md", GUIDE);
    s.ingest(&["docs"]);
    let health: Health = s.json(&["health", "--json"]);
    assert!(health.retired.documents.is_empty());
    common::assert_counts_agree(&s.db());
}

#[test]
fn a_document_ingested_from_a_new_path_is_swept_from_that_path() {
    let s = Scratch::new();
    s.write("old/doc.txt", "The old text says 100 calls.\n");
    s.ingest(&[
        "old/doc.txt",
        "--doc-id",
        "doc",
        "--chunker",
        "paragraph:200",
    ]);
    s.write("new/doc.txt", "The new text says 200 calls.\n");
    let report = s.ingest(&["new/doc.txt", "--doc-id", "doc"]);
    assert_eq!(report.documents[0].seq, 2);
    let docs = s.docs();
    assert!(
        docs[0].source.ends_with("new/doc.txt"),
        "{:?}",
        docs[0].source
    );
    assert!(Path::new(&docs[0].source).is_absolute());
    let summary: Summary = s.json(&["sweep", "--json"]);
    assert_eq!(summary.re_extracted, 0, "{summary:?}");
    assert_eq!(count(&s.db(), "SELECT count(*) FROM revisions"), 2);
    // A change to the old file no longer matters; a change to the new one does.
    s.write("old/doc.txt", "Stale edit.\n");
    let summary: Summary = s.json(&["sweep", "--json"]);
    assert_eq!(summary.re_extracted, 0);
    s.write("new/doc.txt", "The new text says 300 calls.\n");
    let summary: Summary = s.json(&["sweep", "--json"]);
    assert_eq!(summary.re_extracted, 1);
    let latest = row_texts(
        &s.db(),
        "SELECT text FROM revisions ORDER BY id DESC LIMIT 1",
    );
    assert_eq!(latest, ["The new text says 300 calls.\n"]);
}

#[test]
fn an_extract_cmd_document_is_re_extracted_when_its_file_changes() {
    let s = Scratch::new();
    s.write("notes.raw", "alpha beta\n");
    let ingest = |s: &Scratch| {
        s.ingest(&[
            "notes.raw",
            "--extract-cmd",
            "tr a-z A-Z < {}",
            "--extract-version",
            "1",
        ])
    };
    ingest(&s);
    let summary: Summary = s.json(&["sweep", "--json"]);
    assert_eq!((summary.re_extracted, summary.extractions), (0, 0));
    s.write("notes.raw", "alpha gamma\n");
    let summary: Summary = s.json(&["sweep", "--json"]);
    assert_eq!(
        (summary.re_extracted, summary.extractions),
        (1, 1),
        "{summary:?}"
    );
    let latest = row_texts(
        &s.db(),
        "SELECT text, extractor FROM revisions ORDER BY id DESC LIMIT 1",
    );
    assert_eq!(latest, ["ALPHA GAMMA\n", "tr@1"]);
}

/// A `pdftotext` on PATH that counts its runs in `log` and runs the real one.
fn counting_pdftotext(s: &Scratch, log: &Path) -> std::path::PathBuf {
    let real = String::from_utf8(
        std::process::Command::new("sh")
            .args(["-c", "command -v pdftotext"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let bin = s.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let wrapper = bin.join("pdftotext");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho run >> '{}'\nexec {} \"$@\"\n",
            log.display(),
            real.trim()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

fn runs(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |t| t.lines().count())
}

#[test]
fn a_no_change_sweep_of_100_pdfs_starts_no_extractor() {
    if !common::have_tool("pdftotext", "poppler-utils") {
        return;
    }
    let s = Scratch::new();
    for i in 0..100 {
        s.write(
            &format!("pdfs/p{i:03}.pdf"),
            common::pdf_with_lines(&format!("Page {i} says"), "the rate is fixed."),
        );
    }
    let log = s.path("pdftotext.log");
    let bin = counting_pdftotext(&s, &log);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let sweep = |s: &Scratch| -> Summary {
        let out = succeeded(s.cmd().env("PATH", &path).args(["sweep", "--json"]));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    succeeded(
        s.cmd()
            .env("PATH", &path)
            .args(["ingest", "pdfs", "--chunker", "paragraph:200"]),
    );
    let at_ingest = runs(&log);
    assert!(at_ingest >= 100, "{at_ingest}");

    let summary = sweep(&s);
    assert_eq!(summary.documents, 100);
    assert_eq!(runs(&log), at_ingest, "a no-change sweep ran pdftotext");
    assert_eq!((summary.extractions, summary.unchanged_documents), (0, 100));

    // One file touched (same bytes): read, not extracted. One changed: extracted once.
    let same = std::fs::read(s.path("pdfs/p001.pdf")).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    s.write("pdfs/p001.pdf", same);
    s.write(
        "pdfs/p002.pdf",
        common::pdf_with_lines("Page 2 now says", "the rate went up."),
    );
    let summary = sweep(&s);
    assert_eq!(
        runs(&log) - at_ingest,
        2,
        "only the changed PDF is extracted (and pdftotext -v asked its version once)"
    );
    assert_eq!((summary.extractions, summary.re_extracted), (1, 1));

    // A new pdftotext (the tool's file changed): every PDF is re-extracted once, and with the
    // same text no revision is made.
    let before = runs(&log);
    let wrapper = bin.join("pdftotext");
    let script = std::fs::read_to_string(&wrapper).unwrap() + "# upgraded\n";
    std::fs::write(&wrapper, script).unwrap();
    let summary = sweep(&s);
    assert_eq!(runs(&log) - before, 101, "100 PDFs and one version check");
    assert_eq!((summary.extractions, summary.re_extracted), (100, 0));
    let again = runs(&log);
    sweep(&s);
    assert_eq!(runs(&log), again);
}

#[test]
fn a_document_that_cannot_be_swept_exits_2_and_the_others_commit() {
    let s = two_documents();
    s.write("docs/guide.md", b"binary\0now");
    s.write("docs/faq.md", FAQ.replace("30 days", "14 days"));
    let out = run(&s, &["sweep", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("guide.md") && err.contains("binary"), "{err}");
    let summary: Summary = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary.re_extracted, 1, "faq.md was swept and committed");
    assert_eq!(
        count(&s.db(), "SELECT count(*) FROM revisions r JOIN documents d ON d.id = r.document_id WHERE d.doc_id = 'faq.md'"),
        2
    );
    let health: Health = s.json(&["health", "--json"]);
    assert_eq!(health.trend[0].failed, 1);
    assert_eq!(health.trend[0].documents, 2);
}

/// Makes every insert into `table` for document `doc_id` fail (a trigger, on either backend),
/// as a full disk or a lost connection would fail that document's writes alone.
fn refuse_inserts(s: &Scratch, table: &str, doc_id: &str) {
    let of_doc = match table {
        "revisions" => {
            format!("NEW.document_id = (SELECT id FROM documents WHERE doc_id = '{doc_id}')")
        }
        "anchors" => {
            format!("NEW.citation_id IN (SELECT id FROM citations WHERE doc_id = '{doc_id}')")
        }
        other => panic!("no trigger for {other}"),
    };
    let db = s.db();
    if citestore::store::is_postgres(&db) {
        let mut client = postgres::Client::connect(&db.to_string_lossy(), postgres::NoTls).unwrap();
        client
            .batch_execute(&format!(
                "CREATE FUNCTION refuse_{table}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                 IF {of_doc} THEN RAISE EXCEPTION 'refused by a test trigger'; END IF; \
                 RETURN NEW; END $$; \
                 CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} FOR EACH ROW \
                 EXECUTE FUNCTION refuse_{table}()"
            ))
            .unwrap();
    } else {
        rusqlite::Connection::open(&db)
            .unwrap()
            .execute_batch(&format!(
                "CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} WHEN {of_doc} \
                 BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END"
            ))
            .unwrap();
    }
}

fn allow_inserts(s: &Scratch, table: &str) {
    let db = s.db();
    if citestore::store::is_postgres(&db) {
        let mut client = postgres::Client::connect(&db.to_string_lossy(), postgres::NoTls).unwrap();
        client
            .batch_execute(&format!("DROP TRIGGER refuse_{table} ON {table}"))
            .unwrap();
    } else {
        rusqlite::Connection::open(&db)
            .unwrap()
            .execute_batch(&format!("DROP TRIGGER refuse_{table}"))
            .unwrap();
    }
}

#[test]
fn a_document_whose_writes_fail_is_rolled_back_alone_and_the_others_commit() {
    // Documents are swept in batches sharing a transaction: one document's failed write, in
    // the first transaction (its new revision) or the second (its anchors), must leave it as
    // it was, counted failed, and the other document of the batch swept and committed.
    // (table refused, guide.md's revisions after the failed sweep)
    for (table, guide_revisions) in [("revisions", 1), ("anchors", 2)] {
        let s = two_documents();
        s.write("docs/guide.md", format!("An added first line.\n\n{GUIDE}"));
        s.write("docs/faq.md", format!("An added first line.\n\n{FAQ}"));
        refuse_inserts(&s, table, "guide.md");
        let out = run(&s, &["sweep", "--json"]);
        assert_eq!(out.status.code(), Some(2), "{table}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{table}: {err}");
        assert!(err.contains("guide.md"), "{table}: {err}");
        let summary: Summary = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(summary.re_extracted, 1, "{table}: faq.md was swept");
        let revisions = |doc: &str| {
            count(
                &s.db(),
                &format!(
                    "SELECT count(*) FROM revisions r JOIN documents d ON d.id = r.document_id \
                     WHERE d.doc_id = '{doc}'"
                ),
            )
        };
        let anchors = |doc: &str| {
            count(
                &s.db(),
                &format!(
                    "SELECT count(*) FROM anchors a JOIN citations c ON c.id = a.citation_id \
                     WHERE c.doc_id = '{doc}'"
                ),
            )
        };
        assert_eq!((revisions("faq.md"), anchors("faq.md")), (2, 1), "{table}");
        assert_eq!(
            (revisions("guide.md"), anchors("guide.md")),
            (guide_revisions, 0),
            "{table}"
        );
        let health: Health = s.json(&["health", "--json"]);
        assert_eq!(
            (health.trend[0].failed, health.trend[0].re_extracted),
            (1, 1),
            "{table}"
        );
        assert_eq!(health.trend[0].documents, 2, "{table}");
        // Once the writes go through again, the next sweep finishes the document.
        allow_inserts(&s, table);
        let summary: Summary = s.json(&["sweep", "--json"]);
        assert_eq!(summary.status.get("moved"), Some(&2), "{table}");
        assert_eq!(
            (revisions("guide.md"), anchors("guide.md")),
            (2, 1),
            "{table}"
        );
        common::assert_counts_agree(&s.db());
    }
}

#[test]
fn a_cron_run_from_root_with_config_behaves_like_one_in_the_project() {
    let sweep_in = |dir: &Path, s: &Scratch, config: &Path| -> Output {
        let mut cmd = assert_cmd::Command::cargo_bin("citestore").unwrap();
        cmd.current_dir(dir)
            .env("CITESTORE_NOW", common::NOW)
            .env_remove("CITESTORE_DB")
            .env("CITESTORE_CONFIG", config)
            .args(["sweep", "--json"]);
        let _ = s;
        cmd.output().unwrap()
    };
    let project = Scratch::new();
    let config = project.write(
        "citestore.toml",
        "db = \"store/cs.db\"\n[chunker]\nspec = \"paragraph:200\"\n[[sources]]\nroot = \"kb\"\n",
    );
    project.write("kb/guide.md", GUIDE);
    std::fs::create_dir_all(project.path("store")).unwrap();
    succeeded(
        assert_cmd::Command::cargo_bin("citestore")
            .unwrap()
            .current_dir("/")
            .env("CITESTORE_NOW", common::NOW)
            .env_remove("CITESTORE_DB")
            .args(["--config"])
            .arg(&config)
            .args(["ingest", "--json"]),
    );
    assert!(
        project.path("store/cs.db").is_file(),
        "db relative to the config file"
    );
    project.write("kb/guide.md", GUIDE.replace("500,000", "600,000"));
    let from_root = sweep_in(Path::new("/"), &project, &config);
    assert!(from_root.status.success(), "{}", stderr(&from_root));
    let summary: Summary = serde_json::from_slice(&from_root.stdout).unwrap();
    assert_eq!(
        (summary.re_extracted, summary.sources_missing.len()),
        (1, 0)
    );
    // The project folder moves: sources relative to the config file move with it.
    let moved = Scratch::new();
    let dest = moved.path("project");
    std::fs::rename(project.dir.path(), &dest).unwrap();
    let from_root = sweep_in(Path::new("/"), &moved, &dest.join("citestore.toml"));
    assert!(from_root.status.success(), "{}", stderr(&from_root));
    let summary: Summary = serde_json::from_slice(&from_root.stdout).unwrap();
    assert_eq!(
        (summary.unchanged_documents, summary.sources_missing.len()),
        (1, 0),
        "{summary:?}"
    );
    let in_project = sweep_in(&dest, &moved, Path::new("citestore.toml"));
    let summary_here: Summary = serde_json::from_slice(&in_project.stdout).unwrap();
    assert_eq!(summary_here.unchanged_documents, 1);
}

#[test]
fn changes_lists_what_the_last_sweep_changed_and_health_adds_up() {
    let s = two_documents();
    s.json::<Summary>(&["sweep", "--json"]);
    s.write(
        "docs/guide.md",
        GUIDE.replace("The Growth plan includes 500,000 calls a month.\n\n", ""),
    );
    s.write("docs/faq.md", format!("Intro.\n\n{FAQ}"));
    let summary: Summary = s.json(&["sweep", "--json"]);
    assert_eq!(summary.re_extracted, 2);
    let changes: Changes = s.json(&["changes", "--json"]);
    assert_eq!(changes.from_sweep, 2, "what the latest sweep changed");
    let by_doc: BTreeMap<&str, &Change> = changes
        .changes
        .iter()
        .map(|c| (c.doc_id.as_str(), c))
        .collect();
    assert_eq!(by_doc.len(), 2, "{changes:?}");
    assert_eq!(
        (
            by_doc["guide.md"].before.status.as_str(),
            by_doc["guide.md"].after.status.as_str()
        ),
        ("intact", "lost")
    );
    assert_eq!(by_doc["faq.md"].after.status, "moved");
    assert_eq!(by_doc["faq.md"].after.revision, 2);
    assert!(by_doc["guide.md"].reason.is_some());
    assert!(!by_doc["faq.md"].citation_id.is_empty());
    // Nothing changed in a sweep that finds nothing to do.
    s.json::<Summary>(&["sweep", "--json"]);
    let changes: Changes = s.json(&["changes", "--json"]);
    assert!(changes.changes.is_empty());
    // --since the first sweep still shows both.
    let changes: Changes = s.json(&["changes", "--since", "1", "--json"]);
    assert_eq!(changes.changes.len(), 2);
    let changes: Changes = s.json(&["changes", "--since", "2000-01-01T00:00:00Z", "--json"]);
    assert_eq!(changes.from_sweep, 1);
    assert_eq!(changes.changes.len(), 2);
    let line = s.fails(&["changes", "--since", "99"]);
    assert!(line.contains("99"), "{line}");
    let line = s.fails(&["changes", "--since", "yesterday"]);
    assert!(line.contains("yesterday"), "{line}");

    let health: Health = s.json(&["health", "--json", "--sweeps", "2"]);
    assert_eq!(health.trend.len(), 2);
    for row in &health.trend {
        assert!(row.finished_at.is_some());
        assert_eq!(
            row.re_extracted
                + row.rechunked
                + row.reanchored
                + row.unchanged
                + row.missing
                + row.retired
                + row.failed,
            row.documents,
            "{row:?}"
        );
        assert_eq!(row.documents, 2);
    }
    assert_eq!(health.trend[1].re_extracted, 2, "{:?}", health.trend[1]);
    assert_eq!(health.trend[1].id, 2);
    let health: Health = s.json(&["health", "--json"]);
    assert_eq!(health.trend.len(), 3);
    common::assert_counts_agree(&s.db());
}

#[test]
fn fail_on_takes_several_values_and_refuses_unknown_ones() {
    let s = two_documents();
    for args in [
        &["sweep", "--fail-on", "lost,bogus"][..],
        &["health", "--fail-on", "nope"],
        &["verify", "--all", "--fail-on", "fabricated,nope"],
    ] {
        let out = run(&s, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("invalid value"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    s.write(
        "docs/faq.md",
        FAQ.replace(
            "Refunds are given within 30 days.",
            "Refunds are given within 30 working days.",
        ),
    );
    let out = run(&s, &["sweep", "--fail-on", "lost"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run(
        &s,
        &["health", "--fail-on", "lost", "--fail-on", "degraded"],
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn an_extractor_past_the_sweep_timeout_fails_its_document_only() {
    let s = Scratch::new();
    s.write("a.raw", "fast text\n");
    s.write("b.txt", "plain text\n");
    s.ingest(&[
        "a.raw",
        "--extract-cmd",
        "grep -q slow {} && sleep 30; cat {}",
        "--extract-version",
        "1",
    ]);
    s.ingest(&["b.txt"]);
    s.write("a.raw", "slow text now\n");
    s.write("b.txt", "plain text, edited\n");
    let started = std::time::Instant::now();
    let out = run(&s, &["sweep", "--extract-timeout", "1", "--json"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(25));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("a.raw") && err.contains("did not finish in 1 s"),
        "{err}"
    );
    let summary: Summary = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary.re_extracted, 1, "b.txt was swept");
    let line = s.fails(&["sweep", "--extract-timeout", "0"]);
    assert!(line.contains("--extract-timeout"), "{line}");
}
