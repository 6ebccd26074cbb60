//! `citestore export`: every citation and where it is now, as JSON Lines.

use super::{Context as CliContext, Exit};
use crate::output::export_line;
use crate::store::{Snapshot, Store};
use std::io::Write;

/// Export every citation and where it is now, as JSON Lines.
///
/// Print one JSON line per citation: the original SourceRef, the quote, the current status
/// and the current anchor (`null` only when lost). The format is documented in docs/json.md.
///
/// `--format w3c` prints one W3C Web Annotation (JSON-LD) per line instead: the claim as body,
/// the document as target source, a TextQuoteSelector (the document's text at the current
/// anchor, with prefix and suffix long enough to be unique) and a TextPositionSelector (code
/// points; `--utf16` adds UTF-16 positions), the revision as a TimeState. Lost citations carry
/// their last known selectors and say so.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Accepted for symmetry with the other commands: the output is always JSON Lines.
    #[arg(long)]
    json: bool,

    /// `citestore` (the export format below) or `w3c` (Web Annotations).
    #[arg(long, value_name = "FORMAT", default_value = "citestore", value_parser = ["citestore", "w3c"])]
    format: String,

    /// With `--format w3c`: add UTF-16 code unit positions (`citestore:utf16Start`/`End`) for
    /// JavaScript consumers.
    #[arg(long)]
    utf16: bool,
}

pub fn run(args: Args, ctx: CliContext) -> anyhow::Result<Exit> {
    if args.utf16 && args.format != "w3c" {
        anyhow::bail!("--utf16 applies to --format w3c only; add --format w3c");
    }
    if args.format == "w3c" {
        return run_w3c(&ctx, args.utf16);
    }
    let mut store = Store::open_read(&ctx.db)?;
    // One snapshot, streamed: a `cite` or `sweep` committing meanwhile is not seen, and memory
    // does not grow with the number of citations.
    let snapshot = store.read()?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    snapshot.for_each_citation(|record, state| -> anyhow::Result<()> {
        serde_json::to_writer(&mut out, &export_line(&snapshot, record, &state)?)?;
        out.write_all(b"\n")?;
        Ok(())
    })?;
    out.flush()?;
    Ok(Exit::Ok)
}

/// A few revisions' texts, as chars: consecutive citations mostly share a document.
struct Revisions {
    held: std::collections::HashMap<(String, u32), (Vec<char>, String)>,
}

impl Revisions {
    const MOST: usize = 16;

    fn get(
        &mut self,
        snapshot: &Snapshot<'_>,
        doc_id: &str,
        seq: u32,
    ) -> anyhow::Result<&(Vec<char>, String)> {
        let key = (doc_id.to_string(), seq);
        if !self.held.contains_key(&key) {
            if self.held.len() >= Self::MOST {
                self.held.clear();
            }
            let (text, date) = snapshot.revision_text(doc_id, seq)?;
            self.held
                .insert(key.clone(), (text.chars().collect(), date));
        }
        Ok(&self.held[&key])
    }
}

fn run_w3c(ctx: &CliContext, utf16: bool) -> anyhow::Result<Exit> {
    use crate::report::w3c::{annotation, AnnotationInput};
    let mut store = Store::open_read(&ctx.db)?;
    let snapshot = store.read()?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut revisions = Revisions {
        held: std::collections::HashMap::new(),
    };
    snapshot.for_each_citation(|record, state| -> anyhow::Result<()> {
        // The span the selectors describe: where the citation is now, or for a lost one the
        // last place it was found (`found_*` is both).
        let anchored = snapshot.anchor_context(record.row)?;
        let as_cited = state.found_revision == record.revision
            && (state.found_start, state.found_end) == (record.start, record.end);
        let stored: Option<(String, String)> = match anchored {
            Some(context) => Some(context),
            None if as_cited => Some((record.prefix.clone(), record.suffix.clone())),
            None => None,
        };
        let (text, date) = revisions.get(&snapshot, &record.doc_id, state.found_revision)?;
        let input = AnnotationInput {
            citation_id: &record.citation_id,
            claim: &record.claim,
            doc_id: &record.doc_id,
            status: state.status,
            revision: state.found_revision,
            revision_date: date,
            text,
            start: state.found_start,
            end: state.found_end,
            stored_context: stored.as_ref().map(|(p, s)| (p.as_str(), s.as_str())),
        };
        serde_json::to_writer(&mut out, &annotation(&input, utf16))?;
        out.write_all(b"\n")?;
        Ok(())
    })?;
    out.flush()?;
    Ok(Exit::Ok)
}
