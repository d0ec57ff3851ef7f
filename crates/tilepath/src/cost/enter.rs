//! What it costs a unit to enter a cell: the one rule every solver's loop reads costs
//! through ([`EnterCost`]), and a one-cell unit's costs ([`CellCosts`]); a big unit's
//! are the footprint's (`footprint/`).

#[cfg(doc)]
use crate::grid::open_anf;
use crate::grid::open_cells;
use crate::{Grid, Mobility};

/// What it costs a unit to enter a cell, by grid index: the one rule the solvers'
/// loops read costs through.
pub(crate) trait EnterCost: Copy {
    /// The grid the costs are of.
    fn grid(&self) -> &Grid;

    /// The cost of entering the cell at grid index `i` (0 = the unit may not stand
    /// there; whether a step may enter it is [`step_unchecked`](Self::step_unchecked)'s
    /// to say).
    ///
    /// # Safety
    /// `i < self.grid().len()`.
    #[expect(unsafe_code, reason = "the solvers' hot path; callers prove the bound")]
    unsafe fn at_unchecked(&self, i: usize) -> u8;

    /// The cost of a step into grid index `i` from its neighbour at grid index `from`
    /// (0 = the step is not allowed): [`at_unchecked`](Self::at_unchecked), except
    /// where entering depends on the cell stepped from (a footprint walled over at the
    /// start walks out only by `footprint_cost`'s step rule). Every search decides
    /// whether it may step by this; the cost of a step it took is `at_unchecked`'s.
    ///
    /// # Safety
    /// `i < self.grid().len()` and `from < self.grid().len()`.
    #[inline(always)]
    #[expect(unsafe_code, reason = "the solvers' hot path; callers prove the bound")]
    unsafe fn step_unchecked(&self, from: usize, i: usize) -> u8 {
        let _ = from;
        // SAFETY: as the caller promises.
        unsafe { self.at_unchecked(i) }
    }

    /// Whether [`step_unchecked`](Self::step_unchecked) may differ from
    /// [`at_unchecked`](Self::at_unchecked): searches that read enterable cells
    /// without the cell stepped from ([`enterable_from`](Self::enterable_from), bit
    /// rows, marked walls) then check each step with `step_unchecked`.
    #[inline(always)]
    fn walks_out(&self) -> bool {
        false
    }

    /// The cost every enterable cell has, if the costs are all the same: a route's
    /// cost then follows from its steps alone.
    fn uniform(&self) -> Option<u8>;

    /// The cells the unit may enter among the 32 from grid index `i`: bit `2j` for
    /// cell `i + j` (odd bits are noise; cells past the grid's end read closed). `anf`
    /// is the mobility's [`open_anf`], which one-cell costs read the packed grid with.
    fn enterable_from(&self, anf: [u64; 4], i: usize) -> u64;

    /// [`at_unchecked`](Self::at_unchecked), checked: 0 outside the grid.
    #[inline]
    fn at(&self, i: usize) -> u8 {
        if i < self.grid().len() {
            // SAFETY: just checked.
            #[expect(unsafe_code, reason = "checked above")]
            unsafe {
                self.at_unchecked(i)
            }
        } else {
            0
        }
    }
}

/// A one-cell unit's costs: the cell's own.
#[derive(Clone, Copy)]
pub(crate) struct CellCosts<'a> {
    pub(crate) grid: &'a Grid,
    pub(crate) mobility: Mobility,
}

impl EnterCost for CellCosts<'_> {
    #[inline(always)]
    fn grid(&self) -> &Grid {
        self.grid
    }

    #[inline(always)]
    #[expect(unsafe_code, reason = "the solvers' hot path; callers prove the bound")]
    unsafe fn at_unchecked(&self, i: usize) -> u8 {
        // SAFETY: `i < grid.len()`, as the caller promises. (A shift of the packed
        // mobility keeps the lookup in registers.)
        self.mobility
            .cost_of_bits(unsafe { self.grid.bits_at_unchecked(i) })
    }

    #[inline]
    fn uniform(&self) -> Option<u8> {
        let m = self.mobility;
        (m.min_cost() == m.max_cost()).then(|| m.min_cost())
    }

    #[inline(always)]
    fn enterable_from(&self, anf: [u64; 4], i: usize) -> u64 {
        open_cells(anf, self.grid.cells_from(i))
    }
}
