//! The search proper: A* over jump points, and the jumps (scans) that find them.
//!
//! Movement rule (the one of [`Grid::can_step`](crate::Grid::can_step), applied on
//! passability bits): a step enters an open cell; a diagonal step also needs both
//! cells beside its corner open. Under that rule the canonical paths are, 8-connected,
//! "diagonal steps first, then straight ones" and, 4-connected, "vertical first, then
//! horizontal", with turns only at jump points:
//!
//! - a straight scan stops at a cell with a *forced* neighbour: a side cell that is
//!   open while the side cell one step back is blocked (the way round it leads through
//!   this cell);
//! - a diagonal scan (8-connected), and a vertical one (4-connected), stop at a cell
//!   from which one of its straight sub-scans (horizontal and vertical; left and
//!   right) finds a jump point;
//! - every scan stops at the goal.
//!
//! So every link between two jump points is a straight line in one of the 8 (or 4)
//! directions.

use super::rows::Rows;
use crate::cost::{OCTILE_DIAGONAL, OCTILE_STRAIGHT, octile_units};
use crate::queue::{GenerationMap, RadixHeap};

/// A jump point's scratch: its best known g, whether it was expanded, and the slot of
/// the jump point it is reached from (its own slot for the start). 12 bytes, so that
/// a generation-stamped slot takes 16.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    g_lo: u32,
    /// The high bits of g; bit 31: expanded.
    g_hi: u32,
    pub(super) parent: u32,
}

const CLOSED: u32 = 1 << 31;

impl Node {
    pub(super) const UNSEEN: Node = Node {
        g_lo: u32::MAX,
        g_hi: !CLOSED,
        parent: u32::MAX,
    };

    #[inline(always)]
    const fn g(self) -> u64 {
        ((self.g_hi & !CLOSED) as u64) << 32 | self.g_lo as u64
    }

    #[inline(always)]
    const fn closed(self) -> bool {
        self.g_hi & CLOSED != 0
    }

    #[inline(always)]
    const fn open(g: u64, parent: u32) -> Node {
        debug_assert!(g < 1 << 63);
        Node {
            g_lo: g as u32,
            g_hi: (g >> 32) as u32,
            parent,
        }
    }
}

/// The search area's cells mapped to scratch slots: `(y - oy) * stride + (x - ox)`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slots {
    pub(super) ox: i64,
    pub(super) oy: i64,
    pub(super) stride: i64,
}

impl Slots {
    #[inline(always)]
    pub(super) fn slot(self, x: i64, y: i64) -> u32 {
        ((y - self.oy) * self.stride + (x - self.ox)) as u32
    }

    #[inline(always)]
    pub(super) fn cell(self, slot: u32) -> (i64, i64) {
        let s = i64::from(slot);
        (self.ox + s % self.stride, self.oy + s / self.stride)
    }
}

/// The cell nearest the goal among those the scans crossed (a tracking search):
/// `(distance estimate, g)` is minimal, lexicographically. Its route is the route to
/// jump point `jp`, a straight line to `mid`, a straight line to `end`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Nearest {
    d: u64,
    g: u64,
    pub(super) jp: u32,
    pub(super) mid: (i64, i64),
    pub(super) end: (i64, i64),
}

/// How a search ended.
pub(super) enum Outcome {
    /// The goal's slot was expanded.
    Goal(u32),
    /// The open list ran dry or the expansion limit was reached; the nearest cell a
    /// tracking search crossed.
    Stopped(Nearest),
}

/// One query: `EIGHT` connected or 4, and whether to `TRACK` the nearest crossed cell
/// (for unreachable goals and expansion limits: it costs a little on every scan).
pub(super) struct Search<'a, const EIGHT: bool, const TRACK: bool> {
    pub(super) rows: Rows<'a>,
    pub(super) slots: Slots,
    /// The goal, for the heuristic.
    pub(super) goal: (i64, i64),
    /// The goal if a scan can reach it (open and inside the area), else a cell no
    /// scan meets.
    pub(super) target: (i64, i64),
    pub(super) max_expansions: u32,
    /// The jump point being expanded, for [`Nearest`].
    from: u32,
    nearest: Nearest,
}

/// A cell no scan ever reaches (and no row or column offset from it overflows).
pub(super) const NOWHERE: (i64, i64) = (i64::MIN / 4, i64::MIN / 4);

/// Cells `1..=28` of a right scan's word (based one cell behind the first candidate).
const RIGHT_CANDIDATES: u64 = 0x0155_5555_5555_5554;
/// Cells `0..=27` of a left scan's word (based 27 cells before the first candidate).
const LEFT_CANDIDATES: u64 = 0x0055_5555_5555_5555;
/// Cells a scan word advances by.
const STEP: i64 = 28;
/// Diagonal steps whose column scans are swept together: with a column on each side,
/// they fill a word's [`CHUNK`](super::rows::CHUNK) cells.
const RUN: i64 = 27;
/// Cells in a [`Rows::bits`] word.
const CHUNK_BITS: i64 = super::rows::CHUNK;

impl<'a, const EIGHT: bool, const TRACK: bool> Search<'a, EIGHT, TRACK> {
    /// g of one straight step.
    pub(super) const STRAIGHT: u64 = if EIGHT { OCTILE_STRAIGHT } else { 1 };

    pub(super) fn new(
        rows: Rows<'a>,
        slots: Slots,
        goal: (i64, i64),
        target: (i64, i64),
        max_expansions: u32,
    ) -> Self {
        Self {
            rows,
            slots,
            goal,
            target,
            max_expansions,
            from: 0,
            nearest: Nearest {
                d: u64::MAX,
                g: u64::MAX,
                jp: 0,
                mid: NOWHERE,
                end: NOWHERE,
            },
        }
    }

    /// The distance estimate to the goal: octile (fixed-point units) or Manhattan.
    #[inline(always)]
    fn h(&self, x: i64, y: i64) -> u64 {
        let dx = x.abs_diff(self.goal.0);
        let dy = y.abs_diff(self.goal.1);
        if EIGHT { octile_units(dx, dy) } else { dx + dy }
    }

    /// A tracking search crossed `end` at cost `g`, on a straight line from `mid`.
    #[inline(always)]
    fn crossed(&mut self, mid: (i64, i64), end: (i64, i64), g: u64) {
        let d = self.h(end.0, end.1);
        if (d, g) < (self.nearest.d, self.nearest.g) {
            self.nearest = Nearest {
                d,
                g,
                jp: self.from,
                mid,
                end,
            };
        }
    }

    /// A tracking search crossed the cells between `x + dx` and `last` of row `y`
    /// (none if `last == x`) on a line from `(x, y)` whose g is `g`.
    #[inline(always)]
    fn crossed_row(&mut self, x: i64, y: i64, dx: i64, last: i64, g: u64) {
        if TRACK && last != x {
            let (a, b) = if dx > 0 { (x + 1, last) } else { (last, x - 1) };
            let near = self.goal.0.clamp(a, b);
            let g = g + near.abs_diff(x) * Self::STRAIGHT;
            self.crossed((x, y), (near, y), g);
        }
    }

    /// As [`crossed_row`](Self::crossed_row), for column `x`.
    #[inline(always)]
    fn crossed_column(&mut self, x: i64, y: i64, dy: i64, last: i64, g: u64) {
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
    fn jump_row(&mut self, x: i64, y: i64, dx: i64, g: u64) -> Option<i64> {
        let r = self.rows;
        let goal_row = y == self.target.1;
        let mut c = x + dx;
        let (found, last) = loop {
            if dx > 0 {
                // Cell `base + j` at bit 2j; candidates j = 1..=28, j = 0 is behind.
                let base = c - 1;
                let (up, cur, down) = r.bits3(base, y);
                let forced = (up & !(up << 2)) | (down & !(down << 2));
                let mut stops = (!cur | forced) & RIGHT_CANDIDATES;
                let j = self.target.0.wrapping_sub(base);
                if goal_row && (1..=STEP).contains(&j) {
                    stops |= 1 << (2 * j);
                }
                if stops != 0 {
                    let j = i64::from(stops.trailing_zeros() / 2);
                    let cell = base + j;
                    break if cur >> (2 * j) & 1 == 0 {
                        (false, cell - 1)
                    } else {
                        (true, cell)
                    };
                }
                c += STEP;
            } else {
                // Cell `base + j` at bit 2j; candidates j = 0..=27, j = 28 is behind.
                let base = c - (STEP - 1);
                let (up, cur, down) = r.bits3(base, y);
                let forced = (up & !(up >> 2)) | (down & !(down >> 2));
                let mut stops = (!cur | forced) & LEFT_CANDIDATES;
                let j = self.target.0.wrapping_sub(base);
                if goal_row && (0..STEP).contains(&j) {
                    stops |= 1 << (2 * j);
                }
                if stops != 0 {
                    let j = i64::from((63 - stops.leading_zeros()) / 2);
                    let cell = base + j;
                    break if cur >> (2 * j) & 1 == 0 {
                        (false, cell + 1)
                    } else {
                        (true, cell)
                    };
                }
                c -= STEP;
            }
        };
        self.crossed_row(x, y, dx, last, g);
        found.then_some(last)
    }

    /// Scans column `x` from `(x, y)` in direction `dy` (±1), a cell at a time: the
    /// row of the first jump point (a forced neighbour left or right, or the goal), or
    /// `None` at a wall.
    #[inline(always)]
    fn jump_column(&mut self, x: i64, y: i64, dy: i64, g: u64) -> Option<i64> {
        let r = self.rows;
        // Cells x - 1, x, x + 1 at bits 0, 2, 4.
        let mut behind = r.three(x, y);
        let mut c = y + dy;
        let (found, last) = loop {
            let row = r.three(x, c);
            if row & 0b100 == 0 {
                break (false, c - dy);
            }
            if (x, c) == self.target || row & !behind & 0b1_0001 != 0 {
                break (true, c);
            }
            behind = row;
            c += dy;
        };
        self.crossed_column(x, y, dy, last, g);
        found.then_some(last)
    }

    /// 8-connected: scans the diagonal from `(x, y)` in direction `(dx, dy)`: the first
    /// cell that is the goal or whose straight scans (`dx` along its row, `dy` along its
    /// column) find a jump point, or `None` where the next diagonal step is not legal.
    ///
    /// The diagonal goes in runs of up to [`RUN`] steps. A run's row scans go one by
    /// one, until the first that finds a jump point; its column scans go together, a
    /// row of all of them per word (see [`sweep_columns`](Self::sweep_columns)), so an
    /// open area costs a word per row and run instead of a read per cell.
    #[inline(always)]
    fn jump_diagonal(&mut self, x: i64, y: i64, dx: i64, dy: i64, g: u64) -> Option<(i64, i64)> {
        let r = self.rows;
        let (mut cx, mut cy, mut cg) = (x, y, g);
        loop {
            // The run's legal steps, and the first of them whose cell is the goal or
            // whose row scan stops at a jump point.
            let mut steps = 0;
            let mut stop = None;
            while steps < RUN {
                let (px, py) = (cx + dx * steps, cy + dy * steps);
                if !(r.is_open(px + dx, py)
                    && r.is_open(px, py + dy)
                    && r.is_open(px + dx, py + dy))
                {
                    break;
                }
                steps += 1;
                let (nx, ny) = (px + dx, py + dy);
                let ng = cg + steps as u64 * OCTILE_DIAGONAL;
                if TRACK {
                    self.crossed((nx, ny), (nx, ny), ng);
                }
                if (nx, ny) == self.target || self.jump_row(nx, ny, dx, ng).is_some() {
                    stop = Some(steps);
                    break;
                }
            }
            // Only columns up to the row scans' stop can stop the diagonal sooner.
            let column = self.sweep_columns(cx, cy, dx, dy, cg, steps);
            let first = match (stop, column) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if let Some(k) = first {
                return Some((cx + dx * k, cy + dy * k));
            }
            if steps < RUN {
                return None;
            }
            cx += dx * RUN;
            cy += dy * RUN;
            cg += RUN as u64 * OCTILE_DIAGONAL;
        }
    }

    /// The column scans (direction `dy`) from the diagonal cells `(cx + dx * k, cy + dy
    /// * k)`, `k = 1..=n` (`n <= RUN`), swept together row by row: the smallest `k`
    /// whose scan finds a jump point (a forced neighbour left or right, or the goal).
    /// `g` is the g of `(cx, cy)`.
    ///
    /// Column `k` is bit `2j` of a [`Rows::bits`] word based at `base`, its neighbours
    /// at `j - 1` and `j + 1`; the scan of column `k` starts one row past its diagonal
    /// cell, so each row swept takes in one more column.
    #[inline(always)]
    fn sweep_columns(&mut self, cx: i64, cy: i64, dx: i64, dy: i64, g: u64, n: i64) -> Option<i64> {
        if n == 0 {
            return None;
        }
        let r = self.rows;
        let base = if dx > 0 { cx } else { cx - (RUN + 1) };
        // Column k's bit, and back.
        let bit = |k: i64| 1u64 << (2 * if dx > 0 { k } else { RUN + 1 - k });
        let column_of = |b: u32| {
            let j = i64::from(b / 2);
            if dx > 0 { j } else { RUN + 1 - j }
        };
        // The nearest column of a mask: the lowest bit going right, the highest going left.
        let nearest = |m: u64| {
            column_of(if dx > 0 {
                m.trailing_zeros()
            } else {
                63 - m.leading_zeros()
            })
        };
        // Columns up to `limit` are still of interest (all, until one finds).
        let mut limit = n;
        let mut wanted = (bit(n) << 2) - 1;
        if dx < 0 {
            wanted = !(bit(n) - 1);
        }
        let mut alive = 0u64;
        let mut behind = r.bits(base, cy + dy);
        let mut found = None;
        let mut t = 1;
        loop {
            let row = cy + dy * (t + 1);
            if t <= limit {
                alive |= bit(t);
            }
            if alive == 0 {
                break;
            }
            let cur = r.bits(base, row);
            let dead = alive & !cur;
            alive &= cur;
            let fresh = cur & !behind;
            let mut stops = alive & ((fresh << 2) | (fresh >> 2));
            if row == self.target.1 {
                let j = self.target.0 - base;
                if (0..CHUNK_BITS).contains(&j) {
                    stops |= alive & (1 << (2 * j));
                }
            }
            if TRACK {
                self.crossed_columns(dead, row - dy, cx, cy, dx, dy, g, &column_of);
                self.crossed_columns(stops, row, cx, cy, dx, dy, g, &column_of);
            }
            if stops != 0 {
                let k = nearest(stops);
                found = Some(found.map_or(k, |f: i64| f.min(k)));
                // Farther columns cannot stop the diagonal sooner.
                limit = k - 1;
                wanted &= if dx > 0 {
                    bit(k) - 1
                } else {
                    !((bit(k) << 2) - 1)
                };
                alive &= wanted & !stops;
            }
            behind = cur;
            t += 1;
        }
        found
    }

    /// A tracking search's column scans of the columns in `ended` (a
    /// [`sweep_columns`](Self::sweep_columns) mask) ended at row `last`.
    #[expect(clippy::too_many_arguments, reason = "the sweep's state, in registers")]
    #[inline(always)]
    fn crossed_columns(
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
    fn jump_vertical(&mut self, x: i64, mut y: i64, dy: i64, mut g: u64) -> Option<i64> {
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

    /// Runs the search from `start`; `nodes` and `open` must be empty (reset).
    pub(super) fn run(
        &mut self,
        nodes: &mut GenerationMap<Node>,
        open: &mut RadixHeap<u32>,
        start: (i64, i64),
    ) -> (Outcome, u32) {
        let start_slot = self.slots.slot(start.0, start.1);
        nodes.set(start_slot as usize, Node::open(0, start_slot));
        open.push(self.h(start.0, start.1), start_slot);
        self.from = start_slot;
        if TRACK {
            self.crossed(start, start, 0);
        }
        let target_slot =
            (self.target != NOWHERE).then(|| self.slots.slot(self.target.0, self.target.1));
        let mut expanded = 0u32;
        while let Some((_, slot)) = open.pop() {
            let node = nodes.entry(slot as usize);
            if node.closed() {
                continue;
            }
            node.g_hi |= CLOSED;
            let (g, parent) = (node.g(), node.parent);
            expanded += 1;
            if Some(slot) == target_slot {
                return (Outcome::Goal(slot), expanded);
            }
            if expanded >= self.max_expansions {
                break;
            }
            self.from = slot;
            let (x, y) = self.slots.cell(slot);
            let arrival = (parent != slot).then(|| {
                let (px, py) = self.slots.cell(parent);
                ((x - px).signum(), (y - py).signum())
            });
            let mut dirs = [(0i64, 0i64); 8];
            let n = self.successors(x, y, arrival, &mut dirs);
            if target_slot.is_some()
                && dirs[..n].contains(&self.toward_target(x, y))
                && let Some(direct) = self.direct(x, y, g)
            {
                // The goal's f is this jump point's: it is closed next, nothing else
                // is needed from here.
                let (cx, cy) = direct.corner;
                let corner = self.slots.slot(cx, cy);
                let mut parent = slot;
                if corner != slot && Some(corner) != target_slot {
                    let node = nodes.entry(corner as usize);
                    if direct.corner_g < node.g() {
                        // Not pushed: the goal, at the least f, is closed first.
                        *node = Node::open(direct.corner_g, slot);
                    }
                    parent = corner;
                }
                let goal = target_slot.unwrap_or(slot);
                let node = nodes.entry(goal as usize);
                if direct.goal_g < node.g() {
                    *node = Node::open(direct.goal_g, parent);
                    open.push(direct.goal_g, goal);
                }
                continue;
            }
            for &(dx, dy) in &dirs[..n] {
                let found = if dy == 0 {
                    self.jump_row(x, y, dx, g).map(|jx| (jx, y))
                } else if dx == 0 {
                    if EIGHT {
                        self.jump_column(x, y, dy, g)
                    } else {
                        self.jump_vertical(x, y, dy, g)
                    }
                    .map(|jy| (x, jy))
                } else {
                    self.jump_diagonal(x, y, dx, dy, g)
                };
                let Some((jx, jy)) = found else { continue };
                let steps = jx.abs_diff(x).max(jy.abs_diff(y));
                let ng = g + steps
                    * if dx != 0 && dy != 0 {
                        OCTILE_DIAGONAL
                    } else {
                        Self::STRAIGHT
                    };
                let j = self.slots.slot(jx, jy);
                let node = nodes.entry(j as usize);
                if node.closed() || ng >= node.g() {
                    continue;
                }
                *node = Node::open(ng, slot);
                open.push(ng + self.h(jx, jy), j);
            }
        }
        (Outcome::Stopped(self.nearest), expanded)
    }

    /// The directions to scan from jump point `(x, y)` reached moving `arrival` (`None`
    /// for the start): the natural ones and the forced ones. Returns how many of `out`
    /// it wrote.
    fn successors(
        &self,
        x: i64,
        y: i64,
        arrival: Option<(i64, i64)>,
        out: &mut [(i64, i64); 8],
    ) -> usize {
        let r = &self.rows;
        let mut n = 0;
        let mut add = |d: (i64, i64)| {
            out[n] = d;
            n += 1;
        };
        match arrival {
            None => {
                for d in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                    add(d);
                }
                if EIGHT {
                    for d in [(1, 1), (-1, 1), (-1, -1), (1, -1)] {
                        add(d);
                    }
                }
            }
            Some((dx, 0)) => {
                add((dx, 0));
                for s in [-1, 1] {
                    if r.is_open(x, y + s) && !r.is_open(x - dx, y + s) {
                        add((0, s));
                        if EIGHT {
                            add((dx, s));
                        }
                    }
                }
            }
            Some((0, dy)) => {
                add((0, dy));
                if EIGHT {
                    for s in [-1, 1] {
                        if r.is_open(x + s, y) && !r.is_open(x + s, y - dy) {
                            add((s, 0));
                            add((s, dy));
                        }
                    }
                } else {
                    add((1, 0));
                    add((-1, 0));
                }
            }
            Some((dx, dy)) => {
                add((dx, 0));
                add((0, dy));
                add((dx, dy));
            }
        }
        n
    }
}
