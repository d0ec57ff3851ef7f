//! Runtime knobs, signals and per-tick diagnostics.

use bevy::diagnostic::DiagnosticPath;
use bevy::prelude::*;
use core::time::Duration;
use tilepath::Cell;

use crate::NoPathReason;

/// How much solving one tick may do. What does not fit waits, in FIFO order, for the
/// following ticks; nothing is dropped. At least one batch is served each tick, so
/// every request is served eventually.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathingBudget {
    /// Stop starting new batches once this many units of work were done this tick:
    /// nodes expanded by searches, cells settled by distance fields, steps read from
    /// fields. Results are then bit-for-bit the same whatever the number of threads.
    Expansions(u64),
    /// Stop starting new batches after this much wall time (not deterministic).
    Time(Duration),
    /// Serve everything every tick.
    Unlimited,
}

/// Runtime settings of the [`PathingPlugin`](crate::PathingPlugin). Insert your own
/// before or after adding the plugin: it is never overwritten.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct PathingSettings {
    /// Work cap per tick. Default: `Expansions(500_000)` (about 2-4 ms on one core).
    pub budget: PathingBudget,
    /// Requests heading for the same cell (with the same layer and connectivity) in one
    /// batch that make it worth building a shared distance field. Default: 8.
    pub field_threshold: usize,
    /// Distance fields kept alive (least recently used ones are reused). Default: 8.
    pub max_fields: usize,
    /// Goals at most this many cells away (Manhattan) are searched in a 113x113 window
    /// around the unit; farther ones over the whole grid. Default: 40.
    pub window_distance: u32,
    /// Nodes one search may expand unless the request says otherwise.
    /// Default: `u32::MAX` (no cap).
    pub max_expansions: u32,
    /// Ask for the next segment of a long route when this many steps are left.
    /// Default: 4.
    pub replan_margin: usize,
    /// A chaser is planned again at most once per this many ticks when its target
    /// changes cell. Default: 1 (every tick the target moves).
    pub retarget_interval: u64,
    /// A unit with a partial path standing at its end plans again after this many
    /// ticks (the map may have opened). Default: 30.
    pub retry_interval: u64,
    /// Batches smaller than this are solved on the calling thread alone. Default: 64.
    pub parallel_min_batch: usize,
    /// Threads a batch is spread over, the calling thread included, each with its own
    /// solver scratch. 0: one per core ([`SolverThreads`](Parallelism::SolverThreads))
    /// or one per compute pool thread plus the caller
    /// ([`ComputeTaskPool`](Parallelism::ComputeTaskPool)); 1: everything on the
    /// calling thread. Results do not depend on it. Default: 0.
    pub threads: usize,
    /// Where the threads come from. Default: [`Parallelism::SolverThreads`].
    pub parallelism: Parallelism,
}

/// Where a batch's parallel solving runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Parallelism {
    /// Threads owned by the plugin (`tilepath-solver-N`), started when first needed and
    /// parked between batches: handing them a batch allocates nothing. Where threads
    /// cannot be started (e.g. on the web) batches are solved on the calling thread.
    #[default]
    SolverThreads,
    /// Tasks on Bevy's `ComputeTaskPool`, sharing its threads with the app's systems.
    /// Bevy's `scope` allocates its tasks on every call: a few allocations per batch
    /// (never per unit).
    ComputeTaskPool,
}

impl Default for PathingSettings {
    fn default() -> Self {
        Self {
            budget: PathingBudget::Expansions(500_000),
            field_threshold: 8,
            max_fields: 8,
            window_distance: 40,
            max_expansions: u32::MAX,
            replan_margin: 4,
            retarget_interval: 1,
            retry_interval: 30,
            parallel_min_batch: 64,
            threads: 0,
            parallelism: Parallelism::SolverThreads,
        }
    }
}

/// A request was served with a path (complete or partial).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct PathFound {
    /// The unit.
    pub entity: Entity,
    /// The goal cell planned for.
    pub goal: Cell,
    /// Whether the route reaches the goal (otherwise it is partial).
    pub complete: bool,
    /// Steps in this segment.
    pub steps: usize,
    /// The route's cost.
    pub cost: f32,
}

/// A request could not be served with any path.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathFailed {
    /// The unit.
    pub entity: Entity,
    /// Why.
    pub reason: NoPathReason,
}

/// What the pathing systems did in the last tick: fixed-size counters, reset each tick,
/// also published to Bevy's `DiagnosticsStore` under the `PATH_*` paths.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct PathingDiagnostics {
    /// Ticks run so far.
    pub tick: u64,
    /// Requests served this tick (with a path or a failure).
    pub served: u32,
    /// Requests still waiting after this tick.
    pub waiting: u32,
    /// Requests that got no path this tick.
    pub failed: u32,
    /// Distance fields built this tick.
    pub fields_built: u32,
    /// Distance fields repaired after grid edits this tick.
    pub fields_repaired: u32,
    /// Requests served from a distance field this tick.
    pub served_by_field: u32,
    /// Work done: nodes expanded plus field cells settled plus field steps read.
    pub expanded: u64,
    /// Batches solved this tick.
    pub batches: u32,
    /// Wall time of the pathing systems this tick.
    pub time: Duration,
    /// Requests served since the start.
    pub total_served: u64,
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
