//! Single-pair search, side by side with peer crates on the same maps in the same run.
//!
//! `cargo bench -p tilepath-benches --bench search`. Groups:
//! - `reference/<map>`: the zero-allocation pathfinding reference maps (4-connected):
//!   tilepath greedy, windowed A* and whole-grid A*, next to `pathfinding::astar` and
//!   `grid_pathfinding` (4-grid) on the same start and finish.
//! - `movingai/<map>`: whole-grid 8-connected A* over a fixed sample of scenarios, next
//!   to `grid_pathfinding` (JPS, 8-grid) and `pathfinding::astar` (8-connected).

mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use grid_util::point::Point;
use std::hint::black_box;
use std::time::Duration;
use tilepath::{AStar, Cell, Connectivity, Greedy, Mobility, PathQuery, Solver};
use tilepath_testkit::MOVING_AI_MAPS;

const REFERENCE: [(&str, &str, usize); 5] = [
    ("no_walls", "no_walls", 0),
    ("simple_wall", "simple_wall", 0),
    ("pocket_wall", "pocket_wall", 0),
    ("multi_wall", "multi_wall", 0),
    ("large_map", "multi_wall", 2000),
];

/// `pathfinding::astar` over a `Vec<bool>` grid, 4- or 8-connected without corner
/// cutting, integer costs (8-connected: 2378 straight, 3363 diagonal, as tilepath).
fn peer_astar(open: &[bool], w: i32, h: i32, from: Cell, to: Cell, eight: bool) -> Option<u32> {
    let ok = |x: i32, y: i32| x >= 0 && y >= 0 && x < w && y < h && open[(y * w + x) as usize];
    let (straight, diagonal) = if eight { (2378u32, 3363u32) } else { (1, 0) };
    let successors = |&(x, y): &(i32, i32)| {
        let mut out = [((0, 0), 0u32); 8];
        let mut n = 0;
        for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
            if ok(x + dx, y + dy) {
                out[n] = ((x + dx, y + dy), straight);
                n += 1;
            }
        }
        if eight {
            for (dx, dy) in [(1, 1), (-1, 1), (-1, -1), (1, -1)] {
                if ok(x + dx, y + dy) && ok(x + dx, y) && ok(x, y + dy) {
                    out[n] = ((x + dx, y + dy), diagonal);
                    n += 1;
                }
            }
        }
        out.into_iter().take(n)
    };
    let heuristic = |&(x, y): &(i32, i32)| {
        let (dx, dy) = (x.abs_diff(to.x), y.abs_diff(to.y));
        if eight {
            straight * dx.max(dy) + (diagonal - straight) * dx.min(dy)
        } else {
            dx + dy
        }
    };
    pathfinding::prelude::astar(&(from.x, from.y), successors, heuristic, |&p| {
        p == (to.x, to.y)
    })
    .map(|(path, _)| path.len() as u32)
}

fn reference_maps(c: &mut Criterion) {
    let mut greedy = Greedy::new();
    let mut astar = AStar::new();
    let mut whole = AStar::whole_grid();
    for (name, file, pad) in REFERENCE {
        let (grid, from, to, _) = support::reference(file, pad);
        let mobility = Mobility::FLOOR_ONLY;
        let open = support::passable(&grid);
        let peer = support::peer_grid(&grid, false);
        let (w, h) = (grid.width() as i32, grid.height() as i32);
        let a = astar
            .find(&grid, PathQuery::new(from, to, mobility))
            .unwrap();
        let g = greedy
            .find(&grid, PathQuery::new(from, to, mobility))
            .unwrap();
        eprintln!(
            "{name}: A* {} steps, {} expanded; greedy {} steps, {} expanded",
            a.route_len, a.expanded, g.route_len, g.expanded
        );
        let mut group = c.benchmark_group(format!("reference/{name}"));
        group.bench_function("tilepath_greedy", |b| {
            b.iter(|| {
                black_box(
                    greedy
                        .find(&grid, PathQuery::new(black_box(from), to, mobility))
                        .unwrap()
                        .end,
                )
            })
        });
        group.bench_function("tilepath_astar", |b| {
            b.iter(|| {
                black_box(
                    astar
                        .find(&grid, PathQuery::new(black_box(from), to, mobility))
                        .unwrap()
                        .end,
                )
            })
        });
        group.bench_function("tilepath_astar_whole_grid", |b| {
            b.iter(|| {
                black_box(
                    whole
                        .find(&grid, PathQuery::new(black_box(from), to, mobility))
                        .unwrap()
                        .end,
                )
            })
        });
        group.bench_function("pathfinding_astar", |b| {
            b.iter(|| black_box(peer_astar(&open, w, h, black_box(from), to, false)))
        });
        group.bench_function("grid_pathfinding", |b| {
            b.iter(|| {
                black_box(peer.get_path_single_goal(
                    Point::new(black_box(from.x), from.y),
                    Point::new(to.x, to.y),
                    false,
                ))
            })
        });
        group.finish();
    }
}

fn movingai_maps(c: &mut Criterion) {
    const SAMPLE: usize = 100;
    for map in MOVING_AI_MAPS {
        let (grid, scenarios) = support::movingai(map);
        let step = (scenarios.len() / SAMPLE).max(1);
        let sample: Vec<(Cell, Cell, f64)> =
            scenarios.into_iter().step_by(step).take(SAMPLE).collect();
        let mut astar = AStar::for_grid(&grid).unwrap();
        let mobility = Mobility::FLOOR_ONLY;
        let expanded: u64 = sample
            .iter()
            .map(|&(s, g, _)| {
                u64::from(
                    astar
                        .find(
                            &grid,
                            PathQuery::new(s, g, mobility).connectivity(Connectivity::Eight),
                        )
                        .unwrap()
                        .expanded,
                )
            })
            .sum();
        eprintln!(
            "{map}: {} scenarios, {expanded} nodes expanded in all",
            sample.len()
        );
        let open = support::passable(&grid);
        let peer = support::peer_grid(&grid, true);
        let (w, h) = (grid.width() as i32, grid.height() as i32);
        let mut group = c.benchmark_group(format!("movingai/{map}"));
        group.bench_function("tilepath_astar8", |b| {
            b.iter(|| {
                for &(s, g, _) in &sample {
                    black_box(
                        astar
                            .find(
                                &grid,
                                PathQuery::new(s, g, mobility).connectivity(Connectivity::Eight),
                            )
                            .unwrap()
                            .cost,
                    );
                }
            })
        });
        group.bench_function("grid_pathfinding_jps", |b| {
            b.iter(|| {
                for &(s, g, _) in &sample {
                    black_box(peer.get_path_single_goal(
                        Point::new(s.x, s.y),
                        Point::new(g.x, g.y),
                        false,
                    ));
                }
            })
        });
        group.bench_function("pathfinding_astar8", |b| {
            b.iter(|| {
                for &(s, g, _) in &sample {
                    black_box(peer_astar(&open, w, h, s, g, true));
                }
            })
        });
        group.finish();
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = reference_maps, movingai_maps
}
criterion_main!(benches);
