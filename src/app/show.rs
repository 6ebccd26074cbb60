//! `show`: one citation, where it was, where it is, and how it got there; read read-only.

use super::Env;
use crate::error::Result;
use crate::model::Status;
use crate::output::{current, Current, LocationOutput};
use crate::store::{AnchorRow, CitationRecord, Store, VerificationRow};
use serde::{Deserialize, Serialize};
use similar::{ChangeTag, TextDiff};

/// Which citation.
#[derive(Debug, Clone)]
pub struct ShowRequest {
    /// The citation id (`c-…`).
    pub citation: String,
}

/// What `show --json` prints, one JSON object.
///
/// Fields: `id` (the citation id, as in `export`), `citation` (the stored citation: its
/// `citation_id` (= `id`), claim, quote, SourceRef and context), `status`, `current` (as in
/// `export`, `null` when lost), `current_text`, `changes`, `history`, `verifications`,
/// `report_anchor`.
#[derive(Debug, Serialize, Deserialize)]
pub struct ShowOutput {
    /// Citation id (`citation.citation_id`), the name every command uses.
    pub id: String,
    /// The stored citation (the original SourceRef and its context).
    pub citation: CitationRecord,
    /// intact, moved, degraded or lost.
    pub status: Status,
    /// The current anchor; `null` when lost.
    pub current: Option<Current>,
    /// The current revision's text at the current anchor.
    pub current_text: Option<String>,
    /// Original span text → current text, removed `[-…-]`, added `{+…+}`.
    pub changes: Option<String>,
    /// Every anchors row, oldest first.
    pub history: Vec<AnchorRow>,
    /// The claim's verifications, oldest first.
    pub verifications: Vec<VerificationRow>,
    /// Its anchor in a `citestore report` page (`#c-…`).
    pub report_anchor: String,
    /// For a citation imported from an API response: the API's own location and whether our
    /// text agreed (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_location: Option<LocationOutput>,
    /// True when the provider named the chunk but gave no quote (the citation is the whole
    /// chunk, `review`): `citation.quote` is then the chunk's text, not a quote.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unquoted: bool,
    /// For such a citation: the chunk's sentence proposed for a person to confirm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposal: Option<crate::output::ProposalOutput>,
}

/// A citation shown: what `--json` prints, and the text around its current anchor for a
/// reader (not in the JSON).
#[derive(Debug)]
pub struct Shown {
    /// The JSON shape.
    pub output: ShowOutput,
    /// Up to [`AROUND`] chars before and after the current anchor; `None` when lost.
    pub around: Option<(String, String)>,
}

/// How many chars of context [`Shown::around`] holds on each side.
pub const AROUND: usize = 40;

fn slice(chars: &[char], start: usize, end: usize) -> String {
    let end = end.min(chars.len());
    chars[start.min(end)..end].iter().collect()
}

fn marked_changes(old: &str, new: &str) -> String {
    let diff = TextDiff::from_chars(old, new);
    let mut out = String::new();
    for change in diff.iter_all_changes() {
        let (open, close) = match change.tag() {
            ChangeTag::Equal => ("", ""),
            ChangeTag::Delete => ("[-", "-]"),
            ChangeTag::Insert => ("{+", "+}"),
        };
        out.push_str(open);
        out.push_str(change.value());
        out.push_str(close);
    }
    out.replace("-][-", "").replace("+}{+", "")
}

/// Reads one citation, its current anchor and text, history and verifications.
pub fn run(env: &Env, req: &ShowRequest) -> Result<Shown> {
    let store = Store::open_read(&env.db)?;
    let citation = store.citation(&req.citation)?;
    let state = store
        .all_states(Some(&citation.doc_id))?
        .into_iter()
        .find(|s| s.row == citation.row)
        .expect("every citation has a state");
    let current = current(&state, |doc, seq, start, end| {
        store.reads().chunk_holding(doc, seq, start, end)
    })?;
    let (current_text, around) = match &current {
        Some(c) => {
            let text: Vec<char> = store
                .text_of(&citation.doc_id, c.revision)?
                .chars()
                .collect();
            let before = slice(&text, c.start.saturating_sub(AROUND), c.start);
            let after = slice(&text, c.end, c.end + AROUND);
            (Some(slice(&text, c.start, c.end)), Some((before, after)))
        }
        None => (None, None),
    };
    let changes = current_text
        .as_ref()
        .filter(|t| **t != citation.span_text)
        .map(|t| marked_changes(&citation.span_text, t));
    let api_location = match store.api_location(citation.row)? {
        Some(l) => Some(LocationOutput {
            kind: l.kind,
            agreement: l.agreement,
            note: l.note,
            api: serde_json::from_str(&l.location).map_err(|e| crate::error::Error::Database {
                path: env.db.to_string().into(),
                message: format!("stored API location: {e}"),
            })?,
        }),
        None => None,
    };
    let unquoted = store.unquoted_evidence(citation.row)?;
    let proposal = unquoted
        .clone()
        .flatten()
        .map(|p| crate::output::ProposalOutput {
            start: p.start,
            end: p.end,
            text: p.text,
            score: p.score,
        });
    let output = ShowOutput {
        api_location,
        unquoted: unquoted.is_some(),
        proposal,
        id: citation.citation_id.clone(),
        report_anchor: format!("#{}", crate::report::anchor(&citation.citation_id)),
        history: store.anchor_history(citation.row)?,
        verifications: store.claim_verifications(citation.claim_row)?,
        status: state.status,
        citation,
        current,
        current_text,
        changes,
    };
    Ok(Shown { output, around })
}
