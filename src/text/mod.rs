//! Text: the normaliser with its map back, partial-ratio alignment, the quote locator, and
//! extraction-time repair. Pure functions over `&str`; nothing here knows about storage.

pub mod align;
pub(crate) mod find;
pub mod hints;
pub(crate) mod lcs;
pub mod locate;
pub mod normalise;
pub mod repair;

pub use align::{partial_ratio_alignment, Alignment};
pub use hints::{HintChoice, LocateHints};
pub use locate::{is_blank, locate, locate_with, Haystack, How, LocateOptions, Located};
pub use normalise::{content_hash, fold, fold_text, Folded, Normaliser, NORMALISER_VERSION};
pub use repair::repair_hyphenation;

/// `n` and its noun, singular for exactly one: `plural(1, "document", "documents")` is
/// "1 document", `plural(0, …)` "0 documents". Every count printed to a person goes through
/// this, so no message says "1 documents".
pub fn plural<N>(n: N, one: &str, many: &str) -> String
where
    N: std::fmt::Display + PartialEq + From<u8>,
{
    let noun = if n == N::from(1) { one } else { many };
    format!("{n} {noun}")
}

#[cfg(test)]
mod plural_tests {
    use super::plural;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        let cases: [(i64, &str); 4] = [
            (0, "0 documents"),
            (1, "1 document"),
            (2, "2 documents"),
            (-1, "-1 documents"),
        ];
        for (n, want) in cases {
            assert_eq!(plural(n, "document", "documents"), want);
        }
        assert_eq!(
            plural(1usize, "new character", "new characters"),
            "1 new character"
        );
        assert_eq!(
            plural(11usize, "new character", "new characters"),
            "11 new characters"
        );
    }
}
