//! The one way to ask for a path: the trait every single-pair solver implements.

use super::{PathError, PathQuery, PathResult};
use crate::Grid;

/// A single-pair path solver: what [`AStar`](crate::AStar), [`Jps`](crate::Jps) and
/// [`Greedy`](crate::Greedy) have in common, so that a game can hold "a solver" (as
/// a generic parameter or a `Box<dyn Solver>`) and pick one without changing how it
/// asks.
///
/// - [`AStar`](crate::AStar): the cheapest route for any [`Mobility`](crate::Mobility),
///   honouring every cell cost; 4-, 8-connected and hex.
/// - [`Jps`](crate::Jps): the same cheapest routes, found by jump point search where
///   every kind the mobility enters costs the same (it hands other mobilities and hex
///   maps to an A* it holds): the solver for long routes on big maps.
/// - [`Greedy`](crate::Greedy): the fastest way to a good but not always cheapest
///   route, within a window around the start; 4-connected and hex.
///
/// Each holds its scratch and allocates nothing per query (whole-grid solvers size
/// theirs to the largest grid they are given). Connectivities are monomorphised inside
/// each solver: choosing one at run time costs one branch a query.
///
/// ```
/// use tilepath::{AStar, Arrival, Cell, Connectivity, Greedy, Grid, Mobility, PathQuery, Solver};
/// let grid = Grid::new(10, 10)?;
/// let query = PathQuery::new(Cell::new(1, 1), Cell::new(8, 4), Mobility::FLOOR_ONLY);
/// let mut solvers: Vec<Box<dyn Solver>> = vec![Box::new(AStar::new()), Box::new(Greedy::new())];
/// for solver in &mut solvers {
///     let r = solver.find(&grid, query)?;
///     assert_eq!((r.arrival, r.path.len()), (Arrival::Reached, 10));
/// }
/// // 8-connected: 3 diagonal steps and 4 straight ones.
/// let r = AStar::new().find(&grid, query.connectivity(Connectivity::Eight))?;
/// assert_eq!((r.arrival, r.path.len()), (Arrival::Reached, 7));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Solver {
    /// The route `query` asks for on `grid`, from `from` (the start's own cost is
    /// ignored: a unit standing on a cell that has just become blocked can walk off it)
    /// to `to`, or, when `to` cannot be reached within the solver's scope, to the
    /// reachable cell closest to it ([`Arrival::Closest`](crate::Arrival::Closest)).
    /// `from == to` gives an empty path that has [`Reached`](crate::Arrival::Reached).
    ///
    /// The cost of a step is the cost of the cell it enters (8-connected diagonal steps
    /// `sqrt(2)` times that, and only where both orthogonal neighbours are passable: no
    /// corner cutting). No allocation, except a whole-grid solver's first query on a
    /// grid larger than its scratch.
    ///
    /// # Errors
    /// [`PathError::StartOutOfBounds`] if `from` is outside the grid;
    /// [`PathError::GridTooLarge`] for a whole-grid search on a grid of more than 2^32
    /// scratch slots; [`PathError::OutOfMemory`] if the system cannot give a whole-grid
    /// search's scratch (the solver is unchanged and serves smaller grids). For a
    /// footprint ([`PathQuery::sized`]): [`PathError::ZeroUnitSize`],
    /// [`PathError::UnitTooLarge`], [`PathError::ClearanceMismatch`], and on hex maps
    /// [`PathError::HexUnitSize`] for sizes above 1.
    /// [`PathError::UnsupportedConnectivity`] for a connectivity the solver does not
    /// search.
    fn find(&mut self, grid: &Grid, query: PathQuery<'_>) -> Result<PathResult, PathError>;

    /// The expansion limit: a query stops after this many expansions and answers
    /// towards the closest cell seen so far. `u32::MAX` (the default) is no limit.
    fn max_expansions(&self) -> u32;

    /// Stops later queries after `max` expansions (at least 1; `u32::MAX` = no limit),
    /// with a route towards the closest cell seen so far: caps the time of a query on
    /// huge grids or when goals are often unreachable.
    fn set_max_expansions(&mut self, max: u32);

    /// The solver with [`set_max_expansions`](Self::set_max_expansions)`(max)`.
    #[must_use]
    fn with_max_expansions(mut self, max: u32) -> Self
    where
        Self: Sized,
    {
        self.set_max_expansions(max);
        self
    }
}
