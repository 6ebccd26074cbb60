//! Citations as W3C Web Annotations (JSON-LD, <https://www.w3.org/TR/annotation-model/>), so
//! annotation tools (Hypothesis, Apache Annotator, a browser highlighter) can anchor them.
//!
//! One annotation per citation: `body` is the claim (a `TextualBody`); `target.source` is the
//! document id; `target.selector` holds a `TextQuoteSelector` (`exact` = the document's text at
//! the current anchor; `prefix`/`suffix` = the text around it, long enough that
//! prefix + exact + suffix occurs once in the revision) and a `TextPositionSelector` (start and
//! end in code points, as the model says; with `utf16` also in UTF-16 code units, for
//! JavaScript); `target.state` is a `TimeState` naming the revision (`sourceDate` = when it was
//! stored, `citestore:revision` = its number). Terms outside the W3C vocabulary are in the
//! `citestore:` namespace: `citestore:status`, and for a lost citation `citestore:lost`, which
//! says the selectors are its last known place, in an older revision.
//!
//! Invariants: `exact` is the revision's text at `[start, end)` of the position selector;
//! prefix and suffix are the text right before and after it. Pure: the caller reads the store.

use crate::model::Status;
use serde::{Deserialize, Serialize};

/// The JSON-LD context: the W3C annotation context plus the `citestore:` prefix.
pub const W3C_CONTEXT: &str = "http://www.w3.org/ns/anno.jsonld";
/// The IRI the `citestore:` prefix expands to.
pub const CITESTORE_VOCAB: &str = "urn:citestore:vocab#";

/// One Web Annotation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Annotation {
    /// `["http://www.w3.org/ns/anno.jsonld", {"citestore": "urn:citestore:vocab#"}]`.
    #[serde(rename = "@context")]
    pub context: serde_json::Value,
    /// `urn:citestore:citation:<citation id>`.
    pub id: String,
    /// `Annotation`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The claim.
    pub body: TextualBody,
    /// Where the claim's evidence is.
    pub target: Target,
    /// The citation's status now.
    #[serde(rename = "citestore:status")]
    pub status: Status,
    /// For a lost citation: that the selectors are its last known place.
    #[serde(
        rename = "citestore:lost",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub lost: Option<String>,
}

/// The annotation's body: the claim as plain text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextualBody {
    /// `TextualBody`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The claim.
    pub value: String,
    /// `text/plain`.
    pub format: String,
    /// `describing`.
    pub purpose: String,
}

/// The annotation's target: a document, the revision, and the selectors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// The document id.
    pub source: String,
    /// The revision the selectors describe.
    pub state: TimeState,
    /// A `TextQuoteSelector` and a `TextPositionSelector`.
    pub selector: Vec<Selector>,
}

/// The revision, as a W3C `TimeState`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeState {
    /// `TimeState`.
    #[serde(rename = "type")]
    pub kind: String,
    /// When the revision was stored (RFC 3339).
    #[serde(rename = "sourceDate")]
    pub source_date: String,
    /// The revision's number.
    #[serde(rename = "citestore:revision")]
    pub revision: u32,
}

/// A W3C selector.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", deny_unknown_fields)]
pub enum Selector {
    /// The quoted text with context.
    TextQuoteSelector {
        /// The revision's text at the anchor.
        exact: String,
        /// Text right before it.
        prefix: String,
        /// Text right after it.
        suffix: String,
    },
    /// Code-point positions (and, with `--utf16`, UTF-16 positions).
    TextPositionSelector {
        /// Start, code points.
        start: usize,
        /// End (exclusive), code points.
        end: usize,
        /// Start in UTF-16 code units.
        #[serde(
            rename = "citestore:utf16Start",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        utf16_start: Option<usize>,
        /// End in UTF-16 code units.
        #[serde(
            rename = "citestore:utf16End",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        utf16_end: Option<usize>,
    },
}

/// What one annotation is made from.
#[derive(Debug, Clone)]
pub struct AnnotationInput<'a> {
    /// Citation id.
    pub citation_id: &'a str,
    /// The claim.
    pub claim: &'a str,
    /// Document id.
    pub doc_id: &'a str,
    /// Status now.
    pub status: Status,
    /// The revision the span indexes (the current one, or for a lost citation the last one
    /// that held it).
    pub revision: u32,
    /// When that revision was stored.
    pub revision_date: &'a str,
    /// That revision's text, as chars.
    pub text: &'a [char],
    /// The span.
    pub start: usize,
    /// Its end.
    pub end: usize,
    /// Stored context around the span, when a sweep (or `cite`) stored it for this span.
    pub stored_context: Option<(&'a str, &'a str)>,
}

/// The annotation of one citation (see the module docs).
pub fn annotation(input: &AnnotationInput<'_>, utf16: bool) -> Annotation {
    let text = input.text;
    let (start, end) = (input.start.min(text.len()), input.end.min(text.len()));
    let exact: String = text[start..end].iter().collect();
    let (prefix, suffix) = match input.stored_context {
        Some((prefix, suffix)) if fits(text, start, end, prefix, suffix) => {
            (prefix.to_string(), suffix.to_string())
        }
        _ => {
            let whole: String = text.iter().collect();
            let (prefix, _, suffix) = crate::cite::unique_context(&whole, start, end);
            (prefix, suffix)
        }
    };
    let units = |at: usize| text[..at].iter().map(|c| c.len_utf16()).sum::<usize>();
    let lost = (input.status == Status::Lost).then(|| {
        format!(
            "the current revision does not hold the cited text; these selectors are its last \
             known place, in revision {}",
            input.revision
        )
    });
    Annotation {
        context: serde_json::json!([W3C_CONTEXT, {"citestore": CITESTORE_VOCAB}]),
        id: format!("urn:citestore:citation:{}", input.citation_id),
        kind: "Annotation".into(),
        body: TextualBody {
            kind: "TextualBody".into(),
            value: input.claim.to_string(),
            format: "text/plain".into(),
            purpose: "describing".into(),
        },
        target: Target {
            source: input.doc_id.to_string(),
            state: TimeState {
                kind: "TimeState".into(),
                source_date: input.revision_date.to_string(),
                revision: input.revision,
            },
            selector: vec![
                Selector::TextQuoteSelector {
                    exact,
                    prefix,
                    suffix,
                },
                Selector::TextPositionSelector {
                    start,
                    end,
                    utf16_start: utf16.then(|| units(start)),
                    utf16_end: utf16.then(|| units(end)),
                },
            ],
        },
        status: input.status,
        lost,
    }
}

/// True when `prefix` and `suffix` are the text right around `[start, end)`.
fn fits(text: &[char], start: usize, end: usize, prefix: &str, suffix: &str) -> bool {
    let p: Vec<char> = prefix.chars().collect();
    let s: Vec<char> = suffix.chars().collect();
    p.len() <= start
        && end + s.len() <= text.len()
        && text[start - p.len()..start] == p[..]
        && text[end..end + s.len()] == s[..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_describe_the_span_and_utf16_counts_surrogates() {
        let text: Vec<char> = "a😀 b needle c needle d".chars().collect();
        let start = 14; // the second "needle"
        let input = AnnotationInput {
            citation_id: "c-1",
            claim: "claim",
            doc_id: "d.md",
            status: Status::Moved,
            revision: 2,
            revision_date: "2026-01-02T03:04:05Z",
            text: &text,
            start,
            end: start + 6,
            stored_context: Some(("wrong", "context")),
        };
        let a = annotation(&input, true);
        let Selector::TextQuoteSelector {
            exact,
            prefix,
            suffix,
        } = &a.target.selector[0]
        else {
            panic!()
        };
        assert_eq!(exact, "needle");
        let whole: String = text.iter().collect();
        assert_eq!(
            whole.matches(&format!("{prefix}{exact}{suffix}")).count(),
            1
        );
        let Selector::TextPositionSelector {
            utf16_start,
            utf16_end,
            ..
        } = &a.target.selector[1]
        else {
            panic!()
        };
        assert_eq!((*utf16_start, *utf16_end), (Some(15), Some(21)));
        assert!(a.lost.is_none());
    }
}
