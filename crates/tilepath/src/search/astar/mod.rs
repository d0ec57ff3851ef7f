//! A* over a search window or the whole grid, 4- or 8-connected or hex.
//!
//! This file: the solver, its scratch and its square entry points, and the rule for
//! goals out of reach; [`hex`] and [`sized`] hold the hex and footprint entry points,
//! [`run`] the search loop they all share.

mod hex;
mod run;
mod sized;

pub(crate) use hex::hex_size;

use super::linked::LinkedNodes;
use super::nodes::{CLOSED, node_g, node_parent, node_store, open_node};
use super::reach::capped;
use super::window::{Visit, WINDOW_SLOTS, Window};
use super::{NO_PARENT, PathError, PathQuery, PathResult, Query, Solver, backtrack};
#[cfg(doc)]
use crate::MAX_UNIT_SIZE;
#[cfg(doc)]
use crate::OCTILE_STRAIGHT;
use crate::cost::{CellCosts, EnterCost};
use crate::footprint::FootprintCosts;
use crate::queue::{BucketQueue, RadixHeap, StampedWords};
use crate::search::window::WindowSteps;
use crate::topology::{Eight, Four, with_hex};
use crate::{Cell, Connectivity, Footprint, Grid, HexLayout, Mobility};
use core::marker::PhantomData;

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
/// Ask it with [`Solver::find`]: 4-connected, 8-connected (a diagonal step needs both
/// orthogonal neighbours passable: no corner cutting; it costs `sqrt(2)` times the
/// cell cost) or hex, as the [`PathQuery`] says. The cost of a step is the cost of the
/// cell it enters; the start's own cost is ignored, so a unit standing on a cell that
/// has just become blocked can still walk off it.
///
/// The open list is a 64-bucket ring (Dial's algorithm) when every f-value in the
/// queue stays within 64 of the minimum (4-connected, `max_cost + min_cost < 64`:
/// every unit-cost and most weighted mobilities), and a radix heap otherwise. A
/// windowed search links its ring's buckets through its nodes (one `u64` a cell: an
/// improved node moves between buckets, nothing else is stored); a whole-grid one uses
/// a bucket queue of its own. Ties between equal f-values go to the node queued last, which
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
/// use tilepath::{AStar, Arrival, Cell, Grid, Mobility, PathQuery, Solver, TileKind};
/// let grid = Grid::from_ascii("....\n.##.\n....", |c| match c {
///     '.' => Some(TileKind::K0),
///     _ => Some(TileKind::K1),
/// })?;
/// let mut astar = AStar::new();
/// let query = PathQuery::new(Cell::new(0, 1), Cell::new(3, 1), Mobility::FLOOR_ONLY);
/// let r = astar.find(&grid, query)?;
/// assert_eq!(r.arrival, Arrival::Reached);
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

    /// A whole-grid solver with its scratch sized for `grid` now, or the reason it
    /// cannot be.
    ///
    /// # Errors
    /// [`PathError::GridTooLarge`] past 2^32 scratch slots;
    /// [`PathError::OutOfMemory`] (with [`whole_grid_bytes`](Self::whole_grid_bytes))
    /// if the system cannot give the scratch. Nothing is allocated then.
    pub fn for_grid(grid: &Grid) -> Result<Self, PathError> {
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
    /// As [`for_grid`](Self::for_grid), for a whole-grid solver.
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

    /// The scratch as the last search left it: a search paused part-way goes on
    /// with it (see [`Jps::find_in_parts`](crate::Jps::find_in_parts)).
    pub(crate) fn scratch_as_left(&mut self) -> (&mut StampedWords, &mut RadixHeap<u32>) {
        (&mut self.nodes, &mut self.radix)
    }

    /// The node store as the last search left it.
    pub(crate) fn nodes(&self) -> &StampedWords {
        &self.nodes
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

    /// A square query: the footprint's search, capped by the query's components.
    pub(crate) fn answer<N: WindowSteps>(
        &mut self,
        grid: &Grid,
        q: PathQuery<'_>,
    ) -> Result<PathResult, PathError> {
        capped(self, &q, |s| match q.footprint {
            None => s.run::<N>(grid, q.from, q.to, q.mobility),
            Some(f) => s.run_sized::<N>(f, grid, q.from, q.to, q.mobility),
        })
    }
}

impl Solver for AStar {
    /// The cheapest route (see [`Solver::find`]): 4-connected, 8-connected or hex as
    /// the query says. Hex queries take one-cell units only.
    fn find(&mut self, grid: &Grid, query: PathQuery<'_>) -> Result<PathResult, PathError> {
        match query.connectivity {
            Connectivity::Four => self.answer::<Four>(grid, query),
            Connectivity::Eight => self.answer::<Eight>(grid, query),
            Connectivity::Hex(layout) => self.answer_hex(grid, query, layout),
        }
    }

    fn max_expansions(&self) -> u32 {
        self.max_expansions
    }

    fn set_max_expansions(&mut self, max: u32) {
        self.max_expansions = max.max(1);
    }
}
