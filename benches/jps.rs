//! Jump point search against our A* and `grid_pathfinding`'s jump point search (which
//! cuts corners: its routes may be shorter), whole-grid and 8-connected, on the same
//! queries in the same run.
//!
//! `cargo bench -p tilepath-benches --bench jps`. Groups:
//! - `jps/<map>`: every shared Moving AI map, 300 evenly spaced scenarios a sample
//!   (throughput in queries);
//! - `jps4096/<map>`: 4096x4096 maps, 20 long routes (corner region to corner region):
//!   `32room_000` tiled 8x8, a seeded random map with 25% walls, 6,000 seeded
//!   rectangles with sides of 5 to 44 cells (19% blocked), and an empty map. A*
//!   (seconds a route on the tiled map) and `grid_pathfinding` are timed once per
//!   route, outside criterion.
//!
//! - `jps_rooms/<map>`: with `JPS_BENCH_MAP=PATH`, the map and scenarios the maze
//!   example exports (`maze --map rooms --size 1024 --units 300 --export PATH`: the
//!   big-map scenario's map and far-goal routes), 300 routes.
//!
//! Every group also times jump point search on the grid keeping the mobility's cells as
//! bit rows (`jps8_rows`, [`OpenRows`]), reading their jump distances
//! (`jps8_jumps`, [`JumpDistances`]; built before the group, outside the
//! timings, its build time and the median repair of a one-cell edit printed) and
//! guided by 16 [`Landmarks`] (`jps8_guided`; built before the group, outside the
//! timings, its build time and memory printed).
//!
//! Before each group, the median and mean time of one query over the sample (each
//! query timed alone, the fastest of a few runs) is printed, with the nodes each search
//! expanded. `JPS_BENCH_4096=0` skips the 4096x4096 maps.

mod support;

use support::median_us;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grid_util::point::Point;
use rand::RngExt;
use std::hint::black_box;
use std::time::{Duration, Instant};
use tilepath::{
    AStar, Arrival, Cell, Connectivity, Derived, Grid, Jps, JumpDistances, Landmarks, Mobility,
    OpenRows, PathQuery, Solver, TileKind,
};
use tilepath_testkit::MOVING_AI_MAPS;

const MOBILITY: Mobility = Mobility::FLOOR_ONLY;

/// Landmarks the guided searches take.
const LANDMARKS: usize = 16;

/// Checks that both solvers agree on every query, prints their medians and
/// expansions, and benchmarks them side by side.
fn compare(
    c: &mut Criterion,
    group: &str,
    grid: &Grid,
    queries: &[(Cell, Cell)],
    runs: usize,
    astar_in_criterion: bool,
) {
    let mut astar = AStar::for_grid(grid).unwrap();
    let mut jps = Jps::for_grid(grid).unwrap();
    let built = Instant::now();
    let guide = Landmarks::new(grid, MOBILITY, Connectivity::Eight, LANDMARKS).unwrap();
    let built = built.elapsed();
    let jumps_built = Instant::now();
    let mut jumps = JumpDistances::new(grid, MOBILITY).unwrap();
    let jumps_built = jumps_built.elapsed();
    let repair_us = edit_repair_us(&mut grid.clone(), &mut jumps);
    let (mut a_expanded, mut j_expanded, mut l_expanded) = (0u64, 0u64, 0u64);
    for &(s, g) in queries {
        let a = astar
            .find(
                grid,
                PathQuery::new(s, g, MOBILITY).connectivity(Connectivity::Eight),
            )
            .unwrap();
        let j = jps
            .find(
                grid,
                PathQuery::new(s, g, MOBILITY).connectivity(Connectivity::Eight),
            )
            .unwrap();
        let l = jps
            .find(
                grid,
                PathQuery::new(s, g, MOBILITY)
                    .guided(&guide)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        let d = jps
            .find(
                grid,
                PathQuery::new(s, g, MOBILITY)
                    .jumps(&jumps)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        for (name, r) in [
            ("JPS", &j),
            ("guided JPS", &l),
            ("JPS on jump distances", &d),
        ] {
            assert!(
                (a.cost - r.cost).abs() < 1e-6 * a.cost.max(1.0),
                "{group}: {s} -> {g}: A* {:?}, {name} {:?}",
                (a.arrival, a.cost, a.route_len),
                (r.arrival, r.cost, r.route_len)
            );
        }
        a_expanded += u64::from(a.expanded);
        j_expanded += u64::from(j.expanded);
        l_expanded += u64::from(l.expanded);
    }
    let (a_us, a_mean) = median_us(queries, runs, |s, g| {
        black_box(
            astar
                .find(
                    grid,
                    PathQuery::new(s, g, MOBILITY).connectivity(Connectivity::Eight),
                )
                .unwrap()
                .cost,
        );
    });
    let (j_us, j_mean) = median_us(queries, runs, |s, g| {
        black_box(
            jps.find(
                grid,
                PathQuery::new(s, g, MOBILITY).connectivity(Connectivity::Eight),
            )
            .unwrap()
            .cost,
        );
    });
    let (d_us, d_mean) = median_us(queries, runs, |s, g| {
        black_box(
            jps.find(
                grid,
                PathQuery::new(s, g, MOBILITY)
                    .jumps(&jumps)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap()
            .cost,
        );
    });
    // The peer: its own grid, searched for the same pairs (it cuts corners, so it
    // answers a looser question; its lengths are not compared).
    let peer = support::peer_grid(grid, true);
    let peer_query = |s: Cell, g: Cell| {
        peer.get_path_single_goal(Point::new(s.x, s.y), Point::new(g.x, g.y), false)
    };
    let (p_us, p_mean) = median_us(queries, runs, |s, g| {
        black_box(peer_query(s, g));
    });
    let (l_us, l_mean) = median_us(queries, runs, |s, g| {
        let r = jps
            .find(
                grid,
                PathQuery::new(s, g, MOBILITY)
                    .guided(&guide)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        black_box(r.cost);
    });
    eprintln!(
        "{group}: {} queries; median (mean) per query: A* {a_us:.2} ({a_mean:.2}) us, JPS \
         {j_us:.2} ({j_mean:.2}) us ({:.1}x), on jump distances {d_us:.2} ({d_mean:.2}) us, \
         grid_pathfinding JPS {p_us:.2} ({p_mean:.2}) us, \
         guided JPS {l_us:.2} ({l_mean:.2}) us; expanded: A* {a_expanded}, JPS \
         {j_expanded}, guided {l_expanded} jump points; jump distances built in {:.1} ms, \
         a one-cell edit repaired in {repair_us:.1} us (median); {LANDMARKS} landmarks \
         built in {:.1} ms, {:.1} bytes a cell",
        queries.len(),
        a_us / j_us,
        jumps_built.as_secs_f64() * 1e3,
        built.as_secs_f64() * 1e3,
        guide.memory_bytes() as f64 / grid.len() as f64
    );
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(queries.len() as u64));
    if astar_in_criterion {
        g.bench_function("astar8", |b| {
            b.iter(|| {
                for &(s, t) in queries {
                    black_box(
                        astar
                            .find(
                                grid,
                                PathQuery::new(s, t, MOBILITY).connectivity(Connectivity::Eight),
                            )
                            .unwrap()
                            .cost,
                    );
                }
            })
        });
    }
    g.bench_function("jps8", |b| {
        b.iter(|| {
            for &(s, t) in queries {
                black_box(
                    jps.find(
                        grid,
                        PathQuery::new(s, t, MOBILITY).connectivity(Connectivity::Eight),
                    )
                    .unwrap()
                    .cost,
                );
            }
        })
    });
    // The same grid keeping the mobility's cells as bit rows (as the plugin does):
    // one load a scan word instead of two planes.
    let rows = OpenRows::new(grid, MOBILITY).unwrap();
    g.bench_function("jps8_rows", |b| {
        b.iter(|| {
            for &(s, t) in queries {
                black_box(
                    jps.find(
                        grid,
                        PathQuery::new(s, t, MOBILITY)
                            .rows(&rows)
                            .connectivity(Connectivity::Eight),
                    )
                    .unwrap()
                    .cost,
                );
            }
        })
    });
    g.bench_function("jps8_jumps", |b| {
        b.iter(|| {
            for &(s, t) in queries {
                black_box(
                    jps.find(
                        grid,
                        PathQuery::new(s, t, MOBILITY)
                            .jumps(&jumps)
                            .connectivity(Connectivity::Eight),
                    )
                    .unwrap()
                    .cost,
                );
            }
        })
    });
    if astar_in_criterion {
        g.bench_function("grid_pathfinding_jps", |b| {
            b.iter(|| {
                for &(s, t) in queries {
                    black_box(peer_query(s, t));
                }
            })
        });
    }
    g.bench_function("jps8_guided", |b| {
        b.iter(|| {
            for &(s, t) in queries {
                let r = jps
                    .find(
                        grid,
                        PathQuery::new(s, t, MOBILITY)
                            .guided(&guide)
                            .connectivity(Connectivity::Eight),
                    )
                    .unwrap();
                black_box(r.cost);
            }
        })
    });
    g.finish();
}

/// The median time of a one-cell edit and its undo on `grid` (keeping jump
/// distances), per edit: 200 seeded cells, each toggled open or blocked and back.
fn edit_repair_us(grid: &mut Grid, jumps: &mut JumpDistances) -> f64 {
    let mut rng = tilepath_testkit::rng(11);
    let mut times: Vec<f64> = (0..200)
        .map(|_| {
            let c = tilepath_testkit::random_cell(&mut rng, grid);
            let old = grid.get(c).unwrap();
            let new = if old == TileKind::K0 {
                TileKind::K3
            } else {
                TileKind::K0
            };
            let t = Instant::now();
            grid.set(c, new).unwrap();
            jumps.repair(grid, &[c], usize::MAX).unwrap();
            grid.set(c, old).unwrap();
            jumps.repair(grid, &[c], usize::MAX).unwrap();
            t.elapsed().as_secs_f64() * 1e6 / 2.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn movingai_maps(c: &mut Criterion) {
    const SAMPLE: usize = 300;
    for map in MOVING_AI_MAPS {
        let (grid, scenarios) = support::movingai(map);
        let step = (scenarios.len() / SAMPLE).max(1);
        let queries: Vec<(Cell, Cell)> = scenarios
            .into_iter()
            .step_by(step)
            .take(SAMPLE)
            .map(|(s, g, _)| (s, g))
            .collect();
        compare(c, &format!("jps/{map}"), &grid, &queries, 5, true);
    }
}

/// `count` reachable pairs, start in the top-left eighth of each side and goal in the
/// bottom-right one.
fn long_routes(grid: &Grid, count: usize, seed: u64) -> Vec<(Cell, Cell)> {
    let mut rng = tilepath_testkit::rng(seed);
    let mut jps = Jps::for_grid(grid).unwrap();
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let open_in = |x0: i32, y0: i32, rng: &mut rand::rngs::StdRng| loop {
        let c = Cell::new(
            rng.random_range(x0..x0 + w / 8),
            rng.random_range(y0..y0 + h / 8),
        );
        if grid.is_passable(c, MOBILITY) {
            return c;
        }
    };
    let mut out = Vec::new();
    while out.len() < count {
        let s = open_in(0, 0, &mut rng);
        let g = open_in(w - w / 8, h - h / 8, &mut rng);
        if jps
            .find(
                grid,
                PathQuery::new(s, g, MOBILITY).connectivity(Connectivity::Eight),
            )
            .map(|r| !matches!(r.arrival, Arrival::Closest(_)))
            .unwrap()
        {
            out.push((s, g));
        }
    }
    out
}

fn maps_4096(c: &mut Criterion) {
    if std::env::var("JPS_BENCH_4096").is_ok_and(|v| v == "0") {
        return;
    }
    let room = tilepath_testkit::load_movingai("32room_000.map");
    let (rw, rh) = (room.width() as i32, room.height() as i32);
    let tiled = Grid::from_fn(8 * rw as u32, 8 * rh as u32, |c| {
        room.get(Cell::new(c.x % rw, c.y % rh))
            .unwrap_or(TileKind::K3)
    })
    .unwrap();
    let mut rng = tilepath_testkit::rng(4096);
    let random = Grid::from_fn(4096, 4096, |_| {
        if rng.random_bool(0.25) {
            TileKind::K3
        } else {
            TileKind::K0
        }
    })
    .unwrap();
    let mut rects = Grid::new(4096, 4096).unwrap();
    for _ in 0..6000 {
        let (w, h) = (rng.random_range(5..45), rng.random_range(5..45));
        let min = Cell::new(rng.random_range(0..4096 - w), rng.random_range(0..4096 - h));
        rects.fill_rect(min, Cell::new(min.x + w - 1, min.y + h - 1), TileKind::K3);
    }
    let empty = Grid::new(4096, 4096).unwrap();
    for (name, grid) in [
        ("32room_000x8x8", tiled),
        ("random25", random),
        ("rectangles", rects),
        ("empty", empty),
    ] {
        let queries = long_routes(&grid, 20, 7);
        // A* takes up to seconds a route here: its median above, not criterion's.
        compare(c, &format!("jps4096/{name}"), &grid, &queries, 1, false);
    }
}

/// The maze example's exported map and routes (`JPS_BENCH_MAP=PATH`: `PATH.map` and
/// `PATH.scen`), if asked for.
fn exported_map(c: &mut Criterion) {
    let Ok(base) = std::env::var("JPS_BENCH_MAP") else {
        return;
    };
    let text = std::fs::read_to_string(format!("{base}.map")).expect("PATH.map");
    let body = text.split_once("\nmap\n").expect("a Moving AI map").1;
    let grid = Grid::from_ascii(body, |c| {
        Some(if c == '.' { TileKind::K0 } else { TileKind::K3 })
    })
    .unwrap();
    let scen = std::fs::read_to_string(format!("{base}.scen")).expect("PATH.scen");
    let queries: Vec<(Cell, Cell)> = scen
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<i32> = l.split('\t').filter_map(|x| x.parse().ok()).collect();
            // bucket, width, height, start x, y, goal x, y (the map name is not a number)
            (f.len() >= 7).then(|| (Cell::new(f[3], f[4]), Cell::new(f[5], f[6])))
        })
        .take(300)
        .collect();
    // A* takes milliseconds a route here: its median above, not criterion's.
    compare(c, "jps_rooms/exported", &grid, &queries, 1, false);
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(10)
}

criterion_group! {
    name = benches;
    config = config();
    targets = movingai_maps, exported_map, maps_4096
}
criterion_main!(benches);
