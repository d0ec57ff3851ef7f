//! The tilemap mirror, headless: tilemap components spawned directly, no renderer.

mod common;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use bevy_tilepath::{cell_to_tile_pos, tile_pos_to_cell};
use common::{app, seeded, ticks};
use rand::RngExt;

fn kind_of(t: TileTextureIndex) -> TileKind {
    TileKind::new((t.0 % 3) as u8).unwrap()
}

fn spawn_map(app: &mut App, size: TilemapSize) -> Entity {
    app.world_mut()
        .spawn((
            size,
            TilemapGridSize { x: 16.0, y: 16.0 },
            TilemapTileSize { x: 16.0, y: 16.0 },
            TilemapType::Square,
            TilemapAnchor::Center,
            TileStorage::empty(size),
            Transform::from_xyz(100.0, -50.0, 0.0),
            PathingTilemap::new(kind_of),
        ))
        .id()
}

/// What the grid must be: every tile of `map` by its `PathTile` or texture, the rest K3.
fn expected(world: &mut World, map: Entity, size: TilemapSize) -> Grid {
    let mut grid = Grid::filled(size.x, size.y, TileKind::K3).unwrap();
    let mut tiles = world.query::<(&TilePos, &TilemapId, &TileTextureIndex, Option<&PathTile>)>();
    for (pos, id, texture, kind) in tiles.iter(world) {
        if id.0 == map {
            let k = kind.map_or_else(|| kind_of(*texture), |k| k.0);
            let _ = grid.set(tile_pos_to_cell(*pos, MapLayout::Square), k);
        }
    }
    grid
}

/// After every tick of a random edit sequence (spawn, retexture, mark, unmark,
/// despawn tiles; resize the map) the grid equals the tilemap.
#[test]
fn mirror_follows_random_edits() {
    let mut rng = seeded(11);
    let mut app = app(None, PathingSettings::default());
    let mut size = TilemapSize::new(30, 20);
    let map = spawn_map(&mut app, size);
    let mut tiles: Vec<Entity> = Vec::new();
    for y in 0..size.y {
        for x in 0..size.x {
            if rng.random_bool(0.9) {
                let pos = TilePos::new(x, y);
                let texture = TileTextureIndex(rng.random_range(0..6));
                tiles.push(
                    app.world_mut()
                        .spawn(TileBundle {
                            position: pos,
                            texture_index: texture,
                            tilemap_id: TilemapId(map),
                            ..default()
                        })
                        .id(),
                );
            }
        }
    }
    ticks(&mut app, 1);
    let want = expected(app.world_mut(), map, size);
    assert_eq!(app.world().resource::<PathingGrid>().grid(), &want);
    for step in 0..300 {
        for _ in 0..rng.random_range(1..6) {
            let w = app.world_mut();
            match rng.random_range(0..6) {
                0 if !tiles.is_empty() => {
                    let e = tiles.swap_remove(rng.random_range(0..tiles.len()));
                    w.despawn(e);
                }
                1 => {
                    // One tile per position, as a `TileStorage` holds them.
                    let pos =
                        TilePos::new(rng.random_range(0..size.x), rng.random_range(0..size.y));
                    if w.query::<&TilePos>().iter(w).any(|p| *p == pos) {
                        continue;
                    }
                    tiles.push(
                        w.spawn(TileBundle {
                            position: pos,
                            texture_index: TileTextureIndex(rng.random_range(0..6)),
                            tilemap_id: TilemapId(map),
                            ..default()
                        })
                        .id(),
                    );
                }
                2 if !tiles.is_empty() => {
                    let e = tiles[rng.random_range(0..tiles.len())];
                    w.entity_mut(e)
                        .insert(PathTile(TileKind::new(rng.random_range(0..4)).unwrap()));
                }
                3 if !tiles.is_empty() => {
                    let e = tiles[rng.random_range(0..tiles.len())];
                    w.entity_mut(e).remove::<PathTile>();
                }
                _ if !tiles.is_empty() => {
                    let e = tiles[rng.random_range(0..tiles.len())];
                    w.get_mut::<TileTextureIndex>(e).unwrap().0 = rng.random_range(0..6);
                }
                _ => {}
            }
        }
        if step == 150 {
            // Resize: tiles outside the new size are ignored.
            size = TilemapSize::new(25, 24);
            *app.world_mut().get_mut::<TilemapSize>(map).unwrap() = size;
        }
        ticks(&mut app, 1);
        let want = expected(app.world_mut(), map, size);
        let got = app.world().resource::<PathingGrid>().grid();
        assert_eq!((got.width(), got.height()), (size.x, size.y));
        assert!(
            got == &want,
            "step {step}: the grid differs from the tilemap"
        );
    }
    // The tilemap goes: no grid.
    app.world_mut().despawn(map);
    ticks(&mut app, 1);
    assert!(app.world().resource::<PathingGrid>().is_empty());
}

/// The grid's world placement follows the tilemap's transform, grid size and anchor.
#[test]
fn cells_and_world_positions_agree_with_the_tilemap() {
    let mut app = app(None, PathingSettings::default());
    let size = TilemapSize::new(12, 7);
    spawn_map(&mut app, size);
    ticks(&mut app, 1);
    let t = *app.world().resource::<GridTransform>();
    for (x, y) in [(0, 0), (5, 3), (11, 6)] {
        let pos = TilePos::new(x, y);
        let want = pos.center_in_world(
            &size,
            &TilemapGridSize { x: 16.0, y: 16.0 },
            &TilemapTileSize { x: 16.0, y: 16.0 },
            &TilemapType::Square,
            &TilemapAnchor::Center,
        ) + Vec2::new(100.0, -50.0);
        let cell = tile_pos_to_cell(pos, MapLayout::Square);
        assert!((t.cell_to_world(cell) - want).length() < 1e-3);
        assert_eq!(t.world_to_cell(want + Vec2::new(7.0, -7.0)), cell);
        assert_eq!(cell_to_tile_pos(cell, size, MapLayout::Square), Some(pos));
    }
    assert_eq!(
        cell_to_tile_pos(Cell::new(12, 0), size, MapLayout::Square),
        None
    );
    assert_eq!(
        cell_to_tile_pos(Cell::new(-1, 0), size, MapLayout::Square),
        None
    );
}

/// A tilemap larger than a grid can be: requests fail with `GridTooLarge`, no panic.
#[test]
fn tilemap_too_large() {
    let mut app = app(None, PathingSettings::default());
    spawn_map(&mut app, TilemapSize::new(70_000, 2));
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 0)),
            PathRequest::to_cell(Cell::new(1, 1)),
        ))
        .id();
    ticks(&mut app, 1);
    assert_eq!(
        app.world().get::<PathStatus>(unit),
        Some(&PathStatus::NoPath(NoPathReason::GridTooLarge))
    );
}
