//! Clearance (the largest square unit that fits at each cell): building it for a
//! 1024x1024 map, and repairing it after a one-cell edit.
//!
//! `cargo bench -p tilepath-benches --bench clearance`. Maps: `den312d` tiled 4x4 to
//! 1024x1024 (rooms and corridors of several widths), and open ground.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tilepath::{Cell, Clearance, Grid, Mobility, TileKind};
use tilepath_testkit::load_movingai;

const SIDE: u32 = 1024;

fn clearance(c: &mut Criterion) {
    let tile = load_movingai("den312d.map");
    let (tw, th) = (tile.width() as i32, tile.height() as i32);
    let tiled = Grid::from_fn(SIDE, SIDE, |c| {
        tile.get(Cell::new(c.x % tw, c.y % th)).unwrap()
    })
    .unwrap();
    let open = Grid::new(SIDE, SIDE).unwrap();
    let mobility = Mobility::FLOOR_ONLY;
    let mut group = c.benchmark_group("clearance");
    group.measurement_time(Duration::from_secs(4));
    for (name, grid) in [("den312d_tiled", tiled), ("open", open)] {
        group.throughput(Throughput::Elements(grid.len() as u64));
        group.bench_function(format!("build/{name}"), |b| {
            b.iter(|| black_box(Clearance::new(&grid, mobility)));
        });
        // One cell walled and opened again: two repairs of up to 16x16 cells each.
        group.throughput(Throughput::Elements(2));
        let mut grid = grid;
        let mut clear = Clearance::new(&grid, mobility);
        let cell = (0..SIDE as i32)
            .map(|d| Cell::new(512 + d % 64, 512 + d / 64))
            .find(|&c| grid.is_passable(c, mobility))
            .expect("an open cell");
        group.bench_function(format!("repair_close_open/{name}"), |b| {
            b.iter(|| {
                grid.set(cell, TileKind::K3).unwrap();
                black_box(clear.repair(&grid, &[cell]).unwrap());
                grid.set(cell, TileKind::K0).unwrap();
                black_box(clear.repair(&grid, &[cell]).unwrap());
            });
        });
    }
    group.finish();
}

criterion_group!(benches, clearance);
criterion_main!(benches);
