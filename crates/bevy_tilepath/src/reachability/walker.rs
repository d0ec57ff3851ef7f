//! Who walks, for the questions of [`Reachability`](super::Reachability).

use bevy::prelude::*;
use tilepath::{Connectivity, Mobility};

use crate::{OnGrid, PathRequest};

/// A unit's way of walking: its mobility, connectivity and size, and the grid it walks
/// on, as [`Reachability`](super::Reachability) reads them.
///
/// ```
/// # use bevy_tilepath::prelude::*;
/// let ogre = PathRequest::to_cell(Cell::new(9, 9)).with_size(2);
/// assert_eq!(Walker::from(&ogre), Walker::new(Mobility::FLOOR_ONLY).with_size(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walker {
    /// The tile kinds it can enter (costs do not matter here).
    pub mobility: Mobility,
    /// How it steps. 4- and 8-connected walkers reach the same cells (a diagonal step
    /// needs both cells beside its corner open); on a hex map every walker moves to
    /// the 6 neighbours, whatever this says.
    pub connectivity: Connectivity,
    /// Its side in cells (see [`PathRequest::size`]).
    pub size: u8,
    /// The grid it walks on: `None` for the default grid, or the entity of a
    /// [`PathingMap`](crate::PathingMap) (see [`OnGrid`]).
    pub grid: Option<Entity>,
}

impl Walker {
    /// A one-cell, 4-connected walker of `mobility` on the default grid.
    #[must_use]
    pub const fn new(mobility: Mobility) -> Self {
        Self {
            mobility,
            connectivity: Connectivity::Four,
            size: 1,
            grid: None,
        }
    }

    /// A walker moving as a unit with `request` on `on_grid` does.
    #[must_use]
    pub fn of(request: &PathRequest, on_grid: Option<&OnGrid>) -> Self {
        Self {
            grid: on_grid.map(|g| g.0),
            ..Self::from(request)
        }
    }

    /// Of side `size`.
    #[must_use]
    pub const fn with_size(mut self, size: u8) -> Self {
        self.size = size;
        self
    }

    /// Stepping as `connectivity`.
    #[must_use]
    pub const fn with_connectivity(mut self, connectivity: Connectivity) -> Self {
        self.connectivity = connectivity;
        self
    }

    /// On the [`PathingMap`](crate::PathingMap) of `map`.
    #[must_use]
    pub const fn on_grid(mut self, map: Entity) -> Self {
        self.grid = Some(map);
        self
    }
}

impl From<&PathRequest> for Walker {
    /// The request's mobility, connectivity and size, on the default grid.
    fn from(request: &PathRequest) -> Self {
        Self {
            mobility: request.mobility,
            connectivity: request.connectivity,
            size: request.size,
            grid: None,
        }
    }
}
