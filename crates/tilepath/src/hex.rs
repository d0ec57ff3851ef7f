//! Hexagonal maps: the coordinate systems bevy_ecs_tilemap draws hex tiles in.

use crate::topology::{hex_axial, hex_codes, hex_mask};
use crate::{Cell, Direction8};

/// How the cells of a hex map are laid out: the coordinate systems of bevy_ecs_tilemap's
/// hex maps, with a `TilePos { x, y }` used directly as the cell `(x, y)`.
///
/// Every hex step is one of the 8 square steps ([`Direction8`]): each cell has its 4
/// orthogonal neighbours and 2 of its diagonal ones, which 2 depending on the layout
/// and, for the offset layouts, on the parity of the cell's row or column. Paths on
/// hex maps are [`GridPath8`](crate::GridPath8)s of those steps, so walking and
/// iterating them works as on square maps. A hex step costs the cost of the cell it
/// enters (no `sqrt(2)`: all 6 neighbours are equally far), and there is no corner
/// rule.
///
/// The axial coordinates `(q, r)` of a cell ([`to_axial`](Self::to_axial)) are
/// bevy_ecs_tilemap's: its neighbours are at axial `(1, 0)`, `(0, 1)`, `(-1, 1)`,
/// `(-1, 0)`, `(0, -1)`, `(1, -1)` (its `HexDirection` order), and the distance between
/// two cells is `max(|dq|, |dr|, |dq + dr|)`.
///
/// ```
/// use tilepath::{Cell, Direction8, HexLayout};
/// // Odd rows are shifted right: from an even row the diagonals lead up-left and
/// // down-left, from an odd row up-right and down-right.
/// let layout = HexLayout::RowOdd;
/// assert!(layout.is_step(Cell::new(3, 2), Direction8::UpLeft));
/// assert!(!layout.is_step(Cell::new(3, 2), Direction8::UpRight));
/// assert!(layout.is_step(Cell::new(3, 3), Direction8::UpRight));
/// assert_eq!(layout.distance(Cell::new(0, 0), Cell::new(3, 4)), 5);
/// ```
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexLayout {
    /// Axial coordinates: the cell is `(q, r)` (bevy_ecs_tilemap's `Row` and `Column`
    /// hex systems, whose tile positions are axial). The diagonal steps are up-left
    /// and down-right everywhere.
    Axial,
    /// Offset rows, even rows shifted right (`RowEven`): `q = x - ceil(y / 2)`,
    /// `r = y`.
    RowEven,
    /// Offset rows, odd rows shifted right (`RowOdd`): `q = x - floor(y / 2)`,
    /// `r = y`.
    RowOdd,
    /// Offset columns, even columns shifted up (`ColumnEven`): `q = x`,
    /// `r = y - ceil(x / 2)`.
    ColumnEven,
    /// Offset columns, odd columns shifted up (`ColumnOdd`): `q = x`,
    /// `r = y - floor(x / 2)`.
    ColumnOdd,
}

impl HexLayout {
    /// The 5 layouts.
    pub const ALL: [HexLayout; 5] = [
        Self::Axial,
        Self::RowEven,
        Self::RowOdd,
        Self::ColumnEven,
        Self::ColumnOdd,
    ];

    /// The 6 steps from `cell` to its neighbours, in bevy_ecs_tilemap's `HexDirection`
    /// order: towards axial `(1, 0)`, `(0, 1)`, `(-1, 1)`, `(-1, 0)`, `(0, -1)`,
    /// `(1, -1)` (counter-clockwise around the cell).
    ///
    /// Any cell has them, inside a grid or not (parity uses floor division, so
    /// negative coordinates follow the same pattern).
    #[inline]
    #[must_use]
    pub const fn directions(self, cell: Cell) -> [Direction8; 6] {
        let c = hex_codes(self, cell.x, cell.y);
        [
            Direction8::from_bits(c[0]),
            Direction8::from_bits(c[1]),
            Direction8::from_bits(c[2]),
            Direction8::from_bits(c[3]),
            Direction8::from_bits(c[4]),
            Direction8::from_bits(c[5]),
        ]
    }

    /// Whether `dir` is one of the 6 hex steps from `cell`.
    #[inline]
    #[must_use]
    pub const fn is_step(self, cell: Cell, dir: Direction8) -> bool {
        hex_mask(self, cell.x, cell.y) >> dir.bits() & 1 == 1
    }

    /// The axial coordinates `(q, r)` of `cell` (see the type's docs). Wraps at the
    /// ends of the `i32` range rather than panicking.
    #[inline]
    #[must_use]
    pub const fn to_axial(self, cell: Cell) -> (i32, i32) {
        let (q, r) = hex_axial(self, cell.x as i64, cell.y as i64);
        (q as i32, r as i32)
    }

    /// The cell at axial coordinates `(q, r)`: the inverse of
    /// [`to_axial`](Self::to_axial). Wraps at the ends of the `i32` range.
    ///
    /// ```
    /// use tilepath::{Cell, HexLayout};
    /// for layout in HexLayout::ALL {
    ///     let cell = Cell::new(-3, 7);
    ///     let (q, r) = layout.to_axial(cell);
    ///     assert_eq!(layout.from_axial(q, r), cell);
    /// }
    /// ```
    #[inline]
    #[must_use]
    pub const fn from_axial(self, q: i32, r: i32) -> Cell {
        let (x, y) = crate::topology::hex_from_axial(self, q as i64, r as i64);
        Cell::new(x as i32, y as i32)
    }

    /// The number of hex steps between `a` and `b` on an open map:
    /// `max(|dq|, |dr|, |dq + dr|)` in axial coordinates. Saturates at `u32::MAX`
    /// (only cells far outside any grid are that far apart).
    #[inline]
    #[must_use]
    pub const fn distance(self, a: Cell, b: Cell) -> u32 {
        let d = crate::topology::hex_distance(self, a.x as i64, a.y as i64, b.x as i64, b.y as i64);
        if d > u32::MAX as u64 {
            u32::MAX
        } else {
            d as u32
        }
    }

    /// The layout with index `i` in [`ALL`](Self::ALL) (a const generic's value).
    pub(crate) const fn from_index(i: u8) -> Self {
        Self::ALL[i as usize % 5]
    }

    /// Its index in [`ALL`](Self::ALL).
    pub(crate) const fn index(self) -> u8 {
        self as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip() {
        for (i, l) in HexLayout::ALL.into_iter().enumerate() {
            assert_eq!(l.index() as usize, i);
            assert_eq!(HexLayout::from_index(i as u8), l);
        }
    }

    #[test]
    fn extreme_cells_do_not_panic() {
        for l in HexLayout::ALL {
            let (a, b) = (Cell::new(i32::MIN, i32::MAX), Cell::new(i32::MAX, i32::MIN));
            let _ = l.to_axial(a);
            let _ = l.to_axial(b);
            assert_eq!(l.distance(a, b), u32::MAX);
            assert_eq!(l.distance(a, a), 0);
            let _ = l.directions(a);
        }
    }
}
