//! The `citestore` binary: parse arguments, run, print any error once, exit 0 / 1 / 2.
//!
//! Exit codes: 0 ran and nothing needs attention; 1 ran, but citations need attention (no span
//! found, or `--fail-on` matched); 2 error (bad input, bad usage, I/O).

use std::process::ExitCode;

fn main() -> ExitCode {
    // Like other Unix filters: a closed pipe (`citestore context | head`) ends the process
    // quietly instead of a panic on the next print.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of one signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match citestore::cli::run(std::env::args_os()) {
        Ok(exit) => ExitCode::from(exit as u8),
        Err(err) => {
            eprintln!("citestore: {}", citestore::cli::error_line(&err));
            ExitCode::from(2)
        }
    }
}
