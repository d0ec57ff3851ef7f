//! Several grids at once: each unit walks on its own grid ([`OnGrid`]), requests never
//! cross grids, a despawned grid fails its units' requests with a reason.

mod common;

use bevy::prelude::*;
#[cfg(feature = "tilemap")]
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use common::{MOBILITY, app, random_grid, reference, seeded, ticks};
use rand::RngExt;

fn status(app: &App, e: Entity) -> PathStatus {
    *app.world().get::<PathStatus>(e).unwrap()
}

/// The cells a unit's path walks through, each checked passable on `grid`.
fn walk(grid: &Grid, path: &UnitPath) -> (Cell, f64) {
    let mut at = path.at;
    let mut cost = 0.0;
    for d in path.steps.iter() {
        at = at.step(d);
        assert!(
            grid.is_passable(at, MOBILITY),
            "the path enters {at:?}, blocked on its grid"
        );
        let k = grid.get(at).unwrap();
        let step = f64::from(MOBILITY.cost(k));
        cost += if d.is_diagonal() {
            step * core::f64::consts::SQRT_2
        } else {
            step
        };
    }
    (at, cost)
}

/// Failures per unit, read from the `PathFailed` messages.
#[derive(Resource, Default)]
struct Failures(Vec<(Entity, NoPathReason)>);

fn record(mut failed: MessageReader<PathFailed>, mut log: ResMut<Failures>) {
    log.0.extend(failed.read().map(|f| (f.entity, f.reason)));
}

/// Three grids (the default one and two grid entities) with different walls, units on
/// each with the same starts and goals: every path is legal and optimal on its own
/// grid, whatever the others hold, and chasing a unit on another grid fails with
/// `TargetOnOtherGrid`. Despawning a grid fails its units once with `GridMissing`
/// and leaves the others alone; a unit on a grid that never existed fails too.
#[test]
fn requests_never_cross_grids_and_despawns_fail_cleanly() {
    let mut rng = seeded(77);
    let grids: Vec<Grid> = (0..3).map(|_| random_grid(30, 30, 0.3, &mut rng)).collect();
    let mut app = app(Some(grids[0].clone()), common::uncapped());
    app.init_resource::<Failures>()
        .add_systems(FixedPostUpdate, record);
    let a = app
        .world_mut()
        .spawn(PathingMap::from_grid(grids[1].clone()))
        .id();
    let b = app
        .world_mut()
        .spawn(PathingMap::from_grid(grids[2].clone()))
        .id();
    let keys = [None, Some(a), Some(b)];
    // Cells free on every grid, so each unit can start there whatever its grid.
    let free: Vec<Cell> = (0..30 * 30)
        .filter_map(|i| grids[0].cell_of(i))
        .filter(|&c| grids.iter().all(|g| g.is_passable(c, MOBILITY)))
        .collect();
    assert!(free.len() > 50);
    let mut units = Vec::new();
    for i in 0..60 {
        let start = free[rng.random_range(0..free.len())];
        // A third share one goal (a distance field per grid).
        let goal = if i % 3 == 0 {
            free[0]
        } else {
            free[rng.random_range(0..free.len())]
        };
        for (g, key) in keys.iter().enumerate() {
            let mut unit = app.world_mut().spawn((
                GridCell(start),
                PathRequest::to_cell(goal).with_mobility(MOBILITY),
            ));
            if let Some(e) = key {
                unit.insert(OnGrid(*e));
            }
            units.push((unit.id(), g, start, goal));
        }
    }
    // A chaser on grid `a` after a target on grid `b`.
    let target = app.world_mut().spawn((GridCell(free[1]), OnGrid(b))).id();
    let chaser = app
        .world_mut()
        .spawn((
            GridCell(free[2]),
            OnGrid(a),
            PathRequest::chase(target).with_mobility(MOBILITY),
        ))
        .id();
    // A unit on an entity that is no grid.
    let nowhere = app.world_mut().spawn_empty().id();
    let lost = app
        .world_mut()
        .spawn((
            GridCell(free[3]),
            OnGrid(nowhere),
            PathRequest::to_cell(free[4]),
        ))
        .id();
    ticks(&mut app, 3);

    let mut differs = 0;
    for &(e, g, start, goal) in &units {
        let want = reference(&grids[g], MOBILITY, start, false)[grids[g].index_of(goal).unwrap()];
        let path = *app.world().get::<UnitPath>(e).unwrap();
        match (status(&app, e), want) {
            (PathStatus::Found, Some(cost)) => {
                let (end, walked) = walk(&grids[g], &path);
                assert_eq!(end, path.end);
                if !path.continues {
                    assert_eq!(end, goal);
                    assert!(
                        (walked - cost).abs() < 1e-3,
                        "grid {g}: cost {walked}, best {cost}"
                    );
                }
                assert!((f64::from(path.route_cost) - cost).abs() < 1e-3);
            }
            (PathStatus::Partial(_) | PathStatus::NoPath(_), None) => {
                walk(&grids[g], &path);
            }
            (s, w) => panic!("unit on grid {g}: {s:?}, but the reference says {w:?}"),
        }
        // The same request on another grid would have had another answer.
        let other = reference(&grids[(g + 1) % 3], MOBILITY, start, false)
            [grids[0].index_of(goal).unwrap()];
        differs += usize::from(other.map(|c| (c * 1e3) as i64) != want.map(|c| (c * 1e3) as i64));
    }
    assert!(
        differs > 20,
        "the grids give different answers often enough to tell"
    );
    assert_eq!(
        status(&app, chaser),
        PathStatus::NoPath(NoPathReason::TargetOnOtherGrid)
    );
    assert_eq!(
        status(&app, lost),
        PathStatus::NoPath(NoPathReason::GridMissing)
    );

    // Every grid has its own diagnostics; the resource adds them up.
    let total = app.world().resource::<PathingDiagnostics>().total_served;
    let on_a = app
        .world()
        .get::<PathingMap>(a)
        .unwrap()
        .diagnostics()
        .total_served;
    let on_b = app
        .world()
        .get::<PathingMap>(b)
        .unwrap()
        .diagnostics()
        .total_served;
    assert!(
        on_a >= 61 && on_b >= 60,
        "served on a: {on_a}, on b: {on_b}"
    );
    assert!(
        total > on_a + on_b + 60,
        "the default grid and the lost unit count too"
    );

    // Grid `a` goes: its units fail once with `GridMissing`; the others are untouched.
    app.world_mut().resource_mut::<Failures>().0.clear();
    let before: Vec<UnitPath> = units
        .iter()
        .map(|u| *app.world().get::<UnitPath>(u.0).unwrap())
        .collect();
    app.world_mut().despawn(a);
    ticks(&mut app, 3);
    let failures = core::mem::take(&mut app.world_mut().resource_mut::<Failures>().0);
    for (i, &(e, g, _, _)) in units.iter().enumerate() {
        let count = failures.iter().filter(|f| f.0 == e).count();
        if g == 1 {
            assert_eq!(
                status(&app, e),
                PathStatus::NoPath(NoPathReason::GridMissing)
            );
            assert_eq!(count, 1, "one PathFailed per unit of the despawned grid");
            assert!(failures.contains(&(e, NoPathReason::GridMissing)));
        } else {
            assert_eq!(count, 0, "a unit on another grid failed");
            assert_eq!(app.world().get::<UnitPath>(e).unwrap(), &before[i]);
        }
    }
    assert!(failures.contains(&(chaser, NoPathReason::GridMissing)));

    // A unit given another grid is planned there.
    let (moved, _, start, goal) = units[1 + 3 * 3]; // a unit of the despawned grid
    app.world_mut().entity_mut(moved).insert(OnGrid(b));
    ticks(&mut app, 1);
    let want = reference(&grids[2], MOBILITY, start, false)[grids[2].index_of(goal).unwrap()];
    match want {
        Some(_) => assert_eq!(status(&app, moved), PathStatus::Found),
        None => assert!(matches!(
            status(&app, moved),
            PathStatus::Partial(_) | PathStatus::NoPath(_)
        )),
    }
    // And one whose grid is removed falls back to nothing but the default grid when
    // `OnGrid` goes.
    app.world_mut().entity_mut(moved).remove::<OnGrid>();
    ticks(&mut app, 1);
    let want = reference(&grids[0], MOBILITY, start, false)[grids[0].index_of(goal).unwrap()];
    assert_eq!(status(&app, moved) == PathStatus::Found, want.is_some());
}

#[cfg(feature = "tilemap")]
/// Two tilemaps, each its own grid (a `PathingMap` on the tilemap), placed apart: each
/// grid mirrors its own map and takes its own world placement; a follower on one walks
/// its map's tile centres. Despawning a map fails its unit's request.
#[test]
fn each_mirrored_map_is_its_own_grid() {
    let mut app = app(None, PathingSettings::default());
    let size = TilemapSize::new(8, 3);
    let mut maps = Vec::new();
    for (m, x) in [(0, -500.0), (1, 500.0)] {
        let map = app
            .world_mut()
            .spawn((
                size,
                TilemapGridSize { x: 16.0, y: 16.0 },
                TilemapTileSize { x: 16.0, y: 16.0 },
                TilemapType::Square,
                TileStorage::empty(size),
                Transform::from_xyz(x, 0.0, 0.0),
                PathingTilemap::new(|t| TileKind::new(t.0 as u8).unwrap()),
                PathingMap::default(),
            ))
            .id();
        for i in 0..size.x * size.y {
            let (tx, ty) = (i % size.x, i / size.x);
            // Map 0: a wall across the middle row but at x = 7; map 1: open.
            let wall = m == 0 && ty == 1 && tx < 7;
            app.world_mut().spawn(TileBundle {
                position: TilePos::new(tx, ty),
                texture_index: TileTextureIndex(u32::from(wall)),
                tilemap_id: TilemapId(map),
                ..default()
            });
        }
        maps.push(map);
    }
    let units: Vec<Entity> = maps
        .iter()
        .map(|&map| {
            app.world_mut()
                .spawn((
                    GridCell(Cell::new(0, 0)),
                    OnGrid(map),
                    PathRequest::to_cell(Cell::new(0, 2)),
                    PathFollower::new(60.0),
                    Transform::default(),
                ))
                .id()
        })
        .collect();
    ticks(&mut app, 1);
    assert!(
        app.world().resource::<PathingGrid>().is_empty(),
        "nothing on the default grid"
    );
    let path = |app: &App, u| app.world().get::<UnitPath>(u).unwrap().route_cost;
    assert_eq!(
        path(&app, units[0]),
        16.0,
        "round the wall at x = 7 on map 0"
    );
    assert_eq!(path(&app, units[1]), 2.0, "straight up on map 1");
    for (i, &map) in maps.iter().enumerate() {
        let t = app.world().get::<PathingMap>(map).unwrap().transform;
        let x = [-500.0, 500.0][i];
        assert_eq!(t.cell_to_world(Cell::new(0, 0)), Vec2::new(x, 0.0));
        assert_eq!(t.cell_size, Vec2::splat(16.0));
    }
    ticks(&mut app, 60);
    for (i, &u) in units.iter().enumerate() {
        assert_eq!(app.world().get::<GridCell>(u).unwrap().0, Cell::new(0, 2));
        let at = app
            .world()
            .get::<Transform>(u)
            .unwrap()
            .translation
            .truncate();
        assert_eq!(
            at,
            Vec2::new([-500.0, 500.0][i], 32.0),
            "on its own map's tiles"
        );
    }
    app.world_mut().despawn(maps[1]);
    app.world_mut()
        .get_mut::<PathRequest>(units[1])
        .unwrap()
        .goal = PathGoal::Cell(Cell::new(5, 0));
    ticks(&mut app, 1);
    assert_eq!(
        status(&app, units[1]),
        PathStatus::NoPath(NoPathReason::GridMissing)
    );
    assert_eq!(
        app.world().get::<GridCell>(units[1]).unwrap().0,
        Cell::new(0, 2)
    );
    // Map 0's unit, on its goal since, is untouched.
    assert_eq!(status(&app, units[0]), PathStatus::Arrived);
}

/// A grid taken away (its `PathingMap` removed) fails its unit; put back, even empty
/// at first, the unit is planned again on it, never on the default grid.
#[test]
fn a_grid_taken_away_and_put_back() {
    let open = Grid::new(10, 10).unwrap();
    // The default grid would give another answer: a wall across it.
    let mut walled = open.clone();
    walled.fill_rect(Cell::new(0, 5), Cell::new(9, 5), TileKind::K1);
    let mut app = app(Some(walled), PathingSettings::default());
    let map = app
        .world_mut()
        .spawn(PathingMap::from_grid(open.clone()))
        .id();
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 0)),
            OnGrid(map),
            PathRequest::to_cell(Cell::new(0, 9)),
        ))
        .id();
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::Found);
    app.world_mut().entity_mut(map).remove::<PathingMap>();
    ticks(&mut app, 2);
    assert_eq!(
        status(&app, unit),
        PathStatus::NoPath(NoPathReason::GridMissing)
    );
    // Back, empty: no grid yet.
    app.world_mut()
        .entity_mut(map)
        .insert(PathingMap::default());
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::NoPath(NoPathReason::NoGrid));
    // Filled: planned on it (straight up; the default grid's wall is not there).
    app.world_mut()
        .get_mut::<PathingMap>(map)
        .unwrap()
        .grid_mut()
        .replace(open);
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::Found);
    assert_eq!(app.world().get::<UnitPath>(unit).unwrap().route_cost, 9.0);
}
