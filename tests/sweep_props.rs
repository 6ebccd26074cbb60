//! Property tests of the sweep's invariants over generated corpora with random edits (issue 5,
//! "Must show"): paragraphs of random words, cited the way `cite` stores citations, then edited
//! by insertions, deletions, paragraph moves, typography changes, headers inserted mid-sentence,
//! re-chunking only, or a whole-document rewrite.

use citestore::chunk::ChunkSpec;
use citestore::cite::unique_context;
use citestore::sweep::{Anchor, Citation, DocumentSweep, NewChunk, Status};
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
    let citations: Vec<Citation> = stored
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
            assert_eq!(
                text_at(new, a),
                s.text,
                "exact status without the exact text: {a:?}"
            );
            assert_eq!(a.status == Status::Intact, a.start == s.start, "{a:?}");
        }
        if occurrences(new, &s.text) == 1 {
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
            let gone = s.para.is_some_and(|p| deleted.contains(&p)) && !new.contains(&s.text);
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
            if a.status == Status::Degraded {
                prop_assert_eq!(a.method, citestore::sweep::Method::Folded);
                prop_assert_eq!(fold_text(&text_at(&new, a)), fold_text(&s.text));
            }
        }
    }

    /// A whole-document rewrite: nothing is falsely anchored, and citations whose text is gone
    /// are lost.
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
            if !new.contains(&s.text) && s.text.len() >= 60 {
                prop_assert_eq!(a.status, Status::Lost, "{:?} {:?}", s.text, a);
            }
        }
    }
}
