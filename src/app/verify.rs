//! `verify`: does each cited claim's evidence make it true? Claims are taken a page at a time:
//! a page's claims and texts read in one snapshot, judged with no transaction held (a judge may
//! take minutes), and its verdicts written in one transaction (see [`each`]).

use super::Env;
use crate::child::timeout_from_secs;
use crate::config::VerifyConfig;
use crate::error::{Error, Result};
use crate::model::verification::{ClaimToVerify, ClaimVerdict, Scope, VerificationRecord};
use crate::store::{Snapshot, Store};
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

/// Claims read, judged and recorded at a time: enough to keep `concurrency` judges busy, few
/// enough that memory does not grow with the store.
const PAGE_CLAIMS: usize = 256;

/// A page ends early once the revision texts it holds pass this many chars (4 bytes each).
const PAGE_TEXT_CHARS: usize = 8 << 20;

/// Verifies the claims in scope with `judge` (without one, located claims are `unjudged`) and
/// records every verdict; all claims at once (the faces' `verify`; the CLI streams with
/// [`each`]).
pub fn run(env: &Env, req: &VerifyRequest, judge: Option<&dyn Judge>) -> Result<VerifyOutput> {
    let mut claims = Vec::new();
    let summary = each(env, req, judge, |claim| -> Result<()> {
        claims.push(claim);
        Ok(())
    })?;
    Ok(VerifyOutput {
        judge: judge_name(judge),
        claims,
        summary,
    })
}

/// The judge's name as the output gives it: its spec, or `none`.
pub fn judge_name(judge: Option<&dyn Judge>) -> String {
    judge.map_or("none".into(), |j| j.name().to_string())
}

/// Verifies the claims in scope a page at a time and hands each claim's output to `each` once
/// its verdict is recorded, in the order the claims were cited; returns the summary
/// ([`VerifyOutput::summary`]).
///
/// Invariants: memory is flat in the number of claims (a page of claims and the texts they
/// cite at a time). Each page's claims and texts are read in one snapshot, so a claim's spans
/// and the text they index agree; judged with no transaction held (a judge may take minutes);
/// and its verdicts written in one transaction, committed before they are handed on, so what
/// was printed is recorded and a run that stops part-way keeps the verdicts of the pages it
/// finished (each row is a whole verdict; verifications are only appended).
pub fn each<E: From<Error>>(
    env: &Env,
    req: &VerifyRequest,
    judge: Option<&dyn Judge>,
    mut each: impl FnMut(ClaimOutput) -> std::result::Result<(), E>,
) -> std::result::Result<BTreeMap<String, usize>, E> {
    let mut store = Store::open_existing(&env.db)?;
    // A page's verdicts are redone by the next run (verify re-judges every claim in scope):
    // its commits need not wait for the disk, and SQLite checkpoints the WAL every 64 MiB,
    // not every 4 (at 200,000 claims, 157 checkpoints of three fsyncs each took longer than
    // the judging).
    store.redoable_writes()?;
    let mut pages = Pages::new(&req.scope);
    let mut texts = Texts::new();
    let mut tally = Tally::default();
    loop {
        let claims;
        (claims, texts) = pages.next(&store.read()?, texts)?;
        if claims.is_empty() {
            break;
        }
        // No transaction is held while judges run: they may take minutes.
        let records = verify(&claims, &texts, judge, &req.options);
        let writer = store.writer()?;
        writer.record_verifications(&records, &env.now())?;
        writer.commit()?;
        for (claim, record) in claims.into_iter().zip(records) {
            tally.add(&record);
            each(claim_output(claim, record))?;
        }
    }
    Ok(tally.summary(judge.is_some()))
}

/// Where the next page of claims starts.
enum Pages<'s> {
    /// By row after the last one read (`None` before the first page), every claim or a
    /// context's.
    After {
        context: Option<&'s str>,
        after: Option<i64>,
    },
    /// `--citation`: the citations' claims, resolved on the first page; the next index.
    Rows {
        citations: &'s [String],
        rows: Option<Vec<i64>>,
        next: usize,
    },
}

impl<'s> Pages<'s> {
    fn new(scope: &'s Scope) -> Self {
        match scope {
            Scope::All => Pages::After {
                context: None,
                after: None,
            },
            Scope::Context(id) => Pages::After {
                context: Some(id),
                after: None,
            },
            Scope::Citations(ids) => Pages::Rows {
                citations: ids,
                rows: None,
                next: 0,
            },
        }
    }

    /// The next page's claims (none when there are no more) and the revision texts they cite,
    /// taken from `held` (the last page's, dropped after) where it has them: consecutive claims
    /// mostly cite the same documents.
    fn next(
        &mut self,
        snapshot: &Snapshot<'_>,
        mut held: Texts,
    ) -> Result<(Vec<ClaimToVerify>, Texts)> {
        let reads = snapshot.reads();
        let mut claims = match self {
            Pages::After { context, after } => {
                reads.claims_to_verify(*context, *after, PAGE_CLAIMS)?
            }
            Pages::Rows {
                citations,
                rows,
                next,
            } => {
                if rows.is_none() {
                    *rows = Some(reads.claim_rows_of_citations(citations)?);
                }
                let rows = rows.as_deref().unwrap_or_default();
                let page = &rows[(*next).min(rows.len())..];
                reads.claims_by_row(&page[..page.len().min(PAGE_CLAIMS)])?
            }
        };
        // The texts the page cites, from the last page's where it has them; the page is cut
        // where they pass the budget (one claim at least).
        let mut texts = Texts::new();
        let mut chars = 0;
        let mut keep = claims.len();
        for (i, claim) in claims.iter().enumerate() {
            for span in &claim.spans {
                let key = (span.doc_id.clone(), span.revision);
                if let Entry::Vacant(slot) = texts.entry(key) {
                    let text = match held.remove(slot.key()) {
                        Some(text) => text,
                        None => reads
                            .revision_text_of(&span.doc_id, span.revision)?
                            .chars()
                            .collect(),
                    };
                    chars += text.len();
                    slot.insert(text);
                }
            }
            if chars >= PAGE_TEXT_CHARS {
                keep = i + 1;
                break;
            }
        }
        claims.truncate(keep);
        match self {
            Pages::After { after, .. } => {
                if let Some(last) = claims.last() {
                    *after = Some(last.claim_row);
                }
            }
            Pages::Rows { next, .. } => *next += claims.len(),
        }
        Ok((claims, texts))
    }
}

/// The summary's counts, kept as the verdicts go by.
#[derive(Default)]
struct Tally {
    verdicts: BTreeMap<String, usize>,
    premised: usize,
    without_judge: usize,
}

impl Tally {
    fn add(&mut self, record: &VerificationRecord) {
        *self
            .verdicts
            .entry(record.verdict.as_str().to_string())
            .or_insert(0) += 1;
        if record.premise.is_some() {
            self.premised += 1;
        } else {
            self.without_judge += 1;
        }
    }

    fn summary(self, judged: bool) -> BTreeMap<String, usize> {
        let mut summary = self.verdicts;
        summary.insert("judge_calls".into(), if judged { self.premised } else { 0 });
        summary.insert("decided_without_judge".into(), self.without_judge);
        summary
    }
}

fn claim_output(claim: ClaimToVerify, record: VerificationRecord) -> ClaimOutput {
    ClaimOutput {
        text: claim.text,
        verdict: record.verdict,
        relation: record.judgement.map(|j| j.relation.as_str().to_string()),
        confidence: record.judgement.map(|j| j.confidence),
        citations: claim.spans.into_iter().map(|s| s.citation_id).collect(),
        reason: record.reason,
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
