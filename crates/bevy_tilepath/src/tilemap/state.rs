//! What the mirror remembers: the layers of every mirrored grid and each layer's kind
//! of every cell.

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use bevy_ecs_tilemap::map::TilemapSize;
use bevy_ecs_tilemap::tiles::TilePos;
use tilepath::{Cell, TileKind};

use super::PathingTilemap;
use crate::grid::GridKey;
use crate::{LayerRule, MapLayout};

/// A cell where a layer has no tile, in [`Layer::kinds`].
const NO_TILE: u8 = 4;

/// One tilemap mirrored into a grid.
pub(super) struct Layer {
    pub(super) map: Entity,
    pub(super) mirror: PathingTilemap,
    /// The kind of this layer's tile at each cell (row-major), or [`NO_TILE`].
    kinds: Vec<u8>,
}

/// One grid fed by tilemaps.
pub(super) struct MirrorGrid {
    pub(super) key: GridKey,
    /// Bottom first.
    pub(super) layers: Vec<Layer>,
    /// The layers' size in tiles.
    pub(super) tiles: TilemapSize,
    /// How their tiles map to cells.
    pub(super) layout: MapLayout,
    /// The grid's size in cells.
    pub(super) size: TilemapSize,
    pub(super) rule: LayerRule,
    /// The layers agree and the grid was built: tiles are written.
    pub(super) ok: bool,
    /// Write every tile of its layers on the next sync (the grid was rebuilt).
    pub(super) resync: bool,
    /// Seen with its layers in this tick's sync.
    pub(super) seen: bool,
    /// The layers' kinds of one cell, for the rule.
    scratch: Vec<Option<TileKind>>,
}

impl MirrorGrid {
    pub(super) fn new(key: GridKey) -> Self {
        Self {
            key,
            layers: Vec::new(),
            tiles: TilemapSize::new(0, 0),
            layout: MapLayout::Square,
            size: TilemapSize::new(0, 0),
            rule: LayerRule::default(),
            ok: false,
            resync: false,
            seen: false,
            scratch: Vec::new(),
        }
    }

    /// Sets the layers (bottom first), forgetting what they held.
    pub(super) fn set_layers(&mut self, layers: impl Iterator<Item = (Entity, PathingTilemap)>) {
        self.layers.clear();
        self.layers.extend(layers.map(|(map, mirror)| Layer {
            map,
            mirror,
            kinds: Vec::new(),
        }));
        self.scratch.clear();
        self.scratch.resize(self.layers.len(), None);
    }

    /// Empties every layer's record for a grid of `size` cells fed by maps of `tiles`
    /// tiles laid out as `layout`.
    pub(super) fn reset(&mut self, tiles: TilemapSize, layout: MapLayout, size: TilemapSize) {
        self.tiles = tiles;
        self.layout = layout;
        self.size = size;
        let cells = size.x as usize * size.y as usize;
        for layer in &mut self.layers {
            layer.kinds.clear();
            layer.kinds.resize(cells, NO_TILE);
        }
    }

    /// The kind of a cell where no layer has a tile.
    pub(super) fn missing(&self) -> TileKind {
        self.layers
            .first()
            .map_or(TileKind::K3, |l| l.mirror.missing)
    }

    /// The cell of a tile of this grid's maps, `None` outside the maps.
    pub(super) fn cell_of(&self, pos: TilePos) -> Option<Cell> {
        pos.within_map_bounds(&self.tiles)
            .then(|| self.layout.tile_to_cell(pos.x, pos.y))
    }

    /// The tile of the maps at `cell`, `None` if no tile maps there.
    pub(super) fn tile_of(&self, cell: Cell) -> Option<TilePos> {
        let (x, y) = self.layout.cell_to_tile(cell, self.tiles.x, self.tiles.y)?;
        Some(TilePos { x, y })
    }

    /// The index of `cell`, `None` outside the grid.
    pub(super) fn index(&self, cell: Cell) -> Option<usize> {
        ((0..self.size.x as i32).contains(&cell.x) && (0..self.size.y as i32).contains(&cell.y))
            .then(|| cell.y as usize * self.size.x as usize + cell.x as usize)
    }

    /// Records that layer `layer` has `kind` (`None`: no tile) at cell index `i`, and
    /// returns the cell's combined kind.
    pub(super) fn put(&mut self, layer: usize, i: usize, kind: Option<TileKind>) -> TileKind {
        if let Some(k) = self.layers[layer].kinds.get_mut(i) {
            *k = kind.map_or(NO_TILE, TileKind::index);
        }
        for (slot, layer) in self.scratch.iter_mut().zip(&self.layers) {
            *slot = layer.kinds.get(i).and_then(|&k| TileKind::new(k));
        }
        self.rule.combine(&self.scratch, self.missing())
    }
}

/// Every grid the mirror feeds, and which layer each mirrored tilemap is.
#[derive(Resource, Default)]
pub(crate) struct MirrorState {
    pub(super) grids: Vec<MirrorGrid>,
    /// A mirrored tilemap's grid (index in `grids`) and layer.
    pub(super) layer_of: EntityHashMap<(usize, usize)>,
    /// The tiles a sync found changed, when there are at most
    /// [`CHANGED_HELD`](super::tiles::CHANGED_HELD).
    pub(super) changed: Vec<Entity>,
    /// This tick's mirrored tilemaps: (grid, z, tilemap), sorted.
    pub(super) found: Vec<(GridKey, f32, Entity)>,
    /// Tilemaps whose grid entity has no `PathingMap`, already warned about.
    pub(super) orphans: Vec<Entity>,
}

impl MirrorState {
    /// The grid and layer of tilemap `map`, if it is mirrored into a built grid.
    pub(super) fn layer(&self, map: Entity) -> Option<(usize, usize)> {
        self.layer_of
            .get(&map)
            .copied()
            .filter(|&(g, _)| self.grids[g].ok)
    }

    /// Rebuilds `layer_of` from the grids' layers.
    pub(super) fn index_layers(&mut self) {
        self.layer_of.clear();
        for (g, grid) in self.grids.iter().enumerate() {
            for (l, layer) in grid.layers.iter().enumerate() {
                self.layer_of.insert(layer.map, (g, l));
            }
        }
    }
}
