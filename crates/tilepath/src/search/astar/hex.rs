//! A* on hex maps: the steps of [`HexLayout::directions`], each costing the cell it
//! enters (the search is [`super::run`]'s).

use super::*;

impl AStar {
    /// A hex query laid out as `layout`: the one-cell search, capped by the query's
    /// components, which must be built for this layout
    /// ([`Components::with_connectivity`] with `Connectivity::Hex(layout)`): hex steps
    /// join cells that square components keep apart. Components of another
    /// connectivity are not used (the search runs as without them), so they never give
    /// a wrong answer, only a slower one for goals out of reach. A partial route ends
    /// at the reachable cell nearest the goal by [`HexLayout::distance`]; the window of
    /// [`AStar::new`] is the same 113x113 cells (every cell 56 hex steps can reach lies
    /// in it).
    pub(crate) fn answer_hex(
        &mut self,
        grid: &Grid,
        query: PathQuery<'_>,
        layout: HexLayout,
    ) -> Result<PathResult, PathError> {
        hex_size(&query)?;
        capped(
            self,
            &query,
            |s| with_hex!(layout, N => s.run::<N>(grid, query.from, query.to, query.mobility)),
        )
    }
}

/// Refuses a hex query for a unit bigger than one cell (unit sizes on hex maps may
/// come later).
pub(crate) fn hex_size(query: &PathQuery<'_>) -> Result<(), PathError> {
    match query.size() {
        1 => Ok(()),
        0 => Err(PathError::ZeroUnitSize),
        size => Err(PathError::HexUnitSize { size }),
    }
}
