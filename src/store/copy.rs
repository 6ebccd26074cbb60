//! Copying a whole store from one backend to another (`citestore migrate --from A --to B`):
//! SQLite → PostgreSQL, PostgreSQL → SQLite, or either to its own kind.
//!
//! Invariants: the source is read in one snapshot and never written; the target is written in
//! one transaction that commits only when every table's row count matches the source's, so a
//! failed copy leaves the target as it was; rows keep their ids (every reference stays true)
//! and identity sequences continue after them; a target that already holds documents is
//! refused (a copy never merges two stores).

use super::db::{Backend, Value};
use super::{classify, Store};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The tables in an order where every row's references are copied before it. A table of a
/// newer migration not named here is copied after these (in name order).
const TABLE_ORDER: &[&str] = &[
    "documents",
    "revisions",
    "chunkings",
    "chunks",
    "contexts",
    "context_chunks",
    "answers",
    "claims",
    "citations",
    "evidence",
    "evidence_locations",
    "external_citations",
    "verifications",
    "sweeps",
    "anchors",
    "swept_documents",
    "sources",
    "extractions",
    "document_states",
    "text_origins",
];

/// Rows per INSERT: PostgreSQL takes at most 65,535 parameters, SQLite 32,766.
const MAX_PARAMETERS: usize = 30_000;

/// What a copy moved, per table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CopyReport {
    /// `(table, rows)`, in the order copied.
    pub tables: Vec<(String, i64)>,
    /// Rows copied in all.
    pub rows: i64,
}

impl Store {
    /// The base tables of this store (no views, no bookkeeping), in copy order.
    fn tables_to_copy(&self) -> Result<Vec<String>> {
        let db = |e| classify(&self.path, e);
        let sql = match self.conn.backend() {
            Backend::Sqlite => {
                "SELECT name FROM sqlite_schema WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%' ORDER BY name"
            }
            Backend::Postgres => {
                "SELECT table_name::text FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
                 AND table_name <> 'citestore_schema' ORDER BY table_name COLLATE \"C\""
            }
        };
        let mut names: Vec<String> = self.conn.query_map(sql, [], |r| r.get(0)).map_err(db)?;
        names.sort_by_key(|name| {
            (
                TABLE_ORDER
                    .iter()
                    .position(|t| t == name)
                    .unwrap_or(TABLE_ORDER.len()),
                name.clone(),
            )
        });
        Ok(names)
    }

    /// The columns of `table`, in order.
    fn columns_of(&self, table: &str) -> Result<Vec<String>> {
        Ok(self
            .schema()?
            .into_iter()
            .find(|(name, _)| name == table)
            .map(|(_, columns)| columns)
            .unwrap_or_default())
    }

    /// Copies every row of this store into `target` (see the module invariants).
    pub fn copy_into(&mut self, target: &mut Store) -> Result<CopyReport> {
        let source_version = self.schema_version()?;
        let target_version = target.schema_version()?;
        if source_version != target_version {
            return Err(Error::Database {
                path: target.path.clone(),
                message: format!(
                    "schema version {target_version} differs from the source's \
                     {source_version}; upgrade both with this citestore first"
                ),
            });
        }
        let tables = self.tables_to_copy()?;
        let mut columns = Vec::with_capacity(tables.len());
        for table in &tables {
            let here = self.columns_of(table)?;
            let there = target.columns_of(table)?;
            if here != there {
                return Err(Error::Database {
                    path: target.path.clone(),
                    message: format!(
                        "table {table} has columns {there:?}, the source {here:?}; \
                         both stores must be made by the same citestore"
                    ),
                });
            }
            columns.push(here);
        }
        let writer = target.writer()?;
        let tx = writer.tx;
        let to_err = |e| classify(writer.path, e);
        let held: bool = tx
            .query_row("SELECT EXISTS (SELECT 1 FROM documents)", [], |r| r.get(0))
            .map_err(to_err)?;
        if held {
            return Err(Error::Database {
                path: writer.path.to_path_buf(),
                message: "already holds documents; copy into an empty database".to_string(),
            });
        }
        let snapshot = self.read()?;
        let mut report = CopyReport::default();
        for (table, columns) in tables.iter().zip(&columns) {
            let list = columns.join(", ");
            let order = if columns.iter().any(|c| c == "id") {
                "id".to_string()
            } else {
                // Tables keyed by (parent, ord): that order is the insertion order.
                columns[..2.min(columns.len())].join(", ")
            };
            let select = format!("SELECT {list} FROM {table} ORDER BY {order}");
            let per_insert = (MAX_PARAMETERS / columns.len().max(1)).clamp(1, 500);
            let mut batch: Vec<Value> = Vec::with_capacity(per_insert * columns.len());
            let mut copied: i64 = 0;
            let flush = |batch: &mut Vec<Value>| -> Result<()> {
                if batch.is_empty() {
                    return Ok(());
                }
                let rows = batch.len() / columns.len();
                let mut sql = format!("INSERT INTO {table} ({list}) VALUES ");
                let mut n = 0;
                for r in 0..rows {
                    sql.push_str(if r == 0 { "(" } else { ", (" });
                    for c in 0..columns.len() {
                        n += 1;
                        sql.push_str(&format!("{}?{n}", if c == 0 { "" } else { ", " }));
                    }
                    sql.push(')');
                }
                tx.execute(&sql, std::mem::take(batch)).map_err(to_err)?;
                Ok(())
            };
            let source_path = snapshot.path;
            snapshot.tx.each(
                &select,
                [],
                |e| classify(source_path, e),
                |row| {
                    batch.extend(row.into_values());
                    copied += 1;
                    if batch.len() >= per_insert * columns.len() {
                        flush(&mut batch)?;
                    }
                    Ok(true)
                },
            )?;
            flush(&mut batch)?;
            let landed: i64 = tx
                .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
                .map_err(to_err)?;
            if landed != copied {
                return Err(Error::Database {
                    path: writer.path.to_path_buf(),
                    message: format!("{table}: {landed} rows landed of {copied} read"),
                });
            }
            if tx.backend() == Backend::Postgres && columns.iter().any(|c| c == "id") {
                // Rows kept their ids: new rows continue after the largest.
                tx.execute(
                    &format!(
                        "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                         COALESCE(MAX(id), 0) + 1, false) FROM {table}"
                    ),
                    [],
                )
                .map_err(to_err)?;
            }
            report.rows += copied;
            report.tables.push((table.clone(), copied));
        }
        drop(snapshot);
        writer.commit()?;
        Ok(report)
    }
}
