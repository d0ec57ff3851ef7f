//! Games that do unkind things to moving units (issue 36): a wall dropped on the
//! corner of a diagonal step, a unit picked up mid-step and put elsewhere (on its
//! grid, on another grid, on a hex map), a big unit walled over at its start. The
//! follower must never wait forever, never jump, and never be handed a step it
//! rejects.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{MOBILITY, app, ticks};

fn cell(app: &App, unit: Entity) -> Cell {
    app.world().get::<GridCell>(unit).unwrap().0
}

fn status(app: &App, unit: Entity) -> PathStatus {
    *app.world().get::<PathStatus>(unit).unwrap()
}

/// The grid and placement of `unit`'s grid (its [`OnGrid`] map's, or the default's).
fn grid_of(app: &App, unit: Entity) -> (Grid, GridTransform) {
    match app.world().get::<OnGrid>(unit) {
        Some(on) => {
            let map = app.world().get::<PathingMap>(on.0).unwrap();
            (map.grid().grid().clone(), map.transform)
        }
        None => (
            app.world().resource::<PathingGrid>().grid().clone(),
            *app.world().resource::<GridTransform>(),
        ),
    }
}

/// The step from `a` to `b`, if they are neighbours.
fn step_between(a: Cell, b: Cell) -> Option<Direction8> {
    Direction8::ALL
        .into_iter()
        .find(|d| d.offset() == (b.x - a.x, b.y - a.y))
}

/// Runs `n` ticks, checking after each that the unit stayed put or took one step its
/// path's rule allows on its grid (the footprint rule on squares, the hex rule on hex
/// maps), and that it is drawn no further than one step from its cell. Stops early
/// once `done` holds; returns whether it did.
fn walk_legally(app: &mut App, unit: Entity, n: usize, done: impl Fn(&App) -> bool) -> bool {
    let mut at = cell(app, unit);
    for _ in 0..n {
        ticks(app, 1);
        let now = cell(app, unit);
        let (grid, world) = grid_of(app, unit);
        let path = *app.world().get::<UnitPath>(unit).unwrap();
        if now != at {
            let d = step_between(at, now)
                .unwrap_or_else(|| panic!("the unit jumped from {at} to {now}"));
            let legal = world
                .layout
                .can_step(&grid, at, d, path.mobility, path.size);
            assert!(legal, "the unit took an illegal step {d:?} from {at}");
            at = now;
        }
        if let Some(t) = app.world().get::<Transform>(unit) {
            let drawn = t.translation.truncate();
            let centre = world.footprint_to_world(now, path.size);
            let step = world.cell_size.length() * 1.01;
            assert!(
                drawn.distance(centre) <= step,
                "drawn at {drawn}, more than a step from {now} ({centre})"
            );
        }
        if done(app) {
            return true;
        }
    }
    false
}

/// Issue 36, point 1: a wall on a corner cell of a diagonal step ahead (not on a cell
/// the path enters) makes the step illegal; the unit must be planned again rather than
/// wait before the step forever.
#[test]
fn a_wall_on_the_corner_of_a_diagonal_step_is_noticed() {
    let mut app = app(Some(Grid::new(10, 10).unwrap()), PathingSettings::default());
    let goal = Cell::new(6, 6);
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 0)),
            PathRequest::to_cell(goal).with_connectivity(Connectivity::Eight),
            PathFollower::new(2.0),
        ))
        .id();
    ticks(&mut app, 1);
    // The one optimal path is the diagonal; (4, 3) is beside its step (3,3)->(4,4).
    let path = *app.world().get::<UnitPath>(unit).unwrap();
    assert_eq!(path.end, goal);
    assert!(path.steps.iter().all(|d| d == Direction8::UpRight));
    assert!(path.cells_ahead().any(|c| c == Cell::new(4, 4)));
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(Cell::new(4, 3), TileKind::K1)
        .unwrap();
    let arrived = walk_legally(&mut app, unit, 600, |app| cell(app, unit) == goal);
    assert!(
        arrived,
        "the unit waits at {} ({:?})",
        cell(&app, unit),
        status(&app, unit)
    );
    assert_eq!(status(&app, unit), PathStatus::Found);
}

/// A unit on the default grid at (0, 0) walking right at 1 cell a second, ticked until
/// it is between (0, 0) and (1, 0) (its cell is then (1, 0)).
fn mid_step(app: &mut App, on: Option<Entity>) -> Entity {
    let mut unit = app.world_mut().spawn((
        GridCell(Cell::new(0, 0)),
        PathRequest::to_cell(Cell::new(10, 0)),
        PathFollower::new(1.0),
        Transform::default(),
    ));
    if let Some(map) = on {
        unit.insert(OnGrid(map));
    }
    let unit = unit.id();
    ticks(app, 10);
    let follower = app.world().get::<PathFollower>(unit).unwrap();
    assert!(follower.is_moving(), "the unit should be mid-step");
    assert_eq!(cell(app, unit), Cell::new(1, 0));
    unit
}

/// After being put at `put` (walled) mid-step, the unit is a tick later at most one
/// step from there (planned afresh, it may have begun a step out), drawn no further
/// than one tick's walk from `put`'s centre, and walks on to its goal without a jump.
fn starts_afresh(app: &mut App, unit: Entity, put: Cell) {
    ticks(app, 1);
    let now = cell(app, unit);
    assert!(
        now == put || step_between(put, now).is_some(),
        "the unit went from {put} to {now}"
    );
    let (_, world) = grid_of(app, unit);
    let drawn = app.world().get::<Transform>(unit).unwrap().translation;
    // 1 cell a second: a sixtieth of a step in a tick.
    let walked = drawn.truncate().distance(world.cell_to_world(put));
    assert!(
        walked <= world.cell_size.length() / 30.0,
        "drawn {walked} away from where the unit was put: it went back to its old step"
    );
    let goal = Cell::new(10, 0);
    assert!(
        walk_legally(app, unit, 3000, |app| cell(app, unit) == goal),
        "the unit never reached {goal}: at {} ({:?})",
        cell(app, unit),
        status(app, unit)
    );
}

/// Issue 36, point 2: a unit moved by hand mid-step onto a walled cell far away stays
/// where it was put, rather than turning back to the cell its old step began at.
#[test]
fn a_unit_moved_by_hand_mid_step_starts_afresh() {
    let mut app = app(Some(Grid::new(20, 20).unwrap()), PathingSettings::default());
    let unit = mid_step(&mut app, None);
    let put = Cell::new(15, 15);
    app.world_mut().get_mut::<GridCell>(unit).unwrap().0 = put;
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(put, TileKind::K1)
        .unwrap();
    starts_afresh(&mut app, unit, put);
}

/// Issue 36, point 2, on a hex map: the same.
#[test]
fn a_unit_moved_by_hand_mid_step_on_a_hex_map_starts_afresh() {
    let mut app = app(Some(Grid::new(20, 20).unwrap()), PathingSettings::default());
    app.insert_resource(GridTransform {
        origin: Vec2::new(-40.0, 12.0),
        cell_size: Vec2::splat(16.0),
        layout: MapLayout::HexRowOdd,
    });
    let unit = mid_step(&mut app, None);
    let put = Cell::new(15, 15);
    app.world_mut().get_mut::<GridCell>(unit).unwrap().0 = put;
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(put, TileKind::K1)
        .unwrap();
    starts_afresh(&mut app, unit, put);
}

/// Issue 36, point 2, across grids: a unit put on another grid mid-step (its cell
/// unchanged, but walled there) starts afresh on the new grid rather than turning
/// back to a cell of the old one.
#[test]
fn a_unit_put_on_another_grid_mid_step_starts_afresh() {
    let mut app = app(Some(Grid::new(20, 20).unwrap()), PathingSettings::default());
    let placed = |x: f32| GridTransform {
        origin: Vec2::new(x, 0.0),
        ..default()
    };
    let a = app
        .world_mut()
        .spawn(PathingMap::from_grid(Grid::new(20, 20).unwrap()).with_transform(placed(0.0)))
        .id();
    let b = app
        .world_mut()
        .spawn(PathingMap::from_grid(Grid::new(20, 20).unwrap()).with_transform(placed(100.0)))
        .id();
    ticks(&mut app, 1);
    let unit = mid_step(&mut app, Some(a));
    let put = Cell::new(1, 0);
    app.world_mut().get_mut::<OnGrid>(unit).unwrap().0 = b;
    app.world_mut()
        .get_mut::<PathingMap>(b)
        .unwrap()
        .grid_mut()
        .set(put, TileKind::K1)
        .unwrap();
    starts_afresh(&mut app, unit, put);
}

/// Issue 36, point 3, its smallest case: a 2x2 unit at (0, 1) walled over by the wall
/// at (1, 2), heading for (2, 1). (The case was found heading for (2, 2), where the
/// footprint hangs off the grid: a partial path to (2, 1) then; that goal is now
/// refused up front, `NoPath(GoalUnfit)`.)
///
/// ```text
/// y=2  M # M .      M: mud (cost 4), #: wall
/// y=1  . . . .      the unit covers x 0..=1, y 1..=2
/// y=0  . . . M
/// ```
///
/// Stepping down-right to (1, 0) leaves the wall behind; stepping up-right from there
/// to (2, 1) needs the footprint at (1, 1), which covers the wall again: illegal by
/// `Grid::can_step_sized`, yet the solvers' walk-out rule once took it (cheaper than
/// two steps through the mud) and the unit waited before it forever. Now the solver
/// walks out by the follower's rule: right to (1, 1) (the wall still under it), right
/// to (2, 1).
#[test]
fn a_big_unit_walled_over_walks_out_by_the_followers_rule() {
    // `from_ascii` lists rows in increasing y: the picture above upside down.
    let grid = Grid::from_ascii("...M\n....\nM#M.", |c| {
        Some(match c {
            '#' => TileKind::K1,
            'M' => TileKind::K2,
            _ => TileKind::K0,
        })
    })
    .unwrap();
    assert_eq!(grid.get(Cell::new(1, 2)), Some(TileKind::K1));
    let mut app = app(Some(grid.clone()), PathingSettings::default());
    let request = PathRequest::to_cell(Cell::new(2, 2))
        .with_size(2)
        .with_mobility(MOBILITY)
        .with_connectivity(Connectivity::Eight);
    let unfit = app
        .world_mut()
        .spawn((GridCell(Cell::new(0, 1)), request))
        .id();
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 1)),
            PathRequest {
                goal: PathGoal::Cell(Cell::new(2, 1)),
                ..request
            },
            PathFollower::new(3.0),
        ))
        .id();
    ticks(&mut app, 1);
    assert_eq!(
        status(&app, unfit),
        PathStatus::NoPath(NoPathReason::GoalUnfit)
    );
    assert_eq!(status(&app, unit), PathStatus::Found);
    // Every step of the path the unit is given passes the follower's rule.
    let path = *app.world().get::<UnitPath>(unit).unwrap();
    let mut at = path.at;
    for d in path.steps.iter() {
        assert!(
            grid.can_step_sized(at, d, MOBILITY, 2),
            "the path steps {d:?} from {at}, which the follower rejects"
        );
        at = at.step(d);
    }
    assert_eq!(at, Cell::new(2, 1));
    let end = Cell::new(2, 1);
    assert!(
        walk_legally(&mut app, unit, 300, |app| cell(app, unit) == end),
        "the unit is stuck at {}",
        cell(&app, unit)
    );
}
