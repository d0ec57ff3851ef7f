//! A* for units bigger than one cell: the entry points, and the footprint costs
//! they search over.

use super::*;

impl AStar {
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

    /// [`build_path_sized`](Self::build_path_sized) with
    /// [`build_path_in`](Self::build_path_in)'s answer for goals out of the unit's
    /// reach: `parts` are the footprint's components
    /// ([`Components::for_footprint`], up to date with `grid`); when they say the goal
    /// cannot be reached, the search stops after at most [`UNREACHABLE_EXPANSIONS`]
    /// expansions and the partial route ends at the closest cell it expanded.
    /// Components of another unit size are not used (the search runs as
    /// `build_path_sized` would).
    ///
    /// ```
    /// use tilepath::{AStar, Cell, Clearance, Components, Grid, Mobility, TileKind};
    /// let grid = Grid::from_ascii("..#..\n.....\n..#..", |c| {
    ///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
    /// })?;
    /// let clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
    /// let parts = Components::for_footprint(clear.footprint(2));
    /// let mut astar = AStar::whole_grid();
    /// let (from, to) = (Cell::new(0, 0), Cell::new(3, 0));
    /// let r = astar.build_path_sized_in(&parts, clear.footprint(2), &grid, from, to, Mobility::FLOOR_ONLY)?;
    /// assert!(r.partial); // the 2x2 unit does not fit through the 1-wide gap
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`build_path_sized`](Self::build_path_sized).
    pub fn build_path_sized_in(
        &mut self,
        parts: &Components,
        footprint: Footprint<'_>,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath>, PathError> {
        within_reach_of(self, parts, (from, to), (mobility, footprint.size()), |s| {
            s.build_path_sized(footprint, grid, from, to, mobility)
        })
    }

    /// [`build_path8_sized`](Self::build_path8_sized) with
    /// [`build_path_sized_in`](Self::build_path_sized_in)'s answer for goals out of
    /// the unit's reach.
    ///
    /// # Errors
    /// As [`build_path_sized`](Self::build_path_sized).
    pub fn build_path8_sized_in(
        &mut self,
        parts: &Components,
        footprint: Footprint<'_>,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult<GridPath8>, PathError> {
        within_reach_of(self, parts, (from, to), (mobility, footprint.size()), |s| {
            s.build_path8_sized(footprint, grid, from, to, mobility)
        })
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
}
