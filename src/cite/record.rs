//! Recording contexts and cited answers in the store: the workflow behind `citestore context`,
//! `citestore cite` and `citestore import-anthropic`, usable from Rust without the CLI.
//!
//! Invariants: a context id is content-addressed (the same chunks in the same order are the
//! same context); an answer is recorded once per context (citing it again writes nothing and
//! reports the same citation ids); each call is one transaction.

use super::anthropic::AnthropicImport;
use super::{cite_located, labels, Answer, ApiLocation, ClaimResult, Context, ExternalCitation};
use crate::error::Result;
use crate::store::{CitationIds, Store, StoredChunk};
use crate::text::{normalise::hex, LocateOptions};
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
}

fn short_sha(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update([0u8]);
    }
    hex(&hasher.finalize())[..12].to_string()
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

/// Cites an Anthropic response read by [`super::anthropic::read_response`] against the recorded
/// context `context_id` and stores it (once): the citations, each API location beside the
/// evidence it became (with whether our text agreed), and the web citations as external ones.
/// The library path of `citestore import-anthropic`.
pub fn import_and_record(
    store: &mut Store,
    context_id: &str,
    import: &AnthropicImport,
    options: &LocateOptions,
    now: &str,
) -> Result<CiteReport> {
    record_cited(
        store,
        context_id,
        &import.answer,
        &import.locations,
        &import.external,
        "anthropic",
        options,
        now,
    )
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
    let mut canonical = serde_json::to_string(answer).expect("plain data serialises");
    if locations.iter().flatten().any(Option::is_some) || external.iter().any(|e| !e.is_empty()) {
        // The same quotes with other locations are another import.
        let raw: Vec<Vec<Option<&serde_json::Value>>> = locations
            .iter()
            .map(|l| l.iter().map(|l| l.as_ref().map(|l| &l.raw)).collect())
            .collect();
        let ext: Vec<Vec<&serde_json::Value>> = external
            .iter()
            .map(|e| e.iter().map(|e| &e.raw).collect())
            .collect();
        canonical.push_str(&serde_json::to_string(&(raw, ext)).expect("plain data serialises"));
    }
    let answer_sha = short_sha(&[&canonical]);
    let citation_ids: CitationIds = claims
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
                        format!("c-{}", short_sha(&[context_id, &answer_sha, &ci, &ei]))
                    })
                })
                .collect()
        })
        .collect();
    // Idempotent by the store's unique (context, answer hash): a second cite of the same
    // answer, even one racing this one from another machine, records nothing.
    let recorded = writer.record_answer(
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
    Ok(CiteReport {
        context_id: context_id.to_string(),
        claims,
        citation_ids,
        already_recorded,
    })
}
