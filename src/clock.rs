//! Where timestamps come from: the system clock, or a fixed instant so runs are reproducible.
//!
//! Every timestamp the store writes is RFC 3339 in UTC with milliseconds
//! (`2026-01-02T03:04:05.000Z`), so the strings sort in time order.

use chrono::{DateTime, SecondsFormat, Utc};

/// A source of "now".
pub trait Clock {
    /// The current instant.
    fn now(&self) -> DateTime<Utc>;

    /// The current instant as the store writes it.
    fn timestamp(&self) -> String {
        self.now().to_rfc3339_opts(SecondsFormat::Millis, true)
    }
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock stopped at one instant (tests, `CITESTORE_NOW`).
#[derive(Debug, Clone, Copy)]
pub struct FixedClock(pub DateTime<Utc>);

impl FixedClock {
    /// Parses an RFC 3339 instant, e.g. `2026-01-02T03:04:05Z`.
    pub fn parse(rfc3339: &str) -> Result<Self, chrono::ParseError> {
        Ok(FixedClock(
            DateTime::parse_from_rfc3339(rfc3339)?.with_timezone(&Utc),
        ))
    }
}

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_clock_writes_utc_with_millis() {
        let clock = FixedClock::parse("2026-01-02T05:04:05+02:00").unwrap();
        assert_eq!(clock.timestamp(), "2026-01-02T03:04:05.000Z");
        assert!(FixedClock::parse("yesterday").is_err());
    }
}
