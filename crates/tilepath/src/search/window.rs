//! Where a search may go, and how its cells map to scratch slots.

use crate::footprint::EnterCost;
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

    /// The grid index of local cell `(lx, ly)` and the costs of entering its right, up
    /// (`+y`), left and down neighbours (0 if closed or outside the window).
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
        let cost = |i: usize| unsafe { costs.at_unchecked(i) };
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
        let cost = |i: usize| unsafe { costs.at_unchecked(i) };
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

impl Window {
    /// Calls `visitor.visit_unread` for every neighbour of local cell `(lx, ly)` (slot
    /// `slot`) inside the window reached by its 6 hex steps; no corner rule. The way
    /// back is among them: the visitor turns it away (see
    /// [`Neighborhood::visit_neighbours`](crate::topology::Neighborhood)), with a test it
    /// makes on every neighbour anyway, before reading its cost. The hex lattice's body of
    /// [`Neighborhood::visit_neighbours`](crate::topology::Neighborhood): `codes` is a
    /// layout's two patterns from [`HEX_CODES`](crate::topology::HEX_CODES) (even,
    /// odd), `odd` the cell's, `(dq, dr)` its axial offset from the goal and `d` its
    /// hex distance to it.
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
        codes: &[[u8; 6]; 2],
        odd: bool,
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
        if interior {
            step!(0, true);
            step!(1, true);
            step!(2, true);
            step!(3, true);
            step!(4, true);
            step!(5, true);
        } else {
            step!(0, false);
            step!(1, false);
            step!(2, false);
            step!(3, false);
            step!(4, false);
            step!(5, false);
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
                || costs.at_unchecked(i),
                h,
            )
        };
    }
}

/// A row length with the multiplier that divides by it: a whole-grid search turns
/// slots into rows once an expansion, where a hardware division would cost more than
/// the rest of the step (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019: for `n < 2^32` and `2 <= len < 2^32`,
/// `n / len = (ceil(2^64 / len) * n) >> 64`).
#[derive(Clone, Copy, Debug)]
struct RowLength {
    len: u32,
    inverse: u64,
}

impl RowLength {
    const fn new(len: u32) -> Self {
        assert!(len >= 2, "row length below 2");
        Self {
            len,
            inverse: u64::MAX / len as u64 + 1,
        }
    }

    #[inline(always)]
    const fn divide(self, n: u32) -> u32 {
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
