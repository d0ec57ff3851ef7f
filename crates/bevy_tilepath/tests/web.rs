//! The plugin runs where no thread can start, as in a browser: it starts no thread of
//! its own, and with Bevy's task pools given no threads (the web's case: every task
//! runs on the calling thread) it still spreads batches, builds what it builds in the
//! background, pauses long searches at a time cap, and serves every unit.
//!
//! One test in its own binary, so that nothing else starts threads while it counts
//! them.

mod common;

use bevy::app::{TaskPoolOptions, TaskPoolThreadAssignmentPolicy};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::*;
use common::{random_grid, seeded};
use core::time::Duration;
use rand::RngExt;

/// Floor at cost 1 (K0, K2, K3), walls K1: one cost, so that landmark guides and jump
/// distances apply.
const WALKER: Mobility = Mobility::new([1, 0, 1, 1]);

/// The process's threads, from `/proc/self/status` (Linux); `None` elsewhere.
fn threads_now() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
}

/// A pool policy of no threads at all.
fn none() -> TaskPoolThreadAssignmentPolicy {
    TaskPoolThreadAssignmentPolicy {
        min_threads: 0,
        max_threads: 0,
        percent: 0.0,
        on_thread_spawn: None,
        on_thread_destroy: None,
    }
}

/// The cells reachable from `start` (4-neighbours: without corner cutting, the same
/// cells as 8), so that every unit's goal can be reached.
fn reached_from(grid: &Grid, start: Cell) -> Vec<Cell> {
    let mut seen = vec![false; grid.len()];
    seen[grid.index_of(start).unwrap()] = true;
    let mut reached = vec![start];
    let mut next = 0;
    while let Some(&c) = reached.get(next) {
        next += 1;
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let n = Cell::new(c.x + dx, c.y + dy);
            if let Some(i) = grid.index_of(n)
                && !seen[i]
                && grid.is_passable(n, WALKER)
            {
                seen[i] = true;
                reached.push(n);
            }
        }
    }
    reached
}

#[test]
fn the_plugin_starts_no_thread_and_serves_everyone_on_one() {
    let before = threads_now();
    // More than 2^18 cells: the plugin builds landmark guides and jump distances in the
    // background where a pool can run them.
    let side = 520;
    let mut rng = seeded(77);
    let grid = random_grid(side, side, 0.2, &mut rng);
    let centre = (grid.len() / 2..grid.len())
        .filter_map(|i| grid.cell_of(i))
        .find(|&c| grid.is_passable(c, WALKER))
        .unwrap();
    let floor = reached_from(&grid, centre);

    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions {
                io: none(),
                async_compute: none(),
                compute: none(),
                ..default()
            },
        }),
        PathingPlugin::default(),
    ))
    .insert_resource(PathingSettings {
        // Spread every batch over 4 tasks, although the pool has no thread: the caller
        // runs them all.
        threads: 4,
        parallel_min_batch: 2,
        landmarks: 2,
        jump_distances: true,
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    })
    .insert_resource(TimeUpdateStrategy::ManualDuration(
        Time::<Fixed>::from_hz(60.0).timestep(),
    ))
    .insert_resource(PathingGrid::new(grid));
    app.finish();
    app.cleanup();
    app.update();
    // Bevy built without `multi_threaded` (the web's build) has pools that run every
    // task on the caller and report 1 thread; with it, these pools have none.
    let pool_threads = bevy::tasks::ComputeTaskPool::get().thread_num();
    assert!(
        pool_threads <= 1,
        "the compute pool has {pool_threads} threads"
    );

    // Far goals (whole-grid searches, guided once the landmarks are built) and a crowd
    // chasing one target (a distance field).
    let target = app.world_mut().spawn(GridCell(floor[0])).id();
    let mut units = Vec::new();
    for i in 0..600 {
        let at = floor[rng.random_range(0..floor.len())];
        let request = if i % 3 == 0 {
            PathRequest::to_cell(floor[rng.random_range(0..floor.len())])
        } else {
            PathRequest::chase(target)
        };
        let unit = (GridCell(at), request.with_mobility(WALKER));
        units.push(app.world_mut().spawn(unit).id());
    }
    let (mut spread, mut served) = (0, 0);
    for tick in 0..120 {
        // New goals for some units, and the target moves: work for every tick.
        for &e in units.iter().step_by(3).skip(tick % 10).step_by(10) {
            let goal = floor[rng.random_range(0..floor.len())];
            let mut request = app.world_mut().get_mut::<PathRequest>(e).unwrap();
            request.goal = PathGoal::Cell(goal);
        }
        if tick % 4 == 0 {
            let to = floor[rng.random_range(0..floor.len())];
            app.world_mut().get_mut::<GridCell>(target).unwrap().0 = to;
        }
        if tick % 20 == 0 {
            // Edits: the guides and jump distances are repaired.
            let c = floor[rng.random_range(0..floor.len())];
            let _ = app
                .world_mut()
                .resource_mut::<PathingGrid>()
                .set(c, TileKind::K1);
        }
        app.update();
        let d = app.world().resource::<PathingDiagnostics>();
        spread += d.batches_spread;
        served += d.served;
    }
    let d = *app.world().resource::<PathingDiagnostics>();
    let unplanned = units
        .iter()
        .filter(|&&e| {
            !matches!(
                app.world().get::<PathStatus>(e),
                Some(PathStatus::Found | PathStatus::Arrived)
            )
        })
        .count();
    // Under a time cap of zero, on the one thread: every whole-grid search longer
    // than a part pauses and goes on at the next tick (one part a tick), and every
    // unit is served. Twelve far requests: each takes dozens of ticks so.
    app.world_mut().resource_mut::<PathingSettings>().time_cap = Some(Duration::ZERO);
    let mut far = Vec::new();
    for &e in units.iter().step_by(3).take(12) {
        let goal = floor[rng.random_range(0..floor.len())];
        app.world_mut().get_mut::<PathRequest>(e).unwrap().goal = PathGoal::Cell(goal);
        far.push((e, goal));
    }
    let planned_for_new_goal = |app: &App, &(e, goal): &(Entity, Cell)| {
        app.world().get::<PathStatus>(e) != Some(&PathStatus::Pending)
            && app
                .world()
                .get::<UnitPath>(e)
                .is_some_and(|p| p.goal == goal)
    };
    let (mut paused_ticks, mut capped_ticks) = (0, 0);
    while !far.iter().all(|f| planned_for_new_goal(&app, f)) {
        app.update();
        capped_ticks += 1;
        let d = *app.world().resource::<PathingDiagnostics>();
        paused_ticks += u32::from(d.searches_paused > 0);
        assert!(
            capped_ticks < 5_000,
            "requests left waiting under a cap of zero"
        );
    }
    let after = threads_now();
    println!(
        "under a time cap of zero: {} far requests served in {capped_ticks} ticks, \
         {paused_ticks} of them left a search paused",
        far.len()
    );
    assert!(paused_ticks > 0, "no search paused under a cap of zero");
    println!(
        "threads before {before:?}, after {after:?}; compute pool threads \
         {pool_threads}; {served} requests served, {spread} batches spread over 4 tasks \
         run by the caller; guides ready {}, building {}; jump \
         distances building {}; units without a path {unplanned}",
        d.guides, d.guides_building, d.jump_distances_building
    );
    assert!(served >= 600, "only {served} requests served");
    assert!(spread >= 60, "only {spread} batches spread");
    assert_eq!(unplanned, 0, "units left without a path");
    assert_eq!(d.guides, 1, "the landmark guide was not built");
    assert_eq!(d.guides_building + d.jump_distances_building, 0);
    assert_eq!(after, before, "a thread was started");
}
