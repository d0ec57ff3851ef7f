//! A configuration's successor under constraints: the agents the constraints name go
//! where they say, the others by priority inheritance with backtracking (PIBT's rule).

use super::goals::cells_of;
use super::search::Low;
use super::{NONE, Untangle};
use crate::crowd::moves::{can_step_as, directions};
use crate::crowd::{Guidance, mix, overlap};
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

    /// Agent `k`'s anchors for the next step from `at`: staying, then its legal
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
            if can_step_as(grid, from, d, mobility, self.size[k], connectivity)
                && let Some(i) = grid.index_of(from.step(d))
                && !self.on_fixed(grid, k, i as u32)
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
            for i in cells_of(grid, at, self.size[k]) {
                self.now[i] = k as u32;
            }
            self.next[k] = NONE;
        }
        self.broken = false;
        let mut ok = true;
        let mut l = c;
        while ok && lows[l as usize].parent != NONE {
            let Low { who, at, .. } = lows[l as usize];
            // Two agents fixed onto one cell, or through each other.
            if self.free_for(grid, from, who as usize, at, NONE) {
                self.claim(grid, who as usize, at);
            } else {
                ok = false;
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
            for i in cells_of(grid, at, self.size[k]) {
                self.now[i] = NONE;
            }
            let next = self.next[k];
            if next != NONE {
                for i in cells_of(grid, next, self.size[k]) {
                    self.next_at[i] = NONE;
                }
            }
            out[k] = next;
        }
        ok && !self.broken
    }

    /// Whether agent `k` may stand at anchor `to` next, as far as the agents decided
    /// so far say: none of its cells there taken, and not through an agent that
    /// decided to leave one of them (into its own cells), nor through `parent` (the
    /// agent that asked it to make room, coming into its cells; `NONE`: none).
    fn free_for(&self, grid: &Grid, from: &[u32], k: usize, to: u32, parent: u32) -> bool {
        let size = self.size[k];
        let through = |h: usize, at: u32| self.overlap(grid, (at, self.size[h]), (from[k], size));
        cells_of(grid, to, size).all(|i| {
            let (taken, h) = (self.next_at[i], self.now[i]);
            (taken == NONE || taken as usize == k)
                && (h == NONE
                    || h as usize == k
                    || self.next[h as usize] == NONE
                    || !through(h as usize, self.next[h as usize]))
        }) && (parent == NONE
            || !self.overlap(
                grid,
                (to, size),
                (from[parent as usize], self.size[parent as usize]),
            ))
    }

    /// Whether footprints `(anchor, size)` overlap.
    fn overlap(&self, grid: &Grid, (a, sa): (u32, u8), (b, sb): (u32, u8)) -> bool {
        match (grid.cell_of(a as usize), grid.cell_of(b as usize)) {
            (Some(a), Some(b)) => overlap(a, sa, b, sb),
            _ => false,
        }
    }

    /// The first agent other than `k`, not decided yet, standing on a cell of `k`'s
    /// footprint at `to`.
    fn undecided_in(&self, grid: &Grid, k: usize, to: u32) -> Option<u32> {
        cells_of(grid, to, self.size[k])
            .map(|i| self.now[i])
            .find(|&h| h != NONE && h as usize != k && self.next[h as usize] == NONE)
    }

    /// Agent `k` stands at anchor `to` next.
    fn claim(&mut self, grid: &Grid, k: usize, to: u32) {
        self.next[k] = to;
        for i in cells_of(grid, to, self.size[k]) {
            self.next_at[i] = k as u32;
        }
    }

    /// Agent `k` gives up anchor `to`: its cells there that it still holds are free.
    fn release(&mut self, grid: &Grid, k: usize, to: u32) {
        for i in cells_of(grid, to, self.size[k]) {
            if self.next_at[i] == k as u32 {
                self.next_at[i] = NONE;
            }
        }
    }

    /// PIBT's rule for agent `k`, asked by `parent` (`NONE`: by nobody): takes its
    /// best free anchor, asking each agent there to move on in turn (one for a
    /// one-cell agent, perhaps several for a bigger one); stays if none.
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
            if !self.free_for(grid, from, ku, cell, parent) {
                continue;
            }
            if depth >= MOST_INHERITED && self.undecided_in(grid, ku, cell).is_some() {
                // Too long a chain: as if the agents there could not move.
                continue;
            }
            self.claim(grid, ku, cell);
            let mut room = true;
            while let Some(there) = self.undecided_in(grid, ku, cell) {
                if !self.inherit(grid, guidance, from, (there, k), depth + 1) {
                    room = false;
                    break;
                }
            }
            if room {
                return true;
            }
            self.release(grid, ku, cell);
        }
        // Nowhere to go: it stays, on cells `parent` may have taken meanwhile (it
        // gives them up, as this failed); a cell another agent took breaks the
        // configuration.
        let stay = from[ku];
        self.next[ku] = stay;
        for i in cells_of(grid, stay, self.size[ku]) {
            let taken = self.next_at[i];
            if taken == NONE || taken == parent {
                self.next_at[i] = k;
            } else if taken != k {
                self.broken = true;
            }
        }
        false
    }
}
