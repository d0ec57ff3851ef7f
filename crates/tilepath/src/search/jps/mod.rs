//! Jump point search over a search window or the whole grid, 4- or 8-connected, for
//! mobilities where every open kind costs the same.

mod direct;
mod jump;
mod route;
mod rows;

use super::{PackedSteps, PathError, PathResult};
use crate::queue::{GenerationMap, RadixHeap};
use crate::{AStar, Cell, Grid, GridPath, GridPath8, MAX_STEPS, Mobility};
use jump::{NOWHERE, Nearest, Node, Outcome, Search, Slots};
use rows::Rows;

/// Where a [`Jps`] may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    Window,
    WholeGrid,
}

/// Side of the window a windowed search is confined to, as [`AStar::new`]'s.
const WINDOW_SIDE: i64 = 2 * MAX_STEPS as i64 + 1;

/// Jump point search: the optimal paths of [`AStar`], much faster on open maps, for
/// mobilities where every passable kind costs the same (such as
/// [`Mobility::FLOOR_ONLY`]). Other mobilities are answered by an [`AStar`] the solver
/// holds, so a `Jps` serves every mobility; [`applies_to`](Self::applies_to) says which
/// way a mobility goes.
///
/// Answers are those of [`AStar`] with the same scope: the same optimal cost, the
/// first 56 steps of the route in a [`GridPath`]/[`GridPath8`], and when the goal is
/// blocked, outside the grid or the window, or unreachable, a
/// [`partial`](PathResult::partial) route to the reachable cell closest to the goal
/// (by the octile or Manhattan estimate; ties go to the cheaper route). Where several
/// optimal routes exist the two may pick different ones. `expanded` counts jump
/// points, not cells.
///
/// Build it once and reuse it: a query allocates nothing. No preprocessing: editing
/// the grid between queries costs nothing.
///
/// - [`Jps::new`]: the search stays within the 113x113 cells a 56-step path can reach
///   from the start, as [`AStar::new`]; memory is fixed now (200 KiB of jump point
///   slots, an open list reserved for the worst case, and the fallback [`AStar`]).
/// - [`Jps::whole_grid`]: the search may cover the whole grid; the scratch is sized to
///   the largest grid given, on first use or with [`for_grid`](Self::for_grid)
///   ([`whole_grid_bytes`](Self::whole_grid_bytes)).
///
/// [`build_path`](Self::build_path) searches 4-connected,
/// [`build_path8`](Self::build_path8) 8-connected with no corner cutting (the rule of
/// [`Grid::can_step`]).
///
/// ```
/// use tilepath::{AStar, Cell, Grid, Mobility, Jps, TileKind};
/// let grid = Grid::from_ascii(
///     "\
/// ..........
/// ....#.....
/// ....#.....
/// ....#.....",
///     |c| Some(if c == '#' { TileKind::K1 } else { TileKind::K0 }),
/// )?;
/// let (from, to) = (Cell::new(0, 3), Cell::new(9, 3));
/// let mut jps = Jps::new();
/// let r = jps.build_path8(&grid, from, to, Mobility::FLOOR_ONLY)?;
/// let a = AStar::new().build_path8(&grid, from, to, Mobility::FLOOR_ONLY)?;
/// assert!(!r.partial);
/// assert_eq!(r.path.end(from), to);
/// assert_eq!(r.cost, a.cost);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Implementation
///
/// A* over jump points (Harabor and Grastien's jump point search, in its
/// no-corner-cutting form): a scan runs along a row, column or diagonal until a cell
/// where an optimal path may turn, which alone enters the open list (a monotone
/// [`RadixHeap`] on fixed-point octile or Manhattan f-values). 4-connected, vertical
/// scans play the role of diagonal ones. `search/jps/jump.rs` states the rules.
///
/// Rows are scanned a word at a time, as in block-based jump point search. The grid
/// keeps its cells as bit planes too (the low and the high bit of every cell's kind,
/// row by row, updated by every edit): an unaligned 8-byte load of each plane holds
/// 57 cells, and a few bit operations turn the pair into the mobility's passability
/// bits, so the rows above, at and below a scan give their stops (walls, forced
/// neighbours) with a trailing- or leading-zeros count per 56 cells. Passability is
/// derived at every load rather than kept per mobility: the planes serve every
/// mobility and cost the grid as much memory as its packed cells. A column scan from
/// a jump point reads a cell (and its two neighbours) at a time; the column scans that
/// a diagonal makes at each of its steps are swept together, one row of up to 55
/// columns per word, so an open area costs a word per row rather than a read per cell.
///
/// 8-connected, the jump points a diagonal meets (cells whose row or column scan
/// finds a jump point) are expanded by the diagonal scan itself rather than queued:
/// the jump points their straight scans found enter the open list with them as
/// parents, and the diagonal goes on, until a wall or a diagonal jump point reached no
/// cheaper than before. This is the pruning of intermediate jump points of Harabor
/// and Grastien's later work; it halves the queue's traffic on rooms and open maps,
/// and spares the straight scans that expanding those points would repeat.
///
/// Before scanning from a jump point whose successors include the first step
/// towards the goal, the search walks the goal's direct route (diagonal steps, then
/// straight ones; 4-connected, vertical then horizontal): if every step is legal, the
/// goal is reached at the distance estimate, its f is the least in the open list, and
/// the expansion ends there. On open maps most
/// searches then end at the first jump point that sees the goal.
///
/// A jump point's scratch is 16 bytes with its generation stamp (g, parent, closed),
/// reset in O(1). A search whose goal cannot be reached is run again in a tracking
/// mode that also keeps the nearest cell the scans crossed: every reachable cell is
/// crossed by a scan from an expanded jump point at its optimal cost, so that cell is
/// the one the partial-path rule names. An expansion limit cuts both runs.
#[derive(Clone, Debug)]
pub struct Jps {
    scope: Scope,
    nodes: GenerationMap<Node>,
    open: RadixHeap<u32>,
    astar: AStar,
    max_expansions: u32,
}

impl Default for Jps {
    fn default() -> Self {
        Self::new()
    }
}

impl Jps {
    /// Bytes a jump point slot takes (node and generation stamp).
    const SLOT_BYTES: u64 = 16;
    /// Open-list entries reserved per slot of a whole-grid search, and their size:
    /// jump points are a small part of the cells on most maps; past it the list
    /// grows (and stays grown).
    const OPEN_PER_SLOT: u64 = 4;
    const OPEN_ENTRY_BYTES: u64 = 16;

    /// A windowed solver: paths of up to 56 steps, memory fixed now.
    #[must_use]
    pub fn new() -> Self {
        let slots = (WINDOW_SIDE * WINDOW_SIDE) as usize;
        Self {
            scope: Scope::Window,
            nodes: GenerationMap::new(slots, Node::UNSEEN),
            // Each expansion pushes at most 8 jump points and each slot is expanded
            // once: this bound holds for any query.
            open: RadixHeap::with_capacity(8 * slots),
            astar: AStar::new(),
            max_expansions: u32::MAX,
        }
    }

    /// A whole-grid solver. Its scratch grows (allocates) to fit the largest grid it is
    /// given and is reused after that; see [`for_grid`](Self::for_grid) to size it now.
    #[must_use]
    pub fn whole_grid() -> Self {
        Self {
            scope: Scope::WholeGrid,
            nodes: GenerationMap::new(0, Node::UNSEEN),
            open: RadixHeap::new(),
            astar: AStar::whole_grid(),
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
    /// cannot be. The fallback [`AStar`] (mobilities with several costs) is sized on its
    /// first query.
    ///
    /// # Errors
    /// [`PathError::OutOfMemory`] (with [`whole_grid_bytes`](Self::whole_grid_bytes))
    /// if the system cannot give the scratch. Nothing is allocated then.
    pub fn try_for_grid(grid: &Grid) -> Result<Self, PathError> {
        let mut s = Self::whole_grid();
        s.try_grow_to(grid)?;
        Ok(s)
    }

    /// Bytes of scratch a whole-grid jump point search over a `width x height` grid
    /// reserves: 16 a cell for the jump points, and an open list of a quarter of the
    /// cells at 16 bytes an entry. Only the parts a query reaches are touched.
    #[must_use]
    pub const fn whole_grid_bytes(width: u32, height: u32) -> u64 {
        let cells = width as u64 * height as u64;
        cells * Self::SLOT_BYTES + cells.div_ceil(Self::OPEN_PER_SLOT) * Self::OPEN_ENTRY_BYTES
    }

    fn try_grow_to(&mut self, grid: &Grid) -> Result<(), PathError> {
        let slots = grid.len();
        if self.nodes.len() < slots {
            let bytes = Self::whole_grid_bytes(grid.width(), grid.height());
            crate::memory::ensure(bytes).map_err(|bytes| PathError::OutOfMemory { bytes })?;
            self.nodes.resize(slots);
            self.open = RadixHeap::with_capacity(slots.div_ceil(Self::OPEN_PER_SLOT as usize));
        }
        Ok(())
    }

    /// Whether queries with `mobility` run jump point search: every kind it can enter
    /// costs the same. Other mobilities are searched by [`AStar`].
    #[inline]
    #[must_use]
    pub const fn applies_to(mobility: Mobility) -> bool {
        mobility.min_cost() == mobility.max_cost()
    }

    /// Stops a search after `max` jump point expansions (at least 1) with a partial
    /// result towards the nearest cell seen so far (reached by the route the search
    /// found, which need not be the cheapest way there). Caps the time of a query on
    /// huge grids or when goals are often unreachable. The fallback [`AStar`] takes
    /// the same limit, in cells.
    #[must_use]
    pub fn with_max_expansions(mut self, max: u32) -> Self {
        self.set_max_expansions(max);
        self
    }

    /// See [`with_max_expansions`](Self::with_max_expansions); `u32::MAX` = no limit.
    pub fn set_max_expansions(&mut self, max: u32) {
        self.max_expansions = max.max(1);
        self.astar.set_max_expansions(max);
    }

    /// Bytes of scratch this solver holds, the fallback [`AStar`]'s included
    /// (reserved memory is only touched as queries use it).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.nodes.len() * Self::SLOT_BYTES as usize
            + self.open.capacity() * Self::OPEN_ENTRY_BYTES as usize
            + self.astar.memory_bytes()
    }

    /// The optimal 4-connected path from `from` to `to` for a unit with `mobility`.
    ///
    /// Returns the route's first steps (at most 56); when the goal cannot be reached
    /// within the solver's scope, the path leads to the reachable cell closest to it
    /// and the result is [`partial`](PathResult::partial). `from == to` gives an empty,
    /// complete path. A start on a blocked cell may walk off it.
    ///
    /// Cost: grows with the cells its scans cross (rows 56 cells a word) and the jump
    /// points it expands; far below A*'s on rooms and open ground, about A*'s on dense
    /// clutter and 1-wide mazes (where nearly every cell is a jump point). An
    /// unreachable goal costs two searches of the start's component (within the
    /// scope). No allocation.
    ///
    /// # Errors
    /// [`PathError::StartOutOfBounds`] if `from` is outside the grid;
    /// [`PathError::OutOfMemory`] if the system cannot give a whole-grid search's
    /// scratch (the solver is unchanged and serves smaller grids); for mobilities with
    /// several costs, the errors of [`AStar::build_path`].
    pub fn build_path(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath>, PathError> {
        if !Self::applies_to(mobility) {
            return self.astar.build_path(grid, from, to, mobility);
        }
        self.run::<GridPath, false>(grid, from, to, mobility)
    }

    /// The optimal 8-connected path (no corner cutting, diagonal steps cost `sqrt(2)`
    /// times the cell cost). Same contract as [`build_path`](Self::build_path).
    ///
    /// # Errors
    /// As [`build_path`](Self::build_path), with [`AStar::build_path8`].
    pub fn build_path8(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath8>, PathError> {
        if !Self::applies_to(mobility) {
            return self.astar.build_path8(grid, from, to, mobility);
        }
        self.run::<GridPath8, true>(grid, from, to, mobility)
    }

    fn run<P: PackedSteps, const EIGHT: bool>(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<P>, PathError> {
        if !grid.contains(from) {
            return Err(PathError::start_out_of_bounds(grid, from));
        }
        let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
        let start = (i64::from(from.x), i64::from(from.y));
        let goal = (i64::from(to.x), i64::from(to.y));
        let (lo, hi, slots) = match self.scope {
            Scope::Window => {
                let r = MAX_STEPS as i64;
                let lo = ((start.0 - r).max(0), (start.1 - r).max(0));
                let hi = ((start.0 + r + 1).min(w), (start.1 + r + 1).min(h));
                let slots = Slots {
                    ox: start.0 - r,
                    oy: start.1 - r,
                    stride: WINDOW_SIDE,
                };
                (lo, hi, slots)
            }
            Scope::WholeGrid => {
                self.try_grow_to(grid)?;
                let slots = Slots {
                    ox: 0,
                    oy: 0,
                    stride: w,
                };
                ((0, 0), (w, h), slots)
            }
        };
        let rows = Rows::new(grid, mobility, lo, hi);
        let reachable = goal == start || rows.is_open(goal.0, goal.1);
        let target = if reachable { goal } else { NOWHERE };
        let ends = (from, to);
        let mut expanded = 0;
        if reachable {
            let mut search =
                Search::<EIGHT, false>::new(rows, slots, goal, target, self.max_expansions);
            self.nodes.reset();
            self.open.reset();
            let (outcome, n) = search.run(&mut self.nodes, &mut self.open, start);
            expanded += n;
            if let Outcome::Goal(slot) = outcome {
                let corners = self.chain(slots, slot);
                return Ok(route::build(grid, mobility, ends, corners, expanded));
            }
        }
        let mut search = Search::<EIGHT, true>::new(rows, slots, goal, target, self.max_expansions);
        self.nodes.reset();
        self.open.reset();
        let (outcome, n) = search.run(&mut self.nodes, &mut self.open, start);
        expanded = expanded.saturating_add(n);
        // The goal's chain starts with a line of no steps to itself.
        let (end, mid, jp) = match outcome {
            Outcome::Goal(slot) => (slots.cell(slot), slots.cell(slot), slot),
            Outcome::Stopped(Nearest { jp, mid, end, .. }) => (end, mid, jp),
        };
        let corners = [end, mid].into_iter().chain(self.chain(slots, jp));
        Ok(route::build(grid, mobility, ends, corners, expanded))
    }

    /// The jump points from `slot` back to the start.
    fn chain(&self, slots: Slots, slot: u32) -> impl Iterator<Item = (i64, i64)> + '_ {
        let nodes = &self.nodes;
        let mut next = Some(slot);
        core::iter::from_fn(move || {
            let slot = next?;
            let parent = nodes.get(slot as usize).map_or(slot, |n| n.parent);
            next = (parent != slot).then_some(parent);
            Some(slots.cell(slot))
        })
    }
}
