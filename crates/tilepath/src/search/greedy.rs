//! Greedy best-first search over a search window.

use super::rows::PassRows;
use super::window::{WINDOW_SHIFT, WINDOW_SLOTS, Window};
use super::{NO_PARENT, PathError, PathResult, Query, backtrack};
#[cfg(doc)]
use crate::{BucketQueue, GenerationMap};
use crate::{Cell, Grid, GridLayer, GridPath};

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
/// once, so the queue needs no memory of its own. Which neighbours are open and not
/// yet seen is read from a bit map of the window (one bit a cell, converted from the
/// grid a row at a time as the search reaches it), so a neighbour test is a shift.
///
/// ```
/// use tilepath::{Cell, Greedy, Grid, GridLayer};
/// let grid = Grid::new(10, 10)?;
/// let mut greedy = Greedy::new();
/// let r = greedy.build_path(&grid, Cell::new(1, 1), Cell::new(8, 4), GridLayer::FLOOR_ONLY)?;
/// assert_eq!((r.path.len(), r.end, r.partial), (10, Cell::new(8, 4), false));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Greedy {
    slots: Slots,
    rows: PassRows,
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
            slots: Slots::new(WINDOW_SLOTS),
            rows: PassRows::new(),
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

    /// A path from `from` towards `to` for a unit with `layer`.
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
        layer: GridLayer,
    ) -> Result<PathResult<GridPath>, PathError> {
        if !grid.contains(from) {
            return Err(PathError::start_out_of_bounds(grid, from));
        }
        let window = Window::around(grid, from);
        let start_slot = window
            .slot_of(from)
            .ok_or_else(|| PathError::start_out_of_bounds(grid, from))?;
        self.slots.reset();
        let answer = self.search(grid, layer, &window, start_slot, to);
        let slots = &self.slots;
        Ok(backtrack(
            &Query {
                grid,
                layer,
                window: &window,
                start: from,
                goal: to,
            },
            answer,
            |slot| slots.parent(slot as usize),
        ))
    }

    fn search(
        &mut self,
        grid: &Grid,
        layer: GridLayer,
        window: &Window,
        start_slot: u32,
        goal: Cell,
    ) -> (u32, u32) {
        let (gx, gy) = window.local(goal);
        let goal_slot = window.slot_of(goal).unwrap_or(u32::MAX);
        let (sx, sy) = window.unpack(start_slot);
        let start_dist = manhattan(sx, sy, gx, gy);
        let stamp = self.slots.generation << GENERATION_SHIFT;
        let cells = &mut self.slots.cells[..];
        cells[start_slot as usize] = stamp | u32::from(NO_PARENT) << DIR_SHIFT | NIL;
        if start_slot == goal_slot {
            return (start_slot, 0);
        }
        // Buckets cover distances from start_dist - 56 up: every cell a path reaches.
        let base = start_dist.saturating_sub(crate::MAX_STEPS as u64);
        let rows = &mut self.rows;
        rows.start(layer);
        rows.prepare(grid, window, sy + 1);
        rows.clear(sy + 1, sx + 1);
        let mut reach = Reach {
            cells,
            rows,
            stamp,
            heads: [NIL; 64],
            mask: 0,
            hot: start_slot,
            hot_bucket: bucket(start_dist, base),
            bucket: 0,
            goal_slot,
            best: (start_dist, start_slot),
            found: false,
        };
        let mut expanded = 0u32;
        loop {
            // The hot node, or the most recent entry of the lowest non-empty bucket.
            let slot = if reach.hot != NIL {
                reach.bucket = core::mem::replace(&mut reach.hot_bucket, NO_BUCKET);
                core::mem::replace(&mut reach.hot, NIL)
            } else if reach.mask != 0 {
                let b = reach.mask.trailing_zeros() as usize;
                let slot = reach.heads[b];
                // SAFETY: only slots of the window (below `WINDOW_SLOTS ==
                // cells.len()`) are ever linked into a bucket.
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                let entry = unsafe { *reach.cells.get_unchecked(slot as usize) };
                let next = entry & NIL;
                reach.heads[b] = next;
                if next == NIL {
                    reach.mask &= !(1 << b);
                }
                reach.bucket = b;
                slot
            } else {
                break;
            };
            expanded += 1;
            let (lx, ly) = window.unpack(slot);
            // Every reached cell is popped before a search gives up (unless the
            // expansion limit stops it), so tracking the best cell here, once per
            // expansion rather than once per neighbour, sees them all.
            let d = manhattan(lx, ly, gx, gy);
            if d < reach.best.0 {
                reach.best = (d, slot);
            }
            // Unseen open neighbours, from the bit rows (row ly + 1, bit lx + 1 is
            // this cell); each is one step nearer the goal or one step farther.
            let r = ly + 1;
            reach.rows.prepare(grid, window, r);
            let at = PassRows::locate(lx);
            let around = reach.rows.bits(r, at);
            let down = reach.rows.bits(r + 1, at) >> 1;
            let up = reach.rows.bits(r - 1, at) >> 1;
            let (lo, hi) = (bucket(d - 1, base), bucket(d + 1, base));
            let (x, y) = (i64::from(lx), i64::from(ly));
            let pick = |nearer: bool| if nearer { lo } else { hi };
            const STRIDE: u32 = 1 << WINDOW_SHIFT;
            if around & 4 != 0 {
                reach.reach(slot + 1, 0, pick(x < gx), r, lx + 2);
            }
            if down & 1 != 0 {
                reach.reach(slot + STRIDE, 1, pick(y < gy), r + 1, lx + 1);
            }
            if around & 1 != 0 {
                reach.reach(slot - 1, 2, pick(x > gx), r, lx);
            }
            if up & 1 != 0 {
                reach.reach(slot - STRIDE, 3, pick(y > gy), r - 1, lx + 1);
            }
            if reach.found || expanded >= self.max_expansions {
                break;
            }
        }
        if reach.found {
            reach.best.1 = goal_slot;
        }
        (reach.best.1, expanded)
    }
}

/// The bucket of a cell at distance `d` from the goal (`base` = the least distance a
/// reachable cell can have).
#[inline(always)]
fn bucket(d: u64, base: u64) -> usize {
    (d - base.min(d)).min(63) as usize
}

/// `Reach::hot_bucket` when there is no hot node.
const NO_BUCKET: usize = 64;

#[inline(always)]
fn manhattan(x: u32, y: u32, gx: i64, gy: i64) -> u64 {
    (i64::from(x) - gx).unsigned_abs() + (i64::from(y) - gy).unsigned_abs()
}

/// The greedy step: mark each unseen neighbour with the direction it was reached by
/// and link it into the bucket of its distance to the goal; stop at the goal.
///
/// A neighbour whose bucket is not above the expanded node's would be the next popped
/// (no bucket below that one holds anything, and the lists are LIFO), so it skips the
/// list: it is kept as the *hot* node and expanded next, and only linked into its
/// bucket if a neighbour that would be popped before it arrives. The order of
/// expansion is exactly that of the plain bucket lists.
struct Reach<'a> {
    cells: &'a mut [u32],
    /// Open cells not seen yet: a search clears a cell's bit when it reaches it.
    rows: &'a mut PassRows,
    stamp: u32,
    /// The open list: 64 LIFO buckets by distance to the goal, each a list linked
    /// through the slots' `next` fields, and a bit per non-empty bucket.
    heads: [u32; 64],
    mask: u64,
    /// The hot node (`NIL` if none) and its bucket (`NO_BUCKET` if none).
    hot: u32,
    hot_bucket: usize,
    /// Bucket of the node being expanded.
    bucket: usize,
    goal_slot: u32,
    best: (u64, u32),
    found: bool,
}

impl Reach<'_> {
    /// Queues the open, unseen neighbour at `slot` (bit `bit` of row `r`), reached by
    /// `dir`, in bucket `b`.
    #[inline(always)]
    fn reach(&mut self, slot: u32, dir: u8, b: usize, r: u32, bit: u32) {
        debug_assert!((slot as usize) < self.cells.len());
        self.rows.clear(r, bit);
        let fields = self.stamp | u32::from(dir) << DIR_SHIFT;
        if slot == self.goal_slot {
            self.set(slot, fields | NIL);
            self.found = true;
            return;
        }
        if b <= self.bucket && b <= self.hot_bucket {
            if self.hot != NIL {
                let (hot, hb) = (self.hot, self.hot_bucket);
                // SAFETY: the hot node is a window slot, below `cells.len()`.
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                let h = unsafe { *self.cells.get_unchecked(hot as usize) };
                self.set(hot, (h & !NIL) | self.heads[hb]);
                self.heads[hb] = hot;
                self.mask |= 1 << hb;
            }
            self.set(slot, fields | NIL);
            self.hot = slot;
            self.hot_bucket = b;
        } else {
            self.set(slot, fields | self.heads[b]);
            self.heads[b] = slot;
            self.mask |= 1 << b;
        }
    }

    /// Writes the scratch word of `slot`, a window slot.
    #[inline(always)]
    fn set(&mut self, slot: u32, word: u32) {
        // SAFETY: callers pass window slots, below `WINDOW_SLOTS == cells.len()`.
        #[expect(unsafe_code, reason = "bounds proven by the window")]
        unsafe {
            *self.cells.get_unchecked_mut(slot as usize) = word;
        }
    }
}

/// Where a slot's fields sit in its `u32`: `generation << 20 | direction << 16 | next`.
const GENERATION_SHIFT: u32 = 20;
const DIR_SHIFT: u32 = 16;
/// The end of a bucket list (slots of a window are below 2^15).
const NIL: u32 = 0xFFFF;

/// The greedy search's per-slot state with O(1) reset: a [`GenerationMap`] packed into
/// one `u32` a slot holding the generation it was reached in, the direction it was
/// reached by and the next slot of its bucket list, so the open list needs no memory
/// of its own (each slot is queued at most once per query). 56 KiB, reused by every
/// query.
#[derive(Clone, Debug)]
struct Slots {
    cells: Vec<u32>,
    generation: u32,
}

impl Slots {
    const GENERATIONS: u32 = 1 << (32 - GENERATION_SHIFT);

    fn new(len: usize) -> Self {
        debug_assert!(len <= NIL as usize);
        Self {
            cells: vec![0; len],
            generation: 1,
        }
    }

    #[inline]
    fn reset(&mut self) {
        self.generation += 1;
        if self.generation == Self::GENERATIONS {
            self.cells.fill(0);
            self.generation = 1;
        }
    }

    /// The parent direction of slot `i`, or `NO_PARENT` if unseen.
    #[inline]
    fn parent(&self, i: usize) -> u8 {
        match self.cells.get(i) {
            Some(&s) if s >> GENERATION_SHIFT == self.generation => ((s >> DIR_SHIFT) & 0xF) as u8,
            _ => NO_PARENT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_wrap_around_really_clear() {
        let mut p = Slots::new(4);
        p.generation = Slots::GENERATIONS - 2;
        p.cells[1] = p.generation << GENERATION_SHIFT | 2 << DIR_SHIFT | NIL;
        assert_eq!(p.parent(1), 2);
        p.reset();
        assert_eq!(p.parent(1), NO_PARENT);
        p.cells[2] = p.generation << GENERATION_SHIFT | 1 << DIR_SHIFT | NIL;
        assert_eq!(p.parent(2), 1);
        p.reset(); // wraps: everything cleared, generation restarts at 1
        assert_eq!(p.generation, 1);
        assert!((0..4).all(|i| p.parent(i) == NO_PARENT));
    }
}
