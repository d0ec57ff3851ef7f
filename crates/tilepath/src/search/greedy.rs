//! Greedy best-first search over a search window.

use super::rows::{EVEN, open_anf, open_cells};
use super::window::{WINDOW_SHIFT, WINDOW_SIDE, WINDOW_SLOTS, Window};
use super::{NO_PARENT, PathError, PathResult, Query, backtrack};
use crate::queue::Generation;
#[cfg(doc)]
use crate::queue::{BucketQueue, GenerationMap};
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
        // A limit the search cannot reach (a window holds fewer cells) needs no test
        // per expansion.
        let answer = if self.max_expansions >= WINDOW_SIDE * WINDOW_SIDE {
            self.search::<false>(grid, layer, &window, start_slot, to)
        } else {
            self.search::<true>(grid, layer, &window, start_slot, to)
        };
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
    fn search<const LIMITED: bool>(
        &mut self,
        grid: &Grid,
        layer: GridLayer,
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
        walls.start(layer, grid, window);
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

/// The scratch word of `slot`, a greedy slot.
///
/// # Safety
/// `slot < cells.len()`. The callers pass greedy slots of usable cells (the start,
/// queued slots: every queued cell is a neighbour of an expanded one that is not a
/// wall, and the guard slots around the usable area are walls), their neighbours, or
/// the wall slots `Walls` marks. Usable cells are at rows and columns
/// `1..=WINDOW_SIDE`, so their neighbours are below `SLOTS == cells.len()`.
#[inline(always)]
#[expect(unsafe_code, reason = "bounds proven by the window")]
unsafe fn get(cells: &[u32], slot: u32) -> u32 {
    debug_assert!((slot as usize) < cells.len());
    // SAFETY: in bounds, as the caller promises.
    unsafe { *cells.get_unchecked(slot as usize) }
}

/// Writes the scratch word of `slot`, a greedy slot.
///
/// # Safety
/// `slot < cells.len()` (see [`get`]).
#[inline(always)]
#[expect(unsafe_code, reason = "bounds proven by the window")]
unsafe fn set(cells: &mut [u32], slot: u32, word: u32) {
    debug_assert!((slot as usize) < cells.len());
    // SAFETY: in bounds, as the caller promises.
    unsafe { *cells.get_unchecked_mut(slot as usize) = word };
}

/// The greedy search's slot of a window slot is the window's plus `OFFSET`: its slots
/// are the window's moved one row down and one column right, so that every usable cell
/// has slots on all four sides (guard rows 0 and `WINDOW_SIDE + 1` and the columns
/// either side of the usable ones), and a wall test is the same read as a "reached"
/// test: walls hold a word of the query's generation (see [`Walls`]).
const OFFSET: u32 = (1 << WINDOW_SHIFT) + 1;
/// The greedy search's slots: the window's and two guard rows.
const SLOTS: usize = WINDOW_SLOTS + (2 << WINDOW_SHIFT);
const _: () = assert!(WINDOW_SIDE + 1 < 1 << WINDOW_SHIFT);

/// Where a slot's fields sit in its `u32`: `generation << 20 | direction << 16 | next`.
const GENERATION_SHIFT: u32 = 20;
const DIR_SHIFT: u32 = 16;
/// The end of a bucket list (slots of a window are below 2^15).
const NIL: u32 = 0xFFFF;

/// The greedy search's per-slot state with O(1) reset: a [`GenerationMap`] packed into
/// one `u32` a slot holding the generation it was reached in, the direction it was
/// reached by and the next slot of its bucket list, so the open list needs no memory
/// of its own (each slot is queued at most once per query), and walls are marked with
/// the generation too (see [`Walls`]). 57.5 KiB, reused by every query.
#[derive(Clone, Debug)]
struct Slots {
    cells: Vec<u32>,
    generation: Generation<{ 32 - GENERATION_SHIFT }>,
}

impl Slots {
    fn new(len: usize) -> Self {
        debug_assert!(len <= NIL as usize);
        Self {
            cells: vec![0; len],
            generation: Generation::new(),
        }
    }

    #[inline]
    fn reset(&mut self) {
        if self.generation.advance() {
            self.cells.fill(0);
        }
    }

    /// The parent direction of slot `i`, or `NO_PARENT` if unseen.
    #[inline]
    fn parent(&self, i: usize) -> u8 {
        match self.cells.get(i) {
            Some(&s) if s >> GENERATION_SHIFT == self.generation.get() => {
                ((s >> DIR_SHIFT) & 0xF) as u8
            }
            _ => NO_PARENT,
        }
    }
}

/// Rows marked beyond those a search needs when it grows the marked range: fewer calls
/// for a row or two more (2 made the fewest instructions on the reference maps).
const SLACK: u32 = 2;

/// Which rows of the greedy search's slots have their walls marked, and where the
/// query's window lies in the grid.
///
/// A wall (a cell closed to the layer, or a guard slot beside the window or the grid)
/// holds the query's wall word, so that the search tests "wall or reached" with one
/// read of the neighbour's slot. A row is marked when the search comes near it (it
/// marks [`SLACK`] rows ahead): a grid read for 32 cells, a layer test for all of them
/// in a few bit operations, and a store a wall (or a fill, for a guard row). A search
/// moves a row at a time, so the marked rows are always one range around the start's,
/// and a query pays only for the rows it reaches.
#[derive(Clone, Debug)]
struct Walls {
    /// The marked rows, greedy slot rows: `first..=last` (none while `first > last`).
    first: u32,
    last: u32,
    /// The layer's [`open_anf`].
    anf: [u64; 4],
    /// The window's usable columns, local: `x0..x1`.
    x0: usize,
    x1: usize,
    /// Greedy slot rows `top..top + rows` are grid rows; the grid index of row `top`'s
    /// first usable cell, and the grid's width.
    top: u32,
    rows: u32,
    origin: usize,
    width: usize,
}

impl Walls {
    fn new() -> Self {
        Self {
            first: 1,
            last: 0,
            anf: [0; 4],
            x0: 0,
            x1: 0,
            top: 0,
            rows: 0,
            origin: 0,
            width: 0,
        }
    }

    /// Forgets every row: the next search (of `layer`, in `window` of `grid`) marks
    /// them again.
    #[inline]
    fn start(&mut self, layer: GridLayer, grid: &Grid, window: &Window) {
        let (x0, x1) = window.columns();
        let (y0, y1) = window.rows();
        *self = Self {
            anf: open_anf(layer),
            x0: x0 as usize,
            x1: x1 as usize,
            top: y0 + 1,
            rows: y1.saturating_sub(y0),
            origin: window.row_start(grid, y0).unwrap_or(0),
            width: grid.width() as usize,
            ..Self::new()
        };
    }

    /// Grows the marked rows to take in `r - 1..=r + 1` (`1 <= r <= WINDOW_SIDE`, a
    /// greedy slot row); the slots now [`Marked`].
    #[cold]
    #[inline(never)]
    fn extend(&mut self, cells: &mut [u32], wall: u32, grid: &Grid, r: u32) -> Marked {
        if self.first > self.last {
            // An empty range at r.
            (self.first, self.last) = (r, r - 1);
        }
        // SLACK rows more than needed on a side that grows, so that the next call
        // comes that many rows later.
        if self.first > r - 1 {
            let top = r.saturating_sub(SLACK + 1);
            while self.first > top {
                self.first -= 1;
                self.mark(cells, wall, grid, self.first);
            }
        }
        if self.last < r + 1 {
            let bottom = (r + SLACK + 1).min(WINDOW_SIDE + 1);
            while self.last < bottom {
                self.last += 1;
                self.mark(cells, wall, grid, self.last);
            }
        }
        // At least three rows now.
        Marked {
            inner: (self.first + 1) << WINDOW_SHIFT,
            span: (self.last - self.first - 1) << WINDOW_SHIFT,
        }
    }

    /// Marks the walls of greedy slot row `r`: its closed cells and the guard slots
    /// either side of the usable columns, or all its usable columns if the row is
    /// outside the window or the grid.
    #[inline(always)]
    fn mark(&self, cells: &mut [u32], wall: u32, grid: &Grid, r: u32) {
        debug_assert!(r <= WINDOW_SIDE + 1);
        // The stores below are unchecked: a row past the guard row is never marked,
        // whatever the caller passes.
        let r = r.min(WINDOW_SIDE + 1);
        let row = (r as usize) << WINDOW_SHIFT;
        let (x0, x1) = (self.x0, self.x1);
        // Local column x is slot row + x + 1.
        let k = r.wrapping_sub(self.top);
        if k >= self.rows {
            fill(cells, wall, row + x0..row + x1 + 2);
            return;
        }
        // SAFETY: rows up to WINDOW_SIDE + 1 and columns up to WINDOW_SIDE + 1 (the
        // window's columns are below WINDOW_SIDE): below SLOTS, as `set` requires.
        #[expect(unsafe_code, reason = "bounds proven by the window")]
        unsafe {
            set(cells, (row + x0) as u32, wall);
            set(cells, (row + x1 + 1) as u32, wall);
        }
        // Whole bytes of the packed grid: the row's first usable cell is cell `s` of
        // the first word read, and a word holds 32 cells.
        let i = self.origin + k as usize * self.width;
        let s = i & 3;
        let end = x1 - x0 + s;
        // The slot of bit 2j of the first word (column j - s, at slot row + x0 + 1 +
        // j - s: `row >= 128` here, as `1 <= top <= r`).
        let at = row + x0 + 1 - s;
        // Marks the closed cells among those of `keep` in the word from bit `j0` on.
        let word = |cells: &mut [u32], j0: usize, keep: u64| {
            let mut closed = !open_cells(self.anf, grid.cells_from(i - s + j0)) & keep;
            while closed != 0 {
                let j = j0 + closed.trailing_zeros() as usize / 2;
                // SAFETY: a usable column (s <= j < end) of a row <= WINDOW_SIDE + 1.
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                unsafe {
                    set(cells, (at + j) as u32, wall);
                }
                closed &= closed - 1;
            }
        };
        let mut keep = EVEN << (2 * s);
        let mut j0 = 0;
        while j0 + 32 < end {
            word(cells, j0, keep);
            keep = EVEN;
            j0 += 32;
        }
        // The last word's `end - j0` (1..=32) cells.
        word(cells, j0, keep & (!0 >> (64 - 2 * (end - j0))));
    }
}

/// The slots whose own rows and the rows above and below have their walls marked:
/// `inner..inner + span`.
#[derive(Clone, Copy, Debug)]
struct Marked {
    inner: u32,
    span: u32,
}

impl Marked {
    const NONE: Self = Self { inner: 0, span: 0 };

    /// Whether the search may expand `slot` without marking more rows: one test.
    #[inline(always)]
    fn covers(self, slot: u32) -> bool {
        slot.wrapping_sub(self.inner) < self.span
    }
}

/// Marks the slots of `range` walls (a row outside the grid).
#[cold]
#[inline(never)]
fn fill(cells: &mut [u32], wall: u32, range: std::ops::Range<usize>) {
    if let Some(slots) = cells.get_mut(range) {
        slots.fill(wall);
    }
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
                .build_path(&grid, from, to, GridLayer::FLOOR_ONLY)
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
                GridLayer::FLOOR_ONLY,
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
                .build_path(&grid, from, to, GridLayer::FLOOR_ONLY)
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
                GridLayer::FLOOR_ONLY,
            )
            .unwrap();
        assert!(!r.partial);
        assert_eq!(r.end, Cell::new(0, 0));
        let mut at = Cell::new(2, 2);
        for step in r.path {
            at = at.step(step);
            assert!(grid.cost(at, GridLayer::FLOOR_ONLY) != 0, "{at} is a wall");
        }
    }

    #[test]
    fn slots_wrap_around_really_clear() {
        let mut p = Slots::new(4);
        p.generation
            .set((Generation::<{ 32 - GENERATION_SHIFT }>::LIMIT - 2) as u32);
        p.cells[1] = p.generation.get() << GENERATION_SHIFT | 2 << DIR_SHIFT | NIL;
        assert_eq!(p.parent(1), 2);
        p.reset();
        assert_eq!(p.parent(1), NO_PARENT);
        p.cells[2] = p.generation.get() << GENERATION_SHIFT | 1 << DIR_SHIFT | NIL;
        assert_eq!(p.parent(2), 1);
        p.reset(); // wraps: everything cleared, generation restarts at 1
        assert_eq!(p.generation.get(), 1);
        assert!((0..4).all(|i| p.parent(i) == NO_PARENT));
    }
}
