//! `context`: record which chunks a model is shown, under short opaque labels, in one
//! transaction.

use super::Env;
use crate::cite::prompt::prompt;
use crate::cite::record::{record_context, ChunkSelector};
use crate::error::Result;
use crate::output::{context_output, ContextOutput};
use crate::store::Store;

/// The chunks, in the order the model is shown them.
#[derive(Debug, Clone, Default)]
pub struct ContextRequest {
    /// Documents (every chunk of their current chunking) and chunks, in order.
    pub selectors: Vec<ChunkSelector>,
}

/// A context recorded: what `context --json` prints, and the labelled block for the model.
#[derive(Debug)]
pub struct Recorded {
    /// The JSON shape.
    pub output: ContextOutput,
    /// Each chunk's text inside a labelled tag (Python's `Context.prompt()`).
    pub prompt: String,
}

/// Records the context (the same chunks in the same order are the same context).
pub fn run(env: &Env, req: &ContextRequest) -> Result<Recorded> {
    let mut store = Store::open_existing(&env.db)?;
    let context = record_context(&mut store, &req.selectors, &env.now())?;
    let prompt = prompt(&context);
    Ok(Recorded {
        output: context_output(context),
        prompt,
    })
}
