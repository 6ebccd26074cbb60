//! `citestore verify`: does each cited claim's evidence make it true?

use super::{aligned, counts, padded, widen, Exit};
use crate::app::verify::{self, ClaimOutput, JudgeSetup, VerifyRequest};
use crate::app::Env;
use crate::child::shown;
use crate::config::VerifyConfig;
use crate::error::read_text_file;
use crate::model::verification::{ClaimVerdict, Scope};
use crate::output::stdout_lines;
use crate::text::plural;
use crate::verify::judge::Judge;
use crate::verify::VerifyOptions;
use anyhow::{anyhow, bail};
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::PathBuf;

/// Verify cited claims: fabricated without a judge call, the rest judged and routed.
///
/// Verify cited claims: evidence that was never located is reported (fabricated, ambiguous,
/// unknown-chunk) without a judge call; located evidence goes to a judge with the section
/// around each span, and code routes its answer: supports/contradicts/silent at or above the
/// accept threshold → supported/contradicted/unsupported, anything less confident → review.
///
/// Judges: `command:PROGRAM [ARGS]` (one JSON request on stdin, one JSON reply on stdout) or
/// `openai:MODEL@BASE_URL` (any OpenAI-compatible endpoint; key from CITESTORE_JUDGE_API_KEY or
/// OPENAI_API_KEY). Without a judge, located claims are reported `unjudged`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("scope").args(["context", "all", "citation", "calibrate"]).required(true)))]
pub(super) struct Args {
    /// The claims of answers cited against this context.
    #[arg(long, value_name = "ID")]
    context: Option<String>,

    /// Every claim in the store.
    #[arg(long)]
    all: bool,

    /// The claims owning these citations.
    #[arg(long, value_name = "ID")]
    citation: Vec<String>,

    /// The judge [default: `judge` in [verify] of citestore.toml].
    #[arg(long, value_name = "SPEC")]
    judge: Option<String>,

    /// Confidence at or above which a judgement is acted on [default: 0.7, or [verify] accept].
    #[arg(long, allow_negative_numbers = true, value_name = "0..1")]
    accept: Option<f64>,

    /// Seconds to wait for one judgement [default: 60, or [verify] timeout_secs].
    #[arg(long, allow_negative_numbers = true, value_name = "SECS")]
    timeout: Option<f64>,

    /// Exit 1 when any claim gets one of these verdicts (comma-separated), e.g.
    /// `fabricated,contradicted,review,error`.
    #[arg(long, value_name = "VERDICTS", value_delimiter = ',', value_enum)]
    fail_on: Vec<ClaimVerdict>,

    /// Instead of verifying: run the judge on human-labelled examples (`{"claim", "premise",
    /// "label"}` per line) and print agreement and review rate at each threshold.
    #[arg(long, value_name = "LABELS.jsonl")]
    calibrate: Option<PathBuf>,

    /// Print JSON: `{"claims": [{"text", "verdict", "relation", "confidence", "citations",
    /// "reason"}], "summary": {...}}`.
    #[arg(long)]
    json: bool,

    /// Print nothing on success (errors still go to stderr; the exit code still says whether
    /// claims need attention).
    #[arg(short, long, conflicts_with_all = ["json", "calibrate"])]
    quiet: bool,
}

/// The judge `--judge` (else `[verify] judge`) names, if any, its errors worded with the flags.
fn judge_for(
    config: &VerifyConfig,
    spec: Option<&str>,
    timeout: Option<f64>,
) -> anyhow::Result<Option<Box<dyn Judge>>> {
    verify::judge(config, spec, timeout).map_err(|setup| match setup {
        JudgeSetup::Timeout(why) => anyhow!(
            "--timeout {} (or [verify] timeout_secs): {why}",
            shown(timeout.unwrap_or_default())
        ),
        JudgeSetup::ConfiguredTimeout(why) => anyhow!("[verify] timeout_secs: {why}"),
        JudgeSetup::Spec(why) => anyhow!("--judge: {why}"),
    })
}

pub(super) fn run(args: Args, env: &Env) -> anyhow::Result<Exit> {
    let config = &env.config.verify;
    let spec = args.judge.clone().or_else(|| config.judge.clone());
    let judge = judge_for(config, spec.as_deref(), args.timeout)?;
    if let Some(labels) = &args.calibrate {
        let judge = judge.ok_or_else(|| anyhow!("--calibrate needs a judge: give --judge SPEC"))?;
        return run_calibrate(labels, judge.as_ref(), args.json);
    }
    let accept = args.accept.unwrap_or(config.accept);
    if !(0.0..=1.0).contains(&accept) {
        bail!(
            "--accept {} (or [verify] accept) must be a confidence from 0 to 1",
            shown(accept)
        );
    }
    let options = VerifyOptions {
        accept,
        max_side: config.max_side,
        concurrency: config.concurrency,
    };
    let scope = if let Some(id) = &args.context {
        Scope::Context(id.clone())
    } else if args.all {
        Scope::All
    } else {
        Scope::Citations(args.citation.clone())
    };
    let req = VerifyRequest { scope, options };
    let judge = judge.as_deref();
    // Streamed as the verdicts are recorded: memory does not grow with the number of claims.
    let mut attention = false;
    let mut noticed = |claim: &ClaimOutput| attention |= args.fail_on.contains(&claim.verdict);
    if args.quiet {
        verify::each(env, &req, judge, |claim| -> anyhow::Result<()> {
            noticed(&claim);
            Ok(())
        })?;
    } else if args.json {
        print_json(env, &req, judge, &mut noticed)?;
    } else {
        print_table(env, &req, judge, &mut noticed)?;
    }
    Ok(if attention { Exit::Attention } else { Exit::Ok })
}

/// `--json`: the [`verify::VerifyOutput`] object, its claims written as they come.
fn print_json(
    env: &Env,
    req: &VerifyRequest,
    judge: Option<&dyn Judge>,
    noticed: &mut impl FnMut(&ClaimOutput),
) -> anyhow::Result<()> {
    let mut out = stdout_lines();
    out.write_all(b"{\"judge\":")?;
    serde_json::to_writer(&mut out, &verify::judge_name(judge))?;
    out.write_all(b",\"claims\":[")?;
    let mut first = true;
    let summary = verify::each(env, req, judge, |claim| -> anyhow::Result<()> {
        noticed(&claim);
        if !std::mem::take(&mut first) {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut out, &claim)?;
        Ok(())
    })?;
    out.write_all(b"],\"summary\":")?;
    serde_json::to_writer(&mut out, &summary)?;
    out.write_all(b"}\n")?;
    out.flush()?;
    Ok(())
}

/// A claim's row in the table, and its reason.
type Row = (Vec<String>, Option<String>);

/// The table, then each claim's reason, then the counts. The column widths are known only
/// once every claim is judged, so the rows wait in an unnamed temporary file, not in memory.
fn print_table(
    env: &Env,
    req: &VerifyRequest,
    judge: Option<&dyn Judge>,
    noticed: &mut impl FnMut(&ClaimOutput),
) -> anyhow::Result<()> {
    let header = ["CLAIM", "VERDICT", "RELATION", "CONF", "CITATIONS", "TEXT"].map(String::from);
    let mut widths = Vec::new();
    widen(&mut widths, &header);
    let mut spill = BufWriter::new(tempfile::tempfile()?);
    let mut n = 0usize;
    let summary = verify::each(env, req, judge, |c| -> anyhow::Result<()> {
        noticed(&c);
        n += 1;
        let text: String = c.text.chars().take(60).collect();
        let row = vec![
            n.to_string(),
            c.verdict.to_string(),
            c.relation.unwrap_or_else(|| "-".into()),
            c.confidence.map_or("-".into(), |x| format!("{x:.2}")),
            if c.citations.is_empty() {
                "-".into()
            } else {
                c.citations.join(",")
            },
            text,
        ];
        widen(&mut widths, &row);
        serde_json::to_writer(&mut spill, &(row, c.reason))?;
        spill.write_all(b"\n")?;
        Ok(())
    })?;
    let mut spill = spill.into_inner().map_err(|e| e.into_error())?;
    let mut out = stdout_lines();
    out.write_all(padded(&header, &widths).as_bytes())?;
    spilled(&mut spill, |_, (row, _)| {
        out.write_all(padded(&row, &widths).as_bytes())
    })?;
    spilled(&mut spill, |i, (_, reason)| match reason {
        Some(reason) => writeln!(out, "  {}: {reason}", i + 1),
        None => Ok(()),
    })?;
    writeln!(
        out,
        "judge {}: {}",
        verify::judge_name(judge),
        counts(&summary)
    )?;
    out.flush()?;
    Ok(())
}

/// Reads the spilled rows from the start, handing each to `each` with its index.
fn spilled(
    file: &mut std::fs::File,
    mut each: impl FnMut(usize, Row) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    file.seek(SeekFrom::Start(0))?;
    for (i, line) in BufReader::new(&*file).lines().enumerate() {
        each(i, serde_json::from_str(&line?)?)?;
    }
    Ok(())
}

fn run_calibrate(path: &std::path::Path, judge: &dyn Judge, json: bool) -> anyhow::Result<Exit> {
    let text = read_text_file(path)?;
    let examples =
        verify::labels_from_jsonl(&text, &path.display().to_string()).map_err(|e| anyhow!(e))?;
    let out = verify::calibrate(&examples, judge);
    if json {
        println!("{}", serde_json::to_string(&out)?);
        return Ok(Exit::Ok);
    }
    let mut table = vec![["ACCEPT", "DECIDED", "REVIEW RATE", "AGREEMENT"]
        .map(String::from)
        .to_vec()];
    for r in &out.thresholds {
        table.push(vec![
            format!("{:.2}", r.threshold),
            format!("{:.1}%", 100.0 * r.decided),
            format!("{:.1}%", 100.0 * r.review_rate),
            format!("{:.1}%", 100.0 * r.agreement),
        ]);
    }
    print!("{}", aligned(&table));
    println!(
        "{}, {} (counted as review)",
        plural(out.examples, "example", "examples"),
        plural(out.judge_failures, "judge failure", "judge failures")
    );
    Ok(Exit::Ok)
}
