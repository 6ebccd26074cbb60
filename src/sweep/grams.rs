//! Grams two texts share: for every gram (`len` consecutive items) of the old text, where the
//! same gram is in the new text when it occurs there exactly as often (once, or a few times
//! paired copy for copy in order). The diff splits a block at grams unique to both sides; the
//! letters rung chains a span's grams.
//!
//! Built in linear time per pass with one hash table: the old text's grams get dense group ids
//! (equal rolling hashes, one group), the new text's grams look theirs up, and a counting sort
//! by group lists each group's new copies in text order. On a 51,000-char PDF extraction and
//! its re-extraction that costs about 1.5 ms for the pair (the table's random accesses, not the
//! hashing, are most of it); the table of position lists per gram it replaces cost about
//! twice that, and a third more to free; sorting keys (one `sort_unstable`, or bucketed by
//! their top bits) cost no less in the sweep.
//!
//! Memory: a table for every gram of a 9 MB one-line document was 285 MB (issue 22), so the
//! hash space is cut into disjoint slices (a text of more than [`SLICE_GRAMS`] old grams, in
//! slices of a quarter of that) and every slice is grouped in its own pass (a byte per gram notes its slice; each pass hashes only
//! its own grams again). Every gram of a group has its hash, so a group lies in one slice
//! whole and its counts, ranks and pairs are those one table would give: the result does not
//! depend on the number of slices (tested).
//!
//! Invariants: a pair `(i, j)` always has `old[i..i + len] == new[j..j + len]` (compared, not
//! assumed from the hashes); the k-th copy in the old text is paired with the k-th copy in the
//! new text, and only when the gram occurs as often in both; a gram whose hash another gram
//! shares counts as repeated (never wrongly paired, at worst not paired). Positions are `u32`:
//! a document is at most 256 MiB.

use foldhash::{HashMap, HashMapExt};

/// An item of a text whose grams are paired: a char, or a letter's byte code (rung 5b's
/// projections of a text of at most 256 distinct letters).
pub(super) trait Item: Copy + Eq + Into<u64> {}

impl Item for char {}
impl Item for u8 {}

/// No counterpart: the gram is absent, or not paired (repeated, or not as often on each side).
pub(super) const NONE: u32 = u32::MAX;

/// For each gram start of the old text: its counterpart in the new text.
#[derive(Debug, Default)]
pub(super) struct GramPairs {
    /// Bit `i % 64` of word `i / 64`: old gram `i` occurs exactly once in each text (its new
    /// position is `by_rank[i]`). A bit, not a second `u32` table: 28 MB less for a 9 MB
    /// document.
    once: Vec<u64>,
    /// The new position of the copy of the same rank, for a gram that occurs as often in both
    /// texts (at most `max_copies` times; a gram unique to both is its own copy), else
    /// [`NONE`].
    pub by_rank: Vec<u32>,
}

impl GramPairs {
    /// The new position of old gram `i` when it occurs exactly once in each text, else
    /// [`NONE`].
    pub(super) fn unique(&self, i: usize) -> u32 {
        if self.once[i / 64] >> (i % 64) & 1 == 1 {
            self.by_rank[i]
        } else {
            NONE
        }
    }

    /// Pairs the `len`-item grams of `old` with those of `new`.
    pub(super) fn new<T: Item>(old: &[T], new: &[T], len: usize, max_copies: usize) -> Self {
        Self::in_slices(old, new, len, max_copies, SLICE_GRAMS)
    }

    /// [`GramPairs::new`], the hash space cut in slices of about `slice_grams` old grams.
    fn in_slices<T: Item>(
        old: &[T],
        new: &[T],
        len: usize,
        max_copies: usize,
        slice_grams: usize,
    ) -> Self {
        let grams = |t: &[T]| t.len().saturating_sub(len - 1).min(t.len());
        let (old_grams, new_grams) = (grams(old), grams(new));
        let mut out = GramPairs {
            once: vec![0; old_grams.div_ceil(64)],
            by_rank: vec![NONE; old_grams],
        };
        if old_grams == 0 || new_grams == 0 {
            return out;
        }
        let limit = max_copies.max(1) as u32;
        for slice in slices(old, new, len, slice_grams) {
            let paired =
                |g: usize| slice.old_count[g] == slice.new_count[g] && slice.new_count[g] <= limit;
            let (first, copies) = copies_by_group(&slice.new, &slice.new_count, &paired);
            // The k-th old copy of a paired group takes the k-th new copy.
            let mut taken = vec![0u32; slice.groups()];
            for &(i, g) in &slice.old {
                let (i, g) = (i as usize, g as usize);
                if !paired(g) {
                    continue;
                }
                let j = copies[(first[g] + taken[g]) as usize] as usize;
                taken[g] += 1;
                if old[i..i + len] != new[j..j + len] {
                    continue;
                }
                // `paired` holds a group of one, whatever `max_copies`.
                out.by_rank[i] = j as u32;
                if slice.old_count[g] == 1 {
                    out.once[i / 64] |= 1 << (i % 64);
                }
            }
        }
        out
    }

    /// `(old, new)` starts of the `len`-item grams that occur once in `old` and once in `new`,
    /// in new-text order: the pairs of [`GramPairs::new`]'s `unique` (with `max_copies` 1),
    /// without its per-position tables and the counting sort of copies (the diff needs only
    /// these pairs, for whole documents: 1.5-2% of the PDF sweep's time).
    pub(super) fn unique_pairs<T: Item>(old: &[T], new: &[T], len: usize) -> Vec<(u32, u32)> {
        Self::unique_pairs_in_slices(old, new, len, SLICE_GRAMS)
    }

    /// [`GramPairs::unique_pairs`], the hash space cut in slices of about `slice_grams` old
    /// grams.
    fn unique_pairs_in_slices<T: Item>(
        old: &[T],
        new: &[T],
        len: usize,
        slice_grams: usize,
    ) -> Vec<(u32, u32)> {
        if old.len() < len || new.len() < len {
            return Vec::new();
        }
        // Slices find pairs in hash order: each new gram's old counterpart, read in text order.
        let mut old_of_new = vec![NONE; new.len() + 1 - len];
        for slice in slices(old, new, len, slice_grams) {
            let once = |g: usize| slice.old_count[g] == 1 && slice.new_count[g] == 1;
            let mut old_at = vec![NONE; slice.groups()];
            for &(i, g) in &slice.old {
                old_at[g as usize] = i;
            }
            for &(j, g) in slice.new.iter().filter(|&&(_, g)| once(g as usize)) {
                let (i, j) = (old_at[g as usize] as usize, j as usize);
                if old[i..i + len] == new[j..j + len] {
                    old_of_new[j] = i as u32;
                }
            }
        }
        let found = old_of_new.iter().filter(|&&i| i != NONE).count();
        let mut pairs = Vec::with_capacity(found);
        pairs.extend(
            (0u32..)
                .zip(&old_of_new)
                .filter(|&(_, &i)| i != NONE)
                .map(|(j, &i)| (i, j)),
        );
        pairs
    }

    /// `(old, new)` starts of the grams unique to both texts, in new-text order (what
    /// [`GramPairs::unique_pairs`] is checked against).
    #[cfg(test)]
    pub(super) fn unique_in_new_order(&self, new_len: usize) -> Vec<(u32, u32)> {
        let mut old_at = vec![NONE; new_len];
        for i in 0..self.by_rank.len() {
            let j = self.unique(i);
            if j != NONE {
                old_at[j as usize] = i as u32;
            }
        }
        old_at
            .iter()
            .enumerate()
            .filter(|&(_, &i)| i != NONE)
            .map(|(j, &i)| (i, j as u32))
            .collect()
    }
}

/// Most old grams hashed in one slice: a text of fewer grams (most documents) is hashed once,
/// in one slice, with a table of at most about 34 MB (17 bytes a gram); a longer text is cut
/// in slices of a quarter of this (a table of about 9 MB).
pub(super) const SLICE_GRAMS: usize = 1 << 20;

/// Most slices: a gram's slice is kept in a byte.
const MAX_SLICES: usize = 256;

/// The grams of both texts whose hashes fall in one slice of the hash space, in groups (equal
/// hashes, one group) numbered densely in the order the old text first has them.
#[derive(Default)]
struct Slice {
    /// `(start, group)` of the old text's grams in the slice, in text order.
    old: Vec<(u32, u32)>,
    /// `(start, group)` of the new text's grams in the slice that the old text has too, in
    /// text order.
    new: Vec<(u32, u32)>,
    /// Per group: how many grams the old text has.
    old_count: Vec<u32>,
    /// Per group: how many grams the new text has.
    new_count: Vec<u32>,
}

impl Slice {
    fn groups(&self) -> usize {
        self.old_count.len()
    }
}

/// Every slice of the hash space in turn, each holding about `slice_grams` of the old text's
/// grams (both texts at least `len` items long). With more than one slice, one rolling pass
/// over each text notes every gram's slice in a byte, and each slice hashes only its own grams
/// again: a rolling pass per slice cost a 9 MB document's sweep a fifth more time.
fn slices<'t, T: Item>(
    old: &'t [T],
    new: &'t [T],
    len: usize,
    slice_grams: usize,
) -> Box<dyn Iterator<Item = Slice> + 't> {
    let old_grams = old.len() + 1 - len;
    // A text of more grams than one slice is cut finer: the slices' tables are built one
    // after the other, and a quarter of the size is 26 MB less at a 9 MB document's peak.
    let count = if old_grams <= slice_grams {
        1
    } else {
        old_grams.div_ceil((slice_grams / 4).max(1).max(old_grams.div_ceil(MAX_SLICES)))
    };
    if count == 1 {
        let (old, new) = (rolling_hashes(old, len), rolling_hashes(new, len));
        return Box::new(std::iter::once(group_slice(old, new, old_grams)));
    }
    let slice_ids = |text: &[T]| -> Vec<u8> {
        rolling_hashes(text, len)
            .map(|(_, h)| slice_of(h, count as u64) as u8)
            .collect()
    };
    let (old_ids, new_ids) = (slice_ids(old), slice_ids(new));
    Box::new((0..count).map(move |at| {
        let (old, new) = (
            grams_in_slice(old, &old_ids, at, len),
            grams_in_slice(new, &new_ids, at, len),
        );
        group_slice(old, new, old_grams.div_ceil(count))
    }))
}

/// `(start, hash)` of the grams of `text` in slice `at` (`ids`: every gram's slice).
fn grams_in_slice<'a, T: Item>(
    text: &'a [T],
    ids: &'a [u8],
    at: usize,
    len: usize,
) -> impl Iterator<Item = (u32, u64)> + 'a {
    // A vectorised byte search: a byte-by-byte scan of every slice's ids cost more than the
    // table.
    memchr::memchr_iter(at as u8, ids).map(move |i| (i as u32, hash_of(&text[i..i + len])))
}

/// Which of `count` slices of the hash space the hash `h` falls in (the rolling hash mixed,
/// its top 32 bits scaled to the count).
fn slice_of(h: u64, count: u64) -> u64 {
    ((h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) * count) >> 32
}

/// The grams of one slice (each text's as `(start, hash)` in text order), grouped; `expected`
/// old grams.
fn group_slice(
    old: impl Iterator<Item = (u32, u64)>,
    new: impl Iterator<Item = (u32, u64)>,
    expected: usize,
) -> Slice {
    let mut ids: HashMap<u64, u32> = HashMap::with_capacity(expected);
    let mut slice = Slice::default();
    // `for_each`, not a `for` loop: the chained hash iterator folds fast and steps slowly.
    old.for_each(|(i, h)| {
        let next = ids.len() as u32;
        slice.old.push((i, *ids.entry(h).or_insert(next)));
    });
    new.for_each(|(j, h)| {
        if let Some(&g) = ids.get(&h) {
            slice.new.push((j, g));
        }
    });
    let groups = ids.len();
    drop(ids);
    slice.old_count = counts(&slice.old, groups);
    slice.new_count = counts(&slice.new, groups);
    slice
}

/// How many grams of each group a text has.
fn counts(grams: &[(u32, u32)], groups: usize) -> Vec<u32> {
    let mut count = vec![0u32; groups];
    for &(_, g) in grams {
        count[g as usize] += 1;
    }
    count
}

/// The new text's copies of every paired group, in text order, by a counting sort on the group:
/// `copies[first[g]..]` are group `g`'s.
fn copies_by_group(
    new: &[(u32, u32)],
    new_count: &[u32],
    paired: &dyn Fn(usize) -> bool,
) -> (Vec<u32>, Vec<u32>) {
    let groups = new_count.len();
    let mut first = vec![0u32; groups + 1];
    for g in 0..groups {
        first[g + 1] = first[g] + if paired(g) { new_count[g] } else { 0 };
    }
    let mut copies = vec![0u32; first[groups] as usize];
    let mut filled = vec![0u32; groups];
    for &(j, g) in new {
        let g = g as usize;
        if paired(g) {
            copies[(first[g] + filled[g]) as usize] = j;
            filled[g] += 1;
        }
    }
    (first, copies)
}

/// The polynomial (wrapping) hash of one gram: what [`rolling_hashes`] gives for it.
fn hash_of<T: Item>(gram: &[T]) -> u64 {
    gram.iter()
        .fold(0u64, |h, &c| h.wrapping_mul(BASE).wrapping_add(c.into()))
}

/// The hash's base.
const BASE: u64 = 0x100_0000_01b3;

/// `(start, hash)` of every `len`-item gram of `text` (at least `len` items), hashes rolled
/// (polynomial, wrapping). Grams that differ may share a hash (the table hashes it again, and
/// pairs are compared item by item).
fn rolling_hashes<T: Item>(text: &[T], len: usize) -> impl Iterator<Item = (u32, u64)> + '_ {
    let top = (1..len).fold(1u64, |p, _| p.wrapping_mul(BASE));
    let first = hash_of(&text[..len]);
    let rolled = text[len..]
        .iter()
        .zip(text)
        .scan(first, move |h, (&add, &drop)| {
            *h = h
                .wrapping_sub(Into::<u64>::into(drop).wrapping_mul(top))
                .wrapping_mul(BASE)
                .wrapping_add(Into::<u64>::into(add));
            Some(*h)
        });
    (0u32..).zip(std::iter::once(first).chain(rolled))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn unique_grams_pair_and_repeated_ones_pair_by_rank() {
        let (old, new) = (chars("abcXabcYdef"), chars("defZabcWabc"));
        let pairs = GramPairs::new(&old, &new, 3, 4);
        // `def` once on each side: unique; `abc` twice on each side: by rank.
        assert_eq!(pairs.unique(8), 0);
        assert_eq!(pairs.unique(0), NONE);
        assert_eq!((pairs.by_rank[0], pairs.by_rank[4]), (4, 8));
        assert_eq!(pairs.by_rank[8], 0);
        // `cXa` is not in the new text.
        assert_eq!((pairs.unique(2), pairs.by_rank[2]), (NONE, NONE));
        assert_eq!(pairs.unique_in_new_order(new.len()), vec![(8, 0)]);
    }

    #[test]
    fn grams_differing_only_in_their_last_item_are_not_one_gram() {
        let pairs = GramPairs::new(&chars("abcd abce"), &chars("abce abcd"), 4, 1);
        assert_eq!((pairs.unique(0), pairs.unique(5)), (5, 0));
    }

    #[test]
    fn copies_not_as_many_on_each_side_are_not_paired() {
        let pairs = GramPairs::new(&chars("abcabc"), &chars("abc"), 3, 4);
        assert_eq!((pairs.unique(0), pairs.by_rank[0]), (NONE, NONE));
        let pairs = GramPairs::new(&chars("ab"), &chars("abc"), 3, 4);
        assert!(pairs.by_rank.is_empty());
    }

    /// Against the definition, on texts of a small alphabet (many repeats and shared grams).
    #[test]
    fn unique_pairs_are_the_unique_grams_in_new_order() {
        let mut next = crate::text::lcs::tests::draws(7);
        for _ in 0..200 {
            let (lo, ln) = (next(80) as usize, next(80) as usize);
            let old: Vec<char> = (0..lo).map(|_| (b'a' + next(3) as u8) as char).collect();
            let new: Vec<char> = (0..ln).map(|_| (b'a' + next(3) as u8) as char).collect();
            let len = 1 + next(5) as usize;
            assert_eq!(
                GramPairs::unique_pairs(&old, &new, len),
                GramPairs::new(&old, &new, len, 1).unique_in_new_order(new.len()),
                "{old:?} {new:?} {len}"
            );
        }
    }

    /// Cutting the hash space in slices changes no pair: a group lies in one slice whole.
    #[test]
    fn any_number_of_slices_pairs_the_same() {
        let mut next = crate::text::lcs::tests::draws(11);
        for _ in 0..100 {
            let (lo, ln) = (20 + next(300) as usize, 20 + next(300) as usize);
            let old: Vec<char> = (0..lo).map(|_| (b'a' + next(4) as u8) as char).collect();
            let new: Vec<char> = (0..ln).map(|_| (b'a' + next(4) as u8) as char).collect();
            let len = 1 + next(6) as usize;
            let whole = GramPairs::in_slices(&old, &new, len, 4, usize::MAX);
            let whole_unique = GramPairs::unique_pairs_in_slices(&old, &new, len, usize::MAX);
            for slice_grams in [1, 3, 17, 64] {
                let sliced = GramPairs::in_slices(&old, &new, len, 4, slice_grams);
                assert_eq!(sliced.once, whole.once, "{old:?} {new:?} {len}");
                assert_eq!(sliced.by_rank, whole.by_rank, "{old:?} {new:?} {len}");
                assert_eq!(
                    GramPairs::unique_pairs_in_slices(&old, &new, len, slice_grams),
                    whole_unique
                );
            }
        }
    }

    #[test]
    fn pairs_are_what_the_definition_says() {
        let mut seed = 7u64;
        let mut text = |n: usize| -> Vec<char> {
            (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (b'a' + (seed >> 61) as u8) as char
                })
                .collect()
        };
        for _ in 0..50 {
            let (old, new) = (text(300), text(280));
            let len = 5;
            let pairs = GramPairs::new(&old, &new, len, 3);
            let at = |t: &[char], g: &[char]| -> Vec<usize> {
                (0..=t.len() - len)
                    .filter(|&p| &t[p..p + len] == g)
                    .collect()
            };
            for i in 0..=old.len() - len {
                let g = &old[i..i + len];
                let (in_old, in_new) = (at(&old, g), at(&new, g));
                let rank = in_old.iter().position(|&p| p == i).unwrap();
                let by_rank = if in_old.len() == in_new.len() && in_old.len() <= 3 {
                    in_new[rank] as u32
                } else {
                    NONE
                };
                let unique = if in_old.len() == 1 && in_new.len() == 1 {
                    in_new[0] as u32
                } else {
                    NONE
                };
                assert_eq!(
                    (pairs.unique(i), pairs.by_rank[i]),
                    (unique, by_rank),
                    "{i}"
                );
            }
        }
    }
}
