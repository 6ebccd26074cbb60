//! Judges: programs or models that answer one bounded question — does this premise support the
//! claim, contradict it, or say nothing about it — with a confidence.
//!
//! Protocol (both kinds): the request is `{"claim", "premise", "spans"}` (the premise is the
//! section(s) around the cited spans, each span marked `⟦…⟧`; `spans` are the spans' texts); the
//! reply is `{"relation": "supports"|"contradicts"|"silent", "confidence": 0..1}`.
//!
//! Invariants: a judge never panics on a bad reply, a hang or a failure: `judge` returns an
//! error string for that item and the run goes on. A `command:` judge runs through
//! [`crate::child::run`]: one deadline covers writing the request, the run and reading the
//! reply; at the deadline its whole process group is killed (and after a normal exit too, so
//! nothing it started outlives it); a judge that does not read its request gets an error, never
//! a SIGPIPE that kills citestore; a reply over [`MAX_REPLY_BYTES`] is an error; its stderr is
//! read alongside its reply and only its last bytes kept, for the message.

use crate::child::{self, Limits, RunError};
use crate::model::verification::Judgement;
use serde::{Deserialize, Serialize};
use std::process::Command;
use std::time::Duration;

/// The longest reply taken from a `command:` judge (a reply is one small JSON object).
pub(crate) const MAX_REPLY_BYTES: usize = 1024 * 1024;

/// What a judge is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeRequest {
    /// The claim, as the answer states it.
    pub claim: String,
    /// The section(s) around the cited spans, spans marked `⟦…⟧`, read as one premise.
    pub premise: String,
    /// The cited spans' texts.
    pub spans: Vec<String>,
}

/// Something that judges claims.
pub trait Judge: Sync {
    /// The spec it was made from (stored with every verdict).
    fn name(&self) -> &str;
    /// One judgement, or why there is none.
    fn judge(&self, request: &JudgeRequest) -> Result<Judgement, String>;
}

/// Limits for judges.
#[derive(Debug, Clone, Copy)]
pub(crate) struct JudgeLimits {
    /// Longest wait for one judgement.
    pub timeout: Duration,
    /// Further attempts after a retryable failure (HTTP 429/5xx, connection errors).
    pub retries: u32,
    /// First backoff; doubled after each retry.
    pub backoff: Duration,
    /// Sampling parameters an `openai:` judge sends (each only when set).
    pub sampling: crate::config::OpenAiSampling,
}

impl Default for JudgeLimits {
    fn default() -> Self {
        JudgeLimits {
            timeout: Duration::from_secs(60),
            retries: 3,
            backoff: Duration::from_millis(500),
            sampling: crate::config::OpenAiSampling::default(),
        }
    }
}

/// Parses `command:PROGRAM [ARGS]` or `openai:MODEL@BASE_URL`.
pub(crate) fn from_spec(spec: &str, limits: JudgeLimits) -> Result<Box<dyn Judge>, String> {
    if let Some(rest) = spec.strip_prefix("command:") {
        let mut words = rest.split_whitespace().map(String::from);
        let program = words
            .next()
            .ok_or("command: needs a program, e.g. command:./judge.py")?;
        return Ok(Box::new(CommandJudge {
            spec: spec.to_string(),
            program,
            args: words.collect(),
            timeout: limits.timeout,
        }));
    }
    if let Some(rest) = spec.strip_prefix("openai:") {
        let (model, base) = rest.split_once('@').ok_or(
            "openai: needs MODEL@BASE_URL, e.g. openai:gpt-4o-mini@https://api.openai.com/v1",
        )?;
        if model.is_empty() || !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(format!("openai:{rest}: expected MODEL@http(s)://HOST/PATH"));
        }
        return Ok(Box::new(OpenAiJudge::new(spec, model, base, limits)));
    }
    Err(format!(
        "unknown judge {spec:?}: use command:PROGRAM [ARGS] or openai:MODEL@BASE_URL"
    ))
}

/// Reads a reply, tolerating a Markdown code fence around the JSON.
pub(crate) fn parse_reply(text: &str) -> Result<Judgement, String> {
    let trimmed = text.trim();
    let inner = trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|t| t.strip_suffix("```"))
        .unwrap_or(trimmed);
    let judgement: Judgement = serde_json::from_str(inner.trim()).map_err(|e| {
        let shown: String = trimmed.chars().take(80).collect();
        format!("reply is not {{\"relation\", \"confidence\"}} ({e}): {shown:?}")
    })?;
    if !(0.0..=1.0).contains(&judgement.confidence) {
        return Err(format!(
            "confidence {} is outside [0, 1]",
            judgement.confidence
        ));
    }
    Ok(judgement)
}

/// A program: one request on stdin, one reply on stdout, per judgement.
struct CommandJudge {
    spec: String,
    program: String,
    args: Vec<String>,
    timeout: Duration,
}

impl Judge for CommandJudge {
    fn name(&self) -> &str {
        &self.spec
    }

    fn judge(&self, request: &JudgeRequest) -> Result<Judgement, String> {
        let mut command = Command::new(&self.program);
        command.args(&self.args);
        let body = serde_json::to_string(request).expect("plain data serialises") + "\n";
        let limits = Limits {
            timeout: self.timeout,
            stdout_cap: MAX_REPLY_BYTES,
        };
        let finished =
            child::run(command, Some(body.into_bytes()), limits).map_err(|e| match e {
                RunError::Spawn(e) => format!("cannot run {}: {e}", self.program),
                other => other.to_string(),
            })?;
        if !finished.status.success() {
            return Err(format!(
                "exited with {}: {}",
                finished.status,
                finished.reason()
            ));
        }
        // A reply written without reading the request cannot be about this claim.
        if finished.input_unread {
            return Err("exited without reading its request (broken pipe); read the whole request from stdin before replying".into());
        }
        parse_reply(&String::from_utf8_lossy(&finished.stdout))
    }
}

const SYSTEM_PROMPT: &str = "You judge whether a premise establishes a claim. The user message is JSON with \
`claim`, `premise` (a section of a source document; the cited spans are marked with ⟦ and ⟧) and `spans`. \
Answer with JSON only: {\"relation\": \"supports\" | \"contradicts\" | \"silent\", \"confidence\": number between 0 and 1}. \
supports: the premise makes the claim true. contradicts: the premise makes it false. silent: the premise \
neither establishes nor refutes it. Judge only from the premise, not from outside knowledge.";

/// Any OpenAI-compatible chat-completions endpoint.
struct OpenAiJudge {
    spec: String,
    model: String,
    url: String,
    api_key: Option<String>,
    agent: ureq::Agent,
    limits: JudgeLimits,
}

impl OpenAiJudge {
    fn new(spec: &str, model: &str, base: &str, limits: JudgeLimits) -> Self {
        OpenAiJudge {
            spec: spec.to_string(),
            model: model.to_string(),
            url: format!("{}/chat/completions", base.trim_end_matches('/')),
            api_key: std::env::var("CITESTORE_JUDGE_API_KEY")
                .or_else(|_| std::env::var("OPENAI_API_KEY"))
                .ok(),
            agent: ureq::AgentBuilder::new().timeout(limits.timeout).build(),
            limits,
        }
    }

    fn once(&self, request: &JudgeRequest) -> Result<Judgement, (bool, String)> {
        let mut body = serde_json::json!({
            "model": self.model,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": serde_json::to_string(request).expect("plain data")},
            ],
        });
        // Sent only when configured: some models reject any temperature but their default.
        let sampling = self.limits.sampling;
        if let Some(t) = sampling.temperature {
            body["temperature"] = t.into();
        }
        if let Some(p) = sampling.top_p {
            body["top_p"] = p.into();
        }
        let mut call = self.agent.post(&self.url);
        if let Some(key) = &self.api_key {
            call = call.set("Authorization", &format!("Bearer {key}"));
        }
        let response = match call.send_json(body) {
            Ok(response) => response,
            Err(ureq::Error::Status(code, _)) => {
                return Err((
                    code == 429 || code >= 500,
                    format!("HTTP {code} from {}", self.url),
                ))
            }
            Err(e) => return Err((true, format!("{}: {e}", self.url))),
        };
        let reply: serde_json::Value = response
            .into_json()
            .map_err(|e| (false, format!("unreadable response: {e}")))?;
        let content = reply["choices"][0]["message"]["content"].as_str().ok_or((
            false,
            "response has no choices[0].message.content".to_string(),
        ))?;
        parse_reply(content).map_err(|e| (false, e))
    }
}

impl Judge for OpenAiJudge {
    fn name(&self) -> &str {
        &self.spec
    }

    fn judge(&self, request: &JudgeRequest) -> Result<Judgement, String> {
        let mut wait = self.limits.backoff;
        let mut attempt = 0;
        loop {
            match self.once(request) {
                Ok(judgement) => return Ok(judgement),
                Err((retryable, why)) if !retryable || attempt >= self.limits.retries => {
                    return Err(if attempt > 0 {
                        format!("{why} (after {} attempts)", attempt + 1)
                    } else {
                        why
                    })
                }
                Err(_) => {
                    std::thread::sleep(wait);
                    wait *= 2;
                    attempt += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::verification::Relation;

    #[test]
    fn replies() {
        // (reply, relation or error fragment)
        let cases: &[(&str, Result<Relation, &str>)] = &[
            (
                r#"{"relation": "supports", "confidence": 0.9}"#,
                Ok(Relation::Supports),
            ),
            (
                "```json\n{\"relation\": \"silent\", \"confidence\": 1}\n```",
                Ok(Relation::Silent),
            ),
            (
                r#"{"relation": "contradicts", "confidence": 0.5, "why": "x"}"#,
                Ok(Relation::Contradicts),
            ),
            (
                r#"{"relation": "maybe", "confidence": 0.5}"#,
                Err("unknown variant"),
            ),
            (
                r#"{"relation": "supports", "confidence": 1.5}"#,
                Err("outside [0, 1]"),
            ),
            ("garbage", Err("reply is not")),
        ];
        for (reply, want) in cases {
            match (parse_reply(reply), want) {
                (Ok(j), Ok(r)) => assert_eq!(j.relation, *r, "{reply}"),
                (Err(e), Err(fragment)) => assert!(e.contains(fragment), "{reply}: {e}"),
                (got, _) => panic!("{reply}: {got:?}"),
            }
        }
    }

    #[test]
    fn specs() {
        assert!(from_spec("command:./judge.py --strict", JudgeLimits::default()).is_ok());
        assert!(from_spec("openai:m@http://127.0.0.1:1/v1", JudgeLimits::default()).is_ok());
        for bad in ["command:", "openai:model", "openai:@http://x", "magic"] {
            assert!(from_spec(bad, JudgeLimits::default()).is_err(), "{bad}");
        }
    }
}
