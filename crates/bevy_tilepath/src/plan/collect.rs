//! Which units need a path: the replanning policy, applied once a tick.

use bevy::platform::time::Instant;
use bevy::prelude::*;
use tilepath::Cell;

use super::{Lane, PlanState, Planner};
use crate::grid::Changes;
use crate::{
    GridCell, NoPathReason, PathGoal, PathRequest, PathStatus, PathingDiagnostics, PathingGrid,
    PathingSettings, UnitPath,
};

/// The cell a request leads to now: its cell, or its target's; `None` when the target
/// is gone or has no [`GridCell`].
pub(crate) fn resolve_goal(request: &PathRequest, targets: &Query<&GridCell>) -> Option<Cell> {
    match request.goal {
        PathGoal::Cell(c) => Some(c),
        PathGoal::Entity(t) => targets.get(t).ok().map(|c| c.0),
    }
}

/// What changed since a unit's answer was planned, as far as the policy cares.
struct Since<'a> {
    tick: u64,
    generation: u64,
    /// The grid was replaced since the last collection.
    replaced: bool,
    /// One bit per cell changed since the last collection (empty: none changed).
    changed: &'a [u64],
    grid_width: i32,
    grid_height: i32,
    settings: &'a PathingSettings,
}

impl Since<'_> {
    /// Whether any cell changed: when none did (most ticks), no path is walked.
    fn any_changed(&self) -> bool {
        !self.changed.is_empty()
    }

    fn cell_changed(&self, c: Cell) -> bool {
        if self.changed.is_empty()
            || !(0..self.grid_width).contains(&c.x)
            || !(0..self.grid_height).contains(&c.y)
        {
            return false;
        }
        let i = c.y as usize * self.grid_width as usize + c.x as usize;
        self.changed[i / 64] & (1 << (i % 64)) != 0
    }

    /// Whether a cell under the `size x size` footprint anchored at `c` changed.
    fn footprint_changed(&self, c: Cell, size: u8) -> bool {
        let n = i32::from(size.max(1));
        (0..n).any(|dy| (0..n).any(|dx| self.cell_changed(Cell::new(c.x + dx, c.y + dy))))
    }
}

/// Whether a unit needs a new plan, and in which lane.
///
/// Planned again: a new or changed request; a replaced grid; a unit not where its path
/// (or its failed request) says; a chaser whose target changed cell (at most once per
/// `retarget_interval` ticks); a segment about to run out; a path crossing a changed
/// cell; a unit at the end of a partial path, every `retry_interval` ticks. A unit
/// whose goal could not be reached (a partial path, or none) is retried after any
/// grid edit, in the [`Lane::Retry`].
fn needs_plan(
    request: &Ref<PathRequest>,
    cell: Cell,
    state: &PlanState,
    path: &UnitPath,
    status: PathStatus,
    goal_now: Option<Cell>,
    since: &Since<'_>,
) -> Option<Lane> {
    let settings = since.settings;
    if request.is_changed() || since.replaced {
        return Some(Lane::Request);
    }
    let ticks = since.tick.saturating_sub(state.tick);
    let retarget = goal_now.is_some_and(|g| g != state.goal) && ticks >= settings.retarget_interval;
    let edited = state.generation != since.generation;
    let (now, retry) = match status {
        PathStatus::Pending => (true, false),
        PathStatus::NoPath(NoPathReason::TargetMissing) => (goal_now.is_some(), false),
        // An edit may open the way; it cannot bring a start or goal into the grid
        // (a resized grid is replaced, which plans everything again).
        PathStatus::NoPath(reason) => (
            cell != state.start || retarget,
            edited
                && matches!(
                    reason,
                    NoPathReason::GoalBlocked
                        | NoPathReason::Unreachable
                        | NoPathReason::SearchLimit
                ),
        ),
        PathStatus::Found | PathStatus::Partial(_) => {
            let partial = matches!(status, PathStatus::Partial(_));
            let now = path.at != cell
                || goal_now.is_none()
                || retarget
                || (path.continues && path.remaining() <= settings.replan_margin)
                || (partial && path.is_finished() && ticks >= settings.retry_interval)
                || (since.any_changed()
                    && path
                        .cells_ahead()
                        .any(|c| since.footprint_changed(c, path.size)));
            (now, partial && edited)
        }
    };
    if now {
        Some(Lane::Request)
    } else if retry {
        Some(Lane::Retry)
    } else {
        None
    }
}

/// Puts every unit whose path needs (re)planning at the back of the FIFO. Starts the
/// tick's diagnostics.
#[expect(clippy::type_complexity, reason = "a system's query")]
pub(crate) fn collect_requests(
    grid: Res<PathingGrid>,
    settings: Res<PathingSettings>,
    mut planner: ResMut<Planner>,
    mut diag: ResMut<PathingDiagnostics>,
    mut units: Query<(
        Entity,
        Ref<PathRequest>,
        &GridCell,
        &mut PlanState,
        &UnitPath,
        &PathStatus,
    )>,
    targets: Query<&GridCell>,
) {
    let started = Instant::now();
    let planner = &mut *planner;
    planner.tick += 1;
    *diag = PathingDiagnostics {
        tick: planner.tick,
        total_served: diag.total_served,
        ..default()
    };

    // The cells changed since the last collection, as bits.
    let g = grid.grid();
    let changes = grid.changes_since(planner.collect_cursor);
    planner.collect_cursor = grid.change_cursor();
    let mut bits = core::mem::take(&mut planner.changed_bits);
    let marked = match changes {
        Changes::Cells(cells) if !cells.is_empty() => {
            bits.resize(g.len().div_ceil(64), 0);
            for &c in cells {
                if let Some(i) = g.index_of(c) {
                    bits[i / 64] |= 1 << (i % 64);
                }
            }
            cells
        }
        _ => &[],
    };
    let since = Since {
        tick: planner.tick,
        generation: grid.generation(),
        replaced: changes == Changes::Replaced,
        changed: if marked.is_empty() { &[] } else { &bits },
        grid_width: g.width() as i32,
        grid_height: g.height() as i32,
        settings: &settings,
    };

    for (entity, request, cell, mut state, path, status) in &mut units {
        let waiting = state.ticket.map(|(_, lane)| lane);
        if waiting == Some(Lane::Request) {
            continue;
        }
        let goal_now = resolve_goal(&request, &targets);
        let lane = needs_plan(&request, cell.0, &state, path, *status, goal_now, &since);
        // A retrying unit that now needs a plan for another reason moves up.
        if lane.is_some() && (waiting.is_none() || lane == Some(Lane::Request)) {
            planner.enqueue(entity, &mut state, lane.unwrap_or(Lane::Request));
        }
    }

    for &c in marked {
        if let Some(i) = g.index_of(c) {
            bits[i / 64] = 0;
        }
    }
    planner.changed_bits = bits;
    diag.time += started.elapsed();
}
