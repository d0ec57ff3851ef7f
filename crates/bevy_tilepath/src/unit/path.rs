//! The path a unit follows.

use bevy::prelude::*;

use super::Waypoints;
use tilepath::{Cell, Connectivity, Direction8, GridPath8, Mobility};

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
    /// The straight route the steps were pulled along, if they were (see
    /// [`PathingSettings::straight_routes`](crate::PathingSettings::straight_routes)):
    /// what a follower draws the unit gliding along.
    pub waypoints: Waypoints,
}

/// How many of its next cells a path looks at to take back a unit that stepped off it
/// ([`UnitPath::rejoin`]).
const REJOIN_AHEAD: usize = 6;

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
            waypoints: Waypoints::default(),
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

    /// Puts the path back under a unit that stepped off it to `cell` (made to step
    /// aside, back, or round another): the path goes on from `cell` by the furthest of
    /// its next [`REJOIN_AHEAD`] cells that `cell` is, or is one step from by a step
    /// `connectivity` has ([`Connectivity::allows`]: on hex maps the cell's hex
    /// steps) and `step_ok` allows, or else by such a step back to where the unit
    /// left it. `false`, changing nothing, when there is none: the unit is then off
    /// its path (and planned again).
    pub(crate) fn rejoin(
        &mut self,
        cell: Cell,
        connectivity: Connectivity,
        step_ok: impl Fn(Cell, Direction8) -> bool,
    ) -> bool {
        let ok = |d: Direction8| connectivity.allows(cell, d) && step_ok(cell, d);
        let mut best = None;
        for (k, c) in self.cells_ahead().take(REJOIN_AHEAD).enumerate() {
            if c == cell {
                best = Some((k + 1, None));
                continue;
            }
            let d = Direction8::ALL.into_iter().find(|d| cell.step(*d) == c);
            if let Some(d) = d.filter(|&d| ok(d)) {
                best = Some((k + 1, Some(d)));
            }
        }
        // Else back to where it left the path (pushed back along it), if one more
        // step fits.
        if best.is_none() && self.remaining() < GridPath8::CAPACITY {
            let d = Direction8::ALL
                .into_iter()
                .find(|d| cell.step(*d) == self.at);
            if let Some(d) = d.filter(|&d| ok(d)) {
                best = Some((0, Some(d)));
            }
        }
        let Some((taken, first)) = best else {
            return false;
        };
        let mut steps = GridPath8::EMPTY;
        if let Some(d) = first {
            let _ = steps.push(d);
        }
        for d in self.steps.iter().skip(taken) {
            let _ = steps.push(d);
        }
        self.steps = steps;
        self.at = cell;
        true
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

#[cfg(test)]
mod tests {
    use super::*;

    fn along_x(n: usize) -> UnitPath {
        let mut steps = GridPath8::EMPTY;
        for _ in 0..n {
            assert!(steps.push(Direction8::Right));
        }
        UnitPath {
            steps,
            end: Cell::new(n as i32, 0),
            ..Default::default()
        }
    }

    #[test]
    fn a_unit_stepped_aside_rejoins_its_path_further_on() {
        let open = |_: Cell, _: Direction8| true;
        let (four, eight) = (Connectivity::Four, Connectivity::Eight);
        // 8-connected: from (1, 1) the furthest path cell a step away is (2, 0).
        let mut p = along_x(5);
        assert!(p.rejoin(Cell::new(1, 1), eight, open));
        assert_eq!((p.at, p.remaining()), (Cell::new(1, 1), 4));
        assert_eq!(p.peek_cell(), Some(Cell::new(2, 0)));
        assert_eq!(p.cells_ahead().last(), Some(p.end));
        // 4-connected: only the cell straight beside it, (1, 0).
        let mut p = along_x(5);
        assert!(p.rejoin(Cell::new(1, 1), four, open));
        assert_eq!(p.peek_cell(), Some(Cell::new(1, 0)));
        assert_eq!(p.cells_ahead().last(), Some(p.end));
        // Moved onto a cell further along: the steps up to it are taken.
        let mut p = along_x(5);
        assert!(p.rejoin(Cell::new(3, 0), four, open));
        assert_eq!((p.at, p.remaining()), (Cell::new(3, 0), 2));
        // Pushed back: a step back onto the path first.
        let mut p = along_x(5);
        assert!(p.rejoin(Cell::new(-1, 0), four, open));
        assert_eq!((p.remaining(), p.peek_cell()), (6, Some(Cell::new(0, 0))));
        assert_eq!(p.cells_ahead().last(), Some(p.end));
        // Too far, or no legal step back: unchanged.
        let mut p = along_x(5);
        let before = p;
        assert!(!p.rejoin(Cell::new(1, 3), eight, open));
        assert!(!p.rejoin(Cell::new(1, 1), eight, |_, _| false));
        assert_eq!(p, before);
    }

    #[test]
    fn a_unit_stepped_aside_on_a_hex_map_rejoins_by_a_hex_step() {
        use tilepath::HexLayout;
        let open = |_: Cell, _: Direction8| true;
        // From (1, 1), an odd row: down-right to (2, 0) is a hex step where odd rows
        // are shifted right, down-left where even rows are (then (1, 0), below it).
        for (layout, next) in [
            (HexLayout::RowOdd, Cell::new(2, 0)),
            (HexLayout::RowEven, Cell::new(1, 0)),
        ] {
            let mut p = along_x(5);
            assert!(p.rejoin(Cell::new(1, 1), Connectivity::Hex(layout), open));
            assert_eq!(p.peek_cell(), Some(next), "{layout:?}");
            assert_eq!(p.cells_ahead().last(), Some(p.end));
        }
    }
}
