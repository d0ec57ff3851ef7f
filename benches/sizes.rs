//! Units bigger than one cell: whole-grid 8-connected A* and jump point search for 1x1,
//! 2x2 and 3x3 units on the same queries, and windowed 4-connected A* the same way, on
//! every shared Moving AI map.
//!
//! `cargo bench -p tilepath-benches --bench sizes`. The
//! queries are the map's scenarios (whole-grid) or near pairs within 30 cells
//! (windowed) whose start and goal a 3x3 unit fits and that every size reaches, so
//! that each size answers the same question. Before each group, per size: the median
//! time of one query (each query timed alone, the fastest of 3 runs), the nodes
//! expanded and the time per node; and for sizes 2 and 3 the median and 90th
//! percentile over the queries of a query's time against the same query's for a
//! one-cell unit.

mod support;

use support::{fastest_us, quantile};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tilepath::{
    AStar, Arrival, Cell, Clearance, Connectivity, Grid, Jps, Mobility, OpenRows, PathQuery,
};
use tilepath_testkit::MOVING_AI_MAPS;

const SIZES: [u8; 3] = [1, 2, 3];

/// The solver a group times: an `AStar` or a `Jps`.
type Solver = Box<dyn tilepath::Solver>;

/// One search: whole-grid 8-connected or windowed 4-connected: whether it reached the
/// goal, and the nodes (for `Jps`, jump points) it expanded.
fn search(
    solver: &mut Solver,
    eight: bool,
    foot: tilepath::Footprint<'_>,
    (grid, rows): (&Grid, &OpenRows),
    q: (Cell, Cell),
    m: Mobility,
) -> (bool, u32) {
    let query = PathQuery::new(q.0, q.1, m).rows(rows).sized(foot);
    let connectivity = if eight {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    let r = solver.find(grid, query.connectivity(connectivity)).unwrap();
    (!matches!(r.arrival, Arrival::Closest(_)), r.expanded)
}

fn group(
    c: &mut Criterion,
    name: &str,
    grid: &Grid,
    mobility: Mobility,
    (eight, jumps): (bool, bool),
    candidates: Vec<(Cell, Cell)>,
) {
    // With the mobility's and the sizes' bit rows kept, as the plugin keeps them (jump
    // point search reads those; A* reads the cells and the clearance's values).
    let rows = OpenRows::new(grid, mobility).unwrap();
    let mut clear = Clearance::new(grid, mobility);
    for &n in &SIZES {
        clear.keep_rows(n).unwrap();
    }
    let clear = clear;
    let mut astar: Solver = match (eight, jumps) {
        (_, true) => Box::new(Jps::for_grid(grid).unwrap()),
        (true, false) => Box::new(AStar::for_grid(grid).unwrap()),
        (false, false) => Box::new(AStar::new()),
    };
    let queries: Vec<(Cell, Cell)> = candidates
        .into_iter()
        .filter(|&(s, g)| clear.fits(s, 3) && clear.fits(g, 3))
        .filter(|&q| {
            SIZES.iter().all(|&n| {
                search(
                    &mut astar,
                    eight,
                    clear.footprint(n),
                    (grid, &rows),
                    q,
                    mobility,
                )
                .0
            })
        })
        .take(200)
        .collect();
    if queries.is_empty() {
        eprintln!("{name}: no query a 3x3 unit can make");
        return;
    }
    // Each query timed alone per size (the fastest of 3 runs), and its expansions.
    let per_size: Vec<(Vec<f64>, Vec<u32>)> = SIZES
        .iter()
        .map(|&n| {
            let times = fastest_us(&queries, 3, |s, g| {
                black_box(search(
                    &mut astar,
                    eight,
                    clear.footprint(n),
                    (grid, &rows),
                    (s, g),
                    mobility,
                ));
            });
            let expanded = queries
                .iter()
                .map(|&q| {
                    search(
                        &mut astar,
                        eight,
                        clear.footprint(n),
                        (grid, &rows),
                        q,
                        mobility,
                    )
                    .1
                })
                .collect();
            (times, expanded)
        })
        .collect();
    let (one, _) = &per_size[0];
    let report: Vec<String> = SIZES
        .iter()
        .zip(&per_size)
        .map(|(&n, (times, expanded))| {
            let total: u64 = expanded.iter().map(|&e| u64::from(e)).sum();
            let per_node = times.iter().sum::<f64>() * 1e3 / total.max(1) as f64;
            let mut line = format!(
                "size {n} {:.2} us ({total} expanded, {per_node:.1} ns each)",
                quantile(times.clone(), 0.5)
            );
            if n > 1 {
                // The same query's time against a one-cell unit's.
                let ratios: Vec<f64> = times.iter().zip(one).map(|(t, t1)| t / t1).collect();
                line += &format!(
                    ", per query x{:.2} (p90 x{:.2})",
                    quantile(ratios.clone(), 0.5),
                    quantile(ratios, 0.9)
                );
            }
            line
        })
        .collect();
    eprintln!(
        "{name}: {} queries; median per query: {}",
        queries.len(),
        report.join(", ")
    );
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(queries.len() as u64));
    g.measurement_time(Duration::from_secs(3));
    g.sample_size(10);
    for &n in &SIZES {
        g.bench_function(format!("size{n}"), |b| {
            b.iter(|| {
                for &q in &queries {
                    black_box(search(
                        &mut astar,
                        eight,
                        clear.footprint(n),
                        (grid, &rows),
                        q,
                        mobility,
                    ));
                }
            });
        });
    }
    g.finish();
}

fn sizes(c: &mut Criterion) {
    for map in MOVING_AI_MAPS {
        let (grid, scenarios) = support::movingai(map);
        let name = map.trim_end_matches(".map");
        let stride = (scenarios.len() / 1000).max(1);
        let pairs: Vec<(Cell, Cell)> = scenarios
            .iter()
            .step_by(stride)
            .map(|&(s, g, _)| (s, g))
            .collect();
        group(
            c,
            &format!("sizes_whole8/{name}"),
            &grid,
            Mobility::FLOOR_ONLY,
            (true, false),
            pairs.clone(),
        );
        group(
            c,
            &format!("sizes_jps8/{name}"),
            &grid,
            Mobility::FLOOR_ONLY,
            (true, true),
            pairs,
        );
        let near: Vec<(Cell, Cell)> = scenarios
            .iter()
            .flat_map(|&(s, _, _)| {
                [
                    (s, Cell::new(s.x + 17, s.y + 9)),
                    (s, Cell::new(s.x - 12, s.y + 21)),
                ]
            })
            .collect();
        group(
            c,
            &format!("sizes_window4/{name}"),
            &grid,
            Mobility::FLOOR_ONLY,
            (false, false),
            near,
        );
    }
}

criterion_group!(benches, sizes);
criterion_main!(benches);
