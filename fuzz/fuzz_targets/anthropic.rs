//! The Anthropic Messages import (`import-anthropic`): no panic on any response text, both ways
//! of reading which documents were sent; an error is one message; every location it resolves
//! names a stretch inside the revision it names, `start <= end`, and there is one location list
//! per claim and one location per piece of evidence.
#![no_main]

use citestore::cite::anthropic::{read_response, Sent};
use citestore::model::citation::{Context, ContextChunk};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const DOC: &str = "alpha one.\u{c}beta two. alpha one.\nΓάμμα τρία — δ.";

fn context() -> &'static Context {
    static CONTEXT: OnceLock<Context> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let chunk = |label: &str, start: usize, end: usize| ContextChunk {
            label: label.into(),
            chunk_id: format!("d@r1#{start}-{end}"),
            doc_id: "d".into(),
            revision: 1,
            content_hash: String::new(),
            normaliser: "v2".into(),
            start,
            end,
            text: DOC.chars().skip(start).take(end - start).collect(),
            caller_id: None,
        };
        let len = DOC.chars().count();
        Context {
            id: "c".into(),
            chunks: vec![chunk("S1", 0, 11), chunk("S2", 11, 31), chunk("S3", 31, len)],
            revisions: [(("d".to_string(), 1), DOC.to_string())].into(),
        }
    })
}

fuzz_target!(|json: &str| {
    let len = DOC.chars().count();
    for sent in [Sent::Chunks, Sent::Documents] {
        match read_response(json, context(), sent) {
            Err(e) => assert!(!e.to_string().is_empty()),
            Ok(import) => {
                let claims = &import.answer.claims;
                assert_eq!(import.locations.len(), claims.len());
                assert_eq!(import.external.len(), claims.len());
                for (claim, locations) in claims.iter().zip(&import.locations) {
                    assert_eq!(locations.len(), claim.evidence.len());
                    for target in locations.iter().flatten().filter_map(|l| l.target.as_ref()) {
                        assert!(target.start <= target.end && target.end <= len, "{target:?}");
                    }
                }
            }
        }
    }
});
