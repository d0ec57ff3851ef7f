//! The pathing grid resource and the mapping between cells and world positions.

use bevy::prelude::*;
use tilepath::{Cell, Grid, GridError, GridLayer, TileKind};

/// The packed grid every request is solved on.
///
/// With the `tilemap` feature and a [`PathingTilemap`](crate::PathingTilemap) on a
/// `bevy_ecs_tilemap` map, the plugin keeps it equal to the tilemap. Without one, edit
/// it yourself: [`set`](Self::set) a cell or [`replace`](Self::replace) the whole grid.
/// Every change is recorded, so paths that cross a changed cell are planned again and
/// distance fields are repaired rather than rebuilt.
///
/// Cells are `bevy_ecs_tilemap` tile positions: `Cell::new(x, y)` is `TilePos { x, y }`,
/// row-major with `y` growing *upwards* in the world. The core crate's
/// [`Direction::Down`](tilepath::Direction::Down) (`+y`) therefore points up on screen.
#[derive(Resource, Default)]
pub struct PathingGrid {
    grid: Grid,
    /// Cells whose kind changed since the plugin last consumed the changes.
    changed: Vec<Cell>,
    /// One bit per cell: set for the cells in `changed`.
    changed_bits: Vec<u64>,
    /// The whole grid was replaced (resized or rebuilt) since the last tick.
    replaced: bool,
    /// Bumped by every change.
    generation: u64,
    /// The last grid asked for was larger than supported.
    too_large: Option<(u32, u32)>,
}

impl PathingGrid {
    /// A resource holding `grid`.
    #[must_use]
    pub fn new(grid: Grid) -> Self {
        let mut this = Self::default();
        this.replace(grid);
        this
    }

    /// The grid.
    #[must_use]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Whether there is no grid yet (or it has no cells): every request fails with
    /// [`NoPathReason::NoGrid`](crate::NoPathReason::NoGrid).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.grid.is_empty()
    }

    /// Counts every change; equal generations mean an equal grid.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The kind of `cell`, `None` outside the grid.
    #[must_use]
    pub fn get(&self, cell: Cell) -> Option<TileKind> {
        self.grid.get(cell)
    }

    /// Whether a unit using `layer` may enter `cell` (`false` outside the grid).
    #[must_use]
    pub fn is_passable(&self, cell: Cell, layer: GridLayer) -> bool {
        self.grid.is_passable(cell, layer)
    }

    /// Sets the kind of one cell and records the change (nothing is recorded when the
    /// kind is already `kind`). Returns the previous kind.
    ///
    /// # Errors
    /// [`GridError::OutOfBounds`] for a cell outside the grid; the grid is unchanged.
    pub fn set(&mut self, cell: Cell, kind: TileKind) -> Result<TileKind, GridError> {
        let old = self.grid.set(cell, kind)?;
        if old != kind {
            self.record(cell);
        }
        Ok(old)
    }

    /// Replaces the whole grid (for example with one of another size). Every path and
    /// distance field is planned again on the next tick.
    pub fn replace(&mut self, grid: Grid) {
        // The recorded changes index the old grid: drop them wholesale.
        self.grid = grid;
        self.changed.clear();
        self.changed_bits.clear();
        self.changed_bits.resize(self.grid.len().div_ceil(64), 0);
        self.replaced = true;
        self.too_large = None;
        self.generation += 1;
    }

    /// Removes the grid: requests fail with
    /// [`NoPathReason::NoGrid`](crate::NoPathReason::NoGrid) until a grid is set again.
    pub fn clear(&mut self) {
        self.replace(Grid::default());
    }

    /// The cells changed since the last tick consumed them (in change order, each once).
    #[must_use]
    pub fn changed_cells(&self) -> &[Cell] {
        &self.changed
    }

    /// Whether `cell` changed since the last tick.
    #[must_use]
    pub fn was_changed(&self, cell: Cell) -> bool {
        self.grid
            .index_of(cell)
            .is_some_and(|i| self.changed_bits[i / 64] & (1 << (i % 64)) != 0)
    }

    /// Whether the whole grid was replaced since the last tick.
    #[must_use]
    pub fn was_replaced(&self) -> bool {
        self.replaced
    }

    pub(crate) fn set_too_large(&mut self, width: u32, height: u32) {
        self.clear();
        self.too_large = Some((width, height));
    }

    pub(crate) fn too_large(&self) -> Option<(u32, u32)> {
        self.too_large
    }

    fn record(&mut self, cell: Cell) {
        self.generation += 1;
        if let Some(i) = self.grid.index_of(cell) {
            let bit = 1 << (i % 64);
            if self.changed_bits[i / 64] & bit == 0 {
                self.changed_bits[i / 64] |= bit;
                self.changed.push(cell);
            }
        }
    }

    /// Forgets the recorded changes (the plugin calls this once a tick, after planning).
    pub(crate) fn clear_changes(&mut self) {
        for &cell in &self.changed {
            if let Some(i) = self.grid.index_of(cell) {
                self.changed_bits[i / 64] = 0;
            }
        }
        self.changed.clear();
        self.replaced = false;
    }
}

/// Where cells are in the world: the world position of the centre of cell `(0, 0)` and
/// the distance between neighbouring cell centres. The mirror sets it from the
/// tilemap's transform, grid size and anchor; without a tilemap set it yourself.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct GridTransform {
    /// World position of the centre of cell `(0, 0)`.
    pub origin: Vec2,
    /// World distance between neighbouring cell centres along x and y.
    pub cell_size: Vec2,
}

impl Default for GridTransform {
    /// Cell `(x, y)` is centred at world `(x, y)`.
    fn default() -> Self {
        Self {
            origin: Vec2::ZERO,
            cell_size: Vec2::ONE,
        }
    }
}

impl GridTransform {
    /// The world position of the centre of `cell`.
    #[must_use]
    pub fn cell_to_world(&self, cell: Cell) -> Vec2 {
        self.origin + Vec2::new(cell.x as f32, cell.y as f32) * self.cell_size
    }

    /// The cell whose square contains `world` (it may be outside the grid).
    #[must_use]
    pub fn world_to_cell(&self, world: Vec2) -> Cell {
        let local = (world - self.origin) / self.cell_size + Vec2::splat(0.5);
        Cell::new(local.x.floor() as i32, local.y.floor() as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_recorded_once_and_cleared() {
        let mut g = PathingGrid::new(Grid::new(10, 10).unwrap());
        g.clear_changes();
        let c = Cell::new(3, 4);
        assert_eq!(g.set(c, TileKind::K0).unwrap(), TileKind::K0);
        assert!(g.changed_cells().is_empty(), "same kind is no change");
        g.set(c, TileKind::K1).unwrap();
        g.set(c, TileKind::K2).unwrap();
        assert_eq!(g.changed_cells(), &[c]);
        assert!(g.was_changed(c) && !g.was_changed(Cell::new(4, 4)));
        g.clear_changes();
        assert!(!g.was_changed(c) && g.changed_cells().is_empty());
        assert!(g.set(Cell::new(10, 0), TileKind::K1).is_err());
    }

    #[test]
    fn replacing_with_pending_changes() {
        // Changes recorded on a small grid, then a larger grid: the pending change's
        // index in the new grid lies past the old bitset.
        let mut g = PathingGrid::new(Grid::new(4, 4).unwrap());
        g.set(Cell::new(3, 3), TileKind::K1).unwrap();
        g.replace(Grid::new(100, 100).unwrap());
        assert!(g.was_replaced() && g.changed_cells().is_empty());
        assert!(!g.was_changed(Cell::new(3, 3)));
        g.set(Cell::new(99, 99), TileKind::K1).unwrap();
        assert_eq!(g.changed_cells(), &[Cell::new(99, 99)]);
    }

    #[test]
    fn world_round_trip() {
        let t = GridTransform {
            origin: Vec2::new(-100.0, 50.0),
            cell_size: Vec2::new(16.0, 16.0),
        };
        for c in [Cell::new(0, 0), Cell::new(7, 3), Cell::new(-2, 9)] {
            assert_eq!(t.world_to_cell(t.cell_to_world(c)), c);
            assert_eq!(t.world_to_cell(t.cell_to_world(c) + Vec2::splat(7.9)), c);
        }
    }
}
