//! Per-slot words that carry their generation stamp in their own top bits.

use super::Generation;

/// A fixed-size array of values of up to `value_bits` bits that forgets everything in
/// O(1), 8 bytes an entry: each `u64` word holds its value in the low `value_bits` and
/// the [`Generation`] it was written in above them. An entry written in an older
/// generation reads as `unset`.
///
/// The stamp gets every bit the value leaves (up to 32): a solver sizes the values for
/// the largest cost its area can hold, so small areas reset by generation for billions
/// of queries, and even a 2^32-cell grid keeps stamps of 7 bits (a real clear every
/// 127 queries).
#[derive(Clone, Debug)]
pub(crate) struct StampedWords {
    words: Vec<u64>,
    value_bits: u32,
    generation: Generation,
    /// `generation << value_bits`: xor-ing it out of a current word leaves the value.
    tag: u64,
    unset: u64,
}

impl StampedWords {
    /// No entries; values of `value_bits` (at most 62), reading as `unset` until written.
    pub(crate) fn new(value_bits: u32, unset: u64) -> Self {
        let mut s = Self {
            words: Vec::new(),
            value_bits: 0,
            generation: Generation::default(),
            tag: 0,
            unset,
        };
        s.set_value_bits(value_bits, unset);
        s
    }

    fn set_value_bits(&mut self, value_bits: u32, unset: u64) {
        assert!(
            value_bits <= 62,
            "values of {value_bits} bits leave no stamp"
        );
        debug_assert!(unset >> value_bits == 0, "unset value wider than its bits");
        self.value_bits = value_bits;
        self.generation = Generation::new((64 - value_bits).min(32));
        self.tag = u64::from(self.generation.get()) << value_bits;
        self.unset = unset;
        self.words.fill(0);
    }

    /// Number of entries.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.words.len()
    }

    /// Entries the words can hold without allocating.
    pub(crate) fn capacity(&self) -> usize {
        self.words.capacity()
    }

    /// Resizes to `len` entries of `value_bits`-bit values reading as `unset` (allocates
    /// when growing past the capacity), all of them unset.
    pub(crate) fn resize(&mut self, len: usize, value_bits: u32, unset: u64) {
        if len > self.words.len() {
            // A fresh zeroed block (stamp 0 reads as unset): the system hands it out
            // as untouched pages, so a search pays only for the part it reaches.
            self.words = Vec::new();
            self.words = vec![0; len];
        } else {
            self.words.truncate(len);
        }
        if (value_bits, unset) == (self.value_bits, self.unset) {
            self.reset();
        } else {
            self.set_value_bits(value_bits, unset);
        }
    }

    /// Unsets every entry in O(1) (a real clear when the stamps wrap).
    #[inline]
    pub(crate) fn reset(&mut self) {
        if self.generation.advance() {
            self.words.fill(0);
        }
        self.tag = u64::from(self.generation.get()) << self.value_bits;
    }

    /// The value at `i`: `unset` if not written since the last reset (or out of range).
    #[inline]
    pub(crate) fn get(&self, i: usize) -> u64 {
        self.words.get(i).map_or(self.unset, |&w| self.current(w))
    }

    /// Writes the value at `i`.
    ///
    /// # Panics
    /// If `i >= len()`.
    #[inline]
    pub(crate) fn set(&mut self, i: usize, value: u64) {
        debug_assert!(value >> self.value_bits == 0, "value wider than its bits");
        self.words[i] = value | self.tag;
    }

    /// Walking from entry `i` by `-step` entries at a time (wrapping), the first of the
    /// next `n` entries written since the last reset whose value `accept(k, value)`
    /// takes, `k` counting the steps (from 1); `None` if none does or the walk leaves
    /// the entries. An unwritten entry costs a load and a compare of its stamp.
    #[inline]
    pub(crate) fn find_back(
        &self,
        mut i: usize,
        step: usize,
        n: u64,
        mut accept: impl FnMut(u64, u64) -> bool,
    ) -> Option<usize> {
        let generation = self.tag >> self.value_bits;
        // `n` is a g over a step's weight: far from `u64::MAX`.
        for k in 1..n.saturating_add(1) {
            i = i.wrapping_sub(step);
            let word = *self.words.get(i)?;
            if word >> self.value_bits == generation && accept(k, word ^ self.tag) {
                return Some(i);
            }
        }
        None
    }

    /// [`get`](Self::get) without the bounds check, for the solvers' inner loops.
    ///
    /// # Safety
    /// `i < self.len()`.
    #[inline(always)]
    #[expect(
        unsafe_code,
        reason = "hot path of the solvers; callers prove the bound"
    )]
    pub(crate) unsafe fn get_unchecked(&self, i: usize) -> u64 {
        debug_assert!(i < self.words.len(), "entry {i} of {}", self.words.len());
        // SAFETY: the caller guarantees `i < words.len()`.
        self.current(unsafe { *self.words.get_unchecked(i) })
    }

    /// [`set`](Self::set) without the bounds check.
    ///
    /// # Safety
    /// `i < self.len()`.
    #[inline(always)]
    #[expect(
        unsafe_code,
        reason = "hot path of the solvers; callers prove the bound"
    )]
    pub(crate) unsafe fn set_unchecked(&mut self, i: usize, value: u64) {
        debug_assert!(i < self.words.len(), "entry {i} of {}", self.words.len());
        debug_assert!(value >> self.value_bits == 0, "value wider than its bits");
        // SAFETY: the caller guarantees `i < words.len()`.
        unsafe { *self.words.get_unchecked_mut(i) = value | self.tag };
    }

    #[inline(always)]
    fn current(&self, word: u64) -> u64 {
        let value = word ^ self.tag;
        if value >> self.value_bits == 0 {
            value
        } else {
            self.unset
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_forgets_and_values_keep_their_bits() {
        let mut m = StampedWords::new(10, 1023);
        m.resize(4, 10, 1023);
        m.set(0, 5);
        m.set(3, 0);
        assert_eq!((m.get(0), m.get(1), m.get(3), m.get(9)), (5, 1023, 0, 1023));
        m.reset();
        assert!((0..4).all(|i| m.get(i) == 1023));
        // A value of all ones in its bits is still a value, not a stamp mismatch.
        m.set(2, 1022);
        assert_eq!(m.get(2), 1022);
    }

    #[test]
    fn wrap_around_really_clears() {
        // 58-bit values leave 6-bit stamps: generation 63 is the last.
        let mut m = StampedWords::new(58, 7);
        m.resize(3, 58, 7);
        m.generation.set(62);
        m.reset(); // -> 63
        m.set(0, 1);
        assert_eq!(m.get(0), 1);
        // Entry 1 is stamped with generation 1: it must not come back to life when
        // the count restarts there.
        m.words[1] = 1 << 58 | 9;
        m.reset(); // wraps: cleared, generation 1
        assert_eq!(m.generation.get(), 1);
        assert!((0..3).all(|i| m.get(i) == 7));
    }

    #[test]
    fn new_value_widths_forget_old_stamps() {
        let mut m = StampedWords::new(20, 0);
        m.resize(2, 20, 0);
        m.set(1, 77);
        m.resize(3, 40, 5);
        assert!((0..3).all(|i| m.get(i) == 5));
        m.set(2, 1 << 39);
        assert_eq!(m.get(2), 1 << 39);
    }
}
