//! Greedy best-first search over a search window.

mod hex;
mod scratch;
mod walls;

use super::reach::capped;
use super::window::{WINDOW_SHIFT, WINDOW_SIDE, Window};
use super::{NO_PARENT, PathError, PathQuery, PathResult, Query, Solver, backtrack};
#[cfg(doc)]
use crate::Footprint;
use crate::cost::{CellCosts, EnterCost};
use crate::footprint::FootprintCosts;
use crate::{Cell, Connectivity, Grid, GridPath, Mobility};
use scratch::{DIR_SHIFT, GENERATION_SHIFT, NIL, OFFSET, SLOTS, Slots, get, set};
use walls::{Marked, Walls};

/// Greedy best-first search: the fastest way to a good (not always the shortest) path.
///
/// It heads for the goal (by Manhattan distance) and stops as soon as it reaches it, so
/// on open or lightly walled maps it touches little more than the path itself. A
/// cell one step nearer the goal than the one just expanded is taken next, before
/// any other open cell (the original Go library's rule), so when a wall stops it, it
/// first follows the way it came rather than filling every pocket on the near side
/// of the wall: its routes are markedly shorter round U-shaped obstacles that open
/// away from the goal. Costs only decide what is passable; the reported cost is what
/// the path really costs. 4-connected or hex; an 8-connected query is refused
/// ([`PathError::UnsupportedConnectivity`]).
///
/// Like [`AStar::new`](crate::AStar::new) it is confined to the window a 56-step path can
/// reach, its memory fixed at construction (58 KiB), and a query allocates nothing.
///
/// # Implementation
///
/// Two open lists, both linked through the per-cell scratch itself (each cell is
/// queued at most once, so they need no memory of their own): a LIFO list of the
/// cells queued one step nearer the goal, always taken from first, and for the
/// others a 64-bucket queue keyed by distance to the goal, like A*'s bucket ring (LIFO
/// within a bucket, a `u64` mask of the non-empty ones), taken from when that list
/// is empty. The next cell is mostly the last one queued nearer the goal, known from
/// registers with its distance (one less), so one expansion need not wait for the
/// last one's queue updates. The walls are marked in the scratch too (a row at a
/// time, when the search first reaches it, with a few bit operations for 32 cells of
/// the packed grid and a store a wall), so a single read of a neighbour's word tells
/// whether it is a wall or reached already. The goal is always queued nearer the
/// goal, so it is taken next, and its distance (the least) is tested only when a cell
/// is the nearest so far.
///
/// ```
/// use tilepath::{Arrival, Cell, Greedy, Grid, Mobility, PathQuery, Solver};
/// let grid = Grid::new(10, 10)?;
/// let mut greedy = Greedy::new();
/// let query = PathQuery::new(Cell::new(1, 1), Cell::new(8, 4), Mobility::FLOOR_ONLY);
/// let r = greedy.find(&grid, query)?;
/// assert_eq!((r.path.len(), r.end, r.arrival), (10, Cell::new(8, 4), Arrival::Reached));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Greedy {
    slots: Slots,
    walls: Walls,
    max_expansions: u32,
}

impl Default for Greedy {
    fn default() -> Self {
        Self::new()
    }
}

impl Greedy {
    /// A solver with its scratch allocated now.
    #[must_use]
    pub fn new() -> Self {
        Self {
            slots: Slots::new(SLOTS),
            walls: Walls::new(),
            max_expansions: u32::MAX,
        }
    }

    /// A square query: the one-cell search, or the footprint's.
    fn answer_square(
        &mut self,
        grid: &Grid,
        query: PathQuery<'_>,
    ) -> Result<PathResult, PathError> {
        let PathQuery {
            from, to, mobility, ..
        } = query;
        capped(self, &query, |s| match query.footprint {
            None => s.run(CellCosts { grid, mobility }, from, to, mobility),
            Some(f) => match FootprintCosts::of(f, grid, mobility, from)? {
                None => s.run(CellCosts { grid, mobility }, from, to, mobility),
                Some(costs) => s.run(costs, from, to, mobility),
            },
        })
    }

    fn run<C: EnterCost>(
        &mut self,
        costs: C,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult, PathError> {
        let grid = costs.grid();
        if !grid.contains(from) {
            return Err(PathError::start_out_of_bounds(grid, from));
        }
        let window = Window::around(grid, from);
        let start_slot = window
            .slot_of(from)
            .ok_or_else(|| PathError::start_out_of_bounds(grid, from))?;
        self.slots.reset();
        // A limit the search cannot reach (a window holds fewer cells) needs no test
        // per expansion. The walls it marks are where the unit cannot stand; a unit
        // walking out of a walled-over start has each step into the walls checked.
        let answer = if costs.walks_out() {
            let index = |slot: u32| {
                let cell = window.cell_of(slot - OFFSET);
                grid.index_of(cell).unwrap_or(0)
            };
            let step = |from: u32, to: u32| {
                // SAFETY: usable cells of the window, inside the grid.
                #[expect(unsafe_code, reason = "indices of the window's cells")]
                unsafe {
                    costs.step_unchecked(index(from), index(to)) != 0
                }
            };
            self.search::<true, C, _>(&costs, mobility, &window, start_slot, to, step)
        } else if self.max_expansions >= WINDOW_SIDE * WINDOW_SIDE {
            self.search::<false, C, _>(&costs, mobility, &window, start_slot, to, |_, _| true)
        } else {
            self.search::<true, C, _>(&costs, mobility, &window, start_slot, to, |_, _| true)
        };
        let slots = &self.slots;
        Ok(backtrack::<GridPath, _>(
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

    /// The search proper, in the greedy search's own slots (see [`OFFSET`]); returns
    /// the end slot (the window's) and the expansions made. `LIMITED`: whether
    /// `max_expansions` may stop it. `step(from, to)` says whether a step between two
    /// greedy slots of unmarked cells may be taken (always, but when walking out of a
    /// walled-over start).
    ///
    /// Two open lists, both linked through the slots' `next` fields: `hot`, a LIFO
    /// list of the cells queued one step nearer the goal than the cell that queued
    /// them, always taken from first; and 64 LIFO buckets by distance to the goal, with
    /// a bit per non-empty bucket, for the cells queued one step farther, taken from
    /// (the lowest bucket) only when `hot` is empty. The next cell is mostly the last
    /// one queued nearer the goal, known from registers with its key (one less than
    /// the expanded cell's), so that the chain from one expansion to the next is no
    /// load at all.
    // Out of line: the loop is then compiled on its own, its registers allocated for
    // it alone whatever the caller around it becomes.
    #[inline(never)]
    fn search<const LIMITED: bool, C: EnterCost, S: Fn(u32, u32) -> bool>(
        &mut self,
        costs: &C,
        mobility: Mobility,
        window: &Window,
        start_slot: u32,
        goal: Cell,
        step: S,
    ) -> (u32, u32) {
        const STRIDE: u32 = 1 << WINDOW_SHIFT;
        let (gx, gy) = window.local(goal);
        let (gx, gy) = (gx + 1, gy + 1);
        let goal_slot = window.slot_of(goal).map_or(u32::MAX, |s| s + OFFSET);
        let start_slot = start_slot + OFFSET;
        let (sx, sy) = unpack(start_slot);
        let start_dist = manhattan(sx, sy, gx, gy);
        // Which way is the goal, tested on slots: a cell is left of the goal iff its
        // column is below `left`, above it iff its slot is below `above`, below it iff
        // its slot is at least `below` (coordinates clamped to the slots' 0..=128 keep
        // every comparison with a usable cell's).
        let left = gx.clamp(0, i64::from(STRIDE)) as u32;
        let right = left + 1;
        let above = (gy.clamp(0, i64::from(STRIDE)) as u32) << WINDOW_SHIFT;
        let below = above + STRIDE;
        // A slot was reached by this query, or is a wall, iff its word is at least
        // `stamp`: earlier queries' generations are smaller (the counter only grows
        // until it wraps, and then every word is cleared).
        let stamp = self.slots.generation.get() << GENERATION_SHIFT;
        let wall = stamp | u32::from(NO_PARENT) << DIR_SHIFT | NIL;
        let cells = &mut self.slots.cells[..];
        // The start's word is the same as a wall's: marking the walls of its row may
        // overwrite it (a unit may stand on a closed tile) and change nothing.
        // SAFETY: the start is a usable cell of the window.
        #[expect(unsafe_code, reason = "bounds proven by the window")]
        unsafe {
            set(cells, start_slot, wall);
        }
        if start_slot == goal_slot {
            return (start_slot - OFFSET, 0);
        }
        // A cell's key is its distance to the goal less `base` (one less than the
        // least distance a cell 56 steps from the start can have), and its bucket the
        // key clamped to 1..=63: nearer and farther cells share the end buckets.
        let base = start_dist.saturating_sub(crate::MAX_STEPS as u64 + 1) as i64;
        // The goal's key, the least of all: a popped cell with it is the goal.
        let goal_key = -base;
        let walls = &mut self.walls;
        walls.start(mobility, costs.grid(), window);
        // The slots whose rows and the rows above and below are marked (a copy of
        // the walls' own, kept where the loop can test it without their pointer).
        let mut marked = Marked::NONE;
        // The expanded cell nearest the goal so far, by key.
        let mut best = (i64::MAX, start_slot);
        // Expansions left before the limit stops the search.
        let mut budget = self.max_expansions;
        let sides = Sides {
            left,
            right,
            above,
            below,
            stamp,
        };
        let mut heads = [NIL; 64];
        let mut mask = 0u64;
        let mut hot = NIL;
        // The cell to expand and its key.
        let mut slot = start_slot;
        let mut key = start_dist as i64 - base;
        loop {
            // Every reached cell is popped before a search gives up (unless the
            // expansion limit stops it), so tracking the best cell here, once per
            // popped cell rather than once per neighbour, sees them all; and as the
            // goal's key is the least, reaching it is tested only here.
            if key < best.0 {
                if key == goal_key {
                    return (goal_slot - OFFSET, self.max_expansions - budget);
                }
                improve(&mut best, (key, slot));
            }
            // The walls around the cell: those of its row and the rows above and
            // below.
            if !marked.covers(slot) {
                marked = walls.extend(cells, wall, costs, slot >> WINDOW_SHIFT);
            }
            budget -= 1;
            debug_assert_eq!(key, {
                let (lx, ly) = unpack(slot);
                manhattan(lx, ly, gx, gy) as i64 - base
            });
            let top = hot;
            let mut under = NIL;
            // The farther neighbours' bucket: their key, clamped.
            let far = (key + 1).clamp(1, 63) as usize;
            // SAFETY: `slot` is the start or a queued cell, a usable cell's slot
            // (walls and guard slots are never queued).
            #[expect(unsafe_code, reason = "bounds proven by the window")]
            unsafe {
                expand(
                    cells,
                    &mut heads,
                    &mut mask,
                    (&mut hot, &mut under),
                    sides,
                    slot,
                    far,
                    &step,
                );
            }
            if LIMITED && budget == 0 {
                // The goal if this expansion queued it (it is then the head of `hot`).
                let end = if hot == goal_slot { goal_slot } else { best.1 };
                return (end - OFFSET, self.max_expansions);
            }
            if hot != top {
                // A neighbour nearer the goal, the last queued: the next cell, its
                // key one less, and the list under it known without a load.
                slot = hot;
                hot = under;
                key -= 1;
                continue;
            }
            if hot != NIL {
                slot = hot;
                // SAFETY: as above.
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                let next = unsafe { get(cells, slot) } & NIL;
                hot = next;
                let (lx, ly) = unpack(slot);
                key = manhattan(lx, ly, gx, gy) as i64 - base;
                continue;
            }
            if mask == 0 {
                break;
            }
            let b = mask.trailing_zeros() as usize;
            slot = heads[b];
            // SAFETY: as above.
            #[expect(unsafe_code, reason = "bounds proven by the window")]
            let next = unsafe { get(cells, slot) } & NIL;
            heads[b] = next;
            // The bucket's bit goes when its list empties.
            mask ^= u64::from(next == NIL) << b;
            // A bucket's cells have its key, but for the end buckets' (clamped).
            key = if b.wrapping_sub(2) < 61 {
                b as i64
            } else {
                let (lx, ly) = unpack(slot);
                manhattan(lx, ly, gx, gy) as i64 - base
            };
        }
        (best.1 - OFFSET, self.max_expansions - budget)
    }
}

/// The query's constants a neighbour is queued with: which side of the goal a slot
/// lies (see `search`) and the query's stamp.
#[derive(Clone, Copy)]
struct Sides {
    left: u32,
    right: u32,
    above: u32,
    below: u32,
    stamp: u32,
}

/// Expands `slot`: queues its open neighbours, those one step nearer the goal on the
/// nearer list (`hot.0`, its head; LIFO, linked through the slots' `next` fields),
/// the others in bucket `far` of the farther list (64 LIFO buckets by distance to the
/// goal, each linked the same way from `heads`, and a bit per non-empty bucket,
/// `mask`). `hot.1` is left with the nearer list's head before the last push, so that
/// the caller pops the last cell pushed without a load. A neighbour is queued only if
/// `step(slot, neighbour)` allows the step (otherwise another cell may reach it).
///
/// # Safety
/// `slot` is the greedy slot of a usable cell of the window, so that it and its four
/// neighbours are below `cells.len()`.
#[inline(always)]
#[expect(unsafe_code, reason = "bounds proven by the window")]
#[expect(clippy::too_many_arguments, reason = "inlined into the search loop")]
unsafe fn expand(
    cells: &mut [u32],
    heads: &mut [u32; 64],
    mask: &mut u64,
    hot: (&mut u32, &mut u32),
    sides: Sides,
    slot: u32,
    far: usize,
    step: &impl Fn(u32, u32) -> bool,
) {
    const STRIDE: u32 = 1 << WINDOW_SHIFT;
    let x = slot & (STRIDE - 1);
    let (hot, under) = hot;
    let mut reach = |n: u32, dir: u32, nearer: bool| {
        // SAFETY: the four neighbours of a usable cell, as the caller promises.
        unsafe {
            if get(cells, n) < sides.stamp && step(slot, n) {
                if nearer {
                    set(cells, n, sides.stamp | dir << DIR_SHIFT | *hot);
                    *under = *hot;
                    *hot = n;
                } else {
                    set(cells, n, sides.stamp | dir << DIR_SHIFT | heads[far]);
                    heads[far] = n;
                    *mask |= 1 << far;
                }
            }
        }
    };
    reach(slot + 1, 0, x < sides.left);
    reach(slot + STRIDE, 1, slot < sides.above);
    reach(slot - 1, 2, x >= sides.right);
    reach(slot - STRIDE, 3, slot >= sides.below);
}

/// Sets the best cell: out of line, as after its first expansions a search rarely finds
/// a better one, so that the test is a branch rather than conditional moves.
#[cold]
#[inline(never)]
fn improve(best: &mut (i64, u32), better: (i64, u32)) {
    *best = better;
}

/// Local coordinates `(lx + 1, ly + 1)` of a greedy slot (see [`OFFSET`]).
#[inline(always)]
fn unpack(slot: u32) -> (u32, u32) {
    (slot & ((1 << WINDOW_SHIFT) - 1), slot >> WINDOW_SHIFT)
}

#[inline(always)]
fn manhattan(x: u32, y: u32, gx: i64, gy: i64) -> u64 {
    (i64::from(x) - gx).unsigned_abs() + (i64::from(y) - gy).unsigned_abs()
}

impl Solver for Greedy {
    /// A good route (see [`Solver::find`]), not always the cheapest: it reaches `to`
    /// when the search does, otherwise it leads towards the reached cell closest to
    /// `to`. 4-connected or hex ([`HexLayout::directions`](crate::HexLayout::directions),
    /// hex distances; one-cell units only). For a footprint, the unit enters only
    /// cells where it fits, and the reported cost is the footprint's (see
    /// [`Footprint`]). Greedy search takes no landmarks.
    ///
    /// # Errors
    /// As [`Solver::find`]; [`PathError::UnsupportedConnectivity`] for an 8-connected
    /// query.
    fn find(&mut self, grid: &Grid, query: PathQuery<'_>) -> Result<PathResult, PathError> {
        match query.connectivity {
            Connectivity::Four => self.answer_square(grid, query),
            Connectivity::Hex(layout) => self.answer_hex(grid, query, layout),
            connectivity @ Connectivity::Eight => {
                Err(PathError::UnsupportedConnectivity { connectivity })
            }
        }
    }

    fn max_expansions(&self) -> u32 {
        self.max_expansions
    }

    fn set_max_expansions(&mut self, max: u32) {
        self.max_expansions = max.max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Arrival, TileKind};

    #[test]
    fn a_limit_spent_by_the_expansion_reaching_the_goal_still_finds_it() {
        // Reaching (3, 0) from (0, 0) takes 3 expansions: (0, 0), (1, 0), (2, 0).
        let grid = Grid::new(8, 3).unwrap();
        let (from, to) = (Cell::new(0, 0), Cell::new(3, 0));
        for (limit, partial, expanded) in [(3, false, 3), (2, true, 2), (100, false, 3)] {
            let r = Greedy::new()
                .with_max_expansions(limit)
                .find(&grid, PathQuery::new(from, to, Mobility::FLOOR_ONLY))
                .unwrap();
            assert_eq!(
                ((r.arrival != Arrival::Reached), r.expanded),
                (partial, expanded),
                "limit {limit}"
            );
            // A partial path leads to the best expanded cell.
            assert_eq!(r.path.len(), if partial { 1 } else { 3 }, "limit {limit}");
        }
    }

    #[test]
    fn walls_at_the_window_and_grid_edges_hold() {
        // Open grid larger than the window: the search stops at the window's edge,
        // 56 columns right of the start, and never wraps into another row.
        let grid = Grid::new(400, 200).unwrap();
        let r = Greedy::new()
            .find(
                &grid,
                PathQuery::new(
                    Cell::new(100, 100),
                    Cell::new(300, 100),
                    Mobility::FLOOR_ONLY,
                ),
            )
            .unwrap();
        assert_eq!(
            ((r.arrival != Arrival::Reached), r.end, r.path.len()),
            (true, Cell::new(156, 100), 56)
        );
        // The same towards the left edge of the grid, inside the window, and past
        // the top row: each search ends at the reachable cell nearest the goal.
        for (from, to, end) in [
            ((3, 5), (-9, 5), (0, 5)),
            ((3, 5), (3, -4), (3, 0)),
            ((3, 5), (9, 30), (9, 9)),
            ((9, 9), (30, 9), (9, 9)),
        ] {
            let grid = Grid::new(10, 10).unwrap();
            let (from, to) = (Cell::new(from.0, from.1), Cell::new(to.0, to.1));
            let r = Greedy::new()
                .find(&grid, PathQuery::new(from, to, Mobility::FLOOR_ONLY))
                .unwrap();
            assert_eq!(
                ((r.arrival != Arrival::Reached), r.end),
                (true, Cell::new(end.0, end.1)),
                "{from}->{to}"
            );
        }
        // A unit on a closed tile walks out; walls around it are respected.
        let grid = Grid::from_ascii("....\n.##.\n.#@.\n....\n", |c| {
            Some(if c == '.' { TileKind::K0 } else { TileKind::K1 })
        })
        .unwrap();
        let r = Greedy::new()
            .find(
                &grid,
                PathQuery::new(Cell::new(2, 2), Cell::new(0, 0), Mobility::FLOOR_ONLY),
            )
            .unwrap();
        assert_eq!(r.arrival, Arrival::Reached);
        assert_eq!(r.end, Cell::new(0, 0));
        let mut at = Cell::new(2, 2);
        for step in r.path {
            at = at.step(step);
            assert!(grid.cost(at, Mobility::FLOOR_ONLY) != 0, "{at} is a wall");
        }
    }
}
