//! Local repair after grid edits and goal changes, identical to a full computation.

use super::*;
use crate::grid::footprint_cost;
use crate::topology::{corner_open, step_weight};

/// The share of a field's cells (1 in this many) a repair discards at most before it
/// gives up for a full computation (see [`DistanceField::repair`]).
const REPAIR_SHARE: usize = 32;
/// Cells a repair may always discard before it gives up for a full computation.
const REPAIR_FLOOR: usize = 4096;

/// How far a local repair went.
enum Repaired {
    /// Complete, with its work.
    Done(FieldStats),
    /// Given up for a full computation, with its work so far.
    InFull(FieldStats),
}

impl DistanceField {
    /// Updates the field after the cells in `changed` changed on `grid` (walls built
    /// or removed, terrain changed), touching only the cells whose value can change.
    ///
    /// The result is identical to a full [`compute`](Self::compute). The work is
    /// proportional to the affected area: the cells whose best route went through a
    /// changed cell, and the cells a new opening brings closer. Flee fields are
    /// recomputed in full, and so is a field that is not
    /// [`Ready`](FieldState::Ready) (never computed, stale, overflowed). So is a field
    /// whose repair finds a large share of its cells to discard (a wall that cuts
    /// the goal off from a large part of the map): discarding a value costs several
    /// times what computing one does, so once it would discard more than 1 in 32 of
    /// the field's cells (and more than 4,096) it computes the field in full instead:
    /// the same values, at no more than about twice a computation's cost.
    ///
    /// # Errors
    /// As [`compute`](Self::compute).
    pub fn repair(&mut self, grid: &Grid, changed: &[Cell]) -> Result<FieldStats, FieldError> {
        match self.repair_locally(grid, changed, usize::MAX)? {
            Repaired::Done(stats) => Ok(stats),
            Repaired::InFull(so_far) => self.compute_instead(grid, so_far),
        }
    }

    /// As [`repair`](Self::repair), but it gives up once it would discard more than
    /// `most` values, and wherever `repair` would compute the field in full (a cut off
    /// part too large to repair locally, a field not [`Ready`](FieldState::Ready), a
    /// flee field): `Ok(None)`, and the field is [`Stale`](FieldState::Stale) until
    /// it is computed. For a caller that bounds the work done in a frame and computes
    /// what is larger away from it (on another thread, from a copy of the grid).
    ///
    /// # Errors
    /// As [`compute`](Self::compute).
    pub fn repair_within(
        &mut self,
        grid: &Grid,
        changed: &[Cell],
        most: usize,
    ) -> Result<Option<FieldStats>, FieldError> {
        match self.repair_locally(grid, changed, most)? {
            Repaired::Done(stats) => Ok(Some(stats)),
            Repaired::InFull(_) => {
                self.invalidate();
                Ok(None)
            }
        }
    }

    /// The local repair of [`repair`](Self::repair), up to where it would compute the
    /// field in full instead, or discard more than `most` values.
    fn repair_locally(
        &mut self,
        grid: &Grid,
        changed: &[Cell],
        most: usize,
    ) -> Result<Repaired, FieldError> {
        self.check(grid)?;
        if self.state != FieldState::Ready || self.flee.is_some() {
            return Ok(Repaired::InFull(FieldStats::default()));
        }
        self.changed = (usize::MAX, 0);
        self.clipped = false;
        let mut indices = [0u32; 64];
        let mut n = 0;
        let mut stats = FieldStats::default();
        let limit = (self.values.len() / REPAIR_SHARE)
            .max(REPAIR_FLOOR)
            .min(most);
        // An edit changes the footprint costs of the units whose footprint covers it:
        // those anchored up to `size - 1` cells below and left of it.
        let reach = i32::from(self.unit_size) - 1;
        let anchors = changed.iter().flat_map(|&c| {
            (c.y - reach..=c.y).flat_map(move |y| (c.x - reach..=c.x).map(move |x| Cell::new(x, y)))
        });
        for cell in anchors {
            let Some(i) = self.index(cell) else { continue };
            let c = footprint_cost(grid, self.mobility, cell, self.unit_size, None);
            if c == self.costs[i] {
                continue;
            }
            self.costs[i] = c;
            self.changed = (self.changed.0.min(i), self.changed.1.max(i));
            if c == 0 {
                self.values[i] = BLOCKED;
            } else if self.values[i] == BLOCKED {
                self.values[i] = UNREACHED;
            }
            indices[n] = i as u32;
            n += 1;
            if n == indices.len() {
                if !self.repair_part(&indices, limit, &mut stats) {
                    return Ok(Repaired::InFull(stats));
                }
                n = 0;
            }
        }
        if !self.repair_part(&indices[..n], limit, &mut stats) {
            return Ok(Repaired::InFull(stats));
        }
        if self.overflowed() || self.goal_overflow() {
            return Err(self.overflow_error());
        }
        Ok(Repaired::Done(stats))
    }

    /// Repairs after the cells at `changed`, adding the work to `stats`, as long as
    /// the values dropped stay within `limit` in all; whether it did not give up.
    fn repair_part(&mut self, changed: &[u32], limit: usize, stats: &mut FieldStats) -> bool {
        let most = limit.saturating_sub(stats.cells_invalidated);
        let (done, complete) = self.repair_indices(changed, most);
        add(stats, done);
        complete
    }

    /// A full computation in place of a repair that gave up (`so_far`: its work until
    /// then, counted with the computation's).
    fn compute_instead(
        &mut self,
        grid: &Grid,
        so_far: FieldStats,
    ) -> Result<FieldStats, FieldError> {
        self.changed = (0, self.values.len().saturating_sub(1));
        let mut stats = self.compute(grid)?;
        stats.cells_invalidated += so_far.cells_invalidated;
        stats.cells_updated += so_far.cells_updated;
        Ok(stats)
    }

    /// The local repair after the cells (or goals) at `changed` changed, and whether it
    /// is complete: it gives up, leaving the field for a full computation, once it
    /// would discard more than `most` values.
    pub(super) fn repair_indices(&mut self, changed: &[u32], most: usize) -> (FieldStats, bool) {
        let mut stats = FieldStats::default();
        if changed.is_empty() {
            return (stats, true);
        }
        let deltas = self.deltas();
        let (connectivity, origin, stride) = (self.connectivity, self.origin, self.stride);
        let codes = move |i: usize| codes_of(connectivity, origin, stride, i);
        // Phase 1: cells whose value may no longer be achievable, in increasing order
        // of their old value. A cell keeps its value if a neighbour already decided
        // valid still supports it; otherwise its value is dropped and the cells that
        // may depend on it are checked in turn.
        self.heap.reset();
        self.touched.clear();
        let candidate = |this: &mut Self, i: usize| {
            let v = this.values[i];
            if v != BLOCKED && v != UNREACHED {
                this.heap.push(u64::from(v), i as u32);
            }
        };
        for &c in changed {
            let c = c as usize;
            candidate(self, c);
            for &d in codes(c) {
                candidate(self, c.wrapping_add_signed(deltas[d]));
            }
        }
        while let Some((old, i)) = self.heap.pop() {
            let i = i as usize;
            if u64::from(self.values[i]) != old {
                continue; // already dropped (or queued twice)
            }
            if self.supported(i) {
                continue;
            }
            if stats.cells_invalidated == most {
                return (stats, false);
            }
            self.values[i] = UNREACHED;
            self.touched.push(i as u32);
            self.changed = (self.changed.0.min(i), self.changed.1.max(i));
            stats.cells_invalidated += 1;
            // Neighbours that may have reached the goal through i (hex steps are
            // symmetric, as square ones are: i's neighbours are the cells stepping
            // into i).
            for &d in codes(i) {
                let q = i.wrapping_add_signed(deltas[d]);
                let vq = self.values[q];
                if vq != BLOCKED && vq != UNREACHED && u64::from(vq) >= old {
                    self.heap.push(u64::from(vq), q as u32);
                }
            }
        }
        // Phase 2: every dropped cell, and every cell around a change (an opening or a
        // cheaper cell can bring them closer), takes the best value its neighbours
        // offer; improvements then spread as in Dijkstra.
        self.queues.clear();
        let touched = core::mem::take(&mut self.touched);
        let around = changed.iter().flat_map(|&c| {
            let c = c as usize;
            core::iter::once(c).chain(
                codes(c)
                    .iter()
                    .map(move |&d| c.wrapping_add_signed(deltas[d])),
            )
        });
        for i in touched.iter().map(|&i| i as usize).chain(around) {
            if self.values[i] == BLOCKED {
                continue;
            }
            let best = self.best_from_neighbours(i);
            if best < self.values[i] {
                self.values[i] = best;
                self.queues.seed(best, i as u32);
            }
        }
        self.touched = touched;
        let seeds = self.queues.seeded();
        stats.cells_updated = self.dijkstra() + seeds;
        (stats, true)
    }

    /// Whether cell `i`'s current value is still achieved: as a goal's start value, or
    /// through a neighbour whose value is (still) set.
    pub(super) fn supported(&self, i: usize) -> bool {
        let v = u64::from(self.values[i]);
        if let Some(start) = self.goal_start_units(i)
            && start + 1 == v
        {
            return true;
        }
        self.neighbour_offer(i)
            .is_some_and(|best| u64::from(best) == v)
    }

    /// The best value cell `i` gets from a goal at `i` or from its neighbours.
    pub(super) fn best_from_neighbours(&self, i: usize) -> u32 {
        let own = self
            .goal_start_units(i)
            .filter(|&u| u <= u64::from(self.max_units))
            .map_or(UNREACHED, |u| u as u32 + 1);
        self.neighbour_offer(i).map_or(own, |n| n.min(own))
    }

    /// The smallest `value(q) + step(i -> q)` over i's reached neighbours q (within the
    /// maximum distance), or `None`.
    pub(super) fn neighbour_offer(&self, i: usize) -> Option<u32> {
        let deltas = self.deltas();
        let limit = self.max_units.saturating_add(1);
        let mut best: Option<u32> = None;
        for &dir in self.codes_at(i) {
            if let Some((_, total)) = self.offer(i, dir, &deltas)
                && total <= limit
                && best.is_none_or(|b| total < b)
            {
                best = Some(total);
            }
        }
        best
    }

    /// What moving from `i` in direction code `dir` offers: the neighbour and its
    /// value plus the step's cost, if the neighbour is reached and the step allowed.
    #[inline]
    pub(super) fn offer(&self, i: usize, dir: usize, deltas: &[isize; 8]) -> Option<(usize, u32)> {
        self.offer_as(self.connectivity, i, dir, deltas)
    }

    /// [`offer`](Self::offer) by the rules of `connectivity` (the field's own): a
    /// constant one folds the corner rule and the step weight in the loops that know
    /// it.
    #[inline(always)]
    pub(super) fn offer_as(
        &self,
        connectivity: Connectivity,
        i: usize,
        dir: usize,
        deltas: &[isize; 8],
    ) -> Option<(usize, u32)> {
        let q = i.wrapping_add_signed(deltas[dir]);
        let vq = self.values[q];
        if vq == BLOCKED || vq == UNREACHED {
            return None;
        }
        if !corner_open(connectivity, &self.costs, deltas, i, dir) {
            return None;
        }
        let step = u32::from(self.costs[q]) * step_weight(connectivity, dir) as u32;
        Some((q, vq.checked_add(step)?))
    }

    // ----- queries -----
}
