//! The path a unit follows.

use bevy::prelude::*;
use tilepath::{Cell, Direction8, GridLayer, GridPath, GridPath8};

/// The steps of a path: [`GridPath`] for 4-connected requests, [`GridPath8`] for
/// 8-connected ones. Both are small `Copy` values holding up to 56 steps.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Default, Debug, PartialEq)]
pub enum PathSteps {
    /// 4-connected steps.
    Four(GridPath),
    /// 8-connected steps.
    Eight(GridPath8),
}

impl Default for PathSteps {
    fn default() -> Self {
        Self::Four(GridPath::EMPTY)
    }
}

impl PathSteps {
    /// Takes the next step.
    pub fn next_step(&mut self) -> Option<Direction8> {
        match self {
            Self::Four(p) => p.next().map(Direction8::from),
            Self::Eight(p) => p.next(),
        }
    }

    /// The next step, without taking it.
    #[must_use]
    pub fn peek(&self) -> Option<Direction8> {
        match self {
            Self::Four(p) => p.peek().map(Direction8::from),
            Self::Eight(p) => p.peek(),
        }
    }

    /// The step after the next one.
    #[must_use]
    pub fn peek2(&self) -> Option<Direction8> {
        match self {
            Self::Four(p) => p.peek2().map(Direction8::from),
            Self::Eight(p) => p.peek2(),
        }
    }

    /// Steps not taken yet.
    #[must_use]
    pub fn remaining(&self) -> usize {
        match self {
            Self::Four(p) => p.remaining(),
            Self::Eight(p) => p.remaining(),
        }
    }

    /// All steps, taken or not.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            Self::Four(p) => p.len(),
            Self::Eight(p) => p.len(),
        }
    }

    /// Whether there are no steps at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cells the remaining steps enter, starting from `at`.
    pub fn remaining_cells(&self, at: Cell) -> impl Iterator<Item = Cell> + use<> {
        let mut steps = *self;
        let mut cell = at;
        core::iter::from_fn(move || {
            let dir = steps.next_step()?;
            cell = cell.step(dir);
            Some(cell)
        })
    }
}

/// The path a unit follows: the plugin writes it, a movement system (the ready-made
/// [`PathFollower`] or your own) steps through it with [`advance`](Self::advance).
///
/// Routes longer than 56 steps come in segments: [`continues`](Self::continues) says
/// more follows, and the plugin plans the next segment before this one runs out (see
/// [`PathingSettings::replan_margin`](crate::PathingSettings::replan_margin)).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct UnitPath {
    /// The steps (walking order; taken steps are behind the cursor).
    pub steps: PathSteps,
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
    /// The layer the path was planned for: a follower checks each step against it
    /// (also after the unit's [`PathRequest`](crate::PathRequest) is removed) and stops
    /// before a step the layer does not allow. The plugin sets it; a path you build
    /// yourself should set it to the walker's layer (the default,
    /// [`GridLayer::ALL_PASSABLE`], lets it step onto any cell of the grid).
    pub layer: GridLayer,
}

impl Default for UnitPath {
    /// No steps; any cell of the grid may be walked ([`GridLayer::ALL_PASSABLE`]).
    fn default() -> Self {
        Self {
            steps: PathSteps::default(),
            at: Cell::default(),
            goal: Cell::default(),
            end: Cell::default(),
            continues: false,
            route_cost: 0.0,
            layer: GridLayer::ALL_PASSABLE,
        }
    }
}

impl UnitPath {
    /// Takes the next step and returns the cell it enters (also stored in
    /// [`at`](Self::at)); `None` when no steps are left.
    pub fn advance(&mut self) -> Option<Cell> {
        let dir = self.steps.next_step()?;
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
        self.steps.remaining_cells(self.at)
    }
}
