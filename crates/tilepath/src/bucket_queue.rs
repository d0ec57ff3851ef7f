//! A 64-bucket priority queue with an occupancy mask.

/// Number of buckets of a [`BucketQueue`].
pub const BUCKETS: usize = 64;

/// A priority queue for small integer priorities: 64 buckets (stacks) and a `u64`
/// mask of the non-empty ones.
///
/// - `push`: O(1); priorities above 63 go to bucket 63.
/// - `pop`: O(1): the lowest non-empty bucket is `mask.trailing_zeros()`; within a
///   bucket the most recently pushed value comes first (LIFO), which makes searches
///   dive towards their goal on ties.
/// - `reset`: touches only the non-empty buckets (found through the mask).
///
/// The buckets keep their capacity, so a queue reused across queries stops allocating
/// once it has seen its largest query.
///
/// It also works as a ring for *monotone* keys (Dial's algorithm): if every key in the
/// queue lies within 64 of the last key popped, [`pop_cyclic`](Self::pop_cyclic) pops
/// keys in order, with `key % 64` as the bucket.
///
/// ```
/// use tilepath::BucketQueue;
/// let mut q = BucketQueue::new();
/// q.push(5, 'a');
/// q.push(2, 'b');
/// q.push(500, 'c'); // clamped to bucket 63
/// q.push(2, 'd');
/// assert_eq!(q.pop(), Some('d'));
/// assert_eq!(q.pop(), Some('b'));
/// assert_eq!(q.pop(), Some('a'));
/// assert_eq!(q.pop(), Some('c'));
/// assert_eq!(q.pop(), None);
/// ```
#[derive(Clone, Debug)]
pub struct BucketQueue<T> {
    buckets: [Vec<T>; BUCKETS],
    mask: u64,
}

impl<T: Copy> Default for BucketQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> BucketQueue<T> {
    /// An empty queue (no allocation until the first push).
    #[must_use]
    pub fn new() -> Self {
        Self {
            buckets: core::array::from_fn(|_| Vec::new()),
            mask: 0,
        }
    }

    /// An empty queue whose buckets each hold `per_bucket` values before allocating.
    #[must_use]
    pub fn with_capacity(per_bucket: usize) -> Self {
        Self {
            buckets: core::array::from_fn(|_| Vec::with_capacity(per_bucket)),
            mask: 0,
        }
    }

    /// Whether the queue is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// Number of queued values (O(number of non-empty buckets)).
    #[must_use]
    pub fn len(&self) -> usize {
        let mut m = self.mask;
        let mut n = 0;
        while m != 0 {
            n += self.buckets[m.trailing_zeros() as usize].len();
            m &= m - 1;
        }
        n
    }

    /// The occupancy mask: bit `b` is set when bucket `b` is not empty.
    #[inline]
    #[must_use]
    pub const fn mask(&self) -> u64 {
        self.mask
    }

    /// Queues `value` with `priority` (values above 63 share bucket 63).
    #[inline]
    pub fn push(&mut self, priority: u32, value: T) {
        let b = priority.min(BUCKETS as u32 - 1) as usize;
        self.buckets[b].push(value);
        self.mask |= 1 << b;
    }

    /// Pops a value of the lowest priority (the last one pushed among equals).
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        self.pop_with_priority().map(|(_, v)| v)
    }

    /// Like [`pop`](Self::pop), also returning the bucket it came from.
    #[inline]
    pub fn pop_with_priority(&mut self) -> Option<(u32, T)> {
        if self.mask == 0 {
            return None;
        }
        let b = self.mask.trailing_zeros();
        Some((b, self.pop_bucket(b as usize)))
    }

    /// Pops from the first non-empty bucket at or after `from` going round the ring
    /// (`from`, `from + 1`, ..., 63, 0, ...), returning the bucket and the value.
    #[inline]
    pub fn pop_cyclic(&mut self, from: u32) -> Option<(u32, T)> {
        if self.mask == 0 {
            return None;
        }
        let from = from % BUCKETS as u32;
        let b = (self.mask.rotate_right(from).trailing_zeros() + from) % BUCKETS as u32;
        Some((b, self.pop_bucket(b as usize)))
    }

    #[inline]
    fn pop_bucket(&mut self, b: usize) -> T {
        let bucket = &mut self.buckets[b];
        debug_assert!(!bucket.is_empty(), "mask bit {b} set on an empty bucket");
        let value = bucket.pop().unwrap_or_else(|| unreachable!());
        if bucket.is_empty() {
            self.mask &= !(1 << b);
        }
        value
    }

    /// Empties the queue, touching only non-empty buckets; capacity is kept.
    #[inline]
    pub fn reset(&mut self) {
        let mut m = self.mask;
        while m != 0 {
            self.buckets[m.trailing_zeros() as usize].clear();
            m &= m - 1;
        }
        self.mask = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn reset_empties_and_keeps_capacity() {
        let mut q = BucketQueue::new();
        for i in 0..200 {
            q.push(i % 7, i);
        }
        let caps: Vec<usize> = q.buckets.iter().map(Vec::capacity).collect();
        q.reset();
        assert!(q.is_empty());
        assert_eq!(q.len(), 0);
        assert_eq!(q.pop(), None);
        let after: Vec<usize> = q.buckets.iter().map(Vec::capacity).collect();
        assert_eq!(caps, after);
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
