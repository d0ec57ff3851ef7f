//! Walking a plan: each untangled step checked against the crowd as it is now, then
//! made as a joint step.

use super::{NONE, Untangle};
use crate::crowd::moves::{step_between_as, untangling};
use crate::crowd::plan::Plan;
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
        if self.plan != Plan::Idle || self.any_on_way() {
            untangle.clear();
            return Ok(None);
        }
        let Some(moves) = untangle.pop() else {
            return Ok(None);
        };
        if !self.aim(grid, &moves) {
            untangle.clear();
            return Ok(None);
        }
        self.steps += 1;
        self.given_up = 0;
        Ok(Some(self.apply()))
    }

    /// Sets every agent's target for a joint step of `moves` (the others stay), or,
    /// if they do not fit the crowd as it is, sets none and says so: each move a
    /// legal step of a live agent that is not pinned, of the moves an untangling
    /// gives it (orthogonal on squares, hex steps on a hex map), one agent a cell, a
    /// held cell entered only behind its holder, never head-on.
    fn aim(&mut self, grid: &Grid, moves: &[(AgentId, Cell)]) -> bool {
        for a in &mut self.agents {
            a.target = a.cell;
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
                let a = &mut self.agents[id.index()];
                a.target = to;
                a.cand_len = 0;
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
                let h = self.cells[i].now;
                let behind = h == NONE || h as usize == s || {
                    let a = &self.agents[h as usize];
                    a.target != a.cell && !overlap(a.target, a.size, cell, size)
                };
                if self.cells[i].next != NONE || !behind {
                    fits = false;
                    break;
                }
                self.cells[i].next = s as u32;
                self.touched.push(i as u32);
            }
        }
        if !fits {
            for &i in &self.touched {
                self.cells[i as usize].next = NONE;
            }
            self.touched.clear();
            for a in &mut self.agents {
                a.target = a.cell;
            }
        }
        fits
    }
}
