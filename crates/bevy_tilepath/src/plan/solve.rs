//! Serving the FIFOs batch by batch under the budget: take, solve, deliver; grid by
//! grid, the budget shared between them.

use core::time::Duration;

use bevy::platform::time::Instant;
use bevy::prelude::*;

use super::collect::{Targets, resolve_goal};
use super::dispatch::{Deadline, Dispatch};
use super::engine::Pausing;
use super::grid_plan::GridPlan;
use super::job::{Answer, Job};
use super::{PlanState, Planner};
use crate::grid::GridsMut;
use crate::{
    GridCell, MapLayout, NoPathReason, OnGrid, PathFailed, PathFound, PathGoal, PathRequest,
    PathStatus, PathingBudget, PathingDiagnostics, PathingGrid, PathingSettings, UnitPath,
    Waypoints,
};

type Units<'w, 's> = Query<
    'w,
    's,
    (
        &'static PathRequest,
        &'static GridCell,
        Option<&'static OnGrid>,
        &'static mut PlanState,
        &'static mut UnitPath,
        &'static mut PathStatus,
    ),
>;

/// Ticks a paused search waits for its unit's next turn before its solver is freed.
const FORGET_PAUSED_AFTER: u64 = 8;

/// What one grid may spend this tick: units of work (`None`: no count), and until
/// how much time has passed since the pathing systems started this tick (`None`: no
/// cap). It stops at whichever comes first.
#[derive(Clone, Copy)]
struct Share {
    work: Option<u64>,
    until: Option<Duration>,
}

/// What every grid's serving shares: the settings, the units, the messages.
struct Serve<'a, 'uw, 'us, 'tw, 'ts, 'fw, 'xw> {
    settings: &'a PathingSettings,
    units: &'a mut Units<'uw, 'us>,
    targets: &'a Targets<'tw, 'ts>,
    found: &'a mut MessageWriter<'fw, PathFound>,
    failed: &'a mut MessageWriter<'xw, PathFailed>,
    tick: u64,
    /// When the pathing systems started this tick (collect's time included).
    started: Instant,
    before: Duration,
}

/// Serves waiting requests grid by grid, each in FIFO order, batch by batch, until its
/// share of the budget is spent (at least one request a tick on every grid with
/// requests waiting, or a part of the search paused at its front, so every FIFO
/// always moves). Grids take turns going first; a grid
/// that needs less than its share leaves the rest to those after it. Repairs each
/// grid's kept distance fields first, charging that work to its share.
#[expect(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn solve_requests(
    mut grids: GridsMut,
    settings: Res<PathingSettings>,
    mut planner: ResMut<Planner>,
    mut diag: ResMut<PathingDiagnostics>,
    mut units: Units,
    targets: Targets,
    mut found: MessageWriter<PathFound>,
    mut failed: MessageWriter<PathFailed>,
) {
    let started = Instant::now();
    let before = diag.time;
    let Planner {
        grids: plans,
        jobs,
        dispatch,
        tick,
        first,
        ..
    } = &mut *planner;
    let mut serve = Serve {
        settings: &settings,
        units: &mut units,
        targets: &targets,
        found: &mut found,
        failed: &mut failed,
        tick: *tick,
        started,
        before,
    };
    // A paused search's unit comes first at its next turn: one not taken up for a
    // few ticks is gone, or asks for something else.
    dispatch.forget_paused_before(tick.saturating_sub(FORGET_PAUSED_AFTER));
    let n = plans.len();
    let mut spent = 0_u64;
    for k in 0..n {
        let i = (*first + k) % n;
        let left = (n - k) as u64;
        let share = Share {
            work: match settings.budget {
                PathingBudget::Expansions(total) => Some(total.saturating_sub(spent) / left),
                PathingBudget::Unlimited => None,
            },
            until: settings.time_cap.map(|cap| {
                let used = before + started.elapsed();
                used + cap.saturating_sub(used) / left as u32
            }),
        };
        let plan = &mut plans[i];
        let (grid, layout) = grids
            .get_mut_with_layout(plan.key)
            .map_or((None, MapLayout::Square), |(g, l)| (Some(g), l));
        spent += serve_grid(plan, (grid, layout), share, jobs, dispatch, &mut serve);
    }
    *first = (*first + 1) % n.max(1);

    // Every grid's share of the tick, and the sum.
    for plan in plans.iter_mut() {
        let d = &mut plan.diag;
        d.total_served += u64::from(d.served);
        diag.served += d.served;
        diag.waiting += d.waiting;
        diag.failed += d.failed;
        diag.fields_built += d.fields_built;
        diag.fields_repaired += d.fields_repaired;
        diag.served_by_field += d.served_by_field;
        diag.expanded += d.expanded;
        diag.batches += d.batches;
        diag.batches_spread += d.batches_spread;
        diag.guides += d.guides;
        diag.guides_building += d.guides_building;
        diag.components_building += d.components_building;
        diag.fields_building += d.fields_building;
        diag.jump_distances += d.jump_distances;
        diag.jump_distances_building += d.jump_distances_building;
        if let Some(e) = plan.key
            && let Some(mut map) = grids.map_mut(e)
        {
            map.set_diagnostics(plan.diag);
        }
    }
    // The plans of grids that are gone, once nobody waits there.
    plans.retain(|p| p.key.is_none() || p.alive || !p.is_idle());
    diag.total_served += u64::from(diag.served);
    diag.searches_paused = planner.dispatch.paused();
    diag.time = before + started.elapsed();
}

/// Serves one grid's FIFOs within `share`; returns the work spent.
fn serve_grid(
    plan: &mut GridPlan,
    (grid, layout): (Option<&mut PathingGrid>, MapLayout),
    share: Share,
    jobs: &mut Vec<Job>,
    dispatch: &mut Dispatch,
    s: &mut Serve<'_, '_, '_, '_, '_, '_, '_>,
) -> u64 {
    let grid_started = Instant::now();
    plan.alive = grid.is_some();
    let mut spent = 0;
    if let Some(grid) = grid.as_deref() {
        spent += plan.fields.maintain(grid, s.settings, s.tick)
            + plan.derived.maintain(grid, s.settings);
        plan.diag.fields_repaired = plan.fields.repaired();
        plan.diag.fields_built += plan.fields.finished();
    } else {
        // The grid is gone: nothing built for it is wanted.
        plan.fields.drop_builds();
    }
    // Requests whose field was being built are served first.
    plan.fields.release(&mut plan.released);
    while !plan.is_idle() {
        let work_left = share.work.map(|n| n.saturating_sub(spent));
        let time_left = share
            .until
            .map(|t| t.saturating_sub(s.before + s.started.elapsed()));
        let spent_all = work_left == Some(0) || time_left == Some(Duration::ZERO);
        if spent_all && plan.diag.served > 0 {
            break;
        }
        // At most half of what is left on the estimates, so that they are checked
        // (and raised) before a dearer kind of request takes it all.
        let by_work = work_left.map_or(u64::MAX, |n| n / plan.avg_cost.max(1) / 2);
        let by_time = time_left.map_or(u64::MAX, |t| {
            let tasks = Dispatch::tasks(s.settings) as u64;
            (t.as_nanos() as u64).saturating_mul(tasks) / plan.avg_nanos.max(1) / 2
        });
        let batch = by_work.min(by_time).clamp(1, 1 << 16) as usize;

        take(plan, jobs, s, (grid.as_deref(), layout), batch);
        if jobs.is_empty() {
            continue;
        }
        plan.diag.batches += 1;
        let generation = grid.as_deref().map_or(0, PathingGrid::generation);
        if let Some(grid) = grid.as_deref() {
            let (work, built) = plan.fields.assign(grid.grid(), s.settings, jobs, s.tick);
            // What the searches read besides the grid, for the jobs left to search only
            // (those answered up front need nothing built).
            spent += work + plan.derived.prepare(grid.grid(), jobs, s.settings);
            plan.diag.fields_built += built;
            let deadline = share.until.map(|t| {
                let at = s.started + t.saturating_sub(s.before);
                Deadline {
                    at,
                    one_anyway: plan.diag.served == 0,
                    pausing: Pausing {
                        // A search under way at the cap may take a quarter of it more
                        // to end before it pauses: many end by then, answered this
                        // tick, and the tick stays well within 1.5 times the cap.
                        at: at + s.settings.time_cap.unwrap_or_default() / 4,
                        grid: plan.key,
                        // Unique to the grid as it is (a replaced grid starts a new
                        // epoch), where its generation starts over.
                        version: grid.change_cursor(),
                        tick: s.tick,
                    },
                }
            });
            let tasks = dispatch.solve(
                grid.grid(),
                s.settings,
                jobs,
                &plan.fields,
                &plan.derived,
                Some(layout).filter(|_| s.settings.straight_routes),
                deadline,
            );
            plan.diag.batches_spread += u32::from(tasks > 1);
        }

        // From the first job the deadline left unsolved on, the batch goes back to the
        // front of its queues (answers found meanwhile by other tasks dropped), so
        // that units are served in the order they came. A search the deadline paused
        // goes before them: it takes up where it stopped at its next turn, while the
        // answers found beside it are delivered.
        let cut = jobs
            .iter()
            .position(|j| j.answer == Answer::Unsolved)
            .unwrap_or(jobs.len());
        let set_aside = |j: &&Job| matches!(j.answer, Answer::Wait | Answer::Paused);
        plan.requeue(jobs[cut..].iter().filter(|j| !set_aside(j)));
        plan.requeue(jobs.iter().filter(|j| j.answer == Answer::Paused));
        let paused = jobs.iter().any(|j| j.answer == Answer::Paused);
        let (mut batch_work, mut answered) = (0, 0);
        let mut nanos = 0;
        for job in jobs[..cut].iter().filter(|j| !set_aside(j)) {
            batch_work += job.work;
            answered += 1;
            nanos += job.nanos;
            deliver(job, s, &mut plan.diag, generation);
        }
        for job in jobs.iter().filter(|j| j.answer == Answer::Wait) {
            plan.park(job);
        }
        spent += batch_work;
        // Searches paused, and answers dropped to keep the order, were work too.
        spent += jobs
            .iter()
            .enumerate()
            .filter(|(i, j)| *i >= cut || j.answer == Answer::Paused)
            .map(|(_, j)| j.work)
            .sum::<u64>();
        // What a job takes a task: the mean of the jobs answered.
        if let Some(per_job) = nanos.checked_div(answered) {
            plan.avg_nanos = expected(plan.avg_nanos, per_job);
        }
        if let Some(per_job) = batch_work.checked_div(answered) {
            plan.avg_cost = expected(plan.avg_cost, per_job);
        }
        if cut < jobs.len() || paused {
            break; // the time is spent
        }
    }
    jobs.clear();
    plan.clear_withdrawn();
    // Edits made after `collect` ran stay in the log for the next collection.
    if let Some(grid) = grid {
        grid.forget_changes_before(plan.collect_cursor);
    }
    plan.diag.expanded = spent;
    plan.diag.waiting = plan.waiting;
    let derived = &plan.derived;
    plan.diag.guides = derived.guides.ready();
    plan.diag.guides_building = derived.guides.building();
    plan.diag.components_building = derived.reach.building();
    plan.diag.fields_building = plan.fields.building();
    plan.diag.jump_distances = derived.jumps.ready();
    plan.diag.jump_distances_building = derived.jumps.building();
    plan.diag.time += grid_started.elapsed();
    spent
}

/// What one request is expected to cost after a batch's mean `sample`, from the
/// expectation `before`: up at once to a dearer mean, down slowly (a running
/// average), so that a batch sized from it rarely overshoots what is left by much.
fn expected(before: u64, sample: u64) -> u64 {
    sample.max((before * 3 + sample) / 4).max(1)
}

/// Takes up to `batch` waiting requests of `plan` into `jobs`, reading each unit once
/// and answering at once what cannot be searched (everything, when the grid is gone).
fn take(
    plan: &mut GridPlan,
    jobs: &mut Vec<Job>,
    s: &Serve<'_, '_, '_, '_, '_, '_, '_>,
    (grid, layout): (Option<&PathingGrid>, MapLayout),
    batch: usize,
) {
    jobs.clear();
    while jobs.len() < batch {
        let Some((entity, ticket, lane, waited_for)) = plan.pop() else {
            break;
        };
        let Ok((request, cell, on_grid, state, _, _)) = s.units.get(entity) else {
            continue; // despawned, or withdrawn when its request or cell was removed
        };
        if state.ticket != Some((ticket, lane)) {
            continue; // withdrawn, and perhaps queued again further back
        }
        if on_grid.map(|g| g.0) != plan.key {
            // Moved to another grid since it was queued: the next collection withdraws
            // it from here and queues it there.
            continue;
        }
        plan.waiting -= 1;
        let goal = resolve_goal(request, plan.key, s.targets);
        let reason = match grid {
            None => Some(NoPathReason::GridMissing),
            Some(grid) => {
                let g = grid.grid();
                if let Some(reason) = grid.failure() {
                    Some(reason)
                } else if grid.is_empty() {
                    Some(NoPathReason::NoGrid)
                } else if !layout.holds(cell.0, g.width(), g.height()) {
                    Some(NoPathReason::StartOutsideGrid)
                } else {
                    match goal {
                        Err(reason) => Some(reason),
                        Ok(c) if !layout.holds(c, g.width(), g.height()) => {
                            Some(NoPathReason::GoalOutsideGrid)
                        }
                        Ok(_)
                            if request.size == 0
                                || request.size > tilepath::MAX_UNIT_SIZE
                                || u32::from(request.size) > g.width().min(g.height())
                                // No footprints on hex maps yet.
                                || (request.size > 1 && layout.hex().is_some()) =>
                        {
                            Some(NoPathReason::UnitSize)
                        }
                        // A big unit's fixed goal its footprint cannot occupy: no
                        // search could reach it (`size²` cells read). A chased
                        // entity's cell moves: searched, for a partial path.
                        Ok(c)
                            if request.size > 1
                                && matches!(request.goal, PathGoal::Cell(_))
                                && g.is_passable(c, request.mobility)
                                && !g.fits(c, request.mobility, request.size) =>
                        {
                            Some(NoPathReason::GoalUnfit)
                        }
                        Ok(_) => None,
                    }
                }
            }
        };
        jobs.push(Job {
            entity,
            queued: (ticket, lane),
            start: cell.0,
            goal: goal.unwrap_or(cell.0),
            mobility: request.mobility,
            connectivity: layout.connectivity(request.connectivity),
            mode: request.mode,
            max_expansions: request.max_expansions.unwrap_or(s.settings.max_expansions),
            size: request.size,
            field: None,
            waited_for,
            answer: reason.map_or(Answer::Unsolved, Answer::NoPath),
            work: 0,
            nanos: 0,
            waypoints: Waypoints::default(),
        });
        // A request for a field being built waits for it, out of the batch.
        if let Some(job) = jobs.pop_if(|j| plan.fields.is_building_for(j)) {
            plan.park(&job);
        }
    }
}

/// Writes a job's answer to its unit and reports it.
fn deliver(
    job: &Job,
    s: &mut Serve<'_, '_, '_, '_, '_, '_, '_>,
    diag: &mut PathingDiagnostics,
    generation: u64,
) {
    let Ok((_, _, _, mut state, mut path, mut status)) = s.units.get_mut(job.entity) else {
        return; // taken from this query in this system: cannot happen
    };
    state.ticket = None;
    state.tick = s.tick;
    state.generation = generation;
    state.start = job.start;
    if !matches!(
        job.answer,
        Answer::NoPath(NoPathReason::TargetMissing | NoPathReason::TargetOnOtherGrid)
    ) {
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
                size: job.size,
                waypoints: job.waypoints,
            };
            status.set_if_neq(match route.short {
                // Planned again where it arrived (the grid replaced, the request
                // touched): still there, and not arriving again.
                None if *status == PathStatus::Arrived && job.start == job.goal => {
                    PathStatus::Arrived
                }
                None => PathStatus::Found,
                Some(reason) => PathStatus::Partial(reason),
            });
            diag.served_by_field += u32::from(route.by_field);
            s.found.write(PathFound {
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
            s.failed.write(PathFailed {
                entity: job.entity,
                reason,
            });
        }
        Answer::Unsolved | Answer::Wait | Answer::Paused => {
            debug_assert!(false, "every job of a batch is answered or set aside");
            status.set_if_neq(PathStatus::NoPath(NoPathReason::Unreachable));
            diag.failed += 1;
            s.failed.write(PathFailed {
                entity: job.entity,
                reason: NoPathReason::Unreachable,
            });
        }
    }
}
