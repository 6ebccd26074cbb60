//! Grams two texts share: for every gram (`len` consecutive items) of the old text, where the
//! same gram is in the new text when it occurs there exactly as often (once, or a few times
//! paired copy for copy in order). The diff splits a block at grams unique to both sides; the
//! letters rung chains a span's grams.
//!
//! Built in linear time with one hash table: the old text's grams get dense group ids (equal
//! rolling hashes, one group), the new text's grams look theirs up, and a counting sort by
//! group lists each group's new copies in text order. On a 51,000-char PDF extraction and its
//! re-extraction that costs about 1.5 ms for the pair (the table's random accesses, not the
//! hashing, are most of it); the table of position lists per gram it replaces cost about
//! twice that, and a third more to free; sorting keys (one `sort_unstable`, or bucketed by
//! their top bits) cost no less in the sweep.
//!
//! Invariants: a pair `(i, j)` always has `old[i..i + len] == new[j..j + len]` (compared, not
//! assumed from the hashes); the k-th copy in the old text is paired with the k-th copy in the
//! new text, and only when the gram occurs as often in both; a gram whose hash another gram
//! shares counts as repeated (never wrongly paired, at worst not paired).

use foldhash::{HashMap, HashMapExt};

/// No counterpart: the gram is absent, or not paired (repeated, or not as often on each side).
pub const NONE: u32 = u32::MAX;

/// For each gram start of the old text: its counterpart in the new text.
#[derive(Debug, Default)]
pub struct GramPairs {
    /// The new position of a gram that occurs exactly once in each text, else [`NONE`].
    pub unique: Vec<u32>,
    /// The new position of the copy of the same rank, for a gram that occurs as often in both
    /// texts (at most `max_copies` times), else [`NONE`]; empty when `max_copies` is 1 (it
    /// would be `unique`).
    pub by_rank: Vec<u32>,
}

impl GramPairs {
    /// Pairs the `len`-item grams of `old` with those of `new`.
    pub fn new(old: &[char], new: &[char], len: usize, max_copies: usize) -> Self {
        let grams = |t: &[char]| t.len().saturating_sub(len - 1).min(t.len());
        let (old_grams, new_grams) = (grams(old), grams(new));
        let mut out = GramPairs {
            unique: vec![NONE; old_grams],
            by_rank: if max_copies > 1 {
                vec![NONE; old_grams]
            } else {
                Vec::new()
            },
        };
        if old_grams == 0 || new_grams == 0 {
            return out;
        }
        let (old_group, new_group, groups) = group_ids(old, new, len);
        let old_count = counts(&old_group, groups);
        let new_count = counts(&new_group, groups);
        let limit = max_copies.max(1) as u32;
        let paired = |g: usize| old_count[g] == new_count[g] && new_count[g] <= limit;
        let (first, copies) = copies_by_group(&new_group, &new_count, &paired);
        // The k-th old copy of a paired group takes the k-th new copy.
        let mut taken = vec![0u32; groups];
        for (i, &g) in old_group.iter().enumerate() {
            let g = g as usize;
            if !paired(g) {
                continue;
            }
            let j = copies[(first[g] + taken[g]) as usize] as usize;
            taken[g] += 1;
            if old[i..i + len] != new[j..j + len] {
                continue;
            }
            if old_count[g] == 1 {
                out.unique[i] = j as u32;
            }
            if max_copies > 1 {
                out.by_rank[i] = j as u32;
            }
        }
        out
    }

    /// `(old, new)` starts of the `len`-item grams that occur once in `old` and once in `new`,
    /// in new-text order: the pairs of [`GramPairs::new`]'s `unique` (with `max_copies` 1),
    /// without its per-position tables and the counting sort of copies (the diff needs only
    /// these pairs, for whole documents: 1.5-2% of the PDF sweep's time).
    pub fn unique_pairs(old: &[char], new: &[char], len: usize) -> Vec<(usize, usize)> {
        if old.len() < len || new.len() < len {
            return Vec::new();
        }
        let (old_group, new_group, groups) = group_ids(old, new, len);
        // Per group: how often each text has it, and where the old text last had it.
        let old_count = counts(&old_group, groups);
        let new_count = counts(&new_group, groups);
        let mut old_at = vec![NONE; groups];
        for (i, &g) in old_group.iter().enumerate() {
            old_at[g as usize] = i as u32;
        }
        new_group
            .iter()
            .enumerate()
            .filter(|&(_, &g)| {
                g != NONE && old_count[g as usize] == 1 && new_count[g as usize] == 1
            })
            .map(|(j, &g)| (old_at[g as usize] as usize, j))
            .filter(|&(i, j)| old[i..i + len] == new[j..j + len])
            .collect()
    }

    /// `(old, new)` starts of the grams unique to both texts, in new-text order (what
    /// [`GramPairs::unique_pairs`] is checked against).
    #[cfg(test)]
    pub fn unique_in_new_order(&self, new_len: usize) -> Vec<(usize, usize)> {
        let mut old_at = vec![NONE; new_len];
        for (i, &j) in self.unique.iter().enumerate() {
            if j != NONE {
                old_at[j as usize] = i as u32;
            }
        }
        old_at
            .iter()
            .enumerate()
            .filter(|&(_, &i)| i != NONE)
            .map(|(j, &i)| (i as usize, j))
            .collect()
    }
}

/// Each gram's group (grams with equal hashes), dense ids in the order the old text first has
/// them: the old text's grams, the new text's ([`NONE`] for a gram the old text lacks), and
/// the number of groups.
fn group_ids(old: &[char], new: &[char], len: usize) -> (Vec<u32>, Vec<u32>, usize) {
    let mut ids: HashMap<u64, u32> = HashMap::with_capacity(old.len());
    let old_group: Vec<u32> = rolling_hashes(old, len)
        .map(|h| {
            let next = ids.len() as u32;
            *ids.entry(h).or_insert(next)
        })
        .collect();
    let new_group: Vec<u32> = rolling_hashes(new, len)
        .map(|h| ids.get(&h).copied().unwrap_or(NONE))
        .collect();
    (old_group, new_group, ids.len())
}

/// How many grams of each group a text has.
fn counts(group_of: &[u32], groups: usize) -> Vec<u32> {
    let mut count = vec![0u32; groups];
    for &g in group_of.iter().filter(|&&g| g != NONE) {
        count[g as usize] += 1;
    }
    count
}

/// The new text's copies of every paired group, in text order, by a counting sort on the group:
/// `copies[first[g]..]` are group `g`'s.
fn copies_by_group(
    new_group: &[u32],
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
    for (j, &g) in new_group.iter().enumerate() {
        if g != NONE && paired(g as usize) {
            let g = g as usize;
            copies[(first[g] + filled[g]) as usize] = j as u32;
            filled[g] += 1;
        }
    }
    (first, copies)
}

/// Rolling (polynomial, wrapping) hashes of every `len`-item gram of `text` (at least `len`
/// items). Grams that differ may share a hash (the table hashes it again, and pairs are
/// compared item by item).
fn rolling_hashes(text: &[char], len: usize) -> impl Iterator<Item = u64> + '_ {
    const BASE: u64 = 0x100_0000_01b3;
    let top = (1..len).fold(1u64, |p, _| p.wrapping_mul(BASE));
    let first = text[..len].iter().fold(0u64, |h, &c| {
        h.wrapping_mul(BASE).wrapping_add(u64::from(c))
    });
    let rolled = text[len..]
        .iter()
        .zip(text)
        .scan(first, move |h, (&add, &drop)| {
            *h = h
                .wrapping_sub(u64::from(drop).wrapping_mul(top))
                .wrapping_mul(BASE)
                .wrapping_add(u64::from(add));
            Some(*h)
        });
    std::iter::once(first).chain(rolled)
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
        assert_eq!(pairs.unique[8], 0);
        assert_eq!(pairs.unique[0], NONE);
        assert_eq!((pairs.by_rank[0], pairs.by_rank[4]), (4, 8));
        assert_eq!(pairs.by_rank[8], 0);
        // `cXa` is not in the new text.
        assert_eq!((pairs.unique[2], pairs.by_rank[2]), (NONE, NONE));
        assert_eq!(pairs.unique_in_new_order(new.len()), vec![(8, 0)]);
    }

    #[test]
    fn grams_differing_only_in_their_last_item_are_not_one_gram() {
        let pairs = GramPairs::new(&chars("abcd abce"), &chars("abce abcd"), 4, 1);
        assert_eq!((pairs.unique[0], pairs.unique[5]), (5, 0));
    }

    #[test]
    fn copies_not_as_many_on_each_side_are_not_paired() {
        let pairs = GramPairs::new(&chars("abcabc"), &chars("abc"), 3, 4);
        assert_eq!((pairs.unique[0], pairs.by_rank[0]), (NONE, NONE));
        let pairs = GramPairs::new(&chars("ab"), &chars("abc"), 3, 4);
        assert!(pairs.unique.is_empty());
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
                    (pairs.unique[i], pairs.by_rank[i]),
                    (unique, by_rank),
                    "{i}"
                );
            }
        }
    }
}
