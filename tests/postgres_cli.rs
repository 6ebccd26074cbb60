//! PostgreSQL as the store, through the real binary and the library, on the server tests/run.sh
//! starts (`CITESTORE_TEST_PG`): the same schema as SQLite's from the same migrations, a newer
//! schema refused untouched, a store copied there and back with `migrate` (verified by
//! `export`), the URL taken from `--db`, `CITESTORE_DB` or citestore.toml, and a server that
//! cannot be reached reported in one line without the password. Under `CI=true` a missing
//! server fails these tests.

use crate::common;

use citestore::store::{is_postgres, Location, Store, MIGRATIONS};
use common::{
    cited_example, dump, export, new_postgres_database, postgres_server, succeeded, Scratch,
};
use std::path::{Path, PathBuf};

/// A fresh database on the test server, or `None` (with a note) outside CI without one.
fn fresh() -> Option<PathBuf> {
    postgres_server().map(|base| PathBuf::from(new_postgres_database(&base)))
}

/// A scratch folder that uses SQLite whatever the pass (these tests name their PostgreSQL
/// databases themselves).
fn sqlite_scratch() -> Scratch {
    Scratch {
        dir: tempfile::tempdir().unwrap(),
        url: None,
    }
}

/// The binary in `s`'s folder with a fixed clock and no database chosen.
fn bin(s: &Scratch) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("citestore").unwrap();
    cmd.current_dir(s.dir.path())
        .env("CITESTORE_NOW", common::NOW)
        .env_remove("CITESTORE_DB");
    cmd
}

fn run(s: &Scratch, db: &Path, args: &[&str]) -> std::process::Output {
    bin(s).arg("--db").arg(db).args(args).output().unwrap()
}

#[test]
fn the_same_migrations_make_the_same_schema_on_postgresql() {
    let Some(url) = fresh() else { return };
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Store::open(&Location::from(dir.path().join("s.db"))).unwrap();
    let url = Location::from(url);
    let postgres = Store::open(&url).unwrap();
    assert_eq!(postgres.backend_name(), "postgres");
    assert_eq!(postgres.schema_version().unwrap(), MIGRATIONS.len());
    let mut want = sqlite.schema().unwrap();
    want.retain(|(name, _)| !name.starts_with("sqlite_"));
    let mut got = postgres.schema().unwrap();
    got.retain(|(name, _)| name != "citestore_schema");
    assert_eq!(got, want);
    // Reopening applies nothing twice.
    drop(postgres);
    assert_eq!(
        Store::open(&url).unwrap().schema_version().unwrap(),
        MIGRATIONS.len()
    );
}

#[test]
fn a_newer_postgresql_schema_is_refused_untouched() {
    let Some(url) = fresh() else { return };
    let mut client = postgres::Client::connect(&url.to_string_lossy(), postgres::NoTls).unwrap();
    client
        .batch_execute(
            "CREATE TABLE citestore_schema (version BIGINT NOT NULL); \
             INSERT INTO citestore_schema VALUES (99)",
        )
        .unwrap();
    let s = sqlite_scratch();
    s.write("a.txt", "some text\n");
    for args in [&["ingest", "a.txt"][..], &["docs"], &["sweep"], &["init"]] {
        let out = run(&s, &url, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "database schema version 99 is newer than this citestore (knows {}); upgrade citestore",
                MIGRATIONS.len()
            )),
            "{args:?}: {stderr}"
        );
    }
    let tables: i64 = client
        .query_one(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(tables, 1, "only citestore_schema");
}

#[test]
fn migrate_copies_a_store_to_postgresql_and_back_verified_by_export() {
    let Some(url) = fresh() else { return };
    let s = cited_example();
    common::swap_in_version_2(&s);
    assert!(s.cmd().arg("sweep").output().unwrap().status.code() != Some(2));
    let original = export(&s);
    assert_eq!(original.len(), 4);

    let report: serde_json::Value = s.json(&[
        "migrate",
        "--json",
        "--from",
        s.db().to_str().unwrap(),
        "--to",
        url.to_str().unwrap(),
    ]);
    assert_eq!(report["tables"]["citations"], 4);
    assert_eq!(report["tables"]["anchors"], 4);
    let on_postgres = run(&s, &url, &["export"]);
    assert_eq!(
        String::from_utf8_lossy(&on_postgres.stdout)
            .lines()
            .collect::<Vec<_>>(),
        original
    );
    // The copy is a working store: ids continue after the copied rows.
    let swept = run(&s, &url, &["sweep", "--json"]);
    assert_ne!(
        swept.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&swept.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&swept.stdout).unwrap();
    assert_eq!(summary["sweep"], 2);

    // And back into a new SQLite file.
    let back = s.path("back.db");
    let line = s.succeeds(&[
        "migrate",
        "--from",
        url.to_str().unwrap(),
        "--to",
        back.to_str().unwrap(),
    ]);
    assert!(
        line.starts_with("copied ") && line.contains(" tables from postgresql://"),
        "{line}"
    );
    let exported = run(&s, &back, &["export"]);
    assert_eq!(
        String::from_utf8_lossy(&exported.stdout)
            .lines()
            .collect::<Vec<_>>(),
        original
    );

    // Into a store that holds documents: refused, exit 2, nothing written.
    let before = dump(&url);
    let out = s
        .cmd()
        .args(["migrate", "--from"])
        .arg(s.db())
        .arg("--to")
        .arg(&url)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("already holds documents; copy into an empty database"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
    assert_eq!(dump(&url), before);
    // A SQLite target that could not be filled is not left behind.
    let out = s
        .cmd()
        .args(["migrate", "--from"])
        .arg(s.path("nothing-here.db"))
        .arg("--to")
        .arg(s.path("new.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!s.path("new.db").exists());
}

#[test]
fn the_url_comes_from_db_citestore_db_or_the_configuration() {
    let Some(url) = fresh() else { return };
    let s = sqlite_scratch();
    s.write("docs/a.txt", "The rate is five dollars.\n");
    succeeded(bin(&s).arg("--db").arg(&url).args(["ingest", "docs"]));
    let docs = |cmd: &mut assert_cmd::Command| -> serde_json::Value {
        let out = succeeded(cmd.args(["docs", "--json"]));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let mut env = bin(&s);
    env.env("CITESTORE_DB", &url);
    assert_eq!(docs(&mut env)["documents"][0]["doc_id"], "a.txt");
    s.write(
        "citestore.toml",
        format!("db = {:?}\n", url.to_string_lossy()),
    );
    let mut config = bin(&s);
    assert_eq!(docs(&mut config)["documents"][0]["doc_id"], "a.txt");
    assert!(!s.path("citestore.db").exists());
    assert!(is_postgres(&url));
    // postgres:// names the same database.
    let short = url
        .to_string_lossy()
        .replacen("postgresql://", "postgres://", 1);
    let mut flag = bin(&s);
    flag.arg("--db").arg(&short);
    assert_eq!(docs(&mut flag)["documents"][0]["doc_id"], "a.txt");
}

#[test]
fn sslmode_require_without_the_tls_feature_is_refused_in_one_line() {
    let Some(url) = fresh() else { return };
    let s = sqlite_scratch();
    let url = format!("{}&sslmode=require", url.to_string_lossy());
    let out = run(&s, Path::new(&url), &["init"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if cfg!(feature = "tls") {
        // Built with TLS: the test server has no certificate, so the handshake is refused.
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        return;
    }
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("sslmode=require needs TLS: build citestore with `--features tls`"),
        "{stderr}"
    );
}

#[test]
fn an_unreachable_server_is_one_line_without_the_password() {
    let Some(base) = postgres_server() else {
        return;
    };
    let s = sqlite_scratch();
    // A socket folder with no server in it.
    let url = format!(
        "postgresql://citestore:s3cret@localhost/citestore?host={}",
        s.dir.path().display()
    );
    let out = run(&s, Path::new(&url), &["docs"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("PostgreSQL: no server answers at"),
        "{stderr}"
    );
    assert!(stderr.contains("start the server"), "{stderr}");
    assert!(stderr.contains("citestore:***@localhost"), "{stderr}");
    assert!(!stderr.contains("s3cret"), "{stderr}");
    // A database that does not exist on a running server: the same one line.
    let missing = common::with_database(&base, "no_such_database");
    let out = run(&s, Path::new(&missing), &["docs"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no_such_database"), "{stderr}");
    assert!(stderr.contains("createdb"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
