//! The command line's value lists, derived from the model's enums (clap knows nothing of the
//! names: they are spelled once, in `model`).
//!
//! Invariants: `--status` takes exactly the statuses of [`Status::ALL`], listed in that
//! (canonical) order; `--fail-on` takes the statuses of [`Status::FAILING`], in that order
//! (`verify --fail-on`: the verdicts of [`ClaimVerdict::ALL`]);
//! the possible values carry no help text, so `--help` lists them on one line as before.

use crate::model::verification::ClaimVerdict;
use crate::model::Status;
use clap::builder::PossibleValue;
use clap::ValueEnum;

impl ValueEnum for Status {
    fn value_variants<'a>() -> &'a [Self] {
        &Status::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.as_str()))
    }
}

impl ValueEnum for ClaimVerdict {
    fn value_variants<'a>() -> &'a [Self] {
        &ClaimVerdict::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.as_str()))
    }
}

/// A status `--fail-on` takes: lost (fail when any citation is lost), or degraded (when any is
/// degraded or lost).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FailOn(pub Status);

/// [`Status::FAILING`] as `--fail-on` values.
const FAIL_ON: [FailOn; 2] = [FailOn(Status::FAILING[0]), FailOn(Status::FAILING[1])];

impl ValueEnum for FailOn {
    fn value_variants<'a>() -> &'a [Self] {
        &FAIL_ON
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.as_str()))
    }
}

impl FailOn {
    /// True when the counts (`count` gives the number of citations with a status) call for
    /// attention: any lost for `lost`; any degraded or lost for `degraded`.
    pub(super) fn fails(self, count: impl Fn(Status) -> i64) -> bool {
        let worse_or_equal = Status::ALL.iter().filter(|s| **s >= self.0);
        worse_or_equal.map(|s| count(*s)).sum::<i64>() > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_lists_follow_the_model() {
        let names = |values: &[Option<PossibleValue>]| {
            values
                .iter()
                .map(|v| v.as_ref().unwrap().get_name().to_string())
                .collect::<Vec<_>>()
        };
        let status: Vec<_> = Status::value_variants()
            .iter()
            .map(ValueEnum::to_possible_value)
            .collect();
        assert_eq!(names(&status), Status::ALL.map(|s| s.as_str().to_string()));
        let fail_on: Vec<_> = FailOn::value_variants()
            .iter()
            .map(ValueEnum::to_possible_value)
            .collect();
        assert_eq!(
            names(&fail_on),
            [Status::Lost.as_str(), Status::Degraded.as_str()]
        );
        for s in Status::ALL {
            assert_eq!(Status::from_str(s.as_str(), false), Ok(s));
        }
    }

    #[test]
    fn fail_on_counts_the_status_and_worse() {
        // (fail on, counts as intact/moved/degraded/lost, fails)
        let table = [
            (Status::Lost, [5, 5, 5, 0], false),
            (Status::Lost, [0, 0, 0, 1], true),
            (Status::Degraded, [5, 5, 0, 0], false),
            (Status::Degraded, [0, 0, 1, 0], true),
            (Status::Degraded, [0, 0, 0, 1], true),
        ];
        for (on, counts, want) in table {
            let count = |s: Status| counts[Status::ALL.iter().position(|a| *a == s).unwrap()];
            assert_eq!(FailOn(on).fails(count), want, "{on} {counts:?}");
        }
    }
}
