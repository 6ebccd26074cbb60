//! Two processes: `docs --json` in a loop while a large ingest writes. WAL lets the reader go
//! on; it must never see "database is locked", and never a half-written ingest (the ingest is
//! one transaction, so a reader sees all of it or none).

mod common;

use common::{Docs, Scratch};
use std::process::{Command, Stdio};

const DOCS: usize = 1500;

fn write_corpus(s: &Scratch) {
    let words = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    ];
    for i in 0..DOCS {
        let mut text = String::with_capacity(5200);
        let mut k = i;
        while text.len() < 5000 {
            for _ in 0..40 {
                k = k
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(words[(k >> 33) % words.len()]);
                text.push(' ');
            }
            text.push_str("\n\n");
        }
        s.write(&format!("big/d{i:05}.md"), text);
    }
}

#[test]
fn reader_never_locked_out_by_a_large_ingest() {
    let s = Scratch::new();
    s.write("seed.md", "the only document before the big ingest");
    s.ingest(&["seed.md"]);
    write_corpus(&s);

    let writer = Command::new(assert_cmd::cargo::cargo_bin("citestore"))
        .current_dir(s.dir.path())
        .env_remove("CITESTORE_DB")
        .args([
            "--db",
            "cs.db",
            "ingest",
            "big",
            "--chunker",
            "chars:100:20",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut writer = writer;
    let mut reads_during_write = 0;
    let mut seen = std::collections::BTreeSet::new();
    loop {
        let out = s.cmd().args(["docs", "--json"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "reader failed: {stderr}");
        assert!(!stderr.contains("locked"), "{stderr}");
        let docs: Docs = serde_json::from_slice(&out.stdout).unwrap();
        seen.insert(docs.documents.len());
        if writer.try_wait().unwrap().is_some() {
            break;
        }
        reads_during_write += 1;
    }
    eprintln!("{reads_during_write} reads overlapped the ingest; document counts seen: {seen:?}");
    let status = writer.wait_with_output().unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    assert!(
        reads_during_write >= 3,
        "only {reads_during_write} reads overlapped the ingest; make the corpus bigger"
    );
    // Every read saw the store before the ingest or after it, never in between.
    assert!(seen.iter().all(|&n| n == 1 || n == DOCS + 1), "{seen:?}");
    assert_eq!(s.docs().len(), DOCS + 1);
}
