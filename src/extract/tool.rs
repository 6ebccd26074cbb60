//! An extractor's identity without running it, and the way back from a stored source.
//!
//! A sweep must not start a single extractor process for a file that did not change, yet must
//! re-extract when the extractor did. Built-in extractors are identified by their stamps; a
//! program found on `PATH` (pdftotext) by its resolved path, size and modification time, which
//! change when a package upgrade replaces it; a command by its template and version.

use super::{Extractor, HTML2TEXT_VERSION, TEXT_STAMP};
use crate::model::{mtime_ns, Source};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

impl Extractor {
    /// What identifies this extractor without running it (see the module docs).
    pub fn tool(&self) -> String {
        match self {
            Extractor::Text => TEXT_STAMP.to_string(),
            Extractor::Html => format!("html2text@{HTML2TEXT_VERSION}"),
            Extractor::Pdf => format!("pdftotext {}", pdftotext_identity()),
            Extractor::Command { template, version } => format!("cmd {template} @{version}"),
        }
    }

    /// The source row for a file extracted this way.
    pub fn source(&self, path: String, base: crate::model::SourceBase) -> Source {
        let (command, version) = match self {
            Extractor::Command { template, version } => {
                (Some(template.clone()), Some(version.clone()))
            }
            _ => (None, None),
        };
        let extractor = match self {
            Extractor::Command { .. } => "cmd".to_string(),
            other => other.name(),
        };
        Source {
            path,
            base,
            extractor,
            command,
            version,
        }
    }

    /// The extractor a stored source names; `None` for a command extractor whose command line
    /// was never stored (documents ingested before citestore kept it).
    pub fn from_source(source: &Source) -> Option<Extractor> {
        match (source.extractor.as_str(), &source.command, &source.version) {
            ("cmd", Some(template), Some(version)) => Some(Extractor::Command {
                template: template.clone(),
                version: version.clone(),
            }),
            ("cmd", _, _) => None,
            (name, _, _) => Extractor::from_name(name),
        }
    }
}

/// [`program_identity`] of pdftotext, looked up once per process: a sweep asks it for every
/// PDF, and PATH does not change while it runs.
fn pdftotext_identity() -> &'static str {
    static IDENTITY: OnceLock<String> = OnceLock::new();
    IDENTITY.get_or_init(|| program_identity("pdftotext"))
}

/// `PATH_TO_PROGRAM SIZE MTIME_NS` of the first `name` on `PATH`, else `missing`.
fn program_identity(name: &str) -> String {
    let Some(path) = find_on_path(name) else {
        return "missing".into();
    };
    let Ok(meta) = std::fs::metadata(&path) else {
        return "missing".into();
    };
    format!("{} {} {}", path.display(), meta.len(), mtime_ns(&meta))
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SourceBase;

    #[test]
    fn every_extractor_round_trips_through_its_source() {
        let cases = [
            Extractor::Text,
            Extractor::Html,
            Extractor::Pdf,
            Extractor::Command {
                template: "pandoc -t plain {}".into(),
                version: "3.1".into(),
            },
        ];
        for extractor in cases {
            let source = extractor.source("/a/b".into(), SourceBase::Absolute);
            assert_eq!(Extractor::from_source(&source), Some(extractor.clone()));
        }
        let legacy = Source {
            path: "a".into(),
            base: SourceBase::Cwd,
            extractor: "cmd".into(),
            command: None,
            version: None,
        };
        assert_eq!(Extractor::from_source(&legacy), None);
    }

    #[test]
    fn a_command_is_identified_by_template_and_version() {
        let a = Extractor::Command {
            template: "x {}".into(),
            version: "1".into(),
        };
        let b = Extractor::Command {
            template: "x {}".into(),
            version: "2".into(),
        };
        assert_ne!(a.tool(), b.tool());
        assert_eq!(a.tool(), a.clone().tool());
    }
}
