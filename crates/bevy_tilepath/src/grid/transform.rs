//! Where cells are in the world.

use bevy::prelude::*;
use tilepath::Cell;

use super::MapLayout;

/// Where cells are in the world: the world position of the centre of cell `(0, 0)`,
/// the tiles' grid size, and the map's [`layout`](MapLayout) (square, hex or
/// isometric), which also says how the grid's cells connect. The mirror sets it from
/// the tilemap's type, transform, grid size and anchor; without a tilemap set it
/// yourself. The resource places the default grid; a
/// [`PathingMap`](crate::PathingMap) has its own
/// [`transform`](crate::PathingMap::transform).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Resource, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct GridTransform {
    /// World position of the centre of cell `(0, 0)`.
    pub origin: Vec2,
    /// The tiles' grid size in world units (`bevy_ecs_tilemap`'s `TilemapGridSize`
    /// times the map's scale): on square maps, the distance between neighbouring cell
    /// centres along x and y.
    pub cell_size: Vec2,
    /// How the map's tiles are laid out.
    pub layout: MapLayout,
}

impl Default for GridTransform {
    /// Cell `(x, y)` is centred at world `(x, y)`.
    fn default() -> Self {
        Self {
            origin: Vec2::ZERO,
            cell_size: Vec2::ONE,
            layout: MapLayout::Square,
        }
    }
}

impl GridTransform {
    /// The world position of the centre of `cell`.
    #[must_use]
    pub fn cell_to_world(&self, cell: Cell) -> Vec2 {
        self.origin + self.layout.cell_offset(cell, self.cell_size)
    }

    /// The world position of the centre of the `size x size` footprint anchored at
    /// `cell` (its corner with the smallest `x` and `y`): where a unit of that size
    /// standing at `cell` is drawn. Size 1 is [`cell_to_world`](Self::cell_to_world);
    /// so is every size on hex maps, which have no footprints yet.
    #[must_use]
    pub fn footprint_to_world(&self, cell: Cell, size: u8) -> Vec2 {
        let far = i32::from(size.max(1)) - 1;
        if far == 0 || self.layout.hex().is_some() {
            return self.cell_to_world(cell);
        }
        // Square and isometric centres are affine in the cell: the footprint's centre
        // is halfway between its first and last cells'.
        let last = Cell::new(cell.x.saturating_add(far), cell.y.saturating_add(far));
        (self.cell_to_world(cell) + self.cell_to_world(last)) / 2.0
    }

    /// The world position of a unit of `size` whose anchor (its footprint's first
    /// cell's centre) is at `point` in cell units (cell `(x, y)` spans `x..x + 1`;
    /// its centre is `(x + 0.5, y + 0.5)`), between cells as well as on them: where a
    /// unit gliding along a straight route ([`Waypoints`](crate::Waypoints)) is
    /// drawn. Square and isometric positions are affine in the cell; on hex maps the
    /// point is rounded to its cell.
    #[must_use]
    pub fn point_to_world(&self, point: Vec2, size: u8) -> Vec2 {
        let cell = Cell::new(point.x.floor() as i32, point.y.floor() as i32);
        let c0 = self.footprint_to_world(cell, size);
        if self.layout.hex().is_some() {
            return c0;
        }
        let along_x =
            self.footprint_to_world(Cell::new(cell.x.saturating_add(1), cell.y), size) - c0;
        let along_y =
            self.footprint_to_world(Cell::new(cell.x, cell.y.saturating_add(1)), size) - c0;
        let d = point - Vec2::new(cell.x as f32 + 0.5, cell.y as f32 + 0.5);
        c0 + along_x * d.x + along_y * d.y
    }

    /// The cell whose tile contains `world` (it may be outside the grid).
    #[must_use]
    pub fn world_to_cell(&self, world: Vec2) -> Cell {
        self.layout.cell_at(world - self.origin, self.cell_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_round_trip() {
        let t = GridTransform {
            origin: Vec2::new(-100.0, 50.0),
            cell_size: Vec2::new(16.0, 16.0),
            layout: MapLayout::Square,
        };
        for c in [Cell::new(0, 0), Cell::new(7, 3), Cell::new(-2, 9)] {
            assert_eq!(t.world_to_cell(t.cell_to_world(c)), c);
            assert_eq!(t.world_to_cell(t.cell_to_world(c) + Vec2::splat(7.9)), c);
        }
    }
}
