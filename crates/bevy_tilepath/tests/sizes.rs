//! Units bigger than one cell, end to end: each size takes only the corridors it fits,
//! optimally (against a reference Dijkstra over footprints), from searches and shared
//! fields alike; edits that narrow a corridor re-plan in the same tick; the follower
//! walks footprint centres; bad sizes fail with a reason.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{app, ticks};
use tilepath_testkit::{close, reference_dijkstra_sized};

/// A 30x20 floor split by a wall along y = 10, with a 1-wide gap at x = 5 and a 3-wide
/// one at x = 20..=22.
fn split_map() -> Grid {
    let mut grid = Grid::new(30, 20).unwrap();
    for x in 0..30 {
        if x != 5 && !(20..=22).contains(&x) {
            grid.set(Cell::new(x, 10), TileKind::K1).unwrap();
        }
    }
    grid
}

/// Walks `path` checking every step for the whole footprint; returns the end.
fn walk(grid: &Grid, path: &UnitPath) -> Cell {
    let mut at = path.at;
    for d in path.steps {
        assert!(
            grid.can_step_sized(at, d, path.mobility, path.size),
            "size {} steps {d:?} from {at}",
            path.size
        );
        at = at.step(d);
    }
    at
}

#[test]
fn each_size_takes_the_corridors_it_fits_optimally() {
    let grid = split_map();
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        field_threshold: 4,
        ..default()
    };
    let mut app = app(Some(grid.clone()), settings);
    let (from, to) = (Cell::new(4, 2), Cell::new(4, 15));
    let mut units = Vec::new();
    for size in 1..=4u8 {
        for eight in [false, true] {
            let conn = if eight {
                Connectivity::Eight
            } else {
                Connectivity::Four
            };
            let request = PathRequest::to_cell(to)
                .with_size(size)
                .with_connectivity(conn)
                .with_mode(SearchMode::AStar);
            units.push((
                size,
                eight,
                app.world_mut().spawn((GridCell(from), request)).id(),
            ));
        }
    }
    // A crowd of 2x2 units with one goal: served by a shared field for that size.
    let crowd: Vec<Entity> = (0..6)
        .map(|i| {
            let request = PathRequest::to_cell(Cell::new(25, 16)).with_size(2);
            app.world_mut()
                .spawn((GridCell(Cell::new(2 + 3 * i, 3)), request))
                .id()
        })
        .collect();
    ticks(&mut app, 1);
    let diag = *app.world().resource::<PathingDiagnostics>();
    assert!(
        diag.fields_built >= 1 && diag.served_by_field >= 6,
        "{diag:?}"
    );
    for &(size, eight, e) in &units {
        let path = *app.world().get::<UnitPath>(e).unwrap();
        let status = *app.world().get::<PathStatus>(e).unwrap();
        let reference =
            reference_dijkstra_sized(&grid, Mobility::FLOOR_ONLY, size, from, eight, |_| true);
        match reference[grid.index_of(to).unwrap()] {
            Some(cost) => {
                assert_eq!(status, PathStatus::Found, "size {size}");
                assert!(
                    close(f64::from(path.route_cost), cost),
                    "size {size}: {} vs {cost}",
                    path.route_cost
                );
                assert_eq!(walk(&grid, &path), to);
                // Only a one-cell unit takes the narrow gap.
                let narrow = path.cells_ahead().any(|c| c == Cell::new(5, 10));
                assert_eq!(narrow, size == 1, "size {size}");
            }
            None => {
                assert_eq!(size, 4, "the 3-wide gap lets sizes up to 3 through");
                assert_eq!(status, PathStatus::Partial(NoPathReason::Unreachable));
                walk(&grid, &path);
            }
        }
    }
    for &e in &crowd {
        let path = *app.world().get::<UnitPath>(e).unwrap();
        assert_eq!(
            *app.world().get::<PathStatus>(e).unwrap(),
            PathStatus::Found
        );
        assert_eq!(path.size, 2);
        walk(&grid, &path);
        assert!(path.cells_ahead().all(|c| c != Cell::new(5, 10)));
    }
}

#[test]
fn narrowing_a_corridor_replans_big_units_in_the_same_tick() {
    let grid = split_map();
    let mut app = app(Some(grid), PathingSettings::default());
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(24, 4)),
            PathRequest::to_cell(Cell::new(24, 15)).with_size(3),
        ))
        .id();
    ticks(&mut app, 2);
    assert_eq!(
        *app.world().get::<PathStatus>(unit).unwrap(),
        PathStatus::Found
    );
    // Two walls narrow the 3-wide gap to 1: a 3x3 unit no longer fits through.
    {
        let mut grid = app.world_mut().resource_mut::<PathingGrid>();
        grid.set(Cell::new(20, 10), TileKind::K1).unwrap();
        grid.set(Cell::new(22, 10), TileKind::K1).unwrap();
    }
    ticks(&mut app, 1);
    let status = *app.world().get::<PathStatus>(unit).unwrap();
    assert_eq!(status, PathStatus::Partial(NoPathReason::Unreachable));
    let grid = app.world().resource::<PathingGrid>().grid().clone();
    let path = *app.world().get::<UnitPath>(unit).unwrap();
    let end = walk(&grid, &path);
    assert!(end.y < 10, "the partial path stays on the near side: {end}");
}

#[test]
fn the_follower_walks_footprint_centres() {
    let mut app = app(Some(split_map()), PathingSettings::default());
    app.insert_resource(GridTransform {
        origin: Vec2::new(100.0, 50.0),
        cell_size: Vec2::splat(16.0),
        layout: MapLayout::Square,
    });
    let goal = Cell::new(21, 14);
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(21, 2)),
            PathRequest::to_cell(goal).with_size(2),
            PathFollower::new(30.0),
            Transform::default(),
        ))
        .id();
    ticks(&mut app, 120);
    assert_eq!(app.world().get::<GridCell>(unit).unwrap().0, goal);
    let at = app
        .world()
        .get::<Transform>(unit)
        .unwrap()
        .translation
        .truncate();
    // The 2x2 footprint at (21, 14) covers cells 21..=22 by 14..=15: its centre is
    // half a cell right of and above cell (21, 14)'s.
    assert_eq!(at, Vec2::new(100.0 + 21.5 * 16.0, 50.0 + 14.5 * 16.0));
}

#[derive(Resource, Default)]
struct Failures(Vec<(Entity, NoPathReason)>);

fn record(mut failed: MessageReader<PathFailed>, mut log: ResMut<Failures>) {
    log.0.extend(failed.read().map(|f| (f.entity, f.reason)));
}

#[test]
fn bad_sizes_fail_with_a_reason() {
    let mut app = app(Some(split_map()), PathingSettings::default());
    app.init_resource::<Failures>();
    app.add_systems(FixedPostUpdate, record);
    let goal = Cell::new(4, 15);
    let zero = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(4, 2)),
            PathRequest::to_cell(goal).with_size(0),
        ))
        .id();
    let huge = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(4, 2)),
            PathRequest::to_cell(goal).with_size(21),
        ))
        .id();
    ticks(&mut app, 2);
    for e in [zero, huge] {
        assert_eq!(
            *app.world().get::<PathStatus>(e).unwrap(),
            PathStatus::NoPath(NoPathReason::UnitSize)
        );
        assert!(
            app.world()
                .resource::<Failures>()
                .0
                .contains(&(e, NoPathReason::UnitSize))
        );
    }
}

/// A goal out of a big unit's reach (but not of a one-cell unit's) is answered without
/// searching everything the unit can reach: the planner keeps the components of its
/// footprint, repaired with the edits, and caps such searches.
#[test]
fn goals_out_of_a_big_units_reach_cost_a_bounded_search() {
    // A 400x300 open map cut in two by a wall with one gap 2 cells wide.
    let mut grid = Grid::new(400, 300).unwrap();
    for x in 0..400 {
        if x != 200 && x != 201 {
            grid.set(Cell::new(x, 150), TileKind::K1).unwrap();
        }
    }
    let mut app = app(Some(grid), PathingSettings::default());
    let (from, to) = (Cell::new(10, 10), Cell::new(380, 280));
    let big = app
        .world_mut()
        .spawn((GridCell(from), PathRequest::to_cell(to).with_size(3)))
        .id();
    ticks(&mut app, 1);
    assert_eq!(
        *app.world().get::<PathStatus>(big).unwrap(),
        PathStatus::Partial(NoPathReason::Unreachable)
    );
    // The first tick built the clearance and components (their cells count as work);
    // asked again, only the search counts. Without the footprint's components it
    // would expand the whole near half (60,000 cells).
    app.world_mut()
        .get_mut::<PathRequest>(big)
        .unwrap()
        .set_changed();
    ticks(&mut app, 1);
    let diag = *app.world().resource::<PathingDiagnostics>();
    assert_eq!(diag.served, 1, "{diag:?}");
    assert_eq!(
        *app.world().get::<PathStatus>(big).unwrap(),
        PathStatus::Partial(NoPathReason::Unreachable)
    );
    assert!(
        diag.expanded <= u64::from(tilepath::UNREACHABLE_EXPANSIONS) + 20_000,
        "{diag:?}"
    );
    // Widen the gap: the components are repaired and the unit finds its way.
    {
        let mut grid = app.world_mut().resource_mut::<PathingGrid>();
        grid.set(Cell::new(202, 150), TileKind::K0).unwrap();
    }
    app.world_mut()
        .get_mut::<PathRequest>(big)
        .unwrap()
        .set_changed();
    ticks(&mut app, 1);
    assert_eq!(
        *app.world().get::<PathStatus>(big).unwrap(),
        PathStatus::Found
    );
}
