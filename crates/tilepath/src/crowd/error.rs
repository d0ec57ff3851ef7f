//! Why the crowd refused a request.

use crate::{Cell, Connectivity, GridMismatch, HexLayout};
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
    /// A hex agent bigger than one cell: on hex maps agents are one cell (as paths
    /// and distance fields are: [`PathError::HexUnitSize`](crate::PathError::HexUnitSize),
    /// [`FieldError::HexUnitSize`](crate::FieldError::HexUnitSize)).
    HexUnitSize {
        /// The size asked for.
        size: u8,
    },
    /// The agent moves on another layout than the crowd's agents: a crowd's agents
    /// all move on squares (4- and 8-connected ones mixed freely) or all on the hex
    /// cells of one [`HexLayout`], as a grid is laid out one way.
    LayoutMismatch {
        /// The connectivity asked for.
        connectivity: Connectivity,
        /// The layout the crowd's agents move on: `None` for squares.
        crowd: Option<HexLayout>,
    },
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
            Self::HexUnitSize { size } => {
                write!(
                    f,
                    "agents on hex maps are one cell, not {size} cells a side"
                )
            }
            Self::LayoutMismatch {
                connectivity,
                crowd: Some(layout),
            } => write!(
                f,
                "the crowd's agents move on {layout:?} hex cells, not {connectivity:?}"
            ),
            Self::LayoutMismatch {
                connectivity,
                crowd: None,
            } => write!(
                f,
                "the crowd's agents move on squares, not {connectivity:?}"
            ),
            Self::UnknownAgent(id) => write!(f, "no agent {id:?} in this crowd"),
            Self::TooManyAgents => f.write_str("the crowd holds the most agents it can index"),
            Self::Field(e) => write!(f, "a goal field failed: {e}"),
            Self::OutOfMemory { bytes } => write!(f, "out of memory: {bytes} bytes asked for"),
        }
    }
}

impl std::error::Error for CrowdError {}
