//! `citestore cite`: locate a model's quotes in the context it was shown and store citations.

use super::{aligned, counts, Exit};
use crate::app::cite::{self, CiteRequest};
use crate::app::Env;
use crate::error::{read_at_most, read_text_file, INPUT_LIMIT};
use crate::output::CiteOutput;
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
pub(super) struct Args {
    /// The context id printed by `citestore context`.
    #[arg(long, value_name = "ID")]
    context: String,

    /// The model's answer: `{"claims": [{"text", "evidence": [{"chunk_id", "quote"}]}]}`, or
    /// an API response or tool call holding it; `-` reads stdin.
    #[arg(value_name = "ANSWER.json")]
    answer: PathBuf,

    /// Print JSON (the format is in docs/json.md).
    #[arg(long)]
    json: bool,
}

/// The file's text, or stdin's for `-`, at most [`crate::error::MAX_INPUT_BYTES`].
pub(super) fn read_input(path: &std::path::Path) -> anyhow::Result<String> {
    if path.as_os_str() == "-" {
        let bytes = read_at_most("stdin", std::io::stdin().lock(), 0, INPUT_LIMIT)?;
        return Ok(crate::error::decode_text("stdin", bytes)?);
    }
    Ok(read_text_file(path)?)
}

/// How an input path is named in messages (`stdin` for `-`).
pub(super) fn input_name(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "stdin".into()
    } else {
        path.display().to_string()
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
/// The quote, or for evidence the provider quoted nothing for, the sentence proposed.
fn quote_cell(ev: &crate::cli::json::EvidenceOutput) -> String {
    match (&ev.proposal, ev.quote.is_empty()) {
        (Some(p), true) => format!("(no quote) proposed \"{}\"", short(&p.text, 45)),
        (None, true) => "(no quote)".into(),
        _ => format!("\"{}\"", short(&ev.quote, 60)),
    }
}

pub(super) fn print(out: &CiteOutput, json: bool) -> anyhow::Result<()> {
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
                ev.chunk_id.clone().unwrap_or_else(|| ev.label.clone()),
                match (ev.start, ev.end) {
                    (Some(s), Some(e)) => format!("[{s}, {e})"),
                    _ => "-".into(),
                },
                quote_cell(ev),
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

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let request = CiteRequest {
        answer: read_input(&args.answer)?,
        input: input_name(&args.answer),
        context_id: args.context,
    };
    print(&cite::run(env, &request)?, args.json)?;
    Ok(Exit::Ok)
}
