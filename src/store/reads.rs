//! The one read handle: every query that only reads, written once, reached the same way from
//! the store (autocommit), a writer (inside its transaction) or a snapshot (inside its read
//! transaction) through `reads()`.
//!
//! Invariant: nothing here writes; a `Reads` borrows its connection, so it never outlives the
//! transaction it reads in.

use super::db::{Conn, DbError};
use super::{Snapshot, Store, Writer};
use crate::error::Error;
use std::path::Path;

/// Reads over one connection: the store's, a writer's transaction or a snapshot's.
#[derive(Clone, Copy)]
pub struct Reads<'a> {
    pub(super) conn: &'a Conn,
    pub(super) path: &'a Path,
}

impl Reads<'_> {
    /// A database error as the library's, naming the store.
    pub(super) fn db(&self) -> impl Fn(DbError) -> Error + '_ {
        move |e| super::classify(self.path, e)
    }
}

impl Store {
    /// The store's reads, each its own autocommit statement.
    pub fn reads(&self) -> Reads<'_> {
        Reads {
            conn: &self.conn,
            path: &self.path,
        }
    }
}

impl Writer<'_> {
    /// Reads inside this writer's transaction (they see what it wrote).
    pub fn reads(&self) -> Reads<'_> {
        Reads {
            conn: self.tx,
            path: self.path,
        }
    }
}

impl Snapshot<'_> {
    /// Reads inside this snapshot (the store as of one commit).
    pub fn reads(&self) -> Reads<'_> {
        Reads {
            conn: self.tx,
            path: self.path,
        }
    }
}
