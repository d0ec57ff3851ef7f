//! A monotone radix heap for `u64` keys.

use super::pool::{EntryPool, NIL};

/// A monotone priority queue (radix heap) for `u64` keys: keys pushed must be at least
/// the last key popped, as in Dijkstra's algorithm and A* with a consistent heuristic.
///
/// 65 buckets, bucket `b > 0` holding keys whose highest bit differing from the last
/// popped key is bit `b - 1`, and a mask of the non-empty ones. Push is O(1), pop is
/// amortised O(log C) for a key range C, with no comparisons between unrelated keys.
/// Unlike a 64-bucket ring it handles any edge cost, such as the fixed-point diagonal
/// costs of 8-connected search.
///
/// Like [`BucketQueue`](super::BucketQueue), all buckets share one recycled pool of
/// entries reserved with [`with_capacity`](Self::with_capacity); moving entries
/// between buckets relinks them in place, so a heap that never holds more than its
/// capacity never allocates.
#[derive(Clone, Debug)]
pub(crate) struct RadixHeap<T> {
    heads: [u32; 65],
    mask: u128,
    last: u64,
    /// Items are `(key, value)`.
    pool: EntryPool<(u64, T)>,
}

impl<T: Copy> Default for RadixHeap<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> RadixHeap<T> {
    /// An empty heap (its pool grows on demand).
    #[must_use]
    pub(crate) fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty heap that holds `capacity` values at once before allocating.
    #[must_use]
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            heads: [NIL; 65],
            mask: 0,
            last: 0,
            pool: EntryPool::with_capacity(capacity),
        }
    }

    /// How many values the heap holds at once before allocating.
    #[must_use]
    pub(crate) fn capacity(&self) -> usize {
        self.pool.capacity()
    }

    /// Bytes an entry takes (its value, key and link).
    pub(crate) const ENTRY_BYTES: usize = EntryPool::<(u64, T)>::ENTRY_BYTES;

    /// Bytes the heap holds.
    #[must_use]
    pub(crate) fn memory_bytes(&self) -> usize {
        self.pool.memory_bytes()
    }

    /// Number of queued values.
    #[inline]
    #[must_use]
    #[cfg(test)]
    pub(crate) const fn len(&self) -> usize {
        self.pool.len()
    }

    /// The last key popped (0 after a reset): the smallest key `push` accepts.
    #[inline]
    #[must_use]
    pub(crate) const fn last_key(&self) -> u64 {
        self.last
    }

    #[inline(always)]
    fn bucket_of(key: u64, last: u64) -> usize {
        (64 - (key ^ last).leading_zeros()) as usize
    }

    #[inline(always)]
    fn link(&mut self, b: usize, i: u32) {
        self.pool.set_next(i, self.heads[b]);
        self.heads[b] = i;
        self.mask |= 1 << b;
    }

    /// Queues `value` with `key`. A key below [`last_key`](Self::last_key) breaks the
    /// monotone contract; it is queued as if it were equal to the last key (debug
    /// builds assert).
    #[inline]
    pub(crate) fn push(&mut self, key: u64, value: T) {
        debug_assert!(key >= self.last, "radix heap key {key} < {}", self.last);
        let key = key.max(self.last);
        let i = self.pool.insert((key, value), NIL);
        self.link(Self::bucket_of(key, self.last), i);
    }

    /// Pops a value with the smallest key.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u64, T)> {
        if self.mask & 1 == 0 {
            if self.mask == 0 {
                return None;
            }
            self.redistribute(self.mask.trailing_zeros() as usize);
        }
        let (item, next) = self.pool.remove(self.heads[0]);
        self.heads[0] = next;
        if next == NIL {
            self.mask &= !1;
        }
        Some(item)
    }

    /// Makes the smallest key of bucket `b` the new `last` and relinks the bucket's
    /// entries into the lower buckets.
    #[cold]
    fn redistribute(&mut self, b: usize) {
        let mut min = u64::MAX;
        let mut i = self.heads[b];
        while i != NIL {
            let ((key, _), next) = self.pool.get(i);
            min = min.min(key);
            i = next;
        }
        self.last = min;
        let mut i = self.heads[b];
        self.heads[b] = NIL;
        self.mask &= !(1 << b);
        while i != NIL {
            let ((key, _), next) = self.pool.get(i);
            let nb = Self::bucket_of(key, min);
            debug_assert!(nb < b);
            self.link(nb, i);
            i = next;
        }
    }

    /// Empties the heap, touching only the non-empty buckets; the pool keeps its
    /// capacity.
    #[inline]
    pub(crate) fn reset(&mut self) {
        let mut m = self.mask;
        while m != 0 {
            self.heads[m.trailing_zeros() as usize] = NIL;
            m &= m - 1;
        }
        self.mask = 0;
        self.last = 0;
        self.pool.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_pops_in_key_order() {
        let mut h = RadixHeap::with_capacity(8);
        h.push(10, 'a');
        h.push(1_000_000, 'b');
        h.push(7, 'c');
        assert_eq!(h.pop(), Some((7, 'c')));
        h.push(8, 'd'); // still >= 7
        assert_eq!(h.pop(), Some((8, 'd')));
        assert_eq!(h.pop(), Some((10, 'a')));
        assert_eq!(h.pop(), Some((1_000_000, 'b')));
        assert_eq!(h.pop(), None);
    }

    #[test]
    fn pops_in_order_against_a_sorted_reference() {
        // A Dijkstra-like workload: each pop pushes keys at or above the popped key.
        let mut h = RadixHeap::new();
        let mut reference = std::collections::BinaryHeap::new();
        let mut seed = 12345u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..3 {
            h.reset();
            reference.clear();
            h.push(round, 0u32);
            reference.push(core::cmp::Reverse(round));
            let mut n = 0;
            while let Some((k, _)) = h.pop() {
                let core::cmp::Reverse(r) = reference.pop().unwrap();
                assert_eq!(k, r);
                n += 1;
                if n < 5_000 {
                    for _ in 0..(rand() % 3) {
                        let nk = k + rand() % 5_000;
                        h.push(nk, 0);
                        reference.push(core::cmp::Reverse(nk));
                    }
                }
                assert_eq!(h.len(), reference.len());
            }
            assert!(reference.is_empty());
        }
    }
}
