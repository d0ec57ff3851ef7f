//! Writing tiles into their grid: spawned, changed, moved, despawned.

use bevy::prelude::*;
use bevy_ecs_tilemap::map::TilemapId;
use bevy_ecs_tilemap::tiles::{TilePos, TileStorage, TileTextureIndex};
use tilepath::{Cell, TileKind};

use super::state::MirrorState;
use super::{MirroredAt, PathTile};
use crate::grid::GridsMut;

/// Changed tiles a sync holds on to, so that it visits every tile once: a tick's edits
/// are usually a few, while a map spawned or reloaded at once changes every tile (and
/// is then walked a second time instead of held).
pub(super) const CHANGED_HELD: usize = 4096;

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

/// Records that `layer` of grid `g` has `kind` at `cell` (`None`: no tile) and writes
/// the cell's combined kind into the grid. `false` when the cell is outside the grid.
fn put(
    state: &mut MirrorState,
    grids: &mut GridsMut,
    (g, layer): (usize, usize),
    cell: Cell,
    kind: Option<TileKind>,
) -> bool {
    let mirror = &mut state.grids[g];
    let Some(i) = mirror.index(cell) else {
        return false;
    };
    let combined = mirror.put(layer, i, kind);
    if let Some(grid) = grids.get_mut(mirror.key) {
        let _ = grid.set(cell, combined);
    }
    true
}

/// The kind `map` has at `cell` once the tile written there (`leaving`) leaves it: that
/// of another tile the map's `TileStorage` holds at the cell, else none.
fn kind_left_behind(
    state: &MirrorState,
    storages: &Query<&TileStorage>,
    tiles: &Query<TileQuery<'static>>,
    (g, layer): (usize, usize),
    map: Entity,
    cell: Cell,
    leaving: Entity,
) -> Option<TileKind> {
    let grid = &state.grids[g];
    let mirror = &grid.layers[layer].mirror;
    storages
        .get(map)
        .ok()
        .and_then(|s| grid.tile_of(cell).and_then(|p| s.checked_get(&p)))
        .filter(|&e| e != leaving)
        .and_then(|e| tiles.get(e).ok())
        .filter(|t| t.2.0 == map && grid.cell_of(*t.1) == Some(cell))
        .map(|(_, _, _, texture, kind)| mirror.kind(*texture, kind))
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

/// Writes a tile into its layer's grid (if its map is a layer of a built grid) and
/// remembers where.
fn write(state: &mut MirrorState, grids: &mut GridsMut, tile: TileQuery<'_>, at: &mut MirroredAt) {
    let (_, pos, id, texture, kind) = tile;
    at.0 = None;
    if let Some(layer) = state.layer(id.0)
        // A tile outside its map's size is ignored, as bevy_ecs_tilemap does.
        && let Some(cell) = state.grids[layer.0].cell_of(*pos)
    {
        let k = state.grids[layer.0].layers[layer.1]
            .mirror
            .kind(*texture, kind);
        if put(state, grids, layer, cell, Some(k)) {
            at.0 = Some((id.0, cell));
        }
    }
}

/// Whether tiles of map `map` are written by this sync's full pass.
fn resyncing(state: &MirrorState, map: Entity) -> bool {
    state.layer(map).is_some_and(|(g, _)| state.grids[g].resync)
}

/// Writes spawned and changed tiles on every layer into their grids. A tile that moved
/// (a new `TilePos` or `TilemapId`) first gives its old cell back: to the tile its
/// map's `TileStorage` now holds there, or to no tile on that layer. An unchanged tile
/// costs only Bevy's change-tick comparison (measured in `benches/mirror.rs`); every
/// tile of a grid just (re)built is written.
#[expect(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn sync_tiles(
    mut state: ResMut<MirrorState>,
    mut grids: GridsMut,
    storages: Query<&TileStorage>,
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
    let state = &mut *state;
    if state.grids.is_empty() {
        unmarked.clear();
        return;
    }
    let any_resync = state.grids.iter().any(|g| g.resync);
    // Change detection visits every tile of every map: the first pass over the changed
    // ones keeps them (up to `CHANGED_HELD`) so the second need not walk them all again.
    let mut changed = core::mem::take(&mut state.changed);
    changed.clear();
    let mut held = true;
    // Moved tiles give their old cells back first, so that two tiles trading places in
    // one tick both end up written.
    for ((entity, pos, id, _, _), at) in &written.p0() {
        if changed.len() < CHANGED_HELD {
            changed.push(entity);
        } else {
            held = false;
        }
        let now = state
            .layer(id.0)
            .and_then(|(g, _)| state.grids[g].cell_of(*pos));
        if let Some((old_map, old_cell)) = at.0
            && Some((old_map, old_cell)) != now.map(|c| (id.0, c))
            && !resyncing(state, old_map)
            && let Some(layer) = state.layer(old_map)
        {
            let kind = kind_left_behind(state, &storages, &tiles, layer, old_map, old_cell, entity);
            put(state, &mut grids, layer, old_cell, kind);
        }
    }
    // A tile that lost its `PathTile` (and still exists) goes back to its texture's kind.
    for entity in unmarked.read() {
        if let Ok((tile @ (_, _, id, _, None), mut at)) = written.p1().get_mut(entity)
            && !resyncing(state, id.0)
        {
            write(state, &mut grids, tile, &mut at);
        }
    }
    if held {
        let mut all = written.p1();
        for &entity in &changed {
            if let Ok((tile, mut at)) = all.get_mut(entity)
                && !resyncing(state, tile.2.0)
            {
                write(state, &mut grids, tile, &mut at);
            }
        }
    } else {
        for (tile, mut at) in &mut written.p0() {
            if !resyncing(state, tile.2.0) {
                write(state, &mut grids, tile, &mut at);
            }
        }
    }
    if any_resync {
        for (tile, mut at) in &mut written.p1() {
            if resyncing(state, tile.2.0) {
                write(state, &mut grids, tile, &mut at);
            } else if at.0.is_some_and(|(map, _)| resyncing(state, map)) {
                // It left a rebuilt grid for a map that is not mirrored.
                at.0 = None;
            }
        }
        for grid in &mut state.grids {
            grid.resync = false;
        }
    }
    state.changed = changed;
}

/// A despawned tile (or one that lost its position) gives its cell back: to the tile
/// its map's `TileStorage` holds there now, or to no tile on that layer.
pub(crate) fn on_tile_removed(
    removed: On<Remove, TilePos>,
    mut state: ResMut<MirrorState>,
    written: Query<&MirroredAt>,
    tiles: Query<TileQuery<'static>>,
    storages: Query<&TileStorage>,
    mut grids: GridsMut,
) {
    let Ok(MirroredAt(Some((map, cell)))) = written.get(removed.entity) else {
        return;
    };
    let Some(layer) = state.layer(*map) else {
        return;
    };
    let kind = kind_left_behind(
        &state,
        &storages,
        &tiles,
        layer,
        *map,
        *cell,
        removed.entity,
    );
    put(&mut state, &mut grids, layer, *cell, kind);
}
