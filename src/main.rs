//! The `citestore` binary: parse arguments, run, print any error once, exit 0 / 1 / 2.
//!
//! Exit codes: 0 ran and nothing needs attention; 1 ran, but citations need attention (no span
//! found, or `--fail-on` matched); 2 error (bad input, bad usage, I/O).

use std::process::ExitCode;

fn main() -> ExitCode {
    match citestore::cli::run(std::env::args_os()) {
        Ok(exit) => ExitCode::from(exit as u8),
        Err(err) => {
            eprintln!("citestore: {err:#}");
            ExitCode::from(2)
        }
    }
}
