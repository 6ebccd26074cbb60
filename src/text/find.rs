//! Exact substring search of a long needle that is searched for once or twice in a long text:
//! the cited span's context in `cite::unique_context_at` and the span texts of the sweep's
//! exact rung.
//!
//! memchr's `memmem::Finder` costs time linear in its needle to build (Two-Way's critical
//! factorisation and the prefilter's rare-byte ranking): for needles of a hundred to a few
//! hundred bytes each searched once, building it cost as much as the search (about 5% of a
//! PDF re-extraction sweep). [`Needle`] builds a finder for the needle's first [`HEAD`] bytes
//! only, compares the whole needle where that head is found, and builds the whole needle's
//! finder only when the head is found and fails more than [`MAX_MISSES`] times (text that
//! repeats the head, a row of dot leaders), so it never costs much more than the whole finder.
//!
//! Invariant: [`Needle::find`] returns exactly what `memmem::find` of the whole needle returns
//! (the first start at or after `from`), whatever the text (tested against it).

use memchr::memmem::Finder;

/// Bytes of the needle the first finder is built for.
const HEAD: usize = 32;

/// Places where the head is found but the needle is not, before the whole needle's finder is
/// built for the rest of the text.
const MAX_MISSES: usize = 16;

/// A needle (not empty) ready to be searched for in byte texts.
pub(crate) struct Needle<'n> {
    needle: &'n [u8],
    /// The finder of the needle's head; the whole needle's when it is no longer than that.
    head: Finder<'n>,
}

impl<'n> Needle<'n> {
    /// A searcher for `needle`; `None` for an empty one.
    pub(crate) fn new(needle: &'n [u8]) -> Option<Self> {
        if needle.is_empty() {
            return None;
        }
        let head = Finder::new(&needle[..needle.len().min(HEAD)]);
        Some(Needle { needle, head })
    }

    /// The first start of the needle in `hay` at or after `from`.
    pub(crate) fn find(&self, hay: &[u8], from: usize) -> Option<usize> {
        let mut at = from;
        let mut misses = 0;
        while let Some(p) = self.head.find(hay.get(at..)?) {
            let p = at + p;
            if hay[p..].starts_with(self.needle) {
                return Some(p);
            }
            misses += 1;
            at = p + 1;
            if misses > MAX_MISSES {
                // Every start before `at` was a head that failed, or no head at all.
                let whole = Finder::new(self.needle);
                return whole.find(hay.get(at..)?).map(|q| at + q);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every start the whole finder gives, from every position, on texts of a small alphabet
    /// (heads repeated everywhere) and with long needles (past the head).
    #[test]
    fn finds_what_memmem_finds() {
        let mut next = crate::text::lcs::tests::draws(23);
        for round in 0..400 {
            let alphabet = 1 + next(3) as u8;
            let len = next(300) as usize;
            let hay: Vec<u8> = (0..len)
                .map(|_| b'a' + next(alphabet as u64) as u8)
                .collect();
            let needle: Vec<u8> = if round % 2 == 0 && len > 0 {
                // A piece of the text, so that it is found.
                let a = next(len as u64) as usize;
                let b = (a + 1 + next(80) as usize).min(len);
                hay[a..b].to_vec()
            } else {
                (0..1 + next(60) as usize)
                    .map(|_| b'a' + next(alphabet as u64) as u8)
                    .collect()
            };
            let search = Needle::new(&needle).expect("not empty");
            for from in 0..=hay.len() + 1 {
                let want = hay
                    .get(from..)
                    .and_then(|h| memchr::memmem::find(h, &needle))
                    .map(|q| from + q);
                assert_eq!(search.find(&hay, from), want, "{hay:?} {needle:?} {from}");
            }
        }
        assert!(Needle::new(b"").is_none());
    }

    #[test]
    fn dot_leaders_fall_back_to_the_whole_needle() {
        let hay = format!("{}x{}", ".".repeat(5000), ".".repeat(100));
        let needle = format!("{}x", ".".repeat(64));
        let search = Needle::new(needle.as_bytes()).unwrap();
        assert_eq!(search.find(hay.as_bytes(), 0), Some(5000 - 64));
        assert_eq!(search.find(hay.as_bytes(), 5000 - 63), None);
    }
}
