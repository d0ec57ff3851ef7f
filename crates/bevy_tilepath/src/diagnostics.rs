//! What the pathing systems did in the last tick.

use bevy::diagnostic::{DiagnosticPath, Diagnostics};
use bevy::prelude::*;
use core::time::Duration;

/// What the pathing systems did in the last tick: fixed-size counters, reset each tick,
/// also published to Bevy's `DiagnosticsStore` under the `PATH_*` paths.
///
/// The resource adds up every grid; each [`PathingMap`](crate::PathingMap) has its own
/// share ([`PathingMap::diagnostics`](crate::PathingMap::diagnostics), where `time` is
/// the time spent serving that grid's requests).
#[derive(Resource, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct PathingDiagnostics {
    /// Ticks run so far.
    pub tick: u64,
    /// Requests served this tick (with a path or a failure).
    pub served: u32,
    /// Requests still waiting after this tick (units that were despawned or lost their
    /// request while waiting are not counted).
    pub waiting: u32,
    /// Requests that got no path this tick.
    pub failed: u32,
    /// Distance fields built this tick (in the tick, or finished in the background).
    pub fields_built: u32,
    /// Distance fields being built in the background after this tick: on grids of more
    /// than 2^18 cells a shared field for a new goal is computed off the tick, and the
    /// requests it serves wait for it (at the front of the queue; requests behind them
    /// are served meanwhile, and each unit keeps walking the path it has).
    pub fields_building: u32,
    /// Kept distance fields repaired this tick. Fields are repaired only on a tick whose
    /// grid had cells set since the previous tick: each field kept from an earlier tick
    /// is then repaired once for all of those edits (its work counted in
    /// [`expanded`](Self::expanded)), so this is 0 on every tick without edits. Fields
    /// built this tick are counted in [`fields_built`](Self::fields_built) instead, and
    /// a replaced grid drops its fields (they are built again when needed).
    pub fields_repaired: u32,
    /// Requests served from a distance field this tick.
    pub served_by_field: u32,
    /// Work done, as charged to an expansion budget: nodes expanded, field cells
    /// settled (built or repaired), field steps read, and cells read to pull routes
    /// straight.
    pub expanded: u64,
    /// Batches solved this tick.
    pub batches: u32,
    /// Of those, batches spread over tasks of Bevy's `ComputeTaskPool` (see
    /// [`PathingSettings::threads`](crate::PathingSettings::threads)); the others were
    /// solved on the calling thread.
    pub batches_spread: u32,
    /// Whole-grid searches left part-way after this tick, every grid's: a search
    /// still under way when the tick has run a quarter longer than its
    /// [`time_cap`](crate::PathingSettings::time_cap) is paused, its unit waiting at
    /// the front of its queue, and goes on where it stopped on the unit's next turn
    /// (started over if the grid was edited meanwhile). Its unit keeps walking the
    /// path it has.
    pub searches_paused: u32,
    /// Landmark guides ready after this tick (see
    /// [`PathingSettings::landmarks`](crate::PathingSettings::landmarks)).
    pub guides: u32,
    /// Landmark guides being built in the background after this tick.
    pub guides_building: u32,
    /// Components (what a mobility's units, or its big units of one size, can reach)
    /// being built in the background after this tick: on grids of more than 2^18
    /// cells they are built off the tick, and until one is ready its requests are
    /// searched without it (a goal out of reach then costs a search of what the unit
    /// can reach, up to the request's expansion limit, instead of a capped one).
    pub components_building: u32,
    /// Jump distances (see
    /// [`PathingSettings::jump_distances`](crate::PathingSettings::jump_distances))
    /// ready after this tick, one per set of tile kinds the searches enter.
    pub jump_distances: u32,
    /// Jump distances being built or repaired in the background after this tick: on
    /// grids of more than 2^18 cells they are built off the tick and leave the
    /// searches at each edit to catch up off the tick; until they are back whole-grid
    /// jump point searches scan rows (the same answers, slower).
    pub jump_distances_building: u32,
    /// Wall time of the pathing systems this tick.
    pub time: Duration,
    /// Requests served since the start.
    pub total_served: u64,
    /// [`Solid`](crate::Solid) units the crowds moved a step this tick.
    pub crowd_moved: u32,
    /// Of [`crowd_moved`](Self::crowd_moved), the units moved by an untangling: a
    /// plan of joint steps taking stuck units home (see [`Solid`](crate::Solid)).
    pub crowd_untangled: u32,
    /// Grids whose crowd has an untangling searched off the tick (on Bevy's async
    /// compute pool) for its stuck units (see [`Solid`](crate::Solid)).
    pub crowd_searching: u32,
    /// Solid units ready to step on their way somewhere that the crowds kept waiting
    /// in their last steps (standing on a cell, not moved).
    pub crowd_waiting: u32,
    /// Solid units that have not moved for
    /// [`PathingSettings::crowd_stuck_after`](crate::PathingSettings::crowd_stuck_after)
    /// steps of their crowd (as of its last step) although their goal is reachable and
    /// they are not waiting beside a goal they share with others nearer it. A step
    /// straight back to the cell a unit left on its step before (but onto its goal)
    /// does not count as moving: units pushed to and fro for good are stuck too. Zero
    /// in a crowd that flows.
    pub crowd_stuck: u32,
    /// Solid units the crowds could not place (no free cell within 16 cells of where
    /// they were put, a unit bigger than one cell on a hex map, or no memory for the
    /// crowd): they walk as units that are not solid until they are moved.
    pub crowd_unplaced: u32,
    /// Wall time of the crowds' system this tick (keeping each grid's crowd equal to
    /// its solid units, and the joint steps of the crowds whose clocks say so); not
    /// part of [`time`](Self::time).
    pub crowd_time: Duration,
}

impl PathingDiagnostics {
    /// Milliseconds the pathing systems took per tick.
    pub const PATH_TIME_MS: DiagnosticPath = DiagnosticPath::const_new("tilepath/time_ms");
    /// Requests served per tick.
    pub const PATH_SERVED: DiagnosticPath = DiagnosticPath::const_new("tilepath/served");
    /// Requests waiting after each tick.
    pub const PATH_WAITING: DiagnosticPath = DiagnosticPath::const_new("tilepath/waiting");
    /// Work units (expansions) per tick.
    pub const PATH_EXPANDED: DiagnosticPath = DiagnosticPath::const_new("tilepath/expanded");
}

/// Publishes the tick's [`PathingDiagnostics`] to Bevy's `DiagnosticsStore`.
pub(crate) fn publish_diagnostics(diag: Res<PathingDiagnostics>, mut diagnostics: Diagnostics) {
    let d = *diag;
    diagnostics.add_measurement(&PathingDiagnostics::PATH_TIME_MS, || {
        d.time.as_secs_f64() * 1000.0
    });
    diagnostics.add_measurement(&PathingDiagnostics::PATH_SERVED, || f64::from(d.served));
    diagnostics.add_measurement(&PathingDiagnostics::PATH_WAITING, || f64::from(d.waiting));
    diagnostics.add_measurement(&PathingDiagnostics::PATH_EXPANDED, || d.expanded as f64);
}
