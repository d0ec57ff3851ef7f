//! The pathing grid through serde (feature `serde`): saved as its [`Grid`] alone.

use super::PathingGrid;
use tilepath::Grid;

impl serde::Serialize for PathingGrid {
    /// The grid, in [`Grid`]'s own form (its size and packed cells). The change log,
    /// the generation and what the grid keeps for its mobilities (bit rows, jump
    /// distances) are not saved: they describe this session's edits and searches, not
    /// the map.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&self.grid, serializer)
    }
}

impl<'de> serde::Deserialize<'de> for PathingGrid {
    /// A resource holding the grid loaded ([`PathingGrid::new`]), checked as
    /// [`Grid`]'s `Deserialize` checks it. Its change log starts empty and the grid
    /// counts as replaced: every path and distance field is planned again once it is
    /// in the world, and the jump distances and landmarks the settings ask for are
    /// built again when first needed. To load a map into a running app, loading a
    /// [`Grid`] and handing it to [`PathingGrid::replace`] does the same.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <Grid as serde::Deserialize>::deserialize(deserializer).map(Self::new)
    }
}
