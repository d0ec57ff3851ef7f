//! Walls marked in the greedy scratch a row at a time, as a search reaches new rows.

use super::super::window::{WINDOW_SHIFT, WINDOW_SIDE, Window};
use super::scratch::set;
use crate::cost::EnterCost;
use crate::grid::{EVEN, open_anf};
use crate::{Grid, Mobility};

/// Rows marked beyond those a search needs when it grows the marked range: fewer calls
/// for a row or two more (2 made the fewest instructions on the reference maps).
pub(super) const SLACK: u32 = 2;

/// Which rows of the greedy search's slots have their walls marked, and where the
/// query's window lies in the grid.
///
/// A wall (a cell closed to the mobility, or a guard slot beside the window or the grid)
/// holds the query's wall word, so that the search tests "wall or reached" with one
/// read of the neighbour's slot. A row is marked when the search comes near it (it
/// marks [`SLACK`] rows ahead): a grid read for 32 cells, a mobility test for all of them
/// in a few bit operations, and a store a wall (or a fill, for a guard row). A search
/// moves a row at a time, so the marked rows are always one range around the start's,
/// and a query pays only for the rows it reaches.
#[derive(Clone, Debug)]
pub(super) struct Walls {
    /// The marked rows, greedy slot rows: `first..=last` (none while `first > last`).
    first: u32,
    last: u32,
    /// The mobility's [`open_anf`].
    anf: [u64; 4],
    /// The window's usable columns, local: `x0..x1`.
    x0: usize,
    x1: usize,
    /// Greedy slot rows `top..top + rows` are grid rows; the grid index of row `top`'s
    /// first usable cell, and the grid's width.
    top: u32,
    rows: u32,
    origin: usize,
    width: usize,
}

impl Walls {
    pub(super) fn new() -> Self {
        Self {
            first: 1,
            last: 0,
            anf: [0; 4],
            x0: 0,
            x1: 0,
            top: 0,
            rows: 0,
            origin: 0,
            width: 0,
        }
    }

    /// Forgets every row: the next search (of `mobility`, in `window` of `grid`) marks
    /// them again.
    #[inline]
    pub(super) fn start(&mut self, mobility: Mobility, grid: &Grid, window: &Window) {
        let (x0, x1) = window.columns();
        let (y0, y1) = window.rows();
        *self = Self {
            anf: open_anf(mobility),
            x0: x0 as usize,
            x1: x1 as usize,
            top: y0 + 1,
            rows: y1.saturating_sub(y0),
            origin: window.row_start(grid, y0).unwrap_or(0),
            width: grid.width() as usize,
            ..Self::new()
        };
    }

    /// Grows the marked rows to take in `r - 1..=r + 1` (`1 <= r <= WINDOW_SIDE`, a
    /// greedy slot row); the slots now [`Marked`].
    #[cold]
    #[inline(never)]
    pub(super) fn extend<C: EnterCost>(
        &mut self,
        cells: &mut [u32],
        wall: u32,
        costs: &C,
        r: u32,
    ) -> Marked {
        if self.first > self.last {
            // An empty range at r.
            (self.first, self.last) = (r, r - 1);
        }
        // SLACK rows more than needed on a side that grows, so that the next call
        // comes that many rows later.
        if self.first > r - 1 {
            let top = r.saturating_sub(SLACK + 1);
            while self.first > top {
                self.first -= 1;
                self.mark(cells, wall, costs, self.first);
            }
        }
        if self.last < r + 1 {
            let bottom = (r + SLACK + 1).min(WINDOW_SIDE + 1);
            while self.last < bottom {
                self.last += 1;
                self.mark(cells, wall, costs, self.last);
            }
        }
        // At least three rows now.
        Marked {
            inner: (self.first + 1) << WINDOW_SHIFT,
            span: (self.last - self.first - 1) << WINDOW_SHIFT,
        }
    }

    /// Marks the walls of greedy slot row `r`: its closed cells and the guard slots
    /// either side of the usable columns, or all its usable columns if the row is
    /// outside the window or the grid.
    #[inline(always)]
    pub(super) fn mark<C: EnterCost>(&self, cells: &mut [u32], wall: u32, costs: &C, r: u32) {
        debug_assert!(r <= WINDOW_SIDE + 1);
        // The stores below are unchecked: a row past the guard row is never marked,
        // whatever the caller passes.
        let r = r.min(WINDOW_SIDE + 1);
        let row = (r as usize) << WINDOW_SHIFT;
        let (x0, x1) = (self.x0, self.x1);
        // Local column x is slot row + x + 1.
        let k = r.wrapping_sub(self.top);
        if k >= self.rows {
            fill(cells, wall, row + x0..row + x1 + 2);
            return;
        }
        // SAFETY: rows up to WINDOW_SIDE + 1 and columns up to WINDOW_SIDE + 1 (the
        // window's columns are below WINDOW_SIDE): below SLOTS, as `set` requires.
        #[expect(unsafe_code, reason = "bounds proven by the window")]
        unsafe {
            set(cells, (row + x0) as u32, wall);
            set(cells, (row + x1 + 1) as u32, wall);
        }
        // Whole bytes of the packed grid: the row's first usable cell is cell `s` of
        // the first word read, and a word holds 32 cells.
        let i = self.origin + k as usize * self.width;
        let s = i & 3;
        let end = x1 - x0 + s;
        // The slot of bit 2j of the first word (column j - s, at slot row + x0 + 1 +
        // j - s: `row >= 128` here, as `1 <= top <= r`).
        let at = row + x0 + 1 - s;
        // Marks the closed cells among those of `keep` in the word from bit `j0` on.
        let word = |cells: &mut [u32], j0: usize, keep: u64| {
            let mut closed = !costs.enterable_from(self.anf, i - s + j0) & keep;
            while closed != 0 {
                let j = j0 + closed.trailing_zeros() as usize / 2;
                // SAFETY: a usable column (s <= j < end) of a row <= WINDOW_SIDE + 1.
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                unsafe {
                    set(cells, (at + j) as u32, wall);
                }
                closed &= closed - 1;
            }
        };
        let mut keep = EVEN << (2 * s);
        let mut j0 = 0;
        while j0 + 32 < end {
            word(cells, j0, keep);
            keep = EVEN;
            j0 += 32;
        }
        // The last word's `end - j0` (1..=32) cells.
        word(cells, j0, keep & (!0 >> (64 - 2 * (end - j0))));
    }
}

/// The slots whose own rows and the rows above and below have their walls marked:
/// `inner..inner + span`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Marked {
    inner: u32,
    span: u32,
}

impl Marked {
    pub(super) const NONE: Self = Self { inner: 0, span: 0 };

    /// Whether the search may expand `slot` without marking more rows: one test.
    #[inline(always)]
    pub(super) fn covers(self, slot: u32) -> bool {
        slot.wrapping_sub(self.inner) < self.span
    }
}

/// Marks the slots of `range` walls (a row outside the grid).
#[cold]
#[inline(never)]
pub(super) fn fill(cells: &mut [u32], wall: u32, range: std::ops::Range<usize>) {
    if let Some(slots) = cells.get_mut(range) {
        slots.fill(wall);
    }
}
