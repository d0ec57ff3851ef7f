//! Why a search could not run at all.

use crate::{Cell, Connectivity, Grid};
use core::fmt;

/// Why a search could not run at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathError {
    /// The start cell is outside the grid (an empty grid has no cells at all).
    StartOutOfBounds {
        /// The start cell.
        start: Cell,
        /// Width of the grid.
        width: u32,
        /// Height of the grid.
        height: u32,
    },
    /// A whole-grid search needs one scratch slot per cell, row stride rounded up to a
    /// power of two, and at most `u32::MAX` of them.
    GridTooLarge {
        /// Width of the grid.
        width: u32,
        /// Height of the grid.
        height: u32,
    },
    /// The system could not give a whole-grid search's scratch (nothing was
    /// allocated; the solver is unchanged).
    OutOfMemory {
        /// Bytes the scratch needs: [`AStar::whole_grid_bytes`](crate::AStar::whole_grid_bytes).
        bytes: u64,
    },
    /// A sized query's unit has size 0.
    ZeroUnitSize,
    /// A sized query's unit cannot fit anywhere: it is larger than the grid's width or
    /// height, or than [`MAX_UNIT_SIZE`](crate::MAX_UNIT_SIZE).
    UnitTooLarge {
        /// The unit's side.
        size: u8,
        /// Width of the grid.
        width: u32,
        /// Height of the grid.
        height: u32,
    },
    /// A sized query's [`Clearance`](crate::Clearance) is of another grid size, or
    /// was built for a mobility that enters other tile kinds than the query's.
    ClearanceMismatch,
    /// A hex query's unit is bigger than one cell: unit sizes on hex maps are not
    /// supported yet.
    HexUnitSize {
        /// The unit's side.
        size: u8,
    },
    /// The solver does not search this connectivity: [`Greedy`](crate::Greedy) takes
    /// 4-connected and hex queries only.
    UnsupportedConnectivity {
        /// The query's connectivity.
        connectivity: Connectivity,
    },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::StartOutOfBounds {
                start,
                width,
                height,
            } => write!(f, "start cell {start} is outside the {width}x{height} grid"),
            Self::GridTooLarge { width, height } => write!(
                f,
                "a {width}x{height} grid is too large for a whole-grid search"
            ),
            Self::OutOfMemory { bytes } => write!(
                f,
                "out of memory: a whole-grid search of this grid needs {bytes} bytes"
            ),
            Self::ZeroUnitSize => f.write_str("a unit of size 0 occupies no cell"),
            Self::UnitTooLarge {
                size,
                width,
                height,
            } => write!(
                f,
                "a {size}x{size} unit fits nowhere on a {width}x{height} grid (sizes go up to {})",
                crate::MAX_UNIT_SIZE
            ),
            Self::ClearanceMismatch => f.write_str(
                "the clearance is of another grid size or of a mobility entering other tile kinds",
            ),
            Self::HexUnitSize { size } => {
                write!(f, "a {size}x{size} unit: hex maps take one-cell units only")
            }
            Self::UnsupportedConnectivity { connectivity } => {
                write!(f, "this solver does not search {connectivity:?} queries")
            }
        }
    }
}

impl std::error::Error for PathError {}

impl PathError {
    /// `start` is not a cell of `grid`.
    pub(crate) fn start_out_of_bounds(grid: &Grid, start: Cell) -> Self {
        Self::StartOutOfBounds {
            start,
            width: grid.width(),
            height: grid.height(),
        }
    }
}
