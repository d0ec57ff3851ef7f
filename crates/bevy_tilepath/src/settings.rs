//! Runtime knobs of the plugin.

use bevy::prelude::*;
use core::time::Duration;

use crate::LayerRule;

/// How much solving one tick may do, counted in units of work. What does not fit
/// waits, in FIFO order, for the following ticks; nothing is dropped.
///
/// The budget is checked between batches, so a tick may overshoot it by one batch
/// (batches are sized from the recent average cost of a request to fit what is left).
/// At least one request is served every tick whatever the budget, so the FIFO always
/// moves: `Expansions(0)` serves exactly one request a tick. With several grids
/// ([`PathingMap`](crate::PathingMap)) each has its own FIFO and serves at least one
/// request a tick; the budget is shared out between the grids with requests waiting,
/// which take turns going first, and what one grid leaves goes to the next. Repairing the kept
/// distance fields after grid edits is charged to the budget first. A tick also
/// stops at [`PathingSettings::time_cap`], whichever comes first.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub enum PathingBudget {
    /// Stop starting new batches once this many units of work were done this tick:
    /// nodes expanded by searches, cells settled by distance fields, steps read from
    /// fields, cells and points read to pull routes straight
    /// ([`straight_routes`](PathingSettings::straight_routes)). Without a
    /// [`time_cap`](PathingSettings::time_cap), what is served each tick is then the
    /// same whatever the number of threads and the speed of the machine.
    Expansions(u64),
    /// Serve everything every tick (up to the [`time_cap`](PathingSettings::time_cap)).
    Unlimited,
}

/// Runtime settings of the [`PathingPlugin`](crate::PathingPlugin). Insert your own
/// before or after adding the plugin: it is never overwritten.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct PathingSettings {
    /// Work cap per tick. Default: `Expansions(500_000)`. The time a unit of work
    /// takes depends on the map and the kind of work: more on 1024x1024 and larger
    /// maps, where long searches miss the CPU's caches at most steps, than where the
    /// searched area fits them; [`time_cap`](Self::time_cap) bounds the time.
    pub budget: PathingBudget,
    /// Wall time after which a tick starts no new batch of requests, whatever the
    /// [`budget`](Self::budget) has left, counted from when the pathing systems
    /// started the tick (collecting requests included); with several grids, shared
    /// out between them as the budget is. Batches are sized from the recent time a
    /// request took so that a tick rarely runs past it by much. A whole-grid jump
    /// point search under way at the cap may run on for a quarter of the cap more
    /// (many end by then); one still running then pauses (it looks at the clock
    /// every few dozen jump points) and goes on where it stopped at its unit's next
    /// turn, first in its queue, while its unit keeps walking the path it has and
    /// the answers found beside it are delivered
    /// ([`PathingDiagnostics::searches_paused`](crate::PathingDiagnostics::searches_paused)).
    /// So no search across a big map of rooms makes a tick long: a tick's pathing
    /// stays within about one and a quarter times the cap, plus the windowed
    /// searches under way (a fraction of a millisecond); the price is that the
    /// longest searches answer a tick or two later. An edit of the grid while a
    /// search is paused makes it start over (after two such restarts it runs to its
    /// end in one tick, so that a grid edited every tick cannot keep a unit from its
    /// path). Windowed searches and A* over mobilities with several costs are not
    /// paused. Every tick still serves at least one request a grid, or advances the
    /// search paused at its front. Which requests a tick serves depends on the
    /// machine's speed; `None` makes it depend on the budget alone (as a lockstep
    /// game needs), and nothing pauses.
    /// Default: `Some(2.5 ms)`.
    pub time_cap: Option<Duration>,
    /// Requests heading for the same cell (with the same mobility and connectivity) in one
    /// batch that make it worth building a shared distance field. Default: 8.
    ///
    /// On grids of more than 2^18 cells a field is computed on Bevy's async compute
    /// pool, not in the tick (where the pool has a thread of its own): its requests
    /// wait for it (a tick or so; each unit walks the path it has meanwhile) while the
    /// requests behind them are served. So is a kept field that an edit cuts off from
    /// most of the map (its repair would compute it in full). A request that waited
    /// once and whose goal
    /// has moved on since (a chased target) is served from the field it waited for
    /// while its new goal's field is built, so that a goal moving faster than its
    /// fields are computed still gets answers. See
    /// [`PathingDiagnostics::fields_building`](crate::PathingDiagnostics::fields_building).
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
    /// A unit standing at the end of a partial path plans again after this many ticks
    /// (the map may have opened). Units whose goal could not be reached are also
    /// tried again after every grid edit, with the budget that requests waiting for
    /// a first plan leave over. Default: 30.
    pub retry_interval: u64,
    /// A [`Solid`](crate::Solid) unit that has not moved for this many of its crowd's
    /// steps (see [`Solid`](crate::Solid): a step a cell of the grid's fastest solid
    /// unit), or has got no nearer its goal for twice as many however it moved, while
    /// its goal is reachable (and it is not waiting beside a goal it shares with
    /// others nearer it) counts as stuck in
    /// [`PathingDiagnostics::crowd_stuck`](crate::PathingDiagnostics::crowd_stuck).
    /// Default: 120.
    pub crowd_stuck_after: u32,
    /// Batches smaller than this are solved on the calling thread alone, unless they
    /// hold two or more whole-grid searches (goals beyond `window_distance`). Default:
    /// 64.
    pub parallel_min_batch: usize,
    /// Tasks a batch is spread over on Bevy's `ComputeTaskPool`, each with its own
    /// solver scratch (the calling thread runs tasks too while it waits). 0: one per
    /// pool thread plus the caller; 1: everything on the calling thread, as without
    /// a `ComputeTaskPool` (no `TaskPoolPlugin`). The plugin starts no threads of its
    /// own, so on the web (one thread) everything runs on the caller. Bevy's `scope`
    /// allocates a few blocks for each batch it spreads (never per unit); with 1,
    /// ticks allocate nothing once warm. Results do not depend on it. Default: 0.
    ///
    /// Systems run on the pool's threads too, so a batch runs in parallel only where
    /// the pool has two threads or more: Bevy's default gives it what a quarter of
    /// the cores each for IO and async tasks leaves, one thread on a machine of two
    /// cores. An app that wants both cores there sets `TaskPoolPlugin`'s `compute`
    /// threads. (The crowds' planning runs on the main thread beside the pool, while
    /// the pool leaves a core for it.)
    pub threads: usize,
    /// Whole-grid solvers the threads share (at least 1). Each is made when a search
    /// needs one and none is free, and holds 8 bytes a cell of the largest grid it
    /// searched (128 MiB on a 4096x4096 map) plus small open lists; past this many, a
    /// thread waits for one to be free. A search paused at the
    /// [`time_cap`](Self::time_cap) keeps its solver until it goes on; a far request
    /// that finds every solver so held waits for the next tick. Windowed searches and
    /// fields need none. Default: 2.
    pub whole_grid_solvers: usize,
    /// Landmarks guiding whole-grid jump point searches (see
    /// [`Landmarks`](tilepath::Landmarks)): for each mobility with one cost (and
    /// connectivity) that such a search uses, this many distance fields, built when
    /// first needed and repaired after every edit; 0 = none (at most 16). They make
    /// long routes on maps of rooms several times cheaper, and cost about 9 bytes per
    /// landmark and cell of the grid (16 landmarks on a 1024x1024 map: 151 MB), a
    /// build of `landmarks + 1` distance field computations, and after each tick with
    /// edits a repair of every field (work in proportion to the distances that
    /// change). Answers are the same with or without. Default: 0.
    ///
    /// The build runs on Bevy's `AsyncComputeTaskPool` from a copy of the grid, so no
    /// tick waits for it: searches run unguided until the guide is ready, and the
    /// edits made meanwhile are repaired before it is used.
    /// [`PathingDiagnostics::guides`](crate::PathingDiagnostics::guides) says how many
    /// are ready. Without that pool (no `TaskPoolPlugin`) the build runs in the tick
    /// that first needs it. A build that fails (out of memory) is not tried
    /// again until the grid is replaced or this setting changes.
    pub landmarks: usize,
    /// Keep [`JumpDistances`](tilepath::JumpDistances) for each mobility with one cost
    /// that a square search of a one-cell unit uses: whole-grid jump point searches then
    /// read them instead of scanning (faster long routes, most of all on big open maps).
    /// They cost 16 bytes a cell (256 MiB on a 4096x4096 map), a build linear in the
    /// grid's cells, and a repair at every edit, in proportion to the distances it
    /// changes: few on maps of rooms and caves, whole rows and columns for one wall on
    /// a nearly empty map. For big maps that rarely change. Answers are the same with
    /// or without. Default: false.
    ///
    /// On grids of more than 2^18 cells the build runs on Bevy's
    /// `AsyncComputeTaskPool` from a copy of the cells, so no tick waits for it:
    /// searches scan rows until it is ready. The edits made meanwhile are then caught
    /// up with on that pool too; and at each later edit the distances leave the
    /// searches to catch up on that pool from the edited cells' kinds, so that no edit
    /// repairs them in the tick, searches scanning rows meanwhile. Distances more than
    /// 256 edited cells behind are dropped, and built again from the grid as it is
    /// when a search next needs them. Turning the setting off drops them and the
    /// builds under way.
    /// [`PathingDiagnostics::jump_distances`](crate::PathingDiagnostics::jump_distances)
    /// says how many are ready, and
    /// [`jump_distances_building`](crate::PathingDiagnostics::jump_distances_building)
    /// how many are under way. Smaller grids, or an app without that pool, build
    /// them in the tick that first needs them (charged to the budget) and repair them
    /// with each edit.
    pub jump_distances: bool,
    /// Pull paths straight: on square and isometric maps, an 8-connected request's
    /// path is pulled into an any-angle route ([`tilepath::Smoother`]: straight lines
    /// across open ground, turning at the corners of walls, never longer than the
    /// grid path and never over dearer ground) and its steps become the cells a unit
    /// gliding along that route crosses ([`tilepath::Sight::steps_along`]), so that
    /// units walk straight lines instead of L-turns and staircases, and every check
    /// that works cell by cell (crowds, walls placed in the way) sees where they
    /// are. [`UnitPath::waypoints`](crate::UnitPath::waypoints) keeps the route, and
    /// [`PathFollower`](crate::PathFollower) draws the unit along it (a
    /// [`Solid`](crate::Solid) unit as far as the solid units near it leave room,
    /// never overlapping them). A path keeps
    /// [`Waypoints::CAPACITY`](crate::Waypoints::CAPACITY) turns at most (the next
    /// segment is planned from where it ends). Hex maps and 4-connected requests keep
    /// their grid steps. Pulling runs in the solving tasks and is charged to the
    /// budget like a search (the cells its line-of-sight tests read): mostly more
    /// than reading a path from a distance field, so that crowds of chasers
    /// re-planning at once are served over more ticks instead of in one long one.
    /// Default: true.
    pub straight_routes: bool,
    /// How the tilemaps mirrored into the default grid (its layers) combine into each
    /// cell's kind; a [`PathingMap`](crate::PathingMap) has its own
    /// [`layer_rule`](crate::PathingMap::layer_rule). Default: [`LayerRule::Highest`].
    pub layer_rule: LayerRule,
}

impl Default for PathingSettings {
    fn default() -> Self {
        Self {
            budget: PathingBudget::Expansions(500_000),
            time_cap: Some(Duration::from_micros(2500)),
            field_threshold: 8,
            max_fields: 8,
            window_distance: 40,
            max_expansions: u32::MAX,
            replan_margin: 4,
            retarget_interval: 1,
            retry_interval: 30,
            crowd_stuck_after: 120,
            parallel_min_batch: 64,
            threads: 0,
            whole_grid_solvers: 2,
            landmarks: 0,
            jump_distances: false,
            straight_routes: true,
            layer_rule: LayerRule::Highest,
        }
    }
}
