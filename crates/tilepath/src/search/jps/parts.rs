//! Searches in parts: a search paused after so many jump points and taken up by the
//! next call with the same query ([`Jps::find_in_parts`]).

use super::Jps;
use super::run::Ran;
use crate::search::{PathError, PathQuery, PathResult};
use crate::{Cell, Connectivity, Grid, Mobility};

/// What a query asks and hands the search, to tell whether a search paused by
/// [`Jps::find_in_parts`] answers the next call's query: the cells, the unit, the
/// grid's size, and where the grid and what it hands were (by address, as the
/// contract of `find_in_parts` is that they stay unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Asked {
    ends: (Cell, Cell),
    mobility: Mobility,
    connectivity: Connectivity,
    size: u8,
    max_expansions: u32,
    grid: (usize, u32, u32),
    /// Addresses of the footprint's clearance, components, guide, rows and jump
    /// distances (0: none).
    handed: [usize; 5],
}

impl Asked {
    pub(super) fn of(grid: &Grid, q: &PathQuery<'_>, max_expansions: u32) -> Self {
        fn at<T>(item: Option<&T>) -> usize {
            item.map_or(0, |r| core::ptr::from_ref(r) as usize)
        }
        Self {
            ends: (q.from, q.to),
            mobility: q.mobility,
            connectivity: q.connectivity,
            size: q.size(),
            max_expansions,
            grid: (
                core::ptr::from_ref(grid) as usize,
                grid.width(),
                grid.height(),
            ),
            handed: [
                at(q.footprint.map(|f| f.clearance())),
                at(q.reach),
                at(q.guide),
                at(q.rows),
                at(q.jumps),
            ],
        }
    }
}

impl Jps {
    /// [`find`](crate::Solver::find) in parts: runs the search for `query` on `grid` for at
    /// most `expansions` more jump points (at least 1), then pauses it. Returns the
    /// answer when the search ends within them (the same answer as `find`: the same
    /// cost and route), `None` when it paused: call again with the same grid and
    /// query to go on where it stopped. A game or server that must bound the time a
    /// frame spends on one long search spreads it over frames so.
    ///
    /// Contract: between the calls of one search, neither `grid` nor what the query
    /// hands it (components, footprint, landmarks, rows, jump distances) changes or
    /// moves. A call with another query (other cells, unit, limit, or what it hands
    /// the search, told apart by address), another grid, or after
    /// [`find`](crate::Solver::find) or [`abandon`](Self::abandon) starts afresh; after an edit
    /// of the grid, call `abandon` (an edited grid at the same address cannot be told
    /// apart: a search resumed on it may answer with a route that is not the cheapest,
    /// or crosses the edited cells, but never panics). Queries this solver answers by
    /// its A* (see [`jumps`](Self::jumps)) are answered in one call. A pause keeps the
    /// scratch as it is: nothing is allocated to pause or resume.
    ///
    /// # Errors
    /// As [`find`](crate::Solver::find).
    ///
    /// ```
    /// use tilepath::{Cell, Connectivity, Grid, Jps, Mobility, PathQuery, Solver, TileKind};
    /// let mut grid = Grid::new(64, 64)?;
    /// grid.fill_rect(Cell::new(32, 0), Cell::new(32, 62), TileKind::K1);
    /// let query = PathQuery::new(Cell::new(0, 0), Cell::new(63, 0), Mobility::FLOOR_ONLY)
    ///     .connectivity(Connectivity::Eight);
    /// let mut jps = Jps::whole_grid();
    /// let mut calls = 1;
    /// let parts = loop {
    ///     match jps.find_in_parts(&grid, query, 2)? {
    ///         Some(r) => break r,
    ///         None => calls += 1, // a frame later, say
    ///     }
    /// };
    /// assert!(calls > 1);
    /// assert_eq!(parts.cost, jps.find(&grid, query)?.cost);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find_in_parts(
        &mut self,
        grid: &Grid,
        query: PathQuery<'_>,
        expansions: u32,
    ) -> Result<Option<PathResult>, PathError> {
        let asked = Asked::of(grid, &query, self.max_expansions);
        if self.paused.is_some_and(|(was, _)| was != asked) {
            self.paused = None;
        }
        self.part = Some(expansions.max(1));
        let ran = self.ask(grid, query);
        self.part = None;
        // Taken up by the search, unless it failed before.
        self.paused = None;
        match ran? {
            Ran::Done(r) => Ok(Some(r)),
            Ran::Paused(at) => {
                self.paused = Some((asked, at));
                Ok(None)
            }
        }
    }

    /// Whether a search paused by [`find_in_parts`](Self::find_in_parts) waits to be
    /// taken up.
    #[must_use]
    pub fn is_paused(&self) -> bool {
        self.paused.is_some()
    }

    /// Drops the search paused by [`find_in_parts`](Self::find_in_parts), if any: the
    /// next call starts afresh.
    pub fn abandon(&mut self) {
        self.paused = None;
    }
}
