//! The tilemap mirror: keeps the [`PathingGrid`] equal to a `bevy_ecs_tilemap` map.

use bevy::prelude::*;
use bevy_ecs_tilemap::anchor::TilemapAnchor;
use bevy_ecs_tilemap::map::{
    TilemapGridSize, TilemapId, TilemapSize, TilemapTileSize, TilemapType,
};
use bevy_ecs_tilemap::tiles::{TilePos, TileTextureIndex};
use tilepath::{Cell, Grid, TileKind};

use crate::{GridTransform, PathingGrid};

/// Put this on a `bevy_ecs_tilemap` tilemap entity to mirror it into the
/// [`PathingGrid`]: it says how a tile becomes one of the 4 tile kinds.
///
/// A tile's kind is its [`PathTile`] component if it has one, otherwise
/// `kind_of(texture index)`. Cells with no tile entity are [`missing`](Self::missing).
/// Only square tilemaps are mirrored; one at a time (the first one found).
#[derive(Component, Clone, Copy, Debug)]
pub struct PathingTilemap {
    /// The kind of a tile from its texture index.
    pub kind_of: fn(TileTextureIndex) -> TileKind,
    /// The kind of a cell without a tile entity. Default: `K3`.
    pub missing: TileKind,
}

impl PathingTilemap {
    /// Mirrors with `kind_of` deciding each tile's kind; missing tiles are `K3`.
    #[must_use]
    pub fn new(kind_of: fn(TileTextureIndex) -> TileKind) -> Self {
        Self {
            kind_of,
            missing: TileKind::K3,
        }
    }

    /// With this kind for cells that have no tile.
    #[must_use]
    pub fn with_missing(mut self, missing: TileKind) -> Self {
        self.missing = missing;
        self
    }
}

impl Default for PathingTilemap {
    /// Every tile is `K0`, missing tiles `K3`.
    fn default() -> Self {
        Self::new(|_| TileKind::K0)
    }
}

/// Sets a tile's kind directly, overriding [`PathingTilemap::kind_of`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PathTile(pub TileKind);

/// The cell of a tile position (the same coordinates).
#[must_use]
pub fn tile_pos_to_cell(pos: TilePos) -> Cell {
    Cell::new(pos.x as i32, pos.y as i32)
}

/// The tile position of a cell, `None` if it is outside a map of `size`.
#[must_use]
pub fn cell_to_tile_pos(cell: Cell, size: TilemapSize) -> Option<TilePos> {
    TilePos::from_i32_pair(cell.x, cell.y, &size)
}

/// Which tilemap is mirrored.
#[derive(Resource, Default)]
pub(crate) struct MirrorState {
    tilemap: Option<Entity>,
    size: TilemapSize,
    /// Rewrite every tile on the next sync (the grid was rebuilt).
    resync: bool,
}

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

/// Picks the mirrored tilemap, rebuilds the grid when its size changes and keeps the
/// [`GridTransform`] in step with its placement.
pub(crate) fn sync_tilemap(
    mut state: ResMut<MirrorState>,
    mut grid: ResMut<PathingGrid>,
    mut world: ResMut<GridTransform>,
    maps: Query<MapQuery<'static>>,
) {
    let chosen = state
        .tilemap
        .and_then(|e| maps.get(e).ok())
        .or_else(|| maps.iter().min_by_key(|m| m.0));
    let Some((entity, mirror, size, grid_size, tile_size, map_type, anchor, transform)) = chosen
    else {
        return;
    };
    let square = map_type
        .as_deref()
        .is_none_or(|t| *t == TilemapType::Square);
    let new_map = state.tilemap != Some(entity);
    if new_map
        || size.is_changed()
        || mirror.is_changed()
        || map_type.as_ref().is_some_and(|t| t.is_changed())
    {
        state.tilemap = Some(entity);
        state.size = *size;
        if !square {
            warn!("tilepath mirrors square tilemaps only; {entity} is not square");
            grid.clear();
        } else {
            match Grid::filled(size.x, size.y, mirror.missing) {
                Ok(g) => {
                    grid.replace(g);
                    state.resync = true;
                }
                Err(_) => {
                    warn!(
                        "tilemap {entity} is {}x{}, larger than a pathing grid can be",
                        size.x, size.y
                    );
                    grid.set_too_large(size.x, size.y);
                }
            }
        }
    }
    let placement_changed = new_map
        || grid_size.is_changed()
        || tile_size.as_ref().is_some_and(|t| t.is_changed())
        || anchor.as_ref().is_some_and(|a| a.is_changed())
        || transform.as_ref().is_some_and(|t| t.is_changed());
    if placement_changed {
        let tile_size = tile_size.as_deref().copied().unwrap_or_default();
        let map_type = map_type.as_deref().copied().unwrap_or_default();
        let anchor = anchor.as_deref().copied().unwrap_or_default();
        let center = |x, y| {
            TilePos { x, y }.center_in_world(&size, &grid_size, &tile_size, &map_type, &anchor)
        };
        let origin = center(0, 0);
        let step = center(1, 1) - origin;
        let (offset, scale) = transform.as_deref().map_or((Vec2::ZERO, Vec2::ONE), |t| {
            (t.translation.truncate(), t.scale.truncate())
        });
        world.set_if_neq(GridTransform {
            origin: origin * scale + offset,
            cell_size: step * scale,
        });
    }
}

type TileQuery<'a> = (
    &'a TilePos,
    &'a TilemapId,
    &'a TileTextureIndex,
    Option<&'a PathTile>,
);

/// A tile spawned, or one whose position, map, texture or kind changed.
type TileChanged = Or<(
    Changed<TilePos>,
    Changed<TilemapId>,
    Changed<TileTextureIndex>,
    Changed<PathTile>,
)>;

/// Writes spawned and changed tiles into the grid. An unchanged tile costs only
/// Bevy's change-tick comparison (measured in `benches/mirror.rs`).
pub(crate) fn sync_tiles(
    mut state: ResMut<MirrorState>,
    mut grid: ResMut<PathingGrid>,
    maps: Query<&PathingTilemap>,
    changed: Query<TileQuery<'static>, TileChanged>,
    tiles: Query<TileQuery<'static>>,
    mut unmarked: RemovedComponents<PathTile>,
) {
    let Some(map) = state.tilemap else { return };
    let Ok(mirror) = maps.get(map) else { return };
    let resync = core::mem::take(&mut state.resync);
    let mut write =
        |(pos, id, texture, kind): (&TilePos, &TilemapId, &TileTextureIndex, Option<&PathTile>)| {
            if id.0 == map {
                let kind = kind.map_or_else(|| (mirror.kind_of)(*texture), |k| k.0);
                // A tile outside its map's size is ignored, as bevy_ecs_tilemap does.
                let _ = grid.set(tile_pos_to_cell(*pos), kind);
            }
        };
    // A tile that lost its `PathTile` (and still exists) goes back to its texture's kind.
    for entity in unmarked.read() {
        if let Ok(tile @ (_, _, _, None)) = tiles.get(entity) {
            write(tile);
        }
    }
    if resync {
        tiles.iter().for_each(write);
    } else {
        changed.iter().for_each(write);
    }
}

/// A despawned tile (or one that lost its position) leaves its cell `missing`.
pub(crate) fn on_tile_removed(
    removed: On<Remove, TilePos>,
    state: Res<MirrorState>,
    tiles: Query<(&TilePos, &TilemapId)>,
    maps: Query<&PathingTilemap>,
    mut grid: ResMut<PathingGrid>,
) {
    let Some(map) = state.tilemap else { return };
    let Ok((pos, id)) = tiles.get(removed.entity) else {
        return;
    };
    if id.0 != map {
        return;
    }
    if let Ok(mirror) = maps.get(map) {
        let _ = grid.set(tile_pos_to_cell(*pos), mirror.missing);
    }
}

/// The mirrored tilemap was despawned (or stopped being mirrored): no grid any more.
pub(crate) fn on_tilemap_removed(
    removed: On<Remove, PathingTilemap>,
    mut state: ResMut<MirrorState>,
    mut grid: ResMut<PathingGrid>,
) {
    if state.tilemap == Some(removed.entity) {
        *state = MirrorState::default();
        grid.clear();
    }
}
