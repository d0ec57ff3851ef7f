//! Jump point search over a search window or the whole grid, 4- or 8-connected, for
//! mobilities where every open kind costs the same.

mod direct;
mod jump;
mod landmarks;
mod parts;
mod route;
mod rows;
mod run;
mod scan;

use super::{PathError, PathQuery, PathResult, Solver};
#[cfg(doc)]
use crate::UNREACHABLE_EXPANSIONS;
use crate::topology::{Eight, Four};
use crate::{AStar, Connectivity, Grid, MAX_STEPS, Mobility};
pub use landmarks::Landmarks;
use parts::Asked;
use run::{Ran, Resume};

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
/// Ask it with [`Solver::find`]: 4-connected, or 8-connected with no corner cutting
/// (the rule of [`Grid::can_step`]); hex queries go to its A*. Answers are [`AStar`]'s
/// with the same scope: the same optimal cost and first 56 steps, and for a goal
/// blocked, outside the grid or the window, or unreachable, a route to the reachable
/// cell closest to it ([`Arrival::Closest`](crate::Arrival::Closest), by the octile or
/// Manhattan estimate; ties go to the cheaper route; goals out of reach answered from
/// components, with [`UNREACHABLE_EXPANSIONS`]). Where several optimal routes exist the
/// two may pick different ones. `expanded` and the expansion limit count jump points,
/// not cells, where jump point search applies.
///
/// [`Jps::new`] searches the window of [`AStar::new`], its memory fixed now;
/// [`Jps::whole_grid`] the whole grid, its scratch (8 bytes a cell,
/// [`AStar::whole_grid_bytes`]) sized to the largest grid given, on first use or with
/// [`for_grid`](Self::for_grid). Build it once and reuse it: a query allocates
/// nothing. No preprocessing: editing the grid between queries costs nothing. For big
/// maps that change rarely, the mobility's [`JumpDistances`](crate::JumpDistances)
/// ([`PathQuery::jumps`]) and, for long routes on maps of rooms, [`Landmarks`]
/// ([`PathQuery::guided`]) give the same answers faster, for memory and a repair
/// after every edit.
///
/// ```
/// use tilepath::{AStar, Arrival, Cell, Connectivity, Grid, Jps, Mobility, PathQuery, Solver};
/// use tilepath::TileKind;
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
/// let query = PathQuery::new(from, to, Mobility::FLOOR_ONLY).connectivity(Connectivity::Eight);
/// let r = jps.find(&grid, query)?;
/// let a = AStar::new().find(&grid, query)?;
/// assert_eq!(r.arrival, Arrival::Reached);
/// assert_eq!(r.path.end(from), to);
/// assert_eq!(r.cost, a.cost);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Implementation
///
/// A windowed `Jps` stays within the 113x113 cells a 56-step path can reach from the
/// start; both of its searches use the scratch of the [`AStar`] it holds, a
/// whole-grid one that of a whole-grid [`AStar`].
///
/// A* over jump points (Harabor and Grastien's jump point search, in its
/// no-corner-cutting form): a scan runs along a row, column or diagonal until a cell
/// where an optimal path may turn, which alone enters the open list (a monotone
/// radix heap on fixed-point octile or Manhattan f-values). 4-connected, vertical
/// scans play the role of diagonal ones. `search/jps/jump.rs` states the rules.
///
/// Rows are scanned a word at a time, as in block-based jump point search. The grid
/// keeps its cells as bit planes too (the low and the high bit of every cell's kind,
/// row by row, updated by every edit): an unaligned 8-byte load of each plane holds
/// 57 cells, and a few bit operations turn the pair into the mobility's passability
/// bits, so the rows above, at and below a scan give their stops (walls, forced
/// neighbours) with a trailing- or leading-zeros count per 56 cells. Passability is
/// derived at every load, so the planes serve every mobility, unless the query hands it
/// the mobility's cells as bit rows ([`OpenRows`](crate::OpenRows), 1 bit a cell per set
/// of passable kinds): then a scan word is one load, and a whole-grid search reads them
/// with no clipping, since kept rows carry a border of blocked cells that stops a scan
/// at the grid's edge as a wall does. Kept rows are kept by column too, so that a
/// whole-grid column scan from a jump point reads a word of its column (and of its two
/// neighbours) at a time; otherwise it reads a cell at a time. The column scans that a
/// diagonal makes at each of its steps are swept together, one row of up to 55 columns
/// per word, so an open area costs a word per row rather than a read per cell
/// (benches/README.md compares this with a column scan a word at a time for each of
/// them).
///
/// A unit bigger than one cell ([`PathQuery::sized`]) jumps too, over the cells its
/// footprint fits (the answers of [`AStar`]'s footprint rules, at about a one-cell
/// unit's speed), unless its footprint was walled over at the start: then the
/// solver's [`AStar`] walks it out. It is searched the same way over its anchors (the
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
/// Where the query hands it jump distances ([`JumpDistances`](crate::JumpDistances), 16
/// bytes a cell, repaired at every edit: per cell, where
/// each straight scan stops and how many diagonal steps lead to the next diagonal
/// jump point or wall, capped at 32 steps), a whole-grid search of a one-cell unit
/// reads a cell's distance where it would scan: a straight scan is one read, and a
/// diagonal goes from diagonal jump point to diagonal jump point, visiting on the way
/// only the cells where the goal's row or column crosses it (whose straight scans may
/// meet the goal). A tracking run (see below) still steps its diagonals cell by cell,
/// reading each cell's straight distances, since it must see every crossed cell. The
/// direct route's legs hop from stop to stop the same way. Windowed searches and
/// units bigger than one cell scan as before.
///
/// A [`Landmarks`] guide holds precomputed distances from a few cells, which bound the
/// distance to the goal far better than the straight line on maps of rooms, so that
/// the search expands the jump points along the route rather than those of every room
/// the straight line points into.
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
    /// The jump points the search under way may expand before it pauses (`None`:
    /// it runs to the end): set by [`find_in_parts`](Self::find_in_parts) for its call.
    part: Option<u32>,
    /// The search paused by the last call, and the query it answers: taken up (and
    /// taken from here) by the next search, which the caller makes sure answers it.
    paused: Option<(Asked, Resume)>,
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
            part: None,
            paused: None,
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
            part: None,
            paused: None,
        }
    }

    /// A whole-grid solver with its scratch sized for `grid` now, or the reason it
    /// cannot be.
    ///
    /// # Errors
    /// As [`AStar::for_grid`].
    pub fn for_grid(grid: &Grid) -> Result<Self, PathError> {
        Ok(Self {
            scope: Scope::WholeGrid,
            astar: AStar::for_grid(grid)?,
            max_expansions: u32::MAX,
            part: None,
            paused: None,
        })
    }

    /// Whether queries with `mobility` run jump point search: every kind it can enter
    /// costs the same. Other mobilities are searched by [`AStar`].
    #[inline]
    #[must_use]
    pub const fn applies_to(mobility: Mobility) -> bool {
        mobility.min_cost() == mobility.max_cost()
    }

    /// Bytes of scratch this solver holds: its [`AStar`]'s, which both searches use
    /// (reserved memory is only touched as queries use it).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.astar.memory_bytes()
    }

    /// Whether [`find`](Solver::find) answers `query` on `grid` by jump point search
    /// (and so counts jump points in [`expanded`](PathResult::expanded)) rather than by
    /// the solver's [`AStar`]: the query is square (not hex), its mobility costs the
    /// same on every kind it enters ([`applies_to`](Self::applies_to)) and, for a unit
    /// bigger than one cell, its footprint fits at the start (a unit walled over walks
    /// out by [`AStar`]'s footprint rule).
    #[must_use]
    pub fn jumps(grid: &Grid, query: &PathQuery<'_>) -> bool {
        !matches!(query.connectivity, Connectivity::Hex(_))
            && Self::applies_to(query.mobility)
            && query.footprint.is_none_or(|f| {
                f.size() <= 1
                    || f.clearance().is_of_size(grid.width(), grid.height())
                        && f.clearance().fits(query.from, f.size())
            })
    }

    /// Runs `query` as the solver's fields say: part of it, or taking up a paused
    /// search, for [`find_in_parts`](Self::find_in_parts).
    fn ask(&mut self, grid: &Grid, query: PathQuery<'_>) -> Result<Ran, PathError> {
        match query.connectivity {
            Connectivity::Four => self.answer::<Four, false>(grid, query),
            Connectivity::Eight => self.answer::<Eight, true>(grid, query),
            Connectivity::Hex(_) => self.astar.find(grid, query).map(Ran::Done),
        }
    }
}

impl Solver for Jps {
    /// The cheapest route (see [`Solver::find`]), by jump point search where
    /// [`jumps`](Self::jumps) says so (guided if the query has landmarks), by the
    /// solver's [`AStar`] otherwise (hex maps, mobilities with several costs, walled-over
    /// footprints).
    fn find(&mut self, grid: &Grid, query: PathQuery<'_>) -> Result<PathResult, PathError> {
        self.paused = None;
        self.part = None;
        // A search with no part set runs to its end; were it to pause, it goes on.
        loop {
            match self.ask(grid, query) {
                Ok(Ran::Paused(at)) => {
                    self.paused = Some((Asked::of(grid, &query, self.max_expansions), at));
                }
                Ok(Ran::Done(r)) => return Ok(r),
                Err(e) => {
                    self.paused = None;
                    return Err(e);
                }
            }
        }
    }

    fn max_expansions(&self) -> u32 {
        self.max_expansions
    }

    /// Counts jump points where jump point search applies; the fallback [`AStar`]
    /// takes the same limit, in cells. A query stopped by it answers towards the
    /// nearest cell seen so far, reached by the route the search found (which need not
    /// be the cheapest way there).
    fn set_max_expansions(&mut self, max: u32) {
        self.max_expansions = max.max(1);
        self.astar.set_max_expansions(max);
    }
}
