//! One request taken from the FIFO, and its one answer.

use bevy::prelude::*;
use tilepath::{Cell, Connectivity, GridPath8, Mobility};

use super::Lane;
use crate::{NoPathReason, SearchMode, Waypoints};

/// A request being served: what was asked, read once from the unit, and the answer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Job {
    pub(crate) entity: Entity,
    /// Where it was queued: its ticket and lane (to queue it again where it was).
    pub(crate) queued: (u64, Lane),
    pub(crate) start: Cell,
    pub(crate) goal: Cell,
    pub(crate) mobility: Mobility,
    pub(crate) connectivity: Connectivity,
    pub(crate) mode: SearchMode,
    pub(crate) max_expansions: u32,
    /// The unit's side in cells (checked: at least 1, and it fits the grid).
    pub(crate) size: u8,
    /// The index of the shared distance field that serves it, if any.
    pub(crate) field: Option<usize>,
    /// The goal it waited for a field of, if it did (see
    /// [`FieldCache::park`](super::fields::FieldCache::park)): while the field of its
    /// goal now is built, it is served from that one.
    pub(crate) waited_for: Option<Cell>,
    pub(crate) answer: Answer,
    /// Work spent on it: nodes expanded, or steps read from a field, and what pulling
    /// its route straight cost.
    pub(crate) work: u64,
    /// The time answering it took its task, in nanoseconds (0: not searched).
    pub(crate) nanos: u64,
    /// Its route pulled straight (see
    /// [`PathingSettings::straight_routes`](crate::PathingSettings::straight_routes)):
    /// empty where it was not.
    pub(crate) waypoints: Waypoints,
}

/// What a request gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Answer {
    /// Not answered yet: a search (or a field) will answer it.
    Unsolved,
    /// Not answered this tick: it waits for the shared field of its goal, being built
    /// in the background, and goes back to the front of its queue.
    Wait,
    /// Not answered this tick: its whole-grid search paused at the tick's time cap
    /// (or found every solver holding another unit's paused search), and it goes back
    /// to the front of its queue, to go on at its next turn.
    Paused,
    /// A path: complete, or partial (ending at the reachable cell closest to the goal)
    /// with the reason it cannot reach the goal.
    Route(Route),
    /// No path at all.
    NoPath(NoPathReason),
}

impl Job {
    /// Whether its goal lies beyond the search window (see
    /// [`window_distance`](crate::PathingSettings::window_distance)): a whole-grid
    /// search answers it, at the cost of hundreds of near ones.
    pub(crate) fn is_far(&self, window: u32) -> bool {
        self.start.manhattan(self.goal) > window
    }
}

/// A planned segment and what is known of the whole route.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Route {
    pub(crate) steps: GridPath8,
    pub(crate) end: Cell,
    /// The cost of the whole route found, all segments.
    pub(crate) cost: f32,
    /// The route goes on past `end`.
    pub(crate) continues: bool,
    /// `None`: the route reaches the goal; otherwise why it stops short.
    pub(crate) short: Option<NoPathReason>,
    /// Read from a shared distance field rather than searched.
    pub(crate) by_field: bool,
}
