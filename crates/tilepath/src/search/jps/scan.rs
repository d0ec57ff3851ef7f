//! The jumps: scans along a row, a column or a diagonal (and, 4-connected, a
//! vertical line) to the next jump point, a word of bit rows at a time, by the rules
//! stated in `jump.rs`; and, for tracking searches, the nearest cell they cross.

use super::jump::{Search, code_towards};
use super::rows::{Rows, Source};
use crate::cost::OCTILE_DIAGONAL;
use crate::derived::{DIAGONAL_CAP, EAST, NORTH, SOUTH, WEST, diagonal_index, jump_distance};
use crate::queue::{RadixHeap, StampedWords};
use crate::search::nodes::{CLOSED, node_g, open_node};

/// No jump point found (a coordinate no scan reaches).
const NO_JUMP: i64 = i64::MIN;

/// Cells a scan word advances by: a [`CHUNK`](super::rows::CHUNK) but the cell
/// behind.
const STEP: i64 = CHUNK_BITS - 1;
/// Cells `1..=STEP` of a right scan's word (based one cell behind the first candidate).
const RIGHT_CANDIDATES: u64 = ((1 << (STEP + 1)) - 1) & !1;
/// Cells `0..STEP` of a left scan's word (based `STEP - 1` cells before the first
/// candidate).
const LEFT_CANDIDATES: u64 = (1 << STEP) - 1;
/// Diagonal steps whose column scans are swept together: with a column on each side,
/// they fill a word's [`CHUNK`](super::rows::CHUNK) cells.
const RUN: i64 = CHUNK_BITS - 2;
/// Cells in a [`Rows::bits`] word.
const CHUNK_BITS: i64 = super::rows::CHUNK;

/// Scans a line (a row, or a column kept by column) from position `from` in direction
/// `d` (±1) to its first jump point: a cell with a forced neighbour on a side line (open
/// where the side line's cell one step back is blocked), or the goal at position
/// `goal` ([`NO_JUMP`] if the goal is not on the line). `words(base)` gives the
/// [`CHUNK`](super::rows::CHUNK) cells from position `base` of the two side lines and
/// the line (bit `j` for position `base + j`, blocked off the area).
///
/// Returns whether a jump point was found, its position (else the last open cell's),
/// and the first words read: a right or down scan reads them from `from`, a left or up
/// one from `from - STEP`.
#[inline(always)]
fn scan_line(
    from: i64,
    d: i64,
    goal: i64,
    mut words: impl FnMut(i64) -> (u64, u64, u64),
) -> (bool, i64, (u64, u64, u64)) {
    let mut c = from + d;
    let mut first = None;
    loop {
        if d > 0 {
            // Cell `base + j` at bit j; candidates j = 1..=STEP, j = 0 is behind.
            let base = c - 1;
            let (a, cur, b) = words(base);
            first.get_or_insert((a, cur, b));
            let forced = (a & !(a << 1)) | (b & !(b << 1));
            let mut stops = (!cur | forced) & RIGHT_CANDIDATES;
            let j = goal.wrapping_sub(base);
            if (1..=STEP).contains(&j) {
                stops |= 1 << j;
            }
            if stops != 0 {
                let j = i64::from(stops.trailing_zeros());
                let cell = base + j;
                let found = cur >> j & 1 != 0;
                let first = first.unwrap_or_default();
                // A wall ends the line at the open cell before it. (Two returns, each
                // with its direction's constant: fewer instructions than one with `d`.)
                return if found {
                    (true, cell, first)
                } else {
                    (false, cell - 1, first)
                };
            }
            c += STEP;
        } else {
            // Cell `base + j` at bit j; candidates j = 0..STEP, j = STEP is behind.
            let base = c - (STEP - 1);
            let (a, cur, b) = words(base);
            first.get_or_insert((a, cur, b));
            let forced = (a & !(a >> 1)) | (b & !(b >> 1));
            let mut stops = (!cur | forced) & LEFT_CANDIDATES;
            let j = goal.wrapping_sub(base);
            if (0..STEP).contains(&j) {
                stops |= 1 << j;
            }
            if stops != 0 {
                let j = i64::from(63 - stops.leading_zeros());
                let cell = base + j;
                let found = cur >> j & 1 != 0;
                let first = first.unwrap_or_default();
                // A wall ends the line at the open cell before it. (Two returns, each
                // with its direction's constant: fewer instructions than one with `d`.)
                return if found {
                    (true, cell, first)
                } else {
                    (false, cell + 1, first)
                };
            }
            c -= STEP;
        }
    }
}

/// A line's stop read from a jump distance: from position `from` in direction `d`
/// (±1), distance `v` ([`jump_distance`]), the goal at position `goal` ([`NO_JUMP`] if
/// not on the line). Returns what [`scan_line`] does: whether a jump point (or the goal)
/// was found, and its position, else the last open cell's.
#[inline(always)]
fn stop_at(from: i64, d: i64, v: i64, goal: i64) -> (bool, i64) {
    let reach = v.abs();
    if goal != NO_JUMP {
        let k = (goal - from) * d;
        if 0 < k && k <= reach {
            return (true, goal);
        }
    }
    (v > 0, from + d * reach)
}

impl<S: Source, const EIGHT: bool, const TRACK: bool> Search<'_, S, EIGHT, TRACK> {
    /// A tracking search crossed the cells between `x + dx` and `last` of row `y`
    /// (none if `last == x`) on a line from `(x, y)` whose g is `g`.
    #[inline(always)]
    pub(super) fn crossed_row(&mut self, x: i64, y: i64, dx: i64, last: i64, g: u64) {
        if TRACK && last != x {
            let (a, b) = if dx > 0 { (x + 1, last) } else { (last, x - 1) };
            let near = self.goal.0.clamp(a, b);
            let g = g + near.abs_diff(x) * Self::STRAIGHT;
            self.crossed((x, y), (near, y), g);
        }
    }

    /// As [`crossed_row`](Self::crossed_row), for column `x`.
    #[inline(always)]
    pub(super) fn crossed_column(&mut self, x: i64, y: i64, dy: i64, last: i64, g: u64) {
        if TRACK && last != y {
            let (a, b) = if dy > 0 { (y + 1, last) } else { (last, y - 1) };
            let near = self.goal.1.clamp(a, b);
            let g = g + near.abs_diff(y) * Self::STRAIGHT;
            self.crossed((x, y), (x, near), g);
        }
    }

    /// Scans row `y` from `(x, y)` in direction `dx` (±1), [`CHUNK`](super::rows::CHUNK)
    /// cells a word: the column of the first jump point (a cell with a forced
    /// neighbour above or below, or the goal), or `None` at a wall. `g` is the line's
    /// g at `x` (for tracking).
    #[inline(always)]
    pub(super) fn jump_row(&mut self, x: i64, y: i64, dx: i64, g: u64) -> Option<i64> {
        self.jump_row_legal(x, y, dx, 0, g).0
    }

    /// [`jump_row`](Self::jump_row), and whether the diagonal step `(dx, dy)` from
    /// `(x, y)` is legal (`dy` ±1; with `dy == 0`, false), read from the scan's first
    /// words at no extra load.
    #[inline(always)]
    pub(super) fn jump_row_legal(
        &mut self,
        x: i64,
        y: i64,
        dx: i64,
        dy: i64,
        g: u64,
    ) -> (Option<i64>, bool) {
        let r = self.rows;
        let goal = if y == self.target.1 {
            self.target.0
        } else {
            NO_JUMP
        };
        if Rows::<S>::JUMPS {
            let [record, _] = r.record(x, y);
            let v = jump_distance(record, if dx > 0 { EAST } else { WEST });
            let (found, last) = stop_at(x, dx, v, goal);
            let vertical = jump_distance(record, if dy > 0 { SOUTH } else { NORTH });
            let legal = dy != 0 && v != 0 && vertical != 0 && r.is_open(x + dx, y + dy);
            self.crossed_row(x, y, dx, last, g);
            return (found.then_some(last), legal);
        }
        // Whether rows `y - 1..=y + 1` all lie inside the area: then only the ends of
        // the row need clipping.
        let inner = r.inner_row(y);
        let (found, last, (up, cur, down)) = scan_line(x, dx, goal, |base| r.bits3(base, y, inner));
        let next = if dy > 0 { down } else { up };
        let legal = dy != 0
            && if dx > 0 {
                // `x` at bit 0, `x + 1` at bit 1.
                cur & 0b10 != 0 && next & 0b11 == 0b11
            } else {
                // `x` at bit STEP, `x - 1` at bit STEP - 1.
                const BOTH: u64 = 0b11 << (STEP - 1);
                cur & 1 << (STEP - 1) != 0 && next & BOTH == BOTH
            };
        self.crossed_row(x, y, dx, last, g);
        (found.then_some(last), legal)
    }

    /// Scans column `x` from `(x, y)` in direction `dy` (±1), a cell at a time (a word
    /// at a time where the source keeps its columns, [`Rows::BY_COLUMN`]): the
    /// row of the first jump point (a forced neighbour left or right, or the goal), or
    /// `None` at a wall.
    #[inline(always)]
    pub(super) fn jump_column(&mut self, x: i64, y: i64, dy: i64, g: u64) -> Option<i64> {
        let r = self.rows;
        if Rows::<S>::JUMPS {
            let goal = if x == self.target.0 {
                self.target.1
            } else {
                NO_JUMP
            };
            let v = jump_distance(r.record(x, y)[0], if dy > 0 { SOUTH } else { NORTH });
            let (found, last) = stop_at(y, dy, v, goal);
            self.crossed_column(x, y, dy, last, g);
            return found.then_some(last);
        }
        if Rows::<S>::BY_COLUMN {
            // A word of the column (and its two neighbours) at a time.
            let goal = if x == self.target.0 {
                self.target.1
            } else {
                NO_JUMP
            };
            let (found, last, _) = scan_line(y, dy, goal, |base| r.bits3_down(base, x));
            self.crossed_column(x, y, dy, last, g);
            return found.then_some(last);
        }
        // Cells x - 1, x, x + 1 at bits 0, 1, 2.
        let mut behind = r.three(x, y);
        let mut c = y + dy;
        let (found, last) = loop {
            let row = r.three(x, c);
            if row & 0b10 == 0 {
                break (false, c - dy);
            }
            if (x, c) == self.target || row & !behind & 0b101 != 0 {
                break (true, c);
            }
            behind = row;
            c += dy;
        };
        self.crossed_column(x, y, dy, last, g);
        found.then_some(last)
    }

    /// 8-connected: scans the diagonal from jump point `slot` at `(x, y)` (whose g is
    /// `g`) in direction `(dx, dy)` and offers what it finds to the open list.
    ///
    /// A diagonal cell from which a straight scan (`dx` along its row, `dy` along its
    /// column) finds a jump point is a jump point itself, but it is not queued: the
    /// scan expands it on the spot, as it would be expanded later (its successors are
    /// those two straight scans and the diagonal onwards), so the jump points its
    /// scans found are offered with it as their parent, and the diagonal goes on.
    /// Only its slot is written, so that routes can be followed back through it. As
    /// when it is queued, a diagonal cell reached no cheaper than before ends the scan.
    /// This saves the queue, the node visits and the repeated straight scans of most
    /// diagonal jump points (the intermediate pruning of jump point search's later
    /// forms).
    ///
    /// The diagonal goes in runs of up to [`RUN`] steps. A run's row scans go one by
    /// one; its column scans go together, a row of all of them per word (see
    /// [`sweep_columns`](Self::sweep_columns)), so an open area costs a word per row
    /// and run instead of a read per cell.
    #[inline(always)]
    pub(super) fn jump_diagonal(
        &mut self,
        nodes: &mut StampedWords,
        open: &mut RadixHeap<u32>,
        (x, y): (i64, i64),
        (dx, dy): (i64, i64),
        g: u64,
    ) {
        if Rows::<S>::JUMPS {
            if TRACK {
                self.jump_diagonal_by_steps(nodes, open, (x, y), (dx, dy), g);
            } else {
                self.jump_diagonal_by_distances(nodes, open, (x, y), (dx, dy), g);
            }
            return;
        }
        let (mut cx, mut cy, mut cg) = (x, y, g);
        let diagonal = code_towards((0, 0), (dx, dy));
        // Whether the next diagonal step is legal: read here for the first, then from
        // the first words of each row scan.
        let mut legal = self.rows.diagonal_step(x, y, dx, dy);
        if !legal {
            // Common in corridors: no need to set up the run's scratch.
            return;
        }
        // What the row and column scans of the run's cells found, by step.
        let mut row_jp = [NO_JUMP; RUN as usize + 1];
        let mut column_jp = [NO_JUMP; RUN as usize + 1];
        loop {
            let mut steps = 0;
            let mut goal_at = None;
            while steps < RUN && legal {
                steps += 1;
                let (nx, ny) = (cx + dx * steps, cy + dy * steps);
                let ng = cg + steps as u64 * OCTILE_DIAGONAL;
                if TRACK {
                    self.crossed((nx, ny), (nx, ny), ng);
                }
                if (nx, ny) == self.target {
                    goal_at = Some(steps);
                    break;
                }
                let (found, next) = self.jump_row_legal(nx, ny, dx, dy, ng);
                row_jp[steps as usize] = found.unwrap_or(NO_JUMP);
                legal = next;
            }
            // The cells before the goal, if the diagonal meets it.
            let n = goal_at.map_or(steps, |k| k - 1);
            self.sweep_columns(cx, cy, dx, dy, cg, n, &mut column_jp);
            for k in 1..=n {
                let (jx, jy) = (row_jp[k as usize], column_jp[k as usize]);
                if jx == NO_JUMP && jy == NO_JUMP {
                    continue;
                }
                let (kx, ky) = (cx + dx * k, cy + dy * k);
                let kg = cg + k as u64 * OCTILE_DIAGONAL;
                let found = ((jx != NO_JUMP).then_some(jx), (jy != NO_JUMP).then_some(jy));
                if !self.diagonal_jump_point(nodes, open, (kx, ky), kg, diagonal, found) {
                    return;
                }
            }
            if let Some(k) = goal_at {
                let (kx, ky) = (cx + dx * k, cy + dy * k);
                self.offer(
                    nodes,
                    open,
                    (kx, ky),
                    cg + k as u64 * OCTILE_DIAGONAL,
                    diagonal,
                );
                return;
            }
            if steps < RUN {
                return;
            }
            cx += dx * RUN;
            cy += dy * RUN;
            cg += RUN as u64 * OCTILE_DIAGONAL;
        }
    }

    /// [`jump_diagonal`](Self::jump_diagonal) where the source keeps jump distances
    /// ([`Rows::JUMPS`]) and the search does not track: from diagonal jump point to
    /// diagonal jump point by the diagonal distances, stopping on the way only where
    /// the goal's row or column crosses the diagonal (a straight scan from there may
    /// meet the goal). The cells between are neither jump points nor see the goal, so
    /// they need no visit.
    #[inline(always)]
    fn jump_diagonal_by_distances(
        &mut self,
        nodes: &mut StampedWords,
        open: &mut RadixHeap<u32>,
        (x, y): (i64, i64),
        (dx, dy): (i64, i64),
        g: u64,
    ) {
        let (diagonal, slant) = (code_towards((0, 0), (dx, dy)), diagonal_index(dx, dy));
        let r = self.rows;
        let (tx, ty) = self.target;
        let (mut cx, mut cy, mut cg) = (x, y, g);
        let mut record = r.record(x, y);
        loop {
            let v = jump_distance(record[1], slant);
            let reach = v.abs();
            // The next cell to visit: the diagonal jump point (or where a capped
            // distance reads on), or the goal's row or column if the diagonal crosses
            // it first.
            let mut k = if v > 0 || v == -DIAGONAL_CAP {
                reach
            } else {
                i64::MAX
            };
            for crossing in [(ty - cy) * dy, (tx - cx) * dx] {
                if 0 < crossing && crossing <= reach && crossing < k {
                    k = crossing;
                }
            }
            if k == i64::MAX {
                return;
            }
            (cx, cy, cg) = (cx + dx * k, cy + dy * k, cg + k as u64 * OCTILE_DIAGONAL);
            if (cx, cy) == self.target {
                self.offer(nodes, open, (cx, cy), cg, diagonal);
                return;
            }
            record = r.record(cx, cy);
            let (row, column) = self.straight_stops(record[0], (cx, cy), (dx, dy), cg);
            if !self.diagonal_jump_point(nodes, open, (cx, cy), cg, diagonal, (row, column)) {
                return;
            }
        }
    }

    /// [`jump_diagonal`](Self::jump_diagonal) where the source keeps jump distances
    /// ([`Rows::JUMPS`]) and the search tracks the cells its scans cross: a step at a
    /// time, each reading its cell's row and column distances (one load) where the
    /// scans would be.
    #[inline(always)]
    fn jump_diagonal_by_steps(
        &mut self,
        nodes: &mut StampedWords,
        open: &mut RadixHeap<u32>,
        (x, y): (i64, i64),
        (dx, dy): (i64, i64),
        g: u64,
    ) {
        let diagonal = code_towards((0, 0), (dx, dy));
        let (along, down) = (
            if dx > 0 { EAST } else { WEST },
            if dy > 0 { SOUTH } else { NORTH },
        );
        let r = self.rows;
        let (mut cx, mut cy, mut cg) = (x, y, g);
        let mut record = r.record(x, y)[0];
        loop {
            // Legal: both cells beside the corner (a distance of 0 is a wall next to
            // the cell) and the cell it enters are open.
            if jump_distance(record, along) == 0
                || jump_distance(record, down) == 0
                || !r.is_open(cx + dx, cy + dy)
            {
                return;
            }
            (cx, cy, cg) = (cx + dx, cy + dy, cg + OCTILE_DIAGONAL);
            if TRACK {
                self.crossed((cx, cy), (cx, cy), cg);
            }
            if (cx, cy) == self.target {
                self.offer(nodes, open, (cx, cy), cg, diagonal);
                return;
            }
            record = r.record(cx, cy)[0];
            let stops = self.straight_stops(record, (cx, cy), (dx, dy), cg);
            if !self.diagonal_jump_point(nodes, open, (cx, cy), cg, diagonal, stops) {
                return;
            }
        }
    }

    /// Where the row scan (along `dx`) and the column scan (along `dy`) from diagonal
    /// cell `(x, y)`, reached at `g`, stop, read from its straight distances `record`:
    /// the jump point (or goal) each finds, if any.
    #[inline(always)]
    fn straight_stops(
        &mut self,
        record: u64,
        (x, y): (i64, i64),
        (dx, dy): (i64, i64),
        g: u64,
    ) -> (Option<i64>, Option<i64>) {
        let (tx, ty) = self.target;
        let along = jump_distance(record, if dx > 0 { EAST } else { WEST });
        let (row_found, jx) = stop_at(x, dx, along, if y == ty { tx } else { NO_JUMP });
        self.crossed_row(x, y, dx, jx, g);
        let down = jump_distance(record, if dy > 0 { SOUTH } else { NORTH });
        let (column_found, jy) = stop_at(y, dy, down, if x == tx { ty } else { NO_JUMP });
        self.crossed_column(x, y, dy, jy, g);
        (row_found.then_some(jx), column_found.then_some(jy))
    }

    /// Diagonal cell `(x, y)`, reached at `g` by a diagonal of direction code
    /// `diagonal`, whose row and column scans found `(row, column)`: a diagonal jump
    /// point if either found one, expanded on the spot (see
    /// [`jump_diagonal`](Self::jump_diagonal)). Whether the diagonal goes on: not past
    /// a jump point reached no cheaper than before.
    #[inline(always)]
    fn diagonal_jump_point(
        &mut self,
        nodes: &mut StampedWords,
        open: &mut RadixHeap<u32>,
        (x, y): (i64, i64),
        g: u64,
        diagonal: u8,
        (row, column): (Option<i64>, Option<i64>),
    ) -> bool {
        if row.is_none() && column.is_none() {
            return true;
        }
        let d = self.slots.slot(x, y);
        let node = nodes.get(d as usize);
        if node & CLOSED != 0 || g >= node_g(node) {
            return false;
        }
        nodes.set(d as usize, open_node(g, diagonal));
        if let Some(jx) = row {
            let jg = g + jx.abs_diff(x) * Self::STRAIGHT;
            self.offer(nodes, open, (jx, y), jg, code_towards((x, y), (jx, y)));
        }
        if let Some(jy) = column {
            let jg = g + jy.abs_diff(y) * Self::STRAIGHT;
            self.offer(nodes, open, (x, jy), jg, code_towards((x, y), (x, jy)));
        }
        true
    }

    /// Offers cell `(x, y)` to the open list at `g`, reached by a line in direction code
    /// `dir`, if that improves on what it has.
    #[inline(always)]
    pub(super) fn offer(
        &self,
        nodes: &mut StampedWords,
        open: &mut RadixHeap<u32>,
        (x, y): (i64, i64),
        g: u64,
        dir: u8,
    ) {
        let j = self.slots.slot(x, y);
        let node = nodes.get(j as usize);
        if node & CLOSED != 0 || g >= node_g(node) {
            return;
        }
        nodes.set(j as usize, open_node(g, dir));
        self.queue(open, g + self.estimate(x, y), j);
    }

    /// The column scans (direction `dy`) from the diagonal cells
    /// `(cx + dx * k, cy + dy * k)`, `k = 1..=n` (`n <= RUN`), swept together row by
    /// row: `found[k]` is the row of the jump point column `k` finds (a forced
    /// neighbour left or right, or the goal), or [`NO_JUMP`]. `g` is the g of
    /// `(cx, cy)`.
    ///
    /// Column `k` is bit `j` of a [`Rows::bits`] word based at `base`, its neighbours
    /// at `j - 1` and `j + 1`; the scan of column `k` starts one row past its diagonal
    /// cell, so each row swept takes in one more column.
    #[expect(clippy::too_many_arguments, reason = "the sweep's state, in registers")]
    #[inline(always)]
    pub(super) fn sweep_columns(
        &mut self,
        cx: i64,
        cy: i64,
        dx: i64,
        dy: i64,
        g: u64,
        n: i64,
        found: &mut [i64; RUN as usize + 1],
    ) {
        found[..=n as usize].fill(NO_JUMP);
        if n == 0 {
            return;
        }
        let r = self.rows;
        let base = if dx > 0 { cx } else { cx - (RUN + 1) };
        // Column k's bit, and back.
        let bit = |k: i64| 1u64 << if dx > 0 { k } else { RUN + 1 - k };
        let column_of = |b: u32| {
            let j = i64::from(b);
            if dx > 0 { j } else { RUN + 1 - j }
        };
        let mut alive = 0u64;
        let mut behind = r.bits(base, cy + dy);
        let mut t = 1;
        loop {
            let row = cy + dy * (t + 1);
            if t <= n {
                alive |= bit(t);
            }
            if alive == 0 {
                break;
            }
            let cur = r.bits(base, row);
            let dead = alive & !cur;
            alive &= cur;
            let fresh = cur & !behind;
            let mut stops = alive & ((fresh << 1) | (fresh >> 1));
            if row == self.target.1 {
                let j = self.target.0 - base;
                if (0..CHUNK_BITS).contains(&j) {
                    stops |= alive & (1 << j);
                }
            }
            if TRACK {
                self.crossed_columns(dead, row - dy, cx, cy, dx, dy, g, &column_of);
                self.crossed_columns(stops, row, cx, cy, dx, dy, g, &column_of);
            }
            alive &= !stops;
            while stops != 0 {
                found[column_of(stops.trailing_zeros()) as usize] = row;
                stops &= stops - 1;
            }
            behind = cur;
            t += 1;
        }
    }

    /// A tracking search's column scans of the columns in `ended` (a
    /// [`sweep_columns`](Self::sweep_columns) mask) ended at row `last`.
    #[expect(clippy::too_many_arguments, reason = "the sweep's state, in registers")]
    #[inline(always)]
    pub(super) fn crossed_columns(
        &mut self,
        mut ended: u64,
        last: i64,
        cx: i64,
        cy: i64,
        dx: i64,
        dy: i64,
        g: u64,
        column_of: &impl Fn(u32) -> i64,
    ) {
        while ended != 0 {
            let k = column_of(ended.trailing_zeros());
            ended &= ended - 1;
            let (x, y) = (cx + dx * k, cy + dy * k);
            self.crossed_column(x, y, dy, last, g + k as u64 * OCTILE_DIAGONAL);
        }
    }

    /// 4-connected: scans column `x` from `(x, y)` in direction `dy`: the first cell
    /// that is the goal or whose row scans (left and right) find a jump point, or
    /// `None` at a wall.
    #[inline(always)]
    pub(super) fn jump_vertical(&mut self, x: i64, mut y: i64, dy: i64, mut g: u64) -> Option<i64> {
        loop {
            if !self.rows.is_open(x, y + dy) {
                return None;
            }
            y += dy;
            g += 1;
            if TRACK {
                self.crossed((x, y), (x, y), g);
            }
            if (x, y) == self.target {
                return Some(y);
            }
            let right = self.jump_row(x, y, 1, g).is_some();
            if right && !TRACK {
                return Some(y);
            }
            if self.jump_row(x, y, -1, g).is_some() || right {
                return Some(y);
            }
        }
    }
}
