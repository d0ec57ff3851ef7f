//! What can go wrong building, editing or matching a grid.

use super::Grid;
use crate::Cell;
use core::fmt;

/// Why a grid could not be built or changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridError {
    /// A side is larger than [`Grid::MAX_SIDE`].
    TooLarge {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// [`JumpDistances`](crate::JumpDistances) were asked of a grid with a side
    /// longer than 32,767 cells, which a distance cannot span.
    TooLargeForJumps {
        /// The grid's width.
        width: u32,
        /// The grid's height.
        height: u32,
    },
    /// A structure derived from a grid ([`Derived`](crate::Derived)) was given a grid
    /// of another size than the one it was built for (nothing was changed).
    Mismatch(GridMismatch),
    /// A cell outside the grid was written to.
    OutOfBounds {
        /// The cell.
        cell: Cell,
    },
    /// The system could not give the memory the grid needs (nothing was allocated).
    OutOfMemory {
        /// Bytes the grid needs: [`Grid::bytes_for`].
        bytes: u64,
    },
    /// The packed cells given to [`Grid::from_bytes`] (or loaded) are not as many
    /// bytes as the grid's size needs (nothing was allocated).
    BytesLength {
        /// The grid's width.
        width: u32,
        /// The grid's height.
        height: u32,
        /// Bytes the size needs: `ceil(width * height / 4)`.
        expected: u64,
        /// Bytes given.
        found: u64,
    },
    /// The packed cells given to [`Grid::from_bytes`] (or loaded) have bits set past
    /// the last cell, where a grid's bytes hold 0.
    BytesPadding,
    /// A row of an ASCII map has a different length than the first one.
    RaggedRow {
        /// Row index (0 = first line).
        row: u32,
        /// Width of the first row.
        expected: u32,
        /// Width of this row.
        found: u32,
    },
    /// The legend of an ASCII map does not know a character.
    UnknownChar {
        /// The character.
        ch: char,
        /// Where it is.
        cell: Cell,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TooLarge { width, height } => write!(
                f,
                "grid of {width}x{height} cells is too large (each side at most {})",
                Grid::MAX_SIDE
            ),
            Self::TooLargeForJumps { width, height } => write!(
                f,
                "jump distances are kept for sides of at most 32767 cells, not {width}x{height}"
            ),
            Self::Mismatch(m) => write!(f, "{m}"),
            Self::OutOfBounds { cell } => write!(f, "cell {cell} is outside the grid"),
            Self::OutOfMemory { bytes } => {
                write!(f, "out of memory: the grid needs {bytes} bytes")
            }
            Self::BytesLength {
                width,
                height,
                expected,
                found,
            } => write!(
                f,
                "a {width}x{height} grid packs into {expected} bytes, but {found} were given"
            ),
            Self::BytesPadding => write!(
                f,
                "the packed cells have bits set past the last cell (they must be 0)"
            ),
            Self::RaggedRow {
                row,
                expected,
                found,
            } => write!(
                f,
                "row {row} has {found} cells but the first row has {expected}"
            ),
            Self::UnknownChar { ch, cell } => {
                write!(f, "unknown map character {ch:?} at {cell}")
            }
        }
    }
}

impl std::error::Error for GridError {}

/// A grid of another size than the one a structure derived from a grid (a
/// [`DistanceField`](crate::DistanceField), [`NextHopTable`](crate::NextHopTable),
/// [`Components`](crate::Components), ...) was made for: the same error from all
/// (nothing was changed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridMismatch {
    /// Width and height the structure was made for.
    pub expected: (u32, u32),
    /// Width and height of the grid given.
    pub found: (u32, u32),
}

impl GridMismatch {
    /// `Ok` when `grid` is `expected` in size, else the mismatch.
    pub(crate) fn check(expected: (u32, u32), grid: &Grid) -> Result<(), Self> {
        let found = (grid.width(), grid.height());
        if found == expected {
            Ok(())
        } else {
            Err(Self { expected, found })
        }
    }
}

impl fmt::Display for GridMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "made for a {}x{} grid but given a {}x{} one",
            self.expected.0, self.expected.1, self.found.0, self.found.1
        )
    }
}

impl std::error::Error for GridMismatch {}

impl From<GridMismatch> for GridError {
    fn from(m: GridMismatch) -> Self {
        Self::Mismatch(m)
    }
}
