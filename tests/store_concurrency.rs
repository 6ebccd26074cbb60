//! Two processes: `docs --json` in a loop while a large ingest writes. WAL lets the reader go
//! on; it must never see "database is locked", and never a half-written ingest (the ingest is
//! one transaction, so a reader sees all of it or none).

use crate::common;

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
        .arg("--db")
        .arg(s.db())
        .args(["ingest", "big", "--chunker", "chars:100:20"])
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

/// An exported line, as far as this test reads it.
#[derive(Debug, serde::Deserialize)]
struct ExportLine {
    id: String,
    status: String,
    quote: String,
}

/// An answer citing `claims` sentences of the generated document, each claim named `tag`.
fn answer(
    chunks: &[serde_json::Value],
    tag: &str,
    sentences: impl Iterator<Item = usize>,
) -> String {
    let claims: Vec<serde_json::Value> = sentences
        .map(|i| {
            let quote = sentence(i);
            let chunk = chunks
                .iter()
                .find(|c| c["text"].as_str().unwrap().contains(&quote))
                .unwrap();
            serde_json::json!({"text": format!("{tag} claim {i}"),
                "evidence": [{"chunk_id": chunk["label"], "quote": quote}]})
        })
        .collect();
    serde_json::json!({ "claims": claims }).to_string()
}

fn sentence(i: usize) -> String {
    format!(
        "Sentence {i} states that the quota is {} requests.",
        i * 7 + 3
    )
}

#[test]
fn export_during_continuous_cites_is_always_one_commit() {
    const SENTENCES: usize = 300;
    const PER_CITE: usize = 3;
    let s = Scratch::new();
    let text: String = (0..SENTENCES).map(|i| sentence(i) + "\n\n").collect();
    s.write("quota.md", text);
    s.ingest(&["quota.md", "--chunker", "paragraph:200"]);
    let context: serde_json::Value = s.json(&["context", "--doc", "quota.md", "--json"]);
    let id = context["context"].as_str().unwrap().to_string();
    let chunks = context["chunks"].as_array().unwrap().clone();
    let base = s.write("base.json", answer(&chunks, "base", 0..SENTENCES));
    s.succeeds(&["cite", "--context", &id, base.to_str().unwrap()]);

    // The writer: one `cite` after another, each committing PER_CITE new citations.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let answers: Vec<std::path::PathBuf> = (0..200)
        .map(|k| {
            let picks = (0..PER_CITE).map(|j| (k * PER_CITE + j) % SENTENCES);
            s.write(
                &format!("a{k}.json"),
                answer(&chunks, &format!("round {k}"), picks),
            )
        })
        .collect();
    let (dir, db) = (s.dir.path().to_path_buf(), s.db());
    let writer = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut cites = 0;
            for path in &answers {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                let out = Command::new(assert_cmd::cargo::cargo_bin("citestore"))
                    .current_dir(&dir)
                    .env_remove("CITESTORE_DB")
                    .arg("--db")
                    .arg(&db)
                    .args(["cite", "--context", &id])
                    .arg(path)
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "cite: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                cites += 1;
            }
            cites
        })
    };

    let mut counts = std::collections::BTreeSet::new();
    let mut previous: std::collections::HashSet<String> = Default::default();
    let mut exports = 0;
    while exports < 200 && !(exports >= 10 && counts.len() >= 3) && !writer.is_finished() {
        let out = s.cmd().arg("export").output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stderr.is_empty(),
            "export failed: {stderr}"
        );
        let lines: Vec<ExportLine> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        // Complete: the base answer and whole cites only, no citation twice, none dropped
        // from an earlier export.
        let ids: std::collections::HashSet<String> = lines.iter().map(|l| l.id.clone()).collect();
        assert_eq!(ids.len(), lines.len(), "a citation exported twice");
        assert!(lines.len() >= SENTENCES, "{} lines", lines.len());
        assert_eq!(
            (lines.len() - SENTENCES) % PER_CITE,
            0,
            "{} lines: not the store at any commit",
            lines.len()
        );
        assert!(
            previous.is_subset(&ids),
            "an export lost citations an earlier one had"
        );
        assert!(lines
            .iter()
            .all(|l| l.status == "intact" && !l.quote.is_empty()));
        counts.insert(lines.len());
        previous = ids;
        exports += 1;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let cites = writer.join().unwrap();
    eprintln!("{exports} exports during {cites} cites; line counts seen: {counts:?}");
    assert!(
        counts.len() >= 2,
        "no export overlapped a cite ({counts:?}); make the store bigger"
    );
    let last = s.cmd().arg("export").output().unwrap();
    let total = String::from_utf8(last.stdout).unwrap().lines().count();
    assert_eq!(total, SENTENCES + PER_CITE * cites);
}

/// Four `cite` writers at once, each with answers of its own and answers all four cite (the
/// idempotency race), while sweeps run: every cite and sweep succeeds, no citation is lost or
/// stored twice, and an answer cited by four writers at once is stored once. On PostgreSQL the
/// writers really run at once (unique constraints decide); on SQLite they take turns.
#[test]
fn four_writers_citing_during_sweeps_lose_and_duplicate_nothing() {
    const SENTENCES: usize = 120;
    const OWN: usize = 12;
    const SHARED: usize = 4;
    const PER_ANSWER: usize = 3;
    let s = Scratch::new();
    let text: String = (0..SENTENCES).map(|i| sentence(i) + "\n\n").collect();
    s.write("quota.md", &text);
    s.ingest(&["quota.md", "--chunker", "paragraph:200"]);
    let context: serde_json::Value = s.json(&["context", "--doc", "quota.md", "--json"]);
    let id = context["context"].as_str().unwrap().to_string();
    let chunks = context["chunks"].as_array().unwrap().clone();
    // The source changes: every sweep has citations to move.
    s.write("quota.md", format!("A new first paragraph.\n\n{text}"));
    let mut plans: Vec<Vec<std::path::PathBuf>> = Vec::new();
    for w in 0..4 {
        let mut paths = Vec::new();
        for k in 0..OWN {
            let picks = (0..PER_ANSWER).map(|j| (w * 31 + k * PER_ANSWER + j) % SENTENCES);
            paths.push(s.write(
                &format!("w{w}-{k}.json"),
                answer(&chunks, &format!("writer {w} answer {k}"), picks),
            ));
            if k % (OWN / SHARED) == 0 {
                let shared = k / (OWN / SHARED);
                let picks = (0..PER_ANSWER).map(|j| (shared * 7 + j) % SENTENCES);
                paths.push(s.write(
                    &format!("shared-{shared}.json"),
                    answer(&chunks, &format!("shared answer {shared}"), picks),
                ));
            }
        }
        plans.push(paths);
    }
    let (dir, db) = (s.dir.path().to_path_buf(), s.db());
    let run = |dir: &std::path::Path,
               db: &std::path::Path,
               args: &[&str],
               file: Option<&std::path::Path>| {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("citestore"));
        cmd.current_dir(dir)
            .env_remove("CITESTORE_DB")
            .arg("--db")
            .arg(db)
            .args(args);
        if let Some(file) = file {
            cmd.arg(file);
        }
        cmd.output().unwrap()
    };
    let writers: Vec<_> = plans
        .into_iter()
        .map(|paths| {
            let (dir, db, id) = (dir.clone(), db.clone(), id.clone());
            std::thread::spawn(move || {
                for path in &paths {
                    let out = run(&dir, &db, &["cite", "--context", &id], Some(path));
                    assert!(
                        out.status.success(),
                        "cite {}: {}",
                        path.display(),
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
            })
        })
        .collect();
    let mut sweeps = 0;
    while !writers.iter().all(|w| w.is_finished()) {
        let out = run(&dir, &db, &["sweep", "--json"], None);
        assert_ne!(
            out.status.code(),
            Some(2),
            "sweep: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        sweeps += 1;
    }
    for writer in writers {
        writer.join().unwrap();
    }
    assert!(sweeps >= 1);
    let out = run(&dir, &db, &["sweep", "--json"], None);
    assert_ne!(out.status.code(), Some(2));

    let lines: Vec<ExportLine> = String::from_utf8(s.cmd().arg("export").output().unwrap().stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: std::collections::HashSet<&str> = lines.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids.len(), lines.len(), "a citation stored twice");
    let answers = 4 * OWN + SHARED;
    assert_eq!(
        lines.len(),
        answers * PER_ANSWER,
        "citations lost or doubled"
    );
    assert_eq!(
        common::count(&s.db(), "SELECT count(*) FROM answers"),
        answers as i64
    );
    assert_eq!(
        common::count(&s.db(), "SELECT count(*) FROM claims"),
        (answers * PER_ANSWER) as i64
    );
    // Every citation was re-anchored into the new revision, none lost.
    assert!(
        lines.iter().all(|l| l.status == "moved"),
        "{:?}",
        lines
            .iter()
            .map(|l| &l.status)
            .collect::<std::collections::BTreeSet<_>>()
    );
    eprintln!(
        "{} citations from 4 writers during {sweeps} sweeps",
        lines.len()
    );
    common::assert_counts_agree(&s.db());
}
