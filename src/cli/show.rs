//! `citestore show`: one citation, where it was, where it is, and how it got there.

use super::{Context as CliContext, Exit};
use crate::model::Status;
use crate::output::{current, Current};
use crate::store::{AnchorRow, CitationRecord, Store, VerificationRow};
use crate::text::plural;
use serde::{Deserialize, Serialize};
use similar::{ChangeTag, TextDiff};

/// Show one citation: where it was, where it is now, and its history.
///
/// Show a citation: its claim and quote, the original span in its revision with context, the
/// current anchor in the current revision with the matched text highlighted and the differences
/// from the original marked, the full anchor history, and the claim's verifications.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The citation id (`c-…`).
    #[arg(value_name = "CITATION_ID")]
    citation: String,

    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// What `show --json` prints, one JSON object.
///
/// Fields: `id` (the citation id, as in `export`), `citation` (the stored citation: its
/// `citation_id` (= `id`), claim, quote, SourceRef and context), `status`, `current` (as in
/// `export`, `null` when lost), `current_text`, `changes`, `history`, `verifications`,
/// `report_anchor`.
#[derive(Debug, Serialize, Deserialize)]
pub struct ShowOutput {
    /// Citation id (`citation.citation_id`), the name every command uses.
    pub id: String,
    /// The stored citation (the original SourceRef and its context).
    pub citation: CitationRecord,
    /// intact, moved, degraded or lost.
    pub status: Status,
    /// The current anchor; `null` when lost.
    pub current: Option<Current>,
    /// The current revision's text at the current anchor.
    pub current_text: Option<String>,
    /// Original span text → current text, removed `[-…-]`, added `{+…+}`.
    pub changes: Option<String>,
    /// Every anchors row, oldest first.
    pub history: Vec<AnchorRow>,
    /// The claim's verifications, oldest first.
    pub verifications: Vec<VerificationRow>,
    /// Its anchor in a `citestore report` page (`#c-…`).
    pub report_anchor: String,
    /// For a citation imported from an API response: the API's own location and whether our
    /// text agreed (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_location: Option<crate::output::LocationOutput>,
}

fn slice(text: &str, start: usize, end: usize) -> String {
    text.chars()
        .skip(start)
        .take(end.saturating_sub(start))
        .collect()
}

fn marked_changes(old: &str, new: &str) -> String {
    let diff = TextDiff::from_chars(old, new);
    let mut out = String::new();
    for change in diff.iter_all_changes() {
        let (open, close) = match change.tag() {
            ChangeTag::Equal => ("", ""),
            ChangeTag::Delete => ("[-", "-]"),
            ChangeTag::Insert => ("{+", "+}"),
        };
        out.push_str(open);
        out.push_str(change.value());
        out.push_str(close);
    }
    out.replace("-][-", "").replace("+}{+", "")
}

pub fn run(args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let store = Store::open_read(&ctx.db)?;
    let citation = store.citation(&args.citation)?;
    let state = store
        .all_states(Some(&citation.doc_id))?
        .into_iter()
        .find(|s| s.row == citation.row)
        .expect("every citation has a state");
    let current = current(&state, |doc, seq, start, end| {
        store.chunk_holding(doc, seq, start, end)
    })?;
    let current_text = match &current {
        Some(c) => Some(slice(
            &store.text_of(&citation.doc_id, c.revision)?,
            c.start,
            c.end,
        )),
        None => None,
    };
    let changes = current_text
        .as_ref()
        .filter(|t| **t != citation.span_text)
        .map(|t| marked_changes(&citation.span_text, t));
    let api_location = match store.api_location(citation.row)? {
        Some(l) => Some(crate::output::LocationOutput {
            kind: l.kind,
            agreement: l.agreement,
            note: l.note,
            api: serde_json::from_str(&l.location)?,
        }),
        None => None,
    };
    let out = ShowOutput {
        api_location,
        id: citation.citation_id.clone(),
        report_anchor: format!("#{}", crate::report::anchor(&citation.citation_id)),
        history: store.anchor_history(citation.row)?,
        verifications: store.claim_verifications(citation.claim_row)?,
        status: state.status,
        citation,
        current,
        current_text,
        changes,
    };
    if args.json {
        println!("{}", serde_json::to_string(&out)?);
    } else {
        print_human(&store, &out)?;
    }
    Ok(Exit::Ok)
}

fn one_line(s: &str) -> String {
    s.replace('\n', "\u{23CE}")
}

fn print_human(store: &Store, out: &ShowOutput) -> anyhow::Result<()> {
    let c = &out.citation;
    let (open, close) = super::color::highlight();
    println!(
        "citation {}  ({}, now {})",
        c.citation_id, c.verdict, out.status
    );
    println!("claim    {}", c.claim);
    println!("quote    {:?}", c.quote);
    println!(
        "cited    {} r{} [{}, {})  chunk {}",
        c.doc_id, c.revision, c.start, c.end, c.chunk_id
    );
    if let Some(api) = &out.api_location {
        println!(
            "api      {} {}: our text {}{}",
            api.kind,
            api.api,
            api.agreement,
            api.note
                .as_deref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        );
    }
    println!(
        "         \u{2026}{}{open}{}{close}{}\u{2026}",
        one_line(&c.prefix),
        one_line(&c.span_text),
        one_line(&c.suffix)
    );
    match &out.current {
        None => println!(
            "now      lost: no candidate at or above the review cut-off; last known span kept"
        ),
        Some(cur) => {
            let text = store.text_of(&c.doc_id, cur.revision)?;
            let chars: Vec<char> = text.chars().collect();
            let before: String = chars[cur.start.saturating_sub(40)..cur.start]
                .iter()
                .collect();
            let after: String = chars[cur.end..(cur.end + 40).min(chars.len())]
                .iter()
                .collect();
            println!(
                "now      {} r{} [{}, {})  chunk {}  ({} {:.1})",
                c.doc_id,
                cur.revision,
                cur.start,
                cur.end,
                cur.chunk_id.as_deref().unwrap_or("-"),
                cur.method,
                cur.score
            );
            println!(
                "         \u{2026}{}{open}{}{close}{}\u{2026}",
                one_line(&before),
                one_line(out.current_text.as_deref().unwrap_or("")),
                one_line(&after)
            );
            if let Some(reason) = &cur.reason {
                println!("reason   {reason}");
            }
        }
    }
    if let Some(changes) = &out.changes {
        println!("changes  {}", one_line(changes));
    }
    println!("report   citestore-report.html{}", out.report_anchor);
    println!(
        "history  {}",
        plural(out.history.len(), "anchor", "anchors")
    );
    for a in &out.history {
        println!(
            "  sweep {}  r{}  {:<8} [{}, {}) of r{}  {} {:.1}  {}",
            a.sweep,
            a.revision,
            a.status,
            a.start,
            a.end,
            a.from_revision,
            a.method,
            a.score,
            a.reason.as_deref().unwrap_or("")
        );
    }
    println!("verifications  {}", out.verifications.len());
    for v in &out.verifications {
        println!(
            "  {}  {:<12} {} {}  {}",
            v.created_at,
            v.verdict,
            v.relation.as_deref().unwrap_or("-"),
            v.confidence.map_or("-".into(), |x| format!("{x:.2}")),
            v.judge
        );
    }
    Ok(())
}
