//! Greedy best-first search over a search window.

mod scratch;
mod walls;

use super::window::{WINDOW_SHIFT, WINDOW_SIDE, Window};
use super::{NO_PARENT, PathError, PathResult, Query, backtrack};
#[cfg(doc)]
use crate::queue::BucketQueue;
use crate::{Cell, Grid, GridPath, Mobility};
use scratch::{DIR_SHIFT, GENERATION_SHIFT, NIL, OFFSET, SLOTS, Slots, get, set};
use walls::{Marked, Walls};

/// Greedy best-first search: the fastest way to a good (not always the shortest) path.
///
/// It always expands the cell that looks closest to the goal (Manhattan distance) and
/// stops as soon as it reaches the goal, so on open or lightly walled maps it touches
/// little more than the path itself. Costs only decide what is passable; the reported
/// cost is what the path really costs. 4-connected.
///
/// Like [`AStar::new`](crate::AStar::new) it is confined to the window a 56-step path can
/// reach, its memory fixed at construction (58 KiB), and a query allocates nothing.
/// The open list is a 64-bucket queue keyed by distance to the goal, like
/// [`BucketQueue`] (LIFO within a bucket, a `u64` mask of the non-empty ones), whose
/// lists are linked through the per-cell scratch itself: each cell is queued at most
/// once, so the queue needs no memory of its own. As a cell's neighbours are one step
/// nearer the goal or one step farther, the next cell to expand is mostly known without
/// the mask (the last neighbour queued nearer the goal, else the next cell of the same
/// bucket), so one expansion need not wait for the last one's queue updates. The walls
/// are marked in the scratch too (a row at a time, when the search first reaches it,
/// with a few bit operations for 32 cells of the packed grid and a store a wall), so a
/// single read of a neighbour's word tells whether it is a wall or reached already. The
/// goal has a bucket to itself, so reaching it is noticed when it is popped, next.
///
/// ```
/// use tilepath::{Cell, Greedy, Grid, Mobility};
/// let grid = Grid::new(10, 10)?;
/// let mut greedy = Greedy::new();
/// let r = greedy.build_path(&grid, Cell::new(1, 1), Cell::new(8, 4), Mobility::FLOOR_ONLY)?;
/// assert_eq!((r.path.len(), r.end, r.partial), (10, Cell::new(8, 4), false));
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

    /// Stops a search after `max` expansions (at least 1) with a partial result.
    #[must_use]
    pub fn with_max_expansions(mut self, max: u32) -> Self {
        self.set_max_expansions(max);
        self
    }

    /// Stops later searches after `max` expansions (at least 1).
    pub fn set_max_expansions(&mut self, max: u32) {
        self.max_expansions = max.max(1);
    }

    /// A path from `from` towards `to` for a unit with `mobility`.
    ///
    /// Same contract as [`AStar::build_path`](crate::AStar::build_path), except that the
    /// path need not be the cheapest: complete when it reaches `to` in at most 56 steps,
    /// otherwise partial, towards the reached cell closest to `to`.
    ///
    /// # Errors
    /// [`PathError::StartOutOfBounds`] if `from` is outside the grid.
    pub fn build_path(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath>, PathError> {
        if !grid.contains(from) {
            return Err(PathError::start_out_of_bounds(grid, from));
        }
        let window = Window::around(grid, from);
        let start_slot = window
            .slot_of(from)
            .ok_or_else(|| PathError::start_out_of_bounds(grid, from))?;
        self.slots.reset();
        // A limit the search cannot reach (a window holds fewer cells) needs no test
        // per expansion.
        let answer = if self.max_expansions >= WINDOW_SIDE * WINDOW_SIDE {
            self.search::<false>(grid, mobility, &window, start_slot, to)
        } else {
            self.search::<true>(grid, mobility, &window, start_slot, to)
        };
        let slots = &self.slots;
        Ok(backtrack(
            &Query {
                grid,
                mobility,
                window: &window,
                start: from,
                goal: to,
            },
            answer,
            |slot| slots.parent((slot + OFFSET) as usize),
        ))
    }

    /// The search proper, in the greedy search's own slots (see [`OFFSET`]); returns
    /// the end slot (the window's) and the expansions made. `LIMITED`: whether
    /// `max_expansions` may stop it.
    ///
    /// The open list: 64 LIFO buckets by distance to the goal, each a list linked
    /// through the slots' `next` fields, and a bit per non-empty bucket. The current
    /// bucket is the lowest non-empty one, and the next cell is chosen from registers
    /// when it can be (see the loop): for 252 of `multi_wall`'s 281 expansions, so
    /// that the chain from one expansion to the next is one load (the popped cell's
    /// link) rather than a mask update, a bit scan and a bucket head's load.
    // Out of line: the loop is then compiled on its own, its registers allocated for
    // it alone whatever the caller around it becomes.
    #[inline(never)]
    fn search<const LIMITED: bool>(
        &mut self,
        grid: &Grid,
        mobility: Mobility,
        window: &Window,
        start_slot: u32,
        goal: Cell,
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
        // Bucket 0 holds the goal alone; buckets 1.. cover distances from
        // start_dist - 56 up (every cell a path reaches), see `bucket`.
        let base = start_dist.saturating_sub(crate::MAX_STEPS as u64 + 1);
        let walls = &mut self.walls;
        walls.start(mobility, grid, window);
        // The slots whose rows and the rows above and below are marked (a copy of
        // the walls' own, kept where the loop can test it without their pointer).
        let mut marked = Marked::NONE;
        // The expanded cell nearest the goal so far, by distance - base.
        let base_i = base as i64;
        let mut best = (start_dist as i64 - base_i, start_slot);
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
        // The bucket popped from and the slot popped: the head of the lowest
        // non-empty bucket.
        let mut current = bucket(start_dist, base);
        let mut slot = start_slot;
        heads[current] = slot;
        mask |= 1 << current;
        loop {
            // The walls around the cell: those of its row and the rows above and
            // below. (First, where the fewest values live across the call.)
            if !marked.covers(slot) {
                marked = walls.extend(cells, wall, grid, slot >> WINDOW_SHIFT);
            }
            // The popped cell is the head of the current bucket; the rest of it.
            // SAFETY: `slot` is the start or a queued cell, a usable cell's slot.
            #[expect(unsafe_code, reason = "bounds proven by the window")]
            let next = unsafe { get(cells, slot) } & NIL;
            budget -= 1;
            if current.wrapping_sub(2) < 61 {
                // The neighbours' buckets are either side of the current one, the
                // lowest, so the next cell is known without the mask: the last one
                // queued nearer the goal, else the next in the current bucket. (From
                // registers: the next expansion starts as soon as this one's loads
                // are done.) Nothing is queued in the current bucket, so its head and
                // bit are only written when the search leaves it.
                debug_assert_eq!(current as i64, {
                    let (lx, ly) = unpack(slot);
                    manhattan(lx, ly, gx, gy) as i64 - base_i
                });
                let around = (current - 1, current + 1);
                // SAFETY: as above; queued cells are usable (walls and guard slots
                // are never queued).
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                let expanded = unsafe {
                    expand::<LIMITED>(
                        cells,
                        &mut heads,
                        &mut mask,
                        &mut best,
                        sides,
                        slot,
                        current as i64,
                        around,
                        budget,
                    )
                };
                let nearest = match expanded {
                    Expanded::Nearest(n) => n,
                    Expanded::LimitReached => {
                        return limit_spent(mask, best, goal_slot, self.max_expansions);
                    }
                };
                if nearest != NIL {
                    heads[current] = next;
                    mask ^= u64::from(next == NIL) << current;
                    current -= 1;
                    slot = nearest;
                    continue;
                }
                if next != NIL {
                    slot = next;
                    continue;
                }
                heads[current] = NIL;
                mask ^= 1 << current;
            } else {
                heads[current] = next;
                // The bucket's bit goes when its list empties.
                mask ^= u64::from(next == NIL) << current;
                if current == 0 {
                    // The goal: queued by the expansion before (the lowest bucket, so
                    // popped next), which counts as the last.
                    return (goal_slot - OFFSET, self.max_expansions - budget - 1);
                }
                // The first or last bucket, where distances are clamped.
                let (lx, ly) = unpack(slot);
                let d = manhattan(lx, ly, gx, gy);
                let around = (bucket(d - 1, base), bucket(d + 1, base));
                // SAFETY: as above.
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                let expanded = unsafe {
                    expand::<LIMITED>(
                        cells,
                        &mut heads,
                        &mut mask,
                        &mut best,
                        sides,
                        slot,
                        d as i64 - base_i,
                        around,
                        budget,
                    )
                };
                if let Expanded::LimitReached = expanded {
                    return limit_spent(mask, best, goal_slot, self.max_expansions);
                }
            }
            if mask == 0 {
                break;
            }
            current = mask.trailing_zeros() as usize;
            slot = heads[current];
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

/// The answer of a search whose expansion limit is spent: the goal if the last
/// expansion reached it (it is in bucket 0), else the best cell.
#[cold]
fn limit_spent(mask: u64, best: (i64, u32), goal_slot: u32, expanded: u32) -> (u32, u32) {
    let end = if mask & 1 != 0 { goal_slot } else { best.1 };
    (end - OFFSET, expanded)
}

/// How an expansion ends.
enum Expanded {
    /// The last neighbour queued one step nearer the goal, or `NIL`.
    Nearest(u32),
    /// It was the last expansion the limit allows.
    LimitReached,
}

/// Expands `slot`, whose key (distance to the goal less the query's base) is `key`:
/// records it as the best cell if it is, and queues its open neighbours in bucket
/// `around.0` (one step nearer the goal) or `around.1` (one step farther) of the open
/// list (64 LIFO buckets by distance to the goal, each a list linked through the
/// slots' `next` fields, `heads`, and a bit per non-empty bucket, `mask`). `budget` is
/// the expansions left after this one.
///
/// # Safety
/// `slot` is the greedy slot of a usable cell of the window, so that it and its four
/// neighbours are below `cells.len()`.
#[inline(always)]
#[expect(clippy::too_many_arguments, reason = "the loop's registers, inlined")]
#[expect(unsafe_code, reason = "bounds proven by the window")]
unsafe fn expand<const LIMITED: bool>(
    cells: &mut [u32],
    heads: &mut [u32; 64],
    mask: &mut u64,
    best: &mut (i64, u32),
    sides: Sides,
    slot: u32,
    key: i64,
    around: (usize, usize),
    budget: u32,
) -> Expanded {
    // Every reached cell is popped before a search gives up (unless the expansion
    // limit stops it), so tracking the best cell here, once per expansion rather than
    // once per neighbour, sees them all.
    if key < best.0 {
        improve(best, (key, slot));
    }
    const STRIDE: u32 = 1 << WINDOW_SHIFT;
    let x = slot & (STRIDE - 1);
    let mut nearest = NIL;
    // SAFETY: the four neighbours of a usable cell, as the caller promises.
    unsafe {
        reach(
            cells,
            heads,
            mask,
            sides,
            slot + 1,
            0,
            x < sides.left,
            around,
            &mut nearest,
        );
        reach(
            cells,
            heads,
            mask,
            sides,
            slot + STRIDE,
            1,
            slot < sides.above,
            around,
            &mut nearest,
        );
        reach(
            cells,
            heads,
            mask,
            sides,
            slot - 1,
            2,
            x >= sides.right,
            around,
            &mut nearest,
        );
        reach(
            cells,
            heads,
            mask,
            sides,
            slot - STRIDE,
            3,
            slot >= sides.below,
            around,
            &mut nearest,
        );
    }
    if LIMITED && budget == 0 {
        return Expanded::LimitReached;
    }
    Expanded::Nearest(nearest)
}

/// Marks the neighbour at slot `n`, reached by direction `dir`, and queues it in its
/// bucket (`around.0` if it is `nearer` the goal, and then it is the `nearest`),
/// unless it is a wall or reached already.
///
/// # Safety
/// `n < cells.len()`.
#[inline(always)]
#[expect(clippy::too_many_arguments, reason = "the loop's registers, inlined")]
#[expect(unsafe_code, reason = "bounds proven by the window")]
unsafe fn reach(
    cells: &mut [u32],
    heads: &mut [u32; 64],
    mask: &mut u64,
    sides: Sides,
    n: u32,
    dir: u32,
    nearer: bool,
    around: (usize, usize),
    nearest: &mut u32,
) {
    let b = if nearer { around.0 } else { around.1 };
    // SAFETY: `n` is in bounds, as the caller promises.
    if unsafe { get(cells, n) } < sides.stamp {
        // SAFETY: as above.
        unsafe { set(cells, n, sides.stamp | dir << DIR_SHIFT | heads[b]) };
        heads[b] = n;
        *mask |= 1 << b;
        if nearer {
            *nearest = n;
        }
    }
}

/// Sets the best cell: out of line, as after its first expansions a search rarely finds
/// a better one, so that the test is a branch rather than conditional moves.
#[cold]
#[inline(never)]
fn improve(best: &mut (i64, u32), better: (i64, u32)) {
    *best = better;
}

/// The bucket of a cell at distance `d` from the goal: 0 for the goal alone, so that
/// reaching it needs no test per neighbour (it is popped next), and `d - base` from 1
/// to 63 for the others (`base` = one less than the least distance a cell 56 steps
/// from the start can have; nearer and farther cells share the end buckets).
#[inline(always)]
fn bucket(d: u64, base: u64) -> usize {
    if d == 0 {
        0
    } else {
        (d - base.min(d)).clamp(1, 63) as usize
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TileKind;

    #[test]
    fn a_limit_spent_by_the_expansion_reaching_the_goal_still_finds_it() {
        // Reaching (3, 0) from (0, 0) takes 3 expansions: (0, 0), (1, 0), (2, 0).
        let grid = Grid::new(8, 3).unwrap();
        let (from, to) = (Cell::new(0, 0), Cell::new(3, 0));
        for (limit, partial, expanded) in [(3, false, 3), (2, true, 2), (100, false, 3)] {
            let r = Greedy::new()
                .with_max_expansions(limit)
                .build_path(&grid, from, to, Mobility::FLOOR_ONLY)
                .unwrap();
            assert_eq!(
                (r.partial, r.expanded),
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
            .build_path(
                &grid,
                Cell::new(100, 100),
                Cell::new(300, 100),
                Mobility::FLOOR_ONLY,
            )
            .unwrap();
        assert_eq!(
            (r.partial, r.end, r.path.len()),
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
                .build_path(&grid, from, to, Mobility::FLOOR_ONLY)
                .unwrap();
            assert_eq!(
                (r.partial, r.end),
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
            .build_path(
                &grid,
                Cell::new(2, 2),
                Cell::new(0, 0),
                Mobility::FLOOR_ONLY,
            )
            .unwrap();
        assert!(!r.partial);
        assert_eq!(r.end, Cell::new(0, 0));
        let mut at = Cell::new(2, 2);
        for step in r.path {
            at = at.step(step);
            assert!(grid.cost(at, Mobility::FLOOR_ONLY) != 0, "{at} is a wall");
        }
    }
}
