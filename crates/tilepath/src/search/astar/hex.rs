//! A* on hex maps: the entry points (the search is [`run`](super::run)'s).

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
}
