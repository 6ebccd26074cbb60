//! Bad input through the real binary: each case is a one-line error on stderr, exit 2, nothing
//! on stdout, and the database bytes and the folder's listing exactly as before.

use crate::common;

use common::Scratch;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

/// Every entry under `dir` (recursively): path → sha256 of a file's bytes, `dir`, or where a
/// symbolic link points. A new `-wal` or `-shm`, a changed byte anywhere, shows up here.
fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).min_depth(1).sort_by_file_name() {
        let entry = entry.unwrap();
        let rel = entry
            .path()
            .strip_prefix(dir)
            .unwrap()
            .display()
            .to_string();
        let kind = entry.file_type();
        let what = if kind.is_symlink() {
            format!(
                "link {}",
                std::fs::read_link(entry.path()).unwrap().display()
            )
        } else if kind.is_dir() {
            "dir".to_string()
        } else {
            let bytes = std::fs::read(entry.path()).unwrap();
            format!("{:x}", Sha256::digest(&bytes))
        };
        out.insert(rel, what);
    }
    out
}

/// The chunked documents of the citing fixture, a context over them; returns the context id.
fn cited_store(s: &Scratch) -> String {
    for name in ["rate-card.md", "plans.md"] {
        let text = std::fs::read(format!("fixtures/cite/docs/{name}")).unwrap();
        s.write(&format!("docs/{name}"), text);
    }
    s.ingest(&["docs", "--chunker", "paragraph:150"]);
    let context: serde_json::Value = s.json(&[
        "context",
        "--doc",
        "rate-card.md",
        "--doc",
        "plans.md",
        "--json",
    ]);
    context["context"].as_str().unwrap().to_string()
}

/// A store with documents and a context, plus answer files for the citing cases.
fn store(s: &Scratch) -> String {
    let context = cited_store(s);
    let answer = |quote: &str| {
        serde_json::json!({"claims": [{"text": "a claim", "evidence": [
            {"chunk_id": "8k34", "quote": quote}]}]})
        .to_string()
    };
    s.write("blank.json", answer(" \u{200B}\n\t"));
    s.write("spaces.json", answer("   "));
    s.write("good.json", answer("overage $0.20 per 1,000 calls"));
    s.write("positional-claim.json", r#"{"claims": [["a claim", []]]}"#);
    s.write(
        "positional-evidence.json",
        r#"{"claims": [{"text": "a claim", "evidence": [["8k34", "overage $0.20 per 1,000 calls"]]}]}"#,
    );
    s.write("positional-answer.json", r#"[[]]"#);
    s.write("note.txt", "a note\n");
    s.write("chunk.txt", "Growth includes 500,000 calls a month.\n");
    context
}

/// A 0-byte database file.
fn empty_file(s: &Scratch) -> String {
    std::fs::write(s.db(), b"").unwrap();
    s.write("docs/a.md", "alpha\n");
    String::new()
}

/// Another program's SQLite file (one table `foo`).
fn foreign(s: &Scratch) -> String {
    let conn = rusqlite::Connection::open(s.db()).unwrap();
    conn.execute_batch("CREATE TABLE foo (x); INSERT INTO foo VALUES (42);")
        .unwrap();
    drop(conn);
    s.write("docs/a.md", "alpha\n");
    String::new()
}

/// A citestore database of schema version 1 (as migration 0001 left it).
fn older(s: &Scratch) -> String {
    let conn = rusqlite::Connection::open(s.db()).unwrap();
    conn.execute_batch(include_str!("../fixtures/store/schema-v1.sql"))
        .unwrap();
    drop(conn);
    String::new()
}

/// No database yet, and a folder whose second file stops an ingest (not UTF-8).
fn no_database(s: &Scratch) -> String {
    s.write("docs/a.md", "alpha\n");
    s.write("docs/b.txt", b"caf\xe9\n");
    s.write("note.txt", "a note\n");
    String::new()
}

/// A `[locate]` configuration with these cut-offs, over a store.
/// The store, and a citestore.toml whose one source pattern holds a line break and an unclosed
/// class (the config fuzz target's find: its error was two lines).
fn broken_pattern(s: &Scratch) -> String {
    let context = store(s);
    s.write(
        "citestore.toml",
        "[[sources]]\nroot = \"d\"\npatterns = [\"a[\\nb\"]\n",
    );
    context
}

fn config(accept: &str, review: &str) -> impl Fn(&Scratch) -> String {
    let toml = format!("[locate]\naccept = {accept}\nreview = {review}\n");
    move |s: &Scratch| {
        let context = store(s);
        s.write("citestore.toml", &toml);
        context
    }
}

type Setup = Box<dyn Fn(&Scratch) -> String>;

/// (setup, args with `{ctx}` for the setup's context id, a fragment stderr must hold).
fn cases() -> Vec<(&'static str, Setup, Vec<String>, &'static str)> {
    let mut cases: Vec<(&str, Setup, Vec<&str>, &str)> = Vec::new();
    let reading: [&[&str]; 5] = [
        &["docs"],
        &["health"],
        &["export"],
        &["list", "--status", "lost"],
        &["show", "c-000000000000"],
    ];
    for args in reading {
        cases.push((
            "empty file",
            Box::new(empty_file),
            args.to_vec(),
            "cs.db is not a citestore database (no citestore schema); run `citestore init` or name the right --db",
        ));
        cases.push((
            "foreign",
            Box::new(foreign),
            args.to_vec(),
            "cs.db is not a citestore database (no citestore schema; it holds another program's tables: foo)",
        ));
        cases.push((
            "older",
            Box::new(older),
            args.to_vec(),
            "database schema version 1 is older than this citestore",
        ));
    }
    let more: Vec<(&str, Setup, Vec<&str>, &str)> = vec![
        // Writing commands never adopt another program's file, nor a 0-byte one.
        ("foreign", Box::new(foreign), vec!["init"], "it holds another program's tables: foo"),
        ("foreign", Box::new(foreign), vec!["ingest", "docs"], "citestore init --force"),
        ("foreign", Box::new(foreign), vec!["sweep"], "it holds another program's tables: foo"),
        ("empty file", Box::new(empty_file), vec!["chunk", "--chunker", "chars:10:0"], "is not a citestore database"),
        ("empty file", Box::new(empty_file), vec!["sweep"], "is not a citestore database"),
        // A failing ingest into a new database leaves no file.
        ("no database", Box::new(no_database), vec!["ingest", "docs"], "not valid UTF-8 at byte 3"),
        (
            "no database",
            Box::new(no_database),
            vec!["ingest", "note.txt", "--extract-cmd", "sh -c 'exit 3'", "--extract-version", "1"],
            "extractor `sh -c 'exit 3'` failed: exit status: 3",
        ),
        ("no database", Box::new(no_database), vec!["ingest", "note.txt", "--doc-id", " "], "doc id \" \": is only whitespace"),
        // Doc ids.
        ("store", Box::new(store), vec!["ingest", "note.txt", "--doc-id", ""], "doc id \"\": is empty"),
        ("store", Box::new(store), vec!["ingest", "note.txt", "--doc-id", " \t "], "is only whitespace"),
        ("store", Box::new(store), vec!["ingest", "note.txt", "--doc-id", "a\nb"], "holds the control character U+000A at char 1"),
        ("store", Box::new(store), vec!["ingest", "note.txt", "--doc-id", "a\u{7}"], "holds the control character U+0007"),
        // Quotes with no visible characters.
        ("store", Box::new(store), vec!["locate", "--chunk", "chunk.txt", "--quote", "   "], "the quote is empty or has no visible characters"),
        ("store", Box::new(store), vec!["locate", "--chunk", "chunk.txt", "--quote", "\u{200B}\u{00AD}"], "has no visible characters"),
        ("store", Box::new(store), vec!["cite", "--context", "{ctx}", "blank.json"], "claims[0].evidence[0].quote: the quote has no visible characters"),
        ("store", Box::new(store), vec!["cite", "--context", "{ctx}", "spaces.json"], "claims[0].evidence[0].quote: the quote has no visible characters"),
        // Cut-offs.
        ("store", Box::new(store), vec!["locate", "--chunk", "chunk.txt", "--quote", "Growth", "--accept", "150"], "--accept 150 is not a score from 0 to 100"),
        ("store", Box::new(store), vec!["locate", "--chunk", "chunk.txt", "--quote", "Growth", "--accept", "NaN"], "--accept NaN is not a score from 0 to 100"),
        ("store", Box::new(store), vec!["locate", "--chunk", "chunk.txt", "--quote", "Growth", "--review=-1"], "--review -1 is not a score from 0 to 100"),
        ("store", Box::new(store), vec!["locate", "--chunk", "chunk.txt", "--quote", "Growth", "--review", "NaN"], "--review NaN is not a score"),
        ("store", Box::new(store), vec!["locate", "--chunk", "chunk.txt", "--quote", "Growth", "--review", "96"], "--review 96 is above [locate] accept 95"),
        ("[locate] accept = nan", Box::new(config("nan", "85")), vec!["locate", "--chunk", "chunk.txt", "--quote", "Growth"], "[locate] accept NaN is not a score from 0 to 100"),
        ("[locate] accept = 150", Box::new(config("150", "85")), vec!["cite", "--context", "{ctx}", "good.json"], "[locate] accept 150 is not a score from 0 to 100"),
        ("[locate] accept = inf", Box::new(config("inf", "85")), vec!["cite", "--context", "{ctx}", "good.json"], "[locate] accept inf is not a score"),
        ("pattern with a line break", Box::new(broken_pattern), vec!["docs"], "citestore.toml: [[sources]] pattern \"a[\\nb\": unclosed character class"),
        ("store", Box::new(store), vec!["verify", "--all", "--accept", "NaN"], "--accept NaN (or [verify] accept) must be a confidence from 0 to 1"),
        // An unknown document.
        ("store", Box::new(store), vec!["list", "--status", "lost", "--doc", "nope.md"], "document \"nope.md\" is not in the store"),
        ("store", Box::new(store), vec!["sweep", "--doc", "nope.md"], "document \"nope.md\" is not in the store"),
        // Positional arrays where the schema requires objects.
        ("store", Box::new(store), vec!["cite", "--context", "{ctx}", "positional-claim.json"], "claims[0]: an array where the schema requires an object"),
        ("store", Box::new(store), vec!["cite", "--context", "{ctx}", "positional-evidence.json"], "claims[0].evidence[0]: an array where the schema requires an object"),
        ("store", Box::new(store), vec!["cite", "--context", "{ctx}", "positional-answer.json"], "$: an array where the schema requires an object"),
        // An OS error, said once.
        ("store", Box::new(store), vec!["locate", "--chunk", "docs", "--quote", "Growth"], "reading --chunk: "),
        ("store", Box::new(store), vec!["cite", "--context", "{ctx}", "docs"], "docs: Is a directory (os error 21)"),
        // An extractor's real error line, not its first warning.
        (
            "store",
            Box::new(store),
            vec![
                "ingest", "note.txt", "--extract-version", "1", "--extract-cmd",
                "sh -c 'echo \"Syntax Warning: first\" >&2; echo \"Syntax Error: the reason\" >&2; echo \"Syntax Warning: last\" >&2; exit 1'",
            ],
            "exit status: 1 (Syntax Error: the reason)",
        ),
    ];
    cases.extend(more);
    cases
        .into_iter()
        .map(|(name, setup, args, want)| {
            (
                name,
                setup,
                args.into_iter().map(String::from).collect(),
                want,
            )
        })
        .collect()
}

#[test]
fn bad_input_is_one_line_exit_2_and_changes_nothing() {
    if common::sqlite_only("0-byte, foreign and non-SQLite database files") {
        return;
    }
    for (name, setup, args, want) in cases() {
        let s = Scratch::new();
        let context = setup(&s);
        let args: Vec<String> = args.iter().map(|a| a.replace("{ctx}", &context)).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let before = snapshot(s.dir.path());
        let line = s.fails(&args);
        assert!(line.contains(want), "{name} {args:?}: {line}");
        assert!(
            line.matches("(os error").count() <= 1,
            "{name} {args:?}: an OS error said twice: {line}"
        );
        assert_eq!(
            snapshot(s.dir.path()),
            before,
            "{name} {args:?} changed files ({line})"
        );
    }
}

#[test]
fn an_os_error_is_printed_once() {
    let s = Scratch::new();
    s.write("docs/a.md", "alpha\n");
    let line = s.fails(&["locate", "--chunk", "docs", "--quote", "alpha"]);
    assert_eq!(
        line,
        format!("citestore: reading --chunk: docs: Is a directory (os error 21)")
    );
}

#[test]
fn an_older_store_is_read_after_a_write_command_upgrades_it() {
    if common::sqlite_only("a SQLite fixture file") {
        return;
    }
    let s = Scratch::new();
    older(&s);
    let line = s.fails(&["docs"]);
    assert!(line.contains("upgrade it with `citestore init`"), "{line}");
    let init: serde_json::Value = s.json(&["init", "--json"]);
    assert_eq!(
        init["schema_version"],
        citestore::store::MIGRATIONS.len() as u64
    );
    assert_eq!(s.docs().len(), 2);
}

#[test]
fn init_force_adds_citestore_tables_beside_another_programs() {
    if common::sqlite_only("a SQLite file of another program") {
        return;
    }
    let s = Scratch::new();
    foreign(&s);
    let init: serde_json::Value = s.json(&["init", "--force", "--json"]);
    assert_eq!(
        init["schema_version"],
        citestore::store::MIGRATIONS.len() as u64
    );
    assert_eq!(common::count(&s.db(), "SELECT x FROM foo"), 42);
    s.ingest(&["docs"]);
    assert_eq!(s.docs().len(), 1);
}

#[test]
fn a_read_only_store_is_read_and_left_as_it_was() {
    if common::sqlite_only("file modes of the database file") {
        return;
    }
    let s = Scratch::new();
    s.write("docs/a.md", "alpha\n");
    s.ingest(&["docs"]);
    let mut perms = std::fs::metadata(s.db()).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(s.db(), perms.clone()).unwrap();
    let before = snapshot(s.dir.path());
    for args in [&["docs", "--json"][..], &["export"], &["health", "--json"]] {
        s.succeeds(args);
        assert_eq!(snapshot(s.dir.path()), before, "{args:?}");
    }
    assert_eq!(s.docs()[0].doc_id, "a.md");
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(s.db(), perms).unwrap();
}

#[test]
fn a_blank_quote_in_a_batch_is_a_bad_line() {
    let s = Scratch::new();
    let batch = [
        serde_json::json!({"chunk": "Growth plan", "quote": "Growth"}),
        serde_json::json!({"chunk": "Growth plan", "quote": " \u{200B} "}),
    ]
    .map(|l| l.to_string())
    .join("\n");
    s.write("batch.jsonl", batch);
    let out = s
        .cmd()
        .args(["locate", "--batch", "batch.jsonl"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["how"], "exact");
    let error = lines[1]["error"].as_str().unwrap();
    assert!(
        error.contains("line 2: the quote is empty or has no visible characters"),
        "{error}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_folder_walk_does_not_follow_a_symlink_out_of_the_folder() {
    let s = Scratch::new();
    s.write("kb/a.md", "inside text\n");
    s.write("kb/sub/b.md", "below\n");
    s.write("outside/secret.md", "secret text\n");
    let link = |target: &str, at: &str| std::os::unix::fs::symlink(target, s.path(at)).unwrap();
    link("../outside/secret.md", "kb/leak.md");
    link("../outside", "kb/leakdir");
    link("a.md", "kb/alias.md");
    link("sub", "kb/subalias");
    let report = s.ingest(&["kb"]);
    let ids: Vec<&str> = report.documents.iter().map(|d| d.doc_id.as_str()).collect();
    assert_eq!(ids, ["a.md", "alias.md", "sub/b.md", "subalias/b.md"]);
    let skipped: Vec<(&str, &str)> = report
        .skipped
        .iter()
        .map(|k| (k.path.as_str(), k.reason.as_str()))
        .collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    for ((path, reason), want) in skipped.iter().zip(["kb/leak.md", "kb/leakdir"]) {
        assert!(path.ends_with(want), "{path}");
        assert!(
            reason.contains("outside the folder; not followed"),
            "{reason}"
        );
    }
    assert_eq!(
        common::count(
            &s.db(),
            "SELECT count(*) FROM revisions WHERE text LIKE '%secret%'"
        ),
        0
    );
}

#[test]
fn a_pdf_extractor_failure_shows_its_error_not_its_first_warning() {
    if which("pdftotext").is_none() {
        panic!("pdftotext (poppler-utils) is needed for this test; install it");
    }
    let s = Scratch::new();
    s.write("broken.pdf", b"%PDF-1.4\nnot really a pdf\n");
    let before = snapshot(s.dir.path());
    let line = s.fails(&["ingest", "broken.pdf"]);
    assert!(line.contains("extractor `pdftotext` failed"), "{line}");
    // pdftotext says "Couldn't find trailer dictionary" first, the reason it gave up last.
    assert!(
        line.ends_with("(Syntax Error: Couldn't read xref table)"),
        "{line}"
    );
    assert_eq!(snapshot(s.dir.path()), before);
}

fn which(program: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|p| p.is_file())
    })
}
