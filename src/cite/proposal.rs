//! The sentence of a chunk that best matches a claim: what citestore proposes when a provider
//! names a chunk but quotes nothing (Cohere, Gemini without retrieved text, OpenAI's
//! `file_citation`). A proposal is shown for a person to confirm; it is never a located quote.
//!
//! Invariants: a proposal is one sentence of the chunk (Unicode sentence boundaries, UAX #29),
//! trimmed of whitespace, in revision coordinates; its score is the share of the claim's
//! distinct words (folded, lowercase) the sentence holds, 0–100; no sentence sharing a word
//! with the claim, no proposal.

use crate::model::citation::{ContextChunk, Proposal};
use crate::text::fold_text;
use std::collections::HashSet;
use unicode_segmentation::UnicodeSegmentation;

/// The distinct words of `text`, folded and lowercased.
fn words(text: &str) -> HashSet<String> {
    fold_text(text)
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The sentence of `chunk` holding the largest share of `claim`'s words, if any shares one.
pub fn propose(chunk: &ContextChunk, claim: &str) -> Option<Proposal> {
    let wanted = words(claim);
    if wanted.is_empty() {
        return None;
    }
    let mut best: Option<(f64, usize, usize)> = None;
    for (byte, sentence) in chunk.text.split_sentence_bound_indices() {
        let shared = words(sentence).intersection(&wanted).count();
        let score = 100.0 * shared as f64 / wanted.len() as f64;
        let trimmed = sentence.trim();
        if shared == 0 || trimmed.is_empty() || best.is_some_and(|(s, _, _)| s >= score) {
            continue;
        }
        let lead = sentence.len() - sentence.trim_start().len();
        let from = byte + lead;
        best = Some((score, from, from + trimmed.len()));
    }
    let (score, from, to) = best?;
    let start = chunk.start + chunk.text[..from].chars().count();
    let text = chunk.text[from..to].to_string();
    let end = start + text.chars().count();
    Some(Proposal {
        start,
        end,
        text,
        score: (score * 10.0).round() / 10.0,
    })
}

/// Of the context chunks `candidates` (a provider's source naming a whole document), the one
/// whose best sentence matches `claim` best; the first on a tie or when none matches.
pub fn best_chunk(chunks: &[ContextChunk], candidates: &[usize], claim: &str) -> Option<usize> {
    let score = |&i: &usize| propose(&chunks[i], claim).map_or(0.0, |p| p.score);
    let mut best: Option<(usize, f64)> = None;
    for i in candidates {
        let s = score(i);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((*i, s));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(text: &str, start: usize) -> ContextChunk {
        ContextChunk {
            label: "l".into(),
            chunk_id: "c".into(),
            doc_id: "d".into(),
            revision: 1,
            content_hash: String::new(),
            normaliser: String::new(),
            start,
            end: start + text.chars().count(),
            text: text.into(),
            caller_id: None,
        }
    }

    #[test]
    fn the_sentence_holding_most_of_the_claims_words_is_proposed() {
        let c = chunk(
            "Penguins swim. Emperor penguins are the tallest, at 1.1 m. Adélie penguins are small.",
            10,
        );
        // (claim, proposed text, score)
        let cases = [
            (
                "The tallest are Emperor penguins",
                Some("Emperor penguins are the tallest, at 1.1 m."),
                100.0,
            ),
            (
                "Adélie ones are small",
                Some("Adélie penguins are small."),
                75.0,
            ),
            ("nothing shared", None, 0.0),
        ];
        for (claim, want, score) in cases {
            let got = propose(&c, claim);
            assert_eq!(got.as_ref().map(|p| p.text.as_str()), want, "{claim}");
            if let Some(p) = got {
                assert_eq!(p.score, score, "{claim}");
                let at: String = c
                    .text
                    .chars()
                    .skip(p.start - 10)
                    .take(p.end - p.start)
                    .collect();
                assert_eq!(at, p.text, "revision coordinates");
            }
        }
    }

    #[test]
    fn the_chunk_with_the_best_sentence_is_chosen() {
        let chunks = [
            chunk("Seals bark.", 0),
            chunk("Emperor penguins are tall.", 12),
        ];
        assert_eq!(best_chunk(&chunks, &[0, 1], "emperor penguins"), Some(1));
        assert_eq!(best_chunk(&chunks, &[0, 1], "zebras"), Some(0));
        assert_eq!(best_chunk(&chunks, &[], "zebras"), None);
    }
}
