//! Requests end to end: optimal paths, segments, chasing, re-planning, bad input.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{MOBILITY, app, random_grid, reference, seeded, tick_until, ticks};
use core::time::Duration;
use rand::RngExt;

fn walk(grid: &Grid, path: &UnitPath, mobility: Mobility) -> Cell {
    let mut at = path.at;
    let mut steps = path.steps;
    for d in steps.by_ref() {
        at = at.step(d);
        assert!(
            grid.is_passable(at, mobility),
            "the path enters a blocked cell {at:?}"
        );
    }
    at
}

/// Random units with their own goals and crowds sharing one goal (served by a field),
/// 4- and 8-connected: every complete route costs what a reference Dijkstra says, and
/// every goal the reference cannot reach is reported so.
#[test]
fn paths_are_optimal() {
    let mut checked = (0, 0, 0);
    for seed in 0..24 {
        let mut rng = seeded(seed);
        let grid = random_grid(40, 40, 0.28, &mut rng);
        let eight = seed % 2 == 1;
        let conn = if eight {
            Connectivity::Eight
        } else {
            Connectivity::Four
        };
        // Half the seeds guide their whole-grid searches with landmarks; half keep
        // jump distances (crossed, so that both and neither are covered too).
        let settings = PathingSettings {
            landmarks: if seed % 4 < 2 { 4 } else { 0 },
            jump_distances: seed % 8 >= 4,
            ..default()
        };
        let mut app = app(Some(grid.clone()), settings);
        let floor: Vec<Cell> = (0..40 * 40)
            .filter_map(|i| grid.cell_of(i))
            .filter(|&c| grid.is_passable(c, MOBILITY))
            .collect();
        let shared = floor[rng.random_range(0..floor.len())];
        let mut units = Vec::new();
        for i in 0..40 {
            let start = floor[rng.random_range(0..floor.len())];
            let goal = if i < 20 {
                shared
            } else {
                floor[rng.random_range(0..floor.len())]
            };
            let request = PathRequest::to_cell(goal)
                .with_mobility(MOBILITY)
                .with_connectivity(conn);
            units.push((
                app.world_mut().spawn((GridCell(start), request)).id(),
                start,
                goal,
            ));
        }
        ticks(&mut app, 1);
        let diag = *app.world().resource::<PathingDiagnostics>();
        assert_eq!(diag.served, 40);
        assert_eq!(diag.fields_built, 1, "20 units share a goal: one field");
        for (e, start, goal) in units {
            let want = reference(&grid, MOBILITY, start, eight)[grid.index_of(goal).unwrap()];
            let path = *app.world().get::<UnitPath>(e).unwrap();
            let status = *app.world().get::<PathStatus>(e).unwrap();
            match want {
                Some(cost) => {
                    // A unit spawned on its goal has arrived in the tick it was served.
                    let served = if start == goal {
                        PathStatus::Arrived
                    } else {
                        PathStatus::Found
                    };
                    assert_eq!(status, served, "seed {seed} {start:?}->{goal:?}");
                    let rel = (f64::from(path.route_cost) - cost).abs() / cost.max(1.0);
                    assert!(
                        rel < 1e-5,
                        "seed {seed}: cost {} != {cost}",
                        path.route_cost
                    );
                    assert_eq!(walk(&grid, &path, MOBILITY), path.end);
                    assert_eq!(path.continues, path.end != goal);
                    checked.0 += 1;
                }
                None => {
                    assert!(
                        matches!(
                            status,
                            PathStatus::Partial(NoPathReason::Unreachable)
                                | PathStatus::NoPath(NoPathReason::Unreachable)
                        ),
                        "seed {seed}: {status:?}"
                    );
                    checked.1 += 1;
                }
            }
            checked.2 += 1;
        }
    }
    assert!(checked.0 > 700 && checked.1 > 0, "{checked:?}");
}

/// A 400-step route is walked segment by segment without the unit ever standing still.
#[test]
fn long_routes_come_in_segments_without_stopping() {
    // A serpentine: rows of corridor joined at alternating ends.
    let (w, h) = (41_i32, 21_i32);
    let grid = Grid::from_fn(w as u32, h as u32, |c| {
        let wall = c.y % 2 == 1
            && if (c.y / 2) % 2 == 0 {
                c.x != w - 1
            } else {
                c.x != 0
            };
        if wall { TileKind::K1 } else { TileKind::K0 }
    })
    .unwrap();
    let goal = Cell::new(0, h - 1);
    let route = reference(&grid, MOBILITY, Cell::new(0, 0), false)[grid.index_of(goal).unwrap()]
        .unwrap() as usize;
    assert!(route > 400);
    let mut app = app(Some(grid), PathingSettings::default());
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 0)),
            PathRequest::to_cell(goal).with_mobility(MOBILITY),
            PathFollower::new(12.0),
        ))
        .id();
    let mut last = Cell::new(0, 0);
    let mut still = 0;
    let mut segments = 0;
    let mut tick = 0;
    while app.world().get::<GridCell>(unit).unwrap().0 != goal {
        app.update();
        tick += 1;
        let now = app.world().get::<GridCell>(unit).unwrap().0;
        still = if now == last { still + 1 } else { 0 };
        assert!(
            still <= 5,
            "stood still at {now:?} for {still} ticks (12 cells/s)"
        );
        last = now;
        segments += app.world().resource::<PathingDiagnostics>().served as usize;
        assert!(tick < 60 * 60, "never arrived");
    }
    // 12 cells/s at 60 Hz: 5 ticks a cell; allow the first tick of planning.
    assert!(tick <= route * 5 + 6, "{tick} ticks for {route} steps");
    assert!(
        segments >= route.div_ceil(56),
        "{segments} segments for {route} steps"
    );
}

/// A chaser follows a target that keeps moving, and its path always leads to the
/// target's latest cell.
#[test]
fn chasing_a_moving_target() {
    let grid = Grid::new(60, 20).unwrap();
    let mut app = app(Some(grid), PathingSettings::default());
    let target = app.world_mut().spawn(GridCell(Cell::new(10, 10))).id();
    let chaser = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 0)),
            PathRequest::chase(target),
            PathFollower::new(20.0),
        ))
        .id();
    for t in 0..240 {
        if t % 6 == 0 {
            let mut cell = app.world_mut().get_mut::<GridCell>(target).unwrap();
            cell.0.x = (cell.0.x + 1).min(59);
        }
        app.update();
        let goal = app.world().get::<UnitPath>(chaser).unwrap().goal;
        let at = app.world().get::<GridCell>(target).unwrap().0;
        assert_eq!(goal, at, "tick {t}: planned for {goal:?}, target at {at:?}");
    }
    let c = app.world().get::<GridCell>(chaser).unwrap().0;
    let t = app.world().get::<GridCell>(target).unwrap().0;
    assert!(c.manhattan(t) <= 1, "chaser {c:?} target {t:?}");
}

/// A wall across the path makes the unit re-plan around it; closing the way gives a
/// partial path; opening it again finds the goal again.
#[test]
fn replanning_after_edits() {
    replanning_after_edits_with(PathingSettings::default());
}

/// As [`replanning_after_edits`], every search whole-grid and guided by landmarks,
/// which the edits must repair.
#[test]
fn replanning_after_edits_with_landmarks() {
    replanning_after_edits_with(PathingSettings {
        window_distance: 0,
        landmarks: 3,
        ..default()
    });
}

fn replanning_after_edits_with(settings: PathingSettings) {
    let grid = Grid::new(30, 30).unwrap();
    let mut app = app(Some(grid), settings);
    let goal = Cell::new(29, 15);
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 15)),
            PathRequest::to_cell(goal).with_mobility(MOBILITY),
        ))
        .id();
    ticks(&mut app, 1);
    let before = *app.world().get::<UnitPath>(unit).unwrap();
    assert_eq!(before.end, goal);
    // A wall at x = 15 with a gap at y = 0.
    {
        let mut g = app.world_mut().resource_mut::<PathingGrid>();
        for y in 1..30 {
            g.set(Cell::new(15, y), TileKind::K1).unwrap();
        }
    }
    ticks(&mut app, 1);
    let after = *app.world().get::<UnitPath>(unit).unwrap();
    assert_ne!(after, before, "re-planned");
    assert!(after.cells_ahead().all(|c| c.x != 15 || c.y == 0));
    assert!(after.route_cost > 40.0);
    // Close the gap: unreachable, partial towards the wall.
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(Cell::new(15, 0), TileKind::K1)
        .unwrap();
    ticks(&mut app, 1);
    assert_eq!(
        app.world().get::<PathStatus>(unit),
        Some(&PathStatus::Partial(NoPathReason::Unreachable))
    );
    // Open it again: found again.
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(Cell::new(15, 7), TileKind::K0)
        .unwrap();
    ticks(&mut app, 1);
    assert_eq!(
        app.world().get::<PathStatus>(unit),
        Some(&PathStatus::Found)
    );
}

#[derive(Resource, Default)]
struct Failures(Vec<(Entity, NoPathReason)>);

fn record(mut failed: MessageReader<PathFailed>, mut log: ResMut<Failures>) {
    log.0.extend(failed.read().map(|f| (f.entity, f.reason)));
}

/// Every bad input is a `PathFailed` with its reason (or a documented partial path),
/// never a panic, and the unit keeps its last path.
#[test]
fn bad_input() {
    // No grid at all.
    let mut app = app(None, PathingSettings::default());
    app.init_resource::<Failures>()
        .add_systems(FixedPostUpdate, record);
    let lost = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(1, 1)),
            PathRequest::to_cell(Cell::new(2, 2)),
        ))
        .id();
    ticks(&mut app, 1);
    assert_eq!(
        app.world().get::<PathStatus>(lost),
        Some(&PathStatus::NoPath(NoPathReason::NoGrid))
    );
    // The grid arrives: served.
    app.insert_resource(PathingGrid::new(Grid::new(10, 10).unwrap()));
    ticks(&mut app, 1);
    assert_eq!(
        app.world().get::<PathStatus>(lost),
        Some(&PathStatus::Found)
    );

    let w = app.world_mut();
    let outside_goal = w
        .spawn((
            GridCell(Cell::new(1, 1)),
            PathRequest::to_cell(Cell::new(10, 3)),
        ))
        .id();
    let outside_unit = w
        .spawn((
            GridCell(Cell::new(-1, 3)),
            PathRequest::to_cell(Cell::new(3, 3)),
        ))
        .id();
    let target = w.spawn(GridCell(Cell::new(8, 8))).id();
    let chaser = w
        .spawn((GridCell(Cell::new(0, 0)), PathRequest::chase(target)))
        .id();
    let nobody = w.spawn_empty().id();
    let ghost_chaser = w
        .spawn((GridCell(Cell::new(0, 0)), PathRequest::chase(nobody)))
        .id();
    w.despawn(nobody);
    ticks(&mut app, 1);
    let kept = *app.world().get::<UnitPath>(chaser).unwrap();
    assert_eq!(kept.end, Cell::new(8, 8));
    app.world_mut().despawn(target);
    ticks(&mut app, 2);
    let status = |app: &App, e| *app.world().get::<PathStatus>(e).unwrap();
    assert_eq!(
        status(&app, outside_goal),
        PathStatus::NoPath(NoPathReason::GoalOutsideGrid)
    );
    assert_eq!(
        status(&app, outside_unit),
        PathStatus::NoPath(NoPathReason::StartOutsideGrid)
    );
    assert_eq!(
        status(&app, chaser),
        PathStatus::NoPath(NoPathReason::TargetMissing)
    );
    assert_eq!(
        status(&app, ghost_chaser),
        PathStatus::NoPath(NoPathReason::TargetMissing)
    );
    assert_eq!(
        *app.world().get::<UnitPath>(chaser).unwrap(),
        kept,
        "keeps its last path"
    );
    // A blocked goal: partial towards it.
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(Cell::new(5, 5), TileKind::K1)
        .unwrap();
    let blocked = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 5)),
            PathRequest::to_cell(Cell::new(5, 5)).with_mobility(MOBILITY),
        ))
        .id();
    // A despawned unit with a queued request is simply gone.
    let gone = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 5)),
            PathRequest::to_cell(Cell::new(9, 9)),
        ))
        .id();
    app.world_mut().despawn(gone);
    ticks(&mut app, 1);
    assert_eq!(
        status(&app, blocked),
        PathStatus::Partial(NoPathReason::GoalBlocked)
    );
    assert_eq!(
        app.world().get::<UnitPath>(blocked).unwrap().end,
        Cell::new(4, 5)
    );
    let log = &app.world().resource::<Failures>().0;
    for (e, reason) in [
        (lost, NoPathReason::NoGrid),
        (outside_goal, NoPathReason::GoalOutsideGrid),
        (outside_unit, NoPathReason::StartOutsideGrid),
        (chaser, NoPathReason::TargetMissing),
    ] {
        assert!(
            log.contains(&(e, reason)),
            "no PathFailed({reason:?}) for {e}"
        );
    }
    // Failures are not re-sent every tick.
    let n = log.len();
    ticks(&mut app, 10);
    assert_eq!(app.world().resource::<Failures>().0.len(), n);
}

#[derive(Resource, Default)]
struct Served(Vec<Entity>);

fn record_found(mut found: MessageReader<PathFound>, mut log: ResMut<Served>) {
    log.0.extend(found.read().map(|f| f.entity));
}

/// An app under `settings` on a seeded 64x64 grid that records who is served, with
/// `n` units spawned one after the other asking (by `mode`) for random floor cells.
fn requests_in_a_row(settings: PathingSettings, n: usize, mode: SearchMode) -> (App, Vec<Entity>) {
    let mut rng = seeded(9);
    let grid = random_grid(64, 64, 0.2, &mut rng);
    let mut app = app(Some(grid.clone()), settings);
    app.init_resource::<Served>()
        .add_systems(FixedPostUpdate, record_found);
    let floor: Vec<Cell> = (0..64 * 64)
        .filter_map(|i| grid.cell_of(i))
        .filter(|&c| grid.is_passable(c, MOBILITY))
        .collect();
    let units = (0..n)
        .map(|_| {
            let a = floor[rng.random_range(0..floor.len())];
            let b = floor[rng.random_range(0..floor.len())];
            let request = PathRequest::to_cell(b)
                .with_mobility(MOBILITY)
                .with_mode(mode);
            app.world_mut().spawn((GridCell(a), request)).id()
        })
        .collect();
    (app, units)
}

/// Asserts that the units found a path in the order they were spawned (`units`).
fn assert_fifo(app: &App, units: &[Entity], what: &str) {
    let served = &app.world().resource::<Served>().0;
    let order: Vec<Entity> = units
        .iter()
        .copied()
        .filter(|e| served.contains(e))
        .collect();
    assert_eq!(served, &order, "served out of FIFO order{what}");
}

/// 10x overload: a budget that fits a tenth of the requests a tick serves all of them,
/// each exactly once, in the order they arrived.
#[test]
fn overload_serves_everyone_in_fifo_order() {
    let settings = PathingSettings {
        budget: PathingBudget::Expansions(20_000),
        time_cap: None,
        ..default()
    };
    let (mut app, units) = requests_in_a_row(settings, 2000, SearchMode::AStar);
    let mut ticks_taken = 0;
    let mut first_waiting = 0;
    while app.world().resource::<Served>().0.len() + failed(&app) < units.len() {
        app.update();
        ticks_taken += 1;
        if ticks_taken == 1 {
            first_waiting = app.world().resource::<PathingDiagnostics>().waiting;
        }
        assert!(ticks_taken < 200, "starved");
    }
    assert!(
        first_waiting > 1500,
        "the budget should leave most waiting: {first_waiting}"
    );
    assert!(
        ticks_taken >= 8,
        "served in {ticks_taken} ticks: not an overload"
    );
    assert_fifo(&app, &units, "");
    fn failed(app: &App) -> usize {
        app.world().resource::<PathingDiagnostics>().total_served as usize
            - app.world().resource::<Served>().0.len()
    }
}

/// A time cap stops a tick's serving whatever the budget has left, and still serves
/// at least one request a tick and everyone in the order they came: a cap of zero
/// serves exactly one a tick; a cap of a millisecond serves them all, over several
/// ticks.
#[test]
fn a_time_cap_serves_at_least_one_a_tick_in_fifo_order() {
    for cap in [Duration::ZERO, Duration::from_millis(1)] {
        let settings = PathingSettings {
            budget: PathingBudget::Unlimited,
            time_cap: Some(cap),
            ..default()
        };
        let (mut app, units) = requests_in_a_row(settings, 400, SearchMode::Auto);
        let mut ticks = 0;
        while app.world().resource::<PathingDiagnostics>().total_served < units.len() as u64 {
            app.update();
            ticks += 1;
            let d = *app.world().resource::<PathingDiagnostics>();
            if cap.is_zero() {
                assert_eq!(d.served, 1, "tick {ticks} under a zero cap");
            }
            assert!(d.served >= 1, "tick {ticks} served nothing");
            assert!(ticks <= units.len(), "starved under a cap of {cap:?}");
        }
        assert!(ticks > 1, "{cap:?} served everything in one tick");
        let served = app.world().resource::<Served>().0.len();
        assert!(served > units.len() / 2, "most found a path");
        assert_fifo(&app, &units, &format!(" under {cap:?}"));
        println!(
            "time cap {cap:?}: {} requests in {ticks} ticks",
            units.len()
        );
    }
}

/// The same scenario gives bit-identical paths whether batches are solved on one thread
/// or spread over 2, 3 or 4 tasks of the compute task pool taking jobs as they come,
/// under an expansion budget that spreads work over ticks.
#[test]
fn deterministic_whatever_the_thread_count() {
    let run = |threads: usize| {
        let mut rng = seeded(4);
        let grid = random_grid(64, 64, 0.25, &mut rng);
        let settings = PathingSettings {
            budget: PathingBudget::Expansions(30_000),
            time_cap: None,
            threads,
            parallel_min_batch: 2,
            ..default()
        };
        let mut app = app(Some(grid.clone()), settings);
        let floor: Vec<Cell> = (0..64 * 64)
            .filter_map(|i| grid.cell_of(i))
            .filter(|&c| grid.is_passable(c, MOBILITY))
            .collect();
        let target = app.world_mut().spawn(GridCell(floor[0])).id();
        let mut units = Vec::new();
        for i in 0..1200 {
            let a = floor[rng.random_range(0..floor.len())];
            let request = if i % 4 == 0 {
                PathRequest::to_cell(floor[rng.random_range(0..floor.len())])
            } else {
                PathRequest::chase(target)
            };
            units.push(
                app.world_mut()
                    .spawn((
                        GridCell(a),
                        request.with_mobility(MOBILITY),
                        PathFollower::new(6.0),
                    ))
                    .id(),
            );
        }
        let mut trace = Vec::new();
        let mut spread = 0;
        for t in 0..90 {
            if t % 5 == 0 {
                let to = floor[rng.random_range(0..floor.len())];
                app.world_mut().get_mut::<GridCell>(target).unwrap().0 = to;
            }
            if t % 7 == 0 {
                let c = floor[rng.random_range(0..floor.len())];
                let _ = app
                    .world_mut()
                    .resource_mut::<PathingGrid>()
                    .set(c, TileKind::K1);
            }
            app.update();
            spread += app.world().resource::<PathingDiagnostics>().batches_spread;
            for &e in &units {
                let w = app.world();
                trace.push((
                    *w.get::<UnitPath>(e).unwrap(),
                    *w.get::<PathStatus>(e).unwrap(),
                    w.get::<GridCell>(e).unwrap().0,
                ));
            }
        }
        let d = *app.world().resource::<PathingDiagnostics>();
        (trace, d.total_served, spread)
    };
    let (one, served_one, spread) = run(1);
    assert!(served_one > 2000);
    assert_eq!(spread, 0, "one thread spread batches");
    for threads in [2, 3, 4] {
        let (other, served, spread) = run(threads);
        assert!(
            spread > 30,
            "{threads} tasks: only {spread} batches were spread"
        );
        assert_eq!(served_one, served);
        assert!(one == other, "paths differ between 1 and {threads} tasks");
    }
}

/// On a grid too big to compute a field in a tick, units sharing a goal wait while
/// its field is computed in the background, at the front of the queue (a request
/// behind them is served meanwhile), and are then served from it, each with the
/// cost a field computed on the grid as it is gives: edits made during the build
/// are caught up.
#[test]
fn a_big_maps_shared_field_is_built_in_the_background() {
    let mut rng = seeded(31);
    let mut grid = random_grid(640, 420, 0.15, &mut rng);
    assert!(grid.len() > 1 << 18);
    let goal = Cell::new(320, 210);
    grid.set(goal, TileKind::K0).unwrap();
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid.clone()), settings);
    let floor = |g: &Grid, rng: &mut rand::rngs::StdRng| loop {
        let c = Cell::new(rng.random_range(0..640), rng.random_range(0..420));
        if g.is_passable(c, MOBILITY) {
            return c;
        }
    };
    let group: Vec<Entity> = (0..24)
        .map(|_| {
            let at = floor(&grid, &mut rng);
            let request = PathRequest::to_cell(goal).with_mobility(MOBILITY);
            app.world_mut().spawn((GridCell(at), request)).id()
        })
        .collect();
    let (a, b) = (floor(&grid, &mut rng), floor(&grid, &mut rng));
    let alone = app
        .world_mut()
        .spawn((GridCell(a), PathRequest::to_cell(b).with_mobility(MOBILITY)))
        .id();
    ticks(&mut app, 1);
    let d = *app.world().resource::<PathingDiagnostics>();
    assert_eq!((d.fields_building, d.fields_built), (1, 0), "{d:?}");
    assert_eq!(
        d.served, 1,
        "the request behind the group is served meanwhile"
    );
    assert_eq!(d.waiting, group.len() as u32);
    assert_eq!(
        app.world().get::<PathStatus>(alone),
        Some(&PathStatus::Found)
    );
    // Walls while the field is built, away from the goal.
    for x in 100..140 {
        let c = Cell::new(x, 300);
        app.world_mut()
            .resource_mut::<PathingGrid>()
            .set(c, TileKind::K1)
            .unwrap();
        grid.set(c, TileKind::K1).unwrap();
    }
    tick_until(&mut app, "the background field", |app| {
        app.world().resource::<PathingDiagnostics>().fields_built == 1
    });
    let d = *app.world().resource::<PathingDiagnostics>();
    assert_eq!(d.fields_building, 0);
    assert_eq!(d.served_by_field, group.len() as u32, "{d:?}");
    let mut fresh = DistanceField::new(&grid, MOBILITY, Connectivity::Four);
    fresh.add_goal(goal, 0);
    fresh.compute(&grid).unwrap();
    let mut reached = 0;
    for &unit in &group {
        let start = app.world().get::<GridCell>(unit).unwrap().0;
        let path = app.world().get::<UnitPath>(unit).unwrap();
        match fresh.distance(start) {
            Some(cost) => {
                assert_eq!(path.route_cost, cost as f32, "from {start}");
                reached += 1;
            }
            None => assert_ne!(path.end, goal),
        }
    }
    println!(
        "background field: {} units waited one build, {reached} reach the goal",
        group.len()
    );
    assert!(reached > group.len() / 2);
}

/// Chasers of a target that moves every tick on a big map, where each new goal's
/// field is built in the background: a chaser waiting for one is served for the goal
/// it waited for as soon as it is built, so that every chaser's path leads to where
/// the target was a few ticks before, never much longer (no build it waits for is
/// out of date for good; past `MAX_FIELD_WAIT`, 30 ticks, its field would be computed
/// in the tick).
#[test]
fn chasers_of_a_target_faster_than_field_builds_are_still_answered() {
    let grid = Grid::new(640, 420).unwrap();
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid), settings);
    let target = app.world_mut().spawn(GridCell(Cell::new(200, 200))).id();
    let chasers: Vec<Entity> = (0..16)
        .map(|k| {
            let at = Cell::new(20 + 37 * k, 20 + 23 * k);
            let request = PathRequest::chase(target).with_mobility(MOBILITY);
            app.world_mut().spawn((GridCell(at), request)).id()
        })
        .collect();
    // The tick the target stood on each column (it walks a row, one cell a tick).
    let mut stood = vec![0_usize; 640];
    let (mut stalest, mut waited, mut by_field) = (0, 0, 0);
    for t in 1..=240 {
        let x = 200 + (t % 200);
        app.world_mut().get_mut::<GridCell>(target).unwrap().0.x = x as i32;
        stood[x] = t;
        // A little time for the async pool between ticks, as a game's frames give.
        std::thread::sleep(Duration::from_millis(1));
        app.update();
        let d = *app.world().resource::<PathingDiagnostics>();
        waited += usize::from(d.fields_building > 0);
        by_field += d.served_by_field;
        if t < 20 {
            continue;
        }
        for &c in &chasers {
            let path = app
                .world()
                .get::<UnitPath>(c)
                .expect("every chaser is answered");
            assert_eq!(path.goal.y, 200);
            stalest = stalest.max(t - stood[path.goal.x as usize]);
        }
    }
    println!(
        "fast target: {waited} ticks with a field building, {by_field} answers from fields, \
         paths at most {stalest} ticks behind the target"
    );
    assert!(waited > 100, "fields were built in the background");
    assert!(by_field > 1000);
    assert!(stalest <= 32, "a chaser's path led {stalest} ticks behind");
}

/// On a big map an edit that cuts a shared field's goal off from most of the map
/// (whose repair would compute the field in full) does not compute it in the tick: the
/// field is computed again in the background, and answers as a fresh one once taken.
#[test]
fn a_big_maps_field_cut_off_is_computed_again_in_the_background() {
    let mut grid = Grid::new(640, 420).unwrap();
    for y in (0..420).filter(|&y| y != 210) {
        grid.set(Cell::new(40, y), TileKind::K1).unwrap();
    }
    let goal = Cell::new(5, 210);
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid.clone()), settings);
    let spawn_group = |app: &mut App, x: i32| -> Vec<Entity> {
        (0..12)
            .map(|k| {
                let at = Cell::new(x + k, 30 + 25 * k);
                let request = PathRequest::to_cell(goal).with_mobility(MOBILITY);
                app.world_mut().spawn((GridCell(at), request)).id()
            })
            .collect()
    };
    let far = spawn_group(&mut app, 300);
    tick_until(&mut app, "the first field", |app| {
        app.world().resource::<PathingDiagnostics>().fields_built == 1
    });
    let found = |app: &App, u: Entity| app.world().get::<PathStatus>(u) == Some(&PathStatus::Found);
    assert!(far.iter().all(|&u| found(&app, u)));
    // The gap closed: everything right of the wall is cut off from the goal.
    let gap = Cell::new(40, 210);
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(gap, TileKind::K1)
        .unwrap();
    grid.set(gap, TileKind::K1).unwrap();
    ticks(&mut app, 1);
    let d = *app.world().resource::<PathingDiagnostics>();
    // Built again in the background; on a task pool without threads of its own (Bevy
    // without `multi_threaded`), where a task runs as it is spawned, built already.
    assert_eq!(d.fields_building + d.fields_built, 1, "{d:?}");
    assert!(
        d.expanded < grid.len() as u64 / 8,
        "no full computation counted in the tick: {d:?}"
    );
    tick_until(&mut app, "the field computed again", |app| {
        app.world().resource::<PathingDiagnostics>().fields_building == 0
    });
    // Units on the goal's side are served from it as from a fresh field.
    let near = spawn_group(&mut app, 10);
    tick_until(&mut app, "the near group's answers", |app| {
        near.iter().all(|&u| found(app, u))
    });
    let mut fresh = DistanceField::new(&grid, MOBILITY, Connectivity::Four);
    fresh.add_goal(goal, 0);
    fresh.compute(&grid).unwrap();
    for &u in &near {
        let start = app.world().get::<GridCell>(u).unwrap().0;
        let path = app.world().get::<UnitPath>(u).unwrap();
        assert_eq!(
            Some(path.route_cost),
            fresh.distance(start).map(|c| c as f32)
        );
    }
}
