//! Helpers for the store's CLI tests: a scratch folder, the real binary with a fixed clock, and
//! a dump of every table to compare a database before and after a command.
#![allow(dead_code)]

use assert_cmd::Command;
use citestore::ingest::IngestReport;
use citestore::model::DocumentSummary;
use rusqlite::types::ValueRef;
use serde::Deserialize;
use std::path::{Path, PathBuf};

pub const NOW: &str = "2026-01-02T03:04:05Z";

/// A scratch folder with a database path inside it.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn db(&self) -> PathBuf {
        self.path("cs.db")
    }

    /// Writes a file (creating folders).
    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// The binary, run in the scratch folder against its database, with a fixed clock.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("citestore").unwrap();
        cmd.current_dir(self.dir.path())
            .env("CITESTORE_NOW", NOW)
            .env_remove("CITESTORE_DB")
            .arg("--db")
            .arg(self.db());
        cmd
    }

    /// Runs `args`, expects success, parses stdout as JSON.
    pub fn json<T: for<'de> Deserialize<'de>>(&self, args: &[&str]) -> T {
        let out = self.cmd().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
    }

    pub fn ingest(&self, args: &[&str]) -> IngestReport {
        let mut all = vec!["ingest", "--json"];
        all.extend_from_slice(args);
        self.json(&all)
    }

    pub fn docs(&self) -> Vec<DocumentSummary> {
        self.json::<Docs>(&["docs", "--json"]).documents
    }

    /// Runs `args`, expects exit 2 and one line on stderr; returns that line.
    pub fn fails(&self, args: &[&str]) -> String {
        self.fails_with_env("CITESTORE_NOW", NOW, args)
    }

    /// [`Scratch::fails`] with one environment variable set.
    pub fn fails_with_env(&self, key: &str, value: &str, args: &[&str]) -> String {
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

/// What `docs --json` prints.
#[derive(Debug, Deserialize)]
pub struct Docs {
    pub documents: Vec<DocumentSummary>,
}

/// Every row of every table (and the schema version), as text, for before/after comparisons.
pub fn dump(db: &Path) -> Vec<String> {
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

/// One SQL count, for checks the JSON does not show (chunkings kept, revisions of a document).
pub fn count(db: &Path, sql: &str) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// A one-page PDF whose text breaks "subscription" across two lines with a hyphen.
pub fn hyphenated_pdf() -> Vec<u8> {
    pdf_with_lines("The sub-", "scription rate is fixed.")
}

/// A one-page PDF of two lines of (ASCII, unescaped) text.
pub fn pdf_with_lines(first: &str, second: &str) -> Vec<u8> {
    let stream = format!("BT /F1 12 Tf 72 720 Td ({first}) Tj 0 -16 Td ({second}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
        format!("<< /Length {} >>\nstream\n{stream}\nendstream", stream.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
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
pub fn have_tool(tool: &str, package: &str) -> bool {
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
pub fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The citing example in a scratch folder: both documents of `fixtures/cite/docs` copied to
/// `docs/` (the test may replace them), ingested with `paragraph:150`, and the bundled answer
/// cited against its context.
pub fn cited_example() -> Scratch {
    let s = Scratch::new();
    for name in ["rate-card.md", "plans.md"] {
        s.write(
            &format!("docs/{name}"),
            std::fs::read(repo("fixtures/cite/docs").join(name)).unwrap(),
        );
    }
    s.ingest(&["docs", "--chunker", "paragraph:150"]);
    let out = s
        .cmd()
        .args(["context", "--doc", "rate-card.md", "--doc", "plans.md"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = s
        .cmd()
        .args(["cite", "--context", "ctx-504cd163e2ad"])
        .arg(repo("fixtures/cite/answer.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    s
}

/// Version 2 of the example's documents (`fixtures/demo/v2`) replaces version 1 on disk.
pub fn swap_in_version_2(s: &Scratch) {
    for name in ["rate-card.md", "plans.md"] {
        s.write(
            &format!("docs/{name}"),
            std::fs::read(repo("fixtures/demo/v2").join(name)).unwrap(),
        );
    }
}
