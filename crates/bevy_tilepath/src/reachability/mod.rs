//! The questions a game asks of the map before it acts: can this unit get from here to
//! there, and would it still if these cells were blocked ("may I place this wall?").

mod cut;
mod walker;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use tilepath::{Cell, Components, Connectivity, Grid};

use crate::grid::Grids;
use crate::plan::Planner;
pub use cut::IfBlocked;
use cut::{Lattice, Scratch};
pub use walker::Walker;

/// Answers "can this unit get from here to there?" and "would it still, were these
/// cells blocked?" on any grid, for any mobility, connectivity and unit size
/// ([`Walker`]), without searching for a path.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_tilepath::prelude::*;
/// const SPAWN: Cell = Cell::new(0, 0);
/// const BASE: Cell = Cell::new(30, 20);
///
/// /// A tower-defence rule: a wall may not shut the enemies out of the base.
/// fn place_wall(In(at): In<Cell>, mut reach: Reachability, mut grid: ResMut<PathingGrid>) {
///     let enemy = Walker::new(Mobility::FLOOR_ONLY);
///     if reach.if_blocked(enemy, &[at]).reaches(SPAWN, BASE) {
///         let _ = grid.set(at, TileKind::K1);
///     }
/// }
/// ```
///
/// Answers are exact for the grid as it is when asked (edits made since the last
/// pathing tick included), and `false` for anything that cannot be walked: a grid that
/// does not exist or is empty, cells outside it, a size of 0 or larger than the grid
/// or [`MAX_UNIT_SIZE`](tilepath::MAX_UNIT_SIZE), a size above 1 on a hex map.
///
/// # Cost
/// The plugin keeps the connected components of every mobility (and of every big
/// unit's footprint size) its requests on a grid have used, repaired with each tick's
/// edits. While they are in step with the grid ([`knows`](Self::knows): no edit since
/// the last pathing tick), [`can_reach`](Self::can_reach) costs `O(log n)` and
/// [`if_blocked`](Self::if_blocked) a search around the blocked cells only (see
/// [`IfBlocked`]). Otherwise the grid is searched: everything `from` reaches for
/// `can_reach`, every cell of the grid for `if_blocked` (reading `size²` cells for
/// each). The search scratch is kept between calls (4 bytes a cell once a grid has
/// been searched whole).
#[derive(SystemParam)]
pub struct Reachability<'w, 's> {
    grids: Grids<'w, 's>,
    planner: Res<'w, Planner>,
    scratch: Local<'s, Scratch>,
}

/// A walker's grid, checked: what the questions read.
struct Walk<'a> {
    grid: &'a Grid,
    lattice: Lattice,
    /// The kept components, if in step with the grid.
    parts: Option<&'a Components>,
}

/// The grid `walker` walks on and how, if it can walk there at all.
fn walk<'a>(grids: &'a Grids, planner: &'a Planner, walker: Walker) -> Option<Walk<'a>> {
    let (pathing, world) = grids.get(walker.grid)?;
    let grid = pathing.grid();
    let size = walker.size;
    let connectivity = world.layout.connectivity(walker.connectivity);
    let hex = match connectivity {
        Connectivity::Hex(layout) => Some(layout),
        Connectivity::Four | Connectivity::Eight => None,
    };
    if pathing.failure().is_some()
        || grid.is_empty()
        || size == 0
        || size > tilepath::MAX_UNIT_SIZE
        || u32::from(size) > grid.width().min(grid.height())
        || (size > 1 && hex.is_some())
    {
        return None;
    }
    let parts = planner.components((walker.grid, pathing), walker.mobility, connectivity, size);
    Some(Walk {
        grid,
        lattice: Lattice {
            mobility: walker.mobility,
            size,
            hex,
            holes: world.layout,
        },
        parts,
    })
}

impl Reachability<'_, '_> {
    /// Whether the answers for `walker` come from the components the plugin keeps
    /// (cheap), rather than from a search of the grid: a request on its grid has
    /// used its mobility (and size), and the grid has not been edited since the last
    /// pathing tick.
    #[must_use]
    pub fn knows(&self, walker: Walker) -> bool {
        walk(&self.grids, &self.planner, walker).is_some_and(|w| w.parts.is_some())
    }

    /// Whether `walker` can walk from `from` to `to` (its footprint's anchors, for a
    /// big unit): both are cells it can stand on, joined by steps it can take. A cell
    /// reaches itself when the walker can stand on it.
    pub fn can_reach(&mut self, walker: Walker, from: Cell, to: Cell) -> bool {
        let Self {
            grids,
            planner,
            scratch,
        } = self;
        match walk(grids, planner, walker) {
            None => false,
            Some(w) if !w.lattice.holds(w.grid, from) || !w.lattice.holds(w.grid, to) => false,
            Some(Walk {
                parts: Some(parts), ..
            }) => parts.is_reachable(from, to),
            Some(Walk { grid, lattice, .. }) => scratch.flood_reaches(grid, &lattice, from, to),
        }
    }

    /// What `walker` could reach if `cells` were blocked for it (as if they were
    /// walls; cells outside the grid are ignored): ask it with
    /// [`IfBlocked::reaches`], as many times as needed.
    pub fn if_blocked(&mut self, walker: Walker, cells: &[Cell]) -> IfBlocked<'_> {
        let Self {
            grids,
            planner,
            scratch,
        } = self;
        match walk(grids, planner, walker) {
            None => IfBlocked::nowhere(),
            Some(Walk {
                grid,
                lattice,
                parts,
            }) => scratch.if_blocked(grid, lattice, parts, cells),
        }
    }
}
