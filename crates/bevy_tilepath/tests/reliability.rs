//! Reproducers of what a hostile game found in the plugin: each failed before its fix.

mod common;

use bevy::prelude::*;
#[cfg(feature = "tilemap")]
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use common::app as new_app;
use common::ticks;

fn status(app: &App, e: Entity) -> PathStatus {
    *app.world().get::<PathStatus>(e).unwrap()
}

fn cell(app: &App, e: Entity) -> Cell {
    app.world().get::<GridCell>(e).unwrap().0
}

fn set(app: &mut App, c: Cell, kind: TileKind) {
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(c, kind)
        .unwrap();
}

/// Issue 36, point 8: a unit whose cell is taken off and put back where it was, after
/// a wall went up on its path meanwhile, is planned again: it saw no edit while it had
/// no cell, and its follower would wait before the wall forever.
#[test]
fn a_unit_whose_cell_comes_back_is_planned_again() {
    let mut app = new_app(Some(Grid::new(10, 10).unwrap()), PathingSettings::default());
    let (start, goal, wall) = (Cell::new(0, 0), Cell::new(6, 0), Cell::new(3, 0));
    let unit = app
        .world_mut()
        .spawn((
            GridCell(start),
            PathRequest::to_cell(goal),
            PathFollower::new(2.0),
        ))
        .id();
    ticks(&mut app, 1);
    let path = *app.world().get::<UnitPath>(unit).unwrap();
    assert!(path.cells_ahead().any(|c| c == wall));
    let at = app.world_mut().entity_mut(unit).take::<GridCell>().unwrap();
    set(&mut app, wall, TileKind::K1);
    ticks(&mut app, 2);
    app.world_mut().entity_mut(unit).insert(at);
    ticks(&mut app, 1);
    let path = *app.world().get::<UnitPath>(unit).unwrap();
    assert!(
        !path.cells_ahead().any(|c| c == wall),
        "the unit kept its path through the wall ({:?})",
        status(&app, unit)
    );
    ticks(&mut app, 300);
    assert_eq!(cell(&app, unit), goal);
}

/// Point 1: a unit that loses its request (or its cell) while it waits in the FIFO is
/// served when the component comes back.
#[test]
fn a_request_removed_while_waiting_is_served_when_it_comes_back() {
    for remove_cell in [false, true] {
        let settings = PathingSettings {
            budget: PathingBudget::Expansions(0),
            time_cap: None,
            ..default()
        };
        let mut app = new_app(Some(Grid::new(40, 40).unwrap()), settings);
        let units: Vec<Entity> = (0..40)
            .map(|i| {
                app.world_mut()
                    .spawn((
                        GridCell(Cell::new(0, i)),
                        PathRequest::to_cell(Cell::new(39, 39 - i)).with_mode(SearchMode::AStar),
                    ))
                    .id()
            })
            .collect();
        ticks(&mut app, 1);
        let last = *units.last().unwrap();
        assert_eq!(status(&app, last), PathStatus::Pending, "still waiting");
        let request = *app.world().get::<PathRequest>(last).unwrap();
        if remove_cell {
            app.world_mut().entity_mut(last).remove::<GridCell>();
        } else {
            app.world_mut().entity_mut(last).remove::<PathRequest>();
        }
        ticks(&mut app, 3);
        if remove_cell {
            app.world_mut()
                .entity_mut(last)
                .insert(GridCell(Cell::new(0, 39)));
        } else {
            app.world_mut().entity_mut(last).insert(request);
        }
        ticks(&mut app, 120);
        assert_eq!(status(&app, last), PathStatus::Found, "served after all");
        let path = app.world().get::<UnitPath>(last).unwrap();
        assert_eq!(path.goal, Cell::new(39, 0));
        assert_eq!(path.at, Cell::new(0, 39));
        let d = *app.world().resource::<PathingDiagnostics>();
        assert_eq!(d.waiting, 0);
    }
}

#[derive(Resource, Default)]
struct WallBetween(Option<Cell>);

fn wall_between(mut wall: ResMut<WallBetween>, mut grid: ResMut<PathingGrid>) {
    if let Some(c) = wall.0.take() {
        grid.set(c, TileKind::K1).unwrap();
    }
}

/// Point 2: a wall built by a system between `Collect` and `Solve` re-plans the units
/// whose path crosses it.
#[test]
fn edits_between_collect_and_solve_are_not_lost() {
    let mut app = new_app(Some(Grid::new(30, 30).unwrap()), PathingSettings::default());
    app.init_resource::<WallBetween>().add_systems(
        FixedUpdate,
        wall_between
            .after(PathingSystems::Collect)
            .before(PathingSystems::Solve),
    );
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 15)),
            PathRequest::to_cell(Cell::new(20, 15)),
        ))
        .id();
    ticks(&mut app, 1);
    let wall = Cell::new(10, 15);
    assert!(
        app.world()
            .get::<UnitPath>(unit)
            .unwrap()
            .cells_ahead()
            .any(|c| c == wall)
    );
    app.world_mut().resource_mut::<WallBetween>().0 = Some(wall);
    ticks(&mut app, 2);
    let path = app.world().get::<UnitPath>(unit).unwrap();
    assert!(path.cells_ahead().all(|c| c != wall), "re-planned round it");
    assert_eq!(path.end, Cell::new(20, 15));
}

/// Point 3: a unit without a path that is moved by hand is planned again.
#[test]
fn a_failed_unit_moved_by_hand_is_planned_again() {
    let mut app = new_app(Some(Grid::new(20, 20).unwrap()), PathingSettings::default());
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(-5, 3)),
            PathRequest::to_cell(Cell::new(10, 10)),
        ))
        .id();
    ticks(&mut app, 1);
    assert_eq!(
        status(&app, unit),
        PathStatus::NoPath(NoPathReason::StartOutsideGrid)
    );
    app.world_mut().get_mut::<GridCell>(unit).unwrap().0 = Cell::new(1, 1);
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::Found);
}

/// Points 4 and 5: a follower never enters a blocked cell, with or without its request,
/// also when the cell it is stepping into is walled on its way.
#[test]
fn followers_never_enter_walls() {
    // 4: the request is removed, then walls appear on the path ahead.
    let mut app = new_app(Some(Grid::new(20, 3).unwrap()), PathingSettings::default());
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 1)),
            PathRequest::to_cell(Cell::new(19, 1)),
            PathFollower::new(20.0),
        ))
        .id();
    ticks(&mut app, 1);
    app.world_mut().entity_mut(unit).remove::<PathRequest>();
    for y in 0..3 {
        set(&mut app, Cell::new(8, y), TileKind::K1);
    }
    for _ in 0..120 {
        ticks(&mut app, 1);
        assert!(cell(&app, unit).x < 8, "walked into the wall");
    }
    assert_eq!(cell(&app, unit), Cell::new(7, 1));

    // 5: a one-wide corridor closed on the cell the unit is stepping into.
    let mut app = app_with_corridor();
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 0)),
            PathRequest::to_cell(Cell::new(19, 0)),
            PathFollower::new(4.0),
        ))
        .id();
    let wall = Cell::new(5, 0);
    let mut guard = 0;
    while cell(&app, unit) != wall {
        ticks(&mut app, 1);
        guard += 1;
        assert!(guard < 200, "never reached the cell");
    }
    set(&mut app, wall, TileKind::K1);
    for _ in 0..120 {
        ticks(&mut app, 1);
        assert_ne!(cell(&app, unit), wall, "went on into the wall");
    }
    assert_eq!(cell(&app, unit), Cell::new(4, 0));
    assert_ne!(status(&app, unit), PathStatus::Found, "the way is closed");
}

fn app_with_corridor() -> App {
    new_app(Some(Grid::new(20, 1).unwrap()), PathingSettings::default())
}

#[cfg(feature = "tilemap")]
fn spawn_map(app: &mut App, size: TilemapSize, missing: TileKind) -> Entity {
    app.world_mut()
        .spawn((
            size,
            TilemapGridSize { x: 16.0, y: 16.0 },
            TilemapTileSize { x: 16.0, y: 16.0 },
            TilemapType::Square,
            TilemapAnchor::Center,
            TileStorage::empty(size),
            Transform::from_xyz(10.0, 20.0, 0.0),
            PathingTilemap::new(|t| TileKind::new(t.0 as u8 % 4).unwrap()).with_missing(missing),
        ))
        .id()
}

#[cfg(feature = "tilemap")]
fn world_of_tile(app: &App, map: Entity, pos: TilePos) -> Vec2 {
    let e = app.world().entity(map);
    let size = e.get::<TilemapSize>().unwrap();
    let grid = e.get::<TilemapGridSize>().unwrap();
    let tile = e.get::<TilemapTileSize>().unwrap();
    let ty = e.get::<TilemapType>().unwrap();
    let anchor = e.get::<TilemapAnchor>().unwrap();
    let t = e.get::<Transform>().unwrap();
    pos.center_in_world(size, grid, tile, ty, anchor) + t.translation.truncate()
}

#[cfg(feature = "tilemap")]
/// Point 6: resizing a (centred) tilemap moves its cells, and the grid transform with
/// them.
#[test]
fn resizing_a_tilemap_updates_the_grid_transform() {
    let mut app = new_app(None, PathingSettings::default());
    let map = spawn_map(&mut app, TilemapSize::new(12, 7), TileKind::K0);
    ticks(&mut app, 1);
    let t = *app.world().resource::<GridTransform>();
    assert_eq!(
        t.cell_to_world(Cell::new(0, 0)),
        world_of_tile(&app, map, TilePos::new(0, 0))
    );
    let big = TilemapSize::new(30, 21);
    app.world_mut()
        .entity_mut(map)
        .insert((big, TileStorage::empty(big)));
    ticks(&mut app, 1);
    let t = *app.world().resource::<GridTransform>();
    for pos in [TilePos::new(0, 0), TilePos::new(29, 20), TilePos::new(7, 3)] {
        let c = Cell::new(pos.x as i32, pos.y as i32);
        assert_eq!(t.cell_to_world(c), world_of_tile(&app, map, pos));
    }
}

#[cfg(feature = "tilemap")]
/// Point 7: a tile moved to another position or another map gives its old cell back.
#[test]
fn a_moved_tile_leaves_no_phantom() {
    let mut app = new_app(None, PathingSettings::default());
    let size = TilemapSize::new(5, 5);
    let map = spawn_map(&mut app, size, TileKind::K2);
    let other = app.world_mut().spawn_empty().id();
    let wall = app
        .world_mut()
        .spawn(TileBundle {
            position: TilePos::new(1, 1),
            texture_index: TileTextureIndex(1),
            tilemap_id: TilemapId(map),
            ..default()
        })
        .id();
    ticks(&mut app, 1);
    let kind = |app: &App, x, y| {
        app.world()
            .resource::<PathingGrid>()
            .get(Cell::new(x, y))
            .unwrap()
    };
    assert_eq!(kind(&app, 1, 1), TileKind::K1);
    assert_eq!(kind(&app, 3, 3), TileKind::K2);
    app.world_mut()
        .get_mut::<TilePos>(wall)
        .unwrap()
        .set_if_neq(TilePos::new(3, 3));
    ticks(&mut app, 1);
    assert_eq!(kind(&app, 1, 1), TileKind::K2, "old cell given back");
    assert_eq!(kind(&app, 3, 3), TileKind::K1);
    app.world_mut().get_mut::<TilemapId>(wall).unwrap().0 = other;
    ticks(&mut app, 1);
    assert_eq!(kind(&app, 3, 3), TileKind::K2, "moved to another map");
    // Despawned after it moved away: its last cell (not where it was first) is freed.
    app.world_mut().get_mut::<TilemapId>(wall).unwrap().0 = map;
    ticks(&mut app, 1);
    assert_eq!(kind(&app, 3, 3), TileKind::K1);
    app.world_mut().despawn(wall);
    ticks(&mut app, 1);
    assert_eq!(kind(&app, 3, 3), TileKind::K2);
}

#[cfg(feature = "tilemap")]
/// Point 8: a tilemap with a side of 0 (spawned so, or resized to it and moved) is an
/// empty grid, not a panic.
#[test]
fn zero_sized_tilemaps_are_empty_grids() {
    let mut app = new_app(None, PathingSettings::default());
    let map = spawn_map(&mut app, TilemapSize::new(0, 5), TileKind::K0);
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 0)),
            PathRequest::to_cell(Cell::new(1, 1)),
        ))
        .id();
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::NoPath(NoPathReason::NoGrid));
    app.world_mut()
        .entity_mut(map)
        .insert(TilemapSize::new(4, 4));
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::Found);
    app.world_mut()
        .entity_mut(map)
        .insert((TilemapSize::new(7, 0), Transform::from_xyz(5.0, 5.0, 0.0)));
    ticks(&mut app, 1);
    assert_eq!(status(&app, unit), PathStatus::NoPath(NoPathReason::NoGrid));
}

/// Point 9: `waiting` counts only units that still wait; field repairs are work.
#[test]
fn diagnostics_add_up() {
    let settings = PathingSettings {
        budget: PathingBudget::Expansions(0),
        time_cap: None,
        ..default()
    };
    let mut app = new_app(Some(Grid::new(30, 30).unwrap()), settings);
    let units: Vec<Entity> = (0..30)
        .map(|i| {
            app.world_mut()
                .spawn((
                    GridCell(Cell::new(0, i)),
                    PathRequest::to_cell(Cell::new(29, i)),
                ))
                .id()
        })
        .collect();
    ticks(&mut app, 1);
    for &e in &units[10..] {
        app.world_mut().despawn(e);
    }
    ticks(&mut app, 1);
    let d = *app.world().resource::<PathingDiagnostics>();
    assert_eq!(d.served, 1);
    assert!(
        d.waiting <= 8,
        "{} waiting of 8 alive and unserved",
        d.waiting
    );

    // A field serving a crowd is repaired after an edit nobody's path crosses (a wall
    // the cells below it now go round): that repair is work done this tick.
    let mut app = new_app(Some(Grid::new(30, 30).unwrap()), common::uncapped());
    for i in 0..20 {
        app.world_mut().spawn((
            GridCell(Cell::new(0, i)),
            PathRequest::to_cell(Cell::new(29, 0)),
        ));
    }
    ticks(&mut app, 2);
    for x in 26..30 {
        set(&mut app, Cell::new(x, 25), TileKind::K1);
    }
    ticks(&mut app, 1);
    let d = *app.world().resource::<PathingDiagnostics>();
    assert_eq!((d.fields_repaired, d.served), (1, 0));
    assert!(d.expanded > 0, "the repair's work is counted");
}

/// Point 10: a budget of 0 serves one request a tick; units with unreachable goals
/// retried after far-away edits never delay a new request.
#[test]
fn budget_floor_and_unreachable_crowds() {
    let settings = PathingSettings {
        budget: PathingBudget::Expansions(0),
        time_cap: None,
        ..default()
    };
    let mut app = new_app(Some(Grid::new(30, 30).unwrap()), settings);
    for i in 0..10 {
        app.world_mut().spawn((
            GridCell(Cell::new(0, i)),
            PathRequest::to_cell(Cell::new(29, i)),
        ));
    }
    for _ in 0..10 {
        ticks(&mut app, 1);
        assert_eq!(app.world().resource::<PathingDiagnostics>().served, 1);
    }

    // 400 units whose goal is walled in; a far-away cell toggled every tick.
    let settings = PathingSettings {
        budget: PathingBudget::Expansions(20_000),
        time_cap: None,
        ..default()
    };
    let mut grid = Grid::new(100, 100).unwrap();
    grid.fill_rect(Cell::new(88, 88), Cell::new(92, 92), TileKind::K1);
    let mut app = new_app(Some(grid), settings);
    for i in 0..400 {
        app.world_mut().spawn((
            GridCell(Cell::new(i % 80, i / 80)),
            PathRequest::to_cell(Cell::new(90, 90)).with_mode(SearchMode::AStar),
        ));
    }
    ticks(&mut app, 300);
    assert_eq!(app.world().resource::<PathingDiagnostics>().waiting, 0);
    let mut newcomer = None;
    for t in 0..20 {
        let kind = if t % 2 == 0 {
            TileKind::K1
        } else {
            TileKind::K0
        };
        set(&mut app, Cell::new(50, 0), kind);
        if t == 10 {
            newcomer = Some(
                app.world_mut()
                    .spawn((
                        GridCell(Cell::new(0, 50)),
                        PathRequest::to_cell(Cell::new(60, 50)),
                    ))
                    .id(),
            );
        }
        ticks(&mut app, 1);
        if let Some(e) = newcomer {
            assert_eq!(status(&app, e), PathStatus::Found, "served at once");
        }
    }
}

/// Issue 21: a goal on the far side of a wall that splits the map costs no whole-grid
/// search (the plugin keeps the mobility's components): a bounded search answers
/// `Partial(Unreachable)` towards the wall; opening a door makes the goal reachable.
#[test]
fn goals_out_of_reach_cost_no_whole_grid_search() {
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut grid = Grid::new(600, 400).unwrap();
    grid.fill_rect(Cell::new(300, 0), Cell::new(300, 399), TileKind::K1);
    let mut app = new_app(Some(grid), settings);
    let spawn = |app: &mut App, i: i32| {
        app.world_mut()
            .spawn((
                GridCell(Cell::new(5, 10 + i * 19)),
                PathRequest::to_cell(Cell::new(590, 390 - i * 19)).with_mode(SearchMode::AStar),
            ))
            .id()
    };
    let first: Vec<Entity> = (0..20).map(|i| spawn(&mut app, i)).collect();
    ticks(&mut app, 1);
    let second: Vec<Entity> = (0..20).map(|i| spawn(&mut app, i)).collect();
    ticks(&mut app, 1);
    // The second crowd came after the components were built: 20 bounded searches
    // (a whole-grid search would expand the 120,000 cells left of the wall, each).
    let expanded = app.world().resource::<PathingDiagnostics>().expanded;
    assert!(
        expanded <= 20 * u64::from(tilepath::UNREACHABLE_EXPANSIONS),
        "{expanded} expansions"
    );
    for &e in first.iter().chain(&second) {
        assert_eq!(
            status(&app, e),
            PathStatus::Partial(NoPathReason::Unreachable)
        );
        let path = app.world().get::<UnitPath>(e).unwrap();
        let nearer = path.end.manhattan(path.goal) < path.at.manhattan(path.goal);
        assert!(nearer, "walks towards the goal: {path:?}");
    }
    // A door: the components are repaired, and the goals are reached.
    set(&mut app, Cell::new(300, 200), TileKind::K0);
    ticks(&mut app, 1);
    for &e in &first {
        assert_eq!(status(&app, e), PathStatus::Found, "through the door");
    }
}
