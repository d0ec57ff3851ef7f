//! A map with O(1) reset.

/// A fixed-size map from index to `T` that forgets everything in O(1).
///
/// Every slot stores the generation it was written in; [`reset`](Self::reset) bumps the
/// current generation, which makes every slot read as unset. Only when the 32-bit
/// counter wraps around (every 4 billion resets) are the slots really cleared.
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
/// *m.entry(7) += 1; // a stale slot starts from the default
/// assert_eq!(m.get(7), Some(&1));
/// ```
#[derive(Clone, Debug)]
pub struct GenerationMap<T> {
    slots: Vec<Slot<T>>,
    generation: u32,
    default: T,
}

#[derive(Clone, Copy, Debug)]
struct Slot<T> {
    generation: u32,
    value: T,
}

impl<T: Copy> GenerationMap<T> {
    /// A map of `len` unset slots that read as `default` through
    /// [`entry`](Self::entry).
    #[must_use]
    pub fn new(len: usize, default: T) -> Self {
        Self {
            slots: vec![
                Slot {
                    generation: 0,
                    value: default
                };
                len
            ],
            generation: 1,
            default,
        }
    }

    /// Number of slots.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the map has no slots.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Changes the number of slots (allocates when growing) and unsets all of them.
    pub fn resize(&mut self, len: usize) {
        self.slots.resize(
            len,
            Slot {
                generation: 0,
                value: self.default,
            },
        );
        self.reset();
    }

    /// Unsets every slot in O(1).
    #[inline]
    pub fn reset(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.clear_all();
        }
    }

    #[cold]
    fn clear_all(&mut self) {
        for slot in &mut self.slots {
            slot.generation = 0;
        }
        self.generation = 1;
    }

    /// The value at `i`, or `None` if unset since the last reset (or out of range).
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> Option<&T> {
        match self.slots.get(i) {
            Some(s) if s.generation == self.generation => Some(&s.value),
            _ => None,
        }
    }

    /// Whether slot `i` was set since the last reset.
    #[inline]
    #[must_use]
    pub fn contains(&self, i: usize) -> bool {
        self.get(i).is_some()
    }

    /// Sets slot `i`.
    ///
    /// # Panics
    /// If `i >= len()`.
    #[inline]
    pub fn set(&mut self, i: usize, value: T) {
        let generation = self.generation;
        self.slots[i] = Slot { generation, value };
    }

    /// The value at `i` for update; a slot unset since the last reset starts as the
    /// default. Returns `(value, was_set)`.
    ///
    /// # Panics
    /// If `i >= len()`.
    #[inline]
    pub fn entry_with_state(&mut self, i: usize) -> (&mut T, bool) {
        assert!(
            i < self.slots.len(),
            "slot {i} of a map of {}",
            self.slots.len()
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
        debug_assert!(i < self.slots.len(), "slot {i} of {}", self.slots.len());
        let generation = self.generation;
        let default = self.default;
        // SAFETY: the caller guarantees `i < slots.len()`.
        let slot = unsafe { self.slots.get_unchecked_mut(i) };
        let was_set = slot.generation == generation;
        if !was_set {
            *slot = Slot {
                generation,
                value: default,
            };
        }
        (&mut slot.value, was_set)
    }

    /// The value at `i` for update; a slot unset since the last reset starts as the
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
        self.generation = generation;
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
        // Slot 2 is stamped with generation 1: it must not come back to life after
        // the wrap, which restarts at generation 1.
        m.slots[2].generation = 1;
        m.reset(); // wraps: every slot cleared, generation restarts at 1
        assert_eq!(m.generation, 1);
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
