//! The part of a grid a field covers.

use crate::Cell;

/// A rectangle of cells, `min` and `max` included.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// The corner with the smallest coordinates.
    pub min: Cell,
    /// The corner with the largest coordinates (included).
    pub max: Cell,
}

impl Region {
    /// The region from `min` to `max`, both included.
    #[must_use]
    pub const fn new(min: Cell, max: Cell) -> Self {
        Self { min, max }
    }

    /// The square of cells within Chebyshev distance `radius` of `center`.
    #[must_use]
    pub const fn around(center: Cell, radius: u32) -> Self {
        let r = if radius > i32::MAX as u32 {
            i32::MAX
        } else {
            radius as i32
        };
        Self {
            min: Cell::new(center.x.saturating_sub(r), center.y.saturating_sub(r)),
            max: Cell::new(center.x.saturating_add(r), center.y.saturating_add(r)),
        }
    }

    /// Whether `cell` lies in the region.
    #[must_use]
    pub const fn contains(&self, cell: Cell) -> bool {
        cell.x >= self.min.x && cell.x <= self.max.x && cell.y >= self.min.y && cell.y <= self.max.y
    }
}
