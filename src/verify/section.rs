//! The section a judge reads around a span: the enclosing heading-delimited section for
//! Markdown and reStructuredText, else the enclosing paragraph; at most `max_side` chars either
//! side of the span in both cases.
//!
//! Invariants: the returned range contains the span; offsets are chars into the revision text.

/// How a document marks its sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DocKind {
    /// `#`-headings.
    Markdown,
    /// Titles underlined with a repeated punctuation char.
    ReStructuredText,
    /// Paragraphs only.
    Plain,
}

impl DocKind {
    /// From a document id's extension.
    pub(crate) fn from_doc_id(doc_id: &str) -> DocKind {
        let lower = doc_id.to_ascii_lowercase();
        if lower.ends_with(".md") || lower.ends_with(".markdown") {
            DocKind::Markdown
        } else if lower.ends_with(".rst") {
            DocKind::ReStructuredText
        } else {
            DocKind::Plain
        }
    }
}

/// Lines of `chars` as (start, end) char ranges, the newline excluded.
fn lines(chars: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &c) in chars.iter().enumerate() {
        if c == '\n' {
            out.push((start, i));
            start = i + 1;
        }
    }
    out.push((start, chars.len()));
    out
}

fn text_of(chars: &[char], (a, b): (usize, usize)) -> String {
    chars[a..b].iter().collect()
}

/// Char offsets where a heading line starts.
fn heading_starts(chars: &[char], kind: DocKind) -> Vec<usize> {
    let lines = lines(chars);
    let mut starts = Vec::new();
    for (i, &line) in lines.iter().enumerate() {
        let text = text_of(chars, line);
        let heading = match kind {
            DocKind::Markdown => {
                let hashes = text.chars().take_while(|&c| c == '#').count();
                (1..=6).contains(&hashes) && text[hashes..].starts_with(' ')
            }
            DocKind::ReStructuredText => lines.get(i + 1).is_some_and(|&under| {
                let under = text_of(chars, under);
                let title = text.trim_end();
                let mut marks = under.trim_end().chars();
                let first = marks.next();
                !title.trim().is_empty()
                    && first.is_some_and(|c| "=-~^\"'`#*+:._".contains(c))
                    && marks.all(|c| Some(c) == first)
                    && under.trim_end().chars().count() >= title.chars().count()
            }),
            DocKind::Plain => false,
        };
        if heading {
            starts.push(line.0);
        }
    }
    starts
}

/// Start of the paragraph holding `at` and end of the paragraph holding `until`.
fn paragraph(chars: &[char], at: usize, until: usize) -> (usize, usize) {
    let blank_before = |i: usize| i >= 2 && chars[i - 1] == '\n' && chars[i - 2] == '\n';
    let mut start = at;
    while start > 0 && !blank_before(start) {
        start -= 1;
    }
    let mut end = until;
    while end < chars.len() && !(chars[end] == '\n' && chars.get(end + 1) == Some(&'\n')) {
        end += 1;
    }
    (start, end)
}

/// The section around `[start, end)` of `chars`, clipped to `max_side` chars either side.
pub(crate) fn section_around(
    chars: &[char],
    start: usize,
    end: usize,
    kind: DocKind,
    max_side: usize,
) -> (usize, usize) {
    let (from, to) = match kind {
        DocKind::Plain => paragraph(chars, start, end),
        _ => {
            let headings = heading_starts(chars, kind);
            let from = headings
                .iter()
                .copied()
                .filter(|&h| h <= start)
                .max()
                .unwrap_or(0);
            let to = headings
                .iter()
                .copied()
                .find(|&h| h >= end && h > from)
                .unwrap_or(chars.len());
            (from, to)
        }
    };
    (
        from.max(start.saturating_sub(max_side)),
        to.min(end + max_side),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(text: &str, quote: &str, kind: DocKind) -> String {
        let chars: Vec<char> = text.chars().collect();
        let byte = text.find(quote).unwrap();
        let start = text[..byte].chars().count();
        let (a, b) = section_around(&chars, start, start + quote.chars().count(), kind, 1000);
        chars[a..b]
            .iter()
            .collect::<String>()
            .trim_end()
            .to_string()
    }

    #[test]
    fn table() {
        let md = "# Title\n\nIntro.\n\n## Retry\n\nWait 1 s.\n\nDouble it.\n\n## Limits\n\nFive attempts.\n";
        let rst = "Retry\n=====\n\nWait 1 s.\n\nLimits\n------\n\nFive attempts.\n";
        let plain = "First para.\n\nWait 1 s, then double it.\nStill this para.\n\nLast.";
        // (text, quote, kind, section)
        let cases = [
            (
                md,
                "Double it.",
                DocKind::Markdown,
                "## Retry\n\nWait 1 s.\n\nDouble it.",
            ),
            (md, "Five", DocKind::Markdown, "## Limits\n\nFive attempts."),
            (md, "Intro", DocKind::Markdown, "# Title\n\nIntro."),
            (
                rst,
                "Wait",
                DocKind::ReStructuredText,
                "Retry\n=====\n\nWait 1 s.",
            ),
            (
                rst,
                "Five",
                DocKind::ReStructuredText,
                "Limits\n------\n\nFive attempts.",
            ),
            (
                plain,
                "double",
                DocKind::Plain,
                "Wait 1 s, then double it.\nStill this para.",
            ),
        ];
        for (text, quote, kind, want) in cases {
            assert_eq!(section(text, quote, kind), want, "{quote:?} ({kind:?})");
        }
    }

    #[test]
    fn clipped_to_max_side() {
        let text = format!("{}needle{}", "a".repeat(50), "b".repeat(50));
        let chars: Vec<char> = text.chars().collect();
        assert_eq!(section_around(&chars, 50, 56, DocKind::Plain, 10), (40, 66));
    }
}
