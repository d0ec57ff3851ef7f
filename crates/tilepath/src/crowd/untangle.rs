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
//! It takes one-cell agents with 4-connected moves (the setting of multi-agent path
//! finding; an 8-connected agent moves orthogonally here); agents bigger than a cell
//! and pinned ones stay where they are and hold their cells. A stall is mostly a knot
//! of a few agents in a crowd that is otherwise home: the search first moves only the
//! agents near those away from their goals (within 4 cells, then 12), holding the
//! others where they stand, so that a plan moves few agents and the search stays
//! small, and all of them if that finds nothing. It allocates (one configuration per
//! node explored): it is for the rare stall, not for every tick.

use std::collections::{HashMap, VecDeque};

use super::agent::NONE;
use super::plan::Plan;
use super::{AgentId, Crowd, CrowdError, Guidance, StepStats, mix};
use crate::{AgentSpec, Cell, Direction8, Grid, Mobility};

/// How far round the agents away from their goals (Chebyshev) the agents an
/// untangling may move are taken, one try after another (`u32::MAX`: all).
const UNTANGLE_RADII: [u32; 3] = [4, 12, u32::MAX];

/// The longest chain of agents asked to make room in turn: a chain that would go on
/// counts as failed (the stack stays small whatever the crowd).
const MOST_INHERITED: usize = 1024;

/// The most memory the search's configurations take (about 12 bytes an agent a
/// configuration: it, its key in the set of those seen, and its order); past it the
/// search gives up.
const MOST_SEARCH_BYTES: usize = 256 << 20;

/// One configuration of the search: where every agent stands, and how to go on.
struct High {
    /// Each agent's cell index (agents in [`Untangle`]'s order).
    config: Box<[u32]>,
    /// The node it was reached from (`NONE`: the start).
    parent: u32,
    /// The agents in order of priority, highest first.
    order: Vec<u32>,
    /// Constraints still to try ([`Low`] indices).
    low: VecDeque<u32>,
}

/// A constraint: `who` (an agent of the order) steps to `at`, on top of its parent's.
#[derive(Clone, Copy)]
struct Low {
    parent: u32,
    who: u32,
    at: u32,
    depth: u32,
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

    /// Searches joint steps that take every one-cell agent of `crowd` with a goal to
    /// it (one without a goal, or whose goal `guidance` gives no way to from where
    /// it stands, back to where it stands) on `grid`, guided by `guidance`, exploring
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
        let oom = |bytes: usize| CrowdError::OutOfMemory {
            bytes: bytes as u64,
        };
        for table in [&mut self.now, &mut self.next_at] {
            table.clear();
            table.try_reserve_exact(cells).map_err(|_| oom(cells * 4))?;
            table.resize(cells, NONE);
        }
        // Agents it may move: one-cell and not pinned, with their cells and goals (one
        // without a goal, or whose goal the guidance gives no way to: where it stands).
        let index = |c: Cell| grid.index_of(c).map(|i| i as u32);
        let mut movable: Vec<(AgentId, Mobility, u32, u32)> = Vec::new();
        for (id, spec) in crowd.agents() {
            if spec.size != 1 || crowd.is_pinned(id) {
                continue;
            }
            let Some(at) = index(spec.cell) else { continue };
            let goal = spec
                .goal
                .filter(|_| guidance.cost_to_go(id, spec.cell).is_some())
                .and_then(index)
                .unwrap_or(at);
            movable.push((id, spec.mobility, at, goal));
        }
        // Cells held by agents that stay (bigger than a cell, pinned), and the rooms
        // the rest of the floor makes for each mobility: an agent whose goal is in
        // another room than it (or under an agent that stays) has no way there, and
        // stays where it is, instead of sending the search through every
        // configuration to find that out.
        self.fixed.clear();
        self.fixed
            .try_reserve_exact(cells)
            .map_err(|_| oom(cells))?;
        self.fixed.resize(cells, false);
        for (id, spec) in crowd.agents() {
            if spec.size != 1 || crowd.is_pinned(id) {
                self.hold(grid, spec);
            }
        }
        let mut rooms: Vec<(Mobility, Vec<u32>)> = Vec::new();
        for m in &mut movable {
            if m.2 == m.3 {
                continue;
            }
            let k = match rooms.iter().position(|r| r.0 == m.1) {
                Some(k) => k,
                None => {
                    let mut room = Vec::new();
                    room.try_reserve_exact(cells).map_err(|_| oom(cells * 4))?;
                    room.resize(cells, NONE);
                    self.label_rooms(grid, m.1, &mut room);
                    rooms.push((m.1, room));
                    rooms.len() - 1
                }
            };
            let room = &rooms[k].1;
            if room[m.2 as usize] == NONE || room[m.2 as usize] != room[m.3 as usize] {
                m.3 = m.2;
            }
        }
        // One agent a goal: where two would end on one cell (two goals alike, or a
        // goal where an agent that goes nowhere stands), one away from its goal stays
        // instead, until no two are left.
        let mut end = core::mem::take(&mut self.now);
        loop {
            let mut clash = None;
            for (k, m) in movable.iter().enumerate() {
                let cell = m.3 as usize;
                let other = end[cell];
                if other == NONE {
                    end[cell] = k as u32;
                } else {
                    let o = &movable[other as usize];
                    clash = Some(if o.2 != o.3 { other as usize } else { k });
                    break;
                }
            }
            for m in &movable {
                end[m.3 as usize] = NONE;
            }
            let Some(k) = clash else { break };
            movable[k].3 = movable[k].2;
        }
        self.now = end;
        // First the agents near those away from their goals, the others held where
        // they stand (fewer agents moved, a smaller search), then wider, then all.
        let away: Vec<Cell> = movable
            .iter()
            .filter(|m| m.2 != m.3)
            .filter_map(|m| grid.cell_of(m.2 as usize))
            .collect();
        let mut left = most_nodes;
        for radius in UNTANGLE_RADII {
            let near = |at: u32| {
                grid.cell_of(at as usize)
                    .is_some_and(|c| away.iter().any(|&w| c.chebyshev(w) <= radius))
            };
            let taking_part = movable.iter().filter(|m| near(m.2)).count();
            let everyone = taking_part == movable.len();
            if !everyone && radius != u32::MAX && taking_part * 2 > movable.len() {
                // Most agents are near: the whole search costs little more.
                continue;
            }
            self.fixed.fill(false);
            for (id, spec) in crowd.agents() {
                let held = spec.size != 1
                    || crowd.is_pinned(id)
                    || index(spec.cell).is_some_and(|at| !near(at));
                if held {
                    self.hold(grid, spec);
                }
            }
            self.ids.clear();
            self.mobility.clear();
            self.goal.clear();
            let mut start = Vec::new();
            for &(id, mobility, at, goal) in movable.iter().filter(|m| near(m.2)) {
                self.ids.push(id);
                self.mobility.push(mobility);
                self.goal.push(goal);
                start.push(at);
            }
            // A goal under an agent held where it stands: no way with these.
            if !everyone && self.goal.iter().any(|&g| self.fixed[g as usize]) {
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

    /// The search itself, over the agents in `self.ids` from `start` (their cells),
    /// exploring at most `most_nodes` configurations: keeps the plan if it finds one.
    fn search<G: Guidance + ?Sized>(
        &mut self,
        grid: &Grid,
        guidance: &G,
        start: Vec<u32>,
        most_nodes: usize,
    ) -> bool {
        let n = self.ids.len();
        let most_nodes = self.explored + most_nodes.min(MOST_SEARCH_BYTES / (12 * n.max(1)));
        self.next.clear();
        self.next.resize(n, NONE);
        let goal: Box<[u32]> = self.goal.clone().into_boxed_slice();
        let mut highs: Vec<High> = Vec::new();
        let mut lows: Vec<Low> = Vec::new();
        let mut seen: HashMap<Box<[u32]>, u32> = HashMap::new();
        let start: Box<[u32]> = start.into_boxed_slice();
        let root = self.node(grid, guidance, start, NONE, &mut highs, &mut lows);
        seen.insert(highs[root as usize].config.clone(), root);
        let mut open: Vec<u32> = vec![root];
        let mut config = vec![0_u32; n];
        while let Some(&top) = open.last() {
            if highs[top as usize].config == goal {
                self.keep(grid, &highs, top);
                return true;
            }
            if self.explored >= most_nodes {
                return false;
            }
            let Some(c) = highs[top as usize].low.pop_front() else {
                open.pop();
                continue;
            };
            let low = lows[c as usize];
            let h = &highs[top as usize];
            if (low.depth as usize) < n {
                // One agent deeper: each of its cells next, staying first.
                let who = h.order[low.depth as usize];
                let at = h.config[who as usize];
                let mut cands = [NONE; 5];
                let len = self.moves(grid, who as usize, at, &mut cands);
                for &to in &cands[..len] {
                    let l = lows.len() as u32;
                    lows.push(Low {
                        parent: c,
                        who,
                        at: to,
                        depth: low.depth + 1,
                    });
                    highs[top as usize].low.push_back(l);
                }
            }
            self.explored += 1;
            self.salt = mix(self.salt ^ self.explored as u64);
            let from = highs[top as usize].config.clone();
            let order = highs[top as usize].order.clone();
            if !self.successor(grid, guidance, &from, &order, &lows, c, &mut config) {
                continue;
            }
            if let Some(&known) = seen.get(config.as_slice()) {
                open.push(known);
                continue;
            }
            let config: Box<[u32]> = config.clone().into_boxed_slice();
            let node = self.node(grid, guidance, config.clone(), top, &mut highs, &mut lows);
            seen.insert(config, node);
            open.push(node);
        }
        false
    }

    /// Marks the cells of `spec`'s footprint as held by an agent that stays.
    fn hold(&mut self, grid: &Grid, spec: AgentSpec) {
        for y in 0..i32::from(spec.size) {
            for x in 0..i32::from(spec.size) {
                let c = Cell::new(spec.cell.x.saturating_add(x), spec.cell.y.saturating_add(y));
                if let Some(i) = grid.index_of(c) {
                    self.fixed[i] = true;
                }
            }
        }
    }

    /// Labels the rooms of the cells `mobility` may enter that no agent that stays
    /// holds (4-connected; `NONE` elsewhere) into `room`.
    fn label_rooms(&self, grid: &Grid, mobility: Mobility, room: &mut [u32]) {
        let mut queue: Vec<u32> = Vec::new();
        let mut label = 0;
        for start in 0..room.len() {
            let open = |i: usize| {
                !self.fixed[i] && grid.cell_of(i).is_some_and(|c| grid.fits(c, mobility, 1))
            };
            if room[start] != NONE || !open(start) {
                continue;
            }
            room[start] = label;
            queue.push(start as u32);
            while let Some(i) = queue.pop() {
                let Some(c) = grid.cell_of(i as usize) else {
                    continue;
                };
                for d in [
                    Direction8::Right,
                    Direction8::Up,
                    Direction8::Left,
                    Direction8::Down,
                ] {
                    if grid.can_step(c, d, mobility)
                        && let Some(j) = grid.index_of(c.step(d))
                        && room[j] == NONE
                        && !self.fixed[j]
                    {
                        room[j] = label;
                        queue.push(j as u32);
                    }
                }
            }
            label += 1;
        }
    }

    /// Adds a node for `config`, reached from `parent`: agents away from their goals
    /// first, the farthest first.
    fn node<G: Guidance + ?Sized>(
        &self,
        grid: &Grid,
        guidance: &G,
        config: Box<[u32]>,
        parent: u32,
        highs: &mut Vec<High>,
        lows: &mut Vec<Low>,
    ) -> u32 {
        let mut order: Vec<u32> = (0..config.len() as u32).collect();
        let key = |k: u32| {
            let k = k as usize;
            let away = config[k] != self.goal[k];
            let cost = self.cost(grid, guidance, k, config[k]);
            (core::cmp::Reverse(away), core::cmp::Reverse(cost), k)
        };
        order.sort_by_cached_key(|&k| key(k));
        let root = lows.len() as u32;
        lows.push(Low {
            parent: NONE,
            who: NONE,
            at: NONE,
            depth: 0,
        });
        highs.push(High {
            config,
            parent,
            order,
            low: VecDeque::from([root]),
        });
        (highs.len() - 1) as u32
    }

    /// Keeps the configurations from the start to `end` as the plan.
    fn keep(&mut self, grid: &Grid, highs: &[High], end: u32) {
        let mut chain = Vec::new();
        let mut at = end;
        while highs[at as usize].parent != NONE {
            chain.push(at);
            at = highs[at as usize].parent;
        }
        let mut before = &highs[at as usize].config;
        for &h in chain.iter().rev() {
            let config = &highs[h as usize].config;
            let moves = (0..config.len())
                .filter(|&k| config[k] != before[k])
                .filter_map(|k| Some((self.ids[k], grid.cell_of(config[k] as usize)?)))
                .collect();
            self.plan.push_back(moves);
            before = config;
        }
    }

    /// Agent `k`'s cost to go from cell index `at` (agents without a goal: the
    /// Manhattan distance back to where they stood).
    fn cost<G: Guidance + ?Sized>(&self, grid: &Grid, guidance: &G, k: usize, at: u32) -> u32 {
        let (Some(c), Some(g)) = (
            grid.cell_of(at as usize),
            grid.cell_of(self.goal[k] as usize),
        ) else {
            return u32::MAX;
        };
        guidance.cost_to_go(self.ids[k], c).unwrap_or_else(|| {
            if c == g {
                0
            } else {
                c.manhattan(g).saturating_add(1)
            }
        })
    }

    /// Agent `k`'s cells for the next step from `at`: staying, then its legal
    /// orthogonal steps onto cells no fixed agent holds. Returns how many.
    fn moves(&self, grid: &Grid, k: usize, at: u32, out: &mut [u32; 5]) -> usize {
        out[0] = at;
        let mut len = 1;
        let Some(from) = grid.cell_of(at as usize) else {
            return len;
        };
        for d in [
            Direction8::Right,
            Direction8::Up,
            Direction8::Left,
            Direction8::Down,
        ] {
            if grid.can_step(from, d, self.mobility[k])
                && let Some(i) = grid.index_of(from.step(d))
                && !self.fixed[i]
            {
                out[len] = i as u32;
                len += 1;
            }
        }
        len
    }

    /// The configuration after `from` under the constraints of low node `c`, the
    /// others decided by priority inheritance with backtracking: into `out`.
    /// Returns `false` if the constraints admit none.
    #[expect(clippy::too_many_arguments, reason = "the successor rule's inputs")]
    fn successor<G: Guidance + ?Sized>(
        &mut self,
        grid: &Grid,
        guidance: &G,
        from: &[u32],
        order: &[u32],
        lows: &[Low],
        c: u32,
        out: &mut [u32],
    ) -> bool {
        for (k, &at) in from.iter().enumerate() {
            self.now[at as usize] = k as u32;
            self.next[k] = NONE;
        }
        let mut ok = true;
        let mut l = c;
        while ok && lows[l as usize].parent != NONE {
            let Low { who, at, .. } = lows[l as usize];
            let w = who as usize;
            // Two agents fixed into one cell, or into each other's.
            let holder = self.now[at as usize];
            if self.next_at[at as usize] != NONE
                || (holder != NONE && holder != who && self.next[holder as usize] == from[w])
            {
                ok = false;
            } else {
                self.next[w] = at;
                self.next_at[at as usize] = who;
            }
            l = lows[l as usize].parent;
        }
        if ok {
            for &k in order {
                if self.next[k as usize] == NONE
                    && !self.inherit(grid, guidance, from, (k, NONE), 0)
                {
                    ok = false;
                    break;
                }
            }
        }
        for (k, &at) in from.iter().enumerate() {
            self.now[at as usize] = NONE;
            let next = self.next[k];
            if next != NONE {
                self.next_at[next as usize] = NONE;
            }
            out[k] = next;
        }
        ok
    }

    /// PIBT's rule for agent `k`, asked by `parent` (`NONE`: by nobody): takes its
    /// best free cell, asking the agent there to move on in turn; stays if none.
    fn inherit<G: Guidance + ?Sized>(
        &mut self,
        grid: &Grid,
        guidance: &G,
        from: &[u32],
        (k, parent): (u32, u32),
        depth: usize,
    ) -> bool {
        let ku = k as usize;
        let mut cands = [NONE; 5];
        let len = self.moves(grid, ku, from[ku], &mut cands);
        let mut keyed = [(0_u64, NONE); 5];
        for (slot, &cell) in keyed.iter_mut().zip(&cands[..len]) {
            let cost = u64::from(self.cost(grid, guidance, ku, cell));
            let tie = mix(self.salt ^ (u64::from(k) << 32) ^ u64::from(cell)) & 0xFFFF_FFFF;
            *slot = ((cost.min(u64::from(u32::MAX))) << 32 | tie, cell);
        }
        keyed[..len].sort_unstable();
        for &(_, cell) in &keyed[..len] {
            let cu = cell as usize;
            if self.next_at[cu] != NONE {
                continue;
            }
            if parent != NONE && from[parent as usize] == cell {
                continue;
            }
            let there = self.now[cu];
            if there != NONE && there != k && self.next[there as usize] == from[ku] {
                continue;
            }
            if there != NONE && there != k && self.next[there as usize] == NONE {
                if depth >= MOST_INHERITED {
                    // Too long a chain: as if the agent there could not move.
                    continue;
                }
                self.next[ku] = cell;
                self.next_at[cu] = k;
                if !self.inherit(grid, guidance, from, (there, k), depth + 1) {
                    continue;
                }
                return true;
            }
            self.next[ku] = cell;
            self.next_at[cu] = k;
            return true;
        }
        // Nowhere to go: it stays (its cell may have been taken by a child that
        // failed and stayed too; the caller then finds the configuration invalid).
        let stay = from[ku] as usize;
        if self.next_at[stay] != NONE && self.next_at[stay] != k {
            self.next[ku] = from[ku];
            return false;
        }
        self.next[ku] = from[ku];
        self.next_at[stay] = k;
        false
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

impl Crowd {
    /// Walks the next joint step of `untangle`'s [plan](Untangle::plan): its agents
    /// move as planned, the others stay. Returns the step's figures, or `None` when
    /// the plan is walked, or when it no longer fits the crowd (it is then dropped):
    /// an agent of it removed, pinned, grown or moved since, a step it needs walled,
    /// a cell it enters held by an agent that stays, a step being planned in parts
    /// ([`begin_step`](Self::begin_step)), or an agent still on its way
    /// ([`set_hold_left`](Self::set_hold_left)). Each step keeps the crowd's rules: no
    /// two agents in a cell, none passing through another, every move a legal step.
    ///
    /// # Errors
    /// [`CrowdError::GridMismatch`] if `grid` is not the crowd's size.
    pub fn step_untangled(
        &mut self,
        grid: &Grid,
        untangle: &mut Untangle,
    ) -> Result<Option<StepStats>, CrowdError> {
        self.check_grid(grid)?;
        if self.plan != Plan::Idle || self.agents.iter().any(|a| a.alive && a.left.is_some()) {
            untangle.clear();
            return Ok(None);
        }
        let Some(moves) = untangle.pop() else {
            return Ok(None);
        };
        for a in &mut self.agents {
            a.target = a.cell;
        }
        let mut fits = true;
        for &(id, to) in &moves {
            let Some(a) = self.live_agent(id) else {
                fits = false;
                break;
            };
            let step = [
                Direction8::Right,
                Direction8::Up,
                Direction8::Left,
                Direction8::Down,
            ]
            .into_iter()
            .find(|&d| a.cell.step(d) == to);
            if a.size != 1
                || a.pinned
                || !step.is_some_and(|d| grid.can_step(a.cell, d, a.mobility))
            {
                fits = false;
                break;
            }
            let a = &mut self.agents[id.index()];
            a.target = to;
            a.cand_len = 0;
        }
        // One agent a cell; into a held cell only behind its holder, never head-on.
        for &(id, to) in &moves {
            if !fits {
                break;
            }
            let s = id.index();
            let i = self.index(to);
            if self.next[i] != NONE {
                fits = false;
                break;
            }
            self.next[i] = s as u32;
            self.touched.push(i as u32);
            let h = self.holder[i];
            if h != NONE && h as usize != s {
                let b = self.agents[h as usize];
                if b.target == b.cell || b.target == self.agents[s].cell {
                    fits = false;
                }
            }
        }
        if !fits {
            for &i in &self.touched {
                self.next[i as usize] = NONE;
            }
            self.touched.clear();
            for a in &mut self.agents {
                a.target = a.cell;
            }
            untangle.clear();
            return Ok(None);
        }
        self.steps += 1;
        self.given_up = 0;
        Ok(Some(self.apply()))
    }
}
