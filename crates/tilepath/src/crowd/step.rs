//! A step: every agent's next anchor decided together, then all moves made.
//!
//! The rule is PIBT's (priority inheritance with backtracking, Okumura et al.):
//! agents are asked in order of priority; an agent asked tries its candidate
//! anchors best first, reserving the cells of one and asking the agents standing
//! there to make room (they inherit its priority and are asked the same way,
//! recursively). A candidate whose occupants cannot all make room is given up for
//! the next; an agent with no candidate left stays, and the agent that asked it
//! looks elsewhere. Priorities grow every step an agent has not arrived, so an
//! agent kept waiting ends up first in the order and is not kept waiting forever
//! in open space; the corridor swap rule (`swap.rs`) covers 1-wide corridors.

use super::agent::{Agent, Decision, FAR_MAX, FAR_UNKNOWN, NONE};
use super::moves::{directions, has_corners, legal_steps};
use super::plan::{Plan, StepPlan};
use super::{
    AgentStatus, Candidate, Crowd, CrowdError, Guidance, MAX_CANDIDATES, StepStats, footprint, mix,
    overlap,
};
use crate::{Cell, Grid};

impl Crowd {
    /// Moves every agent one step (or not at all) towards its goal, as `guidance`
    /// says, on `grid` as it is now (edited since the last step or not).
    ///
    /// Each agent's candidates are its anchor and the neighbouring anchors the grid
    /// lets it step to, ordered by cost-to-go (staying first among equals, then free
    /// cells). Agents are asked in order of priority: steps since they last stood
    /// on their goals, then the farther from its goal as it set off first (where the
    /// guidance says: [`Guidance::set_off_distance`]), then a fixed pseudo-random
    /// order. See the module's rule above; agents standing on their goals, idle agents
    /// and [yielding](AgentStatus::Yielding) ones keep the lowest priority, and may be
    /// asked to step aside.
    ///
    /// A step begun with [`begin_step`](Self::begin_step) and planned in parts
    /// ([`advance_step`](Self::advance_step)) is finished here: what is left of it is
    /// planned with `guidance` and `grid`, the moves that closed meanwhile are
    /// given up (see `begin_step`), and the rest are made.
    ///
    /// # Errors
    /// [`CrowdError::GridMismatch`] (nothing moves; a step begun stays begun).
    pub fn step<G: Guidance + ?Sized>(
        &mut self,
        grid: &Grid,
        guidance: &G,
    ) -> Result<StepStats, CrowdError> {
        self.check_grid(grid)?;
        Ok(self.with_plan(|crowd, p| {
            if p.stage == Plan::Idle {
                crowd.start_plan(p, false);
            }
            crowd.plan_some(p, grid, guidance, usize::MAX);
            if p.through_transit {
                crowd.cancel_what_closed(p, grid);
            }
            crowd.apply(p)
        }))
    }

    /// Readies agent `s` for the step: prepares it, has it stay (pinned, or holding the
    /// cell it left) or look for a way round those ahead of it (`seek.rs`), and puts it
    /// in the order of priority. Each agent's part reads nothing another's changes.
    pub(super) fn ready_agent<G: Guidance + ?Sized>(
        &self,
        p: &mut StepPlan,
        s: usize,
        grid: &Grid,
        guidance: &G,
    ) {
        // Dead, or added or held in place since the step began: it stays.
        if !self.agents[s].alive || p.agents[s].decision == Decision::Done {
            return;
        }
        self.prepare(p, s, grid, guidance);
        let a = &self.agents[s];
        if a.pinned || (a.left.is_some() && !p.through_transit) {
            self.stay(p, s);
        } else {
            self.seek(p, s, grid, guidance);
        }
        let yielding = p.agents[s].detour.is_finished() && self.yields(p, s);
        let a = &self.agents[s];
        let ap = &mut p.agents[s];
        ap.yielding = yielding;
        let resting = a.goal.is_none_or(|g| g == a.cell) || yielding;
        ap.elevation = if resting {
            0
        } else {
            ap.elevation.saturating_add(1)
        };
        if ap.far == FAR_UNKNOWN && a.goal.is_some() {
            ap.far = guidance
                .set_off_distance(a.id(s), a.cell)
                .map_or(FAR_UNKNOWN, |d| d.min(FAR_MAX));
        }
        // Among agents that have waited alike, the farther from its goal first (PIBT's
        // rule: the agent with the longer way to go would lose the most by waiting),
        // then a fixed pseudo-random order.
        let tiebreak = if ap.far == FAR_UNKNOWN {
            a.tiebreak
        } else {
            (FAR_MAX - ap.far) << 8 | a.tiebreak & 0xff
        };
        let key = u64::from(u32::MAX - ap.elevation) << 32 | u64::from(tiebreak);
        p.order.push(key, s as u32);
    }

    /// Readies agent `s` for the step: its cost where it stands, and its candidates
    /// if it may step of its own accord (ready, heading somewhere else, neither
    /// pinned nor holding the cell it left). The others stay unless asked to make
    /// room, and fill theirs then ([`fill`](Self::fill)): the candidates are the same
    /// whenever they are filled in a step, as nothing they read changes before its
    /// moves are made.
    fn prepare<G: Guidance + ?Sized>(&self, p: &mut StepPlan, s: usize, grid: &Grid, guidance: &G) {
        let a = &self.agents[s];
        let here = a.cell;
        let here_cost = guidance.cost_to_go(a.id(s), here).unwrap_or(u32::MAX);
        let ap = &mut p.agents[s];
        // Not the cost its last step left it at: its guidance changed (or it is new,
        // or was given a goal), and how near it got before says nothing now.
        if ap.here_cost != here_cost {
            ap.best = here_cost;
            ap.bettered = self.steps;
        }
        ap.here_cost = here_cost;
        ap.cand_from = (s * MAX_CANDIDATES) as u32;
        ap.cand_len = 0;
        ap.filled = false;
        ap.decision = Decision::Open;
        ap.target = here;
        let steps_itself = a.ready
            && !a.pinned
            && (a.left.is_none() || p.through_transit)
            && a.goal.is_some_and(|g| g != here);
        if steps_itself {
            self.fill(p, s, grid, guidance);
        }
    }

    /// Fills agent `s`'s candidates: where it stands and the neighbouring anchors the
    /// grid lets it step to, best first.
    pub(super) fn fill<G: Guidance + ?Sized>(
        &self,
        p: &mut StepPlan,
        s: usize,
        grid: &Grid,
        guidance: &G,
    ) {
        let a = &self.agents[s];
        if p.agents[s].filled {
            return;
        }
        let id = a.id(s);
        let here = a.cell;
        let from = s * MAX_CANDIDATES;
        let salt = mix(self.steps ^ (s as u64) << 40);
        let here_cost = p.agents[s].here_cost;
        p.candidates[from] = Candidate {
            cell: here,
            key: u64::from(here_cost) << 32 | (salt & 0x3fff_ffff),
        };
        let mut len = 1;
        let legal = legal_steps(grid, here, a);
        for (d, dir) in directions(a.connectivity, here).enumerate() {
            if legal >> dir.bits() & 1 == 0 {
                continue;
            }
            let cell = here.step(dir);
            if self.blocked_for(p.through_transit, s, cell, a.size) {
                continue;
            }
            let cost = guidance.cost_to_go(id, cell).unwrap_or(u32::MAX);
            let held = footprint(cell, a.size).any(|c| {
                let k = self.holders[self.index(c)];
                k != NONE && k as usize != s
            });
            let rank = 1 + u64::from(held);
            let hash = (salt >> (3 * d + 8)) ^ (d as u64).wrapping_mul(0x9e37_79b9);
            p.candidates[from + len] = Candidate {
                cell,
                key: u64::from(cost) << 32 | rank << 30 | (hash & 0x3fff_ffff),
            };
            len += 1;
        }
        p.candidates[from..from + len].sort_unstable_by_key(|c| c.key);
        let ap = &mut p.agents[s];
        ap.cand_len = len as u8;
        ap.filled = true;
    }

    /// Whether agent `s` is as near its goal as it gets from where it stands: not on
    /// it, and every candidate nearer it is held by agents with its goal (it may
    /// still find a way round them: `seek.rs`).
    pub(super) fn yields(&self, p: &StepPlan, s: usize) -> bool {
        let (a, ap) = (&self.agents[s], &p.agents[s]);
        let (Some(goal), cost) = (a.goal, ap.here_cost) else {
            return false;
        };
        if cost == 0 || cost == u32::MAX || goal == a.cell {
            return false;
        }
        // Not stepping of its own accord this step: as it was.
        if !ap.filled {
            return ap.yielding;
        }
        let from = ap.cand_from as usize;
        let mut better = false;
        for c in &p.candidates[from..from + usize::from(ap.cand_len)] {
            if (c.key >> 32) as u32 >= cost {
                break;
            }
            better = true;
            for cell in footprint(c.cell, a.size) {
                let k = self.holders[self.index(cell)];
                if k == NONE {
                    return false;
                }
                // Nearer by `s`'s own measure (agents of other connectivities measure
                // their own costs otherwise).
                if k as usize != s && self.agents[k as usize].goal != a.goal {
                    return false;
                }
            }
        }
        better
    }

    /// Asks agent `s` to choose its next anchor; `false` if it could only stay.
    pub(super) fn ask<G: Guidance + ?Sized>(
        &self,
        p: &mut StepPlan,
        s: usize,
        depth: u32,
        grid: &Grid,
        guidance: &G,
    ) -> bool {
        p.agents[s].decision = Decision::Asking;
        p.asked += 1;
        if depth >= Self::MAX_CHAIN {
            self.stay(p, s);
            return false;
        }

        // An agent not ready stays if it can; asked to make room, it steps as any. (So
        // does one at rest, whose best candidate is staying.)
        let here = self.agents[s].cell;
        if (!self.agents[s].ready || !p.agents[s].filled)
            && self.try_cell(p, s, here, depth, grid, guidance)
        {
            return true;
        }
        self.fill(p, s, grid, guidance);
        let partner = if self.swap && self.agents[s].ready {
            self.swap_partner(p, s, grid, guidance)
        } else {
            None
        };
        let (from, len) = {
            let a = &p.agents[s];
            (a.cand_from as usize, usize::from(a.cand_len))
        };
        for k in 0..len {
            // The swap rule tries the candidates worst first: back out of the
            // corridor, the partner following.
            let at = if partner.is_some() { len - 1 - k } else { k };
            let cell = p.candidates[from + at].cell;
            if self.try_cell(p, s, cell, depth, grid, guidance) {
                if let Some(partner) = partner {
                    self.pull(p, partner, s, depth, grid, guidance);
                }
                return true;
            }
        }
        self.stay(p, s);
        false
    }

    /// Agent `s` stays: its cells are its own next step (an agent asking for them
    /// loses them and looks elsewhere).
    pub(super) fn stay(&self, p: &mut StepPlan, s: usize) {
        let a = &self.agents[s];
        let ap = &mut p.agents[s];
        ap.decision = Decision::Done;
        ap.target = a.cell;
        for c in footprint(a.cell, a.size) {
            let i = self.index(c);
            p.next[i] = s as u32;
            p.touched.push(i as u32);
        }
    }

    /// Tries to move agent `s` (asking) to anchor `to`: reserves its cells and asks
    /// the agents there to make room. `true` if `s` is then done, moving there.
    pub(super) fn try_cell<G: Guidance + ?Sized>(
        &self,
        p: &mut StepPlan,
        s: usize,
        to: Cell,
        depth: u32,
        grid: &Grid,
        guidance: &G,
    ) -> bool {
        let a = &self.agents[s];
        let here = a.cell;
        if self.blocked_for(p.through_transit, s, to, a.size) {
            return false;
        }
        for c in footprint(to, a.size) {
            let i = self.index(c);
            if p.next[i] != NONE {
                return false;
            }
            let k = self.holders[i];
            if k == NONE || k as usize == s {
                continue;
            }
            let (b, bp) = (&self.agents[k as usize], &p.agents[k as usize]);
            match bp.decision {
                // On the stack of requests: entering its cell would be a swap (its
                // own parent's) or close a cycle through agents not decided yet,
                // which a multi-cell agent further up may still undo.
                Decision::Asking => return false,
                // Moving into a cell of `s`'s: passing through each other.
                Decision::Done => {
                    if overlap(bp.target, b.size, here, a.size) {
                        return false;
                    }
                }
                // Agents with the same goal do not push those nearer it.
                Decision::Open => {
                    if a.goal.is_some() && b.goal == a.goal && bp.here_cost <= p.agents[s].here_cost
                    {
                        return false;
                    }
                }
            }
        }
        // Only a diagonal step has corner cells to cross (`corners`).
        if to.x != here.x && to.y != here.y && self.crosses(p, s, here, to) {
            return false;
        }
        if self.brushes(p, s, here, to) {
            return false;
        }
        for c in footprint(to, a.size) {
            let i = self.index(c);
            p.next[i] = s as u32;
            p.touched.push(i as u32);
        }
        p.agents[s].target = to;
        let mut ok = true;
        for c in footprint(to, a.size) {
            let k = self.holders[self.index(c)];
            if k != NONE
                && k as usize != s
                && p.agents[k as usize].decision == Decision::Open
                && !self.ask(p, k as usize, depth + 1, grid, guidance)
            {
                ok = false;
                break;
            }
        }
        // An agent that could not make room (here or deeper) took its cells back.
        ok = ok && footprint(to, a.size).all(|c| p.next[self.index(c)] == s as u32);
        if ok {
            p.agents[s].decision = Decision::Done;
            return true;
        }
        for c in footprint(to, a.size) {
            let i = self.index(c);
            if p.next[i] == s as u32 {
                p.next[i] = NONE;
            }
        }
        p.agents[s].target = here;
        // Every agent under `to` that now stands decided was asked here: one that
        // stood decided before holds its cells for the step (checked above).
        if a.size > 1 || self.holder_size(to) > 1 {
            for c in footprint(to, a.size) {
                let k = self.holders[self.index(c)];
                if k != NONE && k as usize != s {
                    self.undecide(p, k as usize);
                }
            }
        }
        false
    }

    /// The size of the agent holding `c` (0: none).
    fn holder_size(&self, c: Cell) -> u8 {
        match self.holders[self.index(c)] {
            NONE => 0,
            k => self.agents[k as usize].size,
        }
    }

    /// Agent `k`, asked to make room by an agent that now looks elsewhere, and left
    /// standing (its cells were in the asker's way or it found none free), is
    /// undecided again; the caller does this where either is bigger than a cell: a bigger agent's way out often
    /// crosses cells of the one asking (a unit following another round a corner
    /// wants a cell the other's own step takes), and standing for the whole step
    /// would keep it from the step it can take on its own turn. One-cell agents keep
    /// PIBT's rule: a child that could not make room stays.
    fn undecide(&self, p: &mut StepPlan, k: usize) {
        let (b, bp) = (&self.agents[k], &p.agents[k]);
        if bp.decision != Decision::Done || bp.target != b.cell {
            return;
        }
        for c in footprint(b.cell, b.size) {
            let i = self.index(c);
            if p.next[i] == k as u32 {
                p.next[i] = NONE;
            }
        }
        p.agents[k].decision = Decision::Open;
    }

    /// Whether agent `s`'s step from `here` to `to` and another agent's step of this
    /// step would brush past each other: one moving diagonally on squares, the other
    /// stepping between a corner cell of that diagonal and one of its ends (into the
    /// cell the diagonal leaves, or out of the one it enters). Their centres would
    /// pass within half a cell; a step apart elsewhere they keep at least `1/sqrt(2)`
    /// of a cell. Hex steps have no corner cells: nothing brushes past them.
    fn brushes(&self, p: &StepPlan, s: usize, here: Cell, to: Cell) -> bool {
        let a = &self.agents[s];
        let size = a.size;
        let decided = |k: u32| k != NONE && k as usize != s;
        if let Some((cp, cq)) = self.corners(a, here, to) {
            // An agent at a corner cell entering `s`'s cells.
            for c in [cp, cq] {
                let k = self.holders[self.index(c)];
                if decided(k) {
                    let (b, target) = (&self.agents[k as usize], p.agents[k as usize].target);
                    if target != b.cell && overlap(target, b.size, here, size) {
                        return true;
                    }
                }
            }
            // An agent leaving the cells `s` enters for a corner cell.
            for c in footprint(to, size) {
                let k = self.holders[self.index(c)];
                if decided(k) {
                    let (b, target) = (&self.agents[k as usize], p.agents[k as usize].target);
                    if target != b.cell
                        && (covers(target, b.size, cp) || covers(target, b.size, cq))
                    {
                        return true;
                    }
                }
            }
        }
        // An agent stepping diagonally whose corner cell is under `s`'s footprint at
        // `at`: one entering `s`'s cells (`s` steps into its corner cell), or one
        // leaving the cells `s` enters (`s` comes from its corner cell).
        let diagonal_past = |k: u32, at: Cell| {
            decided(k) && {
                let b = &self.agents[k as usize];
                self.corners(b, b.cell, p.agents[k as usize].target)
                    .is_some_and(|(cp, cq)| covers(at, size, cp) || covers(at, size, cq))
            }
        };
        footprint(here, size).any(|c| diagonal_past(p.next[self.index(c)], to))
            || footprint(to, size).any(|c| diagonal_past(self.holders[self.index(c)], here))
    }

    /// The two corner cells a diagonal step of `agent` from `from` to `to` passes
    /// between (`None` for a step that is not diagonal, or a hex step: see
    /// [`has_corners`]).
    fn corners(&self, agent: &Agent, from: Cell, to: Cell) -> Option<(Cell, Cell)> {
        if from.x == to.x || from.y == to.y || !has_corners(agent.connectivity) {
            return None;
        }
        let n = i32::from(agent.size);
        let (new_col, old_col) = if to.x > from.x {
            (from.x + n, from.x)
        } else {
            (from.x - 1, from.x + n - 1)
        };
        let (new_row, old_row) = if to.y > from.y {
            (from.y + n, from.y)
        } else {
            (from.y - 1, from.y + n - 1)
        };
        let (p, q) = (Cell::new(new_col, old_row), Cell::new(old_col, new_row));
        (self.contains(p) && self.contains(q)).then_some((p, q))
    }

    /// Whether a diagonal step of agent `s` from `from` to `to` would cross another
    /// agent's step: one holding one of the two corner cells the step passes
    /// between and taking the other.
    fn crosses(&self, p: &StepPlan, s: usize, from: Cell, to: Cell) -> bool {
        let Some((cp, cq)) = self.corners(&self.agents[s], from, to) else {
            return false;
        };
        let (ip, iq) = (self.index(cp), self.index(cq));
        let (hp, hq) = (self.holders[ip], self.holders[iq]);
        (hp != NONE && hp as usize != s && p.next[iq] == hp)
            || (hq != NONE && hq as usize != s && p.next[ip] == hq)
    }

    /// Makes every decided move, clears the step's scratch.
    pub(super) fn apply(&mut self, p: &mut StepPlan) -> StepStats {
        let mut stats = StepStats {
            given_up: p.given_up,
            ..StepStats::default()
        };
        // One pass: each mover frees the cells it leaves (those no mover entered
        // already) and takes the cells it enters (free, or left by a mover not passed
        // yet, which then finds them taken and leaves them be).
        for s in 0..self.agents.len() {
            let a = self.agents[s];
            if !a.alive {
                continue;
            }
            let ap = p.agents[s];
            let target = ap.target;
            let moved = target != a.cell;
            // The cost where it now stands: from its candidates if it moved.
            let mut cost = ap.here_cost;
            if moved {
                for c in footprint(a.cell, a.size) {
                    let i = self.index(c);
                    if self.holders[i] == s as u32 {
                        self.holders[i] = NONE;
                    }
                }
                for c in footprint(target, a.size) {
                    let i = self.index(c);
                    debug_assert!(
                        {
                            let k = self.holders[i];
                            k == NONE || {
                                let b = &self.agents[k as usize];
                                k as usize > s && p.agents[k as usize].target != b.cell
                            }
                        },
                        "two agents in one cell"
                    );
                    self.holders[i] = s as u32;
                }
                stats.moved += 1;
                let from = ap.cand_from as usize;
                if let Some(c) = p.candidates[from..from + usize::from(ap.cand_len)]
                    .iter()
                    .find(|c| c.cell == target)
                {
                    cost = (c.key >> 32) as u32;
                }
                if self.hold_left {
                    self.block_left(s, a.cell, target, a.size);
                }
            }
            let bp = &mut p.agents[s];
            bp.here_cost = cost;
            if cost < bp.best {
                bp.best = cost;
                bp.bettered = self.steps;
            }
            bp.decision = Decision::Open;
            let b = &mut self.agents[s];
            b.prev = a.cell;
            b.cell = target;
            if moved {
                // Back onto its goal is the way it wants.
                if target != a.came_from || a.goal == Some(target) {
                    b.last_moved = self.steps;
                }
                b.came_from = a.cell;
                if self.hold_left {
                    b.left = Some(a.cell);
                    self.none_on_way = false;
                }
            }
            if a.goal == Some(target) {
                stats.arrived += 1;
            }
            stats.stuck +=
                usize::from(self.status_of(&self.agents[s], &p.agents[s]) == AgentStatus::Stuck);
        }
        for &i in &p.touched {
            p.next[i as usize] = NONE;
        }
        p.touched.clear();
        p.stage = Plan::Idle;
        p.through_transit = false;
        stats
    }
}

/// Whether `c` is under the `size x size` footprint anchored at `at`.
#[inline]
fn covers(at: Cell, size: u8, c: Cell) -> bool {
    overlap(at, size, c, 1)
}
