//! Verification (seed 002): code owns the loop, the thresholds and the routing; a judge answers
//! one bounded question per claim.
//!
//! Order, per claim:
//! 1. uncited claims are listed as `uncited` (a sentence-level check; never silently passed);
//! 2. a claim none of whose evidence was located gets the citing verdict — `fabricated`, else
//!    `ambiguous`, else `review` when a sweep lost its spans, else `unknown-chunk` — with
//!    **no judge call**;
//! 3. otherwise the judge reads the claim and the sections around all its located spans as one
//!    premise (unlocated evidence is left out and reported), and its answer is routed:
//!    confidence below `accept` → `review`; else supports → `supported` (but `review` when a
//!    span was located only for review), contradicts → `contradicted`, silent → `unsupported`;
//!    no judge → `unjudged`; a judge failure → `error` for that claim, and the run goes on.

pub(crate) mod judge;
pub(crate) mod section;

use crate::model::citation::Verdict;
use crate::model::verification::{
    ClaimToVerify, ClaimVerdict, Judgement, Relation, VerificationRecord,
};
use crate::model::Status;
pub use judge::{Judge, JudgeRequest};
use section::{section_around, DocKind};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Routing and premise settings (`[verify]` in citestore.toml).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct VerifyOptions {
    /// Confidence at or above which a judgement is acted on; below it, `review`.
    pub accept: f64,
    /// Most chars of section kept either side of a span.
    pub max_side: usize,
    /// Judgements in flight at once.
    pub concurrency: usize,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            accept: 0.7,
            max_side: 1000,
            concurrency: 4,
        }
    }
}

/// Revision texts by `(doc_id, revision)`, as chars.
pub(crate) type Texts = HashMap<(String, u32), Vec<char>>;

/// Routes a judgement to a verdict.
pub(crate) fn route(
    j: Judgement,
    accept: f64,
    review_only: bool,
) -> (ClaimVerdict, Option<String>) {
    if j.confidence < accept {
        return (
            ClaimVerdict::Review,
            Some(format!(
                "{} with confidence {:.2}, below accept {accept:.2}",
                j.relation.as_str(),
                j.confidence
            )),
        );
    }
    match j.relation {
        Relation::Supports if review_only => (
            ClaimVerdict::Review,
            Some("supports, but its evidence was located only for review".into()),
        ),
        Relation::Supports => (ClaimVerdict::Supported, None),
        Relation::Contradicts => (ClaimVerdict::Contradicted, None),
        Relation::Silent => (ClaimVerdict::Unsupported, None),
    }
}

/// The verdict for a claim with no located evidence, from its citing verdicts.
fn unlocated_verdict(claim: &ClaimToVerify) -> (ClaimVerdict, String) {
    let has = |v: &str| claim.unlocated.iter().any(|(verdict, _)| verdict == v);
    let verdict = if has("fabricated") {
        ClaimVerdict::Fabricated
    } else if has("ambiguous") {
        ClaimVerdict::Ambiguous
    } else if has(Status::Lost.as_str()) {
        // The quote was real, but a sweep could not find it in the current revision: a
        // person must decide whether the claim still stands.
        ClaimVerdict::Review
    } else {
        ClaimVerdict::UnknownChunk
    };
    let quotes: Vec<String> = claim
        .unlocated
        .iter()
        .map(|(v, q)| format!("{v}: {q:?}"))
        .collect();
    (
        verdict,
        format!("no evidence located ({})", quotes.join("; ")),
    )
}

/// A stretch of one revision read by the judge, with the spans to mark in it.
struct Section {
    doc_id: String,
    revision: u32,
    from: usize,
    to: usize,
    spans: Vec<(usize, usize)>,
}

impl Section {
    fn render(&self, chars: &[char]) -> String {
        let mut out = String::new();
        for (offset, &c) in chars[self.from..self.to].iter().enumerate() {
            let i = self.from + offset;
            if self.spans.iter().any(|s| s.0 == i) {
                out.push('\u{27E6}');
            }
            out.push(c);
            if self.spans.iter().any(|s| s.1 == i + 1) {
                out.push('\u{27E7}');
            }
        }
        format!("[{} r{}]\n{}", self.doc_id, self.revision, out.trim())
    }
}

/// The premise: the sections around the claim's spans, spans marked, in evidence order;
/// overlapping sections of one revision are merged so shared text is read once.
pub(crate) fn premise(
    claim: &ClaimToVerify,
    texts: &Texts,
    max_side: usize,
) -> (String, Vec<String>) {
    let mut sections: Vec<Section> = Vec::new();
    let mut span_texts = Vec::new();
    for span in &claim.spans {
        let chars = &texts[&(span.doc_id.clone(), span.revision)];
        span_texts.push(chars[span.start..span.end].iter().collect());
        let kind = DocKind::from_doc_id(&span.doc_id);
        let (from, to) = section_around(chars, span.start, span.end, kind, max_side);
        match sections.iter_mut().find(|s| {
            s.doc_id == span.doc_id && s.revision == span.revision && s.from < to && from < s.to
        }) {
            Some(s) => {
                s.from = s.from.min(from);
                s.to = s.to.max(to);
                s.spans.push((span.start, span.end));
            }
            None => sections.push(Section {
                doc_id: span.doc_id.clone(),
                revision: span.revision,
                from,
                to,
                spans: vec![(span.start, span.end)],
            }),
        }
    }
    let rendered: Vec<String> = sections
        .iter()
        .map(|s| s.render(&texts[&(s.doc_id.clone(), s.revision)]))
        .collect();
    (rendered.join("\n\n---\n\n"), span_texts)
}

/// Verifies `claims`, calling `judge` (when there is one) for located claims only, at most
/// `options.concurrency` at a time. Results are in the claims' order.
pub(crate) fn verify(
    claims: &[ClaimToVerify],
    texts: &Texts,
    judge: Option<&dyn Judge>,
    options: &VerifyOptions,
) -> Vec<VerificationRecord> {
    let judge_name = judge.map_or("none".to_string(), |j| j.name().to_string());
    let results: Mutex<Vec<Option<VerificationRecord>>> = Mutex::new(vec![None; claims.len()]);
    let next = AtomicUsize::new(0);
    let workers = options.concurrency.max(1).min(claims.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(claim) = claims.get(i) else { break };
                let record = verify_one(claim, texts, judge, &judge_name, options);
                results.lock().expect("no worker panics while holding it")[i] = Some(record);
            });
        }
    });
    results
        .into_inner()
        .expect("workers done")
        .into_iter()
        .map(|r| r.expect("every claim verified"))
        .collect()
}

fn verify_one(
    claim: &ClaimToVerify,
    texts: &Texts,
    judge: Option<&dyn Judge>,
    judge_name: &str,
    options: &VerifyOptions,
) -> VerificationRecord {
    let record = |verdict, judgement, reason, premise| VerificationRecord {
        claim_row: claim.claim_row,
        judge: judge_name.to_string(),
        judgement,
        verdict,
        reason,
        premise,
    };
    if claim.uncited {
        return record(
            ClaimVerdict::Uncited,
            None,
            Some("no evidence given".into()),
            None,
        );
    }
    if claim.spans.is_empty() {
        let (verdict, reason) = unlocated_verdict(claim);
        return record(verdict, None, Some(reason), None);
    }
    let (premise_text, spans) = premise(claim, texts, options.max_side);
    let left_out = (!claim.unlocated.is_empty()).then(|| {
        format!(
            "{} evidence string(s) not located, left out of the premise",
            claim.unlocated.len()
        )
    });
    let Some(judge) = judge else {
        return record(ClaimVerdict::Unjudged, None, left_out, Some(premise_text));
    };
    let request = JudgeRequest {
        claim: claim.text.clone(),
        premise: premise_text.clone(),
        spans,
    };
    match judge.judge(&request) {
        Ok(judgement) => {
            let review_only = claim.spans.iter().all(|s| s.verdict == Verdict::Review);
            let (verdict, why) = route(judgement, options.accept, review_only);
            let reason = [why, left_out].into_iter().flatten().collect::<Vec<_>>();
            let reason = (!reason.is_empty()).then(|| reason.join("; "));
            record(verdict, Some(judgement), reason, Some(premise_text))
        }
        Err(why) => record(
            ClaimVerdict::Error,
            None,
            Some(format!("judge failed: {why}")),
            Some(premise_text),
        ),
    }
}

/// One labelled example for calibration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Labelled {
    /// The claim.
    pub claim: String,
    /// The premise a judge reads.
    pub premise: String,
    /// What a person said.
    pub label: Relation,
}

/// Agreement and review rate at one threshold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CalibrationRow {
    /// The accept threshold.
    pub threshold: f64,
    /// Share of examples the judge was confident enough about to decide.
    pub decided: f64,
    /// Share sent to review (1 - decided).
    pub review_rate: f64,
    /// Among decided examples, the share where the judge's relation equals the label.
    pub agreement: f64,
}

/// Runs `judge` on every labelled example and reports, for each threshold, agreement with the
/// labels and the review rate. Judge failures count as sent to review.
pub fn calibrate(
    examples: &[Labelled],
    judge: &dyn Judge,
    thresholds: &[f64],
) -> (Vec<CalibrationRow>, usize) {
    let answers: Vec<Option<Judgement>> = examples
        .iter()
        .map(|e| {
            judge
                .judge(&JudgeRequest {
                    claim: e.claim.clone(),
                    premise: e.premise.clone(),
                    spans: Vec::new(),
                })
                .ok()
        })
        .collect();
    let failures = answers.iter().filter(|a| a.is_none()).count();
    let n = examples.len().max(1) as f64;
    let rows = thresholds
        .iter()
        .map(|&t| {
            let decided: Vec<(&Labelled, Judgement)> = examples
                .iter()
                .zip(&answers)
                .filter_map(|(e, a)| a.filter(|j| j.confidence >= t).map(|j| (e, j)))
                .collect();
            let agree = decided
                .iter()
                .filter(|(e, j)| e.label == j.relation)
                .count();
            CalibrationRow {
                threshold: t,
                decided: decided.len() as f64 / n,
                review_rate: 1.0 - decided.len() as f64 / n,
                agreement: if decided.is_empty() {
                    0.0
                } else {
                    agree as f64 / decided.len() as f64
                },
            }
        })
        .collect();
    (rows, failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routing_table() {
        let j = |relation, confidence| Judgement {
            relation,
            confidence,
        };
        // (judgement, review_only, verdict)
        let cases = [
            (j(Relation::Supports, 0.9), false, ClaimVerdict::Supported),
            (j(Relation::Supports, 0.9), true, ClaimVerdict::Review),
            (
                j(Relation::Contradicts, 0.7),
                false,
                ClaimVerdict::Contradicted,
            ),
            (j(Relation::Silent, 0.95), false, ClaimVerdict::Unsupported),
            (j(Relation::Supports, 0.69), false, ClaimVerdict::Review),
            (j(Relation::Contradicts, 0.1), true, ClaimVerdict::Review),
        ];
        for (judgement, review_only, want) in cases {
            assert_eq!(route(judgement, 0.7, review_only).0, want, "{judgement:?}");
        }
    }
}
