//! PostgreSQL, the shared store: connecting (TLS with the `tls` feature) and what a refused
//! connection means for the user.
//!
//! Invariants:
//! - The URL is parsed with its scheme in lower case (`POSTGRES://` too) and shown only
//!   redacted.
//! - A session ignores the server's warnings (`client_min_messages = error`).

use super::db::Conn;
use super::errors::{classify, error_chain, one_line, redact};
use super::location::lower_scheme;
use super::{Location, Store};
use crate::error::{Error, Result};

/// Connects to the PostgreSQL database named by `url`; `sslmode=require` needs the `tls`
/// feature.
pub(super) fn connect(url: &str) -> Result<Store> {
    let location = Location::Postgres(url.to_string());
    let shown = location.shown();
    let config: postgres::Config =
        lower_scheme(url)
            .parse()
            .map_err(|e: postgres::Error| Error::CannotConnect {
                url: redact(url),
                message: e.to_string(),
            })?;
    let client = connect_with_tls(&config).map_err(|refusal| match refusal {
        Refusal::Client(e) => connect_refusal(&redact(url), &config, e),
        Refusal::Setup(message) => Error::CannotConnect {
            url: redact(url),
            message,
        },
    })?;
    let store = Store {
        conn: Conn::postgres(client),
        location,
        path: shown,
    };
    // Warnings (e.g. "there is no transaction in progress") are not the user's business.
    store
        .conn
        .batch("SET client_min_messages = error")
        .map_err(|e| classify(&store.path, e))?;
    Ok(store)
}

/// Why no client was made: the server or network refused (`Client`), or this build cannot
/// make the connection asked for (`Setup`).
enum Refusal {
    Client(postgres::Error),
    Setup(String),
}

/// The client of `config`, over TLS when its `sslmode` asks for it (the `tls` feature).
fn connect_with_tls(config: &postgres::Config) -> std::result::Result<postgres::Client, Refusal> {
    #[cfg(feature = "tls")]
    if config.get_ssl_mode() != postgres::config::SslMode::Disable {
        let roots =
            rustls::RootCertStore::from_iter(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        let tls = rustls::ClientConfig::builder()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let tls = tokio_postgres_rustls::MakeRustlsConnect::new(tls);
        return config.connect(tls).map_err(Refusal::Client);
    }
    #[cfg(not(feature = "tls"))]
    if config.get_ssl_mode() == postgres::config::SslMode::Require {
        return Err(Refusal::Setup(
            "sslmode=require needs TLS: build citestore with `--features tls`".to_string(),
        ));
    }
    config.connect(postgres::NoTls).map_err(Refusal::Client)
}

/// What a failed connection means for the user, in one line: the server's own message (never
/// its DETAIL lines) and what to do about it.
fn connect_refusal(url: &str, config: &postgres::Config, err: postgres::Error) -> Error {
    use postgres::error::SqlState;
    let refused = |problem: String, todo: &str| Error::PostgresRefused {
        url: url.to_string(),
        problem,
        todo: todo.to_string(),
    };
    let Some(db) = err.as_db_error() else {
        let cause = one_line(&error_chain(&err));
        return refused(
            format!("no server answers at {} ({cause})", server_address(config)),
            "start the server, or correct the host and port in the URL",
        );
    };
    let problem = one_line(db.message());
    let code = db.code();
    let todo = if *code == SqlState::UNDEFINED_DATABASE {
        "create it (`createdb NAME`, or CREATE DATABASE as its owner), or correct the database \
         name in the URL"
    } else if *code == SqlState::INVALID_PASSWORD {
        "check the user and password in the URL (or PGPASSWORD, ~/.pgpass)"
    } else if *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION {
        "check the user in the URL, and that the server's pg_hba.conf lets it log in from here"
    } else if *code == SqlState::INSUFFICIENT_PRIVILEGE {
        "ask the database's owner to GRANT CONNECT ON DATABASE to this role, or use a role that \
         may connect"
    } else if *code == SqlState::TOO_MANY_CONNECTIONS {
        "wait for other clients to finish, or raise the server's max_connections"
    } else if *code == SqlState::CANNOT_CONNECT_NOW {
        "the server is starting or stopping: try again in a moment"
    } else {
        "check the URL, that the server is running and that the user may log in"
    };
    refused(problem, todo)
}

/// Where `config` connects: `host:port`, or the socket folder.
fn server_address(config: &postgres::Config) -> String {
    use postgres::config::Host;
    let port = config.get_ports().first().copied().unwrap_or(5432);
    match config.get_hosts().first() {
        Some(Host::Tcp(host)) => format!("{host}:{port}"),
        Some(Host::Unix(dir)) => format!("{}/.s.PGSQL.{port}", dir.display()),
        None => format!("localhost:{port}"),
    }
}
