//! A Python callable as a verification judge: `verify(..., judge=callable)`.
//!
//! Invariants: the callable gets one dict `{"claim", "premise", "spans"}` (the protocol every
//! judge speaks) and answers `{"relation": "supports" | "contradicts" | "silent",
//! "confidence": 0..1}`; anything else, or an exception it raises, is that claim's judge
//! failure (verdict `error`, the reason naming it), never a crash of the run. The GIL is taken
//! only for the call itself: verify runs with it released and calls judges from its worker
//! threads.

use citestore::model::verification::{Judgement, Relation};
use citestore::verify::{Judge, JudgeRequest};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A judge that calls a Python function.
pub(crate) struct CallableJudge {
    /// What the verdicts record as their judge: `python:` and the callable's qualified name.
    name: String,
    callable: Py<PyAny>,
}

impl CallableJudge {
    /// Wraps `callable`, named after its `__qualname__` (else its type).
    pub(crate) fn new(callable: &Bound<'_, PyAny>) -> Self {
        let qualname = callable
            .getattr("__qualname__")
            .and_then(|n| n.extract::<String>())
            .or_else(|_| callable.get_type().qualname().map(|n| n.to_string()))
            .unwrap_or_else(|_| "callable".into());
        CallableJudge {
            name: format!("python:{qualname}"),
            callable: callable.clone().unbind(),
        }
    }
}

impl Judge for CallableJudge {
    fn name(&self) -> &str {
        &self.name
    }

    fn judge(&self, request: &JudgeRequest) -> Result<Judgement, String> {
        Python::attach(|py| {
            let asked = PyDict::new(py);
            let set = |key: &str, value: Bound<'_, PyAny>| {
                asked.set_item(key, value).map_err(|e| e.to_string())
            };
            set(
                "claim",
                request
                    .claim
                    .clone()
                    .into_pyobject(py)
                    .map_err(|e| e.to_string())?
                    .into_any(),
            )?;
            set(
                "premise",
                request
                    .premise
                    .clone()
                    .into_pyobject(py)
                    .map_err(|e| e.to_string())?
                    .into_any(),
            )?;
            let spans = PyList::new(py, &request.spans).map_err(|e| e.to_string())?;
            set("spans", spans.into_any())?;
            let reply = self
                .callable
                .call1(py, (asked,))
                .map_err(|e| format!("the judge raised {e}"))?;
            judgement(reply.bind(py))
        })
    }
}

/// The judgement a reply states, or why it states none.
fn judgement(reply: &Bound<'_, PyAny>) -> Result<Judgement, String> {
    let expected =
        "reply {\"relation\": \"supports\" | \"contradicts\" | \"silent\", \"confidence\": 0..1}";
    let reply = reply
        .cast::<PyDict>()
        .map_err(|_| format!("the judge returned a {}; {expected}", type_name(reply)))?;
    let relation: String = reply
        .get_item("relation")
        .ok()
        .flatten()
        .and_then(|r| r.extract().ok())
        .ok_or_else(|| format!("the judge's reply has no relation; {expected}"))?;
    let relation = match relation.as_str() {
        "supports" => Relation::Supports,
        "contradicts" => Relation::Contradicts,
        "silent" => Relation::Silent,
        other => {
            return Err(format!(
                "the judge's relation {other:?} is not one of supports, contradicts, silent"
            ))
        }
    };
    let confidence: f64 = reply
        .get_item("confidence")
        .ok()
        .flatten()
        .and_then(|c| c.extract().ok())
        .ok_or_else(|| format!("the judge's reply has no numeric confidence; {expected}"))?;
    if !(0.0..=1.0).contains(&confidence) {
        return Err(format!(
            "the judge's confidence {confidence} is not from 0 to 1"
        ));
    }
    Ok(Judgement {
        relation,
        confidence,
    })
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "value".into())
}
