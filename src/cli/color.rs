//! `--color auto|always|never`, `NO_COLOR` and `CLICOLOR_FORCE`: whether this run writes escape
//! codes. Decided once per process, before the command runs.
//!
//! Invariants: `never`, or `auto` with `NO_COLOR` set to anything non-empty, writes no escape
//! code; `always`, or `auto` with `CLICOLOR_FORCE` set and not `0`, writes them even into a
//! pipe; otherwise `auto` writes them only when stdout is a terminal. Without colour a
//! highlighted span is marked `[[…]]`.

use std::io::IsTerminal;
use std::sync::OnceLock;

/// When to colour output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` (or `CLICOLOR_FORCE` forces it on).
    #[default]
    Auto,
    /// Always, even into a pipe.
    Always,
    /// Never.
    Never,
}

static ENABLED: OnceLock<bool> = OnceLock::new();

fn set_and_non_empty(key: &str) -> bool {
    std::env::var_os(key).is_some_and(|v| !v.is_empty())
}

/// Decides, once, whether this run colours its output.
pub(super) fn init(choice: ColorChoice) {
    let on = match choice {
        ColorChoice::Never => false,
        ColorChoice::Always => true,
        ColorChoice::Auto if set_and_non_empty("NO_COLOR") => false,
        ColorChoice::Auto if set_and_non_empty("CLICOLOR_FORCE") => {
            std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| v != "0")
        }
        ColorChoice::Auto => std::io::stdout().is_terminal(),
    };
    let _ = ENABLED.set(on);
}

/// The marks around a highlighted span: reverse video, or `[[`/`]]` without colour.
pub(super) fn highlight() -> (&'static str, &'static str) {
    if *ENABLED.get().unwrap_or(&false) {
        ("\x1b[7m", "\x1b[0m")
    } else {
        ("[[", "]]")
    }
}
