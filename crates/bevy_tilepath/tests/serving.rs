//! Serving under the tick's budget and time cap: every request served, in the order
//! it came, whatever the thread count; long searches paused at the cap and taken up
//! at the next turn.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{MOBILITY, app, random_grid, reference, seeded, ticks, walk};
use core::time::Duration;
use rand::RngExt;

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

/// A `side x side` grid of floor (K0) and, one cell in 3.3, walls (K1): for
/// `Mobility::FLOOR_ONLY`, one cost, so that jump point search applies.
fn floor_and_walls(side: u32, seed: u64) -> Grid {
    let mut rng = seeded(seed);
    Grid::from_fn(side, side, |_| {
        if rng.random_bool(0.3) {
            TileKind::K1
        } else {
            TileKind::K0
        }
    })
    .unwrap()
}

/// Under a time cap, a whole-grid search too long for a tick pauses and goes on at its
/// unit's next turn: under a cap of zero each tick runs one part of it, the units are
/// served one after the other in the order they came, and every route is the
/// cheapest (the reference Dijkstra's cost on the grid as it is when served). An edit
/// while a search is paused makes it start over: here the edit opens a straight row
/// to the goal, and the route found takes it. A unit despawned while its search is
/// paused frees the solver a few ticks later.
#[test]
fn long_searches_pause_at_the_time_cap_and_go_on_at_the_next_turn() {
    let floor = Mobility::FLOOR_ONLY;
    let mut grid = floor_and_walls(256, 77);
    let ends: Vec<(Cell, Cell)> = (0..5)
        .map(|i| (Cell::new(0, 20 + 45 * i), Cell::new(255, 20 + 45 * i)))
        .collect();
    for &(a, b) in &ends {
        grid.set(a, TileKind::K0).unwrap();
        grid.set(b, TileKind::K0).unwrap();
    }
    let settings = PathingSettings {
        time_cap: Some(Duration::ZERO),
        ..default()
    };
    let mut app = app(Some(grid.clone()), settings);
    let units: Vec<Entity> = ends
        .iter()
        .map(|&(from, to)| {
            let request = PathRequest::to_cell(to)
                .with_mobility(floor)
                .with_connectivity(Connectivity::Eight);
            app.world_mut().spawn((GridCell(from), request)).id()
        })
        .collect();
    let status = |app: &App, i: usize| *app.world().get::<PathStatus>(units[i]).unwrap();
    let (mut tick, mut paused_ticks, mut edited, mut despawned) = (0, 0, false, false);
    let mut served_at: Vec<Option<usize>> = vec![None; units.len()];
    while (0..units.len()).any(|i| (i != 1 || !despawned) && served_at[i].is_none()) {
        ticks(&mut app, 1);
        tick += 1;
        assert!(tick < 5_000, "searches never ended");
        let d = *app.world().resource::<PathingDiagnostics>();
        assert!(
            d.served <= 1,
            "tick {tick}: {} served under a cap of zero",
            d.served
        );
        if d.searches_paused > 0 {
            paused_ticks += 1;
        }
        for (i, at) in served_at.iter_mut().enumerate() {
            if at.is_none() && !(i == 1 && despawned) && status(&app, i) != PathStatus::Pending {
                *at = Some(tick);
            }
        }
        // Unit 0's search paused: open a straight row to its goal.
        if !edited && d.searches_paused == 1 && served_at[0].is_none() && tick >= 2 {
            let row = ends[0].0.y;
            for x in 0..256 {
                common::set_cell(&mut app, &mut grid, Cell::new(x, row), TileKind::K0);
            }
            edited = true;
        }
        // Unit 1's search under way, paused: despawn it.
        if !despawned && served_at[0].is_some() && d.searches_paused == 1 {
            app.world_mut().despawn(units[1]);
            despawned = true;
        }
    }
    assert!(edited && despawned);
    let order: Vec<usize> = served_at.iter().flatten().copied().collect();
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "served out of order: {served_at:?}"
    );
    for (i, &(from, to)) in ends.iter().enumerate() {
        if i == 1 {
            continue;
        }
        let want = reference(&grid, floor, from, true)[grid.index_of(to).unwrap()].unwrap();
        let path = *app.world().get::<UnitPath>(units[i]).unwrap();
        assert_eq!(status(&app, i), PathStatus::Found, "unit {i}");
        let rel = (f64::from(path.route_cost) - want).abs() / want;
        assert!(rel < 1e-5, "unit {i}: cost {} != {want}", path.route_cost);
        assert_eq!(walk(&grid, &path, floor), path.end, "unit {i}");
    }
    let straight = f64::from(app.world().get::<UnitPath>(units[0]).unwrap().route_cost);
    assert!(
        (straight - 255.0).abs() < 1e-3,
        "unit 0 missed the opened row: {straight}"
    );
    println!(
        "{} units served over {tick} ticks ({served_at:?}), a search paused after {paused_ticks}",
        units.len() - 1
    );
    assert!(
        paused_ticks > 10,
        "searches hardly paused: {paused_ticks} ticks"
    );
    ticks(&mut app, 10);
    let d = *app.world().resource::<PathingDiagnostics>();
    assert_eq!(
        d.searches_paused, 0,
        "the despawned unit's solver is still held"
    );
}

/// A search paused on a grid that is then replaced by another (with a generation of
/// its own that may equal the old one's) starts over on the new grid: the route found
/// is the new grid's cheapest.
#[test]
fn a_search_paused_on_a_replaced_grid_starts_over() {
    let floor = Mobility::FLOOR_ONLY;
    let walls = |seed| {
        let mut g = floor_and_walls(200, seed);
        g.set(Cell::new(0, 100), TileKind::K0).unwrap();
        g.set(Cell::new(199, 100), TileKind::K0).unwrap();
        g
    };
    let (old, mut new) = (walls(5), walls(6));
    // The new grid opens a straight row between the unit and its goal.
    for x in 0..200 {
        new.set(Cell::new(x, 100), TileKind::K0).unwrap();
    }
    let settings = PathingSettings {
        time_cap: Some(Duration::ZERO),
        ..default()
    };
    let mut app = app(Some(old.clone()), settings);
    let (from, to) = (Cell::new(0, 100), Cell::new(199, 100));
    let request = PathRequest::to_cell(to)
        .with_mobility(floor)
        .with_connectivity(Connectivity::Eight);
    let unit = app.world_mut().spawn((GridCell(from), request)).id();
    ticks(&mut app, 1);
    assert_eq!(
        app.world().resource::<PathingDiagnostics>().searches_paused,
        1,
        "the search did not pause on the old grid"
    );
    app.insert_resource(PathingGrid::new(new.clone()));
    let mut n = 0;
    while *app.world().get::<PathStatus>(unit).unwrap() == PathStatus::Pending {
        ticks(&mut app, 1);
        n += 1;
        assert!(n < 2_000, "never served");
    }
    let path = *app.world().get::<UnitPath>(unit).unwrap();
    assert!(
        (f64::from(path.route_cost) - 199.0).abs() < 1e-3,
        "the route is not the new grid's: {}",
        path.route_cost
    );
    assert_eq!(walk(&new, &path, floor), path.end);
}
