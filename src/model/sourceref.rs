//! The citation record (seed 000): `SourceRef`, and `Cited<T>`, a value that carries its sources
//! or says explicitly why it has none.
//!
//! Invariants: `start < end` are `char` offsets into the raw text of `revision` of `doc_id`;
//! `content_hash` is the v1 hash of the chunk the citation was made from. A `Cited<T>` is either
//! backed by at least one `SourceRef` or marked `Uncited` with a reason: there is no third way to
//! build one (the source list's field is private and its only constructors take a first source).

use serde::{Deserialize, Serialize};

/// Where a cited span lives: stable document id, content hash, offsets and revision.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceRef {
    /// Stable document id; survives re-chunking, re-embedding and re-ranking.
    pub doc_id: String,
    /// Lowercase hex SHA-256 of the v1-normalised text of the chunk cited from.
    pub content_hash: String,
    /// Start, in chars of the revision's raw text.
    pub start: usize,
    /// End (exclusive), in chars of the revision's raw text.
    pub end: usize,
    /// The document revision (1, 2, …) the offsets index into.
    pub revision: u32,
}

/// A non-empty list of sources.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Sources(Vec<SourceRef>);

impl Sources {
    /// A list holding `first` and then `more`.
    pub fn new(first: SourceRef, more: impl IntoIterator<Item = SourceRef>) -> Self {
        let mut all = vec![first];
        all.extend(more);
        Sources(all)
    }

    /// `None` for an empty list.
    pub fn from_vec(all: Vec<SourceRef>) -> Option<Self> {
        (!all.is_empty()).then_some(Sources(all))
    }

    /// The sources, never empty.
    pub fn as_slice(&self) -> &[SourceRef] {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Sources {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let all = Vec::<SourceRef>::deserialize(d)?;
        Sources::from_vec(all).ok_or_else(|| {
            serde::de::Error::custom("a cited value needs at least one source; use uncited")
        })
    }
}

/// What backs a value: its sources, or the reason it has none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "support")]
pub enum Support {
    /// Backed by these spans, read together as one premise.
    Cited {
        /// At least one source.
        sources: Sources,
    },
    /// Deliberately without a source (an inference, arithmetic, or nothing retrieved says it).
    Uncited {
        /// Why; shown to the reader and to checks that iterate over sentences.
        reason: String,
    },
}

/// A value (a claim, a sentence) with its support.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cited<T> {
    /// The value.
    pub value: T,
    /// Its sources, or why it has none.
    #[serde(flatten)]
    pub support: Support,
}

impl<T> Cited<T> {
    /// A value backed by `first` and `more`.
    pub fn with_sources(
        value: T,
        first: SourceRef,
        more: impl IntoIterator<Item = SourceRef>,
    ) -> Self {
        Cited {
            value,
            support: Support::Cited {
                sources: Sources::new(first, more),
            },
        }
    }

    /// A value explicitly without a source.
    pub fn uncited(value: T, reason: impl Into<String>) -> Self {
        Cited {
            value,
            support: Support::Uncited {
                reason: reason.into(),
            },
        }
    }

    /// The sources, or `None` when uncited.
    pub fn sources(&self) -> Option<&[SourceRef]> {
        match &self.support {
            Support::Cited { sources } => Some(sources.as_slice()),
            Support::Uncited { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source() -> SourceRef {
        SourceRef {
            doc_id: "pricing.md".into(),
            content_hash: "ab".repeat(32),
            start: 10,
            end: 20,
            revision: 2,
        }
    }

    #[test]
    fn source_ref_json_uses_the_public_field_names() {
        let json = serde_json::to_value(source()).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["contentHash", "docId", "end", "revision", "start"]);
    }

    #[test]
    fn cited_round_trips_and_refuses_empty_sources() {
        let claim = Cited::with_sources("Growth overage is $0.12".to_string(), source(), []);
        let json = serde_json::to_string(&claim).unwrap();
        let back: Cited<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, claim);
        let empty = r#"{"value": "x", "support": "cited", "sources": []}"#;
        let err = serde_json::from_str::<Cited<String>>(empty).unwrap_err();
        assert!(err.to_string().contains("at least one source"), "{err}");
        let uncited = Cited::uncited(
            "cheapest for 800k calls",
            "arithmetic over two cited numbers",
        );
        assert!(uncited.sources().is_none());
    }
}
