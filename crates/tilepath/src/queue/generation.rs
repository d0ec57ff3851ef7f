//! O(1) reset by generation: the counter every stamped scratch uses, and a map built
//! on it.

/// The generation counter of stamped scratch: the one home of the O(1)-reset rule.
///
/// Scratch stores, with each entry, the generation it was written in; an entry whose
/// stamp differs from the current generation reads as unset, so moving to the next
/// generation unsets everything at once. Stamps are `bits` wide (the rest of a packed
/// scratch word holds the entry itself; the owner picks the width when it packs its
/// words); generations run from 1 (0 is "never written"), and when the field would
/// overflow [`advance`](Self::advance) says so: the owner then really clears every
/// stamp to 0, and the count restarts at 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Generation {
    current: u32,
    /// The largest generation a stamp holds: `2^bits - 1`.
    last: u32,
}

/// 32-bit stamps, as in a `u32` of its own.
impl Default for Generation {
    fn default() -> Self {
        Self::new(32)
    }
}

impl Generation {
    /// Generation 1 of `bits`-wide stamps (2 to 32): every entry stamped 0 reads as
    /// unset.
    pub(crate) const fn new(bits: u32) -> Self {
        assert!(bits >= 2 && bits <= 32);
        Self {
            current: 1,
            last: ((1u64 << bits) - 1) as u32,
        }
    }

    /// One past the largest generation a stamp holds.
    #[cfg(test)]
    pub(crate) const fn limit(self) -> u64 {
        self.last as u64 + 1
    }

    /// The current generation (at least 1, below the limit).
    #[inline(always)]
    pub(crate) const fn get(self) -> u32 {
        self.current
    }

    /// Moves to the next generation, so that every stamp written so far reads as
    /// unset. Returns `true` when the stamps wrapped: the caller must then set every
    /// stored stamp to 0 (the generation is back at 1).
    #[inline]
    #[must_use]
    pub(crate) fn advance(&mut self) -> bool {
        if self.current == self.last {
            self.current = 1;
            true
        } else {
            self.current += 1;
            false
        }
    }

    /// Jumps to generation `g` (tests of the wrap).
    #[cfg(test)]
    pub(crate) fn set(&mut self, g: u32) {
        debug_assert!(g >= 1 && g <= self.last);
        self.current = g;
    }
}

/// A fixed-size map from index to `T` that forgets everything in O(1).
///
/// Every entry stores the generation it was written in; [`reset`](Self::reset) bumps
/// the current generation, which makes every entry read as unset. Only when the 32-bit
/// counter wraps around (every 4 billion resets) are the entries really cleared.
///
/// Solvers index it with coordinates *local to their search window*, so its size
/// depends on the window, never on the grid.
///
/// ```
/// use tilepath::queue::GenerationMap;
/// let mut m = GenerationMap::new(100, 0u16);
/// m.set(7, 42);
/// assert_eq!(m.get(7), Some(&42));
/// m.reset();
/// assert_eq!(m.get(7), None);
/// *m.entry(7) += 1; // a stale entry starts from the default
/// assert_eq!(m.get(7), Some(&1));
/// ```
#[derive(Clone, Debug)]
pub struct GenerationMap<T> {
    entries: Vec<Entry<T>>,
    generation: Generation,
    default: T,
}

#[derive(Clone, Copy, Debug)]
struct Entry<T> {
    generation: u32,
    value: T,
}

impl<T: Copy> GenerationMap<T> {
    /// A map of `len` unset entries that read as `default` through
    /// [`entry`](Self::entry).
    #[must_use]
    pub fn new(len: usize, default: T) -> Self {
        Self {
            entries: vec![
                Entry {
                    generation: 0,
                    value: default
                };
                len
            ],
            generation: Generation::new(32),
            default,
        }
    }

    /// Number of entries.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Changes the number of entries (allocates when growing) and unsets all of them.
    pub fn resize(&mut self, len: usize) {
        self.entries.resize(
            len,
            Entry {
                generation: 0,
                value: self.default,
            },
        );
        self.reset();
    }

    /// Unsets every entry in O(1).
    #[inline]
    pub fn reset(&mut self) {
        if self.generation.advance() {
            self.clear_all();
        }
    }

    #[cold]
    fn clear_all(&mut self) {
        for entry in &mut self.entries {
            entry.generation = 0;
        }
    }

    /// The value at `i`, or `None` if unset since the last reset (or out of range).
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> Option<&T> {
        match self.entries.get(i) {
            Some(s) if s.generation == self.generation.get() => Some(&s.value),
            _ => None,
        }
    }

    /// Whether entry `i` was set since the last reset.
    #[inline]
    #[must_use]
    pub fn contains(&self, i: usize) -> bool {
        self.get(i).is_some()
    }

    /// Sets entry `i`.
    ///
    /// # Panics
    /// If `i >= len()`.
    #[inline]
    pub fn set(&mut self, i: usize, value: T) {
        let generation = self.generation.get();
        self.entries[i] = Entry { generation, value };
    }

    /// The value at `i` for update; a entry unset since the last reset starts as the
    /// default. Returns `(value, was_set)`.
    ///
    /// # Panics
    /// If `i >= len()`.
    #[inline]
    pub fn entry_with_state(&mut self, i: usize) -> (&mut T, bool) {
        assert!(
            i < self.entries.len(),
            "entry {i} of a map of {}",
            self.entries.len()
        );
        // SAFETY: checked just above.
        #[expect(unsafe_code, reason = "one body for the checked and unchecked entry")]
        unsafe {
            self.entry_unchecked(i)
        }
    }

    /// [`entry_with_state`](Self::entry_with_state) without the bounds check, for the
    /// solvers' inner loops.
    ///
    /// # Safety
    /// `i < self.len()`.
    #[inline(always)]
    #[expect(
        unsafe_code,
        reason = "hot path of every solver; callers prove the bound"
    )]
    pub(crate) unsafe fn entry_unchecked(&mut self, i: usize) -> (&mut T, bool) {
        debug_assert!(
            i < self.entries.len(),
            "entry {i} of {}",
            self.entries.len()
        );
        let generation = self.generation.get();
        let default = self.default;
        // SAFETY: the caller guarantees `i < entries.len()`.
        let entry = unsafe { self.entries.get_unchecked_mut(i) };
        let was_set = entry.generation == generation;
        if !was_set {
            *entry = Entry {
                generation,
                value: default,
            };
        }
        (&mut entry.value, was_set)
    }

    /// The value at `i` for update; a entry unset since the last reset starts as the
    /// default.
    ///
    /// # Panics
    /// If `i >= len()`.
    #[inline]
    pub fn entry(&mut self, i: usize) -> &mut T {
        self.entry_with_state(i).0
    }

    #[cfg(test)]
    fn set_generation(&mut self, generation: u32) {
        self.generation.set(generation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_forgets_in_constant_time() {
        let mut m = GenerationMap::new(10, 0u8);
        for i in 0..10 {
            m.set(i, i as u8 + 1);
        }
        m.reset();
        assert!((0..10).all(|i| m.get(i).is_none()));
        assert_eq!(*m.entry(3), 0);
        assert_eq!(m.get(11), None);
    }

    #[test]
    fn wrap_around_really_clears() {
        let mut m = GenerationMap::new(4, 0u32);
        m.set_generation(u32::MAX - 1);
        m.set(0, 7);
        m.reset(); // -> u32::MAX
        m.set(1, 8);
        assert_eq!(m.get(0), None);
        assert_eq!(m.get(1), Some(&8));
        // Entry 2 is stamped with generation 1: it must not come back to life after
        // the wrap, which restarts at generation 1.
        m.entries[2].generation = 1;
        m.reset(); // wraps: every entry cleared, generation restarts at 1
        assert_eq!(m.generation.get(), 1);
        assert!((0..4).all(|i| m.get(i).is_none()));
        let (v, was_set) = m.entry_with_state(1);
        assert_eq!((*v, was_set), (0, false));
    }

    #[test]
    fn resize_unsets_everything() {
        let mut m = GenerationMap::new(2, 5i32);
        m.set(1, 9);
        m.resize(8);
        assert_eq!(m.len(), 8);
        assert!((0..8).all(|i| !m.contains(i)));
        assert_eq!(*m.entry(7), 5);
    }
}
