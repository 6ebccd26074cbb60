//! Helpers for the store's CLI tests: a scratch folder, the real binary with a fixed clock, and
//! a dump of every table to compare a database before and after a command.
#![allow(dead_code)]

use assert_cmd::Command;
use citestore::ingest::IngestReport;
use citestore::model::DocumentSummary;
use rusqlite::types::ValueRef;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Output;

pub(crate) const NOW: &str = "2026-01-02T03:04:05Z";

/// A scratch folder with a database inside it: the file `cs.db`, or, when the tests run
/// against PostgreSQL (`CITESTORE_TEST_PG`, the URL of a server's database, set by
/// tests/run.sh), a fresh database of its own on that server.
pub(crate) struct Scratch {
    pub dir: tempfile::TempDir,
    pub url: Option<String>,
}

/// The test server, `CITESTORE_TEST_PG` (a PostgreSQL URL; tests/run.sh starts a throwaway
/// cluster and sets it). Missing under `CI=true` is a failure; elsewhere the caller's test
/// says it did not run.
pub(crate) fn postgres_server() -> Option<String> {
    let url = std::env::var("CITESTORE_TEST_PG")
        .ok()
        .filter(|url| !url.is_empty());
    if url.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CITESTORE_TEST_PG is not set under CI=true: run the tests with `bash tests/run.sh`, \
             which starts a PostgreSQL cluster (apt-get install postgresql)"
        );
        eprintln!("note: CITESTORE_TEST_PG is not set; this PostgreSQL test did not run");
    }
    url
}

/// The server the store tests run against: `CITESTORE_TEST_BACKEND=postgres` runs every
/// [`Scratch`] on a fresh database of [`postgres_server`] (the second pass of tests/run.sh);
/// otherwise SQLite files.
pub(crate) fn postgres_base() -> Option<String> {
    if std::env::var("CITESTORE_TEST_BACKEND").as_deref() != Ok("postgres") {
        return None;
    }
    Some(postgres_server().expect("CITESTORE_TEST_BACKEND=postgres needs CITESTORE_TEST_PG"))
}

/// True on the PostgreSQL pass, for a test about SQLite files themselves (a fixture file, file
/// modes, a copy made with VACUUM INTO): it says so here, in the test, and prints why it did not
/// run there. Its PostgreSQL twin, where one is needed, is in postgres_cli or shard_cli.
pub(crate) fn sqlite_only(about: &str) -> bool {
    let on_postgres = postgres_base().is_some();
    if on_postgres {
        eprintln!("note: this test is about SQLite files ({about}); not run on PostgreSQL");
    }
    on_postgres
}

/// `base` (`postgresql://…/DB?…`) with its database name replaced by `name`.
pub(crate) fn with_database(base: &str, name: &str) -> String {
    let (scheme, rest) = base.split_once("://").expect("a URL");
    let slash = rest.find('/').expect("a URL with a database name");
    let query = rest[slash..].find('?').map_or("", |q| &rest[slash + q..]);
    format!("{scheme}://{}/{name}{query}", &rest[..slash])
}

/// A new, empty database on the test server; its URL.
pub(crate) fn new_postgres_database(base: &str) -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "t_{}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    );
    let mut admin = postgres::Client::connect(base, postgres::NoTls)
        .unwrap_or_else(|e| panic!("CITESTORE_TEST_PG={base}: {e}"));
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    with_database(base, &name)
}

impl Scratch {
    pub(crate) fn new() -> Scratch {
        Scratch {
            dir: tempfile::tempdir().unwrap(),
            url: postgres_base().map(|base| new_postgres_database(&base)),
        }
    }

    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub(crate) fn db(&self) -> PathBuf {
        match &self.url {
            Some(url) => PathBuf::from(url),
            None => self.path("cs.db"),
        }
    }

    /// Writes a file (creating folders).
    pub(crate) fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// The binary, run in the scratch folder against its database, with a fixed clock.
    pub(crate) fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("citestore").unwrap();
        cmd.current_dir(self.dir.path())
            .env("CITESTORE_NOW", NOW)
            .env_remove("CITESTORE_DB")
            .arg("--db")
            .arg(self.db());
        cmd
    }

    /// [`Scratch::cmd`] as a `std::process::Command`, for a process run in the background.
    pub(crate) fn spawnable(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("citestore"));
        cmd.current_dir(self.dir.path())
            .env("CITESTORE_NOW", NOW)
            .env_remove("CITESTORE_DB")
            .arg("--db")
            .arg(self.db());
        cmd
    }

    /// Runs `args`, expects success (the panic names `args` and shows stderr); returns stdout.
    pub(crate) fn succeeds(&self, args: &[&str]) -> String {
        let out = self.cmd().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{args:?}: stdout: {e}"))
    }

    /// Runs `args`, expects success, parses stdout as JSON.
    pub(crate) fn json<T: for<'de> Deserialize<'de>>(&self, args: &[&str]) -> T {
        let stdout = self.succeeds(args);
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"))
    }

    pub(crate) fn ingest(&self, args: &[&str]) -> IngestReport {
        let mut all = vec!["ingest", "--json"];
        all.extend_from_slice(args);
        self.json(&all)
    }

    pub(crate) fn docs(&self) -> Vec<DocumentSummary> {
        self.json::<Docs>(&["docs", "--json"]).documents
    }

    /// Runs `args`, expects exit 2 and one line on stderr; returns that line.
    pub(crate) fn fails(&self, args: &[&str]) -> String {
        self.fails_with_env("CITESTORE_NOW", NOW, args)
    }

    /// [`Scratch::fails`] with one environment variable set.
    pub(crate) fn fails_with_env(&self, key: &str, value: &str, args: &[&str]) -> String {
        let out = self.cmd().env(key, value).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed {:?}", out.stdout);
        assert_eq!(
            stderr.lines().count(),
            1,
            "{args:?}: not one line: {stderr:?}"
        );
        stderr.trim_end().to_string()
    }
}

/// Runs `cmd` (one [`Scratch::cmd`] given an environment, stdin or another setting that
/// [`Scratch::succeeds`] cannot), expects success (the panic names the arguments and shows
/// stderr); returns its output.
pub(crate) fn succeeded(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{:?} failed ({}): {}",
        cmd.get_args().collect::<Vec<_>>(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What `docs --json` prints.
#[derive(Debug, Deserialize)]
pub(crate) struct Docs {
    pub documents: Vec<DocumentSummary>,
}

/// Every row of every table (and the schema version), as text, for before/after comparisons.
pub(crate) fn dump(db: &Path) -> Vec<String> {
    if citestore::store::is_postgres(db) {
        return dump_postgres(&db.to_string_lossy());
    }
    let conn = rusqlite::Connection::open(db).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    let mut out = vec![format!("user_version={version}")];
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for table in tables {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM \"{table}\" ORDER BY rowid"))
            .unwrap();
        let columns = stmt.column_count();
        let mut rows = stmt.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            let cells: Vec<String> = (0..columns)
                .map(|i| match row.get_ref(i).unwrap() {
                    ValueRef::Null => "NULL".to_string(),
                    ValueRef::Integer(n) => n.to_string(),
                    ValueRef::Real(x) => x.to_string(),
                    ValueRef::Text(t) => format!("{:?}", String::from_utf8_lossy(t)),
                    ValueRef::Blob(b) => format!("{b:?}"),
                })
                .collect();
            out.push(format!("{table}: {}", cells.join(" | ")));
        }
    }
    out
}

/// [`dump`] of a PostgreSQL database: the same lines, in the same order (rows by id).
fn dump_postgres(url: &str) -> Vec<String> {
    let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let version: i64 = client
        .query_opt(
            "SELECT version FROM citestore_schema WHERE to_regclass('citestore_schema') IS NOT NULL",
            &[],
        )
        .ok()
        .flatten()
        .map_or(0, |r| r.get(0));
    let mut out = vec![format!("user_version={version}")];
    let mut tables: Vec<String> = client
        .query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = \
             current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'citestore_schema'",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    tables.sort();
    for table in tables {
        let has_id = !client
            .query(
                "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() \
                 AND table_name = $1 AND column_name = 'id'",
                &[&table],
            )
            .unwrap()
            .is_empty();
        let order = if has_id { "id" } else { "1, 2" };
        let rows = client
            .query(&format!("SELECT * FROM \"{table}\" ORDER BY {order}"), &[])
            .unwrap();
        for row in rows {
            use postgres::types::Type;
            let cells: Vec<String> = (0..row.len())
                .map(|i| match *row.columns()[i].type_() {
                    Type::INT8 => row
                        .get::<_, Option<i64>>(i)
                        .map_or("NULL".into(), |n| n.to_string()),
                    Type::FLOAT8 => row
                        .get::<_, Option<f64>>(i)
                        .map_or("NULL".into(), |x| x.to_string()),
                    _ => row
                        .get::<_, Option<String>>(i)
                        .map_or("NULL".into(), |t| format!("{t:?}")),
                })
                .collect();
            out.push(format!("{table}: {}", cells.join(" | ")));
        }
    }
    out
}

/// The text columns of the first row of `sql`, on either backend.
pub(crate) fn row_texts(db: &Path, sql: &str) -> Vec<String> {
    if citestore::store::is_postgres(db) {
        let mut client = postgres::Client::connect(&db.to_string_lossy(), postgres::NoTls).unwrap();
        let row = client.query_one(sql, &[]).unwrap();
        return (0..row.len()).map(|i| row.get(i)).collect();
    }
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare(sql).unwrap();
    let columns = stmt.column_count();
    stmt.query_row([], |r| (0..columns).map(|i| r.get(i)).collect())
        .unwrap()
}

/// Every row of `sql` as text, on either backend (the query casts non-text columns with
/// `CAST(… AS TEXT)`, which both backends read).
pub(crate) fn rows(db: &Path, sql: &str) -> Vec<Vec<String>> {
    if citestore::store::is_postgres(db) {
        let mut client = postgres::Client::connect(&db.to_string_lossy(), postgres::NoTls).unwrap();
        return client
            .query(sql, &[])
            .unwrap()
            .iter()
            .map(|row| (0..row.len()).map(|i| row.get(i)).collect())
            .collect();
    }
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare(sql).unwrap();
    let columns = stmt.column_count();
    stmt.query_map([], |r| (0..columns).map(|i| r.get(i)).collect())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A command run under GNU time (`/usr/bin/time -f %M`), for its own peak resident set: a
/// process forked from this test binary keeps the binary's high-water mark across `exec`
/// (Linux carries `maxrss` over), so `wait4` on it would report whatever the other tests held
/// at that moment (258 MiB once, for a command that peaks at 30); GNU time's child is forked
/// from GNU time. Set stdio and limits on [`Timed::cmd`]; its exit code is the command's.
pub(crate) struct Timed {
    pub cmd: std::process::Command,
    report: tempfile::NamedTempFile,
}

impl Timed {
    /// `cmd` (its program, arguments, environment and folder) under GNU time.
    pub(crate) fn new(cmd: &std::process::Command) -> Timed {
        let report = tempfile::NamedTempFile::new().unwrap();
        let mut timed = std::process::Command::new("/usr/bin/time");
        timed
            .args(["-f", "%M", "-o"])
            .arg(report.path())
            .arg(cmd.get_program())
            .args(cmd.get_args());
        if let Some(dir) = cmd.get_current_dir() {
            timed.current_dir(dir);
        }
        for (key, value) in cmd.get_envs() {
            match value {
                Some(value) => timed.env(key, value),
                None => timed.env_remove(key),
            };
        }
        Timed { cmd: timed, report }
    }

    /// The command's peak resident set in KiB, once it has exited.
    pub(crate) fn peak_kib(&self) -> i64 {
        std::fs::read_to_string(self.report.path())
            .unwrap()
            .lines()
            .last()
            .and_then(|l| l.trim().parse().ok())
            .expect("GNU time's %M (Debian's `time`; tests/run.sh installs it)")
    }
}

/// Exit code and peak resident set (bytes) of `cmd`, with its stderr ([`Timed`]).
pub(crate) fn peak_rss(cmd: std::process::Command) -> (Option<i32>, i64, String) {
    let mut timed = Timed::new(&cmd);
    let out = timed
        .cmd
        .stdout(std::process::Stdio::null())
        .output()
        .expect("/usr/bin/time (Debian's `time`; tests/run.sh installs it)");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), timed.peak_kib() * 1024, stderr)
}

/// The counts `health` reads (kept by the writes, migration 0013) equal the counts of every
/// citation's current state, document by document and status by status.
pub(crate) fn assert_counts_agree(db: &Path) {
    let kept = rows(
        db,
        "SELECT doc_id, status, CAST(n AS TEXT) FROM citation_counts WHERE n <> 0 \
         ORDER BY doc_id, status",
    );
    let read = rows(
        db,
        "SELECT doc_id, status, CAST(count(*) AS TEXT) FROM citation_status \
         GROUP BY doc_id, status ORDER BY doc_id, status",
    );
    assert_eq!(
        kept, read,
        "the kept counts are every citation's current state"
    );
}

/// One SQL count, for checks the JSON does not show (chunkings kept, revisions of a document).
pub(crate) fn count(db: &Path, sql: &str) -> i64 {
    if citestore::store::is_postgres(db) {
        let mut client = postgres::Client::connect(&db.to_string_lossy(), postgres::NoTls).unwrap();
        return client.query_one(sql, &[]).unwrap().get(0);
    }
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// A one-page PDF whose text breaks "subscription" across two lines with a hyphen.
pub(crate) fn hyphenated_pdf() -> Vec<u8> {
    pdf_with_lines("The sub-", "scription rate is fixed.")
}

/// A one-page PDF of two lines of (ASCII, unescaped) text.
pub(crate) fn pdf_with_lines(first: &str, second: &str) -> Vec<u8> {
    let stream = format!("BT /F1 12 Tf 72 720 Td ({first}) Tj 0 -16 Td ({second}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
        format!("<< /Length {} >>\nstream\n{stream}\nendstream", stream.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    pdf_from_objects(&objects)
}

/// A PDF file of `objects` (numbered from 1, the catalog first), with its cross-reference table.
pub(crate) fn pdf_from_objects(objects: &[String]) -> Vec<u8> {
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend(format!("{} 0 obj\n{body}\nendobj\n", i + 1).bytes());
    }
    let xref = pdf.len();
    pdf.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for offset in offsets {
        pdf.extend(format!("{offset:010} 00000 n \n").bytes());
    }
    pdf.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    pdf
}

/// Whether `tool` runs here. Missing under `CI=true` is a failure (CI installs `package`);
/// elsewhere the test says what it skipped.
pub(crate) fn have_tool(tool: &str, package: &str) -> bool {
    let found = std::process::Command::new(tool).arg("-v").output().is_ok();
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{tool} is missing under CI=true: install {package} (apt-get install {package})"
        );
        eprintln!("note: {tool} ({package}) is not installed; this test did not run");
    }
    found
}

/// A file of the repository.
pub(crate) fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

impl Scratch {
    /// Cites `claims` (emit_answer claim objects) against `context_id` through `cite`, the
    /// answer written to `answer` (a path in the scratch folder).
    pub(crate) fn cite_claims(&self, answer: &str, context_id: &str, claims: &[serde_json::Value]) {
        let answer = self.write(answer, serde_json::json!({ "claims": claims }).to_string());
        self.succeeds(&["cite", "--context", context_id, answer.to_str().unwrap()]);
    }

    /// Records the context of every chunk of `docs`, in order; its id.
    pub(crate) fn context(&self, docs: &[&str]) -> String {
        let mut args = vec!["context"];
        for doc in docs {
            args.extend(["--doc", doc]);
        }
        args.push("--json");
        self.json::<citestore::cli::json::ContextOutput>(&args)
            .context
    }
}

/// The bundled example's two documents copied into a scratch store, ingested with
/// `paragraph:150`, and their context recorded (`ctx-504cd163e2ad`), nothing cited yet.
pub(crate) fn example_context() -> Scratch {
    let s = Scratch::new();
    for name in ["rate-card.md", "plans.md"] {
        s.write(
            &format!("docs/{name}"),
            std::fs::read(repo("fixtures/cite/docs").join(name)).unwrap(),
        );
    }
    s.ingest(&["docs", "--chunker", "paragraph:150"]);
    s.succeeds(&["context", "--doc", "rate-card.md", "--doc", "plans.md"]);
    s
}

/// The citing example in a scratch folder: both documents of `fixtures/cite/docs` copied to
/// `docs/` (the test may replace them), ingested with `paragraph:150`, and the bundled answer
/// cited against its context.
pub(crate) fn cited_example() -> Scratch {
    let s = example_context();
    let answer = repo("fixtures/cite/answer.json");
    s.succeeds(&[
        "cite",
        "--context",
        "ctx-504cd163e2ad",
        answer.to_str().unwrap(),
    ]);
    s
}

/// Version 2 of the example's documents (`fixtures/demo/v2`) replaces version 1 on disk.
pub(crate) fn swap_in_version_2(s: &Scratch) {
    for name in ["rate-card.md", "plans.md"] {
        s.write(
            &format!("docs/{name}"),
            std::fs::read(repo("fixtures/demo/v2").join(name)).unwrap(),
        );
    }
}

/// A corpus of `docs` generated Markdown documents in `docs/` (sentences numbered, so each
/// occurs once), ingested with `paragraph:400`, and `per_doc` citations of each made through
/// `context` and `cite`, one answer per document.
pub(crate) fn cited_corpus(s: &Scratch, docs: usize, per_doc: usize) {
    let words = [
        "plan",
        "calls",
        "month",
        "overage",
        "rate",
        "customers",
        "cancel",
        "refunds",
        "uptime",
        "credit",
        "support",
        "region",
        "storage",
        "limits",
        "apply",
        "tickets",
    ];
    let mut k: u64 = 7;
    for d in 0..docs {
        let mut text = format!("# Document {d}\n\n");
        let mut n = 0;
        while text.len() < 3600 {
            for _ in 0..4 {
                n += 1;
                let sentence: Vec<&str> = (0..8)
                    .map(|_| {
                        k = k
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        words[(k >> 33) as usize % words.len()]
                    })
                    .collect();
                text.push_str(&format!("Item {d}.{n}: {}. ", sentence.join(" ")));
            }
            text.push_str("\n\n");
        }
        s.write(&format!("docs/d{d:03}.md"), text);
    }
    s.ingest(&["docs", "--chunker", "paragraph:400"]);
    for d in 0..docs {
        let doc = format!("d{d:03}.md");
        let context: serde_json::Value = s.json(&["context", "--doc", &doc, "--json"]);
        let chunks = context["chunks"].as_array().unwrap();
        let mut claims = Vec::new();
        for i in 0..per_doc {
            // The i-th sentence of the document, cited from the chunk that holds it.
            let n = i * 3 % 40 + 1;
            let prefix = format!("Item {d}.{n}: ");
            let chunk = chunks
                .iter()
                .find(|c| c["text"].as_str().unwrap().contains(&prefix))
                .unwrap_or_else(|| panic!("no chunk holds {prefix}"));
            let text = chunk["text"].as_str().unwrap();
            let start = text.find(&prefix).unwrap();
            let end = start + text[start..].find(". ").unwrap() + 1;
            claims.push(serde_json::json!({
                "text": format!("claim {d}/{i}"),
                "evidence": [{"chunk_id": chunk["label"], "quote": &text[start..end]}],
            }));
        }
        s.cite_claims(
            &format!("answers/{doc}.json"),
            context["context"].as_str().unwrap(),
            &claims,
        );
    }
}

/// Revises every `every`-th document of [`cited_corpus`] on disk: a paragraph inserted at the
/// top, one cited sentence deleted, one re-worded; and removes document 1 (its source missing).
pub(crate) fn revise_corpus(s: &Scratch, docs: usize, every: usize) {
    for d in (0..docs).step_by(every) {
        let path = s.path(&format!("docs/d{d:03}.md"));
        let text = std::fs::read_to_string(&path).unwrap();
        let mut out = text.replacen("\n\n", "\n\nA paragraph added above everything.\n\n", 1);
        // Sentence 4 is cited (n = 3i % 40 + 1 for i = 1) and deleted; 7 (i = 2) re-worded.
        let gone = format!("Item {d}.4: ");
        if let Some(at) = out.find(&gone) {
            let end = at + out[at..].find(". ").unwrap() + 2;
            out.replace_range(at..end, "");
        }
        out = out.replacen(
            &format!("Item {d}.7: "),
            &format!("Item {d}.7 (revised): "),
            1,
        );
        std::fs::write(&path, out).unwrap();
    }
    std::fs::remove_file(s.path("docs/d001.md")).unwrap();
}

/// `export`'s lines.
pub(crate) fn export(s: &Scratch) -> Vec<String> {
    s.succeeds(&["export"])
        .lines()
        .map(str::to_string)
        .collect()
}

/// The names in a folder, sorted (to compare a folder before and after a command).
pub(crate) fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
