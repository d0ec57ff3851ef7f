//! What a single-pair search is asked: the one home of the options every solver's
//! `find*` methods take.

use crate::{Cell, Components, Footprint, Landmarks, Mobility};

/// A path query: from where, to where, for which [`Mobility`], and what the solver may
/// use besides the grid. Build it with [`new`](Self::new) and the options below, then
/// hand it to a solver: [`AStar::find`](crate::AStar::find) (4-connected),
/// [`find8`](crate::AStar::find8) (8-connected) or
/// [`find_hex`](crate::AStar::find_hex); the same on [`Jps`](crate::Jps), and
/// [`Greedy::find`](crate::Greedy::find).
///
/// - [`within`](Self::within): the mobility's [`Components`], so that a goal out of
///   reach is answered without searching the whole start component: the search stops
///   after at most [`UNREACHABLE_EXPANSIONS`](crate::UNREACHABLE_EXPANSIONS)
///   expansions (or the solver's own limit, if lower) and the partial route ends at the
///   cell closest to the goal among those it expanded. Reachable goals get the same
///   answer as without them. Components of another unit size or lattice (square
///   components on a hex query, or the reverse) are not used.
/// - [`sized`](Self::sized): a unit of `size x size` cells (see [`Footprint`] for the
///   movement rule and where the unit's cell is in it). A goal the footprint cannot
///   occupy gives a partial path towards the closest cell it can, as a blocked goal
///   does. Size 1 is the one-cell search. Not on hex maps yet.
/// - [`guided`](Self::guided): [`Landmarks`], which make [`Jps`](crate::Jps)'s whole-grid
///   searches on big maps of rooms expand far fewer jump points for the same answer.
///   Only jump point search uses them (for big units too: a one-cell distance bounds
///   theirs from below); A* and greedy run on their plain estimate, as does a query
///   whose mobility, connectivity or grid size the landmarks were not built for.
///
/// Every option must be up to date with the grid searched (components and clearance
/// updated, landmarks repaired after edits) and built for a mobility that lets units
/// enter the same tile kinds as the query's.
///
/// ```
/// use tilepath::{AStar, Cell, Clearance, Components, Grid, Mobility, PathQuery, TileKind};
/// let grid = Grid::from_ascii("..#..\n.....\n..#..", |c| {
///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
/// })?;
/// let walker = Mobility::FLOOR_ONLY;
/// let (from, to) = (Cell::new(0, 0), Cell::new(3, 0));
/// let mut astar = AStar::whole_grid();
///
/// // One cell: through the gap in the middle.
/// let r = astar.find(&grid, PathQuery::new(from, to, walker))?;
/// assert!(!r.partial);
///
/// // A 2x2 unit does not fit through it; its components say so at once.
/// let clear = Clearance::new(&grid, walker);
/// let parts = Components::for_footprint(clear.footprint(2));
/// let query = PathQuery::new(from, to, walker).sized(clear.footprint(2)).within(&parts);
/// assert!(astar.find(&grid, query)?.partial);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
#[must_use]
pub struct PathQuery<'a> {
    /// The start cell.
    pub from: Cell,
    /// The goal cell.
    pub to: Cell,
    /// What the unit may enter, and at what cost.
    pub mobility: Mobility,
    /// Components that answer goals out of reach at once ([`within`](Self::within)).
    pub reach: Option<&'a Components>,
    /// The unit's footprint, for units bigger than one cell ([`sized`](Self::sized)).
    pub footprint: Option<Footprint<'a>>,
    /// Landmarks that guide jump point search ([`guided`](Self::guided)).
    pub guide: Option<&'a Landmarks>,
}

impl<'a> PathQuery<'a> {
    /// A one-cell unit with `mobility`, from `from` to `to`, with no other help.
    pub const fn new(from: Cell, to: Cell, mobility: Mobility) -> Self {
        Self {
            from,
            to,
            mobility,
            reach: None,
            footprint: None,
            guide: None,
        }
    }

    /// Answers goals out of reach without searching a whole component (see the type's
    /// docs).
    pub const fn within(mut self, parts: &'a Components) -> Self {
        self.reach = Some(parts);
        self
    }

    /// For a unit of `footprint.size() x footprint.size()` cells (see the type's docs).
    pub const fn sized(mut self, footprint: Footprint<'a>) -> Self {
        self.footprint = Some(footprint);
        self
    }

    /// Guided by `landmarks` (see the type's docs).
    pub const fn guided(mut self, landmarks: &'a Landmarks) -> Self {
        self.guide = Some(landmarks);
        self
    }

    /// The side of the unit, in cells (1 without a footprint).
    #[must_use]
    pub fn size(&self) -> u8 {
        self.footprint.map_or(1, |f| f.size())
    }
}
