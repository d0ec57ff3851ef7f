//! What a unit asks for.

use bevy::prelude::*;
use tilepath::{Cell, Connectivity, Mobility};

use super::{PathStatus, UnitPath};
use crate::plan::PlanState;
#[cfg(doc)]
use crate::{GridCell, NoPathReason};

/// Where a [`PathRequest`] leads.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq)]
pub enum PathGoal {
    /// A fixed cell.
    Cell(Cell),
    /// Another entity's [`GridCell`]: followed as it moves (see
    /// [`PathingSettings::retarget_interval`](crate::PathingSettings::retarget_interval)).
    /// If the entity is despawned or has no `GridCell`, the request fails with
    /// [`NoPathReason::TargetMissing`] and the unit keeps its last path.
    Entity(Entity),
}

/// Which search serves a request.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[reflect(Default, Debug, PartialEq)]
pub enum SearchMode {
    /// The plugin picks: a shared distance field when enough units head for the same
    /// cell, windowed A* for near goals, and for far ones whole-grid jump point search
    /// (mobilities with one cost) or whole-grid A* (several costs).
    #[default]
    Auto,
    /// Optimal searches only, never a shared distance field: windowed A* for near
    /// goals, and for far ones the same whole-grid search as [`Auto`](Self::Auto)
    /// (jump point search, whose paths are as short as A*'s, or A*).
    AStar,
    /// Greedy best-first for near goals (cheaper, not optimal; 4-connected and hex
    /// maps, 8-connected requests take A*);
    /// far goals as [`Auto`](Self::Auto).
    Greedy,
}

/// Asks the plugin for a path from the unit's [`GridCell`] to a goal.
///
/// The request stays on the unit: the plugin keeps its [`UnitPath`] valid (next segment
/// before the current one runs out, a new plan when the target moves or a wall appears)
/// until the request is removed. Changing the request plans again.
///
/// ```
/// # use bevy_tilepath::prelude::*;
/// # use bevy::prelude::*;
/// # fn spawn(mut commands: Commands, player: Entity) {
/// commands.spawn((
///     GridCell(Cell::new(3, 4)),
///     PathRequest::chase(player).with_mobility(Mobility::FLOOR_ONLY),
///     PathFollower::new(4.0),
/// ));
/// # }
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq)]
#[require(UnitPath, PathStatus, PlanState)]
pub struct PathRequest {
    /// Where to go.
    pub goal: PathGoal,
    /// What each tile kind costs this unit (0 = blocked).
    pub mobility: Mobility,
    /// 4- or 8-connected movement (8: no corner cutting, diagonals cost `sqrt(2)`).
    pub connectivity: Connectivity,
    /// Which search to use.
    pub mode: SearchMode,
    /// Caps the nodes one search may expand (`None`: the settings' default).
    pub max_expansions: Option<u32>,
    /// The unit's side in cells: it covers `size x size` cells, its [`GridCell`] being
    /// the footprint's corner with the smallest `x` and `y` (see
    /// [`Footprint`](tilepath::Footprint) for the movement and cost rules). 1 by
    /// default; 0, or more than the grid's sides or
    /// [`MAX_UNIT_SIZE`](tilepath::MAX_UNIT_SIZE), fails with
    /// [`NoPathReason::UnitSize`](crate::NoPathReason::UnitSize).
    pub size: u8,
}

impl PathRequest {
    /// A request for a path to `cell`, walking on [`Mobility::FLOOR_ONLY`], 4-connected.
    #[must_use]
    pub fn to_cell(cell: Cell) -> Self {
        Self {
            goal: PathGoal::Cell(cell),
            mobility: Mobility::FLOOR_ONLY,
            connectivity: Connectivity::Four,
            mode: SearchMode::Auto,
            max_expansions: None,
            size: 1,
        }
    }

    /// A request to chase `target` (an entity with a [`GridCell`]).
    #[must_use]
    pub fn chase(target: Entity) -> Self {
        Self {
            goal: PathGoal::Entity(target),
            ..Self::to_cell(Cell::default())
        }
    }

    /// With this mobility.
    #[must_use]
    pub fn with_mobility(mut self, mobility: Mobility) -> Self {
        self.mobility = mobility;
        self
    }

    /// With this connectivity.
    #[must_use]
    pub fn with_connectivity(mut self, connectivity: Connectivity) -> Self {
        self.connectivity = connectivity;
        self
    }

    /// With this search mode.
    #[must_use]
    pub fn with_mode(mut self, mode: SearchMode) -> Self {
        self.mode = mode;
        self
    }

    /// For a unit of `size x size` cells (see [`size`](Self::size)).
    ///
    /// Cells of a big unit are its footprint's anchor, the corner with the smallest `x`
    /// and `y`: its [`GridCell`], its path's cells and its goal cell all name that
    /// corner, and the footprint covers `x..x + size`, `y..y + size` from it. A goal
    /// cell that is open but where that footprint does not fit (a wall under it, or
    /// off the grid's edge) fails at once, without a search, with
    /// [`NoPathReason::GoalUnfit`](crate::NoPathReason::GoalUnfit) (and is tried again
    /// when a cell under it changes; a chaser whose target stands there gets a partial
    /// path with that reason instead); a blocked goal cell gives, as for every size, a
    /// partial path to the reachable anchor closest to it, with
    /// [`NoPathReason::GoalBlocked`](crate::NoPathReason::GoalBlocked).
    ///
    /// ```
    /// # use bevy_tilepath::prelude::*;
    /// let ogre = PathRequest::to_cell(Cell::new(40, 12)).with_size(2);
    /// assert_eq!(ogre.size, 2);
    /// ```
    #[must_use]
    pub fn with_size(mut self, size: u8) -> Self {
        self.size = size;
        self
    }

    /// With an expansion cap for each search.
    #[must_use]
    pub fn with_max_expansions(mut self, max: u32) -> Self {
        self.max_expansions = Some(max);
        self
    }
}
