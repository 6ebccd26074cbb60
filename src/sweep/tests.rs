//! Table-driven tests of each step and of the tricky cases of issue 5.

use super::*;
use crate::chunk::ChunkSpec;
use crate::cite::unique_context;
use crate::text::{content_hash, fold};

/// A citation as the store would hold it.
struct Stored {
    id: String,
    start: usize,
    end: usize,
    quote: String,
    span_text: String,
    prefix: String,
    suffix: String,
    chunk_hash: String,
    chunk_start: usize,
}

impl Stored {
    fn borrow(&self) -> Citation<'_> {
        Citation {
            id: &self.id,
            start: self.start,
            end: self.end,
            quote: &self.quote,
            span_text: &self.span_text,
            prefix: &self.prefix,
            suffix: &self.suffix,
            chunk_content_hash: &self.chunk_hash,
            chunk_normaliser: crate::text::NORMALISER_VERSION,
            chunk_start: self.chunk_start,
        }
    }
}

const SPEC: ChunkSpec = ChunkSpec::Paragraph { max: 120 };

fn chunks(text: &str, spec: ChunkSpec) -> Vec<NewChunk> {
    let chars: Vec<char> = text.chars().collect();
    spec.spans(text)
        .into_iter()
        .map(|s| NewChunk {
            chunk_id: format!("d@#{}-{}", s.start, s.end),
            start: s.start,
            end: s.end,
            content_hash: content_hash(&chars[s.start..s.end].iter().collect::<String>()),
            normaliser: crate::text::NORMALISER_VERSION.into(),
        })
        .collect()
}

/// Cites the `nth` occurrence (from 0) of `needle` in `old`, as `cite` would store it.
fn cite(old: &str, needle: &str, nth: usize) -> Stored {
    let byte = old
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle:?} #{nth} not in the old text"))
        .0;
    let start = old[..byte].chars().count();
    let end = start + needle.chars().count();
    let (prefix, span_text, suffix) = unique_context(old, start, end);
    let chunk = chunks(old, SPEC)
        .into_iter()
        .find(|c| c.start <= start && end <= c.end)
        .or_else(|| {
            chunks(old, SPEC)
                .into_iter()
                .find(|c| c.start <= start && start < c.end)
        })
        .expect("a chunk");
    Stored {
        id: "c-1".into(),
        start,
        end,
        quote: needle.into(),
        span_text,
        prefix,
        suffix,
        chunk_hash: chunk.content_hash,
        chunk_start: chunk.start,
    }
}

fn sweep_one(old: &str, new: &str, stored: &Stored) -> Anchor {
    let new_chunks = chunks(new, SPEC);
    let citations = [stored.borrow()];
    DocumentSweep::new(old, new, &new_chunks, &citations)
        .reanchor_all()
        .remove(0)
}

fn text_at(text: &str, a: &Anchor) -> String {
    text.chars().skip(a.start).take(a.end - a.start).collect()
}

const P1: &str =
    "Sphinx builds documentation from reStructuredText sources. It supports many output formats.";
const P2: &str =
    "The configuration file conf.py sets the project name, the theme and the extensions to load.";
const P3: &str = "Extensions add directives and roles; the autodoc extension imports modules to read docstrings.";
const P4: &str =
    "Themes change the look of the HTML output without touching the sources themselves.";

fn doc(paragraphs: &[&str]) -> String {
    paragraphs.join("\n\n") + "\n"
}

/// (name, old, new, cited text, expected status, expected method, text expected at the anchor)
type Case = (
    &'static str,
    String,
    String,
    &'static str,
    Status,
    Method,
    Option<String>,
);

fn cases() -> Vec<Case> {
    let base = doc(&[P1, P2, P3, P4]);
    let quote = "the theme and the extensions to load";
    let dashed = doc(&[
        P1,
        P2,
        &P3.replace("; the autodoc", " \u{2014} the autodoc"),
        P4,
    ]);
    let typographic = doc(&[P1, P2, &P3.replace("; the autodoc", " - the Autodoc"), P4]);
    vec![
        (
            "same text",
            base.clone(),
            base.clone(),
            quote,
            Status::Intact,
            Method::SameText,
            Some(quote.into()),
        ),
        (
            "paragraph inserted above: the chunk's hash finds it",
            base.clone(),
            doc(&["A new opening paragraph.", P1, P2, P3, P4]),
            quote,
            Status::Moved,
            Method::ContentHash,
            Some(quote.into()),
        ),
        (
            "edit in the same paragraph above the span: exact search",
            base.clone(),
            base.replace("configuration file conf.py", "file conf.py"),
            quote,
            Status::Moved,
            Method::Exact,
            Some(quote.into()),
        ),
        (
            "edit after the span, same chunk: exact search, same offsets",
            base.clone(),
            base.replace("to load.", "to load at start-up."),
            "The configuration file conf.py sets",
            Status::Intact,
            Method::Exact,
            Some("The configuration file conf.py sets".into()),
        ),
        (
            "paragraph moved",
            base.clone(),
            doc(&[P1, P3, P4, P2]),
            quote,
            Status::Moved,
            Method::ContentHash,
            Some(quote.into()),
        ),
        (
            "typography and case changed inside the span: the same words, intact",
            dashed,
            typographic,
            "directives and roles \u{2014} the autodoc extension",
            Status::Intact,
            Method::Folded,
            Some("directives and roles - the Autodoc extension".into()),
        ),
        (
            "paragraph re-wrapped in place: the same words, intact",
            base.clone(),
            base.replace("the theme and the", "the theme\nand the"),
            "sets the project name, the theme and the extensions to load",
            Status::Intact,
            Method::Folded,
            Some("sets the project name, the theme\nand the extensions to load".into()),
        ),
        (
            "paragraph moved and re-wrapped: the same words, moved",
            base.clone(),
            doc(&[
                P1,
                P3,
                P4,
                &P2.replace("the theme and the", "the theme\n  and the"),
            ]),
            "sets the project name, the theme and the extensions to load",
            Status::Moved,
            Method::Folded,
            Some("sets the project name, the theme\n  and the extensions to load".into()),
        ),
        (
            "light edit inside the span: the diff follows it",
            base.clone(),
            base.replace("the theme and the", "the HTML theme and all the"),
            "sets the project name, the theme and the extensions to load",
            Status::Degraded,
            Method::Diff,
            Some("sets the project name, the HTML theme and all the extensions to load".into()),
        ),
        (
            "running header inserted inside the span: degraded, covering it",
            base.clone(),
            base.replace(
                "the theme and",
                "the theme\n\n[Sphinx manual, page 4]\n\nand",
            ),
            "sets the project name, the theme and the extensions",
            Status::Degraded,
            Method::Diff,
            Some(
                "sets the project name, the theme\n\n[Sphinx manual, page 4]\n\nand the extensions"
                    .into(),
            ),
        ),
        (
            "a heading inserted inside the span: degraded, covering both pieces (item 2)",
            base.clone(),
            base.replace(
                "conf.py sets the project name,",
                "conf.py sets the project name,\n\nThe theme\n=========\n\nand",
            ),
            "The configuration file conf.py sets the project name, the theme and the extensions to load.",
            Status::Degraded,
            Method::Diff,
            Some(
                "The configuration file conf.py sets the project name,\n\nThe theme\n=========\n\nand the theme and the extensions to load."
                    .into(),
            ),
        ),
        (
            "a versionadded block dropped inside the span: degraded (item 2)",
            doc(&[
                "The configuration file conf.py sets the project name.\n\n.. versionadded:: 4.1\n   The theme option.\n\nIt also sets the theme and the extensions to load.",
                P3,
            ]),
            doc(&[
                "The configuration file conf.py sets the project name.\n\nIt also sets the theme and the extensions to load.",
                P3,
            ]),
            "sets the project name.\n\n.. versionadded:: 4.1\n   The theme option.\n\nIt also sets the theme and the extensions",
            Status::Degraded,
            Method::Diff,
            Some("sets the project name.\n\nIt also sets the theme and the extensions".into()),
        ),
        (
            "words reworded leaving about 70%: degraded, not lost (item 1)",
            base.clone(),
            base.replace(
                "the theme and the extensions to load",
                "custom builders with their parameters to load",
            ),
            "The configuration file conf.py sets the project name, the theme and the extensions to load.",
            Status::Degraded,
            Method::Diff,
            Some(
                "The configuration file conf.py sets the project name, custom builders with their parameters to load."
                    .into(),
            ),
        ),
        (
            "the span's tail rewritten: degraded over the rewritten sentence (item 1)",
            base.clone(),
            base.replace(
                "the theme and the extensions to load.",
                "and nothing else whatsoever today.",
            ),
            "The configuration file conf.py sets the project name, the theme and the extensions to load.",
            Status::Degraded,
            Method::Diff,
            Some(
                "The configuration file conf.py sets the project name, and nothing else whatsoever today."
                    .into(),
            ),
        ),
        (
            "span deleted, nothing like it left",
            base.clone(),
            doc(&[P1, P3, P4]),
            quote,
            Status::Lost,
            Method::None,
            None,
        ),
        (
            "whole document rewritten",
            base.clone(),
            doc(&[
                "Completely different words now fill this document from top to bottom.",
                "Nothing of the earlier text remains, not a single sentence of it.",
            ]),
            quote,
            Status::Lost,
            Method::None,
            None,
        ),
    ]
}

#[test]
fn steps_table() {
    for (name, old, new, cited, status, method, text) in cases() {
        let stored = cite(&old, cited, 0);
        let got = sweep_one(&old, &new, &stored);
        assert_eq!(
            (got.status, got.method),
            (status, method),
            "{name}: {got:?}"
        );
        if let Some(text) = text {
            assert_eq!(text_at(&new, &got), text, "{name}: {got:?}");
            assert!(got.chunk_id.is_some(), "{name}: a chunk holds it");
            // The score is 100 exactly when the text there folds as the cited text does; a
            // span found though its words changed says so.
            let same_words = fold(&text).chars == fold(cited).chars;
            assert_eq!(got.score == 100.0, same_words, "{name}: {got:?}");
            if got.status != Status::Degraded && text != cited {
                assert_eq!(
                    got.reason.as_deref(),
                    Some(super::TYPOGRAPHY_CHANGED),
                    "{name}"
                );
            }
        } else {
            assert_eq!(
                (got.start, got.end),
                (stored.start, stored.end),
                "{name}: last known span"
            );
            assert!(got.reason.is_some(), "{name}: lost says why");
        }
    }
}

#[test]
fn deleted_sentence_is_lost_not_anchored_to_a_negated_look_alike() {
    let kept = "In version 3 the parallel build is not supported on Windows machines.";
    let gone = "In version 2 the parallel build was supported on Windows machines.";
    let old = doc(&[P1, gone, P2, P3, kept, P4]);
    let new = doc(&[P1, P2, P3, kept, P4]);
    let stored = cite(&old, gone, 0);
    let got = sweep_one(&old, &new, &stored);
    assert_eq!(got.status, Status::Lost, "{got:?}");
    // A look-alike right next to it that is not a negation, already in the old revision, is
    // refused too: its characters come from other old text, not from the cited span.
    let twin = "In version 3 the parallel build was supported on Linux machines.";
    let old = doc(&[P1, gone, twin, P2]);
    let new = doc(&[P1, twin, P2]);
    let got = sweep_one(&old, &new, &cite(&old, gone, 0));
    assert_eq!(got.status, Status::Lost, "{got:?}");
    assert!(
        got.reason.as_deref().unwrap().contains("look-alike"),
        "{got:?}"
    );
}

#[test]
fn duplicated_paragraph_is_ambiguous_unless_context_decides() {
    // The paragraph now appears twice with the same surroundings: which copy is meant is
    // unknowable.
    let old = doc(&[P1, P2, P3]);
    let new = doc(&[P1, P2, P2, P3]);
    let got = sweep_one(&old, &new, &cite(&old, P2, 0));
    assert_eq!(
        (got.status, got.method),
        (Status::Degraded, Method::Exact),
        "{got:?}"
    );
    assert!(
        got.reason.as_deref().unwrap().starts_with("ambiguous"),
        "{got:?}"
    );
    assert_eq!(text_at(&new, &got), P2);
    // A copy far away, with other surroundings: the old context picks the right one.
    let new = doc(&[P4, P2, P1, P2, P3]);
    let got = sweep_one(&old, &new, &cite(&old, P2, 0));
    assert_eq!(got.status, Status::Moved, "{got:?}");
    let expected_start = doc(&[P4, P2, P1]).chars().count() + 1;
    assert_eq!(got.start, expected_start, "the copy between P1 and P3");
}

#[test]
fn rechunking_alone_keeps_every_citation_intact_in_its_new_chunk() {
    let text = doc(&[P1, P2, P3, P4]);
    let stored: Vec<Stored> = [P1, "the theme and the", P3, "without touching"]
        .iter()
        .map(|q| cite(&text, q, 0))
        .collect();
    let citations: Vec<Citation<'_>> = stored.iter().map(Stored::borrow).collect();
    let new_chunks = chunks(
        &text,
        ChunkSpec::Chars {
            size: 60,
            overlap: 10,
        },
    );
    let got = DocumentSweep::new(&text, &text, &new_chunks, &citations).reanchor_all();
    for (a, s) in got.iter().zip(&stored) {
        assert_eq!(a.status, Status::Intact);
        assert_eq!((a.start, a.end), (s.start, s.end));
        let chunk = new_chunks
            .iter()
            .find(|c| Some(&c.chunk_id) == a.chunk_id.as_ref())
            .unwrap();
        assert!(
            chunk.start < s.end && s.start < chunk.end,
            "chunk overlaps the span"
        );
    }
}

#[test]
fn moved_and_lightly_edited_paragraph_is_found_by_its_letters() {
    let old = doc(&[P1, P2, P3, P4]);
    let edited = P2.replace("sets the", "sets up the");
    let new = doc(&[P1, P3, P4, &edited]);
    let got = sweep_one(&old, &new, &cite(&old, P2, 0));
    // The diff sees a deletion and an insertion; the letters rung finds every letter of the
    // paragraph, in order, where it moved, with the inserted word inside.
    assert_eq!(
        (got.status, got.method),
        (Status::Degraded, Method::Diff),
        "{got:?}"
    );
    assert!(
        got.reason.as_deref().unwrap().contains("3 characters more"),
        "{got:?}"
    );
    assert_eq!(text_at(&new, &got), edited);
    assert!(got.score >= ELSEWHERE_ACCEPT);
}

/// A manual page as pdftotext gives it (`⟨…⟩` glyphs come out as `h…i`), and the same page
/// from pdfminer.six: the glyphs as `(cid:104)…(cid:105)` placeholders, accents as spacing
/// accents beside their letter (`ˆetre`, `r´eel`), lines joined differently.
const MANUAL_OLD: &str = "Trigonometric functions are typeset upright by the package.\n\n\
\\Re {hexpressioni}\n\\Im {hexpressioni}\n\\Arg {hexpressioni}\n\\Log {hexpressioni}\n\\Exp {hexpressioni}\n\
These commands typeset the real and imaginary parts, the argument and the exponential, which \
may also be written as a function of the réel variable.\n\n\
Greek letters peut être upright or italic, as the isomath package provides.\n";
const MANUAL_NEW: &str = "Trigonometric functions are typeset upright by the\npackage.\n\n\
\\Re {(cid:104)expression(cid:105)}\n\\Im {(cid:104)expression(cid:105)}\n\
\\Arg {(cid:104)expression(cid:105)}\n\\Log {(cid:104)expression(cid:105)}\n\
\\Exp {(cid:104)expression(cid:105)}\n\n\
These commands typeset the real and imaginary parts, the argument and the exponential,\n\
which may also be written as a function of the r\u{B4}eel variable.\n\n\
Greek letters peut \u{2C6}etre upright or italic, as the isomath package provides.\n";

#[test]
fn glyph_placeholders_and_spacing_accents_of_another_extractor_do_not_lose_a_passage() {
    let cited = "\\Log {hexpressioni}\n\\Exp {hexpressioni}\nThese commands typeset the real";
    let got = sweep_one(MANUAL_OLD, MANUAL_NEW, &cite(MANUAL_OLD, cited, 0));
    assert_eq!(
        (got.status, got.method),
        (Status::Degraded, Method::Diff),
        "{got:?}"
    );
    assert_eq!(
        text_at(MANUAL_NEW, &got),
        "\\Log {(cid:104)expression(cid:105)}\n\\Exp {(cid:104)expression(cid:105)}\n\n\
These commands typeset the real"
    );
    let cited = "Greek letters peut être upright or italic";
    let got = sweep_one(MANUAL_OLD, MANUAL_NEW, &cite(MANUAL_OLD, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert_eq!(
        text_at(MANUAL_NEW, &got),
        "Greek letters peut \u{2C6}etre upright or italic"
    );
}

/// A formulaic manual: the same sentence introduces every command, so few of its letters are
/// unique anywhere.
fn formula_sections(commands: &[&str], accents: bool) -> String {
    let sentence = |c: &str| {
        let s = format!(
            "La commande \\{c}{{}} écrit le vecteur d’un point lié à un solide. Elle prend \
             dans l’ordre le repère, le point d’évaluation puis le solide. Dans l’exemple qui \
             suit, la commande \\{c}[R_g]{{A}}{{S}} donne :"
        );
        if accents {
            s.replace('é', "\u{B4}e")
                .replace('è', "`e")
                .replace('à', "`a")
        } else {
            s
        }
    };
    let mut out = String::from("Mécanique du solide, commandes.\n\n");
    for (k, c) in commands.iter().enumerate() {
        out += &format!("{}.1 Section\n\n{}\n\n", k + 1, sentence(c));
    }
    out
}

#[test]
fn a_copy_of_repeated_text_is_placed_on_the_same_copy_in_another_extraction() {
    let commands = ["Vit", "Acc", "Force", "Mv", "Power"];
    let old = formula_sections(&commands, false);
    // pdfminer: spacing accents, and every section's number written after its sentence.
    let new = formula_sections(&commands, true).replace(".1 Section\n\n", "\n\n");
    let cited = "Elle prend dans l’ordre le repère, le point d’évaluation puis le solide. Dans \
                 l’exemple qui suit, la commande \\Mv";
    let got = sweep_one(&old, &new, &cite(&old, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    let at = text_at(&new, &got);
    assert!(
        at.starts_with("Elle prend") && at.ends_with("\\Mv"),
        "{at:?}"
    );
    // The fourth copy, not another: the span ends at this section's command.
    let fourth = new.match_indices("Elle prend").nth(3).unwrap().0;
    assert_eq!(got.start, new[..fourth].chars().count(), "{got:?}");
}

#[test]
fn a_deleted_copy_of_repeated_text_is_not_placed_on_another_copy() {
    let old = formula_sections(&["Vit", "Acc", "Force", "Mv"], false);
    // The third section is deleted and another copy of the sentence added at the end: the
    // copies are as many as before, so the one of the same rank is a copy that already existed.
    let new = formula_sections(&["Vit", "Acc", "Mv", "Force"], false).replace("Force", "Forces");
    let cited = "Elle prend dans l’ordre le repère, le point d’évaluation puis le solide. Dans \
                 l’exemple qui suit, la commande \\Force";
    let got = sweep_one(&old, &new, &cite(&old, cited, 0));
    let mv = new.match_indices("Elle prend").nth(2).unwrap().0;
    assert_ne!(got.start, new[..mv].chars().count(), "{got:?}");
}

#[test]
fn a_placed_span_ends_at_its_last_letter_found_not_at_text_assumed_there() {
    // pdfminer put the cited sentence's last line elsewhere on the page: the span's text here
    // ends at `l’adresse`, and the next paragraph is not part of it.
    let old = "Mécanique du solide\n\nYoussef Derrazi\n\n\
Pour toute remarque ou question, prière de prendre contact à l’adresse\nmail suivante\n\n\
Ce package est déployé sous la license GNU General Public License.\n";
    let new = "Mécanique du solide\n\nmail suivante\n\nYoussef Derrazi\n\n\
Pour toute remarque ou question, pri`ere de prendre contact `a l’adresse\n\n\
Ce package est d\u{B4}eploy\u{B4}e sous la license GNU General Public License.\n";
    let cited = "Pour toute remarque ou question, prière de prendre contact à l’adresse\nmail";
    let got = sweep_one(old, new, &cite(old, cited, 0));
    if got.status != Status::Lost {
        let at = text_at(new, &got);
        assert!(!at.contains("Ce package"), "{at:?}");
        assert!(at.starts_with("Pour toute remarque"), "{at:?}");
    }
}

#[test]
fn quote_found_verbatim_where_the_span_text_is_not() {
    let old = doc(&[P1, P2, P3]);
    let mut stored = cite(&old, "the theme and the extensions", 0);
    stored.quote = "the theme and all extensions".into();
    let new = old.replace(
        "the theme and the extensions",
        "the theme and all extensions",
    );
    let got = sweep_one(&old, &new, &stored);
    assert_eq!(
        (got.status, got.method),
        (Status::Degraded, Method::Exact),
        "{got:?}"
    );
    assert_eq!(text_at(&new, &got), "the theme and all extensions");
}

#[test]
fn anchors_serialise_with_lowercase_status_and_kebab_method() {
    let a = Anchor {
        status: Status::Degraded,
        start: 1,
        end: 2,
        chunk_id: None,
        score: 90.0,
        method: Method::ContentHash,
        reason: Some("x".into()),
    };
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["status"], "degraded");
    assert_eq!(json["method"], "content-hash");
    assert_eq!(Method::SameText.as_str(), "same-text");
}

#[test]
fn a_nearby_edit_does_not_hide_which_copy_is_meant() {
    // The cited sentence occurs twice; the words right around the cited copy changed, so no
    // surrounding char is equal up to the edit, but the diff carried the rest of its paragraph.
    let s = "The default value is None.";
    let old = doc(&[P1, &format!("{P2} {s} {P3}"), &format!("{P4} {s} {P1}")]);
    let new = doc(&[
        "An inserted paragraph moves everything down.",
        P1,
        &format!("{P2} {s} {P3}"),
        &format!("{P4}! {s}. {P1}"),
    ]);
    let got = sweep_one(&old, &new, &cite(&old, s, 1));
    assert_eq!(got.status, Status::Moved, "{got:?}");
    let second_copy = new.match_indices(s).nth(1).unwrap().0;
    assert_eq!(got.start, new[..second_copy].chars().count());
}

#[test]
fn inconsistent_citations_are_lost_with_a_reason_not_a_panic() {
    let old = doc(&[P1, P2]);
    let mut stored = cite(&old, "the theme and", 0);
    stored.span_text = "something else".into();
    for new in [old.clone(), doc(&[P2, P1])] {
        let got = sweep_one(&old, &new, &stored);
        assert_eq!(got.status, Status::Lost, "{got:?}");
        assert!(got.reason.as_deref().unwrap().contains("inconsistent"));
    }
    stored.start = 10_000;
    stored.end = 10_000 + stored.span_text.chars().count();
    let got = sweep_one(&old, &doc(&[P2]), &stored);
    assert_eq!(got.status, Status::Lost);
}

#[test]
fn what_is_left_of_a_long_span_is_not_a_perfect_match() {
    // The new revision keeps only the start of the cited paragraph: a third of it survives.
    let old = doc(&[P1, P2, P3]);
    let new = "Sphinx builds documentation from\n".to_string();
    let got = sweep_one(&old, &new, &cite(&old, P1, 0));
    assert_eq!(got.status, Status::Lost, "{got:?}");
}

#[test]
fn similar_fuzzy_candidates_are_ambiguous_unless_the_old_context_decides() {
    // The cited paragraph left its place; a lightly edited copy appears twice elsewhere.
    let edited = P2.replace("sets the", "sets up the");
    // Far from the paragraphs that surrounded it (fillers between), with no old context around
    // either copy.
    let filler = "A filler paragraph of fresh words that keeps the copies away from the start";
    let old = doc(&[P1, P2, P3, P4]);
    let mut paras = vec![P1, P3, P4, filler, filler, filler];
    paras.extend([edited.as_str(), "Unrelated words.", edited.as_str()]);
    let new = doc(&paras);
    let got = sweep_one(&old, &new, &cite(&old, P2, 0));
    assert_eq!(
        (got.status, got.method),
        (Status::Degraded, Method::Fuzzy),
        "{got:?}"
    );
    assert!(
        got.reason.as_deref().unwrap().starts_with("ambiguous"),
        "{got:?}"
    );
    // The second copy follows a copy of the paragraph that preceded the citation: that decides.
    paras.insert(paras.len() - 1, P1);
    let new = doc(&paras);
    let got = sweep_one(&old, &new, &cite(&old, P2, 0));
    assert_eq!(
        (got.status, got.method),
        (Status::Degraded, Method::Fuzzy),
        "{got:?}"
    );
    assert!(
        got.reason.as_deref().unwrap().contains("old context picks"),
        "{got:?}"
    );
    assert_eq!(
        new.chars().count() - 1 - got.end,
        0,
        "the last copy: {got:?}"
    );
}

/// Lines of pseudo-random words, about `bytes` long, from `seed` (two seeds share no lines).
fn random_lines(seed: u64, bytes: usize) -> Vec<String> {
    const WORDS: &[&str] = &[
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
        "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
    ];
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut lines = Vec::new();
    let mut total = 0;
    while total < bytes {
        let line: Vec<&str> = (0..12).map(|_| WORDS[rng.usize(..WORDS.len())]).collect();
        let line = line.join(" ");
        total += line.len() + 1;
        lines.push(line);
    }
    lines
}

#[test]
fn a_fully_rewritten_2mb_document_reanchors_in_bounded_work() {
    let survivors: Vec<String> = (0..3)
        .map(|k| {
            format!(
                "Survivor sentence {k} keeps the quota at {} requests per day.",
                k * 11 + 5
            )
        })
        .collect();
    let vanished: Vec<String> = (0..3)
        .map(|k| {
            format!(
                "Deprecated endpoint {k} was retired on day {} of the migration.",
                k * 13 + 2
            )
        })
        .collect();
    let mut old_lines = random_lines(1, 2 << 20);
    let mut new_lines = random_lines(2, 2 << 20);
    let len = old_lines.len();
    for (k, s) in survivors.iter().enumerate() {
        old_lines.insert((k + 1) * len / 8, s.clone());
        // Elsewhere in the rewritten text, in a different order.
        new_lines.insert((7 - k) * len / 8, s.clone());
    }
    for (k, v) in vanished.iter().enumerate() {
        old_lines.insert((k + 4) * len / 8 + 3, v.clone());
    }
    let old = old_lines.join("\n") + "\n";
    let new = new_lines.join("\n") + "\n";
    assert!(old.len() > 2 << 20 && new.len() > 2 << 20);

    let (old_chars, new_chars): (Vec<char>, Vec<char>) =
        (old.chars().collect(), new.chars().collect());
    let map = DiffMap::new(&old_chars, &new_chars);
    assert!(
        map.fell_back(),
        "a rewrite this size must take the bounded fallback"
    );
    let bound = 2 * diff::DIFF_WORK_BUDGET + 4 * (old_chars.len() + new_chars.len());
    assert!(map.work() <= bound, "diff work {} > {bound}", map.work());

    let stored: Vec<Stored> = survivors
        .iter()
        .chain(&vanished)
        .enumerate()
        .map(|(i, text)| Stored {
            id: format!("c-{i}"),
            ..cite(&old, text, 0)
        })
        .collect();
    let citations: Vec<Citation<'_>> = stored.iter().map(Stored::borrow).collect();
    let new_chunks = chunks(&new, ChunkSpec::Paragraph { max: 1500 });
    let anchors = DocumentSweep::new(&old, &new, &new_chunks, &citations).reanchor_all();
    for (a, text) in anchors.iter().zip(&survivors) {
        assert_eq!(a.status, Status::Moved, "{text}: {a:?}");
        assert_eq!(&text_at(&new, a), text);
    }
    for (a, text) in anchors[survivors.len()..].iter().zip(&vanished) {
        assert_eq!(a.status, Status::Lost, "{text}: {a:?}");
    }
}

#[test]
fn ordinary_edits_never_fall_back() {
    let old = doc(&[P1, P2, P3, P4]);
    let new = doc(&[P4, P1, &P2.replace("theme", "colour scheme"), P3]);
    let (o, n): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
    let map = DiffMap::new(&o, &n);
    assert!(!map.fell_back());
    assert!(map.work() < 10_000, "{}", map.work());
}

/// A bibliography as pdftotext gives it, and as pypdf gives it from a font whose small
/// capitals and old-style figures have no Unicode mapping: each such glyph is written as its
/// name (`/b.sc`, `/one.taboldstyle`).
const BIB_OLD: &str = "References\n\n[Nie14]\n\nClemens N i e d e r b e r g e r. cnltx. version \
0.10a, Jan. 23, 2014.\nu r l: http://mirror.ctan.org/macros/latex/contrib/cnltx/.\n\n[Tan13]\n\n\
Till Ta n tau. TikZ/pgf. version 3.0.0, Dec. 13, 2013.\n\
u r l: http://mirror.ctan.org/graphics/pgf/.\n";
const BIB_NEW: &str = "References\n[Nie/one.taboldstyle/four.taboldstyle] Clemens N /i.sc /e.sc \
/d.sc /e.sc /r.sc /b.sc /e.sc /r.sc /g.sc /e.sc /r.sc. cnltx. version \
/zero.taboldstyle./one.taboldstyle/zero.taboldstylea, Jan. /two.taboldstyle/three.taboldstyle, \
/two.taboldstyle/zero.taboldstyle/one.taboldstyle/four.taboldstyle.\n\
/u.sc /r.sc /l.sc: http://mirror.ctan.org/macros/latex/contrib/cnltx/.\n\
[Tan/one.taboldstyle/three.taboldstyle] Till T/a.sc /n.sc /t.sc/a.sc/u.sc. TikZ/pgf. version \
/three.taboldstyle./zero.taboldstyle./zero.taboldstyle, Dec. /one.taboldstyle/three.taboldstyle, \
/two.taboldstyle/zero.taboldstyle/one.taboldstyle/three.taboldstyle.\n\
/u.sc /r.sc /l.sc: http://mirror.ctan.org/graphics/pgf/.\n";

/// A code listing cited from pdftotext, which left out the line numbers of its second copy of
/// a block; the other extractor has the number (`21`) inside the cited copy, and the first copy
/// unchanged.
const LISTING_OLD: &str =
    "\\begin{ribbonproof}\n}]{Choose $\\beta$}\n\\\\\n\\startblock[fit boxes={alpha},\n\
extra left=10, extra right=2, start ribbons={\na/{left=0,right=10}}]{while (x!=0) \\{}\n\
\\end{ribbonproof}\n\nThe second proof reuses the same block with a finish ribbon.\n\n\
\\begin{ribbonproof}\n}]{Choose $\\alpha:=\\delta$}\n\\\\\n\\startblock[fit boxes={alpha},\n\
extra left=10, extra right=2, finish ribbons={a}, start ribbons={\n\
a/{left=-5,right=10,label=\\frac12}}]\n\\end{ribbonproof}\n";

/// A page of a mechanics manual as pdftotext gives it, and as pdfminer.six does: the formulas
/// laid out otherwise and the next heading's words (`Energie cinétique : mouvement de …`) again
/// a few lines further down.
const KINETIC_OLD: &str = " :\n\u{8}\n1\u{8}\nC(D/R) ⊗ V(D/R)\n2\n\n\
La commande \\KEtor[]{} permet d’exprimer sous forme torsorielle\n\
l’énergie cinétique d’un solide par rapport à un repère déterminé. Elle prend\n\
comme paramètre le nom du solide précédé du nom du repère. Dans l’exemple\n\
qui suit, \\KEtor[0]{1} donne :\n\u{8}\n1\u{8}\nC(1/0) ⊗ V(1/0)\n2\n21\n\n\u{c}8.3.2\n\n\
Energie cinétique : mouvement de translation seule\n\n\
La commande \\KineticT{}{} permet d’exprimer sous forme explicite\n\
l’énergie cinétique d’un solide en translation par rapport à un repère arbitraire R. Elle prend comme paramètre le point d’évaluation puis le nom du\n\
solide. Dans l’exemple qui suit, \\KineticT{A}{S} donne :\n\nra\nzi\n\n1 →\nmS −\n\
v 2A∈S/R\n2\nLa commande \\KineticT[]{}{} permet de tenir compte du repère\n\
choisi. Elle prend comme paramètre le le point d’évaluation puis le nom\n\
du solide précédé du nom du repère. Dans l’exemple qui suit, la commande\n\
\\KineticT[R_g]{A}{S} donne :\n1 →\nmS −\nv 2A∈S/Rg\n2\n8.3.3\n\n\
Energie cinétique : mouvement de rotation seule\n\n.D\ner\n\n\
La commande \\KineticR{}{} permet d’exprimer s";
const KINETIC_NEW: &str = "met d’exprimer sous forme torsorielle l’´energie\n\n\
8.3.1 Energie cin´etique : expression torsorielle implicite\n\n\
La commande \\KEtor[]{} permet d’exprimer sous forme torsorielle\n\
l’´energie cin´etique d’un solide par rapport `a un rep`ere d´etermin´e. Elle prend\n\
comme param`etre le nom du solide pr´ec´ed´e du nom du rep`ere. Dans l’exemple\n\
qui suit, \\KEtor[0]{1} donne :\n\n(cid:9) ⊗ (cid:8)V(D/R)\n\n(cid:8)C(D/R)\n\nM ∈1/0dm\n\
\n−→v 2\n\n1\n2\n\n1\n2\n\nM ∈1\n\n(cid:9)\n\n(cid:90)\n\n(cid:8)C(1/0)\n\n\
(cid:9) ⊗ (cid:8)V(1/0)\n\n(cid:9)\n\n1\n2\n\n21\n\n\
\u{c}8.3.2 Energie cin´etique : mouvement de translation seule\n\n1\n2\n\n1\n2\n\nmS\n\n\
mS\n\nA∈S/R\n\nA∈S/Rg\n\n−→v 2\n\n−→v 2\n\n\\KineticT[R_g]{A}{S} donne :\n\n\
8.3.3 Energie cin´etique : mouvement de rotation seule\n\n\
La commande \\KineticT{}{} permet d’exprimer sous forme explicite\n\
l’´energie cin´etique d’un solide en translation par rapport `a un rep`ere arbi-\n\
traire R. Elle prend comme param`etre le point d’´evaluation puis le nom du\n\
solide. Dans l’exemple qui suit, \\KineticT{A}{S} donne :\n\n\
La commande \\KineticT[]{}{} permet de tenir compte du rep`ere\n\
choisi. Elle prend comme param`etre le le poi";

const KINETIC_CITED: &str =
    "V(1/0)\n2\n21\n\n\u{c}8.3.2\n\nEnergie cine\u{301}tique : mouvement de translation";

/// (name, old, new, cited, which occurrence of it, expected status, `Ok(text)` expected at the
/// anchor (found once in the new text) or `Err(text)` the anchor's text must not hold).
type ExtractorCase = (
    &'static str,
    &'static str,
    String,
    &'static str,
    usize,
    Status,
    Result<&'static str, &'static str>,
);

fn extractor_cases() -> Vec<ExtractorCase> {
    vec![
        (
            "small capitals and old-style figures written as glyph names",
            BIB_OLD,
            BIB_NEW.into(),
            "Clemens N i e d e r b e r g e r. cnltx. version 0.10a, Jan. 23, 2014.\nu r l",
            0,
            Status::Degraded,
            Ok(
                "Clemens N /i.sc /e.sc /d.sc /e.sc /r.sc /b.sc /e.sc /r.sc /g.sc /e.sc /r.sc. \
cnltx. version /zero.taboldstyle./one.taboldstyle/zero.taboldstylea, Jan. \
/two.taboldstyle/three.taboldstyle, /two.taboldstyle/zero.taboldstyle/one.taboldstyle\
/four.taboldstyle.\n/u.sc /r.sc /l.sc",
            ),
        ),
        (
            "a line number inside the cited copy, the other copy verbatim",
            LISTING_OLD,
            LISTING_OLD.replace(
                "\\delta$}\n\\\\\n\\startblock",
                "\\delta$}\n\\\\\n21 \\startblock",
            ),
            "$}\n\\\\\n\\startblock[fit boxes={alpha},\nextra left",
            1,
            Status::Degraded,
            Ok("$}\n\\\\\n21 \\startblock[fit boxes={alpha},\nextra left"),
        ),
        (
            "formulas laid out otherwise, the next heading's words again further down",
            KINETIC_OLD,
            KINETIC_NEW.into(),
            KINETIC_CITED,
            0,
            Status::Degraded,
            Err("mouvement de rotation"),
        ),
    ]
}

#[test]
fn another_extractors_text_table() {
    for (name, old, new, cited, nth, status, expected) in extractor_cases() {
        let got = sweep_one(old, &new, &cite(old, cited, nth));
        assert_eq!(got.status, status, "{name}: {got:?}");
        match expected {
            Ok(text) => assert_eq!(text_at(&new, &got), text, "{name}: {got:?}"),
            Err(not_here) => assert!(!text_at(&new, &got).contains(not_here), "{name}: {got:?}"),
        }
    }
}

#[test]
fn a_diff_region_that_lost_part_of_the_span_gives_way_to_the_letters_fuller_one() {
    // The char diff of a whole re-extraction carries a span's first lines from elsewhere (a
    // table of contents' page numbers beside dot leaders) and reports the rest: a region that
    // starts late, with a low survival. The letters rung finds more of the span's letters in a
    // region overlapping it, and that one is reported.
    let stored = cite(KINETIC_OLD, KINETIC_CITED, 0);
    let citations = [stored.borrow()];
    let new_chunks = chunks(KINETIC_NEW, SPEC);
    let sweep = DocumentSweep::new(KINETIC_OLD, KINETIC_NEW, &new_chunks, &citations);
    let ch = sweep.changed.as_ref().unwrap();
    let needle = fold(&stored.span_text);
    let at = |s: &str| KINETIC_NEW[..KINETIC_NEW.find(s).unwrap()].chars().count();
    let (late, end) = (at("8.3.2 Energie"), at(" seule\n\n1\n2"));
    let partial = sweep.found(Status::Degraded, late, end, 60.0, Method::Diff, None);
    let got = sweep.unless_letters_hold_more(ch, &citations[0], &needle, partial.clone());
    assert!(got.start < late && got.end == end, "{got:?}");
    assert!(got.score >= 60.0 + LETTERS_BETTER, "{got:?}");
    assert!(text_at(KINETIC_NEW, &got).ends_with("mouvement de translation"));
    // The diff's region stays when the diff kept nearly all of the span, or when the letters'
    // region is somewhere else ...
    let kept = sweep.found(Status::Degraded, late, end, DIFF_MISSED, Method::Diff, None);
    let got = sweep.unless_letters_hold_more(ch, &citations[0], &needle, kept.clone());
    assert_eq!(
        (got.start, got.end, got.score),
        (kept.start, kept.end, kept.score)
    );
    let elsewhere = sweep.found(Status::Degraded, 0, 20, 60.0, Method::Diff, None);
    let got = sweep.unless_letters_hold_more(ch, &citations[0], &needle, elsewhere.clone());
    assert_eq!((got.start, got.end), (elsewhere.start, elsewhere.end));
    // ... or leaves out part of the diff's region.
    let longer = sweep.found(Status::Degraded, late, end + 40, 60.0, Method::Diff, None);
    let got = sweep.unless_letters_hold_more(ch, &citations[0], &needle, longer.clone());
    assert_eq!((got.start, got.end), (longer.start, longer.end));
}

#[test]
fn a_short_span_deleted_with_its_sentence_is_not_placed_on_words_another_shares() {
    // A word or a few cited; their sentence was replaced by another that shares some of its
    // words by chance: a handful of chars is not where the span went, however many of the
    // span's they are (the diff's runs, the letters' grams and a fuzzy alignment all find them).
    let table: [(&str, &str, &str); 2] = [
        // "warning config" and the period before the next paragraph.
        (
            "Builds stop at the first warning config.",
            "Themes may override any warning config value too.",
            "config.",
        ),
        // " option toctree" (15 chars): the whole span but its period.
        (
            "Each entry names a role option toctree.",
            "A template option toctree is named here.",
            "option toctree.",
        ),
    ];
    for (before, after, cited) in table {
        let old = doc(&[P1, before, P3]);
        let new = doc(&[P1, after, P3]);
        let got = sweep_one(&old, &new, &cite(&old, cited, 0));
        assert_eq!(got.status, Status::Lost, "{cited:?}: {got:?}");
    }
    let old = doc(&[P1, "Builds stop at the first warning config.", P3]);
    // A span long enough to tell is followed by the diff through the same edit.
    let cited = "Builds stop at the first warning config.";
    let new = doc(&[P1, "Builds stop at the first warning config file.", P3]);
    let got = sweep_one(&old, &new, &cite(&old, cited, 0));
    assert_eq!(
        (got.status, got.method),
        (Status::Degraded, Method::Diff),
        "{got:?}"
    );
    assert_eq!(
        text_at(&new, &got),
        "Builds stop at the first warning config file."
    );
}

#[test]
fn a_word_of_chance_context_does_not_take_a_copy_against_the_order_of_the_copies() {
    // A paragraph written twice; the cited second copy lost both its neighbours, and the text
    // now after the first copy happens to begin like the old text after the cited one
    // ("Function "). Both revisions hold two copies in the same order: a few chars of chance
    // agreement do not make the first copy the cited one.
    let twin = format!(
        "Function calls are cached by the builder. The cache is cleared when the \
         configuration changes. {P4} {P2}"
    );
    let after = format!("Function signatures are read from the docstrings. {P1} {P3}");
    let inserted = format!("A new paragraph was inserted by the latest release. {P3} {P1}");
    let (p2, p3) = (format!("{P2} {P4} {P1}"), format!("{P3} {P2} {P4}"));
    let old = doc(&[P1, &twin, &p2, &p3, &twin, &after, P4]);
    let new = doc(&[P1, &twin, &twin, &inserted, &after, P4]);
    let cited = "cleared when the configuration changes.";
    let got = sweep_one(&old, &new, &cite(&old, cited, 1));
    let first_copy = new[..new.find(cited).unwrap()].chars().count();
    let ambiguous = got
        .reason
        .as_deref()
        .is_some_and(|r| r.starts_with("ambiguous"));
    assert!(got.start != first_copy || ambiguous, "{got:?}");
    assert_eq!(text_at(&new, &got), cited);
}

#[test]
fn letters_of_a_script_the_old_extraction_dropped_are_inserted_material() {
    // A bilingual manual: one extractor dropped the Chinese, the other interleaves it with the
    // English of the cited passage. Its letters are none of the cited ones; the span is found
    // with them inside.
    let cited =
        "\\pascalset {⟨\n\nPascal\n⟩}\n\n{⟨\n\nkey-value\n\n3\nshape = ⟨\n\n⟩\n\n(initially iso)";
    let kept =
        "\\pascalset {⟨外观选项⟩}\n\n用于设置一个 Pascal 三角形的外观。\n在 {⟨外观选项⟩} 中可以\
                通过 key-value 方式设置三角形形状、大小等外观。\n\n3 外观选项\n\nshape = ⟨形状⟩\n\n\
                (initially iso)";
    let old = doc(&[P1, P2, cited, P3, P4]);
    let new = doc(&[P1, P2, kept, P3, P4]);
    let got = sweep_one(&old, &new, &cite(&old, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert_eq!(text_at(&new, &got), kept, "{got:?}");
}

#[test]
fn a_deleted_copy_is_not_placed_on_its_surviving_twin() {
    // The sentence is written twice; the paragraph of the cited (second) copy is deleted. The
    // first copy survives where the diff carried it: it is that copy, not where the cited one
    // went.
    let s = "Run the builder again after changing the theme.";
    let old = doc(&[P1, &format!("{P2} {s}"), P3, &format!("{P4} {s}")]);
    let new = doc(&[P1, &format!("{P2} {s}"), P3]);
    let got = sweep_one(&old, &new, &cite(&old, s, 1));
    assert_eq!(got.status, Status::Lost, "{got:?}");
}

#[test]
fn a_copy_of_a_repeated_header_with_material_inserted_is_found_where_the_diff_agrees() {
    // Every listing of a manual starts with the same licence header. One extractor wrote the
    // cited copy's line numbers on lines of their own and dropped two of its lines (a title
    // and a URL); the other puts the numbers inline and the two lines back inside it. The
    // header's letters are the same in every copy, so they are paired by rank; the cited copy
    // holds more inserted letters than copies of a formula may, and is taken because the diff
    // carried most of it there too.
    // Lines numbered from 1: `number` then `gap` then the line, lines joined by `join`.
    let listing = |lines: &[&str], gap: &str, join: &str| -> String {
        lines
            .iter()
            .enumerate()
            .map(|(k, l)| format!("{}{gap}{l}", k + 1))
            .collect::<Vec<_>>()
            .join(join)
    };
    let numbered = listing(
        &[
            "% the SUBSTANCES package",
            "%",
            "%",
            "%",
            "% Clemens Niederberger",
        ],
        "\n\n",
        "\n\n",
    );
    let inline = listing(
        &[
            "% the SUBSTANCES package",
            "% A Chemical Database",
            "% http://www.latex-project.org/lppl.txt",
            "%",
            "%",
            "%",
            "% Clemens Niederberger",
        ],
        " ",
        "\n",
    );
    // Three listings, each a section title, the header, then its code.
    let manual = |header: &str, gap: &str| {
        let section = |title: &str, code: &str| format!("{title}\n{header}{gap}{code}");
        doc(&[
            P1,
            &section("A. The Default Style", "\\def\\defaultstyle{1}"),
            P2,
            &section("B. The Compact Style", "\\def\\compactstyle{2}"),
            P3,
            &section("C. The Wide Style", "\\def\\widestyle{3}"),
            P4,
        ])
    };
    let (old, new) = (manual(&numbered, "\n\n"), manual(&inline, "\n"));
    let got = sweep_one(&old, &new, &cite(&old, &numbered, 1));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    let second = new.match_indices(&inline).nth(1).unwrap().0;
    assert_eq!(got.start, new[..second].chars().count(), "{got:?}");
    assert_eq!(text_at(&new, &got), inline, "{got:?}");
}

const TABLE_IN_ORDER: &str = "Table 2 lists the options of the box environment.\n\
name default meaning\n\
width 4cm the width of the box, frame included\n\
height 2cm the height of the box above its baseline\n\
colour black the colour of the frame and the rules\n\
shadow none whether a drop shadow is drawn under it\n\
The options may be given in any order, separated by commas.\n";

/// The same table as another extractor gives it: its last two rows first.
const TABLE_REORDERED: &str = "Table 2 lists the options of the box environment.\n\
name default meaning\n\
colour black the colour of the frame and the rules\n\
shadow none whether a drop shadow is drawn under it\n\
width 4cm the width of the box, frame included\n\
height 2cm the height of the box above its baseline\n\
The options may be given in any order, separated by commas.\n";

#[test]
fn rows_another_extractor_put_in_another_order_are_found_as_one_region() {
    let cited = "width 4cm the width of the box, frame included\n\
height 2cm the height of the box above its baseline\n\
colour black the colour of the frame and the rules\n\
shadow none whether a drop shadow is drawn under it";
    let got = sweep_one(
        TABLE_IN_ORDER,
        TABLE_REORDERED,
        &cite(TABLE_IN_ORDER, cited, 0),
    );
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    let reason = got.reason.clone().unwrap_or_default();
    assert!(reason.contains("blocks in another order"), "{got:?}");
    // All four rows, and nothing of the lines around them.
    let text = text_at(TABLE_REORDERED, &got);
    for row in cited.lines() {
        assert!(text.contains(row), "{row:?} not in {text:?}");
    }
    assert!(
        !text.contains("meaning") && !text.contains("The options"),
        "{text:?}"
    );
}

#[test]
fn a_short_span_is_not_placed_by_its_pieces() {
    // Under SHORT_SPAN letters the pieces rung does not try: the two lines cited, swapped in
    // the new text, are found only by rungs that need the letters in order.
    let old = "First comes the opening remark.\nalpha beta gamma delta\nepsilon zeta eta theta\nThen the closing remark follows.\n";
    let new = "First comes the opening remark.\nepsilon zeta eta theta\nalpha beta gamma delta\nThen the closing remark follows.\n";
    let got = sweep_one(
        old,
        new,
        &cite(old, "alpha beta gamma delta\nepsilon zeta", 0),
    );
    assert!(
        !got.reason
            .clone()
            .unwrap_or_default()
            .contains("another order"),
        "{got:?}"
    );
}

#[test]
fn a_list_a_new_html_loader_dropped_inside_a_re_wrapped_span_keeps_what_survives() {
    // python3.11-doc's devmode page: BeautifulSoup's text (old) holds a list of warnings
    // inside the cited span; trafilatura's (new) drops the list and re-wraps the rest. Under
    // half the span's chars survive in the char diff (rung 5c passes), 46% of its letters
    // survive in one run (rung 5d places it there); the list's own words stay out of it.
    let old = "Effects of the Python Development Mode:\n\nAdd default warning filter. The\nfollowing warnings are shown:\n\nDeprecationWarning\nImportWarning\nPendingDeprecationWarning\nResourceWarning\n\nNormally, the above warnings are filtered by the default warning filters.\nIt behaves as if the -W default command line option is used.\n";
    let new = "Effects of the Python Development Mode:\nAdd\ndefault\nwarning filter. The following warnings are shown:Normally, the above warnings are filtered by the default warning filters.\nIt behaves as if the\n-W default\ncommand line option is used.\n";
    let cited = "default warning filter. The\nfollowing warnings are shown:\n\nDeprecationWarning\nImportWarning\nPendingDeprecationWarning";
    let stored = cite(old, cited, 0);
    let citations = [stored.borrow()];
    let new_chunks = chunks(new, SPEC);
    let sweep = DocumentSweep::new(old, new, &new_chunks, &citations);
    let ch = sweep.changed.as_ref().unwrap();
    let needle = fold(&stored.span_text);
    let placed = Placed::new(ch, &citations[0]);
    assert!(sweep.follow_partial(ch, &placed, &needle).is_none());
    let got = sweep.reanchor_all().remove(0);
    assert_eq!(
        (got.status, got.method),
        (Status::Degraded, Method::Diff),
        "{got:?}"
    );
    assert_eq!(
        text_at(new, &got),
        "default\nwarning filter. The following warnings are shown:"
    );
    let reason = got.reason.as_deref().unwrap();
    assert!(reason.starts_with("partly edited:"), "{reason}");
    assert!(
        reason.contains("last"),
        "names the tail that is gone: {reason}"
    );
    assert!(got.score < 100.0, "{got:?}");
    // The same span, its text deleted with the list: nothing survives to place, lost.
    let gone = new.replace(
        "default\nwarning filter. The following warnings are shown:",
        "",
    );
    let got = sweep_one(old, &gone, &stored);
    assert_eq!(got.status, Status::Lost, "{got:?}");
}

#[test]
fn a_table_column_a_new_html_loader_dropped_keeps_the_span_over_the_column_left() {
    // python3.11-doc's audit events table: BeautifulSoup's text (old) gives each cell a line;
    // trafilatura's (new) keeps the event names and drops the arguments and references
    // columns. Each old line is kept or dropped whole: the span is kept over the names, and a
    // span of the dropped cells alone stays lost.
    let old = "Audit events table\n\nctypes.addressof\nobj\n[1]\n\nctypes.call_function\nfunc_pointer, arguments\n[1]\n\nctypes.cdata\naddress\n[1]\n\nctypes.cdata/buffer\npointer, size, offset\n[1][2]\n\nctypes.create_string_buffer\ninit, size\n[1]\n\nctypes.create_unicode_buffer\ninit, size\n[1]\n\nctypes.dlopen\nname\n[1]\n\nThe end of the table.\n";
    let new = "Audit events table\nctypes.addressof |\n|\n|\nctypes.call_function |\n|\n|\nctypes.cdata |\n|\n|\nctypes.cdata/buffer |\n|\n|\nctypes.create_string_buffer |\n|\n|\nctypes.create_unicode_buffer |\n|\n|\nctypes.dlopen |\n|\n|\nThe end of the table.\n";
    let cited = "ctypes.call_function\nfunc_pointer, arguments\n[1]\n\nctypes.cdata\naddress\n[1]\n\nctypes.cdata/buffer\npointer, size, offset\n[1][2]\n\nctypes.create_string_buffer\ninit, size\n[1]\n\nctypes.create_unicode_buffer";
    let got = sweep_one(old, new, &cite(old, cited, 0));
    assert_eq!(
        (got.status, got.method),
        (Status::Degraded, Method::Diff),
        "{got:?}"
    );
    let text = text_at(new, &got);
    assert!(text.starts_with("ctypes.call_function"), "{text:?}");
    assert!(text.ends_with("ctypes.create_unicode_buffer"), "{text:?}");
    assert!(
        got.reason.as_deref().unwrap().starts_with("partly edited:"),
        "{got:?}"
    );
    // Cells of the dropped columns alone: gone from the new text, lost.
    let gone = "func_pointer, arguments\n[1]\n\nctypes.cdata\naddress\n[1]\n\nctypes.cdata/buffer\npointer, size, offset";
    let got = sweep_one(old, new, &cite(old, gone, 0));
    assert_eq!(
        got.status,
        Status::Lost,
        "{got:?}: {:?}",
        text_at(new, &got)
    );
}

#[test]
fn a_first_line_the_new_loader_kept_before_dropped_lines_stays_in_the_span() {
    // python3.11-doc's xml.dom page: BeautifulSoup's text (old) gives each cell of the
    // interfaces table a line; trafilatura's (new) drops the first two columns and keeps the
    // third, row by row. The span's first line (`implementation.`, the end of the row before)
    // stands right before the next kept row with only the table's bars between: it is the
    // span's text, too short for a run of its own; the span starts on it, and the reason says
    // lines were dropped rather than that its start changed.
    let old = "Interface\nSection\nPurpose\n\nDOMImplementation\nDOMImplementation Objects\nInterface to the underlying\nimplementation.\n\nNode\nNode Objects\nBase interface for most objects\nin a document.\n\nNodeList\nNodeList Objects\nInterface for a sequence of\nnodes.\n\nDocumentType\nDocumentType Objects\nInformation about the declarations.\n\nThe end of the table.\n";
    let new = "Interface |\nSection |\nPurpose |\n|---|---|---|\n|\nInterface to the underlying implementation. |\n|\n|\nBase interface for most objects in a document. |\n|\n|\nInterface for a sequence of nodes. |\n|\n|\nInformation about the declarations. |\nThe end of the table.\n";
    let cited = "implementation.\n\nNode\nNode Objects\nBase interface for most objects\nin a document.\n\nNodeList\nNodeList Objects\nInterface for a sequence of\nnodes.";
    let got = sweep_one(old, new, &cite(old, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert_eq!(
        text_at(new, &got),
        "implementation. |\n|\n|\nBase interface for most objects in a document. |\n|\n|\nInterface for a sequence of nodes.",
        "{got:?}"
    );
    let reason = got.reason.as_deref().unwrap();
    assert!(reason.contains("lines dropped"), "{reason}");
    assert!(!reason.contains("first"), "{reason}");
    assert!(!reason.contains("last"), "the final `.` is there: {reason}");
    // A first line whose words changed is not the span's: the span starts at the kept row.
    let edited = new.replace("underlying implementation.", "underlying platform.");
    let got = sweep_one(old, &edited, &cite(old, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert!(
        text_at(&edited, &got).starts_with("Base interface"),
        "{got:?}"
    );
}

#[test]
fn a_span_whose_last_lines_were_rewritten_needs_half_its_letters_to_be_kept() {
    // Only the first of three lines survives (about 45% of the letters), and new words stand
    // where the others were: an edit, not a loader dropping lines. Under half survives: lost.
    let old = "Intro paragraph of the page.\n\nThe cache directory under the project root holds compiled templates\nand is cleared whenever settings change\nor the server restarts after an upgrade.\n\nClosing words of the page.\n";
    let new = "Intro paragraph of the page.\n\nThe cache directory under the project root holds compiled templates\nbut a separate tool now manages its lifetime\nwith explicit purge commands only.\n\nClosing words of the page.\n";
    let cited = "The cache directory under the project root holds compiled templates\nand is cleared whenever settings change\nor the server restarts after an upgrade.";
    let got = sweep_one(old, new, &cite(old, cited, 0));
    assert_eq!(
        got.status,
        Status::Lost,
        "{got:?}: {:?}",
        text_at(new, &got)
    );
    // The same lines left out by a loader (nothing in their place): kept over what survives.
    let dropped = "Intro paragraph of the page.\n\nThe cache directory under the project root holds compiled templates\n\nClosing words of the page.\n";
    let got = sweep_one(old, dropped, &cite(old, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert_eq!(
        text_at(dropped, &got),
        "The cache directory under the project root holds compiled templates"
    );
}

#[test]
fn a_span_split_by_a_block_longer_than_itself_keeps_the_part_with_most_of_its_letters() {
    // An index whose entries one extractor reads in another column order: the cited entry's
    // page numbers stay in place, and the next entry's name ends up after a whole column of
    // other entries. Stretched over that column, the span would show the reader a column of
    // entries nobody cited; it is kept over the part with most of its letters, and the
    // reason says where the rest stands.
    let column: String = (1..=12)
        .map(|k| format!("\\option{k}name . . . . {}, {}\n", 40 + k, 90 + 2 * k))
        .collect();
    let old = format!(
        "{P1}\n\nIndex\n\\str_case_e:nnTF . . . 28, 39, 49, 59, 71, 80, 91, 112, 146\nT\n\\tcbuselibrary . . . 3\n\n{column}\n{P2}\n"
    );
    let new = format!(
        "{P1}\n\nIndex\n\\str_case_e:nnTF . . . 28, 39, 49, 59, 71, 80, 91, 112, 146\n{column}T\n\\tcbuselibrary . . . 3\n\n{P2}\n"
    );
    let cited = "\\str_case_e:nnTF . . . 28, 39, 49, 59, 71, 80, 91, 112, 146\nT\n\\tcbuselibrary";
    let got = sweep_one(&old, &new, &cite(&old, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert_eq!(
        text_at(&new, &got),
        "\\str_case_e:nnTF . . . 28, 39, 49, 59, 71, 80, 91, 112, 146",
        "{got:?}"
    );
    let reason = got.reason.as_deref().unwrap();
    assert!(reason.contains("more stand after it"), "{reason}");
}

#[test]
fn table_rows_that_repeat_a_name_keep_the_span_on_the_rows_it_held() {
    // python3.11-doc's audit events table again (BeautifulSoup old, trafilatura new): the
    // arguments and references cells are dropped, and the row after the cited ones repeats
    // the last cited name (`builtins.input`, `builtins.input/result`). The span ends on the
    // cited row, not on its longer namesake, and the reason says lines were dropped.
    let old = "Audit event\nArguments\nReferences\n\n\n\narray.__new__\ntypecode, initializer\n[1]\n\nbuiltins.breakpoint\nbreakpointhook\n[1]\n\nbuiltins.id\nid\n[1]\n\nbuiltins.input\nprompt\n[1]\n\nbuiltins.input/result\nresult\n[1]\n\ncode.__new__\ncode, filename, name, argcount, posonlyargcount, kwonlyargcount, nlocals, stacksize, flags\n[1]\n\ncompile\nsource, filename\n[1]\n\nThe end of the table.\n";
    let new = "Audit event |\nArguments |\nReferences |\n|---|---|---|\narray.__new__ |\n|\n|\nbuiltins.breakpoint |\n|\n|\nbuiltins.id |\n|\n|\nbuiltins.input |\n|\n|\nbuiltins.input/result |\n|\n|\ncode.__new__ |\n|\n|\ncompile |\n|\n|\nThe end of the table.\n";
    let cited = "builtins.breakpoint\nbreakpointhook\n[1]\n\nbuiltins.id\nid\n[1]\n\nbuiltins.input\nprompt\n[1";
    let got = sweep_one(old, new, &cite(old, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert_eq!(
        text_at(new, &got),
        "builtins.breakpoint |\n|\n|\nbuiltins.id |\n|\n|\nbuiltins.input",
        "{got:?}"
    );
    let reason = got.reason.as_deref().unwrap();
    assert!(reason.contains("lines dropped"), "{reason}");
    assert!(!reason.contains("words replaced"), "{reason}");
}

#[test]
fn a_dropped_page_title_before_a_navigation_line_that_survives_keeps_the_span_on_the_line() {
    // python3.11-doc's tutorial/appetite.html (Debian's python3.11-doc), read by
    // BeautifulSoup's get_text (old) and html2text (new): html2text drops the page's <title>
    // and keeps the navigation after it. The title's letters recur in the breadcrumbs further
    // on, where the longest common subsequence takes them and breaks the navigation line's
    // run; read as the longest blocks first, the line survives whole.
    let old = include_str!("../../fixtures/sweep/appetite.bs4.txt");
    let new = include_str!("../../fixtures/sweep/appetite.html2text.txt");
    let blank = "\n".repeat(46);
    let cited = format!(
        "Appetite — Python 3.11.2 documentation{blank}Previous topic\nThe Python Tutorial\n\n\nNext"
    );
    let got = sweep_one(old, new, &cite(old, &cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert_eq!(
        text_at(new, &got),
        "Previous topic\n\nThe Python Tutorial\n\n#### Next",
        "{got:?}"
    );
}

#[test]
fn a_line_another_extractor_moved_past_other_lines_is_left_out_of_the_span() {
    // A code listing of texlive-science-doc's euclideangeometry.pdf, by pdftotext (old) and
    // pdfminer.six (new): pdfminer puts the listing's line 399 continuation after line 405.
    // The span's other lines stand in order: the span is kept over them, not stretched over
    // lines 400-405, which it never held in that order; the reason says a block is left out.
    let old = "392 \\SymmetricalPointOf\\F respect\\Mu to\\Su\n393 \\IfBooleanTF{#1}{\\Pbox(\\Su)[l]{S_1}[1.5pt]}{}\n394 \\SymmetricalPointOf\\F respect \\Md to\\Sd\n395 \\IfBooleanTF{#1}{\\Pbox(\\Sd)[t]{S_2}[1.5pt]}{}\n396 \\SymmetricalPointOf\\F respect \\Mt to\\St\n397 \\IfBooleanTF{#1}{\\Pbox(\\St)[r]{S_3}[1.5pt]}{}\n398 \\IfBooleanTF{#1}{\\ThreePointCircle*(\\Su)(\\Sd)(\\St)}%\n399\n\n{\\ThreePointCircle(\\Su)(\\Sd)(\\St)}\n\n400 \\CopyVect\\C to\\Fp \\Pbox(\\Fp)[l]{F’}[1.5pt]\n401 \\IfBooleanTF{#1}{%\n402 \\Dotline(\\F)(\\St){2}[1.5pt]\n403 \\Dotline(\\F)(\\Sd){2}[1.5pt]\n404 \\Dotline(\\F)(\\Su){2}[1.5pt]}{}\n405 \\IntersectionOfSegments(\\Pu)(\\Pt)and(\\Fp)(\\St)to\\Tt\n\n23\n\n\u{c}406 \\IntersectionOfSegments(\\Pu)(\\Pd)and(\\Fp)(\\Sd)to\\Td\n407 \\IntersectionOfSegments(\\Pd)(\\Pt)and(\\Fp)(\\Su)to\\Tu\n408 \\IfBooleanTF{#1}{\\Pbox(\\Tu)[l]{T_1}[1.5pt]\n409 \\Pbox(\\Td)[b]{T_2}[1.5pt]\n410 \\Pbox(\\Tt)[tl]{T_3}[1.5pt]\n411 \\Dashline(\\Fp)(\\Su){1}\\Dashline(\\Fp)(\\Sd){1}\\Dashline(\\Fp)(\\St){1}}{}\n412 \\DistanceAndDirOfVect\\Fp minus\\Tt to\\DFp and\\AFu\n413 \\DistanceAndDirOfVect\\F\n\nminus\\Tt to\\DF and\\AF\n\n414 \\SegmentCenter(\\F)(\\Fp)to\\CE \\Pbox(\\CE)[b]{C}[1.5pt]\n415 \\edef\\a{\\fpeval{(\\DFp+\\DF)/2}}\n416 \\SegmentArg(\\F)(\\Fp)to\\AngFocalAxis\n417 \\SegmentLength(\\F)(\\CE)to\\c\n418 \\AxisFromAxisAndFocus\\a and\\c to\\b\n419 \\Xellisse(\\CE)[\\AngFocalAxis]{\\a}{\\b}[\\thicklines]\n420 \\VECTOR(-30,0)(120,0)\\Pbox(120,0)[t]{x}[0]\n421 \\VECTOR(0,-20)(0,130)\\Pbox(0,130)[r]{y}[0]\\Pbox(0,0)[tr]{O}[1.5pt]\n422 \\egroup\\ign";
    let new = "392 \\SymmetricalPointOf\\F respect\\Mu to\\Su\n393 \\IfBooleanTF{#1}{\\Pbox(\\Su)[l]{S_1}[1.5pt]}{}\n394 \\SymmetricalPointOf\\F respect \\Md to\\Sd\n395 \\IfBooleanTF{#1}{\\Pbox(\\Sd)[t]{S_2}[1.5pt]}{}\n396 \\SymmetricalPointOf\\F respect \\Mt to\\St\n397 \\IfBooleanTF{#1}{\\Pbox(\\St)[r]{S_3}[1.5pt]}{}\n398 \\IfBooleanTF{#1}{\\ThreePointCircle*(\\Su)(\\Sd)(\\St)}%\n399\n400 \\CopyVect\\C to\\Fp \\Pbox(\\Fp)[l]{F’}[1.5pt]\n401 \\IfBooleanTF{#1}{%\n402 \\Dotline(\\F)(\\St){2}[1.5pt]\n403 \\Dotline(\\F)(\\Sd){2}[1.5pt]\n404 \\Dotline(\\F)(\\Su){2}[1.5pt]}{}\n405 \\IntersectionOfSegments(\\Pu)(\\Pt)and(\\Fp)(\\St)to\\Tt\n\n{\\ThreePointCircle(\\Su)(\\Sd)(\\St)}\n\n\\Pbox(\\Mu)[b]{M_1}[1.5pt]}{}\n\n23\n\n\u{c}406 \\IntersectionOfSegments(\\Pu)(\\Pd)and(\\Fp)(\\Sd)to\\Td\n407 \\IntersectionOfSegments(\\Pd)(\\Pt)and(\\Fp)(\\Su)to\\Tu\n408 \\IfBooleanTF{#1}{\\Pbox(\\Tu)[l]{T_1}[1.5pt]\n409 \\Pbox(\\Td)[b]{T_2}[1.5pt]\n410 \\Pbox(\\Tt)[tl]{T_3}[1.5pt]\n411 \\Dashline(\\Fp)(\\Su){1}\\Dashline(\\Fp)(\\Sd){1}\\Dashline(\\Fp)(\\St){1}}{}\n412 \\DistanceAndDirOfVect\\Fp minus\\Tt to\\DFp and\\AFu\n413 \\DistanceAndDirOfVect\\F\n414 \\SegmentCenter(\\F)(\\Fp)to\\CE \\Pbox(\\CE)[b]{C}[1.5pt]\n415 \\edef\\a{\\fpeval{(\\DFp+\\DF)/2}}\n416 \\SegmentArg(\\F)(\\Fp)to\\AngFocalAxis\n417 \\SegmentLength(\\F)(\\CE)to\\c\n418 \\AxisFromAxisAndFocus\\a and\\c to\\b\n419 \\Xellisse(\\CE)[\\AngFocalAxis]{\\a}{\\b}[\\thicklines]\n420 \\VECTOR(-30,0)(120,0)\\Pbox(120,0)[t]{x}[0]\n421 \\VECTOR(0,-20)(0,130)\\Pbox(0,130)[r]{y}[0]\\Pbox(0,0)[tr]{O}[1.5pt]\n422 \\egrou";
    let cited = "Pbox(\\St)[r]{S_3}[1.5pt]}{}\n398 \\IfBooleanTF{#1}{\\ThreePointCircle*(\\Su)(\\Sd)(\\St)}%\n399\n\n{\\ThreePointCircle(\\Su)(\\Sd)(\\St)}\n\n400 \\CopyVect\\C to\\Fp \\Pbox(\\Fp)[l]{F’}[1.5pt]\n401 \\IfBooleanTF{#1}{%\n402 \\Dotline";
    let got = sweep_one(old, new, &cite(old, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    let text = text_at(new, &got);
    assert!(text.starts_with("Pbox(\\St)[r]{S_3}"), "{text:?}");
    assert!(text.ends_with("402 \\Dotline"), "{text:?}");
    let reason = got.reason.as_deref().unwrap();
    assert!(reason.contains("left out"), "{reason}");
}

#[test]
fn a_table_read_by_rows_instead_of_columns_keeps_the_span_over_the_same_words() {
    // texlive-science-doc's itengtlc.pdf: pdftotext (old) reads a table of units column by
    // column, pypdf (new) row by row. Every word of the cited cells survives, in another
    // order: the span is kept over the rows that hold them, and a table deleted with its
    // words stays lost.
    let columns = include_str!("../../fixtures/sweep/units.columns.txt").trim_end();
    let rows = include_str!("../../fixtures/sweep/units.rows.txt").trim_end();
    let by_columns = format!(
        "Misure di lunghezza\n\nUnità\n\nCodice equivalente\n\nVisualizzazione\n\n{columns}"
    );
    let by_rows = format!("Misure di lunghezza\nUnità Codice equivalente Visualizzazione\n{rows}");
    let old = doc(&[P1, &by_columns, P2, P3]);
    let new = doc(&[P1, &by_rows, P2, P3]);
    let got = sweep_one(&old, &new, &cite(&old, columns, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    let text = text_at(&new, &got);
    assert!(text.starts_with("micrometri"), "{text:?}");
    assert!(text.ends_with("kilometri \\km km"), "{text:?}");
    assert!(
        got.reason.as_deref().unwrap().contains("same words"),
        "{got:?}"
    );
    // The table gone with its words: lost.
    let gone = doc(&[P1, P2, P3]);
    let got = sweep_one(&old, &gone, &cite(&old, columns, 0));
    assert_eq!(got.status, Status::Lost, "{got:?}");
}

#[test]
fn a_listing_whose_line_numbers_moved_beside_their_lines_keeps_the_span_over_the_code() {
    // texlive-science-doc's extended_doc.pdf, Listing 1: pdftotext (old) prints the listing's
    // line numbers as one column before the code, pypdf (new) each beside its line. The
    // numbers cut the code's letters at every line, into runs too short to count; with the
    // digits left out the code survives in order, and the span is kept over it. The listing
    // deleted with its code stays lost.
    let old_listing = include_str!("../../fixtures/sweep/listing.pdftotext.txt");
    let new_listing = include_str!("../../fixtures/sweep/listing.pypdf.txt");
    let old = doc(&[P1, old_listing, P2, P3]);
    let new = doc(&[P1, new_listing, P2, P3]);
    let numbers: String = (1..=16).map(|k| format!("{k}\n")).collect();
    // pdftotext writes the ś decomposed, pypdf as a spacing accent before the letter.
    let cited = format!(
        "LATEX code for Jas\u{301}kowski-style proof\n{numbers}\n\\[\n\\ Jproof {{\n\\ cablk {{\n\\ p r o o f l i n e"
    );
    let got = sweep_one(&old, &new, &cite(&old, &cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert_eq!(
        text_at(&new, &got),
        "LATEX code for Ja´skowski-style proof\n1 \\ [\n2 \\ Jproof {\n3 \\ cablk {\n4 \\ p r o o f l i n e",
        "{got:?}"
    );
    let reason = got.reason.as_deref().unwrap();
    assert!(reason.contains("line numbers left out"), "{reason}");
    assert!(!reason.contains("words replaced"), "{reason}");
    let gone = doc(&[P1, P2, P3]);
    let got = sweep_one(&old, &gone, &cite(&old, &cited, 0));
    assert_eq!(got.status, Status::Lost, "{got:?}");
}

#[test]
fn half_a_short_span_that_survives_as_a_whole_clause_keeps_its_span() {
    // python3.11-doc's library/xmlrpc.client.html, read by BeautifulSoup (old) and trafilatura
    // (new): trafilatura drops the `data` attribute's definition, and of a span citing its
    // last sentence and the next one, only the next survives, a clause of 45 letters run into
    // the line before it. Half of a span under 80 letters surviving as one run is a chance
    // phrase when the run is short; a whole clause is where the span went.
    let old = include_str!("../../fixtures/sweep/xmlrpc.client.bs4.txt");
    let new = include_str!("../../fixtures/sweep/xmlrpc.client.trafilatura.txt");
    let cited =
        "The data is\nprovided as a bytes object.\n\nBinary objects have the following methods, supported";
    let got = sweep_one(old, new, &cite(old, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert_eq!(
        text_at(new, &got),
        "Binary\nobjects have the following methods, supported",
        "{got:?}"
    );
    assert!(
        got.reason
            .as_deref()
            .unwrap()
            .contains("first 41 characters changed or gone"),
        "{got:?}"
    );
}

#[test]
fn a_kept_line_whose_letters_begin_another_line_keeps_the_span_on_the_nearest_copy() {
    // texlive-science-doc's tiscreen-doc.pdf, by pdftotext (old) and pdfminer (new): pdfminer
    // drops the key table's labels and `\tibtnX` cells and keeps the `\tibtnextraX` column.
    // Of a span over two rows, the first row's `\tibtnextraon` and the last row's
    // `\tibtnextrazero` survive, next to each other; `tibtnextraon` also begins
    // `\tibtnextraone` three rows up, where the longest blocks, read first, took it. The
    // span ends up on the two kept lines, not stretched over the rows between.
    let old = include_str!("../../fixtures/sweep/tiscreen-doc.pdftotext.txt");
    let new = include_str!("../../fixtures/sweep/tiscreen-doc.pdfminer.txt");
    let cited = "tibtnextraon\nCATALOG\n\n0\n\n\\tibtnzero\n\n0\n\n\\tibtnextrazero";
    let got = sweep_one(old, new, &cite(old, cited, 0));
    assert_eq!(got.status, Status::Degraded, "{got:?}");
    assert_eq!(
        text_at(new, &got),
        "tibtnextraon\n\n\\tibtnextrazero",
        "{got:?}"
    );
    let reason = got.reason.as_deref().unwrap();
    assert!(reason.contains("lines dropped"), "{reason}");
}

#[test]
fn a_table_cell_joined_row_by_row_is_aligned_between_where_its_neighbours_went() {
    // texlive-science-doc's itengtlc.pdf, around its tables of units: pdftotext (old) reads
    // each table column by column, pypdf (new) row by row. The cited stretch (the last row's
    // label, the code and display columns, the next table's header) keeps most of its
    // characters, in runs too short for the diff and in words too reordered for the letters
    // and words rungs; the text around it survives, and rung 6b aligns it there.
    let old = include_str!("../../fixtures/sweep/itengtlc.pdftotext.txt");
    let new = include_str!("../../fixtures/sweep/itengtlc.pypdf.txt");
    let cited = "kilometri\n\n\\um\n\\mm\n\\cm\n\\dm\n\\m\n\\km\n\nµm\nmm\ncm\ndm\nm\nkm\n\n\
                 Unità\n\nCodice equivalente\n\nVisualizzazione";
    let got = sweep_one(old, new, &cite(old, cited, 0));
    assert_eq!(
        (got.status, got.method),
        (Status::Degraded, Method::Fuzzy),
        "{got:?}"
    );
    assert_eq!(
        text_at(new, &got),
        "kilometri \\km km\nMisure di corrente\nUnità Codice equivalente Visualizzazione"
    );
    let reason = got.reason.as_deref().unwrap();
    assert!(reason.starts_with("laid out anew:"), "{reason}");
    // The table of lengths and the next one deleted: what stands between their neighbours is
    // other text, and the headers found there the old revision also had elsewhere.
    let from = new.find("Unità di misura spaziali").unwrap();
    let to = new.find("Misure di tensione").unwrap();
    let gone = format!("{}{}", &new[..from], &new[to..]);
    let got = sweep_one(old, &gone, &cite(old, cited, 0));
    assert_eq!(got.status, Status::Lost, "{got:?}");
}

#[test]
fn a_span_partly_rewritten_in_place_is_kept_unless_its_deletion_explains_the_new_text() {
    // Release edits from Sphinx 6.2.1 -> 7.2.6 and Django 5.0 -> 5.1 (and 4.2 -> 5.0): the
    // text around each span survives, and between it stands the span with a third of its
    // characters or fewer edited: degraded there, saying it was partly rewritten. Where the
    // text between is as close to the span's neighbours with the span cut out, the span was
    // deleted: lost.
    let table: [(&str, &str, &str, &str); 2] = [
        (
            "   A text for permalinks for each heading and description environment.  HTML\n   \
             tags are allowed.  Default: a paragraph sign; ``¶``",
            "   Text for link anchors for each heading and description environment.\n   \
             HTML entities and Unicode are allowed.  Default: a paragraph sign; ``¶``",
            "A text for permalinks for each heading",
            "Text for link anchors for each heading",
        ),
        (
            ".. _`url()`: https://www.w3.org/TR/CSS2/syndata.html#uri\n\
             .. _`source map`: https://developer.mozilla.org/en-US/docs/Tools/Debugger/How_to/Use_a_source_map\n\
             .. _`modules import`: https://developer.mozilla.org/en-US/docs/Web/JavaScript/Guide/Modules",
            ".. _`url()`: https://www.w3.org/TR/CSS2/syndata.html#uri\n\
             .. _`source map`: https://firefox-source-docs.mozilla.org/devtools-user/debugger/how_to/use_a_source_map/\n\
             .. _`modules import`: https://developer.mozilla.org/en-US/docs/Web/JavaScript/Guide/Modules",
            "developer.mozilla.org/en-US/docs/Tools/Debugger/How_to/Use_a_source_map",
            "mozilla.org/devtools-user/debugger/how_to/use_a_source_map",
        ),
    ];
    for (before, after, cited, want) in table {
        let old = doc(&[P1, before, P3]);
        let new = doc(&[P1, after, P3]);
        let got = sweep_one(&old, &new, &cite(&old, cited, 0));
        assert_eq!(got.status, Status::Degraded, "{cited:?}: {got:?}");
        let text = text_at(&new, &got);
        assert!(text.contains(want), "{cited:?} placed over {text:?}");
        assert!(
            text.len() < 2 * cited.len(),
            "{cited:?} placed over {text:?}"
        );
        let reason = got.reason.as_deref().unwrap_or_default();
        assert!(reason.starts_with("partly rewritten"), "{reason}");
    }
    // The whole document: what 5.0 left between the span's neighbours aligns with the span
    // at 70% of its characters, and as well with the neighbours alone.
    let old = include_str!("../../fixtures/sweep/django-i18n-index.4.2.txt");
    let new = include_str!("../../fixtures/sweep/django-i18n-index.5.0.txt");
    let cited = "setting:`USE_L10N` settings respectively";
    let got = sweep_one(old, new, &cite(old, cited, 0));
    assert_eq!(got.status, Status::Lost, "{got:?}");
}
