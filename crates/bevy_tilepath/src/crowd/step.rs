//! The crowds' tick: each grid's agents kept equal to its solid units, then one joint
//! step of each crowd.

use bevy::ecs::query::QueryItem;
use bevy::ecs::system::NonSendMarker;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, available_parallelism};
use tilepath::{AgentSpec, AgentStatus, Cell, Connectivity, Direction8, Mobility};

use super::guide::{Route, field_key};
use super::seats::{PLACE_BUDGET, PLACE_RETRY, PLACE_SEARCH, StepClock};
use super::{Crowds, Seat, Solid};

/// The credit at which a unit is ready to step (a little under one step, so that a
/// speed that earns exactly a step a period is ready every period).
const READY: f32 = 0.999;
use crate::grid::Grids;
use crate::plan::Planner;
use crate::{
    GridCell, OnGrid, PathFollower, PathRequest, PathStatus, PathingDiagnostics, PathingMap,
    PathingSettings, UnitPath,
};

/// Where a unit heads for: the end of its path when that is the route's last
/// segment (the goal, or the closest cell to it), else its goal.
fn heading(path: &UnitPath, status: Option<&PathStatus>) -> Option<Cell> {
    match status {
        Some(PathStatus::Found | PathStatus::Partial(_) | PathStatus::Arrived)
            if !path.continues =>
        {
            Some(path.end)
        }
        Some(PathStatus::Found | PathStatus::Partial(_) | PathStatus::Arrived) => Some(path.goal),
        _ => None,
    }
}

/// Whether a component the unit has changed since the system last ran.
fn changed<T>(component: &Option<Ref<'_, T>>) -> bool {
    component.as_ref().is_some_and(Ref::is_changed)
}

/// The step from `at` to its neighbour `to`.
fn step_to(at: Cell, to: Cell) -> Option<Direction8> {
    let offset = (to.x.checked_sub(at.x)?, to.y.checked_sub(at.y)?);
    Direction8::ALL.into_iter().find(|d| d.offset() == offset)
}

/// A solid unit as the crowds read it.
type UnitData = (
    Entity,
    &'static mut Seat,
    &'static mut GridCell,
    Option<Ref<'static, OnGrid>>,
    Option<Ref<'static, PathRequest>>,
    Option<Ref<'static, UnitPath>>,
    Option<Ref<'static, PathStatus>>,
    Option<&'static PathFollower>,
);

/// A unit one of whose components the crowd reads changed or was added since the
/// crowds last ran, or that became solid again (its seat stays when `Solid` goes). A
/// follower is only read for its presence and, on a step's tick, its speed
/// ([`read_speeds`]): it changes whenever its unit walks.
type Touched = Or<(
    Changed<GridCell>,
    Changed<UnitPath>,
    Changed<PathStatus>,
    Changed<PathRequest>,
    Changed<OnGrid>,
    Added<PathFollower>,
    Added<Solid>,
    Added<Seat>,
)>;

/// Every solid unit, or only those [`Touched`]; and every solid unit's follower, for
/// its speed ([`read_speeds`]).
type Units<'w, 's> = ParamSet<
    'w,
    's,
    (
        Query<'static, 'static, UnitData, With<Solid>>,
        Query<'static, 'static, UnitData, (With<Solid>, Touched)>,
        Query<'static, 'static, (Entity, &'static Seat, &'static PathFollower), With<Solid>>,
    ),
>;

/// The components of a unit the crowds read (and a map's), any of which removed is a
/// departure ([`note_departure`]).
type Read = (
    Solid,
    Seat,
    OnGrid,
    PathRequest,
    UnitPath,
    PathStatus,
    PathFollower,
    PathingMap,
);

/// What change detection cannot show: a component the crowd reads removed from a
/// unit (or its unit despawned), or a map gone or added. An observer, so that it is
/// seen however many frames pass between the crowds' ticks (removal messages last
/// two frames).
pub(crate) fn note_departure(_: On<Remove, Read>, mut crowds: ResMut<Crowds>) {
    crowds.departed = true;
}

/// A map added: see [`note_departure`].
pub(crate) fn note_new_map(_: On<Add, PathingMap>, mut crowds: ResMut<Crowds>) {
    crowds.departed = true;
}

/// What syncing one unit reads and counts in a tick.
struct Syncing<'a, 'w, 's> {
    grids: &'a Grids<'w, 's>,
    planner: &'a Planner,
    crowds: &'a mut Crowds,
    tick: u64,
    /// Units left out of every crowd this tick.
    unplaced: u32,
}

/// Keeps `unit`'s agent equal to it: placed, moved, goal, pin, speed and (on its
/// crowd's step's tick) guide; only seen if it is as it was synced (see
/// [`GridCrowd::epoch`](super::GridCrowd::epoch)).
fn sync_unit(s: &mut Syncing<'_, '_, '_>, item: QueryItem<'_, '_, UnitData>) {
    let (unit, mut seat, mut cell, on_grid, request, path, status, follower) = item;
    let (grids, planner, tick) = (s.grids, s.planner, s.tick);
    let before = seat.agent;
    'sync: {
        let key = on_grid.map(|g| g.0);
        let Some((pathing, world)) = grids.get(key) else {
            seat.set_if_neq(Seat::default());
            break 'sync;
        };
        // The unit moves as its paths do on this map: on a hex map by the map's hex
        // layout whatever it asked for, elsewhere 4- or 8-connected as asked. A hex
        // connectivity asked for on a map of squares has no crowd to join.
        let requested = request.map_or(Connectivity::Four, |r| r.connectivity);
        let connectivity = world.layout.connectivity(requested);
        if world.layout.hex().is_none() && matches!(connectivity, Connectivity::Hex(_)) {
            seat.set_if_neq(Seat::default());
            break 'sync;
        }
        let grid = pathing.grid();
        let Some(gc) = s.crowds.for_grid(key, pathing) else {
            seat.set_if_neq(Seat::default());
            s.unplaced += 1;
            break 'sync;
        };
        // Between steps, a unit none of whose components the crowd reads changed
        // since it was synced, while the crowd kept its agent as it was (see
        // `GridCrowd::epoch`), stays as it is: it is only seen. (Its speed, which
        // change detection cannot see, is read on its crowd's step's tick:
        // `read_speeds`.)
        let presence = Seat::presence(
            on_grid.is_some(),
            request.is_some(),
            path.is_some(),
            status.is_some(),
            follower.is_some(),
        );
        if seat.synced == gc.epoch
            && seat.presence == presence
            && !cell.is_changed()
            && !changed(&on_grid)
            && !changed(&request)
            && !changed(&path)
            && !changed(&status)
            && let Some((k, agent)) = seat.agent
            && k == key
        {
            gc.mark_seen(agent, tick);
            break 'sync;
        }
        let goal = path.as_deref().and_then(|p| heading(p, status.as_deref()));
        let spec = AgentSpec {
            cell: cell.0,
            size: request.map_or(1, |r| r.size.max(1)),
            mobility: request.map_or(Mobility::ALL_PASSABLE, |r| r.mobility),
            connectivity,
            goal,
        };
        // The unit's agent (and the goal the crowd has for it), if it still is where
        // the unit is and what it asks for; otherwise (moved by hand, turned back, a
        // new size or mobility, another grid) it is placed again. One look at the
        // agent: at tens of thousands of units, each lookup by id is a share of the
        // tick.
        let kept = seat
            .agent
            .filter(|&(k, a)| k == key && gc.slots.get(a.index()).map(|s| s.unit) == Some(unit))
            .and_then(|(_, a)| gc.crowd.agent(a).map(|now| (a, now)))
            .filter(|&(a, now)| {
                let class = (now.size, now.mobility, now.connectivity)
                    == (spec.size, spec.mobility, spec.connectivity);
                // Where the crowd has it; or still on the cell it was sent from,
                // waiting to set off. If that step has closed since (a wall placed, or
                // its follower turned back), it is sent back to where it stands, unless
                // a unit was sent into its cells meanwhile: then it waits (reported as
                // stuck if the way stays closed), never jumping elsewhere.
                let mut here = now.cell == spec.cell;
                if !here && class && gc.crowd.left_cell(a) == Some(spec.cell) {
                    // Steps are made on the grid as it is then: while it is unchanged
                    // they stay open.
                    let open = pathing.generation() == gc.stepped_on
                        || step_to(spec.cell, now.cell).is_some_and(|d| {
                            world
                                .layout
                                .can_step(grid, spec.cell, d, spec.mobility, spec.size)
                        });
                    if !open {
                        let _ = gc.crowd.recall(a);
                    }
                    here = true;
                }
                if !(here && class) {
                    let _ = gc.crowd.remove(a);
                }
                here && class
            })
            .map(|(a, now)| (a, now.goal));
        // A full search round a unit must fit in what is left of the tick's budget;
        // one that found no room is tried again `PLACE_RETRY` ticks later.
        if kept.is_none() && (seat.retry_at > tick || gc.place_budget < PLACE_SEARCH) {
            if seat.agent.is_some() {
                seat.agent = None;
            }
            s.unplaced += 1;
            break 'sync;
        }
        let placed = kept.is_none();
        let (agent, had_goal) = match kept {
            Some(k) => k,
            None => match gc.place(grid, unit, spec, tick) {
                Ok((a, at)) => {
                    if at != cell.0 {
                        cell.0 = at;
                    }
                    (a, goal)
                }
                Err(_) => {
                    seat.set_if_neq(Seat {
                        agent: None,
                        retry_at: tick + PLACE_RETRY,
                        ..Seat::default()
                    });
                    s.unplaced += 1;
                    break 'sync;
                }
            },
        };
        // Its guide is made when what it is made of changed (its path does at every
        // cell it walks) and kept between: each step reads the guides as the units
        // last were. A unit synced only because the crowd's epoch moved on (a grid
        // edit) keeps its own.
        if placed
            || seat.presence != presence
            || changed(&path)
            || changed(&status)
            || changed(&request)
        {
            let (route, want) = match path.as_deref() {
                Some(p) if goal.is_some() => (
                    Route::of_path(p, connectivity),
                    // A field measures the way to the goal itself: for a unit whose
                    // path heads there (not one that ends nearest an unreachable goal).
                    (goal == Some(p.goal)).then(|| field_key(p, spec.connectivity)),
                ),
                _ => (Route::NONE, None),
            };
            gc.guide.set(agent, route, want, planner.fields_of(key));
        }
        seat.set_if_neq(Seat {
            agent: Some((key, agent)),
            retry_at: 0,
            synced: gc.epoch,
            presence,
        });
        gc.mark_seen(agent, tick);
        if had_goal != goal {
            let _ = gc.crowd.set_goal(agent, goal);
        }
        // Only a follower moves a unit: one without is never pushed.
        let _ = gc.crowd.set_pinned(agent, follower.is_none());
        let speed = follower.map_or(0.0, |f| f.speed.max(0.0));
        gc.slots[agent.index()].speed = speed;
        gc.clock.fastest = gc.clock.fastest.max(speed);
    }
    // The agent the unit had, if it left it (another grid, no grid, no room), goes:
    // no other unit is it.
    if let Some((key, agent)) = before
        && seat.agent != before
    {
        s.crowds.drop_agent(key, agent, unit);
    }
}

/// Reads the speed of every unit whose crowd steps this tick (a follower changes
/// whenever its unit walks, so a changed speed cannot be told from the rest): what
/// its credit grows by, and the crowd's fastest, which sets its next period.
fn read_speeds(
    crowds: &mut Crowds,
    followers: &Query<'_, '_, (Entity, &Seat, &PathFollower), With<Solid>>,
) {
    for (unit, seat, follower) in followers {
        let Some((key, agent)) = seat.agent else {
            continue;
        };
        let Some(gc) = crowds
            .grids
            .iter_mut()
            .find(|gc| gc.key == key && gc.clock.countdown <= 1)
        else {
            continue;
        };
        if let Some(slot) = gc.slots.get_mut(agent.index())
            && slot.unit == unit
        {
            slot.speed = follower.speed.max(0.0);
            gc.clock.fastest = gc.clock.fastest.max(slot.speed);
        }
    }
}

/// Keeps every grid's crowd equal to its solid units (placing new ones, moving those
/// spawned on others, dropping the gone), guides each by its path, and steps each
/// crowd when its clock says: every step moves the units together, and each step
/// decided is walked within the period before the next (see [`StepClock`]). A unit
/// steps of its own accord when its speed has earned a step since its last; made to
/// step aside, it steps at once.
///
/// While every crowd is as all its units were last synced with
/// ([`GridCrowd::is_synced`](super::GridCrowd::is_synced)), no unit waits to be
/// placed and nothing departed ([`note_departure`]), only the units [`Touched`]
/// since are synced, on a step's tick too: the others would only be seen, and at
/// tens of thousands of units even that is a share of the tick. Their guides are
/// kept from their last sync, and their speeds read apart ([`read_speeds`]).
pub(crate) fn step_crowds(
    time: Res<Time>,
    grids: Grids,
    settings: Res<PathingSettings>,
    planner: Res<Planner>,
    mut crowds: ResMut<Crowds>,
    mut diag: ResMut<PathingDiagnostics>,
    mut units: Units,
) {
    let started = Instant::now();
    let crowds = &mut *crowds;
    crowds.tick += 1;
    let tick = crowds.tick;
    let dt = time.delta_secs();
    let departed = core::mem::take(&mut crowds.departed);
    let touched_only = crowds.none_unplaced
        && !departed
        && crowds.grids.iter().all(|gc| {
            // An empty crowd (its units gone, or its map) has nobody to sync.
            gc.crowd.is_empty()
                || grids
                    .get(gc.key)
                    .is_some_and(|(pathing, _)| gc.is_synced(pathing))
        });
    for gc in &mut crowds.grids {
        gc.clock.fastest = 0.0;
        gc.place_budget = PLACE_BUDGET;
        gc.seen_now = 0;
        if let Some((pathing, _)) = grids.get(gc.key) {
            gc.note_generation(pathing.generation());
        }
        // The epoch the units are synced in, unless it changes while they are.
        gc.synced_epoch = gc.epoch;
    }
    let mut sync = Syncing {
        grids: &grids,
        planner: &planner,
        crowds,
        tick,
        unplaced: 0,
    };
    if touched_only {
        for item in &mut units.p1() {
            sync_unit(&mut sync, item);
        }
    } else {
        for item in &mut units.p0() {
            sync_unit(&mut sync, item);
        }
    }
    let unplaced = sync.unplaced;
    crowds.none_unplaced = unplaced == 0;
    // Syncing every unit read every speed.
    if touched_only && crowds.grids.iter().any(|gc| gc.clock.countdown <= 1) {
        read_speeds(crowds, &units.p2());
    }

    for gc in &mut crowds.grids {
        // A crowd made anew meanwhile (its grid resized) holds none of the units
        // synced before: the next tick syncs every unit again. So does one made in
        // this sync.
        if gc.synced_epoch != gc.epoch {
            gc.synced_epoch = u64::MAX;
        }
    }
    let Crowds {
        grids: all, gone, ..
    } = crowds;
    let (mut moved, mut waiting, mut stuck, mut untangled) = (0_u32, 0_u32, 0_u32, 0_u32);
    let mut stepped_any = false;
    for gc in all.iter_mut() {
        gone.clear();
        // Every agent seen (each marked once, and none removed after): none is gone.
        // Syncing only the units touched, none departed.
        if !touched_only && gc.seen_now != gc.crowd.len() {
            gone.extend(
                gc.crowd
                    .agents()
                    .map(|(id, _)| id)
                    .filter(|id| gc.slots.get(id.index()).map(|s| s.seen) != Some(tick)),
            );
        }
        for &id in gone.iter() {
            let _ = gc.crowd.remove(id);
        }
        if !gone.is_empty() {
            // A unit whose agent was dropped is placed again if it comes back.
            gc.epoch += 1;
        }
        let Some((pathing, _)) = grids.get(gc.key) else {
            continue;
        };
        if gc.crowd.is_empty() {
            continue;
        }
        let grid = pathing.grid();
        gc.clock.share = 0;
        if gc.clock.countdown > 1 {
            // The step begun at the last step is planned a share a tick, so that it
            // is planned by the tick before the next: by `plan_crowds`, beside the
            // systems that walk this one.
            gc.clock.countdown -= 1;
            gc.clock.share = gc.crowd.step_left().div_ceil(gc.clock.countdown as usize);
            continue;
        }
        // The fields kept may have changed since a unit's guide was made.
        let fields = planner.fields_of(gc.key);
        gc.guide.refresh(fields);
        let guide = gc.guide.with(fields);
        // Every step of the last period has been walked: the cells left are free.
        let period = StepClock::period_for(gc.clock.fastest, 1.0 / dt);
        let earned = period as f32 * dt;
        gone.clear();
        gone.extend(gc.crowd.agents().map(|(id, _)| id));
        // Readiness was set when the step began (units placed since stay in it; a
        // crowd's first step finds every unit ready, as placed with a full credit).
        gc.crowd.arrive_all();
        gc.crowd.set_stuck_after(settings.crowd_stuck_after);
        // An untangling searched off the tick that has ended is walked from the step
        // at which the crowd stands as it stood when the search began.
        gc.untangling.finish(&gc.crowd);
        // The step of an untangling being walked; else the step planned over the last
        // period (or, the first time, a whole one).
        let stats = match gc.untangling.walk(&mut gc.crowd, grid) {
            Some(stats) => {
                untangled += stats.moved as u32;
                stats
            }
            None => match gc.crowd.step(grid, &guide) {
                Ok(stats) => stats,
                Err(_) => continue,
            },
        };
        gc.clock.period = period;
        gc.clock.countdown = period;
        gc.stepped_on = pathing.generation();
        // Agents moved, but no epoch begins: each unit stands where its agent was sent
        // from (the cell it left) until it walks to where it went, which changes its
        // cell and syncs it; whether a step sent from there has closed is only asked
        // of a changed grid, which begins an epoch (`GridCrowd::note_generation`).
        moved += stats.moved as u32;
        stuck += stats.stuck as u32;
        stepped_any = true;
        // One pass over the agents: each unit's credit, whether it was kept waiting,
        // and its readiness for the next step. That step is planned while the units
        // walk this one: begun now, from where they are going, with the readiness
        // their credit gives, and planned a share in each tick of the period after
        // this one, which makes this step (the core's `Crowd::begin_step`).
        for &id in gone.iter() {
            let stepped = gc.crowd.previous_cell(id) != gc.crowd.cell(id);
            let ready = gc.crowd.is_ready(id);
            // A step of its own accord spends one step's credit and keeps the rest,
            // so that a unit steps at its own speed on average; one kept waiting
            // saves no more than a step.
            let own = stepped && ready;
            let slot = &mut gc.slots[id.index()];
            if own {
                slot.credit = (slot.credit - 1.0).max(0.0);
            }
            slot.credit += slot.speed * earned;
            if !own {
                slot.credit = slot.credit.min(1.0);
            }
            let credit = slot.credit;
            if ready
                && !stepped
                && matches!(
                    gc.crowd.status(id),
                    Some(AgentStatus::Moving | AgentStatus::Stuck)
                )
            {
                waiting += 1;
            }
            let _ = gc.crowd.set_ready(id, credit >= READY);
        }
        // Units stuck: the next steps are an untangling's, if one is found.
        if !gc
            .untangling
            .after_step(&gc.crowd, grid, &guide, stats.stuck)
        {
            gc.crowd.begin_step();
            // Its first share is planned this tick, beside the followers setting off.
            gc.clock.share = gc.crowd.step_left().div_ceil(period as usize);
        }
    }
    diag.crowd_moved = moved;
    diag.crowd_untangled = untangled;
    diag.crowd_searching = all.iter().filter(|g| g.untangling.is_searching()).count() as u32;
    if stepped_any {
        diag.crowd_waiting = waiting;
        diag.crowd_stuck = stuck;
    }
    diag.crowd_unplaced = unplaced;
    diag.crowd_time = started.elapsed();
}

/// Plans each crowd's share of its next step this tick (set by [`step_crowds`]). It
/// only reads the crowds (a crowd keeps a step's plan behind a lock:
/// [`Crowd::advance_step`](tilepath::Crowd::advance_step) takes `&self`), as do the
/// followers walking the step decided, so Bevy's executor may run the two side by
/// side: on the main thread ([`plan_crowds_on_main`]) where a core is left for it
/// ([`plan_on_main`]), else on the compute pool (this one). The time it takes is
/// added to [`PathingDiagnostics::crowd_time`].
pub(crate) fn plan_crowds(
    grids: Grids,
    planner: Res<Planner>,
    crowds: Res<Crowds>,
    diag: ResMut<PathingDiagnostics>,
) {
    plan_shares(&grids, &planner, &crowds, diag);
}

/// [`plan_crowds`] on the main thread ([`NonSendMarker`]). The multi-threaded
/// executor runs systems on the compute pool, while the thread that runs the
/// schedule waits for them and runs only the systems that need it: so the planning
/// runs beside the followers even where the compute pool has one thread (Bevy's
/// default on fewer than four cores), and leaves the pool's threads to the rest.
pub(crate) fn plan_crowds_on_main(
    _main_thread: NonSendMarker,
    grids: Grids,
    planner: Res<Planner>,
    crowds: Res<Crowds>,
    diag: ResMut<PathingDiagnostics>,
) {
    plan_shares(&grids, &planner, &crowds, diag);
}

/// Whether the crowds are planned on the main thread: where the machine has a core
/// for it beside the compute pool's threads, as Bevy's default pools always leave
/// (they keep a quarter of the cores each for IO and async tasks). A compute pool as
/// big as the machine leaves none: the planning then takes a pool thread instead of
/// competing with all of them. Asked once; the pools never change.
pub(crate) fn plan_on_main(mut decided: Local<Option<bool>>) -> bool {
    *decided.get_or_insert_with(|| {
        let compute = ComputeTaskPool::try_get().map_or(1, |pool| pool.thread_num());
        compute < available_parallelism()
    })
}

/// Each crowd's share of its next step, planned.
fn plan_shares(
    grids: &Grids,
    planner: &Planner,
    crowds: &Crowds,
    mut diag: ResMut<PathingDiagnostics>,
) {
    let started = Instant::now();
    for gc in crowds.grids.iter().filter(|gc| gc.clock.share > 0) {
        let Some((pathing, _)) = grids.get(gc.key) else {
            continue;
        };
        let guide = gc.guide.with(planner.fields_of(gc.key));
        let _ = gc
            .crowd
            .advance_step(pathing.grid(), &guide, gc.clock.share);
    }
    diag.crowd_time += started.elapsed();
}
