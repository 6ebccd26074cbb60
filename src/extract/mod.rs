//! Extractors: turn a source file into the text a revision stores, and stamp it `name@version`.
//!
//! Invariants:
//! - Plain text, Markdown and reStructuredText are stored byte-exact (UTF-8 required; no repair,
//!   no newline conversion), so offsets equal offsets into the file a user opens.
//! - Only PDF text gets the hyphenation repair, once, here; every stored offset indexes the
//!   repaired text.
//! - Zero bytes in, or no text out, is [`Error::Empty`]; NUL bytes in a text file are
//!   [`Error::Binary`]; a directory walk skips those two and stops on anything else.

use crate::error::{decode_text, Error, Result};
use crate::text::repair_hyphenation;
use std::io::ErrorKind;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

mod tool;

/// Version of the `html2text` crate in Cargo.lock (a test keeps them equal), stamped on HTML
/// revisions so a crate upgrade that changes the text shows as a re-extraction.
pub const HTML2TEXT_VERSION: &str = "0.15.5";

/// The stamp of the byte-exact text extractor.
pub const TEXT_STAMP: &str = "text@1";

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
    /// caller as the source). `input` names the file in errors.
    pub fn extract(&self, input: &str, path: &Path, bytes: &[u8]) -> Result<Extracted> {
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
            Extractor::Pdf => pdf_text(input, path)?,
            Extractor::Command { template, version } => {
                let text = command_text(input, path, template)?;
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

fn pdf_text(input: &str, path: &Path) -> Result<(String, String)> {
    let missing = || Error::MissingTool {
        input: input.to_string(),
        tool: "pdftotext".into(),
        hint: "install poppler-utils (apt-get install poppler-utils) or use --extract-cmd".into(),
    };
    let version = pdftotext_version().ok_or_else(missing)?;
    let out = Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(path)
        .arg("-")
        .output()
        .map_err(|e| match e.kind() {
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

fn command_text(input: &str, path: &Path, template: &str) -> Result<String> {
    // The file goes in as "$1", never pasted into the script, so any file name is safe.
    let script = if template.contains("{}") {
        template.replace("{}", "\"$1\"")
    } else {
        format!("{template} \"$1\"")
    };
    let out = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .arg("citestore-extract")
        .arg(path)
        .output()
        .map_err(|e| Error::ExtractFailed {
            input: input.to_string(),
            command: template.to_string(),
            message: e.to_string(),
        })?;
    program_output(input, template, out)
}

/// A program's stdout as UTF-8 text, or an error with its status and the line of stderr that
/// says why (see [`failure_line`]).
fn program_output(input: &str, command: &str, out: std::process::Output) -> Result<String> {
    let failed = |message: String| Error::ExtractFailed {
        input: input.to_string(),
        command: command.to_string(),
        message,
    };
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(failed(format!(
            "{} ({})",
            out.status,
            failure_line(&stderr)
        )));
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

/// The line of a failed program's stderr that says why: the last line mentioning an error,
/// else the last non-empty line. Programs warn before they fail (pdftotext prints `Syntax
/// Warning: …` lines before `Syntax Error: …`), so the first line is rarely the reason.
fn failure_line(stderr: &str) -> &str {
    let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    lines()
        .rev()
        .find(|l| l.to_lowercase().contains("error"))
        .or_else(|| lines().next_back())
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extract(extractor: Extractor, bytes: &[u8]) -> Result<Extracted> {
        extractor.extract("in", Path::new("in"), bytes)
    }

    #[test]
    fn text_is_byte_exact() {
        let raw = "a\r\nsub-\nscription\u{00AD} \t\n";
        let got = extract(Extractor::Text, raw.as_bytes()).unwrap();
        assert_eq!(got.text, raw);
        assert_eq!(got.stamp, TEXT_STAMP);
    }

    #[test]
    fn a_failure_shows_its_error_line_not_its_first_warning() {
        // (stderr, the line shown)
        let cases = [
            (
                "Syntax Warning: May not be a PDF file (continuing anyway)\n\
                 Syntax Warning: bad xref\n\
                 Syntax Error: Couldn't find trailer dictionary\n\
                 Syntax Error: Couldn't read xref table\n",
                "Syntax Error: Couldn't read xref table",
            ),
            ("warming up\nERROR: disk full\nbye\n", "ERROR: disk full"),
            ("first\n  second  \n\n", "second"),
            ("", ""),
        ];
        for (stderr, want) in cases {
            assert_eq!(failure_line(stderr), want, "{stderr:?}");
        }
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
        let got = cmd.extract("f", &path, b"hello\n").unwrap();
        assert_eq!(got.text, "HELLO\n");
        assert_eq!(got.stamp, "tr@9");
        assert_eq!(cmd.name(), "cmd:tr");
        let failing = Extractor::Command {
            template: "sh -c 'echo broken >&2; exit 3'".into(),
            version: "1".into(),
        };
        let err = failing.extract("f", &path, b"x").unwrap_err().to_string();
        assert!(
            err.contains("f: extractor") && err.contains("broken"),
            "{err}"
        );
    }

    #[test]
    fn extension_picks_the_extractor() {
        assert_eq!(Extractor::for_path(Path::new("a/b.HTML")), Extractor::Html);
        assert_eq!(Extractor::for_path(Path::new("b.pdf")), Extractor::Pdf);
        assert_eq!(Extractor::for_path(Path::new("b.md")), Extractor::Text);
        assert_eq!(Extractor::for_path(Path::new("README")), Extractor::Text);
    }
}
