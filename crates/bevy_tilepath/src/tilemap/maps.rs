//! Which tilemaps feed which grid; a grid is (re)built when its layers change, and
//! placed in the world from its bottom layer.

use bevy::prelude::*;
use bevy_ecs_tilemap::anchor::TilemapAnchor;
use bevy_ecs_tilemap::map::{TilemapGridSize, TilemapSize, TilemapTileSize, TilemapType};
use bevy_ecs_tilemap::tiles::TilePos;
use tilepath::Grid;

use super::PathingTilemap;
use super::state::{MirrorGrid, MirrorState};
use crate::grid::{GridKey, GridsMut};
use crate::{GridTransform, MapLayout, NoPathReason, PathingSettings};

type MapQuery<'a> = (
    Entity,
    Ref<'a, PathingTilemap>,
    Ref<'a, TilemapSize>,
    Ref<'a, TilemapGridSize>,
    Option<Ref<'a, TilemapTileSize>>,
    Option<Ref<'a, TilemapType>>,
    Option<Ref<'a, TilemapAnchor>>,
    Option<Ref<'a, Transform>>,
);

type Maps<'w, 's> = Query<'w, 's, MapQuery<'static>>;

/// Where a tilemap's cells are: what the layers of one grid must share.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cover {
    size: TilemapSize,
    grid_size: TilemapGridSize,
    map_type: TilemapType,
    anchor: TilemapAnchor,
    /// The transform but for z (which orders the layers).
    translation: Vec2,
    rotation: Quat,
    scale: Vec3,
}

fn cover_of(m: &MapQuery<'_>) -> Cover {
    let (_, _, size, grid_size, _, map_type, anchor, transform) = m;
    let t = transform.as_deref().copied().unwrap_or_default();
    Cover {
        size: **size,
        grid_size: **grid_size,
        map_type: map_type.as_deref().copied().unwrap_or_default(),
        anchor: anchor.as_deref().copied().unwrap_or_default(),
        translation: t.translation.truncate(),
        rotation: t.rotation,
        scale: t.scale,
    }
}

/// What the first layer that disagrees with the bottom one differs in.
fn disagreement(bottom: &Cover, other: &Cover) -> Option<String> {
    if bottom.size != other.size {
        Some(format!(
            "is {}x{} tiles, the bottom layer {}x{}",
            other.size.x, other.size.y, bottom.size.x, bottom.size.y
        ))
    } else if bottom.grid_size != other.grid_size {
        Some(format!(
            "has grid size {:?}, the bottom layer {:?}",
            other.grid_size, bottom.grid_size
        ))
    } else if bottom.map_type != other.map_type {
        Some(format!(
            "is {:?}, the bottom layer {:?}",
            other.map_type, bottom.map_type
        ))
    } else if bottom.anchor != other.anchor {
        Some(format!(
            "is anchored {:?}, the bottom layer {:?}",
            other.anchor, bottom.anchor
        ))
    } else if (bottom.translation, bottom.rotation, bottom.scale)
        != (other.translation, other.rotation, other.scale)
    {
        Some(format!(
            "is placed at {} (rotation {}, scale {}), the bottom layer at {} ({}, {})",
            other.translation,
            other.rotation,
            other.scale,
            bottom.translation,
            bottom.rotation,
            bottom.scale
        ))
    } else {
        None
    }
}

/// The grid a tilemap feeds: the one it names, else its own, else the default grid.
fn grid_of(entity: Entity, mirror: &PathingTilemap, grids: &GridsMut) -> GridKey {
    match mirror.grid {
        Some(grid) => Some(grid),
        None if grids.contains(Some(entity)) => Some(entity),
        None => None,
    }
}

fn describe(key: GridKey) -> String {
    key.map_or_else(|| "the default grid".to_owned(), |e| format!("grid {e}"))
}

/// Groups the mirrored tilemaps by grid; (re)builds a grid when its layers, their
/// size, layout or kinds, or its [`LayerRule`](super::LayerRule) change; checks that a
/// grid's layers cover the same cells; keeps each grid's [`GridTransform`] in step
/// with its bottom layer's placement; empties a grid no tilemap feeds any more.
pub(crate) fn sync_tilemap(
    mut state: ResMut<MirrorState>,
    mut grids: GridsMut,
    settings: Res<PathingSettings>,
    maps: Maps,
) {
    let state = &mut *state;
    state.found.clear();
    for (entity, mirror, .., transform) in &maps {
        let key = grid_of(entity, &mirror, &grids);
        if !grids.contains(key) {
            if !state.orphans.contains(&entity) {
                warn!(
                    "tilemap {entity} feeds {}, which has no PathingMap: it is not mirrored",
                    describe(key)
                );
                state.orphans.push(entity);
            }
            continue;
        }
        let z = transform.map_or(0.0, |t| t.translation.z);
        state.found.push((key, z, entity));
    }
    let found = &state.found;
    state
        .orphans
        .retain(|&e| maps.contains(e) && !found.iter().any(|f| f.2 == e));
    state
        .found
        .sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));

    for grid in &mut state.grids {
        grid.seen = false;
    }
    let mut relink = false;
    let mut start = 0;
    while start < state.found.len() {
        let key = state.found[start].0;
        let end = start
            + state.found[start..]
                .iter()
                .take_while(|f| f.0 == key)
                .count();
        let group = start..end;
        start = end;
        let g = match state.grids.iter().position(|g| g.key == key) {
            Some(g) => g,
            None => {
                state.grids.push(MirrorGrid::new(key));
                state.grids.len() - 1
            }
        };
        let rule = match key {
            None => settings.layer_rule,
            Some(e) => grids.map_mut(e).map_or_else(default, |m| m.layer_rule),
        };
        let layers = &state.found[group];
        let mirror = &mut state.grids[g];
        mirror.seen = true;
        let same_layers = mirror.layers.len() == layers.len()
            && mirror.layers.iter().zip(layers).all(|(l, f)| l.map == f.2);
        let mut structure = !same_layers || mirror.rule != rule;
        let mut placement = false;
        for m in layers.iter().filter_map(|f| maps.get(f.2).ok()) {
            let (_, tilemap, size, grid_size, tile_size, map_type, anchor, transform) = &m;
            structure |= tilemap.is_changed()
                || size.is_changed()
                || map_type.as_ref().is_some_and(Ref::is_changed);
            placement |= grid_size.is_changed()
                || tile_size.as_ref().is_some_and(Ref::is_changed)
                || anchor.as_ref().is_some_and(Ref::is_changed)
                || transform.as_ref().is_some_and(Ref::is_changed);
        }
        if !(structure || placement) {
            continue;
        }
        if structure {
            relink |= !same_layers;
            mirror.rule = rule;
            mirror.set_layers(
                layers
                    .iter()
                    .filter_map(|f| maps.get(f.2).ok().map(|m| (f.2, *m.1))),
            );
        }
        rebuild(mirror, structure, layers, &maps, &mut grids);
    }

    // Grids no tilemap feeds any more are emptied.
    for mirror in state.grids.iter().filter(|g| !g.seen) {
        relink = true;
        if let Some(grid) = grids.get_mut(mirror.key) {
            grid.clear();
        }
    }
    state.grids.retain(|g| g.seen);
    if relink {
        state.index_layers();
    }
}

/// Checks that a grid's layers agree and builds its grid (when its structure changed
/// or it was not built) and its placement.
fn rebuild(
    mirror: &mut MirrorGrid,
    structure: bool,
    layers: &[(GridKey, f32, Entity)],
    maps: &Maps,
    grids: &mut GridsMut,
) {
    let key = mirror.key;
    let Some(bottom) = layers.first().and_then(|f| maps.get(f.2).ok()) else {
        return;
    };
    let cover = cover_of(&bottom);
    let was_ok = mirror.ok;
    mirror.ok = false;
    let Some(grid) = grids.get_mut(key) else {
        return;
    };
    for f in &layers[1..] {
        if let Ok(m) = maps.get(f.2)
            && let Some(why) = disagreement(&cover, &cover_of(&m))
        {
            warn!(
                "tilemaps {} and {} are layers of {} but do not cover the same cells: {} {why}; \
                 the grid stays empty (requests fail with LayersMismatch) until they agree \
                 (to keep them apart, give each its own PathingMap)",
                bottom.0,
                f.2,
                describe(key),
                f.2
            );
            grid.set_failed(NoPathReason::LayersMismatch);
            return;
        }
    }
    let layout = MapLayout::from(cover.map_type);
    let size = cover.size;
    if structure || !was_ok {
        let built = layout
            .grid_size(size.x, size.y)
            .and_then(|(w, h)| Some((Grid::filled(w, h, mirror.missing()).ok()?, (w, h))));
        match built {
            Some((g, (w, h))) => {
                grid.replace(g);
                mirror.reset(size, layout, TilemapSize::new(w, h));
                mirror.resync = true;
            }
            None => {
                warn!(
                    "tilemap {} is {}x{}, larger than a pathing grid can be",
                    bottom.0, size.x, size.y
                );
                grid.set_failed(NoPathReason::GridTooLarge);
                return;
            }
        }
    }
    mirror.ok = true;
    // bevy_ecs_tilemap's anchor arithmetic needs a tile on each axis; a map without
    // tiles has no cells to place (its grid is empty and requests fail with `NoGrid`).
    if size.x > 0 && size.y > 0 {
        let (_, _, size, grid_size, tile_size, map_type, anchor, transform) = &bottom;
        let tile_size = tile_size.as_deref().copied().unwrap_or_default();
        let map_type = map_type.as_deref().copied().unwrap_or_default();
        let anchor = anchor.as_deref().copied().unwrap_or_default();
        let center = |x, y| {
            TilePos { x, y }.center_in_world(size, grid_size, &tile_size, &map_type, &anchor)
        };
        let (offset, scale) = transform.as_deref().map_or((Vec2::ZERO, Vec2::ONE), |t| {
            (t.translation.truncate(), t.scale.truncate())
        });
        // Cell (0, 0) is tile (0, 0) in every layout.
        grids.set_transform(
            key,
            GridTransform {
                origin: center(0, 0) * scale + offset,
                cell_size: Vec2::new(grid_size.x, grid_size.y) * scale,
                layout,
            },
        );
    }
}
