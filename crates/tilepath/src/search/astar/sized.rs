//! A* for units bigger than one cell (queries [`sized`](crate::PathQuery::sized)): the
//! search over the footprint's costs.

use super::*;
use crate::search::window::WindowSteps;

impl AStar {
    /// The search for a footprint: size 1 is the one-cell search.
    pub(crate) fn run_sized<N: WindowSteps>(
        &mut self,
        footprint: Footprint<'_>,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult, PathError> {
        match FootprintCosts::of(footprint, grid, mobility, from)? {
            None => self.run::<N>(grid, from, to, mobility),
            Some(costs) => self.run_with::<N, _>(costs, from, to, mobility),
        }
    }
}
