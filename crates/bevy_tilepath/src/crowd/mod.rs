//! Crowds: units that hold their cells ([`Solid`]) and are moved together, so that no
//! two ever share a cell.
//!
//! Each grid has its own [`Crowd`](tilepath::Crowd) (the core's joint step), kept
//! equal to the grid's solid units by `seats.rs`; `step.rs` runs one joint step every
//! period of the grid's clock (`seats.rs`: `StepClock`), guided by the units' shared
//! fields or paths (`guide.rs`), and hands each its next cell, which its
//! [`PathFollower`](crate::PathFollower) walks to within the period.

mod guide;
mod occupancy;
mod seats;
mod step;
mod untangling;

use bevy::prelude::*;
use tilepath::{AgentId, Cell};

use crate::grid::GridKey;

pub use occupancy::Occupancy;
pub(crate) use seats::{Crowds, GridCrowd};
pub(crate) use step::{
    note_departure, note_new_map, plan_crowds, plan_crowds_on_main, plan_on_main, step_crowds,
};

/// Makes a unit hold the cells of its footprint: no two solid units ever stand on the
/// same cell, and none walks through another.
///
/// A solid unit with a [`PathFollower`](crate::PathFollower) no longer takes its next
/// step from its path alone: the solid units of a grid step together, in lockstep.
/// Each step the plugin decides at once where every solid unit goes next, following
/// its [`UnitPath`](crate::UnitPath) where the way is free, asking a unit in the way
/// to step aside, stepping round or waiting otherwise (the rule:
/// [`Crowd`](tilepath::Crowd)); groups meeting head-on in a corridor one cell wide
/// pass each other, one backing out to let the other through. Units heading for a
/// goal the plugin keeps a shared distance field of (many units with one goal, or
/// chasing one target: [`PathingSettings::field_threshold`](crate::PathingSettings::field_threshold))
/// are stepped by that field: they surround the goal from every side, each on a cell
/// of its own as near as it gets; one stands on it. Who holds a cell: [`Occupancy`].
///
/// # Implementation
///
/// The pace: a grid's crowd steps every period, as often as its fastest solid unit
/// walks a cell (a whole number of ticks), and every unit walks the step decided for
/// it within that period, so that between steps every solid unit stands on a cell.
/// Each step is planned over the period before it, a share each tick, while the
/// units walk the last one ([`Crowd::begin_step`](tilepath::Crowd::begin_step)), so
/// that a crowd of tens of thousands costs about the same every tick instead of all
/// on the ticks it steps; each tick's share is planned by a system of its own, beside
/// the followers (both only read the crowds): on the main thread while the followers
/// run on the compute pool, so the two run side by side whatever the pool's size (on
/// the pool where it has as many threads as the machine has cores). A
/// unit's next step is decided from where its current step takes it, by its path and
/// its goal's field as they were when it was planned (each unit's guide is made
/// again whenever its path changes, as it walks). Whatever changes meanwhile (a unit
/// placed, moved by hand, turned back or despawned, a wall) only ever cancels decided moves: a unit whose move closed
/// waits for the next step, and so does every unit that was to follow it. A
/// unit enters a cell that another leaves in the same step behind it, as a file: at
/// every moment the cells under the centres of solid units differ. A slower unit
/// steps of its own accord only on the steps its speed has earned (a unit of half
/// the fastest speed: every other step), and waits in between; asked to make room,
/// it steps at once. A unit standing on its goal may be pushed aside and comes back.
/// A solid unit without a follower is an obstacle: it is never pushed, and it is
/// moved only by the game (set its [`GridCell`](crate::GridCell)); units whose path
/// it blocks wait (their paths do not know it). Units kept from moving are counted
/// in [`PathingDiagnostics::crowd_stuck`](crate::PathingDiagnostics::crowd_stuck).
/// Where units stand stuck in a crowd of at most 256 units (three big units each on
/// another's goal in a room, big and small units in one corridor, a knot in a
/// maze's corridors), the plugin searches joint steps that take every unit home
/// ([`Untangle`](tilepath::Untangle)) and walks them a step a period before the crowd
/// takes its own steps again. Where Bevy's async compute pool has a thread of its
/// own, the search runs there on a copy of the crowd (exploring up to 2^19
/// configurations, at most 2^22 agents times cells:
/// [`PathingDiagnostics::crowd_searching`](crate::PathingDiagnostics::crowd_searching))
/// while the crowd steps on, and its plan is walked from the first step (within 16)
/// at which the crowd stands where it stood when the search began (units in a knot
/// make no way, and come back to where they were);
/// elsewhere (a web build) it runs in the tick on grids of at most 2^14 cells,
/// weighing at most 8,192 agents times configurations. Bigger crowds only report
/// them. A search allocates its tables (a tick that untangles is not free of
/// allocation; it comes at most once every 16 steps while units stay stuck).
///
/// # Bad input and edge cases
///
/// - A unit placed on a cell another solid unit holds, or on a cell its mobility
///   cannot enter (spawned on top of another, or inside a wall), is moved to the
///   nearest cell where its footprint fits and that nobody holds (its
///   [`GridCell`](crate::GridCell) changes; within 16 cells), or, if there is none,
///   left out of the crowd (it then walks as a unit that is not solid, and
///   [`PathingDiagnostics::crowd_unplaced`](crate::PathingDiagnostics::crowd_unplaced)
///   counts it) and tried again half a second (30 ticks) later. A tick tries at most
///   65,536 cells a grid for placing units, so that a map with more solid units than
///   free cells costs a bounded time a tick: units past it are tried in a later
///   tick.
/// - A wall placed under a standing unit leaves it there; it steps out as soon as a
///   neighbouring cell is free. A wall placed on the cell a unit steps into turns it
///   back, unless another unit was sent into the cell it left: then it goes on, and
///   steps out.
/// - Its size, mobility and 4- or 8-connected moves are those of its
///   [`PathRequest`](crate::PathRequest) (a unit without one: one cell, every
///   passable kind, 4-connected). On a hex map it moves as its paths do there, to the
///   6 neighbours of the map's layout
///   ([`MapLayout::connectivity`](crate::MapLayout::connectivity), whatever the
///   request asks for), and steps to cells, never gliding; its grid's crowd is a hex
///   one ([`Connectivity::Hex`](tilepath::Connectivity::Hex)), with no corner rule
///   between units (every hex step crosses an edge two cells share). A unit on a hex
///   map is one cell: a bigger one (which gets no path:
///   [`NoPathReason::UnitSize`](crate::NoPathReason::UnitSize)) is left out of the
///   crowd and counted in
///   [`PathingDiagnostics::crowd_unplaced`](crate::PathingDiagnostics::crowd_unplaced).
///   A unit asking for hex moves on a map of squares is left out of the crowd: it
///   walks as a unit that is not solid.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(Seat)]
pub struct Solid;

/// The cells of the `size x size` footprint anchored at `at`.
fn footprint(at: Cell, size: u8) -> impl Iterator<Item = Cell> {
    let n = i32::from(size);
    (0..n).flat_map(move |dy| (0..n).map(move |dx| Cell::new(at.x + dx, at.y + dy)))
}

/// A solid unit's place in its grid's crowd.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Seat {
    /// The grid and the agent, once placed; `None`: the crowd does not move the unit.
    pub(crate) agent: Option<(GridKey, AgentId)>,
    /// A unit that could not be placed is not tried again before this tick.
    pub(crate) retry_at: u64,
    /// The grid crowd's [`epoch`](seats::GridCrowd::epoch) when the unit was last
    /// synced with its agent.
    pub(crate) synced: u64,
    /// Which of the components the crowd reads the unit had then
    /// ([`presence`](Self::presence)).
    pub(crate) presence: u8,
}

impl Seat {
    /// One bit for each component the crowd reads of a unit that it has: a change
    /// tells a component added or removed, which change ticks do not.
    pub(crate) fn presence(
        on_grid: bool,
        request: bool,
        path: bool,
        status: bool,
        follower: bool,
    ) -> u8 {
        u8::from(on_grid)
            | u8::from(request) << 1
            | u8::from(path) << 2
            | u8::from(status) << 3
            | u8::from(follower) << 4
    }
}

impl Crowds {
    /// Whether `seat`'s unit may go back to `cell` (the cell it left): no other unit
    /// was sent into it since.
    pub(crate) fn may_return(&self, seat: &Seat, cell: Cell) -> bool {
        let Some((key, agent)) = seat.agent else {
            return true;
        };
        let Some(g) = self.get(key) else { return true };
        let size = g.crowd.agent(agent).map_or(1, |a| a.size);
        footprint(cell, size).all(|c| g.crowd.holder(c).is_none_or(|h| h == agent))
    }

    /// The cell the crowd sent `seat`'s unit to from `at` in its last step, if it
    /// has not walked there yet: where its follower steps next. Units sent into cells
    /// others leave in the same step set off together, one behind the other.
    pub(crate) fn next_cell(&self, seat: &Seat, at: Cell) -> Option<Cell> {
        let (key, agent) = seat.agent?;
        let crowd = &self.get(key)?.crowd;
        let to = crowd.cell(agent)?;
        (crowd.left_cell(agent) == Some(at) && to != at).then_some(to)
    }

    /// How fast `seat`'s unit walks a step its crowd decided, in steps per second: each
    /// step is walked within its crowd's period (see [`seats::StepClock`]).
    pub(crate) fn pace(&self, seat: &Seat, tick_secs: f32) -> Option<f32> {
        let (key, _) = seat.agent?;
        let period = self.get(key)?.clock.period.max(1);
        (tick_secs > 0.0).then(|| 1.0 / (period as f32 * tick_secs))
    }
}
