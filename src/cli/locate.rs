//! `citestore locate`: find a quote in a chunk of text, exactly or after folding typography.

use super::Exit;
use crate::config::Config;
use crate::error::{decode_text, read_at_most, read_input_file, read_text_file, INPUT_LIMIT};
use crate::output::stdout_lines;
use crate::text::{is_blank, Haystack, HintChoice, LocateHints, LocateOptions, Located};
use anyhow::{anyhow, bail, Context};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::PathBuf;

/// Find a quote in a chunk: exact, then folded typography, then fuzzy alignment.
///
/// Find a quote in a chunk: exact, then in folded (normalised) text mapped back to raw offsets,
/// then fuzzy alignment with accept/review cut-offs.
///
/// Offsets are characters (Unicode scalar values) into the chunk file, half-open.
/// `--prefix`, `--suffix` and `--near` choose among several occurrences of the matched text:
/// the one whose surroundings agree best with the prefix and suffix, ties to the one nearest
/// `--near`; without them the first is taken.
/// Exit status: 0 a span was found, 1 no span, 2 bad input.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  citestore locate --chunk fixtures/example/rate-card.txt --quote 'Growth – included 500,000 calls/mo'\n  citestore locate --batch fixtures/example/quotes.jsonl"
)]
pub(super) struct Args {
    /// The chunk: a UTF-8 text file.
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "batch",
        conflicts_with = "batch"
    )]
    chunk: Option<PathBuf>,

    /// The quote to find, as the model gave it.
    #[arg(long, value_name = "TEXT", required_unless_present_any = ["batch", "quote_file"], conflicts_with = "quote_file")]
    quote: Option<String>,

    /// Read the quote from a file instead (exact bytes, no trailing newline trimmed).
    #[arg(long, value_name = "FILE")]
    quote_file: Option<PathBuf>,

    /// JSON Lines input, one `{"chunk": "...", "quote": "..."}` per line (`-` for stdin); one
    /// result per line on stdout, in the same order.
    #[arg(long, value_name = "FILE.jsonl")]
    batch: Option<PathBuf>,

    /// Text expected right before the quote (chooses among occurrences).
    #[arg(long, value_name = "TEXT", conflicts_with = "batch")]
    prefix: Option<String>,

    /// Text expected right after the quote (chooses among occurrences).
    #[arg(long, value_name = "TEXT", conflicts_with = "batch")]
    suffix: Option<String>,

    /// A char offset the quote is expected to start near (breaks ties among occurrences).
    #[arg(long, value_name = "OFFSET", conflicts_with = "batch")]
    near: Option<usize>,

    /// Print JSON: `{"start","end","score","how","occurrences","text"}` or `null`.
    #[arg(long)]
    json: bool,

    /// The seed's rules exactly (what the reference vectors pin): no meaning guard (fuzzy
    /// matches that change a number, negation or ellipsis are not sent to review) and no edge
    /// tightening.
    #[arg(long)]
    no_meaning_guard: bool,

    /// Score at or above which a fuzzy match is accepted [default: `[locate] accept` in
    /// citestore.toml, else 95].
    #[arg(long, allow_negative_numbers = true, value_name = "SCORE")]
    accept: Option<f64>,

    /// Score below which there is no span at all [default: `[locate] review` in
    /// citestore.toml, else 85].
    #[arg(long, allow_negative_numbers = true, value_name = "SCORE")]
    review: Option<f64>,
}

/// Why an empty quote, or one of only whitespace and invisible characters, is refused.
const BLANK_QUOTE: &str = "the quote is empty or has no visible characters";

/// One result as printed: the located span plus its text.
#[derive(Debug, Serialize)]
struct Output<'a> {
    #[serde(flatten)]
    located: &'a Located,
    text: String,
    /// How hints chose among several occurrences; absent when there was no choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    hints: Option<HintsOutput>,
}

/// What `--prefix`/`--suffix`/`--near` decided, in `--json`.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct HintsOutput {
    /// Occurrences of the matched text.
    pub candidates: usize,
    /// The one taken, 1-based in text order.
    pub chosen: usize,
    /// Prefix plus suffix similarity of the one taken, 0 to 2.
    pub agreement: f64,
    /// The context did not tell the best apart (nearest or first taken).
    pub tied: bool,
}

impl From<&HintChoice> for HintsOutput {
    fn from(c: &HintChoice) -> Self {
        HintsOutput {
            candidates: c.candidates,
            chosen: c.chosen,
            agreement: c.agreement,
            tied: c.tied,
        }
    }
}

/// One batch input line; other fields (ids, notes) are allowed and ignored.
#[derive(Debug, Deserialize)]
struct BatchLine {
    chunk: String,
    quote: String,
    #[serde(default)]
    prefix: Option<String>,
    #[serde(default)]
    suffix: Option<String>,
    #[serde(default)]
    near: Option<usize>,
}

impl BatchLine {
    fn hints(&self) -> LocateHints {
        LocateHints {
            prefix: self.prefix.clone(),
            suffix: self.suffix.clone(),
            near: self.near,
        }
    }
}

pub(super) fn run(args: Args, config: &Config) -> anyhow::Result<Exit> {
    // Without the guard, the seed's rules exactly: no edge tightening either.
    let rules = if args.no_meaning_guard {
        LocateOptions::seed()
    } else {
        LocateOptions::default()
    };
    let options = LocateOptions {
        accept: args.accept.unwrap_or(config.locate.accept),
        review: args.review.unwrap_or(config.locate.review),
        ..rules
    };
    let name = |flag: &Option<f64>, flag_name: &'static str, key: &'static str| {
        if flag.is_some() {
            flag_name
        } else {
            key
        }
    };
    let names = [
        name(&args.accept, "--accept", "[locate] accept"),
        name(&args.review, "--review", "[locate] review"),
    ];
    options
        .check_cutoffs(names)
        .map_err(|why| anyhow!("{why}; give scores from 0 to 100 with review <= accept"))?;
    if let Some(batch) = &args.batch {
        return run_batch(batch, &options);
    }
    let chunk_path = args
        .chunk
        .as_ref()
        .expect("clap requires --chunk without --batch");
    let chunk = read_text_file(chunk_path).context("reading --chunk")?;
    let quote = match (&args.quote, &args.quote_file) {
        (Some(q), _) => q.clone(),
        (None, Some(path)) => read_text_file(path).context("reading --quote-file")?,
        (None, None) => unreachable!("clap requires --quote or --quote-file"),
    };
    if is_blank(&quote) {
        bail!("{BLANK_QUOTE}: pass the words the model quoted with --quote or --quote-file");
    }
    let hints = LocateHints {
        prefix: args.prefix.clone(),
        suffix: args.suffix.clone(),
        near: args.near,
    };
    let found = Haystack::new(&chunk).locate_hinted(&quote, &options, &hints);
    let (located, choice) = match found {
        Some((l, c)) => (Some(l), c),
        None => (None, None),
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(
            out,
            "{}",
            result_json(&chunk, located.as_ref(), choice.as_ref())
        )?;
    } else {
        print_human(&mut out, &chunk, located.as_ref())?;
        if let Some(choice) = &choice {
            writeln!(out, "hints   {}", choice.describe())?;
        }
    }
    Ok(if located.is_some() {
        Exit::Ok
    } else {
        Exit::Attention
    })
}

fn span_text(chunk: &str, l: &Located) -> String {
    chunk.chars().skip(l.start).take(l.end - l.start).collect()
}

fn result_json(chunk: &str, located: Option<&Located>, choice: Option<&HintChoice>) -> String {
    match located {
        None => "null".to_string(),
        Some(l) => serde_json::to_string(&Output {
            located: l,
            text: span_text(chunk, l),
            hints: choice.map(HintsOutput::from),
        })
        .expect("serialising plain data"),
    }
}

fn visible(s: &str) -> String {
    s.replace('\n', "\u{23CE}").replace('\t', " ")
}

fn print_human(out: &mut impl Write, chunk: &str, located: Option<&Located>) -> anyhow::Result<()> {
    let Some(l) = located else {
        writeln!(
            out,
            "no span: no window of the chunk scored at or above the review cut-off"
        )?;
        return Ok(());
    };
    writeln!(
        out,
        "{:<7} score {:5.1}  chars [{}, {})  occurrences {}",
        l.how.as_str(),
        l.score,
        l.start,
        l.end,
        l.occurrences
    )?;
    if let Some(reason) = &l.reason {
        writeln!(out, "reason  {reason}")?;
    }
    const CONTEXT: usize = 40;
    let chars: Vec<char> = chunk.chars().collect();
    let before: String = chars[l.start.saturating_sub(CONTEXT)..l.start]
        .iter()
        .collect();
    let matched: String = chars[l.start..l.end].iter().collect();
    let after: String = chars[l.end..(l.end + CONTEXT).min(chars.len())]
        .iter()
        .collect();
    let (open, close) = super::color::highlight();
    writeln!(
        out,
        "        \u{2026}{}{open}{}{close}{}\u{2026}",
        visible(&before),
        visible(&matched),
        visible(&after)
    )?;
    Ok(())
}

/// The batch's bytes (stdin's for `-`), at most [`crate::error::MAX_INPUT_BYTES`], without a
/// leading byte order mark.
fn read_batch(path: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    let mut bytes = if path.as_os_str() == "-" {
        read_at_most("stdin", std::io::stdin().lock(), 0, INPUT_LIMIT)?
    } else {
        read_input_file(path)?
    };
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    Ok(bytes)
}

/// A UTF-8 byte order mark, which some tools write before JSON.
const BOM: &[u8] = "\u{feff}".as_bytes();

fn parse_batch_line(number: usize, bytes: &[u8]) -> anyhow::Result<BatchLine> {
    let text = decode_text(&format!("line {number}"), bytes.to_vec())?;
    let line: BatchLine = serde_json::from_str(&text).map_err(|e| {
        // serde counts lines inside this one JSON line; only the column helps the user.
        let what = e.to_string();
        let what = what.split(" at line ").next().unwrap_or(&what).to_string();
        anyhow::anyhow!(
            "line {number}, column {}: {what}; expected {{\"chunk\": \"...\", \"quote\": \"...\"}}",
            e.column()
        )
    })?;
    if is_blank(&line.quote) {
        bail!("line {number}: {BLANK_QUOTE}; give the words the model quoted");
    }
    Ok(line)
}

fn run_batch(path: &std::path::Path, options: &LocateOptions) -> anyhow::Result<Exit> {
    let input = read_batch(path)?;
    let mut out = stdout_lines();
    let mut bad = 0usize;
    let mut not_found = 0usize;
    let mut cached: Option<Haystack<'static>> = None;
    let body = input.strip_suffix(b"\n").unwrap_or(&input);
    for (index, raw_line) in body.split(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        let raw_line = raw_line.strip_suffix(b"\r").unwrap_or(raw_line);
        let line = match parse_batch_line(number, raw_line) {
            Ok(line) => line,
            Err(err) => {
                bad += 1;
                let err = super::error_line(&err);
                eprintln!("citestore: {}: {err}", path.display());
                writeln!(out, "{}", serde_json::json!({ "error": err }))?;
                continue;
            }
        };
        let hints = line.hints();
        // Consecutive lines often share a chunk: fold it once.
        if cached.as_ref().is_none_or(|hay| hay.raw() != line.chunk) {
            cached = Some(Haystack::owned(line.chunk));
        }
        let hay = cached.as_ref().expect("set above");
        let (located, choice) = match hay.locate_hinted(&line.quote, options, &hints) {
            Some((l, c)) => (Some(l), c),
            None => (None, None),
        };
        not_found += usize::from(located.is_none());
        writeln!(
            out,
            "{}",
            result_json(hay.raw(), located.as_ref(), choice.as_ref())
        )?;
    }
    out.flush()?;
    Ok(if bad > 0 {
        Exit::Error
    } else if not_found > 0 {
        Exit::Attention
    } else {
        Exit::Ok
    })
}
