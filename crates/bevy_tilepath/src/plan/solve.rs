//! Serving the FIFO batch by batch under the budget: take, solve, deliver.

use std::collections::VecDeque;

use bevy::platform::time::Instant;
use bevy::prelude::*;

use super::collect::resolve_goal;
use super::job::{Answer, Job};
use super::{PlanState, Planner};
use crate::{
    GridCell, NoPathReason, PathFailed, PathFound, PathRequest, PathStatus, PathingBudget,
    PathingDiagnostics, PathingGrid, PathingSettings, UnitPath,
};

type Units<'w, 's> = Query<
    'w,
    's,
    (
        &'static PathRequest,
        &'static GridCell,
        &'static mut PlanState,
        &'static mut UnitPath,
        &'static mut PathStatus,
    ),
>;

/// Serves waiting requests in FIFO order, batch by batch, until the budget is spent
/// (at least one request a tick, so the FIFO always moves). Repairs the kept distance
/// fields first, charging that work to the budget.
#[expect(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn solve_requests(
    mut grid: ResMut<PathingGrid>,
    settings: Res<PathingSettings>,
    mut planner: ResMut<Planner>,
    mut diag: ResMut<PathingDiagnostics>,
    mut units: Units,
    targets: Query<&GridCell>,
    mut found: MessageWriter<PathFound>,
    mut failed: MessageWriter<PathFailed>,
) {
    let started = Instant::now();
    let before = diag.time;
    let planner = &mut *planner;
    let tick = planner.tick;

    let mut spent = planner.fields.maintain(&grid)
        + planner.reach.maintain(&grid)
        + planner.guides.maintain(&grid, settings.landmarks);
    diag.fields_repaired = planner.fields.repaired();

    while !planner.is_idle() {
        let remaining = match settings.budget {
            PathingBudget::Expansions(n) => n.saturating_sub(spent),
            PathingBudget::Time(t) if before + started.elapsed() >= t => 0,
            PathingBudget::Time(_) | PathingBudget::Unlimited => u64::MAX,
        };
        if remaining == 0 && diag.served > 0 {
            break;
        }
        let batch = match settings.budget {
            PathingBudget::Expansions(_) => (remaining / planner.avg_cost.max(1)).clamp(1, 1 << 16),
            PathingBudget::Time(_) => 1024,
            PathingBudget::Unlimited => 1 << 16,
        } as usize;

        take(planner, &units, &targets, &grid, &settings, batch);
        if planner.jobs.is_empty() {
            continue;
        }
        diag.batches += 1;
        let (work, built) = planner
            .fields
            .assign(grid.grid(), &settings, &mut planner.jobs, tick);
        spent += work
            + planner.reach.prepare(grid.grid(), &planner.jobs)
            + planner
                .guides
                .prepare(grid.grid(), &planner.jobs, settings.window_distance);
        diag.fields_built += built;
        planner.dispatch.solve(
            grid.grid(),
            &settings,
            &mut planner.jobs,
            &planner.fields,
            &planner.reach,
            &planner.guides,
        );

        let mut batch_work = 0;
        for job in &planner.jobs {
            batch_work += job.work;
            deliver(
                job,
                &mut units,
                &mut diag,
                &mut found,
                &mut failed,
                tick,
                grid.generation(),
            );
        }
        spent += batch_work;
        let per_job = batch_work / planner.jobs.len() as u64;
        planner.avg_cost = ((planner.avg_cost * 3 + per_job) / 4).max(1);
    }
    planner.jobs.clear();
    if planner.waiting == 0 {
        planner.lanes.iter_mut().for_each(VecDeque::clear); // only withdrawn entries
    }
    // Edits made after `collect` ran stay in the log for the next collection.
    grid.forget_changes_before(planner.collect_cursor);

    diag.expanded = spent;
    diag.waiting = planner.waiting;
    diag.total_served += u64::from(diag.served);
    diag.time = before + started.elapsed();
}

/// Takes up to `batch` waiting requests into `planner.jobs`, reading each unit once
/// and answering at once what cannot be searched.
fn take(
    planner: &mut Planner,
    units: &Units,
    targets: &Query<&GridCell>,
    grid: &PathingGrid,
    settings: &PathingSettings,
    batch: usize,
) {
    planner.jobs.clear();
    while planner.jobs.len() < batch {
        let Some((entity, ticket, lane)) = planner.pop() else {
            break;
        };
        let Ok((request, cell, state, _, _)) = units.get(entity) else {
            continue; // despawned, or withdrawn when its request or cell was removed
        };
        if state.ticket != Some((ticket, lane)) {
            continue; // withdrawn, and perhaps queued again further back
        }
        planner.waiting -= 1;
        let goal = resolve_goal(request, targets);
        let g = grid.grid();
        let reason = if grid.too_large().is_some() {
            Some(NoPathReason::GridTooLarge)
        } else if grid.is_empty() {
            Some(NoPathReason::NoGrid)
        } else if !g.contains(cell.0) {
            Some(NoPathReason::StartOutsideGrid)
        } else if goal.is_none() {
            Some(NoPathReason::TargetMissing)
        } else if goal.is_some_and(|c| !g.contains(c)) {
            Some(NoPathReason::GoalOutsideGrid)
        } else {
            None
        };
        planner.jobs.push(Job {
            entity,
            start: cell.0,
            goal: goal.unwrap_or(cell.0),
            mobility: request.mobility,
            connectivity: request.connectivity,
            mode: request.mode,
            max_expansions: request.max_expansions.unwrap_or(settings.max_expansions),
            field: None,
            answer: reason.map_or(Answer::Unsolved, Answer::NoPath),
            work: 0,
        });
    }
}

/// Writes a job's answer to its unit and reports it.
fn deliver(
    job: &Job,
    units: &mut Units,
    diag: &mut PathingDiagnostics,
    found: &mut MessageWriter<PathFound>,
    failed: &mut MessageWriter<PathFailed>,
    tick: u64,
    generation: u64,
) {
    let Ok((_, _, mut state, mut path, mut status)) = units.get_mut(job.entity) else {
        return; // taken from this query in this system: cannot happen
    };
    state.ticket = None;
    state.tick = tick;
    state.generation = generation;
    state.start = job.start;
    if job.answer != Answer::NoPath(NoPathReason::TargetMissing) {
        state.goal = job.goal;
    }
    diag.served += 1;
    match job.answer {
        Answer::Route(route) => {
            *path = UnitPath {
                steps: route.steps,
                at: job.start,
                goal: job.goal,
                end: route.end,
                continues: route.continues,
                route_cost: route.cost,
                mobility: job.mobility,
            };
            status.set_if_neq(match route.short {
                None => PathStatus::Found,
                Some(reason) => PathStatus::Partial(reason),
            });
            diag.served_by_field += u32::from(route.by_field);
            found.write(PathFound {
                entity: job.entity,
                goal: job.goal,
                complete: route.short.is_none(),
                steps: route.steps.len(),
                cost: route.cost,
            });
        }
        Answer::NoPath(reason) => {
            status.set_if_neq(PathStatus::NoPath(reason));
            diag.failed += 1;
            failed.write(PathFailed {
                entity: job.entity,
                reason,
            });
        }
        Answer::Unsolved => {
            debug_assert!(false, "every job of a batch is answered");
            status.set_if_neq(PathStatus::NoPath(NoPathReason::Unreachable));
            diag.failed += 1;
            failed.write(PathFailed {
                entity: job.entity,
                reason: NoPathReason::Unreachable,
            });
        }
    }
}
