//! The 4 and 8 directions a step can take, and the ways cells connect.

use crate::{Cell, HexLayout};

/// One of the 4 orthogonal directions of a 4-connected step.
///
/// `Up` is `+y`, as in Bevy and bevy_ecs_tilemap (see [the y
/// convention](crate#coordinates)). The discriminants are the 2-bit codes stored in a
/// [`GridPath`](crate::GridPath), counter-clockwise from `Right`; the opposite of `d`
/// is `d ^ 2`.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Direction {
    /// `+x`.
    Right = 0,
    /// `+y`.
    Up = 1,
    /// `-x`.
    Left = 2,
    /// `-y`.
    Down = 3,
}

impl Direction {
    /// The 4 directions in code order.
    pub const ALL: [Direction; 4] = [Self::Right, Self::Up, Self::Left, Self::Down];

    /// The direction with the 2-bit code `bits & 3`.
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u8) -> Self {
        match bits & 3 {
            0 => Self::Right,
            1 => Self::Up,
            2 => Self::Left,
            _ => Self::Down,
        }
    }

    /// The 2-bit code of this direction.
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u8 {
        self as u8
    }

    /// The opposite direction.
    #[inline]
    #[must_use]
    pub const fn reverse(self) -> Self {
        Self::from_bits(self as u8 ^ 2)
    }

    /// `(dx, dy)` of one step.
    #[inline]
    #[must_use]
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Self::Right => (1, 0),
            Self::Up => (0, 1),
            Self::Left => (-1, 0),
            Self::Down => (0, -1),
        }
    }
}

/// How cells connect: 4 orthogonal neighbours, 8 with diagonals (a diagonal step
/// needs both orthogonal neighbours passable: no corner cutting; it costs `sqrt(2)`
/// times the cell cost), or the 6 of a hex map.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Connectivity {
    /// Right, up, left, down.
    #[default]
    Four,
    /// The 4 orthogonal and the 4 diagonal neighbours.
    Eight,
    /// The 6 neighbours of a hex map laid out as the [`HexLayout`] says: the 4
    /// orthogonal ones and 2 diagonal ones chosen by the cell's parity. Every step
    /// costs the cell it enters; there is no corner rule.
    Hex(HexLayout),
}

impl Connectivity {
    /// Whether a step from `from` in direction `dir` is one this connectivity has:
    /// orthogonal steps only for [`Four`](Self::Four), all 8 for
    /// [`Eight`](Self::Eight) (the corner rule is the grid's to check:
    /// [`Grid::can_step_with`](crate::Grid::can_step_with)), the cell's 6 hex steps for
    /// [`Hex`](Self::Hex).
    ///
    /// ```
    /// use tilepath::{Cell, Connectivity, Direction8, HexLayout};
    /// let hex = Connectivity::Hex(HexLayout::Axial);
    /// assert!(hex.allows(Cell::new(0, 0), Direction8::UpLeft));
    /// assert!(!hex.allows(Cell::new(0, 0), Direction8::UpRight));
    /// assert!(!Connectivity::Four.allows(Cell::new(0, 0), Direction8::UpLeft));
    /// ```
    #[inline]
    #[must_use]
    pub const fn allows(self, from: Cell, dir: Direction8) -> bool {
        match self {
            Self::Four => !dir.is_diagonal(),
            Self::Eight => true,
            Self::Hex(layout) => layout.is_step(from, dir),
        }
    }
}

/// One of the 8 directions of an 8-connected step, counter-clockwise from `Right`
/// (`Up` is `+y`: see [the y convention](crate#coordinates)).
///
/// The discriminants are the 3-bit codes stored in a [`GridPath8`](crate::GridPath8);
/// even codes are orthogonal, odd codes diagonal, and the opposite of `d` is
/// `(d + 4) & 7`.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Direction8 {
    /// `+x`.
    Right = 0,
    /// `+x, +y`.
    UpRight = 1,
    /// `+y`.
    Up = 2,
    /// `-x, +y`.
    UpLeft = 3,
    /// `-x`.
    Left = 4,
    /// `-x, -y`.
    DownLeft = 5,
    /// `-y`.
    Down = 6,
    /// `+x, -y`.
    DownRight = 7,
}

impl Direction8 {
    /// The 8 directions in code order (counter-clockwise from `Right`).
    pub const ALL: [Direction8; 8] = [
        Self::Right,
        Self::UpRight,
        Self::Up,
        Self::UpLeft,
        Self::Left,
        Self::DownLeft,
        Self::Down,
        Self::DownRight,
    ];

    /// The direction with the 3-bit code `bits & 7`.
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u8) -> Self {
        Self::ALL[(bits & 7) as usize]
    }

    /// The 3-bit code of this direction.
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u8 {
        self as u8
    }

    /// Whether this is a diagonal step.
    #[inline]
    #[must_use]
    pub const fn is_diagonal(self) -> bool {
        self as u8 & 1 == 1
    }

    /// The opposite direction.
    #[inline]
    #[must_use]
    pub const fn reverse(self) -> Self {
        Self::from_bits((self as u8 + 4) & 7)
    }

    /// `(dx, dy)` of one step.
    #[inline]
    #[must_use]
    pub const fn offset(self) -> (i32, i32) {
        const OFFSETS: [(i32, i32); 8] = [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ];
        OFFSETS[self as usize]
    }

    /// The orthogonal direction, or `None` for a diagonal.
    #[inline]
    #[must_use]
    pub const fn orthogonal(self) -> Option<Direction> {
        if self.is_diagonal() {
            None
        } else {
            Some(Direction::from_bits(self as u8 >> 1))
        }
    }

    /// The diagonal that combines two orthogonal directions (e.g. `Right` + `Up`),
    /// or `None` if they are equal or opposite. Used to smooth an L-turn.
    #[must_use]
    pub const fn combine(a: Direction, b: Direction) -> Option<Direction8> {
        let (ax, ay) = a.offset();
        let (bx, by) = b.offset();
        let (dx, dy) = (ax + bx, ay + by);
        if dx == 0 || dy == 0 {
            return None;
        }
        Some(match (dx, dy) {
            (1, 1) => Self::UpRight,
            (-1, 1) => Self::UpLeft,
            (-1, -1) => Self::DownLeft,
            _ => Self::DownRight,
        })
    }
}

impl From<Direction> for Direction8 {
    #[inline]
    fn from(d: Direction) -> Self {
        Self::from_bits(d.bits() << 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_reverse() {
        for d in Direction::ALL {
            assert_eq!(Direction::from_bits(d.bits()), d);
            let (dx, dy) = d.offset();
            assert_eq!(d.reverse().offset(), (-dx, -dy));
            assert_eq!(Direction8::from(d).offset(), (dx, dy));
            assert_eq!(Direction8::from(d).orthogonal(), Some(d));
        }
        for d in Direction8::ALL {
            assert_eq!(Direction8::from_bits(d.bits()), d);
            let (dx, dy) = d.offset();
            assert_eq!(d.reverse().offset(), (-dx, -dy));
            assert_eq!(d.is_diagonal(), dx != 0 && dy != 0);
        }
    }

    #[test]
    fn combine_makes_diagonals() {
        use Direction::*;
        assert_eq!(Direction8::combine(Right, Up), Some(Direction8::UpRight));
        assert_eq!(Direction8::combine(Down, Left), Some(Direction8::DownLeft));
        assert_eq!(Direction8::combine(Right, Left), None);
        assert_eq!(Direction8::combine(Down, Down), None);
    }
}
