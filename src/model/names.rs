//! Names of the model's enums: parsing a name back ([`std::str::FromStr`]) and printing it
//! ([`std::fmt::Display`]), both from the enum's own `ALL` and `as_str`, so each name is
//! spelled once, in its `as_str`.
//!
//! Invariant: for every enum given to [`by_name`], `name.parse()` is `Ok(v)` exactly when
//! `v.as_str() == name` (case-sensitive); anything else is an [`UnknownName`] listing the
//! names accepted, in `ALL`'s order.

use std::fmt;

/// A name that is not one of an enum's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    /// What the name should have been (`status`, `method`, …).
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The names accepted, in their canonical order.
    pub expected: Vec<&'static str>,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?} (expected one of: {})",
            self.what,
            self.given,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

/// The value of `all` named `name`, by `as_str`.
pub(crate) fn find<T: Copy>(
    what: &'static str,
    all: &[T],
    as_str: fn(T) -> &'static str,
    name: &str,
) -> Result<T, UnknownName> {
    all.iter()
        .copied()
        .find(|v| as_str(*v) == name)
        .ok_or_else(|| UnknownName {
            what,
            given: name.to_string(),
            expected: all.iter().map(|v| as_str(*v)).collect(),
        })
}

/// `FromStr` (error [`UnknownName`] saying `$what`) and `Display` by `as_str`, for enums with
/// an `ALL` and an `as_str`.
macro_rules! by_name {
    ($($t:ty => $what:literal),* $(,)?) => {$(
        impl std::str::FromStr for $t {
            type Err = $crate::model::UnknownName;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $crate::model::names::find($what, &<$t>::ALL, <$t>::as_str, s)
            }
        }

        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    )*};
}
pub(crate) use by_name;
