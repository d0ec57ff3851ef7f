//! Crowds planned on the compute pool: an app whose compute pool has a thread for
//! every core leaves the main thread no core of its own, so the crowds' planning
//! takes a pool thread instead (`plan_on_main`). The units still never share a cell
//! and all get home.
//!
//! One test in its own binary: the task pools are the process's, made once.

mod common;

use std::collections::HashSet;

use bevy::app::{TaskPoolOptions, TaskPoolThreadAssignmentPolicy};
use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, available_parallelism};
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::*;
use common::{ticks, uncapped};

/// Two groups of 20 swap sides through a corridor one cell wide, with a compute pool
/// of one thread a core: after every tick no two units stand on one cell, and within
/// 12,000 ticks every unit stands on its goal.
#[test]
fn crowds_planned_on_a_pool_as_big_as_the_machine() {
    let cores = available_parallelism();
    let all = TaskPoolThreadAssignmentPolicy {
        min_threads: cores,
        max_threads: cores,
        percent: 1.0,
        on_thread_spawn: None,
        on_thread_destroy: None,
    };
    // Two rooms of 12x12 joined by a corridor 20 cells long at y = 6.
    let mut grid = Grid::filled(44, 12, TileKind::K1).unwrap();
    grid.fill_rect(Cell::new(0, 0), Cell::new(11, 11), TileKind::K0);
    grid.fill_rect(Cell::new(32, 0), Cell::new(43, 11), TileKind::K0);
    grid.fill_rect(Cell::new(12, 6), Cell::new(31, 6), TileKind::K0);
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions {
                compute: all,
                ..default()
            },
        }),
        PathingPlugin::default(),
    ))
    .insert_resource(uncapped())
    .insert_resource(PathingGrid::new(grid))
    .insert_resource(TimeUpdateStrategy::ManualDuration(
        Time::<Fixed>::from_hz(60.0).timestep(),
    ));
    app.finish();
    app.cleanup();
    app.update();
    let compute = ComputeTaskPool::get().thread_num();
    // Where the build runs systems on threads at all (Bevy's `multi_threaded`), the
    // pool has a thread a core, and the planning is the pool's.
    if compute > 1 {
        assert!(
            compute >= cores,
            "compute pool {compute} threads, {cores} cores"
        );
    }
    let mut units = Vec::new();
    for i in 0..20 {
        let (x, y) = (i % 7, i / 7);
        for (from, to) in [
            (Cell::new(x, y), Cell::new(43 - x, 11 - y)),
            (Cell::new(43 - x, 11 - y), Cell::new(x, y)),
        ] {
            let unit = app
                .world_mut()
                .spawn((
                    GridCell(from),
                    PathRequest::to_cell(to).with_mobility(Mobility::FLOOR_ONLY),
                    PathFollower::new(6.0),
                    Solid,
                ))
                .id();
            units.push((unit, to));
        }
    }
    let (mut home_at, mut steps) = (None, 0);
    for tick in 0..12_000 {
        ticks(&mut app, 1);
        if app.world().resource::<PathingDiagnostics>().crowd_moved > 0 {
            steps += 1;
        }
        let cells: Vec<Cell> = units
            .iter()
            .map(|&(u, _)| app.world().get::<GridCell>(u).unwrap().0)
            .collect();
        let distinct: HashSet<Cell> = cells.iter().copied().collect();
        assert_eq!(
            distinct.len(),
            cells.len(),
            "tick {tick}: two units on one cell"
        );
        if units.iter().zip(&cells).all(|(&(_, goal), &c)| c == goal) {
            home_at = Some(tick);
            break;
        }
    }
    println!(
        "crowd on a pool of {compute} threads ({cores} cores): units home after {home_at:?} \
         ticks, {steps} steps"
    );
    assert!(home_at.is_some(), "not every unit got home in 12,000 ticks");
    assert!(steps > 10, "the crowd hardly stepped: {steps} steps");
}
