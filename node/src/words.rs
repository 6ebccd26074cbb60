//! Error messages in JavaScript's words: where the library's one-line message names a CLI flag
//! or tells the reader to run a command, the Node package names its option or method instead
//! (`{ readOnly: true }`, `since:`, `store.context({ docs: [...] })`). Every other message is
//! the library's own.
//!
//! Invariant: only the wording changes; the facts in a message (paths, ids, values, what to
//! do) are the library's, and the error's class and code are chosen from the error, not the
//! words.

use citestore::error::Error;

/// The message a JavaScript user reads for `err`.
pub(crate) fn js_message(err: &Error) -> String {
    match err {
        Error::NotADatabase { path } => format!(
            "{}: not a SQLite database; check the path given to Store.open(...)",
            path.display()
        ),
        Error::NotCitestore { path, held, .. } => format!(
            "{} is not a citestore database (no citestore schema{held}); give another path to \
             Store.open(...), or add citestore's tables beside its own with \
             Store.open(path, {{ force: true }})",
            path.display()
        ),
        Error::SchemaTooOld { path, found, known } => format!(
            "{}: database schema version {found} is older than this citestore (knows {known}); \
             open it once with Store.open(path) (without {{ readOnly: true }}) to upgrade it",
            path.display()
        ),
        Error::ReadOnlyDatabase { path } => format!(
            "{}: database is read-only; make it writable, or open it with \
             Store.open(path, {{ readOnly: true }}) to read",
            path.display()
        ),
        Error::NoDatabase { path } => format!(
            "{}: no database here; Store.open(path) creates one ({{ readOnly: true }} only \
             opens an existing one)",
            path.display()
        ),
        Error::BadDocId { doc_id, reason } => format!(
            "doc id {doc_id:?}: {reason}; give a doc id of visible characters (e.g. \"notes\")"
        ),
        Error::UnknownDocument { doc_id } => {
            format!("document {doc_id:?} is not in the store; store.docs() lists them")
        }
        Error::UnknownChunk { chunk_id } => format!(
            "chunk {chunk_id:?} is not in the store; store.chunks(docId) lists a document's \
             chunks, store.context({{ docs: [docId] }}) takes all of them"
        ),
        Error::Unchunked { doc_id } => format!(
            "document {doc_id:?} has no chunking; chunk it with store.chunk(\"paragraph:1500\", \
             {{ docs: [{doc_id:?}] }})"
        ),
        Error::UnknownCitation { citation_id } => format!(
            "citation {citation_id:?} does not exist; a cite result's evidence holds the \
             citation ids"
        ),
        Error::UnknownContext { context_id } => format!(
            "context {context_id:?} does not exist; record one with store.context({{ docs: \
             [...] }}) or store.context({{ chunks: [...] }})"
        ),
        Error::DuplicateDocId {
            doc_id,
            first,
            second,
        } => format!(
            "doc id {doc_id:?} comes from both {first} and {second}; ingest them separately or \
             give {{ docId }}"
        ),
        Error::NonUtf8Path { path } => format!(
            "{path}: path is not valid UTF-8, so it cannot be a doc id; rename it or give {{ docId }}"
        ),
        Error::DocIdNeedsOneFile { path } => format!(
            "{path}: {{ docId }} needs exactly one file to ingest, not a folder or several paths"
        ),
        Error::UnknownSweep { id } => format!(
            "sweep {id} is not in the store; (await store.health()).trend lists the recent sweeps"
        ),
        Error::NoSweeps { path } => format!(
            "{}: no sweep has run on this store yet; run store.sweep() first",
            path.display()
        ),
        Error::BadSince { value } => format!(
            "since: {value:?} is not a sweep id or a date; give e.g. {{ since: 12 }}, \
             {{ since: \"2026-01-02\" }} or {{ since: \"2026-01-02T03:04:05Z\" }}"
        ),
        Error::BadShard { given, why } => format!(
            "shard: {given:?}: {why}; give {{ shard: \"I/N\" }} with 1 <= I <= N, e.g. \"2/4\""
        ),
        Error::BadRunName { run, reason } => format!(
            "run: {run:?}: {reason}; give a run name of visible characters (e.g. {{ run: \"nightly\" }})"
        ),
        Error::ExtractTimeout {
            input,
            command,
            seconds,
        } => format!(
            "{input}: extractor `{command}` did not finish in {seconds} s; raise {{ extractTimeout }}"
        ),
        Error::ChunksNeedOneFile => {
            "{ chunks } needs exactly one file to ingest, not a folder or several paths".into()
        }
        Error::NothingToIngest => "nothing to ingest: give paths, or add [[sources]] to the \
                                   citestore.toml given as { config }"
            .into(),
        Error::DocIdNeedsOnePath => "{ docId } needs exactly one path".into(),
        other => other.to_string(),
    }
}

/// The error's `code`: its variant's name in SCREAMING_SNAKE_CASE (`UnknownChunk` →
/// `UNKNOWN_CHUNK`), read from the derived `Debug` form, so every variant the library adds has
/// one without a table here to keep up.
pub(crate) fn code_of(err: &Error) -> String {
    let debug = format!("{err:?}");
    let name: String = debug
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    screaming_snake(&name)
}

/// `UnknownChunk` → `UNKNOWN_CHUNK`.
fn screaming_snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}
