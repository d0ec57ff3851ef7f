//! What a field reports: errors, its state and the work a computation did.

use crate::GridMismatch;
use core::fmt;

#[cfg(doc)]
use super::DistanceField;

/// Why a distance field could not do what was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// The grid is not the size the field was made for (nothing was changed).
    GridMismatch(GridMismatch),
    /// A reachable cell's distance (or a goal's start value, or a flee field's
    /// scaled values) exceeds what the field holds: [`DistanceField::MAX_UNITS`] in
    /// its units. The field answers nothing ([`FieldState::Overflowed`]) until a
    /// computation succeeds; a [`with_max_distance`](DistanceField::with_max_distance)
    /// limit below the range, or a 4-connected field (whose units are cost units),
    /// avoids it.
    DistanceOverflow {
        /// The largest distance the field holds, in its units.
        max_units: u32,
    },
    /// A flee factor that is not finite and greater than 0 (nothing was changed).
    InvalidFleeFactor,
    /// A unit size of 0 or above [`MAX_UNIT_SIZE`](crate::MAX_UNIT_SIZE) (nothing was
    /// changed).
    InvalidUnitSize {
        /// The size asked for.
        size: u8,
    },
    /// A unit size above 1 on a hex field ([`Connectivity::Hex`](crate::Connectivity)):
    /// footprints are squares of cells, which hex maps do not have. Unit sizes on hex
    /// maps may come later (nothing was changed).
    HexUnitSize {
        /// The size asked for.
        size: u8,
    },
    /// [`Landmarks`](crate::Landmarks) guide jump point search, which serves square
    /// maps only: a hex connectivity is refused (nothing was allocated). Hex queries
    /// of [`Jps`](crate::Jps) run its A*, which needs no landmarks.
    HexUnsupported,
    /// The system could not give the memory the field needs: at construction
    /// (nothing was allocated), or for the work queues of a computation (checked
    /// before it starts; the field is unchanged).
    OutOfMemory {
        /// Bytes asked for: [`DistanceField::bytes_for`] at construction, the
        /// queues' largest block before a computation.
        bytes: u64,
    },
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::GridMismatch(m) => write!(f, "the distance field was {m}"),
            Self::DistanceOverflow { max_units } => write!(
                f,
                "a distance exceeds the field's range of {max_units} units"
            ),
            Self::InvalidFleeFactor => {
                write!(f, "a flee factor must be finite and greater than 0")
            }
            Self::InvalidUnitSize { size } => write!(
                f,
                "a unit size must be 1 to {}, not {size}",
                crate::MAX_UNIT_SIZE
            ),
            Self::HexUnitSize { size } => write!(
                f,
                "a {size}x{size} unit on a hex map: hex fields serve units of one cell only"
            ),
            Self::HexUnsupported => f.write_str("landmarks serve square maps only, not hex maps"),
            Self::OutOfMemory { bytes } => {
                write!(f, "out of memory: the field needs {bytes} bytes")
            }
        }
    }
}

/// Whether a field's queries answer, and if not why: see [`DistanceField::state`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldState {
    /// Never computed: queries answer `None`.
    NotComputed,
    /// Computed (or repaired) from the current goals and settings: queries answer.
    Ready,
    /// The goals were cleared, a flee field's goals changed, or the maximum distance
    /// changed since the last computation: queries answer `None` until the next
    /// [`compute`](DistanceField::compute) or [`repair`](DistanceField::repair)
    /// (which then computes in full).
    Stale,
    /// The last computation or repair met a distance past
    /// [`DistanceField::MAX_UNITS`] ([`FieldError::DistanceOverflow`]): queries answer
    /// `None` until a computation succeeds.
    Overflowed,
}

impl std::error::Error for FieldError {}

/// What a computation or repair did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FieldStats {
    /// Goals that seeded the field.
    pub goals_used: usize,
    /// Goals ignored: outside the field's region, on a blocked cell, or whose start
    /// value exceeds the field's maximum distance.
    pub goals_ignored: usize,
    /// Cells whose value was set (a full computation: every reached cell).
    pub cells_updated: usize,
    /// Repairs only: cells whose old value had to be discarded.
    pub cells_invalidated: usize,
}
