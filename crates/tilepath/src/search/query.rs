//! What a single-pair search is asked: the one query every [`Solver`](crate::Solver)
//! answers.

use crate::{
    Cell, Components, Connectivity, Footprint, JumpDistances, Landmarks, Mobility, OpenRows,
};

/// A path query: from where, to where, for which [`Mobility`], how cells connect, and
/// what the solver may use besides the grid. Build it with [`new`](Self::new) and the
/// options below, then hand it to a [`Solver`](crate::Solver)'s
/// [`find`](crate::Solver::find).
///
/// - [`connectivity`](Self::connectivity): 4-connected (the default), 8-connected or
///   hex (see [`Connectivity`]).
/// - [`within`](Self::within): the mobility's [`Components`], so that a goal out of
///   reach is answered without searching the whole start component.
/// - [`sized`](Self::sized): a unit of `size x size` cells (see [`Footprint`]).
/// - [`guided`](Self::guided): [`Landmarks`], which make [`Jps`](crate::Jps)'s whole-grid
///   searches on big maps of rooms expand far fewer jump points for the same answer.
/// - [`rows`](Self::rows) and [`jumps`](Self::jumps): the mobility's [`OpenRows`] and
///   [`JumpDistances`], which [`Jps`](crate::Jps) reads instead of the grid's planes.
///
/// Every option is derived from the grid ([`Derived`](crate::Derived)): it must be up
/// to date with the grid searched (repaired after edits) and built for a mobility that
/// lets units enter the same tile kinds as the query's; one built for other kinds, or
/// a grid of another size, is not used.
///
/// ```
/// use tilepath::{AStar, Arrival, Cell, Clearance, Components, Grid, Mobility, PathQuery};
/// use tilepath::{Solver, TileKind};
/// let grid = Grid::from_ascii("..#..\n.....\n..#..", |c| {
///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
/// })?;
/// let walker = Mobility::FLOOR_ONLY;
/// let (from, to) = (Cell::new(0, 0), Cell::new(3, 0));
/// let mut astar = AStar::whole_grid();
///
/// // One cell: through the gap in the middle.
/// let r = astar.find(&grid, PathQuery::new(from, to, walker))?;
/// assert_eq!(r.arrival, Arrival::Reached);
///
/// // A 2x2 unit does not fit through it; its components say so at once.
/// let clear = Clearance::new(&grid, walker);
/// let parts = Components::for_footprint(clear.footprint(2));
/// let query = PathQuery::new(from, to, walker).sized(clear.footprint(2)).within(&parts);
/// assert!(matches!(astar.find(&grid, query)?.arrival, Arrival::Closest(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
#[must_use]
pub struct PathQuery<'a> {
    pub(crate) from: Cell,
    pub(crate) to: Cell,
    pub(crate) mobility: Mobility,
    pub(crate) connectivity: Connectivity,
    pub(crate) reach: Option<&'a Components>,
    pub(crate) footprint: Option<Footprint<'a>>,
    pub(crate) guide: Option<&'a Landmarks>,
    pub(crate) rows: Option<&'a OpenRows>,
    pub(crate) jumps: Option<&'a JumpDistances>,
}

impl<'a> PathQuery<'a> {
    /// A one-cell unit with `mobility`, from `from` to `to`, 4-connected, with no other
    /// help.
    pub const fn new(from: Cell, to: Cell, mobility: Mobility) -> Self {
        Self {
            from,
            to,
            mobility,
            connectivity: Connectivity::Four,
            reach: None,
            footprint: None,
            guide: None,
            rows: None,
            jumps: None,
        }
    }

    /// Steps as `connectivity` says (see [`Connectivity`]; 4-connected if not set).
    ///
    /// ```
    /// use tilepath::{AStar, Cell, Connectivity, Grid, HexLayout, Mobility, PathQuery, Solver};
    /// let grid = Grid::new(8, 8)?;
    /// let (from, to) = (Cell::new(0, 0), Cell::new(3, 3));
    /// let hex = Connectivity::Hex(HexLayout::RowOdd);
    /// let query = PathQuery::new(from, to, Mobility::FLOOR_ONLY).connectivity(hex);
    /// let r = AStar::new().find(&grid, query)?;
    /// // 3 rows up and 3 columns right take 5 hex steps, not 6.
    /// assert_eq!((r.path.len(), r.cost, r.end), (5, 5.0, to));
    /// assert_eq!(r.path.end(from), to);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn connectivity(mut self, connectivity: Connectivity) -> Self {
        self.connectivity = connectivity;
        self
    }

    /// Answers goals out of reach without searching a whole component, with the
    /// mobility's [`Components`]: the search stops after at most
    /// [`UNREACHABLE_EXPANSIONS`](crate::UNREACHABLE_EXPANSIONS) expansions (or the
    /// solver's own limit, if lower) and the route ends at the cell closest to the goal
    /// among those it expanded. Reachable goals get the same answer as without them.
    /// Components of another unit size or lattice (square components on a hex query,
    /// or the reverse) are not used. They must be up to date with the grid searched
    /// (see the type's docs).
    pub const fn within(mut self, parts: &'a Components) -> Self {
        self.reach = Some(parts);
        self
    }

    /// For a unit of `footprint.size() x footprint.size()` cells (see [`Footprint`] for
    /// the movement rule and where the unit's cell is in it). A goal the footprint
    /// cannot occupy gives a route towards the closest cell it can, as a blocked goal
    /// does. Size 1 is the one-cell search. Not on hex maps yet.
    pub const fn sized(mut self, footprint: Footprint<'a>) -> Self {
        self.footprint = Some(footprint);
        self
    }

    /// Guided by `landmarks`, which make [`Jps`](crate::Jps)'s whole-grid searches on
    /// big maps of rooms expand far fewer jump points for the same answer. Only jump
    /// point search uses them (for big units too: a one-cell distance bounds theirs
    /// from below); A* and greedy run on their plain estimate, as does a query whose
    /// mobility, connectivity or grid size the landmarks were not built for. They must
    /// be repaired after edits (see the type's docs).
    pub const fn guided(mut self, landmarks: &'a Landmarks) -> Self {
        self.guide = Some(landmarks);
        self
    }

    /// Read by [`Jps`](crate::Jps) from `rows` (the cells of the query's mobility as bit
    /// rows) instead of the grid's bit planes: the same answers, faster. Other solvers
    /// read the grid. Rows of other kinds or another grid size are not used.
    pub const fn rows(mut self, rows: &'a OpenRows) -> Self {
        self.rows = Some(rows);
        self
    }

    /// Read by [`Jps`](crate::Jps)'s whole-grid searches of one-cell units from the
    /// jump distances of the query's mobility (and their rows, which `rows` need not
    /// repeat) instead of scanning rows, columns and diagonals: the same answers,
    /// faster. Windowed searches and big units read their rows only; other solvers
    /// read the grid. Distances of other kinds or another grid size are not used.
    pub const fn jumps(mut self, jumps: &'a JumpDistances) -> Self {
        self.jumps = Some(jumps);
        self
    }

    /// The side of the unit, in cells (1 without a footprint).
    pub(crate) fn size(&self) -> u8 {
        self.footprint.map_or(1, |f| f.size())
    }
}
