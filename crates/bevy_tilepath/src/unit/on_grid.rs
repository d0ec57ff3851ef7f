//! Which grid a unit walks on.

use bevy::prelude::*;

/// The grid a unit walks on: the [`PathingMap`](crate::PathingMap) on this entity (a
/// mirrored tilemap, or a grid entity without one). A unit without it walks on the
/// default grid, the [`PathingGrid`](crate::PathingGrid) resource.
///
/// Its [`GridCell`](crate::GridCell), goal and path are cells of that grid, and its
/// requests are served there only: a chased entity must walk on the same grid
/// (otherwise [`NoPathReason::TargetOnOtherGrid`](crate::NoPathReason::TargetOnOtherGrid)).
/// Changing or removing it plans the unit again on its new grid.
///
/// When the entity has no `PathingMap` (it never had one, or it was despawned), the
/// unit's request fails with [`NoPathReason::GridMissing`](crate::NoPathReason::GridMissing)
/// (one [`PathFailed`](crate::PathFailed)), the unit keeps its last path and its
/// [`PathFollower`](crate::PathFollower) stops; it is planned again once the grid is
/// back or the unit is given another one. It never falls back to another grid.
///
/// # Implementation
/// A plain component rather than a Bevy relationship: a relationship's source is
/// removed when its target is despawned (or does not exist yet), which would move the
/// unit onto the default grid without a word.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, PartialEq)]
pub struct OnGrid(#[entities] pub Entity);
