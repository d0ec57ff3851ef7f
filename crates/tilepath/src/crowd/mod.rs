//! Crowds: many agents on one grid, moved a step at a time, never sharing a cell.
//!
//! The crowd ([`Crowd`]) holds the agents and who holds each cell; each
//! [`step`](Crowd::step) decides every agent's next anchor together (`step.rs`: a
//! PIBT-style rule with priority inheritance and backtracking), untangling 1-wide
//! corridors by the swap rule (`swap.rs`) and letting waiting agents look round
//! those ahead for nearer free cells (`seek.rs`), guided by the costs a [`Guidance`] gives
//! (`guidance.rs`: the trait and [`GoalFields`]). A step may be planned in parts
//! (`plan.rs`). What the caller may read after a step is in `report.rs`. Where the
//! step stalls for good, [`Untangle`] (`untangle/`) searches joint steps that take
//! every agent home, and [`Crowd::step_untangled`] walks them. Which steps an agent
//! may take from a cell (4- or 8-connected squares, or the 6 steps of a hex layout)
//! every one of them reads from `moves.rs`.

mod agent;
mod error;
mod guidance;
mod moves;
mod order;
mod pin;
mod plan;
mod report;
mod seek;
mod step;
mod swap;
mod untangle;

pub use agent::{AgentId, AgentSpec};
pub use error::CrowdError;
pub use guidance::{GoalFields, Guidance};
pub use report::{AgentStatus, StepStats};
pub use untangle::Untangle;

use crate::prefetch::prefetch;
use crate::{Cell, Connectivity, Grid, GridMismatch, HexLayout, MAX_UNIT_SIZE};
use agent::{Agent, AgentPlan, NONE};
use plan::StepPlan;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The most candidates an agent has in a step: its 8 neighbours (6 on a hex map)
/// and staying.
const MAX_CANDIDATES: usize = 9;

/// One candidate anchor of an agent for the next step.
#[derive(Clone, Copy, Debug, Default)]
struct Candidate {
    cell: Cell,
    /// The order it is tried in: cost-to-go, then staying before moving, free cells
    /// before held ones, then a per-step hash (equal inputs give equal orders).
    key: u64,
}

/// Agents that move together on a [`Grid`] without ever sharing a cell.
///
/// Each agent ([`AgentSpec`]) is a square footprint of 1 to [`MAX_UNIT_SIZE`] cells a
/// side, with a mobility, 4- or 8-connected moves and perhaps a goal; or, on a hex
/// map, one cell stepping to the 6 neighbours of its [`HexLayout`]
/// ([`Connectivity::Hex`]). A crowd's agents all move on squares or all on the cells
/// of one hex layout (see
/// [`add`](Self::add)). [`step`](Self::step) decides every agent's next anchor at
/// once from a [`Guidance`] (each agent's cost-to-go) and moves them. After every
/// step:
/// - no two agents hold a cell ([`holder`](Self::holder) says who holds one);
/// - no two agents passed through each other: none entered a cell the other left
///   while the other entered one it left (a head-on swap), and no two diagonal
///   steps of squares crossed (an agent holding one corner cell of a diagonal step
///   and then the other; hex steps have no corner cells);
/// - every move was one step the grid allows the agent
///   ([`Grid::can_step_sized`]; on a hex map [`Grid::can_step_with`] with its
///   layout), and an agent whose cells were walled over after it stood there keeps
///   them and steps out when it can.
///
/// ```
/// use tilepath::{AgentSpec, Cell, Crowd, GoalFields, Grid};
/// let grid = Grid::new(10, 3)?;
/// let mut crowd = Crowd::new(&grid)?;
/// let a = crowd.add(&grid, AgentSpec::new(Cell::new(0, 1)).goal(Cell::new(9, 1)))?;
/// let b = crowd.add(&grid, AgentSpec::new(Cell::new(9, 1)).goal(Cell::new(0, 1)))?;
/// let mut fields = GoalFields::new();
/// fields.update(&grid, &crowd)?;
/// for _ in 0..30 {
///     crowd.step(&grid, &fields)?;
/// }
/// assert_eq!(crowd.cell(a), Some(Cell::new(9, 1)));
/// assert_eq!(crowd.holder(Cell::new(0, 1)), Some(b));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Implementation
///
/// Agents far from their goals gain priority every step they have not arrived; a
/// higher-priority agent may ask one in its way to step aside, which may ask others
/// in turn, and an agent that cannot make room stays where it is. An agent on its
/// goal may be moved aside and comes back. Agents with the same goal do not push
/// those of them nearer to it: one holds the goal, the others gather round
/// ([`AgentStatus::Yielding`]); a waiting one looks round those ahead of it for a
/// free cell nearer the goal (breadth first, a few hundred cells at most) and walks
/// there, so that agents arriving from one side fill the cells round the goal on
/// every side. See [`step`](Self::step) for the rule.
///
/// A step can be planned in parts, between a game's frames, while its agents walk
/// the last one: [`begin_step`](Self::begin_step), [`advance_step`](Self::advance_step)
/// a share at a time, then [`step`](Self::step) makes the moves.
///
/// Planning a step only reads the crowd: what it writes (each agent's candidates,
/// priority and decision, who holds each cell after the step) is kept apart, behind
/// a lock, so that [`advance_step`](Self::advance_step) takes `&self` and a step
/// may be planned on one thread while others read the crowd
/// ([`holder`](Self::holder), [`cell`](Self::cell), [`agents`](Self::agents), ...):
/// a game plans its crowd's next step beside the systems that walk the last one.
/// What reads the plan ([`status`](Self::status), [`step_left`](Self::step_left), ...)
/// waits for a part being planned to end.
///
/// Memory is a `u32` a cell twice (who holds it now, and next) plus about 200 bytes
/// an agent, all allocated by [`new`](Self::new) and [`add`](Self::add), and a
/// `u32` a cell more at the first such look round: a step allocates nothing once
/// the scratch has grown to the crowd's largest step.
/// Steps are deterministic: the same agents, grid and costs give the same moves.
#[derive(Debug)]
pub struct Crowd {
    dims: (u32, u32),
    agents: Vec<Agent>,
    /// Free slots, the last freed reused first.
    free: Vec<u32>,
    live: usize,
    /// Per cell: the slot of the agent holding it, or `NONE`.
    holders: Vec<u32>,
    steps: u64,
    stuck_after: u32,
    /// Whether the corridor swap rule is on.
    swap: bool,
    /// Whether a moved agent blocks the cells it left until it arrives.
    hold_left: bool,
    /// No agent is on its way: all arrived ([`arrive_all`](Self::arrive_all)) since
    /// the last step that left cells held. `false` says nothing (see
    /// [`any_on_way`](Self::any_on_way)).
    none_on_way: bool,
    /// The hex layout the agents move on (`None`: squares); only read while the
    /// crowd holds an agent, set by the first one added to an empty crowd.
    hex: Option<HexLayout>,
    /// Per cell: the slot of the agent that left it and blocks it until it arrives,
    /// or `NONE` (empty unless `hold_left`).
    blocked: Vec<u32>,
    /// What planning a step writes (`plan.rs`).
    plan: Mutex<StepPlan>,
}

impl Clone for Crowd {
    fn clone(&self) -> Self {
        Self {
            dims: self.dims,
            agents: self.agents.clone(),
            free: self.free.clone(),
            live: self.live,
            holders: self.holders.clone(),
            steps: self.steps,
            stuck_after: self.stuck_after,
            swap: self.swap,
            hold_left: self.hold_left,
            none_on_way: self.none_on_way,
            hex: self.hex,
            blocked: self.blocked.clone(),
            plan: Mutex::new(self.lock_plan().clone()),
        }
    }
}

impl Crowd {
    /// The deepest chain of agents asking one another to step aside in one step;
    /// an agent asked deeper stays where it is (and the one asking looks elsewhere).
    /// It bounds the call stack: chains this long are crowds of thousands packed in
    /// one corridor.
    pub const MAX_CHAIN: u32 = 4096;

    /// An empty crowd for grids of `grid`'s size.
    ///
    /// # Errors
    /// [`CrowdError::OutOfMemory`] if the system cannot give 8 bytes a cell.
    pub fn new(grid: &Grid) -> Result<Self, CrowdError> {
        let cells = grid.len();
        let bytes = cells as u64 * 8;
        crate::memory::ensure(bytes).map_err(|bytes| CrowdError::OutOfMemory { bytes })?;
        Ok(Self {
            dims: (grid.width(), grid.height()),
            agents: Vec::new(),
            free: Vec::new(),
            live: 0,
            holders: vec![NONE; cells],
            steps: 0,
            stuck_after: 32,
            swap: true,
            hold_left: false,
            none_on_way: true,
            hex: None,
            blocked: Vec::new(),
            plan: Mutex::new(StepPlan {
                next: vec![NONE; cells],
                ..StepPlan::default()
            }),
        })
    }

    /// The plan, locked: waits for a part being planned elsewhere to end. A lock
    /// poisoned by a panic there is taken as it is (the panic is that caller's).
    fn lock_plan(&self) -> MutexGuard<'_, StepPlan> {
        self.plan.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The plan, with the crowd held mutably: no lock needed.
    fn plan_mut(&mut self) -> &mut StepPlan {
        self.plan.get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` with the crowd and its plan both mutable: the plan is taken out for
    /// the call (the crowd's own is empty meanwhile: `f` reads the one given).
    fn with_plan<R>(&mut self, f: impl FnOnce(&mut Self, &mut StepPlan) -> R) -> R {
        let mut p = core::mem::take(self.plan_mut());
        let r = f(self, &mut p);
        *self.plan_mut() = p;
        r
    }

    /// Reports an agent as [stuck](AgentStatus::Stuck) once it has not moved (but to
    /// and fro) for `steps` steps, or has got no nearer its goal for twice as many
    /// however it moved, while its goal is reachable and it is not yielding (32 by
    /// default; at least 1).
    pub fn set_stuck_after(&mut self, steps: u32) {
        self.stuck_after = steps.max(1);
    }

    /// Turns the corridor swap rule on (the default) or off. Off, the crowd is plain
    /// PIBT, which may shuffle agents back and forth forever in 1-wide corridors:
    /// for comparisons only.
    pub fn set_swap(&mut self, on: bool) {
        self.swap = on;
    }

    /// Makes room for `more` agents beyond those held, so that adding them allocates
    /// nothing.
    pub fn reserve(&mut self, more: usize) {
        let slots = self.agents.len() + more.saturating_sub(self.free.len());
        self.agents.reserve(slots - self.agents.len());
        let live = self.live;
        let p = self.plan_mut();
        p.agents.reserve(slots - p.agents.len());
        p.order.reserve_total(live + more);
        p.held.reserve(live + more);
        p.candidates
            .reserve(slots * MAX_CANDIDATES - p.candidates.len());
        p.touched.reserve(4 * (live + more));
    }

    /// Adds an agent where `spec` says, on `grid`.
    ///
    /// A crowd's agents move on one layout, as its grid is laid out one way: all on
    /// squares (4- and 8-connected agents mixed freely) or all on the cells of one
    /// [`HexLayout`] ([`Connectivity::Hex`]). The first agent added to an empty crowd
    /// sets which; an agent of another is refused while the crowd holds any agent.
    /// (Steps of squares and hex steps on one grid would be two readings of its
    /// cells, and agents of two hex layouts two readings of the hex map: no map has
    /// units moving both ways.) A hex agent is one cell, as hex paths and distance
    /// fields are.
    ///
    /// # Errors
    /// [`CrowdError::GridMismatch`]; [`CrowdError::LayoutMismatch`] for a
    /// connectivity of another layout than the crowd's agents';
    /// [`CrowdError::InvalidSize`] for a size of 0, above
    /// [`MAX_UNIT_SIZE`](crate::MAX_UNIT_SIZE) or larger than the grid;
    /// [`CrowdError::HexUnitSize`] for a hex agent of a size above 1;
    /// [`CrowdError::OutOfBounds`] if the footprint leaves the grid;
    /// [`CrowdError::Blocked`] if a cell under it is blocked for its mobility;
    /// [`CrowdError::Occupied`] if another agent holds one; [`CrowdError::TooManyAgents`].
    /// Nothing changes then.
    pub fn add(&mut self, grid: &Grid, spec: AgentSpec) -> Result<AgentId, CrowdError> {
        self.check_grid(grid)?;
        let connectivity = spec.connectivity;
        let hex = match connectivity {
            Connectivity::Four | Connectivity::Eight => None,
            Connectivity::Hex(layout) => Some(layout),
        };
        if self.live > 0 && hex != self.hex {
            return Err(CrowdError::LayoutMismatch {
                connectivity,
                crowd: self.hex,
            });
        }
        let (w, h) = self.dims;
        let size = spec.size;
        if size == 0 || size > MAX_UNIT_SIZE || u32::from(size) > w.min(h) {
            return Err(CrowdError::InvalidSize { size });
        }
        if hex.is_some() && size > 1 {
            return Err(CrowdError::HexUnitSize { size });
        }
        let cell = spec.cell;
        let n = i32::from(size);
        let inside = |c: Cell| grid.contains(c);
        if !inside(cell)
            || !inside(Cell::new(
                cell.x.saturating_add(n - 1),
                cell.y.saturating_add(n - 1),
            ))
        {
            return Err(CrowdError::OutOfBounds { cell });
        }
        for c in footprint(cell, size) {
            if !grid.is_passable(c, spec.mobility) {
                return Err(CrowdError::Blocked { cell: c });
            }
            let k = self.holders[self.index(c)];
            if k != NONE {
                return Err(CrowdError::Occupied {
                    cell: c,
                    by: self.agents[k as usize].id(k as usize),
                });
            }
        }
        let slot = match self.free.pop() {
            Some(s) => s as usize,
            None => {
                if self.agents.len() >= NONE as usize - 1 {
                    return Err(CrowdError::TooManyAgents);
                }
                self.agents.push(Agent {
                    generation: 0,
                    alive: false,
                    cell,
                    size,
                    mobility: spec.mobility,
                    connectivity,
                    goal: None,
                    tiebreak: 0,
                    last_moved: 0,
                    came_from: cell,
                    prev: cell,
                    pinned: false,
                    ready: true,
                    left: None,
                });
                let slots = self.agents.len();
                let p = self.plan_mut();
                p.agents.push(AgentPlan::new(cell, slots - 1));
                p.candidates
                    .resize(slots * MAX_CANDIDATES, Candidate::default());
                slots - 1
            }
        };
        let a = &mut self.agents[slot];
        let generation = a.generation;
        *a = Agent {
            generation,
            alive: true,
            cell,
            size,
            mobility: spec.mobility,
            connectivity,
            goal: spec.goal,
            tiebreak: mix(u64::from(generation) << 32 | slot as u64) as u32,
            last_moved: self.steps,
            came_from: cell,
            prev: cell,
            pinned: false,
            ready: true,
            left: None,
        };
        for c in footprint(cell, size) {
            let i = self.index(c);
            self.holders[i] = slot as u32;
        }
        self.live += 1;
        self.hex = hex;
        let live = self.live;
        self.with_plan(|crowd, p| {
            p.agents[slot] = AgentPlan::new(cell, slot);
            p.order.reserve_total(live);
            p.held.reserve(live.saturating_sub(p.held.len()));
            // Added while a step is planned: it stays where it is in that step.
            crowd.hold_in_plan(p, slot, cell);
            p.touched.reserve(
                (2 * live + 4 * usize::from(size) * usize::from(size))
                    .saturating_sub(p.touched.capacity()),
            );
        });
        Ok(a_id(slot, generation))
    }

    /// Removes an agent, freeing its cells; returns what it was, where it stands.
    ///
    /// # Errors
    /// [`CrowdError::UnknownAgent`] (nothing changes).
    pub fn remove(&mut self, id: AgentId) -> Result<AgentSpec, CrowdError> {
        let spec = self.agent(id).ok_or(CrowdError::UnknownAgent(id))?;
        self.release_left(id.index());
        self.with_plan(|crowd, p| crowd.drop_from_plan(p, id.index()));
        for c in footprint(spec.cell, spec.size) {
            let i = self.index(c);
            self.holders[i] = NONE;
        }
        let a = &mut self.agents[id.index()];
        a.alive = false;
        a.generation = a.generation.wrapping_add(1);
        self.free.push(id.index);
        self.live -= 1;
        Ok(spec)
    }

    /// Gives an agent a new goal (`None`: none).
    ///
    /// # Errors
    /// [`CrowdError::UnknownAgent`] (nothing changes).
    pub fn set_goal(&mut self, id: AgentId, goal: Option<Cell>) -> Result<(), CrowdError> {
        let a = self.live_agent_mut(id)?;
        if a.goal != goal {
            a.goal = goal;
            let steps = self.steps;
            let ap = &mut self.plan_mut().agents[id.index()];
            ap.elevation = 0;
            ap.far = agent::FAR_UNKNOWN;
            // How near it got to its last goal says nothing of this one.
            ap.best = u32::MAX;
            ap.bettered = steps;
        }
        Ok(())
    }

    /// The agent holding `cell`, if any (`None` outside the grid too).
    #[inline]
    #[must_use]
    pub fn holder(&self, cell: Cell) -> Option<AgentId> {
        self.holder_slot(cell).map(|k| self.agents[k].id(k))
    }

    /// The slot ([`AgentId::index`]) of the agent holding `cell`, if any: what
    /// [`holder`](Self::holder) says without reading the agent, for a caller that
    /// keys its own per-agent tables by slot and looks at many cells.
    #[inline]
    #[must_use]
    pub fn holder_slot(&self, cell: Cell) -> Option<usize> {
        if !self.contains(cell) {
            return None;
        }
        let k = self.holders[self.index(cell)];
        (k != NONE).then_some(k as usize)
    }

    /// The cells of the rectangle from `min` to `max` (corners included; the part
    /// inside the grid) that an agent holds, row by row, each with the holder's slot
    /// ([`holder_slot`](Self::holder_slot)). On a big grid every row is asked of
    /// memory before the first is read, so that a caller looking round many agents
    /// waits about as long for a rectangle's rows as for one.
    pub fn holders_in(&self, min: Cell, max: Cell) -> impl Iterator<Item = (Cell, usize)> + '_ {
        let w = self.dims.0 as i32;
        let h = self.dims.1 as i32;
        let (x0, x1) = (min.x.max(0), max.x.min(w - 1));
        let (y0, y1) = (min.y.max(0), max.y.min(h - 1));
        // Empty when the rectangle misses the grid (or `min` is past `max`).
        let (xs, ys) = (x0..=x1, y0..=y1);
        if self.is_big() && x0 <= x1 {
            // A cache line holds 8 cells' holders.
            for y in ys.clone() {
                let row = self.index(Cell::new(x0, y));
                let end = row + (x1 - x0) as usize;
                for i in (row..end).step_by(8).chain([end]) {
                    prefetch(&self.holders[i]);
                }
            }
        }
        ys.flat_map(move |y| {
            let row = self.index(Cell::new(0, y));
            xs.clone().filter_map(move |x| {
                let k = self.holders[row + x as usize];
                (k != NONE).then(|| (Cell::new(x, y), k as usize))
            })
        })
    }

    /// An agent as it is now (its anchor, footprint, mobility, connectivity, goal).
    #[must_use]
    pub fn agent(&self, id: AgentId) -> Option<AgentSpec> {
        let a = self.live_agent(id)?;
        Some(AgentSpec {
            cell: a.cell,
            size: a.size,
            mobility: a.mobility,
            connectivity: a.connectivity,
            goal: a.goal,
        })
    }

    /// An agent's anchor.
    #[inline]
    #[must_use]
    pub fn cell(&self, id: AgentId) -> Option<Cell> {
        self.live_agent(id).map(|a| a.cell)
    }

    /// An agent's anchor before the last step (where it stands, if it did not move).
    #[must_use]
    pub fn previous_cell(&self, id: AgentId) -> Option<Cell> {
        self.live_agent(id).map(|a| a.prev)
    }

    /// Every agent, by slot: its id and what it is now.
    pub fn agents(&self) -> impl Iterator<Item = (AgentId, AgentSpec)> + '_ {
        self.agents
            .iter()
            .enumerate()
            .filter(|(_, a)| a.alive)
            .filter_map(|(i, a)| {
                let id = a.id(i);
                self.agent(id).map(|s| (id, s))
            })
    }

    /// The agents that moved in the last step: id, anchor before, anchor now.
    pub fn moves(&self) -> impl Iterator<Item = (AgentId, Cell, Cell)> + '_ {
        self.agents
            .iter()
            .enumerate()
            .filter(|(_, a)| a.alive && a.prev != a.cell)
            .map(|(i, a)| (a.id(i), a.prev, a.cell))
    }

    /// How many agents the crowd holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether the crowd holds no agent.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// One more than the highest slot an agent id may have: per-agent tables of
    /// this length are indexed by [`AgentId::index`].
    #[must_use]
    pub fn slots(&self) -> usize {
        self.agents.len()
    }

    /// Steps taken so far.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Bytes held by the crowd's tables.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        use core::mem::size_of;
        let p = self.lock_plan();
        self.holders.capacity() * 4
            + p.next.capacity() * 4
            + p.touched.capacity() * 4
            + self.agents.capacity() * size_of::<Agent>()
            + p.agents.capacity() * size_of::<AgentPlan>()
            + p.candidates.capacity() * size_of::<Candidate>()
            + p.order.memory_bytes()
            + p.held.capacity() * 4
            + p.seek.memory_bytes()
            + self.free.capacity() * 4
    }

    /// `Ok` when `grid` is this crowd's size.
    pub(crate) fn check_grid(&self, grid: &Grid) -> Result<(), CrowdError> {
        GridMismatch::check(self.dims, grid).map_err(CrowdError::GridMismatch)
    }

    fn live_agent(&self, id: AgentId) -> Option<&Agent> {
        self.agents
            .get(id.index())
            .filter(|a| a.alive && a.generation == id.generation)
    }

    fn live_agent_mut(&mut self, id: AgentId) -> Result<&mut Agent, CrowdError> {
        self.agents
            .get_mut(id.index())
            .filter(|a| a.alive && a.generation == id.generation)
            .ok_or(CrowdError::UnknownAgent(id))
    }

    #[inline]
    fn contains(&self, c: Cell) -> bool {
        (c.x as u32) < self.dims.0 && (c.y as u32) < self.dims.1
    }

    /// The index of a cell inside the grid.
    #[inline]
    fn index(&self, c: Cell) -> usize {
        c.y as usize * self.dims.0 as usize + c.x as usize
    }
}

fn a_id(slot: usize, generation: u32) -> AgentId {
    AgentId {
        index: slot as u32,
        generation,
    }
}

/// The cells of the `size x size` footprint anchored at `cell`, row by row.
#[inline]
fn footprint(cell: Cell, size: u8) -> Footprint {
    Footprint {
        anchor: cell,
        n: i32::from(size),
        dx: 0,
        dy: 0,
    }
}

/// The iterator of [`footprint`]: a plain counter over rows and columns rather than
/// nested iterator adapters, as the joint step walks footprints (of one cell, mostly)
/// several times an agent, and adapters' state machines cost more there than the
/// reads they make.
#[derive(Clone, Copy, Debug)]
struct Footprint {
    anchor: Cell,
    n: i32,
    dx: i32,
    dy: i32,
}

impl Iterator for Footprint {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.dy >= self.n {
            return None;
        }
        let c = Cell::new(self.anchor.x + self.dx, self.anchor.y + self.dy);
        self.dx += 1;
        if self.dx == self.n {
            self.dx = 0;
            self.dy += 1;
        }
        Some(c)
    }
}

/// Whether two footprints share a cell.
#[inline]
fn overlap(a: Cell, sa: u8, b: Cell, sb: u8) -> bool {
    let (sa, sb) = (i32::from(sa), i32::from(sb));
    a.x < b.x + sb && b.x < a.x + sa && a.y < b.y + sb && b.y < a.y + sa
}

/// A 64-bit mix (splitmix64's finaliser): tie-breaks that look random but are fixed.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
