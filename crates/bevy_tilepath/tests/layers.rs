//! Tilemap layers combined into one grid, headless: tilemap components spawned directly.

mod common;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_tilepath::prelude::*;
use bevy_tilepath::tile_pos_to_cell;
use common::{app, seeded, ticks};
use rand::RngExt;

fn kind_of(t: TileTextureIndex) -> TileKind {
    TileKind::new((t.0 % 4) as u8).unwrap()
}

/// A layer at height `z`, feeding `grid` (`None`: the default grid).
fn spawn_layer(app: &mut App, size: TilemapSize, z: f32, grid: Option<Entity>) -> Entity {
    spawn_layer_of(app, TilemapType::Square, size, z, grid)
}

/// [`spawn_layer`] laid out as `map_type`.
fn spawn_layer_of(
    app: &mut App,
    map_type: TilemapType,
    size: TilemapSize,
    z: f32,
    grid: Option<Entity>,
) -> Entity {
    let mut mirror = PathingTilemap::new(kind_of).with_missing(TileKind::K2);
    mirror.grid = grid;
    app.world_mut()
        .spawn((
            size,
            TilemapGridSize { x: 16.0, y: 16.0 },
            TilemapTileSize { x: 16.0, y: 16.0 },
            map_type,
            TilemapAnchor::Center,
            TileStorage::empty(size),
            Transform::from_xyz(40.0, -8.0, z),
            mirror,
        ))
        .id()
}

fn spawn_tile(app: &mut App, map: Entity, pos: TilePos, texture: u32) -> Entity {
    app.world_mut()
        .spawn(TileBundle {
            position: pos,
            texture_index: TileTextureIndex(texture),
            tilemap_id: TilemapId(map),
            ..default()
        })
        .id()
}

/// What the grid must be for maps of `size` tiles laid out as `layout`: each cell the
/// rule over the layers' tiles there (bottom first), or the bottom layer's `missing`
/// (K2) where no layer has one (and in the holes of a staggered map's grid).
fn expected_of(
    world: &mut World,
    layers: &[Entity],
    (size, layout): (TilemapSize, MapLayout),
    rule: LayerRule,
) -> Grid {
    let (w, h) = layout.grid_size(size.x, size.y).unwrap();
    let mut kinds = vec![vec![None; layers.len()]; (w * h) as usize];
    let mut tiles = world.query::<(&TilePos, &TilemapId, &TileTextureIndex, Option<&PathTile>)>();
    for (pos, id, texture, kind) in tiles.iter(world) {
        if let Some(layer) = layers.iter().position(|&l| l == id.0)
            && pos.x < size.x
            && pos.y < size.y
        {
            let c = tile_pos_to_cell(*pos, layout);
            kinds[(c.y as u32 * w + c.x as u32) as usize][layer] =
                Some(kind.map_or_else(|| kind_of(*texture), |k| k.0));
        }
    }
    let mut grid = Grid::new(w, h).unwrap();
    for (i, cell) in kinds.iter().enumerate() {
        let c = grid.cell_of(i).unwrap();
        grid.set(c, rule.combine(cell, TileKind::K2)).unwrap();
    }
    grid
}

/// Water (K2) under a bridge (K0 above it) is walkable; otherwise the highest kind.
fn bridges(kinds: &[Option<TileKind>]) -> Option<TileKind> {
    match kinds {
        [Some(TileKind::K2), .., Some(TileKind::K0)] => Some(TileKind::K0),
        _ => kinds.iter().flatten().max().copied(),
    }
}

/// Three stacked layers (spawned out of z order) and random edits on all of them:
/// tiles spawned, retextured, marked and unmarked with `PathTile`, moved within their
/// layer or to another layer, despawned. After every tick the grid is exactly the
/// layer rule over the tiles, for every rule, on the default grid and on a grid
/// entity.
#[test]
fn stacked_layers_follow_random_edits() {
    let rules = [
        LayerRule::Highest,
        LayerRule::Top,
        LayerRule::Any(TileKind::K1),
        LayerRule::Custom(bridges),
    ];
    // Each rule on another layout: staggered maps write their tiles into a sheared
    // grid with holes.
    let types = [
        TilemapType::Square,
        TilemapType::Isometric(IsoCoordSystem::Staggered),
        TilemapType::Hexagon(HexCoordSystem::RowOdd),
        TilemapType::Isometric(IsoCoordSystem::Staggered),
    ];
    for (round, rule) in rules.into_iter().enumerate() {
        let map_type = types[round];
        let layout = MapLayout::from(map_type);
        let mut rng = seeded(40 + round as u64);
        let own_grid = round % 2 == 1;
        let settings = PathingSettings {
            layer_rule: rule,
            ..default()
        };
        let mut app = app(None, settings);
        let grid_entity = own_grid.then(|| {
            app.world_mut()
                .spawn(PathingMap::default().with_layer_rule(rule))
                .id()
        });
        let size = TilemapSize::new(20, 14);
        // Spawned top, bottom, middle: the mirror orders them by z.
        let top = spawn_layer_of(&mut app, map_type, size, 3.0, grid_entity);
        let bottom = spawn_layer_of(&mut app, map_type, size, 1.0, grid_entity);
        let middle = spawn_layer_of(&mut app, map_type, size, 2.0, grid_entity);
        let layers = [bottom, middle, top];
        // Per layer, which tile holds each position (one tile per position, as a
        // `TileStorage` holds them).
        let mut at: Vec<Vec<Option<Entity>>> = vec![vec![None; (size.x * size.y) as usize]; 3];
        for (l, &map) in layers.iter().enumerate() {
            let density = [0.9, 0.3, 0.15][l];
            for i in 0..size.x * size.y {
                if rng.random_bool(density) {
                    let pos = TilePos::new(i % size.x, i / size.x);
                    at[l][i as usize] =
                        Some(spawn_tile(&mut app, map, pos, rng.random_range(0..8)));
                }
            }
        }
        let read = |app: &App| -> Grid {
            match grid_entity {
                None => app.world().resource::<PathingGrid>().grid().clone(),
                Some(e) => app
                    .world()
                    .get::<PathingMap>(e)
                    .unwrap()
                    .grid()
                    .grid()
                    .clone(),
            }
        };
        ticks(&mut app, 1);
        assert_eq!(
            read(&app),
            expected_of(app.world_mut(), &layers, (size, layout), rule)
        );
        let mut edits = [0_u32; 7];
        for step in 0..150 {
            for _ in 0..rng.random_range(1..8) {
                let l = rng.random_range(0..3);
                let i = rng.random_range(0..(size.x * size.y) as usize);
                let pos = TilePos::new(i as u32 % size.x, i as u32 / size.x);
                let what = rng.random_range(0..7);
                let w = app.world_mut();
                match (what, at[l][i]) {
                    (0, None) => {
                        let map = layers[l];
                        at[l][i] = Some(
                            w.spawn(TileBundle {
                                position: pos,
                                texture_index: TileTextureIndex(rng.random_range(0..8)),
                                tilemap_id: TilemapId(map),
                                ..default()
                            })
                            .id(),
                        );
                    }
                    (1, Some(e)) => {
                        w.despawn(e);
                        at[l][i] = None;
                    }
                    (2, Some(e)) => {
                        w.get_mut::<TileTextureIndex>(e).unwrap().0 = rng.random_range(0..8);
                    }
                    (3, Some(e)) => {
                        w.entity_mut(e)
                            .insert(PathTile(TileKind::new(rng.random_range(0..4)).unwrap()));
                    }
                    (4, Some(e)) => {
                        w.entity_mut(e).remove::<PathTile>();
                    }
                    (5, Some(e)) => {
                        // Moved within its layer, to a free position.
                        let j = rng.random_range(0..(size.x * size.y) as usize);
                        if at[l][j].is_none() {
                            *w.get_mut::<TilePos>(e).unwrap() =
                                TilePos::new(j as u32 % size.x, j as u32 / size.x);
                            at[l][i] = None;
                            at[l][j] = Some(e);
                        }
                    }
                    (6, Some(e)) => {
                        // Moved to another layer, same position, if free there.
                        let m = (l + 1 + rng.random_range(0..2)) % 3;
                        if at[m][i].is_none() {
                            w.get_mut::<TilemapId>(e).unwrap().0 = layers[m];
                            at[l][i] = None;
                            at[m][i] = Some(e);
                        }
                    }
                    _ => continue,
                }
                edits[what] += 1;
            }
            ticks(&mut app, 1);
            let want = expected_of(app.world_mut(), &layers, (size, layout), rule);
            assert!(
                read(&app) == want,
                "{rule:?} on {map_type:?}, step {step}: the grid differs from the layers"
            );
        }
        assert!(
            edits.iter().all(|&n| n > 0),
            "every kind of edit ran: {edits:?}"
        );
        // A layer goes: the grid is the other two.
        app.world_mut().despawn(middle);
        for e in at[1].iter().flatten() {
            app.world_mut().despawn(*e);
        }
        ticks(&mut app, 1);
        let want = expected_of(app.world_mut(), &[bottom, top], (size, layout), rule);
        assert!(read(&app) == want, "{rule:?}: without the middle layer");
    }
}

/// A cell changed on one layer reaches the grid in the same tick, and so does a tile
/// despawned on another.
#[test]
fn edits_on_any_layer_reach_the_grid_in_the_same_tick() {
    let mut app = app(None, PathingSettings::default());
    let size = TilemapSize::new(6, 4);
    let ground = spawn_layer(&mut app, size, 0.0, None);
    let walls = spawn_layer(&mut app, size, 1.0, None);
    for i in 0..size.x * size.y {
        spawn_tile(&mut app, ground, TilePos::new(i % size.x, i / size.x), 0);
    }
    ticks(&mut app, 1);
    let c = Cell::new(3, 2);
    assert_eq!(
        app.world().resource::<PathingGrid>().get(c),
        Some(TileKind::K0)
    );
    let wall = spawn_tile(&mut app, walls, TilePos::new(3, 2), 1);
    ticks(&mut app, 1);
    assert_eq!(
        app.world().resource::<PathingGrid>().get(c),
        Some(TileKind::K1)
    );
    app.world_mut().despawn(wall);
    ticks(&mut app, 1);
    assert_eq!(
        app.world().resource::<PathingGrid>().get(c),
        Some(TileKind::K0)
    );
    assert_eq!(tile_pos_to_cell(TilePos::new(3, 2), MapLayout::Square), c);
}

/// Layers that do not cover the same cells: no grid, a failed status with the reason
/// (never a silent mix); once they agree, the grid is built and requests served.
#[test]
fn mismatched_layers_fail_with_a_reason() {
    let mut app = app(None, PathingSettings::default());
    let ground = spawn_layer(&mut app, TilemapSize::new(8, 5), 0.0, None);
    let walls = spawn_layer(&mut app, TilemapSize::new(9, 5), 1.0, None);
    for i in 0..8 * 5 {
        spawn_tile(&mut app, ground, TilePos::new(i % 8, i / 8), 0);
    }
    let unit = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(0, 0)),
            PathRequest::to_cell(Cell::new(7, 4)),
        ))
        .id();
    ticks(&mut app, 1);
    let reason = NoPathReason::LayersMismatch;
    assert_eq!(
        app.world().get::<PathStatus>(unit),
        Some(&PathStatus::NoPath(reason))
    );
    assert!(app.world().resource::<PathingGrid>().is_empty());
    // A placement that differs is a mismatch too.
    *app.world_mut().get_mut::<TilemapSize>(walls).unwrap() = TilemapSize::new(8, 5);
    app.world_mut()
        .get_mut::<Transform>(walls)
        .unwrap()
        .translation
        .x += 16.0;
    ticks(&mut app, 1);
    assert!(app.world().resource::<PathingGrid>().is_empty());
    // They agree: the grid is built and the unit planned.
    app.world_mut()
        .get_mut::<Transform>(walls)
        .unwrap()
        .translation
        .x -= 16.0;
    app.world_mut()
        .get_mut::<PathRequest>(unit)
        .unwrap()
        .set_changed();
    ticks(&mut app, 1);
    let grid = app.world().resource::<PathingGrid>();
    assert_eq!((grid.grid().width(), grid.grid().height()), (8, 5));
    assert_eq!(
        app.world().get::<PathStatus>(unit),
        Some(&PathStatus::Found)
    );
}
