//! O(1) reset by generation: the counter every stamped scratch uses.

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
