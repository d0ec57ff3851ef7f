//! All-pairs next-hop table: for every ordered pair of passable cells, the first step
//! of a cheapest path, answered in O(1) and repaired after edits.

mod branches;
mod codec;
mod config;
mod handout;
mod patch;
mod shape;
mod table;
mod worker;

use crate::queue::StepQueues;
use crate::topology::{padded_offsets, square_codes};
use crate::{Cell, Connectivity, Direction, Direction8, Grid, GridPath, GridPath8, Mobility};
use branches::{Branches, CORE, ROOT, legal_step, peel};
use core::fmt;
use std::sync::Mutex;

pub use config::{Encoding, MemoryEstimate, RepairStats, TableBuilder, TableCells, TableError};
pub use table::{Hops, NextHopTable};
use {codec::*, handout::*, shape::*, worker::*};

/// No entry / unreached / not a component.
const NONE: u32 = u32::MAX;

/// The residue one step closer than residue `r`.
#[inline(always)]
const fn closer(r: u8) -> u8 {
    if r == 0 { 2 } else { r - 1 }
}
