//! Text: the normaliser with its map back, partial-ratio alignment, the quote locator, and
//! extraction-time repair. Pure functions over `&str`; nothing here knows about storage.

pub mod align;
mod lcs;
pub mod locate;
pub mod normalise;
pub mod repair;

pub use align::{partial_ratio_alignment, Alignment};
pub use locate::{is_blank, locate, locate_with, Haystack, How, LocateOptions, Located};
pub use normalise::{content_hash, fold, fold_text, Folded, NORMALISER_VERSION};
pub use repair::repair_hyphenation;
