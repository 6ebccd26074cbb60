//! Where a store lives: a SQLite file or a PostgreSQL database, told apart once, when the name
//! given (`--db`, `CITESTORE_DB`, `db` in citestore.toml, the Python `Store`'s path) is parsed.
//!
//! Invariants:
//! - A name whose scheme is `postgres://` or `postgresql://`, in any case, is PostgreSQL; any
//!   other name is a SQLite file (an upper-case scheme taken for a file name would print its
//!   password).
//! - A URL is never shown as given: [`Location`]'s `Display` and [`Location::shown`] replace its
//!   password with `***`.

use super::redact;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};

/// A store's place: a SQLite file, or a PostgreSQL URL (its scheme as given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite database file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://…` or `postgresql://…`).
    Postgres(String),
}

/// The URL schemes of PostgreSQL, matched without regard to case (`POSTGRES://` too).
const POSTGRES_SCHEMES: [&str; 2] = ["postgres://", "postgresql://"];

impl Location {
    /// Reads a database name: a PostgreSQL URL, else a SQLite file.
    pub fn parse(name: impl AsRef<OsStr>) -> Location {
        let name = name.as_ref();
        let text = name.to_string_lossy();
        match postgres_scheme(&text) {
            Some(_) => Location::Postgres(text.into_owned()),
            None => Location::Sqlite(PathBuf::from(name)),
        }
    }

    /// True for a PostgreSQL database.
    pub fn is_postgres(&self) -> bool {
        matches!(self, Location::Postgres(_))
    }

    /// The SQLite file, when this is one.
    pub fn sqlite_path(&self) -> Option<&Path> {
        match self {
            Location::Sqlite(path) => Some(path),
            Location::Postgres(_) => None,
        }
    }

    /// What messages and errors name: the file, or the URL without its password.
    pub fn shown(&self) -> PathBuf {
        match self {
            Location::Sqlite(path) => path.clone(),
            Location::Postgres(url) => PathBuf::from(redact(url)),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(path) => write!(f, "{}", path.display()),
            Location::Postgres(url) => f.write_str(&redact(url)),
        }
    }
}

impl From<&Path> for Location {
    fn from(name: &Path) -> Location {
        Location::parse(name)
    }
}

impl From<PathBuf> for Location {
    fn from(name: PathBuf) -> Location {
        Location::parse(name)
    }
}

impl From<&str> for Location {
    fn from(name: &str) -> Location {
        Location::parse(name)
    }
}

impl From<OsString> for Location {
    fn from(name: OsString) -> Location {
        Location::parse(name)
    }
}

/// True when `db` names a PostgreSQL database (see the module invariants).
pub fn is_postgres(db: &(impl AsRef<OsStr> + ?Sized)) -> bool {
    postgres_scheme(&db.as_ref().to_string_lossy()).is_some()
}

/// The length of `url`'s PostgreSQL scheme (with `://`), when it has one.
fn postgres_scheme(url: &str) -> Option<usize> {
    POSTGRES_SCHEMES
        .iter()
        .find(|scheme| {
            url.get(..scheme.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(scheme))
        })
        .map(|scheme| scheme.len())
}

/// `url` with its scheme in lower case, as the PostgreSQL client parses it.
pub(super) fn lower_scheme(url: &str) -> String {
    match postgres_scheme(url) {
        Some(n) => format!("{}{}", url[..n].to_ascii_lowercase(), &url[n..]),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_in_any_case_is_postgres_and_anything_else_a_file() {
        for url in ["postgres://u@h/d", "POSTGRESQL://u@h/d", "Postgres://h"] {
            assert!(Location::parse(url).is_postgres(), "{url}");
            assert!(is_postgres(url), "{url}");
        }
        for file in ["cs.db", "postgres:/x", "dir/postgres://x", ""] {
            assert_eq!(Location::parse(file), Location::Sqlite(PathBuf::from(file)));
        }
    }

    #[test]
    fn a_url_is_shown_without_its_password() {
        let url = Location::parse("postgres://me:secret@h/d?sslpassword=x");
        assert_eq!(url.to_string(), "postgres://me:***@h/d?sslpassword=***");
        assert_eq!(url.shown(), PathBuf::from(url.to_string()));
    }
}
