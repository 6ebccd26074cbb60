//! A non-decreasing sequence of `u32` in about a byte per item: the raw char of every letter
//! of a letter projection (rung 5b). Held as `u32`s, the two projections' maps of a 9 MB
//! document were 60 MB at the sweep's peak; here they are 16.
//!
//! Items are kept in blocks of [`BLOCK`]: the first item of each block in full, every other as
//! its step from the one before in a byte. A step that does not fit ([`FAR`] and more: a long
//! stretch without letters) is written as [`FAR`] and its item kept in full in a short side
//! list, so any sequence is held exactly.
//!
//! Invariants: items never decrease (pushing a smaller one panics: it is a bug of the caller);
//! `get(k)` is the `k`-th item pushed; `partition_point` agrees with the slice method of the
//! same name on the items pushed (tested against a `Vec<u32>`).

/// Items per block: `get` adds up at most this many steps.
const BLOCK: usize = 64;

/// A step byte saying the item is in the side list.
const FAR: u8 = u8::MAX;

/// A non-decreasing sequence of `u32`, about a byte per item.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct Monotone {
    /// The first item of every block.
    firsts: Vec<u32>,
    /// Per item: its step from the item before, or [`FAR`]; 0 for the first of a block.
    steps: Vec<u8>,
    /// `(index, item)` of each item whose step is [`FAR`], by index.
    far: Vec<(u32, u32)>,
    /// The last item pushed.
    last: u32,
}

impl Monotone {
    /// An empty sequence with room for `items` steps.
    pub(super) fn with_capacity(items: usize) -> Self {
        Monotone {
            firsts: Vec::with_capacity(items.div_ceil(BLOCK)),
            steps: Vec::with_capacity(items),
            far: Vec::new(),
            last: 0,
        }
    }

    /// Number of items.
    pub(super) fn len(&self) -> usize {
        self.steps.len()
    }

    /// Appends `item`, at least the last one pushed.
    pub(super) fn push(&mut self, item: u32) {
        let k = self.steps.len();
        assert!(
            k == 0 || item >= self.last,
            "Monotone::push: {item} after {}",
            self.last
        );
        if k % BLOCK == 0 {
            self.firsts.push(item);
            self.steps.push(0);
        } else {
            match u8::try_from(item - self.last) {
                Ok(step) if step < FAR => self.steps.push(step),
                _ => {
                    self.steps.push(FAR);
                    self.far.push((k as u32, item));
                }
            }
        }
        self.last = item;
    }

    /// The `k`-th item.
    pub(super) fn get(&self, k: usize) -> u32 {
        let block = k / BLOCK;
        let mut item = self.firsts[block];
        for i in block * BLOCK + 1..=k {
            item = match self.steps[i] {
                FAR => self.far_item(i),
                step => item + u32::from(step),
            };
        }
        item
    }

    /// The item at `i`, whose step is [`FAR`].
    fn far_item(&self, i: usize) -> u32 {
        let at = self.far.partition_point(|&(k, _)| (k as usize) < i);
        self.far[at].1
    }

    /// Number of items below `bound` (they come first: the items never decrease).
    pub(super) fn count_below(&self, bound: u32) -> usize {
        // Blocks whose first item is below the bound; the answer lies in the last of them.
        let blocks = self.firsts.partition_point(|&f| f < bound);
        let Some(block) = blocks.checked_sub(1) else {
            return 0;
        };
        let (start, end) = (block * BLOCK, ((block + 1) * BLOCK).min(self.len()));
        let mut item = self.firsts[block];
        for i in start + 1..end {
            item = match self.steps[i] {
                FAR => self.far_item(i),
                step => item + u32::from(step),
            };
            if item >= bound {
                return i;
            }
        }
        end
    }

    /// The items in order.
    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(|k| self.get(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sequences with steps of every size: none, small, one byte's worth, far, at block edges.
    fn sequences() -> Vec<Vec<u32>> {
        let mut seed = 5u64;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut out = vec![
            vec![],
            vec![0],
            vec![7, 7, 7],
            vec![0, 254, 508, 763, 1018],
            vec![0, 255, 256, 100_000, 100_000, u32::MAX],
            (0..200).collect(),
            (0..200).map(|k| k * 300).collect(),
        ];
        for _ in 0..50 {
            let len = next(400) as usize;
            let mut item = next(1000) as u32;
            let seq = (0..len)
                .map(|_| {
                    item += match next(10) {
                        0 => next(100_000) as u32,
                        1 => 255,
                        2 => 0,
                        _ => next(6) as u32,
                    };
                    item
                })
                .collect();
            out.push(seq);
        }
        out
    }

    #[test]
    fn every_item_reads_back_and_partition_points_agree_with_a_vec() {
        for items in sequences() {
            let mut seq = Monotone::with_capacity(items.len());
            items.iter().for_each(|&i| seq.push(i));
            assert_eq!(seq.len(), items.len());
            assert_eq!(seq.iter().collect::<Vec<_>>(), items);
            let bounds = items
                .iter()
                .flat_map(|&i| [i.saturating_sub(1), i, i.saturating_add(1)])
                .chain([0, u32::MAX]);
            for bound in bounds {
                assert_eq!(
                    seq.count_below(bound),
                    items.partition_point(|&i| i < bound),
                    "{bound} in {items:?}"
                );
            }
        }
    }

    #[test]
    #[should_panic(expected = "Monotone::push")]
    fn a_smaller_item_is_a_bug() {
        let mut seq = Monotone::default();
        seq.push(5);
        seq.push(6);
        seq.push(4);
    }
}
