//! Greedy best-first search over a search window.

use super::window::{Visit, WINDOW_SLOTS, Window, back};
use super::{Finished, NO_PARENT, PathError, PathResult, backtrack};
use crate::{BucketQueue, Cell, GenerationMap, Grid, GridLayer, GridPath};

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
    parents: GenerationMap<u8>,
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
            parents: GenerationMap::new(WINDOW_SLOTS, NO_PARENT),
            // Each cell is queued at most once per query: the pool never grows.
            queue: BucketQueue::with_capacity(WINDOW_SLOTS),
            max_expansions: u32::MAX,
        }
    }

    /// Stops a search after `max` expansions (at least 1) with a partial result.
    #[must_use]
    pub fn with_max_expansions(mut self, max: u32) -> Self {
        self.max_expansions = max.max(1);
        self
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
        let out_of_bounds = PathError::StartOutOfBounds {
            start: from,
            width: grid.width(),
            height: grid.height(),
        };
        if !grid.contains(from) {
            return Err(out_of_bounds);
        }
        let window = Window::around(grid, from);
        let start_slot = window.slot_of(from).ok_or(out_of_bounds)?;
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
            |slot| parents.get(slot as usize).copied().unwrap_or(NO_PARENT),
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
    parents: &'a mut GenerationMap<u8>,
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
        // SAFETY: `slot` comes from `visit_neighbours`, inside the window, and the
        // parent map holds `WINDOW_SLOTS >= window.slots()` slots.
        #[expect(unsafe_code, reason = "bounds proven by the window")]
        let (parent, seen) = unsafe { self.parents.entry_unchecked(slot as usize) };
        if seen {
            return;
        }
        *parent = dir;
        let d = manhattan(x, y, self.gx, self.gy);
        if d < self.best.0 {
            self.best = (d, slot);
        }
        if slot == self.goal_slot {
            self.found = true;
            return;
        }
        self.queue.push((d - self.base.min(d)).min(63) as u32, pack(slot, dir));
    }
}
