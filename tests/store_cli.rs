//! The store through the real binary: ingest a folder, re-ingest, revise, re-chunk; bad input
//! leaves the database exactly as it was; configuration and extractors.

use crate::common;

use citestore::ingest::{IngestReport, Outcome};
use citestore::text::content_hash;
use common::{count, dump, succeeded, Scratch, NOW};
use serde::Deserialize;

const GUIDE: &str = "# Guide\n\nThe Growth plan includes 500,000 calls a month.\n\nOverage is $0.12 per 1,000 calls.\n";
const FAQ: &str =
    "Q: Can I cancel?\r\nA: Yes, any time.\r\n\r\nQ: Refunds?\r\nA: Within 30 days.\r\n";
const PAGE: &str = "<html><head><script>track()</script><style>h1{}</style></head><body><h1>Status</h1><p>All systems normal.</p></body></html>";

fn folder(s: &Scratch) {
    s.write("docs/guide.md", GUIDE);
    s.write("docs/sub/faq.txt", FAQ);
    s.write("docs/sub/status.html", PAGE);
    s.write("docs/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    s.write("docs/empty.md", b"");
    s.write("docs/.hidden/secret.md", "not walked");
}

fn outcomes(report: &IngestReport) -> Vec<(String, Outcome, i64)> {
    report
        .documents
        .iter()
        .map(|d| (d.doc_id.clone(), d.outcome, d.seq))
        .collect()
}

/// Chunk rows of a document's current chunking: (chunk_id, start, end, content_hash).
fn current_chunks(s: &Scratch, doc_id: &str) -> (String, Vec<(String, usize, usize, String)>) {
    let current = common::rows(
        &s.db(),
        &format!(
            "SELECT r.text, CAST(cc.chunking_id AS TEXT) FROM current_chunkings cc \
             JOIN revisions r ON r.id = cc.revision_id WHERE cc.doc_id = '{}'",
            doc_id.replace('\'', "''")
        ),
    );
    let [text, chunking_id] = &current[0][..] else {
        panic!("{current:?}")
    };
    let rows = common::rows(
        &s.db(),
        &format!(
            "SELECT chunk_id, CAST(start_char AS TEXT), CAST(end_char AS TEXT), content_hash \
             FROM chunks WHERE chunking_id = {chunking_id} ORDER BY ord"
        ),
    )
    .into_iter()
    .map(|r| {
        (
            r[0].clone(),
            r[1].parse().unwrap(),
            r[2].parse().unwrap(),
            r[3].clone(),
        )
    })
    .collect();
    (text.clone(), rows)
}

#[test]
fn folder_lifecycle_ingest_reingest_revise_rechunk() {
    let s = Scratch::new();
    folder(&s);
    s.cmd().arg("init").assert().success();

    // Ingest a folder: three documents, the binary and the empty file skipped and listed.
    let first = s.ingest(&["docs", "--chunker", "paragraph:60"]);
    assert_eq!(
        outcomes(&first),
        [
            ("guide.md".to_string(), Outcome::New, 1),
            ("sub/faq.txt".to_string(), Outcome::New, 1),
            ("sub/status.html".to_string(), Outcome::New, 1),
        ]
    );
    let skipped: Vec<&str> = first.skipped.iter().map(|k| k.path.as_str()).collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(skipped[0].ends_with("empty.md") && skipped[1].ends_with("logo.png"));
    assert!(first.skipped[1].reason.contains("binary"));
    let docs = s.docs();
    assert_eq!(docs.len(), 3);
    assert!(docs.iter().all(|d| d.revisions == 1
        && d.chunking.as_deref() == Some("paragraph:60")
        && d.chunks > 0
        && d.citations == 0));
    let status = docs.iter().find(|d| d.doc_id == "sub/status.html").unwrap();
    assert!(status.extractor.starts_with("html2text@"), "{status:?}");

    // Text, Markdown stored byte-exact (CRLF kept); HTML without script or style.
    let stored = |doc: &str| current_chunks(&s, doc).0;
    assert_eq!(stored("guide.md"), GUIDE);
    assert_eq!(stored("sub/faq.txt"), FAQ);
    assert_eq!(
        stored("sub/status.html").trim(),
        "Status\n\nAll systems normal."
    );

    // Chunks tile the revision, their ids say where they are, their hashes are of their text.
    for doc in ["guide.md", "sub/faq.txt"] {
        let (text, chunks) = current_chunks(&s, doc);
        let chars: Vec<char> = text.chars().collect();
        assert_eq!(chunks.first().unwrap().1, 0);
        assert_eq!(chunks.last().unwrap().2, chars.len());
        for (id, start, end, hash) in &chunks {
            assert_eq!(id, &format!("{doc}@r1#{start}-{end}"));
            let piece: String = chars[*start..*end].iter().collect();
            assert_eq!(hash, &content_hash(&piece));
        }
    }

    // Re-ingest unchanged: no new revision, nothing written at all.
    let before = dump(&s.db());
    let again = s.ingest(&["docs"]);
    assert!(again
        .documents
        .iter()
        .all(|d| d.outcome == Outcome::Unchanged && d.seq == 1));
    assert_eq!(dump(&s.db()), before);

    // Change one file: exactly one new revision, chunked with the spec it had.
    s.write("docs/guide.md", GUIDE.replace("500,000", "750,000"));
    let revised = s.ingest(&["docs"]);
    assert_eq!(
        outcomes(&revised),
        [
            ("guide.md".to_string(), Outcome::Revised, 2),
            ("sub/faq.txt".to_string(), Outcome::Unchanged, 1),
            ("sub/status.html".to_string(), Outcome::Unchanged, 1),
        ]
    );
    let chunking = revised.documents[0].chunking.as_ref().unwrap();
    assert!(chunking.created && chunking.spec == "paragraph:60");
    assert_eq!(count(&s.db(), "SELECT count(*) FROM revisions"), 4);
    let (_, chunks) = current_chunks(&s, "guide.md");
    assert!(chunks.iter().all(|c| c.0.starts_with("guide.md@r2#")));

    // Back to the first text: a third revision (A → B → A), not a reuse of r1.
    s.write("docs/guide.md", GUIDE);
    let back = s.ingest(&["docs/guide.md", "--doc-id", "guide.md"]);
    assert_eq!(
        outcomes(&back),
        [("guide.md".to_string(), Outcome::Revised, 3)]
    );

    // Re-chunk: a new chunking of the latest revision; the old one is kept.
    #[derive(Deserialize)]
    struct Rechunk {
        documents: Vec<citestore::ingest::Rechunked>,
    }
    let out: Rechunk = s.json(&[
        "chunk",
        "--chunker",
        "chars:40:8",
        "--doc",
        "guide.md",
        "--json",
    ]);
    assert_eq!(out.documents.len(), 1);
    assert!(out.documents[0].chunking.created && out.documents[0].seq == 3);
    let chunkings_of_r3 =
        "SELECT count(*) FROM chunkings c JOIN revisions r ON r.id = c.revision_id \
         JOIN documents d ON d.id = r.document_id WHERE d.doc_id = 'guide.md' AND r.seq = 3";
    assert_eq!(count(&s.db(), chunkings_of_r3), 2);
    let guide = s
        .docs()
        .into_iter()
        .find(|d| d.doc_id == "guide.md")
        .unwrap();
    assert_eq!((guide.revisions, guide.latest_seq), (3, 3));
    assert_eq!(guide.chunking.as_deref(), Some("chars:40:8"));
    assert!(guide.chunks >= GUIDE.len() as i64 / 40);

    // The same spec again creates nothing: only the documents without it get a chunking, and a
    // second run writes no row at all.
    let out: Rechunk = s.json(&["chunk", "--chunker", "chars:40:8", "--json"]);
    let created: Vec<bool> = out.documents.iter().map(|d| d.chunking.created).collect();
    assert_eq!(created, [false, true, true]);
    let before = dump(&s.db());
    let out: Rechunk = s.json(&["chunk", "--chunker", "chars:40:8", "--json"]);
    assert!(out.documents.iter().all(|d| !d.chunking.created));
    assert_eq!(dump(&s.db()), before);

    // A new revision of a re-chunked document inherits its current spec.
    s.write("docs/sub/faq.txt", FAQ.replace("30", "14"));
    let revised = s.ingest(&["docs"]);
    let faq = revised
        .documents
        .iter()
        .find(|d| d.doc_id == "sub/faq.txt")
        .unwrap();
    assert_eq!(faq.chunking.as_ref().unwrap().spec, "chars:40:8");
}

#[test]
fn human_output_is_aligned_and_counts() {
    let s = Scratch::new();
    folder(&s);
    // Per-file lines only with --verbose.
    let out = s
        .cmd()
        .args(["ingest", "docs", "--verbose"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[0].starts_with("new      guide.md"), "{text}");
    assert!(lines[3].starts_with("skipped  "), "{text}");
    assert_eq!(
        lines[5],
        "3 documents: 3 new, 0 revised, 0 unchanged; 2 skipped"
    );
    let out = s.cmd().arg("docs").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.starts_with("DOC              REV  REVS"), "{text}");
    assert_eq!(text.lines().count(), 4);
}

/// A database with content, a bad command, and the check that nothing moved.
fn unchanged_after(s: &Scratch, args: &[&str], names: &str, says: &str) {
    let bytes = file_bytes(s);
    let rows = dump(&s.db());
    let line = s.fails(args);
    assert!(
        line.contains(names),
        "{args:?}: {line:?} should name {names:?}"
    );
    assert!(
        line.contains(says),
        "{args:?}: {line:?} should say {says:?}"
    );
    assert_eq!(dump(&s.db()), rows, "{args:?} changed rows");
    assert_eq!(file_bytes(s), bytes, "{args:?} changed bytes");
}

/// The SQLite file's bytes (a PostgreSQL store has no file: its rows are compared instead).
fn file_bytes(s: &Scratch) -> Option<Vec<u8>> {
    (!citestore::store::is_postgres(&s.db())).then(|| std::fs::read(s.db()).unwrap())
}

#[test]
fn bad_input_is_one_line_and_writes_nothing() {
    if common::sqlite_only("it ends with a read-only database file") {
        return;
    }
    let s = Scratch::new();
    folder(&s);
    s.ingest(&["docs", "--chunker", "paragraph:60"]);

    // A new good file and a non-UTF-8 one in the same walk: neither is stored.
    s.write("more/a-good.md", "fresh text");
    s.write("more/b-latin1.txt", b"caf\xe9 au lait");
    unchanged_after(
        &s,
        &["ingest", "more"],
        "b-latin1.txt",
        "not valid UTF-8 at byte 3",
    );
    // A revision of a known document in the same command is rolled back too.
    s.write("docs/guide.md", "changed");
    s.write("docs/zz.txt", b"\xff");
    unchanged_after(&s, &["ingest", "docs"], "zz.txt", "byte 0");
    std::fs::remove_file(s.path("docs/zz.txt")).unwrap();
    s.write("docs/guide.md", GUIDE);

    unchanged_after(&s, &["ingest", "docs/logo.png"], "logo.png", "binary");
    unchanged_after(&s, &["ingest", "docs/empty.md"], "empty.md", "empty file");
    unchanged_after(
        &s,
        &["ingest", "docs/guide.md", "nowhere.md"],
        "nowhere.md",
        "no such file",
    );
    unchanged_after(
        &s,
        &["ingest", "docs", "--chunker", "lines:3"],
        "lines:3",
        "unknown chunker",
    );
    unchanged_after(
        &s,
        &["chunk", "--chunker", "chars:9:5"],
        "chars:9:5",
        "OVERLAP",
    );
    unchanged_after(
        &s,
        &[
            "chunk",
            "--chunker",
            "paragraph:9",
            "--doc",
            "guide.md",
            "--doc",
            "nope.md",
        ],
        "nope.md",
        "not in the store",
    );
    unchanged_after(
        &s,
        &["ingest", "docs", "--doc-id", "x"],
        "docs",
        "--doc-id needs exactly one file",
    );
    s.write("other/guide.md", "same id, other folder");
    unchanged_after(
        &s,
        &["ingest", "docs", "other"],
        "guide.md",
        "comes from both",
    );

    // Read-only database file.
    let mut perms = std::fs::metadata(s.db()).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(s.db(), perms.clone()).unwrap();
    s.write("docs/new.md", "new text");
    unchanged_after(&s, &["ingest", "docs"], "cs.db", "read-only");
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(s.db(), perms).unwrap();
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_untouched() {
    if common::sqlite_only("a file that is not SQLite") {
        return;
    }
    let s = Scratch::new();
    s.write("docs/a.md", "text");
    let junk = b"This is a shopping list, not a database.\n".repeat(200);
    std::fs::write(s.db(), &junk).unwrap();
    for args in [
        &["docs"][..],
        &["ingest", "docs"],
        &["init"],
        &["chunk", "--chunker", "paragraph:9"],
    ] {
        let line = s.fails(args);
        assert!(
            line.contains("cs.db") && line.contains("not a SQLite database"),
            "{line}"
        );
        assert_eq!(std::fs::read(s.db()).unwrap(), junk);
    }
    assert!(!s.path("cs.db-wal").exists());
}

#[test]
fn a_newer_schema_is_refused_untouched() {
    if common::sqlite_only("SQLite's user_version (twin: postgres_cli)") {
        return;
    }
    // One past what this binary knows, however many migrations that is.
    let newer = citestore::store::MIGRATIONS.len() as i64 + 1;
    let s = Scratch::new();
    s.write("docs/a.md", "text");
    s.ingest(&["docs"]);
    {
        let conn = rusqlite::Connection::open(s.db()).unwrap();
        conn.pragma_update(None, "user_version", newer).unwrap();
    }
    let bytes = std::fs::read(s.db()).unwrap();
    let line = s.fails(&["ingest", "docs"]);
    assert!(
        line.contains(&format!(
            "database schema version {newer} is newer than this citestore (knows {}); upgrade citestore",
            citestore::store::MIGRATIONS.len()
        )),
        "{line}"
    );
    assert_eq!(std::fs::read(s.db()).unwrap(), bytes);
}

#[test]
fn docs_needs_an_existing_database() {
    if common::sqlite_only("a missing database file (twin: postgres_cli)") {
        return;
    }
    let s = Scratch::new();
    let line = s.fails(&["docs"]);
    assert!(
        line.contains("cs.db") && line.contains("citestore init"),
        "{line}"
    );
    assert!(!s.db().exists());
}

#[test]
fn configuration_chooses_database_sources_and_chunker() {
    let s = Scratch::new();
    s.write("kb/a.md", "alpha text\n\nmore alpha\n");
    s.write("kb/b.txt", "not matched by the pattern");
    s.write("kb/page.htm", "<p>page text</p>");
    s.write(
        "citestore.toml",
        "db = \"from-config.db\"\n[chunker]\nspec = \"paragraph:12\"\n\
         [[sources]]\nroot = \"kb\"\npatterns = [\"**/*.md\", \"*.htm\"]\n\
         extractors = { htm = \"html\" }\n",
    );
    let run = |envdb: Option<&str>, args: &[&str]| {
        let mut cmd = assert_cmd::Command::cargo_bin("citestore").unwrap();
        cmd.current_dir(s.dir.path())
            .env("CITESTORE_NOW", NOW)
            .env_remove("CITESTORE_DB");
        if let Some(db) = envdb {
            cmd.env("CITESTORE_DB", db);
        }
        let out = succeeded(cmd.args(args));
        serde_json::from_slice::<IngestReport>(&out.stdout).unwrap()
    };
    // No PATH: the configured sources, into the configured database, with the configured chunker.
    let report = run(None, &["ingest", "--json"]);
    let ids: Vec<&str> = report.documents.iter().map(|d| d.doc_id.as_str()).collect();
    assert_eq!(ids, ["a.md", "page.htm"]);
    assert!(report.documents[1].extractor.starts_with("html2text@"));
    assert_eq!(
        report.documents[0].chunking.as_ref().unwrap().spec,
        "paragraph:12"
    );
    assert_eq!(
        count(&s.path("from-config.db"), "SELECT count(*) FROM documents"),
        2
    );
    // CITESTORE_DB beats the configuration; --db beats both.
    run(Some("from-env.db"), &["ingest", "kb/b.txt", "--json"]);
    assert_eq!(
        count(&s.path("from-env.db"), "SELECT count(*) FROM documents"),
        1
    );
    run(
        Some("from-env.db"),
        &["--db", "from-flag.db", "ingest", "kb/a.md", "--json"],
    );
    assert_eq!(
        count(&s.path("from-flag.db"), "SELECT count(*) FROM documents"),
        1
    );
    assert_eq!(
        count(&s.path("from-env.db"), "SELECT count(*) FROM documents"),
        1
    );
    // An explicit --config that is broken is a one-line error naming it.
    s.write("bad.toml", "[chunker]\nspec = \"paragraph:x\"\n");
    let line = s.fails(&["--config", "bad.toml", "docs"]);
    assert!(
        line.contains("bad.toml") && line.contains("MAX must be a whole number"),
        "{line}"
    );
}

#[test]
fn timestamps_come_from_citestore_now() {
    let s = Scratch::new();
    s.write("a.md", "text");
    s.ingest(&["a.md"]);
    let created = common::row_texts(&s.db(), "SELECT created_at FROM revisions");
    assert_eq!(created, ["2026-01-02T03:04:05.000Z"]);
    let line = s.fails_with_env("CITESTORE_NOW", "last tuesday", &["ingest", "a.md"]);
    assert!(line.contains("CITESTORE_NOW"), "{line}");
}

#[test]
fn extract_cmd_stamps_and_reextraction_makes_a_revision() {
    let s = Scratch::new();
    s.write("notes.raw", "quarterly numbers\n");
    let upper = [
        "ingest",
        "notes.raw",
        "--extract-cmd",
        "tr a-z A-Z < {}",
        "--extract-version",
        "1",
    ];
    let first = s.ingest(&upper[1..]);
    assert_eq!(first.documents[0].extractor, "tr@1");
    assert_eq!(
        count(
            &s.db(),
            "SELECT count(*) FROM documents WHERE extractor = 'cmd:tr'"
        ),
        1
    );
    // A new extractor version that gives the same text: nothing new.
    let same = s.ingest(&[
        "notes.raw",
        "--extract-cmd",
        "tr a-z A-Z < {}",
        "--extract-version",
        "2",
    ]);
    assert_eq!(same.documents[0].outcome, Outcome::Unchanged);
    // A re-extraction that gives different text: a new revision.
    let other = s.ingest(&[
        "notes.raw",
        "--extract-cmd",
        "sed s/quarterly/annual/ {}",
        "--extract-version",
        "4.9",
    ]);
    assert_eq!(
        (other.documents[0].outcome, other.documents[0].seq),
        (Outcome::Revised, 2)
    );
    assert_eq!(other.documents[0].extractor, "sed@4.9");
    let line = s.fails(&[
        "ingest",
        "notes.raw",
        "--extract-cmd",
        "false {}",
        "--extract-version",
        "1",
    ]);
    assert!(
        line.contains("notes.raw") && line.contains("extractor `false {}` failed"),
        "{line}"
    );
}

/// True when `pid` is no longer a live process (a zombie counts as gone), within 5 s.
fn gone(pid: u32) -> bool {
    for _ in 0..100 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|r| r.split_whitespace().next());
        if matches!(state, None | Some("Z") | Some("X")) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    false
}

#[test]
fn an_extractor_past_its_timeout_is_killed_and_nothing_is_stored() {
    let s = Scratch::new();
    s.write("known.txt", "already stored\n");
    s.ingest(&["known.txt"]);
    s.write("slow.raw", "text that never arrives\n");
    let pid_file = s.path("sleeper.pid");
    // The child of `sh -c` writes its pid and becomes the sleep.
    let template = format!(
        "sh -c 'echo $$ > {}; exec sleep 30'; cat {{}}",
        pid_file.display()
    );
    let before = dump(&s.db());
    let started = std::time::Instant::now();
    let args = [
        "ingest",
        "slow.raw",
        "--extract-cmd",
        &template,
        "--extract-version",
        "1",
        "--extract-timeout",
        "1",
    ];
    let line = s.fails(&args);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(25),
        "the command waited for the sleep"
    );
    assert!(
        line.contains("slow.raw")
            && line.contains("did not finish in 1 s; raise --extract-timeout"),
        "{line}"
    );
    assert_eq!(dump(&s.db()), before, "a timed-out ingest stored something");
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        gone(pid),
        "the extractor's child {pid} outlived the timeout"
    );

    // The brief's own shape: `sleep 30; cat {}` ends the same way.
    let line = s.fails(&[
        "ingest",
        "slow.raw",
        "--extract-cmd",
        "sleep 30; cat {}",
        "--extract-version",
        "1",
        "--extract-timeout",
        "1",
    ]);
    assert!(
        line.contains("slow.raw") && line.contains("did not finish in 1 s"),
        "{line}"
    );
    assert_eq!(dump(&s.db()), before);
}

#[test]
fn extract_timeout_must_be_a_positive_number() {
    let s = Scratch::new();
    s.write("a.txt", "text\n");
    for bad in ["0", "-1", "NaN", "inf"] {
        let flag = format!("--extract-timeout={bad}");
        let line = s.fails(&["ingest", "a.txt", &flag]);
        assert!(
            line.contains("--extract-timeout") && line.contains("positive number of seconds"),
            "{bad}: {line}"
        );
        assert!(
            !s.db().exists(),
            "{bad}: a refused ingest created the database"
        );
    }
    let ok = s.ingest(&["a.txt", "--extract-timeout", "0.5"]);
    assert_eq!(ok.documents[0].outcome, Outcome::New);
}

#[test]
fn pdf_through_pdftotext_with_hyphenation_repaired() {
    let s = Scratch::new();
    s.write("rates.pdf", common::hyphenated_pdf());
    if !common::have_tool("pdftotext", "poppler-utils") {
        return;
    }
    let version = std::process::Command::new("pdftotext")
        .arg("-v")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&version.stderr).to_string();
    let version = said.split_whitespace().nth(2).unwrap();
    let report = s.ingest(&["rates.pdf"]);
    assert_eq!(
        report.documents[0].extractor,
        format!("pdftotext@{version}")
    );
    let text = common::row_texts(&s.db(), "SELECT text FROM revisions").remove(0);
    assert!(text.contains("The subscription rate is fixed."), "{text:?}");
}

#[test]
fn pdf_without_pdftotext_names_the_tool() {
    let s = Scratch::new();
    s.write("rates.pdf", common::hyphenated_pdf());
    s.cmd().arg("init").assert().success();
    let empty_path = s.path("no-tools");
    std::fs::create_dir(&empty_path).unwrap();
    let bytes = file_bytes(&s);
    let rows = dump(&s.db());
    let out = s
        .cmd()
        .env("PATH", &empty_path)
        .args(["ingest", "rates.pdf"])
        .output()
        .unwrap();
    let line = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        line.contains("rates.pdf")
            && line.contains("`pdftotext`")
            && line.contains("poppler-utils"),
        "{line}"
    );
    assert_eq!(file_bytes(&s), bytes);
    assert_eq!(dump(&s.db()), rows);
}

/// Each schema version's fixture opens with this binary (migrated up to the current version)
/// and keeps every row; `fixtures/store/schema-v1.sql` is the store as migration 0001 left it.
#[test]
fn schema_v1_fixture_upgrades_and_keeps_its_data() {
    if common::sqlite_only("a SQLite fixture file") {
        return;
    }
    let s = Scratch::new();
    {
        let conn = rusqlite::Connection::open(s.db()).unwrap();
        let sql = include_str!("../fixtures/store/schema-v1.sql");
        conn.execute_batch(sql).unwrap();
    }
    // Reading commands never migrate; `init` upgrades.
    assert!(s.fails(&["docs"]).contains("older than this citestore"));
    s.json::<serde_json::Value>(&["init", "--json"]);
    let docs = s.docs();
    let summary: Vec<(&str, i64, Option<&str>, i64)> = docs
        .iter()
        .map(|d| {
            (
                d.doc_id.as_str(),
                d.latest_seq,
                d.chunking.as_deref(),
                d.chunks,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("plans.html", 1, Some("paragraph:30"), 1),
            ("policy.md", 2, Some("chars:20:4"), 3)
        ]
    );
    assert_eq!(
        count(&s.db(), "SELECT user_version FROM pragma_user_version"),
        citestore::store::MIGRATIONS.len() as i64
    );
    assert_eq!(count(&s.db(), "SELECT count(*) FROM chunkings"), 4);
    // New writes continue the fixture's history.
    s.write(
        "kb/policy.md",
        "Refunds within 7 days.\n\nCancel any time.\n",
    );
    let report = s.ingest(&["kb"]);
    let policy = &report.documents[0];
    assert_eq!((policy.doc_id.as_str(), policy.seq), ("policy.md", 3));
    assert_eq!(policy.chunking.as_ref().unwrap().spec, "chars:20:4");
}

/// `[locate]` thresholds in citestore.toml apply to `citestore locate`; flags override them.
#[test]
fn locate_thresholds_come_from_configuration() {
    let s = Scratch::new();
    s.write(
        "chunk.txt",
        "Customers on the Growth plan get 500,000 API calls each month, billed in advance.\n",
    );
    s.write("citestore.toml", "[locate]\naccept = 80\nreview = 70\n");
    let how = |extra: &[&str], config: bool| -> String {
        let mut cmd = assert_cmd::Command::cargo_bin("citestore").unwrap();
        cmd.current_dir(s.dir.path());
        if !config {
            cmd.args(["--config", "none.toml"]);
            s.write("none.toml", "");
        }
        let quote = "the Growth plan gets 500,000 API calls every month";
        let out = cmd
            .args(["locate", "--chunk", "chunk.txt", "--quote", quote, "--json"])
            .args(extra)
            .output()
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        value["how"].as_str().unwrap().to_string()
    };
    assert_eq!(how(&[], false), "review", "defaults: accept 95");
    assert_eq!(how(&[], true), "fuzzy", "configured: accept 80");
    assert_eq!(how(&["--accept", "99"], true), "review", "the flag wins");
}

/// Ingesting the folder that holds the database skips the database; symlinked files are read.
#[test]
fn walking_the_database_folder_skips_the_database() {
    if common::sqlite_only("the database file inside the walked folder") {
        return;
    }
    let s = Scratch::new();
    s.write("note.md", "a note");
    s.write("elsewhere/linked.md", "linked text");
    std::os::unix::fs::symlink(s.path("elsewhere/linked.md"), s.path("link.md")).unwrap();
    s.ingest(&["note.md"]);
    let report = s.ingest(&["."]);
    let ids: Vec<&str> = report.documents.iter().map(|d| d.doc_id.as_str()).collect();
    assert_eq!(ids, ["elsewhere/linked.md", "link.md", "note.md"]);
    let reasons: Vec<(&str, &str)> = report
        .skipped
        .iter()
        .map(|k| (k.path.as_str(), k.reason.as_str()))
        .collect();
    assert_eq!(reasons, [("./cs.db", "the database itself")]);
}

#[test]
fn a_database_in_a_missing_folder_is_one_clear_line() {
    let s = Scratch::new();
    let out = assert_cmd::Command::cargo_bin("citestore")
        .unwrap()
        .current_dir(s.dir.path())
        .args(["--db", "no/such/folder/cs.db", "init"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr,
        "citestore: no/such/folder/cs.db: cannot open or create the database; check that its folder exists and is writable\n"
    );
}

#[test]
fn an_absurdly_large_file_is_refused_before_it_is_read() {
    let s = Scratch::new();
    s.write("docs/a.md", "Some text.\n");
    s.ingest(&["docs"]);
    let before = dump(&s.db());
    let huge = s.path("huge.txt");
    // Sparse: the size is real, the disk space is not used.
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(citestore::ingest::MAX_DOCUMENT_BYTES + 1)
        .unwrap();
    let line = s.fails(&["ingest", huge.to_str().unwrap()]);
    assert!(
        line.contains("huge.txt") && line.contains("limit for one document"),
        "{line}"
    );
    assert_eq!(dump(&s.db()), before);
}
