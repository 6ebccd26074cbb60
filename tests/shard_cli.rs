//! Sharded sweeps through the real binary, on the backend the tests run against (SQLite, or
//! PostgreSQL in the second pass of tests/run.sh): N shard workers running at once sweep the
//! corpus exactly as one process does, row for row; a shard worker killed at a random moment
//! and restarted finishes its shard with the same result.

use crate::common;

use common::{cited_corpus, export, revise_corpus, Scratch};
use std::process::{Child, Stdio};
use std::time::Instant;

const DOCS: usize = 40;
const PER_DOC: usize = 12;

/// A cited corpus (SQLite, built once per test) revised on disk, and copies of it made with
/// `citestore migrate` on the backend under test.
struct Corpus {
    template: Scratch,
}

impl Corpus {
    fn new() -> Corpus {
        let template = Scratch {
            dir: tempfile::tempdir().unwrap(),
            url: None,
        };
        cited_corpus(&template, DOCS, PER_DOC);
        revise_corpus(&template, DOCS, 3);
        Corpus { template }
    }

    /// A fresh copy of the (not yet swept) store.
    fn copy(&self) -> Scratch {
        let s = Scratch::new();
        s.succeeds(&[
            "migrate",
            "--from",
            self.template.db().to_str().unwrap(),
            "--to",
            s.db().to_str().unwrap(),
        ]);
        s
    }
}

fn spawn(s: &Scratch, args: &[&str]) -> Child {
    s.spawnable()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for a sweep; a missing source makes it exit 0 or 1, never 2.
fn finish(child: Child, what: &str) {
    let out = child.wait_with_output().unwrap();
    assert_ne!(
        out.status.code(),
        Some(2),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Returns once a sweep row exists (the worker has started sweeping).
fn wait_for_start(s: &Scratch) {
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    while common::count(&s.db(), "SELECT count(*) FROM sweeps") == 0 {
        assert!(Instant::now() < deadline, "the sweep never started");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[test]
fn shards_swept_at_once_equal_one_process_sweep_row_for_row() {
    let corpus = Corpus::new();
    let whole = corpus.copy();
    finish(spawn(&whole, &["sweep"]), "sweep");
    let expected = export(&whole);
    assert_eq!(expected.len(), DOCS * PER_DOC);
    // The revisions moved, degraded and lost citations: the comparison covers every status.
    for status in ["\"moved\"", "\"degraded\"", "\"lost\"", "\"intact\""] {
        assert!(
            expected.iter().any(|l| l.contains(status)),
            "no {status} citation"
        );
    }

    let sharded = corpus.copy();
    let workers: Vec<Child> = (1..=3)
        .map(|i| spawn(&sharded, &["sweep", "--shard", &format!("{i}/3")]))
        .collect();
    for (i, worker) in workers.into_iter().enumerate() {
        finish(worker, &format!("shard {}/3", i + 1));
    }
    assert_eq!(export(&sharded), expected);

    // health: the three shard sweeps are one run, all finished, and cover every document.
    let health: serde_json::Value = sharded.json(&["health", "--json"]);
    let runs = health["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "{health}");
    assert_eq!(runs[0]["shards"], 3);
    assert_eq!(runs[0]["finished"], 3);
    assert_eq!(runs[0]["totals"]["documents"], DOCS);
    let whole_health: serde_json::Value = whole.json(&["health", "--json"]);
    assert_eq!(health["status"], whole_health["status"]);
    assert!(whole_health.get("runs").is_none(), "{whole_health}");
    let text = String::from_utf8(sharded.cmd().arg("health").output().unwrap().stdout).unwrap();
    assert!(
        text.contains("run 2026-01-02: 3 of 3 shards finished"),
        "{text}"
    );
    common::assert_counts_agree(&sharded.db());
    common::assert_counts_agree(&whole.db());
}

#[test]
fn a_run_can_be_named_and_shard_is_checked() {
    let s = Scratch::new();
    s.write("docs/a.txt", "alpha\n");
    s.write("docs/b.txt", "beta\n");
    s.ingest(&["docs"]);
    let summary: serde_json::Value =
        s.json(&["sweep", "--shard", "1/2", "--run", "nightly-42", "--json"]);
    assert_eq!(summary["shard"], "1/2");
    assert_eq!(summary["run"], "nightly-42");
    let health: serde_json::Value = s.json(&["health", "--json"]);
    assert_eq!(health["runs"][0]["run"], "nightly-42");
    assert_eq!(
        (
            health["runs"][0]["shards"].clone(),
            health["runs"][0]["finished"].clone()
        ),
        (2.into(), 1.into())
    );
    let text = String::from_utf8(s.cmd().arg("health").output().unwrap().stdout).unwrap();
    assert!(text.contains("run nightly-42  1/2 shards"), "{text}");
    assert!(
        text.contains("run nightly-42: 1 of 2 shards finished"),
        "{text}"
    );
    // A whole-store sweep's JSON has no shard fields; --run needs --shard; I/N is checked.
    let whole: serde_json::Value = s.json(&["sweep", "--json"]);
    assert!(
        whole.get("shard").is_none() && whole.get("run").is_none(),
        "{whole}"
    );
    let line = s.fails(&["sweep", "--run", "x"]);
    assert!(line.contains("--shard"), "{line}");
    for bad in ["0/2", "3/2", "2", "a/b", "1/0"] {
        let line = s.fails(&["sweep", "--shard", bad]);
        assert!(
            line.starts_with(&format!("citestore: --shard {bad}: ")),
            "{line}"
        );
    }
}

#[test]
fn a_shard_worker_killed_at_a_random_moment_and_restarted_finishes_its_shard() {
    let corpus = Corpus::new();
    let whole = corpus.copy();
    finish(spawn(&whole, &["sweep"]), "sweep");
    let expected = export(&whole);
    // How long shard 2/2 works once its sweep row exists: the kills land inside that time.
    let timing = corpus.copy();
    let worker = spawn(&timing, &["sweep", "--shard", "2/2"]);
    wait_for_start(&timing);
    let started = Instant::now();
    finish(worker, "timing");
    let duration = started.elapsed();
    let seed = fastrand::u64(..);
    let mut rng = fastrand::Rng::with_seed(seed);
    // Ten kills that land mid-sweep, each at a random moment of the shard's work; a kill that
    // lands after the worker finished (the machine was faster than the timing run) still
    // checks the restart, does not count, and narrows the window for the next one.
    let (mut interrupted, mut trials) = (0, 0);
    let mut window = duration;
    while interrupted < 10 {
        trials += 1;
        assert!(
            trials <= 40,
            "only {interrupted} of {trials} kills landed mid-sweep (seed {seed}); the shard took {duration:?}"
        );
        let s = corpus.copy();
        let mut worker = spawn(&s, &["sweep", "--shard", "2/2"]);
        wait_for_start(&s);
        let delay = window.mul_f64(rng.f64() * 0.9);
        std::thread::sleep(delay);
        let _ = worker.kill();
        let status = worker.wait().unwrap();
        // The killed run's sweep row is left without an end when it was cut short.
        let health: serde_json::Value = s.json(&["health", "--json"]);
        let cut_short = health["trend"]
            .as_array()
            .unwrap()
            .iter()
            .any(|row| row["finished_at"].is_null());
        if cut_short && !status.success() {
            interrupted += 1;
        } else {
            window = window.mul_f64(0.6);
        }
        finish(spawn(&s, &["sweep", "--shard", "2/2"]), "restart");
        finish(spawn(&s, &["sweep", "--shard", "1/2"]), "other shard");
        assert_eq!(
            export(&s),
            expected,
            "trial {trials} (seed {seed}): killed after {delay:?}"
        );
        common::assert_counts_agree(&s.db());
    }
    eprintln!(
        "{interrupted} of {trials} kills landed mid-sweep (seed {seed}, shard takes {duration:?}); \
         every restart ended with the same export"
    );
}
