//! Shared helpers for the plugin's headless tests.
#![allow(dead_code, unreachable_pub)]

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::BinaryHeap;

/// A headless app with the plugin where every `update()` runs exactly one fixed tick.
pub fn app(grid: Option<Grid>, settings: PathingSettings) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PathingPlugin::default()))
        .insert_resource(settings)
        .insert_resource(TimeUpdateStrategy::ManualDuration(
            Time::<Fixed>::from_hz(60.0).timestep(),
        ));
    if let Some(g) = grid {
        app.insert_resource(PathingGrid::new(g));
    }
    app.finish();
    app.cleanup();
    app.update(); // the first update runs no fixed tick
    app
}

/// Runs `n` ticks.
pub fn ticks(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

/// A random grid: K1 walls with probability `walls`, the rest K0/K2 (cost 1 or 4 on
/// [`LAYER`]).
pub fn random_grid(w: u32, h: u32, walls: f64, rng: &mut StdRng) -> Grid {
    Grid::from_fn(w, h, |_| {
        if rng.random_bool(walls) {
            TileKind::K1
        } else if rng.random_bool(0.2) {
            TileKind::K2
        } else {
            TileKind::K0
        }
    })
    .unwrap()
}

/// K0 costs 1, K1 is a wall, K2 costs 4, K3 costs 2.
pub const LAYER: GridLayer = GridLayer::new([1, 0, 4, 2]);

pub fn seeded(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// Reference Dijkstra from `from`: the cheapest cost to every cell (entering costs,
/// diagonals `sqrt(2)` times, no corner cutting); `None` if unreachable.
pub fn reference(grid: &Grid, layer: GridLayer, from: Cell, eight: bool) -> Vec<Option<f64>> {
    let n = grid.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut heap = BinaryHeap::new();
    let idx = |c: Cell| grid.index_of(c).unwrap();
    dist[idx(from)] = 0.0;
    heap.push((std::cmp::Reverse(0_u64), from.x, from.y));
    while let Some((std::cmp::Reverse(dk), x, y)) = heap.pop() {
        let c = Cell::new(x, y);
        let d = f64::from_bits(dk);
        if d > dist[idx(c)] {
            continue;
        }
        for bits in 0..8u8 {
            let dir = Direction8::from_bits(bits);
            if dir.is_diagonal() && !eight {
                continue;
            }
            let next = c.step(dir);
            let cost = grid.cost(next, layer);
            if cost == 0 {
                continue;
            }
            if dir.is_diagonal() {
                let (dx, dy) = dir.offset();
                if grid.cost(Cell::new(x + dx, y), layer) == 0
                    || grid.cost(Cell::new(x, y + dy), layer) == 0
                {
                    continue;
                }
            }
            let step = f64::from(cost) * if dir.is_diagonal() { 2f64.sqrt() } else { 1.0 };
            let nd = d + step;
            if nd < dist[idx(next)] - 1e-9 {
                dist[idx(next)] = nd;
                heap.push((std::cmp::Reverse(nd.to_bits()), next.x, next.y));
            }
        }
    }
    dist.into_iter()
        .map(|d| d.is_finite().then_some(d))
        .collect()
}
