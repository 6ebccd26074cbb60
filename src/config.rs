//! `citestore.toml`: the database, the sources to ingest, the chunker, the locator thresholds,
//! and verification (judge, threshold, limits).
//!
//! Named with `--config` or `CITESTORE_CONFIG`, else found in the current directory. Unknown keys
//! are errors (a typo must not silently fall back to a default). Relative paths in the file
//! (`db`, `[[sources]] root`) are relative to the file's folder, never to the current directory,
//! so a cron job started in `/` behaves exactly like a run in the project folder. The database
//! is chosen by [`choose_database`]: the `--db` flag, then `CITESTORE_DB`, then `db` here, then
//! `./citestore.db`.

use crate::child::shown;
use crate::chunk::ChunkSpec;
use crate::error::{Error, Result};
use crate::extract::Extractor;
use crate::store::Location;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file looked for in the current directory.
pub const CONFIG_FILE: &str = "citestore.toml";

/// The database used when nothing names one.
pub const DEFAULT_DB: &str = "citestore.db";

/// A parsed configuration; every part is optional.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The folder of the file this was read from (absolute); `None` for defaults.
    #[serde(skip)]
    pub dir: Option<PathBuf>,
    /// Database path (after loading: resolved against the file's folder).
    pub db: Option<PathBuf>,
    /// The chunker applied at ingest.
    #[serde(default)]
    pub chunker: ChunkerConfig,
    /// What `citestore ingest` without paths ingests.
    #[serde(default)]
    pub sources: Vec<Source>,
    /// Locator thresholds.
    #[serde(default)]
    pub locate: LocateConfig,
    /// Verification: the judge, routing threshold and limits.
    #[serde(default)]
    pub verify: VerifyConfig,
    /// The nightly job.
    #[serde(default)]
    pub sweep: SweepConfig,
}

/// `[sweep]`.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SweepConfig {
    /// A sweep reads every page of a SQLite store first when the last full check that found
    /// it sound is this many days old or older (0: every sweep).
    pub full_check_days: u32,
}

impl Default for SweepConfig {
    fn default() -> Self {
        SweepConfig {
            full_check_days: crate::sweep::integrity::DEFAULT_FULL_CHECK_DAYS,
        }
    }
}

/// `[verify]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VerifyConfig {
    /// The judge used when `--judge` is not given (`command:…` or `openai:MODEL@URL`).
    pub judge: Option<String>,
    /// Confidence at or above which a judgement is acted on; below it, `review`.
    pub accept: f64,
    /// Most chars of section kept either side of a span in the premise.
    pub max_side: usize,
    /// Judgements in flight at once.
    pub concurrency: usize,
    /// Longest wait for one judgement, seconds.
    pub timeout_secs: f64,
    /// Further attempts after a retryable failure of an `openai:` judge.
    pub retries: u32,
    /// `[verify.openai]`: sampling parameters sent to an `openai:` judge.
    pub openai: OpenAiSampling,
}

/// `[verify.openai]`: sampling parameters for an `openai:` judge; each is sent only when set
/// (some models reject `temperature`, others any value but their default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpenAiSampling {
    /// `temperature`, 0 to 2.
    pub temperature: Option<f64>,
    /// `top_p`, above 0 and at most 1.
    pub top_p: Option<f64>,
}

impl OpenAiSampling {
    /// Checks the ranges the API accepts; the message names the key.
    pub fn check(&self) -> Result<(), String> {
        if let Some(t) = self.temperature {
            if !(0.0..=2.0).contains(&t) {
                return Err(format!(
                    "[verify.openai] temperature {t} is not from 0 to 2"
                ));
            }
        }
        if let Some(p) = self.top_p {
            if !(p > 0.0 && p <= 1.0) {
                return Err(format!(
                    "[verify.openai] top_p {p} is not above 0 and at most 1"
                ));
            }
        }
        Ok(())
    }
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig {
            judge: None,
            accept: 0.7,
            max_side: 1000,
            concurrency: 4,
            timeout_secs: 60.0,
            retries: 3,
            openai: OpenAiSampling::default(),
        }
    }
}

/// `[chunker]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChunkerConfig {
    /// e.g. `paragraph:1500`; checked when the configuration loads.
    pub spec: Option<String>,
}

/// One `[[sources]]` entry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Folder walked; doc ids are paths relative to it (after loading: resolved against the
    /// configuration file's folder).
    pub root: PathBuf,
    /// Glob patterns (relative to `root`) of files to ingest; empty means every file.
    #[serde(default)]
    pub patterns: Vec<String>,
    /// Extractor per file extension (without the dot): `text`, `html` or `pdf`.
    #[serde(default)]
    pub extractors: BTreeMap<String, String>,
}

/// `[locate]`.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocateConfig {
    /// Score at or above which a fuzzy match is accepted.
    pub accept: f64,
    /// Score below which there is no span.
    pub review: f64,
}

impl Default for LocateConfig {
    fn default() -> Self {
        LocateConfig {
            accept: 95.0,
            review: 85.0,
        }
    }
}

impl Config {
    /// Loads `explicit` (which must exist), else `./citestore.toml` when present, else defaults.
    pub fn load(explicit: Option<&Path>) -> Result<Config> {
        match explicit {
            Some(path) => Config::read(path),
            None if Path::new(CONFIG_FILE).is_file() => Config::read(Path::new(CONFIG_FILE)),
            None => Ok(Config::default()),
        }
    }

    /// Reads and checks one file, and resolves its relative paths against its folder.
    pub fn read(path: &Path) -> Result<Config> {
        let text = crate::error::read_text_file(path)?;
        let mut config = Config::parse(path, &text)?;
        let absolute = std::path::absolute(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let dir = absolute.parent().unwrap_or(Path::new("/")).to_path_buf();
        // A PostgreSQL URL is not a path: it is kept as written.
        config.db = config.db.map(|db| {
            if crate::store::is_postgres(&db) {
                db
            } else {
                dir.join(db)
            }
        });
        for source in &mut config.sources {
            source.root = dir.join(&source.root);
        }
        config.dir = Some(dir);
        Ok(config)
    }

    /// Parses and checks configuration text; `path` names it in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Config> {
        // One line whatever the message quotes: a line break left in it is shown escaped.
        let bad = |message: String| Error::Config {
            path: path.to_path_buf(),
            message: message.replace('\r', "\\r").replace('\n', "\\n"),
        };
        let config: Config = toml::from_str(text).map_err(|e| bad(one_line(&e.to_string())))?;
        if let Some(spec) = &config.chunker.spec {
            spec.parse::<ChunkSpec>()
                .map_err(|e| bad(format!("[chunker] {e}")))?;
        }
        for source in &config.sources {
            for (ext, name) in &source.extractors {
                if Extractor::from_name(name).is_none() {
                    return Err(bad(format!(
                        "[[sources]] extractor {name:?} for .{ext} is unknown; use text, html or pdf"
                    )));
                }
            }
            for pattern in &source.patterns {
                // The error's kind, not its Display, which repeats the pattern raw (with any
                // line breaks in it): the pattern is shown once, escaped.
                globset::Glob::new(pattern)
                    .map_err(|e| bad(format!("[[sources]] pattern {pattern:?}: {}", e.kind())))?;
            }
        }
        config.check_numbers().map_err(bad)?;
        Ok(config)
    }

    /// Checks every number against its range before anything converts it (a NaN fails every
    /// range test, so each test is written to pass only inside the range); the message names
    /// the key.
    fn check_numbers(&self) -> std::result::Result<(), String> {
        // [locate] accept and review are each checked, by name, where they are used (cli/locate).
        let locate = self.locate;
        if !(0.0..=100.0).contains(&locate.review) || locate.review > locate.accept {
            return Err("[locate] needs 0 <= review <= accept <= 100".to_string());
        }
        let verify = &self.verify;
        if !(0.0..=1.0).contains(&verify.accept) {
            return Err(format!(
                "[verify] accept {} is not a confidence from 0 to 1",
                shown(verify.accept)
            ));
        }
        if verify.concurrency == 0 {
            return Err("[verify] concurrency must be at least 1".to_string());
        }
        crate::child::timeout_from_secs(verify.timeout_secs).map_err(|why| {
            format!(
                "[verify] timeout_secs {}: {why}",
                shown(verify.timeout_secs)
            )
        })?;
        self.verify.openai.check()
    }

    /// The configured chunker, if any (already checked by [`Config::parse`]).
    pub fn chunker(&self) -> Option<ChunkSpec> {
        self.chunker.spec.as_deref().and_then(|s| s.parse().ok())
    }
}

impl Source {
    /// The extractor for `path` under this source: the per-extension map, else the default.
    pub fn extractor_for(&self, path: &Path) -> Extractor {
        path.extension()
            .and_then(|e| e.to_str())
            .and_then(|ext| self.extractors.get(&ext.to_ascii_lowercase()))
            .and_then(|name| Extractor::from_name(name))
            .unwrap_or_else(|| Extractor::for_path(path))
    }
}

/// TOML errors span several lines (a caret under the bad spot); a one-line error keeps the first
/// line and the message.
fn one_line(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    match (lines.first(), lines.last()) {
        (Some(first), Some(last)) if first != last => format!("{first}: {last}"),
        (Some(first), _) => first.to_string(),
        _ => message.to_string(),
    }
}

/// The database: `flag`, then `env` (`CITESTORE_DB`), then the configuration, then the default;
/// parsed here, once, into a SQLite file or a PostgreSQL URL.
pub fn choose_database(flag: Option<&Path>, env: Option<&Path>, config: &Config) -> Location {
    Location::parse(
        flag.or(env)
            .or(config.db.as_deref())
            .unwrap_or(Path::new(DEFAULT_DB)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: &str = r#"
db = "store/cs.db"
[chunker]
spec = "paragraph:1500"
[[sources]]
root = "docs"
patterns = ["**/*.md", "**/*.html"]
extractors = { htm = "html" }
[locate]
accept = 96
review = 80
"#;

    #[test]
    fn full_file_parses() {
        let config = Config::parse(Path::new("c.toml"), FULL).unwrap();
        assert_eq!(config.db.as_deref(), Some(Path::new("store/cs.db")));
        assert_eq!(config.chunker(), Some(ChunkSpec::Paragraph { max: 1500 }));
        assert_eq!(config.sources[0].patterns.len(), 2);
        assert_eq!(
            config.sources[0].extractor_for(Path::new("a/x.HTM")),
            Extractor::Html
        );
        assert_eq!(
            config.locate,
            LocateConfig {
                accept: 96.0,
                review: 80.0
            }
        );
    }

    #[test]
    fn bad_files_name_the_file_and_the_problem() {
        let cases = [
            ("dbb = \"x\"", "unknown field"),
            ("[chunker]\nspec = \"words:3\"", "unknown chunker"),
            (
                "[[sources]]\nroot = \"d\"\nextractors = { doc = \"word\" }",
                "\"word\" for .doc is unknown",
            ),
            (
                "[[sources]]\nroot = \"d\"\npatterns = [\"a[\"]",
                "pattern \"a[\"",
            ),
            // Found by the config fuzz target: globset's message repeats the pattern raw, so a
            // pattern holding a line break made a two-line error.
            (
                "[[sources]]\nroot = \"d\"\npatterns = [\"a[\\nb\"]",
                "pattern \"a[\\nb\": unclosed character class",
            ),
            ("[locate]\naccept = 80\nreview = 90", "review <= accept"),
            ("[verify]\naccept = nan", "[verify] accept NaN"),
            (
                "[verify]\ntimeout_secs = 1e30",
                "[verify] timeout_secs 1e30: give a positive number of seconds",
            ),
            ("[verify]\ntimeout_secs = nan", "[verify] timeout_secs NaN"),
            (
                "[verify]\ntimeout_secs = -inf",
                "[verify] timeout_secs -inf",
            ),
            ("[verify.openai]\ntop_p = nan", "top_p NaN"),
            ("db = ", "c.toml"),
        ];
        for (text, want) in cases {
            let err = Config::parse(Path::new("c.toml"), text)
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with("c.toml: ") && err.contains(want),
                "{text:?}: {err}"
            );
            assert!(!err.contains('\n'), "{err}");
        }
    }

    #[test]
    fn database_precedence() {
        let config = Config {
            db: Some("from-config.db".into()),
            ..Config::default()
        };
        let flag = Path::new("flag.db");
        let env = Path::new("env.db");
        assert_eq!(
            choose_database(Some(flag), Some(env), &config),
            Location::from(flag)
        );
        assert_eq!(
            choose_database(None, Some(env), &config),
            Location::from(env)
        );
        assert_eq!(
            choose_database(None, None, &config),
            Location::from("from-config.db")
        );
        assert_eq!(
            choose_database(None, None, &Config::default()),
            Location::from(DEFAULT_DB)
        );
    }
}
