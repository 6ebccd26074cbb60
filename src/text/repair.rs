//! Extraction-time repair of PDF hyphenation, separate from the fold.
//!
//! A word broken across a line break arrives as `sub-\nscription`; a model reads it back as
//! `subscription`. The repair rejoins such words once, when extracted text enters the store, so
//! every stored offset indexes the repaired text (seed 001). It is never applied at match time,
//! and never to plain text, Markdown or reST, whose offsets must equal the file's.
//!
//! Rule: a `-` directly after a letter, followed by a line break (`\n`, `\r\n` or `\r`, with
//! optional spaces or tabs before the next line's first char) and then a lowercase letter, is
//! removed together with the line break and those spaces.

/// Rejoins words hyphenated across line breaks; returns the repaired text.
pub fn repair_hyphenation(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '-' && i > 0 && chars[i - 1].is_alphabetic() {
            if let Some(next) = broken_word_resumes_at(&chars, i + 1) {
                i = next;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// After a hyphen at `i - 1`: the index of the lowercase letter that continues the word on the
/// next line, if the hyphen is followed by exactly one line break and optional indentation.
fn broken_word_resumes_at(chars: &[char], mut i: usize) -> Option<usize> {
    match chars.get(i) {
        Some('\r') if chars.get(i + 1) == Some(&'\n') => i += 2,
        Some('\n') | Some('\r') => i += 1,
        _ => return None,
    }
    while matches!(chars.get(i), Some(' ') | Some('\t')) {
        i += 1;
    }
    chars.get(i).filter(|c| c.is_lowercase()).map(|_| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        let cases = [
            ("sub-\nscription rate", "subscription rate"),
            ("sub-\r\n  scription", "subscription"),
            ("well-\nKnown", "well-\nKnown"),
            ("a -\nb", "a -\nb"),
            ("x-\n\nyz", "x-\n\nyz"),
            ("state-of-the-art", "state-of-the-art"),
            ("end-", "end-"),
            ("ré-\nélan", "réélan"),
        ];
        for (raw, want) in cases {
            assert_eq!(repair_hyphenation(raw), want, "{raw:?}");
        }
    }
}
