//! Why the crowd refused a request.

use crate::{Cell, GridMismatch};
use core::fmt;

/// Why a [`Crowd`](super::Crowd) call was refused. Nothing changed when one is
/// returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrowdError {
    /// The grid is not the size the crowd was made for.
    GridMismatch(GridMismatch),
    /// The agent's footprint anchored at `cell` reaches outside the grid.
    OutOfBounds {
        /// The anchor asked for.
        cell: Cell,
    },
    /// A cell of the agent's footprint is blocked for its mobility.
    Blocked {
        /// The blocked cell.
        cell: Cell,
    },
    /// A cell of the agent's footprint is held by another agent.
    Occupied {
        /// The cell held.
        cell: Cell,
        /// The agent holding it.
        by: super::AgentId,
    },
    /// A footprint side of 0, above [`MAX_UNIT_SIZE`](crate::MAX_UNIT_SIZE), or
    /// larger than the grid.
    InvalidSize {
        /// The size asked for.
        size: u8,
    },
    /// A hex connectivity: crowds move on squares, 4- or 8-connected.
    HexUnsupported,
    /// The id names no agent of this crowd (never added, or removed since).
    UnknownAgent(super::AgentId),
    /// The crowd holds the most agents it can index (`u32::MAX - 1`).
    TooManyAgents,
    /// A [`GoalFields`](super::GoalFields) field could not be made or computed.
    Field(crate::FieldError),
    /// The system could not give the memory asked for (bytes).
    OutOfMemory {
        /// Bytes asked for.
        bytes: u64,
    },
}

impl fmt::Display for CrowdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::GridMismatch(m) => write!(f, "the crowd was {m}"),
            Self::OutOfBounds { cell } => write!(f, "a footprint at {cell} leaves the grid"),
            Self::Blocked { cell } => write!(f, "cell {cell} under the footprint is blocked"),
            Self::Occupied { cell, by } => write!(f, "cell {cell} is held by agent {by:?}"),
            Self::InvalidSize { size } => write!(
                f,
                "a footprint side must be 1 to {} and fit the grid, not {size}",
                crate::MAX_UNIT_SIZE
            ),
            Self::HexUnsupported => f.write_str("crowds move 4- or 8-connected, not on hex maps"),
            Self::UnknownAgent(id) => write!(f, "no agent {id:?} in this crowd"),
            Self::TooManyAgents => f.write_str("the crowd holds the most agents it can index"),
            Self::Field(e) => write!(f, "a goal field failed: {e}"),
            Self::OutOfMemory { bytes } => write!(f, "out of memory: {bytes} bytes asked for"),
        }
    }
}

impl std::error::Error for CrowdError {}
