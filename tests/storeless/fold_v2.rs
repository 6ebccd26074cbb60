//! Normaliser v2's properties (issue 10): canonical and compatibility renderings of any text fold
//! identically, and the map back lands on raw character boundaries, never inside a combining
//! sequence, however the match is cut.

use citestore::text::{fold, fold_text, locate, How, Normaliser};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::Config;
use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::UnicodeNormalization;

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Characters whose renderings differ: precomposed letters (one and two marks), combining marks
/// of several classes (so canonical reordering matters), Hangul syllables and conjoining jamo,
/// half-width katakana with its voiced mark, an Oriya vowel pair that composes from two
/// starters, the Angstrom and Kelvin signs, a dotted capital I (case folding adds a mark),
/// ligatures, the compatibility dashes of v1's quirk, curly quotes, odd spaces, the dropped
/// invisibles, and plain letters.
const RENDERING_CHARS: &[char] = &[
    'a', 'e', 'o', 'A', 'n', 'i', ' ', '\u{E9}', '\u{F1}', '\u{1EC7}', '\u{C5}', '\u{1C5}',
    '\u{301}', '\u{302}', '\u{308}', '\u{323}', '\u{327}', '\u{31B}', '\u{345}', '\u{344}',
    '\u{AC01}', '\u{D55C}', '\u{1100}', '\u{1161}', '\u{11A8}', '\u{FF76}', '\u{FF9E}', '\u{30AB}',
    '\u{3099}', '\u{B47}', '\u{B3E}', '\u{B4B}', '\u{212B}', '\u{212A}', '\u{130}', '\u{390}',
    '\u{FB01}', '\u{FE58}', '\u{207B}', '\u{2212}', '\u{2014}', '\u{2019}', '\u{201C}', '\u{A0}',
    '\u{3000}', '\u{AD}', '\u{200B}', '\u{FEFF}', '\u{DF}', '\u{1E9E}',
];

fn rendering_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![4 => select(RENDERING_CHARS), 1 => any::<char>()],
        0..40,
    )
    .prop_map(String::from_iter)
}

fn dropped(c: char) -> bool {
    matches!(c, '\u{AD}' | '\u{200B}' | '\u{FEFF}')
}

/// True when raw index `i` may start or end a span: the text's ends, or a char that is not a
/// combining mark (dropped invisibles are skipped: a mark after one still belongs to what came
/// before it).
fn boundary(raw: &[char], i: usize) -> bool {
    let next = raw[i..].iter().find(|&&c| !dropped(c));
    let before_any_starter = raw[..i]
        .iter()
        .all(|&c| dropped(c) || canonical_combining_class(c) != 0);
    match next {
        None => true,
        Some(&c) => canonical_combining_class(c) == 0 || before_any_starter,
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn nfc_nfd_nfkc_and_nfkd_renderings_fold_identically(raw in rendering_text()) {
        let want = fold_text(&raw);
        for (name, rendering) in [
            ("NFC", raw.nfc().collect::<String>()),
            ("NFD", raw.nfd().collect()),
            ("NFKC", raw.nfkc().collect()),
            ("NFKD", raw.nfkd().collect()),
        ] {
            prop_assert_eq!(&fold_text(&rendering), &want, "{} of {:?}", name, raw);
        }
    }

    /// The streamed content hash (no map back, no folded copy) is the SHA-256 of the fold's
    /// text, also past the 4 KiB the hash is fed at a time.
    #[test]
    fn the_content_hash_is_the_hash_of_the_folded_text(raw in rendering_text(), repeat in 1usize..300) {
        use sha2::{Digest, Sha256};
        let raw = raw.repeat(repeat);
        let folded = Normaliser::V2.fold(&raw).text();
        let want: String = Sha256::digest(folded.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        prop_assert_eq!(Normaliser::V2.content_hash(&raw), want.clone());
        prop_assert_eq!(citestore::text::content_hash(&raw), want);
    }

    #[test]
    fn the_map_back_lands_on_boundaries(raw in rendering_text(), a in any::<Index>(), b in any::<Index>()) {
        let folded = fold(&raw);
        let raw_chars: Vec<char> = raw.chars().collect();
        prop_assert_eq!(folded.back.len(), folded.chars.len());
        prop_assert!(folded.back.windows(2).all(|w| w[0] <= w[1]), "{:?}", folded.back);
        if folded.is_empty() {
            return Ok(());
        }
        let (a, b) = (a.index(folded.len()), b.index(folded.len()));
        let (a, b) = (a.min(b), a.max(b) + 1);
        let (start, end) = folded.raw_span(a, b);
        prop_assert!(start < end && end <= raw_chars.len(), "[{}, {}) of {}", start, end, raw_chars.len());
        prop_assert!(boundary(&raw_chars, start), "start {} inside a combining sequence of {:?}", start, raw);
        prop_assert!(boundary(&raw_chars, end), "end {} inside a combining sequence of {:?}", end, raw);
        // The raw span folds to (at least) the folded match: nothing it matched was left out.
        let span: String = raw_chars[start..end].iter().collect();
        let matched: String = folded.chars[a..b].iter().collect();
        prop_assert!(fold_text(&span).contains(matched.trim()), "{:?} ⊉ {:?}", span, matched);
    }

    /// A quote in one rendering, cut on word boundaries from a text in another, is found at
    /// score 100 with a raw span that is exactly the cut, marks included.
    #[test]
    fn a_quote_in_another_rendering_is_found_at_its_raw_span(
        words in prop::collection::vec(prop::collection::vec(select(RENDERING_CHARS), 1..6), 3..12),
        from in any::<Index>(),
        len in any::<Index>(),
        text_nfd in any::<bool>(),
    ) {
        // Words of letters that survive the fold; spaces between them.
        let words: Vec<String> = words
            .into_iter()
            .map(|w| {
                let w: String = w.into_iter().filter(|c| c.is_alphabetic()).collect();
                format!("x{w}x")
            })
            .collect();
        let from = from.index(words.len());
        let len = 1 + len.index(words.len() - from);
        let render = |s: &str, nfd: bool| -> String {
            if nfd { s.nfd().collect() } else { s.nfc().collect() }
        };
        let rendered: Vec<String> = words.iter().map(|w| render(w, text_nfd)).collect();
        let text = rendered.join(" ");
        let quote = render(&words[from..from + len].join(" "), !text_nfd);
        let start: usize = rendered[..from].iter().map(|w| w.chars().count() + 1).sum();
        let end = start + rendered[from..from + len].join(" ").chars().count();
        let got = locate(&text, &quote).expect("a rendering of a cut is found");
        prop_assert_eq!(got.score, 100.0, "{:?} in {:?}", quote, text);
        prop_assert!(matches!(got.how, How::Exact | How::Folded), "{:?}", got);
        // Unique unless the words repeat (overlapping copies count); then the first occurrence of
        // the same folded text.
        let want = fold_text(&quote);
        let at: String = text.chars().skip(got.start).take(got.end - got.start).collect();
        prop_assert_eq!(fold_text(&at), want.clone());
        let folded = fold_text(&text);
        let overlapping = (0..folded.len())
            .filter(|&i| folded.is_char_boundary(i) && folded[i..].starts_with(&want))
            .count();
        if overlapping == 1 {
            prop_assert_eq!((got.start, got.end), (start, end), "{:?} in {:?}", quote, text);
        }
    }
}

/// v1 folds one char at a time: an NFC `é` and an NFD `e` + U+0301 fold apart, which is why v1
/// hashes are kept as v1 and new ones are v2.
#[test]
fn v1_keeps_nfc_and_nfd_apart_v2_joins_them() {
    let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}");
    assert_ne!(
        Normaliser::V1.fold(nfc).text(),
        Normaliser::V1.fold(nfd).text()
    );
    assert_eq!(
        Normaliser::V2.fold(nfc).text(),
        Normaliser::V2.fold(nfd).text()
    );
    assert_ne!(
        Normaliser::V1.content_hash(nfd),
        Normaliser::V2.content_hash(nfd)
    );
    assert_eq!(
        Normaliser::V2.content_hash(nfc),
        Normaliser::V2.content_hash(nfd)
    );
    // The map back of the NFD text covers the mark: folded "é" is raw [3, 5).
    let folded = fold(nfd);
    assert_eq!(folded.text(), "caf\u{E9}");
    assert_eq!(folded.raw_span(3, 4), (3, 5));
    assert_eq!(folded.raw_span(0, 4), (0, 5));
}
