//! Where a search may go, and how its cells map to scratch slots; how a cell's
//! neighbours are visited on square (`square.rs`) and hex (`hex.rs`) lattices.

mod hex;
mod square;
mod steps;

pub(crate) use steps::WindowSteps;

use crate::{Cell, Grid, MAX_STEPS};

/// Side of the window a windowed search is confined to: every cell a path of
/// [`MAX_STEPS`] steps can reach from the start.
pub(crate) const WINDOW_SIDE: u32 = 2 * MAX_STEPS as u32 + 1;
/// `log2` of the scratch row stride of a windowed search (128 >= 113 slots a row): a
/// power of two, so that the windowed searches' own loops turn slots into coordinates
/// with a shift ([`window_cell`]).
pub(crate) const WINDOW_SHIFT: u32 = 7;
/// Scratch slots of a windowed search.
pub(crate) const WINDOW_SLOTS: usize = (WINDOW_SIDE as usize) << WINDOW_SHIFT;

/// Local coordinates of a windowed search's slot.
#[inline(always)]
pub(crate) const fn window_cell(slot: u32) -> (u32, u32) {
    (slot & ((1 << WINDOW_SHIFT) - 1), slot >> WINDOW_SHIFT)
}

/// A rectangle of the grid mapped to local scratch slots: local `(lx, ly)` is global
/// `(ox + lx, oy + ly)` and slot `ly * stride + lx`. Only local cells in
/// `[x0, x1) x [y0, y1)` are inside both the window and the grid.
///
/// A windowed search's stride is 128 slots; the whole grid's is its width (at least
/// 2), so that its scratch has no padding.
///
/// Invariant the solvers' unchecked accesses rely on: every slot of a cell in
/// `[x0, x1) x [y0, y1)` is below [`Window::slots`], and its grid index below
/// `grid.len()`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Window {
    ox: i32,
    oy: i32,
    rows: RowLength,
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

impl Window {
    /// The window of a windowed search from `start` (which must be inside `grid`).
    pub(crate) fn around(grid: &Grid, start: Cell) -> Self {
        let r = MAX_STEPS as i32;
        let (ox, oy) = (start.x - r, start.y - r);
        let clip = |o: i32, size: u32| {
            let lo = (-o).max(0) as u32;
            let hi = (i64::from(size) - i64::from(o)).clamp(0, i64::from(WINDOW_SIDE)) as u32;
            (lo, hi)
        };
        let (x0, x1) = clip(ox, grid.width());
        let (y0, y1) = clip(oy, grid.height());
        Self {
            ox,
            oy,
            rows: RowLength::new(1 << WINDOW_SHIFT),
            x0,
            y0,
            x1,
            y1,
        }
    }

    /// The whole grid.
    pub(crate) fn whole(grid: &Grid) -> Self {
        Self {
            ox: 0,
            oy: 0,
            rows: RowLength::new(Self::whole_stride(grid.width())),
            x0: 0,
            y0: 0,
            x1: grid.width(),
            y1: grid.height(),
        }
    }

    /// The row stride of a whole-grid search over a grid `width` cells wide.
    pub(crate) const fn whole_stride(width: u32) -> u32 {
        if width < 2 { 2 } else { width }
    }

    /// Scratch slots needed to search the whole of a `width x height` grid, or `None`
    /// past `u32` indices.
    pub(crate) const fn whole_slots(width: u32, height: u32) -> Option<usize> {
        let slots = height as u64 * Self::whole_stride(width) as u64;
        if slots < u32::MAX as u64 {
            Some(slots as usize)
        } else {
            None
        }
    }

    /// Scratch slots this window's cells can use: `rows * stride`.
    pub(crate) fn slots(&self) -> usize {
        self.y1 as usize * self.rows.len as usize
    }

    /// The distance between vertically adjacent slots.
    #[inline(always)]
    pub(crate) fn stride(&self) -> u32 {
        self.rows.len
    }

    /// The local slot of a global cell, or `None` if it is outside the usable area.
    #[inline]
    pub(crate) fn slot_of(&self, cell: Cell) -> Option<u32> {
        let lx = cell.x.wrapping_sub(self.ox) as u32;
        let ly = cell.y.wrapping_sub(self.oy) as u32;
        (lx.wrapping_sub(self.x0) < self.x1 - self.x0
            && ly.wrapping_sub(self.y0) < self.y1 - self.y0)
            .then(|| ly * self.rows.len + lx)
    }

    /// The slot of local cell `(lx, ly)`, or `None` if it is outside the usable area.
    #[cfg(test)]
    pub(crate) fn slot_of_local(&self, lx: u32, ly: u32) -> Option<u32> {
        ((self.x0..self.x1).contains(&lx) && (self.y0..self.y1).contains(&ly))
            .then(|| ly * self.rows.len + lx)
    }

    /// The usable local columns: `x0..x1`.
    pub(crate) fn columns(&self) -> (u32, u32) {
        (self.x0, self.x1)
    }

    /// The usable local rows: `y0..y1`.
    pub(crate) fn rows(&self) -> (u32, u32) {
        (self.y0, self.y1)
    }

    /// The grid index of the first usable cell of local row `ly` (its columns are
    /// [`columns`](Self::columns)); `None` if the row is outside the usable area.
    pub(crate) fn row_start(&self, grid: &Grid, ly: u32) -> Option<usize> {
        (self.y0..self.y1)
            .contains(&ly)
            .then(|| self.grid_index(grid, self.x0, ly))
    }

    /// The grid index of local cell `(lx, ly)` (inside the usable area).
    #[inline(always)]
    pub(crate) fn grid_index(&self, grid: &Grid, lx: u32, ly: u32) -> usize {
        (self.oy + ly as i32) as usize * grid.width() as usize + (self.ox + lx as i32) as usize
    }

    /// Local coordinates of a global cell (may lie outside the window).
    #[inline]
    pub(crate) fn local(&self, cell: Cell) -> (i64, i64) {
        (
            i64::from(cell.x) - i64::from(self.ox),
            i64::from(cell.y) - i64::from(self.oy),
        )
    }

    /// Global coordinates of local coordinates `(lx, ly)` (those of a cell outside the
    /// window too, such as a goal's).
    #[inline(always)]
    pub(crate) fn global_of(&self, lx: i64, ly: i64) -> (i64, i64) {
        (i64::from(self.ox) + lx, i64::from(self.oy) + ly)
    }

    /// Global coordinates of local cell `(lx, ly)`, widened (no overflow).
    #[inline(always)]
    pub(crate) fn global(&self, lx: u32, ly: u32) -> (i64, i64) {
        (
            i64::from(self.ox) + i64::from(lx),
            i64::from(self.oy) + i64::from(ly),
        )
    }

    /// How much the local frame is shifted from one of the true parity: `(ox, oy)`
    /// modulo 2. Local coordinates plus these are global ones shifted by even amounts.
    #[inline]
    pub(crate) fn parity_shift(&self) -> (i64, i64) {
        (
            i64::from(self.ox).rem_euclid(2),
            i64::from(self.oy).rem_euclid(2),
        )
    }

    /// Local coordinates of a slot.
    #[inline(always)]
    pub(crate) fn unpack(&self, slot: u32) -> (u32, u32) {
        let ly = self.rows.divide(slot);
        (slot - ly * self.rows.len, ly)
    }

    /// The global cell of a slot.
    #[inline]
    pub(crate) fn cell_of(&self, slot: u32) -> Cell {
        let (lx, ly) = self.unpack(slot);
        Cell::new(self.ox + lx as i32, self.oy + ly as i32)
    }

    /// The slot one step from `slot` in direction `(dx, dy)`.
    #[inline]
    pub(crate) fn offset_slot(&self, slot: u32, dx: i32, dy: i32) -> u32 {
        slot.wrapping_add(dx as u32)
            .wrapping_add((i64::from(dy) * i64::from(self.rows.len)) as u32)
    }
}

/// A row length with the multiplier that divides by it: whole-grid searches (A* and
/// jump point search) turn slots into rows once an expansion, where a hardware
/// division would cost more than the rest of the step (Lemire, Kaser and Kurz, "Faster
/// remainder by direct computation", 2019: for `n < 2^32` and `2 <= len < 2^32`,
/// `n / len = (ceil(2^64 / len) * n) >> 64`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RowLength {
    len: u32,
    inverse: u64,
}

impl RowLength {
    /// The row length `len` (at least 2: see [`Window::whole_stride`]).
    pub(crate) const fn new(len: u32) -> Self {
        assert!(len >= 2, "row length below 2");
        Self {
            len,
            inverse: u64::MAX / len as u64 + 1,
        }
    }

    /// `n / len`.
    #[inline(always)]
    pub(crate) const fn divide(self, n: u32) -> u32 {
        ((self.inverse as u128 * n as u128) >> 64) as u32
    }
}

/// What a search does with each neighbour a [`Neighborhood`](crate::topology::Neighborhood) visits. A trait
/// (not a closure) so that the `#[inline(always)]` on each implementation keeps the
/// search's relax step inlined at every call site.
pub(crate) trait Visit {
    /// `slot` was reached by a step in direction code `dir` into a cell of cost
    /// `cost` (non-zero) whose unscaled heuristic `h` gives (called only if needed).
    /// A slot already reached at least as cheaply is turned away (the cell the
    /// current one was reached from among them).
    ///
    /// # Safety
    /// `slot` is inside the window: implementations index their per-slot scratch
    /// (sized for the window) with it unchecked.
    #[expect(unsafe_code, reason = "bounds proven by the window")]
    unsafe fn visit(&mut self, slot: u32, dir: u8, cost: u8, h: impl FnOnce() -> u64);

    /// [`visit`](Self::visit) for a neighbour whose cost `cost` gives (0: the unit may
    /// not enter it), read only if needed: a visitor that can turn the slot away
    /// without it (settled, or reached already as cheaply as any step could reach it)
    /// does so first.
    ///
    /// # Safety
    /// As [`visit`](Self::visit).
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window")]
    unsafe fn visit_unread(
        &mut self,
        slot: u32,
        dir: u8,
        cost: impl FnOnce() -> u8,
        h: impl FnOnce() -> u64,
    ) {
        let c = cost();
        if c != 0 {
            // SAFETY: as the caller promises.
            unsafe { self.visit(slot, dir, c, h) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_lengths_divide_exactly() {
        let mut n: u32 = 1;
        let samples: Vec<u32> = core::iter::from_fn(|| {
            n = n.wrapping_mul(2_654_435_761).wrapping_add(12_345);
            Some(n)
        })
        .take(2_000)
        .chain([0, 1, u32::MAX, u32::MAX - 1])
        .collect();
        for len in [
            2,
            3,
            7,
            100,
            128,
            1_000,
            4_096,
            65_535,
            1 << 20,
            u32::MAX - 1,
            u32::MAX,
        ] {
            let rows = RowLength::new(len);
            for &n in &samples {
                assert_eq!(rows.divide(n), n / len, "{n} / {len}");
            }
            for k in [1, 2, 1_000] {
                let at = len.saturating_mul(k);
                for n in [at.saturating_sub(1), at, at.saturating_add(1)] {
                    assert_eq!(rows.divide(n), n / len, "{n} / {len}");
                }
            }
        }
    }

    #[test]
    fn whole_grid_slots_have_no_padding() {
        let grid = Grid::new(1_000, 3).unwrap();
        let w = Window::whole(&grid);
        assert_eq!((w.stride(), w.slots()), (1_000, 3_000));
        for c in [
            Cell::new(0, 0),
            Cell::new(999, 0),
            Cell::new(0, 1),
            Cell::new(999, 2),
        ] {
            let slot = w.slot_of(c).unwrap();
            assert_eq!(w.cell_of(slot), c);
        }
        assert_eq!(w.slot_of(Cell::new(1_000, 0)), None);
        assert_eq!(Window::whole_slots(1, 5), Some(10));
        assert_eq!(Window::whole_slots(65_536, 65_536), None);
    }
}
