//! The corridor swap rule: two agents meeting head-on in a 1-wide corridor.
//!
//! Priority inheritance alone handles a corridor by pushing the agent in the way
//! back until it can step aside. When the corridor behind that agent ends in a dead
//! end (or in agents resting at their goals there), pushing cannot help; and when
//! priorities flip, plain PIBT pushes the pair back and forth forever. The swap rule
//! (from Okumura's LaCAM* work, "Engineering LaCAM*", AAMAS 2024) looks ahead
//! instead: if the agent in the way must get past (it wants to go where the asking
//! agent stands) and pushing it back ends in a dead end, while behind the asking
//! agent the corridor opens up, the asking agent backs out towards that opening,
//! pulling the other after it, until both reach the branch, where they pass.
//!
//! The rule applies to agents of one class (size, mobility, connectivity), which see
//! the same corridors. Corridor walks stop after [`WALK_LIMIT`] cells and then
//! count as opening up (pushing is left to the priorities).

use super::agent::{Agent, Decision, NONE};
use super::moves::{can_step, directions, step_between};
use super::plan::StepPlan;
use super::{Crowd, Guidance, footprint};
use crate::{Cell, Grid};

/// The longest corridor a swap test walks.
const WALK_LIMIT: u32 = 1024;

/// What lies past a corridor cell, going away from the cell one came from.
enum Onward {
    /// Two ways or more: agents can pass each other here.
    Branch,
    /// No way on.
    DeadEnd,
    /// One way on: the corridor goes on to this anchor.
    Next(Cell),
}

impl Crowd {
    /// The agent that agent `s` should back out of a corridor with, if the swap
    /// rule applies: the single agent standing on `s`'s best candidate, of `s`'s
    /// class, not asked yet, which must get past `s` where pushing it back ends in
    /// a dead end while the corridor behind `s` opens up.
    pub(super) fn swap_partner<G: Guidance + ?Sized>(
        &self,
        p: &StepPlan,
        s: usize,
        grid: &Grid,
        guidance: &G,
    ) -> Option<usize> {
        let (a, ap) = (&self.agents[s], &p.agents[s]);
        if ap.cand_len < 2 {
            return None;
        }
        let best = p.candidates[ap.cand_from as usize].cell;
        if best == a.cell {
            return None;
        }
        let mut j = NONE;
        for c in footprint(best, a.size) {
            let k = self.holders[self.index(c)];
            if k == NONE || k as usize == s || k == j {
                continue;
            }
            if j != NONE {
                return None;
            }
            j = k;
        }
        if j == NONE {
            return None;
        }
        let b = &self.agents[j as usize];
        if p.agents[j as usize].decision != Decision::Open || !a.same_class(b) || b.cell != best {
            return None;
        }
        let cost_a = |c: Cell| guidance.cost_to_go(a.id(s), c).unwrap_or(u32::MAX);
        let cost_b = |c: Cell| guidance.cost_to_go(b.id(j as usize), c).unwrap_or(u32::MAX);
        (self.swap_needed(a, grid, a.cell, b.cell, cost_a, cost_b)
            && self.can_back_out(a, grid, b.cell, a.cell))
        .then_some(j as usize)
    }

    /// Whether the agent at `puller` must get past the one at `pusher` (who wants
    /// to go where it stands): pushing it back along the corridor meets no branch
    /// before a dead end or before the pusher stops wanting to go on, and the
    /// puller wants to go towards the pusher's side.
    fn swap_needed(
        &self,
        class: &Agent,
        grid: &Grid,
        pusher: Cell,
        puller: Cell,
        cost_pusher: impl Fn(Cell) -> u32,
        cost_puller: impl Fn(Cell) -> u32,
    ) -> bool {
        let (mut back, mut front) = (pusher, puller);
        let mut walked = 0;
        while cost_pusher(front) < cost_pusher(back) {
            walked += 1;
            if walked > WALK_LIMIT {
                return false;
            }
            match self.onward(class, grid, front, back) {
                Onward::Branch => return false,
                Onward::DeadEnd => break,
                Onward::Next(c) => (back, front) = (front, c),
            }
        }
        cost_puller(back) < cost_puller(front)
            && (cost_pusher(back) == 0 || cost_pusher(front) < cost_pusher(back))
    }

    /// Whether an agent at `at`, pushed from `pusher`, can back out along its
    /// corridor to a branch.
    fn can_back_out(&self, class: &Agent, grid: &Grid, pusher: Cell, at: Cell) -> bool {
        let (mut back, mut front) = (pusher, at);
        for _ in 0..WALK_LIMIT {
            match self.onward(class, grid, front, back) {
                Onward::Branch => return true,
                Onward::DeadEnd => return false,
                Onward::Next(c) if c == pusher => return false,
                Onward::Next(c) => (back, front) = (front, c),
            }
        }
        true
    }

    /// The ways on from `at` for an agent of `class`, not counting `from` nor dead
    /// ends where an agent rests on its goal.
    fn onward(&self, class: &Agent, grid: &Grid, at: Cell, from: Cell) -> Onward {
        let mut ways = 0;
        let mut last = at;
        for dir in directions(class.connectivity, at) {
            if !can_step(grid, at, dir, class) {
                continue;
            }
            let c = at.step(dir);
            if c == from || self.resting_in_dead_end(class, grid, c) {
                continue;
            }
            ways += 1;
            last = c;
            if ways >= 2 {
                return Onward::Branch;
            }
        }
        if ways == 0 {
            Onward::DeadEnd
        } else {
            Onward::Next(last)
        }
    }

    /// Whether an agent rests on its goal at anchor `c`, a dead end for `class`.
    fn resting_in_dead_end(&self, class: &Agent, grid: &Grid, c: Cell) -> bool {
        let k = self.holders[self.index(c)];
        if k == NONE {
            return false;
        }
        let b = &self.agents[k as usize];
        if b.goal != Some(b.cell) || b.cell != c {
            return false;
        }
        let exits = directions(class.connectivity, c)
            .filter(|&d| can_step(grid, c, d, class))
            .count();
        exits <= 1
    }

    /// After agent `s` backed out, its partner `p` follows it one step, if it can.
    pub(super) fn pull<G: Guidance + ?Sized>(
        &self,
        plan: &mut StepPlan,
        p: usize,
        s: usize,
        depth: u32,
        grid: &Grid,
        guidance: &G,
    ) {
        let (b, a) = (&self.agents[p], &self.agents[s]);
        if plan.agents[p].decision != Decision::Open {
            return;
        }
        // Into the anchor `s` leaves: `p` stands on the neighbouring anchor `s` was
        // to step to, so this is one step, if `p`'s moves and the grid allow it.
        let Some(dir) = step_between(grid, b.cell, a.cell, b) else {
            return;
        };
        // Its candidates give its cost where it ends up.
        self.fill(plan, p, grid, guidance);
        plan.agents[p].decision = Decision::Asking;
        if !self.try_cell(plan, p, b.cell.step(dir), depth + 1, grid, guidance) {
            plan.agents[p].decision = Decision::Open;
        }
    }
}
