//! The integration tests, one binary (as ripgrep's `tests/tests.rs`): each module drives the
//! real `citestore` binary, the installed library from outside, or both. One binary links the
//! crate once instead of once per file.
//!
//! `storeless` holds the modules that open no store (the locator, the fold, the vectors, the
//! property tests); every other module is run a second time by `tests/run.sh` with
//! `CITESTORE_TEST_BACKEND=postgres`, each `Scratch` store then a fresh PostgreSQL database. A
//! test about SQLite files themselves says so with `common::sqlite_only`.

mod common;
#[path = "common/report_stores.rs"]
mod stores;

/// Modules that open no store: run once, on no backend.
mod storeless {
    mod cli_locate;
    mod fold_v2;
    mod hints_cli;
    mod props;
    mod sweep_props;
    mod vectors;
}

mod ai_sdk_cli;
mod anthropic_cli;
mod bad_input_cli;
mod bounded_input_cli;
mod caller_chunks_cli;
mod children_cli;
mod cite_cli;
mod color_cli;
mod contrib;
mod conventions_cli;
mod json_cli;
mod nightly_cli;
mod normaliser_cli;
mod openai_cli;
mod postgres_cli;
mod providers_cli;
mod quiet_cli;
mod read_only_cli;
mod readme_shapes_cli;
mod reextract_cli;
mod report_browser;
mod report_cli;
mod shard_cli;
mod store_cli;
mod store_concurrency;
mod store_reliability_cli;
mod sweep_cli;
mod sweep_memory_cli;
mod usage_cli;
mod verify_cli;
mod verify_memory_cli;
mod w3c_cli;
