//! The model's named values ([`Status`], [`Method`], the citing [`Verdict`] and the
//! [`ClaimVerdict`]) as database values: the one conversion
//! point between them and both backends (every parameter and column crosses the seam as a
//! [`Value`], see `db.rs`).
//!
//! Invariants: a value is stored as its name ([`Status::as_str`], [`Method::as_str`]), the
//! text the columns have always held, so stores written before these types read unchanged; a
//! stored name that is not a value of the type reads as an error naming the column and the
//! text found ([`DbError::Column`]), never as a panic or a default.

use super::db::{FromDb, ToDb, Value};
use crate::model::citation::Verdict;
use crate::model::verification::ClaimVerdict;
use crate::model::{Method, Status};

/// `ToDb`/`FromDb` by name for a model enum with `as_str` and `FromStr`.
macro_rules! by_name {
    ($($t:ty => $what:literal),* $(,)?) => {$(
        impl ToDb for $t {
            fn to_db(&self) -> Value {
                Value::Text(self.as_str().to_string())
            }
        }

        impl FromDb for $t {
            fn from_db(value: &Value) -> Option<Self> {
                match value {
                    Value::Text(name) => name.parse().ok(),
                    _ => None,
                }
            }
            const NAME: &'static str = $what;
        }
    )*};
}

by_name!(
    Status => "a citation status",
    Method => "an anchor method",
    Verdict => "a citing verdict",
    ClaimVerdict => "a verification verdict",
);

#[cfg(test)]
mod tests {
    use super::super::db::{params, Conn, DbError};
    use super::*;

    fn conn() -> Conn {
        let conn = Conn::Sqlite(rusqlite::Connection::open_in_memory().unwrap());
        conn.batch("CREATE TABLE t (status TEXT, method TEXT)")
            .unwrap();
        conn
    }

    #[test]
    fn every_value_round_trips_through_sqlite_as_its_name() {
        let conn = conn();
        // Each status with a method, and every method at least once.
        let rows: Vec<(Status, Method)> = Method::ALL
            .iter()
            .enumerate()
            .map(|(i, m)| (Status::ALL[i % Status::ALL.len()], *m))
            .collect();
        for (s, m) in &rows {
            conn.execute("INSERT INTO t VALUES (?1, ?2)", params![s, m])
                .unwrap();
        }
        let stored: Vec<(String, String)> = conn
            .query_map("SELECT status, method FROM t ORDER BY rowid", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        let names: Vec<(String, String)> = rows
            .iter()
            .map(|(s, m)| (s.as_str().to_string(), m.as_str().to_string()))
            .collect();
        assert_eq!(stored, names, "stored as the names they always were");
        let read: Vec<(Status, Method)> = conn
            .query_map("SELECT status, method FROM t ORDER BY rowid", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(read, rows);
        // Bound as a parameter, it compares with the column.
        let lost: i64 = conn
            .query_row(
                "SELECT count(*) FROM t WHERE status = ?1",
                params![Status::Lost],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(
            lost,
            rows.iter().filter(|(s, _)| *s == Status::Lost).count() as i64
        );
    }

    #[test]
    fn nulls_and_unknown_names_read_as_none_or_a_clear_error() {
        let conn = conn();
        conn.batch("INSERT INTO t VALUES (NULL, 'teleported'), ('Lost', 'exact')")
            .unwrap();
        let rows = conn
            .query_map("SELECT status, method, 7 FROM t ORDER BY rowid", [], |r| {
                Ok(r.clone())
            })
            .unwrap();
        assert_eq!(rows[0].get::<Option<Status>>(0).unwrap(), None);
        let table: [(DbError, &str); 3] = [
            (
                rows[0].get::<Method>(1).unwrap_err(),
                "column 1: expected an anchor method, found Text(\"teleported\")",
            ),
            (
                rows[1].get::<Status>(0).unwrap_err(),
                "column 0: expected a citation status, found Text(\"Lost\")",
            ),
            (
                rows[1].get::<Option<Method>>(2).unwrap_err(),
                "column 2: expected an anchor method, found Int(7)",
            ),
        ];
        for (err, want) in table {
            assert_eq!(err.to_string(), want);
        }
    }
}
