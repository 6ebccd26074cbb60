//! Accuracy of `locate` on real text: quotes cut from the seed documents (fixtures/corpus), edited
//! the way models edit them, located in a ~1,200-char chunk around the original. The oracle is the
//! construction itself: the raw span the quote was cut from. Compares the plain seed rules with
//! the default options (edge tightening + meaning guard).
//!
//! Run: `cargo bench --bench locate_accuracy`

use citestore::text::{locate_with, How, LocateOptions};

const QUOTES_PER_EDIT: usize = 600;
const CHUNK_CHARS: usize = 1200;

#[derive(Clone, Copy, Debug)]
enum Edit {
    Typography,
    TypographyAndCase,
    DropWord,
    ReplaceWord,
}

const EDITS: [Edit; 4] = [
    Edit::Typography,
    Edit::TypographyAndCase,
    Edit::DropWord,
    Edit::ReplaceWord,
];

fn typography(quote: &str) -> String {
    let mut out = String::new();
    let mut prev_space = false;
    for c in quote.chars() {
        let mapped = match c {
            '\u{2014}' => Some('\u{2013}'),
            '\u{2013}' => Some('-'),
            '\'' => Some('\u{2019}'),
            '\u{2019}' => Some('\''),
            '"' => Some('\u{201C}'),
            '\u{00AD}' => None,
            c if c.is_whitespace() => Some(' '),
            c => Some(c),
        };
        if let Some(m) = mapped {
            if m == ' ' && prev_space {
                continue;
            }
            prev_space = m == ' ';
            out.push(m);
        }
    }
    out
}

fn edit(quote: &str, how: Edit, rng: &mut fastrand::Rng) -> String {
    let words: Vec<&str> = quote.split(' ').collect();
    let pick = |rng: &mut fastrand::Rng| 1 + rng.usize(..words.len().saturating_sub(2).max(1));
    match how {
        Edit::Typography => typography(quote),
        Edit::TypographyAndCase => typography(quote).to_uppercase(),
        Edit::DropWord => {
            let mut w = words.clone();
            w.remove(pick(rng).min(w.len() - 1));
            w.join(" ")
        }
        Edit::ReplaceWord => {
            let mut w = words.clone();
            let at = pick(rng).min(w.len() - 1);
            w[at] = "thing";
            w.join(" ")
        }
    }
}

/// A word-aligned span of 30-300 chars: (start, end) in chars.
fn pick_span(chars: &[char], rng: &mut fastrand::Rng) -> Option<(usize, usize)> {
    let len = 30 + rng.usize(..270);
    let mut start = rng.usize(..chars.len().saturating_sub(len + 1).max(1));
    while start < chars.len() && !chars[start].is_alphanumeric() {
        start += 1;
    }
    while start > 0 && chars[start - 1].is_alphanumeric() {
        start -= 1;
    }
    let mut end = (start + len).min(chars.len());
    while end < chars.len() && chars[end].is_alphanumeric() {
        end += 1;
    }
    while end > start && chars[end - 1].is_whitespace() {
        end -= 1;
    }
    let words = chars[start..end]
        .iter()
        .filter(|c| c.is_whitespace())
        .count();
    (end > start + 20 && words >= 4).then_some((start, end))
}

#[derive(Default)]
struct Tally {
    total: usize,
    found: usize,
    same_span: usize,
    iou_sum: f64,
    fuzzy: usize,
    review: usize,
}

fn iou(a: (usize, usize), b: (usize, usize)) -> f64 {
    let inter = a.1.min(b.1).saturating_sub(a.0.max(b.0));
    let union = a.1.max(b.1) - a.0.min(b.0);
    inter as f64 / union as f64
}

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/corpus");
    let mut texts: Vec<Vec<char>> = std::fs::read_dir(dir)
        .expect("fixtures/corpus")
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .map(|t| t.chars().collect())
        .collect();
    texts.sort();
    let options = [
        ("seed rules", LocateOptions::seed()),
        ("default", LocateOptions::default()),
    ];
    let mut rng = fastrand::Rng::with_seed(2026);
    println!("| edit | options | quotes | found | same span | mean IoU | fuzzy | review |");
    println!("|---|---|---|---|---|---|---|---|");
    for how in EDITS {
        let mut tallies: Vec<Tally> = options.iter().map(|_| Tally::default()).collect();
        let mut made = 0;
        while made < QUOTES_PER_EDIT {
            let text = &texts[rng.usize(..texts.len())];
            let Some((start, end)) = pick_span(text, &mut rng) else {
                continue;
            };
            let chunk_start = start.saturating_sub(rng.usize(..CHUNK_CHARS / 2));
            let chunk_end = (chunk_start + CHUNK_CHARS).max(end).min(text.len());
            let chunk: String = text[chunk_start..chunk_end].iter().collect();
            let original: String = text[start..end].iter().collect();
            let quote = edit(&original, how, &mut rng);
            if quote == original {
                continue;
            }
            made += 1;
            let truth = (start - chunk_start, end - chunk_start);
            for ((_, opts), tally) in options.iter().zip(tallies.iter_mut()) {
                tally.total += 1;
                let Some(hit) = locate_with(&chunk, &quote, opts) else {
                    continue;
                };
                tally.found += 1;
                let span = (hit.start, hit.end);
                tally.same_span += usize::from(span == truth);
                tally.iou_sum += iou(span, truth);
                tally.fuzzy += usize::from(hit.how == How::Fuzzy);
                tally.review += usize::from(hit.how == How::Review);
            }
        }
        for ((name, _), t) in options.iter().zip(&tallies) {
            let pct = |n: usize| 100.0 * n as f64 / t.total as f64;
            println!(
                "| {how:?} | {name} | {} | {:.1}% | {:.1}% | {:.3} | {:.1}% | {:.1}% |",
                t.total,
                pct(t.found),
                pct(t.same_span),
                t.iou_sum / t.found.max(1) as f64,
                pct(t.fuzzy),
                pct(t.review)
            );
        }
    }
}
