//! Greedy best-first search over a search window.

use super::window::{Visit, WINDOW_SLOTS, Window, back};
use super::{Finished, NO_PARENT, PathError, PathResult, backtrack};
#[cfg(doc)]
use crate::GenerationMap;
use crate::{BucketQueue, Cell, Grid, GridLayer, GridPath};

/// Greedy best-first search: the fastest way to a good (not always the shortest) path.
///
/// It always expands the cell that looks closest to the goal (Manhattan distance) and
/// stops as soon as it reaches the goal, so on open or lightly walled maps it touches
/// little more than the path itself. Costs only decide what is passable; the reported
/// cost is what the path really costs. 4-connected.
///
/// Like [`AStar::new`](crate::AStar::new) it is confined to the window a 56-step path can
/// reach, its memory fixed at construction (about 230 KiB), and a query allocates
/// nothing. The open list is a [`BucketQueue`] keyed by distance to the goal.
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
    parents: ParentStamps,
    queue: BucketQueue<u32>,
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
            parents: ParentStamps::new(WINDOW_SLOTS),
            // Each cell is queued at most once per query: the pool never grows.
            queue: BucketQueue::with_capacity(WINDOW_SLOTS),
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
        self.parents.reset();
        self.queue.reset();
        let (end_slot, expanded) = self.search(grid, layer, &window, start_slot, to);
        let parents = &self.parents;
        Ok(backtrack(
            &Finished {
                grid,
                layer,
                window: &window,
                start: from,
                goal: to,
                end_slot,
                expanded,
            },
            |slot| parents.get(slot as usize),
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
        self.parents.set(start_slot as usize, NO_PARENT);
        if start_slot == goal_slot {
            return (start_slot, 0);
        }
        self.queue.push(0, pack(start_slot, NO_PARENT));
        let mut reach = Reach {
            parents: &mut self.parents,
            queue: &mut self.queue,
            gx,
            gy,
            // Buckets cover distances from start_dist - 56 up: every cell a path reaches.
            base: start_dist.saturating_sub(crate::MAX_STEPS as u64),
            goal_slot,
            best: (start_dist, start_slot),
            found: false,
        };
        let mut expanded = 0u32;
        while let Some(entry) = reach.queue.pop() {
            expanded += 1;
            let (slot, parent) = (entry >> 4, (entry & 0xF) as u8);
            let (lx, ly) = window.unpack(slot);
            // Every reached cell is popped before a search gives up (unless the
            // expansion limit stops it), so tracking the best cell here, once per
            // expansion rather than once per neighbour, sees them all.
            let d = manhattan(lx, ly, gx, gy);
            if d < reach.best.0 {
                reach.best = (d, slot);
            }
            window.visit_neighbours::<false, _>(
                grid,
                layer,
                slot,
                lx,
                ly,
                back::<false>(parent),
                &mut reach,
            );
            if reach.found || expanded >= self.max_expansions {
                break;
            }
        }
        (reach.best.1, expanded)
    }
}

/// A queue entry: the slot and the direction it was reached by (slots of a window
/// are below 2^15, so they fit with room to spare).
#[inline(always)]
const fn pack(slot: u32, dir: u8) -> u32 {
    (slot << 4) | dir as u32
}

#[inline(always)]
fn manhattan(x: u32, y: u32, gx: i64, gy: i64) -> u64 {
    (i64::from(x) - gx).unsigned_abs() + (i64::from(y) - gy).unsigned_abs()
}

/// The greedy step: mark each unseen neighbour and queue it by its distance to the
/// goal; stop at the goal.
struct Reach<'a> {
    parents: &'a mut ParentStamps,
    queue: &'a mut BucketQueue<u32>,
    gx: i64,
    gy: i64,
    base: u64,
    goal_slot: u32,
    best: (u64, u32),
    found: bool,
}

impl Visit for Reach<'_> {
    #[inline(always)]
    fn visit(&mut self, slot: u32, dir: u8, _cost: u8, x: u32, y: u32) {
        if !self.parents.claim(slot as usize, dir) {
            return;
        }
        if slot == self.goal_slot {
            self.best = (0, slot);
            self.found = true;
            return;
        }
        let d = manhattan(x, y, self.gx, self.gy);
        self.queue
            .push((d - self.base.min(d)).min(63) as u32, pack(slot, dir));
    }
}

/// The greedy search's parent directions with O(1) reset: a [`GenerationMap`] packed
/// into one `u32` per slot (`generation << 4 | direction`), half the memory of a
/// `GenerationMap<u8>`, which keeps the hot window in L1.
#[derive(Clone, Debug)]
struct ParentStamps {
    stamps: Vec<u32>,
    generation: u32,
}

impl ParentStamps {
    const GENERATIONS: u32 = 1 << 28;

    fn new(len: usize) -> Self {
        Self {
            stamps: vec![0; len],
            generation: 1,
        }
    }

    #[inline]
    fn reset(&mut self) {
        self.generation += 1;
        if self.generation == Self::GENERATIONS {
            self.stamps.fill(0);
            self.generation = 1;
        }
    }

    #[inline]
    fn set(&mut self, i: usize, dir: u8) {
        self.stamps[i] = self.generation << 4 | u32::from(dir);
    }

    /// The parent direction of slot `i`, or `NO_PARENT` if unseen.
    #[inline]
    fn get(&self, i: usize) -> u8 {
        match self.stamps.get(i) {
            Some(&s) if s >> 4 == self.generation => (s & 0xF) as u8,
            _ => NO_PARENT,
        }
    }

    /// Marks slot `i` as reached by `dir`; `false` if it was reached already.
    #[inline(always)]
    fn claim(&mut self, i: usize, dir: u8) -> bool {
        debug_assert!(i < self.stamps.len());
        // SAFETY: `i` is a slot of the search window (callers get it from
        // `visit_neighbours`), below `WINDOW_SLOTS == stamps.len()`.
        #[expect(unsafe_code, reason = "bounds proven by the window")]
        let stamp = unsafe { self.stamps.get_unchecked_mut(i) };
        if *stamp >> 4 == self.generation {
            return false;
        }
        *stamp = self.generation << 4 | u32::from(dir);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_wrap_around_really_clear() {
        let mut p = ParentStamps::new(4);
        p.generation = ParentStamps::GENERATIONS - 2;
        assert!(p.claim(1, 2));
        assert!(!p.claim(1, 3));
        assert_eq!(p.get(1), 2);
        p.reset();
        assert_eq!(p.get(1), NO_PARENT);
        assert!(p.claim(2, 1));
        p.reset(); // wraps: everything cleared, generation restarts at 1
        assert_eq!(p.generation, 1);
        assert!((0..4).all(|i| p.get(i) == NO_PARENT));
        assert!(p.claim(2, 0));
    }
}
