//! Seeded random grids, mobilities, cells and mazes.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tilepath::{Cell, Grid, Mobility, TileKind};

/// A generator seeded with `seed`: the same seed gives the same maps.
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

/// A random mobility; kind 3 is always blocked, the others cost 1..=max (sometimes 0).
pub fn random_mobility(rng: &mut StdRng, max: u8) -> Mobility {
    let mut c = [0u8; 4];
    for k in c.iter_mut().take(3) {
        *k = if rng.random_bool(0.15) {
            0
        } else {
            rng.random_range(1..=max)
        };
    }
    Mobility::new(c)
}

/// A random cell inside `grid` (which must not be empty).
pub fn random_cell(rng: &mut StdRng, grid: &Grid) -> Cell {
    Cell::new(
        rng.random_range(0..grid.width() as i32),
        rng.random_range(0..grid.height() as i32),
    )
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
