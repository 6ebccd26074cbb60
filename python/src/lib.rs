//! `citestore._native`: the citestore library for Python. The typed layer in
//! `python/citestore/__init__.py` wraps it; nothing here is public API.
//!
//! Invariants:
//! - Every call goes through the same library functions as the CLI command of the same name
//!   (answers are parsed by `cite::wrapped::parse_wrapped_answer`, so a tool input, an
//!   Anthropic or OpenAI response or tool call all work; outputs built by `citestore::output`),
//!   so results are the CLI's `--json` objects, serialised here and parsed by the Python layer.
//! - Store work runs with the GIL released (`Python::detach`); each call opens its own
//!   connection (readers with `Store::open_read`, so a `health()` in one thread runs while a
//!   `sweep()` writes in another, as two CLI processes would).
//! - Library errors become the Python exceptions of `citestore.errors`, carrying the library's
//!   one-line message (what the CLI prints after `citestore: `).

use citestore::chunk::caller::{CallerChunk, Located as CallerLocated};
use citestore::chunk::ChunkSpec;
use citestore::cite::answer::AnswerError;
use citestore::cite::anthropic::{read_response, Sent};
use citestore::cite::prompt::prompt;
use citestore::cite::record::{cite_and_record, import_and_record, record_context, ChunkSelector};
use citestore::cite::schema::{tool_schema, SchemaFormat, UnknownSchemaFormat};
use citestore::cite::wrapped::parse_wrapped_answer;
use citestore::clock::{Clock, FixedClock, SystemClock};
use citestore::config::Config;
use citestore::error::Error;
use citestore::extract::ExtractOptions;
use citestore::ingest::{
    ingest_given, ingest_with_chunks, ingest_with_progress, plan, ChunkPolicy, Chunks,
};
use citestore::output::{
    changes, cite_output, context_output, export_line, health, list_line, locate_output,
};
use citestore::report::Range;
use citestore::store::{Location, Store as Db};
use citestore::sweep::run::{sweep, SweepOptions};
use citestore::text::{is_blank, Haystack, How, LocateOptions};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::path::PathBuf;

/// A failure on the way to Python: a library error, a refused answer, or bad input found here.
enum Failure {
    Lib(Error),
    Answer(String),
    Input(String),
}

impl From<Error> for Failure {
    fn from(err: Error) -> Self {
        Failure::Lib(err)
    }
}

type Result<T> = std::result::Result<T, Failure>;

/// The `citestore.errors` class for a library error.
fn class_of(err: &Error) -> &'static str {
    match err {
        Error::UnknownContext { .. } => "UnknownContext",
        Error::UnknownDocument { .. } => "UnknownDocument",
        Error::UnknownChunk { .. } => "UnknownChunk",
        Error::UnknownCitation { .. } | Error::UnknownSweep { .. } | Error::NoSweeps { .. } => {
            "NotFound"
        }
        Error::NotADatabase { .. }
        | Error::SchemaTooNew { .. }
        | Error::NotCitestore { .. }
        | Error::SchemaTooOld { .. }
        | Error::ReadOnlyDatabase { .. }
        | Error::NoDatabase { .. }
        | Error::CannotOpen { .. }
        | Error::ReadOnlyLocation { .. }
        | Error::UnappliedWal { .. }
        | Error::Corrupt { .. }
        | Error::PostgresRefused { .. }
        | Error::ConnectionLost { .. }
        | Error::Database { .. }
        | Error::Busy { .. } => "DatabaseError",
        _ => "BadInput",
    }
}

/// Raises `failure` as the `citestore.errors` exception of its kind.
fn raise(py: Python<'_>, failure: Failure) -> PyErr {
    let (class, message) = match failure {
        Failure::Lib(err) => (class_of(&err), err.to_string()),
        Failure::Answer(message) => ("BadAnswer", message),
        Failure::Input(message) => ("BadInput", message),
    };
    let made = py
        .import("citestore.errors")
        .and_then(|module| module.getattr(class))
        .and_then(|cls| cls.call1((message,)));
    match made {
        Ok(exception) => PyErr::from_value(exception),
        Err(err) => err,
    }
}

/// Runs `work` with the GIL released and raises its failure.
fn detached<T: Send>(py: Python<'_>, work: impl FnOnce() -> Result<T> + Send) -> PyResult<T> {
    py.detach(work).map_err(|f| raise(py, f))
}

/// Now, as the CLI takes it: `CITESTORE_NOW` (RFC 3339) fixes the clock for reproducible runs.
fn now() -> Result<String> {
    match std::env::var("CITESTORE_NOW") {
        Ok(value) => FixedClock::parse(&value)
            .map(|clock| clock.timestamp())
            .map_err(|_| {
                Failure::Input(format!(
                    "CITESTORE_NOW={value:?} is not an RFC 3339 instant (e.g. 2026-01-02T03:04:05Z)"
                ))
            }),
        Err(_) => Ok(SystemClock.timestamp()),
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data serialises")
}

fn chunk_spec(spec: Option<&str>) -> Result<Option<ChunkSpec>> {
    Ok(spec.map(str::parse::<ChunkSpec>).transpose()?)
}

/// Caller chunks from the JSON list the Python layer made, each named `chunks[i]` in errors.
fn caller_chunks(chunks_json: &str) -> Result<Vec<CallerLocated>> {
    let values: Vec<serde_json::Value> = serde_json::from_str(chunks_json).map_err(|e| {
        Failure::Input(format!(
            "chunks: {e}; give a list of {{\"start\", \"end\", \"id\"}} dicts"
        ))
    })?;
    values
        .into_iter()
        .enumerate()
        .map(|(i, value)| {
            let input = format!("chunks[{i}]");
            let chunk: CallerChunk = serde_json::from_value(value).map_err(|e| {
                Failure::Input(format!(
                    "{input}: {e}; each chunk is {{\"start\": int, \"end\": int, \"id\": str}}, offsets in chars"
                ))
            })?;
            Ok(CallerLocated { input, chunk })
        })
        .collect()
}

fn answer_error(what: &str, err: AnswerError) -> Failure {
    Failure::Answer(format!("{what}: {err}; nothing was stored"))
}

/// A citestore database, opened per call (see the module docs).
#[pyclass(frozen, module = "citestore._native")]
struct Store {
    path: PathBuf,
    location: Location,
    config: Config,
}

impl Store {
    fn locate_options(&self) -> Result<LocateOptions> {
        let options = LocateOptions {
            accept: self.config.locate.accept,
            review: self.config.locate.review,
            ..LocateOptions::default()
        };
        options
            .check_cutoffs(["[locate] accept", "[locate] review"])
            .map_err(|why| {
                Failure::Input(format!("citestore.toml: {why}; give scores from 0 to 100"))
            })?;
        Ok(options)
    }

    fn policy(&self, chunker: Option<&str>) -> Result<ChunkPolicy> {
        Ok(ChunkPolicy {
            explicit: chunk_spec(chunker)?,
            configured: self.config.chunker(),
        })
    }
}

#[pymethods]
impl Store {
    /// Opens the database at `path`, creating it (and migrating an older one) as `citestore
    /// ingest` does; `config` names a citestore.toml.
    #[new]
    #[pyo3(signature = (path, config=None))]
    fn new(py: Python<'_>, path: PathBuf, config: Option<PathBuf>) -> PyResult<Self> {
        detached(py, move || {
            let config = match config {
                Some(file) => Config::read(&file)?,
                None => Config::default(),
            };
            let location = Location::from(path.as_path());
            Db::open(&location)?;
            Ok(Store {
                path,
                location,
                config,
            })
        })
    }

    /// The database file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// `ingest_text`: JSON of the `Ingested` result.
    #[pyo3(signature = (doc_id, text, chunker=None, chunks_json=None))]
    fn ingest_text(
        &self,
        py: Python<'_>,
        doc_id: String,
        text: String,
        chunker: Option<String>,
        chunks_json: Option<String>,
    ) -> PyResult<String> {
        detached(py, move || {
            let caller = chunks_json.as_deref().map(caller_chunks).transpose()?;
            let chunks = match &caller {
                Some(given) => Chunks::Caller(given),
                None => Chunks::Spec(self.policy(chunker.as_deref())?),
            };
            let mut db = Db::open_existing(&self.location)?;
            let writer = db.writer()?;
            let ingested = ingest_given(&writer, &doc_id, &text, chunks, &now()?)?;
            writer.commit()?;
            Ok(json(&ingested))
        })
    }

    /// `ingest PATH…`: JSON of the `IngestReport`, as `ingest --json` prints it.
    #[pyo3(signature = (paths, doc_id=None, chunker=None, chunks_json=None))]
    fn ingest(
        &self,
        py: Python<'_>,
        paths: Vec<PathBuf>,
        doc_id: Option<String>,
        chunker: Option<String>,
        chunks_json: Option<String>,
    ) -> PyResult<String> {
        detached(py, move || {
            let caller = chunks_json.as_deref().map(caller_chunks).transpose()?;
            let policy = self.policy(chunker.as_deref())?;
            let planned = plan(&paths, doc_id.as_deref(), None)?;
            let extract = ExtractOptions::default();
            let mut db = Db::open_existing(&self.location)?;
            let writer = db.writer()?;
            let now = now()?;
            let mut report = match &caller {
                Some(given) => {
                    let [file] = planned.files.as_slice() else {
                        return Err(Failure::Input(
                            "chunks need exactly one file to ingest, not a folder or several paths"
                                .into(),
                        ));
                    };
                    if file.walked {
                        return Err(Failure::Input(
                            "chunks need exactly one file to ingest, not a folder".into(),
                        ));
                    }
                    ingest_with_chunks(&writer, file, given, &extract, &now)?
                }
                None => ingest_with_progress(
                    &writer,
                    &planned.files,
                    policy,
                    &extract,
                    &now,
                    &mut |_, _| {},
                )?,
            };
            writer.commit()?;
            report.skipped.extend(planned.skipped);
            Ok(json(&report))
        })
    }

    /// `context`: (JSON of `context --json`, the prompt block).
    fn context(
        &self,
        py: Python<'_>,
        docs: Vec<String>,
        chunks: Vec<String>,
    ) -> PyResult<(String, String)> {
        detached(py, move || {
            let mut selectors: Vec<ChunkSelector> =
                docs.into_iter().map(ChunkSelector::Doc).collect();
            selectors.extend(chunks.into_iter().map(ChunkSelector::Chunk));
            if selectors.is_empty() {
                return Err(Failure::Input(
                    "a context needs chunks: give docs=[DOC_ID, ...] or chunks=[CHUNK_ID, ...]"
                        .into(),
                ));
            }
            let mut db = Db::open_existing(&self.location)?;
            let context = record_context(&mut db, &selectors, &now()?)?;
            let block = prompt(&context);
            Ok((json(&context_output(context)), block))
        })
    }

    /// `cite`: JSON of `cite --json`. The answer is JSON text, parsed as the CLI parses a file.
    fn cite(&self, py: Python<'_>, context_id: String, answer_json: String) -> PyResult<String> {
        detached(py, move || {
            let (answer, _shape) =
                parse_wrapped_answer(&answer_json).map_err(|e| answer_error("answer", e))?;
            let options = self.locate_options()?;
            let mut db = Db::open_existing(&self.location)?;
            let report = cite_and_record(
                &mut db,
                &context_id,
                &answer,
                "emit_answer",
                &options,
                &now()?,
            )?;
            Ok(json(&cite_output(&report)))
        })
    }

    /// `import-anthropic`: JSON of `import-anthropic --json`; `sent` is `--sent`.
    #[pyo3(signature = (context_id, response_json, sent="chunks"))]
    fn import_anthropic(
        &self,
        py: Python<'_>,
        context_id: String,
        response_json: String,
        sent: &str,
    ) -> PyResult<String> {
        let sent: Sent = sent
            .parse()
            .map_err(|why: String| raise(py, Failure::Input(format!("sent: {why}"))))?;
        detached(py, move || {
            let options = self.locate_options()?;
            let mut db = Db::open_existing(&self.location)?;
            let context = db.writer()?.load_context(&context_id)?;
            let import = read_response(&response_json, &context, sent)
                .map_err(|e| answer_error("response", e))?;
            let report = import_and_record(&mut db, &context_id, &import, &options, &now()?)?;
            Ok(json(&cite_output(&report)))
        })
    }

    /// `sweep`: JSON of `sweep --json`.
    #[pyo3(signature = (docs, chunker=None, no_extract=false))]
    fn sweep(
        &self,
        py: Python<'_>,
        docs: Vec<String>,
        chunker: Option<String>,
        no_extract: bool,
    ) -> PyResult<String> {
        detached(py, move || {
            let chunker = match chunker.as_deref() {
                Some(spec) => Some(spec.parse::<ChunkSpec>()?),
                None => self.config.chunker(),
            };
            let options = SweepOptions {
                docs,
                chunker,
                no_extract,
                config_dir: self.config.dir.clone(),
                extract: ExtractOptions::default(),
                ..SweepOptions::default()
            };
            now()?;
            let mut db = Db::open_existing(&self.location)?;
            let clock = || now().unwrap_or_else(|_| SystemClock.timestamp());
            let summary = sweep(&mut db, &options, &clock, &mut |_, _, _| {})?;
            Ok(json(&summary))
        })
    }

    /// `health`: JSON of `health --json`.
    #[pyo3(signature = (by_doc=false, sweeps=10))]
    fn health(&self, py: Python<'_>, by_doc: bool, sweeps: usize) -> PyResult<String> {
        detached(py, move || {
            let db = Db::open_read(&self.location)?;
            Ok(json(&health(&db, by_doc, sweeps)?))
        })
    }

    /// `changes`: JSON of `changes --json`.
    #[pyo3(signature = (since=None))]
    fn changes(&self, py: Python<'_>, since: Option<String>) -> PyResult<String> {
        detached(py, move || {
            let range = match since.as_deref() {
                Some(since) => Range::since(since)?,
                None => Range::Latest,
            };
            let db = Db::open_read(&self.location)?;
            Ok(json(&changes(&db, &range)?))
        })
    }

    /// `list --json`: one JSON line per citation with one of `statuses` (all when empty).
    #[pyo3(signature = (statuses, doc=None))]
    fn citations(
        &self,
        py: Python<'_>,
        statuses: Vec<String>,
        doc: Option<String>,
    ) -> PyResult<Vec<String>> {
        detached(py, move || {
            let mut db = Db::open_read(&self.location)?;
            if let Some(doc) = &doc {
                db.require_document(doc)?;
            }
            let snapshot = db.read()?;
            let mut lines = Vec::new();
            snapshot.for_each_state(doc.as_deref(), |state| -> Result<()> {
                if statuses.is_empty() || statuses.iter().any(|s| s == state.status.as_str()) {
                    lines.push(json(&list_line(&snapshot, state)?));
                }
                Ok(())
            })?;
            Ok(lines)
        })
    }

    /// `docs --json`'s documents: each with its latest revision and current chunking.
    fn docs(&self, py: Python<'_>) -> PyResult<String> {
        detached(py, move || {
            let db = Db::open_read(&self.location)?;
            Ok(json(&db.summaries()?))
        })
    }

    /// `export`: one JSON line per citation.
    fn export(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        detached(py, move || {
            let mut db = Db::open_read(&self.location)?;
            let snapshot = db.read()?;
            let mut lines = Vec::new();
            snapshot.for_each_citation(|record, state| -> Result<()> {
                lines.push(json(&export_line(&snapshot, record, &state)?));
                Ok(())
            })?;
            Ok(lines)
        })
    }

    fn __repr__(&self) -> String {
        format!("citestore.Store({:?})", self.path.display().to_string())
    }
}

/// Finds ``quote`` in ``chunk``: exactly, then after folding typography, then by fuzzy
/// alignment. Returns ``{"start", "end", "score", "how", "occurrences", "text"}`` (plus
/// ``"reason"`` for a review) as ``citestore locate --json``, or ``None`` when the quote has no
/// span. Offsets are ``str`` indices into ``chunk``. Raises ``citestore.BadInput`` for an empty
/// or blank quote, or cut-offs that are not scores from 0 to 100 with review <= accept.
#[pyfunction]
#[pyo3(signature = (chunk, quote, *, accept=95.0, review=85.0, meaning_guard=true))]
fn locate<'py>(
    py: Python<'py>,
    chunk: &Bound<'py, PyString>,
    quote: &Bound<'py, PyString>,
    accept: f64,
    review: f64,
    meaning_guard: bool,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let (chunk, quote) = (utf8(chunk)?, utf8(quote)?);
    let options = LocateOptions {
        accept,
        review,
        meaning_guard,
        ..LocateOptions::default()
    };
    if let Err(why) = options.check_cutoffs(["accept", "review"]) {
        return Err(raise(
            py,
            Failure::Input(format!(
                "{why}; give scores from 0 to 100 with review <= accept"
            )),
        ));
    }
    if is_blank(quote) {
        return Err(raise(
            py,
            Failure::Input(
                "the quote is empty or has no visible characters: pass the words the model quoted"
                    .into(),
            ),
        ));
    }
    // Short chunks are the common case; their work is too small to be worth releasing the GIL.
    let located = if chunk.len() > 64 * 1024 {
        py.detach(|| Haystack::new(chunk).locate(quote, &options))
    } else {
        Haystack::new(chunk).locate(quote, &options)
    };
    let Some(located) = located else {
        return Ok(None);
    };
    // The same fields as `locate --json` (`output::LocateOutput`), built as a dict directly:
    // this is called once per quote, so no JSON round trip, and the keys are interned.
    let out = locate_output(chunk, located);
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "start"), out.located.start)?;
    dict.set_item(intern!(py, "end"), out.located.end)?;
    dict.set_item(intern!(py, "score"), out.located.score)?;
    dict.set_item(intern!(py, "how"), intern_how(py, out.located.how))?;
    dict.set_item(intern!(py, "occurrences"), out.located.occurrences)?;
    if let Some(reason) = out.located.reason {
        dict.set_item(intern!(py, "reason"), reason)?;
    }
    dict.set_item(intern!(py, "text"), out.text)?;
    Ok(Some(dict))
}

// Every CPython 3 exports it (it has been in the C API since 3.3); it joined the limited API
// in 3.10, so pyo3's abi3-py39 bindings leave it out. Declared here for `utf8`.
extern "C" {
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::os::raw::c_char;
}

/// The UTF-8 text of a Python `str`, borrowed from the UTF-8 copy CPython caches inside the
/// object: encoded once per string, not once per call (pyo3's abi3-py39 `&str` makes a new
/// bytes object every call, a third of `locate`'s overhead on the reference vectors). A `str`
/// holding a lone surrogate raises `UnicodeEncodeError`, as `&str` extraction does.
fn utf8<'a>(text: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `text` is a live `str` (the GIL is held); CPython returns its cached UTF-8 buffer,
    // valid and unchanged while the object lives, which the borrow of `text` guarantees.
    unsafe {
        let data = PyUnicode_AsUTF8AndSize(text.as_ptr(), &mut size);
        if data.is_null() {
            return Err(PyErr::fetch(text.py()));
        }
        let bytes = std::slice::from_raw_parts(data.cast::<u8>(), size as usize);
        Ok(std::str::from_utf8_unchecked(bytes))
    }
}

/// `how`'s name as an interned Python string (three values, made once each).
fn intern_how(py: Python<'_>, how: How) -> &Bound<'_, pyo3::types::PyString> {
    match how {
        How::Exact => intern!(py, "exact"),
        How::Folded => intern!(py, "folded"),
        How::Fuzzy => intern!(py, "fuzzy"),
        How::Review => intern!(py, "review"),
    }
}

/// The `emit_answer` tool schema in an API's shape (`citestore schema --format`), as JSON text.
#[pyfunction]
fn schema(py: Python<'_>, format: &str) -> PyResult<String> {
    let format: SchemaFormat = format
        .parse()
        .map_err(|e: UnknownSchemaFormat| raise(py, Failure::Input(e.to_string())))?;
    Ok(json(&tool_schema(format)))
}

/// The library's version, for `citestore.__version__` checks.
#[pyfunction]
fn library_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Store>()?;
    m.add_function(wrap_pyfunction!(locate, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(library_version, m)?)?;
    Ok(())
}
