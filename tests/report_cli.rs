//! `citestore report` through the real binary, without a browser: what it writes and prints,
//! which sweeps and citations it covers, the row cap, bad input, and what the file holds (CSP,
//! no raw payloads). The page in a browser is tests/report_browser.rs.

use crate::common;
use crate::stores;

use serde::Deserialize;
use std::collections::BTreeMap;
use stores::{HOSTILE_DOC, PAYLOADS};

#[derive(Debug, Deserialize)]
struct Written {
    out: String,
    bytes: u64,
    sweeps: Vec<i64>,
    changed: usize,
    included: usize,
    omitted: usize,
    status: BTreeMap<String, usize>,
    documents: usize,
}

/// The JSON data block of a written page.
fn data(page: &str) -> serde_json::Value {
    let start = page.find("id=\"report-data\">").unwrap() + "id=\"report-data\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

#[test]
fn the_latest_sweep_by_default_and_a_pointer_when_it_changed_nothing() {
    let s = stores::demo();
    let w: Written = s.json(&["report", "--json"]);
    assert_eq!(w.out, "citestore-report.html");
    assert_eq!(w.sweeps, [2], "the latest sweep is the default");
    assert_eq!(w.changed, 0);
    let page = std::fs::read_to_string(s.path("citestore-report.html")).unwrap();
    assert_eq!(w.bytes, page.len() as u64);
    assert!(
        page.contains("id=\"nothing-changed\""),
        "says nothing changed"
    );
    assert!(
        page.contains("<code>citestore report --sweep 1</code>"),
        "points at the sweep that did"
    );
}

#[test]
fn one_sweep_since_a_sweep_since_a_date_with_filters() {
    let s = stores::demo();
    let one: Written = s.json(&["report", "--sweep", "1", "--out", "one.html", "--json"]);
    assert_eq!((one.sweeps.as_slice(), one.changed), (&[1][..], 4));
    assert_eq!(
        one.status,
        BTreeMap::from([
            ("degraded".into(), 1),
            ("lost".into(), 1),
            ("moved".into(), 2)
        ])
    );
    assert_eq!(one.documents, 2);
    // (args, sweeps covered, changed citations)
    let cases: [(&[&str], &[i64], usize); 6] = [
        (&["--since", "0"], &[1, 2], 4),
        (&["--since", "1"], &[2], 0),
        (&["--since", "2026-01-02"], &[1, 2], 4),
        (&["--since", "2026-01-03T00:00:00Z"], &[], 0),
        (&["--sweep", "1", "--status", "lost,degraded"], &[1], 2),
        (&["--sweep", "1", "--doc", "plans.md"], &[1], 1),
    ];
    for (args, sweeps, changed) in cases {
        let mut all = vec!["report", "--json", "--out", "r.html"];
        all.extend_from_slice(args);
        let w: Written = s.json(&all);
        assert_eq!(
            (w.sweeps.as_slice(), w.changed),
            (sweeps, changed),
            "{args:?}"
        );
    }
    let page = std::fs::read_to_string(s.path("one.html")).unwrap();
    let d = data(&page);
    let statuses: Vec<&str> = d["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["lost", "degraded", "moved", "moved"],
        "worst first"
    );
    // The degraded citation marks the characters that changed on each side.
    let degraded = &d["citations"][1];
    let changed = |side: &str| -> String {
        degraded[side]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["changed"] == true)
            .map(|p| p["text"].as_str().unwrap())
            .collect()
    };
    assert_eq!((changed("old"), changed("new")), ("5  ".into(), "6".into()));
    assert!(d["citations"][0]["new"].is_null(), "lost has no new span");
}

#[test]
fn the_row_cap_keeps_the_worst_and_counts_the_rest() {
    let s = stores::demo();
    let w: Written = s.json(&["report", "--sweep", "1", "--limit", "2", "--json"]);
    assert_eq!((w.changed, w.included, w.omitted), (4, 2, 2));
    let page = std::fs::read_to_string(s.path("citestore-report.html")).unwrap();
    assert!(page.contains("id=\"omitted\" data-count=\"2\""));
    let d = data(&page);
    assert_eq!(d["citations"].as_array().unwrap().len(), 2);
    assert_eq!(d["citations"][0]["status"], "lost");
    // Counts are over every changed citation, not only those in the file.
    assert_eq!(d["changed"], 4);
    let all: Written = s.json(&["report", "--sweep", "1", "--limit", "0", "--json"]);
    assert_eq!((all.included, all.omitted), (4, 0));
}

#[test]
fn bad_input_is_one_line_exit_2_and_no_file() {
    let s = stores::demo();
    let cases: [(&[&str], &str); 6] = [
        (&["--sweep", "9"], "sweep 9 is not in the store"),
        (&["--since", "7"], "sweep 7 is not in the store"),
        (
            &["--since", "yesterday"],
            "--since \"yesterday\": not a sweep id or a date",
        ),
        (
            &["--doc", "nope.md"],
            "document \"nope.md\" is not in the store",
        ),
        (&["--status", "fine"], "invalid value 'fine'"),
        (
            &["--out", "no/such/dir/r.html"],
            "no/such/dir: no such file or folder",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["report"];
        all.extend_from_slice(args);
        let out = s.cmd().args(&all).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        if !message.starts_with("invalid value") {
            assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        }
        assert!(!s.path("citestore-report.html").exists(), "{args:?} wrote");
    }
    let leftovers: Vec<_> = std::fs::read_dir(s.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // No sweep yet.
    let fresh = common::Scratch::new();
    fresh.write("a.md", "some text here");
    fresh.ingest(&["a.md"]);
    let err = fresh.fails(&["report"]);
    assert!(err.contains("no sweep has run on this store yet"), "{err}");
}

#[test]
fn the_file_loads_nothing_and_holds_no_raw_payload() {
    let s = stores::hostile();
    s.succeeds(&["report", "--out", "h.html"]);
    let page = std::fs::read_to_string(s.path("h.html")).unwrap();
    let head = &page[..page.find("</head>").unwrap()];
    let csp_at = head
        .find("Content-Security-Policy")
        .expect("a CSP meta tag");
    assert!(csp_at < head.find("<style>").unwrap(), "CSP comes first");
    assert!(head.contains("default-src 'none'; script-src 'sha256-"));
    for external in ["http:", "https:", "//cdn", "src=\"", "@import", "url("] {
        assert!(!page.contains(external), "the page refers to {external}");
    }
    // Exactly the page's own two scripts, and none of the payloads as markup.
    assert_eq!(page.matches("<script").count(), 2);
    assert_eq!(page.matches("</script>").count(), 2);
    for payload in [
        "<img",
        "<svg onload",
        "onerror=\"",
        "<!--",
        "<b onmouseover",
    ] {
        assert!(!page.contains(payload), "raw {payload:?} in the page");
    }
    // The data block still carries every payload, character for character.
    let d = data(&page);
    let quotes: Vec<&str> = d["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["quote"].as_str().unwrap())
        .collect();
    for payload in PAYLOADS {
        assert!(quotes.contains(&payload), "{payload:?} lost on the way");
    }
    assert!(!page.contains('\u{2028}'), "U+2028 escaped");
    // The hostile doc id as an attribute and as text.
    assert!(page.contains("data-doc=\"&quot;&gt;&lt;svg onload=window.__pwned='docid'&gt;.md\""));
    assert!(page.contains("<bdi>\"&gt;&lt;svg onload=window.__pwned='docid'&gt;.md</bdi>"));
    assert!(HOSTILE_DOC.contains("<svg"));
}

#[test]
fn show_prints_the_report_anchor() {
    let s = stores::demo();
    let w: serde_json::Value = s.json(&["report", "--sweep", "1", "--json"]);
    assert_eq!(w["changed"], 4);
    let page = std::fs::read_to_string(s.path("citestore-report.html")).unwrap();
    let first = data(&page)["citations"][0].clone();
    let id = first["citation_id"].as_str().unwrap();
    let shown = s.succeeds(&["show", id]);
    let line = format!(
        "report   citestore-report.html#{}",
        first["anchor"].as_str().unwrap()
    );
    assert!(shown.contains(&line), "{shown}");
    let json: serde_json::Value = s.json(&["show", id, "--json"]);
    assert_eq!(json["report_anchor"], format!("#{id}"));
}

/// Runs `report --out OUT` in the demo store; expects exit 2 and one line naming `says`.
fn refused(s: &common::Scratch, out: &std::path::Path, says: &str) {
    let run = s.cmd().args(["report", "--out"]).arg(out).output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{out:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(says), "{out:?}: {stderr}");
    assert!(
        stderr.contains(&out.display().to_string()),
        "names {out:?}: {stderr}"
    );
}

#[test]
fn special_files_and_read_only_targets_are_refused_and_left_as_they_were() {
    use std::os::unix::fs::{FileTypeExt as _, PermissionsExt as _};
    let s = stores::demo();
    // A device node and a link to the process's own stdout: root could rename over either.
    refused(
        &s,
        std::path::Path::new("/dev/null"),
        "is a character device, not a regular file",
    );
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    refused(
        &s,
        std::path::Path::new("/dev/stdout"),
        "not a regular file",
    );
    assert!(std::fs::symlink_metadata("/dev/stdout")
        .unwrap()
        .is_symlink());
    // A read-only page (root may write it, but the user said it must not change).
    let read_only = s.write("kept.html", "the page to keep");
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    refused(&s, &read_only, "is read-only (mode 0444)");
    assert_eq!(
        std::fs::read_to_string(&read_only).unwrap(),
        "the page to keep"
    );
    let mode = std::fs::metadata(&read_only).unwrap().permissions().mode();
    assert_eq!(mode & 0o7777, 0o444);
    // A folder, and a link to nothing.
    refused(&s, &s.path("docs"), "is a folder, not a regular file");
    std::os::unix::fs::symlink(s.path("nowhere.html"), s.path("dangling.html")).unwrap();
    refused(
        &s,
        &s.path("dangling.html"),
        "is a link to a file that does not exist",
    );
    assert!(!s.path("nowhere.html").exists());
    let temps: Vec<_> = std::fs::read_dir(s.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(temps.is_empty(), "{temps:?}");
}

#[test]
fn a_link_planted_at_a_temporary_name_is_never_followed() {
    let s = stores::demo();
    let victim = s.write("victim.txt", "not yours to write");
    // The names a predictable scheme (`.NAME.PID.tmp`) would use for the next few hundred
    // processes, each a link to the victim.
    let last: u32 = std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let planted: Vec<_> = (last..last + 400)
        .map(|pid| {
            let link = s.path(&format!(".r.html.{pid}.tmp"));
            std::os::unix::fs::symlink(&victim, &link).unwrap();
            link
        })
        .collect();
    s.succeeds(&["report", "--sweep", "1", "--out", "r.html"]);
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "not yours to write"
    );
    assert!(std::fs::read_to_string(s.path("r.html"))
        .unwrap()
        .contains("<html"));
    for link in &planted {
        assert!(
            std::fs::symlink_metadata(link).unwrap().is_symlink(),
            "{link:?}"
        );
    }
    let others = std::fs::read_dir(s.dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")
        })
        .count();
    assert_eq!(others, planted.len(), "no temporary file of its own left");
}

#[test]
fn a_replaced_page_keeps_its_mode_and_a_new_one_follows_the_umask() {
    use std::os::unix::fs::PermissionsExt as _;
    let s = stores::demo();
    let page = s.write("shared.html", "old page");
    std::fs::set_permissions(&page, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = s.path("latest.html");
    std::os::unix::fs::symlink(&page, &link).unwrap();
    s.succeeds(&["report", "--sweep", "1", "--out", "latest.html"]);
    assert!(std::fs::read_to_string(&page).unwrap().contains("<html"));
    assert_eq!(
        std::fs::metadata(&page).unwrap().permissions().mode() & 0o7777,
        0o640
    );
    assert!(
        std::fs::symlink_metadata(&link).unwrap().is_symlink(),
        "the link stays a link"
    );
    // A new page: 0666 less the umask, as any file the user makes.
    let bin = assert_cmd::cargo::cargo_bin("citestore");
    for (umask, name, mode) in [("027", "private.html", 0o640), ("002", "group.html", 0o664)] {
        let status = std::process::Command::new("sh")
            .current_dir(s.dir.path())
            .env("CITESTORE_NOW", "2026-01-01T00:00:00Z")
            .arg("-c")
            .arg(format!(
                "umask {umask} && exec \"$0\" --db \"$1\" report --sweep 1 --out {name}"
            ))
            .arg(&bin)
            .arg(s.db())
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        let got = std::fs::metadata(s.path(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o7777;
        assert_eq!(got, mode, "umask {umask}: {got:o}");
    }
}
