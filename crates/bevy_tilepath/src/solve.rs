//! Collecting requests into a FIFO and solving them in batches under a budget.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, TaskPool};
use tilepath::{
    AStar, Cell, Connectivity, DistanceField, Greedy, Grid, GridLayer, PathError, PathResult,
};

use crate::components::PathState;
use crate::workers::SolverThreads;
use crate::{
    GridCell, NoPathReason, Parallelism, PathFailed, PathFound, PathGoal, PathRequest, PathStatus,
    PathSteps, PathingBudget, PathingDiagnostics, PathingGrid, PathingSettings, SearchMode,
    UnitPath,
};

/// Repairs touching up to this many cells allocate nothing (20 bytes per cell).
const REPAIR_RESERVE: usize = 1 << 16;

/// A shared distance field, keyed by what it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct FieldKey {
    goal: Cell,
    layer: GridLayer,
    eight: bool,
}

struct FieldSlot {
    key: FieldKey,
    field: DistanceField,
    /// Holds a computed field for `key` on the current grid.
    valid: bool,
    last_used: u64,
}

/// One thread's solver scratch, built once and reused for every search.
struct Scratch {
    window: AStar,
    whole: AStar,
    greedy: Greedy,
}

impl Scratch {
    fn new() -> Self {
        Self {
            window: AStar::new(),
            whole: AStar::whole_grid(),
            greedy: Greedy::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Field(usize),
    Search,
}

#[derive(Clone, Copy, Debug, Default)]
struct Outcome {
    steps: PathSteps,
    end: Cell,
    route_cost: f32,
    continues: bool,
    expanded: u64,
    /// Why the route does not reach the goal (or why there is no path at all).
    reason: Option<NoPathReason>,
    /// No path at all.
    failed: bool,
    by_field: bool,
}

#[derive(Clone, Copy, Debug)]
struct Job {
    entity: Entity,
    start: Cell,
    goal: Cell,
    layer: GridLayer,
    eight: bool,
    mode: SearchMode,
    max_expansions: u32,
    method: Method,
    out: Outcome,
}

/// The plugin's private state: the FIFO of waiting requests and all reusable scratch.
#[derive(Resource)]
pub(crate) struct Planner {
    queue: VecDeque<Entity>,
    jobs: Vec<Job>,
    scratch: Vec<Scratch>,
    /// Started on the first batch worth spreading, with the number asked for (fewer may
    /// start where threads are unavailable); restarted if `threads` changes.
    solver_threads: Option<(usize, SolverThreads)>,
    fields: Vec<FieldSlot>,
    counts: HashMap<FieldKey, u32>,
    pub(crate) tick: u64,
    /// Running average of the work one request costs, for sizing batches.
    avg_cost: u64,
    tick_start: Option<Instant>,
}

impl Default for Planner {
    fn default() -> Self {
        Self {
            queue: VecDeque::new(),
            jobs: Vec::new(),
            scratch: Vec::new(),
            solver_threads: None,
            fields: Vec::new(),
            counts: HashMap::new(),
            tick: 0,
            avg_cost: 64,
            tick_start: None,
        }
    }
}

/// Puts every unit whose path needs (re)planning at the back of the FIFO.
#[expect(clippy::type_complexity, reason = "a system's query")]
pub(crate) fn collect_requests(
    grid: Res<PathingGrid>,
    settings: Res<PathingSettings>,
    mut planner: ResMut<Planner>,
    mut units: Query<(
        Entity,
        Ref<PathRequest>,
        &GridCell,
        &mut PathState,
        &UnitPath,
        &PathStatus,
    )>,
    targets: Query<&GridCell>,
) {
    planner.tick_start = Some(Instant::now());
    planner.tick += 1;
    let tick = planner.tick;
    let generation = grid.generation();
    let edited = !grid.changed_cells().is_empty();
    for (entity, request, cell, mut state, path, status) in &mut units {
        if state.queued {
            continue;
        }
        let goal_now = match request.goal {
            PathGoal::Cell(c) => Some(c),
            PathGoal::Entity(t) => targets.get(t).ok().map(|c| c.0),
        };
        let since = tick.saturating_sub(state.planned_tick);
        let retarget = goal_now.is_some_and(|g| g != state.planned_goal)
            && since >= settings.retarget_interval;
        let grid_moved_on = state.planned_generation != generation;
        let needs = request.is_changed()
            || grid.was_replaced()
            || match *status {
                PathStatus::Pending => true,
                PathStatus::NoPath(NoPathReason::TargetMissing) => goal_now.is_some(),
                PathStatus::NoPath(_) => retarget || grid_moved_on,
                PathStatus::Found | PathStatus::Partial(_) => {
                    let partial = matches!(status, PathStatus::Partial(_));
                    path.at != cell.0
                        || goal_now.is_none()
                        || retarget
                        || (path.continues && path.remaining() <= settings.replan_margin)
                        || (partial && grid_moved_on)
                        || (partial && path.is_finished() && since >= settings.retry_interval)
                        || (edited && path.cells_ahead().any(|c| grid.was_changed(c)))
                }
            };
        if needs {
            state.queued = true;
            planner.queue.push_back(entity);
        }
    }
}

/// Serves waiting requests in FIFO order, batch by batch, until the budget is spent.
#[expect(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn solve_requests(
    mut grid: ResMut<PathingGrid>,
    settings: Res<PathingSettings>,
    mut planner: ResMut<Planner>,
    mut diag: ResMut<PathingDiagnostics>,
    mut units: Query<(
        &PathRequest,
        &GridCell,
        &mut PathState,
        &mut UnitPath,
        &mut PathStatus,
    )>,
    targets: Query<&GridCell>,
    mut found: MessageWriter<PathFound>,
    mut failed: MessageWriter<PathFailed>,
) {
    let started = planner.tick_start.take().unwrap_or_else(Instant::now);
    let total_served = diag.total_served;
    *diag = PathingDiagnostics {
        tick: planner.tick,
        total_served,
        ..default()
    };
    let Planner {
        queue,
        jobs,
        scratch,
        solver_threads,
        fields,
        counts,
        tick,
        avg_cost,
        ..
    } = &mut *planner;
    let tick = *tick;

    maintain_fields(&grid, fields, &mut diag);

    let mut spent = 0_u64;
    while !queue.is_empty() {
        let remaining = match settings.budget {
            PathingBudget::Expansions(n) => n.saturating_sub(spent),
            PathingBudget::Time(t) => {
                if started.elapsed() >= t {
                    0
                } else {
                    u64::MAX
                }
            }
            PathingBudget::Unlimited => u64::MAX,
        };
        if remaining == 0 && diag.batches > 0 {
            break;
        }
        let batch = match settings.budget {
            PathingBudget::Expansions(_) => (remaining / (*avg_cost).max(1)).clamp(32, 1 << 16),
            PathingBudget::Time(_) => 1024,
            PathingBudget::Unlimited => 1 << 16,
        } as usize;

        // Take the batch, answering at once what needs no search.
        jobs.clear();
        while jobs.len() < batch {
            let Some(entity) = queue.pop_front() else {
                break;
            };
            let Ok((request, cell, mut state, _, mut status)) = units.get_mut(entity) else {
                continue; // despawned, or its request was removed: nothing left to serve
            };
            state.queued = false;
            state.planned_tick = tick;
            state.planned_generation = grid.generation();
            let goal = match request.goal {
                PathGoal::Cell(c) => Some(c),
                PathGoal::Entity(t) => targets.get(t).ok().map(|c| c.0),
            };
            if let Some(g) = goal {
                state.planned_goal = g;
            }
            let reason = if grid.too_large().is_some() {
                Some(NoPathReason::GridTooLarge)
            } else if grid.is_empty() {
                Some(NoPathReason::NoGrid)
            } else if !grid.grid().contains(cell.0) {
                Some(NoPathReason::StartOutsideGrid)
            } else if goal.is_none() {
                Some(NoPathReason::TargetMissing)
            } else if goal.is_some_and(|g| !grid.grid().contains(g)) {
                Some(NoPathReason::GoalOutsideGrid)
            } else {
                None
            };
            if let Some(reason) = reason {
                status.set_if_neq(PathStatus::NoPath(reason));
                failed.write(PathFailed { entity, reason });
                diag.failed += 1;
                diag.served += 1;
                continue;
            }
            jobs.push(Job {
                entity,
                start: cell.0,
                goal: goal.unwrap_or_default(),
                layer: request.layer,
                eight: request.connectivity == Connectivity::Eight,
                mode: request.mode,
                max_expansions: request.max_expansions.unwrap_or(settings.max_expansions),
                method: Method::Search,
                out: Outcome::default(),
            });
        }
        if jobs.is_empty() {
            continue;
        }
        diag.batches += 1;

        spent += assign_fields(&grid, &settings, jobs, fields, counts, tick, &mut diag);
        solve_batch(
            grid.grid(),
            &settings,
            jobs,
            fields,
            scratch,
            solver_threads,
        );

        let mut batch_work = 0;
        for job in jobs.iter() {
            batch_work += job.out.expanded;
            let Ok((_, _, _, mut path, mut status)) = units.get_mut(job.entity) else {
                continue;
            };
            diag.served += 1;
            diag.served_by_field += u32::from(job.out.by_field);
            if job.out.failed {
                let reason = job.out.reason.unwrap_or(NoPathReason::Unreachable);
                status.set_if_neq(PathStatus::NoPath(reason));
                failed.write(PathFailed {
                    entity: job.entity,
                    reason,
                });
                diag.failed += 1;
                continue;
            }
            *path = UnitPath {
                steps: job.out.steps,
                at: job.start,
                goal: job.goal,
                end: job.out.end,
                continues: job.out.continues,
                route_cost: job.out.route_cost,
            };
            status.set_if_neq(match job.out.reason {
                None => PathStatus::Found,
                Some(r) => PathStatus::Partial(r),
            });
            found.write(PathFound {
                entity: job.entity,
                goal: job.goal,
                complete: job.out.reason.is_none(),
                steps: job.out.steps.len(),
                cost: job.out.route_cost,
            });
        }
        spent += batch_work;
        let per_job = batch_work / jobs.len() as u64;
        *avg_cost = ((*avg_cost * 3 + per_job) / 4).max(1);
    }
    jobs.clear();
    grid.clear_changes();

    diag.expanded = spent;
    diag.waiting = queue.len() as u32;
    diag.total_served += u64::from(diag.served);
    diag.time = started.elapsed();
}

/// Repairs the kept fields after grid edits; forgets them when the grid was replaced.
fn maintain_fields(grid: &PathingGrid, fields: &mut Vec<FieldSlot>, diag: &mut PathingDiagnostics) {
    if grid.was_replaced() {
        fields.clear();
        return;
    }
    if grid.changed_cells().is_empty() {
        return;
    }
    for slot in fields.iter_mut().filter(|s| s.valid) {
        match slot.field.repair(grid.grid(), grid.changed_cells()) {
            Ok(stats) => {
                diag.fields_repaired += 1;
                diag.expanded += (stats.cells_updated + stats.cells_invalidated) as u64;
            }
            Err(_) => slot.valid = false,
        }
    }
}

/// Decides which jobs a shared distance field serves, building the fields they need.
/// Returns the work spent building fields.
fn assign_fields(
    grid: &PathingGrid,
    settings: &PathingSettings,
    jobs: &mut [Job],
    fields: &mut Vec<FieldSlot>,
    counts: &mut HashMap<FieldKey, u32>,
    tick: u64,
    diag: &mut PathingDiagnostics,
) -> u64 {
    let key = |j: &Job| FieldKey {
        goal: j.goal,
        layer: j.layer,
        eight: j.eight,
    };
    counts.clear();
    for job in jobs.iter().filter(|j| j.mode == SearchMode::Auto) {
        *counts.entry(key(job)).or_insert(0) += 1;
    }
    let mut work = 0;
    for job in jobs.iter_mut().filter(|j| j.mode == SearchMode::Auto) {
        let k = key(job);
        let slot = match fields.iter().position(|s| s.valid && s.key == k) {
            Some(i) => Some(i),
            None if counts.get(&k).copied().unwrap_or(0) as usize >= settings.field_threshold => {
                build_field(grid.grid(), settings, fields, k, tick).map(|(i, cells)| {
                    diag.fields_built += 1;
                    work += cells;
                    i
                })
            }
            None => None,
        };
        if let Some(i) = slot {
            fields[i].last_used = tick;
            job.method = Method::Field(i);
        }
    }
    work
}

/// Computes a field for `key` in a free slot (a new one, or the least recently used one
/// not used this tick). Returns the slot and the cells it settled.
fn build_field(
    grid: &Grid,
    settings: &PathingSettings,
    fields: &mut Vec<FieldSlot>,
    key: FieldKey,
    tick: u64,
) -> Option<(usize, u64)> {
    let connectivity = if key.eight {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    let i = if fields.len() < settings.max_fields {
        let mut field = DistanceField::new(grid, key.layer, connectivity);
        field.reserve_repair(REPAIR_RESERVE.min(grid.len()));
        fields.push(FieldSlot {
            key,
            field,
            valid: false,
            last_used: tick,
        });
        fields.len() - 1
    } else {
        let (i, _) = fields
            .iter()
            .enumerate()
            .filter(|(_, s)| s.last_used < tick || !s.valid)
            .min_by_key(|(_, s)| (s.valid, s.last_used))?;
        let slot = &mut fields[i];
        let reusable = slot.field.layer() == key.layer
            && slot.field.connectivity() == connectivity
            && slot.field.region().max
                == Cell::new(grid.width() as i32 - 1, grid.height() as i32 - 1);
        if !reusable {
            slot.field = DistanceField::new(grid, key.layer, connectivity);
            slot.field.reserve_repair(REPAIR_RESERVE.min(grid.len()));
        }
        i
    };
    let slot = &mut fields[i];
    slot.key = key;
    slot.field.clear_goals();
    slot.field.add_goal(key.goal, 0);
    let stats = slot.field.compute(grid).ok()?;
    slot.valid = true;
    Some((i, stats.cells_updated as u64))
}

/// Jobs handed out at a time: small enough to balance the threads, large enough that
/// taking them is negligible next to solving them (a few microseconds each).
const JOBS_PER_TAKE: usize = 16;

/// Solves a batch, spread over several threads when it is large enough. Every job is
/// solved on its own, so results do not depend on which thread took it.
fn solve_batch(
    grid: &Grid,
    settings: &PathingSettings,
    jobs: &mut [Job],
    fields: &[FieldSlot],
    scratch: &mut Vec<Scratch>,
    solver_threads: &mut Option<(usize, SolverThreads)>,
) {
    let window_distance = settings.window_distance;
    let parts = match (settings.threads, settings.parallelism) {
        (0, Parallelism::SolverThreads) => {
            // Asked once: on Linux the answer reads cgroup files (allocating).
            static CORES: OnceLock<usize> = OnceLock::new();
            *CORES.get_or_init(|| {
                std::thread::available_parallelism().map_or(1, core::num::NonZero::get)
            })
        }
        (0, Parallelism::ComputeTaskPool) => {
            ComputeTaskPool::try_get().map_or(1, |p| p.thread_num() + 1)
        }
        (n, _) => n,
    };
    if parts <= 1 || jobs.len() < settings.parallel_min_batch.max(2) {
        if scratch.is_empty() {
            scratch.push(Scratch::new());
        }
        for job in jobs.iter_mut() {
            solve_job(job, grid, fields, &mut scratch[0], window_distance);
        }
        return;
    }
    match settings.parallelism {
        Parallelism::SolverThreads => {
            if solver_threads
                .as_ref()
                .is_none_or(|(asked, _)| *asked != parts - 1)
            {
                *solver_threads = None; // joins the old threads first
                *solver_threads = Some((parts - 1, SolverThreads::new(parts - 1)));
            }
            let (_, threads) = solver_threads.as_ref().expect("started above");
            while scratch.len() < threads.len() + 1 {
                scratch.push(Scratch::new());
            }
            let takes = Mutex::new(jobs.chunks_mut(JOBS_PER_TAKE));
            let scratches = Mutex::new(scratch.iter_mut());
            threads.run(&|| {
                let Some(s) = lock(&scratches).next() else {
                    return;
                };
                while let Some(take) = lock(&takes).next() {
                    for job in take {
                        solve_job(job, grid, fields, s, window_distance);
                    }
                }
            });
        }
        Parallelism::ComputeTaskPool => {
            while scratch.len() < parts {
                scratch.push(Scratch::new());
            }
            let chunk = jobs.len().div_ceil(parts);
            ComputeTaskPool::get_or_init(TaskPool::default).scope(|s| {
                for (part, scratch) in jobs.chunks_mut(chunk).zip(scratch.iter_mut()) {
                    s.spawn(async move {
                        for job in part {
                            solve_job(job, grid, fields, scratch, window_distance);
                        }
                    });
                }
            });
        }
    }
}

/// A lock whose holder cannot leave the data half-updated (it only takes the next item).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn solve_job(job: &mut Job, grid: &Grid, fields: &[FieldSlot], s: &mut Scratch, window: u32) {
    if let Method::Field(i) = job.method {
        let field = &fields[i].field;
        if let Some(cost) = field.distance(job.start) {
            let (steps, end) = if job.eight {
                let p = field.path8(job.start);
                (PathSteps::Eight(p), p.end(job.start))
            } else {
                let p = field.path(job.start);
                (PathSteps::Four(p), p.end(job.start))
            };
            job.out = Outcome {
                steps,
                end,
                route_cost: cost as f32,
                continues: end != job.goal,
                expanded: steps.len() as u64 + 1,
                reason: None,
                failed: false,
                by_field: true,
            };
            return;
        }
        // The goal cannot be reached from here: a search finds the closest cell instead.
    }
    let near = job.start.manhattan(job.goal) <= window;
    let mut expanded = 0_u64;
    let mut out = None;
    if near {
        let r = if job.mode == SearchMode::Greedy && !job.eight {
            s.greedy.set_max_expansions(job.max_expansions);
            s.greedy
                .build_path(grid, job.start, job.goal, job.layer)
                .map(into_steps4)
        } else {
            s.window.set_max_expansions(job.max_expansions);
            search(&mut s.window, grid, job)
        };
        match r {
            Ok(r) => {
                expanded += u64::from(r.expanded);
                // A near goal that needs a detour out of the window: search the whole grid.
                let detour = !r.route.reaches_goal
                    && grid.is_passable(job.goal, job.layer)
                    && r.expanded < job.max_expansions;
                if !detour {
                    out = Some(r);
                }
            }
            Err(e) => out = Some(error_result(job, e)),
        }
    }
    let r = match out {
        Some(r) => r,
        None => {
            s.whole.set_max_expansions(job.max_expansions);
            match search(&mut s.whole, grid, job) {
                Ok(r) => {
                    expanded += u64::from(r.expanded);
                    r
                }
                Err(e) => error_result(job, e),
            }
        }
    };
    let reason = (!r.route.reaches_goal).then(|| {
        if r.expanded == u32::MAX {
            NoPathReason::GridTooLarge
        } else if !grid.is_passable(job.goal, job.layer) {
            NoPathReason::GoalBlocked
        } else if r.expanded >= job.max_expansions {
            NoPathReason::SearchLimit
        } else {
            NoPathReason::Unreachable
        }
    });
    job.out = Outcome {
        steps: r.path,
        end: r.end,
        route_cost: r.route.cost as f32,
        continues: r.continues(),
        expanded,
        reason,
        failed: reason.is_some() && r.path.is_empty(),
        by_field: false,
    };
}

fn search(solver: &mut AStar, grid: &Grid, job: &Job) -> Result<PathResult<PathSteps>, PathError> {
    if job.eight {
        solver
            .build_path8(grid, job.start, job.goal, job.layer)
            .map(|r| map_steps(r, PathSteps::Eight))
    } else {
        solver
            .build_path(grid, job.start, job.goal, job.layer)
            .map(into_steps4)
    }
}

fn into_steps4(r: PathResult<tilepath::GridPath>) -> PathResult<PathSteps> {
    map_steps(r, PathSteps::Four)
}

fn map_steps<P>(r: PathResult<P>, f: impl FnOnce(P) -> PathSteps) -> PathResult<PathSteps> {
    PathResult {
        path: f(r.path),
        end: r.end,
        cost: r.cost,
        partial: r.partial,
        route: r.route,
        expanded: r.expanded,
    }
}

/// A search that could not run: the start is checked before, so this is a grid too
/// large for a whole-grid scratch. Marked by `expanded == u32::MAX`.
fn error_result(job: &Job, _error: PathError) -> PathResult<PathSteps> {
    PathResult {
        path: PathSteps::default(),
        end: job.start,
        cost: 0.0,
        partial: true,
        route: tilepath::Route {
            end: job.start,
            cost: 0.0,
            len: 0,
            reaches_goal: false,
        },
        expanded: u32::MAX,
    }
}
