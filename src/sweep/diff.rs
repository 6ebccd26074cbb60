//! The old → new diff of one document, kept as a map of equal runs of chars, and rung 5 of the
//! sweep's ladder, which follows a span's surviving chars through it.
//!
//! Built once per document: a Myers diff of lines (crate `similar`, lines compared as integer
//! ids), then a diff of chars inside each replaced block of lines, so the cost follows the size
//! of the changes rather than the size of the document.
//!
//! Cost bound: Myers costs about (a + b) × D for sequences of a and b items and D edits, so a
//! document rewritten from scratch (D ≈ a + b) would cost its size squared. Each Myers diff
//! runs within a work budget (counted in [`DiffMap::work`]): the line diff within
//! [`LINE_WORK_BUDGET`], each block of chars within [`BLOCK_WORK_BUDGET`], the whole document
//! within [`DIFF_WORK_BUDGET`].
//! - A line diff too costly falls back to lines that occur once in each revision and keep their
//!   order (patience style); a long text (at least [`LONG_TEXT`] chars) in which less than 90%
//!   of the chars could sit in equal lines (another extractor changed many lines; what stays
//!   equal is blank lines and page numbers) skips the line diff and is one block.
//! - A block too costly for Myers is split at [`ANCHOR_GRAM`]-char grams that occur once on
//!   each side and keep their order; each anchor grows into the longest equal run around it,
//!   and each gap between runs is diffed the same way, at most [`MAX_ANCHOR_DEPTH`] levels
//!   deep. The cost is linear in the block per level plus bounded Myers in the gaps; a gap with
//!   no anchor that is still too costly contributes no runs ([`DiffMap::fell_back`]), which
//!   leaves its citations to the sweep's exact, folded, letters and fuzzy rungs.
//!
//! Ordinary edits (documentation releases) never reach the budgets, so they get the diff they
//! had before: `similar`'s Myers for blocks of edited lines, which keeps repeated table rows in
//! place; the plain forward Myers (with its trace, one pass) only between unique anchors.
//!
//! Invariants: runs are sorted and strictly increasing in both old and new coordinates (a diff
//! never crosses itself); `old[run.old..run.old + len] == new[run.new..run.new + len]`; no run is
//! shorter than [`MIN_RUN`] chars. Short runs inside a rewritten passage are letters the two
//! versions share by chance (" a ", "the"); dropping them keeps "how much of this span survives"
//! honest for deleted text.

// Rung 5 of the ladder: follow the span's surviving chars to where the diff put them.

use super::{
    trim, Anchor, Changed, DocumentSweep, Method, Placed, Status, FOLLOW_DIFF, MIN_FOLLOWED,
};
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
        // A word or two of a short span that another sentence shares by chance is not where
        // it went, however large a share of the span it is: the runs that carry it must hold
        // more equal text than that (the words around an edited short span survive with it).
        if survival < FOLLOW_DIFF || mapped.surviving < MIN_FOLLOWED || !mapped.grounded() {
            return None;
        }
        if ch.diff.split_by_chance(placed.own.0, placed.own.1, mapped) {
            return None;
        }
        let (a, b) = mapped.region?;
        let (a, b) = trim(&ch.new.chars, a, b)?;
        // However much was inserted, the span's own text is all there: cover it and say so.
        let inserted = inserted_chars(ch, placed.own, (a, b), mapped.surviving);
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

/// How many chars of the new region `(a, b)` are not the span's own text (`own`, old
/// coordinates): the region's length less the longest common subsequence of the two. The
/// diff's `surviving` count leaves out runs shorter than [`MIN_RUN`] (a `/` between two
/// dropped spaces), which a reason would call new; counted by the LCS, `calls / mo` →
/// `calls/mo` holds no new character. Only computed when the runs say something was inserted.
fn inserted_chars(
    ch: &Changed,
    own: (usize, usize),
    (a, b): (usize, usize),
    surviving: usize,
) -> usize {
    let by_runs = (b - a).saturating_sub(surviving);
    if by_runs == 0 {
        return 0;
    }
    let span = &ch.old.chars[own.0..own.1];
    let lcs = crate::text::lcs::PatternBits::new(span.iter().copied(), span.len())
        .lcs(&ch.new.chars[a..b]);
    by_runs.min((b - a).saturating_sub(lcs))
}

// The diff itself.

use foldhash::{HashMap, HashMapExt};
use similar::{capture_diff_slices, Algorithm, DiffTag};
use std::ops::Range;

/// Shortest run of equal chars that counts as surviving text.
pub const MIN_RUN: usize = 4;

/// Work (greedy-diff steps and item comparisons) one document's diff may spend on Myers diffs
/// before it falls back; 32M is a few tens of milliseconds in a release build.
pub const DIFF_WORK_BUDGET: usize = 32 << 20;

/// Work the line diff may spend on Myers before it anchors on unique lines instead.
pub const LINE_WORK_BUDGET: usize = 1 << 18;

/// Work one replaced block of lines may spend on a char-level Myers diff before it is split
/// at char grams unique on both sides.
pub const BLOCK_WORK_BUDGET: usize = 1 << 14;

/// Chars per anchor gram of a block split.
pub const ANCHOR_GRAM: usize = 12;

/// Most nested splits of one block at anchor grams.
pub const MAX_ANCHOR_DEPTH: usize = 3;

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
    /// Chars of the runs that carry at least [`MIN_RUN`] of the span's chars, each counted
    /// whole (inside the span and around it): how much equal text the placement rests on.
    pub grounding: usize,
}

impl Mapped {
    /// Whether the runs that carry the span hold twice [`MIN_FOLLOWED`] chars of equal text:
    /// enough that the place they carry it to is not a few words shared by chance.
    pub fn grounded(&self) -> bool {
        self.grounding >= 2 * MIN_FOLLOWED
    }
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
    rewritten: bool,
}

/// Length of the overlap of two half-open ranges.
fn overlap((a, b): (usize, usize), (c, d): (usize, usize)) -> usize {
    b.min(d).saturating_sub(a.max(c))
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

/// Least work Myers' rounds cost before a script of `edits` edits is found: round d costs at
/// least d + 1 steps, and the budget is checked after every round before the last.
fn rounds_cost(edits: usize) -> usize {
    edits * (edits + 1) / 2
}

/// A lower bound on the edits (insertions and deletions) turning `a` into `b`: each edit
/// changes one char's count by one, so the counts' differences must all be made up. Chars are
/// counted in 256 buckets by code point (merging chars only lowers the sum, so it stays a
/// bound). A block of text one extractor put elsewhere or dropped differs this way from the
/// first char on, and Myers would spend its whole budget finding out.
fn fewest_edits(a: &[char], b: &[char]) -> usize {
    let mut diff = [0i32; 256];
    for &c in a {
        diff[c as usize & 0xff] += 1;
    }
    for &c in b {
        diff[c as usize & 0xff] -= 1;
    }
    diff.iter().map(|d| d.unsigned_abs() as usize).sum()
}

/// The equal runs `(a start, b start, length)` of a shortest edit script of `a` into `b`
/// (Myers' greedy forward pass, then back along the furthest-reaching paths), or `None` when
/// it needs more than `budget` work; the work spent is added to `work`. `least_edits` is a
/// lower bound on the script's edits the caller knows (0 if none).
///
/// Myers' O((N + M)·D) costs little when D is small, which the budget guarantees; the trace
/// kept for the way back holds O(D²) positions.
fn myers_within<T: PartialEq>(
    a: &[T],
    b: &[T],
    budget: usize,
    least_edits: usize,
    work: &mut usize,
    trace: &mut Vec<isize>,
) -> Option<Vec<(usize, usize, usize)>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    // Every script needs at least |n - m| edits (and the caller's bound), and round d costs at
    // least d + 1 steps: when the rounds before that many edits already cost more than the
    // budget, the diff cannot finish within it (two texts of very different lengths, or of
    // different chars), and trying is wasted work.
    if rounds_cost(n.abs_diff(m).max(least_edits)) > budget {
        return None;
    }
    let max = (n + m) as usize;
    // Round d costs at least d + 1 steps, so the budget is spent before d passes this: the
    // diagonal array never needs to be larger, however long the inputs.
    let reach = max.min((2 * budget).isqrt() + 2);
    let offset = reach as isize + 1;
    let mut v = vec![0isize; 2 * reach + 3];
    // trace[d(d+1)/2 + (k + d)/2]: the furthest x on diagonal k after round d (the caller's
    // buffer, reused from one block to the next).
    trace.clear();
    let mut spent = 0usize;
    let mut end = None;
    'rounds: for d in 0..=reach as isize {
        trace.reserve(d as usize + 1);
        // Diagonals k = -d, -d + 2, ..., d, at v[k + offset]: the round's slice of v, read
        // through a window of three (a `step_by` range and two index checks per step cost
        // more than the step's own work in a block that overruns its budget).
        let round = &mut v[(offset - d - 1) as usize..=(offset + d + 1) as usize];
        for (i, k) in (0..=d).map(|i| (2 * i as usize, 2 * i - d)) {
            let [below, _, above] = round[i..i + 3] else {
                unreachable!("a window of three")
            };
            let mut x = if k == -d || (k != d && below < above) {
                above
            } else {
                below + 1
            };
            let mut y = x - k;
            if x < n && y < m {
                // The snake: equal items from (x, y) on, compared as slices (no index check
                // per item; most rounds of a block that overruns its budget are spent here).
                let run = common_prefix(&a[x as usize..], &b[y as usize..]);
                x += run as isize;
                y += run as isize;
                spent += run;
            }
            round[i + 1] = x;
            trace.push(x);
            spent += 1;
            if x >= n && y >= m {
                end = Some(d);
                break 'rounds;
            }
        }
        if spent > budget {
            break;
        }
    }
    *work += spent;
    let d_end = end?;
    let at = |d: isize, k: isize| trace[(d * (d + 1) / 2 + (k + d) / 2) as usize];
    let mut runs = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (1..=d_end).rev() {
        let k = x - y;
        let down = k == -d || (k != d && at(d - 1, k - 1) < at(d - 1, k + 1));
        let prev_k = if down { k + 1 } else { k - 1 };
        let prev_x = at(d - 1, prev_k);
        let prev_y = prev_x - prev_k;
        let (mid_x, mid_y) = if down {
            (prev_x, prev_y + 1)
        } else {
            (prev_x + 1, prev_y)
        };
        if x > mid_x {
            runs.push((mid_x as usize, mid_y as usize, (x - mid_x) as usize));
        }
        (x, y) = (prev_x, prev_y);
    }
    if x > 0 {
        runs.push((0, 0, x as usize));
    }
    runs.reverse();
    Some(runs)
}

/// How many items `a` and `b` start with alike.
fn common_prefix<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Pairs of (old, new) indexes of lines that occur exactly once in each revision, longest
/// subsequence increasing in both (the anchors of a patience diff), in O(n log n).
fn unique_anchors(old: &[u32], new: &[u32]) -> Vec<(usize, usize)> {
    let mut seen: HashMap<u32, (usize, usize, usize)> = HashMap::with_capacity(old.len());
    for (i, line) in old.iter().enumerate() {
        let e = seen.entry(*line).or_insert((0, 0, i));
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
    longest_increasing(pairs, |(old, _)| old)
}

/// The longest subsequence of `pairs`, kept in their order, along which `key` strictly
/// increases (patience sorting, O(n log n)); the diff's anchors and the letters rung's chains.
/// The chain is kept in `pairs`' own buffer: a whole document's anchors are the largest thing
/// the diff holds (9 million pairs for a 9 MB document).
pub(super) fn longest_increasing<P: Copy>(mut pairs: Vec<P>, key: impl Fn(P) -> usize) -> Vec<P> {
    let key_at = |p: u32| key(pairs[p as usize]);
    // `tails[l]`: the pair ending the best chain of length l + 1 so far; texts mostly in order
    // extend the longest chain, which needs no search.
    let mut tails: Vec<u32> = Vec::new();
    let mut prev = vec![NO_PAIR; pairs.len()];
    for p in 0..pairs.len() as u32 {
        let k = key_at(p);
        let at = match tails.last() {
            Some(&last) if key_at(last) < k => tails.len(),
            _ => tails.partition_point(|&t| key_at(t) < k),
        };
        if at > 0 {
            prev[p as usize] = tails[at - 1];
        }
        if at == tails.len() {
            tails.push(p);
        } else {
            tails[at] = p;
        }
    }
    // Back along the chain from its last pair, each pair marked, then the rest dropped.
    let mut at = tails.last().copied();
    drop(tails);
    while let Some(p) = at {
        let before = std::mem::replace(&mut prev[p as usize], ON_CHAIN);
        at = (before != NO_PAIR).then_some(before);
    }
    let mut on_chain = prev.iter().map(|&p| p == ON_CHAIN);
    pairs.retain(|_| on_chain.next() == Some(true));
    pairs.shrink_to_fit();
    pairs
}

/// No pair before this one in its chain (in `longest_increasing`).
const NO_PAIR: u32 = u32::MAX;
/// The pair is on the longest chain (in `longest_increasing`).
const ON_CHAIN: u32 = u32::MAX - 1;

/// Every line as a small integer, equal lines alike, so the line diffs compare integers.
fn line_ids<'t>(
    old: &'t [char],
    old_lines: &[Range<usize>],
    new: &'t [char],
    new_lines: &[Range<usize>],
) -> (Vec<u32>, Vec<u32>) {
    let mut ids: HashMap<&'t [char], u32> = HashMap::with_capacity(old_lines.len());
    let mut id_of = |line: &'t [char]| -> u32 {
        let next = ids.len() as u32;
        *ids.entry(line).or_insert(next)
    };
    let old_ids: Vec<u32> = old_lines.iter().map(|r| id_of(&old[r.clone()])).collect();
    let new_ids: Vec<u32> = new_lines.iter().map(|r| id_of(&new[r.clone()])).collect();
    (old_ids, new_ids)
}

/// Texts shorter than this always get the line diff: it costs little there.
pub const LONG_TEXT: usize = 4096;

/// True when a text of `len` chars with `shared` chars in equal lines is better diffed as one
/// block split at unique grams: long, and less than 90% of it in equal lines.
fn mostly_changed(len: usize, shared: usize) -> bool {
    len >= LONG_TEXT && 10 * shared < 9 * len
}

/// Chars of `old` in lines that also occur in `new` (as often): at most what a line diff can
/// find equal.
fn shared_bound(old_lines: &[Range<usize>], old_ids: &[u32], new_ids: &[u32]) -> usize {
    let mut left = vec![0u32; old_ids.len() + new_ids.len() + 1];
    for &id in new_ids {
        left[id as usize] += 1;
    }
    let mut shared = 0;
    for (&id, line) in old_ids.iter().zip(old_lines) {
        if left[id as usize] > 0 {
            left[id as usize] -= 1;
            shared += line.len();
        }
    }
    shared
}

/// The runs of a diff under construction, and what it has spent.
#[derive(Default)]
struct Builder {
    raw: Vec<Run>,
    /// Myers' trace, kept between blocks.
    trace: Vec<isize>,
    work: usize,
    fell_back: bool,
}

impl Builder {
    /// Diffs the replaced block `old[o]` / `new[n]` by chars: by Myers when that costs less
    /// than [`BLOCK_WORK_BUDGET`] (and what is left of [`DIFF_WORK_BUDGET`]); else anchored on
    /// char grams unique in both sides of the block, each gap between anchors diffed the same
    /// way, at most [`MAX_ANCHOR_DEPTH`] levels deep.
    fn block(
        &mut self,
        old: &[char],
        new: &[char],
        o: Range<usize>,
        n: Range<usize>,
        depth: usize,
    ) {
        if o.is_empty() || n.is_empty() {
            return;
        }
        let budget = BLOCK_WORK_BUDGET.min(DIFF_WORK_BUDGET.saturating_sub(self.work));
        let (a, b) = (&old[o.clone()], &new[n.clone()]);
        let least_edits = fewest_edits(a, b);
        if let Some(runs) = myers_within(a, b, budget, least_edits, &mut self.work, &mut self.trace)
        {
            let runs = if depth == 0 {
                // A block of edited lines: `similar`'s Myers (middle snakes, prefix and suffix
                // trimmed first) chooses among equally short scripts the one that keeps
                // repeated rows of a table in place, where the plain forward pass may shift
                // them; between unique anchors there is nothing left to choose.
                similar_runs(&old[o.clone()], &new[n.clone()])
            } else {
                runs
            };
            self.raw.extend(runs.into_iter().map(|(io, inn, len)| Run {
                old: o.start + io,
                new: n.start + inn,
                len,
            }));
            return;
        }
        if depth == MAX_ANCHOR_DEPTH {
            // Too costly to diff by chars and nothing left to anchor on: no runs here; the
            // searches place its citations.
            self.fell_back = true;
            return;
        }
        self.work += o.len() + n.len();
        let anchors = unique_gram_pairs(&old[o.clone()], &new[n.clone()]);
        if anchors.is_empty() {
            self.fell_back = true;
            return;
        }
        // Each anchor grown into the longest equal run around it, the gaps between runs
        // diffed in turn.
        let (mut i0, mut j0) = (o.start, n.start);
        for (i, j) in anchors {
            let (i, j) = (o.start + i as usize, n.start + j as usize);
            if i < i0 || j < j0 {
                continue;
            }
            let back = (1..=(i - i0).min(j - j0))
                .take_while(|&s| old[i - s] == new[j - s])
                .count();
            let ahead = old[i..o.end]
                .iter()
                .zip(&new[j..n.end])
                .take_while(|(a, b)| a == b)
                .count();
            // Between two maximal runs nothing shorter than either side of the gap can merge
            // with them, so a gap without room for a run of `MIN_RUN` chars holds none.
            if (i - back - i0).min(j - back - j0) >= MIN_RUN {
                self.block(old, new, i0..i - back, j0..j - back, depth + 1);
            }
            self.raw.push(Run {
                old: i - back,
                new: j - back,
                len: back + ahead,
            });
            (i0, j0) = (i + ahead, j + ahead);
        }
        self.block(old, new, i0..o.end, j0..n.end, depth + 1);
    }
}

/// `(old, new)` starts of the [`ANCHOR_GRAM`]-char grams that occur exactly once in `old` and
/// once in `new`, the longest chain of them in order in both.
fn unique_gram_pairs(old: &[char], new: &[char]) -> Vec<(u32, u32)> {
    let pairs = super::grams::GramPairs::unique_pairs(old, new, ANCHOR_GRAM);
    longest_increasing(pairs, |(old, _)| old as usize)
}

/// Line-level operations: `(equal, old lines, new lines)` blocks in order.
type LineOps = Vec<(bool, Range<usize>, Range<usize>)>;

impl DiffMap {
    /// Diffs `old` against `new`, within [`DIFF_WORK_BUDGET`].
    pub fn new(old: &[char], new: &[char]) -> Self {
        let old_lines = line_ranges(old);
        let new_lines = line_ranges(new);
        let (old_ids, new_ids) = line_ids(old, &old_lines, new, &new_lines);
        let chars_of =
            |lines: &[Range<usize>], r: Range<usize>| lines[r.start].start..lines[r.end - 1].end;
        let mut diff = Builder::default();
        let mut ops = if mostly_changed(old.len(), shared_bound(&old_lines, &old_ids, &new_ids)) {
            // Another extractor, not an edit: the split at unique grams costs less than a
            // line diff and blocks of chars.
            vec![]
        } else {
            match myers_within(
                &old_ids,
                &new_ids,
                LINE_WORK_BUDGET,
                0,
                &mut diff.work,
                &mut diff.trace,
            ) {
                Some(_) => myers_line_ops(&old_ids, &new_ids),
                None => {
                    diff.fell_back = true;
                    patience_line_ops(&old_ids, &new_ids)
                }
            }
        };
        // Another extractor (or a reflow) changed most lines: the lines left equal are blank
        // lines and page numbers that cut the text into pieces too small to diff by chars.
        // The whole text is one block then, split at unique char grams.
        let shared: usize = ops
            .iter()
            .filter(|(equal, _, _)| *equal)
            .map(|(_, o, _)| chars_of(&old_lines, o.clone()).len())
            .sum();
        let rewritten =
            mostly_changed(old.len(), shared) && !old_lines.is_empty() && !new_lines.is_empty();
        if rewritten {
            ops = vec![(false, 0..old_lines.len(), 0..new_lines.len())];
        }
        for (equal, o, n) in ops {
            if equal {
                let (o, n) = (chars_of(&old_lines, o), chars_of(&new_lines, n));
                diff.raw.push(Run {
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
            diff.block(old, new, o, n, 0);
        }
        let mut runs: Vec<Run> = Vec::with_capacity(diff.raw.len());
        for run in diff.raw.into_iter().filter(|r| r.len > 0) {
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
            work: diff.work,
            fell_back: diff.fell_back,
            rewritten,
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

    /// True when most lines changed (another extractor, a reflow) and the whole text was
    /// diffed as one block split at unique grams.
    pub fn rewritten(&self) -> bool {
        self.rewritten
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
        let mut grounding = 0;
        for (piece, whole) in self.runs_within_old(start, end) {
            if piece.len >= MIN_RUN {
                grounding += whole;
            }
            if piece.len == end - start {
                verbatim = Some(piece.new);
            }
            surviving += piece.len;
            let (a, b) = (piece.new, piece.new + piece.len);
            region = Some(region.map_or((a, b), |(s, _)| (s, b)));
        }
        Mapped {
            surviving,
            region,
            verbatim,
            point: self.map_point(start),
            grounding,
        }
    }

    /// Whether what the diff carries of the old span `[start, end)` (`mapped`, its
    /// [`Self::map_span`]) is words other text shares by chance: the region holds more new chars
    /// than the span has, its widest gap is longer than the span, and on each side of that gap
    /// the runs carrying the span (counted whole, inside the span and around it) hold fewer
    /// than [`MIN_FOLLOWED`] chars twice over. A span with a paragraph inserted inside it keeps
    /// the text around it: at least one side's runs reach into it.
    pub fn split_by_chance(&self, start: usize, end: usize, mapped: &Mapped) -> bool {
        let len = end - start;
        let Some((a, b)) = mapped.region else {
            return false;
        };
        if (b - a).saturating_sub(mapped.surviving) <= len {
            return false;
        }
        let pieces: Vec<(Run, usize)> = self.runs_within_old(start, end).collect();
        let Some((at, gap)) = pieces
            .windows(2)
            .enumerate()
            .map(|(k, w)| (k + 1, w[1].0.new - (w[0].0.new + w[0].0.len)))
            .max_by_key(|&(_, g)| g)
        else {
            return false;
        };
        let by_chance =
            |side: &[(Run, usize)]| side.iter().map(|p| p.1).sum::<usize>() < 2 * MIN_FOLLOWED;
        let (before, after) = pieces.split_at(at);
        gap > len && by_chance(before) && by_chance(after)
    }

    /// The runs that cover part of old `[start, end)`, each cut to that part (its new start
    /// moved with its old one), with the whole run's length, in order.
    pub(in crate::sweep) fn runs_within_old(
        &self,
        start: usize,
        end: usize,
    ) -> impl Iterator<Item = (Run, usize)> + '_ {
        self.runs[self.first_run_after_old(start)..]
            .iter()
            .take_while(move |r| r.old < end)
            .map(move |r| {
                let (from, to) = (start.max(r.old), end.min(r.old + r.len));
                let piece = Run {
                    old: from,
                    new: r.new + (from - r.old),
                    len: to - from,
                };
                (piece, r.len)
            })
    }

    /// Where the chars of new range `[a, b)` came from, relative to the old span
    /// `[own_start, own_end)`.
    pub fn provenance(&self, a: usize, b: usize, own_start: usize, own_end: usize) -> Provenance {
        let mut p = Provenance::default();
        let mut mapped = 0;
        for r in self.runs_within_new(a, b) {
            mapped += r.len;
            let own = overlap((r.old, r.old + r.len), (own_start, own_end));
            p.own += own;
            p.other += r.len - own;
        }
        p.fresh = (b - a) - mapped;
        p
    }

    /// Chars of new range `new` that the diff carried from old range `old`.
    pub fn carried(&self, new: (usize, usize), old: (usize, usize)) -> usize {
        self.runs_within_new(new.0, new.1)
            .map(|r| overlap((r.old, r.old + r.len), old))
            .sum()
    }

    /// The runs that cover part of new `[a, b)`, each cut to that part (its old start moved
    /// with its new one), in order.
    pub fn runs_within_new(&self, a: usize, b: usize) -> impl Iterator<Item = Run> + '_ {
        self.runs[self.first_run_after_new(a)..]
            .iter()
            .take_while(move |r| r.new < b)
            .map(move |r| {
                let (from, to) = (a.max(r.new), b.min(r.new + r.len));
                Run {
                    old: r.old + (from - r.new),
                    new: from,
                    len: to - from,
                }
            })
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

/// The equal runs of `similar`'s Myers diff of `a` and `b`.
fn similar_runs(a: &[char], b: &[char]) -> Vec<(usize, usize, usize)> {
    capture_diff_slices(Algorithm::Myers, a, b)
        .into_iter()
        .filter_map(|op| match op {
            similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => Some((old_index, new_index, len)),
            _ => None,
        })
        .collect()
}

/// The line diff by Myers (crate `similar`), as [`LineOps`] (a replaced block is one
/// non-equal entry).
fn myers_line_ops(old: &[u32], new: &[u32]) -> LineOps {
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
fn patience_line_ops(old: &[u32], new: &[u32]) -> LineOps {
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

    use crate::text::lcs::tests::{draws, lcs_dp};

    #[test]
    fn myers_refuses_at_once_what_the_length_difference_puts_over_budget() {
        let (mut work, mut trace) = (0, Vec::new());
        let long: Vec<char> = "a".repeat(200).chars().collect();
        // 150 edits fit in the budget: the diff runs; 200 cannot (200 * 201 / 2 > 16384): no
        // work is spent finding that out.
        assert!(myers_within(
            &long[..150],
            &[],
            BLOCK_WORK_BUDGET,
            0,
            &mut work,
            &mut trace
        )
        .is_some());
        let before = work;
        assert!(myers_within(&long, &[], BLOCK_WORK_BUDGET, 0, &mut work, &mut trace).is_none());
        assert_eq!(work, before);
        // The same texts with room in the budget still diff.
        assert!(myers_within(&long, &[], 1 << 20, 0, &mut work, &mut trace).is_some());
    }

    #[test]
    fn a_block_whose_char_counts_differ_past_the_budget_is_split_without_a_myers_attempt() {
        // Two 400-char blocks of the same length (the length bound cannot tell) whose letters
        // differ: 400 edits at least, far past the block budget. The builder splits them at
        // the unique grams around the change without spending work on Myers.
        let words =
            |from: usize| -> String { (from..from + 30).map(|i| format!("w{i:03} ")).collect() };
        let (head, tail) = (words(0), words(100));
        let old: Vec<char> = format!("{head}{}{tail}", "a".repeat(200)).chars().collect();
        let new: Vec<char> = format!("{head}{}{tail}", "b".repeat(200)).chars().collect();
        assert!(fewest_edits(&old, &new) >= 400);
        assert!(rounds_cost(fewest_edits(&old, &new)) > BLOCK_WORK_BUDGET);
        let mut builder = Builder::default();
        builder.block(&old, &new, 0..old.len(), 0..new.len(), 0);
        // Only the split's own cost (both sides' lengths, once per level) is spent.
        assert!(
            builder.work <= 2 * (old.len() + new.len()),
            "work {}",
            builder.work
        );
        let equal: usize = builder.raw.iter().map(|r| r.len).sum();
        assert_eq!(equal, head.len() + tail.len());
    }

    #[test]
    fn fewest_edits_never_exceeds_the_edits_a_shortest_script_makes() {
        let mut next = draws(0x9e37_79b9_7f4a_7c15);
        for _ in 0..300 {
            let (la, lb) = (next(60) as usize, next(60) as usize);
            // Chars 256 apart share a bucket: the bound must hold across merged buckets too.
            let pick = |k: u64| char::from_u32(0x61 + (k % 3) as u32 + 256 * (k / 3) as u32);
            let a: Vec<char> = (0..la).map(|_| pick(next(6)).unwrap()).collect();
            let b: Vec<char> = (0..lb).map(|_| pick(next(6)).unwrap()).collect();
            let edits = la + lb - 2 * lcs_dp(&a, &b);
            assert!(fewest_edits(&a, &b) <= edits, "{a:?} / {b:?}");
        }
    }

    #[test]
    fn myers_runs_are_a_longest_common_subsequence() {
        let mut next = draws(0x2545_f491_4f6c_dd1d);
        for _ in 0..300 {
            let (la, lb) = (next(40) as usize, next(40) as usize);
            let a: Vec<char> = (0..la).map(|_| (b'a' + next(4) as u8) as char).collect();
            let b: Vec<char> = (0..lb).map(|_| (b'a' + next(4) as u8) as char).collect();
            let mut work = 0;
            let runs = myers_within(&a, &b, usize::MAX / 4, 0, &mut work, &mut Vec::new())
                .expect("no budget limit");
            let (mut i, mut j, mut total) = (0, 0, 0);
            for (x, y, len) in runs {
                assert!(x >= i && y >= j, "{a:?} {b:?}: runs out of order");
                assert_eq!(a[x..x + len], b[y..y + len], "{a:?} {b:?}");
                (i, j, total) = (x + len, y + len, total + len);
            }
            assert_eq!(total, lcs_dp(&a, &b), "{a:?} {b:?}");
        }
        let mut work = 0;
        let long: Vec<char> = "abcdefgh".repeat(50).chars().collect();
        let other: Vec<char> = "hgfedcba".repeat(50).chars().collect();
        assert!(myers_within(&long, &other, 100, 0, &mut work, &mut Vec::new()).is_none());
        assert!(work <= 100 + long.len() + other.len(), "{work}");
    }

    #[test]
    fn every_line_changed_still_maps_the_text() {
        // Another extractor: every line differs (spacing accents, a ligature, a page number
        // inside), and the blank lines and numbers that stay equal are no guide.
        let words = [
            "the",
            "cinétique",
            "moment",
            "of",
            "inertia",
            "deﬁned",
            "about",
            "a",
            "fixed",
            "point",
            "varignon",
            "transport",
            "formula",
            "second",
            "first",
            "energy",
        ];
        let mut seed = 7u64;
        let mut old = String::new();
        for line in 0..400 {
            for w in 0..9 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                old += words[(seed >> 33) as usize % words.len()];
                old += if w == 8 { "\n" } else { " " };
            }
            old += &format!("{line}\n\n");
        }
        let new = old
            .replace("é", "´e")
            .replace("ﬁ", "fi")
            .replace("moment", "mo-\nment");
        let (o, n) = (chars(&old), chars(&new));
        let map = DiffMap::new(&o, &n);
        let covered: usize = map.runs().iter().map(|r| r.len).sum();
        assert!(
            covered * 10 >= o.len() * 8,
            "{covered} of {} chars mapped",
            o.len()
        );
        for r in map.runs() {
            assert_eq!(o[r.old..r.old + r.len], n[r.new..r.new + r.len]);
        }
        // The whole text was one block: the fuzzy rung searches only near a span's place.
        assert!(map.rewritten());
        // A sentence in the middle is carried to its new place, not lost.
        let at = old.char_indices().count() / 2;
        let m = map.map_span(at, at + 60);
        assert!(m.surviving >= 45, "{m:?}");
    }

    #[test]
    fn span_survival_region_and_provenance() {
        let old = chars("Intro line.\nThe quick brown fox jumps over the lazy dog.\nEnd.\n");
        let new = chars("Intro line.\nThe quick brown fox [p. 4] jumps over the lazy dog.\nEnd.\n");
        let map = DiffMap::new(&old, &new);
        assert!(!map.rewritten(), "an edit, not another extractor");
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
