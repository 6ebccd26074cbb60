//! Rung (a) of the sweep, outside the write lock: look at a document's source and extract it
//! only when something changed.
//!
//! Invariants:
//! - A file whose size and modification time match the last extraction's fingerprint, with the
//!   same extractor identity, is not read and no extractor process starts.
//! - A file whose bytes hash to the last fingerprint's (touched, not changed) is read once, and
//!   its new time recorded, but not extracted.
//! - A source that is not there is [`Probe::Missing`], never an error and never "unchanged":
//!   its citations must not stay `intact`.
//! - Nothing here touches the database but to read; the caller stores what it returns in the
//!   document's write transaction.

use crate::error::{Error, Result};
use crate::extract::{ExtractOptions, Extractor};
use crate::ingest::{extract_source, read_source, source_sha256, stat, ExtractedSource};
use crate::model::{Document, Fingerprint, Source};
use crate::store::Store;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// What looking at a document's source found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Probe {
    /// Same size, time and extractor as the last extraction: nothing read.
    Unchanged,
    /// The file was touched but holds the same bytes: record the new fingerprint.
    SameBytes(Fingerprint),
    /// The source was extracted (its text may or may not differ from the latest revision).
    Extracted(ExtractedSource),
    /// The source is gone; the message names it.
    Missing(String),
}

/// A probe of the document's current source (row `source_id`).
#[derive(Debug, Clone)]
pub(super) struct Looked {
    /// The source row looked at.
    pub source_id: i64,
    /// What was found.
    pub probe: Probe,
}

/// Looks at `document`'s source; `config_dir` resolves sources recorded relative to a
/// configuration file.
pub(super) fn look(
    store: &Store,
    document: &Document,
    config_dir: Option<&Path>,
    options: &ExtractOptions,
) -> Result<Looked> {
    let source = store.reads().current_source(document.id)?;
    let last = store.reads().last_fingerprint(document.id)?;
    look_known(document, source, last, config_dir, options)
}

/// [`look`] with the document's current source and last fingerprint already read.
pub(super) fn look_known(
    document: &Document,
    source: Option<(i64, Source)>,
    last: Option<Fingerprint>,
    config_dir: Option<&Path>,
    options: &ExtractOptions,
) -> Result<Looked> {
    let (source_id, source) = source.ok_or_else(|| {
        unusable(
            document,
            "no source is recorded for it; ingest it again".into(),
        )
    })?;
    let extractor = Extractor::from_source(&source).ok_or_else(|| {
        unusable(
            document,
            format!(
                "it was ingested with an extractor command ({}) citestore did not store; \
                 ingest it again once with --extract-cmd and --extract-version",
                source.extractor
            ),
        )
    })?;
    let path = resolve(document, &source, config_dir)?;
    let probe = probe(document, &path, &extractor, last, options)?;
    Ok(Looked { source_id, probe })
}

fn unusable(document: &Document, message: String) -> Error {
    Error::SourceUnusable {
        doc_id: document.doc_id.clone(),
        message,
    }
}

fn resolve(document: &Document, source: &Source, config_dir: Option<&Path>) -> Result<PathBuf> {
    source.resolve(config_dir).ok_or_else(|| {
        unusable(
            document,
            format!(
                "its source {:?} is relative to the citestore.toml that named it; \
                 run with --config FILE or CITESTORE_CONFIG",
                source.path
            ),
        )
    })
}

fn probe(
    document: &Document,
    path: &Path,
    extractor: &Extractor,
    last: Option<Fingerprint>,
    options: &ExtractOptions,
) -> Result<Probe> {
    let input = path.display().to_string();
    let found = match stat(path) {
        Ok(found) => found,
        Err(Error::Io { source, .. }) if gone(&source) => {
            return Ok(Probe::Missing(format!(
                "source file {input} is missing; restore it, or `citestore retire {}`",
                document.doc_id
            )))
        }
        Err(err) => return Err(err),
    };
    let (size, mtime) = (found.size, found.mtime_ns);
    if !found.is_file {
        return Err(unusable(
            document,
            format!("its source {input} is not a regular file"),
        ));
    }
    let tool = extractor.tool();
    let same_tool = last.as_ref().is_some_and(|f| f.tool == tool);
    if same_tool
        && last
            .as_ref()
            .is_some_and(|f| f.size == Some(size) && f.mtime_ns == Some(mtime))
    {
        return Ok(Probe::Unchanged);
    }
    let read = read_source(path)?;
    let sha = source_sha256(&read.0);
    if same_tool && last.as_ref().is_some_and(|f| f.source_sha256 == sha) {
        return Ok(Probe::SameBytes(Fingerprint {
            size: Some(read.1),
            mtime_ns: Some(read.2),
            source_sha256: sha,
            tool,
        }));
    }
    Ok(Probe::Extracted(extract_source(
        &input, path, extractor, read, options,
    )?))
}

/// A file that is not there (or whose folder is not), as opposed to one that cannot be read.
fn gone(err: &std::io::Error) -> bool {
    matches!(err.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory)
}
