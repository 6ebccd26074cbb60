//! `citestore report` opened in a real browser: headless Chromium (Debian's `chromium`) driven
//! by playwright-core (tests/browser/report.test.js). The stores are built through the real
//! binary. Under `CI=true` a missing chromium, node or `npm ci --prefix tests/browser` FAILS;
//! elsewhere the tests say what is missing and skip.
//!
//! `CITESTORE_REPORT_SCREENSHOT=docs/report-demo.png cargo test --test report_browser demo`
//! also saves the screenshot shown in the README.

use crate::common;
use crate::stores;

use common::Scratch;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use stores::{export, repo};

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// Chromium and node, or `None` (skip) when one is missing and this is not CI.
fn browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = std::env::var_os("CITESTORE_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| on_path("chromium"));
    let node = on_path("node");
    let modules = repo("tests/browser/node_modules/playwright-core/package.json");
    let mut missing = Vec::new();
    if chromium.is_none() {
        missing.push("chromium (apt-get install chromium)");
    }
    if node.is_none() {
        missing.push("node");
    }
    if !modules.is_file() {
        missing.push("playwright-core (npm ci --prefix tests/browser)");
    }
    if missing.is_empty() {
        return Some((chromium.unwrap(), node.unwrap()));
    }
    let message = format!("browser test needs {}", missing.join(", "));
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{message}; .ci/run installs them");
    }
    eprintln!("SKIPPED (CI is not set): {message}");
    None
}

/// Runs the browser script on `page` in `mode`; returns what it measured.
fn run_browser(s: &Scratch, page: &Path, mode: &str, expect: Value) -> Option<Value> {
    let (chromium, node) = browser()?;
    let mut spec = json!({"page": page, "mode": mode, "chromium": chromium, "expect": expect});
    if mode == "demo" {
        if let Some(shot) = std::env::var_os("CITESTORE_REPORT_SCREENSHOT") {
            spec["screenshot"] = json!(repo("").join(shot));
        }
    }
    let spec_file = s.write("browser-spec.json", spec.to_string());
    let out = std::process::Command::new(node)
        .arg(repo("tests/browser/report.test.js"))
        .arg(&spec_file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "browser check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn demo_report_loads_counts_filters_and_links_in_chromium() {
    let s = stores::demo();
    let page = s.path("report.html");
    s.succeeds(&["report", "--sweep", "1", "--out", page.to_str().unwrap()]);
    // What the page must show, from `export` (every citation sweep 1 changed is not intact).
    let changed: Vec<_> = export(&s)
        .into_iter()
        .filter(|c| c.status != "intact")
        .collect();
    assert_eq!(changed.len(), 4);
    let mut counts: BTreeMap<&str, usize> = ["lost", "degraded", "moved", "intact"]
        .map(|k| (k, 0))
        .into();
    let mut docs: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &changed {
        *counts.get_mut(c.status.as_str()).unwrap() += 1;
        *docs.entry(&c.doc_id).or_insert(0) += 1;
    }
    let seats = changed
        .iter()
        .find(|c| c.quote.contains("unlimited seats"))
        .unwrap();
    let expect = json!({
        "total": changed.len(),
        "counts": counts,
        "docs": docs,
        "ids": changed.iter().map(|c| &c.id).collect::<Vec<_>>(),
        "moved": changed.iter().filter(|c| c.status == "moved").map(|c| &c.id).collect::<Vec<_>>(),
        "search": {"query": "UNLIMITED seats", "id": seats.id},
    });
    let measured = run_browser(&s, &page, "demo", expect);
    if let Some(m) = measured {
        assert_eq!(m["cards"], 4, "{m}");
    }
}

#[test]
fn hostile_documents_run_nothing_in_chromium() {
    let s = stores::hostile();
    let page = s.path("report.html");
    s.succeeds(&["report", "--out", page.to_str().unwrap()]);
    let statuses: Vec<String> = export(&s).into_iter().map(|c| c.status).collect();
    assert_eq!(statuses.iter().filter(|s| *s == "intact").count(), 0);
    let mut literals: Vec<&str> = stores::PAYLOADS
        .iter()
        .map(|p| p.split_once(": ").unwrap().1)
        .collect();
    literals.push(stores::HOSTILE_DOC);
    literals.push("Claim 0 <script>window.__pwned='claim0'</script>");
    let expect = json!({"cards": statuses.len(), "literals": literals});
    if let Some(m) = run_browser(&s, &page, "hostile", expect) {
        assert_eq!(m["cards"], 6, "{m}");
    }
}
