//! Short opaque labels for the chunks of a context (seed 000): the model cites by label, the
//! store maps a label back to the full SourceRef.
//!
//! Invariants: a label is derived from the context id and the chunk id alone, so it reveals
//! nothing about retrieval order or rank; labels are unique within a context; they use letters
//! and digits that cannot be confused (no `0/o`, `1/l/i`), and never contain `#` or `@`, so
//! they cannot collide with chunk ids.

use sha2::{Digest, Sha256};

const ALPHABET: &[u8; 31] = b"abcdefghjkmnpqrstuvwxyz23456789";
const MIN_LEN: usize = 4;

fn label_of(context_id: &str, chunk_id: &str, len: usize) -> String {
    let digest = Sha256::digest(format!("{context_id}\u{0}{chunk_id}").as_bytes());
    digest
        .iter()
        .take(len)
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// One label per chunk id, in the same order, unique within the context.
pub fn assign(context_id: &str, chunk_ids: &[String]) -> Vec<String> {
    let mut len = MIN_LEN;
    loop {
        let labels: Vec<String> = chunk_ids
            .iter()
            .map(|id| label_of(context_id, id, len))
            .collect();
        let mut sorted = labels.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() == labels.len() || len >= 32 {
            return labels;
        }
        len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_short_unique_and_independent_of_order() {
        let ids: Vec<String> = (0..500)
            .map(|i| format!("doc.md@r1#{}-{}", i * 10, i * 10 + 10))
            .collect();
        let labels = assign("ctx1", &ids);
        let mut unique = labels.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        assert!(labels.iter().all(|l| l.len() >= MIN_LEN && l.len() <= 6));
        let reversed: Vec<String> = ids.iter().rev().cloned().collect();
        let mut again = assign("ctx1", &reversed);
        again.reverse();
        assert_eq!(again, labels, "a chunk's label does not depend on its rank");
        assert_ne!(
            assign("ctx2", &ids[..1]),
            labels[..1],
            "labels differ between contexts"
        );
    }
}
