//! The tilemap mirror: keeps the [`PathingGrid`] equal to a `bevy_ecs_tilemap` map.

use bevy::prelude::*;
use bevy_ecs_tilemap::anchor::TilemapAnchor;
use bevy_ecs_tilemap::map::{
    TilemapGridSize, TilemapId, TilemapSize, TilemapTileSize, TilemapType,
};
use bevy_ecs_tilemap::tiles::{TilePos, TileStorage, TileTextureIndex};
use tilepath::{Cell, Grid, TileKind};

use crate::{GridTransform, PathingGrid};

/// Put this on a `bevy_ecs_tilemap` tilemap entity to mirror it into the
/// [`PathingGrid`]: it says how a tile becomes one of the 4 tile kinds.
///
/// A tile's kind is its [`PathTile`] component if it has one, otherwise
/// `kind_of(texture index)`. Cells with no tile entity are [`missing`](Self::missing).
/// Only square tilemaps are mirrored; one at a time (the first one found).
#[derive(Component, Reflect, Clone, Copy, Debug)]
#[reflect(Component, Default, Debug)]
pub struct PathingTilemap {
    /// The kind of a tile from its texture index (not reflected: a function).
    #[reflect(ignore, default = "default_kind_of")]
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

impl PathingTilemap {
    /// A tile's kind: its [`PathTile`], else its texture's.
    fn kind(&self, (_, _, _, texture, kind): TileQuery<'_>) -> TileKind {
        kind.map_or_else(|| (self.kind_of)(*texture), |k| k.0)
    }
}

/// Every tile is `K0`: the kind function a reflected mirror starts with.
fn default_kind_of() -> fn(TileTextureIndex) -> TileKind {
    |_| TileKind::K0
}

impl Default for PathingTilemap {
    /// Every tile is `K0`, missing tiles `K3`.
    fn default() -> Self {
        Self::new(default_kind_of())
    }
}

/// Sets a tile's kind directly, overriding [`PathingTilemap::kind_of`].
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, PartialEq)]
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
    /// The tiles a sync found changed, when there are at most [`CHANGED_HELD`].
    changed: Vec<Entity>,
}

/// Changed tiles a sync holds on to, so that it visits every tile once: a tick's edits
/// are usually a few, while a map spawned or reloaded at once changes every tile (and
/// is then walked a second time instead of held).
const CHANGED_HELD: usize = 4096;

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
        || size.is_changed()
        || map_type.as_ref().is_some_and(|t| t.is_changed())
        || grid_size.is_changed()
        || tile_size.as_ref().is_some_and(|t| t.is_changed())
        || anchor.as_ref().is_some_and(|a| a.is_changed())
        || transform.as_ref().is_some_and(|t| t.is_changed());
    // bevy_ecs_tilemap's anchor arithmetic needs a tile on each axis; a map without
    // tiles has no cells to place (its grid is empty and requests fail with `NoGrid`).
    if placement_changed && size.x > 0 && size.y > 0 {
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

/// Where the mirror last wrote a tile (required by `TilePos` once the plugin is added):
/// when a tile moves to another position or map, its old cell is written again.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MirroredAt(Option<(Entity, Cell)>);

type TileQuery<'a> = (
    Entity,
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

/// The kind a cell of the mirrored map gets back when the tile written there (`leaving`)
/// leaves it: that of another tile the map's `TileStorage` holds at the cell, else
/// [`PathingTilemap::missing`].
fn kind_left_behind(
    mirror: &PathingTilemap,
    storage: Option<&TileStorage>,
    tiles: &Query<TileQuery<'static>>,
    map: Entity,
    cell: Cell,
    leaving: Entity,
) -> TileKind {
    storage
        .and_then(|s| cell_to_tile_pos(cell, s.size).and_then(|p| s.checked_get(&p)))
        .filter(|&e| e != leaving)
        .and_then(|e| tiles.get(e).ok())
        .filter(|t| t.2.0 == map && tile_pos_to_cell(*t.1) == cell)
        .map_or(mirror.missing, |t| mirror.kind(t))
}

/// The changed tiles, or all of them, with where they were written.
type Written<'w, 's> = ParamSet<
    'w,
    's,
    (
        Query<'static, 'static, (TileQuery<'static>, &'static mut MirroredAt), TileChanged>,
        Query<'static, 'static, (TileQuery<'static>, &'static mut MirroredAt)>,
    ),
>;

/// Writes spawned and changed tiles into the grid. A tile that moved (a new `TilePos`
/// or `TilemapId`) first gives its old cell back: to the tile the map's `TileStorage`
/// now holds there, or to [`PathingTilemap::missing`]. An unchanged tile costs only
/// Bevy's change-tick comparison (measured in `benches/mirror.rs`).
#[expect(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn sync_tiles(
    mut state: ResMut<MirrorState>,
    mut grid: ResMut<PathingGrid>,
    maps: Query<(&PathingTilemap, Option<&TileStorage>)>,
    mut written: Written,
    tiles: Query<TileQuery<'static>>,
    untracked: Query<Entity, (With<TilePos>, Without<MirroredAt>)>,
    mut unmarked: RemovedComponents<PathTile>,
    mut commands: Commands,
) {
    // Tiles spawned before the plugin registered `MirroredAt` as required.
    for entity in &untracked {
        commands.entity(entity).insert(MirroredAt::default());
    }
    let Some(map) = state.tilemap else { return };
    let Ok((mirror, storage)) = maps.get(map) else {
        return;
    };
    let resync = core::mem::take(&mut state.resync);
    // Change detection visits every tile of every map: the first pass over the changed
    // ones keeps them (up to `CHANGED_HELD`) so the second need not walk them all again.
    let mut changed = core::mem::take(&mut state.changed);
    changed.clear();
    let mut held = true;
    // Moved tiles give their old cells back first, so that two tiles trading places in
    // one tick both end up written.
    if !resync {
        for ((entity, pos, id, _, _), at) in &written.p0() {
            if changed.len() < CHANGED_HELD {
                changed.push(entity);
            } else {
                held = false;
            }
            if let Some((old_map, old_cell)) = at.0
                && (old_map, old_cell) != (id.0, tile_pos_to_cell(*pos))
                && old_map == map
            {
                let kind = kind_left_behind(mirror, storage, &tiles, map, old_cell, entity);
                let _ = grid.set(old_cell, kind);
            }
        }
    }
    let mut write = |tile: TileQuery<'_>, at: &mut MirroredAt| {
        let (_, pos, id, _, _) = tile;
        let cell = tile_pos_to_cell(*pos);
        // A tile outside its map's size is ignored, as bevy_ecs_tilemap does.
        if id.0 == map && grid.set(cell, mirror.kind(tile)).is_ok() {
            at.0 = Some((map, cell));
        } else {
            at.0 = None;
        }
    };
    // A tile that lost its `PathTile` (and still exists) goes back to its texture's kind.
    for entity in unmarked.read() {
        if let Ok((tile @ (_, _, _, _, None), mut at)) = written.p1().get_mut(entity) {
            write(tile, &mut at);
        }
    }
    if resync {
        for (tile, mut at) in &mut written.p1() {
            write(tile, &mut at);
        }
    } else if held {
        let mut all = written.p1();
        for &entity in &changed {
            if let Ok((tile, mut at)) = all.get_mut(entity) {
                write(tile, &mut at);
            }
        }
    } else {
        for (tile, mut at) in &mut written.p0() {
            write(tile, &mut at);
        }
    }
    state.changed = changed;
}

/// A despawned tile (or one that lost its position) gives its cell back: to the tile
/// the map's `TileStorage` holds there now, or to [`PathingTilemap::missing`].
pub(crate) fn on_tile_removed(
    removed: On<Remove, TilePos>,
    state: Res<MirrorState>,
    written: Query<&MirroredAt>,
    tiles: Query<TileQuery<'static>>,
    maps: Query<(&PathingTilemap, Option<&TileStorage>)>,
    mut grid: ResMut<PathingGrid>,
) {
    let Some(map) = state.tilemap else { return };
    let Ok(MirroredAt(Some((written_map, cell)))) = written.get(removed.entity) else {
        return;
    };
    if *written_map != map {
        return;
    }
    let Ok((mirror, storage)) = maps.get(map) else {
        return;
    };
    let kind = kind_left_behind(mirror, storage, &tiles, map, *cell, removed.entity);
    let _ = grid.set(*cell, kind);
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
