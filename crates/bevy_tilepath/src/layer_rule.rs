//! How the tilemap layers of one grid combine into each cell's kind.

use bevy::prelude::*;
use tilepath::TileKind;

/// How the tilemaps mirrored into one grid (its layers: ground, walls, props...)
/// combine into each cell's kind.
///
/// Only the tilemap mirror (feature `tilemap`) reads it; a game that fills its grid
/// itself combines its layers as it likes.
///
/// Each layer gives a cell the kind of its tile there (its [`PathTile`](crate::PathTile),
/// else its [`kind_of`](crate::PathingTilemap::kind_of)), or nothing when it has no tile
/// there: a missing tile is transparent. A cell where no layer has a tile takes the
/// bottom layer's [`missing`](crate::PathingTilemap::missing) kind. Layers are ordered
/// bottom to top by their `Transform`'s z (then by entity), as they are drawn. With one
/// layer every rule gives that layer's kind: the mirror of a single map.
///
/// The default grid takes its rule from
/// [`PathingSettings::layer_rule`](crate::PathingSettings::layer_rule), a
/// [`PathingMap`](crate::PathingMap) from its own
/// [`layer_rule`](crate::PathingMap::layer_rule).
///
/// ```
/// use bevy_tilepath::LayerRule;
/// use bevy_tilepath::tilepath::TileKind;
///
/// let (ground, wall) = (Some(TileKind::K0), Some(TileKind::K1));
/// assert_eq!(LayerRule::Highest.combine(&[ground, wall], TileKind::K3), TileKind::K1);
/// assert_eq!(LayerRule::Top.combine(&[wall, ground], TileKind::K3), TileKind::K0);
/// assert_eq!(LayerRule::Any(TileKind::K1).combine(&[wall, ground], TileKind::K3), TileKind::K1);
/// assert_eq!(LayerRule::Highest.combine(&[None, None], TileKind::K3), TileKind::K3);
/// // Water (K2) on the ground layer, a bridge (K0) above it: the bridge is walkable.
/// let bridge = LayerRule::Custom(|kinds| kinds.iter().rev().flatten().next().copied());
/// assert_eq!(bridge.combine(&[Some(TileKind::K2), Some(TileKind::K0)], TileKind::K3), TileKind::K0);
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Reflect, Clone, Copy, Debug, Default)]
#[reflect(opaque, Debug, PartialEq, Clone, Default)]
#[cfg_attr(feature = "serde", reflect(Serialize, Deserialize))]
pub enum LayerRule {
    /// The highest kind any layer has there (`K3 > K2 > K1 > K0`): order your kinds by
    /// how much they stop a unit, and a wall on any layer blocks. The default.
    #[default]
    Highest,
    /// The top-most layer with a tile there decides (as the cell is drawn).
    Top,
    /// A cell where any layer has this kind takes it (a wall on any layer blocks);
    /// other cells as [`Top`](Self::Top).
    Any(TileKind),
    /// Your function of the layers' kinds there, bottom layer first (`None`: no tile on
    /// that layer); its `None` gives the bottom layer's `missing` kind.
    ///
    /// A function cannot be saved: with the `serde` feature, serialising this rule
    /// (or settings or a map holding it) is an error naming this variant, and no
    /// saved form loads as it. Save a marker of your own and set the rule again
    /// after loading.
    #[cfg_attr(feature = "serde", serde(skip))]
    Custom(fn(&[Option<TileKind>]) -> Option<TileKind>),
}

impl PartialEq for LayerRule {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Highest, Self::Highest) | (Self::Top, Self::Top) => true,
            (Self::Any(a), Self::Any(b)) => a == b,
            (Self::Custom(a), Self::Custom(b)) => core::ptr::fn_addr_eq(*a, *b),
            _ => false,
        }
    }
}

impl LayerRule {
    /// The kind of a cell whose layers (bottom first) have `kinds` there; `missing`
    /// when the rule finds none.
    #[must_use]
    pub fn combine(&self, kinds: &[Option<TileKind>], missing: TileKind) -> TileKind {
        let top = || kinds.iter().rev().flatten().next().copied();
        match *self {
            Self::Highest => kinds.iter().flatten().max().copied(),
            Self::Top => top(),
            Self::Any(kind) if kinds.contains(&Some(kind)) => Some(kind),
            Self::Any(_) => top(),
            Self::Custom(f) => f(kinds),
        }
        .unwrap_or(missing)
    }
}
