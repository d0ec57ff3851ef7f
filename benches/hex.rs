//! Hex A* beside square 4-connected A* on the same maps and the same start and goal
//! cells, reported per expanded node (criterion's throughput: elements = nodes).
//!
//! `cargo bench -p tilepath-benches --bench hex`. Groups:
//! - `hex/movingai/<map>`: whole-grid A* over a fixed sample of the map's scenarios
//!   (hex steps join every cell 4-connected ones do, so every goal stays reachable).
//! - `hex/window/random200`: windowed A* on a 200x200 map, 20% walls, three costs,
//!   pairs up to 40 cells apart.

mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::RngExt;
use std::hint::black_box;
use std::time::Duration;
use tilepath::{AStar, Cell, Connectivity, Grid, HexLayout, Mobility, PathQuery, Solver};
use tilepath_testkit::{random_cell, random_grid, rng};

const LAYOUTS: [HexLayout; 3] = [HexLayout::Axial, HexLayout::RowOdd, HexLayout::ColumnEven];

/// Times `astar` over `pairs`, square 4-connected and in each of [`LAYOUTS`], each with
/// its own expansions as the throughput.
fn compare(
    c: &mut Criterion,
    name: &str,
    astar: &mut AStar,
    grid: &Grid,
    mobility: Mobility,
    pairs: &[(Cell, Cell)],
) {
    let square: u64 = pairs
        .iter()
        .map(|&(s, g)| {
            u64::from(
                astar
                    .find(grid, PathQuery::new(s, g, mobility))
                    .unwrap()
                    .expanded,
            )
        })
        .sum();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(square));
    group.bench_function("square4", |b| {
        b.iter(|| {
            for &(s, g) in pairs {
                black_box(
                    astar
                        .find(grid, PathQuery::new(s, g, mobility))
                        .unwrap()
                        .cost,
                );
            }
        })
    });
    for layout in LAYOUTS {
        let hex: u64 = pairs
            .iter()
            .map(|&(s, g)| {
                let r = astar
                    .find(
                        grid,
                        PathQuery::new(s, g, mobility).connectivity(Connectivity::Hex(layout)),
                    )
                    .unwrap();
                u64::from(r.expanded)
            })
            .sum();
        eprintln!("{name}: square4 {square} nodes, hex {layout:?} {hex} nodes");
        group.throughput(Throughput::Elements(hex));
        group.bench_function(format!("hex_{layout:?}"), |b| {
            b.iter(|| {
                for &(s, g) in pairs {
                    let r = astar
                        .find(
                            grid,
                            PathQuery::new(s, g, mobility).connectivity(Connectivity::Hex(layout)),
                        )
                        .unwrap();
                    black_box(r.cost);
                }
            })
        });
    }
    group.finish();
}

fn movingai(c: &mut Criterion) {
    const SAMPLE: usize = 100;
    for map in [
        "arena.map",
        "den312d.map",
        "lak303d.map",
        "random512-10-0.map",
    ] {
        let (grid, scenarios) = support::movingai(map);
        let step = (scenarios.len() / SAMPLE).max(1);
        let pairs: Vec<(Cell, Cell)> = scenarios
            .into_iter()
            .step_by(step)
            .take(SAMPLE)
            .map(|(s, g, _)| (s, g))
            .collect();
        let mut astar = AStar::for_grid(&grid).unwrap();
        let name = format!("hex/movingai/{map}");
        compare(c, &name, &mut astar, &grid, Mobility::FLOOR_ONLY, &pairs);
    }
}

fn window(c: &mut Criterion) {
    let mut r = rng(23);
    let grid = random_grid(&mut r, 200, 200, 0.2);
    let mobility = Mobility::new([1, 2, 4, 0]);
    let pairs: Vec<(Cell, Cell)> = (0..300)
        .map(|_| {
            let s = random_cell(&mut r, &grid);
            let g = Cell::new(
                (s.x + r.random_range(-40..=40)).clamp(0, 199),
                (s.y + r.random_range(-40..=40)).clamp(0, 199),
            );
            (s, g)
        })
        .collect();
    let mut astar = AStar::new();
    compare(
        c,
        "hex/window/random200",
        &mut astar,
        &grid,
        mobility,
        &pairs,
    );
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = movingai, window
}
criterion_main!(benches);
