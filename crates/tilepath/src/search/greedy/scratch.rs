//! The greedy search's scratch: a word per slot, with O(1) reset.

use super::super::NO_PARENT;
use super::super::window::{WINDOW_SHIFT, WINDOW_SIDE, WINDOW_SLOTS};
use crate::queue::Generation;

/// The scratch word of `slot`, a greedy slot.
///
/// # Safety
/// `slot < cells.len()`. The callers pass greedy slots of usable cells (the start,
/// queued slots: every queued cell is a neighbour of an expanded one that is not a
/// wall, and the guard slots around the usable area are walls), their neighbours, or
/// the wall slots `Walls` marks. Usable cells are at rows and columns
/// `1..=WINDOW_SIDE`, so their neighbours are below `SLOTS == cells.len()`.
#[inline(always)]
#[expect(unsafe_code, reason = "bounds proven by the window")]
pub(super) unsafe fn get(cells: &[u32], slot: u32) -> u32 {
    debug_assert!((slot as usize) < cells.len());
    // SAFETY: in bounds, as the caller promises.
    unsafe { *cells.get_unchecked(slot as usize) }
}

/// Writes the scratch word of `slot`, a greedy slot.
///
/// # Safety
/// `slot < cells.len()` (see [`get`]).
#[inline(always)]
#[expect(unsafe_code, reason = "bounds proven by the window")]
pub(super) unsafe fn set(cells: &mut [u32], slot: u32, word: u32) {
    debug_assert!((slot as usize) < cells.len());
    // SAFETY: in bounds, as the caller promises.
    unsafe { *cells.get_unchecked_mut(slot as usize) = word };
}

/// The greedy search's slot of a window slot is the window's plus `OFFSET`: its slots
/// are the window's moved one row down and one column right, so that every usable cell
/// has slots on all four sides (guard rows 0 and `WINDOW_SIDE + 1` and the columns
/// either side of the usable ones), and a wall test is the same read as a "reached"
/// test: walls hold a word of the query's generation (see `walls.rs`).
pub(super) const OFFSET: u32 = (1 << WINDOW_SHIFT) + 1;
/// The greedy search's slots: the window's and two guard rows.
pub(super) const SLOTS: usize = WINDOW_SLOTS + (2 << WINDOW_SHIFT);
const _: () = assert!(WINDOW_SIDE + 1 < 1 << WINDOW_SHIFT);

/// Where a slot's fields sit in its `u32`: `generation << 20 | direction << 16 | next`.
pub(super) const GENERATION_SHIFT: u32 = 20;
pub(super) const DIR_SHIFT: u32 = 16;
/// The end of an open list, the nearer list or a bucket (slots of a window are below
/// 2^15).
pub(super) const NIL: u32 = 0xFFFF;

/// The greedy search's per-slot state with O(1) reset ([`Generation`] stamps): one
/// `u32` a slot holding the generation it was reached in, the direction it was
/// reached by and the next slot of its open list, so the open lists need no memory
/// of their own (each slot is queued at most once per query), and walls are marked with
/// the generation too (see `walls.rs`). 57.5 KiB, reused by every query.
#[derive(Clone, Debug)]
pub(super) struct Slots {
    pub(super) cells: Vec<u32>,
    pub(super) generation: Generation,
}

impl Slots {
    pub(super) fn new(len: usize) -> Self {
        debug_assert!(len <= NIL as usize);
        Self {
            cells: vec![0; len],
            generation: Generation::new(32 - GENERATION_SHIFT),
        }
    }

    #[inline]
    pub(super) fn reset(&mut self) {
        if self.generation.advance() {
            self.cells.fill(0);
        }
    }

    /// The parent direction of slot `i`, or `NO_PARENT` if unseen.
    #[inline]
    pub(super) fn parent(&self, i: usize) -> u8 {
        match self.cells.get(i) {
            Some(&s) if s >> GENERATION_SHIFT == self.generation.get() => {
                ((s >> DIR_SHIFT) & 0xF) as u8
            }
            _ => NO_PARENT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_wrap_around_really_clear() {
        let mut p = Slots::new(4);
        p.generation.set((p.generation.limit() - 2) as u32);
        p.cells[1] = p.generation.get() << GENERATION_SHIFT | 2 << DIR_SHIFT | NIL;
        assert_eq!(p.parent(1), 2);
        p.reset();
        assert_eq!(p.parent(1), NO_PARENT);
        p.cells[2] = p.generation.get() << GENERATION_SHIFT | 1 << DIR_SHIFT | NIL;
        assert_eq!(p.parent(2), 1);
        p.reset(); // wraps: everything cleared, generation restarts at 1
        assert_eq!(p.generation.get(), 1);
        assert!((0..4).all(|i| p.parent(i) == NO_PARENT));
    }
}
