//! A provider's offsets into the answer, converted to chars: Gemini counts UTF-8 bytes, the AI
//! SDK UTF-16 code units (JS string indices), Cohere and OpenAI chars. An offset inside a char
//! (a byte within a multi-byte char, half a surrogate pair) or past the end converts to
//! nothing: a broken offset is reported, never rounded.

/// What a provider counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    /// Unicode scalar values (Python `str` indices).
    Chars,
    /// UTF-16 code units (JavaScript string indices).
    Utf16,
    /// UTF-8 bytes.
    Bytes,
}

impl Unit {
    pub(super) fn name(self) -> &'static str {
        match self {
            Unit::Chars => "chars",
            Unit::Utf16 => "UTF-16 code units",
            Unit::Bytes => "UTF-8 bytes",
        }
    }
}

/// The char index of offset `at` counted in `unit` over `text`, if it falls on a char boundary
/// within the text.
pub(super) fn char_index(text: &str, at: usize, unit: Unit) -> Option<usize> {
    let width = |c: char| match unit {
        Unit::Chars => 1,
        Unit::Utf16 => c.len_utf16(),
        Unit::Bytes => c.len_utf8(),
    };
    let mut counted = 0;
    for (i, c) in text.chars().enumerate() {
        if counted == at {
            return Some(i);
        }
        if counted > at {
            return None;
        }
        counted += width(c);
    }
    (counted == at).then(|| text.chars().count())
}

/// Chars `[start, end)` of `text` for offsets counted in `unit`.
pub(super) fn span(text: &str, start: usize, end: usize, unit: Unit) -> Option<(usize, usize)> {
    let a = char_index(text, start, unit)?;
    let b = char_index(text, end, unit)?;
    (a <= b).then_some((a, b))
}

/// Each part of an answer (its text, empty for a part that is not text) with the char offset
/// where it starts in the whole answer (the parts joined in order).
pub(super) fn based(texts: Vec<String>) -> Vec<(usize, String)> {
    let mut base = 0;
    texts
        .into_iter()
        .map(|text| {
            let at = base;
            base += text.chars().count();
            (at, text)
        })
        .collect()
}

/// The text at chars `[a, b)`.
pub(super) fn slice(text: &str, (a, b): (usize, usize)) -> String {
    text.chars().skip(a).take(b - a).collect()
}

/// Where `segment` stands in `text`, for offsets `[start, end)` the provider may count in any
/// of `units`: the first unit whose span holds exactly `segment`; else `segment`'s only
/// occurrence in `text`; else `None`.
pub(super) fn find_segment(
    text: &str,
    start: usize,
    end: usize,
    segment: &str,
    units: &[Unit],
) -> Option<(usize, usize)> {
    for &unit in units {
        if let Some(s) = span(text, start, end, unit) {
            if slice(text, s) == segment {
                return Some(s);
            }
        }
    }
    let mut found = text.match_indices(segment);
    match (found.next(), found.next()) {
        (Some((byte, _)), None) if !segment.is_empty() => {
            let a = text[..byte].chars().count();
            Some((a, a + segment.chars().count()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_in_each_unit_land_on_the_same_chars() {
        let text = "a\u{e9}\u{1F427}b"; // a é 🐧 b: chars 0..4
                                        // (unit, offsets of each char boundary)
        let cases = [
            (Unit::Chars, [0, 1, 2, 3, 4]),
            (Unit::Utf16, [0, 1, 2, 4, 5]),
            (Unit::Bytes, [0, 1, 3, 7, 8]),
        ];
        for (unit, at) in cases {
            for (i, &o) in at.iter().enumerate() {
                assert_eq!(char_index(text, o, unit), Some(i), "{unit:?} {o}");
            }
        }
        assert_eq!(
            char_index(text, 3, Unit::Utf16),
            None,
            "half a surrogate pair"
        );
        assert_eq!(char_index(text, 2, Unit::Bytes), None, "inside é");
        assert_eq!(char_index(text, 9, Unit::Bytes), None, "past the end");
    }

    #[test]
    fn a_segment_is_found_by_its_offsets_or_its_only_occurrence() {
        let text = "caf\u{e9} au lait, caf\u{e9} noir";
        let all = [Unit::Chars, Unit::Utf16, Unit::Bytes];
        assert_eq!(
            find_segment(text, 14, 23, "caf\u{e9} noir", &all),
            Some((14, 23))
        );
        assert_eq!(
            find_segment(text, 15, 24, "caf\u{e9} noir", &all),
            Some((14, 23)),
            "bytes"
        );
        assert_eq!(
            find_segment(text, 0, 3, "noir", &all),
            Some((19, 23)),
            "only occurrence"
        );
        assert_eq!(
            find_segment(text, 0, 3, "caf\u{e9}", &all),
            None,
            "twice, offsets wrong"
        );
    }
}
