//! A* over a search window or the whole grid, 4- or 8-connected.

use super::linked::LinkedNodes;
use super::nodes::{CLOSED, node_g, node_parent, node_store, open_node};
use super::window::{Visit, WINDOW_SLOTS, Window};
use super::{NO_PARENT, PathError, PathResult, Query, backtrack};
#[cfg(doc)]
use crate::MAX_UNIT_SIZE;
#[cfg(doc)]
use crate::OCTILE_STRAIGHT;
use crate::footprint::{CellCosts, EnterCost, FootprintCosts};
use crate::queue::{BucketQueue, RadixHeap, StampedWords};
use crate::topology::{Eight, Four, Neighborhood, with_hex};
use crate::{
    Cell, Components, Connectivity, Footprint, Grid, GridPath, GridPath8, HexLayout, Mobility,
};
use core::marker::PhantomData;

/// The most cells [`AStar::build_path_in`] expands for a goal out of reach.
pub const UNREACHABLE_EXPANSIONS: u32 = 4096;

/// Where an [`AStar`] may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    Window,
    WholeGrid,
}

/// A* search: optimal paths that honour every cell cost of a [`Mobility`].
///
/// Build it once and reuse it: a query allocates nothing (the scratch, nodes and open
/// list, is reset in O(1)).
///
/// - [`AStar::new`]: the search is confined to the window a 56-step path can reach
///   (113x113 cells around the start), so memory is fixed at construction whatever the
///   grid size and a query never costs more than that window: 113 KiB of nodes (and,
///   for one-cost mobilities, a 5 KiB bit map of the window's open cells) for
///   4-connected mobilities whose costs fit the bucket ring (below), another 113 KiB of
///   nodes and a heap reserved for the worst case (1.8 MiB of address space, touched
///   only as far as queries reach) for the others.
/// - [`AStar::whole_grid`]: the search may cover the whole grid, for routes of hundreds
///   of steps; the scratch is sized to the grid on first use and reused: 8 bytes a
///   cell, plus open lists that grow with the frontier
///   ([`AStar::whole_grid_bytes`]; 128 MiB for 4096x4096). Scratch the system cannot
///   give is an error ([`PathError::OutOfMemory`]), never an abort.
///
/// [`build_path`](Self::build_path) searches 4-connected, [`build_path8`](Self::build_path8)
/// 8-connected (a diagonal step needs both orthogonal neighbours passable: no corner
/// cutting; it costs `sqrt(2)` times the cell cost). The cost of a step is the cost of
/// the cell it enters; the start's own cost is ignored, so a unit standing on a cell
/// that has just become blocked can still walk off it.
///
/// The open list is a 64-bucket ring (Dial's algorithm) when every f-value in the
/// queue stays within 64 of the minimum (4-connected, `max_cost + min_cost < 64`:
/// every unit-cost and most weighted mobilities), and a [`RadixHeap`] otherwise. A
/// windowed search links its ring's buckets through its nodes (one `u64` a cell: an
/// improved node moves between buckets, nothing else is stored); a whole-grid one uses
/// a [`BucketQueue`]. Ties between equal f-values go to the node queued last, which
/// dives towards the goal.
///
/// # Implementation
///
/// A node is one `u64`: its g (fixed-point, see [`OCTILE_STRAIGHT`]), closed flag and
/// parent direction in the low bits, and the generation it was written in (O(1)
/// reset) in the bits the largest g of the area leaves free. Whole-grid slots are
/// `y * width + x`; an expansion turns its slot back into coordinates with a
/// multiplication by the width's inverse.
///
/// ```
/// use tilepath::{AStar, Cell, Grid, Mobility, TileKind};
/// let grid = Grid::from_ascii("....\n.##.\n....", |c| match c {
///     '.' => Some(TileKind::K0),
///     _ => Some(TileKind::K1),
/// })?;
/// let mut astar = AStar::new();
/// let r = astar.build_path(&grid, Cell::new(0, 1), Cell::new(3, 1), Mobility::FLOOR_ONLY)?;
/// assert!(!r.partial);
/// assert_eq!((r.path.len(), r.cost, r.end), (5, 5.0, Cell::new(3, 1)));
/// assert_eq!(r.path.end(Cell::new(0, 1)), Cell::new(3, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct AStar {
    scope: Scope,
    nodes: StampedWords,
    /// The windowed 4-connected and hex searches' nodes and open list in one (see `linked`);
    /// none for a whole-grid solver.
    linked: Option<Box<LinkedNodes>>,
    ring: BucketQueue<u32>,
    radix: RadixHeap<u32>,
    max_expansions: u32,
}

impl Default for AStar {
    fn default() -> Self {
        Self::new()
    }
}

impl AStar {
    /// A windowed solver: paths of up to 56 steps, memory fixed now.
    #[must_use]
    pub fn new() -> Self {
        Self {
            scope: Scope::Window,
            nodes: node_store(WINDOW_SLOTS),
            // 4-connected and hex mobilities whose costs fit a 64-bucket ring take the linked
            // search; the rest use the node map and a radix heap. A cell is queued at
            // most once per neighbour it is reached from, so this bound holds for any
            // query: the heap never grows.
            linked: Some(Box::new(LinkedNodes::new(WINDOW_SLOTS))),
            ring: BucketQueue::new(),
            radix: RadixHeap::with_capacity(8 * WINDOW_SLOTS),
            max_expansions: u32::MAX,
        }
    }

    /// A whole-grid solver. Its scratch grows (allocates) to fit the largest grid it is
    /// given and is reused after that; see [`for_grid`](Self::for_grid) to size it now.
    #[must_use]
    pub fn whole_grid() -> Self {
        Self {
            scope: Scope::WholeGrid,
            nodes: node_store(0),
            linked: None,
            ring: BucketQueue::new(),
            radix: RadixHeap::new(),
            max_expansions: u32::MAX,
        }
    }

    /// A whole-grid solver with its scratch sized for `grid` now. If that scratch
    /// cannot be had (see [`try_for_grid`](Self::try_for_grid)), the solver starts
    /// empty, like [`whole_grid`](Self::whole_grid), and its first query on `grid`
    /// reports the error.
    #[must_use]
    pub fn for_grid(grid: &Grid) -> Self {
        Self::try_for_grid(grid).unwrap_or_else(|_| Self::whole_grid())
    }

    /// A whole-grid solver with its scratch sized for `grid` now, or the reason it
    /// cannot be.
    ///
    /// # Errors
    /// [`PathError::GridTooLarge`] past 2^32 scratch slots;
    /// [`PathError::OutOfMemory`] (with [`whole_grid_bytes`](Self::whole_grid_bytes))
    /// if the system cannot give the scratch. Nothing is allocated then.
    pub fn try_for_grid(grid: &Grid) -> Result<Self, PathError> {
        let mut s = Self::whole_grid();
        s.try_grow_to(grid)?;
        Ok(s)
    }

    /// Bytes of scratch a whole-grid search over a `width x height` grid reserves: an
    /// 8-byte node a cell (a 1-cell-wide grid takes two a cell), and open lists of
    /// [`OPEN_PER_LINE`](Self::OPEN_PER_LINE) entries a row and a column at 32 bytes
    /// (a bucket queue's 8 and a radix heap's 24). Only the parts a query reaches are
    /// touched. The open lists grow past that if a search's frontier does, and stay
    /// grown.
    #[must_use]
    pub const fn whole_grid_bytes(width: u32, height: u32) -> u64 {
        let slots = Window::whole_stride(width) as u64 * height as u64;
        slots * 8
            + Self::open_reserve(width, height)
                * (BucketQueue::<u32>::ENTRY_BYTES + RadixHeap::<u32>::ENTRY_BYTES) as u64
    }

    /// Open-list entries a whole-grid search reserves per row and per column: its
    /// frontier is a line around the cells it has reached, so it grows with the
    /// grid's sides, not its area.
    pub const OPEN_PER_LINE: u64 = 2;

    const fn open_reserve(width: u32, height: u32) -> u64 {
        Self::OPEN_PER_LINE * (width as u64 + height as u64)
    }

    /// Sizes the whole-grid scratch for `grid` unless it is large enough already;
    /// asks the system for the whole first, so that a refusal changes nothing.
    fn try_grow_to(&mut self, grid: &Grid) -> Result<(), PathError> {
        let (w, h) = (grid.width(), grid.height());
        let slots = Window::whole_slots(w, h).ok_or(PathError::GridTooLarge {
            width: w,
            height: h,
        })?;
        if self.nodes.len() < slots {
            let bytes = Self::whole_grid_bytes(w, h);
            crate::memory::ensure(bytes).map_err(|bytes| PathError::OutOfMemory { bytes })?;
            self.nodes = node_store(0); // gives the old block back first
            self.nodes = node_store(slots);
            let open = Self::open_reserve(w, h) as usize;
            if self.ring.capacity() < open {
                self.ring = BucketQueue::with_capacity(open);
            }
            if self.radix.capacity() < open {
                self.radix = RadixHeap::with_capacity(open);
            }
        }
        Ok(())
    }

    /// The node store and radix heap, reset, for another optimal search over the same
    /// area (jump point search borrows them): sized for the whole of `grid` if this
    /// is a whole-grid solver, else for a window of 113x113 cells.
    ///
    /// # Errors
    /// As [`try_for_grid`](Self::try_for_grid), for a whole-grid solver.
    pub(crate) fn borrow_scratch(
        &mut self,
        grid: &Grid,
    ) -> Result<(&mut StampedWords, &mut RadixHeap<u32>), PathError> {
        if self.scope == Scope::WholeGrid {
            self.try_grow_to(grid)?;
        }
        self.nodes.reset();
        self.radix.reset();
        Ok((&mut self.nodes, &mut self.radix))
    }

    /// The node store as the last search left it.
    pub(crate) fn nodes(&self) -> &StampedWords {
        &self.nodes
    }

    /// Stops a search after `max` node expansions (at least 1) with a partial result
    /// towards the best cell seen so far. Caps the time of a query on huge grids or
    /// when goals are often unreachable.
    #[must_use]
    pub fn with_max_expansions(mut self, max: u32) -> Self {
        self.set_max_expansions(max);
        self
    }

    /// See [`with_max_expansions`](Self::with_max_expansions); `u32::MAX` = no limit.
    pub fn set_max_expansions(&mut self, max: u32) {
        self.max_expansions = max.max(1);
    }

    /// The expansion limit ([`with_max_expansions`](Self::with_max_expansions)).
    #[must_use]
    pub const fn max_expansions(&self) -> u32 {
        self.max_expansions
    }

    /// Bytes of scratch this solver holds: node slots plus reserved open-list
    /// entries (reserved memory is only touched as queries use it).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * 8
            + self.linked.as_ref().map_or(0, |l| l.bytes())
            + self.ring.memory_bytes()
            + self.radix.memory_bytes()
    }

    /// The optimal 4-connected path from `from` to `to` for a unit with `mobility`.
    ///
    /// Returns the route's first steps (at most 56); when the goal cannot be reached
    /// within the solver's scope, the path leads to the reachable cell closest to it
    /// and the result is [`partial`](PathResult::partial). `from == to` gives an empty,
    /// complete path.
    ///
    /// Cost: O(n) for the n cells expanded (at most the window, or the grid); no
    /// allocation.
    ///
    /// # Errors
    /// [`PathError::StartOutOfBounds`] if `from` is outside the grid;
    /// [`PathError::GridTooLarge`] for a whole-grid search on a grid of more than
    /// 2^32 scratch slots; [`PathError::OutOfMemory`] if the system cannot give a
    /// whole-grid search's scratch (the solver is unchanged and serves smaller grids).
    pub fn build_path(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath>, PathError> {
        self.run::<Four>(grid, from, to, mobility)
    }

    /// The optimal 8-connected path (no corner cutting, diagonal steps cost `sqrt(2)`
    /// times the cell cost). Same contract as [`build_path`](Self::build_path).
    ///
    /// # Errors
    /// As [`build_path`](Self::build_path).
    pub fn build_path8(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath8>, PathError> {
        self.run::<Eight>(grid, from, to, mobility)
    }

    /// [`build_path`](Self::build_path) for a goal that may be out of reach, answered
    /// without searching a whole component: when `parts` says `to` cannot be reached
    /// from `from` (blocked, outside the grid, or in another component), the search
    /// stops after at most [`UNREACHABLE_EXPANSIONS`] expansions (or the solver's own
    /// limit, if lower) and the partial route ends at the cell closest to the goal
    /// among those it expanded. Reachable goals get exactly `build_path`'s answer.
    ///
    /// `parts` must be up to date with `grid` and built for a mobility that lets units
    /// enter the same tile kinds as `mobility`.
    ///
    /// # Errors
    /// As [`build_path`](Self::build_path).
    pub fn build_path_in(
        &mut self,
        parts: &Components,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath>, PathError> {
        within_reach(self, parts, (from, to), mobility, |s| {
            s.run::<Four>(grid, from, to, mobility)
        })
    }

    /// [`build_path8`](Self::build_path8) with [`build_path_in`](Self::build_path_in)'s
    /// answer for goals out of reach.
    ///
    /// # Errors
    /// As [`build_path`](Self::build_path).
    pub fn build_path8_in(
        &mut self,
        parts: &Components,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath8>, PathError> {
        within_reach(self, parts, (from, to), mobility, |s| {
            s.run::<Eight>(grid, from, to, mobility)
        })
    }

    /// The optimal path on a hex map laid out as `layout`: the steps of
    /// [`HexLayout::directions`], each costing the cell it enters (the path's codes
    /// are those steps' [`Direction8`](crate::Direction8)s, so
    /// [`GridPath8::end`] and iteration work as on square maps). Same contract as
    /// [`build_path`](Self::build_path), with hex distances where it speaks of
    /// distances: a partial route ends at the reachable cell nearest the goal by
    /// [`HexLayout::distance`]. The window of [`AStar::new`] is the same 113x113 cells
    /// (every cell 56 hex steps can reach lies in it).
    ///
    /// Units larger than one cell are not supported on hex maps yet (unit sizes on hex
    /// maps may come later).
    ///
    /// ```
    /// use tilepath::{AStar, Cell, Direction8, Grid, HexLayout, Mobility};
    /// let grid = Grid::new(8, 8)?;
    /// let mut astar = AStar::new();
    /// let (from, to) = (Cell::new(0, 0), Cell::new(3, 3));
    /// let r = astar.build_path_hex(&grid, from, to, Mobility::FLOOR_ONLY, HexLayout::RowOdd)?;
    /// // 3 rows up and 3 columns right take 5 hex steps, not 6.
    /// assert_eq!((r.path.len(), r.cost, r.end), (5, 5.0, to));
    /// assert_eq!(r.path.end(from), to);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`build_path`](Self::build_path).
    pub fn build_path_hex(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
        layout: HexLayout,
    ) -> Result<PathResult<GridPath8>, PathError> {
        with_hex!(layout, N => self.run::<N>(grid, from, to, mobility))
    }

    /// [`build_path_hex`](Self::build_path_hex) with
    /// [`build_path_in`](Self::build_path_in)'s answer for goals out of reach.
    ///
    /// `parts` must be built for this hex layout
    /// ([`Components::with_connectivity`] with `Connectivity::Hex(layout)`): hex steps
    /// join cells that square components keep apart. Components of another
    /// connectivity are not used (the search runs as `build_path_hex` would), so they
    /// never give a wrong answer, only a slower one for goals out of reach.
    ///
    /// # Errors
    /// As [`build_path`](Self::build_path).
    pub fn build_path_hex_in(
        &mut self,
        parts: &Components,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
        layout: HexLayout,
    ) -> Result<PathResult<GridPath8>, PathError> {
        if parts.connectivity() != Connectivity::Hex(layout) {
            return self.build_path_hex(grid, from, to, mobility, layout);
        }
        within_reach(self, parts, (from, to), mobility, |s| {
            s.build_path_hex(grid, from, to, mobility, layout)
        })
    }

    /// [`build_path`](Self::build_path) for a unit of `footprint.size() x
    /// footprint.size()` cells (see [`Footprint`] for the movement rule and where the
    /// unit's cell is in it). A goal the footprint cannot occupy gives a partial path
    /// towards the closest cell it can, as a blocked goal does. Size 1 is
    /// `build_path` itself.
    ///
    /// `footprint`'s clearance must be up to date with `grid` and built for a mobility
    /// that lets units enter the same tile kinds as `mobility`.
    ///
    /// # Errors
    /// As [`build_path`](Self::build_path), and [`PathError::ZeroUnitSize`],
    /// [`PathError::UnitTooLarge`] (larger than the grid or [`MAX_UNIT_SIZE`]) or
    /// [`PathError::ClearanceMismatch`].
    pub fn build_path_sized(
        &mut self,
        footprint: Footprint<'_>,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath>, PathError> {
        self.run_sized::<Four>(footprint, grid, from, to, mobility)
    }

    /// [`build_path8`](Self::build_path8) for a unit of `footprint.size() x
    /// footprint.size()` cells: [`build_path_sized`](Self::build_path_sized)'s rules,
    /// 8-connected (a diagonal step needs both orthogonal steps beside it legal).
    ///
    /// # Errors
    /// As [`build_path_sized`](Self::build_path_sized).
    pub fn build_path8_sized(
        &mut self,
        footprint: Footprint<'_>,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath8>, PathError> {
        self.run_sized::<Eight>(footprint, grid, from, to, mobility)
    }

    /// The search for a footprint: size 1 is the one-cell search.
    pub(crate) fn run_sized<N: Neighborhood>(
        &mut self,
        footprint: Footprint<'_>,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<N::Path>, PathError> {
        match FootprintCosts::of(footprint, grid, mobility, from)? {
            None => self.run::<N>(grid, from, to, mobility),
            Some(costs) => self.run_with::<N, _>(costs, from, to, mobility),
        }
    }

    pub(crate) fn run<N: Neighborhood>(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<N::Path>, PathError> {
        self.run_with::<N, _>(CellCosts { grid, mobility }, from, to, mobility)
    }

    /// The search proper, over `costs` (of a unit of `mobility`).
    fn run_with<N: Neighborhood, C: EnterCost>(
        &mut self,
        costs: C,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<N::Path>, PathError> {
        let grid = costs.grid();
        if !grid.contains(from) {
            return Err(PathError::start_out_of_bounds(grid, from));
        }
        let window = match self.scope {
            Scope::Window => Window::around(grid, from),
            Scope::WholeGrid => {
                self.try_grow_to(grid)?;
                Window::whole(grid)
            }
        };
        let start_slot = window
            .slot_of(from)
            .ok_or_else(|| PathError::start_out_of_bounds(grid, from))?;
        // The unchecked accesses of the search rely on this.
        assert!(
            self.nodes.len() >= window.slots(),
            "scratch smaller than its window"
        );
        let query = Query {
            costs,
            window: &window,
            start: from,
            goal: to,
            octile: N::DIAGONALS,
        };
        // Steps of weight 1 (4-connected, hex) keep f-values within a ring's span.
        let ring_ok =
            !N::DIAGONALS && u32::from(mobility.max_cost()) + u32::from(mobility.min_cost()) < 64;
        if ring_ok
            && let Some(linked) = self.linked.as_deref_mut()
            && linked.len() >= window.slots()
            && linked.fits(mobility)
        {
            let answer = linked.search::<N, _>(
                &query.costs,
                mobility,
                &window,
                start_slot,
                window.local(to),
                window.slot_of(to).unwrap_or(u32::MAX),
                self.max_expansions,
            );
            return Ok(backtrack(&query, answer, |slot| {
                linked.parent(slot as usize)
            }));
        }
        self.nodes.reset();
        let search = Search {
            costs,
            min_cost: mobility.min_cost(),
            window: &window,
            goal: to,
            max_expansions: self.max_expansions,
        };
        let answer = if ring_ok {
            self.ring.reset();
            let mut open = Ring {
                queue: &mut self.ring,
                last: None,
            };
            search.run::<_, N>(&mut self.nodes, &mut open, start_slot)
        } else {
            self.radix.reset();
            search.run::<_, N>(&mut self.nodes, &mut self.radix, start_slot)
        };
        let nodes = &self.nodes;
        Ok(backtrack(&query, answer, |slot| {
            node_parent(nodes.get(slot as usize))
        }))
    }
}

/// A solver with an expansion limit, which [`within_reach`] lowers for goals out of
/// reach.
pub(crate) trait ExpansionLimit {
    fn limit(&self) -> u32;
    fn set_limit(&mut self, max: u32);
}

impl ExpansionLimit for AStar {
    fn limit(&self) -> u32 {
        self.max_expansions
    }
    fn set_limit(&mut self, max: u32) {
        self.set_max_expansions(max);
    }
}

/// Runs `search` on `solver`, capped at [`UNREACHABLE_EXPANSIONS`] (or the solver's own
/// limit, if lower) when `parts` says the goal cannot be reached from the start: the
/// rule of [`AStar::build_path_in`].
pub(crate) fn within_reach<S: ExpansionLimit, R>(
    solver: &mut S,
    parts: &Components,
    (from, to): (Cell, Cell),
    mobility: Mobility,
    search: impl FnOnce(&mut S) -> R,
) -> R {
    debug_assert!(parts.serves(mobility), "components of another mobility");
    if parts.is_reachable(from, to) {
        return search(solver);
    }
    let limit = solver.limit();
    solver.set_limit(limit.min(UNREACHABLE_EXPANSIONS));
    let answer = search(solver);
    solver.set_limit(limit);
    answer
}

/// The open list of an A* search: a monotone priority queue of slots.
trait OpenList {
    fn push(&mut self, key: u64, slot: u32);
    fn pop(&mut self) -> Option<u32>;
}

/// A 64-bucket ring over monotone keys that never span more than 64. `last` is the
/// last key popped, or the first key pushed before any pop.
struct Ring<'a> {
    queue: &'a mut BucketQueue<u32>,
    last: Option<u64>,
}

impl OpenList for Ring<'_> {
    #[inline(always)]
    fn push(&mut self, key: u64, slot: u32) {
        let last = *self.last.get_or_insert(key);
        debug_assert!(key >= last && key - last < 64, "ring key {key} vs {last}");
        self.queue.push((key % 64) as u32, slot);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        let last = self.last?;
        let from = (last % 64) as u32;
        let (bucket, slot) = self.queue.pop_cyclic(from)?;
        self.last = Some(last + u64::from((bucket + 64 - from) % 64));
        Some(slot)
    }
}

impl OpenList for RadixHeap<u32> {
    #[inline(always)]
    fn push(&mut self, key: u64, slot: u32) {
        RadixHeap::push(self, key, slot);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        RadixHeap::pop(self).map(|(_, slot)| slot)
    }
}

struct Search<'a, C> {
    costs: C,
    /// The least cost a step can have: the heuristic's scale.
    min_cost: u8,
    window: &'a Window,
    goal: Cell,
    max_expansions: u32,
}

/// The goal in the neighbourhood's [`frame`](Neighborhood::frame), and the
/// heuristic's scale.
#[derive(Clone, Copy)]
struct Heuristic {
    goal: (i64, i64),
    scale: u64,
}

impl Heuristic {
    /// Unscaled distance estimate ([`Neighborhood::distance`]) from `at` (in the
    /// neighbourhood's frame).
    #[inline(always)]
    fn distance<N: Neighborhood>(self, at: (i64, i64)) -> u64 {
        N::distance(at, self.goal)
    }
}

/// [`Neighborhood::frame`] of local cell `(lx, ly)`.
#[inline(always)]
fn frame<N: Neighborhood>(window: &Window, lx: u32, ly: u32) -> (i64, i64) {
    N::frame(window, (i64::from(lx), i64::from(ly)))
}

/// The relax step of A*, run for each neighbour of the node being expanded.
struct Relax<'a, Q, N> {
    nodes: &'a mut StampedWords,
    open: &'a mut Q,
    heuristic: Heuristic,
    /// g of the node being expanded.
    g: u64,
    neighborhood: PhantomData<N>,
}

impl<Q: OpenList, N: Neighborhood> Visit for Relax<'_, Q, N> {
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window")]
    unsafe fn visit(&mut self, slot: u32, dir: u8, cost: u8, h: impl FnOnce() -> u64) {
        let step = u64::from(cost) * N::weight(dir);
        let ng = self.g + step;
        // SAFETY: `slot` is inside the window, as the caller promises, and the node
        // map holds at least `window.slots()` slots (checked in `AStar::run`).
        let node = unsafe { self.nodes.get_unchecked(slot as usize) };
        if node & CLOSED != 0 || ng >= node_g(node) {
            return;
        }
        // SAFETY: as above.
        unsafe {
            self.nodes
                .set_unchecked(slot as usize, (ng << 5) | u64::from(dir))
        };
        let h = self.heuristic.scale * h();
        self.open.push(ng + h, slot);
    }
}

impl<C: EnterCost> Search<'_, C> {
    /// Runs A* from `start_slot`; returns the slot the route ends at (the goal, or the
    /// closest expanded cell to it) and the number of expansions.
    #[inline(always)]
    fn run<Q: OpenList, N: Neighborhood>(
        &self,
        nodes: &mut StampedWords,
        open: &mut Q,
        start_slot: u32,
    ) -> (u32, u32) {
        let heuristic = Heuristic {
            goal: N::frame(self.window, self.window.local(self.goal)),
            scale: u64::from(self.min_cost),
        };
        let goal_slot = self.window.slot_of(self.goal).unwrap_or(u32::MAX);
        nodes.set(start_slot as usize, open_node(0, NO_PARENT));
        let (sx, sy) = self.window.unpack(start_slot);
        open.push(
            heuristic.scale * heuristic.distance::<N>(frame::<N>(self.window, sx, sy)),
            start_slot,
        );
        let mut best = (u64::MAX, start_slot);
        let mut expanded = 0u32;
        let mut relax = Relax::<Q, N> {
            nodes,
            open,
            heuristic,
            g: 0,
            neighborhood: PhantomData,
        };
        while let Some(slot) = relax.open.pop() {
            // SAFETY: only window slots are queued (the start and visited neighbours)
            // and the node map holds at least `window.slots()` of them.
            #[expect(unsafe_code, reason = "bounds proven by the window")]
            let node = unsafe { relax.nodes.get_unchecked(slot as usize) };
            if node & CLOSED != 0 {
                continue;
            }
            // SAFETY: as above.
            #[expect(unsafe_code, reason = "bounds proven by the window")]
            unsafe {
                relax.nodes.set_unchecked(slot as usize, node | CLOSED);
            }
            let (g, parent) = (node_g(node), node_parent(node));
            expanded += 1;
            let (lx, ly) = self.window.unpack(slot);
            let d = heuristic.distance::<N>(frame::<N>(self.window, lx, ly));
            if d < best.0 {
                best = (d, slot);
            }
            if slot == goal_slot {
                return (slot, expanded);
            }
            if expanded >= self.max_expansions {
                break;
            }
            relax.g = g;
            // SAFETY: `slot` is a popped node's, the slot of `(lx, ly)`, inside the
            // window made for `self.grid`.
            #[expect(unsafe_code, reason = "bounds proven by the window")]
            unsafe {
                N::visit_neighbours(
                    self.window,
                    &self.costs,
                    slot,
                    lx,
                    ly,
                    heuristic.goal,
                    d,
                    N::back(parent),
                    &mut relax,
                );
            }
        }
        (best.1, expanded)
    }
}
