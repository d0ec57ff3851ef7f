//! Walking a plan: each untangled step checked against the crowd as it is now, then
//! made as a joint step.

use super::{NONE, Untangle};
use crate::crowd::moves::{step_between_as, untangling};
use crate::crowd::plan::{Plan, StepPlan};
use crate::crowd::{Crowd, CrowdError, StepStats, footprint, overlap};
use crate::{AgentId, Cell, Grid};

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
        if self.plan_mut().stage != Plan::Idle || self.any_on_way() {
            untangle.clear();
            return Ok(None);
        }
        let Some(moves) = untangle.pop() else {
            return Ok(None);
        };
        Ok(self.with_plan(|crowd, p| {
            if !crowd.aim(p, grid, &moves) {
                untangle.clear();
                return None;
            }
            crowd.steps += 1;
            p.given_up = 0;
            Some(crowd.apply(p))
        }))
    }

    /// Sets every agent's target for a joint step of `moves` (the others stay), or,
    /// if they do not fit the crowd as it is, sets none and says so: each move a
    /// legal step of a live agent that is not pinned, of the moves an untangling
    /// gives it (orthogonal on squares, hex steps on a hex map), one agent a cell, a
    /// held cell entered only behind its holder, never head-on.
    fn aim(&self, p: &mut StepPlan, grid: &Grid, moves: &[(AgentId, Cell)]) -> bool {
        for (a, ap) in self.agents.iter().zip(&mut p.agents) {
            ap.target = a.cell;
        }
        let mut fits = moves.iter().all(|&(id, to)| {
            self.live_agent(id).is_some_and(|a| {
                !a.pinned
                    && step_between_as(
                        grid,
                        (a.cell, to),
                        a.mobility,
                        a.size,
                        untangling(a.connectivity),
                    )
                    .is_some()
            })
        });
        if fits {
            for &(id, to) in moves {
                let ap = &mut p.agents[id.index()];
                ap.target = to;
                ap.cand_len = 0;
            }
        }
        for &(id, to) in moves {
            if !fits {
                break;
            }
            let s = id.index();
            let (cell, size) = (self.agents[s].cell, self.agents[s].size);
            for c in footprint(to, size) {
                let i = self.index(c);
                let h = self.holders[i];
                let behind = h == NONE || h as usize == s || {
                    let (a, target) = (&self.agents[h as usize], p.agents[h as usize].target);
                    target != a.cell && !overlap(target, a.size, cell, size)
                };
                if p.next[i] != NONE || !behind {
                    fits = false;
                    break;
                }
                p.next[i] = s as u32;
                p.touched.push(i as u32);
            }
        }
        if !fits {
            for &i in &p.touched {
                p.next[i as usize] = NONE;
            }
            p.touched.clear();
            for (a, ap) in self.agents.iter().zip(&mut p.agents) {
                ap.target = a.cell;
            }
        }
        fits
    }
}
