//! The backend seam: one connection type over SQLite (rusqlite) and PostgreSQL (the `postgres`
//! crate), so every query in `store/` is written once.
//!
//! Invariants:
//! - SQL is written in the dialect both accept: `?N` placeholders (rewritten to `$N` for
//!   PostgreSQL, the only rewrite), `INSERT … ON CONFLICT DO NOTHING`, `RETURNING id`, `CASE`
//!   instead of SQLite's two-argument `MIN`/`MAX`. What cannot be shared (opening, pragmas,
//!   catalog reads, the schema version, locks) lives in one function per backend in this file
//!   or in `store/mod.rs`.
//! - Values cross the seam as [`Value`] (null, 64-bit integer, double, text): a boolean is an
//!   integer 0/1 on both sides, so rows read the same from either backend.
//! - Transactions are begun and ended here ([`Conn::begin`], [`Conn::end`]); PostgreSQL
//!   statements are prepared once per connection and cached by their text, as rusqlite does.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;

/// A value crossing the seam.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// SQL NULL.
    Null,
    /// An integer (booleans are 0/1).
    Int(i64),
    /// A double.
    Real(f64),
    /// Text.
    Text(String),
}

/// Something that can be bound as a parameter.
pub(crate) trait ToDb {
    /// The value bound.
    fn to_db(&self) -> Value;
}

macro_rules! int_to_db {
    ($($t:ty),*) => {$(
        impl ToDb for $t {
            fn to_db(&self) -> Value {
                Value::Int(*self as i64)
            }
        }
    )*};
}
int_to_db!(i64, i32, u32, usize);

impl ToDb for bool {
    fn to_db(&self) -> Value {
        Value::Int(i64::from(*self))
    }
}
impl ToDb for f64 {
    fn to_db(&self) -> Value {
        Value::Real(*self)
    }
}
impl ToDb for str {
    fn to_db(&self) -> Value {
        Value::Text(self.to_string())
    }
}
impl ToDb for String {
    fn to_db(&self) -> Value {
        Value::Text(self.clone())
    }
}
impl ToDb for Value {
    fn to_db(&self) -> Value {
        self.clone()
    }
}
impl<T: ToDb + ?Sized> ToDb for &T {
    fn to_db(&self) -> Value {
        (**self).to_db()
    }
}
impl<T: ToDb> ToDb for Option<T> {
    fn to_db(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToDb::to_db)
    }
}

/// Parameters, like rusqlite's `params!`.
macro_rules! args {
    ($($x:expr),* $(,)?) => {
        &[$(&$x as &dyn $crate::store::db::ToDb),*] as &[&dyn $crate::store::db::ToDb]
    };
}
pub(crate) use args;

/// Parameters in rusqlite's shapes: `[a, b]` of one type, `params![…]`, or `[]`.
pub(crate) trait Params {
    /// The values bound, in order (taken: a statement of 4,000 values is not copied).
    fn values(self) -> Vec<Value>;
}

impl Params for Vec<Value> {
    fn values(self) -> Vec<Value> {
        self
    }
}
impl Params for [&dyn ToDb; 0] {
    fn values(self) -> Vec<Value> {
        Vec::new()
    }
}
impl Params for &[&dyn ToDb] {
    fn values(self) -> Vec<Value> {
        self.iter().map(|a| a.to_db()).collect()
    }
}
macro_rules! array_params {
    ($($n:literal),*) => {$(
        impl<T: ToDb> Params for [T; $n] {
            fn values(self) -> Vec<Value> {
                self.iter().map(ToDb::to_db).collect()
            }
        }
    )*};
}
array_params!(1, 2, 3, 4);

/// Parameters of mixed types, like rusqlite's `params!`.
macro_rules! params {
    ($($x:expr),* $(,)?) => { $crate::store::db::args![$($x),*] };
}
pub(crate) use params;

/// A statement to run on a [`Conn`], in rusqlite's shape (`prepare`, then `query_row`,
/// `query_map`, `execute`), so queries read the same as before the seam.
pub(crate) struct Stmt<'a> {
    conn: &'a Conn,
    sql: String,
}

impl Stmt<'_> {
    /// See [`Conn::execute`].
    pub(crate) fn execute<P: Params>(&mut self, params: P) -> DbResult<usize> {
        self.conn.execute(&self.sql, params)
    }

    /// See [`Conn::query_row`].
    pub(crate) fn query_row<T, P: Params>(
        &mut self,
        params: P,
        read: impl FnOnce(&Row) -> DbResult<T>,
    ) -> DbResult<T> {
        self.conn.query_row(&self.sql, params, read)
    }

    /// Every row read by `read`, as rusqlite's iterator of results.
    pub(crate) fn query_map<T, P: Params>(
        &mut self,
        params: P,
        mut read: impl FnMut(&Row) -> DbResult<T>,
    ) -> DbResult<std::vec::IntoIter<DbResult<T>>> {
        let rows = self
            .conn
            .query_map(&self.sql, params, |row| Ok(read(row)))?;
        Ok(rows.into_iter())
    }
}

impl Conn {
    /// A statement (PostgreSQL prepares it once per connection, SQLite caches it).
    pub(crate) fn prepare_cached(&self, sql: &str) -> DbResult<Stmt<'_>> {
        Ok(Stmt {
            conn: self,
            sql: sql.to_string(),
        })
    }

    /// Same as [`Conn::prepare_cached`].
    pub(crate) fn prepare(&self, sql: &str) -> DbResult<Stmt<'_>> {
        self.prepare_cached(sql)
    }
}

/// Something a column can be read as.
pub(crate) trait FromDb: Sized {
    /// Reads `value`, or says what it was.
    fn from_db(value: &Value) -> Option<Self>;
    /// The type's name, for errors.
    const NAME: &'static str;
}

impl FromDb for i64 {
    fn from_db(value: &Value) -> Option<Self> {
        match value {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    const NAME: &'static str = "integer";
}
impl FromDb for u32 {
    fn from_db(value: &Value) -> Option<Self> {
        i64::from_db(value).and_then(|i| u32::try_from(i).ok())
    }
    const NAME: &'static str = "u32";
}
impl FromDb for usize {
    fn from_db(value: &Value) -> Option<Self> {
        i64::from_db(value).and_then(|i| usize::try_from(i).ok())
    }
    const NAME: &'static str = "usize";
}
impl FromDb for bool {
    fn from_db(value: &Value) -> Option<Self> {
        i64::from_db(value).map(|i| i != 0)
    }
    const NAME: &'static str = "boolean";
}
impl FromDb for f64 {
    fn from_db(value: &Value) -> Option<Self> {
        match value {
            Value::Real(f) => Some(*f),
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
    const NAME: &'static str = "real";
}
impl FromDb for String {
    fn from_db(value: &Value) -> Option<Self> {
        match value {
            Value::Text(s) => Some(s.clone()),
            _ => None,
        }
    }
    const NAME: &'static str = "text";
}
impl<T: FromDb> FromDb for Option<T> {
    fn from_db(value: &Value) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            other => T::from_db(other).map(Some),
        }
    }
    const NAME: &'static str = T::NAME;
}

/// One row, read out of either backend.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    values: Vec<Value>,
    offset: usize,
}

impl Row {
    /// Column `i` as `T`.
    pub(crate) fn get<T: FromDb>(&self, i: usize) -> DbResult<T> {
        let value = self.values.get(i + self.offset).ok_or(DbError::Column {
            index: i + self.offset,
            want: T::NAME,
            got: "no such column".into(),
        })?;
        T::from_db(value).ok_or_else(|| DbError::Column {
            index: i + self.offset,
            want: T::NAME,
            got: format!("{value:?}"),
        })
    }

    /// The row's values, from its offset on.
    pub(crate) fn into_values(mut self) -> Vec<Value> {
        self.values.split_off(self.offset)
    }

    /// The same row seen from column `offset` on (for a query that selects two records side
    /// by side).
    pub(crate) fn at_column(&self, offset: usize) -> Row {
        Row {
            values: self.values.clone(),
            offset: self.offset + offset,
        }
    }
}

/// An error of either backend.
#[derive(Debug)]
pub enum DbError {
    /// From SQLite.
    Sqlite(rusqlite::Error),
    /// From PostgreSQL.
    Postgres(postgres::Error),
    /// A query expected a row and found none.
    NoRow,
    /// A column could not be read as the type asked for.
    Column {
        /// Column index.
        index: usize,
        /// The type asked for.
        want: &'static str,
        /// What it held.
        got: String,
    },
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Sqlite(e) => match e {
                rusqlite::Error::SqliteFailure(_, Some(message)) => f.write_str(message),
                other => write!(f, "{other}"),
            },
            DbError::Postgres(e) => match e.as_db_error() {
                Some(db) => f.write_str(db.message()),
                None => {
                    write!(f, "{e}")?;
                    let mut source = std::error::Error::source(e);
                    while let Some(cause) = source {
                        write!(f, ": {cause}")?;
                        source = cause.source();
                    }
                    Ok(())
                }
            },
            DbError::NoRow => f.write_str("query returned no rows"),
            DbError::Column { index, want, got } => {
                write!(f, "column {index}: expected {want}, found {got}")
            }
        }
    }
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::QueryReturnedNoRows => DbError::NoRow,
            other => DbError::Sqlite(other),
        }
    }
}
impl From<postgres::Error> for DbError {
    fn from(e: postgres::Error) -> Self {
        DbError::Postgres(e)
    }
}

/// Result of a query.
pub(crate) type DbResult<T> = std::result::Result<T, DbError>;

/// `Ok(None)` for `DbError::NoRow`.
pub fn optional<T>(result: DbResult<T>) -> DbResult<Option<T>> {
    match result {
        Ok(v) => Ok(Some(v)),
        Err(DbError::NoRow) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Which backend a connection talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Backend {
    /// The embedded default.
    Sqlite,
    /// The shared store.
    Postgres,
}

/// How a transaction begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Begin {
    /// The one write transaction of a command (SQLite: `BEGIN IMMEDIATE`, serialising
    /// writers; PostgreSQL: read committed, rows locked by constraints and document locks).
    Write,
    /// A read snapshot (SQLite: deferred, pinned at its first read; PostgreSQL: repeatable
    /// read, read only).
    Read,
    /// [`Begin::Write`] for a transaction whose every statement finds its rows by an indexed
    /// key (a sweep's per-document work). On PostgreSQL each statement in it is planned for its
    /// arguments from the tables' current sizes (`SET LOCAL plan_cache_mode =
    /// force_custom_plan`): a generic plan, made once per connection from the statistics of
    /// the moment, believed a table a first sweep fills from empty to be empty and scanned
    /// every anchor for every document (a first sweep of 1M citations 17.6 s -> 70.8 s when a
    /// plan was made early; bench/RESULTS-scale-10m.md). Only here: custom plans for every
    /// statement made a night with nothing changed five times slower.
    WriteLookups,
}

/// A PostgreSQL connection and its prepared statements.
pub(crate) struct Pg {
    client: postgres::Client,
    statements: HashMap<String, postgres::Statement>,
    in_transaction: bool,
    cursors: usize,
}

/// An open connection to either backend.
pub(crate) enum Conn {
    /// SQLite.
    Sqlite(rusqlite::Connection),
    /// PostgreSQL (a `RefCell`: the client needs `&mut` for every call, the store reads
    /// through `&self`; nothing here is re-entered while a borrow is held).
    Postgres(Box<RefCell<Pg>>),
}

impl fmt::Debug for Conn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Conn::Sqlite(c) => c.fmt(f),
            Conn::Postgres(_) => f.write_str("Conn::Postgres"),
        }
    }
}

/// Rows fetched per round trip when PostgreSQL streams a query inside a transaction.
const PG_BATCH: usize = 1000;

impl Conn {
    /// Wraps a PostgreSQL client.
    pub(crate) fn postgres(client: postgres::Client) -> Conn {
        Conn::Postgres(Box::new(RefCell::new(Pg {
            client,
            statements: HashMap::new(),
            in_transaction: false,
            cursors: 0,
        })))
    }

    /// The backend.
    pub(crate) fn backend(&self) -> Backend {
        match self {
            Conn::Sqlite(_) => Backend::Sqlite,
            Conn::Postgres(_) => Backend::Postgres,
        }
    }

    /// The SQLite connection (for what only SQLite has: pragmas, its catalog).
    pub(crate) fn sqlite(&self) -> Option<&rusqlite::Connection> {
        match self {
            Conn::Sqlite(c) => Some(c),
            Conn::Postgres(_) => None,
        }
    }

    /// Runs a statement; the number of rows changed.
    pub(crate) fn execute<P: Params>(&self, sql: &str, params: P) -> DbResult<usize> {
        let params = params.values();
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                Ok(stmt.execute(rusqlite::params_from_iter(params))?)
            }
            Conn::Postgres(pg) => {
                let mut pg = pg.borrow_mut();
                let stmt = pg.statement(sql)?;
                Ok(pg.client.execute(&stmt, &pg_params(&params))? as usize)
            }
        }
    }

    /// Runs statements separated by `;`, without parameters.
    pub(crate) fn batch(&self, sql: &str) -> DbResult<()> {
        match self {
            Conn::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Conn::Postgres(pg) => Ok(pg.borrow_mut().client.batch_execute(sql)?),
        }
    }

    /// The first row, read by `read`; [`DbError::NoRow`] when there is none.
    pub(crate) fn query_row<T, P: Params>(
        &self,
        sql: &str,
        params: P,
        read: impl FnOnce(&Row) -> DbResult<T>,
    ) -> DbResult<T> {
        let mut first = None;
        self.rows(
            sql,
            params,
            false,
            |e| e,
            |row| {
                first = Some(row);
                Ok(false)
            },
        )?;
        read(&first.ok_or(DbError::NoRow)?)
    }

    /// Every row, each read by `read`.
    pub(crate) fn query_map<T, P: Params>(
        &self,
        sql: &str,
        params: P,
        mut read: impl FnMut(&Row) -> DbResult<T>,
    ) -> DbResult<Vec<T>> {
        let mut out = Vec::new();
        self.rows(
            sql,
            params,
            false,
            |e| e,
            |row| {
                out.push(read(&row)?);
                Ok(true)
            },
        )?;
        Ok(out)
    }

    /// Hands the rows to `each` as they are read, `each` returning false to stop; errors of
    /// the database become `E` by `db`. SQLite steps through the rows; PostgreSQL, inside a
    /// transaction, reads through a cursor in batches (memory stays flat, and `each` may run
    /// other queries meanwhile), outside one, reads them all first.
    pub(crate) fn each<E, P: Params>(
        &self,
        sql: &str,
        params: P,
        db: impl Fn(DbError) -> E,
        each: impl FnMut(Row) -> std::result::Result<bool, E>,
    ) -> std::result::Result<(), E> {
        self.rows(sql, params, true, db, each)
    }

    /// [`Conn::each`]; `stream` false reads PostgreSQL's rows in one round trip (lookups,
    /// `RETURNING`), true through a cursor when in a transaction.
    fn rows<E, P: Params>(
        &self,
        sql: &str,
        params: P,
        stream: bool,
        db: impl Fn(DbError) -> E,
        mut each: impl FnMut(Row) -> std::result::Result<bool, E>,
    ) -> std::result::Result<(), E> {
        let params = params.values();
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql).map_err(|e| db(e.into()))?;
                let columns = stmt.column_count();
                let mut rows = stmt
                    .query(rusqlite::params_from_iter(params))
                    .map_err(|e| db(e.into()))?;
                while let Some(row) = rows.next().map_err(|e| db(e.into()))? {
                    let values = (0..columns)
                        .map(|i| row.get_ref(i).map(sqlite_value))
                        .collect::<rusqlite::Result<Vec<_>>>()
                        .map_err(|e| db(e.into()))?;
                    if !each(Row { values, offset: 0 })? {
                        break;
                    }
                }
                Ok(())
            }
            Conn::Postgres(cell) => {
                let in_transaction = cell.borrow().in_transaction;
                if !(stream && in_transaction) {
                    let rows = {
                        let mut pg = cell.borrow_mut();
                        let stmt = pg.statement(sql).map_err(&db)?;
                        pg.client
                            .query(&stmt, &pg_params(&params))
                            .map_err(|e| db(e.into()))?
                    };
                    for row in &rows {
                        if !each(pg_row(row).map_err(&db)?)? {
                            break;
                        }
                    }
                    return Ok(());
                }
                // A cursor per nesting depth, so its DECLARE is prepared once per query; the
                // borrow is released while `each` runs, which may query too.
                let cursor = {
                    let mut pg = cell.borrow_mut();
                    pg.cursors += 1;
                    format!("citestore_cursor_{}", pg.cursors)
                };
                let declare = format!("DECLARE {cursor} NO SCROLL CURSOR FOR {sql}");
                let fetch = format!("FETCH {PG_BATCH} FROM {cursor}");
                let result = (|| {
                    {
                        let mut pg = cell.borrow_mut();
                        let stmt = pg.statement(&declare).map_err(&db)?;
                        pg.client
                            .execute(&stmt, &pg_params(&params))
                            .map_err(|e| db(e.into()))?;
                    }
                    loop {
                        let batch = {
                            // Not cached: a FETCH's columns are those of the cursor's query.
                            let mut pg = cell.borrow_mut();
                            pg.client.query(&fetch, &[]).map_err(|e| db(e.into()))?
                        };
                        for row in &batch {
                            if !each(pg_row(row).map_err(&db)?)? {
                                return Ok(());
                            }
                        }
                        if batch.len() < PG_BATCH {
                            return Ok(());
                        }
                    }
                })();
                let mut pg = cell.borrow_mut();
                pg.cursors -= 1;
                // Best effort: after an error the transaction is aborted and the cursor gone.
                let _ = pg.client.batch_execute(&format!("CLOSE {cursor}"));
                result
            }
        }
    }

    /// Inserts `rows` (each the values of `columns`, in order) into `table` with as few
    /// statements as the parameter limits allow: one round trip per up to 500 rows on
    /// PostgreSQL, where a statement per row would cost one each.
    pub(crate) fn insert_rows(
        &self,
        table: &str,
        columns: &[&str],
        rows: impl IntoIterator<Item = Vec<Value>>,
    ) -> DbResult<usize> {
        // PostgreSQL takes at most 65,535 parameters per statement, SQLite 32,766.
        let per_statement = (30_000 / columns.len().max(1)).clamp(1, 500);
        let mut batch: Vec<Value> = Vec::with_capacity(per_statement * columns.len());
        // The statement of a full batch, made once: building its thousands of placeholders for
        // every batch was most of a large insert.
        let mut full: Option<String> = None;
        let mut inserted = 0;
        let mut rows = rows.into_iter().peekable();
        while rows.peek().is_some() {
            batch.clear();
            let mut n = 0;
            while n < per_statement {
                let Some(row) = rows.next() else { break };
                debug_assert_eq!(row.len(), columns.len());
                batch.extend(row);
                n += 1;
            }
            if n == per_statement {
                let sql = full.get_or_insert_with(|| insert_sql(table, columns, n));
                inserted += self.execute(sql, std::mem::take(&mut batch))?;
                continue;
            }
            // The rest: on SQLite in statements of a power of two rows each, which its
            // statement cache keeps from one call to the next (a statement of whatever rows were
            // left was prepared anew each time: a twentieth of a sweep that re-chunked); on
            // PostgreSQL in one, a round trip each.
            let mut values = std::mem::take(&mut batch).into_iter();
            for rows in remainder_statements(n, matches!(self, Conn::Sqlite(_))) {
                let piece: Vec<Value> = values.by_ref().take(rows * columns.len()).collect();
                inserted += self.execute(&insert_sql(table, columns, rows), piece)?;
            }
        }
        Ok(inserted)
    }

    /// Begins a transaction.
    pub(crate) fn begin(&self, how: Begin) -> DbResult<()> {
        match (self, how) {
            (Conn::Sqlite(c), Begin::Write | Begin::WriteLookups) => {
                Ok(c.execute_batch("BEGIN IMMEDIATE")?)
            }
            (Conn::Sqlite(c), Begin::Read) => {
                c.execute_batch("BEGIN DEFERRED")?;
                // A deferred transaction takes its snapshot at its first read: read now.
                c.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))?;
                Ok(())
            }
            (Conn::Postgres(pg), how) => {
                let mut pg = pg.borrow_mut();
                pg.client.batch_execute(match how {
                    Begin::Write => "BEGIN",
                    Begin::WriteLookups => "BEGIN; SET LOCAL plan_cache_mode = force_custom_plan",
                    Begin::Read => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
                })?;
                if how == Begin::Read {
                    // Repeatable read takes its snapshot at the first statement: take it now.
                    pg.client.batch_execute("SELECT 1")?;
                }
                pg.in_transaction = true;
                Ok(())
            }
        }
    }

    /// Commits (`commit`) or rolls back the open transaction.
    pub(crate) fn end(&self, commit: bool) -> DbResult<()> {
        let sql = if commit { "COMMIT" } else { "ROLLBACK" };
        match self {
            Conn::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Conn::Postgres(pg) => {
                let mut pg = pg.borrow_mut();
                pg.in_transaction = false;
                Ok(pg.client.batch_execute(sql)?)
            }
        }
    }
}

impl Pg {
    /// The prepared statement for `sql` (placeholders rewritten), prepared once.
    fn statement(&mut self, sql: &str) -> DbResult<postgres::Statement> {
        if let Some(stmt) = self.statements.get(sql) {
            return Ok(stmt.clone());
        }
        let stmt = self.client.prepare(&postgres_sql(sql))?;
        self.statements.insert(sql.to_string(), stmt.clone());
        Ok(stmt)
    }
}

/// The row counts of the statements that insert the last `rows` rows of an [`Conn::insert_rows`]
/// call: the powers of two that sum to it, largest first, when `in_pieces`; else all at once.
fn remainder_statements(rows: usize, in_pieces: bool) -> Vec<usize> {
    if !in_pieces {
        return vec![rows];
    }
    (0..usize::BITS)
        .rev()
        .map(|bit| 1usize << bit)
        .filter(|piece| rows & piece != 0)
        .collect()
}

/// `?first, ?first+1, …` for `n` values: the list of an `IN (…)` whose values are bound from
/// the `first`th parameter on.
pub(crate) fn placeholders(first: usize, n: usize) -> String {
    use std::fmt::Write as _;
    let mut list = String::with_capacity(n * 6);
    for i in first..first + n {
        if i > first {
            list.push_str(", ");
        }
        let _ = write!(list, "?{i}");
    }
    list
}

/// `INSERT INTO table (columns) VALUES (?1, …), (…)` for `rows` rows.
pub(crate) fn insert_sql(table: &str, columns: &[&str], rows: usize) -> String {
    use std::fmt::Write as _;
    let mut sql = format!("INSERT INTO {table} ({}) VALUES ", columns.join(", "));
    sql.reserve(rows * columns.len() * 8);
    let mut n = 0;
    for r in 0..rows {
        sql.push_str(if r == 0 { "(" } else { ", (" });
        for c in 0..columns.len() {
            n += 1;
            if c > 0 {
                sql.push_str(", ");
            }
            // Into the string itself: a format! per placeholder was most of a re-chunk sweep.
            let _ = write!(sql, "?{n}");
        }
        sql.push(')');
    }
    sql
}

/// The one rewrite the shared SQL needs for PostgreSQL: `?N` placeholders become `$N` (outside
/// string literals).
pub(crate) fn postgres_sql(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    for c in sql.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                out.push(c);
            }
            '?' if !quoted => out.push('$'),
            _ => out.push(c),
        }
    }
    out
}

fn sqlite_value(v: rusqlite::types::ValueRef<'_>) -> Value {
    use rusqlite::types::ValueRef;
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(f) => Value::Real(f),
        // Valid UTF-8 (all citestore writes) is copied once, checked by the fast path;
        // anything else is repaired as before.
        ValueRef::Text(t) => Value::Text(match std::str::from_utf8(t) {
            Ok(text) => text.to_owned(),
            Err(_) => String::from_utf8_lossy(t).into_owned(),
        }),
        ValueRef::Blob(b) => Value::Text(String::from_utf8_lossy(b).into_owned()),
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Real(f) => ValueRef::Real(*f),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
        }))
    }
}

fn pg_params(values: &[Value]) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
    values
        .iter()
        .map(|v| v as &(dyn postgres::types::ToSql + Sync))
        .collect()
}

impl postgres::types::ToSql for Value {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>>
    {
        use postgres::types::{IsNull, Type};
        // The parameter's type is what PostgreSQL inferred from the statement; convert to it.
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                _ => i.to_string().as_str().to_sql(ty, out),
            },
            Value::Real(f) => match *ty {
                Type::FLOAT4 => (*f as f32).to_sql(ty, out),
                Type::FLOAT8 => f.to_sql(ty, out),
                _ => f.to_string().as_str().to_sql(ty, out),
            },
            Value::Text(s) => s.as_str().to_sql(ty, out),
        }
    }

    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

/// A PostgreSQL row as [`Value`]s, by each column's type.
fn pg_row(row: &postgres::Row) -> DbResult<Row> {
    use postgres::types::Type;
    let mut values = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let value = match *column.type_() {
            Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map(Value::Int),
            Type::INT4 => row
                .try_get::<_, Option<i32>>(i)?
                .map(|v| Value::Int(v.into())),
            Type::INT2 => row
                .try_get::<_, Option<i16>>(i)?
                .map(|v| Value::Int(v.into())),
            Type::BOOL => row
                .try_get::<_, Option<bool>>(i)?
                .map(|v| Value::Int(v.into())),
            Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.map(Value::Real),
            Type::FLOAT4 => row
                .try_get::<_, Option<f32>>(i)?
                .map(|v| Value::Real(v.into())),
            _ => row.try_get::<_, Option<String>>(i)?.map(Value::Text),
        };
        values.push(value.unwrap_or(Value::Null));
    }
    Ok(Row { values, offset: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_numbered_outside_literals() {
        let cases = [
            ("SELECT ?1, ?2", "SELECT $1, $2"),
            ("WHERE a = '?' AND b = ?3", "WHERE a = '?' AND b = $3"),
            ("SELECT 'it''s ?' || ?1", "SELECT 'it''s ?' || $1"),
        ];
        for (sql, want) in cases {
            assert_eq!(postgres_sql(sql), want, "{sql}");
        }
    }

    #[test]
    fn the_rows_left_go_in_statements_sqlite_keeps() {
        for (rows, in_pieces, statements) in [
            (1, true, vec![1]),
            (234, true, vec![128, 64, 32, 8, 2]),
            (256, true, vec![256]),
            (499, true, vec![256, 128, 64, 32, 16, 2, 1]),
            (234, false, vec![234]),
        ] {
            assert_eq!(remainder_statements(rows, in_pieces), statements, "{rows}");
        }
    }

    #[test]
    fn placeholders_number_the_values_from_the_first() {
        for (first, n, list) in [(1, 1, "?1"), (1, 3, "?1, ?2, ?3"), (4, 2, "?4, ?5")] {
            assert_eq!(placeholders(first, n), list);
        }
    }

    #[test]
    fn insert_sql_numbers_every_value() {
        assert_eq!(
            insert_sql("t", &["a", "b"], 2),
            "INSERT INTO t (a, b) VALUES (?1, ?2), (?3, ?4)"
        );
        let conn = Conn::Sqlite(rusqlite::Connection::open_in_memory().unwrap());
        conn.batch("CREATE TABLE t (a INTEGER, b TEXT)").unwrap();
        let rows = (0..1234).map(|i| vec![Value::Int(i), Value::Text(format!("r{i}"))]);
        assert_eq!(conn.insert_rows("t", &["a", "b"], rows).unwrap(), 1234);
        let (n, sum): (i64, i64) = conn
            .query_row("SELECT count(*), sum(a) FROM t", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((n, sum), (1234, 1233 * 1234 / 2));
        let last: String = conn
            .query_row("SELECT b FROM t WHERE a = 1233", [], |r| r.get(0))
            .unwrap();
        assert_eq!(last, "r1233");
    }

    #[test]
    fn values_read_back_as_their_types() {
        let row = Row {
            values: vec![
                Value::Int(7),
                Value::Null,
                Value::Real(1.5),
                Value::Text("x".into()),
            ],
            offset: 0,
        };
        assert_eq!(row.get::<i64>(0).unwrap(), 7);
        assert!(row.get::<bool>(0).unwrap());
        assert_eq!(row.get::<Option<String>>(1).unwrap(), None);
        assert_eq!(row.get::<f64>(2).unwrap(), 1.5);
        assert_eq!(row.get::<String>(3).unwrap(), "x");
        assert!(row.get::<i64>(3).is_err());
        assert_eq!(row.at_column(2).get::<f64>(0).unwrap(), 1.5);
    }
}
