//! The order of priority a step asks its agents in.
//!
//! Every step sorts all agents by their priority key, so the sort is a share of
//! every step at game scale. Keys are a priority in the high half and fixed
//! tie-breaks in the low half (a distance and a pseudo-random byte, or a
//! pseudo-random word): the low half is widely spread and the high half mostly
//! equal across agents, so a least-significant-digit radix sort over the
//! digits that differ between keys does a few linear passes where a comparison sort
//! does `log2(n)`. Digits are bytes: their counts fit in the first level cache and
//! all eight are counted in one pass.

/// Crowds smaller than this are sorted by insertion: a radix pass costs its
/// buckets whatever the crowd's size.
const RADIX_FROM: usize = 64;

/// Bits a radix pass sorts by.
const DIGIT: u32 = 8;

/// Digits in a key.
const DIGITS: usize = (u64::BITS / DIGIT) as usize;

/// A digit's bits.
const MASK: u64 = (1 << DIGIT) - 1;

/// The agents of a step in the order they are asked: (priority key, slot), sorted by
/// key; equal keys keep the order they were pushed in.
#[derive(Clone, Debug, Default)]
pub(super) struct Order {
    items: Vec<(u64, u32)>,
    /// The radix sort's other buffer (as long as `items` once sorted).
    scratch: Vec<(u64, u32)>,
}

impl Order {
    pub(super) fn clear(&mut self) {
        self.items.clear();
    }

    #[inline]
    pub(super) fn push(&mut self, key: u64, slot: u32) {
        self.items.push((key, slot));
    }

    pub(super) fn len(&self) -> usize {
        self.items.len()
    }

    /// The slot `k`-th in the order, if there is one.
    #[inline]
    pub(super) fn get(&self, k: usize) -> Option<u32> {
        self.items.get(k).map(|&(_, slot)| slot)
    }

    /// The slot `k`-th in the order.
    pub(super) fn slot(&self, k: usize) -> u32 {
        self.items[k].1
    }

    /// Makes room for `n` agents in all, so that neither pushing them nor sorting
    /// them allocates.
    pub(super) fn reserve_total(&mut self, n: usize) {
        self.items.reserve(n.saturating_sub(self.items.len()));
        self.scratch.reserve(n.saturating_sub(self.scratch.len()));
    }

    pub(super) fn memory_bytes(&self) -> usize {
        (self.items.capacity() + self.scratch.capacity()) * size_of::<(u64, u32)>()
    }

    /// Sorts by key, stably.
    pub(super) fn sort(&mut self) {
        let n = self.items.len();
        if n < RADIX_FROM {
            // Insertion sort: stable, and allocates nothing (the standard library's
            // stable sort may).
            for i in 1..n {
                let item = self.items[i];
                let mut j = i;
                while j > 0 && self.items[j - 1].0 > item.0 {
                    self.items[j] = self.items[j - 1];
                    j -= 1;
                }
                self.items[j] = item;
            }
            return;
        }
        // Every digit's counts in one pass; a digit all keys share moves nothing
        // and is skipped.
        let mut counts = [[0_u32; 1 << DIGIT]; DIGITS];
        for &(key, _) in &self.items {
            for (d, c) in counts.iter_mut().enumerate() {
                c[((key >> (d as u32 * DIGIT)) & MASK) as usize] += 1;
            }
        }
        // As long as the keys (what it held before is overwritten).
        self.scratch.resize(n, (0, 0));
        for (d, c) in counts.iter_mut().enumerate() {
            if c.contains(&(n as u32)) {
                continue;
            }
            let mut at = 0;
            for bucket in c.iter_mut() {
                let here = *bucket;
                *bucket = at;
                at += here;
            }
            let shift = d as u32 * DIGIT;
            for &item in &self.items {
                let bucket = &mut c[((item.0 >> shift) & MASK) as usize];
                self.scratch[*bucket as usize] = item;
                *bucket += 1;
            }
            core::mem::swap(&mut self.items, &mut self.scratch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorted as a stable sort by key sorts, for crowds of every size and keys whose
    /// halves vary or not.
    #[test]
    fn sorts_as_a_stable_sort_by_key() {
        let mut z = 7_u64;
        let mut next = || {
            z = crate::crowd::mix(z.wrapping_add(0x9e37_79b9_7f4a_7c15));
            z
        };
        for n in [0, 1, 2, 63, 64, 65, 1000, 5000] {
            for spread in [0_u32, 3, 40] {
                let mut order = Order::default();
                let mut expected = Vec::new();
                for slot in 0..n {
                    // Few distinct priorities, and tie-breaks that collide now and
                    // then, so that equal keys occur.
                    let high = if spread == 0 {
                        0
                    } else {
                        next() % u64::from(spread)
                    };
                    let key = (u64::from(u32::MAX) - high) << 32 | (next() % 5000);
                    order.push(key, slot);
                    expected.push((key, slot));
                }
                expected.sort_by_key(|&(key, _)| key);
                order.sort();
                assert_eq!(order.len(), n as usize);
                for (k, &(_, slot)) in expected.iter().enumerate() {
                    assert_eq!(order.slot(k), slot, "n {n}, spread {spread}, at {k}");
                }
            }
        }
    }
}
