//! Greedy best-first search on hex maps, in the greedy scratch.

use super::scratch::{DIR_SHIFT, GENERATION_SHIFT, NIL, OFFSET, get, set};
use super::walls::Marked;
use super::{Greedy, unpack};
use crate::cost::{CellCosts, EnterCost};
use crate::search::astar::hex_size;
use crate::search::reach::capped;
use crate::search::window::{WINDOW_SHIFT, Window};
use crate::search::{NO_PARENT, PathError, PathQuery, PathResult, Query, backtrack};
use crate::topology::{HEX_CODES, hex_distance, hex_odd};
use crate::{Cell, Direction8, Grid, GridPath8, HexLayout, MAX_STEPS, Mobility};

/// Buckets of the farther list: keys past the last share it.
const BUCKETS: usize = 128;

impl Greedy {
    /// The one-cell search from `from` towards `to` on a hex map laid out as
    /// `layout`, for a unit with `mobility`, with hex steps and hex distances.
    ///
    /// # Implementation
    /// The square search's scratch and wall marking, with the 6 steps of
    /// [`HexLayout::directions`] and two open lists linked through the scratch: the
    /// cells queued one step nearer the goal (LIFO, taken first), and 128 LIFO buckets
    /// by hex distance to the goal for the others.
    fn run_hex(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
        layout: HexLayout,
    ) -> Result<PathResult, PathError> {
        if !grid.contains(from) {
            return Err(PathError::start_out_of_bounds(grid, from));
        }
        let costs = CellCosts { grid, mobility };
        let window = Window::around(grid, from);
        let start_slot = window
            .slot_of(from)
            .ok_or_else(|| PathError::start_out_of_bounds(grid, from))?;
        self.slots.reset();
        let answer = self.search_hex(&costs, mobility, &window, start_slot, to, layout);
        let slots = &self.slots;
        Ok(backtrack::<GridPath8, _>(
            &Query {
                costs,
                window: &window,
                start: from,
                goal: to,
                octile: false,
            },
            answer,
            |slot| slots.parent((slot + OFFSET) as usize),
        ))
    }

    /// A hex query: [`run_hex`](Self::run_hex) capped by the query's components (as
    /// A* takes them on hex maps).
    pub(super) fn answer_hex(
        &mut self,
        grid: &Grid,
        query: PathQuery<'_>,
        layout: HexLayout,
    ) -> Result<PathResult, PathError> {
        hex_size(&query)?;
        capped(self, &query, |s| {
            s.run_hex(grid, query.from, query.to, query.mobility, layout)
        })
    }

    /// The hex search proper; returns the end slot (the window's) and the expansions.
    fn search_hex<C: EnterCost>(
        &mut self,
        costs: &C,
        mobility: Mobility,
        window: &Window,
        start_slot: u32,
        goal: Cell,
        layout: HexLayout,
    ) -> (u32, u32) {
        const STRIDE: i64 = 1 << WINDOW_SHIFT;
        // Coordinates of the true parity (up to even shifts) of a greedy slot: local
        // coordinates are the slot's less 1.
        let (px, py) = window.parity_shift();
        let at = |slot: u32| {
            let (x, y) = unpack(slot);
            (i64::from(x) - 1 + px, i64::from(y) - 1 + py)
        };
        let (gx, gy) = window.local(goal);
        let (gx, gy) = (gx + px, gy + py);
        let distance = |slot: u32| {
            let (x, y) = at(slot);
            hex_distance(layout, x, y, gx, gy)
        };
        let goal_slot = window.slot_of(goal).map_or(u32::MAX, |s| s + OFFSET);
        let start = start_slot + OFFSET;
        let stamp = self.slots.generation.get() << GENERATION_SHIFT;
        let wall = stamp | u32::from(NO_PARENT) << DIR_SHIFT | NIL;
        let cells = &mut self.slots.cells[..];
        // SAFETY: the start is a usable cell of the window.
        #[expect(unsafe_code, reason = "bounds proven by the window")]
        unsafe {
            set(cells, start, wall);
        }
        if start == goal_slot {
            return (start_slot, 0);
        }
        // Every cell of the window is at least this far from the goal: it is at most
        // 2 * MAX_STEPS hex steps from the start.
        let base = distance(start).saturating_sub(2 * MAX_STEPS as u64 + 1);
        let walls = &mut self.walls;
        walls.start(mobility, costs.grid(), window);
        let mut marked = Marked::NONE;
        let mut heads = [NIL; BUCKETS];
        let mut mask = 0u128;
        let mut hot = NIL;
        let mut slot = start;
        let mut d = distance(start);
        let mut best = (d, start);
        let mut budget = self.max_expansions;
        loop {
            if d < best.0 {
                best = (d, slot);
            }
            if slot == goal_slot {
                return (goal_slot - OFFSET, self.max_expansions - budget);
            }
            if !marked.covers(slot) {
                marked = walls.extend(cells, wall, costs, slot >> WINDOW_SHIFT);
            }
            budget -= 1;
            let (x, y) = at(slot);
            let codes = &HEX_CODES[layout.index() as usize][usize::from(hex_odd(layout, x, y))];
            for &code in codes {
                let (dx, dy) = Direction8::from_bits(code).offset();
                let n = (i64::from(slot) + i64::from(dx) + i64::from(dy) * STRIDE) as u32;
                // SAFETY: a neighbour of a usable cell: a usable or guard slot, below
                // the scratch's length (see `get`); its rows are marked (`marked`).
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                unsafe {
                    if get(cells, n) >= stamp {
                        continue; // a wall, or reached already
                    }
                    let nd = distance(n);
                    let link = if nd < d {
                        let old = hot;
                        hot = n;
                        old
                    } else {
                        let b = ((nd - base) as usize).min(BUCKETS - 1);
                        let old = heads[b];
                        heads[b] = n;
                        mask |= 1 << b;
                        old
                    };
                    set(cells, n, stamp | u32::from(code) << DIR_SHIFT | link);
                }
            }
            if budget == 0 {
                // The goal if this expansion queued it (it is then the head of `hot`).
                let end = if hot == goal_slot { goal_slot } else { best.1 };
                return (end - OFFSET, self.max_expansions);
            }
            if hot != NIL {
                slot = hot;
                // SAFETY: a queued slot, a usable cell's.
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                let next = unsafe { get(cells, slot) } & NIL;
                hot = next;
            } else if mask != 0 {
                let b = mask.trailing_zeros() as usize;
                slot = heads[b];
                // SAFETY: a queued slot, a usable cell's.
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                let next = unsafe { get(cells, slot) } & NIL;
                heads[b] = next;
                if next == NIL {
                    mask &= !(1 << b);
                }
            } else {
                break;
            }
            d = distance(slot);
        }
        (best.1 - OFFSET, self.max_expansions - budget)
    }
}
