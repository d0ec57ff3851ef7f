//! Untangling: a complete search over where all agents stand, for when the joint step
//! stalls.
//!
//! The joint step (`step.rs`) decides one step at a time, as PIBT does, and like PIBT
//! it can stall for good: in a dense room two agents each on the other's goal in a
//! dead end, or a knot of agents each waiting on one that stands on its own goal in
//! the way. [`Untangle`] finds a sequence of joint steps that takes every agent to
//! its goal by the search of LaCAM (Okumura, "LaCAM: Search-Based Algorithm for Quick
//! Multi-Agent Pathfinding", AAAI 2023), written here from the paper: a depth-first
//! search over configurations (where every agent stands), each one's successors made
//! by a PIBT-style rule under constraints that fix some agents' next cells, the
//! constraints themselves searched breadth first, one agent deeper at a time, so that
//! every successor is eventually tried: the search is complete (it finds a way when
//! there is one and the search is given the nodes). [`Crowd::step_untangled`] then
//! walks the crowd along it, a step at a time.
//!
//! `goals.rs` decides which agents take part and where each ends; `search.rs` is the
//! search over configurations; `successor.rs` makes a configuration's successor
//! under constraints; `walk.rs` walks a plan.
//!
//! It moves agents of every size with 4-connected moves (the setting of multi-agent
//! path finding; an 8-connected agent moves orthogonally here), or on a hex map the
//! 6 steps of the layout, each agent's moves read from the crowd's (`moves.rs`:
//! [`untangling`](super::moves::untangling)); pinned agents stay where they are and
//! hold their cells. An agent bigger than a cell asks every agent on the cells it
//! steps onto to make room, as a one-cell agent asks the one on its cell. A stall is
//! mostly a knot
//! of a few agents in a crowd that is otherwise home: the search first moves only the
//! agents near those away from their goals (within 4 cells, then 12), holding the
//! others where they stand, so that a plan moves few agents and the search stays
//! small, and all of them if that finds nothing. It allocates (one configuration per
//! node explored): it is for the rare stall, not for every tick.

mod goals;
mod search;
mod successor;
mod walk;

use std::collections::VecDeque;

use super::agent::NONE;
use super::{AgentId, Crowd, CrowdError, Guidance};
use crate::{Cell, Connectivity, Grid, Mobility};

/// How far round the agents away from their goals (Chebyshev) the agents an
/// untangling may move are taken, one try after another (`u32::MAX`: all).
const UNTANGLE_RADII: [u32; 3] = [4, 12, u32::MAX];

/// An agent the search may move: how, where it stands and where it is to end (cell
/// indices; the same where it has no goal or no way to it).
struct Movable {
    id: AgentId,
    mobility: Mobility,
    size: u8,
    /// The moves the search gives it ([`untangling`](super::moves::untangling)).
    connectivity: Connectivity,
    at: u32,
    goal: u32,
}

/// What a table of `bytes` that cannot be had is reported as.
fn oom(bytes: usize) -> CrowdError {
    CrowdError::OutOfMemory {
        bytes: bytes as u64,
    }
}

/// A search for joint steps that take every agent of a [`Crowd`] to its goal (see
/// the module docs): [`plan`](Self::plan), then [`Crowd::step_untangled`] until it
/// returns `None`.
///
/// ```
/// use tilepath::{AgentSpec, Cell, Crowd, GoalFields, Grid, TileKind, Untangle};
/// // A dead end one cell wide, with one side pocket: two agents must swap ends.
/// let grid = Grid::from_ascii("....\n#.##", |c| {
///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
/// })?;
/// let mut crowd = Crowd::new(&grid)?;
/// let a = crowd.add(&grid, AgentSpec::new(Cell::new(0, 0)).goal(Cell::new(3, 0)))?;
/// let b = crowd.add(&grid, AgentSpec::new(Cell::new(3, 0)).goal(Cell::new(0, 0)))?;
/// let mut fields = GoalFields::new();
/// fields.update(&grid, &crowd)?;
/// let mut untangle = Untangle::new();
/// assert!(untangle.plan(&grid, &crowd, &fields, 10_000)?);
/// while crowd.step_untangled(&grid, &mut untangle)?.is_some() {}
/// assert_eq!((crowd.cell(a), crowd.cell(b)), (Some(Cell::new(3, 0)), Some(Cell::new(0, 0))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct Untangle {
    /// The agents taking part, in order, and what they are.
    ids: Vec<AgentId>,
    mobility: Vec<Mobility>,
    size: Vec<u8>,
    connectivity: Vec<Connectivity>,
    goal: Vec<u32>,
    /// Cells held by agents that do not take part.
    fixed: Vec<bool>,
    /// The configurations after the start, in order, each as `(agent, cell)` moves.
    plan: VecDeque<Vec<(AgentId, Cell)>>,
    /// How many nodes the last search explored.
    explored: usize,
    // Scratch of the successor rule, by cell index and by agent.
    now: Vec<u32>,
    next_at: Vec<u32>,
    next: Vec<u32>,
    /// Whether the successor being made put an agent that stays onto a cell another
    /// agent takes (it is then no configuration).
    broken: bool,
    salt: u64,
}

impl core::fmt::Debug for Untangle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Untangle")
            .field("agents", &self.ids.len())
            .field("steps_left", &self.plan.len())
            .field("explored", &self.explored)
            .finish_non_exhaustive()
    }
}

impl Untangle {
    /// A search with nothing planned.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// How many joint steps of the last plan are still to walk.
    #[must_use]
    pub fn steps_left(&self) -> usize {
        self.plan.len()
    }

    /// How many configurations the last [`plan`](Self::plan) explored.
    #[must_use]
    pub fn explored(&self) -> usize {
        self.explored
    }

    /// Searches joint steps that take every agent of `crowd` that is not pinned and
    /// has a goal to it (one without a goal, or whose goal `guidance` gives no way to
    /// from where it stands, back to where it stands) on `grid`, guided by `guidance`, exploring
    /// at most `most_nodes` configurations in all (a try with the agents near those
    /// away from their goals at most a quarter of them). Returns whether it found
    /// them (`false`: none within `most_nodes`, or none at all, e.g. two agents with
    /// one goal, or a goal held by an agent that stays); a plan found replaces the
    /// last one (`true` with no step when there is nothing to do).
    ///
    /// # Errors
    /// [`CrowdError::GridMismatch`] if `grid` is not the crowd's size;
    /// [`CrowdError::OutOfMemory`] if the search's tables cannot be had.
    pub fn plan<G: Guidance + ?Sized>(
        &mut self,
        grid: &Grid,
        crowd: &Crowd,
        guidance: &G,
        most_nodes: usize,
    ) -> Result<bool, CrowdError> {
        crowd.check_grid(grid)?;
        self.plan.clear();
        self.explored = 0;
        let cells = grid.len();
        for table in [&mut self.now, &mut self.next_at] {
            table.clear();
            table.try_reserve_exact(cells).map_err(|_| oom(cells * 4))?;
            table.resize(cells, NONE);
        }
        let movable = self.movable(grid, crowd, guidance)?;
        // First the agents near those away from their goals, the others held where
        // they stand (fewer agents moved, a smaller search), then wider, then all.
        let away: Vec<Cell> = movable
            .iter()
            .filter(|m| m.at != m.goal)
            .filter_map(|m| grid.cell_of(m.at as usize))
            .collect();
        let mut left = most_nodes;
        for radius in UNTANGLE_RADII {
            let near = |at: u32| {
                grid.cell_of(at as usize)
                    .is_some_and(|c| away.iter().any(|&w| c.chebyshev(w) <= radius))
            };
            let taking_part = movable.iter().filter(|m| near(m.at)).count();
            let everyone = taking_part == movable.len();
            if !everyone && radius != u32::MAX && taking_part * 2 > movable.len() {
                // Most agents are near: the whole search costs little more.
                continue;
            }
            self.fixed.fill(false);
            for (id, spec) in crowd.agents() {
                let held = crowd.is_pinned(id)
                    || grid.index_of(spec.cell).is_some_and(|at| !near(at as u32));
                if held {
                    self.hold(grid, spec);
                }
            }
            self.ids.clear();
            self.mobility.clear();
            self.size.clear();
            self.connectivity.clear();
            self.goal.clear();
            let mut start = Vec::new();
            for m in movable.iter().filter(|m| near(m.at)) {
                self.ids.push(m.id);
                self.mobility.push(m.mobility);
                self.size.push(m.size);
                self.connectivity.push(m.connectivity);
                self.goal.push(m.goal);
                start.push(m.at);
            }
            // A goal under an agent held where it stands: no way with these.
            if !everyone && (0..self.ids.len()).any(|k| self.on_fixed(grid, k, self.goal[k])) {
                continue;
            }
            let explored = self.explored;
            let budget = if everyone {
                left
            } else {
                left.min(most_nodes / 4)
            };
            if self.search(grid, guidance, start, budget) {
                return Ok(true);
            }
            left = left.saturating_sub(self.explored - explored);
            if everyone || left == 0 {
                break;
            }
        }
        Ok(false)
    }

    /// The next joint step of the plan, if any (taken off it).
    pub(crate) fn pop(&mut self) -> Option<Vec<(AgentId, Cell)>> {
        self.plan.pop_front()
    }

    /// Drops what is left of the plan.
    pub(crate) fn clear(&mut self) {
        self.plan.clear();
    }
}
