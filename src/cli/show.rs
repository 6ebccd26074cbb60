//! `citestore show`: one citation, where it was, where it is, and how it got there.

use super::Exit;
use crate::app::show::{self, ShowRequest, Shown};
use crate::app::Env;
use crate::text::plural;

/// Show one citation: where it was, where it is now, and its history.
///
/// Show a citation: its claim and quote, the original span in its revision with context, the
/// current anchor in the current revision with the matched text highlighted and the differences
/// from the original marked, the full anchor history, and the claim's verifications.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The citation id (`c-…`).
    #[arg(value_name = "CITATION_ID")]
    citation: String,

    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let shown = show::run(
        env,
        &ShowRequest {
            citation: args.citation,
        },
    )?;
    if args.json {
        println!("{}", serde_json::to_string(&shown.output)?);
    } else {
        print_human(&shown);
    }
    Ok(Exit::Ok)
}

fn one_line(s: &str) -> String {
    s.replace('\n', "\u{23CE}")
}

fn print_human(shown: &Shown) {
    let out = &shown.output;
    let c = &out.citation;
    let (open, close) = super::color::highlight();
    println!(
        "citation {}  ({}, now {})",
        c.citation_id, c.verdict, out.status
    );
    println!("claim    {}", c.claim);
    match (out.unquoted, &out.proposal) {
        (false, _) => println!("quote    {:?}", c.quote),
        (true, Some(p)) => println!(
            "quote    (the provider gave no quote; the whole chunk is cited; proposed [{}, {}) {:?})",
            p.start, p.end, p.text
        ),
        (true, None) => println!("quote    (the provider gave no quote; the whole chunk is cited)"),
    }
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
            let (before, after) = shown.around.clone().unwrap_or_default();
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
}
