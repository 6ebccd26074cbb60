//! The report as one self-contained HTML page: inline CSS, inline JS, the data as inline JSON,
//! an inline SVG trend chart; nothing is fetched.
//!
//! Invariants (the page's security rests on them):
//! - Store text reaches the page only through [`text`] (element text), [`attr`] (a
//!   double-quoted attribute value) or [`json_for_script`] (the JSON data block, where `<`, `>`,
//!   `&`, U+2028 and U+2029 are `\u` escapes, so neither `</script>` nor `<!--` can end or alter
//!   the block). The script renders citations with `textContent` only.
//! - A Content-Security-Policy meta tag, first in `<head>`, forbids every load (`default-src
//!   'none'`) and allows exactly the page's own script and style by their SHA-256 hashes, so
//!   even a mistake in escaping could not run an injected script or fetch anything.
//! - Invisible text-direction controls (U+202A–U+202E, U+2066–U+2069, …) are shown as visible
//!   `U+202E` tokens, so a document cannot reorder what the reader sees.

use super::{DocumentChanges, Report};
use crate::model::Status;
use crate::store::SweepRow;
use crate::text::plural;
use base64::Engine as _;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

const CSS: &str = include_str!("report.css");
const JS: &str = include_str!("report.js");

/// The statuses as the page lists them, worst first: the canonical order reversed.
fn worst_first() -> impl Iterator<Item = Status> {
    Status::ALL.into_iter().rev()
}

/// Escapes `s` for element text and shows direction controls as visible tokens.
pub fn text(s: &str) -> String {
    let escaped = html_escape::encode_text(s);
    if !escaped.chars().any(is_direction_control) {
        return escaped.into_owned();
    }
    let mut out = String::with_capacity(escaped.len() + 32);
    for ch in escaped.chars() {
        if is_direction_control(ch) {
            let _ = write!(out, "<span class=\"ctrl\">U+{:04X}</span>", ch as u32);
        } else {
            out.push(ch);
        }
    }
    out
}

/// Escapes `s` for a double-quoted attribute value.
pub fn attr(s: &str) -> String {
    html_escape::encode_double_quoted_attribute(s).into_owned()
}

/// Characters that change the display order of the text around them without being seen.
pub fn is_direction_control(ch: char) -> bool {
    matches!(ch, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `value` as JSON that can sit inside `<script type="application/json">`: every `<`, `>` and
/// `&` (which JSON only has inside strings) becomes a `\u` escape, as do the line separators
/// U+2028 and U+2029, so the block cannot be closed or turned into a comment by its data.
pub fn json_for_script<T: serde::Serialize>(value: &T) -> serde_json::Result<String> {
    let json = serde_json::to_string(value)?;
    let mut out = String::with_capacity(json.len() + json.len() / 16);
    for ch in json.chars() {
        match ch {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    Ok(out)
}

fn sha256_base64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(Sha256::digest(s.as_bytes()))
}

/// The policy: nothing may load; only this page's own script and style may run.
pub fn content_security_policy() -> String {
    format!(
        "default-src 'none'; script-src 'sha256-{}'; style-src 'sha256-{}'; img-src 'none'; \
         base-uri 'none'; form-action 'none'",
        sha256_base64(JS),
        sha256_base64(CSS)
    )
}

/// The whole page.
pub fn render(report: &Report) -> serde_json::Result<String> {
    let mut out = String::with_capacity(64 * 1024 + report.citations.len() * 1024);
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>citestore report: {}</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        attr(&content_security_policy()),
        text(&report.title)
    );
    header(&mut out, report);
    summary(&mut out, report);
    trend(&mut out, report);
    documents(&mut out, report);
    filters(&mut out, report);
    let _ = write!(
        out,
        "<script type=\"application/json\" id=\"report-data\">{}</script>\n\
         <script>{JS}</script>\n</body>\n</html>\n",
        json_for_script(report)?
    );
    Ok(out)
}

fn header(out: &mut String, r: &Report) {
    let _ = write!(
        out,
        "<h1>citestore report: {}</h1>\n<p class=\"sub\">made {} from <code>{}</code></p>\n",
        text(&r.title),
        text(&r.generated_at),
        text(&r.database)
    );
    for s in &r.sweeps {
        let _ = writeln!(out, "<p class=\"sub\">{}</p>", text(&sweep_line(s)));
        if s.finished_at.is_none() {
            let _ = writeln!(
                out,
                "<p class=\"notice\">Sweep {} was interrupted: run <code>citestore sweep</code> \
                 again to finish it.</p>",
                s.id
            );
        }
    }
    if r.sweeps.is_empty() {
        out.push_str("<p class=\"notice\">No sweep ran in this range.</p>\n");
    }
    if r.changed == 0 {
        let filtered = !r.status_filter.is_empty() || !r.doc_filter.is_empty();
        let _ = write!(
            out,
            "<p class=\"notice\" id=\"nothing-changed\">No citation changed status or span in \
             these sweeps{}.",
            if filtered {
                " (with these filters)"
            } else {
                ""
            }
        );
        if let Some(id) = r.last_sweep_with_changes {
            let _ = write!(
                out,
                " The newest sweep that changed citations is sweep {id}: \
                 <code>citestore report --sweep {id}</code>."
            );
        }
        out.push_str("</p>\n");
    }
}

fn sweep_line(s: &SweepRow) -> String {
    format!(
        "sweep {}: started {}, {}; {} swept ({} re-extracted, {} re-chunked, \
         {} re-anchored, {} unchanged, {} missing, {} retired, {} failed); {} re-anchored \
         ({} changed status or span, {} carried to a new revision with the same status and \
         span); {}",
        s.id,
        s.started_at,
        s.finished_at
            .as_ref()
            .map_or("interrupted".to_string(), |f| format!("finished {f}")),
        plural(s.documents, "document", "documents"),
        s.re_extracted,
        s.rechunked,
        s.reanchored,
        s.unchanged,
        s.missing,
        s.retired,
        s.failed,
        plural(s.citations, "citation", "citations"),
        s.citations_changed,
        s.citations_carried,
        s.seconds
            .map_or("no timing".to_string(), |x| format!("{x:.2} s"))
    )
}

/// The citations a sweep carried to a new revision with the same status and span, counted
/// apart from the changes.
fn revision_only_note(r: &Report) -> String {
    match r.revision_only {
        0 => String::new(),
        n => format!(
            " <span id=\"revision-only\" data-count=\"{n}\">{} more {} carried to a new \
             revision with the same status and span.</span>",
            thousands(n as i64),
            if n == 1 { "was" } else { "were" }
        ),
    }
}

fn summary(out: &mut String, r: &Report) {
    let _ = write!(
        out,
        "<h2>What changed</h2>\n<p><b id=\"changed-total\" data-count=\"{}\">{}</b> {} \
         changed status or span{}.{}</p>\n<div class=\"cards\">\n",
        r.changed,
        thousands(r.changed as i64),
        if r.changed == 1 {
            "citation"
        } else {
            "citations"
        },
        filter_note(r),
        revision_only_note(r)
    );
    for status in worst_first() {
        let n = r.by_status.get(status.as_str()).copied().unwrap_or(0);
        let _ = writeln!(
            out,
            "<div class=\"count {status}\" data-status=\"{status}\" data-count=\"{n}\"><b>{}</b>{status} now</div>",
            thousands(n as i64)
        );
    }
    out.push_str("</div>\n<div class=\"grid\">\n");
    table(
        out,
        "by method",
        "method-counts",
        r.by_method.iter().map(|(k, v)| (k.as_str(), *v as i64)),
    );
    table(
        out,
        "before \u{2192} now",
        "transitions",
        r.transitions.iter().map(|(k, v)| (k.as_str(), *v as i64)),
    );
    let store: Vec<(&str, i64)> = worst_first()
        .map(|s| {
            (
                s.as_str(),
                r.status_now.get(s.as_str()).copied().unwrap_or(0),
            )
        })
        .collect();
    table(out, "whole store now", "store-counts", store.into_iter());
    out.push_str("</div>\n");
}

fn filter_note(r: &Report) -> String {
    let mut parts = Vec::new();
    if !r.status_filter.is_empty() {
        let names: Vec<&str> = r.status_filter.iter().map(|s| s.as_str()).collect();
        parts.push(format!("status {}", names.join(", ")));
    }
    if !r.doc_filter.is_empty() {
        parts.push(format!("documents {}", r.doc_filter.join(", ")));
    }
    match parts.is_empty() {
        true => String::new(),
        false => format!(" (only {})", text(&parts.join("; "))),
    }
}

fn table<'a>(out: &mut String, title: &str, id: &str, rows: impl Iterator<Item = (&'a str, i64)>) {
    let _ = writeln!(
        out,
        "<table id=\"{id}\"><thead><tr><th>{}</th><th class=\"n\">citations</th></tr></thead><tbody>",
        text(title)
    );
    for (key, n) in rows {
        let _ = writeln!(
            out,
            "<tr data-key=\"{}\"><td>{}</td><td class=\"n\">{}</td></tr>",
            attr(key),
            text(key),
            thousands(n)
        );
    }
    out.push_str("</tbody></table>\n");
}

/// 1234567 → `1,234,567`.
fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

/// The statuses the trend chart draws, and their colours.
const COLOURS: [(Status, &str); 3] = [
    (Status::Moved, "#1565c0"),
    (Status::Degraded, "#a15c00"),
    (Status::Lost, "#c62828"),
];

fn count_of(s: &SweepRow, status: Status) -> i64 {
    match status {
        Status::Intact => s.intact,
        Status::Moved => s.moved,
        Status::Degraded => s.degraded,
        Status::Lost => s.lost,
    }
}

/// Bars of moved, degraded and lost citations (whole store, at the end of each sweep), then the
/// same sweeps as a table.
fn trend(out: &mut String, r: &Report) {
    out.push_str("<h2>Trend over the last sweeps</h2>\n");
    if r.trend.is_empty() {
        return;
    }
    let (width, height, left, bottom) = (760.0_f64, 190.0_f64, 56.0_f64, 28.0_f64);
    let plot_h = height - bottom - 10.0;
    let max = r
        .trend
        .iter()
        .flat_map(|s| COLOURS.iter().map(move |(k, _)| count_of(s, *k)))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let slot = (width - left - 10.0) / r.trend.len() as f64;
    let bar = (slot * 0.8 / 3.0).min(18.0);
    let _ = write!(
        out,
        "<svg id=\"trend\" role=\"img\" aria-label=\"moved, degraded and lost citations per sweep\" \
         width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n\
         <line x1=\"{left}\" y1=\"10\" x2=\"{left}\" y2=\"{y0}\" stroke=\"#999\"/>\
         <line x1=\"{left}\" y1=\"{y0}\" x2=\"{width}\" y2=\"{y0}\" stroke=\"#999\"/>\
         <text x=\"{lx}\" y=\"14\" text-anchor=\"end\">{maxl}</text>\
         <text x=\"{lx}\" y=\"{y0}\" text-anchor=\"end\">0</text>\n",
        y0 = 10.0 + plot_h,
        lx = left - 4.0,
        maxl = thousands(max as i64)
    );
    for (i, s) in r.trend.iter().enumerate() {
        let x0 = left + slot * i as f64 + (slot - bar * 3.0) / 2.0;
        for (j, (status, colour)) in COLOURS.iter().enumerate() {
            let n = count_of(s, *status);
            let h = plot_h * n as f64 / max;
            let _ = write!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{bar:.1}\" height=\"{h:.1}\" fill=\"{colour}\">\
                 <title>sweep {}: {} {status}</title></rect>",
                x0 + bar * j as f64,
                10.0 + plot_h - h,
                s.id,
                thousands(n)
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x0 + bar * 1.5,
            height - 10.0,
            s.id
        );
    }
    let mut lx = left + 10.0;
    for (status, colour) in COLOURS {
        let _ = write!(
            out,
            "<rect x=\"{lx}\" y=\"2\" width=\"10\" height=\"10\" fill=\"{colour}\"/>\
             <text x=\"{}\" y=\"11\">{status}</text>",
            lx + 14.0
        );
        lx += 90.0;
    }
    out.push_str("</svg>\n");
    trend_table(out, r);
}

fn trend_table(out: &mut String, r: &Report) {
    out.push_str(
        "<table id=\"trend-table\"><thead><tr><th>sweep</th><th>finished</th>\
         <th class=\"n\">docs</th><th class=\"n\">changed</th><th class=\"n\">missing</th>\
         <th class=\"n\">failed</th><th class=\"n\">re-anchored</th>\
         <th class=\"n\">intact</th><th class=\"n\">moved</th><th class=\"n\">degraded</th>\
         <th class=\"n\">lost</th><th class=\"n\">seconds</th></tr></thead><tbody>\n",
    );
    let in_range = |id: i64| r.sweeps.iter().any(|s| s.id == id);
    for s in r.trend.iter().rev() {
        let _ = writeln!(
            out,
            "<tr{}><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            if in_range(s.id) {
                " class=\"inrange\""
            } else {
                ""
            },
            s.id,
            text(s.finished_at.as_deref().unwrap_or("interrupted")),
            thousands(s.documents),
            thousands(s.changed),
            thousands(s.missing),
            thousands(s.failed),
            thousands(s.citations),
            thousands(s.intact),
            thousands(s.moved),
            thousands(s.degraded),
            thousands(s.lost),
            s.seconds.map_or("-".into(), |x| format!("{x:.2}"))
        );
    }
    out.push_str("</tbody></table>\n");
}

/// Documents with changed citations, worst first (at most 200 rows; the filter has them all).
fn documents(out: &mut String, r: &Report) {
    const ROWS: usize = 200;
    let _ = writeln!(
        out,
        "<h2>Documents with changed citations ({})</h2>",
        thousands(r.documents.len() as i64)
    );
    if r.documents.is_empty() {
        return;
    }
    out.push_str(
        "<table id=\"documents\"><thead><tr><th>document</th><th class=\"n\">changed</th>\
         <th class=\"n\">lost</th><th class=\"n\">degraded</th><th class=\"n\">moved</th>\
         <th class=\"n\">intact</th></tr></thead><tbody>\n",
    );
    for d in r.documents.iter().take(ROWS) {
        document_row(out, d);
    }
    out.push_str("</tbody></table>\n");
    if r.documents.len() > ROWS {
        let _ = writeln!(
            out,
            "<p class=\"sub\">and {} more {}; pick one in the document filter below.</p>",
            thousands((r.documents.len() - ROWS) as i64),
            if r.documents.len() - ROWS == 1 {
                "document"
            } else {
                "documents"
            }
        );
    }
}

fn document_row(out: &mut String, d: &DocumentChanges) {
    let get = |s: Status| thousands(d.status.get(s.as_str()).copied().unwrap_or(0) as i64);
    let _ = writeln!(
        out,
        "<tr><td><button type=\"button\" class=\"doc\" data-doc=\"{}\" title=\"show only this \
         document\"><bdi>{}</bdi></button></td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
         <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
        attr(&d.doc_id),
        text(&d.doc_id),
        thousands(d.changed as i64),
        get(Status::Lost),
        get(Status::Degraded),
        get(Status::Moved),
        get(Status::Intact)
    );
}

/// The filter bar, the note about citations left out, and the list the script fills.
fn filters(out: &mut String, r: &Report) {
    out.push_str(
        "<h2 id=\"filters\">Changed citations, worst first</h2>\n<div class=\"controls\">\n",
    );
    let in_page = |status: Status| r.citations.iter().filter(|c| c.status == status).count();
    for status in worst_first() {
        let _ = writeln!(
            out,
            "<label><input type=\"checkbox\" name=\"status\" value=\"{status}\" checked> \
             <span class=\"badge {status}\">{status}</span> {}</label>",
            thousands(in_page(status) as i64)
        );
    }
    out.push_str(
        "<select id=\"doc-filter\" aria-label=\"document\"><option value=\"\">all documents\
         </option>",
    );
    let mut docs: Vec<&str> = r.citations.iter().map(|c| c.doc_id.as_str()).collect();
    docs.sort_unstable();
    docs.dedup();
    for doc in docs {
        let _ = write!(
            out,
            "<option value=\"{}\">{}</option>",
            attr(doc),
            text(doc)
        );
    }
    out.push_str(
        "</select>\n<input type=\"search\" id=\"search\" placeholder=\"search claim, quote, \
         text, id\u{2026}\" aria-label=\"search\">\n<span id=\"shown-count\" class=\"sub\"></span>\n\
         </div>\n<p class=\"notice\" id=\"hash-notice\" hidden></p>\n",
    );
    if r.omitted > 0 {
        let _ = writeln!(
            out,
            "<p class=\"notice\" id=\"omitted\" data-count=\"{}\">This file holds the worst {} of \
             {} changed citations; {} more are left out. <code>citestore report --limit 0</code> \
             writes them all, or narrow with <code>--status</code> and <code>--doc</code>.</p>",
            r.omitted,
            thousands(r.citations.len() as i64),
            thousands(r.changed as i64),
            thousands(r.omitted as i64)
        );
    }
    out.push_str(
        "<noscript><p class=\"notice\">The citation list needs JavaScript; \
         <code>citestore list</code> and <code>citestore show</code> give the same in a \
         terminal.</p></noscript>\n<div id=\"citations\"></div>\n\
         <p><button type=\"button\" id=\"show-more\" hidden>Show 200 more</button></p>\n",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_context_escapes_what_could_end_it() {
        // (input, escaper, must not contain)
        let hostile = "</script><script>x()</script><!-- \"'><img src=x onerror=y()>&amp;\u{2028}";
        let json = json_for_script(&hostile).unwrap();
        for bad in ["<", ">", "&", "\u{2028}"] {
            assert!(!json.contains(bad), "json keeps {bad:?}: {json}");
        }
        assert_eq!(serde_json::from_str::<String>(&json).unwrap(), hostile);
        let t = text(hostile);
        assert!(!t.contains('<') && !t.contains('>'), "{t}");
        let a = attr(hostile);
        assert!(!a.contains('"') && !a.contains('<'), "{a}");
    }

    #[test]
    fn direction_controls_become_visible_tokens() {
        assert_eq!(
            text("invoice\u{202E}fdp.exe"),
            "invoice<span class=\"ctrl\">U+202E</span>fdp.exe"
        );
        assert_eq!(text("plain"), "plain");
    }

    #[test]
    fn the_policy_names_the_hashes_of_the_page_own_script_and_style() {
        let csp = content_security_policy();
        assert!(csp.starts_with("default-src 'none';"), "{csp}");
        assert!(csp.contains(&format!("'sha256-{}'", sha256_base64(JS))));
        assert!(!csp.contains("unsafe-inline"));
    }

    #[test]
    fn thousands_groups_digits() {
        for (n, s) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (1234567, "1,234,567"),
        ] {
            assert_eq!(thousands(n), s);
        }
    }
}
