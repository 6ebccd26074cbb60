//! Command-line conventions through the real binary: shell completions, man pages, negative
//! numbers read as values, singular and plural counts.

use crate::common;

use common::Scratch;
use std::collections::BTreeSet;

/// The subcommands `citestore --help` lists (`help` aside), in order.
fn subcommands(s: &Scratch) -> Vec<String> {
    let help = s.succeeds(&["--help"]);
    let names: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|n| n != "help")
        .collect();
    assert!(names.len() > 10, "{help}");
    names
}

#[test]
fn bash_completion_names_every_subcommand() {
    let s = Scratch::new();
    let script = s.succeeds(&["completions", "bash"]);
    assert!(script.contains("complete -F"), "{script}");
    for name in subcommands(&s) {
        assert!(script.contains(&name), "bash completion lacks {name}");
    }
    assert!(!s.db().exists(), "completions touched the database");
}

#[test]
fn other_shells_get_a_script_naming_sweep() {
    let s = Scratch::new();
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let script = s.succeeds(&["completions", shell]);
        assert!(script.contains("sweep"), "{shell}: {script}");
        assert!(script.contains("extract-timeout"), "{shell}: no flags");
    }
}

#[test]
fn an_unknown_shell_is_one_line_naming_it_and_the_known_ones() {
    let s = Scratch::new();
    let err = s.fails(&["completions", "tcsh"]);
    assert!(err.contains("\"tcsh\""), "{err}");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        assert!(err.contains(shell), "{err}");
    }
}

#[test]
fn man_writes_one_page_per_subcommand_and_nothing_else() {
    let s = Scratch::new();
    let out = s.path("man1");
    let printed = s.succeeds(&["man", "--out", out.to_str().unwrap()]);
    let written: BTreeSet<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    let mut expected: BTreeSet<String> = subcommands(&s)
        .iter()
        .map(|n| format!("citestore-{n}.1"))
        .collect();
    expected.insert("citestore.1".into());
    assert_eq!(written, expected);
    // Each file written is printed, one per line.
    assert_eq!(printed.lines().count(), expected.len(), "{printed}");
    for name in &expected {
        assert!(printed.contains(&out.join(name).display().to_string()));
    }
    // Nothing beside the folder asked for.
    let top: Vec<_> = std::fs::read_dir(s.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(top, vec!["man1".to_string()]);
    // The sweep's page holds its about line (roff escapes '-' as '\-').
    let about = s.succeeds(&["sweep", "--help"]);
    let about = about.lines().next().unwrap().trim_end_matches('.');
    let page = std::fs::read_to_string(out.join("citestore-sweep.1")).unwrap();
    let page = page.replace("\\-", "-");
    assert!(page.contains(".TH citestore-sweep 1"), "{page}");
    assert!(page.contains(about), "{about:?} not in {page}");
    let top_page = std::fs::read_to_string(out.join("citestore.1")).unwrap();
    assert!(top_page.replace("\\-", "-").contains("re-anchor them"));
}

#[test]
fn man_refuses_a_page_that_is_a_device_or_read_only_and_writes_no_page() {
    use std::os::unix::fs::PermissionsExt as _;
    let s = Scratch::new();
    let out = s.path("man1");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink("/dev/null", out.join("citestore-sweep.1")).unwrap();
    let err = s.fails(&["man", "--out", out.to_str().unwrap()]);
    assert!(
        err.contains("citestore-sweep.1: is a character device, not a regular file"),
        "{err}"
    );
    let names = |dir: &std::path::Path| -> BTreeSet<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect()
    };
    assert_eq!(
        names(&out),
        BTreeSet::from(["citestore-sweep.1".to_string()])
    );
    std::fs::remove_file(out.join("citestore-sweep.1")).unwrap();
    let page = out.join("citestore.1");
    std::fs::write(&page, "mine").unwrap();
    std::fs::set_permissions(&page, std::fs::Permissions::from_mode(0o444)).unwrap();
    let err = s.fails(&["man", "--out", out.to_str().unwrap()]);
    assert!(
        err.contains("citestore.1: is read-only (mode 0444)"),
        "{err}"
    );
    assert_eq!(names(&out), BTreeSet::from(["citestore.1".to_string()]));
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "mine");
}

#[test]
fn man_defaults_to_the_current_folder() {
    let s = Scratch::new();
    s.succeeds(&["man"]);
    assert!(s.path("citestore.1").exists());
    assert!(s.path("citestore-sweep.1").exists());
}

#[test]
fn a_negative_number_is_read_as_the_option_value_and_refused_in_one_line() {
    let locate = ["locate", "--chunk", "c.txt", "--quote", "text"];
    let cases: &[(&[&str], &[&str], &str)] = &[
        (
            &locate,
            &["--review", "-5"],
            "--review -5 is not a score from 0 to 100",
        ),
        (
            &locate,
            &["--accept", "-5"],
            "--accept -5 is not a score from 0 to 100",
        ),
        (
            &["verify", "--all"],
            &["--accept", "-0.5"],
            "--accept -0.5 (or [verify] accept) must be a confidence from 0 to 1",
        ),
        (
            &["verify", "--all"],
            &["--timeout", "-5"],
            "--timeout -5 (or [verify] timeout_secs): give a positive number of seconds",
        ),
        (
            &["ingest", "a.md"],
            &["--extract-timeout", "-5"],
            "--extract-timeout -5: give a positive number of seconds",
        ),
        (
            &["sweep"],
            &["--extract-timeout", "-1.5"],
            "--extract-timeout -1.5: give a positive number of seconds",
        ),
        (
            &["health"],
            &["--sweeps", "-5"],
            "invalid value '-5' for '--sweeps <N>': give a whole number, 0 or more",
        ),
        (
            &["report"],
            &["--limit", "-1"],
            "invalid value '-1' for '--limit <N>': give a whole number, 0 or more",
        ),
    ];
    for (command, option, message) in cases {
        let s = Scratch::new();
        s.write("c.txt", "some text here");
        s.write("a.md", "some text here");
        let args: Vec<&str> = command.iter().chain(option.iter()).copied().collect();
        let err = s.fails(&args);
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
        assert!(!s.db().exists(), "{args:?} created the database");
    }
}

#[derive(serde::Deserialize)]
struct ContextOut {
    context: String,
    chunks: Vec<ContextChunk>,
}

#[derive(serde::Deserialize)]
struct ContextChunk {
    label: String,
}

#[derive(serde::Deserialize)]
struct CiteOut {
    claims: Vec<CiteClaim>,
}

#[derive(serde::Deserialize)]
struct CiteClaim {
    evidence: Vec<CiteEvidence>,
}

#[derive(serde::Deserialize)]
struct CiteEvidence {
    citation: String,
}

/// Prints `args`' stdout, checking it says `one` and never `wrong`.
fn says(s: &Scratch, args: &[&str], one: &str, wrong: &str) {
    let out = s.succeeds(args);
    assert!(out.contains(one), "{args:?}: {one:?} not in {out}");
    assert!(!out.contains(wrong), "{args:?}: {wrong:?} in {out}");
}

#[test]
fn a_count_of_one_is_singular_and_other_counts_plural() {
    let s = Scratch::new();
    s.write("a.md", "The basic plan costs ten dollars a month.\n");
    says(
        &s,
        &["ingest", "a.md", "--chunker", "paragraph:150"],
        "1 document: 1 new",
        "1 documents",
    );
    let out = s.succeeds(&["ingest", "a.md", "--verbose"]);
    assert!(out.contains("(1 chunk, kept)"), "{out}");
    says(
        &s,
        &["chunk", "--chunker", "paragraph:150"],
        "1 document: 0 chunked",
        "1 documents",
    );
    let ctx: ContextOut = s.json(&["context", "--doc", "a.md", "--json"]);
    says(&s, &["context", "--doc", "a.md"], "(1 chunk)", "1 chunks");
    let answer = format!(
        r#"{{"claims":[{{"text":"Basic is $10.","evidence":[{{"chunk_id":"{}","quote":"costs ten dollars a month"}}]}}]}}"#,
        ctx.chunks[0].label
    );
    s.write("answer.json", answer);
    let cited: CiteOut = s.json(&["cite", "--context", &ctx.context, "answer.json", "--json"]);
    let citation = cited.claims[0].evidence[0].citation.clone();
    says(&s, &["health"], "1 citation: intact 1", "1 citations");
    says(
        &s,
        &["list", "--status", "intact"],
        "1 intact citation\n",
        "citations",
    );
    // One character more inside the quoted span: degraded, holding 1 new character.
    s.write("a.md", "The basic plan costs ten dollarss a month.\n");
    let out = s.succeeds(&["sweep"]);
    for one in [
        "sweep 1: 1 document (",
        "1 extractor run\n",
        "re-anchored 1 citation:",
        "1 anchor written",
    ] {
        assert!(out.contains(one), "{one:?} not in {out}");
    }
    says(
        &s,
        &["changes"],
        "the span now holds 1 new character\n",
        "1 new characters",
    );
    says(
        &s,
        &["changes"],
        "1 citation changed in sweep 1",
        "citations",
    );
    says(&s, &["show", &citation], "history  1 anchor\n", "1 anchors");
    says(
        &s,
        &["report"],
        "1 changed citation (degraded 1) in 1 document",
        "1 documents",
    );
    let page = std::fs::read_to_string(s.path("citestore-report.html")).unwrap();
    assert!(page.contains("1 document swept"), "report page");
    assert!(page.contains("1 citation re-anchored"), "report page");
    // Two documents: plural again.
    s.write("b.md", "Another plan.\n");
    says(
        &s,
        &["ingest", "a.md", "b.md", "--chunker", "paragraph:150"],
        "2 documents: 1 new, 0 revised, 1 unchanged",
        "2 document:",
    );
}

#[test]
fn tables_line_up_by_display_width_with_wide_names() {
    let s = Scratch::new();
    s.write("東京.md", "x\n");
    s.write("a.md", "y\n");
    s.ingest(&["東京.md", "a.md", "--chunker", "paragraph:150"]);
    let out = s.succeeds(&["docs"]);
    // Each line's second column (REV, r1, r1) starts at the same terminal column: the two
    // wide characters of 東京 count as four columns.
    let columns: Vec<usize> = out
        .lines()
        .map(|l| {
            let first = l.split("  ").next().unwrap();
            let rest = l[first.len()..].trim_start();
            let prefix = &l[..l.len() - rest.len()];
            prefix
                .chars()
                .map(|c| if c.is_ascii() { 1 } else { 2 })
                .sum()
        })
        .collect();
    assert_eq!(columns.len(), 3, "{out}");
    assert!(
        columns.iter().all(|&c| c == columns[0]),
        "{columns:?}\n{out}"
    );
}
