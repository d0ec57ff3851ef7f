//! Where cells are in the world.

use bevy::prelude::*;
use tilepath::Cell;

/// Where cells are in the world: the world position of the centre of cell `(0, 0)` and
/// the distance between neighbouring cell centres. The mirror sets it from the
/// tilemap's transform, grid size and anchor; without a tilemap set it yourself. The
/// resource places the default grid; a [`PathingMap`](crate::PathingMap) has its own
/// [`transform`](crate::PathingMap::transform).
#[derive(Resource, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq)]
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

    /// The world position of the centre of the `size x size` footprint anchored at
    /// `cell` (its corner with the smallest `x` and `y`): where a unit of that size
    /// standing at `cell` is drawn. Size 1 is [`cell_to_world`](Self::cell_to_world).
    #[must_use]
    pub fn footprint_to_world(&self, cell: Cell, size: u8) -> Vec2 {
        let half = (f32::from(size.max(1)) - 1.0) / 2.0;
        self.cell_to_world(cell) + Vec2::splat(half) * self.cell_size
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
