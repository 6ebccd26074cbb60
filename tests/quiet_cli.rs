//! `--quiet`, `--verbose` and the progress bars through the real binary: in a pipe, and on a
//! terminal (`script` from util-linux gives the binary a pseudo-terminal).

use crate::common;

use common::Scratch;

fn bin() -> String {
    assert_cmd::cargo::cargo_bin("citestore")
        .display()
        .to_string()
}

/// Three documents to ingest, one citation to sweep.
fn kb(s: &Scratch) {
    s.write("kb/a.md", "The basic plan costs ten dollars a month.\n");
    s.write("kb/b.md", "The growth plan includes 500 calls a month.\n");
    s.write("kb/c.md", "Support answers within one business day.\n");
}

/// Runs `args` in a pipe; asserts success and returns stdout and stderr.
fn run(s: &Scratch, args: &[&str]) -> (String, String) {
    let out = s.cmd().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{args:?}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

/// Runs `args` on a pseudo-terminal; returns what the terminal showed (stdout and stderr).
fn on_terminal(s: &Scratch, args: &str) -> String {
    let command = format!(
        "env CITESTORE_NOW={} {} --db '{}' {args}",
        common::NOW,
        bin(),
        s.db().display()
    );
    let out = std::process::Command::new("script")
        .current_dir(s.dir.path())
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script (util-linux) runs the binary on a terminal");
    let shown = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{args}: {shown}");
    shown
}

#[test]
fn quiet_prints_nothing_for_ingest_sweep_and_chunk() {
    let s = Scratch::new();
    kb(&s);
    for args in [
        &["ingest", "kb", "--quiet"][..],
        &["ingest", "kb", "-q"],
        &["chunk", "--chunker", "paragraph:150", "--quiet"],
        &["sweep", "-q"],
    ] {
        let (stdout, stderr) = run(&s, args);
        assert_eq!((stdout.as_str(), stderr.as_str()), ("", ""), "{args:?}");
    }
    // It did the work: the documents are there.
    assert_eq!(s.docs().len(), 3);
    // Errors still print, once, and the exit code is unchanged.
    let line = s.fails(&["ingest", "nowhere.md", "--quiet"]);
    assert!(line.contains("nowhere.md"), "{line}");
}

#[test]
fn ingest_prints_one_summary_line_and_per_file_lines_only_when_verbose() {
    let s = Scratch::new();
    kb(&s);
    let (stdout, _) = run(&s, &["ingest", "kb"]);
    assert_eq!(
        stdout,
        "3 documents: 3 new, 0 revised, 0 unchanged; 0 skipped\n"
    );
    s.write("kb/a.md", "The basic plan costs eleven dollars a month.\n");
    let (stdout, _) = run(&s, &["ingest", "kb", "-v"]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0].starts_with("revised    a.md"), "{stdout}");
    assert!(lines[1].starts_with("unchanged  b.md"), "{stdout}");
    assert_eq!(
        lines[3],
        "3 documents: 0 new, 1 revised, 2 unchanged; 0 skipped"
    );
}

#[test]
fn ingest_draws_a_progress_bar_on_a_terminal_and_not_in_a_pipe() {
    let s = Scratch::new();
    kb(&s);
    let shown = on_terminal(&s, "ingest kb");
    assert!(shown.contains("/3 files, "), "no progress bar: {shown:?}");
    assert!(shown.contains(" B/"), "no bytes in the bar: {shown:?}");
    assert!(shown.contains("ETA"), "no ETA in the bar: {shown:?}");
    assert!(shown.contains("3 documents: 3 new"), "{shown:?}");
    // Quiet on a terminal: nothing at all.
    s.write("kb/d.md", "A fourth document.\n");
    let shown = on_terminal(&s, "ingest kb --quiet");
    assert_eq!(shown, "", "quiet on a terminal");
    // In a pipe: no bar on stderr.
    s.write("kb/e.md", "A fifth document.\n");
    let (_, stderr) = run(&s, &["ingest", "kb"]);
    assert_eq!(stderr, "");
}

#[test]
fn the_sweeps_first_frame_counts_citations_re_anchored() {
    let s = common::cited_example();
    let shown = on_terminal(&s, "sweep");
    let frame = shown
        .find("citations re-anchored")
        .map(|at| &shown[..at])
        .unwrap_or_else(|| panic!("no progress bar: {shown:?}"));
    let before = frame.trim_end().rsplit([' ', ',']).next().unwrap();
    assert!(
        before.parse::<usize>().is_ok(),
        "the first frame reads {before:?} before 'citations re-anchored': {shown:?}"
    );
}
