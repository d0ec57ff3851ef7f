//! The components a unit carries: where it is, what it asked for, what it got.

mod on_grid;
mod path;
mod request;
mod status;
mod waypoints;

use bevy::prelude::*;
use tilepath::Cell;

pub use on_grid::OnGrid;
pub use path::UnitPath;
pub use request::{PathGoal, PathRequest, SearchMode};
pub use status::{NoPathReason, PathStatus};
pub use waypoints::Waypoints;

/// The cell a unit stands on. The plugin plans from it; [`PathFollower`](crate::PathFollower)
/// updates it. Moving a unit yourself is fine: a unit found off its path, or moved
/// since a request of its failed, is planned again.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct GridCell(pub Cell);
