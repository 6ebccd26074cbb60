//! `import`: cite a provider's cited answer (Anthropic, Cohere, Gemini, OpenAI's Responses, the
//! AI SDK, LangChain's quoted answers), checking what it says against the stored text, in one
//! transaction.

use super::Env;
use crate::cite::anthropic::Sent;
use crate::cite::providers::{self, Format};
use crate::cite::record::import_and_record;
use crate::error::{Error, Result};
use crate::output::{cite_output, CiteOutput};
use crate::store::Store;

/// The response to import.
#[derive(Debug, Clone)]
pub struct ImportRequest {
    /// The provider's response shape.
    pub format: Format,
    /// The recorded context whose chunks (or documents) were sent.
    pub context_id: String,
    /// The response as JSON text.
    pub response: String,
    /// Where the response came from, as errors name it (a file, `stdin`, `response`).
    pub input: String,
    /// What was sent as documents (Anthropic only): the context's chunks, or its documents
    /// whole.
    pub sent: Sent,
}

/// Reads the response against the context (nothing is stored when it is malformed) and
/// records its citations.
pub fn run(env: &Env, req: &ImportRequest) -> Result<CiteOutput> {
    let options = env.locate_options()?;
    let mut store = Store::open_existing(&env.db)?;
    let context = store.writer()?.load_context(&req.context_id)?;
    let import = providers::read(req.format, &req.response, &context, req.sent).map_err(|e| {
        Error::BadAnswer {
            input: req.input.clone(),
            message: e.to_string(),
        }
    })?;
    let report = import_and_record(
        &mut store,
        &req.context_id,
        req.format,
        &import,
        &options,
        &env.now(),
    )?;
    Ok(cite_output(&report))
}
