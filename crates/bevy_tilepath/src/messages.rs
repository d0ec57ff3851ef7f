//! What the plugin tells the game about served requests.

use bevy::prelude::*;
use tilepath::Cell;

use crate::NoPathReason;

/// A request was served with a path (complete or partial).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq)]
pub struct PathFound {
    /// The unit.
    pub entity: Entity,
    /// The goal cell planned for.
    pub goal: Cell,
    /// Whether the route reaches the goal (otherwise it is partial).
    pub complete: bool,
    /// Steps in this segment.
    pub steps: usize,
    /// The route's cost.
    pub cost: f32,
}

/// A request could not be served with any path.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct PathFailed {
    /// The unit.
    pub entity: Entity,
    /// Why.
    pub reason: NoPathReason,
}

/// A unit reached its goal: its [`PathStatus`](crate::PathStatus) became
/// [`Arrived`](crate::PathStatus::Arrived) this tick. Sent once per arrival.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct PathArrived {
    /// The unit.
    pub entity: Entity,
    /// The goal cell it stands on.
    pub goal: Cell,
}
