//! The path a unit follows.

use bevy::prelude::*;
use tilepath::{Cell, GridPath8, Mobility};

#[cfg(doc)]
use crate::PathFollower;

/// The path a unit follows: the plugin writes it, a movement system (the ready-made
/// [`PathFollower`] or your own) steps through it with [`advance`](Self::advance).
///
/// Routes longer than 56 steps come in segments: [`continues`](Self::continues) says
/// more follows, and the plugin plans the next segment before this one runs out (see
/// [`PathingSettings::replan_margin`](crate::PathingSettings::replan_margin)).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct UnitPath {
    /// The steps (walking order; taken steps are behind the cursor). 4-connected
    /// requests get straight steps only; a [`GridPath`](tilepath::GridPath) you built
    /// converts with `into()`.
    pub steps: GridPath8,
    /// The cell the unit is at along the path (the start, then each step's cell).
    pub at: Cell,
    /// The goal cell the path was planned for.
    pub goal: Cell,
    /// The cell the steps end at.
    pub end: Cell,
    /// The whole route goes on past `end`: another segment will follow.
    pub continues: bool,
    /// The cost of the whole route found (all segments), from the start of this one.
    pub route_cost: f32,
    /// The mobility the path was planned for: a follower checks each step against it
    /// (also after the unit's [`PathRequest`](crate::PathRequest) is removed) and stops
    /// before a step the mobility does not allow. The plugin sets it; a path you build
    /// yourself should set it to the walker's mobility (the default,
    /// [`Mobility::ALL_PASSABLE`], lets it step onto any cell of the grid).
    pub mobility: Mobility,
    /// The side of the unit the path was planned for, in cells: a follower checks
    /// each step for the whole footprint
    /// ([`Grid::can_step_sized`](tilepath::Grid::can_step_sized)) and places the unit
    /// at the footprint's centre. 1 by default.
    pub size: u8,
}

impl Default for UnitPath {
    /// No steps; any cell of the grid may be walked ([`Mobility::ALL_PASSABLE`]).
    fn default() -> Self {
        Self {
            steps: GridPath8::EMPTY,
            at: Cell::default(),
            goal: Cell::default(),
            end: Cell::default(),
            continues: false,
            route_cost: 0.0,
            mobility: Mobility::ALL_PASSABLE,
            size: 1,
        }
    }
}

impl UnitPath {
    /// Takes the next step and returns the cell it enters (also stored in
    /// [`at`](Self::at)); `None` when no steps are left.
    pub fn advance(&mut self) -> Option<Cell> {
        let dir = self.steps.next()?;
        self.at = self.at.step(dir);
        Some(self.at)
    }

    /// The cell the next step enters, without taking it.
    #[must_use]
    pub fn peek_cell(&self) -> Option<Cell> {
        self.steps.peek().map(|d| self.at.step(d))
    }

    /// Steps not taken yet.
    #[must_use]
    pub fn remaining(&self) -> usize {
        self.steps.remaining()
    }

    /// Whether the unit has walked to the end of this segment.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.steps.remaining() == 0
    }

    /// The cells still ahead, for debugging and drawing.
    pub fn cells_ahead(&self) -> impl Iterator<Item = Cell> + use<> {
        let mut cell = self.at;
        self.steps.iter().map(move |dir| {
            cell = cell.step(dir);
            cell
        })
    }
}
