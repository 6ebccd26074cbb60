//! A provider's name for a source, mapped onto the context's chunks: the name the caller gave
//! the source when sending it (a chunk's label, chunk id or caller id, or its document's id),
//! or a URI or path whose last segment is the document's id. What it names nothing of stays the
//! provider's name, so the evidence is `unknown-chunk` with that name in its reason.

use crate::cite::proposal::best_chunk;
use crate::cite::Context;
use crate::model::citation::Evidence;
use crate::text::{Haystack, How, LocateOptions};

/// The context chunks `name` means, in context order: one chunk by label, chunk id or caller
/// id; every chunk of a document by its id, or by a URI's or path's last segment.
pub(super) fn chunks_named(context: &Context, name: &str) -> Vec<usize> {
    if let Some(i) = context.resolve(name) {
        return vec![i];
    }
    let by = |test: &dyn Fn(&crate::cite::ContextChunk) -> bool| -> Vec<usize> {
        (0..context.chunks.len())
            .filter(|&i| test(&context.chunks[i]))
            .collect()
    };
    let callers = by(&|c| c.caller_id.as_deref() == Some(name));
    if !callers.is_empty() {
        return callers;
    }
    let docs = by(&|c| c.doc_id == name);
    if !docs.is_empty() {
        return docs;
    }
    match name.trim_end_matches('/').rsplit_once(['/', '\\']) {
        Some((_, last)) if !last.is_empty() => {
            by(&|c| c.doc_id == last || c.doc_id.rsplit_once('/').is_some_and(|(_, l)| l == last))
        }
        _ => Vec::new(),
    }
}

/// The evidence a source gives a claim: `quote` from the chunk of the source that holds it, or,
/// with no quote, the source's chunk whose sentence best matches the claim, whole. `names` are
/// the provider's names for the source, the first that names a chunk used; when none does,
/// the quote's only holder in the whole context is named, else the first name as given.
pub(super) fn evidence(
    context: &Context,
    names: &[&str],
    claim: &str,
    quote: Option<&str>,
) -> Evidence {
    let named = names
        .iter()
        .map(|n| chunks_named(context, n))
        .find(|c| !c.is_empty())
        .unwrap_or_default();
    let given = names.first().copied().unwrap_or_default();
    let id = |i: usize| context.chunks[i].chunk_id.clone();
    match quote {
        Some(quote) => {
            let holders = if named.is_empty() {
                holders(
                    context,
                    &(0..context.chunks.len()).collect::<Vec<_>>(),
                    quote,
                )
            } else {
                holders(context, &named, quote)
            };
            let chunk = match (holders.as_slice(), named.first()) {
                ([one], _) => id(*one),
                (_, Some(&first)) => id(holders.first().copied().unwrap_or(first)),
                (_, None) => given.to_string(),
            };
            Evidence::quoted(chunk, quote)
        }
        None => match best_chunk(&context.chunks, &named, claim) {
            Some(i) => Evidence::chunk_only(id(i)),
            None => Evidence::chunk_only(given),
        },
    }
}

/// The chunks of `among` in which `quote` is found (not only as a review candidate).
fn holders(context: &Context, among: &[usize], quote: &str) -> Vec<usize> {
    let options = LocateOptions::default();
    among
        .iter()
        .copied()
        .filter(|&i| {
            Haystack::new(&context.chunks[i].text)
                .locate(quote, &options)
                .is_some_and(|l| l.how != How::Review)
        })
        .collect()
}
