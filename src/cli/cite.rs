//! `citestore cite`: locate a model's quotes in the context it was shown and store citations.

use super::{aligned, counts, Context as CliContext, Exit};
use crate::cite::record::{cite_and_record, CiteReport};
use crate::cite::summary;
use crate::cite::wrapped::parse_wrapped_answer;
use crate::config::Config;
use crate::error::read_text_file;
use crate::store::Store;
use crate::text::LocateOptions;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Cite a model's answer against a recorded context and store its citations.
///
/// Cite a model's answer (the `emit_answer` schema, see `citestore schema`) against a recorded
/// context: every quote is located in its chunk, mis-attributed chunk ids are repaired only when
/// exactly one other position holds the quote, and located quotes become citations.
///
/// Verdicts: exact, fuzzy, review, repaired (stored); ambiguous, fabricated, unknown-chunk
/// (rejected). Claims without evidence are stored as uncited. Rejection is an answer, not an
/// error: exit 0. A malformed answer is exit 2, naming the JSON path, with nothing stored.
/// Citing the same answer again writes nothing and prints the same citation ids.
///
/// The answer may come as the tool input object, an Anthropic `tool_use` block or Messages
/// response, an OpenAI Chat Completions response or `tool_calls` entry (its `arguments` a JSON
/// string), or a Responses API `function_call` item or response: the shape is detected.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The context id printed by `citestore context`.
    #[arg(long, value_name = "ID")]
    context: String,

    /// The model's answer: `{"claims": [{"text", "evidence": [{"chunk_id", "quote"}]}]}`, or
    /// an API response or tool call holding it; `-` reads stdin.
    #[arg(value_name = "ANSWER.json")]
    answer: PathBuf,

    /// Print JSON (see the README for the format).
    #[arg(long)]
    json: bool,
}

/// One evidence line of the JSON output.
#[derive(Debug, Serialize, Deserialize)]
pub struct EvidenceOutput {
    /// The chunk holding the span (a label is resolved), else the id as given.
    pub chunk_id: String,
    /// The quote as given.
    pub quote: String,
    /// exact, fuzzy, review, repaired, ambiguous, fabricated or unknown-chunk.
    pub verdict: String,
    /// The stored citation's id.
    pub citation: Option<String>,
    /// Span start, chars into the revision.
    pub start: Option<usize>,
    /// Span end (exclusive).
    pub end: Option<usize>,
    /// The revision the span indexes.
    pub revision: Option<u32>,
    /// Alignment score (100 for exact).
    pub score: Option<f64>,
    /// The chunk the model named, when the quote was found in another one.
    pub repaired_from: Option<String>,
    /// The revision's text at the span.
    pub text: Option<String>,
    /// Why (review, repaired, rejected).
    pub reason: Option<String>,
    /// The API's own location and whether our text agreed (`import-anthropic` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<LocationOutput>,
}

/// An API location as checked against our text.
#[derive(Debug, Serialize, Deserialize)]
pub struct LocationOutput {
    /// The API's citation type (`char_location`, `page_location`, …).
    pub kind: String,
    /// `agrees` or `differs`.
    pub agreement: String,
    /// What differed, or why several places remained.
    pub note: Option<String>,
    /// The API's citation object as received.
    pub api: serde_json::Value,
}

/// A citation pointing outside the store (a web search result), reported as given.
#[derive(Debug, Serialize, Deserialize)]
pub struct ExternalOutput {
    /// `web_search_result_location`.
    pub kind: String,
    /// The page cited.
    pub url: Option<String>,
    /// Its title.
    pub title: Option<String>,
    /// The text the API says it cited.
    pub cited_text: String,
}

/// One claim of the JSON output.
#[derive(Debug, Serialize, Deserialize)]
pub struct ClaimOutput {
    /// The claim.
    pub text: String,
    /// No evidence was given.
    pub uncited: bool,
    /// In the answer's order; together one premise.
    pub evidence: Vec<EvidenceOutput>,
    /// Citations outside the store (web search results): never located, never a citation id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub external: Vec<ExternalOutput>,
}

/// What `cite --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct CiteOutput {
    /// The context cited against.
    pub context: String,
    /// True when this answer was cited before (nothing new written).
    pub already_recorded: bool,
    /// Claims in the answer's order.
    pub claims: Vec<ClaimOutput>,
    /// Counts by verdict, plus `uncited`.
    pub summary: BTreeMap<String, usize>,
}

/// The locator options configured in citestore.toml.
pub fn locate_options(config: &Config) -> anyhow::Result<LocateOptions> {
    let options = LocateOptions {
        accept: config.locate.accept,
        review: config.locate.review,
        ..LocateOptions::default()
    };
    options
        .check_cutoffs(["[locate] accept", "[locate] review"])
        .map_err(|why| anyhow::anyhow!("citestore.toml: {why}; give scores from 0 to 100"))?;
    Ok(options)
}

/// The file's text, or stdin's for `-`.
pub fn read_input(path: &std::path::Path) -> anyhow::Result<String> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map_err(|e| anyhow::anyhow!("stdin: cannot read: {e}"))?;
        return Ok(crate::error::decode_text("stdin", bytes)?);
    }
    Ok(read_text_file(path)?)
}

/// How an input path is named in messages (`stdin` for `-`).
pub fn input_name(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "stdin".into()
    } else {
        path.display().to_string()
    }
}

/// Builds the printed form of a report.
pub fn output(report: &CiteReport) -> CiteOutput {
    let claims = report
        .claims
        .iter()
        .zip(&report.citation_ids)
        .map(|(claim, ids)| ClaimOutput {
            text: claim.text.clone(),
            uncited: claim.uncited,
            evidence: claim
                .evidence
                .iter()
                .zip(ids)
                .map(|(ev, id)| {
                    let span = ev.span.as_ref();
                    EvidenceOutput {
                        chunk_id: span.map_or(ev.given_chunk_id.clone(), |s| s.chunk_id.clone()),
                        quote: ev.quote.clone(),
                        verdict: ev.verdict.as_str().to_string(),
                        citation: id.clone(),
                        start: span.map(|s| s.source.start),
                        end: span.map(|s| s.source.end),
                        revision: span.map(|s| s.source.revision),
                        score: span.map(|s| s.score),
                        repaired_from: span.and_then(|s| s.repaired_from.clone()),
                        text: span.map(|s| s.text.clone()),
                        reason: ev.reason.clone(),
                        location: ev.location.as_ref().map(|l| LocationOutput {
                            kind: l.kind.clone(),
                            agreement: l.agreement.as_str().to_string(),
                            note: l.note.clone(),
                            api: l.raw.clone(),
                        }),
                    }
                })
                .collect(),
            external: claim
                .external
                .iter()
                .map(|e| ExternalOutput {
                    kind: e.kind.clone(),
                    url: e.url.clone(),
                    title: e.title.clone(),
                    cited_text: e.cited_text.clone(),
                })
                .collect(),
        })
        .collect();
    CiteOutput {
        context: report.context_id.clone(),
        already_recorded: report.already_recorded,
        claims,
        summary: summary(&report.claims),
    }
}

fn short(text: &str, max: usize) -> String {
    let one_line = text.replace('\n', " ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    one_line.chars().take(max - 1).collect::<String>() + "\u{2026}"
}

/// Prints a report: one line per evidence, uncited claims, and the summary.
pub fn print(out: &CiteOutput, json: bool) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string(out)?);
        return Ok(());
    }
    let mut rows = vec![["CLAIM", "VERDICT", "CITATION", "CHUNK", "SPAN", "QUOTE"]
        .map(String::from)
        .to_vec()];
    for (i, claim) in out.claims.iter().enumerate() {
        if claim.uncited {
            rows.push(vec![
                (i + 1).to_string(),
                "uncited".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                short(&claim.text, 60),
            ]);
        }
        for ev in &claim.evidence {
            rows.push(vec![
                (i + 1).to_string(),
                ev.verdict.clone(),
                ev.citation.clone().unwrap_or_else(|| "-".into()),
                ev.chunk_id.clone(),
                match (ev.start, ev.end) {
                    (Some(s), Some(e)) => format!("[{s}, {e})"),
                    _ => "-".into(),
                },
                format!("\"{}\"", short(&ev.quote, 60)),
            ]);
        }
        for ext in &claim.external {
            rows.push(vec![
                (i + 1).to_string(),
                "external".into(),
                "-".into(),
                short(ext.url.as_deref().unwrap_or("-"), 40),
                "-".into(),
                format!("\"{}\"", short(&ext.cited_text, 60)),
            ]);
        }
    }
    print!("{}", aligned(&rows));
    let note = if out.already_recorded {
        "  (already cited: nothing new stored)"
    } else {
        ""
    };
    println!("context {}: {}{note}", out.context, counts(&out.summary));
    Ok(())
}

pub fn run(args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    let text = read_input(&args.answer)?;
    let (answer, _shape) = parse_wrapped_answer(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}; nothing was stored", input_name(&args.answer)))?;
    let options = locate_options(&ctx.config)?;
    let mut store = Store::open_existing(&ctx.db)?;
    let report = cite_and_record(
        &mut store,
        &args.context,
        &answer,
        "emit_answer",
        &options,
        &ctx.clock.timestamp(),
    )?;
    print(&output(&report), args.json)?;
    Ok(Exit::Ok)
}
