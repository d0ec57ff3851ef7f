#![doc = include_str!("../README.md")]

mod cell;
mod clearance;
mod components;
mod cost;
mod crowd;
mod derived;
mod direction;
mod field;
mod footprint;
mod grid;
mod hex;
mod memory;
mod mobility;
mod next_hop;
mod padded;
mod path;
mod prefetch;
mod queue;
mod search;
mod smooth;
mod topology;

pub use cell::Cell;
pub use clearance::{Clearance, MAX_UNIT_SIZE};
pub use components::{ComponentStats, Components, ReachKey};
pub use cost::{OCTILE_DIAGONAL, OCTILE_STRAIGHT};
pub use crowd::{
    AgentId, AgentSpec, AgentStatus, Crowd, CrowdError, GoalFields, Guidance, StepStats, Untangle,
};
pub use derived::{Derived, JumpDistances, OpenRows};
pub use direction::{Connectivity, Direction, Direction8};
pub use field::{DistanceField, FieldError, FieldState, FieldStats, Region, combined_next_step};
pub use footprint::{Footprint, footprint_centre};
pub use grid::{Grid, GridError, GridMismatch};
pub use hex::HexLayout;
pub use mobility::{Mobility, TileKind};
pub use next_hop::{
    Encoding, Hops, MemoryEstimate, NextHopTable, RepairStats, TableBuilder, TableCells, TableError,
};
pub use path::{GridPath, GridPath8, MAX_STEPS};
pub use search::astar::AStar;
pub use search::greedy::Greedy;
pub use search::jps::{Jps, Landmarks};
pub use search::reach::UNREACHABLE_EXPANSIONS;
pub use search::{Arrival, PathError, PathQuery, PathResult, Solver};
pub use smooth::{Sight, Smoother, Waypoint};

/// The names most programs need: `use tilepath::prelude::*;`.
pub mod prelude {
    pub use crate::{
        AStar, Arrival, Cell, Components, Connectivity, Direction, Direction8, DistanceField,
        Greedy, Grid, GridPath, GridPath8, HexLayout, Jps, Mobility, NextHopTable, PathError,
        PathQuery, PathResult, Region, Sight, Smoother, Solver, TileKind, Waypoint,
    };
}
