//! A waiting agent looking round the agents ahead of it for a nearer free seat.
//!
//! The step rule moves an agent only to a neighbour nearer its goal (or aside when
//! asked), and agents with one goal do not push those nearer it. Agents arriving
//! from one side of a shared goal therefore stop at the first agents there, though
//! free cells nearer the goal may lie round them: the crowd piles up on the side
//! they came from. An agent that [yields](super::AgentStatus::Yielding) looks, now
//! and then, for a free anchor nearer its goal, breadth first over free cells
//! round it and at most [`SEEK_LIMIT`] of them; found, it walks the way there (its
//! detour) before heading by its guidance again.

use super::agent::NONE;
use super::moves::{directions, legal_steps};
use super::plan::StepPlan;
use super::{Crowd, Guidance, footprint};
use crate::{Cell, Direction8, Grid, GridPath8};

/// The most free cells one search looks at. Bounds its cost: a crowd round one goal
/// is filled from the agents at its rim, each looking a little way round it.
pub(super) const SEEK_LIMIT: usize = 256;

/// A yielding agent looks once in this many steps (agents take turns by slot), so
/// that a crowd with nowhere nearer to go pays little for looking.
const SEEK_EVERY: u64 = 8;

/// A detour is given up when the agent has not moved along it for this many steps
/// (others took its way).
const DETOUR_PATIENCE: u64 = 8;

/// The scratch of the searches: a stamp per cell (allocated at the first search)
/// and the cells found, each with the index of the cell it was reached from.
#[derive(Clone, Debug, Default)]
pub(super) struct Seek {
    seen: Vec<u32>,
    stamp: u32,
    nodes: Vec<(Cell, u16, Direction8)>,
}

impl Seek {
    /// Bytes held by the scratch.
    pub(super) fn memory_bytes(&self) -> usize {
        self.seen.capacity() * 4 + self.nodes.capacity() * size_of::<(Cell, u16, Direction8)>()
    }
}

impl Crowd {
    /// Before agent `s` is asked: follows its detour (its next cell put first among
    /// its candidates), drops one it left or finished, or, when it yields and it is
    /// its turn, looks for one.
    pub(super) fn seek<G: Guidance + ?Sized>(
        &self,
        p: &mut StepPlan,
        s: usize,
        grid: &Grid,
        guidance: &G,
    ) {
        let a = &self.agents[s];
        let ap = p.agents[s];
        let mut detour = ap.detour;
        if let Some(d) = detour.peek()
            && a.prev != a.cell
        {
            // It moved last step: along its detour, or pushed off it.
            if a.prev.step(d) == a.cell {
                detour.next();
            } else {
                detour = GridPath8::EMPTY;
            }
        }
        if detour.is_finished() || self.steps - a.last_moved > DETOUR_PATIENCE {
            detour = GridPath8::EMPTY;
        }
        if detour.is_finished()
            && ap.filled
            && self.yields(p, s)
            && (self.steps + s as u64).is_multiple_of(SEEK_EVERY)
        {
            detour = self.search(p, s, grid, guidance);
        }
        p.agents[s].detour = detour;
        // An agent not stepping of its own accord this step keeps its way for later.
        let Some(d) = detour.peek().filter(|_| ap.filled) else {
            return;
        };
        let next = a.cell.step(d);
        let from = ap.cand_from as usize;
        let cands = &mut p.candidates[from..from + usize::from(ap.cand_len)];
        match cands.iter().position(|c| c.cell == next) {
            Some(k) => cands[..=k].rotate_right(1),
            None => p.agents[s].detour = GridPath8::EMPTY,
        }
    }

    /// Breadth first from agent `s` over free anchors: the way to the first one
    /// nearer its goal than where it stands, or an empty path.
    fn search<G: Guidance + ?Sized>(
        &self,
        p: &mut StepPlan,
        s: usize,
        grid: &Grid,
        guidance: &G,
    ) -> GridPath8 {
        let a = &self.agents[s];
        let here_cost = p.agents[s].here_cost;
        let id = a.id(s);
        let cells = self.holders.len();
        let through_transit = p.through_transit;
        let seek = &mut p.seek;
        if seek.seen.len() != cells {
            // Once: a failed allocation leaves the agent waiting where it is.
            seek.seen.clear();
            if seek.seen.try_reserve_exact(cells).is_err()
                || seek.nodes.try_reserve(SEEK_LIMIT).is_err()
            {
                return GridPath8::EMPTY;
            }
            seek.seen.resize(cells, 0);
        }
        seek.stamp = seek.stamp.wrapping_add(1);
        if seek.stamp == 0 {
            seek.seen.fill(0);
            seek.stamp = 1;
        }
        seek.nodes.clear();
        seek.nodes.push((a.cell, u16::MAX, Direction8::Right));
        seek.seen[self.index(a.cell)] = seek.stamp;
        let mut found = None;
        let mut head = 0;
        'search: while head < seek.nodes.len() {
            let at = seek.nodes[head].0;
            let legal = legal_steps(grid, at, a);
            for dir in directions(a.connectivity, at) {
                if legal >> dir.bits() & 1 == 0 {
                    continue;
                }
                let cell = at.step(dir);
                let i = self.index(cell);
                if seek.seen[i] == seek.stamp {
                    continue;
                }
                seek.seen[i] = seek.stamp;
                let free = !self.blocked_for(through_transit, s, cell, a.size)
                    && footprint(cell, a.size).all(|c| {
                        let k = self.holders[self.index(c)];
                        k == NONE || k as usize == s
                    });
                if !free {
                    continue;
                }
                seek.nodes.push((cell, head as u16, dir));
                if guidance.cost_to_go(id, cell).is_some_and(|c| c < here_cost) {
                    found = Some(seek.nodes.len() - 1);
                    break 'search;
                }
                if seek.nodes.len() >= SEEK_LIMIT {
                    break 'search;
                }
            }
            head += 1;
        }
        let mut detour = GridPath8::EMPTY;
        if let Some(mut k) = found {
            // The steps back to the agent, then the first of them forwards.
            let mut steps = [Direction8::Right; SEEK_LIMIT];
            let mut n = 0;
            while seek.nodes[k].1 != u16::MAX {
                steps[n] = seek.nodes[k].2;
                n += 1;
                k = usize::from(seek.nodes[k].1);
            }
            for &d in steps[..n].iter().rev().take(GridPath8::CAPACITY) {
                let _ = detour.push(d);
            }
        }
        detour
    }
}
