//! Usage errors through the real binary: one line on stderr naming the problem and the help to
//! read, exit 2, nothing on stdout; help and version still print as clap does.

use crate::common;

use common::Scratch;

#[test]
fn usage_errors_are_one_line_naming_the_problem_and_the_help() {
    let s = Scratch::new();
    // Arguments, then what the line must contain.
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["ingest", "--bogus"],
            &["'--bogus'", "run `citestore help ingest`"],
        ),
        (
            &["locate", "--quote", "x"],
            &["not provided", "--chunk", "run `citestore help locate`"],
        ),
        (
            &["sweep", "--fail-on", "sometimes"],
            &[
                "'sometimes'",
                "lost, degraded",
                "run `citestore help sweep`",
            ],
        ),
        (
            &["ingest", "a.md", "--extract-cmd", "cat {}"],
            &["--extract-version", "run `citestore help ingest`"],
        ),
        (
            &["ingest", "a.md", "--extract-timeout"],
            &["--extract-timeout", "run `citestore help ingest`"],
        ),
        (&["frobnicate"], &["'frobnicate'", "run `citestore help`"]),
        (
            &["ingest", "--quiet", "--json", "a.md"],
            &["--quiet", "--json", "run `citestore help ingest`"],
        ),
    ];
    for (args, wants) in cases {
        let out = s.cmd().args(*args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("citestore: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("Usage:"), "{args:?}: {stderr}");
        for want in *wants {
            assert!(stderr.contains(want), "{args:?}: {want:?} not in {stderr}");
        }
    }
    assert!(!s.db().exists(), "a usage error wrote a database");
}

#[test]
fn help_and_version_still_print_in_full() {
    let s = Scratch::new();
    let out = s.cmd().args(["ingest", "--help"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Usage:") && text.contains("--quiet"),
        "{text}"
    );
    let out = s.cmd().arg("--version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("citestore "));
}
