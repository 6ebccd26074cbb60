//! The README's "Quick start: the command line" and "Citations from every provider" (one
//! block per provider), and docs/integrations.md's "From an Anthropic
//! response", "From an OpenAI tool call" and "Export to W3C annotations", run as written: every
//! command of their `sh` blocks through the real binary, in order, in a scratch folder per file
//! where `fixtures/` is the repository's; a `text` block must be the output of the block's last
//! command, a `json` block its first line. Also: every relative link in README.md and docs/*.md
//! leads to a file that exists, and to a heading of it when it names one.

use crate::common;

use common::{repo, NOW};

/// Each file's sections, run in order in one scratch folder, and how many printed outputs they
/// compare.
const RUNS: [(&str, &[&str], usize); 2] = [
    (
        "README.md",
        &[
            "## Quick start: the command line",
            "## Citations from every provider",
        ],
        7,
    ),
    (
        "docs/integrations.md",
        &[
            "## From an Anthropic response",
            "## From an OpenAI tool call",
            "## Export to W3C annotations",
        ],
        3,
    ),
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
        .unwrap_or_else(|| panic!("no {heading:?}"));
    let rest = &readme[start + heading.len()..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    rest[..end].to_string()
}

/// Runs one documented command line (`citestore ARGS… [< FILE]`, comments dropped) in `dir`.
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
    for (file, sections, outputs) in RUNS {
        let compared = run_sections(file, sections);
        assert_eq!(compared, outputs, "{file}: one printed output per section");
    }
}

/// Runs `sections` of `file` in order in a fresh scratch folder; returns how many printed
/// outputs were compared.
fn run_sections(file: &str, sections: &[&str]) -> usize {
    let readme = std::fs::read_to_string(repo(file)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(repo("fixtures"), dir.path().join("fixtures")).unwrap();
    let mut compared = 0;
    for &heading in sections {
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
    compared
}

/// The text outside fenced blocks and inline code spans (where `](` is not a link).
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    // A code span runs from a run of backticks to the next run of the same length.
    let mut text = String::new();
    let mut rest = out.as_str();
    while let Some(open) = rest.find('`') {
        text.push_str(&rest[..open]);
        let ticks = rest[open..].len() - rest[open..].trim_start_matches('`').len();
        let after = &rest[open + ticks..];
        let fence = "`".repeat(ticks);
        let mut close = None;
        let mut from = 0;
        while let Some(i) = after[from..].find(&fence) {
            let at = from + i;
            let run = after[at..].len() - after[at..].trim_start_matches('`').len();
            if run == ticks {
                close = Some(at);
                break;
            }
            from = at + run;
        }
        match close {
            Some(at) => rest = &after[at + ticks..],
            None => {
                text.push_str(&rest[open..open + ticks]);
                rest = after;
            }
        }
    }
    text.push_str(rest);
    text
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, other punctuation dropped, a
/// repeated anchor numbered `-1`, `-2`, ….
fn anchors(markdown: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let title = line.trim_start_matches('#');
        if fenced || title.len() == line.len() || !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let n = seen.iter().filter(|s| **s == slug).count();
        seen.push(slug.clone());
        if n > 0 {
            seen.push(format!("{slug}-{n}"));
        }
    }
    seen
}

#[test]
fn every_relative_link_in_the_readme_and_docs_resolves() {
    let mut files = vec![repo("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(repo("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    assert!(docs.len() >= 5, "docs/*.md: {docs:?}");
    files.extend(docs);
    let mut checked = 0;
    let mut broken = Vec::new();
    for file in &files {
        let markdown = std::fs::read_to_string(file).unwrap();
        let text = prose(&markdown);
        for (at, _) in text.match_indices("](") {
            let target = &text[at + 2..];
            let target = &target[..target.find(')').expect("a link's closing parenthesis")];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            checked += 1;
            let name = file.strip_prefix(repo("")).unwrap().display();
            if !linked.exists() {
                broken.push(format!("{name}: {target}: no such file"));
            } else if !anchor.is_empty() {
                let heads = anchors(&std::fs::read_to_string(&linked).unwrap());
                if !heads.iter().any(|h| h == anchor) {
                    broken.push(format!("{name}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked >= 40, "only {checked} links found");
}
