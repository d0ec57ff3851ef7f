//! A monotone radix heap for `u64` keys.

/// A monotone priority queue (radix heap) for `u64` keys: keys pushed must be at least
/// the last key popped, as in Dijkstra's algorithm and A* with a consistent heuristic.
///
/// 65 buckets, bucket `b > 0` holding keys whose highest bit differing from the last
/// popped key is bit `b - 1`, and a mask of the non-empty buckets. Push is O(1), pop is
/// amortised O(log C) for a key range C, with no comparisons between unrelated keys.
/// Unlike a 64-bucket ring it handles any edge cost, such as the fixed-point
/// diagonal costs of 8-connected search. Buckets keep their capacity across
/// [`reset`](Self::reset)s.
///
/// ```
/// use tilepath::RadixHeap;
/// let mut h = RadixHeap::new();
/// h.push(10, 'a');
/// h.push(1_000_000, 'b');
/// h.push(7, 'c');
/// assert_eq!(h.pop(), Some((7, 'c')));
/// h.push(8, 'd'); // still >= 7
/// assert_eq!(h.pop(), Some((8, 'd')));
/// assert_eq!(h.pop(), Some((10, 'a')));
/// assert_eq!(h.pop(), Some((1_000_000, 'b')));
/// assert_eq!(h.pop(), None);
/// ```
#[derive(Clone, Debug)]
pub struct RadixHeap<T> {
    buckets: [Vec<(u64, T)>; 65],
    mask: u128,
    last: u64,
}

impl<T: Copy> Default for RadixHeap<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> RadixHeap<T> {
    /// An empty heap.
    #[must_use]
    pub fn new() -> Self {
        Self {
            buckets: core::array::from_fn(|_| Vec::new()),
            mask: 0,
            last: 0,
        }
    }

    /// Whether the heap is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// The last key popped (0 after a reset): the smallest key `push` accepts.
    #[inline]
    #[must_use]
    pub const fn last_key(&self) -> u64 {
        self.last
    }

    #[inline]
    fn bucket_of(&self, key: u64) -> usize {
        (64 - (key ^ self.last).leading_zeros()) as usize
    }

    /// Queues `value` with `key`. A key below [`last_key`](Self::last_key) breaks the
    /// monotone contract; it is queued as if it were equal to the last key (debug
    /// builds assert).
    #[inline]
    pub fn push(&mut self, key: u64, value: T) {
        debug_assert!(key >= self.last, "radix heap key {key} < {}", self.last);
        let key = key.max(self.last);
        let b = self.bucket_of(key);
        self.buckets[b].push((key, value));
        self.mask |= 1 << b;
    }

    /// Pops a value with the smallest key.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, T)> {
        if self.mask & 1 == 0 {
            if self.mask == 0 {
                return None;
            }
            let b = self.mask.trailing_zeros() as usize;
            let (low, high) = self.buckets.split_at_mut(b);
            let bucket = &mut high[0];
            let min = bucket.iter().map(|e| e.0).min().unwrap_or(self.last);
            self.last = min;
            for &(key, value) in bucket.iter() {
                let nb = (64 - (key ^ min).leading_zeros()) as usize;
                debug_assert!(nb < b);
                low[nb].push((key, value));
                self.mask |= 1 << nb;
            }
            bucket.clear();
            self.mask &= !(1 << b);
        }
        let bucket = &mut self.buckets[0];
        let entry = bucket.pop();
        if bucket.is_empty() {
            self.mask &= !1;
        }
        entry
    }

    /// Empties the heap, touching only non-empty buckets; capacity is kept.
    #[inline]
    pub fn reset(&mut self) {
        let mut m = self.mask;
        while m != 0 {
            self.buckets[m.trailing_zeros() as usize].clear();
            m &= m - 1;
        }
        self.mask = 0;
        self.last = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            }
            assert!(reference.is_empty());
        }
    }
}
