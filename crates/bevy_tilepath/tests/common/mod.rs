//! Shared helpers for the plugin's headless tests.
#![allow(dead_code, unreachable_pub, unused_imports)]

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::*;
use rand::RngExt;
use rand::rngs::StdRng;

/// The default settings without the time cap: the requests a test makes are served
/// in the ticks it runs however slow the build (debug, on a loaded machine), for
/// tests of what is served rather than of when.
pub fn uncapped() -> PathingSettings {
    PathingSettings {
        time_cap: None,
        ..default()
    }
}

/// A headless app with the plugin where every `update()` runs exactly one fixed tick.
pub fn app(grid: Option<Grid>, settings: PathingSettings) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PathingPlugin::default()))
        .insert_resource(settings)
        .insert_resource(TimeUpdateStrategy::ManualDuration(
            Time::<Fixed>::from_hz(60.0).timestep(),
        ));
    if let Some(g) = grid {
        app.insert_resource(PathingGrid::new(g));
    }
    app.finish();
    app.cleanup();
    app.update(); // the first update runs no fixed tick
    app
}

/// Runs `n` ticks. A tick after which a crowd's untangling is searched off the tick
/// sleeps a little first, as a game's frame takes its time: a debug build's search
/// takes seconds, which ticks run back to back would not leave it.
pub fn ticks(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
        if app
            .world()
            .get_resource::<PathingDiagnostics>()
            .is_some_and(|d| d.crowd_searching > 0)
        {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

/// Sets `cell` to `kind` on the app's grid and on `mirror`, the test's copy of it.
pub fn set_cell(app: &mut App, mirror: &mut Grid, cell: Cell, kind: TileKind) {
    app.world_mut()
        .resource_mut::<PathingGrid>()
        .set(cell, kind)
        .unwrap();
    mirror.set(cell, kind).unwrap();
}

/// Ticks until `ready` holds (at most 20 s of wall time, or a panic naming `what`),
/// sleeping between ticks so that builds on the async compute pool can finish.
pub fn tick_until(app: &mut App, what: &str, ready: impl Fn(&App) -> bool) {
    let started = std::time::Instant::now();
    while !ready(app) {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{what} never ready"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
        ticks(app, 1);
    }
}

/// A random grid: K1 walls with probability `walls`, the rest K0/K2 (cost 1 or 4 on
/// [`MOBILITY`]).
pub fn random_grid(w: u32, h: u32, walls: f64, rng: &mut StdRng) -> Grid {
    Grid::from_fn(w, h, |_| {
        if rng.random_bool(walls) {
            TileKind::K1
        } else if rng.random_bool(0.2) {
            TileKind::K2
        } else {
            TileKind::K0
        }
    })
    .unwrap()
}

/// K0 costs 1, K1 is a wall, K2 costs 4, K3 costs 2.
pub const MOBILITY: Mobility = Mobility::new([1, 0, 4, 2]);

pub use tilepath_testkit::rng as seeded;

/// Reference Dijkstra from `from`: the cheapest cost to every cell (entering costs,
/// diagonals `sqrt(2)` times, no corner cutting); `None` if unreachable.
pub fn reference(grid: &Grid, mobility: Mobility, from: Cell, eight: bool) -> Vec<Option<f64>> {
    tilepath_testkit::reference_dijkstra(grid, mobility, from, eight, |_| true)
}

/// Walks `path` from where it was planned, asserting that every step enters a cell
/// `mobility` can enter; returns the cell it ends on.
pub fn walk(grid: &Grid, path: &UnitPath, mobility: Mobility) -> Cell {
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
