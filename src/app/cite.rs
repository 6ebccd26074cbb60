//! `cite`: locate a model's quotes in the context it was shown and store the citations, in one
//! transaction.

use super::Env;
use crate::cite::record::cite_and_record;
use crate::cite::wrapped::parse_wrapped_answer;
use crate::error::{Error, Result};
use crate::output::{cite_output, CiteOutput};
use crate::store::Store;

/// The answer to cite.
#[derive(Debug, Clone)]
pub struct CiteRequest {
    /// The recorded context the model was shown.
    pub context_id: String,
    /// The answer as JSON text: the tool input, or an API response or tool call holding it.
    pub answer: String,
    /// Where the answer came from, as errors name it (a file, `stdin`, `answer`).
    pub input: String,
}

/// Parses the answer (nothing is opened or stored when it is malformed), locates every quote
/// with the configured locator options, and records the citations.
pub fn run(env: &Env, req: &CiteRequest) -> Result<CiteOutput> {
    let (answer, _shape) = parse_wrapped_answer(&req.answer).map_err(|e| Error::BadAnswer {
        input: req.input.clone(),
        message: e.to_string(),
    })?;
    let options = env.locate_options()?;
    let mut store = Store::open_existing(&env.db)?;
    let report = cite_and_record(
        &mut store,
        &req.context_id,
        &answer,
        "emit_answer",
        &options,
        &env.now(),
    )?;
    Ok(cite_output(&report))
}
