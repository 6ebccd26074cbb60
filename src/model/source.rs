//! Where a document's text comes from, how it is extracted, and what the last extraction saw.
//!
//! Invariants: a document's current [`Source`] is the latest one recorded (ingesting the same
//! doc id from another path, or with another extractor, records a new one; earlier ones are kept
//! as history); a [`Fingerprint`] is what a sweep compares a file with before it reads it, so an
//! unchanged file (same size, modification time and extractor) is never read again.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What a stored source path is relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceBase {
    /// An absolute path.
    Absolute,
    /// Relative to the folder of the citestore.toml that named it (`[[sources]] root`).
    Config,
    /// Relative to the folder the command runs in (documents ingested before citestore stored
    /// absolute paths).
    Cwd,
}

impl SourceBase {
    /// The name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceBase::Absolute => "absolute",
            SourceBase::Config => "config",
            SourceBase::Cwd => "cwd",
        }
    }

    /// Parses a stored name.
    pub fn parse(name: &str) -> Option<SourceBase> {
        match name {
            "absolute" => Some(SourceBase::Absolute),
            "config" => Some(SourceBase::Config),
            "cwd" => Some(SourceBase::Cwd),
            _ => None,
        }
    }
}

/// A document's source: the file and how it becomes text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The path as stored (see `base`).
    pub path: String,
    /// What `path` is relative to.
    pub base: SourceBase,
    /// `text`, `html`, `pdf` or `cmd`.
    pub extractor: String,
    /// For `cmd`: the command template (`{}` is the file); `None` for documents ingested before
    /// citestore stored it.
    pub command: Option<String>,
    /// For `cmd`: the version stamped beside the program's name.
    pub version: Option<String>,
}

impl Source {
    /// The file on disk: `path` resolved against `config_dir` (for [`SourceBase::Config`]) or
    /// the current directory; `None` when the source is relative to a configuration file and
    /// none was loaded.
    pub fn resolve(&self, config_dir: Option<&Path>) -> Option<PathBuf> {
        match self.base {
            SourceBase::Absolute | SourceBase::Cwd => Some(PathBuf::from(&self.path)),
            SourceBase::Config => config_dir.map(|dir| dir.join(&self.path)),
        }
    }
}

/// What identifies one extraction of a file without reading it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Bytes; `None` when not known.
    pub size: Option<u64>,
    /// Modification time, nanoseconds since the epoch; `None` when not known.
    pub mtime_ns: Option<i64>,
    /// Hex SHA-256 of the bytes.
    pub source_sha256: String,
    /// The extractor's identity (see `Extractor::tool`).
    pub tool: String,
}

/// A file's modification time in nanoseconds since the epoch, as fingerprints record it (0 when
/// the platform gives none).
pub fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i64)
}

/// Whether a document is swept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DocumentState {
    /// Swept every night.
    Active,
    /// Its source file was gone at the last sweep: its citations are lost until it comes back.
    Missing,
    /// Removed on purpose (`citestore retire`): kept, shown apart, never swept, never failing.
    Retired,
}

impl DocumentState {
    /// The name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentState::Active => "active",
            DocumentState::Missing => "missing",
            DocumentState::Retired => "retired",
        }
    }

    /// Parses a stored name.
    pub fn parse(name: &str) -> Option<DocumentState> {
        match name {
            "active" => Some(DocumentState::Active),
            "missing" => Some(DocumentState::Missing),
            "retired" => Some(DocumentState::Retired),
            _ => None,
        }
    }
}
