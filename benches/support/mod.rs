//! Map loading shared by the benchmarks: the tests' loaders (`tilepath_testkit`), and
//! the reference maps padded into `large_map`.
#![allow(dead_code, unreachable_pub)]

use std::time::Instant;
use tilepath::{Cell, Grid, TileKind};
pub use tilepath_testkit::{load_movingai, load_scenarios, maps_dir};

/// A reference map (`x` = wall) with its start `S` and finish `F`; `pad` spaces are
/// added to the right of every row (2000 makes `large_map` from `multi_wall`).
pub fn reference(name: &str, pad: usize) -> (Grid, Cell, Cell, String) {
    let text = std::fs::read_to_string(maps_dir().join(format!("reference/{name}.txt"))).unwrap();
    let text: String = text
        .lines()
        .map(|l| format!("{l}{}\n", " ".repeat(pad)))
        .collect();
    let find = |ch| {
        text.lines()
            .enumerate()
            .find_map(|(y, l)| l.find(ch).map(|x| Cell::new(x as i32, y as i32)))
            .unwrap()
    };
    let grid = Grid::from_ascii(&text, |c| {
        Some(if c == 'x' { TileKind::K1 } else { TileKind::K0 })
    })
    .unwrap();
    (grid, find('S'), find('F'), text)
}

/// A Moving AI map (kind 0 passable, kind 3 blocked) and its scenarios
/// `(start, goal, optimal length)`.
pub fn movingai(name: &str) -> (Grid, Vec<(Cell, Cell, f64)>) {
    let scenarios = load_scenarios(name)
        .into_iter()
        .map(|s| (s.start, s.goal, s.optimal))
        .collect();
    (load_movingai(name), scenarios)
}

/// Passability as a plain `Vec<bool>` (row-major), for the peer crates.
pub fn passable(grid: &Grid) -> Vec<bool> {
    (0..grid.len())
        .map(|i| grid.is_passable(grid.cell_of(i).unwrap(), tilepath::Mobility::FLOOR_ONLY))
        .collect()
}

/// `grid_pathfinding`'s grid of `grid`'s passable cells (`eight`: diagonal moves,
/// which it makes cutting corners), with its components, ready to search.
pub fn peer_grid(grid: &Grid, eight: bool) -> grid_pathfinding::PathingGrid {
    use grid_util::grid::ValueGrid;
    let open = passable(grid);
    let mut g =
        grid_pathfinding::PathingGrid::new(grid.width() as usize, grid.height() as usize, false);
    for (i, &o) in open.iter().enumerate() {
        let c = grid.cell_of(i).unwrap();
        g.set(c.x, c.y, !o);
    }
    g.allow_diagonal_move = eight;
    g.initialize();
    g.generate_components();
    g
}

/// The fastest of `runs` timings of `query` on each of `queries`, in microseconds.
pub fn fastest_us(
    queries: &[(Cell, Cell)],
    runs: usize,
    mut query: impl FnMut(Cell, Cell),
) -> Vec<f64> {
    queries
        .iter()
        .map(|&(s, g)| {
            (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    query(s, g);
                    t.elapsed().as_secs_f64() * 1e6
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect()
}

/// The value at fraction `q` (0.5: the median) of `values` (not empty), sorted.
pub fn quantile(mut values: Vec<f64>, q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    values[((values.len() - 1) as f64 * q).round() as usize]
}

/// Median and mean over `queries` of the fastest of `runs` timings of `query`, in
/// microseconds.
pub fn median_us(
    queries: &[(Cell, Cell)],
    runs: usize,
    query: impl FnMut(Cell, Cell),
) -> (f64, f64) {
    let times = fastest_us(queries, runs, query);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    (quantile(times, 0.5), mean)
}
