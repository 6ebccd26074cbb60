//! Ingest: decide what becomes a document (planning files and folder walks, reading and
//! extracting them) and write it through one store [`Writer`] (so one command is one
//! transaction). The revision and its chunking are written by the store
//! ([`Writer::store_extracted`], [`Writer::store_revision`]), whose rules the sweep shares;
//! their types are re-exported here.
//!
//! Invariants:
//! - Every doc id passes [`check_doc_id`]. A folder walk never leaves the folder: a symbolic
//!   link leading outside it is listed as skipped, not followed.
//! - In a folder walk, binary and empty files are skipped and reported; any other failure (not
//!   UTF-8, unreadable, extractor missing) stops the command before it commits.

use crate::chunk::caller::Located;
use crate::config::Source as ConfigSource;
use crate::error::{read_at_most, Error, Result};
use crate::extract::{ExtractOptions, Extracted, Extractor};
use crate::model::{mtime_ns, Document, DocumentState, Fingerprint, Source, SourceBase};
pub use crate::store::{
    chunk_rows, ChunkPolicy, ChunkingResult, Chunks, Ingested, Outcome, Rechunked,
};
use crate::store::{ExtractedText, NewRevision, TextOrigin, Writer};
use crate::text::normalise::hex;
use crate::text::NORMALISER_VERSION;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One file to ingest, and the document it becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The document's stable id.
    pub doc_id: String,
    /// The file.
    pub path: PathBuf,
    /// How its text is extracted.
    pub extractor: Extractor,
    /// Found by walking a folder (binary and empty files are then skipped, not errors).
    pub walked: bool,
    /// The path as the document's source records it, and what it is relative to.
    pub stored: (String, SourceBase),
}

impl Planned {
    /// The source row this plan records.
    pub fn source(&self) -> Source {
        self.extractor.source(self.stored.0.clone(), self.stored.1)
    }
}

/// A file passed over in a folder walk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// The file.
    pub path: String,
    /// Why, e.g. `empty file`.
    pub reason: String,
}

/// Everything one ingest did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IngestReport {
    /// One entry per document, in the order read.
    pub documents: Vec<Ingested>,
    /// Files skipped in folder walks.
    pub skipped: Vec<Skipped>,
}

/// A plan: the files to ingest, and what a folder walk passed over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// The files, in order.
    pub files: Vec<Planned>,
    /// Entries of folder walks that are not ingested, and why (e.g. a symbolic link leading
    /// out of the folder).
    pub skipped: Vec<Skipped>,
}

/// Plans `paths` (see [`plan`]); what the walk passed over is dropped.
pub fn plan_paths(
    paths: &[PathBuf],
    doc_id: Option<&str>,
    override_extractor: Option<&Extractor>,
) -> Result<Vec<Planned>> {
    plan(paths, doc_id, override_extractor).map(|plan| plan.files)
}

/// Plans `paths`: a file is one document (id: the path as given, or `doc_id`); a folder is
/// walked (hidden entries skipped) and ids are paths relative to it with `/` separators.
/// `override_extractor` (from `--extract-cmd`) replaces the choice by extension. A doc id given
/// or derived from a path given must pass [`check_doc_id`].
pub fn plan(
    paths: &[PathBuf],
    doc_id: Option<&str>,
    override_extractor: Option<&Extractor>,
) -> Result<Plan> {
    if let Some(id) = doc_id {
        check_doc_id(id)?;
    }
    let mut plan = Plan::default();
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => Error::NotFound { path: path.clone() },
            _ => Error::Io {
                path: path.clone(),
                source,
            },
        })?;
        let pick = |p: &Path| {
            override_extractor
                .cloned()
                .unwrap_or_else(|| Extractor::for_path(p))
        };
        if meta.is_dir() || (doc_id.is_some() && paths.len() > 1) {
            if doc_id.is_some() {
                return Err(Error::DocIdNeedsOneFile {
                    path: path.display().to_string(),
                });
            }
            let walked = walk(path, &[])?;
            plan.skipped.extend(walked.skipped);
            for (rel, file) in walked.files {
                let extractor = pick(&file);
                let stored = absolute(&file)?;
                plan.files.push(Planned {
                    doc_id: rel,
                    path: file,
                    extractor,
                    walked: true,
                    stored,
                });
            }
        } else {
            let id = match doc_id {
                Some(id) => id.to_string(),
                None => utf8_path(path)?.to_string(),
            };
            check_doc_id(&id)?;
            plan.files.push(Planned {
                doc_id: id,
                path: path.clone(),
                extractor: pick(path),
                walked: false,
                stored: absolute(path)?,
            });
        }
    }
    check_unique(&plan.files)?;
    Ok(plan)
}

/// Refuses a doc id that cannot name a document: empty, only whitespace, or holding a control
/// character (a newline or tab in an id breaks every listing and log line it appears in).
pub fn check_doc_id(doc_id: &str) -> Result<()> {
    let bad = |reason: String| {
        Err(Error::BadDocId {
            doc_id: doc_id.to_string(),
            reason,
        })
    };
    if doc_id.is_empty() {
        return bad("is empty".into());
    }
    if doc_id.trim().is_empty() {
        return bad("is only whitespace".into());
    }
    if let Some((at, c)) = doc_id.chars().enumerate().find(|(_, c)| c.is_control()) {
        return bad(format!(
            "holds the control character U+{:04X} at char {at}",
            c as u32
        ));
    }
    Ok(())
}

/// Takes the database file (and its `-wal`/`-shm` companions) out of a plan, so ingesting the
/// folder that holds the database does not read the database; returns what was taken out.
pub fn exclude_database(plan: &mut Vec<Planned>, db: &Path) -> Vec<Skipped> {
    let Ok(db) = db.canonicalize() else {
        return Vec::new();
    };
    let mut companions = vec![db.clone()];
    for suffix in ["-wal", "-shm", "-journal"] {
        let mut name = db.clone().into_os_string();
        name.push(suffix);
        companions.push(PathBuf::from(name));
    }
    let mut skipped = Vec::new();
    plan.retain(|item| {
        let is_db = item
            .path
            .canonicalize()
            .is_ok_and(|p| companions.contains(&p));
        if is_db {
            skipped.push(Skipped {
                path: item.path.display().to_string(),
                reason: "the database itself".into(),
            });
        }
        !is_db
    });
    skipped
}

/// The absolute form of `path` (not resolving symlinks), as a source records it.
fn absolute(path: &Path) -> Result<(String, SourceBase)> {
    let abs = std::path::absolute(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok((utf8_path(&abs)?.to_string(), SourceBase::Absolute))
}

/// How a file found through citestore.toml is recorded: relative to the configuration's folder
/// when it lies inside it (so the project folder can move), else absolute.
fn config_relative(file: &Path, config_dir: Option<&Path>) -> Result<(String, SourceBase)> {
    let abs = std::path::absolute(file).map_err(|source| Error::Io {
        path: file.to_path_buf(),
        source,
    })?;
    if let Some(rel) = config_dir.and_then(|dir| abs.strip_prefix(dir).ok()) {
        return Ok((utf8_path(rel)?.to_string(), SourceBase::Config));
    }
    Ok((utf8_path(&abs)?.to_string(), SourceBase::Absolute))
}

/// Plans the configured sources (see [`plan_configured`]); what the walks passed over is
/// dropped.
pub fn plan_sources(
    sources: &[ConfigSource],
    override_extractor: Option<&Extractor>,
    config_dir: Option<&Path>,
) -> Result<Vec<Planned>> {
    plan_configured(sources, override_extractor, config_dir).map(|plan| plan.files)
}

/// Plans the configured sources: each root walked, files kept when they match a pattern.
/// `config_dir` is the folder of the configuration file (roots are already resolved against
/// it): files inside it are recorded relative to it.
pub fn plan_configured(
    sources: &[ConfigSource],
    override_extractor: Option<&Extractor>,
    config_dir: Option<&Path>,
) -> Result<Plan> {
    let mut plan = Plan::default();
    for source in sources {
        let walked = walk(&source.root, &source.patterns)?;
        plan.skipped.extend(walked.skipped);
        for (rel, file) in walked.files {
            let extractor = override_extractor
                .cloned()
                .unwrap_or_else(|| source.extractor_for(&file));
            let stored = config_relative(&file, config_dir)?;
            plan.files.push(Planned {
                doc_id: rel,
                path: file,
                extractor,
                walked: true,
                stored,
            });
        }
    }
    check_unique(&plan.files)?;
    Ok(plan)
}

fn utf8_path(path: &Path) -> Result<&str> {
    path.to_str().ok_or_else(|| Error::NonUtf8Path {
        path: path.display().to_string(),
    })
}

/// What a walk found: (id relative to root with `/` separators, path), and what it passed over.
struct Walked {
    files: Vec<(String, PathBuf)>,
    skipped: Vec<Skipped>,
}

/// Files under `root` (sorted, hidden entries skipped) matching `patterns` (all when empty).
/// Symbolic links are followed while they lead to somewhere inside `root` (a loop is an
/// error); one leading outside is not followed and is listed as skipped, so ingesting a folder
/// never reads what the folder does not hold. A file whose name cannot be a doc id is skipped
/// and listed too.
fn walk(root: &Path, patterns: &[String]) -> Result<Walked> {
    let mut builder = globset::GlobSetBuilder::new();
    for pattern in patterns {
        // Patterns were checked when the configuration loaded.
        if let Ok(glob) = globset::Glob::new(pattern) {
            builder.add(glob);
        }
    }
    let globs = builder
        .build()
        .unwrap_or_else(|_| globset::GlobSet::empty());
    if !root.exists() {
        return Err(Error::NotFound {
            path: root.to_path_buf(),
        });
    }
    let inside = root.canonicalize().map_err(|source| Error::Io {
        path: root.to_path_buf(),
        source,
    })?;
    let mut outside = Vec::new();
    let mut skipped = Vec::new();
    let mut files = Vec::new();
    let entries = walkdir::WalkDir::new(root)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            if e.depth() == 0 {
                return true;
            }
            if e.file_name().to_string_lossy().starts_with('.') {
                return false;
            }
            match link_outside(e.path(), &inside) {
                Some(target) => {
                    outside.push(Skipped {
                        path: e.path().display().to_string(),
                        reason: format!(
                            "symbolic link to {}, outside the folder; not followed",
                            target.display()
                        ),
                    });
                    false
                }
                None => true,
            }
        });
    for entry in entries {
        let entry = entry.map_err(|e| Error::Io {
            path: e.path().unwrap_or(root).to_path_buf(),
            source: e.into(),
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = match entry.path().strip_prefix(root) {
            // A root that is itself a file: its id is its name.
            Ok(rel) if rel.as_os_str().is_empty() => Path::new(entry.file_name()),
            Ok(rel) => rel,
            Err(_) => entry.path(),
        };
        let parts: Vec<&str> = rel
            .components()
            .map(|c| c.as_os_str().to_str())
            .collect::<Option<_>>()
            .ok_or_else(|| Error::NonUtf8Path {
                path: entry.path().display().to_string(),
            })?;
        let id = parts.join("/");
        if !patterns.is_empty() && !globs.is_match(&id) {
            continue;
        }
        match check_doc_id(&id) {
            Ok(()) => files.push((id, entry.path().to_path_buf())),
            Err(Error::BadDocId { reason, .. }) => skipped.push(Skipped {
                path: entry.path().display().to_string(),
                reason: format!("its name cannot be a doc id: it {reason}"),
            }),
            Err(other) => return Err(other),
        }
    }
    outside.extend(skipped);
    Ok(Walked {
        files,
        skipped: outside,
    })
}

/// Where the symbolic link `path` leads when that is outside `inside` (a canonical folder);
/// `None` for anything else (not a link, a link inside, or a dangling one, which the walk
/// reports as it finds it).
fn link_outside(path: &Path, inside: &Path) -> Option<PathBuf> {
    if !path.is_symlink() {
        return None;
    }
    let target = path.canonicalize().ok()?;
    (!target.starts_with(inside)).then_some(target)
}

fn check_unique(plan: &[Planned]) -> Result<()> {
    let mut seen: BTreeMap<&str, &Path> = BTreeMap::new();
    for item in plan {
        if let Some(first) = seen.insert(&item.doc_id, &item.path) {
            return Err(Error::DuplicateDocId {
                doc_id: item.doc_id.clone(),
                first: first.display().to_string(),
                second: item.path.display().to_string(),
            });
        }
    }
    Ok(())
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The largest file stored as one document. Offsets are chars held in memory (and a revision
/// is one SQLite text value, capped at 1 GB), so an absurd file is refused up front rather than
/// half-read; a device or pipe (whose `stat` size is 0) is refused once it passes the limit.
pub const MAX_DOCUMENT_BYTES: u64 = crate::error::MAX_INPUT_BYTES;

/// What a document over [`MAX_DOCUMENT_BYTES`] is told to do.
const DOCUMENT_TOO_LARGE: &str = "split it, or ingest its extracted text";

/// What one `stat` of a source file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStat {
    /// Bytes.
    pub size: u64,
    /// Modification time, ns since the epoch.
    pub mtime_ns: i64,
    /// A regular file (after following symlinks).
    pub is_file: bool,
}

/// A file's size, modification time and kind, in one `stat`, as a fingerprint records them.
pub fn stat(path: &Path) -> Result<FileStat> {
    let meta = std::fs::metadata(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(FileStat {
        size: meta.len(),
        mtime_ns: mtime_ns(&meta),
        is_file: meta.is_file(),
    })
}

/// A source file read, and its text extracted (no database involved: a sweep does this
/// outside the write lock).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedSource {
    /// The text and the extractor's stamp.
    pub extracted: Extracted,
    /// What was read.
    pub fingerprint: Fingerprint,
}

impl ExtractedSource {
    /// The text to store as a revision ([`Writer::store_extracted`]).
    pub fn as_text(&self) -> ExtractedText<'_> {
        ExtractedText {
            text: &self.extracted.text,
            stamp: &self.extracted.stamp,
            fingerprint: &self.fingerprint,
        }
    }
}

/// The bytes of `path` with their size and time taken before the read (a file changed while
/// being read then differs at the next look), refusing a file over the size limit.
pub fn read_source(path: &Path) -> Result<(Vec<u8>, u64, i64)> {
    let FileStat { size, mtime_ns, .. } = stat(path)?;
    if size > MAX_DOCUMENT_BYTES {
        return Err(Error::TooLarge {
            path: path.to_path_buf(),
            bytes: size,
            limit: MAX_DOCUMENT_BYTES,
        });
    }
    let file = std::fs::File::open(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let bytes = read_at_most(
        &path.display().to_string(),
        file,
        size,
        (MAX_DOCUMENT_BYTES, "one document", DOCUMENT_TOO_LARGE),
    )?;
    Ok((bytes, size, mtime_ns))
}

/// Extracts `bytes` (read from `path` with `size` and `mtime`) with `extractor`; `input` names
/// the file in errors.
pub fn extract_source(
    input: &str,
    path: &Path,
    extractor: &Extractor,
    (bytes, size, mtime): (Vec<u8>, u64, i64),
    options: &ExtractOptions,
) -> Result<ExtractedSource> {
    let extracted = extractor.extract(input, path, &bytes, options)?;
    Ok(ExtractedSource {
        extracted,
        fingerprint: Fingerprint {
            size: Some(size),
            mtime_ns: Some(mtime),
            source_sha256: sha256_hex(&bytes),
            tool: extractor.tool(),
        },
    })
}

/// Hex SHA-256 of source bytes, as fingerprints and revisions record it.
pub fn source_sha256(bytes: &[u8]) -> String {
    sha256_hex(bytes)
}

/// Ingests every planned file through `writer`, external extractors limited to
/// `extract::DEFAULT_EXTRACT_TIMEOUT` (120 s); the caller commits.
pub fn ingest(
    writer: &Writer<'_>,
    plan: &[Planned],
    policy: ChunkPolicy,
    now: &str,
) -> Result<IngestReport> {
    ingest_with(writer, plan, policy, &ExtractOptions::default(), now)
}

/// [`ingest`] with the extraction options given (e.g. `--extract-timeout`); the caller commits.
pub fn ingest_with(
    writer: &Writer<'_>,
    plan: &[Planned],
    policy: ChunkPolicy,
    extract: &ExtractOptions,
    now: &str,
) -> Result<IngestReport> {
    ingest_with_progress(writer, plan, policy, extract, now, &mut |_, _| {})
}

/// The bytes `plan`'s files hold on disk now (a file that cannot be read counts 0), the total a
/// progress bar over [`ingest_with_progress`] runs to.
pub fn plan_bytes(plan: &[Planned]) -> u64 {
    plan.iter()
        .map(|item| std::fs::metadata(&item.path).map_or(0, |m| m.len()))
        .sum()
}

/// [`ingest_with`], calling `progress(files_read, bytes_read)` after each file is read (stored
/// or skipped), for a progress bar; the caller commits.
pub fn ingest_with_progress(
    writer: &Writer<'_>,
    plan: &[Planned],
    policy: ChunkPolicy,
    extract: &ExtractOptions,
    now: &str,
    progress: &mut dyn FnMut(usize, u64),
) -> Result<IngestReport> {
    let mut report = IngestReport::default();
    let mut bytes_read = 0u64;
    for (done, item) in plan.iter().enumerate() {
        ingest_item(
            writer,
            item,
            Chunks::Spec(policy),
            extract,
            now,
            &mut report,
            &mut |bytes| {
                bytes_read += bytes;
                progress(done + 1, bytes_read);
            },
        )?;
    }
    Ok(report)
}

/// Ingests one file with the caller's chunks (`ingest FILE --chunks CHUNKS.jsonl`): a new
/// revision, or the same text with other chunks, gets a `caller` chunking; chunks that do not
/// fit the text are an error and nothing is stored (the caller does not commit).
pub fn ingest_with_chunks(
    writer: &Writer<'_>,
    item: &Planned,
    chunks: &[Located],
    extract: &ExtractOptions,
    now: &str,
) -> Result<IngestReport> {
    let mut report = IngestReport::default();
    ingest_item(
        writer,
        item,
        Chunks::Caller(chunks),
        extract,
        now,
        &mut report,
        &mut |_| {},
    )?;
    Ok(report)
}

/// Reads, extracts and stores one planned file into `report` (a walked binary or empty file is
/// listed as skipped); `read(bytes)` is called once the file is read.
fn ingest_item(
    writer: &Writer<'_>,
    item: &Planned,
    chunks: Chunks<'_>,
    extract: &ExtractOptions,
    now: &str,
    report: &mut IngestReport,
    read_bytes: &mut dyn FnMut(u64),
) -> Result<()> {
    let input = item.path.display().to_string();
    check_doc_id(&item.doc_id)?;
    let read = read_source(&item.path)?;
    // Reported as soon as the file is read, so a skipped file moves the bar too.
    read_bytes(read.1);
    let extracted = match extract_source(&input, &item.path, &item.extractor, read, extract) {
        Ok(extracted) => extracted,
        Err(Error::Binary { offset, .. }) if item.walked => {
            report.skipped.push(Skipped {
                path: input,
                reason: format!("binary (NUL byte at {offset})"),
            });
            return Ok(());
        }
        Err(Error::Empty { what, .. }) if item.walked => {
            report.skipped.push(Skipped {
                path: input,
                reason: what,
            });
            return Ok(());
        }
        Err(err) => return Err(err),
    };
    let document = ingested_document(
        writer,
        (&item.doc_id, &input, &item.extractor.name()),
        TextOrigin::File,
        now,
    )?;
    let source_id = writer.set_source(document.id, &item.source(), now)?;
    let ingested = writer.store_extracted(
        &document,
        (source_id, None),
        extracted.as_text(),
        chunks,
        now,
    )?;
    report.documents.push(Ingested {
        source: input,
        ..ingested
    });
    Ok(())
}

/// The extractor stamp and source of a revision whose text the caller handed over.
pub const GIVEN: &str = "given";

/// The document an ingest writes to, made when new (`(doc_id, source, extractor)` for a new
/// row), active again (ingesting a retired or missing document on purpose brings it back), its
/// text coming from `origin`.
fn ingested_document(
    writer: &Writer<'_>,
    (doc_id, source, extractor): (&str, &str, &str),
    origin: TextOrigin,
    now: &str,
) -> Result<Document> {
    let document = match writer.document(doc_id)? {
        Some(document) => document,
        None => writer.insert_document(doc_id, source, extractor, now)?,
    };
    writer.set_document_state(
        document.id,
        None,
        DocumentState::Active,
        Some("ingested"),
        now,
    )?;
    writer.set_text_origin(document.id, origin, now)?;
    Ok(document)
}

/// Stores `text` as the latest revision of `doc_id`, handed over by the caller (Python's
/// `ingest_text`) rather than read from a file: content-addressed like a file's text, chunked
/// as `chunks` says. Sweeps never look for a file for such a document: the caller brings its
/// new text the same way. The caller commits.
pub fn ingest_given(
    writer: &Writer<'_>,
    doc_id: &str,
    text: &str,
    chunks: Chunks<'_>,
    now: &str,
) -> Result<Ingested> {
    check_doc_id(doc_id)?;
    if text.is_empty() {
        return Err(Error::Empty {
            input: doc_id.to_string(),
            what: "empty text".into(),
        });
    }
    if let Some(offset) = memchr::memchr(0, text.as_bytes()) {
        return Err(Error::Binary {
            input: doc_id.to_string(),
            offset,
        });
    }
    let document = ingested_document(writer, (doc_id, GIVEN, GIVEN), TextOrigin::Given, now)?;
    let sha = sha256_hex(text.as_bytes());
    let new = NewRevision {
        text,
        text_sha256: &sha,
        source_sha256: &sha,
        extractor: GIVEN,
        normaliser: NORMALISER_VERSION,
    };
    let ingested = writer.store_revision(&document, &new, chunks, now)?;
    Ok(Ingested {
        source: GIVEN.to_string(),
        ..ingested
    })
}

/// What `retire` did to one document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retired {
    /// The document.
    pub doc_id: String,
    /// False when it was already retired.
    pub changed: bool,
}

/// Retires documents on purpose: they and their citations stay in the store, are shown apart
/// by `health`, are passed over by sweeps and never fail `--fail-on`; ingesting one again
/// brings it back. An unknown doc id fails the whole command; the caller commits.
pub fn retire(writer: &Writer<'_>, doc_ids: &[String], now: &str) -> Result<Vec<Retired>> {
    let mut done = Vec::with_capacity(doc_ids.len());
    for id in doc_ids {
        let document = writer
            .document(id)?
            .ok_or_else(|| Error::UnknownDocument { doc_id: id.clone() })?;
        let changed = writer.set_document_state(
            document.id,
            None,
            DocumentState::Retired,
            Some("retired"),
            now,
        )?;
        done.push(Retired {
            doc_id: id.clone(),
            changed,
        });
    }
    Ok(done)
}
