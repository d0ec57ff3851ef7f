//! Who holds a cell: the game's view of the crowds.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use tilepath::Cell;

use super::Crowds;

/// Reads which [`Solid`](super::Solid) unit holds a cell, on the default grid or on a
/// [`PathingMap`](crate::PathingMap)'s, as of the last pathing tick.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_tilepath::prelude::*;
/// fn build_tower(occupancy: Occupancy, mut grid: ResMut<PathingGrid>) {
///     let site = Cell::new(4, 4);
///     if occupancy.holder(site).is_none() {
///         let _ = grid.set(site, TileKind::K1); // nobody stands there
///     }
/// }
/// ```
#[derive(SystemParam)]
pub struct Occupancy<'w> {
    crowds: Res<'w, Crowds>,
}

impl Occupancy<'_> {
    /// The solid unit holding `cell` of the default grid
    /// ([`PathingGrid`](crate::PathingGrid)), if any.
    #[must_use]
    pub fn holder(&self, cell: Cell) -> Option<Entity> {
        self.crowds.get(None)?.holder(cell)
    }

    /// The solid unit holding `cell` of the grid on `map` (a
    /// [`PathingMap`](crate::PathingMap)), if any.
    #[must_use]
    pub fn holder_on(&self, map: Entity, cell: Cell) -> Option<Entity> {
        self.crowds.get(Some(map))?.holder(cell)
    }
}
