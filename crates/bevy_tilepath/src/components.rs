//! The components a unit carries: where it is, what it asked for, what it got.

use bevy::prelude::*;
use tilepath::{Cell, Connectivity, Direction8, GridLayer, GridPath, GridPath8};

/// The cell a unit stands on. The plugin plans from it; [`PathFollower`] updates it.
/// Moving a unit yourself is fine: a unit found off its path is planned again.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct GridCell(pub Cell);

/// Where a [`PathRequest`] leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathGoal {
    /// A fixed cell.
    Cell(Cell),
    /// Another entity's [`GridCell`]: followed as it moves (see
    /// [`PathingSettings::retarget_interval`](crate::PathingSettings::retarget_interval)).
    /// If the entity is despawned or has no `GridCell`, the request fails with
    /// [`NoPathReason::TargetMissing`] and the unit keeps its last path.
    Entity(Entity),
}

/// Which search serves a request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SearchMode {
    /// The plugin picks: a shared distance field when enough units head for the same
    /// cell, windowed A* for near goals, whole-grid A* for far ones.
    #[default]
    Auto,
    /// Always A* (optimal), windowed or whole-grid by distance.
    AStar,
    /// Greedy best-first for near goals (cheaper, not optimal, 4-connected only);
    /// whole-grid A* for far goals.
    Greedy,
}

/// Asks the plugin for a path from the unit's [`GridCell`] to a goal.
///
/// The request stays on the unit: the plugin keeps its [`UnitPath`] valid (next segment
/// before the current one runs out, a new plan when the target moves or a wall appears)
/// until the request is removed. Changing the request plans again.
///
/// ```
/// # use bevy_tilepath::prelude::*;
/// # use bevy::prelude::*;
/// # fn spawn(mut commands: Commands, player: Entity) {
/// commands.spawn((
///     GridCell(Cell::new(3, 4)),
///     PathRequest::chase(player).with_layer(GridLayer::FLOOR_ONLY),
///     PathFollower::new(4.0),
/// ));
/// # }
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
#[require(UnitPath, PathStatus, PathState)]
pub struct PathRequest {
    /// Where to go.
    pub goal: PathGoal,
    /// What each tile kind costs this unit (0 = blocked).
    pub layer: GridLayer,
    /// 4- or 8-connected movement (8: no corner cutting, diagonals cost `sqrt(2)`).
    pub connectivity: Connectivity,
    /// Which search to use.
    pub mode: SearchMode,
    /// Caps the nodes one search may expand (`None`: the settings' default).
    pub max_expansions: Option<u32>,
}

impl PathRequest {
    /// A request for a path to `cell`, walking on [`GridLayer::FLOOR_ONLY`], 4-connected.
    #[must_use]
    pub fn to_cell(cell: Cell) -> Self {
        Self {
            goal: PathGoal::Cell(cell),
            layer: GridLayer::FLOOR_ONLY,
            connectivity: Connectivity::Four,
            mode: SearchMode::Auto,
            max_expansions: None,
        }
    }

    /// A request to chase `target` (an entity with a [`GridCell`]).
    #[must_use]
    pub fn chase(target: Entity) -> Self {
        Self {
            goal: PathGoal::Entity(target),
            ..Self::to_cell(Cell::default())
        }
    }

    /// With this layer.
    #[must_use]
    pub fn with_layer(mut self, layer: GridLayer) -> Self {
        self.layer = layer;
        self
    }

    /// With this connectivity.
    #[must_use]
    pub fn with_connectivity(mut self, connectivity: Connectivity) -> Self {
        self.connectivity = connectivity;
        self
    }

    /// With this search mode.
    #[must_use]
    pub fn with_mode(mut self, mode: SearchMode) -> Self {
        self.mode = mode;
        self
    }

    /// With an expansion cap for each search.
    #[must_use]
    pub fn with_max_expansions(mut self, max: u32) -> Self {
        self.max_expansions = Some(max);
        self
    }
}

/// The steps of a path: [`GridPath`] for 4-connected requests, [`GridPath8`] for
/// 8-connected ones. Both are small `Copy` values holding up to 56 steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
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

/// Why a request has no (complete) path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoPathReason {
    /// There is no grid yet (no tilemap mirrored, no grid set).
    NoGrid,
    /// The mirrored tilemap is larger than a grid can be
    /// ([`Grid::MAX_SIDE`](tilepath::Grid::MAX_SIDE)).
    GridTooLarge,
    /// The unit's [`GridCell`] is outside the grid.
    StartOutsideGrid,
    /// The goal cell is outside the grid.
    GoalOutsideGrid,
    /// The chased entity was despawned or has no [`GridCell`].
    TargetMissing,
    /// The goal cell is blocked for the unit's layer.
    GoalBlocked,
    /// No route leads to the goal.
    Unreachable,
    /// The search hit its expansion cap before reaching the goal.
    SearchLimit,
}

/// Where a unit's request stands.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathStatus {
    /// Waiting to be served (the unit keeps its previous path meanwhile).
    #[default]
    Pending,
    /// The path (or its segments) leads to the goal.
    Found,
    /// The path leads towards the goal but cannot reach it: it ends at the reachable
    /// cell closest to the goal. Planned again when the grid changes.
    Partial(NoPathReason),
    /// No path at all; the unit keeps its last path. Planned again when the grid or
    /// the target changes.
    NoPath(NoPathReason),
}

/// The plugin's bookkeeping for one request.
#[derive(Component, Clone, Copy, Debug, Default)]
pub(crate) struct PathState {
    /// In the FIFO of requests waiting to be served.
    pub(crate) queued: bool,
    /// The goal cell the current path was planned for.
    pub(crate) planned_goal: Cell,
    /// The grid generation it was planned on.
    pub(crate) planned_generation: u64,
    /// The pathing tick it was planned on.
    pub(crate) planned_tick: u64,
}

/// Walks a unit along its [`UnitPath`] at `speed` cells per second, updating its
/// [`GridCell`] and (if it has one) its `Transform`, positioned with the
/// [`GridTransform`](crate::GridTransform). Replace it with your own movement system
/// by not adding this component.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct PathFollower {
    /// Cells per second.
    pub speed: f32,
    /// Cut an L-turn (two orthogonal steps) into one diagonal step when both cells
    /// beside the corner are passable.
    pub smooth_diagonals: bool,
    /// Progress through the current step, 0..1.
    pub(crate) progress: f32,
    /// Length of the current step in cells (1, or `sqrt(2)` for a diagonal).
    pub(crate) step_len: f32,
    /// The cell the current step started from.
    pub(crate) from: Option<Cell>,
}

impl PathFollower {
    /// A follower moving `speed` cells per second, without diagonal smoothing.
    #[must_use]
    pub fn new(speed: f32) -> Self {
        Self {
            speed,
            smooth_diagonals: false,
            progress: 1.0,
            step_len: 1.0,
            from: None,
        }
    }

    /// With diagonal smoothing of L-turns.
    #[must_use]
    pub fn smoothed(mut self) -> Self {
        self.smooth_diagonals = true;
        self
    }

    /// Whether the unit is between two cells.
    #[must_use]
    pub fn is_moving(&self) -> bool {
        self.progress < 1.0
    }
}
