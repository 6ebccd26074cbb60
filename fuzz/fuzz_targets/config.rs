//! The configuration file's parser (`citestore.toml`): no panic on any text; an error is one
//! non-empty line naming the file; a file it accepts holds only numbers its users can take
//! without a panic: `[verify]` in range and its timeout a duration, `[locate]`'s cut-offs either
//! a pair of scores or refused in one line where a command uses them.
#![no_main]

use citestore::config::Config;
use citestore::text::LocateOptions;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|text: &str| {
    match Config::parse(Path::new("citestore.toml"), text) {
        Err(e) => {
            let line = e.to_string();
            assert!(!line.is_empty() && !line.contains('\n'), "{line:?}");
            assert!(line.contains("citestore.toml"), "{line:?}");
        }
        Ok(config) => {
            let verify = &config.verify;
            assert!((0.0..=1.0).contains(&verify.accept), "{verify:?}");
            assert!(verify.concurrency >= 1, "{verify:?}");
            let timeout = citestore::child::timeout_from_secs(verify.timeout_secs);
            assert!(timeout.is_ok(), "{verify:?}");
            let locate = LocateOptions {
                accept: config.locate.accept,
                review: config.locate.review,
                ..LocateOptions::default()
            };
            if let Err(why) = locate.check_cutoffs(["[locate] accept", "[locate] review"]) {
                assert!(!why.is_empty() && !why.contains('\n'), "{why:?}");
            }
            let _ = config.chunker();
        }
    }
});
