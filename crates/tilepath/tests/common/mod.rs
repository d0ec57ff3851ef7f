//! Shared helpers of the integration tests: random maps, a plain reference Dijkstra,
//! path validation, and map loading.
#![allow(dead_code, unreachable_pub)]

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::BinaryHeap;
use std::path::PathBuf;
use tilepath::{Cell, Direction8, Grid, GridLayer, PathResult, TileKind};

pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// A random grid: each cell kind 0..=3, with `walls` of them set to kind 3.
pub fn random_grid(rng: &mut StdRng, width: u32, height: u32, walls: f64) -> Grid {
    Grid::from_fn(width, height, |_| {
        if rng.random_bool(walls) {
            TileKind::K3
        } else {
            TileKind::new(rng.random_range(0..3u8)).unwrap()
        }
    })
    .unwrap()
}

/// A random layer; kind 3 is always blocked, the others cost 1..=max (sometimes 0).
pub fn random_layer(rng: &mut StdRng, max: u8) -> GridLayer {
    let mut c = [0u8; 4];
    for k in c.iter_mut().take(3) {
        *k = if rng.random_bool(0.15) {
            0
        } else {
            rng.random_range(1..=max)
        };
    }
    GridLayer::new(c)
}

pub fn random_cell(rng: &mut StdRng, grid: &Grid) -> Cell {
    Cell::new(
        rng.random_range(0..grid.width() as i32),
        rng.random_range(0..grid.height() as i32),
    )
}

/// A reference-search heap entry `(distance, cell index)`: `BinaryHeap` pops the
/// smallest distance first.
#[derive(PartialEq)]
pub struct E(pub f64, pub usize);
impl Eq for E {}
impl PartialOrd for E {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for E {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.0.total_cmp(&self.0)
    }
}

/// Plain Dijkstra from `start` over every cell `allowed` says yes to, 4- or
/// 8-connected (no corner cutting), cost = cost of the entered cell (times sqrt 2 on
/// diagonals). Returns the distance of every cell (`None` = unreachable), row-major.
pub fn reference_dijkstra(
    grid: &Grid,
    layer: GridLayer,
    start: Cell,
    eight: bool,
    allowed: impl Fn(Cell) -> bool,
) -> Vec<Option<f64>> {
    let w = grid.width() as usize;
    let mut dist = vec![None; grid.len()];
    let Some(si) = grid.index_of(start) else {
        return dist;
    };
    let mut heap = BinaryHeap::new();
    dist[si] = Some(0.0);
    heap.push(E(0.0, si));
    let ok = |c: Cell| grid.is_passable(c, layer) && allowed(c);
    while let Some(E(d, i)) = heap.pop() {
        if dist[i].is_some_and(|x| x < d) {
            continue;
        }
        let c = Cell::new((i % w) as i32, (i / w) as i32);
        for dir in Direction8::ALL {
            if dir.is_diagonal() && !eight {
                continue;
            }
            let n = c.step(dir);
            if !ok(n) {
                continue;
            }
            let mut step = f64::from(grid.cost(n, layer));
            if dir.is_diagonal() {
                let (dx, dy) = dir.offset();
                if !ok(Cell::new(c.x + dx, c.y)) || !ok(Cell::new(c.x, c.y + dy)) {
                    continue;
                }
                step *= std::f64::consts::SQRT_2;
            }
            let ni = grid.index_of(n).unwrap();
            let nd = d + step;
            if dist[ni].is_none_or(|x| nd < x - 1e-12) {
                dist[ni] = Some(nd);
                heap.push(E(nd, ni));
            }
        }
    }
    dist
}

/// Walks `dirs` from `start` and checks every step: inside the grid, passable, no
/// corner cutting. Returns (end cell, cost).
pub fn walk(
    grid: &Grid,
    layer: GridLayer,
    start: Cell,
    dirs: impl Iterator<Item = Direction8>,
) -> (Cell, f64) {
    let mut c = start;
    let mut cost = 0.0;
    for d in dirs {
        let n = c.step(d);
        assert!(
            grid.is_passable(n, layer),
            "step {d:?} from {c} enters blocked {n}"
        );
        let mut step = f64::from(grid.cost(n, layer));
        if d.is_diagonal() {
            let (dx, dy) = d.offset();
            assert!(
                grid.is_passable(Cell::new(c.x + dx, c.y), layer)
                    && grid.is_passable(Cell::new(c.x, c.y + dy), layer),
                "diagonal {d:?} from {c} cuts a corner"
            );
            step *= std::f64::consts::SQRT_2;
        }
        cost += step;
        c = n;
    }
    (c, cost)
}

/// Checks that a result's path is valid and that `end`, `cost`, `partial` and the
/// route's length agree with it.
pub fn check_result<P, D>(grid: &Grid, layer: GridLayer, from: Cell, to: Cell, r: &PathResult<P>)
where
    P: Iterator<Item = D> + Copy + ExactSizeIterator,
    D: Into<Direction8>,
{
    let mut p = r.path;
    let n = p.len();
    let (end, cost) = walk(grid, layer, from, (&mut p).map(Into::into));
    assert_eq!(end, r.end, "path from {from} ends elsewhere than reported");
    assert!(
        close(cost, r.cost),
        "path cost {cost} != reported {}",
        r.cost
    );
    assert_eq!(r.partial, end != to);
    assert_eq!(n, (r.route.len as usize).min(56));
    assert_eq!(r.continues(), r.route.len as usize > 56);
    assert_eq!(r.route.reaches_goal, r.route.end == to);
    if !r.continues() {
        assert_eq!(r.route.end, r.end);
        assert!(close(r.route.cost, r.cost));
    }
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

/// `../shared/maps` from the crate, or a clear panic if it is missing.
pub fn maps_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/maps");
    assert!(
        dir.is_dir(),
        "the shared maps are missing: expected them at {} (shared/ beside the clone)",
        dir.display()
    );
    dir
}

/// A Moving AI `.map` as a grid: kind 0 passable (`.`, `G`, `S`), kind 3 blocked.
pub fn load_movingai(name: &str) -> Grid {
    let text = std::fs::read_to_string(maps_dir().join("movingai").join(name)).unwrap();
    let body = text.split_once("\nmap\n").expect("no `map` line").1;
    Grid::from_ascii(body, |c| {
        Some(if matches!(c, '.' | 'G' | 'S') {
            TileKind::K0
        } else {
            TileKind::K3
        })
    })
    .unwrap()
}

/// One Moving AI scenario.
pub struct Scenario {
    pub start: Cell,
    pub goal: Cell,
    pub optimal: f64,
}

pub fn load_scenarios(name: &str) -> Vec<Scenario> {
    let text =
        std::fs::read_to_string(maps_dir().join("movingai").join(format!("{name}.scen"))).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n = |i: usize| f[i].parse::<i32>().unwrap();
            Scenario {
                start: Cell::new(n(4), n(5)),
                goal: Cell::new(n(6), n(7)),
                optimal: f[8].parse().unwrap(),
            }
        })
        .collect()
}

/// The reference maps of quasilyte/pathing: (grid, start, finish).
pub fn load_reference(name: &str) -> (Grid, Cell, Cell) {
    let text =
        std::fs::read_to_string(maps_dir().join("reference").join(format!("{name}.txt"))).unwrap();
    let mut start = Cell::default();
    let mut finish = Cell::default();
    for (y, line) in text.lines().enumerate() {
        for (x, ch) in line.chars().enumerate() {
            match ch {
                'S' => start = Cell::new(x as i32, y as i32),
                'F' => finish = Cell::new(x as i32, y as i32),
                _ => {}
            }
        }
    }
    let grid = Grid::from_ascii(&text, |c| {
        Some(if c == 'x' { TileKind::K1 } else { TileKind::K0 })
    })
    .unwrap();
    (grid, start, finish)
}

/// A perfect maze of `w x h` rooms as a `(2w-1) x (2h-1)` tile grid (rooms at even
/// coordinates, passages between them, kind 3 walls), plus `loops` extra passages.
pub fn maze_grid(rng: &mut StdRng, w: u32, h: u32, loops: f64) -> Grid {
    let (gw, gh) = (2 * w - 1, 2 * h - 1);
    let mut grid = Grid::filled(gw, gh, TileKind::K3).unwrap();
    let mut seen = vec![false; (w * h) as usize];
    let mut stack = vec![(0i32, 0i32)];
    seen[0] = true;
    grid.set(Cell::new(0, 0), TileKind::K0).unwrap();
    while let Some(&(x, y)) = stack.last() {
        let options: Vec<(i32, i32)> = [(1, 0), (0, 1), (-1, 0), (0, -1)]
            .into_iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .filter(|&(nx, ny)| {
                nx >= 0
                    && ny >= 0
                    && nx < w as i32
                    && ny < h as i32
                    && !seen[(ny as u32 * w + nx as u32) as usize]
            })
            .collect();
        if options.is_empty() {
            stack.pop();
            continue;
        }
        let (nx, ny) = options[rng.random_range(0..options.len())];
        seen[(ny as u32 * w + nx as u32) as usize] = true;
        grid.set(Cell::new(2 * nx, 2 * ny), TileKind::K0).unwrap();
        grid.set(Cell::new(x + nx, y + ny), TileKind::K0).unwrap();
        stack.push((nx, ny));
    }
    for y in 0..gh as i32 {
        for x in 0..gw as i32 {
            if (x + y) % 2 == 1 && rng.random_bool(loops) {
                grid.set(Cell::new(x, y), TileKind::K0).unwrap();
            }
        }
    }
    grid
}
