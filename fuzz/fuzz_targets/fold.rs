//! The fold and its map back, both normaliser versions: no panic; one back entry per folded
//! char, non-decreasing, inside the raw text; every folded range maps back to a non-empty raw
//! range inside the text whose end is a segment end; v2 is idempotent and folds the NFC, NFD,
//! NFKC and NFKD renderings of the input identically.
#![no_main]

use citestore::text::Normaliser;
use libfuzzer_sys::fuzz_target;
use unicode_normalization::UnicodeNormalization;

fuzz_target!(|raw: &str| {
    let len = raw.chars().count();
    for normaliser in [Normaliser::V1, Normaliser::V2] {
        let folded = normaliser.fold(raw);
        assert_eq!(folded.back.len(), folded.chars.len());
        assert!(folded.back.windows(2).all(|w| w[0] <= w[1]));
        assert!(folded.back.iter().all(|&i| (i as usize) < len));
        let n = folded.len();
        for (a, b) in [(0, n), (0, n / 2), (n / 3, n), (n / 4, 3 * n / 4)] {
            if a < b {
                let (start, end) = folded.raw_span(a, b);
                assert!(start < end && end <= len, "[{start}, {end}) of {len}");
            }
        }
    }
    let once = Normaliser::V2.fold(raw).text();
    assert_eq!(Normaliser::V2.fold(&once).text(), once, "v2 is idempotent");
    for rendering in [
        raw.nfc().collect::<String>(),
        raw.nfd().collect(),
        raw.nfkc().collect(),
        raw.nfkd().collect(),
    ] {
        assert_eq!(
            Normaliser::V2.fold(&rendering).text(),
            once,
            "{rendering:?}"
        );
    }
});
