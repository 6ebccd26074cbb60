//! The JSON each command prints with `--json` (a public interface), built from library results
//! in one place: the CLI prints it, the Python package returns it as dicts, so the two never
//! drift. Field by field documentation is on each type; docs/json.md lists them per command.
//!
//! Invariants: every type here round-trips through serde (tests parse the CLI's output back
//! into them); builders only read (they take a store or snapshot and never write).

pub mod cite;
pub mod export;
pub mod health;
pub mod locate;

pub use cite::{
    cite_output, context_output, AnswerSpanOutput, CiteOutput, ClaimOutput, ContextOutput,
    EvidenceOutput, ExternalOutput, LocationOutput, ProposalOutput,
};
pub use export::{
    current, export_line, last_known, list_line, Current, ExportLine, LastKnown, ListLine,
};
pub use health::{
    changes, health, ChangeLine, ChangesOutput, DocumentHealth, HealthOutput, RetiredHealth,
};
pub use locate::{locate_output, LocateOutput};

/// Stdout for many lines (JSON Lines, a long table), buffered so each line is not a system
/// call of its own; the caller flushes at the end.
pub fn stdout_lines() -> impl std::io::Write {
    std::io::BufWriter::new(std::io::stdout().lock())
}
