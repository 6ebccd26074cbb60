//! Recording contexts and cited answers in the store: the workflow behind `citestore context`,
//! `citestore cite` and `citestore import-anthropic`, usable from Rust without the CLI.
//!
//! Invariants: a context id is content-addressed (the same chunks in the same order are the
//! same context); an answer is recorded once per context, known by what citestore reads of it
//! ([`answer_key`]), so the same answer or response as a dict, JSON text or an SDK's dump is
//! one answer (citing it again writes nothing and reports the same citation ids); each call is
//! one transaction.

use super::anthropic;
use super::providers::{Format, Import};
use super::{cite_located, labels, Answer, ApiLocation, ClaimResult, Context, ExternalCitation};
use crate::error::Result;
use crate::store::{CitationIds, Store, StoredChunk};
use crate::text::{normalise::hex, LocateOptions};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// What a context is made of, in retrieval order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkSelector {
    /// Every chunk of the document's current chunking.
    Doc(String),
    /// One chunk by id.
    Chunk(String),
}

/// The result of citing one answer.
#[derive(Debug, Clone)]
pub struct CiteReport {
    /// The context cited against.
    pub context_id: String,
    /// Claims in the answer's order.
    pub claims: Vec<ClaimResult>,
    /// `citation_ids[claim][evidence]`, `None` where nothing was located.
    pub citation_ids: CitationIds,
    /// True when this answer had been cited against this context before (nothing written).
    pub already_recorded: bool,
    /// The context's chunks by the names a model and a caller know them by, in order.
    pub chunks: Vec<ChunkName>,
    /// The answer's text as the provider wrote it, when its claims index it.
    pub answer_text: Option<String>,
}

/// A context chunk's names: the label the model cites, citestore's chunk id, the caller's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkName {
    /// The label shown to the model.
    pub label: String,
    /// citestore's chunk id.
    pub chunk_id: String,
    /// The caller's own id of a chunk they made, else `None`.
    pub caller_id: Option<String>,
}

impl CiteReport {
    /// The context chunk a model's `chunk_id` names (a label, or a chunk id), if any: the rule
    /// of [`crate::model::citation::Context::resolve`].
    pub fn chunk_named(&self, given: &str) -> Option<&ChunkName> {
        self.chunks
            .iter()
            .find(|c| c.label == given)
            .or_else(|| self.chunks.iter().find(|c| c.chunk_id == given))
    }

    /// The context chunk with citestore's id `chunk_id`, if any.
    pub fn chunk_by_id(&self, chunk_id: &str) -> Option<&ChunkName> {
        self.chunks.iter().find(|c| c.chunk_id == chunk_id)
    }
}

fn short_sha(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update([0u8]);
    }
    hex(&hasher.finalize())[..12].to_string()
}

/// The key an answer is stored and known by (12 hex of SHA-256): what citestore reads of it,
/// never its text as given. The parsed claims and evidence; and, when an import carries API
/// citations (`locations[claim][evidence]`, `external[claim]`), each as
/// [`anthropic::citation_key`] reads it, since the same quotes at other locations are another
/// import. So whitespace, key order, `null`s and fields citestore does not read (what an SDK's
/// `model_dump()` adds) cannot make one response two answers.
///
/// An answer without API citations has the key it always had (the parsed answer alone). An
/// import's key was once made of the citation objects as received; such rows keep their key
/// (their citation ids are made of it) and are found by what is stored beside them
/// ([`crate::store::Writer::recorded_answer_key`]), so a response imported before this key, and
/// again after it in any form, is still one answer. No migration re-keys them: the key needs the
/// JSON read and hashed as here, which SQL on either backend cannot do, and a new key would
/// orphan the citation ids already handed out.
pub fn answer_key(
    answer: &Answer,
    locations: &[Vec<Option<&Value>>],
    external: &[Vec<&Value>],
) -> String {
    let mut canonical = serde_json::to_string(answer).expect("plain data serialises");
    if locations.iter().flatten().any(Option::is_some) || external.iter().any(|e| !e.is_empty()) {
        let read: Vec<Vec<Option<Value>>> = locations
            .iter()
            .map(|l| l.iter().map(|l| l.map(anthropic::citation_key)).collect())
            .collect();
        let web: Vec<Vec<Value>> = external
            .iter()
            .map(|e| e.iter().copied().map(anthropic::citation_key).collect())
            .collect();
        canonical.push_str(&serde_json::to_string(&(read, web)).expect("plain data serialises"));
    }
    short_sha(&[&canonical])
}

/// [`answer_key`] of a stored answer whose parsed body is `answer`, from the API citation
/// objects stored beside it (`(claim, evidence, object)`, `(claim, object)`), laid out as an
/// import lays them: one entry per claim, one per evidence string.
fn stored_key(
    answer: &Answer,
    locations: &[(usize, usize, Value)],
    external: &[(usize, Value)],
) -> String {
    let mut located: Vec<Vec<Option<&Value>>> = answer
        .claims
        .iter()
        .map(|c| vec![None; c.evidence.len()])
        .collect();
    let mut web: Vec<Vec<&Value>> = vec![Vec::new(); answer.claims.len()];
    for (claim, evidence, raw) in locations {
        if let Some(slot) = located.get_mut(*claim).and_then(|c| c.get_mut(*evidence)) {
            *slot = Some(raw);
        }
    }
    for (claim, raw) in external {
        if let Some(claim) = web.get_mut(*claim) {
            claim.push(raw);
        }
    }
    answer_key(answer, &located, &web)
}

/// Records the context made of `selectors` (deduplicated, first occurrence kept) and returns it
/// with its labels, texts and revisions.
pub fn record_context(
    store: &mut Store,
    selectors: &[ChunkSelector],
    now: &str,
) -> Result<Context> {
    let writer = store.writer()?;
    let mut chunks: Vec<StoredChunk> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for selector in selectors {
        let found = match selector {
            ChunkSelector::Doc(doc_id) => writer.current_chunks(doc_id)?,
            ChunkSelector::Chunk(chunk_id) => vec![writer.chunk_by_id(chunk_id)?],
        };
        for chunk in found {
            if seen.insert(chunk.chunk_id.clone()) {
                chunks.push(chunk);
            }
        }
    }
    let ids: Vec<String> = chunks.iter().map(|c| c.chunk_id.clone()).collect();
    let id_refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let context_id = format!("ctx-{}", short_sha(&id_refs));
    let labels = labels::assign(&context_id, &ids);
    writer.record_context(&context_id, &chunks, &labels, now)?;
    let context = writer.load_context(&context_id)?;
    writer.commit()?;
    Ok(context)
}

/// Cites `answer` against the recorded context `context_id` and stores the results (once).
pub fn cite_and_record(
    store: &mut Store,
    context_id: &str,
    answer: &Answer,
    source: &str,
    options: &LocateOptions,
    now: &str,
) -> Result<CiteReport> {
    record_cited(store, context_id, answer, &[], &[], source, options, now)
}

/// Cites a provider's response read by [`super::providers::read`] (in `format`) against the
/// recorded context `context_id` and stores it (once): the citations, each claim's place in
/// the answer, each API location beside the evidence it became (with whether our text agreed),
/// and the web citations as external ones. The library path of `citestore import`.
pub fn import_and_record(
    store: &mut Store,
    context_id: &str,
    format: Format,
    import: &Import,
    options: &LocateOptions,
    now: &str,
) -> Result<CiteReport> {
    record_cited(
        store,
        context_id,
        &import.answer,
        &import.locations,
        &import.external,
        format.as_str(),
        options,
        now,
    )
}

/// The id of each located evidence string: made of the context, the answer's key and the
/// evidence string's place, so citing the same answer again gives the same ids.
fn citation_ids(context_id: &str, answer_sha: &str, claims: &[ClaimResult]) -> CitationIds {
    claims
        .iter()
        .enumerate()
        .map(|(ci, claim)| {
            claim
                .evidence
                .iter()
                .enumerate()
                .map(|(ei, ev)| {
                    ev.span.as_ref().map(|_| {
                        let (ci, ei) = (ci.to_string(), ei.to_string());
                        format!("c-{}", short_sha(&[context_id, answer_sha, &ci, &ei]))
                    })
                })
                .collect()
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn record_cited(
    store: &mut Store,
    context_id: &str,
    answer: &Answer,
    locations: &[Vec<Option<ApiLocation>>],
    external: &[Vec<ExternalCitation>],
    source: &str,
    options: &LocateOptions,
    now: &str,
) -> Result<CiteReport> {
    let writer = store.writer()?;
    let context = writer.load_context(context_id)?;
    let mut claims = cite_located(&context, answer, locations, options);
    for (claim, ext) in claims.iter_mut().zip(external) {
        claim.external = ext.clone();
    }
    let located: Vec<Vec<Option<&Value>>> = locations
        .iter()
        .map(|l| l.iter().map(|l| l.as_ref().map(|l| &l.raw)).collect())
        .collect();
    let web: Vec<Vec<&Value>> = external
        .iter()
        .map(|e| e.iter().map(|e| &e.raw).collect())
        .collect();
    let key = answer_key(answer, &located, &web);
    let rekey = |l: &[(usize, usize, Value)], e: &[(usize, Value)]| stored_key(answer, l, e);
    let stored = writer.recorded_answer_key(context_id, answer, &key, rekey)?;
    // An answer stored before keeps the key it was stored under: its citation ids are made of
    // it.
    let answer_sha = stored.clone().unwrap_or(key);
    let citation_ids = citation_ids(context_id, &answer_sha, &claims);
    // Idempotent by the store's unique (context, answer hash): a second cite of the same
    // answer, even one racing this one from another machine, records nothing.
    let recorded = stored.is_none()
        && writer.record_answer(
            context_id,
            answer,
            &answer_sha,
            source,
            &claims,
            &citation_ids,
            now,
        )?;
    writer.commit()?;
    let already_recorded = !recorded;
    let chunks = context
        .chunks
        .iter()
        .map(|c| ChunkName {
            label: c.label.clone(),
            chunk_id: c.chunk_id.clone(),
            caller_id: c.caller_id.clone(),
        })
        .collect();
    Ok(CiteReport {
        context_id: context_id.to_string(),
        claims,
        citation_ids,
        already_recorded,
        chunks,
        answer_text: answer.text.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::ingest::{text, TextRequest};
    use crate::app::Env;
    use crate::cite::anthropic::{read_response, Sent};
    use crate::cite::{Claim, Evidence};
    use crate::clock::FixedClock;
    use crate::config::Config;
    use crate::store::Location;
    use serde_json::json;

    const NOW: &str = "2026-01-02T03:04:05Z";

    fn answer() -> Answer {
        Answer {
            text: None,
            claims: vec![Claim {
                answer_span: None,
                text: "the sky is blue".into(),
                evidence: vec![Evidence {
                    unquoted: false,
                    chunk_id: "d.txt@r1#0-36".into(),
                    quote: "The sky is blue.".into(),
                }],
            }],
        }
    }

    /// A char location and a web search result, as a dict would give them.
    fn given() -> (Value, Value) {
        (
            json!({"type": "char_location", "cited_text": "The sky is blue.",
                   "document_index": 0, "start_char_index": 20, "end_char_index": 36}),
            json!({"type": "web_search_result_location", "cited_text": "x",
                   "url": "https://example.org/", "title": "Example"}),
        )
    }

    fn key_of(location: &Value, web: &Value) -> String {
        answer_key(&answer(), &[vec![Some(location)]], &[vec![web]])
    }

    #[test]
    fn the_key_is_what_is_read_not_the_text_as_given() {
        let (location, web) = given();
        let key = key_of(&location, &web);
        // As the Anthropic SDK's model_dump() gives them: nulls and fields we do not read.
        let dumped = (
            json!({"cited_text": "The sky is blue.", "document_index": 0, "document_title": null,
                   "end_char_index": 36, "file_id": null, "start_char_index": 20,
                   "type": "char_location"}),
            json!({"cited_text": "x", "encrypted_index": "abc", "title": "Example",
                   "type": "web_search_result_location", "url": "https://example.org/"}),
        );
        assert_eq!(key_of(&dumped.0, &dumped.1), key, "nulls and unread fields");
        // What is read tells imports apart: other offsets, another page.
        let mut moved = location.clone();
        moved["start_char_index"] = 19.into();
        assert_ne!(key_of(&moved, &web), key, "another location");
        let mut other_url = web.clone();
        other_url["url"] = "https://example.com/".into();
        assert_ne!(key_of(&location, &other_url), key, "another page");
        // An answer without API citations keeps the key it always had: its parsed form alone.
        let plain = serde_json::to_string(&answer()).unwrap();
        assert_eq!(answer_key(&answer(), &[], &[]), short_sha(&[&plain]));
        assert_eq!(
            answer_key(&answer(), &[vec![None]], &[vec![]]),
            short_sha(&[&plain])
        );
    }

    #[test]
    fn a_stored_answer_is_rekeyed_as_an_import_lays_it_out() {
        let (location, web) = given();
        let stored = stored_key(&answer(), &[(0, 0, location.clone())], &[(0, web.clone())]);
        assert_eq!(stored, key_of(&location, &web));
        assert_eq!(
            stored_key(&answer(), &[], &[]),
            answer_key(&answer(), &[], &[])
        );
    }

    /// The key an import had before keys were made of what is read: the citation objects as
    /// received.
    fn legacy_key(answer: &Answer, located: &[Vec<Option<&Value>>], web: &[Vec<&Value>]) -> String {
        let mut canonical = serde_json::to_string(answer).unwrap();
        canonical.push_str(&serde_json::to_string(&(located, web)).unwrap());
        short_sha(&[&canonical])
    }

    #[test]
    fn an_import_stored_under_its_old_key_is_found_and_keeps_its_ids() {
        let dir = tempfile::tempdir().unwrap();
        let location = Location::from(dir.path().join("s.db"));
        let clock = Box::new(FixedClock::parse(NOW).unwrap());
        let env = Env::with_clock(location.clone(), Config::default(), clock);
        drop(Store::open(&location).unwrap());
        let request = TextRequest {
            doc_id: "d.txt".into(),
            text: "The grass is green. The sky is blue.".into(),
            chunker: Some("paragraph:2000".parse().unwrap()),
            chunks: None,
        };
        text(&env, &request).unwrap();
        let mut store = Store::open_existing(&location).unwrap();
        let doc = ChunkSelector::Doc("d.txt".into());
        let context = record_context(&mut store, &[doc], NOW).unwrap();
        let response = |citation: Value| {
            let response = json!({"content": [{"type": "text", "text": "the sky is blue",
                                               "citations": [citation]}]});
            read_response(&response.to_string(), &context, Sent::Documents).unwrap()
        };
        // Stored as the release before this key did: under the hash of the citation as given,
        // here as an SDK's dump gives it.
        let mut dumped = given().0;
        dumped["document_title"] = "Sky".into();
        dumped["file_id"] = Value::Null;
        let before = response(dumped.clone());
        let old = legacy_key(&before.answer, &[vec![Some(&dumped)]], &[vec![]]);
        let options = LocateOptions::default();
        let cited = cite_located(&context, &before.answer, &before.locations, &options);
        let ids = citation_ids(&context.id, &old, &cited);
        let writer = store.writer().unwrap();
        let written = writer.record_answer(
            &context.id,
            &before.answer,
            &old,
            "anthropic",
            &cited,
            &ids,
            NOW,
        );
        assert!(written.unwrap());
        writer.commit().unwrap();
        // The same response as a dict, after the upgrade: another key, yet found by what was
        // stored beside the old one; nothing written, the ids handed out before.
        let dict = response(given().0);
        let (plain, _) = given();
        assert_ne!(
            answer_key(&dict.answer, &[vec![Some(&plain)]], &[vec![]]),
            old
        );
        let report = import_and_record(
            &mut store,
            &context.id,
            Format::Anthropic,
            &dict,
            &options,
            NOW,
        )
        .unwrap();
        assert!(report.already_recorded);
        assert_eq!(report.citation_ids, ids);
        assert!(ids[0][0].is_some(), "located");
        // Other offsets are another import.
        let mut moved = given().0;
        moved["start_char_index"] = 19.into();
        let other = import_and_record(
            &mut store,
            &context.id,
            Format::Anthropic,
            &response(moved),
            &options,
            NOW,
        );
        assert!(!other.unwrap().already_recorded);
    }
}
