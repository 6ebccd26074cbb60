//! The README's "From an Anthropic response", "From an OpenAI tool call" and "Export to W3C
//! annotations" sections, run as written: every command of their `sh` blocks through the real
//! binary, in order, in a scratch folder where `fixtures/` is the repository's; a `text` block
//! must be the output of the block's last command, a `json` block its first line.

mod common;

use common::{repo, NOW};

const SECTIONS: [&str; 3] = [
    "## From an Anthropic response",
    "## From an OpenAI tool call",
    "## Export to W3C annotations",
];

/// The fenced blocks of a section: (language, body).
fn blocks(section: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        let Some(lang) = line.strip_prefix("```") else {
            continue;
        };
        let body: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        out.push((lang.to_string(), body.join("\n") + "\n"));
    }
    out
}

fn section(readme: &str, heading: &str) -> String {
    let start = readme
        .find(&format!("{heading}\n"))
        .unwrap_or_else(|| panic!("README has no {heading:?}"));
    let rest = &readme[start + heading.len()..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    rest[..end].to_string()
}

/// Runs one README command line (`citestore ARGS… [< FILE]`, comments dropped) in `dir`.
fn run(dir: &std::path::Path, line: &str) -> String {
    let line = line.split(" #").next().unwrap().trim();
    let (command, stdin) = match line.split_once(" < ") {
        Some((command, file)) => (command, Some(dir.join(file.trim()))),
        None => (line, None),
    };
    let mut words = command.split_whitespace();
    assert_eq!(words.next(), Some("citestore"), "{line}");
    let mut cmd = assert_cmd::Command::cargo_bin("citestore").unwrap();
    cmd.current_dir(dir)
        .env("CITESTORE_NOW", NOW)
        .env_remove("CITESTORE_DB")
        .args(words);
    if let Some(file) = stdin {
        cmd.write_stdin(std::fs::read(file).unwrap());
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_sections_run_as_written() {
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(repo("fixtures"), dir.path().join("fixtures")).unwrap();
    let mut compared = 0;
    for heading in SECTIONS {
        let mut last = String::new();
        for (lang, body) in blocks(&section(&readme, heading)) {
            match lang.as_str() {
                "sh" => {
                    for line in body.lines().filter(|l| !l.trim().is_empty()) {
                        last = run(dir.path(), line);
                    }
                }
                "text" => {
                    assert_eq!(last, body, "{heading}: the printed output");
                    compared += 1;
                }
                "json" => {
                    let want: serde_json::Value = serde_json::from_str(&body).unwrap();
                    let got: serde_json::Value =
                        serde_json::from_str(last.lines().next().unwrap()).unwrap();
                    assert_eq!(got, want, "{heading}: the first line");
                    compared += 1;
                }
                other => panic!("{heading}: unexpected block {other:?}"),
            }
        }
    }
    assert_eq!(compared, 3, "one printed output per section");
}
