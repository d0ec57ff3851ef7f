//! Visiting a cell's neighbours on the square lattice, 4- or 8-connected.

use super::{Visit, Window};
use crate::cost::EnterCost;

impl Window {
    /// The grid index of local cell `(lx, ly)` and the costs of stepping from it into
    /// its right, up (`+y`), left and down neighbours (0 if closed, outside the
    /// window, or not to be entered from this cell: see
    /// [`EnterCost::step_unchecked`]).
    ///
    /// # Safety
    /// `(lx, ly)` is inside the window and `costs` are of the grid the window was made
    /// for (the neighbours' indices it reads unchecked are then inside the grid).
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
    pub(crate) unsafe fn straight_costs<C: EnterCost>(
        &self,
        costs: &C,
        lx: u32,
        ly: u32,
    ) -> (usize, [u8; 4]) {
        let grid = costs.grid();
        let w = grid.width() as usize;
        let gi = self.grid_index(grid, lx, ly);
        // SAFETY: `cost` is only called for neighbours inside `[x0, x1) x [y0, y1)`,
        // which `around`/`whole` clip to the grid: their index is below `grid.len()`.
        #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
        let cost = |i: usize| unsafe { costs.step_unchecked(gi, i) };
        let cr = if lx + 1 < self.x1 { cost(gi + 1) } else { 0 };
        let cu = if ly + 1 < self.y1 { cost(gi + w) } else { 0 };
        let cl = if lx > self.x0 { cost(gi - 1) } else { 0 };
        let cd = if ly > self.y0 { cost(gi - w) } else { 0 };
        (gi, [cr, cu, cl, cd])
    }

    /// Calls `visitor.visit` for every enterable neighbour of local cell `(lx, ly)`
    /// (slot `slot`) inside the window, except the one in direction code `skip` (the
    /// cell a search reached this one from, which it has already seen): the 4
    /// orthogonal neighbours with [`Direction`](crate::Direction) codes, or with `DIAGONALS`
    /// also the diagonals whose two orthogonal neighbours are passable (no corner
    /// cutting), with [`Direction8`](crate::Direction8) codes; `h` gives a neighbour's
    /// heuristic from its local coordinates. The square lattice's body of
    /// [`Neighborhood::visit_neighbours`](crate::topology::Neighborhood), which callers
    /// go through.
    ///
    /// # Safety
    /// `slot` is the slot of local cell `(lx, ly)`, inside the window, and `costs` are
    /// of the grid the window was made for; `visitor` may then be given every slot
    /// inside the window (see [`Visit::visit`]).
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
    #[expect(clippy::too_many_arguments, reason = "inlined into one loop body")]
    pub(crate) unsafe fn visit_square<const DIAGONALS: bool, C: EnterCost, V: Visit>(
        &self,
        costs: &C,
        slot: u32,
        lx: u32,
        ly: u32,
        h: impl Fn((i64, i64)) -> u64,
        skip: u8,
        visitor: &mut V,
    ) {
        let w = costs.grid().width() as usize;
        // SAFETY: `(lx, ly)` is inside the window made for the costs' grid, as promised.
        let (gi, [cr, cu, cl, cd]) = unsafe { self.straight_costs(costs, lx, ly) };
        let stride = self.rows.len;
        // SAFETY: as in `straight_costs`: only called for diagonals whose two
        // orthogonal neighbours are inside `[x0, x1) x [y0, y1)`, so they are too.
        #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
        let cost = |i: usize| unsafe { costs.step_unchecked(gi, i) };
        let (r, u, l, d) = if DIAGONALS {
            (0, 2, 4, 6)
        } else {
            (0, 1, 2, 3)
        };
        if cr != 0 && skip != r {
            // SAFETY: a neighbour inside the window (its cost is not 0).
            unsafe { visitor.visit(slot + 1, r, cr, || h((i64::from(lx + 1), i64::from(ly)))) };
        }
        if cu != 0 && skip != u {
            // SAFETY: a neighbour inside the window (its cost is not 0).
            unsafe {
                visitor.visit(slot + stride, u, cu, || {
                    h((i64::from(lx), i64::from(ly + 1)))
                })
            };
        }
        if cl != 0 && skip != l {
            // SAFETY: a neighbour inside the window (its cost is not 0).
            unsafe { visitor.visit(slot - 1, l, cl, || h((i64::from(lx - 1), i64::from(ly)))) };
        }
        if cd != 0 && skip != d {
            // SAFETY: a neighbour inside the window (its cost is not 0).
            unsafe {
                visitor.visit(slot - stride, d, cd, || {
                    h((i64::from(lx), i64::from(ly - 1)))
                })
            };
        }
        if DIAGONALS {
            if cr != 0 && cu != 0 && skip != 1 {
                let c = cost(gi + w + 1);
                if c != 0 {
                    // SAFETY: a neighbour inside the window (its cost is not 0).
                    unsafe {
                        visitor.visit(slot + stride + 1, 1, c, || {
                            h((i64::from(lx + 1), i64::from(ly + 1)))
                        })
                    };
                }
            }
            if cu != 0 && cl != 0 && skip != 3 {
                let c = cost(gi + w - 1);
                if c != 0 {
                    // SAFETY: a neighbour inside the window (its cost is not 0).
                    unsafe {
                        visitor.visit(slot + stride - 1, 3, c, || {
                            h((i64::from(lx - 1), i64::from(ly + 1)))
                        })
                    };
                }
            }
            if cl != 0 && cd != 0 && skip != 5 {
                let c = cost(gi - w - 1);
                if c != 0 {
                    // SAFETY: a neighbour inside the window (its cost is not 0).
                    unsafe {
                        visitor.visit(slot - stride - 1, 5, c, || {
                            h((i64::from(lx - 1), i64::from(ly - 1)))
                        })
                    };
                }
            }
            if cd != 0 && cr != 0 && skip != 7 {
                let c = cost(gi - w + 1);
                if c != 0 {
                    // SAFETY: a neighbour inside the window (its cost is not 0).
                    unsafe {
                        visitor.visit(slot - stride + 1, 7, c, || {
                            h((i64::from(lx + 1), i64::from(ly - 1)))
                        })
                    };
                }
            }
        }
    }
}
