//! Finding a grid by its key: the default grid (the resources) or a map's
//! ([`PathingMap`]).

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::{GridTransform, MapLayout, PathingGrid, PathingMap};

/// Which grid: `None` is the default grid (the [`PathingGrid`] resource), `Some(e)` the
/// [`PathingMap`] on `e`.
pub(crate) type GridKey = Option<Entity>;

/// Every grid, to read.
#[derive(SystemParam)]
pub(crate) struct Grids<'w, 's> {
    default: Res<'w, PathingGrid>,
    transform: Res<'w, GridTransform>,
    maps: Query<'w, 's, (Entity, &'static PathingMap)>,
}

impl Grids<'_, '_> {
    /// The grid of `key` and where its cells are; `None` when `key` names an entity
    /// without a [`PathingMap`].
    pub(crate) fn get(&self, key: GridKey) -> Option<(&PathingGrid, &GridTransform)> {
        match key {
            None => Some((&self.default, &self.transform)),
            Some(e) => self.maps.get(e).ok().map(|(_, m)| (m.grid(), &m.transform)),
        }
    }

    /// Every grid with its key, the default one first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (GridKey, &PathingGrid, &GridTransform)> {
        let default = core::iter::once((None, &*self.default, &*self.transform));
        default.chain(
            self.maps
                .iter()
                .map(|(e, m)| (Some(e), m.grid(), &m.transform)),
        )
    }
}

/// Every grid, to edit.
#[derive(SystemParam)]
pub(crate) struct GridsMut<'w, 's> {
    default: ResMut<'w, PathingGrid>,
    transform: ResMut<'w, GridTransform>,
    maps: Query<'w, 's, (Entity, &'static mut PathingMap)>,
}

impl GridsMut<'_, '_> {
    #[cfg(feature = "tilemap")] // the mirror's
    /// The grid of `key`; `None` when `key` names an entity without a [`PathingMap`].
    pub(crate) fn get_mut(&mut self, key: GridKey) -> Option<&mut PathingGrid> {
        match key {
            None => Some(&mut self.default),
            Some(e) => self
                .maps
                .get_mut(e)
                .ok()
                .map(|(_, m)| m.into_inner().grid_mut()),
        }
    }

    /// The grid of `key` and its map's layout; `None` when `key` names an entity
    /// without a [`PathingMap`].
    pub(crate) fn get_mut_with_layout(
        &mut self,
        key: GridKey,
    ) -> Option<(&mut PathingGrid, MapLayout)> {
        match key {
            None => Some((&mut self.default, self.transform.layout)),
            Some(e) => self.maps.get_mut(e).ok().map(|(_, m)| {
                let m = m.into_inner();
                let layout = m.transform.layout;
                (m.grid_mut(), layout)
            }),
        }
    }

    #[cfg(feature = "tilemap")] // the mirror's
    /// Sets where the cells of `key`'s grid are, if it exists (unchanged values are not
    /// written, so `Changed` stays quiet).
    pub(crate) fn set_transform(&mut self, key: GridKey, transform: GridTransform) {
        match key {
            None => {
                self.transform.set_if_neq(transform);
            }
            Some(e) => {
                if let Ok((_, mut m)) = self.maps.get_mut(e)
                    && m.transform != transform
                {
                    m.transform = transform;
                }
            }
        }
    }

    #[cfg(feature = "tilemap")] // the mirror's
    /// Whether `key` names a grid.
    pub(crate) fn contains(&self, key: GridKey) -> bool {
        key.is_none_or(|e| self.maps.contains(e))
    }

    /// The map on `e`, if it has one.
    pub(crate) fn map_mut(&mut self, e: Entity) -> Option<Mut<'_, PathingMap>> {
        self.maps.get_mut(e).ok().map(|(_, m)| m)
    }
}
