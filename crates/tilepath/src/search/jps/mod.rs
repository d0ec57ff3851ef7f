//! Jump point search over a search window or the whole grid, 4- or 8-connected, for
//! mobilities where every open kind costs the same.

mod direct;
mod jump;
mod landmarks;
mod route;
mod rows;
mod run;
mod scan;

use super::astar::ExpansionLimit;
use super::{PathError, PathQuery, PathResult};
#[cfg(doc)]
use crate::UNREACHABLE_EXPANSIONS;
use crate::topology::{Eight, Four};
use crate::{AStar, Cell, Connectivity, Grid, GridPath, GridPath8, HexLayout, MAX_STEPS, Mobility};
pub use landmarks::Landmarks;

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
/// [`Mobility::FLOOR_ONLY`]), for units of one cell and bigger ones
/// ([`PathQuery::sized`]). Other mobilities are answered by an [`AStar`] the solver
/// holds, so a `Jps` serves every mobility; [`applies_to`](Self::applies_to) says which
/// way a mobility goes, [`jumps`](Self::jumps) which way a query goes.
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
/// the grid between queries costs nothing. For big maps that change rarely, a grid
/// that keeps its jump distances ([`Grid::keep_jump_distances`], 16 bytes a cell,
/// repaired at every edit) makes whole-grid queries of one-cell units read them
/// instead of scanning: the same answers in a third to a half of the time.
///
/// For long routes on big maps of rooms, a query [`guided`](PathQuery::guided) by
/// [`Landmarks`] ([`find8`](Self::find8), [`find`](Self::find)) takes
/// precomputed distances from a few cells that bound the distance to the goal far
/// better than the straight line, so that the search expands the jump points along
/// the route rather than those of every room the straight line points into. Same
/// answers; the guide costs memory and must be repaired after edits.
///
/// - [`Jps::new`]: the search stays within the 113x113 cells a 56-step path can reach
///   from the start, as [`AStar::new`]; memory is fixed now: the scratch of the
///   [`AStar`] it holds, which both searches use.
/// - [`Jps::whole_grid`]: the search may cover the whole grid; the scratch (that of a
///   whole-grid [`AStar`]: 8 bytes a cell) is sized to the largest grid given, on
///   first use or with [`for_grid`](Self::for_grid)
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
/// [`RadixHeap`](crate::queue::RadixHeap) on fixed-point octile or Manhattan f-values). 4-connected, vertical
/// scans play the role of diagonal ones. `search/jps/jump.rs` states the rules.
///
/// Rows are scanned a word at a time, as in block-based jump point search. The grid
/// keeps its cells as bit planes too (the low and the high bit of every cell's kind,
/// row by row, updated by every edit): an unaligned 8-byte load of each plane holds
/// 57 cells, and a few bit operations turn the pair into the mobility's passability
/// bits, so the rows above, at and below a scan give their stops (walls, forced
/// neighbours) with a trailing- or leading-zeros count per 56 cells. Passability is
/// derived at every load, so the planes serve every mobility, unless the grid keeps the
/// mobility's cells as bit rows ([`Grid::keep_open_rows`], 1 bit a cell per set of
/// passable kinds): then a scan word is one load, and a whole-grid search reads them
/// with no clipping, since kept rows carry a border of blocked cells that stops a scan
/// at the grid's edge as a wall does. Kept rows are kept by column too, so that a
/// whole-grid column scan from a jump point reads a word of its column (and of its two
/// neighbours) at a time; otherwise it reads a cell at a time. The column scans that a
/// diagonal makes at each of its steps are swept together, one row of up to 55 columns
/// per word, so an open area costs a word per row rather than a read per cell (a
/// column scan a word at a time for each of them instead measured 6% more
/// instructions on rooms, 19% fewer on big open maps).
///
/// A unit bigger than one cell is searched the same way over its anchors (the
/// footprint corner its paths are made of): on a one-cost mobility, a footprint moves
/// exactly as a one-cell unit does on the cells where it fits, as the anchor's moves
/// under the footprint rule are the one-cell rule on those cells (a straight step
/// sweeps only cells under its two footprints; a diagonal one needs both straight
/// steps beside it). The scans read those cells from the [`Clearance`](crate::Clearance)
/// (a value at least the unit's side): where the clearance keeps the size's bit rows
/// ([`Clearance::keep_rows`](crate::Clearance::keep_rows), repaired with it) a load a
/// word, as for one cell; otherwise a row word's 64 values turned into 64 bits (16 at
/// a time with SSE2 on x86_64), with no copy kept per size. A one-cell
/// guide still bounds a big unit's distances from below (its routes are one-cell
/// routes too), so landmarks guide it. Only a start whose footprint was walled over
/// (whose cells count as open for that query) goes to the solver's A*.
///
/// Where the grid keeps jump distances ([`Grid::keep_jump_distances`]: per cell, where
/// each straight scan stops and how many diagonal steps lead to the next diagonal
/// jump point or wall, capped at 32 steps), a whole-grid search of a one-cell unit
/// reads a cell's distance where it would scan: a straight scan is one read, and a
/// diagonal goes from diagonal jump point to diagonal jump point, visiting on the way
/// only the cells where the goal's row or column crosses it (whose straight scans may
/// meet the goal). A tracking run (see below) still steps its diagonals cell by cell,
/// reading each cell's straight distances, since it must see every crossed cell. The
/// direct route's legs hop from stop to stop the same way.
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
/// Jump points are kept in the [`AStar`]'s node store (8 bytes a cell with its
/// generation stamp, reset in O(1)): g, closed, and the direction of the line that
/// reaches the jump point. The route is read back by walking each line backwards to
/// the first cell on it whose node's g plus the line's length back there is at most the
/// g at the line's end: the node the line was written from qualifies (a node's g only
/// drops), and any one met before it gives a route as cheap. The lines of the direct
/// route that ended the search are not walked: the search notes where they start, and
/// the read-back jumps there when the node still says it came that way. A search whose goal cannot
/// be reached is run again in a tracking mode that also keeps the nearest cell the
/// scans crossed: every reachable cell is crossed by a scan from an expanded jump point
/// at its optimal cost, so that cell is the one the partial-path rule names. Without an
/// expansion limit the tracking run comes second, only when the goal was not found;
/// with one, it is the only run, so the limit bounds the query.
#[derive(Clone, Debug)]
pub struct Jps {
    scope: Scope,
    /// The fallback for mobilities with several costs, and the owner of the scratch.
    astar: AStar,
    max_expansions: u32,
}

impl Default for Jps {
    fn default() -> Self {
        Self::new()
    }
}

impl Jps {
    /// A windowed solver: paths of up to 56 steps, memory fixed now.
    #[must_use]
    pub fn new() -> Self {
        Self {
            scope: Scope::Window,
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
    /// cannot be.
    ///
    /// # Errors
    /// As [`AStar::try_for_grid`].
    pub fn try_for_grid(grid: &Grid) -> Result<Self, PathError> {
        Ok(Self {
            scope: Scope::WholeGrid,
            astar: AStar::try_for_grid(grid)?,
            max_expansions: u32::MAX,
        })
    }

    /// Bytes of scratch a whole-grid solver over a `width x height` grid reserves:
    /// [`AStar::whole_grid_bytes`], shared by both searches.
    #[must_use]
    pub const fn whole_grid_bytes(width: u32, height: u32) -> u64 {
        AStar::whole_grid_bytes(width, height)
    }

    /// Whether queries with `mobility` run jump point search: every kind it can enter
    /// costs the same. Other mobilities are searched by [`AStar`].
    #[inline]
    #[must_use]
    pub const fn applies_to(mobility: Mobility) -> bool {
        mobility.min_cost() == mobility.max_cost()
    }

    /// Stops a query after `max` jump point expansions in all (at least 1) with a
    /// partial result towards the nearest cell seen so far (reached by the route the search
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

    /// The expansion limit ([`with_max_expansions`](Self::with_max_expansions)).
    #[must_use]
    pub const fn max_expansions(&self) -> u32 {
        self.max_expansions
    }

    /// The optimal path on a hex map: jump point search is for square grids, so this
    /// is its A*'s [`AStar::build_path_hex`] (same scope and expansion limit), there
    /// so that one solver type serves every map.
    ///
    /// # Errors
    /// As [`AStar::build_path_hex`].
    pub fn build_path_hex(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
        layout: HexLayout,
    ) -> Result<PathResult<GridPath8>, PathError> {
        self.astar.build_path_hex(grid, from, to, mobility, layout)
    }

    /// Bytes of scratch this solver holds: its [`AStar`]'s, which both searches use
    /// (reserved memory is only touched as queries use it).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.astar.memory_bytes()
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
        self.run::<GridPath, false>(None, grid, (from, to), mobility, None)
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
        self.run::<GridPath8, true>(None, grid, (from, to), mobility, None)
    }

    /// The path [`query`](PathQuery) asks for, 4-connected: [`build_path`](Self::build_path)
    /// with the query's options. Components answer goals out of reach as for
    /// [`AStar::find`], with [`UNREACHABLE_EXPANSIONS`] counting jump points where jump
    /// point search applies; [`Landmarks`] guide the search (the same cost, usually
    /// found with far fewer jump points on maps of rooms and corridors); a unit bigger
    /// than one cell ([`PathQuery::sized`]) jumps too, over the cells its footprint
    /// fits (the answers of [`AStar::find`]'s footprint rules, at about a one-cell
    /// unit's speed), unless its footprint was walled over at the start: then the
    /// solver's [`AStar`] walks it out. [`jumps`](Self::jumps) says which search a
    /// query gets.
    ///
    /// # Errors
    /// As [`build_path`](Self::build_path), and for a footprint those of [`AStar::find`].
    pub fn find(
        &mut self,
        grid: &Grid,
        query: PathQuery<'_>,
    ) -> Result<PathResult<GridPath>, PathError> {
        self.answer::<Four, false>(grid, query)
    }

    /// [`find`](Self::find), 8-connected (the rule of [`build_path8`](Self::build_path8)).
    ///
    /// # Errors
    /// As [`find`](Self::find).
    pub fn find8(
        &mut self,
        grid: &Grid,
        query: PathQuery<'_>,
    ) -> Result<PathResult<GridPath8>, PathError> {
        self.answer::<Eight, true>(grid, query)
    }

    /// [`AStar::find_hex`] on the solver's A* (same scope and expansion limit; jump
    /// point search is for square grids, and landmarks are not used).
    ///
    /// # Errors
    /// As [`AStar::find_hex`].
    pub fn find_hex(
        &mut self,
        grid: &Grid,
        query: PathQuery<'_>,
        layout: HexLayout,
    ) -> Result<PathResult<GridPath8>, PathError> {
        self.astar.find_hex(grid, query, layout)
    }

    /// [`find`](Self::find), [`find8`](Self::find8) or [`find_hex`](Self::find_hex) as
    /// `connectivity` says ([`AStar::find_with`]'s rule).
    ///
    /// # Errors
    /// As the method it calls.
    pub fn find_with(
        &mut self,
        grid: &Grid,
        query: PathQuery<'_>,
        connectivity: Connectivity,
    ) -> Result<PathResult<GridPath8>, PathError> {
        match connectivity {
            Connectivity::Four => self.find(grid, query).map(|r| r.map_path(GridPath8::from)),
            Connectivity::Eight => self.find8(grid, query),
            Connectivity::Hex(layout) => self.find_hex(grid, query, layout),
        }
    }

    /// Whether [`find`](Self::find) and [`find8`](Self::find8) answer `query` on `grid`
    /// by jump point search (and so count jump points in
    /// [`expanded`](PathResult::expanded)) rather than by the solver's [`AStar`]: its
    /// mobility costs the same on every kind it enters ([`applies_to`](Self::applies_to))
    /// and, for a unit bigger than one cell, its footprint fits at the start (a unit
    /// walled over walks out by [`AStar::find`]'s rule). Hex queries never jump.
    #[must_use]
    pub fn jumps(grid: &Grid, query: &PathQuery<'_>, connectivity: Connectivity) -> bool {
        !matches!(connectivity, Connectivity::Hex(_))
            && Self::applies_to(query.mobility)
            && query.footprint.is_none_or(|f| {
                f.size() <= 1
                    || f.clearance().is_of_size(grid.width(), grid.height())
                        && f.clearance().fits(query.from, f.size())
            })
    }
}

impl ExpansionLimit for Jps {
    fn limit(&self) -> u32 {
        self.max_expansions
    }
    fn set_limit(&mut self, max: u32) {
        self.set_max_expansions(max);
    }
}
