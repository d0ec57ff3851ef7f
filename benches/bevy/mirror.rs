//! What the tilemap mirror costs per tick: a map whose tiles do not change (the cost of
//! Bevy's change-tick scan), and the same map with one tile retextured per tick. Each
//! figure is one schedule run of a headless app (`MinimalPlugins` + `PathingPlugin` in
//! `Update`, no units, schedules on Bevy's single-threaded executor) holding an N x N
//! `bevy_ecs_tilemap` map, next to the same app without a map.
//!
//! `cargo bench -p tilepath-bevy-benches --bench mirror`

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn kind_of(t: TileTextureIndex) -> TileKind {
    if t.0 == 1 { TileKind::K1 } else { TileKind::K0 }
}

/// A headless app whose `update()` runs the pathing systems once; with an `n` x `n`
/// tilemap mirrored (every 4th tile a wall) when `n > 0`.
fn app(n: u32) -> (App, Vec<Entity>) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PathingPlugin::in_schedule(Update)));
    let mut tiles = Vec::new();
    if n > 0 {
        let size = TilemapSize::new(n, n);
        let map = app
            .world_mut()
            .spawn((
                size,
                TilemapGridSize { x: 16.0, y: 16.0 },
                TilemapTileSize { x: 16.0, y: 16.0 },
                TilemapType::Square,
                TileStorage::empty(size),
                Transform::default(),
                PathingTilemap::new(kind_of),
            ))
            .id();
        for y in 0..n {
            for x in 0..n {
                tiles.push(
                    app.world_mut()
                        .spawn(TileBundle {
                            position: TilePos::new(x, y),
                            texture_index: TileTextureIndex(u32::from((x + y) % 4 == 0)),
                            tilemap_id: TilemapId(map),
                            ..default()
                        })
                        .id(),
                );
            }
        }
    }
    app.finish();
    app.cleanup();
    // One thread: what is measured is the systems' work, not the executor waking
    // threads (which costs more than an 80x80 map's scan).
    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }
    for _ in 0..3 {
        app.update();
    }
    if n > 0 {
        let grid = app.world().resource::<PathingGrid>().grid();
        assert_eq!((grid.width(), grid.height()), (n, n), "the map is mirrored");
    }
    (app, tiles)
}

fn mirror(c: &mut Criterion) {
    let mut group = c.benchmark_group("mirror");
    let (mut empty, _) = app(0);
    group.bench_function("no_map", |b| b.iter(|| empty.update()));
    for n in [80_u32, 256, 1024] {
        let (mut app, tiles) = app(n);
        group.bench_with_input(BenchmarkId::new("unchanged", n), &n, |b, _| {
            b.iter(|| app.update());
        });
        let mut i = 0;
        group.bench_with_input(BenchmarkId::new("one_edit", n), &n, |b, _| {
            b.iter(|| {
                i = (i + 7919) % tiles.len();
                let mut texture = app
                    .world_mut()
                    .get_mut::<TileTextureIndex>(tiles[i])
                    .expect("a tile");
                texture.0 ^= 1;
                app.update();
            });
        });
        black_box(app.world().resource::<PathingGrid>().grid().len());
    }
    group.finish();
}

criterion_group!(benches, mirror);
criterion_main!(benches);
