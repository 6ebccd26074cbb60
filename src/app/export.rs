//! `export`: every citation and where it is now, streamed from one read-only snapshot.
//!
//! Invariants: rows are handed to the caller as the store steps through them, so memory does
//! not grow with the number of citations; a `cite` or `sweep` committing meanwhile is not seen.

use super::Env;
use crate::error::{Error, Result};
use crate::output::{export_line, ExportLine};
use crate::report::w3c::{annotation, Annotation, AnnotationInput};
use crate::store::{Snapshot, Store};
use std::collections::HashMap;

/// Calls `each` with every citation's exported line, in the order they were made.
pub fn run<E: From<Error>>(
    env: &Env,
    mut each: impl FnMut(ExportLine) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut store = Store::open_read(&env.db)?;
    let snapshot = store.read()?;
    snapshot.for_each_citation(|record, state| each(export_line(&snapshot, record, &state)?))
}

/// Calls `each` with every citation as a W3C Web Annotation (`utf16`: with UTF-16 positions
/// too), in the order they were made.
pub fn w3c<E: From<Error>>(
    env: &Env,
    utf16: bool,
    mut each: impl FnMut(Annotation) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut store = Store::open_read(&env.db)?;
    let snapshot = store.read()?;
    let mut revisions = Revisions {
        held: HashMap::new(),
    };
    snapshot.for_each_citation(|record, state| {
        // The span the selectors describe: where the citation is now, or for a lost one the
        // last place it was found (`found_*` is both).
        let anchored = snapshot.anchor_context(record.row)?;
        let as_cited = state.found_revision == record.revision
            && (state.found_start, state.found_end) == (record.start, record.end);
        let stored: Option<(String, String)> = match anchored {
            Some(context) => Some(context),
            None if as_cited => Some((record.prefix.clone(), record.suffix.clone())),
            None => None,
        };
        let (text, date) = revisions.get(&snapshot, &record.doc_id, state.found_revision)?;
        let input = AnnotationInput {
            citation_id: &record.citation_id,
            claim: &record.claim,
            doc_id: &record.doc_id,
            status: state.status,
            revision: state.found_revision,
            revision_date: date,
            text,
            start: state.found_start,
            end: state.found_end,
            stored_context: stored.as_ref().map(|(p, s)| (p.as_str(), s.as_str())),
        };
        each(annotation(&input, utf16))
    })
}

/// A few revisions' texts, as chars: consecutive citations mostly share a document.
struct Revisions {
    held: HashMap<(String, u32), (Vec<char>, String)>,
}

impl Revisions {
    const MOST: usize = 16;

    fn get(
        &mut self,
        snapshot: &Snapshot<'_>,
        doc_id: &str,
        seq: u32,
    ) -> Result<&(Vec<char>, String)> {
        let key = (doc_id.to_string(), seq);
        if !self.held.contains_key(&key) {
            if self.held.len() >= Self::MOST {
                self.held.clear();
            }
            let (text, date) = snapshot.reads().revision_text_dated(doc_id, seq)?;
            self.held
                .insert(key.clone(), (text.chars().collect(), date));
        }
        Ok(&self.held[&key])
    }
}
