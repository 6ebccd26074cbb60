//! The old → new diff of one document, kept as a map of equal runs of chars, and rung 5 of the
//! sweep's ladder, which follows a span's surviving chars through it.
//!
//! Built once per document: a Myers diff of lines (crate `similar`), then a Myers diff of chars
//! inside each replaced block of lines, so the cost follows the size of the changes rather than
//! the size of the document.
//!
//! Cost bound: Myers costs about (a + b) × D for sequences of a and b items and D edits, so a
//! document rewritten from scratch (D ≈ a + b) would cost its size squared. Before each Myers
//! diff, a greedy forward pass measures D within what is left of [`DIFF_WORK_BUDGET`] (counted
//! in [`DiffMap::work`]); when it runs out, the diff falls back ([`DiffMap::fell_back`]): lines
//! that occur once in each revision and keep their order anchor the line diff (patience
//! style), and a replaced block too costly to diff by chars contributes no runs, which leaves
//! its citations to the sweep's exact, folded and fuzzy searches. Ordinary edits never reach
//! the budget, so they get exactly the diff they had before.
//!
//! Invariants: runs are sorted and strictly increasing in both old and new coordinates (a diff
//! never crosses itself); `old[run.old..run.old + len] == new[run.new..run.new + len]`; no run is
//! shorter than [`MIN_RUN`] chars. Short runs inside a rewritten passage are letters the two
//! versions share by chance (" a ", "the"); dropping them keeps "how much of this span survives"
//! honest for deleted text.

// Rung 5 of the ladder: follow the span's surviving chars to where the diff put them.

use super::{trim, Anchor, Changed, DocumentSweep, Method, Placed, Status, FOLLOW_DIFF};
use crate::text::locate::meaning_change;
use crate::text::{fold, Folded};

impl DocumentSweep<'_> {
    /// Rung 5: when at least [`FOLLOW_DIFF`] of the span's chars survive, the region they went
    /// to.
    pub(in crate::sweep) fn follow_diff(
        &self,
        ch: &Changed,
        placed: &Placed,
        needle: &Folded,
    ) -> Option<Anchor> {
        let (mapped, survival) = (&placed.mapped, placed.survival);
        if survival < FOLLOW_DIFF {
            return None;
        }
        let (a, b) = mapped.region?;
        let (a, b) = trim(&ch.new.chars, a, b)?;
        // However much was inserted, the span's own text is all there: cover it and say so.
        let inserted = (b - a).saturating_sub(mapped.surviving);
        let mut reason = format!(
            "edited: {:.0}% of the span's characters survive in the diff",
            survival * 100.0
        );
        if inserted > 0 {
            reason += &format!(
                "; the span now holds {}",
                crate::text::plural(inserted, "new character", "new characters")
            );
        }
        let now = fold(&ch.new.chars[a..b].iter().collect::<String>());
        if let Some(change) = meaning_change(&needle.chars, &now.chars) {
            reason += &format!("; {change}");
        }
        Some(self.found(
            Status::Degraded,
            a,
            b,
            survival * 100.0,
            Method::Diff,
            Some(reason),
        ))
    }
}

// The diff itself.

use similar::{capture_diff_slices, Algorithm, DiffTag};
use std::ops::Range;

/// Shortest run of equal chars that counts as surviving text.
pub const MIN_RUN: usize = 4;

/// Work (greedy-diff steps and item comparisons) one document's diff may spend on Myers diffs
/// before it falls back; 32M is a few tens of milliseconds in a release build.
pub const DIFF_WORK_BUDGET: usize = 32 << 20;

/// `len` chars equal in both revisions, at `old` and at `new`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Start in the old revision.
    pub old: usize,
    /// Start in the new revision.
    pub new: usize,
    /// Length in chars.
    pub len: usize,
}

/// What the diff says about one old span.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mapped {
    /// Chars of the span that survive (inside runs).
    pub surviving: usize,
    /// Where the surviving chars are in the new revision: first to last, half-open.
    pub region: Option<(usize, usize)>,
    /// The new start when the whole span lies inside one run (it survives verbatim).
    pub verbatim: Option<usize>,
    /// The span's start carried through the diff (the nearest new position for deleted text).
    pub point: usize,
}

/// Chars of a new-revision range by where they came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Provenance {
    /// From inside the cited old span.
    pub own: usize,
    /// From old text outside the cited span: text the old revision already had elsewhere.
    pub other: usize,
    /// Not in the old revision (inserted).
    pub fresh: usize,
}

/// The diff as equal runs.
#[derive(Debug, Clone)]
pub struct DiffMap {
    runs: Vec<Run>,
    work: usize,
    fell_back: bool,
}

fn line_ranges(chars: &[char]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &c) in chars.iter().enumerate() {
        if c == '\n' {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < chars.len() {
        out.push(start..chars.len());
    }
    out
}

/// Edit distance (inserts + deletes) of `a` and `b` by the greedy forward Myers pass, or `None`
/// when it needs more than `budget` work; the work spent is added to `work`.
fn edit_distance_within<T: PartialEq>(
    a: &[T],
    b: &[T],
    budget: usize,
    work: &mut usize,
) -> Option<usize> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    // Round d costs at least d + 1 steps, so the budget is spent before d passes this: the
    // diagonal array never needs to be larger, however long the inputs.
    let reach = max.min((2 * budget).isqrt() + 2);
    let offset = reach as isize + 1;
    let mut v = vec![0isize; 2 * reach + 3];
    let mut spent = 0usize;
    let result = (|| {
        for d in 0..=reach as isize {
            for k in (-d..=d).step_by(2) {
                let at = (k + offset) as usize;
                let mut x = if k == -d || (k != d && v[at - 1] < v[at + 1]) {
                    v[at + 1]
                } else {
                    v[at - 1] + 1
                };
                let mut y = x - k;
                while x < n && y < m && a[x as usize] == b[y as usize] {
                    x += 1;
                    y += 1;
                    spent += 1;
                }
                v[at] = x;
                spent += 1;
                if x >= n && y >= m {
                    return Some(d as usize);
                }
            }
            if spent > budget {
                return None;
            }
        }
        // Only reached when `reach` < `max`: the distance is larger than the budget allows.
        None
    })();
    *work += spent;
    result
}

/// Pairs of (old, new) indexes of lines that occur exactly once in each revision, longest
/// subsequence increasing in both (the anchors of a patience diff), in O(n log n).
fn unique_anchors(old: &[&[char]], new: &[&[char]]) -> Vec<(usize, usize)> {
    use std::collections::HashMap;
    let mut seen: HashMap<&[char], (usize, usize, usize)> = HashMap::new();
    for (i, line) in old.iter().enumerate() {
        let e = seen.entry(line).or_insert((0, 0, i));
        e.0 += 1;
    }
    let mut pairs = Vec::new();
    for line in new {
        if let Some(e) = seen.get_mut(line) {
            e.1 += 1;
        }
    }
    for (j, line) in new.iter().enumerate() {
        if let Some(&(1, 1, i)) = seen.get(line) {
            pairs.push((i, j));
        }
    }
    // Longest increasing subsequence of old indexes (pairs are in new order).
    let mut tails: Vec<usize> = Vec::new();
    let mut prev = vec![usize::MAX; pairs.len()];
    for (p, &(i, _)) in pairs.iter().enumerate() {
        let at = tails.partition_point(|&t| pairs[t].0 < i);
        if at > 0 {
            prev[p] = tails[at - 1];
        }
        if at == tails.len() {
            tails.push(p);
        } else {
            tails[at] = p;
        }
    }
    let mut out = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(p) = at {
        out.push(pairs[p]);
        at = (prev[p] != usize::MAX).then_some(prev[p]);
    }
    out.reverse();
    out
}

/// Line-level operations: `(equal, old lines, new lines)` blocks in order.
type LineOps = Vec<(bool, Range<usize>, Range<usize>)>;

impl DiffMap {
    /// Diffs `old` against `new`, within [`DIFF_WORK_BUDGET`].
    pub fn new(old: &[char], new: &[char]) -> Self {
        let old_lines = line_ranges(old);
        let new_lines = line_ranges(new);
        let old_slices: Vec<&[char]> = old_lines.iter().map(|r| &old[r.clone()]).collect();
        let new_slices: Vec<&[char]> = new_lines.iter().map(|r| &new[r.clone()]).collect();
        let chars_of =
            |lines: &[Range<usize>], r: Range<usize>| lines[r.start].start..lines[r.end - 1].end;
        let mut work = 0;
        let mut fell_back = false;
        let ops = match edit_distance_within(&old_slices, &new_slices, DIFF_WORK_BUDGET, &mut work)
        {
            Some(_) => myers_line_ops(&old_slices, &new_slices),
            None => {
                fell_back = true;
                patience_line_ops(&old_slices, &new_slices)
            }
        };
        let mut raw = Vec::new();
        for (equal, o, n) in ops {
            if equal {
                let (o, n) = (chars_of(&old_lines, o), chars_of(&new_lines, n));
                raw.push(Run {
                    old: o.start,
                    new: n.start,
                    len: o.len(),
                });
                continue;
            }
            if o.is_empty() || n.is_empty() {
                continue;
            }
            let (o, n) = (chars_of(&old_lines, o), chars_of(&new_lines, n));
            let left = DIFF_WORK_BUDGET.saturating_sub(work);
            if edit_distance_within(&old[o.clone()], &new[n.clone()], left, &mut work).is_none() {
                // Too costly to diff by chars: no runs here; the searches place its citations.
                fell_back = true;
                continue;
            }
            let inner = capture_diff_slices(Algorithm::Myers, &old[o.clone()], &new[n.clone()]);
            for op in inner {
                let (tag, io, inn) = op.as_tag_tuple();
                if tag == DiffTag::Equal {
                    raw.push(Run {
                        old: o.start + io.start,
                        new: n.start + inn.start,
                        len: io.len(),
                    });
                }
            }
        }
        let mut runs: Vec<Run> = Vec::with_capacity(raw.len());
        for run in raw.into_iter().filter(|r| r.len > 0) {
            match runs.last_mut() {
                Some(last) if last.old + last.len == run.old && last.new + last.len == run.new => {
                    last.len += run.len;
                }
                _ => runs.push(run),
            }
        }
        runs.retain(|r| r.len >= MIN_RUN);
        DiffMap {
            runs,
            work,
            fell_back,
        }
    }

    /// Work the diff spent measuring edit distances (bounded by about twice
    /// [`DIFF_WORK_BUDGET`] plus the documents' lengths).
    pub fn work(&self) -> usize {
        self.work
    }

    /// True when some part of the diff was too costly for Myers and fell back (see the module
    /// documentation).
    pub fn fell_back(&self) -> bool {
        self.fell_back
    }

    /// The equal runs, in order.
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// Index of the first run that ends after old position `p`.
    fn first_run_after_old(&self, p: usize) -> usize {
        self.runs.partition_point(|r| r.old + r.len <= p)
    }

    /// Index of the first run that ends after new position `p`.
    fn first_run_after_new(&self, p: usize) -> usize {
        self.runs.partition_point(|r| r.new + r.len <= p)
    }

    /// Old position `p` carried to the new revision: exact inside a run, else the end of the
    /// nearest run before it.
    pub fn map_point(&self, p: usize) -> usize {
        let i = self.first_run_after_old(p);
        match self.runs.get(i) {
            Some(r) if r.old <= p => r.new + (p - r.old),
            _ => i
                .checked_sub(1)
                .map_or(0, |j| self.runs[j].new + self.runs[j].len),
        }
    }

    /// What became of the old span `[start, end)`.
    pub fn map_span(&self, start: usize, end: usize) -> Mapped {
        let mut surviving = 0;
        let mut region: Option<(usize, usize)> = None;
        let mut verbatim = None;
        for r in &self.runs[self.first_run_after_old(start)..] {
            if r.old >= end {
                break;
            }
            let from = start.max(r.old);
            let to = end.min(r.old + r.len);
            if from == start && to == end {
                verbatim = Some(r.new + (start - r.old));
            }
            surviving += to - from;
            let (a, b) = (r.new + (from - r.old), r.new + (to - r.old));
            region = Some(region.map_or((a, b), |(s, _)| (s, b)));
        }
        Mapped {
            surviving,
            region,
            verbatim,
            point: self.map_point(start),
        }
    }

    /// Where the chars of new range `[a, b)` came from, relative to the old span
    /// `[own_start, own_end)`.
    pub fn provenance(&self, a: usize, b: usize, own_start: usize, own_end: usize) -> Provenance {
        let mut p = Provenance::default();
        let mut mapped = 0;
        for r in &self.runs[self.first_run_after_new(a)..] {
            if r.new >= b {
                break;
            }
            let from = a.max(r.new);
            let to = b.min(r.new + r.len);
            mapped += to - from;
            let (old_from, old_to) = (r.old + (from - r.new), r.old + (to - r.new));
            let own = old_to.min(own_end).saturating_sub(old_from.max(own_start));
            p.own += own;
            p.other += (to - from) - own;
        }
        p.fresh = (b - a) - mapped;
        p
    }

    /// Chars of new range `new` that the diff carried from old range `old`.
    pub fn carried(&self, new: (usize, usize), old: (usize, usize)) -> usize {
        let mut total = 0;
        for r in &self.runs[self.first_run_after_new(new.0)..] {
            if r.new >= new.1 {
                break;
            }
            let from = new.0.max(r.new);
            let to = new.1.min(r.new + r.len);
            let (old_from, old_to) = (r.old + (from - r.new), r.old + (to - r.new));
            total += old_to.min(old.1).saturating_sub(old_from.max(old.0));
        }
        total
    }

    /// Stretches of the new revision that no run covers (inserted or rewritten text), merged
    /// when less than `join` chars of surviving text separate them.
    pub fn fresh_regions(&self, new_len: usize, join: usize) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        let mut at = 0;
        let push = |a: usize, b: usize, out: &mut Vec<(usize, usize)>| {
            if a >= b {
                return;
            }
            match out.last_mut() {
                Some(last) if a - last.1 < join => last.1 = b,
                _ => out.push((a, b)),
            }
        };
        for r in &self.runs {
            push(at, r.new, &mut out);
            at = r.new + r.len;
        }
        push(at, new_len, &mut out);
        out
    }
}

/// The line diff by Myers, as [`LineOps`] (a replaced block is one non-equal entry).
fn myers_line_ops(old: &[&[char]], new: &[&[char]]) -> LineOps {
    capture_diff_slices(Algorithm::Myers, old, new)
        .into_iter()
        .filter_map(|op| {
            let (tag, o, n) = op.as_tag_tuple();
            match tag {
                DiffTag::Equal => Some((true, o, n)),
                DiffTag::Replace => Some((false, o, n)),
                DiffTag::Delete | DiffTag::Insert => None,
            }
        })
        .collect()
}

/// The line diff anchored on unique lines: equal anchors, and the gaps between them as
/// replaced blocks.
fn patience_line_ops(old: &[&[char]], new: &[&[char]]) -> LineOps {
    let mut ops = Vec::new();
    let (mut i, mut j) = (0, 0);
    for (a, b) in unique_anchors(old, new) {
        if a > i || b > j {
            ops.push((false, i..a, j..b));
        }
        ops.push((true, a..a + 1, b..b + 1));
        (i, j) = (a + 1, b + 1);
    }
    if i < old.len() || j < new.len() {
        ops.push((false, i..old.len(), j..new.len()));
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn runs_copy_equal_text() {
        let cases = [
            ("alpha\nbeta\ngamma\n", "alpha\nbeta\ngamma\n"),
            ("one two three\nfour\n", "one 2 three\nfour\nfive\n"),
            (
                "The cat sat on the mat.\nIt was warm.\n",
                "It was warm.\nThe cat sat on the mat.\n",
            ),
            ("", "something new"),
            ("removed entirely", ""),
        ];
        for (old, new) in cases {
            let (o, n) = (chars(old), chars(new));
            let map = DiffMap::new(&o, &n);
            let mut last: Option<Run> = None;
            for r in map.runs() {
                assert!(r.len >= MIN_RUN);
                assert_eq!(o[r.old..r.old + r.len], n[r.new..r.new + r.len], "{old:?}");
                if let Some(l) = last {
                    assert!(l.old + l.len <= r.old && l.new + l.len <= r.new);
                }
                last = Some(*r);
            }
        }
    }

    #[test]
    fn span_survival_region_and_provenance() {
        let old = chars("Intro line.\nThe quick brown fox jumps over the lazy dog.\nEnd.\n");
        let new = chars("Intro line.\nThe quick brown fox [p. 4] jumps over the lazy dog.\nEnd.\n");
        let map = DiffMap::new(&old, &new);
        let (s, e) = (12, 56);
        let m = map.map_span(s, e);
        assert_eq!(m.surviving, e - s, "every char survives");
        assert_eq!(m.verbatim, None, "interrupted");
        let (a, b) = m.region.unwrap();
        let covered: String = new[a..b].iter().collect();
        assert_eq!(
            covered,
            "The quick brown fox [p. 4] jumps over the lazy dog."
        );
        let p = map.provenance(a, b, s, e);
        assert_eq!((p.own, p.other, p.fresh), (e - s, 0, 7));
        assert_eq!(map.map_point(0), 0);
        assert_eq!(map.fresh_regions(new.len(), 1), vec![(32, 39)]);
    }
}
