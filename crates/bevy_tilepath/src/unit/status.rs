//! Where a request stands, and why it has no path.

use bevy::prelude::*;

#[cfg(doc)]
use crate::GridCell;

/// Why a request has no (complete) path.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq)]
pub enum NoPathReason {
    /// There is no grid yet (no tilemap mirrored, no grid set).
    NoGrid,
    /// The mirrored tilemap is larger than a grid can be
    /// ([`Grid::MAX_SIDE`](tilepath::Grid::MAX_SIDE)), or the memory a search of the
    /// grid needs (a whole-grid search's scratch, a big unit's clearance) could not be
    /// had.
    GridTooLarge,
    /// The unit's [`OnGrid`](crate::OnGrid) entity has no
    /// [`PathingMap`](crate::PathingMap): it never had one, or it was despawned.
    GridMissing,
    /// The layers mirrored into the grid disagree (size, grid size, layout, anchor or
    /// transform): the grid is empty until they agree again.
    LayersMismatch,
    /// The unit's [`GridCell`] is outside the grid (or in a hole of an isometric
    /// staggered map: see [`MapLayout`](crate::MapLayout)).
    StartOutsideGrid,
    /// The goal cell is outside the grid (or in a hole of an isometric staggered map).
    GoalOutsideGrid,
    /// The chased entity was despawned or has no [`GridCell`].
    TargetMissing,
    /// The chased entity walks on another grid (see [`OnGrid`](crate::OnGrid)).
    TargetOnOtherGrid,
    /// The goal cell is blocked for the unit's mobility.
    GoalBlocked,
    /// The goal cell is open, but the footprint of a unit bigger than one cell,
    /// anchored there (see [`PathRequest::with_size`](crate::PathRequest::with_size)),
    /// does not fit: a cell under it is blocked for the unit's mobility, or it hangs
    /// off the grid's edge. For a goal cell ([`PathGoal::Cell`](crate::PathGoal::Cell))
    /// it is decided before any search: the unit gets no path (it keeps its last
    /// one), and it is tried again only when a cell under that footprint changes. A
    /// chased entity's cell moves: the chaser gets a partial path to the reachable
    /// anchor closest to it, as for [`GoalBlocked`](Self::GoalBlocked).
    GoalUnfit,
    /// No route leads to the goal.
    Unreachable,
    /// The search hit its expansion cap before reaching the goal.
    SearchLimit,
    /// The unit's [`size`](crate::PathRequest::size) is 0, or larger than the grid's
    /// width or height or [`MAX_UNIT_SIZE`](tilepath::MAX_UNIT_SIZE).
    UnitSize,
}

/// Where a unit's request stands.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub enum PathStatus {
    /// Waiting to be served (the unit keeps its previous path meanwhile).
    #[default]
    Pending,
    /// The path (or its segments) leads to the goal.
    Found,
    /// The path leads towards the goal but cannot reach it: it ends at the reachable
    /// cell closest to the goal. Planned again when the grid changes.
    Partial(NoPathReason),
    /// No path at all; the unit keeps its last path. Planned again when the grid or
    /// the target changes.
    NoPath(NoPathReason),
    /// The unit stands on its goal: its path was complete ([`Found`](Self::Found)) and
    /// a unit with a [`PathFollower`](crate::PathFollower) has walked all of it and
    /// stopped on the goal cell, or a unit without one has its [`GridCell`] on the
    /// goal cell, however it got there. Set once per arrival, with a
    /// [`PathArrived`](crate::PathArrived) message, in
    /// [`PathingSystems::Move`](crate::PathingSystems::Move). The unit leaves it
    /// (for [`Pending`](Self::Pending), until it is served) when it is planned again:
    /// its request changed, its target moved, or it was moved off the goal (a
    /// [`Solid`](crate::Solid) unit pushed aside by its crowd, too).
    Arrived,
}
