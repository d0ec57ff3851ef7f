//! Grid coordinates.

use core::fmt;
use core::ops::{Add, Sub};

/// A cell of a [`Grid`](crate::Grid): column `x`, row `y`.
///
/// [`Direction::Up`](crate::Direction::Up) is `+y` (see [the y
/// convention](crate#coordinates)). Coordinates are signed so that
/// neighbours of border cells and positions outside the grid can be written down:
/// such cells read as blocked and are never part of a path.
///
/// ```
/// use tilepath::{Cell, Direction};
/// let c = Cell::new(3, 4);
/// assert_eq!(c.step(Direction::Right), Cell::new(4, 4));
/// assert_eq!(c.manhattan(Cell::new(0, 0)), 7);
/// ```
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// Column, 0 at the left.
    pub x: i32,
    /// Row, 0 at the top (the first line of an ASCII map).
    pub y: i32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    #[inline]
    #[must_use]
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// The neighbouring cell in direction `dir` (4 or 8 directions). Coordinates wrap
    /// around at the ends of the `i32` range (such cells are outside every grid).
    #[inline]
    #[must_use]
    pub fn step(self, dir: impl Into<crate::Direction8>) -> Self {
        let (dx, dy) = dir.into().offset();
        Self::new(self.x.wrapping_add(dx), self.y.wrapping_add(dy))
    }

    /// Manhattan (4-connected) distance to `other`, saturating at `u32::MAX` (only
    /// cells more than `u32::MAX` apart, near opposite ends of the `i32` range, reach
    /// it).
    #[inline]
    #[must_use]
    pub const fn manhattan(self, other: Cell) -> u32 {
        self.x
            .abs_diff(other.x)
            .saturating_add(self.y.abs_diff(other.y))
    }

    /// Chebyshev (8-connected step count) distance to `other`.
    #[inline]
    #[must_use]
    pub const fn chebyshev(self, other: Cell) -> u32 {
        let dx = self.x.abs_diff(other.x);
        let dy = self.y.abs_diff(other.y);
        if dx > dy { dx } else { dy }
    }

    /// Octile distance to `other`: the length of the shortest 8-connected path on an
    /// open grid, diagonal steps costing `sqrt(2)`.
    #[inline]
    #[must_use]
    pub fn octile(self, other: Cell) -> f64 {
        let dx = self.x.abs_diff(other.x);
        let dy = self.y.abs_diff(other.y);
        let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
        f64::from(hi - lo) + f64::from(lo) * core::f64::consts::SQRT_2
    }
}

impl From<(i32, i32)> for Cell {
    #[inline]
    fn from((x, y): (i32, i32)) -> Self {
        Self::new(x, y)
    }
}

impl From<Cell> for (i32, i32) {
    #[inline]
    fn from(c: Cell) -> Self {
        (c.x, c.y)
    }
}

/// Component-wise sum; coordinates wrap around at the ends of the `i32` range.
impl Add for Cell {
    type Output = Cell;
    #[inline]
    fn add(self, rhs: Cell) -> Cell {
        Cell::new(self.x.wrapping_add(rhs.x), self.y.wrapping_add(rhs.y))
    }
}

/// Component-wise difference; coordinates wrap around at the ends of the `i32` range.
impl Sub for Cell {
    type Output = Cell;
    #[inline]
    fn sub(self, rhs: Cell) -> Cell {
        Cell::new(self.x.wrapping_sub(rhs.x), self.y.wrapping_sub(rhs.y))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}
