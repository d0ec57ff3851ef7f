//! Components on big grids (more than 2^18 cells): built in the background so that no
//! tick waits for them, brought up to date with the edits made while they were built,
//! and then bounding the searches for goals out of reach, for one-cell units and for
//! big units' footprints alike.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{app, tick_until, ticks};

/// 1024x300 (307,200 cells), split by a wall at x = 512, with a pillar every third
/// cell of every third row (2-wide lanes, where jump points are many), so that a
/// search capped for a goal out of reach does not find a door far from its way.
fn split() -> Grid {
    Grid::from_fn(1024, 300, |c| {
        let pillar = c.x % 3 == 1 && c.y % 3 == 1;
        if c.x == 512 || pillar {
            TileKind::K1
        } else {
            TileKind::K0
        }
    })
    .unwrap()
}

/// A new unit of `size` asking for a far goal across the wall.
fn spawn(app: &mut App, size: u8) -> Entity {
    app.world_mut()
        .spawn((
            GridCell(Cell::new(11, 281)),
            PathRequest::to_cell(Cell::new(1001, 281))
                .with_size(size)
                .with_mode(SearchMode::AStar),
        ))
        .id()
}

/// Requests a far goal across the wall for a new unit of `size`, runs one tick and
/// returns its status and the tick's work.
fn solve(app: &mut App, size: u8) -> (PathStatus, u64) {
    let unit = spawn(app, size);
    ticks(app, 1);
    let work = app.world().resource::<PathingDiagnostics>().expanded;
    let status = *app.world().get::<PathStatus>(unit).unwrap();
    app.world_mut().entity_mut(unit).despawn();
    (status, work)
}

/// Sets the cells of column 512 in rows `ys` to `kind`.
fn door(app: &mut App, ys: core::ops::Range<i32>, kind: TileKind) {
    let mut grid = app.world_mut().resource_mut::<PathingGrid>();
    for y in ys {
        grid.set(Cell::new(512, y), kind).unwrap();
    }
}

/// The first requests start the builds and are answered in the same tick, by a search
/// of everything the unit can reach; a door opened while the components are built
/// (the copy they are built from has none) is caught up with before they are used, so
/// the goals behind it are found; once the door closes again, the same requests cost a
/// bounded search.
#[test]
fn big_grids_build_components_in_the_background() {
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(split()), settings);
    // A 2x2 unit and a one-cell one: each request reads the components of its size
    // (the 2x2 unit its footprints'), and starts their build.
    let big = spawn(&mut app, 2);
    let (status, _) = solve(&mut app, 1);
    assert_eq!(status, PathStatus::Partial(NoPathReason::Unreachable));
    let big = *app.world().get::<PathStatus>(big).unwrap();
    assert_eq!(big, PathStatus::Partial(NoPathReason::Unreachable));
    assert_eq!(
        app.world()
            .resource::<PathingDiagnostics>()
            .components_building,
        2,
        "the first requests start both builds"
    );

    // A 2-wide door while they are built, far from the straight line (a capped search
    // does not find it).
    door(&mut app, 5..7, TileKind::K0);
    tick_until(&mut app, "the components", |app| {
        app.world()
            .resource::<PathingDiagnostics>()
            .components_building
            == 0
    });
    for size in [1, 2] {
        let (status, _) = solve(&mut app, size);
        assert_eq!(status, PathStatus::Found, "size {size} through the door");
    }

    // Closed again: the split is too big to settle in the tick (a search of one
    // side), so the components are built again in the background (requests search
    // meanwhile); once they are, they answer at once.
    door(&mut app, 5..7, TileKind::K1);
    ticks(&mut app, 1);
    tick_until(&mut app, "the components after the split", |app| {
        app.world()
            .resource::<PathingDiagnostics>()
            .components_building
            == 0
    });
    for size in [1, 2] {
        let (status, work) = solve(&mut app, size);
        assert_eq!(status, PathStatus::Partial(NoPathReason::Unreachable));
        // The cap counts jump points, which weigh 4 expansions against the budget.
        assert!(
            work <= 4 * u64::from(tilepath::UNREACHABLE_EXPANSIONS),
            "size {size}: {work} expansions"
        );
    }
}

/// Small grids still build them in the tick that needs them: the first answer already
/// uses them.
#[test]
fn small_grids_build_components_at_once() {
    let mut grid = Grid::new(500, 400).unwrap();
    grid.fill_rect(Cell::new(250, 0), Cell::new(250, 399), TileKind::K1);
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid), settings);
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(10, 150)),
            PathRequest::to_cell(Cell::new(490, 150)).with_mode(SearchMode::AStar),
        ))
        .id();
    ticks(&mut app, 1);
    // Built in this tick (a background build would still be listed until the next
    // tick takes it), and charged to it as a read of every cell.
    let diag = *app.world().resource::<PathingDiagnostics>();
    assert_eq!(diag.components_building, 0);
    assert!(diag.expanded >= 500 * 400, "{} expansions", diag.expanded);
    assert_eq!(
        *app.world().get::<PathStatus>(unit).unwrap(),
        PathStatus::Partial(NoPathReason::Unreachable)
    );
}
