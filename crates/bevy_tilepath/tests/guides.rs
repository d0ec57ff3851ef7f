//! Landmark guides (`PathingSettings::landmarks`): built in the background, brought up
//! to date with the edits made while they were built, and then guiding searches to
//! the same answers with less work.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{app, reference, seeded, tick_until, ticks};
use rand::RngExt;

const FLOOR: Mobility = Mobility::FLOOR_ONLY;

/// 240x120: walls at x = 60, 120 and 180, each with one gap, alternately at the
/// bottom and the top, so that long routes snake and the straight-line estimate
/// points every search into dead ends.
fn snake() -> Grid {
    let mut grid = Grid::new(240, 120).unwrap();
    for (i, x) in [60, 120, 180].into_iter().enumerate() {
        let gap = if i % 2 == 0 { 116 } else { 2 };
        for y in 0..120 {
            if !(gap..gap + 3).contains(&y) {
                grid.set(Cell::new(x, y), TileKind::K1).unwrap();
            }
        }
    }
    grid
}

/// Requests `goal` for a new unit at `start`, runs one tick and returns the unit's
/// route cost (if found) and the tick's work.
fn solve(app: &mut App, start: Cell, goal: Cell) -> (Option<f64>, u64) {
    let unit = app
        .world_mut()
        .spawn((
            GridCell(start),
            PathRequest::to_cell(goal)
                .with_mobility(FLOOR)
                .with_connectivity(Connectivity::Eight),
        ))
        .id();
    ticks(app, 1);
    let work = app.world().resource::<PathingDiagnostics>().expanded;
    let found = app.world().get::<PathStatus>(unit) == Some(&PathStatus::Found);
    let cost = found.then(|| f64::from(app.world().get::<UnitPath>(unit).unwrap().route_cost));
    app.world_mut().entity_mut(unit).despawn();
    (cost, work)
}

/// The first far request starts a build and is answered unguided in the same tick; an
/// edit made while the guide is built (a new gap that shortens routes, which a guide
/// of the old grid would overestimate) is repaired before the guide is used; once
/// ready, answers equal a reference Dijkstra and cost far less work than unguided.
#[test]
fn guides_build_in_the_background_and_catch_up_with_edits() {
    let grid = snake();
    let settings = PathingSettings {
        window_distance: 0,
        landmarks: 6,
        ..default()
    };
    let mut guided = app(Some(grid.clone()), settings.clone());
    let (from, to) = (Cell::new(5, 60), Cell::new(235, 60));
    let (cost, _) = solve(&mut guided, from, to);
    let diag = *guided.world().resource::<PathingDiagnostics>();
    assert_eq!(
        diag.guides_building, 1,
        "the first far request starts a build"
    );
    assert_eq!(diag.guides, 0);
    let expected = reference(&grid, FLOOR, from, true)[grid.index_of(to).unwrap()];
    assert!(cost.is_some() && (cost.unwrap() - expected.unwrap()).abs() < 1e-3);

    // Edits after the build took its copy: a gap in the middle of every wall.
    let mut edited = grid.clone();
    for x in [60, 120, 180] {
        for y in 58..61 {
            edited.set(Cell::new(x, y), TileKind::K0).unwrap();
            let mut g = guided.world_mut().resource_mut::<PathingGrid>();
            g.set(Cell::new(x, y), TileKind::K0).unwrap();
        }
    }
    tick_until(&mut guided, "the guide", |app| {
        app.world().resource::<PathingDiagnostics>().guides > 0
    });
    assert_eq!(
        guided
            .world()
            .resource::<PathingDiagnostics>()
            .guides_building,
        0
    );

    let mut plain = app(
        Some(edited.clone()),
        PathingSettings {
            landmarks: 0,
            ..settings
        },
    );
    let mut rng = seeded(7);
    let (mut guided_work, mut plain_work, mut checked) = (0, 0, 0);
    for _ in 0..40 {
        let cell = |rng: &mut rand::rngs::StdRng, xs: core::ops::Range<i32>| loop {
            let c = Cell::new(rng.random_range(xs.clone()), rng.random_range(0..120));
            if edited.is_passable(c, FLOOR) {
                break c;
            }
        };
        let (start, goal) = (cell(&mut rng, 0..60), cell(&mut rng, 181..240));
        let expected = reference(&edited, FLOOR, start, true)[edited.index_of(goal).unwrap()];
        let (a, wa) = solve(&mut guided, start, goal);
        let (b, wb) = solve(&mut plain, start, goal);
        let (a, b, e) = (a.unwrap(), b.unwrap(), expected.unwrap());
        assert!((a - e).abs() < 1e-3, "guided {a} != reference {e}");
        assert!((b - e).abs() < 1e-3, "unguided {b} != reference {e}");
        guided_work += wa;
        plain_work += wb;
        checked += 1;
    }
    assert_eq!(checked, 40);
    assert!(
        guided_work * 2 < plain_work,
        "guided searches did {guided_work} work, unguided {plain_work}"
    );
}
