//! Errors of either backend as the errors a user can act on, and URLs made fit to print.
//!
//! Invariants:
//! - A PostgreSQL URL reaches a message only through [`redact`]: its password (in the authority
//!   or as a `password=`/`sslpassword=` parameter) is `***`.
//! - A server's message is one line ([`one_line`]) and never carries its DETAIL lines.

use super::db::DbError;
use crate::error::Error;
use rusqlite::ErrorCode;
use std::path::Path;

/// A URL with its password (if any) replaced by `***`, for messages.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{name}:***@{host}"),
            None => authority.to_string(),
        },
        None => authority.to_string(),
    };
    format!("{scheme}://{authority}{}", redact_query(tail))
}

/// `tail` (a URL's path and query) with the value of every `password=` (any case, and
/// `sslpassword=`) replaced by `***`.
fn redact_query(tail: &str) -> String {
    const KEY: &str = "password=";
    let mut out = String::with_capacity(tail.len());
    let mut rest = tail;
    while let Some(i) = rest.to_ascii_lowercase().find(KEY) {
        let value = i + KEY.len();
        let end = rest[value..].find('&').map_or(rest.len(), |e| value + e);
        out.push_str(&rest[..value]);
        out.push_str("***");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Turns an error of either backend into the error a user can act on.
pub(super) fn classify(path: &Path, err: DbError) -> Error {
    match err {
        DbError::Sqlite(e) => classify_sqlite(path, e),
        DbError::Postgres(e) => classify_postgres(path, e),
        other => Error::Database {
            path: path.to_path_buf(),
            message: other.to_string(),
        },
    }
}

/// A PostgreSQL error as the error a user can act on.
fn classify_postgres(path: &Path, err: postgres::Error) -> Error {
    use postgres::error::SqlState;
    let path = path.to_path_buf();
    match err.code() {
        Some(c)
            if *c == SqlState::T_R_SERIALIZATION_FAILURE
                || *c == SqlState::T_R_DEADLOCK_DETECTED
                || *c == SqlState::LOCK_NOT_AVAILABLE =>
        {
            Error::Busy { path }
        }
        Some(c) if *c == SqlState::READ_ONLY_SQL_TRANSACTION => Error::PostgresRefused {
            url: path.to_string_lossy().into_owned(),
            problem: one_line(&DbError::Postgres(err).to_string()),
            todo: "the server or database takes no writes (a standby, or \
                   default_transaction_read_only): point --db at one that does; reading \
                   commands work as they are"
                .to_string(),
        },
        Some(c) if *c == SqlState::INSUFFICIENT_PRIVILEGE => {
            let problem = one_line(&DbError::Postgres(err).to_string());
            // Without CREATE on the schema, the tables cannot be made (init, a migration);
            // without a table privilege, rows cannot be written.
            let todo = if problem.contains("schema") {
                "this role may not create citestore's tables: ask the database's owner to \
                 GRANT CREATE ON SCHEMA public TO it (or to run `citestore init` once), or use a \
                 role that may"
            } else {
                "this role may not write citestore's tables: ask the database's owner to grant \
                 it SELECT, INSERT, UPDATE and DELETE on them, or use a role that may; reading \
                 commands need only SELECT"
            };
            Error::PostgresRefused {
                url: path.to_string_lossy().into_owned(),
                problem,
                todo: todo.to_string(),
            }
        }
        Some(c) if *c == SqlState::DATA_CORRUPTED || *c == SqlState::INDEX_CORRUPTED => {
            Error::Corrupt {
                detail: one_line(&DbError::Postgres(err).to_string()),
                path,
            }
        }
        Some(c) if connection_ended(c) => lost(&path, &err),
        None if err.is_closed() || has_io_cause(&err) => lost(&path, &err),
        _ => Error::Database {
            path,
            message: DbError::Postgres(err).to_string(),
        },
    }
}

/// True for the codes a server sends as it ends a session: shut down, crashed, restarting,
/// the backend terminated (57P0x), and every connection exception (class 08).
fn connection_ended(code: &postgres::error::SqlState) -> bool {
    let code = code.code();
    code.starts_with("57P0") || code.starts_with("08")
}

/// True when `err` came from the socket (reset, broken pipe): the connection is gone.
fn has_io_cause(err: &postgres::Error) -> bool {
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        if cause.is::<std::io::Error>() {
            return true;
        }
        source = cause.source();
    }
    false
}

/// [`Error::ConnectionLost`] for the store at `path` (the redacted URL); a sweep names the
/// document it was at ([`Error::during`]).
fn lost(path: &Path, err: &postgres::Error) -> Error {
    let message = match err.as_db_error() {
        Some(db) => db.message().to_string(),
        None => error_chain(err),
    };
    Error::ConnectionLost {
        url: path.to_string_lossy().into_owned(),
        during: String::new(),
        message: one_line(&message),
    }
}

/// Turns a SQLite error into the error a user can act on.
pub(super) fn classify_sqlite(path: &Path, err: rusqlite::Error) -> Error {
    let path = path.to_path_buf();
    match err.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => Error::NotADatabase { path },
        Some(ErrorCode::ReadOnly) => Error::ReadOnlyDatabase { path },
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Error::Busy { path },
        Some(ErrorCode::CannotOpen) => Error::CannotOpen { path },
        Some(ErrorCode::DatabaseCorrupt) => Error::Corrupt {
            detail: match &err {
                rusqlite::Error::SqliteFailure(_, Some(message)) => message.clone(),
                other => other.to_string(),
            },
            path,
        },
        _ => {
            let message = match &err {
                rusqlite::Error::SqliteFailure(_, Some(message)) => message.clone(),
                other => other.to_string(),
            };
            Error::Database { path, message }
        }
    }
}

/// An error and its causes, joined by `: `.
pub(super) fn error_chain(err: &dyn std::error::Error) -> String {
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        message = format!("{message}: {cause}");
        source = cause.source();
    }
    message
}

/// `text` on one line (a server's message may hold line breaks).
pub(super) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
