//! Before a sweep writes: the whole store checked, when its last full check is too old.
//!
//! A sweep reads only what changed, and SQLite stops it at any damaged page it reads (exit 2,
//! naming the store). A page it does not read could be damaged unseen, so the whole file is
//! read too (`quick_check`); but at about 10 s a gigabyte that cost more than the sweep itself
//! every night, so it runs when the last full check that found the store sound is
//! [`FullCheck::AfterDays`] old or older (7 by default: `[sweep] full_check_days`), or on
//! every sweep with `--full-check` ([`FullCheck::Always`]), and any time with `citestore check`.
//!
//! Invariants: a sweep writes nothing before a due check has passed; only a check that passed
//! is recorded, in the sweep's first transaction (with its sweeps row); a store never checked (or whose record cannot be read as a time) is due; on
//! PostgreSQL, whose server checks each page it reads, nothing is run or recorded.

use crate::error::Result;
use crate::store::Store;
use chrono::{DateTime, Duration};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// `[sweep] full_check_days` when the configuration does not set it.
pub const DEFAULT_FULL_CHECK_DAYS: u32 = 7;

/// When a sweep reads every page of the store before it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FullCheck {
    /// On this sweep, whatever the record says (`--full-check`).
    Always,
    /// When the last full check that found the store sound is this many days old or older,
    /// or there was none (0: every sweep).
    AfterDays(u32),
}

impl Default for FullCheck {
    fn default() -> Self {
        FullCheck::AfterDays(DEFAULT_FULL_CHECK_DAYS)
    }
}

/// A full check that passed, to record with the sweep's first writes.
#[derive(Debug, Clone, PartialEq)]
pub struct FullChecked {
    /// When it was due and ran (the sweep's clock).
    pub at: String,
    /// How long it took.
    pub seconds: f64,
}

/// Reads every page of the store when `policy` says the check is due at `now` (an RFC 3339
/// instant); writes nothing (the caller records it in its first transaction, so a sweep that
/// then fails on bad input leaves the store as it was). A damaged page is
/// [`crate::error::Error::Corrupt`].
pub fn full_check_if_due(
    store: &Store,
    policy: FullCheck,
    now: &str,
) -> Result<Option<FullChecked>> {
    if !store.checks_pages() || !due(policy, store.last_full_check()?.as_deref(), now) {
        return Ok(None);
    }
    let started = Instant::now();
    store.check_integrity()?;
    Ok(Some(FullChecked {
        at: now.to_string(),
        seconds: started.elapsed().as_secs_f64(),
    }))
}

/// True when a full check is due at `now`, the last one having passed at `last`.
fn due(policy: FullCheck, last: Option<&str>, now: &str) -> bool {
    let FullCheck::AfterDays(days) = policy else {
        return true;
    };
    let instant = |text: &str| DateTime::parse_from_rfc3339(text).ok();
    match (last.and_then(instant), instant(now)) {
        (Some(last), Some(now)) => now - last >= Duration::days(i64::from(days)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_is_due_when_the_last_is_old_enough_or_unknown() {
        let now = "2026-12-05T03:00:00Z";
        let cases: &[(FullCheck, Option<&str>, bool)] = &[
            (FullCheck::AfterDays(7), None, true),
            (FullCheck::AfterDays(7), Some("2026-11-28T03:00:00Z"), true),
            (FullCheck::AfterDays(7), Some("2026-11-28T03:00:01Z"), false),
            (FullCheck::AfterDays(7), Some("2026-12-05T03:00:00Z"), false),
            (FullCheck::AfterDays(7), Some("not a time"), true),
            (FullCheck::AfterDays(0), Some("2026-12-05T03:00:00Z"), true),
            (
                FullCheck::AfterDays(1),
                Some("2026-12-04T04:00:00+01:00"),
                true,
            ),
            (FullCheck::Always, Some("2026-12-05T03:00:00Z"), true),
        ];
        for &(policy, last, expected) in cases {
            assert_eq!(due(policy, last, now), expected, "{policy:?} {last:?}");
        }
    }
}
