//! The command line: the only module that knows clap. One subcommand per file, its doc comment
//! is its help. Each command returns an [`Exit`]; errors travel up as `anyhow` with context and
//! are printed once by `main`.

mod changes;
mod check;
mod chunk;
mod chunks;
mod cite;
mod color;
mod completions;
mod context;
mod docs;
mod export;
mod health;
mod import;
mod import_anthropic;
mod ingest;
mod init;
mod list;
mod locate;
mod man;
mod migrate;
mod report;
mod retire;
mod schema;
mod show;
mod sweep;
mod values;
mod verify;

/// The types every `--json` prints: the public JSON interface, each documented field by field
/// and listed per command in docs/json.md ("JSON output of every command"). Read them back
/// with serde. They are the use cases' outputs ([`crate::app::json`]).
pub mod json {
    pub use crate::app::json::*;
}

use crate::app::Env;
use crate::config::{choose_database, Config};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::path::PathBuf;
use unicode_width::UnicodeWidthStr as _;

/// How a run ended, as the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Ran; nothing needs attention.
    Ok = 0,
    /// Ran, but citations need attention (no span, lost citations with `--fail-on`).
    Attention = 1,
    /// Ran, but some input was bad (reported on stderr).
    Error = 2,
}

/// citestore: keep the citations of a RAG system true over time.
#[derive(Debug, Parser)]
#[command(name = "citestore", version, about, long_about = None)]
struct Cli {
    #[command(flatten)]
    globals: Globals,
    #[command(subcommand)]
    command: Command,
}

/// Flags every command takes.
#[derive(Debug, clap::Args)]
struct Globals {
    /// When to colour output (highlighted spans in `show` and `locate`): on a terminal
    /// (`auto`, unless NO_COLOR is set; CLICOLOR_FORCE forces it), `always`, or `never`.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    color: color::ColorChoice,

    /// The database: a SQLite file, or a PostgreSQL URL (`postgres://…` or `postgresql://…`)
    /// [default: `db` in citestore.toml, else ./citestore.db].
    #[arg(long, global = true, value_name = "PATH", env = "CITESTORE_DB")]
    db: Option<PathBuf>,

    /// The configuration file [default: ./citestore.toml when present]; relative paths in it
    /// are relative to its folder.
    #[arg(long, global = true, value_name = "PATH", env = "CITESTORE_CONFIG")]
    config: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    Init(init::Args),
    Migrate(migrate::Args),
    Ingest(ingest::Args),
    Chunk(chunk::Args),
    Chunks(chunks::Args),
    Docs(docs::Args),
    Locate(locate::Args),
    Context(context::Args),
    Cite(cite::Args),
    Import(import::Args),
    ImportAnthropic(import_anthropic::Args),
    Verify(verify::Args),
    Sweep(sweep::Args),
    Check(check::Args),
    Retire(retire::Args),
    Changes(changes::Args),
    Health(health::Args),
    List(list::Args),
    Show(show::Args),
    Export(export::Args),
    Report(report::Args),
    Schema(schema::Args),
    Completions(completions::Args),
    Man(man::Args),
}

impl Globals {
    /// Loads the configuration, chooses the database, and picks the clock (`CITESTORE_NOW`, an
    /// RFC 3339 instant, fixes it for reproducible runs): what the store commands run against.
    fn env(&self) -> anyhow::Result<Env> {
        let config = Config::load(self.config.as_deref())?;
        let db = choose_database(self.db.as_deref(), None, &config);
        Ok(Env::new(db, config)?)
    }
}

/// Parses `args` (`--help`, `--version` and a missing subcommand print as clap does and exit;
/// any other usage error is one line) and runs the command.
pub fn run<I, T>(args: I) -> anyhow::Result<Exit>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(err) => return Err(usage_error(err, &args)),
    };
    color::init(cli.globals.color);
    match cli.command {
        Command::Init(args) => init::run(args, &cli.globals.env()?),
        Command::Migrate(args) => migrate::run(args, &cli.globals.env()?),
        Command::Ingest(args) => ingest::run(args, &cli.globals.env()?),
        Command::Chunk(args) => chunk::run(args, &cli.globals.env()?),
        Command::Docs(args) => docs::run(args, &cli.globals.env()?),
        Command::Chunks(args) => chunks::run(args, &cli.globals.env()?),
        Command::Locate(args) => locate::run(args, &Config::load(cli.globals.config.as_deref())?),
        Command::Schema(args) => schema::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
        Command::Context(args) => context::run(args, &cli.globals.env()?),
        Command::Cite(args) => cite::run(args, &cli.globals.env()?),
        Command::Import(args) => import::run(args, &cli.globals.env()?),
        Command::ImportAnthropic(args) => import_anthropic::run(args, &cli.globals.env()?),
        Command::Verify(args) => verify::run(args, &cli.globals.env()?),
        Command::Sweep(args) => sweep::run(args, &cli.globals.env()?),
        Command::Check(args) => check::run(args, &cli.globals.env()?),
        Command::Retire(args) => retire::run(args, &cli.globals.env()?),
        Command::Changes(args) => changes::run(args, &cli.globals.env()?),
        Command::Health(args) => health::run(args, &cli.globals.env()?),
        Command::List(args) => list::run(args, &cli.globals.env()?),
        Command::Show(args) => show::run(args, &cli.globals.env()?),
        Command::Export(args) => export::run(args, &cli.globals.env()?),
        Command::Report(args) => report::run(args, &cli.globals.env()?),
    }
}

/// A clap error as one line: the problem (clap's message up to its usage block, tips left out)
/// and where to read more, `citestore help COMMAND`. Help, version and the help shown for a
/// missing subcommand exit as clap prints them.
fn usage_error(err: clap::Error, args: &[OsString]) -> anyhow::Error {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        err.exit();
    }
    let text = err.to_string();
    let problem: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("tip:"))
        .collect();
    let problem = problem.join(" ");
    let help = match subcommand(args) {
        Some(name) => format!("citestore help {name}"),
        None => "citestore help".to_string(),
    };
    anyhow::anyhow!(
        "{}; run `{help}`",
        problem.trim_start_matches("error: ").trim_end_matches('.')
    )
}

/// The first argument naming a subcommand, for the help an error points to.
fn subcommand(args: &[OsString]) -> Option<String> {
    use clap::CommandFactory as _;
    let cli = Cli::command();
    args.iter().skip(1).find_map(|arg| {
        let arg = arg.to_str()?;
        cli.find_subcommand(arg).map(|c| c.get_name().to_string())
    })
}

/// Parses a count option (`--sweeps`, `--limit`), saying what to give instead of Rust's
/// "invalid digit found in string".
fn count_arg(value: &str) -> Result<usize, String> {
    value
        .parse()
        .map_err(|_| "give a whole number, 0 or more".to_string())
}

/// An error and its causes on one line, `outer: inner: …`, each said once. A library error
/// that already prints its source (`{path}: {source}`) would otherwise repeat it, as anyhow's
/// `{:#}` appends every source.
pub fn error_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// `key count, key count, …` (or `none`), for one-line summaries.
fn counts<V: std::fmt::Display>(map: &std::collections::BTreeMap<String, V>) -> String {
    if map.is_empty() {
        return "none".into();
    }
    map.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Pads `cells` of each row to the widest in its column (the last column is not padded).
fn aligned(rows: &[Vec<String>]) -> String {
    let mut widths = Vec::new();
    for row in rows {
        widen(&mut widths, row);
    }
    rows.iter().map(|row| padded(row, &widths)).collect()
}

/// Grows `widths` (terminal columns per column) to fit `row`, for [`padded`]. Display width, not
/// chars: a CJK character or an emoji takes two columns, a combining mark none.
fn widen(widths: &mut Vec<usize>, row: &[String]) {
    if widths.len() < row.len() {
        widths.resize(row.len(), 0);
    }
    for (width, cell) in widths.iter_mut().zip(row) {
        *width = (*width).max(cell.width());
    }
}

/// One line of [`aligned`] output: each cell but the last padded to its column's width.
fn padded(row: &[String], widths: &[usize]) -> String {
    let last = row.len().saturating_sub(1);
    let line: Vec<String> = row
        .iter()
        .enumerate()
        .map(|(c, cell)| {
            if c == last {
                cell.clone()
            } else {
                // `{:<w$}` pads by chars, which drifts after wide characters.
                let pad = widths[c].saturating_sub(cell.width());
                format!("{cell}{}", " ".repeat(pad))
            }
        })
        .collect();
    format!("{}\n", line.join("  ").trim_end())
}

#[cfg(test)]
mod tests {
    use super::aligned;
    use unicode_width::UnicodeWidthStr as _;

    fn row(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn columns_line_up_by_display_width_with_cjk_emoji_and_combining_marks() {
        let cases: &[(&[&[&str]], &str)] = &[
            (
                &[&["DOC", "N"], &["東京.md", "1"], &["a.md", "2"]],
                "DOC      N\n東京.md  1\na.md     2\n",
            ),
            (
                &[&["👍👍", "x"], &["abcd", "y"], &["ab", "z"]],
                "👍👍  x\nabcd  y\nab    z\n",
            ),
            // "e" + combining acute: two chars, one column.
            (&[&["e\u{301}", "x"], &["ab", "y"]], "e\u{301}   x\nab  y\n"),
        ];
        for (rows, want) in cases {
            let rows: Vec<Vec<String>> = rows.iter().map(|r| row(r)).collect();
            let got = aligned(&rows);
            assert_eq!(got, *want);
            // The second column starts at the same terminal column on every line.
            let starts: Vec<usize> = got
                .lines()
                .map(|l| {
                    let last = l.rfind(' ').unwrap() + 1;
                    l[..last].width()
                })
                .collect();
            assert!(starts.windows(2).all(|w| w[0] == w[1]), "{got}");
        }
    }
}
