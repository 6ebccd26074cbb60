//! The sweep's vocabulary: a citation's [`Status`] and the [`Method`] that decided it.
//!
//! Invariants:
//! - These enums are the only place the names are spelled: JSON (serde), the database's
//!   `anchors.status`/`anchors.method` columns (the store binds and reads them), tables and the
//!   command line all use [`Status::as_str`]/[`Method::as_str`] and parse with
//!   [`str::parse`] (see `names.rs`), so the names cannot drift apart.
//! - The names are stored: renaming one needs a migration; adding one needs the database's
//!   `CHECK` constraint (for statuses) to allow it.
//! - [`Status::ALL`] is the one canonical order (best to worst: intact, moved, degraded, lost);
//!   `Ord` follows it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a sweep says about a citation.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The exact text at the same offsets (also every citation no sweep has moved yet).
    #[default]
    Intact,
    /// The exact text at other offsets.
    Moved,
    /// Found only after normalisation, by the diff or by fuzzy alignment, or ambiguously.
    Degraded,
    /// No candidate at or above the review cut-off, or the source is gone.
    Lost,
}

impl Status {
    /// Every status, in the canonical order (best to worst).
    pub const ALL: [Status; 4] = [
        Status::Intact,
        Status::Moved,
        Status::Degraded,
        Status::Lost,
    ];

    /// The statuses `--fail-on` takes: a citation worth failing a job over.
    pub const FAILING: [Status; 2] = [Status::Lost, Status::Degraded];

    /// The lowercase name used in JSON, tables and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Intact => "intact",
            Status::Moved => "moved",
            Status::Degraded => "degraded",
            Status::Lost => "lost",
        }
    }
}

/// Which step placed an anchor, or why a citation has none: every value stored in
/// `anchors.method`, plus [`Method::Cited`] for a citation no sweep has anchored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// The revision's text did not change.
    SameText,
    /// The old chunk's content hash is in the new chunking.
    ContentHash,
    /// Exact search of the span text or the quote.
    Exact,
    /// Exact search in folded space.
    Folded,
    /// Followed through the old → new diff.
    Diff,
    /// Fuzzy alignment.
    Fuzzy,
    /// Nothing placed it (lost).
    None,
    /// Lost because the document's source is missing (written by the sweep's missing rung,
    /// never by re-anchoring).
    Missing,
    /// No sweep has anchored the citation: it is where it was cited (never stored; the state
    /// of a citation without anchors).
    Cited,
}

impl Method {
    /// Every method, re-anchoring's steps first in ladder order.
    pub const ALL: [Method; 9] = [
        Method::SameText,
        Method::ContentHash,
        Method::Exact,
        Method::Folded,
        Method::Diff,
        Method::Fuzzy,
        Method::None,
        Method::Missing,
        Method::Cited,
    ];

    /// The kebab-case name used in JSON, tables and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::SameText => "same-text",
            Method::ContentHash => "content-hash",
            Method::Exact => "exact",
            Method::Folded => "folded",
            Method::Diff => "diff",
            Method::Fuzzy => "fuzzy",
            Method::None => "none",
            Method::Missing => "missing",
            Method::Cited => "cited",
        }
    }
}

/// Counts by status as the JSON outputs carry them: keyed by name, so an object lists them in
/// name order (degraded, intact, lost, moved), as it always has.
pub fn counts_by_name<N>(counts: impl IntoIterator<Item = (Status, N)>) -> BTreeMap<String, N> {
    counts
        .into_iter()
        .map(|(status, n)| (status.as_str().to_string(), n))
        .collect()
}

crate::model::names::by_name!(Status => "status", Method => "method");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_round_trip_by_name_and_serde() {
        let table = [
            (Status::Intact, "intact"),
            (Status::Moved, "moved"),
            (Status::Degraded, "degraded"),
            (Status::Lost, "lost"),
        ];
        assert_eq!(
            table.map(|(s, _)| s),
            Status::ALL,
            "table in canonical order"
        );
        for (status, name) in table {
            assert_eq!(status.as_str(), name);
            assert_eq!(status.to_string(), name);
            assert_eq!(name.parse::<Status>(), Ok(status));
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<Status>(&json).unwrap(), status);
        }
    }

    #[test]
    fn methods_round_trip_by_name_and_serde() {
        let table = [
            (Method::SameText, "same-text"),
            (Method::ContentHash, "content-hash"),
            (Method::Exact, "exact"),
            (Method::Folded, "folded"),
            (Method::Diff, "diff"),
            (Method::Fuzzy, "fuzzy"),
            (Method::None, "none"),
            (Method::Missing, "missing"),
            (Method::Cited, "cited"),
        ];
        assert_eq!(table.map(|(m, _)| m), Method::ALL);
        for (method, name) in table {
            assert_eq!(method.as_str(), name);
            assert_eq!(method.to_string(), name);
            assert_eq!(name.parse::<Method>(), Ok(method));
            let json = serde_json::to_string(&method).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<Method>(&json).unwrap(), method);
        }
    }

    #[test]
    fn the_canonical_order_is_best_to_worst() {
        let mut sorted = Status::ALL;
        sorted.sort();
        assert_eq!(sorted, Status::ALL);
        assert_eq!(Status::default(), Status::Intact);
    }

    #[test]
    fn unknown_names_say_what_was_expected() {
        let table: [(&str, Result<Status, String>); 4] = [
            ("lost", Ok(Status::Lost)),
            (
                "Lost",
                Err(
                    "unknown status \"Lost\" (expected one of: intact, moved, degraded, lost)"
                        .into(),
                ),
            ),
            (
                "",
                Err("unknown status \"\" (expected one of: intact, moved, degraded, lost)".into()),
            ),
            (
                "cited",
                Err(
                    "unknown status \"cited\" (expected one of: intact, moved, degraded, lost)"
                        .into(),
                ),
            ),
        ];
        for (given, want) in table {
            assert_eq!(
                given.parse::<Status>().map_err(|e| e.to_string()),
                want,
                "{given}"
            );
        }
        let err = "same_text".parse::<Method>().unwrap_err().to_string();
        assert!(err.starts_with("unknown method \"same_text\""), "{err}");
        assert!(err.contains("same-text, content-hash"), "{err}");
    }

    #[test]
    fn verdicts_round_trip_by_name_and_serde() {
        use crate::model::citation::Verdict;
        use crate::model::verification::ClaimVerdict;
        fn round_trip<T>(all: &[T], as_str: fn(T) -> &'static str)
        where
            T: Copy + PartialEq + std::fmt::Debug + std::fmt::Display,
            T: std::str::FromStr + serde::Serialize + serde::de::DeserializeOwned,
            <T as std::str::FromStr>::Err: std::fmt::Debug,
        {
            for v in all {
                let name = as_str(*v);
                assert_eq!(v.to_string(), name);
                assert_eq!(name.parse::<T>().unwrap(), *v);
                assert_eq!(serde_json::to_string(v).unwrap(), format!("\"{name}\""));
                assert!(name.to_uppercase().parse::<T>().is_err(), "{name}");
            }
        }
        round_trip(&Verdict::ALL, Verdict::as_str);
        round_trip(&ClaimVerdict::ALL, ClaimVerdict::as_str);
        let names: Vec<&str> = ClaimVerdict::ALL.iter().map(|v| v.as_str()).collect();
        assert_eq!(
            names.join(","),
            "supported,contradicted,unsupported,review,fabricated,ambiguous,unknown-chunk,\
             uncited,unjudged,error"
        );
    }
}
