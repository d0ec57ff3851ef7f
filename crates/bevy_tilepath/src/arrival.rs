//! Telling the game that a unit reached its goal.

use bevy::prelude::*;

use crate::plan::collect::{Targets, resolve_goal};
use crate::{GridCell, OnGrid, PathArrived, PathFollower, PathRequest, PathStatus, UnitPath};

/// Marks every unit that now stands on its goal [`PathStatus::Arrived`] and sends one
/// [`PathArrived`] for it: a unit whose complete path ([`PathStatus::Found`]) is
/// walked to its end (no steps left, no segment to follow), on the goal cell its
/// request leads to now, and whose [`PathFollower`], if it has one, is not between
/// two cells. Runs after the movement, so the arrival is seen in the tick it happens.
#[expect(clippy::type_complexity, reason = "a system's query")]
pub(crate) fn mark_arrivals(
    mut units: Query<(
        Entity,
        &PathRequest,
        &GridCell,
        Option<&OnGrid>,
        &UnitPath,
        &mut PathStatus,
        Option<&PathFollower>,
    )>,
    targets: Targets,
    mut arrived: MessageWriter<PathArrived>,
) {
    for (entity, request, cell, on_grid, path, mut status, follower) in &mut units {
        let at = cell.0;
        if *status != PathStatus::Found
            || path.at != at
            || path.goal != at
            || !path.is_finished()
            || path.continues
            || follower.is_some_and(PathFollower::is_moving)
            || resolve_goal(request, on_grid.map(|g| g.0), &targets) != Ok(at)
        {
            continue;
        }
        *status = PathStatus::Arrived;
        arrived.write(PathArrived { entity, goal: at });
    }
}
