//! Connected components on 4096x4096 maps: building them, asking whether a goal can be
//! reached, repairing after a one-cell edit, and an A* query for a goal out of reach
//! answered with them (without them, whole-grid A* searches the start's whole
//! component first).
//!
//! `cargo bench -p tilepath-benches --bench components`. Maps: `random512x64`, the
//! shared `random512-10-0` tiled 8x8, and `open`, an empty map; each is cut in two by
//! a wall down column 2048 so that a goal on the far side is out of reach.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tilepath::{
    AStar, Cell, Components, Connectivity, Grid, Mobility, PathQuery, Solver, TileKind,
};
use tilepath_testkit::load_movingai;

const SIDE: u32 = 4096;

fn maps() -> [(&'static str, Grid); 2] {
    let tile = load_movingai("random512-10-0.map");
    let (tw, th) = (tile.width() as i32, tile.height() as i32);
    let wall = |c: Cell| c.x == SIDE as i32 / 2;
    let tiled = Grid::from_fn(SIDE, SIDE, |c| {
        if wall(c) {
            TileKind::K3
        } else {
            tile.get(Cell::new(c.x % tw, c.y % th)).unwrap()
        }
    })
    .unwrap();
    let open = Grid::from_fn(SIDE, SIDE, |c| {
        if wall(c) { TileKind::K3 } else { TileKind::K0 }
    })
    .unwrap();
    [("random512x64", tiled), ("open", open)]
}

/// An open cell near `(x, y)`.
fn open_near(grid: &Grid, x: i32, y: i32) -> Cell {
    (0..64)
        .flat_map(|d| [Cell::new(x + d, y), Cell::new(x, y + d)])
        .find(|&c| grid.is_passable(c, Mobility::FLOOR_ONLY))
        .expect("an open cell")
}

fn components(c: &mut Criterion) {
    let mobility = Mobility::FLOOR_ONLY;
    let mut group = c.benchmark_group("components");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    for (name, grid) in maps() {
        group.bench_function(format!("build/{name}"), |b| {
            b.iter(|| black_box(Components::new(&grid, mobility).count()));
        });
        let parts = Components::new(&grid, mobility);
        let (a, far) = (open_near(&grid, 100, 2000), open_near(&grid, 4000, 2100));
        let near = open_near(&grid, 1900, 3900);
        assert!(parts.is_reachable(a, near) && !parts.is_reachable(a, far));
        group.bench_function(format!("is_reachable/{name}"), |b| {
            b.iter(|| black_box(parts.is_reachable(black_box(a), black_box(far))));
        });
        let mut astar = AStar::for_grid(&grid).unwrap();
        group.bench_function(format!("astar8_out_of_reach/{name}"), |b| {
            b.iter(|| {
                black_box(
                    astar
                        .find(
                            &grid,
                            PathQuery::new(a, far, mobility)
                                .within(&parts)
                                .connectivity(Connectivity::Eight),
                        )
                        .unwrap(),
                )
            });
        });
        // A wall cell put down and taken away again, in the open middle of the map.
        let mut edited = grid.clone();
        let mut parts = Components::new(&edited, mobility);
        let c = open_near(&edited, 1000, 1000);
        group.bench_function(format!("repair_close_open/{name}"), |b| {
            b.iter(|| {
                edited.set(c, TileKind::K3).unwrap();
                black_box(parts.repair(&edited, &[c]).unwrap());
                edited.set(c, TileKind::K0).unwrap();
                black_box(parts.repair(&edited, &[c]).unwrap());
            });
        });
    }
    group.finish();
}

criterion_group!(benches, components);
criterion_main!(benches);
