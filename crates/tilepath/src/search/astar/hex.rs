//! A* on hex maps: the entry points (the search is [`super::run`]'s).

use super::*;

impl AStar {
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

    /// [`find`](Self::find) on a hex map laid out as `layout`:
    /// [`build_path_hex`](Self::build_path_hex) with the query's components for goals
    /// out of reach, which must be built for this layout
    /// ([`Components::with_connectivity`] with `Connectivity::Hex(layout)`): hex steps
    /// join cells that square components keep apart. Components of another
    /// connectivity are not used (the search runs as without them), so they never give
    /// a wrong answer, only a slower one for goals out of reach.
    ///
    /// # Errors
    /// As [`build_path`](Self::build_path); [`PathError::ZeroUnitSize`] or
    /// [`PathError::HexUnitSize`] for a footprint of a size other than 1 (unit sizes on
    /// hex maps may come later).
    pub fn find_hex(
        &mut self,
        grid: &Grid,
        query: PathQuery<'_>,
        layout: HexLayout,
    ) -> Result<PathResult<GridPath8>, PathError> {
        hex_size(&query)?;
        let connectivity = Connectivity::Hex(layout);
        capped(self, &query, connectivity, |s| {
            s.build_path_hex(grid, query.from, query.to, query.mobility, layout)
        })
    }
}

/// Refuses a hex query for a unit bigger than one cell.
pub(crate) fn hex_size(query: &PathQuery<'_>) -> Result<(), PathError> {
    match query.size() {
        1 => Ok(()),
        0 => Err(PathError::ZeroUnitSize),
        size => Err(PathError::HexUnitSize { size }),
    }
}
