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

impl<'a, const EIGHT: bool, const TRACK: bool> Search<'a, EIGHT, TRACK> {
    /// g of one straight step.
    const STRAIGHT: u64 = if EIGHT { OCTILE_STRAIGHT } else { 1 };

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
                let (cur, up, down) = (r.bits(base, y), r.bits(base, y - 1), r.bits(base, y + 1));
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
                let (cur, up, down) = (r.bits(base, y), r.bits(base, y - 1), r.bits(base, y + 1));
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
        let mut behind = r.bits(x - 1, y) & 0b1_0101;
        let mut c = y + dy;
        let (found, last) = loop {
            let row = r.bits(x - 1, c) & 0b1_0101;
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
    #[inline(always)]
    fn jump_diagonal(
        &mut self,
        mut x: i64,
        mut y: i64,
        dx: i64,
        dy: i64,
        mut g: u64,
    ) -> Option<(i64, i64)> {
        let r = self.rows;
        loop {
            if !(r.is_open(x + dx, y) && r.is_open(x, y + dy) && r.is_open(x + dx, y + dy)) {
                return None;
            }
            x += dx;
            y += dy;
            g += OCTILE_DIAGONAL;
            if TRACK {
                self.crossed((x, y), (x, y), g);
            }
            if (x, y) == self.target {
                return Some((x, y));
            }
            // A tracking search scans both lines, so that both are crossed.
            let row = self.jump_row(x, y, dx, g).is_some();
            if row && !TRACK {
                return Some((x, y));
            }
            if self.jump_column(x, y, dy, g).is_some() || row {
                return Some((x, y));
            }
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
