//! `locate`: no panic; a span lies inside the chunk on char boundaries, start <= end; an exact
//! hit is the quote's first occurrence and its text is the quote; a `folded` hit (score 100)
//! folds to the same text as the quote.
#![no_main]

use citestore::text::{fold_text, locate, locate_with, How, LocateOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (&str, &str)| {
    let (chunk, quote) = input;
    let len = chunk.chars().count();
    for got in [
        locate(chunk, quote),
        locate_with(chunk, quote, &LocateOptions::seed()),
    ]
    .into_iter()
    .flatten()
    {
        assert!(got.start <= got.end && got.end <= len, "{got:?} in {len}");
        if got.how == How::Exact {
            let first = chunk.find(quote).expect("an exact hit occurs");
            assert_eq!(
                got.start,
                chunk[..first].chars().count(),
                "first occurrence"
            );
            let text: String = chunk
                .chars()
                .skip(got.start)
                .take(got.end - got.start)
                .collect();
            assert_eq!(text, quote);
        }
        if got.how == How::Folded {
            assert_eq!(got.score, 100.0);
            let text: String = chunk
                .chars()
                .skip(got.start)
                .take(got.end - got.start)
                .collect();
            assert_eq!(fold_text(&text), fold_text(quote), "{got:?}");
        }
    }
});
