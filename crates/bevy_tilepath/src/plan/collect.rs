//! Which units need a path: the replanning policy, applied once a tick, grid by grid.

use bevy::platform::time::Instant;
use bevy::prelude::*;
use tilepath::Cell;

use super::grid_plan::GridPlan;
use super::{Lane, PlanState, Planner};
use crate::grid::{Changes, GridKey, Grids};
use crate::{
    GridCell, NoPathReason, OnGrid, PathFailed, PathGoal, PathRequest, PathStatus,
    PathingDiagnostics, PathingSettings, UnitPath,
};

/// Where chased entities are: their cell and their grid.
pub(crate) type Targets<'w, 's> = Query<'w, 's, (&'static GridCell, Option<&'static OnGrid>)>;

/// The cell a request on grid `grid` leads to now: its cell, or its target's. Fails
/// when the target is gone, has no [`GridCell`], or walks on another grid.
pub(crate) fn resolve_goal(
    request: &PathRequest,
    grid: GridKey,
    targets: &Targets,
) -> Result<Cell, NoPathReason> {
    match request.goal {
        PathGoal::Cell(c) => Ok(c),
        PathGoal::Entity(t) => match targets.get(t) {
            Err(_) => Err(NoPathReason::TargetMissing),
            Ok((_, on)) if on.map(|o| o.0) != grid => Err(NoPathReason::TargetOnOtherGrid),
            Ok((c, _)) => Ok(c.0),
        },
    }
}

/// What changed on a unit's grid since its answer was planned, as far as the policy
/// cares.
struct Since<'a> {
    tick: u64,
    plan: &'a GridPlan,
    settings: &'a PathingSettings,
}

/// Whether a unit needs a new plan, and in which lane.
///
/// Planned again: a new or changed request; a replaced grid; a unit whose
/// [`GridCell`] was put back, unless it had arrived (it saw no edit while it had none:
/// its path may cross one now); a unit not where its path (or its failed request)
/// says; a chaser whose target changed cell (at most once per `retarget_interval`
/// ticks); a segment about to run out; a path with a step ahead that a changed cell
/// may make illegal (a cell it enters, or a corner cell of a diagonal step); a unit at
/// the end of a partial path, every `retry_interval` ticks. A unit whose goal could
/// not be reached (a partial path, or none) is retried after any grid edit, in the
/// [`Lane::Retry`]; one whose goal its footprint does not fit
/// ([`NoPathReason::GoalUnfit`]) only after an edit under that footprint.
fn needs_plan(
    request: &Ref<PathRequest>,
    cell: &Ref<GridCell>,
    state: &PlanState,
    path: &UnitPath,
    status: PathStatus,
    goal_now: Option<Cell>,
    since: &Since<'_>,
) -> Option<Lane> {
    let settings = since.settings;
    // Put back (on its goal, an arrived unit has nothing to plan).
    let cell_back = cell.is_added() && status != PathStatus::Arrived;
    if request.is_changed() || cell_back || since.plan.replaced {
        return Some(Lane::Request);
    }
    let cell = cell.0;
    let ticks = since.tick.saturating_sub(state.tick);
    let retarget = goal_now.is_some_and(|g| g != state.goal) && ticks >= settings.retarget_interval;
    let edited = state.generation != since.plan.generation;
    let (now, retry) = match status {
        // Its grid is back (this unit's grid exists, or it would not be asked).
        PathStatus::Pending | PathStatus::NoPath(NoPathReason::GridMissing) => (true, false),
        PathStatus::NoPath(NoPathReason::TargetMissing | NoPathReason::TargetOnOtherGrid) => {
            (goal_now.is_some(), false)
        }
        // Only an edit under the goal's footprint can make it fit.
        PathStatus::NoPath(NoPathReason::GoalUnfit) => (
            cell != state.start || retarget,
            since
                .plan
                .footprint_changed(state.goal.x, state.goal.y, request.size),
        ),
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
                || since.plan.path_changed(path);
            (now, partial && edited)
        }
        // Standing on its goal: planned again when moved off it or sent elsewhere.
        PathStatus::Arrived => (path.at != cell || goal_now.is_none() || retarget, false),
    };
    if now {
        Some(Lane::Request)
    } else if retry {
        Some(Lane::Retry)
    } else {
        None
    }
}

/// Reads what changed on each grid since the last collection into its plan (made for
/// grids seen for the first time).
fn read_changes(planner: &mut Planner, grids: &Grids) {
    for plan in &mut planner.grids {
        plan.alive = false;
    }
    for (key, grid, world) in grids.iter() {
        let i = planner.find_or_add(key);
        let plan = &mut planner.grids[i];
        let g = grid.grid();
        let changes = grid.changes_since(plan.collect_cursor);
        plan.collect_from = plan.collect_cursor;
        plan.collect_cursor = grid.change_cursor();
        plan.alive = true;
        plan.corners = world.layout.hex().is_none();
        plan.any_changed = false;
        // A plan made this tick was created replaced.
        plan.replaced |= changes == Changes::Replaced;
        if let Changes::Cells(cells) = changes
            && !cells.is_empty()
        {
            plan.changed_bits.resize(g.len().div_ceil(64), 0);
            for &c in cells {
                if let Some(i) = g.index_of(c) {
                    plan.changed_bits[i / 64] |= 1 << (i % 64);
                }
            }
            plan.any_changed = true;
        }
        plan.generation = grid.generation();
        plan.width = g.width() as i32;
        plan.height = g.height() as i32;
    }
}

/// Clears the change bits [`read_changes`] set.
fn forget_changes(planner: &mut Planner, grids: &Grids) {
    for plan in &mut planner.grids {
        plan.replaced = false;
        if !plan.any_changed {
            continue;
        }
        plan.any_changed = false;
        let Some((grid, _)) = grids.get(plan.key) else {
            continue;
        };
        if let Changes::Cells(cells) = grid.changes_since(plan.collect_from) {
            for &c in cells {
                if let Some(i) = grid.grid().index_of(c) {
                    plan.changed_bits[i / 64] = 0;
                }
            }
        }
    }
}

/// Puts every unit whose path needs (re)planning at the back of its grid's FIFO. A unit
/// whose grid does not exist fails at once with [`NoPathReason::GridMissing`]. Starts
/// the tick's diagnostics.
#[expect(clippy::type_complexity, reason = "a system's query")]
pub(crate) fn collect_requests(
    grids: Grids,
    settings: Res<PathingSettings>,
    mut planner: ResMut<Planner>,
    mut diag: ResMut<PathingDiagnostics>,
    mut units: Query<(
        Entity,
        Ref<PathRequest>,
        Ref<GridCell>,
        Option<&OnGrid>,
        &mut PlanState,
        &UnitPath,
        &mut PathStatus,
    )>,
    targets: Targets,
    mut failed: MessageWriter<PathFailed>,
) {
    let started = Instant::now();
    let planner = &mut *planner;
    planner.tick += 1;
    *diag = PathingDiagnostics {
        tick: planner.tick,
        total_served: diag.total_served,
        ..default()
    };
    for plan in &mut planner.grids {
        plan.diag = PathingDiagnostics {
            tick: planner.tick,
            total_served: plan.diag.total_served,
            ..default()
        };
    }
    read_changes(planner, &grids);

    for (entity, request, cell, on_grid, mut state, path, mut status) in &mut units {
        let key = on_grid.map(|g| g.0);
        let Some(i) = planner.find(key).filter(|&i| planner.grids[i].alive) else {
            // No such grid: fail once, and again only when asked again.
            let reason = NoPathReason::GridMissing;
            if state.grid != key || request.is_changed() || *status != PathStatus::NoPath(reason) {
                planner.withdraw(&mut state);
                state.grid = key;
                state.start = cell.0;
                state.tick = planner.tick;
                status.set_if_neq(PathStatus::NoPath(reason));
                failed.write(PathFailed { entity, reason });
                diag.served += 1;
                diag.failed += 1;
            }
            continue;
        };
        let moved = state.grid != key;
        let waiting = state.ticket.map(|(_, lane)| lane).filter(|_| !moved);
        if waiting == Some(Lane::Request) {
            continue;
        }
        let lane = if moved {
            Some(Lane::Request)
        } else {
            let goal_now = resolve_goal(&request, key, &targets).ok();
            let since = Since {
                tick: planner.tick,
                plan: &planner.grids[i],
                settings: &settings,
            };
            needs_plan(&request, &cell, &state, path, *status, goal_now, &since)
        };
        // A retrying unit that now needs a plan for another reason moves up.
        if let Some(lane) = lane
            && (waiting.is_none() || lane == Lane::Request)
        {
            // A unit that arrived and is now sent elsewhere (or was moved off its
            // goal) has not arrived any more.
            if *status == PathStatus::Arrived
                && (cell.0 != path.goal
                    || resolve_goal(&request, key, &targets).ok() != Some(path.goal))
            {
                *status = PathStatus::Pending;
            }
            planner.enqueue(entity, &mut state, i, lane);
        }
    }

    forget_changes(planner, &grids);
    diag.time += started.elapsed();
}
