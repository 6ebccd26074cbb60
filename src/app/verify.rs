//! `verify`: does each cited claim's evidence make it true? Claims and texts are read in one
//! snapshot, judged with no transaction held (a judge may take minutes), and the verdicts
//! written in one transaction.

use super::Env;
use crate::child::timeout_from_secs;
use crate::config::VerifyConfig;
use crate::error::Result;
use crate::model::verification::{ClaimToVerify, ClaimVerdict, Scope, VerificationRecord};
use crate::store::Store;
use crate::verify::judge::{from_spec, Judge, JudgeLimits};
use crate::verify::{verify, CalibrationRow, Labelled, Texts, VerifyOptions};
use serde::{Deserialize, Serialize};
use std::collections::hash_map::Entry;
use std::collections::BTreeMap;

/// Which claims, and how verdicts are routed.
#[derive(Debug, Clone)]
pub struct VerifyRequest {
    /// The claims to verify.
    pub scope: Scope,
    /// Thresholds, section size, concurrency.
    pub options: VerifyOptions,
}

/// One claim of the JSON output.
#[derive(Debug, Serialize, Deserialize)]
pub struct ClaimOutput {
    /// The claim.
    pub text: String,
    /// supported, contradicted, unsupported, review, fabricated, ambiguous, unknown-chunk,
    /// uncited, unjudged or error.
    pub verdict: ClaimVerdict,
    /// What the judge said, when asked.
    pub relation: Option<String>,
    /// The judge's confidence.
    pub confidence: Option<f64>,
    /// The located citations read as the premise.
    pub citations: Vec<String>,
    /// Why.
    pub reason: Option<String>,
}

/// What `verify --json` prints.
#[derive(Debug, Serialize, Deserialize)]
pub struct VerifyOutput {
    /// The judge spec, or `none`.
    pub judge: String,
    /// Claims in the order they were cited.
    pub claims: Vec<ClaimOutput>,
    /// Counts by verdict, plus `judge_calls` and `decided_without_judge`.
    pub summary: BTreeMap<String, usize>,
}

/// Verifies the claims in scope with `judge` (without one, located claims are `unjudged`) and
/// records every verdict.
pub fn run(env: &Env, req: &VerifyRequest, judge: Option<&dyn Judge>) -> Result<VerifyOutput> {
    let mut store = Store::open_existing(&env.db)?;
    let (claims, texts) = load(&mut store, &req.scope)?;
    // No transaction is held while judges run: they may take minutes.
    let records = verify(&claims, &texts, judge, &req.options);
    let writer = store.writer()?;
    writer.record_verifications(&records, &env.now())?;
    writer.commit()?;
    Ok(output(&claims, &records, judge))
}

fn load(store: &mut Store, scope: &Scope) -> Result<(Vec<ClaimToVerify>, Texts)> {
    // One read snapshot: claims and texts agree with each other, and no write lock is taken.
    let snapshot = store.read()?;
    let claims = snapshot.reads().claims_to_verify(scope)?;
    let mut texts = Texts::new();
    for span in claims.iter().flat_map(|c| &c.spans) {
        if let Entry::Vacant(slot) = texts.entry((span.doc_id.clone(), span.revision)) {
            let text = snapshot
                .reads()
                .revision_text_of(&span.doc_id, span.revision)?;
            slot.insert(text.chars().collect());
        }
    }
    Ok((claims, texts))
}

fn output(
    claims: &[ClaimToVerify],
    records: &[VerificationRecord],
    judge: Option<&dyn Judge>,
) -> VerifyOutput {
    let mut summary = BTreeMap::new();
    for r in records {
        *summary.entry(r.verdict.as_str().to_string()).or_insert(0) += 1;
    }
    let judge_calls = records.iter().filter(|r| r.premise.is_some()).count();
    let judge_calls = if judge.is_some() { judge_calls } else { 0 };
    summary.insert("judge_calls".into(), judge_calls);
    summary.insert(
        "decided_without_judge".into(),
        records.iter().filter(|r| r.premise.is_none()).count(),
    );
    VerifyOutput {
        judge: judge.map_or("none".into(), |j| j.name().to_string()),
        claims: claims
            .iter()
            .zip(records)
            .map(|(c, r)| ClaimOutput {
                text: c.text.clone(),
                verdict: r.verdict,
                relation: r.judgement.map(|j| j.relation.as_str().to_string()),
                confidence: r.judgement.map(|j| j.confidence),
                citations: c.spans.iter().map(|s| s.citation_id.clone()).collect(),
                reason: r.reason.clone(),
            })
            .collect(),
        summary,
    }
}

/// Why a judge could not be made, for the face to word with its own names for the inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JudgeSetup {
    /// The timeout given is not a usable number of seconds (the reason).
    Timeout(String),
    /// The configured `[verify] timeout_secs` is not usable (the reason).
    ConfiguredTimeout(String),
    /// The spec names no judge citestore can run (the reason).
    Spec(String),
}

/// The judge a spec names (`command:PROGRAM [ARGS]` or `openai:MODEL@BASE_URL`; `None`
/// without a spec), with the configuration's retries and sampling, and `timeout_secs` (else
/// `[verify] timeout_secs`) as the longest wait for one judgement. The timeout is checked
/// first, with or without a spec: a bad value is refused before anything runs.
pub fn judge(
    config: &VerifyConfig,
    spec: Option<&str>,
    timeout_secs: Option<f64>,
) -> std::result::Result<Option<Box<dyn Judge>>, JudgeSetup> {
    let timeout = match timeout_secs {
        Some(secs) => {
            timeout_from_secs(secs).map_err(|why| JudgeSetup::Timeout(why.to_string()))?
        }
        None => timeout_from_secs(config.timeout_secs)
            .map_err(|why| JudgeSetup::ConfiguredTimeout(why.to_string()))?,
    };
    let Some(spec) = spec else {
        return Ok(None);
    };
    let limits = JudgeLimits {
        timeout,
        retries: config.retries,
        sampling: config.openai,
        ..JudgeLimits::default()
    };
    from_spec(spec, limits).map(Some).map_err(JudgeSetup::Spec)
}

/// The thresholds calibration reports on: 0.50 to 0.95 by 0.05.
fn calibration_thresholds() -> Vec<f64> {
    (0..=9).map(|i| 0.5 + 0.05 * i as f64).collect()
}

/// What `verify --calibrate --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationOutput {
    /// How many labelled examples were judged.
    pub examples: usize,
    /// Examples the judge gave no judgement for (counted as sent to review).
    pub judge_failures: usize,
    /// Agreement and review rate at each accept threshold, lowest first.
    pub thresholds: Vec<CalibrationRow>,
}

/// Labelled examples from JSON Lines text (`{"claim", "premise", "label"}` per line, blank
/// lines skipped, a leading BOM ignored); the error names the line, with `input` before it.
pub fn labels_from_jsonl(text: &str, input: &str) -> std::result::Result<Vec<Labelled>, String> {
    let examples: Vec<Labelled> = crate::error::without_bom(text)
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| {
                format!(
                    "{input}: line {}: {e}; expected {{\"claim\", \"premise\", \"label\": supports|contradicts|silent}}",
                    i + 1
                )
            })
        })
        .collect::<std::result::Result<_, _>>()?;
    if examples.is_empty() {
        return Err(format!("{input}: no labelled examples"));
    }
    Ok(examples)
}

/// Runs `judge` on every labelled example: agreement with the labels and the review rate at
/// each threshold. Reads no store: calibration is about the judge.
pub fn calibrate(examples: &[Labelled], judge: &dyn Judge) -> CalibrationOutput {
    let (thresholds, judge_failures) =
        crate::verify::calibrate(examples, judge, &calibration_thresholds());
    CalibrationOutput {
        examples: examples.len(),
        judge_failures,
        thresholds,
    }
}
