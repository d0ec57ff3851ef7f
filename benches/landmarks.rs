//! Landmarks (the guide of `Jps::*_guided` queries): building 16 of them for a
//! 1024x1024 map, and repairing them after a one-cell edit.
//!
//! `cargo bench -p tilepath-benches --bench landmarks`. Map:
//! `den312d` tiled 4x4 to 1024x1024 (rooms and corridors). The guide's memory is
//! printed before the group.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tilepath::{Cell, Connectivity, Grid, Landmarks, Mobility, TileKind};
use tilepath_testkit::load_movingai;

const SIDE: u32 = 1024;
const COUNT: usize = 16;

fn landmarks(c: &mut Criterion) {
    let tile = load_movingai("den312d.map");
    let (tw, th) = (tile.width() as i32, tile.height() as i32);
    let mut grid = Grid::from_fn(SIDE, SIDE, |c| {
        tile.get(Cell::new(c.x % tw, c.y % th)).unwrap()
    })
    .unwrap();
    let mobility = Mobility::FLOOR_ONLY;
    let mut guide = Landmarks::new(&grid, mobility, Connectivity::Eight, COUNT).unwrap();
    println!(
        "landmarks: {COUNT} on {SIDE}x{SIDE}: {} MB, {:.1} bytes a cell",
        guide.memory_bytes() / 1_000_000,
        guide.memory_bytes() as f64 / grid.len() as f64
    );
    let mut group = c.benchmark_group("landmarks");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("build16/den312d_tiled", |b| {
        b.iter(|| black_box(Landmarks::new(&grid, mobility, Connectivity::Eight, COUNT)));
    });
    // One open cell near the middle walled and opened again: two repairs of the 16
    // landmarks' distances, and the table rows where they changed.
    let cell = (0..SIDE as i32)
        .map(|d| Cell::new(512 + d % 64, 512 + d / 64))
        .find(|&c| grid.is_passable(c, mobility))
        .expect("an open cell");
    group.bench_function("repair_close_open/den312d_tiled", |b| {
        b.iter(|| {
            grid.set(cell, TileKind::K3).unwrap();
            black_box(guide.repair(&grid, &[cell]).unwrap());
            grid.set(cell, TileKind::K0).unwrap();
            black_box(guide.repair(&grid, &[cell]).unwrap());
        });
    });
    group.finish();
}

criterion_group!(benches, landmarks);
criterion_main!(benches);
