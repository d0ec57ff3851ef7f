//! A configuration's successor under constraints: the agents the constraints name go
//! where they say, the others by priority inheritance with backtracking (PIBT's rule).

use super::search::Low;
use super::{NONE, Untangle};
use crate::crowd::moves::{can_step_as, directions};
use crate::crowd::{Guidance, mix};
use crate::{Connectivity, Grid};

/// The longest chain of agents asked to make room in turn: a chain that would go on
/// counts as failed (the stack stays small whatever the crowd).
const MOST_INHERITED: usize = 1024;

/// The most cells an agent may be in after a step: where it stands and its 4
/// orthogonal neighbours on squares, its 6 neighbours on a hex map.
pub(super) const MOST_MOVES: usize = 7;

impl Untangle {
    /// Agent `k`'s cost to go from cell index `at` (agents without a goal: the
    /// distance back to where they stood, Manhattan on squares, in hex steps on a
    /// hex map).
    pub(super) fn cost<G: Guidance + ?Sized>(
        &self,
        grid: &Grid,
        guidance: &G,
        k: usize,
        at: u32,
    ) -> u32 {
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
                let steps = match self.connectivity[k] {
                    Connectivity::Hex(layout) => layout.distance(c, g),
                    Connectivity::Four | Connectivity::Eight => c.manhattan(g),
                };
                steps.saturating_add(1)
            }
        })
    }

    /// Agent `k`'s cells for the next step from `at`: staying, then its legal
    /// steps (orthogonal on squares, hex steps on a hex map) onto cells no fixed
    /// agent holds. Returns how many.
    pub(super) fn moves(
        &self,
        grid: &Grid,
        k: usize,
        at: u32,
        out: &mut [u32; MOST_MOVES],
    ) -> usize {
        out[0] = at;
        let mut len = 1;
        let Some(from) = grid.cell_of(at as usize) else {
            return len;
        };
        let (mobility, connectivity) = (self.mobility[k], self.connectivity[k]);
        for d in directions(connectivity, from) {
            if can_step_as(grid, from, d, mobility, 1, connectivity)
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
    pub(super) fn successor<G: Guidance + ?Sized>(
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
        let mut cands = [NONE; MOST_MOVES];
        let len = self.moves(grid, ku, from[ku], &mut cands);
        let mut keyed = [(0_u64, NONE); MOST_MOVES];
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
}
