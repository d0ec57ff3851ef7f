//! The search proper: A* over jump points (the jumps, the scans that find them, are
//! in `scan.rs`).
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
//! directions. 8-connected, a diagonal jump point is expanded by the diagonal scan
//! that meets it (see [`Search::jump_diagonal`]); it is written to its slot, but not
//! queued, so the links stay straight.

use super::landmarks::Guide;
use super::rows::{Rows, Source};
use crate::Direction8;
use crate::cost::{OCTILE_STRAIGHT, octile_units};
use crate::queue::{RadixHeap, StampedWords};
use crate::search::NO_PARENT;
use crate::search::nodes::{CLOSED, node_g, node_parent, open_node};
use crate::search::window::RowLength;
#[cfg(doc)]
use crate::search::window::Window;

/// The direction code of each unit step `(dx, dy)`, at `(dy + 1) * 3 + dx + 1`: what a
/// jump point's node records of the line that reaches it.
const CODE_OF: [u8; 9] = {
    let mut table = [NO_PARENT; 9];
    let mut code = 0;
    while code < 8 {
        let (dx, dy) = Direction8::from_bits(code).offset();
        table[((dy + 1) * 3 + dx + 1) as usize] = code;
        code += 1;
    }
    table
};

/// The direction code of the line from `from` towards `to` (which differ).
#[inline(always)]
pub(super) fn code_towards(from: (i64, i64), to: (i64, i64)) -> u8 {
    let (dx, dy) = ((to.0 - from.0).signum(), (to.1 - from.1).signum());
    CODE_OF[((dy + 1) * 3 + dx + 1) as usize]
}

/// The search area's cells mapped to scratch slots: `(y - oy) * stride + (x - ox)`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slots {
    pub(super) ox: i64,
    pub(super) oy: i64,
    pub(super) stride: i64,
    /// `stride`, to divide slots by.
    rows: RowLength,
}

impl Slots {
    /// Slots `stride` apart a row (at least 2; a window's side, or
    /// [`Window::whole_stride`] of the grid's width, as the scratch is sized), the
    /// cell at slot 0 `(ox, oy)`.
    pub(super) fn new(ox: i64, oy: i64, stride: u32) -> Self {
        Self {
            ox,
            oy,
            stride: i64::from(stride),
            rows: RowLength::new(stride),
        }
    }

    #[inline(always)]
    pub(super) fn slot(self, x: i64, y: i64) -> u32 {
        ((y - self.oy) * self.stride + (x - self.ox)) as u32
    }

    #[inline(always)]
    pub(super) fn cell(self, slot: u32) -> (i64, i64) {
        let row = self.rows.divide(slot);
        let column = i64::from(slot) - i64::from(row) * self.stride;
        (self.ox + column, self.oy + i64::from(row))
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
pub(super) struct Search<'a, S, const EIGHT: bool, const TRACK: bool> {
    pub(super) rows: Rows<S>,
    pub(super) slots: Slots,
    /// The goal, for the heuristic.
    pub(super) goal: (i64, i64),
    /// The goal if a scan can reach it (open and inside the area), else a cell no
    /// scan meets.
    pub(super) target: (i64, i64),
    pub(super) max_expansions: u32,
    /// Landmark distances that tighten the estimate (or none).
    pub(super) guide: Guide<'a>,
    /// The jump point being expanded, for [`Nearest`].
    pub(super) from: u32,
    pub(super) nearest: Nearest,
    /// The lines of the last direct route taken (see [`Links`]).
    pub(super) links: Links,
    /// Jump points expanded so far.
    pub(super) expanded: u32,
}

/// What a [`Search`] paused between two calls of [`Search::advance`] keeps besides
/// its scratch (see [`Search::progress`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Progress {
    from: u32,
    nearest: Nearest,
    links: Links,
    expanded: u32,
}

/// Lines a route can be read back along without walking them: `(slot, to, steps,
/// dir)` says the line reaching `slot` in direction code `dir` began `steps` steps
/// back, at `to` (a direct route's goal and corner). A hint only: the route is read
/// along it when the slot's node still says so (see `chain` in `mod.rs`).
pub(super) type Links = [(u32, u32, u64, u8); 2];

/// No link.
pub(super) const NO_LINKS: Links = [(u32::MAX, 0, 0, NO_PARENT); 2];

/// A cell no scan ever reaches (and no row or column offset from it overflows).
pub(super) const NOWHERE: (i64, i64) = (i64::MIN / 4, i64::MIN / 4);

impl<'a, S: Source, const EIGHT: bool, const TRACK: bool> Search<'a, S, EIGHT, TRACK> {
    /// g of one straight step.
    pub(super) const STRAIGHT: u64 = if EIGHT { OCTILE_STRAIGHT } else { 1 };

    pub(super) fn new(
        rows: Rows<S>,
        slots: Slots,
        goal: (i64, i64),
        target: (i64, i64),
        max_expansions: u32,
        guide: Guide<'a>,
    ) -> Self {
        Self {
            rows,
            slots,
            goal,
            target,
            max_expansions,
            guide,
            from: 0,
            nearest: Nearest {
                d: u64::MAX,
                g: u64::MAX,
                jp: 0,
                mid: NOWHERE,
                end: NOWHERE,
            },
            links: NO_LINKS,
            expanded: 0,
        }
    }

    /// The distance estimate to the goal: octile (fixed-point units) or Manhattan.
    #[inline(always)]
    pub(super) fn h(&self, x: i64, y: i64) -> u64 {
        let dx = x.abs_diff(self.goal.0);
        let dy = y.abs_diff(self.goal.1);
        if EIGHT { octile_units(dx, dy) } else { dx + dy }
    }

    /// The open list's estimate: [`h`](Self::h), or the landmarks' bound where that is
    /// larger (both never overestimate and are consistent, so their maximum is too).
    #[inline(always)]
    pub(super) fn estimate(&self, x: i64, y: i64) -> u64 {
        let h = self.h(x, y);
        if self.guide.is_some() {
            h.max(self.guide.bound(x, y))
        } else {
            h
        }
    }

    /// Queues `slot` with `key`. A guide out of step with the grid (edited without a
    /// repair) may be inconsistent, so a guided key is raised to the last key popped,
    /// as the open list's contract asks: answers stay valid routes, if perhaps not
    /// the shortest (as [`Landmarks`](super::Landmarks) documents).
    #[inline(always)]
    pub(super) fn queue(&self, open: &mut RadixHeap<u32>, key: u64, slot: u32) {
        let key = if self.guide.is_some() {
            key.max(open.last_key())
        } else {
            key
        };
        open.push(key, slot);
    }

    /// A tracking search crossed `end` at cost `g`, on a straight line from `mid`.
    #[inline(always)]
    pub(super) fn crossed(&mut self, mid: (i64, i64), end: (i64, i64), g: u64) {
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

    /// Queues `start`: the search is ready to [`advance`](Self::advance). `nodes` and
    /// `open` must be empty (reset).
    pub(super) fn begin(
        &mut self,
        nodes: &mut StampedWords,
        open: &mut RadixHeap<u32>,
        start: (i64, i64),
    ) {
        let start_slot = self.slots.slot(start.0, start.1);
        nodes.set(start_slot as usize, open_node(0, NO_PARENT));
        open.push(self.estimate(start.0, start.1), start_slot);
        self.from = start_slot;
        self.expanded = 0;
        if TRACK {
            self.crossed(start, start, 0);
        }
    }

    /// Where the search stands between two calls of [`advance`](Self::advance), with
    /// `nodes` and `open` as it left them.
    pub(super) fn progress(&self) -> Progress {
        Progress {
            from: self.from,
            nearest: self.nearest,
            links: self.links,
            expanded: self.expanded,
        }
    }

    /// Takes the search up where [`progress`](Self::progress) was read, on the same
    /// rows, goal and guide, with `nodes` and `open` as it left them.
    pub(super) fn resume_from(&mut self, p: Progress) {
        self.from = p.from;
        self.nearest = p.nearest;
        self.links = p.links;
        self.expanded = p.expanded;
    }

    /// Expands jump points until the goal is closed, the open list runs dry or the
    /// expansion limit is reached (`Some` of how it ended), or, with `more`, once
    /// `more` further jump points are expanded (`None`: paused, to go on by another
    /// call). [`expanded`](Self::expanded) counts them all.
    pub(super) fn advance(
        &mut self,
        nodes: &mut StampedWords,
        open: &mut RadixHeap<u32>,
        more: Option<u32>,
    ) -> Option<Outcome> {
        let pause_at = more.map(|n| self.expanded.saturating_add(n.max(1)));
        let target_slot =
            (self.target != NOWHERE).then(|| self.slots.slot(self.target.0, self.target.1));
        let mut expanded = self.expanded;
        loop {
            if pause_at.is_some_and(|at| expanded >= at) {
                self.expanded = expanded;
                return None;
            }
            let Some((_, slot)) = open.pop() else { break };
            let node = nodes.get(slot as usize);
            if node & CLOSED != 0 {
                continue;
            }
            nodes.set(slot as usize, node | CLOSED);
            let (g, parent) = (node_g(node), node_parent(node));
            expanded += 1;
            if Some(slot) == target_slot {
                self.expanded = expanded;
                return Some(Outcome::Goal(slot));
            }
            if expanded >= self.max_expansions {
                break;
            }
            self.from = slot;
            let (x, y) = self.slots.cell(slot);
            let arrival = (parent != NO_PARENT).then(|| {
                let (dx, dy) = Direction8::from_bits(parent).offset();
                (i64::from(dx), i64::from(dy))
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
                let mut from = ((x, y), slot);
                let goal = target_slot.unwrap_or(slot);
                let mut links = NO_LINKS;
                if corner != slot && Some(corner) != target_slot {
                    let node = nodes.get(corner as usize);
                    let dir = code_towards((x, y), (cx, cy));
                    if direct.corner_g < node_g(node) {
                        // Not pushed: the goal, at the least f, is closed first.
                        nodes.set(corner as usize, open_node(direct.corner_g, dir));
                    }
                    let steps = cx.abs_diff(x).max(cy.abs_diff(y));
                    links[1] = (corner, slot, steps, dir);
                    from = ((cx, cy), corner);
                }
                let node = nodes.get(goal as usize);
                if direct.goal_g < node_g(node) {
                    let dir = code_towards(from.0, self.target);
                    nodes.set(goal as usize, open_node(direct.goal_g, dir));
                    self.queue(open, direct.goal_g, goal);
                    let (fx, fy) = from.0;
                    let steps = self.target.0.abs_diff(fx).max(self.target.1.abs_diff(fy));
                    links[0] = (goal, from.1, steps, dir);
                    self.links = links;
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
                    // One inlined copy per direction, its signs folded into the scans.
                    match (dx > 0, dy > 0) {
                        (true, true) => self.jump_diagonal(nodes, open, (x, y), (1, 1), g),
                        (false, true) => self.jump_diagonal(nodes, open, (x, y), (-1, 1), g),
                        (true, false) => self.jump_diagonal(nodes, open, (x, y), (1, -1), g),
                        (false, false) => self.jump_diagonal(nodes, open, (x, y), (-1, -1), g),
                    }
                    continue;
                };
                let Some((jx, jy)) = found else { continue };
                let ng = g + jx.abs_diff(x).max(jy.abs_diff(y)) * Self::STRAIGHT;
                self.offer(nodes, open, (jx, jy), ng, code_towards((x, y), (jx, jy)));
            }
        }
        self.expanded = expanded;
        Some(Outcome::Stopped(self.nearest))
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
