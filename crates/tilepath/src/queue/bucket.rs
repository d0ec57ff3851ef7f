//! A 64-bucket priority queue with an occupancy mask.

/// Number of buckets of a [`BucketQueue`].
pub(crate) const BUCKETS: usize = 64;

use super::pool::{EntryPool, NIL};

/// A priority queue for small integer priorities: 64 buckets and a `u64` mask of the
/// non-empty ones.
///
/// - `push`: O(1); priorities above 63 go to bucket 63.
/// - `pop`: O(1): the lowest non-empty bucket is `mask.trailing_zeros()`; within a
///   bucket the most recently pushed value comes first (LIFO), which makes searches
///   dive towards their goal on ties.
/// - `reset`: touches only the non-empty buckets (found through the mask).
///
/// All buckets share one pool of entries (each bucket is a list threaded through it,
/// popped entries are recycled), so the memory is one block reserved up front with
/// [`with_capacity`](Self::with_capacity): a queue that never holds more than that many
/// values at once never allocates.
///
/// It also works as a ring for *monotone* keys (Dial's algorithm): if every key in the
/// queue lies within 64 of the last key popped, [`pop_cyclic`](Self::pop_cyclic) pops
/// keys in order, with `key % 64` as the bucket.
#[derive(Clone, Debug)]
pub(crate) struct BucketQueue<T> {
    heads: [u32; BUCKETS],
    mask: u64,
    pool: EntryPool<T>,
}

impl<T: Copy> Default for BucketQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> BucketQueue<T> {
    /// An empty queue (its pool grows on demand).
    #[must_use]
    pub(crate) fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty queue that holds `capacity` values at once before allocating.
    #[must_use]
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            heads: [NIL; BUCKETS],
            mask: 0,
            pool: EntryPool::with_capacity(capacity),
        }
    }

    /// How many values the queue holds at once before allocating.
    #[must_use]
    pub(crate) fn capacity(&self) -> usize {
        self.pool.capacity()
    }

    /// Bytes an entry takes (its value, key and link).
    pub(crate) const ENTRY_BYTES: usize = EntryPool::<T>::ENTRY_BYTES;

    /// Bytes the queue holds.
    #[must_use]
    pub(crate) fn memory_bytes(&self) -> usize {
        self.pool.memory_bytes()
    }

    /// Whether the queue is empty.
    #[inline]
    #[must_use]
    #[cfg(test)]
    pub(crate) const fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// Number of queued values.
    #[inline]
    #[must_use]
    #[cfg(test)]
    pub(crate) const fn len(&self) -> usize {
        self.pool.len()
    }

    /// The occupancy mask: bit `b` is set when bucket `b` is not empty.
    #[inline]
    #[must_use]
    #[cfg(test)]
    pub(crate) const fn mask(&self) -> u64 {
        self.mask
    }

    /// Queues `value` with `priority` (values above 63 share bucket 63).
    #[inline(always)]
    pub(crate) fn push(&mut self, priority: u32, value: T) {
        let b = priority.min(BUCKETS as u32 - 1) as usize;
        let i = self.pool.insert(value, self.heads[b]);
        self.heads[b] = i;
        self.mask |= 1 << b;
    }

    /// Pops a value of the lowest priority (the last one pushed among equals).
    #[inline]
    #[cfg(test)]
    pub(crate) fn pop(&mut self) -> Option<T> {
        self.pop_with_priority().map(|(_, v)| v)
    }

    /// Like [`pop`](Self::pop), also returning the bucket it came from.
    #[inline]
    #[cfg(test)]
    pub(crate) fn pop_with_priority(&mut self) -> Option<(u32, T)> {
        if self.mask == 0 {
            return None;
        }
        let b = self.mask.trailing_zeros();
        Some((b, self.pop_bucket(b as usize)))
    }

    /// Pops from the first non-empty bucket at or after `from` going round the ring
    /// (`from`, `from + 1`, ..., 63, 0, ...), returning the bucket and the value.
    #[inline]
    pub(crate) fn pop_cyclic(&mut self, from: u32) -> Option<(u32, T)> {
        if self.mask == 0 {
            return None;
        }
        let from = from % BUCKETS as u32;
        let b = (self.mask.rotate_right(from).trailing_zeros() + from) % BUCKETS as u32;
        Some((b, self.pop_bucket(b as usize)))
    }

    #[inline]
    fn pop_bucket(&mut self, b: usize) -> T {
        let i = self.heads[b];
        debug_assert!(i != NIL, "mask bit {b} set on an empty bucket");
        let (value, next) = self.pool.remove(i);
        self.heads[b] = next;
        if next == NIL {
            self.mask &= !(1 << b);
        }
        value
    }

    /// Empties the queue, touching only the non-empty buckets (found through the
    /// mask); the pool keeps its capacity.
    #[inline]
    pub(crate) fn reset(&mut self) {
        let mut m = self.mask;
        while m != 0 {
            self.heads[m.trailing_zeros() as usize] = NIL;
            m &= m - 1;
        }
        self.mask = 0;
        self.pool.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_pops_lowest_first_lifo_among_equals() {
        let mut q = BucketQueue::with_capacity(16);
        q.push(5, 'a');
        q.push(2, 'b');
        q.push(500, 'c'); // clamped to bucket 63
        q.push(2, 'd');
        assert_eq!(q.pop(), Some('d'));
        assert_eq!(q.pop(), Some('b'));
        assert_eq!(q.pop(), Some('a'));
        assert_eq!(q.pop(), Some('c'));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn mask_tracks_non_empty_buckets() {
        let mut q = BucketQueue::new();
        q.push(3, 1u32);
        q.push(3, 2);
        q.push(0, 3);
        q.push(63, 4);
        q.push(1000, 5);
        assert_eq!(q.mask(), (1 << 0) | (1 << 3) | (1 << 63));
        assert_eq!(q.len(), 5);
        assert_eq!(q.pop_with_priority(), Some((0, 3)));
        assert_eq!(q.mask(), (1 << 3) | (1 << 63));
        assert_eq!(q.pop(), Some(2));
        assert_eq!(q.pop(), Some(1));
        assert_eq!(q.pop_with_priority(), Some((63, 5)));
        assert_eq!(q.pop_with_priority(), Some((63, 4)));
        assert!(q.is_empty());
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn popped_entries_are_recycled_and_reset_keeps_capacity() {
        let mut q = BucketQueue::with_capacity(8);
        for round in 0..1000u32 {
            // Never more than 8 values at once: the pool must not grow.
            for i in 0..8 {
                q.push((round + i) % 70, i);
            }
            let mut last = 0;
            for _ in 0..8 {
                let (b, _) = q.pop_with_priority().unwrap();
                assert!(b >= last);
                last = b;
            }
            if round % 3 == 0 {
                q.push(1, 0);
                q.reset();
            }
        }
        assert!(q.is_empty());
        assert_eq!(q.capacity(), 8);
        q.push(9, 1);
        assert_eq!(q.pop(), Some(1));
    }

    #[test]
    fn cyclic_pop_orders_monotone_keys_across_the_wrap() {
        let mut q = BucketQueue::new();
        let mut last = 60u64;
        q.push((last % 64) as u32, last);
        let mut popped = Vec::new();
        // Dial's algorithm on keys that grow past 64: each pop pushes key+3 and key+50.
        while let Some((b, key)) = q.pop_cyclic((last % 64) as u32) {
            assert_eq!(u64::from(b), key % 64);
            assert!(key >= last, "{key} popped after {last}");
            last = key;
            popped.push(key);
            if key < 300 {
                for k in [key + 3, key + 50] {
                    q.push((k % 64) as u32, k);
                }
            }
        }
        assert!(popped.windows(2).all(|w| w[0] <= w[1]));
        assert!(*popped.last().unwrap() >= 300);
    }
}
