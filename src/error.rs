//! Library errors: each variant names the input and says what to do about it.

use std::path::PathBuf;

/// What can go wrong in the library; the binary adds context and prints it once.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// Text that must be UTF-8 is not.
    #[error(
        "{input}: not valid UTF-8 at byte {offset}; convert it to UTF-8 (e.g. iconv) and try again"
    )]
    InvalidUtf8 {
        /// Which input (a path, or a description such as `line 3`).
        input: String,
        /// Byte offset of the first invalid sequence.
        offset: usize,
    },
    /// Input that looks binary (it holds NUL bytes) where text is expected.
    #[error("{input}: looks like a binary file (NUL byte at {offset}); extract its text first")]
    Binary {
        /// Which input.
        input: String,
        /// Byte offset of the first NUL.
        offset: usize,
    },
    /// A file larger than citestore stores as one document.
    #[error("{path}: {bytes} bytes is more than the {limit}-byte limit for one document; split it, or ingest its extracted text")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// A file with nothing in it, or whose extracted text is empty.
    #[error("{input}: {what}; there is no text to store")]
    Empty {
        /// Which input.
        input: String,
        /// "empty file", or what the extractor produced.
        what: String,
    },
    /// A path that should be a database is not SQLite at all.
    #[error("{path}: not a SQLite database; check --db, CITESTORE_DB or `db` in citestore.toml")]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// The database was written by a newer citestore.
    #[error(
        "{path}: database schema version {found} is newer than this citestore (knows {known}); upgrade citestore"
    )]
    SchemaTooNew {
        /// The database file.
        path: PathBuf,
        /// Its `user_version`.
        found: usize,
        /// Migrations this binary knows.
        known: usize,
    },
    /// A database file that holds no citestore schema (empty, or made by another program).
    #[error("{path} is not a citestore database (no citestore schema{held}); {todo}")]
    NotCitestore {
        /// The database file.
        path: PathBuf,
        /// `""`, or `; it holds tables of another program: a, b`.
        held: String,
        /// What to do: `run `citestore init` or name the right --db`, or how to force it.
        todo: String,
    },
    /// A reading command found a citestore schema older than this binary (it never migrates).
    #[error(
        "{path}: database schema version {found} is older than this citestore (knows {known}); upgrade it with `citestore init` (or any command that writes, e.g. `citestore ingest` or `citestore sweep`), then run this again"
    )]
    SchemaTooOld {
        /// The database file.
        path: PathBuf,
        /// Its `user_version`.
        found: usize,
        /// Migrations this binary knows.
        known: usize,
    },
    /// A doc id that cannot name a document (empty, blank, or with control characters).
    #[error(
        "doc id {doc_id:?}: {reason}; give a doc id of visible characters (e.g. --doc-id notes)"
    )]
    BadDocId {
        /// The id as given.
        doc_id: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The database cannot be written.
    #[error(
        "{path}: database is read-only; make it writable (chmod u+w, or ask its owner) or choose another with --db; reading commands work as they are"
    )]
    ReadOnlyDatabase {
        /// The database file.
        path: PathBuf,
    },
    /// A command that reads the store found no database file.
    #[error("{path}: no database here; create it with `citestore init` or `citestore ingest`")]
    NoDatabase {
        /// Where it was looked for.
        path: PathBuf,
    },
    /// The database file cannot be opened or created.
    #[error(
        "{path}: cannot open or create the database; check that its folder exists and is writable"
    )]
    CannotOpen {
        /// The database file.
        path: PathBuf,
    },
    /// A `--shard` that is not `I/N` with 1 <= I <= N.
    #[error("--shard {given}: {why}; give --shard I/N with 1 <= I <= N, e.g. --shard 2/4")]
    BadShard {
        /// As given.
        given: String,
        /// What is wrong.
        why: String,
    },
    /// A PostgreSQL server that cannot be reached or refuses the login.
    #[error(
        "{url}: cannot connect to PostgreSQL: {message}; check the URL, that the server is running and that the user may log in"
    )]
    CannotConnect {
        /// The URL, password removed.
        url: String,
        /// What the client said.
        message: String,
    },
    /// Any other SQLite failure.
    #[error("{path}: database error: {message}")]
    Database {
        /// The database file.
        path: PathBuf,
        /// What SQLite said (kept as text so the error prints once, not once per cause).
        message: String,
    },
    /// An extractor program is not installed.
    #[error("{input}: needs `{tool}`, which is not on PATH; {hint}")]
    MissingTool {
        /// The file that needed it.
        input: String,
        /// The program.
        tool: String,
        /// How to get it.
        hint: String,
    },
    /// An extractor ran but failed.
    #[error("{input}: extractor `{command}` failed: {message}")]
    ExtractFailed {
        /// The file.
        input: String,
        /// The command or extractor.
        command: String,
        /// Its exit status and first line of stderr, or the library's message.
        message: String,
    },
    /// An extractor program ran past its time limit and was killed (with its process group).
    #[error(
        "{input}: extractor `{command}` did not finish in {seconds} s; raise --extract-timeout"
    )]
    ExtractTimeout {
        /// The file.
        input: String,
        /// The command or extractor.
        command: String,
        /// The limit, in seconds.
        seconds: f64,
    },
    /// A chunker spec that does not parse.
    #[error("chunker spec {spec:?}: {reason}")]
    BadChunkerSpec {
        /// The spec as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A doc id that is not in the store.
    #[error("document {doc_id:?} is not in the store; `citestore docs` lists them")]
    UnknownDocument {
        /// The id asked for.
        doc_id: String,
    },
    /// A document's source cannot be re-extracted as stored.
    #[error("{doc_id}: {message}")]
    SourceUnusable {
        /// The document.
        doc_id: String,
        /// Why, and what to do.
        message: String,
    },
    /// Caller-made chunks that cannot be stored (a span outside the text, `start >= end`, a
    /// repeated or empty id, text that differs from the span's): nothing is stored.
    #[error("{input}: {message}")]
    BadChunks {
        /// Which chunk: `CHUNKS.jsonl line 3`, or `chunks[2]` from Python.
        input: String,
        /// What is wrong and what to do.
        message: String,
    },
    /// A caller's chunk id held by chunks of several documents.
    #[error("chunk id {chunk_id:?} names chunks of several documents ({doc_ids}); give the full chunk id, e.g. {example}")]
    AmbiguousChunk {
        /// The id asked for.
        chunk_id: String,
        /// The documents holding it, comma-separated.
        doc_ids: String,
        /// One full chunk id it could mean.
        example: String,
    },
    /// A chunk id that no chunking holds.
    #[error("chunk {chunk_id:?} is not in the store; `citestore docs` lists documents, `citestore context --doc ID` takes a document's current chunks")]
    UnknownChunk {
        /// The id asked for.
        chunk_id: String,
    },
    /// A document without a chunking, asked for as a context.
    #[error(
        "document {doc_id:?} has no chunking; run `citestore chunk --chunker SPEC --doc {doc_id}`"
    )]
    Unchunked {
        /// The document.
        doc_id: String,
    },
    /// A citation id that was never stored.
    #[error(
        "citation {citation_id:?} does not exist; `citestore cite --json` prints citation ids"
    )]
    UnknownCitation {
        /// The id asked for.
        citation_id: String,
    },
    /// A context id that was never recorded.
    #[error("context {context_id:?} does not exist; record one with `citestore context --doc ID` or `--chunk CHUNK_ID`")]
    UnknownContext {
        /// The id asked for.
        context_id: String,
    },
    /// Two inputs of one command would become the same document.
    #[error("doc id {doc_id:?} comes from both {first} and {second}; ingest them separately or use --doc-id")]
    DuplicateDocId {
        /// The id.
        doc_id: String,
        /// The first input.
        first: String,
        /// The second input.
        second: String,
    },
    /// A configuration file that cannot be used.
    #[error("{path}: {message}")]
    Config {
        /// The configuration file.
        path: PathBuf,
        /// What is wrong, and where.
        message: String,
    },
    /// A path that cannot be a doc id (not UTF-8).
    #[error(
        "{path}: path is not valid UTF-8, so it cannot be a doc id; rename it or pass --doc-id"
    )]
    NonUtf8Path {
        /// The path, lossily printed.
        path: String,
    },
    /// `--doc-id` names one document, so it needs exactly one file.
    #[error("{path}: --doc-id needs exactly one file to ingest, not a folder or several paths")]
    DocIdNeedsOneFile {
        /// The path given.
        path: String,
    },
    /// A path given to read does not exist.
    #[error("{path}: no such file or folder; check the path")]
    NotFound {
        /// The path as given.
        path: PathBuf,
    },
    /// Another process held the write lock for longer than the busy timeout.
    #[error("{path}: another citestore is writing to this database; try again when it finishes")]
    Busy {
        /// The database file.
        path: PathBuf,
    },
    /// A sweep id that is not in the store.
    #[error("sweep {id} is not in the store; `citestore health` lists the recent sweeps")]
    UnknownSweep {
        /// The id as given.
        id: i64,
    },
    /// A report or change list asked of a store no sweep has run on.
    #[error("{path}: no sweep has run on this store yet; run `citestore sweep` first")]
    NoSweeps {
        /// The database file.
        path: PathBuf,
    },
    /// `--since` that is neither a sweep id nor a date.
    #[error("--since {value:?}: not a sweep id or a date; give e.g. `--since 12`, `--since 2026-01-02` or `--since 2026-01-02T03:04:05Z`")]
    BadSince {
        /// The value as given.
        value: String,
    },
}

/// Result with the library's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Decodes `bytes` as UTF-8 text, naming `input` in the error; refuses NUL bytes as binary.
pub fn decode_text(input: &str, bytes: Vec<u8>) -> Result<String> {
    if let Some(offset) = memchr::memchr(0, &bytes) {
        return Err(Error::Binary {
            input: input.to_string(),
            offset,
        });
    }
    String::from_utf8(bytes).map_err(|e| Error::InvalidUtf8 {
        input: input.to_string(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Reads a UTF-8 text file (see [`decode_text`]).
pub fn read_text_file(path: &std::path::Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode_text(&path.display().to_string(), bytes)
}
