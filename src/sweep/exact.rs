//! Rungs 1 to 3 of the ladder: the same text, the old chunk's content hash in the new chunking,
//! and exact search of the span's text (then of the model's quote) in the new revision.
//!
//! Invariants: every anchor placed here has the span's exact text (or the quote's) at its
//! offsets; `intact` only at the old offsets; several occurrences are ranked by context
//! (`rank.rs`), a copy of repeated text against the order of the copies only when whole lines
//! of context say so, and without a clear leader are `degraded`, reason `ambiguous`; an
//! occurrence the diff carried from another copy of the text in the old revision is not a
//! candidate, unless the diff did not carry the cited copy and another occurrence is left.

use super::rank::Pick;
use super::{ambiguous, Anchor, Changed, Citation, DocumentSweep, Method, Status};
use crate::text::find::Needle;
use crate::text::Normaliser;
use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use std::collections::HashMap;

/// A text as chars, with the byte → char conversion for search hits.
#[derive(Debug)]
pub(super) struct CharText {
    pub(super) chars: Vec<char>,
    pub(super) starts: CharStarts,
}

impl CharText {
    pub(super) fn new(text: &str) -> Self {
        CharText {
            chars: text.chars().collect(),
            starts: CharStarts::new(text),
        }
    }

    pub(super) fn holds_at(&self, at: usize, text: &[char]) -> bool {
        self.chars.get(at..at + text.len()) == Some(text)
    }
}

/// Where a text's chars start, for turning a search hit's byte offset into chars: the folded
/// text needs only this, not its chars again (36 MB of a 9 MB document's sweep).
#[derive(Debug)]
pub(super) struct CharStarts {
    /// Byte offset of every char, or `None` when the text is ASCII (byte = char).
    starts: Option<Vec<usize>>,
}

impl CharStarts {
    pub(super) fn new(text: &str) -> Self {
        CharStarts {
            starts: (!text.is_ascii()).then(|| text.char_indices().map(|(b, _)| b).collect()),
        }
    }

    pub(super) fn char_at_byte(&self, byte: usize) -> usize {
        match &self.starts {
            None => byte,
            Some(starts) => starts.partition_point(|&b| b < byte),
        }
    }
}

/// Bytes of each pattern the automaton holds; longer patterns are checked whole where their
/// head matches.
const HEAD_BYTES: usize = 24;

/// Start positions (chars, overlapping occurrences included) of every pattern in `hay`: one
/// substring search per pattern, or for more than [`SEPARATE_SEARCHES`] one Aho-Corasick pass.
pub(super) fn occurrences(patterns: &[&str], hay: &str, hay_text: &CharStarts) -> Vec<Vec<usize>> {
    if patterns.len() <= SEPARATE_SEARCHES {
        return searched_separately(patterns, hay, hay_text);
    }
    let mut out = vec![Vec::new(); patterns.len()];
    // The automaton holds only the patterns' first bytes (the distinct heads): building it
    // costs what it holds (a hundred whole patterns of 40-250 chars cost more than the pass
    // over the document), and a head found is checked against every pattern that starts so.
    let mut heads: Vec<&[u8]> = Vec::new();
    let mut by_head: HashMap<&[u8], Vec<usize>> = HashMap::new();
    for (i, p) in patterns.iter().enumerate() {
        let head = &p.as_bytes()[..p.len().min(HEAD_BYTES)];
        by_head
            .entry(head)
            .or_insert_with(|| {
                heads.push(head);
                Vec::new()
            })
            .push(i);
    }
    // A contiguous NFA: the automaton serves one pass over one document, and building a DFA
    // costs far more than that pass.
    match AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .kind(Some(AhoCorasickKind::ContiguousNFA))
        .build(&heads)
    {
        Ok(ac) => {
            let bytes = hay.as_bytes();
            for m in ac.find_overlapping_iter(hay) {
                let at = m.start();
                for &i in &by_head[heads[m.pattern().as_usize()]] {
                    let p = patterns[i].as_bytes();
                    if bytes.get(at..at + p.len()) == Some(p) {
                        out[i].push(hay_text.char_at_byte(at));
                    }
                }
            }
        }
        // Too many or too long patterns for one automaton: one pass per pattern instead.
        Err(_) => out = searched_separately(patterns, hay, hay_text),
    }
    out
}

/// Up to this many patterns, one vectorised substring search per pattern costs less than
/// building an automaton and running it (measured on documents of 5,000-60,000 chars with a
/// hundred patterns).
const SEPARATE_SEARCHES: usize = 128;

/// [`occurrences`] by one substring search per pattern.
fn searched_separately(patterns: &[&str], hay: &str, hay_text: &CharStarts) -> Vec<Vec<usize>> {
    patterns
        .iter()
        .map(|p| char_starts(p, hay, hay_text))
        .collect()
}

/// Char starts of every occurrence of `pattern` in `hay` (`hay_text` its chars), overlapping
/// ones included.
fn char_starts(pattern: &str, hay: &str, hay_text: &CharStarts) -> Vec<usize> {
    starts_of(pattern.as_bytes(), hay.as_bytes())
        .map(|b| hay_text.char_at_byte(b))
        .collect()
}

/// Byte starts of every occurrence of `pattern` in `hay`, overlapping ones included (a UTF-8
/// pattern matches only at char boundaries).
fn starts_of<'h>(pattern: &'h [u8], hay: &'h [u8]) -> impl Iterator<Item = usize> + 'h {
    // The empty pattern starts everywhere (no caller passes one: `dedup` drops them).
    let search = Needle::new(pattern);
    let mut from = 0;
    std::iter::from_fn(move || {
        let at = match &search {
            Some(search) => search.find(hay, from)?,
            None => Some(from).filter(|&at| at <= hay.len())?,
        };
        from = at + 1;
        Some(at)
    })
}

/// Deduplicates patterns: returns the distinct non-empty patterns and, per input, its index.
pub(super) fn dedup<'p>(
    inputs: impl Iterator<Item = &'p str>,
) -> (Vec<&'p str>, Vec<Option<usize>>) {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut distinct = Vec::new();
    let ids = inputs
        .map(|p| {
            (!p.is_empty()).then(|| {
                *index.entry(p).or_insert_with(|| {
                    distinct.push(p);
                    distinct.len() - 1
                })
            })
        })
        .collect();
    (distinct, ids)
}

impl DocumentSweep<'_> {
    /// Rung 1 for every citation: the text did not change.
    pub(super) fn same_text_all(&self) -> Vec<Anchor> {
        // Byte offset of every char, only when chars and bytes differ.
        let starts: Option<Vec<usize>> =
            (!self.new.is_ascii()).then(|| self.new.char_indices().map(|(b, _)| b).collect());
        self.citations
            .iter()
            .map(|c| self.same_text(c, starts.as_deref()))
            .collect()
    }

    /// Rung 1: the text did not change.
    fn same_text(&self, c: &Citation<'_>, starts: Option<&[usize]>) -> Anchor {
        // Identical texts: the span's text is there if the citation is consistent with its
        // revision; one slice comparison checks it.
        let byte = match starts {
            None => (c.start <= self.new.len()).then_some(c.start),
            Some(starts) => starts.get(c.start).copied(),
        };
        let consistent = c.span_text.chars().count() == c.end.saturating_sub(c.start)
            && byte.is_some_and(|b| self.new[b..].starts_with(c.span_text));
        if consistent {
            self.found(
                Status::Intact,
                c.start,
                c.end,
                100.0,
                Method::SameText,
                None,
            )
        } else {
            self.lost(c, 0.0, inconsistent(c))
        }
    }

    /// Before any rung: a citation with an empty span, or whose span text is not the old
    /// revision's text at its offsets, is lost with the reason.
    pub(super) fn unusable(&self, ch: &Changed, c: &Citation<'_>) -> Option<Anchor> {
        let len = c.span_text.chars().count();
        if len == 0 {
            return Some(self.lost(c, 0.0, "the citation's span is empty".into()));
        }
        let consistent = c.end == c.start + len
            && ch
                .old
                .chars
                .get(c.start..c.end)
                .is_some_and(|old| old.iter().copied().eq(c.span_text.chars()));
        (!consistent).then(|| self.lost(c, 0.0, inconsistent(c)))
    }

    /// Rung 2: the one new chunk with the old chunk's hash that holds the span at the same
    /// relative offset — only while the span's text occurs once in the new revision. When it
    /// occurs several times the chunk's hash does not say which copy was cited (the cited
    /// chunk's twin may have kept the hash while the cited one was merged with a neighbour), so
    /// the exact rung ranks the copies by context instead.
    pub(super) fn by_content_hash(
        &self,
        ch: &Changed,
        i: usize,
        c: &Citation<'_>,
    ) -> Option<Anchor> {
        if ch.span_hits[i].len() > 1 {
            return None;
        }
        let relative = c.start.checked_sub(c.chunk_start)?;
        let normaliser = Normaliser::parse(c.chunk_normaliser)?;
        let span: Vec<char> = c.span_text.chars().collect();
        let mut verified = self
            .chunks_by_hash(ch, normaliser)
            .get(c.chunk_content_hash)?
            .iter()
            .map(|&k| self.chunks[k].start + relative)
            .filter(|&start| ch.new.holds_at(start, &span));
        let first = verified.next()?;
        verified
            .next()
            .is_none()
            .then(|| self.verbatim(c, first, Method::ContentHash))
    }

    /// The new chunks by content hash under `normaliser`: their stored hashes when made with
    /// it, else their text hashed with it (a v1 citation is compared with v1 hashes).
    fn chunks_by_hash(&self, ch: &Changed, normaliser: Normaliser) -> &HashMap<String, Vec<usize>> {
        let slot = match normaliser {
            Normaliser::V1 => &self.chunks_by_hash[0],
            Normaliser::V2 => &self.chunks_by_hash[1],
        };
        slot.get_or_init(|| {
            let mut map: HashMap<String, Vec<usize>> = HashMap::new();
            for (i, c) in self.chunks.iter().enumerate() {
                let hash = if c.normaliser == normaliser.as_str() {
                    c.content_hash.clone()
                } else {
                    let end = c.end.min(ch.new.chars.len());
                    let text: String = ch.new.chars[c.start.min(end)..end].iter().collect();
                    normaliser.content_hash(&text)
                };
                map.entry(hash).or_default().push(i);
            }
            map
        })
    }

    /// `intact` at the old offsets, else `moved`.
    fn verbatim(&self, c: &Citation<'_>, start: usize, method: Method) -> Anchor {
        let status = if start == c.start {
            Status::Intact
        } else {
            Status::Moved
        };
        let len = c.end - c.start;
        self.found(status, start, start + len, 100.0, method, None)
    }

    /// The new copy of the span's text with the rank the cited copy has among the old copies,
    /// when both revisions hold as many copies (`hits`: every new copy).
    fn same_rank_copy(&self, ch: &Changed, c: &Citation<'_>, hits: &[usize]) -> Option<usize> {
        if hits.len() < 2 {
            return None;
        }
        let old_copies = char_starts(c.span_text, self.old, &ch.old.starts);
        let rank = old_copies.iter().position(|&s| s == c.start)?;
        (old_copies.len() == hits.len()).then(|| hits[rank])
    }

    /// Rung 3: exact search of the span's text, then of the model's quote.
    pub(super) fn exact(&self, ch: &Changed, i: usize, c: &Citation<'_>) -> Option<Anchor> {
        let len = c.end - c.start;
        let hits = candidate_copies(ch, c, &ch.span_hits[i]);
        if !hits.is_empty() {
            let cands: Vec<(usize, usize)> = hits.iter().map(|&h| (h, h + len)).collect();
            let same_rank = self.same_rank_copy(ch, c, &ch.span_hits[i]);
            return Some(match self.rank_copies(ch, c, &cands, same_rank) {
                Pick::One(start) => self.verbatim(c, start, Method::Exact),
                Pick::Tie { best, count } => self.found(
                    Status::Degraded,
                    best,
                    best + len,
                    100.0,
                    Method::Exact,
                    Some(ambiguous(count)),
                ),
            });
        }
        // The quote elsewhere in the old text already (the model copied another passage) is a
        // look-alike, like any candidate made of other old text.
        let qlen = c.quote.chars().count();
        let cands: Vec<(usize, usize)> = ch.quote_hits[i]
            .iter()
            .map(|&h| (h, h + qlen))
            .filter(|&(a, b)| !ch.is_lookalike(a, b, c.start, c.start + len))
            .collect();
        if cands.is_empty() {
            return None;
        }
        let (start, reason) = match self.rank(ch, c, &cands) {
            Pick::One(s) => (s, QUOTE_ONLY.to_string()),
            Pick::Tie { best, count } => (best, format!("{}; {QUOTE_ONLY}", ambiguous(count))),
        };
        Some(self.found(
            Status::Degraded,
            start,
            start + qlen,
            100.0,
            Method::Exact,
            Some(reason),
        ))
    }
}

/// The new occurrences of the span's text (`hits`) that may be the cited copy: not one where
/// the diff carried another copy of that text in the old revision — the cited copy changed (a
/// line number inserted, another extractor's break) or was deleted while a twin elsewhere
/// survived verbatim, and that twin is not where the cited text went.
///
/// Except when the diff carried none of the cited copy and another occurrence is left: then the
/// diff paired the twin with one of several equal copies by chance (equal lines tie in a line
/// diff, so it may pair them crosswise), and which copy is the cited one is for ranking to say.
fn candidate_copies(ch: &Changed, c: &Citation<'_>, hits: &[usize]) -> Vec<usize> {
    let others: Vec<usize> = hits
        .iter()
        .copied()
        .filter(|&h| !carried_from_another_copy(ch, c, h))
        .collect();
    if others.len() == hits.len() || others.is_empty() {
        return others;
    }
    // Carried: most of its chars, on as much equal text as the diff rung asks for (a few
    // chance runs inside a rewritten block are not where it went).
    let mapped = ch.diff.map_span(c.start, c.end);
    if 2 * mapped.surviving > c.end - c.start && mapped.grounded() {
        others
    } else {
        hits.to_vec()
    }
}

/// Whether the new occurrence of the span's text at `hit` is where the diff carried another
/// copy of that text in the old revision.
fn carried_from_another_copy(ch: &Changed, c: &Citation<'_>, hit: usize) -> bool {
    let len = c.end - c.start;
    if !ch.is_lookalike(hit, hit + len, c.start, c.end) {
        return false;
    }
    let span = &ch.old.chars[c.start..c.end];
    ch.diff
        .runs_within_new(hit, hit + len)
        // The old position the hit's start comes from, by this run.
        .filter_map(|r| r.old.checked_sub(r.new - hit))
        .any(|q| {
            q != c.start
                && ch.old.holds_at(q, span)
                && 2 * ch.diff.carried((hit, hit + len), (q, q + len)) > len
        })
}

const QUOTE_ONLY: &str = "the model's quote occurs verbatim; the old span's text does not";

fn inconsistent(c: &Citation<'_>) -> String {
    format!(
        "citation {} is inconsistent: its span text is not the old revision's text at [{}, {})",
        c.id, c.start, c.end
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every char start of `pattern` in `hay`, overlapping ones included: the reference.
    fn naive(pattern: &str, hay: &str) -> Vec<usize> {
        let (p, h): (Vec<char>, Vec<char>) = (pattern.chars().collect(), hay.chars().collect());
        (0..h.len().saturating_sub(p.len() - 1))
            .filter(|&i| h[i..i + p.len()] == p[..])
            .collect()
    }

    #[test]
    fn separate_searches_and_the_automaton_find_the_same_starts() {
        let hay = "aaaa é l'été, été — ééé abab ab x ab";
        let patterns = [
            "aa",
            "été",
            "éé",
            "ab",
            "abab ab",
            "b",
            "zz",
            "é l'été, été — ééé abab",
        ];
        let want: Vec<Vec<usize>> = patterns.iter().map(|p| naive(p, hay)).collect();
        assert_eq!(want[0], vec![0, 1, 2]);
        let text = CharStarts::new(hay);
        // Few patterns: one search each; many (the same ones padded with absent ones): the
        // automaton.
        let few = occurrences(&patterns, hay, &text);
        let padding: Vec<String> = (0..SEPARATE_SEARCHES)
            .map(|i| format!("absent {i}"))
            .collect();
        let many: Vec<&str> = patterns
            .iter()
            .copied()
            .chain(padding.iter().map(String::as_str))
            .collect();
        let all = occurrences(&many, hay, &text);
        assert_eq!(few, want);
        assert_eq!(all[..patterns.len()], want[..]);
        assert!(all[patterns.len()..].iter().all(Vec::is_empty));
    }
}
