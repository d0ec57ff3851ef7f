//! Visiting a cell's neighbours on a hex lattice.

use super::{Visit, Window};
use crate::cost::EnterCost;

impl Window {
    /// Calls `visitor.visit_unread` for the neighbours of local cell `(lx, ly)` (slot
    /// `slot`) inside the window reached by its hex steps; no corner rule. The hex
    /// lattice's body of [`Neighborhood::visit_neighbours`](crate::topology::Neighborhood):
    /// `codes` is a layout's two patterns from [`HEX_CODES`](crate::topology::HEX_CODES)
    /// (even, odd), `odd` the cell's, `back` the index among them of the step back to
    /// the cell's parent (6 at the start), `(dq, dr)` its axial offset from the goal and
    /// `d` its hex distance to it.
    ///
    /// Only the 3 steps ahead are taken (all 6 from the start): the way back leads to
    /// the parent, and the two steps beside it to the parent's own neighbours, which
    /// already hold a g no more than the parent's plus their cost, below this cell's
    /// plus their cost, since a step's cost is that of the cell it enters. (By
    /// induction: the parent took them, or they are its parent or beside it.) The
    /// search expands the same nodes and finds the same routes, visiting 3 neighbours
    /// a cell instead of 6.
    ///
    /// A neighbour's distance is stepped from `d`: in cube coordinates
    /// `(dq, dr, -dq - dr)` the distance is half the sum of the absolute values, and a
    /// step ([`HEX_AXIAL`](crate::topology::HEX_AXIAL)) adds 1 to one coordinate and
    /// takes 1 from another; adding 1 to `x` adds 1 to `|x|` if `x >= 0` and takes 1
    /// otherwise (taking 1: if `x <= 0`). So the neighbour's distance is
    /// `d - 1 + [first test] + [second test]`: two comparisons made once a cell and an
    /// addition a neighbour, in place of three absolute values and two maxima.
    ///
    /// Branchless in the parity: a step whose offset differs between the two patterns
    /// (an offset layout's diagonal steps) takes the even offset plus `odd` times the
    /// difference, so a cell's parity is a multiplier, not a branch a search would
    /// mispredict about half the time. Inlined with a constant `codes`, every offset,
    /// difference and bounds test folds to constants. Cells away from the window's
    /// edges (most of them) take a copy of the 6 steps without bounds tests.
    ///
    /// # Safety
    /// As [`visit_square`](Self::visit_square).
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
    #[expect(clippy::too_many_arguments, reason = "inlined into one loop body")]
    pub(crate) unsafe fn visit_hex<C: EnterCost, V: Visit>(
        &self,
        costs: &C,
        slot: u32,
        (lx, ly): (u32, u32),
        (codes, odd, back): (&[[u8; 6]; 2], bool, u8),
        (dq, dr): (i64, i64),
        d: u64,
        visitor: &mut V,
    ) {
        let gi = self.grid_index(costs.grid(), lx, ly);
        let odd = u8::from(odd);
        let ds = -dq - dr;
        // Whether each cube coordinate's absolute value grows when it gains 1 (`up`)
        // or loses 1 (`down`).
        let up = [u64::from(dq >= 0), u64::from(dr >= 0), u64::from(ds >= 0)];
        let down = [u64::from(dq <= 0), u64::from(dr <= 0), u64::from(ds <= 0)];
        // Whether all 6 neighbours are inside `[x0, x1) x [y0, y1)`: one test a cell
        // instead of one a step.
        let (x0, x1, y0, y1) = (self.x0, self.x1, self.y0, self.y1);
        let interior = lx.wrapping_sub(x0 + 1) < (x1 - x0).saturating_sub(2)
            && ly.wrapping_sub(y0 + 1) < (y1 - y0).saturating_sub(2);
        // Unrolled by hand: a loop over the 6 steps stays a loop, with its offsets read
        // from tables; 6 calls on constant codes fold them into constants.
        macro_rules! step {
            ($k:literal, $interior:literal) => {{
                let (sq, sr) = crate::topology::HEX_AXIAL[$k];
                let cube = [sq, sr, -sq - sr];
                let grows = |i: usize| match cube[i] {
                    1 => up[i],
                    -1 => down[i],
                    _ => 0,
                };
                // SAFETY: forwarded from the caller.
                unsafe {
                    self.hex_step::<$interior, C, V>(
                        costs,
                        slot,
                        (lx, ly),
                        gi,
                        [codes[0][$k], codes[1][$k]],
                        odd,
                        #[inline(always)]
                        || d + grows(0) + grows(1) + grows(2) - 1,
                        visitor,
                    )
                }
            }};
        }
        // The 3 steps ahead of `back` (`back + 2..=back + 4`, mod 6), or all 6; in the
        // steps' order, so that ties between equal routes break as when all 6 were
        // visited.
        macro_rules! ahead {
            ($interior:literal) => {
                match back {
                    0 => (
                        step!(2, $interior),
                        step!(3, $interior),
                        step!(4, $interior),
                    ),
                    1 => (
                        step!(3, $interior),
                        step!(4, $interior),
                        step!(5, $interior),
                    ),
                    2 => (
                        step!(0, $interior),
                        step!(4, $interior),
                        step!(5, $interior),
                    ),
                    3 => (
                        step!(0, $interior),
                        step!(1, $interior),
                        step!(5, $interior),
                    ),
                    4 => (
                        step!(0, $interior),
                        step!(1, $interior),
                        step!(2, $interior),
                    ),
                    5 => (
                        step!(1, $interior),
                        step!(2, $interior),
                        step!(3, $interior),
                    ),
                    _ => {
                        step!(0, $interior);
                        step!(1, $interior);
                        step!(2, $interior);
                        (
                            step!(3, $interior),
                            step!(4, $interior),
                            step!(5, $interior),
                        )
                    }
                }
            };
        }
        if interior {
            ahead!(true);
        } else {
            ahead!(false);
        }
    }

    /// One step of [`visit_hex`](Self::visit_hex): from local cell `(lx, ly)` (slot
    /// `slot`, grid index `gi`) by the code of `codes` that `odd` (0 or 1) picks, if it
    /// stays inside the window (as it does from an `INTERIOR` cell, untested), to the
    /// visitor with the cell's cost unread and heuristic `h`.
    ///
    /// # Safety
    /// As [`visit_square`](Self::visit_square); `gi` is `(lx, ly)`'s grid index; if
    /// `INTERIOR`, all of `(lx, ly)`'s 8 neighbours are inside the window.
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
    #[expect(clippy::too_many_arguments, reason = "inlined into one loop body")]
    unsafe fn hex_step<const INTERIOR: bool, C: EnterCost, V: Visit>(
        &self,
        costs: &C,
        slot: u32,
        (lx, ly): (u32, u32),
        gi: usize,
        [even, odd_code]: [u8; 2],
        odd: u8,
        h: impl FnOnce() -> u64,
        visitor: &mut V,
    ) {
        let (ex, ey) = crate::Direction8::from_bits(even).offset();
        let (ox, oy) = crate::Direction8::from_bits(odd_code).offset();
        let p = i32::from(odd);
        let (dx, dy) = (ex + p * (ox - ex), ey + p * (oy - ey));
        let code = even.wrapping_add(odd.wrapping_mul(odd_code.wrapping_sub(even)));
        // A fixed offset's test folds to one comparison (or none); a varying one is a
        // range test on the neighbour's coordinate.
        let inside_x = if ex == ox {
            (ex <= 0 || lx + 1 < self.x1) && (ex >= 0 || lx > self.x0)
        } else {
            lx.wrapping_add(dx as u32).wrapping_sub(self.x0) < self.x1 - self.x0
        };
        let inside_y = if ey == oy {
            (ey <= 0 || ly + 1 < self.y1) && (ey >= 0 || ly > self.y0)
        } else {
            ly.wrapping_add(dy as u32).wrapping_sub(self.y0) < self.y1 - self.y0
        };
        if !(INTERIOR || inside_x && inside_y) {
            return;
        }
        let w = costs.grid().width() as isize;
        let (even_at, odd_at) = (ex as isize + ey as isize * w, ox as isize + oy as isize * w);
        let i = gi.wrapping_add_signed(even_at + p as isize * (odd_at - even_at));
        let stride = self.rows.len as i32;
        let (even_slot, odd_slot) = (ex + ey * stride, ox + oy * stride);
        let n = slot.wrapping_add((even_slot + p * (odd_slot - even_slot)) as u32);
        // SAFETY: a neighbour inside the window, as tested above; its index is then
        // below `grid.len()` (`around`/`whole` clip the window to the grid).
        unsafe {
            visitor.visit_unread(
                n,
                code,
                #[inline(always)]
                || costs.step_unchecked(gi, i),
                h,
            )
        };
    }
}
