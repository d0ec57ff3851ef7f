//! Distance fields on 1000x1000 grids, side by side with
//! `pathfinding::directed::dijkstra::dijkstra_all` on the same grids in the same run.
//!
//! `cargo bench -p tilepath-benches --bench field`. Grids: `open` (every cell passable) and `walls25`
//! (25% walls, the other cells of kinds 0..=2). Mobilities: `4_unit` (4-connected, every
//! passable kind costs 1), `4_costs` (4-connected, kinds cost 1, 2, 3), `8_octile`
//! (8-connected, no corner cutting, cost 1). One goal in the middle, or 16 spread out.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::time::Duration;
use tilepath::{Cell, Connectivity, DistanceField, Grid, Mobility, TileKind};

const SIDE: u32 = 1000;

fn grids() -> [(&'static str, Grid); 2] {
    let mut rng = StdRng::seed_from_u64(42);
    let open = Grid::new(SIDE, SIDE).unwrap();
    let walls = Grid::from_fn(SIDE, SIDE, |_| {
        if rng.random_bool(0.25) {
            TileKind::K3
        } else {
            TileKind::new(rng.random_range(0..3u8)).unwrap()
        }
    })
    .unwrap();
    [("open", open), ("walls25", walls)]
}

fn goals(grid: &Grid, n: usize) -> Vec<Cell> {
    let mobility = Mobility::new([1, 1, 1, 0]);
    let mut rng = StdRng::seed_from_u64(7);
    let mut out = vec![Cell::new(SIDE as i32 / 2, SIDE as i32 / 2)];
    while out.len() < n {
        let c = Cell::new(
            rng.random_range(0..SIDE as i32),
            rng.random_range(0..SIDE as i32),
        );
        if grid.is_passable(c, mobility) {
            out.push(c);
        }
    }
    out.retain(|&c| grid.is_passable(c, mobility));
    out
}

const MOBILITIES: [(&str, [u8; 4], Connectivity); 3] = [
    ("4_unit", [1, 1, 1, 0], Connectivity::Four),
    ("4_costs", [1, 2, 3, 0], Connectivity::Four),
    ("8_octile", [1, 1, 1, 0], Connectivity::Eight),
];

/// `dijkstra_all` from a virtual source whose successors are the goals; the same
/// integer costs as tilepath (cost of the entered cell; 8-connected 2378 / 3363).
fn peer(grid: &Grid, mobility: Mobility, eight: bool, goals: &[Cell]) -> usize {
    let (straight, diagonal) = if eight { (2378u64, 3363u64) } else { (1, 0) };
    let cost = |x: i32, y: i32| u64::from(grid.cost(Cell::new(x, y), mobility));
    let successors = |n: &Option<(i32, i32)>| -> Vec<(Option<(i32, i32)>, u64)> {
        let Some((x, y)) = *n else {
            return goals.iter().map(|g| (Some((g.x, g.y)), 0)).collect();
        };
        // Reverse edges: a neighbour q reaches the goal through n by entering n.
        let enter = cost(x, y);
        let mut out = Vec::with_capacity(8);
        for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
            if cost(x + dx, y + dy) != 0 {
                out.push((Some((x + dx, y + dy)), enter * straight));
            }
        }
        if eight {
            for (dx, dy) in [(1, 1), (-1, 1), (-1, -1), (1, -1)] {
                if cost(x + dx, y + dy) != 0 && cost(x + dx, y) != 0 && cost(x, y + dy) != 0 {
                    out.push((Some((x + dx, y + dy)), enter * diagonal));
                }
            }
        }
        out
    };
    pathfinding::directed::dijkstra::dijkstra_all(&None, successors).len()
}

fn fields(c: &mut Criterion) {
    for (map, grid) in grids() {
        for (name, costs, conn) in MOBILITIES {
            let mobility = Mobility::new(costs);
            for n_goals in [1, 16] {
                let goals = goals(&grid, n_goals);
                let mut field = DistanceField::new(&grid, mobility, conn);
                for &g in &goals {
                    field.add_goal(g, 0);
                }
                let reached = field.compute(&grid).unwrap().cells_updated;
                eprintln!(
                    "{map}/{name}/{n_goals} goals: {reached} cells reached, {:.1} bytes per cell \
                     (field {} + work queues)",
                    field.memory_bytes() as f64 / grid.len() as f64,
                    DistanceField::bytes_per_cell()
                );
                let mut group = c.benchmark_group(format!("field/{map}/{name}"));
                group.sample_size(10);
                group.throughput(criterion::Throughput::Elements(reached as u64));
                group.bench_function(
                    BenchmarkId::new("tilepath", format!("{n_goals}_goals")),
                    |b| b.iter(|| black_box(field.compute(&grid).unwrap().cells_updated)),
                );
                group.bench_function(
                    BenchmarkId::new("pathfinding_dijkstra_all", format!("{n_goals}_goals")),
                    |b| {
                        b.iter(|| {
                            black_box(peer(&grid, mobility, conn == Connectivity::Eight, &goals))
                        })
                    },
                );
                group.finish();
            }
        }
    }
}

fn repairs(c: &mut Criterion) {
    let (_, mut grid) = grids().into_iter().next().unwrap();
    let mut group = c.benchmark_group("field_repair/open");
    group.sample_size(10);
    for (name, costs, conn) in MOBILITIES {
        let mobility = Mobility::new(costs);
        let mut field = DistanceField::new(&grid, mobility, conn);
        field.add_goal(Cell::new(500, 500), 0);
        field.compute(&grid).unwrap();
        // A wall appears and disappears again 300 cells from the goal: two repairs.
        let cell = Cell::new(800, 500);
        group.bench_function(BenchmarkId::new("single_cell_edit_x2", name), |b| {
            b.iter(|| {
                grid.set(cell, TileKind::K3).unwrap();
                let a = field.repair(&grid, &[cell]).unwrap();
                grid.set(cell, TileKind::K0).unwrap();
                let b = field.repair(&grid, &[cell]).unwrap();
                black_box((a, b))
            })
        });
        group.bench_function(BenchmarkId::new("full_compute", name), |b| {
            b.iter(|| black_box(field.compute(&grid).unwrap()))
        });
    }
    group.finish();
}

/// Walking a computed field: 1,000 paths of 56 steps (`path`, or `path8` when
/// 8-connected) from random cells at least 100 steps from the goal, on `walls25`.
fn walks(c: &mut Criterion) {
    let (_, grid) = grids().into_iter().nth(1).unwrap();
    let mut group = c.benchmark_group("field_walk/walls25");
    group.throughput(Throughput::Elements(56_000));
    for (name, costs, conn) in MOBILITIES {
        let mobility = Mobility::new(costs);
        let mut field = DistanceField::new(&grid, mobility, conn);
        field.add_goal(Cell::new(500, 500), 0);
        field.compute(&grid).unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        let mut starts = Vec::new();
        while starts.len() < 1000 {
            let c = Cell::new(
                rng.random_range(0..SIDE as i32),
                rng.random_range(0..SIDE as i32),
            );
            if field.distance(c).is_some_and(|d| d >= 300.0) {
                starts.push(c);
            }
        }
        let eight = conn == Connectivity::Eight;
        for &s in &starts {
            let len = if eight {
                field.path8(s).len()
            } else {
                field.path(s).len()
            };
            assert_eq!(len, 56, "every walk is 56 steps");
        }
        group.bench_function(BenchmarkId::new("56_step_paths_x1000", name), |b| {
            b.iter(|| {
                starts
                    .iter()
                    .map(|&s| {
                        if eight {
                            field.path8(s).len()
                        } else {
                            field.path(s).len()
                        }
                    })
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = fields, repairs, walks
}
criterion_main!(benches);
