//! A step planned in parts: begun, advanced a share at a time (a game's frames while
//! its units walk the last step), and finished by [`Crowd::step`].
//!
//! A step's plan is the same rule whether it is made in one call or in parts
//! (`step.rs`): each agent is readied (its candidates, its priority) and then asked in
//! order of priority, and nothing the plan writes is seen outside the crowd before the
//! moves are made. Between parts the caller may add, remove and recall agents, and
//! edit the grid; each keeps the plan whole: an agent added or recalled meanwhile
//! stays where it is in this step, an agent removed frees what it had reserved, and
//! a move decided into the cells of an agent that stays after all is given up, as is
//! a move the grid no longer allows when the step is finished. Giving up a move makes
//! an agent stay, so that any move decided into its cells is given up in turn; a
//! subset of a valid step's moves closed under that rule is itself valid (no two
//! agents in a cell, no swap, no crossing: staying creates none of them).

use super::agent::{AgentPlan, Decision, NONE};
use super::moves::step_between;
use super::order::Order;
use super::seek::Seek;
use super::{AgentId, Candidate, Crowd, CrowdError, Guidance, footprint};
use crate::prefetch::prefetch;
use crate::{Cell, Grid};
use std::sync::PoisonError;

/// How many agents ahead of the one planned their data is brought into the cache.
const PREFETCH_AHEAD: usize = 16;

/// The units of work asking an agent counts (readying one counts one). Agents are
/// readied in the order of their slots but asked in order of priority, scattered
/// over the map and the agents' table, and asking one waits on several reads from
/// memory (its agent, its plan, its candidates, who holds the cells round it now and
/// next, and their agents) that readying finds in the cache or brings in ahead; the
/// agents asked to make room are as scattered. Counted so, the shares of a step
/// planned over a big map's ticks take about the same time whichever part they plan.
const ASK_WORK: usize = 5;

/// Grids of fewer cells keep who holds them (8 bytes a cell) in the processor's
/// caches, where cache hints only cost.
const PREFETCH_FROM: usize = 1 << 18;

/// A guidance that counts the costs it gives: the measure of a plan's work.
struct Counted<'g, G: ?Sized> {
    inner: &'g G,
    reads: core::cell::Cell<usize>,
}

impl<G: Guidance + ?Sized> Guidance for Counted<'_, G> {
    #[inline]
    fn cost_to_go(&self, agent: AgentId, cell: Cell) -> Option<u32> {
        self.reads.set(self.reads.get() + 1);
        self.inner.cost_to_go(agent, cell)
    }

    #[inline]
    fn set_off_distance(&self, agent: AgentId, cell: Cell) -> Option<u32> {
        self.inner.set_off_distance(agent, cell)
    }

    #[inline]
    fn prefetch(&self, agent: AgentId, cell: Cell) {
        self.inner.prefetch(agent, cell);
    }
}

/// The work one agent took in each part of the last step planned, to estimate what
/// a step begun has left.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Rates {
    ready: Rate,
    ask: Rate,
}

impl Rates {
    /// The step being planned is decided: its rates are those of the next estimates.
    fn step_planned(&mut self) {
        self.ready.settle();
        self.ask.settle();
    }
}

/// Work per agent in one part of a step: as of the last step, and summed in this one.
#[derive(Clone, Copy, Debug, Default)]
struct Rate {
    /// Work per agent, in sixteenths (0: none measured yet, counted as one unit).
    per_16: u64,
    agents: u64,
    work: u64,
}

impl Rate {
    fn add(&mut self, agents: u32, work: usize) {
        self.agents += u64::from(agents);
        self.work += work as u64;
    }

    fn settle(&mut self) {
        if self.agents > 0 {
            self.per_16 = (self.work * 16).div_ceil(self.agents).max(16);
        }
        (self.agents, self.work) = (0, 0);
    }

    fn estimate(&self, agents: u32) -> usize {
        (u64::from(agents) * self.per_16.max(16)).div_ceil(16) as usize
    }
}

/// What planning a step writes, apart from the crowd (which it only reads), so that
/// a step may be planned while others read the crowd: each agent's plan, who holds
/// each cell after the step, and the step's scratch. The crowd keeps it behind a
/// lock ([`Crowd::advance_step`] takes `&self`).
#[derive(Clone, Debug, Default)]
pub(super) struct StepPlan {
    /// Per slot: the agent's plan.
    pub(super) agents: Vec<AgentPlan>,
    /// Per cell: the slot of the agent holding it after this step (`NONE` between
    /// steps).
    pub(super) next: Vec<u32>,
    /// The cells written in `next` this step.
    pub(super) touched: Vec<u32>,
    /// Per slot, `MAX_CANDIDATES` candidates.
    pub(super) candidates: Vec<Candidate>,
    /// The step's order of agents: (priority key, slot).
    pub(super) order: Order,
    /// The scratch of yielding agents' searches for nearer seats.
    pub(super) seek: Seek,
    /// Where the step being planned is.
    pub(super) stage: Plan,
    /// Whether the step being planned treats agents on their way as arrived (begun
    /// with [`begin_step`](Crowd::begin_step)).
    pub(super) through_transit: bool,
    /// Agents made to stay in the step being planned, to settle.
    pub(super) held: Vec<u32>,
    /// Moves given up in the step being planned.
    pub(super) given_up: usize,
    /// Agents asked so far (in order of priority, or to make room): the measure of
    /// an ask's work.
    pub(super) asked: usize,
    /// The work an agent took in the last step planned.
    pub(super) rates: Rates,
}

/// Where the step being planned is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Plan {
    /// No step begun.
    #[default]
    Idle,
    /// Readying agents by slot: the next slot, and the slots there were when it
    /// began (agents added since stay).
    Ready { next: u32, end: u32 },
    /// Asking agents in order of priority: the next in the order.
    Ask { next: u32 },
    /// Every agent decided; the moves are made by [`Crowd::step`].
    Decided,
}

impl Crowd {
    /// Begins the next step, to be planned in parts by
    /// [`advance_step`](Self::advance_step) and finished (its moves made) by
    /// [`step`](Self::step): a game spreads a large crowd's step over the frames in
    /// which its units walk the last one. `false`, and nothing changes, if a step is
    /// begun already.
    ///
    /// Contract, for a caller whose agents walk a step over several frames with
    /// [`set_hold_left`](Self::set_hold_left) on: the step begun is planned from
    /// where agents are going, as if every agent on its way had
    /// [arrived](Self::arrive) (the cells left are not blocked for the plan, and
    /// agents on their way are planned like the others), so call `step` once they
    /// have. Between parts the crowd stays what it was before the step began (every
    /// query answers as before; nothing moves) and may be changed:
    /// - an agent [added](Self::add) or [recalled](Self::recall) meanwhile stays
    ///   where it is in this step;
    /// - an agent [removed](Self::remove) frees what it had reserved;
    /// - goals, readiness and pins set meanwhile count from the agents readied after
    ///   it (see [`step_left`](Self::step_left)); guidance and grid may differ
    ///   between parts.
    ///
    /// `step` then gives up every move that has closed: into the cells of an agent
    /// that stays after all (added, recalled, or itself given up), into cells still
    /// blocked by an agent on its way, of an agent still on its way or pinned since,
    /// or a step `grid` no longer allows. An agent whose move is given up stays, and
    /// so, in turn, does every agent decided into its cells. The moves made are
    /// therefore always a valid step (no two agents in a cell, none passing through
    /// another); a plan in parts with nothing changed between them makes the moves
    /// a single `step` would.
    pub fn begin_step(&mut self) -> bool {
        self.with_plan(|crowd, p| {
            if p.stage != Plan::Idle {
                return false;
            }
            crowd.start_plan(p, true);
            true
        })
    }

    /// Plans about `work` more units of work of the step begun, with `guidance` on
    /// `grid`, and returns an estimate of what is left
    /// ([`step_left`](Self::step_left); 0: every agent is decided, and
    /// [`step`](Self::step) makes the moves). Nothing happens without a step begun.
    ///
    /// The work counted is what a step's time goes into: one unit for readying an
    /// agent, five for asking one (in order of priority, or to make room for
    /// another), and one for each cost the guidance is asked for (an agent's
    /// candidates, its look round the agents ahead of it, a corridor's length), so
    /// that equal shares of work take about equal times in either part. Agents are
    /// planned whole: a part ends with the agent that reaches `work` (at least one
    /// agent is planned, with `work` above 0).
    ///
    /// It takes `&self`: other threads may read the crowd meanwhile, and what reads
    /// the plan ([`status`](Self::status), [`step_left`](Self::step_left), ...) waits
    /// for it. `guidance` must not read the plan of this crowd: it would wait for
    /// itself.
    ///
    /// # Errors
    /// [`CrowdError::GridMismatch`] (nothing is planned).
    pub fn advance_step<G: Guidance + ?Sized>(
        &self,
        grid: &Grid,
        guidance: &G,
        work: usize,
    ) -> Result<usize, CrowdError> {
        self.check_grid(grid)?;
        let mut p = self.lock_plan();
        if p.stage != Plan::Idle {
            self.plan_some(&mut p, grid, guidance, work);
        }
        Ok(self.left_of(&p))
    }

    /// How much of the step begun is left to plan, in the units of work
    /// [`advance_step`](Self::advance_step) counts, as estimated from the last step
    /// planned: the agents not readied yet and, before the order of priority is
    /// made, the agents held (each is asked once), each at what one took then. 0
    /// without a step begun, or once every agent is decided.
    #[must_use]
    pub fn step_left(&self) -> usize {
        self.left_of(&self.lock_plan())
    }

    /// [`step_left`](Self::step_left) of plan `p`.
    fn left_of(&self, p: &StepPlan) -> usize {
        match p.stage {
            Plan::Idle | Plan::Decided => 0,
            Plan::Ready { next, end } => {
                p.rates.ready.estimate(end - next) + p.rates.ask.estimate(self.live as u32)
            }
            Plan::Ask { next } => p.rates.ask.estimate(p.order.len() as u32 - next),
        }
    }

    /// Whether a step is begun and not made yet.
    #[must_use]
    pub fn is_stepping(&self) -> bool {
        self.lock_plan().stage != Plan::Idle
    }

    /// Drops the step begun, planned or not, without a move: it counts as a step in
    /// which nobody moved ([`steps`](Self::steps), and the waits that make an agent
    /// [stuck](super::AgentStatus::Stuck)), and agents readied for it keep the priority
    /// they gained. What a caller does before walking an [`Untangle`](super::Untangle)
    /// plan ([`step_untangled`](Self::step_untangled) walks none while a step is
    /// begun). Returns whether a step was begun.
    pub fn abandon_step(&mut self) -> bool {
        let agents = &self.agents;
        let p = self.plan.get_mut().unwrap_or_else(PoisonError::into_inner);
        if p.stage == Plan::Idle {
            return false;
        }
        for (a, ap) in agents.iter().zip(&mut p.agents) {
            ap.target = a.cell;
            ap.decision = Decision::Open;
        }
        for &i in &p.touched {
            p.next[i as usize] = NONE;
        }
        p.touched.clear();
        p.held.clear();
        p.order.clear();
        p.given_up = 0;
        p.stage = Plan::Idle;
        p.through_transit = false;
        true
    }

    /// Starts planning a step: `through_transit` plans agents on their way as if
    /// they had arrived (a step begun with `begin_step`).
    pub(super) fn start_plan(&mut self, p: &mut StepPlan, through_transit: bool) {
        self.steps += 1;
        p.given_up = 0;
        p.order.clear();
        p.through_transit = through_transit;
        p.stage = Plan::Ready {
            next: 0,
            end: self.agents.len() as u32,
        };
    }

    /// Plans up to `budget` units of work of the step being planned (see
    /// [`advance_step`](Self::advance_step)), each agent whole.
    pub(super) fn plan_some<G: Guidance + ?Sized>(
        &self,
        p: &mut StepPlan,
        grid: &Grid,
        guidance: &G,
        budget: usize,
    ) {
        let counted = Counted {
            inner: guidance,
            reads: core::cell::Cell::new(0),
        };
        let asked = p.asked;
        let spent = |visits: usize, asked_now: usize| {
            visits + counted.reads.get() + (asked_now - asked) * ASK_WORK
        };
        let mut visits = 0;
        loop {
            match p.stage {
                Plan::Idle | Plan::Decided => return,
                Plan::Ready { next, end } => {
                    let mut s = next;
                    let before = spent(visits, p.asked);
                    while s < end && spent(visits, p.asked) < budget {
                        let ahead = s as usize + PREFETCH_AHEAD / 2;
                        if let Some(t) = self.agents.get(ahead).filter(|_| self.is_big()) {
                            self.prefetch_round(p, t.cell);
                            counted.prefetch(t.id(ahead), t.cell);
                        }
                        self.ready_agent(p, s as usize, grid, &counted);
                        s += 1;
                        visits += 1;
                    }
                    p.rates.ready.add(s - next, spent(visits, p.asked) - before);
                    if s < end {
                        p.stage = Plan::Ready { next: s, end };
                        return;
                    }
                    p.order.sort();
                    p.stage = Plan::Ask { next: 0 };
                }
                Plan::Ask { next } => {
                    let len = p.order.len() as u32;
                    let mut k = next;
                    let before = spent(visits, p.asked);
                    while k < len && spent(visits, p.asked) < budget {
                        let s = p.order.slot(k as usize) as usize;
                        if self.is_big() {
                            self.prefetch_ask(p, k as usize);
                        }
                        if self.agents[s].alive && p.agents[s].decision == Decision::Open {
                            self.ask(p, s, 0, grid, &counted);
                        }
                        k += 1;
                        visits += 1;
                    }
                    p.rates.ask.add(k - next, spent(visits, p.asked) - before);
                    if k < len {
                        p.stage = Plan::Ask { next: k };
                        return;
                    }
                    p.rates.step_planned();
                    p.stage = Plan::Decided;
                }
            }
        }
    }

    /// Whether the crowd's grid is big enough that who holds its cells does not stay
    /// in the cache ([`PREFETCH_FROM`]): only then do the cache hints pay.
    #[inline]
    pub(super) fn is_big(&self) -> bool {
        self.holders.len() >= PREFETCH_FROM
    }

    /// Agents are asked in order of priority, scattered over the map and the
    /// agents' table: the agent [`PREFETCH_AHEAD`] places on is brought into the
    /// cache, and the cells round the one half as far on (read by then) with its
    /// candidates, so that its reads wait less.
    #[inline]
    fn prefetch_ask(&self, p: &StepPlan, k: usize) {
        if let Some(t) = p.order.get(k + PREFETCH_AHEAD) {
            prefetch(&self.agents[t as usize]);
            prefetch(&p.agents[t as usize]);
        }
        if let Some(t) = p.order.get(k + PREFETCH_AHEAD / 2) {
            self.prefetch_round(p, self.agents[t as usize].cell);
            if let Some(c) = p.candidates.get(p.agents[t as usize].cand_from as usize) {
                prefetch(c);
            }
        }
    }

    /// Brings into the cache who holds the cells round `at`: its row and the rows
    /// above and below (an agent's candidates and their holders).
    #[inline]
    fn prefetch_round(&self, p: &StepPlan, at: Cell) {
        if !self.contains(at) {
            return;
        }
        let i = self.index(at);
        let w = self.dims.0 as usize;
        for j in [i.wrapping_sub(w), i, i + w] {
            if let Some(c) = self.holders.get(j) {
                prefetch(c);
            }
            if let Some(c) = p.next.get(j) {
                prefetch(c);
            }
        }
    }

    /// Agent `s` stays where it stands in the step being planned (added or recalled
    /// meanwhile): what it had reserved at `reserved` (its anchor there) is freed,
    /// and every move decided into its cells is given up in turn.
    pub(super) fn hold_in_plan(&self, p: &mut StepPlan, s: usize, reserved: Cell) {
        if p.stage == Plan::Idle {
            return;
        }
        self.unreserve(p, s, reserved);
        p.held.push(s as u32);
        self.settle_held(p);
    }

    /// Agent `s`, removed, frees what it had reserved in the step being planned.
    pub(super) fn drop_from_plan(&self, p: &mut StepPlan, s: usize) {
        if p.stage != Plan::Idle {
            let target = p.agents[s].target;
            self.unreserve(p, s, target);
        }
    }

    /// Before the moves are made: gives up every move that closed since it was
    /// decided (see [`begin_step`](Self::begin_step)).
    pub(super) fn cancel_what_closed(&self, p: &mut StepPlan, grid: &Grid) {
        // Only agents on their way block cells: with none, no cell is read for it.
        let blocking = self.any_on_way();
        for s in 0..self.agents.len() {
            let (a, target) = (&self.agents[s], p.agents[s].target);
            if !a.alive || target == a.cell {
                continue;
            }
            let closed = a.pinned
                || a.left.is_some()
                || (blocking && self.blocks(s, target, a.size))
                || step_between(grid, a.cell, target, a).is_none();
            if closed {
                p.held.push(s as u32);
                self.settle_held(p);
            }
        }
    }

    /// Frees the cells of anchor `at` that agent `s` reserved.
    fn unreserve(&self, p: &mut StepPlan, s: usize, at: Cell) {
        for c in footprint(at, self.agents[s].size) {
            if !self.contains(c) {
                continue;
            }
            let i = self.index(c);
            if p.next[i] == s as u32 {
                p.next[i] = NONE;
            }
        }
    }

    /// Every agent in `held` stays: its move (if any) is given up, its own cells are
    /// reserved for it, and every agent decided into them is held in turn. Each agent
    /// is given up once at most (cells are held by one agent each), so this ends.
    fn settle_held(&self, p: &mut StepPlan) {
        while let Some(s) = p.held.pop() {
            let s = s as usize;
            let a = &self.agents[s];
            let target = p.agents[s].target;
            if target != a.cell {
                self.unreserve(p, s, target);
                p.given_up += 1;
            }
            let ap = &mut p.agents[s];
            ap.target = a.cell;
            ap.decision = Decision::Done;
            for c in footprint(a.cell, a.size) {
                let i = self.index(c);
                let k = p.next[i];
                if k == s as u32 {
                    continue;
                }
                if k != NONE {
                    p.held.push(k);
                }
                p.next[i] = s as u32;
                p.touched.push(i as u32);
            }
        }
    }
}
