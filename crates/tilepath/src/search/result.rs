//! What a search answers: the route's first steps, where they lead and what the
//! route costs.

use crate::{Cell, GridPath8, MAX_STEPS};

/// The answer of a [`Solver`](crate::Solver).
///
/// The search finds a *route*: the whole way to the goal, or, when the goal cannot be
/// reached, the way to the reachable cell closest to it. `path` holds its first steps
/// (at most [`MAX_STEPS`]); [`arrival`](Self::arrival) says where walking `path`
/// leaves the unit. 4-connected routes are [`GridPath8`]s of straight steps, hex
/// routes the [`Direction8`](crate::Direction8)s of
/// [`HexLayout::directions`](crate::HexLayout::directions).
///
/// ```
/// use tilepath::{AStar, Arrival, Cell, Grid, Mobility, PathQuery, Solver};
/// let grid = Grid::new(100, 3)?;
/// let (from, to) = (Cell::new(0, 1), Cell::new(99, 1));
/// let r = AStar::whole_grid().find(&grid, PathQuery::new(from, to, Mobility::FLOOR_ONLY))?;
/// // 99 steps: the path holds the first 56; walk them and ask again from `end`.
/// assert_eq!(r.arrival, Arrival::OnTheWay);
/// assert_eq!((r.path.len(), r.end, r.route_len, r.cost), (56, Cell::new(56, 1), 99, 99.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathResult {
    /// The first steps of the route (at most [`MAX_STEPS`]), in walking order.
    pub path: GridPath8,
    /// The cell `path` ends at.
    pub end: Cell,
    /// Where the route leads, and whether `path` holds all of it.
    pub arrival: Arrival,
    /// What walking the whole route costs: the sum of the costs of the cells it enters
    /// (times `sqrt(2)` for 8-connected diagonal steps; hex steps cost the cell alone).
    pub cost: f64,
    /// The route's number of steps: `path.len()`, or more when the route goes on past
    /// `end`.
    pub route_len: u32,
    /// Nodes the search expanded (jump points, for [`Jps`](crate::Jps)'s jump point
    /// search).
    pub expanded: u32,
}

/// Where a search's route leads: the one "did it arrive" signal of a [`PathResult`].
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arrival {
    /// The route reaches the goal and `path` holds all of it: walking `path` arrives.
    Reached,
    /// The route reaches the goal but is longer than a path holds: `path` is its first
    /// [`MAX_STEPS`] steps. Walk it, then ask again from `end`.
    OnTheWay,
    /// The goal cannot be reached within what the search could see (it is blocked,
    /// outside the grid, unreachable, outside the solver's window, or the search hit
    /// its expansion limit): the route ends at this cell, the reachable cell closest
    /// to the goal (by the search's distance estimate; ties go to the cheaper route).
    /// `path` leads there, or is the beginning of the way there when the cell is not
    /// `end`.
    Closest(Cell),
}

impl Arrival {
    /// The arrival of a route from `start` of `len` steps ending at `route_end`, for a
    /// query to `goal`.
    #[inline]
    pub(crate) fn of(route_end: Cell, goal: Cell, len: u32) -> Self {
        if route_end != goal {
            Self::Closest(route_end)
        } else if len as usize > MAX_STEPS {
            Self::OnTheWay
        } else {
            Self::Reached
        }
    }
}
