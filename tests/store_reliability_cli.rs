//! The store's reliability through the real binary (issue 22): a store on a read-only mount is
//! read and refuses writers in one line; a damaged database stops `sweep`; run names are
//! checked like doc ids; PostgreSQL URLs are recognised in any case and never print their
//! password; PostgreSQL's refusals and a connection lost mid-sweep say what to do; a run's
//! totals come from the shard that finished last even when finish times tie.

use crate::common;

use common::{cited_example, listing, swap_in_version_2, Scratch};
use std::path::{Path, PathBuf};
use std::process::Command;

/// True when this process is root; under CI=true a test that needs root fails without it.
fn root(what: &str) -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{what} needs root under CI=true"
        );
        eprintln!("note: not root; {what} did not run");
    }
    root
}

/// A tmpfs mounted at a folder; unmounted (and the folder removed) when dropped, also when
/// the test fails.
struct Mounted(PathBuf);

impl Mounted {
    fn new(at: &Path) -> Mounted {
        std::fs::create_dir_all(at).unwrap();
        run(
            "mount",
            &[
                "-t",
                "tmpfs",
                "-o",
                "size=16m",
                "tmpfs",
                &at.to_string_lossy(),
            ],
        );
        Mounted(at.to_path_buf())
    }

    fn read_only(&self) {
        run("mount", &["-o", "remount,ro", &self.0.to_string_lossy()]);
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

fn run(program: &str, args: &[&str]) {
    let status = Command::new(program).args(args).status().unwrap();
    assert!(status.success(), "{program} {args:?}: {status}");
}

/// The binary against `db` (not the scratch store), with the fixed clock; (exit code, stdout,
/// stderr).
fn on(s: &Scratch, db: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = assert_cmd::Command::cargo_bin("citestore")
        .unwrap()
        .current_dir(s.dir.path())
        .env("CITESTORE_NOW", common::NOW)
        .env_remove("CITESTORE_DB")
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_store_on_a_read_only_mount_is_read_and_writers_say_read_only() {
    if citestore::store::is_postgres(&Scratch::new().db()) || !root("mounting a tmpfs") {
        return;
    }
    let s = cited_example();
    swap_in_version_2(&s);
    s.succeeds(&["sweep"]);
    let listed = s.succeeds(&["list", "--json"]);
    let first: serde_json::Value = serde_json::from_str(listed.lines().next().unwrap()).unwrap();
    let citation = first["citation_id"].as_str().unwrap().to_string();
    let mnt = Mounted::new(&s.path("ro"));
    std::fs::copy(s.db(), mnt.0.join("cs.db")).unwrap();
    mnt.read_only();
    let db = mnt.0.join("cs.db");
    let before = std::fs::read(&db).unwrap();
    let reads = vec![
        vec!["docs"],
        vec!["health"],
        vec!["list"],
        vec!["export"],
        vec!["changes"],
        vec!["show", &citation],
    ];
    for args in &reads {
        let (code, stdout, stderr) = on(&s, &db, args);
        assert!(code == Some(0) || code == Some(1), "{args:?}: {stderr}");
        assert!(!stdout.is_empty(), "{args:?} printed nothing");
        assert_eq!(on(&s, &s.db(), args).1, stdout, "{args:?} read differently");
    }
    // The report reads the store on the mount and writes its page outside it.
    let page = s.path("ro-report.html");
    let (code, _, stderr) = on(&s, &db, &["report", "--out", page.to_str().unwrap()]);
    assert_eq!(code, Some(0), "report: {stderr}");
    assert!(std::fs::read_to_string(&page).unwrap().contains("<html"));
    // Writers: one line naming the file, saying read-only and why; nothing written.
    for args in [&["sweep"][..], &["ingest", "docs"], &["init"]] {
        let (code, stdout, stderr) = on(&s, &db, args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        for part in [db.to_str().unwrap(), "read-only", "read-only mount"] {
            assert!(stderr.contains(part), "{args:?}: {part}: {stderr}");
        }
    }
    assert_eq!(std::fs::read(&db).unwrap(), before);
    assert_eq!(listing(&mnt.0), ["cs.db"]);
}

#[test]
fn a_write_ahead_log_that_cannot_be_applied_is_one_line_saying_what_to_do() {
    if citestore::store::is_postgres(&Scratch::new().db()) || !root("mounting a tmpfs") {
        return;
    }
    let s = Scratch::new();
    s.write("docs/a.md", "alpha\n");
    s.ingest(&["docs"]);
    // A writer still open: its commit is in cs.db-wal, not yet in cs.db.
    let conn = rusqlite::Connection::open(s.db()).unwrap();
    conn.execute_batch("PRAGMA wal_autocheckpoint = 0; CREATE TABLE pending (x INTEGER)")
        .unwrap();
    let mnt = Mounted::new(&s.path("ro"));
    for name in ["cs.db", "cs.db-wal"] {
        std::fs::copy(s.path(name), mnt.0.join(name)).unwrap();
    }
    drop(conn);
    mnt.read_only();
    let db = mnt.0.join("cs.db");
    assert!(std::fs::metadata(mnt.0.join("cs.db-wal")).unwrap().len() > 0);
    let (code, stdout, stderr) = on(&s, &db, &["docs"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for part in [
        "cs.db-wal",
        "write-ahead log",
        "read-only mount",
        "wal_checkpoint",
    ] {
        assert!(stderr.contains(part), "{part}: {stderr}");
    }
    assert_eq!(listing(&mnt.0), ["cs.db", "cs.db-wal"]);
}

#[test]
fn a_store_in_a_folder_the_user_may_not_write_is_read_and_writers_say_why() {
    // Root may write any folder of a read-write mount, so the case is run as `nobody`: the
    // file is writable by mode (0666) but its folder (root's, 0755) is not, so SQLite could
    // not make its -shm there.
    if citestore::store::is_postgres(&Scratch::new().db()) || !root("running as nobody") {
        return;
    }
    use std::os::unix::fs::PermissionsExt as _;
    let s = Scratch::new();
    s.write("docs/a.md", "alpha\n");
    s.ingest(&["docs"]);
    let want = s.succeeds(&["export"]);
    let dir = s.path("store");
    std::fs::create_dir(&dir).unwrap();
    let db = dir.join("cs.db");
    std::fs::copy(s.db(), &db).unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o666)).unwrap();
    std::fs::set_permissions(s.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let before = std::fs::read(&db).unwrap();
    let as_nobody = |args: &[&str]| {
        let out = Command::new("setpriv")
            .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
            .arg(assert_cmd::cargo::cargo_bin("citestore"))
            .arg("--db")
            .arg(&db)
            .args(args)
            .current_dir(s.dir.path())
            .env("CITESTORE_NOW", common::NOW)
            .env_remove("CITESTORE_DB")
            .output()
            .expect("setpriv (util-linux)");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = as_nobody(&["export"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, want);
    let (code, _, stderr) = as_nobody(&["sweep"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for part in [
        "read-only",
        "may not write its folder",
        db.to_str().unwrap(),
    ] {
        assert!(stderr.contains(part), "{part}: {stderr}");
    }
    assert_eq!(std::fs::read(&db).unwrap(), before);
    assert_eq!(listing(&dir), ["cs.db"]);
}

#[test]
fn sweep_on_a_damaged_database_stops_naming_it_and_writes_nothing() {
    if citestore::store::is_postgres(&Scratch::new().db()) {
        return;
    }
    let s = cited_example();
    // The start of the page in the middle of the file overwritten: its header and cell
    // pointers, which `quick_check` reads (bytes inside a cell's text would be a change it
    // cannot tell from an edit; where those land moves whenever the schema does).
    let mut bytes = std::fs::read(s.db()).unwrap();
    let page_size = u16::from_be_bytes([bytes[16], bytes[17]]) as usize;
    let middle = bytes.len() / 2 / page_size * page_size;
    bytes[middle..middle + 64].copy_from_slice(&[0xde; 64]);
    std::fs::write(s.db(), &bytes).unwrap();
    let line = s.fails(&["sweep"]);
    for part in ["cs.db", "database is damaged", "restore it from a backup"] {
        assert!(line.contains(part), "{part}: {line}");
    }
    assert_eq!(std::fs::read(s.db()).unwrap(), bytes, "sweep wrote");
}

/// Overwrites the start (header and cell pointers) of the page `table` starts on, in a SQLite
/// file no connection holds open; the file's bytes after.
fn damage_table(db: &Path, table: &str) -> Vec<u8> {
    let (root, page_size) = {
        let conn = rusqlite::Connection::open(db).unwrap();
        let root: i64 = conn
            .query_row(
                "SELECT rootpage FROM sqlite_schema WHERE name = ?1",
                [table],
                |r| r.get(0),
            )
            .unwrap();
        let size: i64 = conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap();
        (root as usize, size as usize)
    };
    assert!(root > 1, "{table} starts on page {root}");
    let mut bytes = std::fs::read(db).unwrap();
    let start = (root - 1) * page_size;
    bytes[start..start + 64].copy_from_slice(&[0xde; 64]);
    std::fs::write(db, &bytes).unwrap();
    bytes
}

#[test]
fn between_full_checks_a_sweep_stops_at_a_damaged_page_it_reads() {
    if citestore::store::is_postgres(&Scratch::new().db()) {
        return;
    }
    let s = cited_example();
    s.succeeds(&["sweep"]); // reads every page, and records that it was sound
    let bytes = damage_table(&s.db(), "documents");
    let line = s.fails(&["sweep"]);
    for part in ["cs.db", "database is damaged", "restore it from a backup"] {
        assert!(line.contains(part), "{part}: {line}");
    }
    assert_eq!(std::fs::read(s.db()).unwrap(), bytes, "sweep wrote");
}

#[derive(serde::Deserialize)]
struct Checked {
    full_check_seconds: Option<f64>,
}

#[test]
fn a_page_no_sweep_reads_is_checked_when_due_with_full_check_and_by_check() {
    if citestore::store::is_postgres(&Scratch::new().db()) {
        return;
    }
    let s = cited_example();
    let first: Checked = s.json(&["sweep", "--json"]);
    assert!(
        first.full_check_seconds.is_some(),
        "a store never checked is checked"
    );
    let again: Checked = s.json(&["sweep", "--json"]);
    assert!(
        again.full_check_seconds.is_none(),
        "checked again the same day"
    );
    let bytes = damage_table(&s.db(), "verifications");
    let week_later = "2026-01-09T03:04:05Z"; // common::NOW + 7 days
    for (args, now) in [
        (&["check"][..], common::NOW),
        (&["sweep", "--full-check"][..], common::NOW),
        (&["sweep"][..], week_later),
    ] {
        let line = s.fails_with_env("CITESTORE_NOW", now, args);
        for part in ["cs.db", "database is damaged", "restore it from a backup"] {
            assert!(line.contains(part), "{args:?} {part}: {line}");
        }
        assert_eq!(std::fs::read(s.db()).unwrap(), bytes, "{args:?} wrote");
    }
}

#[test]
fn check_records_a_sound_store_so_sweeps_need_not_read_every_page() {
    let s = cited_example();
    let out: citestore::app::json::CheckOutput = s.json(&["check", "--json"]);
    if citestore::store::is_postgres(&s.db()) {
        // The server checks each page it reads: nothing to run, and no sweep runs it either.
        assert!(!out.pages_checked);
        s.write("citestore.toml", "[sweep]\nfull_check_days = 0\n");
        let sweep: Checked = s.json(&["sweep", "--json"]);
        assert!(sweep.full_check_seconds.is_none());
        return;
    }
    assert!(out.pages_checked);
    assert_eq!(out.checked_at, "2026-01-02T03:04:05.000Z");
    let sweep: Checked = s.json(&["sweep", "--json"]);
    assert!(sweep.full_check_seconds.is_none(), "check was recorded");
    s.write("citestore.toml", "[sweep]\nfull_check_days = 0\n");
    let sweep: Checked = s.json(&["sweep", "--json"]);
    assert!(
        sweep.full_check_seconds.is_some(),
        "full_check_days = 0: every sweep"
    );
}

#[test]
fn run_names_are_checked_like_doc_ids() {
    let s = Scratch::new();
    s.write("docs/a.md", "alpha\n");
    s.ingest(&["docs"]);
    let before = common::dump(&s.db());
    let cases = [
        ("", "is empty"),
        ("  ", "is only whitespace"),
        ("a\nb", "control character U+000A"),
        ("tab\there", "control character U+0009"),
    ];
    for (run, says) in cases {
        let line = s.fails(&["sweep", "--shard", "1/1", "--run", run]);
        assert!(line.contains("--run"), "{run:?}: {line}");
        assert!(line.contains(says), "{run:?}: {line}");
        assert_eq!(common::dump(&s.db()), before, "{run:?} wrote");
    }
    s.succeeds(&["sweep", "--shard", "1/1", "--run", "night 42"]);
}

#[test]
fn postgres_urls_are_recognised_in_any_case_and_never_show_the_password() {
    let s = Scratch::new();
    // Nothing listens on port 1: each is refused by the network, never taken for a file.
    let urls = [
        "POSTGRES://ann:hunter2@127.0.0.1:1/db",
        "PostgreSQL://ann:hunter2@127.0.0.1:1/db",
        "postgresql://ann@127.0.0.1:1/db?password=hunter2&sslmode=disable",
        "Postgres://127.0.0.1:1/db?user=ann&PASSWORD=hunter2",
    ];
    for url in urls {
        let (code, stdout, stderr) = on(&s, Path::new(url), &["docs"]);
        assert_eq!(code, Some(2), "{url}: {stderr}");
        assert!(stdout.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{url}: {stderr}");
        assert!(!stderr.contains("hunter2"), "{url}: {stderr}");
        assert!(stderr.contains("PostgreSQL"), "{url}: {stderr}");
        assert!(!s.path(url).exists() && listing(s.dir.path()).is_empty());
    }
}

/// A role of the test server, dropped (with what it owns) when the test ends.
struct Role {
    admin: String,
    name: String,
}

impl Drop for Role {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = c.batch_execute(&format!("DROP ROLE IF EXISTS {}", self.name));
        }
    }
}

#[test]
fn postgres_refusals_are_one_line_saying_what_to_do() {
    let Some(server) = common::postgres_server() else {
        return;
    };
    let s = Scratch::new();
    let url = common::new_postgres_database(&server);
    let role = Role {
        admin: url.clone(),
        name: format!("nocreate_{}", std::process::id()),
    };
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!(
            "CREATE ROLE {0} LOGIN; REVOKE CREATE ON SCHEMA public FROM PUBLIC",
            role.name
        ))
        .unwrap();
    let as_role = if url.contains("user=") {
        url.replace(
            &format!(
                "user={}",
                url.split("user=")
                    .nth(1)
                    .unwrap()
                    .split('&')
                    .next()
                    .unwrap()
            ),
            &format!("user={}", role.name),
        )
    } else {
        url.replacen("://", &format!("://{}@", role.name), 1)
    };
    let missing = common::with_database(&server, "no_such_database_here");
    let cases = [
        (
            as_role.as_str(),
            "init",
            "permission denied for schema public",
            "GRANT CREATE",
        ),
        (missing.as_str(), "docs", "does not exist", "createdb"),
        (
            "postgresql://ann@127.0.0.1:1/x",
            "docs",
            "no server answers",
            "start the server",
        ),
    ];
    for (db, command, problem, todo) in cases {
        let (code, stdout, stderr) = on(&s, Path::new(db), &[command]);
        assert_eq!(code, Some(2), "{db}: {stderr}");
        assert!(stdout.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{db}: {stderr}");
        assert!(stderr.contains(problem), "{db}: {stderr}");
        assert!(stderr.contains(todo), "{db}: {stderr}");
        assert!(!stderr.contains("db error"), "{db}: {stderr}");
    }
    // The refused role wrote nothing.
    assert_eq!(common::dump(Path::new(&url)), ["user_version=0"]);
    drop(admin);
}

#[test]
fn a_connection_lost_mid_sweep_names_the_document_and_a_rerun_finishes() {
    let Some(server) = common::postgres_server() else {
        return;
    };
    let mut s = Scratch::new();
    s.url = Some(common::new_postgres_database(&server));
    let url = s.url.clone().unwrap();
    common::cited_corpus(&s, 6, 2);
    common::revise_corpus(&s, 6, 2);
    // Another session holds d004.md's lock: the sweep waits there, and its backend is ended.
    let mut holder = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    holder
        .execute(
            "SELECT pg_advisory_lock(hashtextextended($1, 0))",
            &[&"d004.md"],
        )
        .unwrap();
    let sweep = s
        .spawnable()
        .arg("sweep")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let waited = std::time::Instant::now();
    let pid: i32 = loop {
        let rows = holder
            .query(
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
                &[],
            )
            .unwrap();
        if let Some(row) = rows.first() {
            break row.get(0);
        }
        assert!(waited.elapsed().as_secs() < 60, "the sweep never waited");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    holder
        .execute("SELECT pg_terminate_backend($1)", &[&pid])
        .unwrap();
    let out = sweep.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for part in [
        "lost the connection",
        "while sweeping \"d004.md\"",
        "run the command again",
    ] {
        assert!(stderr.contains(part), "{part}: {stderr}");
    }
    assert!(!stderr.contains("check the URL"), "{stderr}");
    holder
        .execute("SELECT pg_advisory_unlock_all()", &[])
        .unwrap();
    drop(holder);
    // Run again, it finishes: every document swept, nothing failed.
    let summary: serde_json::Value = s.json(&["sweep", "--json"]);
    assert!(
        summary["errors"].as_array().unwrap().is_empty(),
        "{summary}"
    );
}

#[test]
fn run_totals_come_from_the_shard_that_finished_last_when_times_tie() {
    // Every finish time is the fixed CITESTORE_NOW: only the finish order tells them apart.
    let s = cited_example();
    swap_in_version_2(&s);
    // rate-card.md is in shard 2 of 2, plans.md in shard 1 (pinned in src/sweep/shard.rs).
    let first: serde_json::Value = s.json(&["sweep", "--shard", "2/2", "--run", "r", "--json"]);
    let last: serde_json::Value = s.json(&["sweep", "--shard", "1/2", "--run", "r", "--json"]);
    assert_ne!(
        first["status"], last["status"],
        "the shards must leave the store in different states for this test to tell"
    );
    let health: serde_json::Value = s.json(&["health", "--json"]);
    let totals = &health["runs"][0]["totals"];
    for status in ["intact", "moved", "degraded", "lost"] {
        let want = last["status"][status].as_i64().unwrap_or(0);
        assert_eq!(
            totals[status], want,
            "{status}: {totals} vs {}",
            last["status"]
        );
        let now = health["status"][status].as_i64().unwrap_or(0);
        assert_eq!(want, now, "{status}");
    }
}
