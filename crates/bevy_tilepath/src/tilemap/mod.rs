//! The tilemap mirror: keeps each grid equal to the `bevy_ecs_tilemap` maps (layers)
//! mirrored into it.
//!
//! [`maps`] groups the mirrored tilemaps by grid, checks that a grid's layers agree and
//! (re)builds grids and their placement; [`tiles`] writes spawned, changed, moved and
//! despawned tiles; [`state`] remembers each layer's kind of every cell, so that a
//! cell's combined kind ([`LayerRule`](crate::LayerRule)) is recomputed from one tile's change.

pub(crate) mod maps;
mod state;
pub(crate) mod tiles;

use bevy::prelude::*;
use bevy_ecs_tilemap::map::TilemapSize;
use bevy_ecs_tilemap::tiles::{TilePos, TileTextureIndex};
use tilepath::{Cell, TileKind};

use crate::MapLayout;

pub(crate) use state::MirrorState;

/// Put this on a `bevy_ecs_tilemap` tilemap entity to mirror it into a pathing grid:
/// it says how a tile becomes one of the 4 tile kinds, and which grid it feeds.
///
/// A tile's kind is its [`PathTile`] component if it has one, otherwise
/// `kind_of(texture index)`. Cells with no tile entity are [`missing`](Self::missing).
///
/// **Which grid**: the [`PathingMap`](crate::PathingMap) on [`grid`](Self::grid) if set
/// ([`on_grid`](Self::on_grid)); else the one on the tilemap itself if it has one; else
/// the default grid, the [`PathingGrid`](crate::PathingGrid) resource.
///
/// **Layers**: several tilemaps feeding one grid (one per Tiled or LDtk layer) are its
/// layers, combined cell by cell by the grid's [`LayerRule`](crate::LayerRule). They must cover the same
/// cells: the same size, grid size, layout and anchor, and the same `Transform` but for
/// its z (which orders them, bottom first). If they do not, a warning names the two
/// that disagree and the grid stays empty, its requests failing with
/// [`NoPathReason::LayersMismatch`](crate::NoPathReason::LayersMismatch), until they
/// agree again. Tiles spawned, changed, moved or despawned on any layer reach the grid
/// in the same tick.
///
/// **Layouts**: square, all six hex coordinate systems and both isometric ones are
/// mirrored; [`MapLayout`] says where each tile's cell is, how cells connect and where
/// they are in the world. A tile outside its map's size is ignored, as bevy_ecs_tilemap ignores it; a tile whose
/// `TilemapId` names a map without `PathingTilemap` is not mirrored.
#[derive(Component, Reflect, Clone, Copy, Debug)]
#[reflect(Component, Default, Debug)]
pub struct PathingTilemap {
    /// The kind of a tile from its texture index (not reflected: a function).
    #[reflect(ignore, default = "default_kind_of")]
    pub kind_of: fn(TileTextureIndex) -> TileKind,
    /// The kind of a cell without a tile entity (on any layer: only the bottom layer's
    /// counts), and of the holes of an isometric staggered map's grid (see
    /// [`MapLayout`]). Default: `K3`.
    pub missing: TileKind,
    /// The entity whose [`PathingMap`](crate::PathingMap) this tilemap feeds (`None`:
    /// its own, else the default grid). Default: `None`.
    #[entities]
    pub grid: Option<Entity>,
}

impl PathingTilemap {
    /// Mirrors with `kind_of` deciding each tile's kind; missing tiles are `K3`.
    #[must_use]
    pub fn new(kind_of: fn(TileTextureIndex) -> TileKind) -> Self {
        Self {
            kind_of,
            missing: TileKind::K3,
            grid: None,
        }
    }

    /// With this kind for cells that have no tile.
    #[must_use]
    pub fn with_missing(mut self, missing: TileKind) -> Self {
        self.missing = missing;
        self
    }

    /// Feeding the [`PathingMap`](crate::PathingMap) on `grid` (a layer of that grid).
    #[must_use]
    pub fn on_grid(mut self, grid: Entity) -> Self {
        self.grid = Some(grid);
        self
    }

    /// A tile's kind: its [`PathTile`], else its texture's.
    fn kind(&self, texture: TileTextureIndex, tile: Option<&PathTile>) -> TileKind {
        tile.map_or_else(|| (self.kind_of)(texture), |k| k.0)
    }
}

/// Every tile is `K0`: the kind function a reflected mirror starts with.
fn default_kind_of() -> fn(TileTextureIndex) -> TileKind {
    |_| TileKind::K0
}

impl Default for PathingTilemap {
    /// Every tile is `K0`, missing tiles `K3`, on the default grid.
    fn default() -> Self {
        Self::new(default_kind_of())
    }
}

/// Sets a tile's kind directly, overriding [`PathingTilemap::kind_of`].
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, PartialEq)]
pub struct PathTile(pub TileKind);

/// The cell of a tile position on a map laid out as `layout` (the same coordinates
/// but on isometric staggered maps: see [`MapLayout`]).
#[must_use]
pub fn tile_pos_to_cell(pos: TilePos, layout: MapLayout) -> Cell {
    layout.tile_to_cell(pos.x, pos.y)
}

/// The tile position of a cell on a map of `size` tiles laid out as `layout`, `None`
/// if no tile of the map is there.
#[must_use]
pub fn cell_to_tile_pos(cell: Cell, size: TilemapSize, layout: MapLayout) -> Option<TilePos> {
    let (x, y) = layout.cell_to_tile(cell, size.x, size.y)?;
    Some(TilePos { x, y })
}

/// Where the mirror last wrote a tile (required by `TilePos` once the plugin is added):
/// when a tile moves to another position or map, its old cell is written again.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MirroredAt(Option<(Entity, Cell)>);
