//! Error messages in Python's words: where the library's one-line message names a CLI flag or
//! tells the reader to run a command, the Python package names its argument or method instead
//! (`db=`, `since=`, `Store.context(docs=[…])`). Every other message is the library's own.
//!
//! Invariant: only the wording changes; the facts in a message (paths, ids, values, what to
//! do) are the library's, and the exception class is chosen from the error, not the words.

use citestore::error::Error;

/// The message a Python user reads for `err`.
pub(crate) fn python_message(err: &Error) -> String {
    match err {
        Error::NotADatabase { path } => format!(
            "{}: not a SQLite database; check the path given to citestore.Store(...)",
            path.display()
        ),
        Error::NotCitestore { path, held, .. } => format!(
            "{} is not a citestore database (no citestore schema{held}); give another path to \
             citestore.Store(...), or add citestore's tables beside its own with \
             citestore.Store(path, force=True)",
            path.display()
        ),
        Error::SchemaTooOld { path, found, known } => format!(
            "{}: database schema version {found} is older than this citestore (knows {known}); \
             open it with citestore.Store(path) (not read_only=True) once to upgrade it",
            path.display()
        ),
        Error::ReadOnlyDatabase { path } => format!(
            "{}: database is read-only; make it writable, or open it with \
             citestore.Store(path, read_only=True) to read",
            path.display()
        ),
        Error::NoDatabase { path } => format!(
            "{}: no database here; citestore.Store(path) creates one (read_only=True only \
             opens an existing one)",
            path.display()
        ),
        Error::BadDocId { doc_id, reason } => format!(
            "doc id {doc_id:?}: {reason}; give a doc id of visible characters (e.g. doc_id=\"notes\")"
        ),
        Error::UnknownDocument { doc_id } => format!(
            "document {doc_id:?} is not in the store; store.docs() lists them"
        ),
        Error::UnknownChunk { chunk_id } => format!(
            "chunk {chunk_id:?} is not in the store; store.chunks(doc_id) lists a document's \
             chunks, store.context(docs=[doc_id]) takes all of them"
        ),
        Error::Unchunked { doc_id } => format!(
            "document {doc_id:?} has no chunking; chunk it with store.chunk(\"paragraph:1500\", \
             docs=[{doc_id:?}])"
        ),
        Error::UnknownCitation { citation_id } => format!(
            "citation {citation_id:?} does not exist; a cite result's citations hold the ids"
        ),
        Error::UnknownContext { context_id } => format!(
            "context {context_id:?} does not exist; record one with store.context(docs=[...]) \
             or store.context(chunks=[...])"
        ),
        Error::DuplicateDocId {
            doc_id,
            first,
            second,
        } => format!(
            "doc id {doc_id:?} comes from both {first} and {second}; ingest them separately or \
             give doc_id="
        ),
        Error::NonUtf8Path { path } => format!(
            "{path}: path is not valid UTF-8, so it cannot be a doc id; rename it or give doc_id="
        ),
        Error::DocIdNeedsOneFile { path } => format!(
            "{path}: doc_id= needs exactly one file to ingest, not a folder or several paths"
        ),
        Error::UnknownSweep { id } => format!(
            "sweep {id} is not in the store; store.health()[\"trend\"] lists the recent sweeps"
        ),
        Error::NoSweeps { path } => format!(
            "{}: no sweep has run on this store yet; run store.sweep() first",
            path.display()
        ),
        Error::BadSince { value } => format!(
            "since={value:?}: not a sweep id or a date; give e.g. since=12, \
             since=\"2026-01-02\" or since=\"2026-01-02T03:04:05Z\""
        ),
        Error::ChunksNeedOneFile => {
            "chunks= needs exactly one file to ingest, not a folder or several paths".into()
        }
        Error::NothingToIngest => {
            "nothing to ingest: give paths, or add [[sources]] to the citestore.toml given as config=".into()
        }
        Error::DocIdNeedsOnePath => "doc_id= needs exactly one path".into(),
        other => other.to_string(),
    }
}
