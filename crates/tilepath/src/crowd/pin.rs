//! Agents only the caller moves, agents not ready to step, and agents still on their
//! way.
//!
//! A game moves some units itself (a unit it steers, a building): pinned, such an
//! agent holds its cells as any other, but steps never move it and never ask it to
//! make room. And a game draws a unit walking from cell to cell over several frames:
//! with [`Crowd::set_hold_left`], an agent that moved blocks the cells it left until
//! the caller says it has [arrived](Crowd::arrive), and is not moved meanwhile.

use super::agent::NONE;
use super::{AgentId, Crowd, CrowdError, footprint};
use crate::Cell;

impl Crowd {
    /// Pins an agent (`true`): steps no longer move it, nor ask it to make room, until
    /// it is unpinned (`false`). The caller moves it by removing it and adding it
    /// again.
    ///
    /// # Errors
    /// [`CrowdError::UnknownAgent`] (nothing changes).
    pub fn set_pinned(&mut self, id: AgentId, pinned: bool) -> Result<(), CrowdError> {
        self.live_agent(id).ok_or(CrowdError::UnknownAgent(id))?;
        self.agents[id.index()].pinned = pinned;
        Ok(())
    }

    /// Says whether an agent steps of its own accord in the next steps (`true`, the
    /// default) or is *not ready* (`false`): it then stays where it is unless an agent
    /// with a higher priority asks it to make room (it then steps as a ready agent
    /// would), and keeps its priority: agents of lower priority go round it or wait.
    /// For agents slower than the crowd's steps: a caller that steps the crowd at the
    /// pace of its fastest agents marks the slower ones ready only on the steps their
    /// speed allows.
    ///
    /// # Errors
    /// [`CrowdError::UnknownAgent`] (nothing changes).
    pub fn set_ready(&mut self, id: AgentId, ready: bool) -> Result<(), CrowdError> {
        self.live_agent(id).ok_or(CrowdError::UnknownAgent(id))?;
        self.agents[id.index()].ready = ready;
        Ok(())
    }

    /// Whether an agent is ready ([`set_ready`](Self::set_ready); `false` for an
    /// unknown agent).
    #[must_use]
    pub fn is_ready(&self, id: AgentId) -> bool {
        self.live_agent(id).is_some_and(|a| a.ready)
    }

    /// Whether an agent is pinned (`false` for an unknown agent).
    #[must_use]
    pub fn is_pinned(&self, id: AgentId) -> bool {
        self.live_agent(id).is_some_and(|a| a.pinned)
    }

    /// Whether an agent that moves goes on blocking the cells it left until
    /// [`arrive`](Self::arrive) (off by default: a move is done within its step, as in
    /// multi-agent path finding's unit steps). Within the step that moves it, another
    /// agent may still be decided into a cell it leaves (the decision stays the
    /// joint one); from the next step on nobody is sent into a cell it left, and it is
    /// not moved, until it arrives. A caller that moves each agent only once the cells
    /// it is sent into are no longer blocked by another never has two agents in a
    /// cell, and never a cycle of agents waiting for each other.
    ///
    /// # Errors
    /// [`CrowdError::OutOfMemory`] if the 4 bytes a cell it needs cannot be had.
    pub fn set_hold_left(&mut self, on: bool) -> Result<(), CrowdError> {
        if on && self.blocked.is_empty() {
            let cells = self.holders.len();
            crate::memory::ensure(cells as u64 * 4)
                .map_err(|bytes| CrowdError::OutOfMemory { bytes })?;
            self.blocked = vec![NONE; cells];
        }
        if !on {
            for s in 0..self.agents.len() {
                self.release_left(s);
            }
            self.none_on_way = true;
        }
        self.hold_left = on;
        Ok(())
    }

    /// Says that an agent has arrived where it last moved: the cells it left (see
    /// [`set_hold_left`](Self::set_hold_left)) are free again and steps may move it.
    /// Nothing changes for an agent not on its way.
    ///
    /// # Errors
    /// [`CrowdError::UnknownAgent`].
    pub fn arrive(&mut self, id: AgentId) -> Result<(), CrowdError> {
        self.live_agent(id).ok_or(CrowdError::UnknownAgent(id))?;
        self.release_left(id.index());
        Ok(())
    }

    /// Every agent on its way arrives, as [`arrive`](Self::arrive) for each: what a
    /// caller whose agents walk each step in lockstep does once they have all walked
    /// it, in one pass over the agents instead of a lookup by id for each.
    pub fn arrive_all(&mut self) {
        for s in 0..self.agents.len() {
            if self.agents[s].left.is_some() {
                self.release_left(s);
            }
        }
        self.none_on_way = true;
    }

    /// Whether an agent is on its way (blocking the cells it left): no pass over the
    /// agents once all arrived at once ([`arrive_all`](Self::arrive_all)).
    pub(super) fn any_on_way(&self) -> bool {
        !self.none_on_way && self.agents.iter().any(|a| a.alive && a.left.is_some())
    }

    /// Whether an agent is on its way: it moved and blocks the cells it left until
    /// [`arrive`](Self::arrive).
    #[must_use]
    pub fn in_transit(&self, id: AgentId) -> bool {
        self.live_agent(id).is_some_and(|a| a.left.is_some())
    }

    /// Sends an agent on its way back to the anchor it left (its caller found the way
    /// closed before it set off, or turned it back): that anchor is its own again, and
    /// it blocks the cells it was going to until it [arrives](Self::arrive) back.
    /// `Ok(false)`, and nothing changes, when it is not on its way or another agent
    /// was decided into a cell it left in the same step.
    ///
    /// # Errors
    /// [`CrowdError::UnknownAgent`].
    pub fn recall(&mut self, id: AgentId) -> Result<bool, CrowdError> {
        let a = *self.live_agent(id).ok_or(CrowdError::UnknownAgent(id))?;
        let s = id.index();
        let Some(left) = a.left else { return Ok(false) };
        let taken = footprint(left, a.size).any(|c| {
            let k = self.holders[self.index(c)];
            k != NONE && k as usize != s
        });
        if taken {
            return Ok(false);
        }
        for c in footprint(left, a.size) {
            let i = self.index(c);
            self.holders[i] = s as u32;
            if self.blocked[i] == s as u32 {
                self.blocked[i] = NONE;
            }
        }
        for c in footprint(a.cell, a.size) {
            if !under(c, left, a.size) {
                let i = self.index(c);
                self.holders[i] = NONE;
                // A unit that left the cell before this one was sent there may still
                // block it: its block stands.
                if self.blocked[i] == NONE {
                    self.blocked[i] = s as u32;
                }
            }
        }
        let b = &mut self.agents[s];
        (b.cell, b.prev, b.left) = (left, left, Some(a.cell));
        self.with_plan(|crowd, p| {
            let target = core::mem::replace(&mut p.agents[s].target, left);
            // Recalled while a step is planned: it stays where it now is in that step.
            crowd.hold_in_plan(p, s, target);
        });
        Ok(true)
    }

    /// The anchor an agent on its way left, and blocks until it arrives.
    #[must_use]
    pub fn left_cell(&self, id: AgentId) -> Option<Cell> {
        self.live_agent(id)?.left
    }

    /// The agent blocking `cell` on its way elsewhere, if any.
    #[must_use]
    pub fn blocker(&self, cell: Cell) -> Option<AgentId> {
        if self.blocked.is_empty() || !self.contains(cell) {
            return None;
        }
        let s = self.blocked[self.index(cell)];
        (s != NONE).then(|| self.agents[s as usize].id(s as usize))
    }

    /// Whether a cell of the footprint `size` at `at` is blocked by an agent other
    /// than `s` on its way, for the step being planned (never, in one planned as if
    /// every agent had arrived).
    #[inline]
    pub(super) fn blocked_for(&self, through_transit: bool, s: usize, at: Cell, size: u8) -> bool {
        !through_transit && self.blocks(s, at, size)
    }

    /// Whether a cell of the footprint `size` at `at` is blocked by an agent other
    /// than `s` on its way, even in a step planned as if every agent had arrived.
    #[inline]
    pub(super) fn blocks(&self, s: usize, at: Cell, size: u8) -> bool {
        !self.blocked.is_empty()
            && footprint(at, size).any(|c| {
                let k = self.blocked[self.index(c)];
                k != NONE && k as usize != s
            })
    }

    /// After a step: agent `s`, moved from `left` to `at`, blocks the cells it left
    /// (those not under it now).
    pub(super) fn block_left(&mut self, s: usize, left: Cell, at: Cell, size: u8) {
        for c in footprint(left, size) {
            if !under(c, at, size) {
                let i = self.index(c);
                self.blocked[i] = s as u32;
            }
        }
    }

    /// Unblocks the cells slot `s` left.
    pub(super) fn release_left(&mut self, s: usize) {
        let a = self.agents[s];
        let Some(left) = a.left else { return };
        for c in footprint(left, a.size) {
            let i = self.index(c);
            if self.blocked[i] == s as u32 {
                self.blocked[i] = NONE;
            }
        }
        self.agents[s].left = None;
    }
}

/// Whether `c` is under the `size x size` footprint anchored at `at`.
fn under(c: Cell, at: Cell, size: u8) -> bool {
    let n = i32::from(size);
    (at.x..at.x + n).contains(&c.x) && (at.y..at.y + n).contains(&c.y)
}
