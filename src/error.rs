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
    /// A place to write a file that must not be written (a device, a folder, a read-only file).
    #[error("{path}: {why}")]
    BadOutput {
        /// The path as given.
        path: PathBuf,
        /// What it is and what to do.
        why: String,
    },
    /// An input that runs on past the most citestore reads from one input (a device such as
    /// `/dev/zero`, an endless pipe or stdin, a file that grew while it was read): reading
    /// stopped at the limit, so its size is not known.
    #[error("{input}: more than the {limit}-byte limit for {what}; {todo}")]
    InputTooLarge {
        /// Which input (a path, or `stdin`).
        input: String,
        /// The limit, in bytes.
        limit: u64,
        /// What the limit is for: `one document`, `one input`.
        what: &'static str,
        /// What to do.
        todo: &'static str,
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
    /// PostgreSQL refused what was asked (no such database, a failed login, a role without a
    /// privilege), said in one line with what to do.
    #[error("{url}: PostgreSQL: {problem}; {todo}")]
    PostgresRefused {
        /// The URL, password removed.
        url: String,
        /// The server's message, one line.
        problem: String,
        /// What to do about it.
        todo: String,
    },
    /// The connection to PostgreSQL broke after it was made (the server stopped or restarted,
    /// the network failed, the backend was terminated).
    #[error(
        "{url}: lost the connection to PostgreSQL{during} ({message}); what was committed is kept: check that the server is running, then run the command again"
    )]
    ConnectionLost {
        /// The URL, password removed.
        url: String,
        /// ` while sweeping "a.md"`, or empty.
        during: String,
        /// What the client said.
        message: String,
    },
    /// The database cannot be written where it is: a read-only mount, a folder the user may
    /// not write (the file's own mode is [`Error::ReadOnlyDatabase`]).
    #[error("{path}: database is read-only ({why}); {todo}; reading commands work as they are")]
    ReadOnlyLocation {
        /// The database file.
        path: PathBuf,
        /// Why it cannot be written.
        why: String,
        /// What to do.
        todo: String,
    },
    /// A SQLite database on a read-only mount or folder whose write-ahead log holds writes
    /// that must be applied before it can be read, and cannot be applied there.
    #[error(
        "{path}: cannot be read here: its write-ahead log {wal} holds writes not yet in the database, and {why}; run any citestore command on it once where it can be written (or `sqlite3 {path} 'PRAGMA wal_checkpoint(TRUNCATE)'`), then read it again"
    )]
    UnappliedWal {
        /// The database file.
        path: PathBuf,
        /// Its `-wal` file.
        wal: PathBuf,
        /// Why it cannot be applied here.
        why: String,
    },
    /// A database whose pages cannot be read as SQLite wrote them (or PostgreSQL reports
    /// corrupted data).
    #[error(
        "{path}: database is damaged ({detail}); restore it from a backup, or recover what it holds with `sqlite3 {path} .recover | sqlite3 RECOVERED.db` and use that"
    )]
    Corrupt {
        /// The database file.
        path: PathBuf,
        /// What the integrity check or the failed read said (first problem).
        detail: String,
    },
    /// A `--run` name that cannot name a run (empty, blank, or with control characters).
    #[error("--run {run:?}: {reason}; give a run name of visible characters (e.g. --run nightly)")]
    BadRunName {
        /// The name as given.
        run: String,
        /// What is wrong with it.
        reason: String,
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
    /// A revision a document does not have.
    #[error("document {doc_id:?} has no revision {revision}; its revisions are 1 to {latest}")]
    UnknownRevision {
        /// The document.
        doc_id: String,
        /// The revision asked for.
        revision: u32,
        /// Its latest revision.
        latest: u32,
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
    /// `CITESTORE_NOW` that is not an RFC 3339 instant.
    #[error(
        "CITESTORE_NOW={value:?} is not an RFC 3339 instant (e.g. 2026-01-02T03:04:05Z): {why}"
    )]
    BadNow {
        /// The value as given.
        value: String,
        /// Why it does not parse.
        why: String,
    },
    /// A model's answer or an API response that cannot be cited (malformed JSON, a wrong shape,
    /// an impossible index); nothing was stored.
    #[error("{input}: {message}; nothing was stored")]
    BadAnswer {
        /// Where it came from: a file, `stdin`, or the argument's name.
        input: String,
        /// What is wrong, naming the JSON path.
        message: String,
    },
    /// `ingest --chunks` (Python's `chunks=`) names one document's chunks, so it needs exactly
    /// one file.
    #[error("--chunks needs exactly one file to ingest, not a folder or several paths")]
    ChunksNeedOneFile,
    /// `ingest` without paths and without `[[sources]]` in citestore.toml.
    #[error("nothing to ingest: give PATH... or add [[sources]] to citestore.toml")]
    NothingToIngest,
    /// `--doc-id` without a path: the configured sources are many documents.
    #[error("--doc-id needs exactly one PATH")]
    DocIdNeedsOnePath,
}

/// What kind of failure an [`Error`] is, for the faces that raise it as their language's
/// exception classes (Python's `citestore.errors`, the Node package's error classes): one
/// classification, so the faces cannot disagree on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Input refused, nothing written (the default).
    BadInput,
    /// A model's answer or an API response that does not fit (a kind of bad input).
    BadAnswer,
    /// A context id never recorded.
    UnknownContext,
    /// A doc id not in the store.
    UnknownDocument,
    /// A chunk id no chunking holds.
    UnknownChunk,
    /// Anything else asked for by id that the store does not hold (a citation, a revision, a
    /// sweep).
    NotFound,
    /// The database cannot be used (not one, another program's, a newer schema, read-only,
    /// unreachable, busy).
    Database,
}

impl ErrorKind {
    /// The exception class name both faces use for this kind.
    pub fn class_name(self) -> &'static str {
        match self {
            ErrorKind::BadInput => "BadInput",
            ErrorKind::BadAnswer => "BadAnswer",
            ErrorKind::UnknownContext => "UnknownContext",
            ErrorKind::UnknownDocument => "UnknownDocument",
            ErrorKind::UnknownChunk => "UnknownChunk",
            ErrorKind::NotFound => "NotFound",
            ErrorKind::Database => "DatabaseError",
        }
    }
}

impl Error {
    /// What kind of failure this is (see [`ErrorKind`]).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::UnknownContext { .. } => ErrorKind::UnknownContext,
            Error::UnknownDocument { .. } => ErrorKind::UnknownDocument,
            Error::UnknownChunk { .. } => ErrorKind::UnknownChunk,
            Error::BadAnswer { .. } => ErrorKind::BadAnswer,
            Error::UnknownCitation { .. }
            | Error::UnknownRevision { .. }
            | Error::UnknownSweep { .. }
            | Error::NoSweeps { .. } => ErrorKind::NotFound,
            Error::NotADatabase { .. }
            | Error::SchemaTooNew { .. }
            | Error::NotCitestore { .. }
            | Error::SchemaTooOld { .. }
            | Error::ReadOnlyDatabase { .. }
            | Error::NoDatabase { .. }
            | Error::CannotOpen { .. }
            | Error::CannotConnect { .. }
            | Error::ReadOnlyLocation { .. }
            | Error::UnappliedWal { .. }
            | Error::Corrupt { .. }
            | Error::PostgresRefused { .. }
            | Error::ConnectionLost { .. }
            | Error::Database { .. }
            | Error::Busy { .. } => ErrorKind::Database,
            _ => ErrorKind::BadInput,
        }
    }

    /// A lost connection said with what was being done (`doing`: ` while sweeping "a.md"`);
    /// any other error as it is.
    pub fn during(self, doing: impl FnOnce() -> String) -> Error {
        match self {
            Error::ConnectionLost {
                url,
                during,
                message,
            } if during.is_empty() => Error::ConnectionLost {
                url,
                during: doing(),
                message,
            },
            other => other,
        }
    }

    /// True for an error of the whole store rather than of one document (a lost connection,
    /// damaged pages): a sweep stops on it instead of counting the document failed.
    pub fn is_store_wide(&self) -> bool {
        matches!(self, Error::ConnectionLost { .. } | Error::Corrupt { .. })
    }
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

/// The most citestore reads from one input file, stdin or device (256 MiB, the document limit):
/// reading stops one byte past it, whatever size the OS states (devices and pipes state 0).
pub const MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;

/// All of `reader` (named `input` in errors), refusing it with [`Error::InputTooLarge`] (`what`,
/// `todo`) once more than `limit` bytes arrive; `size_hint` (a `stat` size, trusted only to
/// reserve memory) saves the buffer's regrowth for a regular file.
pub fn read_at_most(
    input: &str,
    reader: impl std::io::Read,
    size_hint: u64,
    (limit, what, todo): (u64, &'static str, &'static str),
) -> Result<Vec<u8>> {
    // One byte more than the limit tells "exactly the limit" from "more".
    let reserve = size_hint.min(limit).saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(reserve).unwrap_or(usize::MAX));
    std::io::Read::read_to_end(&mut reader.take(limit.saturating_add(1)), &mut bytes).map_err(
        |source| Error::Io {
            path: PathBuf::from(input),
            source,
        },
    )?;
    if bytes.len() as u64 > limit {
        return Err(Error::InputTooLarge {
            input: input.to_string(),
            limit,
            what,
            todo,
        });
    }
    Ok(bytes)
}

/// The bytes of a file given as input (not a document: an answer, chunks, a quote, a list of
/// ids), at most [`MAX_INPUT_BYTES`].
pub fn read_input_file(path: &std::path::Path) -> Result<Vec<u8>> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let size_hint = file.metadata().map_err(io)?.len();
    read_at_most(&path.display().to_string(), file, size_hint, INPUT_LIMIT)
}

/// [`MAX_INPUT_BYTES`], and what an input over it is told.
pub const INPUT_LIMIT: (u64, &str, &str) = (
    MAX_INPUT_BYTES,
    "one input",
    "check that this is the file you meant, or split it",
);

/// Reads a UTF-8 text file of at most [`MAX_INPUT_BYTES`] (see [`decode_text`]).
pub fn read_text_file(path: &std::path::Path) -> Result<String> {
    let bytes = read_input_file(path)?;
    decode_text(&path.display().to_string(), bytes)
}

/// `text` without a leading UTF-8 byte order mark (some editors and Windows tools write one
/// before JSON; it is not part of the JSON).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

#[cfg(test)]
mod kind_tests {
    use super::{Error, ErrorKind};
    use std::path::PathBuf;

    /// Both faces raise these classes: a server that cannot be reached is the database's
    /// failure, not bad input (the faces once disagreed on it).
    #[test]
    fn each_error_has_one_kind_for_every_face() {
        let path = || PathBuf::from("cs.db");
        let cases = [
            (
                Error::UnknownChunk {
                    chunk_id: "x".into(),
                },
                ErrorKind::UnknownChunk,
                "UnknownChunk",
            ),
            (
                Error::UnknownRevision {
                    doc_id: "a".into(),
                    revision: 3,
                    latest: 2,
                },
                ErrorKind::NotFound,
                "NotFound",
            ),
            (
                Error::Busy { path: path() },
                ErrorKind::Database,
                "DatabaseError",
            ),
            (Error::ChunksNeedOneFile, ErrorKind::BadInput, "BadInput"),
            (
                Error::BadAnswer {
                    input: "answer".into(),
                    message: "$: not JSON".into(),
                },
                ErrorKind::BadAnswer,
                "BadAnswer",
            ),
        ];
        for (err, kind, class) in cases {
            assert_eq!(err.kind(), kind, "{err}");
            assert_eq!(kind.class_name(), class);
        }
    }
}
