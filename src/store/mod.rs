//! The store: SQLite (the embedded default) or PostgreSQL (the shared store), opened only here;
//! the only module that knows SQL. The rest of the crate talks to [`Store`], [`Writer`] and
//! [`Snapshot`]; the backend is chosen once, when the database name is parsed into a
//! [`Location`]. Queries are written once (in `store/db.rs`); what differs per backend is in
//! `db.rs`, `sqlite.rs` and `postgres.rs`. A store opens in one place (`open.rs`: connect,
//! judge, then configure and migrate, `migrate.rs`); errors become the ones a user can act on
//! in `errors.rs`.
//!
//! Invariants:
//! - A database is judged before anything is written to it (see `open.rs`); commands that only
//!   read use [`Store::open_read`], which never creates, migrates or writes.
//! - Every write goes through a [`Writer`]: one `BEGIN IMMEDIATE` transaction that commits only
//!   when [`Writer::commit`] is called; dropping it rolls back, so a failed command leaves the
//!   database as it was.
//! - Shipped migrations are never edited (see `migrate.rs`).
//! - PostgreSQL writers run in read committed transactions: idempotent inserts use the
//!   database's unique constraints (`ON CONFLICT DO NOTHING`), and each sweep step holds its
//!   document's advisory lock ([`Writer::lock_document`]), so concurrent `cite`s and sweep
//!   shards never lose or duplicate a row.

mod chunkings;
mod citations;
mod copy;
mod counts;
pub(crate) mod db;
mod documents;
mod errors;
mod integrity;
mod location;
mod migrate;
mod names;
mod open;
mod postgres;
mod quiet;
mod reads;
mod report;
mod revisions;
mod snapshot;
mod sources;
mod sqlite;
mod sweeps;
mod verifications;

/// A chunk to add (its `ord` is its place in the slice given).
pub use crate::model::NewChunk;
pub use chunkings::{Holding, RevisionChunks, TextOrigin};
pub use citations::{CitationIds, StoredChunk};
pub use copy::CopyReport;
pub use documents::NewRevision;
pub use errors::redact;
pub use location::{is_postgres, Location};
pub use migrate::{postgres_ddl, MIGRATIONS, POSTGRES_MIGRATIONS};
pub use quiet::SweptState;
pub use reads::Reads;
pub use report::{ChangeSelection, ChangedCitation, SpanState};
pub use revisions::{
    chunk_rows, ChunkPolicy, ChunkedRows, ChunkingResult, Chunks, ExtractedText, Ingested, Outcome,
    Rechunked, ReservedChunkings,
};
pub use snapshot::Snapshot;
pub use sources::NewExtraction;
pub use sqlite::NewDatabase;
pub use sweeps::{
    AnchorRow, AnchoringBasis, CitationCounts, CitationRecord, CitationState, NewAnchor,
    StaleCitations, StoredApiLocation, StoredProposal, SweepRow, SweepShard, VerificationRow,
};

use crate::error::{Error, Result};
use crate::model::DocumentSummary;
pub use db::optional;
use db::{args, Backend, Begin, Conn, DbError, DbResult};
use errors::classify;
use sqlite::SWEEP_PRAGMAS;
use std::path::{Path, PathBuf};

/// An open database.
#[derive(Debug)]
pub struct Store {
    conn: Conn,
    location: Location,
    /// What errors name: the file, or the URL without its password ([`Location::shown`]).
    path: PathBuf,
}

impl Store {
    /// From now on this connection's commits need not wait for the disk: for work that is
    /// redone after a crash (a sweep's documents). PostgreSQL: `synchronous_commit = off` for
    /// this session (a server crash may lose the last commits, never half of one); SQLite
    /// already commits this way (WAL, `synchronous=NORMAL`), and is set for many transactions
    /// (`SWEEP_PRAGMAS`).
    pub fn redoable_writes(&self) -> Result<()> {
        if self.conn.backend() == Backend::Postgres {
            self.conn
                .batch("SET synchronous_commit = off")
                .map_err(|e| classify(&self.path, e))?;
        }
        if self.conn.backend() == Backend::Sqlite {
            self.conn
                .batch(SWEEP_PRAGMAS)
                .map_err(|e| classify(&self.path, e))?;
        }
        Ok(())
    }

    /// Which backend this store is on.
    pub fn backend_name(&self) -> &'static str {
        match self.conn.backend() {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }

    /// True when document `doc_id` is in the store.
    pub fn has_document(&self, doc_id: &str) -> Result<bool> {
        self.conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM documents WHERE doc_id = ?1)",
                args![doc_id],
                |row| row.get(0),
            )
            .map_err(|e| classify(&self.path, e))
    }

    /// Fails with [`Error::UnknownDocument`] unless `doc_id` is in the store.
    pub fn require_document(&self, doc_id: &str) -> Result<()> {
        if self.has_document(doc_id)? {
            Ok(())
        } else {
            Err(Error::UnknownDocument {
                doc_id: doc_id.to_string(),
            })
        }
    }

    /// Where the store is.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Starts the one write transaction of a command.
    pub fn writer(&mut self) -> Result<Writer<'_>> {
        self.begin_writer(Begin::Write)
    }

    /// [`Store::writer`] for a transaction whose statements all find their rows by an indexed
    /// key (a sweep's per-document work): on PostgreSQL each statement in it is planned for its
    /// arguments, never from a plan kept since the tables were smaller (see
    /// `Begin::WriteLookups`).
    pub fn lookup_writer(&mut self) -> Result<Writer<'_>> {
        self.begin_writer(Begin::WriteLookups)
    }

    fn begin_writer(&mut self, how: Begin) -> Result<Writer<'_>> {
        self.conn.begin(how).map_err(|e| classify(&self.path, e))?;
        Ok(Writer {
            tx: &self.conn,
            path: &self.path,
            open: true,
        })
    }

    /// One summary per document, ordered by doc id, read in one statement (a consistent
    /// snapshot under WAL even while another process writes).
    pub fn summaries(&self) -> Result<Vec<DocumentSummary>> {
        documents::summaries(&self.conn).map_err(|e| classify(&self.path, e))
    }
}

/// The key of the advisory lock a finishing sweep takes its finish order under ("finished").
const FINISH_LOCK: i64 = 0x6669_6e69_7368_6564;

/// The write transaction of one command; dropped without [`Writer::commit`], it rolls back.
pub struct Writer<'a> {
    tx: &'a Conn,
    path: &'a Path,
    open: bool,
}

impl Writer<'_> {
    /// Makes every write of this transaction durable.
    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        self.tx.end(true).map_err(|e| classify(self.path, e))
    }

    fn db(&self) -> impl Fn(DbError) -> Error + '_ {
        move |e| classify(self.path, e)
    }

    /// Holds document `doc_id` for the rest of this transaction: another writer of the same
    /// document (a sweep shard, an ingest) waits. SQLite's writers are already one at a time.
    pub fn lock_document(&self, doc_id: &str) -> Result<()> {
        if self.tx.backend() == Backend::Postgres {
            self.tx
                .execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended(?1, 0))",
                    args![doc_id],
                )
                .map_err(self.db())?;
        }
        Ok(())
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        if self.open {
            // Best effort: a transaction the server already ended has nothing to roll back.
            let _ = self.tx.end(false);
        }
    }
}

/// The raw text of revision `seq` of `doc_id` (for the store's reader and its writer alike).
fn text_by_seq(conn: &Conn, doc_id: &str, seq: u32) -> DbResult<String> {
    conn.query_row(
        "SELECT r.text FROM revisions r JOIN documents d ON d.id = r.document_id \
         WHERE d.doc_id = ?1 AND r.seq = ?2",
        args![doc_id, seq],
        |r| r.get(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new, empty database on the PostgreSQL server the tests run against
    /// (`CITESTORE_TEST_PG`, which tests/run.sh starts): its URL. `None`, with a note, outside
    /// CI without one; under `CI=true` a missing server fails the test.
    fn fresh_postgres() -> Option<String> {
        let Some(base) = std::env::var("CITESTORE_TEST_PG")
            .ok()
            .filter(|url| !url.is_empty())
        else {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CITESTORE_TEST_PG is not set under CI=true: run the tests with `bash tests/run.sh`"
            );
            eprintln!("note: CITESTORE_TEST_PG is not set; this PostgreSQL test did not run");
            return None;
        };
        let name = format!("u_{}_{}", std::process::id(), line!());
        let mut admin = ::postgres::Client::connect(&base, ::postgres::NoTls).unwrap();
        for sql in [
            format!("DROP DATABASE IF EXISTS {name}"),
            format!("CREATE DATABASE {name}"),
        ] {
            admin.batch_execute(&sql).unwrap();
        }
        let (scheme, rest) = base.split_once("://").unwrap();
        let slash = rest.find('/').unwrap();
        let query = rest[slash..].find('?').map_or("", |q| &rest[slash + q..]);
        Some(format!("{scheme}://{}/{name}{query}", &rest[..slash]))
    }

    #[test]
    fn a_lookup_transaction_plans_each_statement_for_its_arguments_and_only_itself() {
        // A plan kept from the start of a first sweep believes the anchors table empty
        // (bench/RESULTS-scale-10m.md); custom plans outside these transactions made a night
        // with nothing changed five times slower.
        let Some(url) = fresh_postgres() else { return };
        let mut store = Store::open(&Location::from(url.as_str())).unwrap();
        let mode = |conn: &Conn| -> String {
            conn.query_row("SHOW plan_cache_mode", [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!(mode(&store.conn), "auto");
        let writer = store.lookup_writer().unwrap();
        assert_eq!(mode(writer.tx), "force_custom_plan");
        writer.commit().unwrap();
        assert_eq!(mode(&store.conn), "auto");
        drop(store.lookup_writer().unwrap());
        assert_eq!(mode(&store.conn), "auto");
        let writer = store.writer().unwrap();
        assert_eq!(mode(writer.tx), "auto");
    }
}
