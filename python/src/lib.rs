//! `citestore._native`: the citestore library for Python. The typed layer in
//! `python/citestore/__init__.py` wraps it; nothing here is public API.
//!
//! Invariants:
//! - Every call is the use case of the CLI command of the same name (the library's `app`): the
//!   same request, the same store work, the same typed output, turned into Python objects
//!   directly (`pythonize`, serde to dicts and lists: the shapes the CLI prints with `--json`,
//!   with no JSON text in between). Answers are JSON text, parsed as the CLI parses a file, so a
//!   tool input, an Anthropic or OpenAI response or tool call all work.
//! - Use cases run with the GIL released (`Python::detach`); each opens its own connection
//!   (readers read-only, so a `health()` in one thread runs while a `sweep()` writes in
//!   another, as two CLI processes would). This module never opens the store itself.
//! - Library errors become the Python exceptions of `citestore.errors`, carrying the library's
//!   one-line message (what the CLI prints after `citestore: `).

// The library under a short name: this face reaches it only through its use cases (`app`) and
// plain types, never its store.
use citestore as lib;

mod judge;
mod locate;
mod words;

use lib::app::changes::ChangesRequest;
use lib::app::chunk::ChunkRequest;
use lib::app::chunks::ChunksRequest;
use lib::app::cite::CiteRequest;
use lib::app::context::ContextRequest;
use lib::app::health::HealthRequest;
use lib::app::import::ImportRequest;
use lib::app::ingest::{IngestRequest, TextRequest};
use lib::app::init::InitRequest;
use lib::app::list::ListRequest;
use lib::app::migrate::MigrateRequest;
use lib::app::report::ReportRequest;
use lib::app::retire::RetireRequest;
use lib::app::show::ShowRequest;
use lib::app::sweep::SweepRequest;
use lib::app::verify::{JudgeSetup, VerifyRequest};
use lib::app::{self, Env, Location};
use lib::chunk::caller::Located as CallerLocated;
use lib::chunk::ChunkSpec;
use lib::cite::anthropic::Sent;
use lib::cite::providers::Format;
use lib::cite::record::ChunkSelector;
use lib::cite::schema::{tool_schema, SchemaFormat, UnknownSchemaFormat};
use lib::clock::SystemClock;
use lib::config::Config;
use lib::error::Error;
use lib::extract::{ExtractOptions, Extractor};
use lib::model::verification::Scope;
use lib::model::Status;
use lib::report::Range;
use lib::sweep::shard::Shard;
use lib::verify::{Judge, VerifyOptions};
use pyo3::prelude::*;
use pyo3::types::PyAny;
use pythonize::pythonize;
use serde::Serialize;
use std::path::PathBuf;

/// A failure on the way to Python: a library error, or bad input found here.
enum Failure {
    Lib(Error),
    Input(String),
    /// A write asked of a store opened with `read_only=True`.
    ReadOnly(String),
}

impl From<Error> for Failure {
    fn from(err: Error) -> Self {
        Failure::Lib(err)
    }
}

type Result<T> = std::result::Result<T, Failure>;

/// Raises `failure` as the `citestore.errors` exception of its kind.
fn raise(py: Python<'_>, failure: Failure) -> PyErr {
    let (class, message) = match failure {
        Failure::Lib(err) => (err.kind().class_name(), words::python_message(&err)),
        Failure::Input(message) => ("BadInput", message),
        Failure::ReadOnly(message) => ("DatabaseError", message),
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

/// `value` as Python objects: dicts, lists, str, int, float, bool and None, as `json.loads`
/// makes of the CLI's `--json`.
fn python<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize(py, value)?)
}

/// How long an extractor may run (`--extract-timeout`), the default when `None`.
fn extract_options(timeout: Option<f64>) -> Result<ExtractOptions> {
    match timeout {
        None => Ok(ExtractOptions::default()),
        Some(secs) => ExtractOptions::with_timeout_secs(secs)
            .map_err(|why| Failure::Input(format!("extract_timeout={secs}: {why}"))),
    }
}

/// Statuses by name, as `list --status` takes them.
fn statuses_of(names: &[String]) -> Result<Vec<Status>> {
    names
        .iter()
        .map(|s| s.parse::<Status>())
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| Failure::Input(e.to_string()))
}

fn chunk_spec(spec: Option<&str>) -> Result<Option<ChunkSpec>> {
    Ok(spec.map(str::parse::<ChunkSpec>).transpose()?)
}

/// Caller chunks from the JSON list the Python layer made, each named `chunks[i]` in errors.
fn caller_chunks(chunks_json: &str) -> Result<Vec<CallerLocated>> {
    lib::chunk::caller::parse_json_list(
        chunks_json,
        "give a list of {\"start\", \"end\", \"id\"} dicts",
        "each chunk is {\"start\": int, \"end\": int, \"id\": str}, offsets in chars",
    )
    .map_err(Failure::Input)
}

/// The import of `response_json` in `format` against `context_id`, as `citestore import FORMAT`
/// reads its arguments: a format it does not know, or `sent` for another format than
/// `anthropic`, is bad input.
fn import_request(
    format: &str,
    context_id: String,
    response_json: String,
    sent: Option<&str>,
) -> Result<ImportRequest> {
    let format: Format = format
        .parse()
        .map_err(|why: String| Failure::Input(format!("format: {why}")))?;
    let sent = match (sent, format) {
        (None, _) => Sent::Chunks,
        (Some(sent), Format::Anthropic) => sent
            .parse()
            .map_err(|why: String| Failure::Input(format!("sent: {why}")))?,
        (Some(sent), _) => {
            return Err(Failure::Input(format!(
                "sent={sent:?} applies to anthropic responses only (their document indexes); \
                 leave it out for {format}"
            )))
        }
    };
    Ok(ImportRequest {
        format,
        context_id,
        response: response_json,
        input: "response".into(),
        sent,
    })
}

/// A citestore database, opened per call (see the module docs).
#[pyclass(frozen, module = "citestore._native")]
struct Store {
    path: PathBuf,
    location: Location,
    config: Config,
    /// Opened with `read_only=True`: every call that would write is refused before it opens
    /// the store (reads open it read-only in any case).
    read_only: bool,
}

impl Store {
    /// What a use case runs against; the clock is `CITESTORE_NOW` as it is at this call.
    fn env(&self) -> Result<Env> {
        Ok(Env::new(self.location.clone(), self.config.clone())?)
    }

    /// The judge `judge` names: a spec string (`command:…`, `openai:…`), a Python callable, or
    /// `None` for `[verify] judge` of the configuration (no judge when it has none).
    fn judge_from(
        &self,
        judge: Option<&Bound<'_, PyAny>>,
        timeout: Option<f64>,
    ) -> Result<Option<Box<dyn Judge>>> {
        let config = &self.config.verify;
        let spec: Option<String> = match judge {
            Some(given) if given.is_callable() => {
                return Ok(Some(Box::new(judge::CallableJudge::new(given))));
            }
            Some(given) => Some(given.extract::<String>().map_err(|_| {
                Failure::Input(
                    "judge=: give a spec string (\"command:PROGRAM\", \"openai:MODEL@URL\") or a callable"
                        .into(),
                )
            })?),
            None => config.judge.clone(),
        };
        app::verify::judge(config, spec.as_deref(), timeout).map_err(|setup| {
            Failure::Input(match setup {
                JudgeSetup::Timeout(why) => {
                    format!("timeout={}: {why}", timeout.unwrap_or_default())
                }
                JudgeSetup::ConfiguredTimeout(why) => format!("[verify] timeout_secs: {why}"),
                JudgeSetup::Spec(why) => {
                    format!("judge={:?}: {why}", spec.as_deref().unwrap_or_default())
                }
            })
        })
    }

    /// What a use case that writes runs against: refused for a read-only store, naming `what`.
    fn writer_env(&self, what: &str) -> Result<Env> {
        if self.read_only {
            return Err(Failure::ReadOnly(format!(
                "{}: {what} writes, and this store was opened with read_only=True; open it \
                 with citestore.Store(path) to write",
                self.location
            )));
        }
        self.env()
    }
}

#[pymethods]
impl Store {
    /// Opens the database at `path`, creating it (and migrating an older one) as `citestore
    /// ingest` does; `config` names a citestore.toml.
    #[new]
    #[pyo3(signature = (path, config=None, read_only=false, force=false))]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        config: Option<PathBuf>,
        read_only: bool,
        force: bool,
    ) -> PyResult<Self> {
        detached(py, move || {
            let config = match config {
                Some(file) => Config::read(&file)?,
                None => Config::default(),
            };
            let location = Location::from(path.as_path());
            // Creating or migrating stamps nothing: no clock to read yet.
            let env = Env::with_clock(location.clone(), config.clone(), Box::new(SystemClock));
            if read_only {
                app::init::inspect(&env)?;
            } else {
                app::init::run(&env, &InitRequest { force })?;
            }
            Ok(Store {
                path,
                location,
                config,
                read_only,
            })
        })
    }

    /// The database file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// `ingest_text`: the `Ingested` result as a dict.
    #[pyo3(signature = (doc_id, text, chunker=None, chunks_json=None))]
    fn ingest_text<'py>(
        &self,
        py: Python<'py>,
        doc_id: String,
        text: String,
        chunker: Option<String>,
        chunks_json: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let ingested = detached(py, move || {
            let request = TextRequest {
                chunks: chunks_json.as_deref().map(caller_chunks).transpose()?,
                chunker: chunk_spec(chunker.as_deref())?,
                doc_id,
                text,
            };
            Ok(app::ingest::text(
                &self.writer_env("ingest_text")?,
                &request,
            )?)
        })?;
        python(py, &ingested)
    }

    /// `ingest PATH…`: the `IngestReport` as `ingest --json` prints it, as a dict.
    /// `extract` is `(--extract-cmd, --extract-version)`; `extract_timeout` seconds.
    #[pyo3(signature = (paths, doc_id=None, chunker=None, chunks_json=None, extract=None, extract_timeout=None))]
    #[allow(clippy::too_many_arguments)]
    fn ingest<'py>(
        &self,
        py: Python<'py>,
        paths: Vec<PathBuf>,
        doc_id: Option<String>,
        chunker: Option<String>,
        chunks_json: Option<String>,
        extract: Option<(String, String)>,
        extract_timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let report = detached(py, move || {
            if let Some((template, _)) = &extract {
                lib::extract::check_command(template)
                    .map_err(|why| Failure::Input(format!("extract_cmd={template:?}: {why}")))?;
            }
            let request = IngestRequest {
                chunks: chunks_json.as_deref().map(caller_chunks).transpose()?,
                chunker: chunk_spec(chunker.as_deref())?,
                paths,
                doc_id,
                extractor: extract
                    .map(|(template, version)| Extractor::Command { template, version }),
                extract: extract_options(extract_timeout)?,
            };
            Ok(app::ingest::run(
                &self.writer_env("ingest")?,
                &request,
                &mut (),
            )?)
        })?;
        python(py, &report)
    }

    /// `context`: (`context --json` as a dict, the prompt block).
    fn context<'py>(
        &self,
        py: Python<'py>,
        docs: Vec<String>,
        chunks: Vec<String>,
    ) -> PyResult<(Bound<'py, PyAny>, String)> {
        let recorded = detached(py, move || {
            let mut selectors: Vec<ChunkSelector> =
                docs.into_iter().map(ChunkSelector::Doc).collect();
            selectors.extend(chunks.into_iter().map(ChunkSelector::Chunk));
            if selectors.is_empty() {
                return Err(Failure::Input(
                    "a context needs chunks: give docs=[DOC_ID, ...] or chunks=[CHUNK_ID, ...]"
                        .into(),
                ));
            }
            Ok(app::context::run(
                &self.writer_env("context (it records the context)")?,
                &ContextRequest { selectors },
            )?)
        })?;
        Ok((python(py, &recorded.output)?, recorded.prompt))
    }

    /// `cite`: `cite --json` as a dict. The answer is JSON text, parsed as the CLI parses a file.
    fn cite<'py>(
        &self,
        py: Python<'py>,
        context_id: String,
        answer_json: String,
    ) -> PyResult<Bound<'py, PyAny>> {
        let out = detached(py, move || {
            let request = CiteRequest {
                context_id,
                answer: answer_json,
                input: "answer".into(),
            };
            Ok(app::cite::run(&self.writer_env("cite")?, &request)?)
        })?;
        python(py, &out)
    }

    /// `import FORMAT`: `import FORMAT --json` as a dict; `sent` is `--sent` (anthropic only,
    /// `chunks` when `None`). `import-anthropic` is `format="anthropic"`.
    #[pyo3(signature = (format, context_id, response_json, sent=None))]
    fn import_response<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        context_id: String,
        response_json: String,
        sent: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let request = import_request(format, context_id, response_json, sent)
            .map_err(|failure| raise(py, failure))?;
        let out = detached(py, move || {
            let env =
                self.writer_env(&format!("import_response({:?})", request.format.as_str()))?;
            Ok(app::import::run(&env, &request)?)
        })?;
        python(py, &out)
    }

    /// `sweep`: `sweep --json` as a dict.
    #[pyo3(signature = (docs, chunker=None, no_extract=false, shard=None, run=None, extract_timeout=None, full_check=false))]
    #[allow(clippy::too_many_arguments)]
    fn sweep<'py>(
        &self,
        py: Python<'py>,
        docs: Vec<String>,
        chunker: Option<String>,
        no_extract: bool,
        shard: Option<String>,
        run: Option<String>,
        extract_timeout: Option<f64>,
        full_check: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let summary = detached(py, move || {
            let request = SweepRequest {
                docs,
                chunker: chunk_spec(chunker.as_deref())?,
                no_extract,
                shard: shard.as_deref().map(str::parse::<Shard>).transpose()?,
                run,
                extract: extract_options(extract_timeout)?,
                full_check,
            };
            Ok(app::sweep::run(
                &self.writer_env("sweep")?,
                &request,
                &mut |_, _, _| {},
            )?)
        })?;
        python(py, &summary)
    }

    /// `health`: `health --json` as a dict.
    #[pyo3(signature = (by_doc=false, sweeps=10))]
    fn health<'py>(
        &self,
        py: Python<'py>,
        by_doc: bool,
        sweeps: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let out = detached(py, move || {
            let request = HealthRequest { by_doc, sweeps };
            Ok(app::health::run(&self.env()?, &request)?)
        })?;
        python(py, &out)
    }

    /// `changes`: `changes --json` as a dict.
    #[pyo3(signature = (since=None))]
    fn changes<'py>(&self, py: Python<'py>, since: Option<String>) -> PyResult<Bound<'py, PyAny>> {
        let out = detached(py, move || {
            Ok(app::changes::run(&self.env()?, &ChangesRequest { since })?)
        })?;
        python(py, &out)
    }

    /// `list --json`: a list of one dict per citation with one of `statuses` (all when empty).
    #[pyo3(signature = (statuses, doc=None))]
    fn citations<'py>(
        &self,
        py: Python<'py>,
        statuses: Vec<String>,
        doc: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let lines = detached(py, move || {
            let statuses = statuses
                .iter()
                .map(|s| s.parse::<Status>())
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(|e| Failure::Input(e.to_string()))?;
            let mut lines = Vec::new();
            let request = ListRequest { statuses, doc };
            app::list::run(&self.env()?, &request, |line| -> Result<()> {
                lines.push(line);
                Ok(())
            })?;
            Ok(lines)
        })?;
        python(py, &lines)
    }

    /// `docs --json`'s documents, as a list of dicts: each with its latest revision and
    /// current chunking.
    fn docs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let out = detached(py, move || Ok(app::docs::run(&self.env()?)?))?;
        python(py, &out.documents)
    }

    /// `export`: a list of one dict per citation.
    fn export<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let lines = detached(py, move || {
            let mut lines = Vec::new();
            app::export::run(&self.env()?, |line| -> Result<()> {
                lines.push(line);
                Ok(())
            })?;
            Ok(lines)
        })?;
        python(py, &lines)
    }

    /// `export --format w3c`: a list of W3C Web Annotations (with UTF-16 positions too when
    /// `utf16`).
    #[pyo3(signature = (utf16=false))]
    fn export_w3c<'py>(&self, py: Python<'py>, utf16: bool) -> PyResult<Bound<'py, PyAny>> {
        let annotations = detached(py, move || {
            let mut annotations = Vec::new();
            app::export::w3c(&self.env()?, utf16, |a| -> Result<()> {
                annotations.push(a);
                Ok(())
            })?;
            Ok(annotations)
        })?;
        python(py, &annotations)
    }

    /// `check`: `check --json` as a dict.
    fn check<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let out = detached(py, move || Ok(app::check::run(&self.writer_env("check")?)?))?;
        python(py, &out)
    }

    /// `init [--force]`: `init --json` as a dict.
    #[pyo3(signature = (force=false))]
    fn init<'py>(&self, py: Python<'py>, force: bool) -> PyResult<Bound<'py, PyAny>> {
        let out = detached(py, move || {
            Ok(app::init::run(
                &self.writer_env("init")?,
                &InitRequest { force },
            )?)
        })?;
        python(py, &out)
    }

    /// `chunks DOC_ID [--revision N]`: `chunks --json` as a dict.
    #[pyo3(signature = (doc_id, revision=None))]
    fn chunks<'py>(
        &self,
        py: Python<'py>,
        doc_id: String,
        revision: Option<u32>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let out = detached(py, move || {
            let request = ChunksRequest { doc_id, revision };
            Ok(app::chunks::run(&self.env()?, &request)?)
        })?;
        python(py, &out)
    }

    /// `chunk --chunker SPEC [--doc ID…]`: `chunk --json` as a dict.
    fn chunk<'py>(
        &self,
        py: Python<'py>,
        chunker: String,
        docs: Vec<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let out = detached(py, move || {
            let spec = chunker.parse::<ChunkSpec>()?;
            let request = ChunkRequest { spec, docs };
            Ok(app::chunk::run(&self.writer_env("chunk")?, &request)?)
        })?;
        python(py, &out)
    }

    /// `show ID`: `show --json` as a dict.
    fn show<'py>(&self, py: Python<'py>, citation: String) -> PyResult<Bound<'py, PyAny>> {
        let shown = detached(py, move || {
            Ok(app::show::run(&self.env()?, &ShowRequest { citation })?)
        })?;
        python(py, &shown.output)
    }

    /// `retire DOC…`: `retire --json` as a dict.
    fn retire<'py>(&self, py: Python<'py>, docs: Vec<String>) -> PyResult<Bound<'py, PyAny>> {
        let out = detached(py, move || {
            Ok(app::retire::run(
                &self.writer_env("retire")?,
                &RetireRequest { docs },
            )?)
        })?;
        python(py, &out)
    }

    /// `report --out FILE`: `report --json` as a dict. `since` is a sweep id or a date, as
    /// `--since`; `sweep` one sweep.
    #[pyo3(signature = (out, sweep=None, since=None, statuses=Vec::new(), docs=Vec::new(), limit=2000))]
    #[allow(clippy::too_many_arguments)]
    fn report<'py>(
        &self,
        py: Python<'py>,
        out: PathBuf,
        sweep: Option<i64>,
        since: Option<String>,
        statuses: Vec<String>,
        docs: Vec<String>,
        limit: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let reported = detached(py, move || {
            let range = match (sweep, since) {
                (Some(id), _) => Range::Sweep(id),
                (None, Some(since)) => Range::since(&since)?,
                (None, None) => Range::Latest,
            };
            let request = ReportRequest {
                range,
                statuses: statuses_of(&statuses)?,
                docs,
                limit,
                out,
            };
            Ok(app::report::run(&self.env()?, &request)?)
        })?;
        python(py, &reported.output)
    }

    /// `verify`: `verify --json` as a dict. The claims of answers cited against `context`,
    /// else every claim (`all`), else those owning `citations` (the Python layer checked that
    /// exactly one was given); `judge` a spec string, a callable, or `None` (the configured one).
    #[pyo3(signature = (context, all, citations, judge=None, accept=None, timeout=None))]
    #[allow(clippy::too_many_arguments)]
    fn verify<'py>(
        &self,
        py: Python<'py>,
        context: Option<String>,
        all: bool,
        citations: Vec<String>,
        judge: Option<Bound<'py, PyAny>>,
        accept: Option<f64>,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let scope = match (context, all) {
            (Some(id), _) => Scope::Context(id),
            (None, true) => Scope::All,
            (None, false) => Scope::Citations(citations),
        };
        let judge = self
            .judge_from(judge.as_ref(), timeout)
            .map_err(|f| raise(py, f))?;
        // A judge is Sync, not Send: the detached work borrows it.
        let judge: Option<&dyn Judge> = judge.as_deref();
        let out = detached(py, move || {
            let config = &self.config.verify;
            let accept = accept.unwrap_or(config.accept);
            if !(0.0..=1.0).contains(&accept) {
                return Err(Failure::Input(format!(
                    "accept={accept}: give a confidence from 0 to 1"
                )));
            }
            let options = VerifyOptions {
                accept,
                max_side: config.max_side,
                concurrency: config.concurrency,
            };
            let env = self.writer_env("verify (it records verdicts)")?;
            Ok(app::verify::run(
                &env,
                &VerifyRequest { scope, options },
                judge,
            )?)
        })?;
        python(py, &out)
    }

    /// `verify --calibrate`: the judge on labelled examples (JSON Lines text), as a dict.
    #[pyo3(signature = (labels_jsonl, input, judge=None, timeout=None))]
    fn calibrate<'py>(
        &self,
        py: Python<'py>,
        labels_jsonl: String,
        input: String,
        judge: Option<Bound<'py, PyAny>>,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let judge = self
            .judge_from(judge.as_ref(), timeout)
            .map_err(|f| raise(py, f))?
            .ok_or_else(|| {
                raise(
                    py,
                    Failure::Input(
                        "calibrate needs a judge: give judge=\"command:PROGRAM\", an openai: spec or a callable"
                            .into(),
                    ),
                )
            })?;
        let judge: &dyn Judge = judge.as_ref();
        let out = detached(py, move || {
            let examples =
                app::verify::labels_from_jsonl(&labels_jsonl, &input).map_err(Failure::Input)?;
            Ok(app::verify::calibrate(&examples, judge))
        })?;
        python(py, &out)
    }

    /// `migrate --to LOCATION`: copies this store into an empty one; `migrate --json` as a dict.
    fn migrate<'py>(&self, py: Python<'py>, to: PathBuf) -> PyResult<Bound<'py, PyAny>> {
        let out = detached(py, move || {
            let request = MigrateRequest {
                from: self.location.clone(),
                to: Location::from(to.as_path()),
            };
            Ok(app::migrate::run(&request)?)
        })?;
        python(py, &out)
    }

    /// Whether the store was opened with `read_only=True`.
    #[getter]
    fn read_only(&self) -> bool {
        self.read_only
    }

    fn __repr__(&self) -> String {
        format!("citestore.Store({:?})", self.path.display().to_string())
    }
}

/// The `emit_answer` tool schema in an API's shape (`citestore schema --format`), as a dict.
#[pyfunction]
fn schema<'py>(py: Python<'py>, format: &str) -> PyResult<Bound<'py, PyAny>> {
    let format: SchemaFormat = format
        .parse()
        .map_err(|e: UnknownSchemaFormat| raise(py, Failure::Input(e.to_string())))?;
    python(py, &tool_schema(format))
}

/// The `citestore` command, run in this process: `argv` as the binary gets it (the program
/// name first). Prints as the binary prints, and returns its exit code (an error is printed
/// once, `citestore: …`, and is exit 2). pip installs a `citestore` script that calls this, so
/// the command and the module are one build.
#[pyfunction]
fn cli_main(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> i32 {
    // Python ignores SIGPIPE; the command wants the default, so that a closed pipe ends it
    // quietly (the script's process is the command's, nothing else runs in it).
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of one signal; the script runs nothing else.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    py.detach(|| match lib::cli::run(argv) {
        Ok(exit) => exit as i32,
        Err(err) => {
            eprintln!("citestore: {}", lib::cli::error_line(&err));
            2
        }
    })
}

/// The library's version, for `citestore.__version__` checks.
#[pyfunction]
fn library_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Store>()?;
    m.add_function(wrap_pyfunction!(locate::locate, m)?)?;
    m.add_function(wrap_pyfunction!(locate::locate_many, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(library_version, m)?)?;
    m.add_function(wrap_pyfunction!(cli_main, m)?)?;
    Ok(())
}
