//! Requests end to end: optimal paths, segments, chasing, re-planning, bad input.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{MOBILITY, app, random_grid, reference, seeded, ticks, walk};
use rand::RngExt;

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
        // No time cap: every request is served in the first tick, however slow the
        // build (the cap's own tests are in `serving.rs`).
        let settings = PathingSettings {
            landmarks: if seed % 4 < 2 { 4 } else { 0 },
            jump_distances: seed % 8 >= 4,
            time_cap: None,
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
