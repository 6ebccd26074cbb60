//! Extractors: turn a source file into the text a revision stores, and stamp it `name@version`.
//!
//! Invariants:
//! - Plain text, Markdown and reStructuredText are stored byte-exact (UTF-8 required; no repair,
//!   no newline conversion), so offsets equal offsets into the file a user opens.
//! - Only PDF text gets the hyphenation repair, once, here; every stored offset indexes the
//!   repaired text.
//! - Zero bytes in, or no text out, is [`Error::Empty`]; NUL bytes in a text file are
//!   [`Error::Binary`]; a directory walk skips those two and stops on anything else.
//! - An external extractor (`pdftotext`, `--extract-cmd`) runs through [`crate::child::run`]:
//!   a process group of its own, stdin closed, one time limit ([`ExtractOptions::timeout`]) for
//!   the run and its output: past it the whole group is killed (so the children of `sh -c` die
//!   too) and the error is [`Error::ExtractTimeout`]. Its stdout and stderr are read at the same
//!   time, so a chatty program never blocks on a full pipe; more than [`MAX_EXTRACTED_BYTES`] of
//!   text is an error.
//! - An `--extract-cmd` gets the file's path only as an argument (`"$1"` of `sh -c`) and in
//!   [`FILE_VARIABLE`], never as shell text: `{}` in the template becomes `"$1"` (see
//!   `command_script`), so a name with spaces, globs, quotes, `$(…)` or newlines reaches the
//!   program whole, exactly once.

use crate::child::{self, RunError};
use crate::error::{decode_text, Error, Result};
use crate::text::repair_hyphenation;
use std::io::ErrorKind;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

mod tool;

/// Version of the `html2text` crate in Cargo.lock (a test keeps them equal), stamped on HTML
/// revisions so a crate upgrade that changes the text shows as a re-extraction.
pub(crate) const HTML2TEXT_VERSION: &str = "0.15.5";

/// The stamp of the byte-exact text extractor.
pub(crate) const TEXT_STAMP: &str = "text@1";

/// How long one external extractor may run by default (`ingest --extract-timeout`, and the
/// sweep's re-extraction).
pub const DEFAULT_EXTRACT_TIMEOUT: Duration = Duration::from_secs(120);

/// The most text an external extractor may print for one file (more is an error, not a
/// document): twice the largest file ingest reads, room for any markup-to-text growth.
pub const MAX_EXTRACTED_BYTES: usize = 512 * 1024 * 1024;

/// How an extraction runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtractOptions {
    /// How long an external extractor may run before its process group is killed.
    pub timeout: Duration,
}

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions {
            timeout: DEFAULT_EXTRACT_TIMEOUT,
        }
    }
}

impl ExtractOptions {
    /// Options with a limit of `secs` seconds, as a user gives it, or why not (see
    /// [`child::timeout_from_secs`]: NaN, infinities, 0, negatives and more than a year are
    /// refused).
    pub fn with_timeout_secs(secs: f64) -> std::result::Result<ExtractOptions, String> {
        let timeout = child::timeout_from_secs(secs)?;
        Ok(ExtractOptions { timeout })
    }
}

/// How a file becomes text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extractor {
    /// UTF-8 text stored as it is.
    Text,
    /// HTML through `html2text`: scripts and styles dropped, blocks become line breaks.
    Html,
    /// PDF through poppler's `pdftotext`, then the hyphenation repair.
    Pdf,
    /// Any program: `template` with `{}` standing for the file; its stdout is the text.
    Command {
        /// e.g. `pandoc -t plain {}`.
        template: String,
        /// The user-given version stamped beside the program's name.
        version: String,
    },
}

/// Text and the stamp of what made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The text to store.
    pub text: String,
    /// `name@version`.
    pub stamp: String,
}

impl Extractor {
    /// The extractor named in configuration: `text`, `html` or `pdf`.
    pub fn from_name(name: &str) -> Option<Extractor> {
        match name {
            "text" => Some(Extractor::Text),
            "html" => Some(Extractor::Html),
            "pdf" => Some(Extractor::Pdf),
            _ => None,
        }
    }

    /// The default extractor for a file, by its extension.
    pub fn for_path(path: &Path) -> Extractor {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("html" | "htm" | "xhtml") => Extractor::Html,
            Some("pdf") => Extractor::Pdf,
            _ => Extractor::Text,
        }
    }

    /// The configured name stored on a document: `text`, `html`, `pdf` or `cmd:PROGRAM`.
    pub fn name(&self) -> String {
        match self {
            Extractor::Text => "text".into(),
            Extractor::Html => "html".into(),
            Extractor::Pdf => "pdf".into(),
            Extractor::Command { template, .. } => format!("cmd:{}", program_name(template)),
        }
    }

    /// Extracts the text of `path`, whose bytes are `bytes` (already read, and hashed by the
    /// caller as the source). `input` names the file in errors; an external program that runs
    /// past `options.timeout` is killed and the error says so.
    pub fn extract(
        &self,
        input: &str,
        path: &Path,
        bytes: &[u8],
        options: &ExtractOptions,
    ) -> Result<Extracted> {
        if bytes.is_empty() {
            return Err(Error::Empty {
                input: input.to_string(),
                what: "empty file".into(),
            });
        }
        let (text, stamp) = match self {
            Extractor::Text => (decode_text(input, bytes.to_vec())?, TEXT_STAMP.to_string()),
            Extractor::Html => (
                html_text(input, bytes)?,
                format!("html2text@{HTML2TEXT_VERSION}"),
            ),
            Extractor::Pdf => pdf_text(input, path, options.timeout)?,
            Extractor::Command { template, version } => {
                let text = command_text(input, path, template, options.timeout)?;
                (text, format!("{}@{version}", program_name(template)))
            }
        };
        if text.trim().is_empty() {
            return Err(Error::Empty {
                input: input.to_string(),
                what: format!("no text after extraction with {stamp}"),
            });
        }
        Ok(Extracted { text, stamp })
    }
}

/// The program of a command template: the basename of its first word.
fn program_name(template: &str) -> String {
    let first = template.split_whitespace().next().unwrap_or("cmd");
    Path::new(first)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(first)
        .to_string()
}

fn html_text(input: &str, bytes: &[u8]) -> Result<String> {
    let html = decode_text(input, bytes.to_vec())?;
    // The trivial decorator adds no markup (no `#` before headings, no `*` before items), so the
    // stored text is only what the page says.
    html2text::config::with_decorator(html2text::render::TrivialDecorator::new())
        .raw_mode(true)
        .allow_width_overflow()
        .string_from_read(html.as_bytes(), 100_000)
        .map_err(|e| Error::ExtractFailed {
            input: input.to_string(),
            command: format!("html2text@{HTML2TEXT_VERSION}"),
            message: e.to_string(),
        })
}

/// `pdftotext -v` once per process: `Some(version)` when the tool runs.
fn pdftotext_version() -> Option<&'static str> {
    static VERSION: OnceLock<Option<String>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            let out = Command::new("pdftotext").arg("-v").output().ok()?;
            let said = String::from_utf8_lossy(&out.stderr).to_string()
                + &String::from_utf8_lossy(&out.stdout);
            let first = said.lines().find(|l| l.contains("version"))?;
            Some(first.split_whitespace().last()?.to_string())
        })
        .as_deref()
}

fn pdf_text(input: &str, path: &Path, timeout: Duration) -> Result<(String, String)> {
    let missing = || Error::MissingTool {
        input: input.to_string(),
        tool: "pdftotext".into(),
        hint: "install poppler-utils (apt-get install poppler-utils) or use --extract-cmd".into(),
    };
    let version = pdftotext_version().ok_or_else(missing)?;
    let mut command = Command::new("pdftotext");
    command.args(["-enc", "UTF-8"]).arg(path).arg("-");
    let out = run_limited(command, input, "pdftotext", timeout, |e| match e.kind() {
        ErrorKind::NotFound => missing(),
        _ => Error::ExtractFailed {
            input: input.to_string(),
            command: "pdftotext".into(),
            message: e.to_string(),
        },
    })?;
    let text = program_output(input, "pdftotext", out)?;
    Ok((repair_hyphenation(&text), format!("pdftotext@{version}")))
}

fn command_text(input: &str, path: &Path, template: &str, timeout: Duration) -> Result<String> {
    let failed = |message: String| Error::ExtractFailed {
        input: input.to_string(),
        command: template.to_string(),
        message,
    };
    let script = command_script(template).map_err(failed)?;
    // The file goes in as "$1" and CITESTORE_FILE, never pasted into the script, so no name
    // is split, globbed or run.
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(&script)
        .arg("citestore-extract")
        .arg(path)
        .env(FILE_VARIABLE, path);
    let out = run_limited(command, input, template, timeout, |e| failed(e.to_string()))?;
    program_output(input, template, out)
}

/// The environment variable that holds the file's path for an `--extract-cmd` (and for any
/// shell it starts in turn).
pub const FILE_VARIABLE: &str = "CITESTORE_FILE";

/// Checks an `--extract-cmd` template before anything runs: `Err` says why `{}` cannot be given
/// the file safely (how `{}` is quoted: `command_script`, in this module).
pub fn check_command(template: &str) -> std::result::Result<(), String> {
    command_script(template).map(|_| ())
}

/// Where the scanner of [`command_script`] is: inside quotes, or inside a command substitution
/// (whose text is quoted afresh).
#[derive(Debug, Clone, Copy, PartialEq)]
enum ShellQuote {
    Single,
    Double,
    /// `$(…)` with this many `(` open inside it.
    Substitution(usize),
    Backtick,
}

/// The `sh -c` script for a command template: each `{}` becomes the file as one word — `"$1"`
/// where the shell would split or glob, `$1` inside double quotes — so `cat {}`, `cat "{}"`
/// and `cat '{}'` all read the file whose name is anything at all. A template with neither `{}`
/// nor [`FILE_VARIABLE`] gets the file as its last argument. Refused: `{}` inside a longer single-quoted string (that text
/// goes to another program, e.g. a nested `sh -c '…'`, which would read the name as code; it
/// can use "$CITESTORE_FILE"), and an unclosed quote, `$(` or backtick.
fn command_script(template: &str) -> std::result::Result<String, String> {
    if !template.contains("{}") {
        // A template that reads the variable has the file already.
        return Ok(if template.contains(FILE_VARIABLE) {
            template.to_string()
        } else {
            format!("{template} \"$1\"")
        });
    }
    let mut script = String::with_capacity(template.len() + 16);
    let mut stack: Vec<ShellQuote> = Vec::new();
    let mut rest = template;
    while let Some(c) = rest.chars().next() {
        let top = stack.last().copied();
        let mut taken = c.len_utf8();
        if top == Some(ShellQuote::Single) {
            if rest.starts_with("{}") {
                return Err(format!(
                    "{{}} inside single quotes would reach another program as code; write \"${FILE_VARIABLE}\" there instead"
                ));
            }
            if c == '\'' {
                stack.pop();
            }
            script.push(c);
        } else if rest.starts_with("{}") {
            script.push_str(if top == Some(ShellQuote::Double) {
                "$1"
            } else {
                "\"$1\""
            });
            taken = 2;
        } else if c == '\\' {
            // An escaped character is literal text in every context that reads backslashes.
            let escaped = rest[1..].chars().next().map_or(0, char::len_utf8);
            taken += escaped;
            script.push_str(&rest[..taken]);
        } else if top == Some(ShellQuote::Double) {
            match c {
                '"' => {
                    stack.pop();
                }
                '`' => stack.push(ShellQuote::Backtick),
                '$' if rest.starts_with("$(") => {
                    stack.push(ShellQuote::Substitution(0));
                    taken = 2;
                }
                _ => {}
            }
            script.push_str(&rest[..taken]);
        } else if rest.starts_with("'{}'") || rest.starts_with("\"{}\"") {
            script.push_str("\"$1\"");
            taken = 4;
        } else if c == '#'
            && script
                .chars()
                .next_back()
                .is_none_or(|p| " \t\n;&|(".contains(p))
        {
            // A comment runs to the end of the line; quotes in it mean nothing.
            taken = rest.find('\n').unwrap_or(rest.len());
            script.push_str(&rest[..taken]);
        } else {
            match (c, top) {
                ('\'', _) => stack.push(ShellQuote::Single),
                ('"', _) => stack.push(ShellQuote::Double),
                ('`', Some(ShellQuote::Backtick)) => {
                    stack.pop();
                }
                ('`', _) => stack.push(ShellQuote::Backtick),
                ('$', _) if rest.starts_with("$(") => {
                    stack.push(ShellQuote::Substitution(0));
                    taken = 2;
                }
                ('(', Some(ShellQuote::Substitution(open))) => {
                    stack.pop();
                    stack.push(ShellQuote::Substitution(open + 1));
                }
                (')', Some(ShellQuote::Substitution(0))) => {
                    stack.pop();
                }
                (')', Some(ShellQuote::Substitution(open))) => {
                    stack.pop();
                    stack.push(ShellQuote::Substitution(open - 1));
                }
                _ => {}
            }
            script.push_str(&rest[..taken]);
        }
        rest = &rest[taken..];
    }
    if let Some(open) = stack.last() {
        return Err(format!(
            "{} is not closed, so where {{}} stands cannot be told",
            match open {
                ShellQuote::Single => "a single quote",
                ShellQuote::Double => "a double quote",
                ShellQuote::Substitution(_) => "a $(",
                ShellQuote::Backtick => "a backtick",
            }
        ));
    }
    Ok(script)
}

/// Runs `command` through [`crate::child::run`] with stdin closed and the time limit, its
/// output capped at [`MAX_EXTRACTED_BYTES`]. `label` names the command in errors;
/// `spawn_error` says why it did not start.
fn run_limited(
    command: Command,
    input: &str,
    label: &str,
    timeout: Duration,
    spawn_error: impl FnOnce(std::io::Error) -> Error,
) -> Result<child::Finished> {
    let limits = child::Limits {
        timeout,
        stdout_cap: MAX_EXTRACTED_BYTES,
    };
    child::run(command, None, limits).map_err(|e| match e {
        RunError::Spawn(e) => spawn_error(e),
        RunError::TimedOut { .. } => Error::ExtractTimeout {
            input: input.to_string(),
            command: label.to_string(),
            seconds: timeout.as_secs_f64(),
        },
        other => Error::ExtractFailed {
            input: input.to_string(),
            command: label.to_string(),
            message: other.to_string(),
        },
    })
}

/// A program's stdout as UTF-8 text, or an error with its status and the line of stderr that
/// says why (see [`child::Finished::reason`]).
fn program_output(input: &str, command: &str, out: child::Finished) -> Result<String> {
    let failed = |message: String| Error::ExtractFailed {
        input: input.to_string(),
        command: command.to_string(),
        message,
    };
    if !out.status.success() {
        return Err(failed(format!("{} ({})", out.status, out.reason())));
    }
    match decode_text(input, out.stdout) {
        Ok(text) => Ok(text),
        Err(Error::InvalidUtf8 { offset, .. }) => Err(failed(format!(
            "its output is not valid UTF-8 at byte {offset}"
        ))),
        Err(Error::Binary { offset, .. }) => {
            Err(failed(format!("its output holds a NUL byte at {offset}")))
        }
        Err(other) => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn extract(extractor: Extractor, bytes: &[u8]) -> Result<Extracted> {
        extractor.extract("in", Path::new("in"), bytes, &ExtractOptions::default())
    }

    #[test]
    fn text_is_byte_exact() {
        let raw = "a\r\nsub-\nscription\u{00AD} \t\n";
        let got = extract(Extractor::Text, raw.as_bytes()).unwrap();
        assert_eq!(got.text, raw);
        assert_eq!(got.stamp, TEXT_STAMP);
    }

    #[test]
    fn bad_text_is_refused_by_kind() {
        assert!(matches!(
            extract(Extractor::Text, b""),
            Err(Error::Empty { .. })
        ));
        assert!(matches!(
            extract(Extractor::Text, b"ab\0c"),
            Err(Error::Binary { offset: 2, .. })
        ));
        assert!(matches!(
            extract(Extractor::Text, b"ok \xff"),
            Err(Error::InvalidUtf8 { offset: 3, .. })
        ));
    }

    #[test]
    fn html_drops_scripts_and_breaks_blocks() {
        let html = b"<html><head><style>p{color:red}</style><script>var x=1;</script></head>\
            <body><h1>Rate card</h1><p>Growth &ndash; 500 calls</p><div>next</div></body></html>";
        let got = extract(Extractor::Html, html).unwrap();
        assert!(
            !got.text.contains("color") && !got.text.contains("var x"),
            "{:?}",
            got.text
        );
        let lines: Vec<&str> = got.text.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(lines, ["Rate card", "Growth – 500 calls", "next"]);
        assert_eq!(got.stamp, format!("html2text@{HTML2TEXT_VERSION}"));
    }

    #[test]
    fn html_with_only_script_is_empty() {
        let err = extract(Extractor::Html, b"<script>x()</script>").unwrap_err();
        assert!(matches!(err, Error::Empty { .. }), "{err}");
    }

    #[test]
    fn html2text_stamp_matches_cargo_lock() {
        let lock = include_str!("../../Cargo.lock");
        let entry = lock
            .split("[[package]]")
            .find(|p| p.contains("name = \"html2text\""));
        let want = format!("version = \"{HTML2TEXT_VERSION}\"");
        assert!(
            entry.is_some_and(|p| p.contains(&want)),
            "update HTML2TEXT_VERSION"
        );
    }

    #[test]
    fn command_output_is_the_text_and_is_stamped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("it's a file.txt");
        std::fs::write(&path, "hello\n").unwrap();
        let cmd = Extractor::Command {
            template: "tr a-z A-Z < {}".into(),
            version: "9".into(),
        };
        let got = cmd
            .extract("f", &path, b"hello\n", &ExtractOptions::default())
            .unwrap();
        assert_eq!(got.text, "HELLO\n");
        assert_eq!(got.stamp, "tr@9");
        assert_eq!(cmd.name(), "cmd:tr");
        let failing = Extractor::Command {
            template: "sh -c 'echo broken >&2; exit 3'".into(),
            version: "1".into(),
        };
        let err = failing
            .extract("f", &path, b"x", &ExtractOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("f: extractor") && err.contains("broken"),
            "{err}"
        );
    }

    fn command(template: &str) -> Extractor {
        Extractor::Command {
            template: template.into(),
            version: "1".into(),
        }
    }

    fn limit(secs: f64) -> ExtractOptions {
        ExtractOptions::with_timeout_secs(secs).unwrap()
    }

    #[test]
    fn a_program_past_its_limit_is_killed_with_its_children() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("slow.txt");
        std::fs::write(&path, "text\n").unwrap();
        let pid_file = dir.path().join("pid");
        // The grandchild writes its pid, then sleeps holding the pipe open.
        let template = format!(
            "sh -c 'echo $$ > {}; exec sleep 30'; cat {{}}",
            pid_file.display()
        );
        let started = Instant::now();
        let err = command(&template)
            .extract("slow.txt", &path, b"text\n", &limit(0.5))
            .unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(20), "not killed");
        assert!(matches!(err, Error::ExtractTimeout { .. }), "{err}");
        let line = err.to_string();
        assert!(
            line.starts_with("slow.txt: extractor `sh -c")
                && line.ends_with("did not finish in 0.5 s; raise --extract-timeout"),
            "{line}"
        );
        let pid: libc::pid_t = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(gone(pid), "grandchild {pid} outlived the timeout");
    }

    /// True when `pid` is no longer a live process (a zombie counts as gone).
    fn gone(pid: libc::pid_t) -> bool {
        for _ in 0..100 {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // The state is the field after the parenthesised name.
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|r| r.split_whitespace().next());
            if matches!(state, None | Some("Z") | Some("X")) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    #[test]
    fn a_background_child_holding_the_output_open_is_a_timeout_too() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        std::fs::write(&path, "x").unwrap();
        let err = command("sleep 30 & cat")
            .extract("f.txt", &path, b"x", &limit(0.5))
            .unwrap_err();
        assert!(matches!(err, Error::ExtractTimeout { .. }), "{err}");
    }

    #[test]
    fn large_output_on_both_pipes_does_not_deadlock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        // 1 MB on stdout and on stderr: far more than a pipe buffer, in whichever order.
        let line = "abcdefghij".repeat(10) + "\n";
        std::fs::write(&path, line.repeat(10_000)).unwrap();
        let got = command("cat {} >&2; cat {}")
            .extract("big.txt", &path, b"x", &limit(60.0))
            .unwrap();
        assert_eq!(got.text.len(), line.len() * 10_000);
    }

    #[test]
    fn timeouts_must_be_positive_numbers() {
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e-12, 1e30, 1e300] {
            assert!(ExtractOptions::with_timeout_secs(bad).is_err(), "{bad}");
        }
        assert_eq!(limit(1.5).timeout, Duration::from_millis(1500));
        assert_eq!(ExtractOptions::default().timeout, DEFAULT_EXTRACT_TIMEOUT);
    }

    #[test]
    fn braces_become_one_word_in_every_quoting() {
        // (template, script, or a fragment of the refusal)
        let cases: &[(&str, std::result::Result<&str, &str>)] = &[
            ("cat {}", Ok(r#"cat "$1""#)),
            (r#"cat "{}""#, Ok(r#"cat "$1""#)),
            ("cat '{}'", Ok(r#"cat "$1""#)),
            (r#"cat "./{}.txt""#, Ok(r#"cat "./$1.txt""#)),
            ("tr a-z A-Z < {}", Ok(r#"tr a-z A-Z < "$1""#)),
            (
                "grep -q x {} && cat {}",
                Ok(r#"grep -q x "$1" && cat "$1""#),
            ),
            (
                r#"x="$(cat {})"; echo "$x""#,
                Ok(r#"x="$(cat "$1")"; echo "$x""#),
            ),
            (r#"echo "$(cat "{}")""#, Ok(r#"echo "$(cat "$1")""#)),
            ("echo `cat {}`", Ok(r#"echo `cat "$1"`"#)),
            (r"echo \'{}", Ok(r#"echo \'"$1""#)),
            ("cat {} # it's the file", Ok(r#"cat "$1" # it's the file"#)),
            ("pandoc -t plain", Ok(r#"pandoc -t plain "$1""#)),
            (r#"cat "$CITESTORE_FILE""#, Ok(r#"cat "$CITESTORE_FILE""#)),
            ("sh -c 'cat {}'", Err("single quotes")),
            (r#"cat "{}"#, Err("double quote is not closed")),
            ("cat $({}", Err("$( is not closed")),
        ];
        for (template, want) in cases {
            match (command_script(template), want) {
                (Ok(got), Ok(script)) => assert_eq!(&got, script, "{template}"),
                (Err(got), Err(fragment)) => assert!(got.contains(fragment), "{template}: {got}"),
                (got, _) => panic!("{template}: {got:?}"),
            }
        }
    }

    #[test]
    fn extension_picks_the_extractor() {
        assert_eq!(Extractor::for_path(Path::new("a/b.HTML")), Extractor::Html);
        assert_eq!(Extractor::for_path(Path::new("b.pdf")), Extractor::Pdf);
        assert_eq!(Extractor::for_path(Path::new("b.md")), Extractor::Text);
        assert_eq!(Extractor::for_path(Path::new("README")), Extractor::Text);
    }
}
