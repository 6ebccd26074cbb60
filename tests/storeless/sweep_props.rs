//! Property tests of the sweep's invariants over generated corpora with random edits (issue 5,
//! "Must show"): paragraphs of random words, cited the way `cite` stores citations, then edited
//! by insertions, deletions, paragraph moves, typography changes, headers inserted mid-sentence,
//! re-chunking only, or a whole-document rewrite.

use citestore::chunk::ChunkSpec;
use citestore::cite::unique_context;
use citestore::sweep::{Anchor, Citation, DocumentSweep, NewChunk, Status, TYPOGRAPHY_CHANGED};
use citestore::text::{content_hash, fold_text};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "sphinx",
    "builder",
    "theme",
    "extension",
    "directive",
    "role",
    "domain",
    "index",
    "toctree",
    "config",
    "value",
    "output",
    "source",
    "module",
    "function",
    "class",
    "method",
    "option",
    "default",
    "version",
    "added",
    "changed",
    "removed",
    "warning",
    "error",
    "file",
    "path",
    "name",
    "the",
    "a",
    "of",
    "to",
    "and",
    "is",
    "in",
    "for",
    "with",
    "it's",
    "user-defined",
    "42",
    "7.2",
    "html",
    "latex",
    "epub",
    "manual",
    "text",
    "search",
    "language",
    "locale",
    "template",
];

/// One paragraph, remembered by the id it was generated with.
#[derive(Debug, Clone)]
struct Para {
    id: usize,
    text: String,
}

fn sentence(rng: &mut fastrand::Rng) -> String {
    let n = 6 + rng.usize(..10);
    let mut words: Vec<String> = (0..n)
        .map(|_| WORDS[rng.usize(..WORDS.len())].to_string())
        .collect();
    words.push(format!("w{}", rng.u32(..100_000)));
    rng.shuffle(&mut words);
    let mut s = words.join(" ");
    s[..1].make_ascii_uppercase();
    s + "."
}

fn paragraph(rng: &mut fastrand::Rng, id: usize) -> Para {
    let text = (0..2 + rng.usize(..3))
        .map(|_| sentence(rng))
        .collect::<Vec<_>>()
        .join(" ");
    Para { id, text }
}

fn join(paras: &[Para]) -> String {
    paras
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
        + "\n"
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Edit {
    Insert,
    Delete,
    Move,
    Typography,
    Header,
}

/// Applies `edits` random edits; returns the new paragraphs and the ids of deleted ones.
fn edit(old: &[Para], rng: &mut fastrand::Rng, edits: &[Edit]) -> (Vec<Para>, Vec<usize>) {
    let mut paras = old.to_vec();
    let mut deleted = Vec::new();
    let mut next_id = 1000;
    for &e in edits {
        if paras.len() < 2 {
            break;
        }
        let at = rng.usize(..paras.len());
        match e {
            Edit::Insert => {
                next_id += 1;
                let p = paragraph(rng, next_id);
                paras.insert(rng.usize(..=paras.len()), p);
            }
            Edit::Delete => deleted.push(paras.remove(at).id),
            Edit::Move => {
                let p = paras.remove(at);
                paras.insert(rng.usize(..=paras.len()), p);
            }
            Edit::Typography => {
                let p = &mut paras[at];
                p.text = p
                    .text
                    .replace("it's", "it\u{2019}s")
                    .replace("user-defined", "user\u{2014}defined")
                    .replace("Sphinx", "SPHINX");
            }
            Edit::Header => {
                let p = &mut paras[at];
                let spaces: Vec<usize> = p.text.match_indices(' ').map(|(i, _)| i).collect();
                if let Some(&i) = spaces.get(rng.usize(..spaces.len().max(1))) {
                    p.text.insert_str(i, " [Page 12]");
                }
            }
        }
    }
    (paras, deleted)
}

struct Stored {
    start: usize,
    end: usize,
    text: String,
    prefix: String,
    suffix: String,
    chunk_hash: String,
    chunk_start: usize,
    /// The paragraph holding the whole span, if one does.
    para: Option<usize>,
}

fn chunks(text: &str, spec: ChunkSpec) -> Vec<NewChunk> {
    let chars: Vec<char> = text.chars().collect();
    spec.spans(text)
        .into_iter()
        .map(|s| NewChunk {
            chunk_id: format!("#{}-{}", s.start, s.end),
            start: s.start,
            end: s.end,
            content_hash: content_hash(&chars[s.start..s.end].iter().collect::<String>()),
            normaliser: citestore::text::NORMALISER_VERSION.into(),
        })
        .collect()
}

/// Word-aligned spans of 20-200 chars of the old text, cited as `cite` stores them.
fn cite(paras: &[Para], rng: &mut fastrand::Rng, count: usize) -> Vec<Stored> {
    let text = join(paras);
    let chars: Vec<char> = text.chars().collect();
    let old_chunks = chunks(&text, ChunkSpec::Paragraph { max: 400 });
    let mut para_at = Vec::new();
    let mut at = 0;
    for p in paras {
        let len = p.text.chars().count();
        para_at.push((at, at + len, p.id));
        at += len + 2;
    }
    let mut out = Vec::new();
    for _ in 0..count * 4 {
        if out.len() == count {
            break;
        }
        let mut start = rng.usize(..chars.len() - 1);
        while start > 0 && chars[start - 1] != ' ' && chars[start - 1] != '\n' {
            start -= 1;
        }
        let mut end = (start + 20 + rng.usize(..180)).min(chars.len());
        while end < chars.len() && !chars[end].is_whitespace() {
            end += 1;
        }
        while end > start && chars[end - 1].is_whitespace() {
            end -= 1;
        }
        if end <= start || chars[start].is_whitespace() {
            continue;
        }
        let (prefix, span, suffix) = unique_context(&text, start, end);
        let chunk = old_chunks
            .iter()
            .find(|c| c.start <= start && start < c.end)
            .unwrap();
        out.push(Stored {
            start,
            end,
            text: span,
            prefix,
            suffix,
            chunk_hash: chunk.content_hash.clone(),
            chunk_start: chunk.start,
            para: para_at
                .iter()
                .find(|(a, b, _)| *a <= start && end <= *b)
                .map(|p| p.2),
        });
    }
    out
}

fn sweep(old: &str, new: &str, stored: &[Stored], spec: ChunkSpec) -> Vec<Anchor> {
    let new_chunks = chunks(new, spec);
    let citations: Vec<Citation<'_>> = stored
        .iter()
        .map(|s| Citation {
            id: "c",
            start: s.start,
            end: s.end,
            quote: &s.text,
            span_text: &s.text,
            prefix: &s.prefix,
            suffix: &s.suffix,
            chunk_content_hash: &s.chunk_hash,
            chunk_normaliser: citestore::text::NORMALISER_VERSION,
            chunk_start: s.chunk_start,
        })
        .collect();
    DocumentSweep::new(old, new, &new_chunks, &citations).reanchor_all()
}

fn occurrences(text: &str, needle: &str) -> usize {
    (0..text.len())
        .filter(|&i| text.is_char_boundary(i) && text[i..].starts_with(needle))
        .count()
}

fn text_at(text: &str, a: &Anchor) -> String {
    text.chars().skip(a.start).take(a.end - a.start).collect()
}

/// The invariants every sweep keeps, whatever the edit.
fn check_invariants(old: &str, new: &str, stored: &[Stored], anchors: &[Anchor]) {
    assert_eq!(anchors.len(), stored.len());
    for (a, s) in anchors.iter().zip(stored) {
        if matches!(a.status, Status::Intact | Status::Moved) {
            // The cited text, or the same words in other whitespace or typography, saying so.
            let at = text_at(new, a);
            if at != s.text {
                assert_eq!(
                    fold_text(&at),
                    fold_text(&s.text),
                    "intact/moved without the cited words: {a:?}"
                );
                assert_eq!(a.reason.as_deref(), Some(TYPOGRAPHY_CHANGED), "{a:?}");
            }
            assert_eq!(a.status == Status::Intact, a.start == s.start, "{a:?}");
        }
        // A text that occurs once in the new revision, and did in the old one, is where the
        // span went. (When the old revision had another copy and only that one survived as it
        // was, the survivor is that copy, not the cited one.)
        if occurrences(new, &s.text) == 1 && occurrences(old, &s.text) == 1 {
            assert!(
                matches!(a.status, Status::Intact | Status::Moved),
                "unique survivor {:?} reported {a:?}\nold: {old:?}\nnew: {new:?}",
                s.text
            );
        }
        if a.status == Status::Lost {
            assert_eq!(
                (a.start, a.end),
                (s.start, s.end),
                "lost keeps the last span"
            );
        } else {
            assert!(
                a.chunk_id.is_some(),
                "a placed anchor names its chunk: {a:?}"
            );
            assert!(a.score >= 0.0 && a.score <= 100.0);
        }
    }
}

fn edits_strategy() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(
        prop_oneof![
            Just(Edit::Insert),
            Just(Edit::Delete),
            Just(Edit::Move),
            Just(Edit::Typography),
            Just(Edit::Header),
        ],
        1..6,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random edits: exact statuses only with the exact text; a unique survivor is never lost
    /// or degraded; a span inside a deleted paragraph whose text is gone is lost.
    #[test]
    fn random_edits_keep_the_invariants(seed in any::<u64>(), edits in edits_strategy()) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let paras: Vec<Para> = (0..4 + rng.usize(..5)).map(|i| paragraph(&mut rng, i)).collect();
        let old = join(&paras);
        let stored = cite(&paras, &mut rng, 12);
        // Only insertions, deletions and moves: a deleted paragraph leaves no light edit behind.
        let structural = edits.iter().all(|e| matches!(e, Edit::Insert | Edit::Delete | Edit::Move));
        let (new_paras, deleted) = edit(&paras, &mut rng, &edits);
        let new = join(&new_paras);
        let anchors = sweep(&old, &new, &stored, ChunkSpec::Chars { size: 300, overlap: 40 });
        check_invariants(&old, &new, &stored, &anchors);
        for (a, s) in anchors.iter().zip(&stored) {
            let gone = s.para.is_some_and(|p| deleted.contains(&p)) && !survives(&s.text, &new);
            if structural && gone {
                prop_assert_eq!(a.status, Status::Lost, "deleted span anchored: {:?} {:?}", s.text, a);
            }
        }
    }

    /// Re-chunking alone (same text, another chunker) leaves every citation intact.
    #[test]
    fn rechunking_alone_keeps_every_citation_intact(seed in any::<u64>(), size in 80usize..600) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let paras: Vec<Para> = (0..3 + rng.usize(..5)).map(|i| paragraph(&mut rng, i)).collect();
        let text = join(&paras);
        let stored = cite(&paras, &mut rng, 10);
        let anchors = sweep(&text, &text, &stored, ChunkSpec::Chars { size, overlap: size / 5 });
        check_invariants(&text, &text, &stored, &anchors);
        for (a, s) in anchors.iter().zip(&stored) {
            prop_assert_eq!((a.status, a.start, a.end), (Status::Intact, s.start, s.end));
        }
    }

    /// A new extractor changes typography everywhere (curly apostrophes, dashes, case): no
    /// citation is lost, and one that is no longer exact is found in folded space with the same
    /// folded text.
    #[test]
    fn typography_everywhere_loses_nothing(seed in any::<u64>()) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let paras: Vec<Para> = (0..5).map(|i| paragraph(&mut rng, i)).collect();
        let old = join(&paras);
        let stored = cite(&paras, &mut rng, 10);
        let new = old
            .replace("it's", "it\u{2019}s")
            .replace("user-defined", "user\u{2014}defined")
            .replace("Sphinx", "SPHINX");
        let anchors = sweep(&old, &new, &stored, ChunkSpec::Paragraph { max: 300 });
        check_invariants(&old, &new, &stored, &anchors);
        for (a, s) in anchors.iter().zip(&stored) {
            prop_assert_ne!(a.status, Status::Lost, "{:?} {:?}", s.text, a);
            // The same words: intact or moved (typography changed), degraded only for a tie
            // between places.
            if a.status == Status::Degraded {
                prop_assert!(
                    a.reason.as_deref().is_some_and(|r| r.starts_with("ambiguous")),
                    "{:?} {:?}",
                    s.text,
                    a
                );
                prop_assert_eq!(fold_text(&text_at(&new, a)), fold_text(&s.text));
            }
        }
    }

    /// A whole-document rewrite: nothing is falsely anchored, and citations whose text is gone
    /// are lost. Gone: under two fifths of the span's letters are in its words, in order,
    /// anywhere within twice its length of the new text. More than that can be "partly edited"
    /// (issue 24: half a span surviving keeps it, `degraded`), which a rewrite from this
    /// 50-word vocabulary reaches by chance about once in 6,000 cases.
    #[test]
    fn rewrite_loses_what_is_gone(seed in any::<u64>()) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let paras: Vec<Para> = (0..4).map(|i| paragraph(&mut rng, i)).collect();
        let old = join(&paras);
        let stored = cite(&paras, &mut rng, 10);
        let fresh: Vec<Para> = (0..4).map(|i| paragraph(&mut rng, 100 + i)).collect();
        let new = join(&fresh);
        let anchors = sweep(&old, &new, &stored, ChunkSpec::Paragraph { max: 500 });
        check_invariants(&old, &new, &stored, &anchors);
        for (a, s) in anchors.iter().zip(&stored) {
            if !survives(&s.text, &new) && s.text.len() >= 60 && words_in_order(&s.text, &new) < 0.4 {
                prop_assert_eq!(a.status, Status::Lost, "{:?} {:?}", s.text, a);
            }
        }
    }
}

/// Whether the span's text is still in the new text, told as the sweep tells it: its letters
/// and digits, case, punctuation and line breaks aside (on a 30-word vocabulary a deleted
/// sentence's words recur together by chance, across a paragraph break: that is the same text,
/// not a wrong place).
fn survives(span: &str, new: &str) -> bool {
    let letters = |t: &str| -> String {
        t.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    letters(new).contains(&letters(span))
}

/// The largest share of `span`'s letters that lie in its words found in order (a longest
/// common subsequence of lowercased words) in any stretch of `new` twice the span's word count.
fn words_in_order(span: &str, new: &str) -> f64 {
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let (span, new) = (words(span), words(new));
    let letters = |w: &String| w.chars().count();
    let total: usize = span.iter().map(letters).sum();
    let window = 2 * span.len();
    let mut best = 0;
    for start in 0..new.len().max(1) {
        let stretch = &new[start..(start + window).min(new.len())];
        // Letters in the longest common subsequence of words, by dynamic programming.
        let mut row = vec![0usize; stretch.len() + 1];
        for w in &span {
            let mut diagonal = 0;
            for (j, v) in stretch.iter().enumerate() {
                let above = row[j + 1];
                row[j + 1] = if w == v {
                    diagonal + letters(w)
                } else {
                    above.max(row[j])
                };
                diagonal = above;
            }
        }
        best = best.max(row[stretch.len()]);
    }
    best as f64 / total.max(1) as f64
}

// ---------------------------------------------------------------------------------------------
// Generators that can catch a wrong answer: changed numbers and negations inside a cited span,
// repeated passages, and a model's quote that is not the span's text.

/// The words of `text` with char spans.
fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

/// Replaces chars `[a, b)` of `text`.
fn splice(text: &str, (a, b): (usize, usize), with: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars[..a].iter().collect::<String>() + with + &chars[b..].iter().collect::<String>()
}

/// A meaning edit inside a span: a number changed or a negation inserted.
#[derive(Debug, Clone, Copy)]
enum MeaningEdit {
    Number,
    Negation,
}

/// Cites one word-aligned span of 60-200 chars in the middle of a paragraph that holds a
/// number, changes its meaning at that number or after one of its words, and re-anchors.
/// Whatever comes back, it is never `intact` or `moved`; a `degraded` anchor that covers the
/// change says what changed (numbers or negation); and nothing is placed elsewhere as if the
/// change were not there.
fn meaning_edit_case(seed: u64, kind: MeaningEdit) -> Result<(), TestCaseError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let paras: Vec<Para> = (0..5).map(|i| paragraph(&mut rng, i)).collect();
    let old = join(&paras);
    let words = word_spans(&old);
    let chars: Vec<char> = old.chars().collect();
    // The edited word: a number (`w123`'s digits or a bare number) or any word for a negation.
    let candidates: Vec<usize> = (3..words.len().saturating_sub(3))
        .filter(|&i| {
            let w: String = chars[words[i].0..words[i].1].iter().collect();
            match kind {
                MeaningEdit::Number => w.trim_end_matches('.').parse::<f64>().is_ok(),
                MeaningEdit::Negation => w.chars().all(|c| c.is_ascii_lowercase()),
            }
        })
        .collect();
    prop_assume!(!candidates.is_empty());
    let at = candidates[rng.usize(..candidates.len())];
    let (first, last) = (
        at.saturating_sub(4 + rng.usize(..4)),
        (at + 4 + rng.usize(..4)).min(words.len() - 1),
    );
    let (start, end) = (words[first].0, words[last].1);
    let (prefix, span, suffix) = unique_context(&old, start, end);
    prop_assume!(!span.contains('\n'));
    let word: String = chars[words[at].0..words[at].1].iter().collect();
    let new = match kind {
        MeaningEdit::Number => {
            let digits = word.trim_end_matches('.');
            let changed = if digits == "42" { "43" } else { "42" };
            splice(
                &old,
                (words[at].0, words[at].0 + digits.chars().count()),
                changed,
            )
        }
        MeaningEdit::Negation => splice(&old, (words[at].1, words[at].1), " not"),
    };
    let chunk = chunks(&old, ChunkSpec::Paragraph { max: 400 })
        .into_iter()
        .find(|c| c.start <= start && start < c.end)
        .unwrap();
    let stored = [Stored {
        start,
        end,
        text: span.clone(),
        prefix,
        suffix,
        chunk_hash: chunk.content_hash,
        chunk_start: chunk.start,
        para: None,
    }];
    let anchors = sweep(&old, &new, &stored, ChunkSpec::Paragraph { max: 400 });
    check_invariants(&old, &new, &stored, &anchors);
    let a = &anchors[0];
    prop_assert!(
        !matches!(a.status, Status::Intact | Status::Moved),
        "a {:?} change inside the span left it {:?}",
        kind,
        a
    );
    if a.status == Status::Degraded {
        let now = text_at(&new, a);
        let changed_inside = now != span && fold_text(&now) != fold_text(&span);
        prop_assert!(
            changed_inside,
            "degraded but the text is the old one: {:?}",
            a
        );
        let reason = a.reason.as_deref().unwrap_or("");
        let named = match kind {
            MeaningEdit::Number => reason.contains("numbers differ"),
            MeaningEdit::Negation => reason.contains("negation differs"),
        };
        prop_assert!(
            named,
            "the {:?} change is not named: {:?} (span now {:?})",
            kind,
            a,
            now
        );
    }
    Ok(())
}

/// A paragraph repeated twice, a citation of its second copy, edits elsewhere: the sweep either
/// finds the second copy (where it went) or says it is ambiguous; it never reports the first
/// copy as the cited one.
fn repeated_passage_case(seed: u64, edits: &[Edit]) -> Result<(), TestCaseError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut paras: Vec<Para> = (0..6).map(|i| paragraph(&mut rng, i)).collect();
    let copy = Para {
        id: 99,
        text: paras[1].text.clone(),
    };
    paras.insert(4, copy);
    let old = join(&paras);
    let para_start = |ps: &[Para], id: usize| -> Option<(usize, usize)> {
        let mut at = 0;
        for p in ps {
            let len = p.text.chars().count();
            if p.id == id {
                return Some((at, at + len));
            }
            at += len + 2;
        }
        None
    };
    let (second, second_end) = para_start(&paras, 99).unwrap();
    let words = word_spans(&old);
    let inside: Vec<&(usize, usize)> = words
        .iter()
        .filter(|w| w.0 >= second && w.1 <= second_end)
        .collect();
    let a = rng.usize(..inside.len() / 2);
    let b = (a + 4 + rng.usize(..6)).min(inside.len() - 1);
    let (start, end) = (inside[a].0, inside[b].1);
    let (prefix, span, suffix) = unique_context(&old, start, end);
    // Edits that never touch the copies themselves.
    let (others, _) = {
        let keep: Vec<Para> = paras.clone();
        let mut rng2 = fastrand::Rng::with_seed(seed ^ 0x5eed);
        let mut out = keep.clone();
        for &e in edits {
            let movable: Vec<usize> = (0..out.len())
                .filter(|&i| !matches!(out[i].id, 1 | 99))
                .collect();
            if movable.len() < 2 {
                break;
            }
            let at = movable[rng2.usize(..movable.len())];
            match e {
                Edit::Delete => {
                    out.remove(at);
                }
                Edit::Insert => {
                    let p = paragraph(&mut rng2, 500 + out.len());
                    out.insert(rng2.usize(..=out.len()), p);
                }
                _ => {
                    let p = &mut out[at];
                    p.text = format!("{} {}", p.text, sentence(&mut rng2));
                }
            }
        }
        (out, ())
    };
    let new = join(&others);
    let (new_second, new_second_end) = para_start(&others, 99).unwrap();
    let (new_first, _) = para_start(&others, 1).unwrap();
    let chunk = chunks(&old, ChunkSpec::Paragraph { max: 400 })
        .into_iter()
        .find(|c| c.start <= start && start < c.end)
        .unwrap();
    let stored = [Stored {
        start,
        end,
        text: span.clone(),
        prefix,
        suffix,
        chunk_hash: chunk.content_hash,
        chunk_start: chunk.start,
        para: Some(99),
    }];
    let anchors = sweep(&old, &new, &stored, ChunkSpec::Paragraph { max: 400 });
    check_invariants(&old, &new, &stored, &anchors);
    let a = &anchors[0];
    prop_assert_ne!(a.status, Status::Lost, "both copies survive: {:?}", a);
    let ambiguous = a.reason.as_deref().is_some_and(|r| r.contains("ambiguous"));
    if !ambiguous {
        prop_assert!(
            a.start >= new_second && a.end <= new_second_end,
            "anchored at {}..{} but the cited copy is at {}..{} (the other copy starts at {}): {:?}",
            a.start,
            a.end,
            new_second,
            new_second_end,
            new_first,
            a
        );
    }
    Ok(())
}

/// The model's quote is a typographic rendering of the span (curly apostrophes, an em dash, upper
/// case), not its text: exact statuses still need the span's own text at the span, and a
/// citation whose paragraph survived untouched is never lost.
fn quote_is_not_span_case(seed: u64, edits: &[Edit]) -> Result<(), TestCaseError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let paras: Vec<Para> = (0..6).map(|i| paragraph(&mut rng, i)).collect();
    let old = join(&paras);
    let stored = cite(&paras, &mut rng, 10);
    let quotes: Vec<String> = stored
        .iter()
        .map(|s| {
            s.text
                .replace("it's", "it\u{2019}s")
                .replace("user-defined", "user\u{2014}defined")
                .to_uppercase()
        })
        .collect();
    let (new_paras, _) = edit(&paras, &mut rng, edits);
    let new = join(&new_paras);
    let new_chunks = chunks(&new, ChunkSpec::Paragraph { max: 400 });
    let citations: Vec<Citation<'_>> = stored
        .iter()
        .zip(&quotes)
        .map(|(s, q)| Citation {
            id: "c",
            start: s.start,
            end: s.end,
            quote: q,
            span_text: &s.text,
            prefix: &s.prefix,
            suffix: &s.suffix,
            chunk_content_hash: &s.chunk_hash,
            chunk_normaliser: citestore::text::NORMALISER_VERSION,
            chunk_start: s.chunk_start,
        })
        .collect();
    let anchors = DocumentSweep::new(&old, &new, &new_chunks, &citations).reanchor_all();
    check_invariants(&old, &new, &stored, &anchors);
    for ((a, s), q) in anchors.iter().zip(&stored).zip(&quotes) {
        if occurrences(&new, &s.text) == 1 && occurrences(&old, &s.text) == 1 {
            prop_assert!(
                matches!(a.status, Status::Intact | Status::Moved),
                "{:?}",
                a
            );
        }
        if a.status != Status::Lost && *q != s.text {
            // Wherever it is, the text there folds to the span's text or is a real edit of it;
            // found at the quote's upper case, it is intact or moved only as a change of
            // typography, never as the exact text.
            if matches!(a.status, Status::Intact | Status::Moved) && text_at(&new, a) == *q {
                prop_assert_eq!(a.reason.as_deref(), Some(TYPOGRAPHY_CHANGED), "{:?}", a);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_changed_number_inside_a_span_is_never_intact_and_always_named(seed in any::<u64>()) {
        meaning_edit_case(seed, MeaningEdit::Number)?;
    }

    #[test]
    fn an_inserted_negation_inside_a_span_is_never_intact_and_always_named(seed in any::<u64>()) {
        meaning_edit_case(seed, MeaningEdit::Negation)?;
    }

    #[test]
    fn a_repeated_passage_is_anchored_to_the_cited_copy_or_called_ambiguous(
        seed in any::<u64>(),
        edits in edits_strategy(),
    ) {
        repeated_passage_case(seed, &edits)?;
    }

    #[test]
    fn a_quote_that_is_not_the_span_never_makes_an_exact_status(
        seed in any::<u64>(),
        edits in edits_strategy(),
    ) {
        quote_is_not_span_case(seed, &edits)?;
    }
}

/// A stress run's find, kept as a plain test: a deleted 26-char span ("User-defined 7.2
/// extension") whose words an inserted paragraph shares, 237 chars apart, each side carried by
/// a 12-char run. The diff's region held both; the span is lost, not placed over them.
#[test]
fn a_deleted_span_is_not_placed_over_two_chance_pieces_of_an_inserted_paragraph() {
    let mut rng = fastrand::Rng::with_seed(808_751_041_940_821_101);
    let paras: Vec<Para> = (0..4 + rng.usize(..5))
        .map(|i| paragraph(&mut rng, i))
        .collect();
    let old = join(&paras);
    let stored = cite(&paras, &mut rng, 12);
    let (new_paras, deleted) = edit(
        &paras,
        &mut rng,
        &[Edit::Insert, Edit::Delete, Edit::Insert],
    );
    let new = join(&new_paras);
    let anchors = sweep(
        &old,
        &new,
        &stored,
        ChunkSpec::Chars {
            size: 300,
            overlap: 40,
        },
    );
    check_invariants(&old, &new, &stored, &anchors);
    let mut checked = 0;
    for (a, s) in anchors.iter().zip(&stored) {
        if s.para.is_some_and(|p| deleted.contains(&p)) && !survives(&s.text, &new) {
            assert_eq!(a.status, Status::Lost, "{:?} {a:?}", s.text);
            checked += 1;
        }
    }
    assert!(
        checked > 0,
        "the generator no longer deletes a cited span here"
    );
}

/// One citation of old chars `[start, end)`, as `cite` stores it.
fn stored_at(text: &str, start: usize, end: usize) -> Stored {
    let (prefix, span, suffix) = unique_context(text, start, end);
    let chunk = chunks(text, ChunkSpec::Paragraph { max: 400 })
        .into_iter()
        .find(|c| c.start <= start && start < c.end)
        .expect("a chunk");
    Stored {
        start,
        end,
        text: span,
        prefix,
        suffix,
        chunk_hash: chunk.content_hash,
        chunk_start: chunk.start,
        para: None,
    }
}

/// Chars of the overlap of two half-open ranges over chars of their union.
fn iou((a, b): (usize, usize), (c, d): (usize, usize)) -> f64 {
    let inter = b.min(d).saturating_sub(a.max(c));
    inter as f64 / (b.max(d) - a.min(c)) as f64
}

/// A paragraph moved elsewhere and re-wrapped (some spaces become line breaks): a span inside
/// it whose text was the only copy in the old revision and whose folded text occurs once in the
/// new one is `intact` or `moved` (typography changed), never `lost` or placed elsewhere
/// (issue 24, item 3).
fn moved_and_rewrapped_case(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut paras: Vec<Para> = (0..5).map(|i| paragraph(&mut rng, i)).collect();
    let old = join(&paras);
    let from = rng.usize(..paras.len());
    let offset: usize = paras[..from]
        .iter()
        .map(|p| p.text.chars().count() + 2)
        .sum();
    let words = word_spans(&paras[from].text);
    let first = rng.usize(..words.len() / 2);
    let last = (first + 4 + rng.usize(..8)).min(words.len() - 1);
    let (start, end) = (offset + words[first].0, offset + words[last].1);
    let stored = stored_at(&old, start, end);
    let mut moved = paras.remove(from);
    moved.text = moved
        .text
        .split(' ')
        .map(str::to_string)
        .reduce(|acc, w| {
            let sep = if rng.usize(..4) == 0 { "\n" } else { " " };
            acc + sep + &w
        })
        .unwrap_or_default();
    paras.insert(rng.usize(..=paras.len()), moved);
    let new = join(&paras);
    let anchors = sweep(
        &old,
        &new,
        std::slice::from_ref(&stored),
        ChunkSpec::Paragraph { max: 300 },
    );
    check_invariants(&old, &new, std::slice::from_ref(&stored), &anchors);
    let folded = fold_text(&stored.text);
    if occurrences(&old, &stored.text) == 1 && occurrences(&fold_text(&new), &folded) == 1 {
        let a = &anchors[0];
        prop_assert!(
            matches!(a.status, Status::Intact | Status::Moved),
            "{:?} {:?}",
            stored.text,
            a
        );
        prop_assert_eq!(fold_text(&text_at(&new, a)), folded);
    }
    Ok(())
}

/// A block (a heading, a `.. versionadded::` line, a navigation line) inserted inside a cited
/// span of 80-300 chars, at least a third of the span on each side: the span is `degraded`
/// over both pieces and the block (IoU >= 0.5 with that region), never `lost`; with the block
/// taken out again, the span is back (issue 24, item 2).
fn block_inside_case(seed: u64, block: &str) -> Result<(), TestCaseError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let paras: Vec<Para> = (0..5)
        .map(|i| {
            let mut p = paragraph(&mut rng, i);
            while p.text.chars().count() < 200 {
                p.text = p.text + " " + &sentence(&mut rng);
            }
            p
        })
        .collect();
    let old = join(&paras);
    let at = 1 + rng.usize(..paras.len() - 1);
    let offset: usize = paras[..at].iter().map(|p| p.text.chars().count() + 2).sum();
    let words = word_spans(&paras[at].text);
    let first = rng.usize(..words.len() / 4);
    let (start, mut end) = (offset + words[first].0, offset + words[first].0 + 80);
    end += rng.usize(..120);
    let end = words
        .iter()
        .map(|w| offset + w.1)
        .rfind(|&e| e <= end)
        .unwrap();
    prop_assume!(end - start >= 80);
    // A word boundary in the middle third of the span.
    let cuts: Vec<usize> = words
        .iter()
        .map(|w| offset + w.1)
        .filter(|&e| e >= start + (end - start) / 3 && e <= end - (end - start) / 3)
        .collect();
    prop_assume!(!cuts.is_empty());
    let cut = cuts[rng.usize(..cuts.len())];
    let inserted = format!("\n\n{block}\n\n");
    let new = splice(&old, (cut, cut), &inserted);
    let stored = stored_at(&old, start, end);
    let anchors = sweep(
        &old,
        &new,
        std::slice::from_ref(&stored),
        ChunkSpec::Paragraph { max: 300 },
    );
    check_invariants(&old, &new, std::slice::from_ref(&stored), &anchors);
    let a = &anchors[0];
    let truth = (start, end + inserted.chars().count());
    prop_assert_eq!(a.status, Status::Degraded, "{:?} {:?}", stored.text, a);
    prop_assert!(iou((a.start, a.end), truth) >= 0.5, "{:?} {:?}", truth, a);
    // The other way: the block was in the old revision and is dropped.
    let back = stored_at(&new, start, end + inserted.chars().count());
    let anchors = sweep(
        &new,
        &old,
        std::slice::from_ref(&back),
        ChunkSpec::Paragraph { max: 300 },
    );
    let a = &anchors[0];
    prop_assert_ne!(a.status, Status::Lost, "{:?} {:?}", back.text, a);
    prop_assert!(
        iou((a.start, a.end), (start, end)) >= 0.5,
        "{:?} {:?}",
        (start, end),
        a
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_moved_and_rewrapped_paragraph_keeps_its_citations(seed in any::<u64>()) {
        moved_and_rewrapped_case(seed)?;
    }

    #[test]
    fn a_heading_inserted_inside_a_span_degrades_it(seed in any::<u64>()) {
        block_inside_case(seed, "Configuration values\n====================")?;
    }

    #[test]
    fn a_versionadded_block_inserted_inside_a_span_degrades_it(seed in any::<u64>()) {
        block_inside_case(seed, ".. versionadded:: 5.0\n   The ``theme`` option.")?;
    }

    #[test]
    fn a_navigation_line_inserted_inside_a_span_degrades_it(seed in any::<u64>()) {
        block_inside_case(seed, "Previous topic | Next topic | This page")?;
    }
}

/// `text` broken into lines of at most `width` chars at spaces, as another extractor wraps it.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ') {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

/// A new extractor re-wraps every line, and one paragraph was replaced by another: every line
/// changed, so each rung that reads a re-extraction runs (rung 6b aligns by edit distance
/// between where the text around a span went). What stands in the replaced paragraph's place
/// is other text: a citation of the old paragraph is `lost` (unless two fifths of its letters
/// recur as its words in order, which this 50-word vocabulary allows by chance), and every
/// citation of the other paragraphs is placed over its own text.
fn rewrapped_with_a_paragraph_replaced_case(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    // Long enough for the diff to read a re-extraction (`diff::LONG_TEXT`, 4,096 chars).
    let paras: Vec<Para> = (0..24).map(|i| paragraph(&mut rng, i)).collect();
    let old = join(&paras);
    let stored = cite(&paras, &mut rng, 40);
    let replaced = rng.usize(..paras.len());
    let width = 30 + rng.usize(..40);
    let fresh = paragraph(&mut rng, 100);
    let new_paras: Vec<Para> = paras
        .iter()
        .map(|p| Para {
            id: p.id,
            text: wrap(
                if p.id == replaced {
                    &fresh.text
                } else {
                    &p.text
                },
                width,
            ),
        })
        .collect();
    let new = join(&new_paras);
    let anchors = sweep(&old, &new, &stored, ChunkSpec::Paragraph { max: 500 });
    check_invariants(&old, &new, &stored, &anchors);
    for (a, s) in anchors.iter().zip(&stored) {
        let gone = s.para == Some(replaced)
            && !survives(&s.text, &new)
            && words_in_order(&s.text, &new) < 0.4;
        if gone && s.text.len() >= 60 {
            prop_assert_eq!(a.status, Status::Lost, "{:?} {:?}", s.text, a);
        }
        if s.para.is_some_and(|p| p != replaced) {
            prop_assert_ne!(a.status, Status::Lost, "{:?} {:?}", s.text, a);
            prop_assert_eq!(
                fold_text(&text_at(&new, a)),
                fold_text(&s.text),
                "{:?} {:?}",
                s.text,
                a
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_rewrapped_text_with_a_paragraph_replaced_loses_only_that_paragraph(seed in any::<u64>()) {
        rewrapped_with_a_paragraph_replaced_case(seed)?;
    }
}
