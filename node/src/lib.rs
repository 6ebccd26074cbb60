//! The citestore npm package's native addon. The JavaScript layer in `node/index.js` wraps it;
//! nothing here is public API (its generated types are `node/native.d.ts`).
//!
//! Invariants:
//! - Every store call is the use case of the CLI command of the same name (the library's
//!   `app`): the same request, the same store work, the same typed output, handed over as the
//!   JSON text `--json` prints (snake_case keys, offsets in code points). The JavaScript layer
//!   parses it and converts keys and offsets at its edge, in one place each.
//! - Store calls are `AsyncTask`s: they run on the libuv thread pool, never on the event loop,
//!   and each opens its own connection (readers read-only), so a `health()` runs while a
//!   `sweep()` writes, as two CLI processes would. This module never opens the store itself.
//! - A failure rejects with an `Error` whose message is one JSON object `{"class", "code",
//!   "message"}`: the JavaScript class to raise, a stable code (the library error's variant),
//!   and the library's one-line message in JavaScript's words (`words`). A panic is caught and
//!   rejects the same way (class `CitestoreError`, code `INTERNAL`), never unwinding into Node.

// The library under a short name: this face reaches it only through its use cases (`app`) and
// plain types, never its store.
use citestore as lib;

pub mod locate;
mod words;

use lib::app::changes::ChangesRequest;
use lib::app::chunk::ChunkRequest;
use lib::app::chunks::{ChunksRequest, RevisionTextRequest};
use lib::app::cite::CiteRequest;
use lib::app::context::ContextRequest;
use lib::app::health::HealthRequest;
use lib::app::import::ImportRequest;
use lib::app::ingest::{IngestRequest, TextRequest};
use lib::app::init::InitRequest;
use lib::app::list::ListRequest;
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
use lib::cite::schema::{tool_schema, SchemaFormat};
use lib::clock::SystemClock;
use lib::config::Config;
use lib::error::Error;
use lib::extract::{ExtractOptions, Extractor};
use lib::model::verification::Scope;
use lib::model::Status;
use lib::report::Range;
use lib::sweep::shard::Shard;
use lib::verify::VerifyOptions;
use napi::bindgen_prelude::{AsyncTask, Env as NapiEnv, Task};
use napi_derive::napi;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A failure on the way to JavaScript: a library error, or bad input found here.
pub(crate) enum Failure {
    Lib(Error),
    /// Input this face refuses (class `BadInput`, code `BAD_INPUT`).
    Input(String),
    /// A write asked of a store opened with `{ readOnly: true }`.
    ReadOnly(String),
    /// A bug: a panic, or output that would not serialize.
    Internal(String),
}

impl From<Error> for Failure {
    fn from(err: Error) -> Self {
        Failure::Lib(err)
    }
}

type Result<T> = std::result::Result<T, Failure>;

/// The rejection JavaScript receives: the message is `{"class", "code", "message"}` as JSON.
pub(crate) fn to_napi(failure: Failure) -> napi::Error {
    let (class, code, message) = match failure {
        Failure::Lib(err) => (
            err.kind().class_name(),
            words::code_of(&err),
            words::js_message(&err),
        ),
        Failure::Input(message) => ("BadInput", "BAD_INPUT".into(), message),
        Failure::ReadOnly(message) => ("DatabaseError", "READ_ONLY_STORE".into(), message),
        Failure::Internal(message) => ("CitestoreError", "INTERNAL".into(), message),
    };
    let reason = serde_json::json!({"class": class, "code": code, "message": message});
    napi::Error::from_reason(reason.to_string())
}

/// `value` as the JSON text `--json` prints (compact).
fn json(value: &impl Serialize) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Failure::Internal(format!("JSON output: {e}")))
}

/// Runs `work`, turning a panic into a failure (the libuv thread must not unwind into Node).
fn guarded<T>(work: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Err(Failure::Internal(format!(
                "citestore failed unexpectedly ({what}); please report it"
            )))
        }
    }
}

type Work = Box<dyn FnOnce() -> Result<String> + Send>;

/// One store call on the libuv thread pool; it resolves to the call's JSON text.
pub struct Job {
    work: Option<Work>,
}

impl Job {
    fn task(work: impl FnOnce() -> Result<String> + Send + 'static) -> AsyncTask<Job> {
        AsyncTask::new(Job {
            work: Some(Box::new(work)),
        })
    }
}

#[napi]
impl Task for Job {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> napi::Result<String> {
        let work = self
            .work
            .take()
            .ok_or_else(|| to_napi(Failure::Internal("a job ran twice".into())))?;
        guarded(work).map_err(to_napi)
    }

    fn resolve(&mut self, _env: NapiEnv, output: String) -> napi::Result<String> {
        Ok(output)
    }
}

/// What every call of one store shares: where it is, its configuration, whether it is
/// read-only.
struct Inner {
    location: Location,
    config: Config,
    read_only: bool,
}

impl Inner {
    /// What a use case runs against; the clock is `CITESTORE_NOW` as it is at this call.
    fn env(&self) -> Result<Env> {
        Ok(Env::new(self.location.clone(), self.config.clone())?)
    }

    /// What a use case that writes runs against: refused for a read-only store, naming `what`.
    fn writer_env(&self, what: &str) -> Result<Env> {
        if self.read_only {
            return Err(Failure::ReadOnly(format!(
                "{}: {what} writes, and this store was opened with {{ readOnly: true }}; open it \
                 with Store.open(path) to write",
                self.location
            )));
        }
        self.env()
    }
}

/// Opening a store on the libuv thread pool: creating or migrating it (or, read-only, checking
/// it) is file work.
pub struct Open {
    location: String,
    config: Option<String>,
    read_only: bool,
    force: bool,
}

#[napi]
impl Task for Open {
    type Output = NativeStore;
    type JsValue = NativeStore;

    fn compute(&mut self) -> napi::Result<NativeStore> {
        guarded(|| {
            let config = match &self.config {
                Some(file) => Config::read(Path::new(file))?,
                None => Config::default(),
            };
            let location = Location::from(self.location.as_str());
            // Creating or migrating stamps nothing: no clock to read yet.
            let env = Env::with_clock(location.clone(), config.clone(), Box::new(SystemClock));
            if self.read_only {
                app::init::inspect(&env)?;
            } else {
                app::init::run(&env, &InitRequest { force: self.force })?;
            }
            Ok(NativeStore {
                inner: Arc::new(Inner {
                    location,
                    config,
                    read_only: self.read_only,
                }),
            })
        })
        .map_err(to_napi)
    }

    fn resolve(&mut self, _env: NapiEnv, output: NativeStore) -> napi::Result<NativeStore> {
        Ok(output)
    }
}

/// Opens (creating or upgrading, unless `readOnly`) the store at `location`, a SQLite path or a
/// PostgreSQL URL; `config` names a citestore.toml.
#[napi]
pub fn open(
    location: String,
    config: Option<String>,
    read_only: bool,
    force: bool,
) -> AsyncTask<Open> {
    AsyncTask::new(Open {
        location,
        config,
        read_only,
        force,
    })
}

fn chunk_spec(spec: Option<&str>) -> Result<Option<ChunkSpec>> {
    Ok(spec.map(str::parse::<ChunkSpec>).transpose()?)
}

/// Statuses by name, as `list --status` takes them.
fn statuses_of(names: &[String]) -> Result<Vec<Status>> {
    names
        .iter()
        .map(|s| s.parse::<Status>())
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| Failure::Input(e.to_string()))
}

/// How long an extractor may run, the default when `None`.
fn extract_options(timeout: Option<f64>) -> Result<ExtractOptions> {
    match timeout {
        None => Ok(ExtractOptions::default()),
        Some(secs) => ExtractOptions::with_timeout_secs(secs)
            .map_err(|why| Failure::Input(format!("extractTimeout: {secs}: {why}"))),
    }
}

/// The extractor an ingest uses: `extractCmd` with its version, else by the file's extension.
fn extractor_of(extract: Option<(String, String)>) -> Result<Option<Extractor>> {
    match extract {
        None => Ok(None),
        Some((template, version)) => {
            lib::extract::check_command(&template)
                .map_err(|why| Failure::Input(format!("extractCmd: {template:?}: {why}")))?;
            Ok(Some(Extractor::Command { template, version }))
        }
    }
}

/// Caller chunks from the JSON list the JavaScript layer made (offsets already code points),
/// each named `chunks[i]` in errors.
fn caller_chunks(chunks_json: &str) -> Result<Vec<CallerLocated>> {
    lib::chunk::caller::parse_json_list(
        chunks_json,
        "give an array of { start, end, id? } objects",
        "each chunk is { start: number, end: number, id?: string, text?: string }",
    )
    .map_err(Failure::Input)
}

/// JSON text of a JSON array, written item by item as a streaming use case hands them over
/// (no list of items held besides the text).
struct JsonArray {
    text: String,
    empty: bool,
}

impl JsonArray {
    fn new() -> Self {
        JsonArray {
            text: String::from("["),
            empty: true,
        }
    }

    fn push(&mut self, item: &impl Serialize) -> Result<()> {
        if !self.empty {
            self.text.push(',');
        }
        self.empty = false;
        self.text.push_str(&json(item)?);
        Ok(())
    }

    fn finish(mut self) -> String {
        self.text.push(']');
        self.text
    }
}

/// A citestore database (see the module docs); made by [`open`].
#[napi]
pub struct NativeStore {
    inner: Arc<Inner>,
}

#[napi]
impl NativeStore {
    /// Whether the store was opened read-only.
    #[napi(getter)]
    pub fn read_only(&self) -> bool {
        self.inner.read_only
    }

    /// The store's location as the library names it (a PostgreSQL URL without its password).
    #[napi(getter)]
    pub fn location(&self) -> String {
        self.inner.location.to_string()
    }

    /// `ingest_text`: the `Ingested` result (JSON). `chunks_json`: caller chunks, offsets in
    /// code points.
    #[napi]
    pub fn ingest_text(
        &self,
        doc_id: String,
        text: String,
        chunker: Option<String>,
        chunks_json: Option<String>,
    ) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let request = TextRequest {
                chunks: chunks_json.as_deref().map(caller_chunks).transpose()?,
                chunker: chunk_spec(chunker.as_deref())?,
                doc_id,
                text,
            };
            json(&app::ingest::text(
                &inner.writer_env("ingestText")?,
                &request,
            )?)
        })
    }

    /// `ingest PATH…`: the `IngestReport` (JSON). `extract` is `[extractCmd, extractVersion]`.
    #[napi]
    pub fn ingest(
        &self,
        paths: Vec<String>,
        doc_id: Option<String>,
        chunker: Option<String>,
        chunks_json: Option<String>,
        extract: Option<Vec<String>>,
        extract_timeout: Option<f64>,
    ) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let request = IngestRequest {
                chunks: chunks_json.as_deref().map(caller_chunks).transpose()?,
                chunker: chunk_spec(chunker.as_deref())?,
                paths: paths.into_iter().map(PathBuf::from).collect(),
                doc_id,
                extractor: extractor_of(pair(extract)?)?,
                extract: extract_options(extract_timeout)?,
            };
            json(&app::ingest::run(
                &inner.writer_env("ingest")?,
                &request,
                &mut (),
            )?)
        })
    }

    /// `context`: `{"output": context --json, "prompt": the labelled block}` (JSON).
    #[napi]
    pub fn context(&self, docs: Vec<String>, chunks: Vec<String>) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let mut selectors: Vec<ChunkSelector> =
                docs.into_iter().map(ChunkSelector::Doc).collect();
            selectors.extend(chunks.into_iter().map(ChunkSelector::Chunk));
            if selectors.is_empty() {
                return Err(Failure::Input(
                    "a context needs chunks: give { docs: [docId, ...] } or { chunks: [chunkId, ...] }"
                        .into(),
                ));
            }
            let recorded = app::context::run(
                &inner.writer_env("context (it records the context)")?,
                &ContextRequest { selectors },
            )?;
            json(&serde_json::json!({
                "output": recorded.output,
                "prompt": recorded.prompt,
            }))
        })
    }

    /// `cite`: `cite --json` (JSON). The answer is JSON text, parsed as the CLI parses a file.
    #[napi]
    pub fn cite(&self, context_id: String, answer_json: String) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let request = CiteRequest {
                context_id,
                answer: answer_json,
                input: "answer".into(),
            };
            json(&app::cite::run(&inner.writer_env("cite")?, &request)?)
        })
    }

    /// `import-anthropic`: `import anthropic --json` (JSON); `sent` is `--sent`. The alias of
    /// `importResponse("anthropic", …)`, its response named `message` in errors.
    #[napi]
    pub fn import_anthropic(
        &self,
        context_id: String,
        response_json: String,
        sent: String,
    ) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let request = ImportRequest {
                format: Format::Anthropic,
                context_id,
                response: response_json,
                input: "message".into(),
                sent: sent_of(&sent)?,
            };
            json(&app::import::run(
                &inner.writer_env("importAnthropic")?,
                &request,
            )?)
        })
    }

    /// `import FORMAT`: `import FORMAT --json` (JSON). `format` is parsed by the library (every
    /// format it knows works here); `sent` is `--sent`, anthropic only (`None`: chunks).
    #[napi]
    pub fn import_response(
        &self,
        format: String,
        context_id: String,
        response_json: String,
        sent: Option<String>,
    ) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let format: Format = format
                .parse()
                .map_err(|why: String| Failure::Input(format!("format: {why}")))?;
            let sent = match (sent, format) {
                (None, _) => Sent::Chunks,
                (Some(sent), Format::Anthropic) => sent_of(&sent)?,
                (Some(_), _) => {
                    return Err(Failure::Input(format!(
                        "sent applies to anthropic responses only (their document indexes); \
                         leave it out for {format}"
                    )))
                }
            };
            let request = ImportRequest {
                format,
                context_id,
                response: response_json,
                input: "response".into(),
                sent,
            };
            json(&app::import::run(
                &inner.writer_env("importResponse")?,
                &request,
            )?)
        })
    }

    /// `sweep`: `sweep --json` (JSON).
    #[napi]
    #[allow(clippy::too_many_arguments)]
    pub fn sweep(
        &self,
        docs: Vec<String>,
        chunker: Option<String>,
        no_extract: bool,
        shard: Option<String>,
        run: Option<String>,
        extract_timeout: Option<f64>,
        full_check: Option<bool>,
    ) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let request = SweepRequest {
                docs,
                chunker: chunk_spec(chunker.as_deref())?,
                no_extract,
                shard: shard.as_deref().map(str::parse::<Shard>).transpose()?,
                run,
                extract: extract_options(extract_timeout)?,
                full_check: full_check.unwrap_or(false),
            };
            json(&app::sweep::run(
                &inner.writer_env("sweep")?,
                &request,
                &mut |_, _, _| {},
            )?)
        })
    }

    /// `check`: `check --json` (JSON).
    #[napi]
    pub fn check(&self) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || json(&app::check::run(&inner.writer_env("check")?)?))
    }

    /// `health`: `health --json` (JSON).
    #[napi]
    pub fn health(&self, by_doc: bool, sweeps: u32) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let request = HealthRequest {
                by_doc,
                sweeps: sweeps as usize,
            };
            json(&app::health::run(&inner.env()?, &request)?)
        })
    }

    /// `changes`: `changes --json` (JSON).
    #[napi]
    pub fn changes(&self, since: Option<String>) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            json(&app::changes::run(
                &inner.env()?,
                &ChangesRequest { since },
            )?)
        })
    }

    /// `list --json`: an array of one object per citation with one of `statuses` (all when
    /// empty), of `doc` when given (JSON).
    #[napi]
    pub fn citations(&self, statuses: Vec<String>, doc: Option<String>) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let request = ListRequest {
                statuses: statuses_of(&statuses)?,
                doc,
            };
            let mut lines = JsonArray::new();
            app::list::run(&inner.env()?, &request, |line| lines.push(&line))?;
            Ok(lines.finish())
        })
    }

    /// `docs --json`'s documents (JSON array).
    #[napi]
    pub fn docs(&self) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || json(&app::docs::run(&inner.env()?)?.documents))
    }

    /// `chunks DOC_ID [--revision N]`: `chunks --json` (JSON).
    #[napi]
    pub fn chunks(&self, doc_id: String, revision: Option<u32>) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let request = ChunksRequest { doc_id, revision };
            json(&app::chunks::run(&inner.env()?, &request)?)
        })
    }

    /// A revision's whole text (a JSON string): for offsets past what its chunks cover.
    #[napi]
    pub fn revision_text(&self, doc_id: String, revision: u32) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let request = RevisionTextRequest { doc_id, revision };
            json(&app::chunks::text(&inner.env()?, &request)?)
        })
    }

    /// `chunk --chunker SPEC [--doc ID…]`: `chunk --json` (JSON).
    #[napi]
    pub fn chunk(&self, chunker: String, docs: Vec<String>) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let spec = chunker.parse::<ChunkSpec>()?;
            json(&app::chunk::run(
                &inner.writer_env("chunk")?,
                &ChunkRequest { spec, docs },
            )?)
        })
    }

    /// `show ID`: `show --json` (JSON).
    #[napi]
    pub fn show(&self, citation: String) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let shown = app::show::run(&inner.env()?, &ShowRequest { citation })?;
            json(&shown.output)
        })
    }

    /// `export`: an array of one export line per citation (JSON).
    #[napi]
    pub fn export(&self) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let mut lines = JsonArray::new();
            app::export::run(&inner.env()?, |line| lines.push(&line))?;
            Ok(lines.finish())
        })
    }

    /// `export --format w3c --utf16`: an array of Web Annotations, positions in code points
    /// and in UTF-16 code units (JSON).
    #[napi]
    pub fn export_w3c(&self) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let mut annotations = JsonArray::new();
            app::export::w3c(&inner.env()?, true, |a| annotations.push(&a))?;
            Ok(annotations.finish())
        })
    }

    /// `report --out FILE`: `report --json` (JSON). `since` is a sweep id or a date, as
    /// `--since`; `sweep` one sweep.
    #[napi]
    pub fn report(
        &self,
        out: String,
        sweep: Option<i64>,
        since: Option<String>,
        statuses: Vec<String>,
        docs: Vec<String>,
        limit: u32,
    ) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let range = match (sweep, since) {
                (Some(id), _) => Range::Sweep(id),
                (None, Some(since)) => Range::since(&since)?,
                (None, None) => Range::Latest,
            };
            let request = ReportRequest {
                range,
                statuses: statuses_of(&statuses)?,
                docs,
                limit: limit as usize,
                out: PathBuf::from(out),
            };
            json(&app::report::run(&inner.env()?, &request)?.output)
        })
    }

    /// `verify`: `verify --json` (JSON). `scope` is `context` (`ids` one context id), `all` or
    /// `citations` (`ids` the citation ids); `judge` a spec (`command:PROGRAM [ARGS]`,
    /// `openai:MODEL@BASE_URL`), else the configured one (without one, claims are `unjudged`).
    #[napi]
    pub fn verify(
        &self,
        scope: String,
        ids: Vec<String>,
        judge: Option<String>,
        accept: Option<f64>,
        timeout: Option<f64>,
    ) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            let config = &inner.config.verify;
            let scope = match scope.as_str() {
                "context" => Scope::Context(ids.into_iter().next().unwrap_or_default()),
                "all" => Scope::All,
                _ => Scope::Citations(ids),
            };
            let spec = judge.or_else(|| config.judge.clone());
            // Made here, on the worker thread: a judge is Sync, not Send.
            let judge = app::verify::judge(config, spec.as_deref(), timeout).map_err(|setup| {
                Failure::Input(match setup {
                    JudgeSetup::Timeout(why) => {
                        format!("timeout: {}: {why}", timeout.unwrap_or_default())
                    }
                    JudgeSetup::ConfiguredTimeout(why) => format!("[verify] timeout_secs: {why}"),
                    JudgeSetup::Spec(why) => {
                        format!("judge: {:?}: {why}", spec.as_deref().unwrap_or_default())
                    }
                })
            })?;
            let accept = accept.unwrap_or(config.accept);
            if !(0.0..=1.0).contains(&accept) {
                return Err(Failure::Input(format!(
                    "accept: {accept}: give a confidence from 0 to 1"
                )));
            }
            let options = VerifyOptions {
                accept,
                max_side: config.max_side,
                concurrency: config.concurrency,
            };
            let env = inner.writer_env("verify (it records verdicts)")?;
            json(&app::verify::run(
                &env,
                &VerifyRequest { scope, options },
                judge.as_deref(),
            )?)
        })
    }

    /// `retire DOC…`: `retire --json` (JSON).
    #[napi]
    pub fn retire(&self, docs: Vec<String>) -> AsyncTask<Job> {
        let inner = Arc::clone(&self.inner);
        Job::task(move || {
            json(&app::retire::run(
                &inner.writer_env("retire")?,
                &RetireRequest { docs },
            )?)
        })
    }
}

/// What was sent as documents (`sent`: `chunks` or `documents`).
fn sent_of(sent: &str) -> Result<Sent> {
    sent.parse()
        .map_err(|why: String| Failure::Input(format!("sent: {why}")))
}

/// `[extractCmd, extractVersion]` as a pair; both or neither.
fn pair(given: Option<Vec<String>>) -> Result<Option<(String, String)>> {
    match given {
        None => Ok(None),
        Some(mut two) if two.len() == 2 => {
            let version = two.pop().unwrap_or_default();
            let template = two.pop().unwrap_or_default();
            Ok(Some((template, version)))
        }
        Some(_) => Err(Failure::Input(
            "extractCmd and extractVersion go together: give both or neither".into(),
        )),
    }
}

/// The text `ingest` stores for one file, extracted as the ingest will extract it (by the
/// file's extension, or with `extract`), so that caller chunks' JavaScript offsets can be
/// turned into code points before the ingest. Reads the file only; opens no store.
#[napi]
pub fn extract_text(
    path: String,
    extract: Option<Vec<String>>,
    extract_timeout: Option<f64>,
) -> AsyncTask<Job> {
    Job::task(move || {
        let file = PathBuf::from(&path);
        let extractor = extractor_of(pair(extract)?)?.unwrap_or_else(|| Extractor::for_path(&file));
        let options = extract_options(extract_timeout)?;
        let read = lib::ingest::read_source(&file)?;
        let extracted = lib::ingest::extract_source(&path, &file, &extractor, read, &options)?;
        json(&extracted.extracted.text)
    })
}

/// The `emit_answer` tool schema in an API's shape (`citestore schema --format`), as JSON text.
/// The format name is parsed by the library, so every format it knows works here.
#[napi]
pub fn schema(format: String) -> napi::Result<String> {
    guarded(|| {
        let format: SchemaFormat = format
            .parse()
            .map_err(|e: lib::cite::schema::UnknownSchemaFormat| Failure::Input(e.to_string()))?;
        json(&tool_schema(format))
    })
    .map_err(to_napi)
}

/// The library's version.
#[napi]
pub fn library_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
