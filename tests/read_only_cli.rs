//! A database the user cannot write (a snapshot handed to an analyst, a backup mount), read
//! through the real binary by another user: the test runs as root and runs the binary as
//! `nobody` with `setpriv` or `runuser` (util-linux).

use crate::common;

use common::{Docs, Scratch};
use std::os::unix::fs::PermissionsExt as _;
use std::process::{Command, Output};

/// How to run a command as `nobody`: setpriv, else runuser; `None` when neither runs here or
/// this process is not root (only root may change user).
fn as_nobody() -> Option<Vec<&'static str>> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let works = |argv: &[&str]| {
        Command::new(argv[0])
            .args(&argv[1..])
            .arg("true")
            .status()
            .is_ok_and(|s| s.success())
    };
    let setpriv = vec![
        "setpriv",
        "--reuid=nobody",
        "--regid=nogroup",
        "--clear-groups",
    ];
    let runuser = vec!["runuser", "-u", "nobody", "--"];
    [setpriv, runuser].into_iter().find(|argv| works(argv))
}

/// The binary with `args`, run as `nobody` (through `runner`) against the scratch database.
fn run_as(runner: &[&str], s: &Scratch, args: &[&str]) -> Output {
    let bin = assert_cmd::cargo::cargo_bin("citestore");
    Command::new(runner[0])
        .args(&runner[1..])
        .arg(bin)
        .arg("--db")
        .arg(s.db())
        .args(args)
        .current_dir(s.dir.path())
        .env("CITESTORE_NOW", common::NOW)
        .env_remove("CITESTORE_DB")
        .env_remove("CITESTORE_CONFIG")
        .output()
        .unwrap()
}

#[test]
fn a_database_the_user_cannot_write_is_read_and_writes_are_refused_in_one_line() {
    if common::sqlite_only(
        "file modes of the database file (twin: store_reliability_cli on a read-only mount)",
    ) {
        return;
    }
    let Some(runner) = as_nobody() else {
        let why = "cannot run as user nobody (needs root and setpriv or runuser)";
        assert!(std::env::var_os("CI").is_none(), "{why}");
        eprintln!("skipped: {why}");
        return;
    };
    let s = Scratch::new();
    s.write("kb/a.md", "The basic plan costs ten dollars a month.\n");
    s.write("kb/b.md", "The growth plan includes 500 calls a month.\n");
    s.ingest(&["kb", "--chunker", "paragraph:150"]);
    let want = s.docs();
    let exported = s.succeeds(&["export"]);
    // Root owns the file, mode 0444, in a folder nobody may enter but not write.
    std::fs::set_permissions(s.db(), std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(s.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let before = std::fs::read(s.db()).unwrap();
    let listing = || {
        let mut names: Vec<_> = std::fs::read_dir(s.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let files = listing();

    let out = run_as(&runner, &s, &["docs", "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "docs as nobody: {stderr}");
    let docs = serde_json::from_slice::<Docs>(&out.stdout)
        .unwrap()
        .documents;
    assert_eq!(
        docs.iter().map(|d| &d.doc_id).collect::<Vec<_>>(),
        want.iter().map(|d| &d.doc_id).collect::<Vec<_>>()
    );

    let out = run_as(&runner, &s, &["chunks", &want[0].doc_id, "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "chunks as nobody: {stderr}");

    let out = run_as(&runner, &s, &["export"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "export as nobody: {stderr}");
    assert_eq!(out.stdout, exported.as_bytes(), "export as nobody differs");

    // A write command says the database is read-only, in one line, exit 2.
    s.write("kb/c.md", "Support answers within one business day.\n");
    let out = run_as(&runner, &s, &["ingest", "kb"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("read-only"), "{stderr}");
    assert!(stderr.contains("cs.db"), "{stderr}");
    // Nothing written: the file is byte for byte the same, no -wal or -shm left behind.
    assert_eq!(std::fs::read(s.db()).unwrap(), before);
    assert_eq!(listing(), files);
}
