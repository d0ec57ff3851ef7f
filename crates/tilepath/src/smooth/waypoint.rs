//! Where a straight route turns: a cell's centre or a corner between cells.

use crate::Cell;

/// A point of an any-angle route: the centre of a cell or a corner where cells meet,
/// for the unit's anchor cell (its footprint's top-left cell; a one-cell unit's own
/// cell). Stored exactly, in half cells, so that line-of-sight tests never round.
///
/// ```
/// use tilepath::{Cell, Waypoint};
/// let centre = Waypoint::centre_of(Cell::new(2, 3));
/// assert_eq!(centre.position(1), (2.5, 3.5));
/// assert_eq!(centre.position(2), (3.0, 4.0)); // a 2x2 unit's footprint centre
/// assert_eq!(Waypoint::corner_of(Cell::new(2, 3)).position(1), (2.0, 3.0));
/// assert_eq!(centre.cell(), Some(Cell::new(2, 3)));
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Waypoint {
    /// Column in half cells: cell `x` spans `2x..2x + 2`.
    x2: i64,
    /// Row in half cells.
    y2: i64,
}

impl Waypoint {
    /// The centre of `cell`.
    #[inline]
    #[must_use]
    pub const fn centre_of(cell: Cell) -> Self {
        Self {
            x2: 2 * cell.x as i64 + 1,
            y2: 2 * cell.y as i64 + 1,
        }
    }

    /// The corner `cell` shares with the cells at lower `x` and `y` (its corner at
    /// `(x, y)` in cell units).
    #[inline]
    #[must_use]
    pub const fn corner_of(cell: Cell) -> Self {
        Self {
            x2: 2 * cell.x as i64,
            y2: 2 * cell.y as i64,
        }
    }

    /// The point in half cells: `(2x + 1, 2y + 1)` is the centre of cell `(x, y)`.
    #[inline]
    #[must_use]
    pub const fn half_cells(self) -> (i64, i64) {
        (self.x2, self.y2)
    }

    /// The point at `(x2, y2)` half cells.
    #[inline]
    #[must_use]
    pub const fn from_half_cells(x2: i64, y2: i64) -> Self {
        Self { x2, y2 }
    }

    /// The cell this is the centre of, or `None` for a corner (or a point on an edge).
    #[must_use]
    pub fn cell(self) -> Option<Cell> {
        if self.x2 & 1 == 1 && self.y2 & 1 == 1 {
            Some(Cell::new(
                i32::try_from(self.x2.div_euclid(2)).ok()?,
                i32::try_from(self.y2.div_euclid(2)).ok()?,
            ))
        } else {
            None
        }
    }

    /// Whether this is a corner where four cells meet.
    #[inline]
    #[must_use]
    pub const fn is_corner(self) -> bool {
        self.x2 & 1 == 0 && self.y2 & 1 == 0
    }

    /// Where a unit of `size x size` cells whose anchor is at this point has its
    /// footprint's centre, in cell units (cell `(x, y)` spans `x..x + 1`): the same
    /// convention as [`footprint_centre`](crate::footprint_centre), so that a route's
    /// centre waypoints are where a unit standing on those cells is drawn.
    #[must_use]
    pub fn position(self, size: u8) -> (f32, f32) {
        let extra = f32::from(size.max(1) - 1) / 2.0;
        (self.x2 as f32 / 2.0 + extra, self.y2 as f32 / 2.0 + extra)
    }

    /// The straight-line (Euclidean) distance to `other`, in cells.
    #[inline]
    #[must_use]
    pub fn distance(self, other: Self) -> f64 {
        let (dx, dy) = ((other.x2 - self.x2) as f64, (other.y2 - self.y2) as f64);
        (dx * dx + dy * dy).sqrt() / 2.0
    }
}
