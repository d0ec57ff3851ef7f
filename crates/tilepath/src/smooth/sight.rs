//! The rule a straight segment of a route keeps: what a unit may cross in a line.

use super::Waypoint;
use super::rows::{Fraction, Stepper};
use super::trace::{Meets, trace};
use crate::grid::{EVEN, kinds_anf, open_cells};
use crate::{Cell, Grid, Mobility};

/// Cells [`Sight::clear_run`] reads at a time: whole cells of one load of the packed
/// grid ([`Grid::cells_from`] gives at least 29).
const RUN: i64 = 28;

/// Line of sight for one unit on a grid: which straight segments between
/// [`Waypoint`]s it may walk.
///
/// The unit is its anchor point (a one-cell unit's centre; a bigger unit's top-left
/// cell's centre) moving over the cells where its footprint fits: a segment is legal
/// when it passes through no cell that is not *clear* and does not squeeze between two
/// such cells that touch at a corner, the rule grid steps keep (no corner cutting).
/// For a unit of `size x size` cells this is its footprint sweeping clear: the square
/// spanned by its cells' centres never overlaps a blocked cell. Running along the edge
/// of a blocked cell, or touching its corner, is allowed.
///
/// A cell is clear when the unit can stand on it at the mobility's lowest cost
/// ([`Mobility::min_cost`]): a segment never crosses dearer ground, so a route pulled
/// straight never costs more than the grid path it came from. Cells outside the grid
/// are not clear.
///
/// ```
/// use tilepath::{Cell, Grid, Mobility, Sight, TileKind, Waypoint};
/// let grid = Grid::from_ascii("....\n.#..\n....", |c| {
///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
/// })?;
/// let sight = Sight::new(&grid, Mobility::FLOOR_ONLY, 1);
/// let (a, b) = (Waypoint::centre_of(Cell::new(0, 0)), Waypoint::centre_of(Cell::new(3, 2)));
/// assert!(!sight.sees(a, b)); // through the wall at (1, 1)
/// // Along the wall's top edge and down past its corner: touching is allowed.
/// assert!(sight.sees(a, Waypoint::corner_of(Cell::new(2, 1))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Sight<'a> {
    grid: &'a Grid,
    mobility: Mobility,
    size: u8,
    /// The cost of a clear cell; 0 when the mobility enters nothing.
    cost: u8,
    /// Bit `k` set when kind `k` is clear.
    kinds: u8,
    /// Clear cells of a word of the packed grid ([`open_cells`]).
    anf: [u64; 4],
}

impl<'a> Sight<'a> {
    /// Line of sight for a unit of `mobility` and `size x size` cells on `grid`.
    /// Size 0 sees nothing.
    #[must_use]
    pub fn new(grid: &'a Grid, mobility: Mobility, size: u8) -> Self {
        let cost = if mobility.passable_kinds() == 0 {
            0
        } else {
            mobility.min_cost()
        };
        let kinds = (0..4u8)
            .filter(|&k| cost != 0 && mobility.cost_of_bits(k) == cost)
            .fold(0, |m, k| m | 1 << k);
        Self {
            grid,
            mobility,
            size,
            cost,
            kinds,
            anf: kinds_anf(kinds),
        }
    }

    /// Whether every cell a one-cell unit may stand on is clear: its mobility enters
    /// every kind it enters at one cost. Then so is every cell a grid path for it
    /// steps into, and the corridor of such a path (those cells, and the cells
    /// beside its diagonal steps, which the grid's corner rule keeps passable), all
    /// but its first cell, which [`Grid::can_step`] does not ask to be passable.
    #[inline]
    pub(super) fn passable_is_clear(&self) -> bool {
        self.size == 1 && self.cost != 0 && self.kinds == self.mobility.passable_kinds()
    }

    /// Whether the corridor of a one-cell unit's grid path is clear: each of `cells`,
    /// and at each diagonal step between two of them the two cells beside it. `false`
    /// for a bigger unit (not looked at).
    pub(super) fn corridor_clear(&self, cells: &[Cell]) -> bool {
        if self.size != 1 {
            return false;
        }
        let clear = |c: Cell| self.clear_at(c.x.into(), c.y.into());
        cells.first().is_some_and(|&c| clear(c))
            && cells.windows(2).all(|w| {
                let (c, d) = (w[0], w[1]);
                clear(d)
                    && (c.x == d.x
                        || c.y == d.y
                        || (clear(Cell::new(c.x, d.y)) && clear(Cell::new(d.x, c.y))))
            })
    }

    /// The grid this sight reads.
    #[inline]
    #[must_use]
    pub const fn grid(&self) -> &'a Grid {
        self.grid
    }

    /// The unit's mobility.
    #[inline]
    #[must_use]
    pub const fn mobility(&self) -> Mobility {
        self.mobility
    }

    /// The unit's side in cells.
    #[inline]
    #[must_use]
    pub const fn size(&self) -> u8 {
        self.size
    }

    /// Whether the unit's anchor may cross `cell`: its footprint there is inside the
    /// grid and every cell of it costs the mobility's lowest cost.
    #[inline]
    #[must_use]
    pub fn is_clear(&self, cell: Cell) -> bool {
        if self.size == 1 {
            return self.cost != 0 && self.grid.cost(cell, self.mobility) == self.cost;
        }
        let n = i32::from(self.size);
        self.cost != 0
            && (0..n).all(|dy| {
                (0..n).all(|dx| {
                    matches!(
                        (cell.x.checked_add(dx), cell.y.checked_add(dy)),
                        (Some(x), Some(y)) if self.grid.cost(Cell::new(x, y), self.mobility) == self.cost
                    )
                })
            })
    }

    /// Whether the cell at `(x, y)` half-cell-aligned cell coordinates is clear; cells
    /// beyond `i32` are outside every grid.
    #[inline(always)]
    pub(super) fn clear_at(&self, x: i64, y: i64) -> bool {
        if self.size == 1 {
            // One cell: its kind, read straight from the packed cells. Small enough
            // to inline where it is read, which the footprint's loop is not.
            let (w, h) = (u64::from(self.grid.width()), u64::from(self.grid.height()));
            return (x as u64) < w
                && (y as u64) < h
                && self.kinds >> self.grid.bits_at(y as usize * w as usize + x as usize) & 1 == 1;
        }
        self.footprint_clear_at(x, y)
    }

    /// [`clear_at`](Self::clear_at) for a unit bigger than one cell.
    #[inline(never)]
    fn footprint_clear_at(&self, x: i64, y: i64) -> bool {
        match (i32::try_from(x), i32::try_from(y)) {
            (Ok(x), Ok(y)) => self.is_clear(Cell::new(x, y)),
            _ => false,
        }
    }

    /// Which of the four cells round the corner at `(x2, y2)` half cells (both even)
    /// are clear: cell `(x - 1 + i % 2, y - 1 + i / 2)` at bit `i`, `(x, y)` the
    /// corner in cells. For a one-cell unit the two cells of each row are one read.
    #[inline]
    pub(super) fn around(&self, x2: i64, y2: i64) -> u8 {
        let (x, y) = (x2 >> 1, y2 >> 1);
        let (w, h) = (i64::from(self.grid.width()), i64::from(self.grid.height()));
        if self.size == 1 && x >= 1 && x < w && y >= 1 && y < h {
            // Both cells of a row at once: bits 0 and 2 of the two-cell run from
            // `(x - 1, row)`.
            let row = |r: i64| {
                let two = open_cells(self.anf, self.grid.cells_from((r * w + x - 1) as usize));
                (two & 1) as u8 | ((two >> 1) & 2) as u8
            };
            return row(y - 1) | row(y) << 2;
        }
        (0..4).fold(0, |m, i| {
            m | u8::from(self.clear_at(x - 1 + i64::from(i & 1), y - 1 + i64::from(i >> 1))) << i
        })
    }

    /// Whether a route may turn at `point`: a clear cell's centre, or a corner that
    /// does not pinch (two cells that touch only there both not clear, so nothing
    /// passes through it) and touches a clear cell.
    #[must_use]
    pub fn can_turn_at(&self, point: Waypoint) -> bool {
        let (x2, y2) = point.half_cells();
        match (x2 & 1, y2 & 1) {
            (1, 1) => self.clear_at(x2.div_euclid(2), y2.div_euclid(2)),
            (0, 0) => {
                let clear = self.around(x2, y2);
                // Not both of a diagonal pair closed (0b1001: nw and se; 0b0110: ne
                // and sw), and not all four.
                clear & 0b1001 != 0 && clear & 0b0110 != 0
            }
            _ => false,
        }
    }

    /// Calls `visit(x, i)` for each corner `(x, y)` (in cell units), `x` from `x_lo`
    /// to `x_hi` in order, where exactly one of the four cells around is not clear (a
    /// wall's convex corner, where a shortest route may turn), `i`
    /// the index of that cell in `(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)`.
    /// A one-cell unit's cells are read a word of the packed grid at a time, so that
    /// long stretches of open ground cost little.
    pub(super) fn convex_corners_on(
        &self,
        y: i64,
        (x_lo, x_hi): (i64, i64),
        mut visit: impl FnMut(i64, usize),
    ) {
        if self.size != 1 {
            let column = |x: i64| (!self.clear_at(x, y - 1), !self.clear_at(x, y));
            let mut before = column(x_lo - 1);
            for x in x_lo..=x_hi {
                let here = column(x);
                let walls = [before.0, here.0, before.1, here.1];
                before = here;
                if walls.iter().filter(|&&w| w).count() == 1 {
                    visit(x, walls.iter().position(|&w| w).unwrap_or(0));
                }
            }
            return;
        }
        // `RUN` cells a word from the column before the corners: `RUN - 1` corners.
        let mut xs = x_lo;
        while xs <= x_hi {
            let n = (x_hi - xs + 1).min(RUN - 1);
            let (above, below) = (self.clear_run(xs - 1, y - 1), self.clear_run(xs - 1, y));
            convex_in_runs(above, below, (0, n - 1), |k, i| visit(xs + k, i));
            xs += RUN - 1;
        }
    }

    /// Reads convex corners ([`convex_corners_on`](Self::convex_corners_on)) line
    /// after line within the columns `x_min..=x_max` of corners: for a one-cell unit
    /// and a band of at most `RUN - 1` corners, each row of cells is read once, one
    /// word, and serves the line above it and the line below.
    pub(super) fn corner_lines(&self, (x_min, x_max): (i64, i64)) -> CornerLines<'_, 'a> {
        let base = x_min - 1;
        CornerLines {
            sight: self,
            base: (self.size == 1 && x_max - x_min < RUN - 1).then_some(base),
            inside: base >= 0 && base + RUN <= i64::from(self.grid.width()),
            row: None,
        }
    }

    /// Which of the `RUN` cells of row `y` from column `x` on are clear for a one-cell
    /// unit: cell `x + k` at bit `2k` (odd bits 0, cells outside the grid not clear).
    #[inline]
    fn clear_run(&self, x: i64, y: i64) -> u64 {
        let (w, h) = (i64::from(self.grid.width()), i64::from(self.grid.height()));
        if y < 0 || y >= h || x >= w || x <= -RUN {
            return 0;
        }
        let start = x.max(0);
        let clear = open_cells(self.anf, self.grid.cells_from((y * w + start) as usize));
        let cells = (w - start).min(RUN) as u32;
        let bits = (clear & EVEN & ((1u64 << (2 * cells)) - 1)) << (2 * (start - x) as u32);
        bits & ((1u64 << (2 * RUN)) - 1)
    }

    /// [`clear_run`](Self::clear_run) where the run's `RUN` columns from `x` on are
    /// all inside the grid (`0 <= x`, `x + RUN <= width`): no edge to mask.
    #[inline]
    fn clear_run_inside(&self, x: i64, y: i64) -> u64 {
        let (w, h) = (u64::from(self.grid.width()), u64::from(self.grid.height()));
        if (y as u64) >= h {
            return 0;
        }
        let clear = open_cells(
            self.anf,
            self.grid.cells_from((y as u64 * w + x as u64) as usize),
        );
        clear & EVEN & ((1u64 << (2 * RUN)) - 1)
    }

    /// Whether the unit may walk the straight segment from `a` to `b` (in either
    /// direction): the rule of [`Sight`]. `a == b` is seen. Reads the cells the
    /// segment crosses: for a one-cell unit, a slanting segment's a row of them at a
    /// time and a segment along a row's all at once, a word of the packed grid at a
    /// time; otherwise cell by cell.
    #[must_use]
    pub fn sees(&self, a: Waypoint, b: Waypoint) -> bool {
        self.sees_counting(a, b, &mut 0)
    }

    /// [`sees`](Self::sees), adding to `work` the cells (and corners) it read: the
    /// measure of its cost that [`Smoother::smooth`](super::Smoother::smooth) reports.
    pub(super) fn sees_counting(&self, a: Waypoint, b: Waypoint, work: &mut u64) -> bool {
        let ((ax, ay), (bx, by)) = (a.half_cells(), b.half_cells());
        let (dx, dy) = (bx - ax, by - ay);
        if dx == 0 && dy == 0 {
            return true;
        }
        if dy == 0 || dx == 0 {
            // At most the cells on both sides of the segment's length.
            *work += (dx.unsigned_abs() + dy.unsigned_abs()).div_ceil(2) * 2;
            return if dy == 0 {
                self.sees_along(ax, bx, ay, false)
            } else {
                self.sees_along(ay, by, ax, true)
            };
        }
        if self.size == 1 {
            return self.sees_by_rows((ax, ay), (bx, by), work);
        }
        trace((ax, ay), (bx, by), |m| {
            *work += 1;
            match m {
                Meets::Cell(x, y) => self.clear_at(x, y),
                // Diagonally into the next cell, between two others that must not both
                // be closed.
                Meets::Corner { beside: [p, q] } => {
                    self.clear_at(p.0, p.1) || self.clear_at(q.0, q.1)
                }
            }
        })
    }

    /// [`sees`](Self::sees) for a one-cell unit and a segment moving along both axes,
    /// row by row: the cells it crosses in a row are read a word of the packed grid at
    /// a time, and where it crosses the line between two rows exactly at a corner,
    /// the two cells beside it must not both be closed. Exact integer arithmetic, the
    /// same cells and corners as [`trace`].
    fn sees_by_rows(&self, a: (i64, i64), b: (i64, i64), work: &mut u64) -> bool {
        // Down the rows.
        let (a, b) = if a.1 <= b.1 { (a, b) } else { (b, a) };
        // An end outside the grid's rectangle: the segment next to it is outside. Inside
        // it, the products below stay far within `i64` (sides of at most 2^16 cells).
        if !self.on_grid(a) || !self.on_grid(b) {
            return false;
        }
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        // Where the segment is at a height, in cells, over `den`: moving down a row
        // adds `2 dx`, half a row `dx` (the one division).
        let den = 2 * dy;
        let (first, last) = (a.1.div_euclid(2), (b.1 + 1).div_euclid(2) - 1);
        let half = Fraction::new(dx, den);
        let step = half.plus(half, den);
        let mut top = Fraction::halves(a.0, den);
        // The line below the first row: a whole row down from `a` on a line, half a
        // row from a row's middle.
        let mut line = Stepper::new(
            top.plus(if a.1 & 1 == 0 { step } else { half }, den),
            step,
            den,
        );
        let end = Fraction::halves(b.0, den);
        let width = i64::from(self.grid.width());
        // The index of the row's first cell, and the cells read.
        let (mut row, mut read) = (first * width, 0);
        let mut seen = true;
        for y in first..=last {
            let bottom = if y == last { end } else { line.at };
            let (lo, hi) = if dx > 0 { (top, bottom) } else { (bottom, top) };
            // The cells whose open span meets the open stretch between `lo` and `hi`.
            let (x_lo, cells) = (lo.floor(), hi.ceil() - lo.floor());
            read += cells;
            // The line above this row, inside the segment: through a corner there?
            let pinched = y > first && top.rest == 0 && {
                let k = top.whole;
                let (p, q) = if dx > 0 {
                    ((k, y - 1), (k - 1, y))
                } else {
                    ((k - 1, y - 1), (k, y))
                };
                !self.clear_at(p.0, p.1) && !self.clear_at(q.0, q.1)
            };
            if pinched || !self.cells_clear((row + x_lo) as usize, cells) {
                seen = false;
                break;
            }
            top = line.at;
            line.advance();
            row += width;
        }
        *work += read.unsigned_abs();
        seen
    }

    /// Whether the point `(x2, y2)` (half cells) lies in the grid's rectangle, its
    /// edges included: only there can a route turn, and the exact geometry of
    /// routes assumes coordinates of that size.
    #[inline]
    pub(super) fn on_grid(&self, (x2, y2): (i64, i64)) -> bool {
        (0..=2 * i64::from(self.grid.width())).contains(&x2)
            && (0..=2 * i64::from(self.grid.height())).contains(&y2)
    }

    /// Whether the `cells` cells from index `i` on (in one row of the grid) are all
    /// clear for a one-cell unit.
    #[inline]
    fn cells_clear(&self, mut i: usize, mut cells: i64) -> bool {
        while cells > 0 {
            let n = cells.min(RUN) as u32;
            let want = EVEN & ((1u64 << (2 * n)) - 1);
            if open_cells(self.anf, self.grid.cells_from(i)) & want != want {
                return false;
            }
            i += RUN as usize;
            cells -= RUN;
        }
        true
    }

    /// [`sees`](Self::sees) for a segment parallel to an axis: from `from` to `to`
    /// along that axis, at `across` on the other (`vertical`: `from`/`to` are rows and
    /// `across` a column), all in half cells.
    fn sees_along(&self, from: i64, to: i64, across: i64, vertical: bool) -> bool {
        let clear = |along: i64, side: i64| {
            if vertical {
                self.clear_at(side, along)
            } else {
                self.clear_at(along, side)
            }
        };
        let (lo, hi) = (from.min(to), from.max(to));
        // Cells whose span meets the open interval (lo, hi).
        let (first, last) = (lo.div_euclid(2), (hi - 1).div_euclid(2));
        if !vertical && self.size == 1 {
            return self.row_sees((first, last), across);
        }
        if across & 1 == 1 {
            // Through the middle of a row (column) of cells: each must be clear.
            let side = across.div_euclid(2);
            return (first..=last).all(|c| clear(c, side));
        }
        // Along the line between two rows (columns): one side of each stretch must be
        // clear, and no corner passed on the way may pinch.
        let (a, b) = (across / 2 - 1, across / 2);
        (first..=last).all(|c| clear(c, a) || clear(c, b))
            && (first + 1..=last).all(|c| {
                let pinched =
                    (!clear(c - 1, a) && !clear(c, b)) || (!clear(c, a) && !clear(c - 1, b));
                !pinched
            })
    }

    /// [`sees_along`](Self::sees_along) for a one-cell unit and a horizontal
    /// segment over the cells `first..=last` at `across` (half cells), read a word of
    /// the packed grid at a time: through the middle of a row, every cell clear; along
    /// the line between two rows, one of the two cells at every column clear, and no
    /// corner passed (between two columns) pinching.
    fn row_sees(&self, (first, last): (i64, i64), across: i64) -> bool {
        let mut x = first;
        if across & 1 == 1 {
            let y = across.div_euclid(2);
            while x <= last {
                let n = (last - x + 1).min(RUN);
                let want = EVEN & ((1u64 << (2 * n)) - 1);
                if self.clear_run(x, y) & want != want {
                    return false;
                }
                x += n;
            }
            return true;
        }
        let (a, b) = (across / 2 - 1, across / 2);
        while x <= last {
            // From the column before: cell `x - 1 + k` at bit `2k`.
            let n = (last - x + 1).min(RUN - 1);
            let (above, below) = (self.clear_run(x - 1, a), self.clear_run(x - 1, b));
            let cells = EVEN & ((1u64 << (2 * n + 2)) - 1) & !1;
            if (above | below) & cells != cells {
                return false;
            }
            // A corner between columns `x - 1 + k - 1` and `x - 1 + k`, past the first
            // column: the cells across it on both diagonals not both clear.
            let (no_above, no_below) = (!above & EVEN, !below & EVEN);
            let pinched = ((no_above << 2) & no_below) | (no_above & (no_below << 2));
            let corners = if x == first { cells & !0b111 } else { cells };
            if pinched & corners != 0 {
                return false;
            }
            x += n;
        }
        true
    }
}

/// Convex corners line after line in a band of columns ([`Sight::corner_lines`]).
pub(super) struct CornerLines<'s, 'a> {
    sight: &'s Sight<'a>,
    /// The column of the first cell of the rows read, where the band is narrow
    /// enough to read each row once.
    base: Option<i64>,
    /// Whether the rows read lie inside the grid's columns.
    inside: bool,
    /// The last row read (below the last line), and its cells.
    row: Option<(i64, u64)>,
}

impl CornerLines<'_, '_> {
    /// [`Sight::convex_corners_on`] for line `y` and corners `x_lo..=x_hi` of the
    /// band.
    pub(super) fn on(
        &mut self,
        y: i64,
        (x_lo, x_hi): (i64, i64),
        mut visit: impl FnMut(i64, usize),
    ) {
        let Some(base) = self.base else {
            self.sight.convex_corners_on(y, (x_lo, x_hi), visit);
            return;
        };
        let read = |y: i64| {
            if self.inside {
                self.sight.clear_run_inside(base, y)
            } else {
                self.sight.clear_run(base, y)
            }
        };
        let above = match self.row {
            Some((r, cells)) if r == y - 1 => cells,
            _ => read(y - 1),
        };
        let below = read(y);
        self.row = Some((y, below));
        // Corner `base + 1 + k` lies between cells `base + k` and `base + k + 1`.
        convex_in_runs(above, below, (x_lo - base - 1, x_hi - base - 1), |k, i| {
            visit(base + 1 + k, i);
        });
    }
}

/// Calls `visit(k, i)` for each `k` in `k_lo..=k_hi` (within `0..RUN - 1`) where the
/// corner between cells `k` and `k + 1` of two rows of a run (`above` and `below`,
/// [`Sight::clear_run`]'s bits) has exactly one cell around it not clear, `i` that
/// cell's index in `(k, above), (k + 1, above), (k, below), (k + 1, below)`.
#[inline]
fn convex_in_runs(
    above: u64,
    below: u64,
    (k_lo, k_hi): (i64, i64),
    mut visit: impl FnMut(i64, usize),
) {
    if k_lo > k_hi {
        return;
    }
    let (na, nb) = (!above, !below);
    // Bit 2k of each: the cell before and after corner `k`, above and below it.
    let walls = [na, na >> 2, nb, nb >> 2];
    let [w0, w1, w2, w3] = walls;
    let two = (w0 & w1) | (w0 & w2) | (w0 & w3) | (w1 & w2) | (w1 & w3) | (w2 & w3);
    let span = ((1u64 << (2 * (k_hi + 1))) - 1) & !((1u64 << (2 * k_lo)) - 1);
    let mut one = (w0 | w1 | w2 | w3) & !two & EVEN & span;
    while one != 0 {
        let bit = one.trailing_zeros();
        one &= one - 1;
        let i = walls.iter().position(|w| w >> bit & 1 == 1).unwrap_or(0);
        visit(i64::from(bit / 2), i);
    }
}
