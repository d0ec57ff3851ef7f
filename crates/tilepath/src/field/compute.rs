//! A full computation: costs loaded from the grid, goals seeded, values propagated
//! by a breadth-first sweep or a Dijkstra variant suited to the mobility.

use super::*;
use crate::topology::{Eight, Four, Neighborhood, corner_open, with_hex};

impl DistanceField {
    /// Computes the whole field from its goals on `grid`.
    ///
    /// Cost: O(cells). A breadth-first sweep for 4-connected fields whose passable
    /// cells all cost the same and whose goals share a start value; otherwise Dijkstra
    /// with one FIFO per step weight (O(1) per queue operation). No allocation once
    /// the work queues have grown to the field's size.
    ///
    /// # Errors
    /// [`FieldError::GridMismatch`] if `grid` is not the size the field was made for
    /// (nothing is changed); [`FieldError::DistanceOverflow`] if a reachable cell's
    /// distance, a goal's start value or a flee field's values exceed
    /// [`MAX_UNITS`](Self::MAX_UNITS) (the field is then
    /// [`Overflowed`](FieldState::Overflowed) and answers nothing).
    pub fn compute(&mut self, grid: &Grid) -> Result<FieldStats, FieldError> {
        self.check(grid)?;
        self.ensure_queue_room()?;
        self.ensure_fifo()?;
        self.sort_goals();
        let profile = self.load_costs(grid);
        self.clipped = false;
        let mut stats = self.seed_goals();
        stats.cells_updated = self.propagate_all(profile);
        if self.overflowed() || self.goal_overflow() {
            return Err(self.overflow_error());
        }
        self.set_state(FieldState::Ready);
        if let Some(factor) = self.flee {
            self.apply_flee(factor)?;
        }
        Ok(stats)
    }

    /// Before a computation whose work queues may still grow: whether the system can
    /// give the largest block they can grow to (an entry for every cell of the
    /// region), so that a field too large for memory is an error here rather than an
    /// abort while the queues grow.
    pub(super) fn ensure_queue_room(&self) -> Result<(), FieldError> {
        let cells = self.values.len() as u64;
        let need = cells * core::mem::size_of::<(u32, u32)>() as u64;
        if (self.queues.memory_bytes() as u64) < need {
            crate::memory::ensure(need).map_err(|bytes| FieldError::OutOfMemory { bytes })?;
        }
        Ok(())
    }

    /// Gives back the breadth-first queue a [`clone_lean`](Self::clone_lean) copy
    /// lacks (`cells + 1` long).
    fn ensure_fifo(&mut self) -> Result<(), FieldError> {
        let need = self.width as usize * self.height as usize + 1;
        if self.fifo.len() < need {
            let bytes = (need * 4) as u64;
            self.fifo
                .try_reserve_exact(need - self.fifo.len())
                .map_err(|_| FieldError::OutOfMemory { bytes })?;
            self.fifo.resize(need, 0);
        }
        Ok(())
    }

    /// Marks the field [`Overflowed`](FieldState::Overflowed) and returns the error.
    pub(super) fn overflow_error(&mut self) -> FieldError {
        self.set_state(FieldState::Overflowed);
        FieldError::DistanceOverflow {
            max_units: MAX_UNITS,
        }
    }

    /// After a propagation: whether a reachable cell was left without a value because
    /// its distance exceeds the field's range. Only a run that dropped a candidate at
    /// the natural limit can have done so; then every reached cell is checked for a
    /// legal step to a passable cell left unreached (which is reachable, so its
    /// distance did not fit).
    pub(super) fn overflowed(&self) -> bool {
        if !self.clipped || self.max_units != MAX_UNITS {
            return false;
        }
        let deltas = self.deltas();
        (0..self.values.len()).any(|i| {
            let v = self.values[i];
            v != BLOCKED
                && v != UNREACHED
                && self.codes_at(i).iter().any(|&dir| {
                    let q = i.wrapping_add_signed(deltas[dir]);
                    corner_open(self.connectivity, &self.costs, &deltas, i, dir)
                        && self.costs[q] != 0
                        && self.values[q] == UNREACHED
                })
        })
    }

    /// Reads every cost of the region (the padded-grid loader) and resets every value.
    pub(super) fn load_costs(&mut self, grid: &Grid) -> CostProfile {
        let kind_costs = self.mobility.costs();
        let (width, height) = (self.width as usize, self.height as usize);
        let seen = match &mut self.footprints {
            Some(loader) if self.unit_size > 1 => loader.load(
                &self.quad_costs,
                grid,
                self.origin,
                width,
                height,
                self.stride,
                &mut self.costs,
                self.unit_size,
            ),
            _ => self.quad_costs.load(
                grid,
                self.origin,
                width,
                height,
                self.stride,
                &mut self.costs,
            ),
        };
        let (present, blocked) = (seen.kinds, seen.blocked);
        for y in 0..height {
            let row = (y + 1) * self.stride + 1..(y + 1) * self.stride + 1 + width;
            for (v, &c) in self.values[row.clone()].iter_mut().zip(&self.costs[row]) {
                // BLOCKED (0) for a blocked cell, else UNREACHED (all ones).
                *v = 0u32.wrapping_sub(u32::from(c != 0));
            }
        }
        self.bias = 0;
        let mut passable = (0..4)
            .filter(|&k| present >> k & 1 == 1)
            .map(|k| kind_costs[k])
            .filter(|&c| c != 0);
        CostProfile {
            uniform_cost: match passable.next() {
                None => Some(1),
                Some(c) => passable.all(|d| d == c).then_some(c),
            },
            cluttered: blocked * 16 > self.width as usize * self.height as usize,
        }
    }

    /// Sets the goals' start values; they go into the FIFO (all queued).
    pub(super) fn seed_goals(&mut self) -> FieldStats {
        let mut stats = FieldStats::default();
        self.fifo_len = 0;
        for g in &self.goals {
            let i = g.index as usize;
            let units = u64::from(g.start) * self.scale();
            if self.costs[i] == 0 || units > u64::from(self.max_units) {
                stats.goals_ignored += 1;
                continue;
            }
            stats.goals_used += 1;
            let v = units as u32 + 1;
            if v < self.values[i] {
                self.values[i] = v;
                self.fifo[self.fifo_len] = g.index;
                self.fifo_len += 1;
            }
        }
        stats
    }

    /// Propagates from the seeds in `fifo`; returns how many cells got a value.
    pub(super) fn propagate_all(&mut self, profile: CostProfile) -> usize {
        let seeds = &self.fifo[..self.fifo_len];
        let same_start = seeds
            .windows(2)
            .all(|w| self.values[w[0] as usize] == self.values[w[1] as usize]);
        match profile.uniform_cost {
            Some(step) if self.connectivity == Connectivity::Four && same_start => {
                // Unchecked only when no value can pass the range: a breadth-first
                // distance is below `cells` steps from the seeds' start.
                let start = seeds.first().map_or(0, |&i| self.values[i as usize]);
                let worst =
                    u64::from(start) + self.width as u64 * self.height as u64 * u64::from(step);
                let unlimited = self.max_units == MAX_UNITS && worst <= u64::from(MAX_UNITS);
                match (profile.cluttered, unlimited) {
                    (true, true) => self.sweep::<true, false>(u32::from(step)),
                    (true, false) => self.sweep::<true, true>(u32::from(step)),
                    (false, true) => self.sweep::<false, false>(u32::from(step)),
                    (false, false) => self.sweep::<false, true>(u32::from(step)),
                }
            }
            _ => {
                self.queues.clear();
                for &i in &self.fifo[..self.fifo_len] {
                    self.queues.seed(self.values[i as usize], i);
                }
                self.dijkstra_for(profile.cluttered, profile.uniform_cost) + self.fifo_len
            }
        }
    }

    /// Breadth-first sweep for 4-connected fields of uniform step cost `step`;
    /// `BRANCH_FREE` trades a store per neighbour for no mispredicted branches, which
    /// pays on cluttered maps and costs on open ones.
    // Not inlined: its loop keeps every pointer in a register only when compiled on
    // its own (inlined into `compute`, a spill costs an instruction per neighbour).
    #[inline(never)]
    pub(super) fn sweep<const BRANCH_FREE: bool, const LIMITED: bool>(
        &mut self,
        step: u32,
    ) -> usize {
        let s = self.stride;
        let limit = self.max_units.saturating_add(1);
        let values = &mut self.values;
        let fifo = &mut self.fifo;
        let (mut head, mut tail) = (0, self.fifo_len);
        while head < tail {
            let p = fifo[head] as usize;
            head += 1;
            let nv = values[p].saturating_add(step);
            if LIMITED && nv > limit {
                self.clipped = true;
                continue;
            }
            for q in [p + 1, p + s, p - 1, p - s] {
                // Blocked and border cells hold 0, which no candidate is below. The
                // first time a cell is reached is final, so each cell is queued at most
                // once and the branch-free write one past the tail stays inside the
                // `cells + 1` slots.
                let old = values[q];
                let better = nv < old;
                if BRANCH_FREE {
                    values[q] = if better { nv } else { old };
                    fifo[tail] = q as u32;
                    tail += usize::from(better);
                } else if better {
                    values[q] = nv;
                    fifo[tail] = q as u32;
                    tail += 1;
                }
            }
        }
        self.fifo_len = tail;
        tail
    }

    /// Dijkstra from the seeds in `queues` (keys = stored values); only improvements
    /// propagate. Returns the number of cells improved.
    pub(super) fn dijkstra(&mut self) -> usize {
        match self.connectivity {
            Connectivity::Four => self.dijkstra_with::<Four, false, true>(),
            Connectivity::Eight => self.dijkstra_with::<Eight, false, true>(),
            Connectivity::Hex(layout) => {
                with_hex!(layout, N => self.dijkstra_with::<N, false, true>())
            }
        }
    }

    /// [`dijkstra`](Self::dijkstra), branch-free on `cluttered` maps: as for the
    /// sweep, a relaxation there fails or succeeds unpredictably, so the branch-free
    /// form pays there and costs on open maps (benches/README.md, "Distance fields").
    /// With `uniform`, the cost every open cell has, the cost array is not read and the
    /// run takes [`dijkstra_uniform`](Self::dijkstra_uniform).
    pub(super) fn dijkstra_for(&mut self, cluttered: bool, uniform: Option<u8>) -> usize {
        match self.connectivity {
            Connectivity::Four => self.dijkstra_of::<Four>(cluttered, uniform),
            Connectivity::Eight => self.dijkstra_of::<Eight>(cluttered, uniform),
            Connectivity::Hex(layout) => {
                with_hex!(layout, N => self.dijkstra_of::<N>(cluttered, uniform))
            }
        }
    }

    /// [`dijkstra_for`](Self::dijkstra_for) in neighbourhood `N`.
    fn dijkstra_of<N: Neighborhood>(&mut self, cluttered: bool, uniform: Option<u8>) -> usize {
        match (uniform, cluttered) {
            (Some(cost), true) => self.dijkstra_uniform::<N, true>(cost),
            (Some(cost), false) => self.dijkstra_uniform::<N, false>(cost),
            (None, true) => self.dijkstra_with::<N, true, false>(),
            (None, false) => self.dijkstra_with::<N, false, false>(),
        }
    }

    /// Dijkstra with one FIFO per step weight ([`StepQueues`]), any mobility costs.
    /// With `TRACK`, the cells it settles widen [`changed`](Self::changed) (repairs).
    pub(super) fn dijkstra_with<N: Neighborhood, const BRANCH_FREE: bool, const TRACK: bool>(
        &mut self,
    ) -> usize {
        debug_assert_eq!(self.connectivity, N::CONNECTIVITY);
        let deltas = self.deltas();
        let (straight, diagonal) = (N::STRAIGHT as u32, N::DIAGONAL as u32);
        let limit = self.max_units.saturating_add(1);
        // Below this value, `v + step` can neither overflow nor pass the limit.
        let safe = limit.saturating_sub(255 * OCTILE_DIAGONAL as u32);
        let mut improved = 0;
        let (mut lo, mut hi) = self.changed;
        self.queues.start();
        while let Some((v, p)) = self.queues.pop() {
            let p = p as usize;
            if self.values[p] != v {
                continue;
            }
            if TRACK {
                (lo, hi) = (lo.min(p), hi.max(p));
            }
            // Every neighbour q reaches the goal through p by entering p.
            let cost = self.costs[p];
            let c = u32::from(cost);
            let class = self.queues.class_of(cost);
            let fast = v < safe;
            let mut relax = |this: &mut Self, q: usize, step: u32, class: usize, legal: bool| {
                let Some(nv) = step_value(v, step, fast, limit) else {
                    this.clipped = true;
                    return;
                };
                // Blocked and border cells hold 0, which no candidate is below.
                // Branch-free, the write and the queue entry are unconditional and
                // only kept if better.
                if BRANCH_FREE {
                    let old = this.values[q];
                    let better = legal & (nv < old);
                    this.values[q] = if better { nv } else { old };
                    this.queues.push_if(class, nv, q as u32, better);
                    improved += usize::from(better);
                } else if legal && nv < this.values[q] {
                    this.values[q] = nv;
                    this.queues.push(class, nv, q as u32);
                    improved += 1;
                }
            };
            if N::HEX.is_some() {
                // Hex: the cell's 6 steps, all of weight 1, no corner rule.
                for &dir in codes_of(N::CONNECTIVITY, self.origin, self.stride, p) {
                    let q = p.wrapping_add_signed(deltas[dir]);
                    relax(self, q, c * straight, class, true);
                }
                continue;
            }
            let mut open = [false; 8];
            for dir in (0..8).step_by(2) {
                let q = p.wrapping_add_signed(deltas[dir]);
                // Blocked exactly when its value is (values are kept so), which
                // spares the diagonals a read of the cost array.
                open[dir] = self.values[q] != BLOCKED;
                relax(self, q, c * straight, class, true);
            }
            if N::DIAGONALS {
                // A diagonal needs both orthogonal cells beside it open.
                for dir in (1..8).step_by(2) {
                    let q = p.wrapping_add_signed(deltas[dir]);
                    let legal = open[dir - 1] & open[(dir + 1) & 7];
                    relax(self, q, c * diagonal, class + 4, legal);
                }
            }
        }
        if TRACK {
            self.changed = (lo, hi);
        }
        improved
    }

    /// [`dijkstra_with`](Self::dijkstra_with) for a region whose open cells all cost
    /// `cost` (the common case: one walking cost, walls): two FIFOs, straight and
    /// diagonal steps, merged with the sorted seeds by their heads, with every head
    /// and tail a local (in registers) rather than fields the writes to `values`
    /// might alias.
    pub(super) fn dijkstra_uniform<N: Neighborhood, const BRANCH_FREE: bool>(
        &mut self,
        cost: u8,
    ) -> usize {
        debug_assert_eq!(self.connectivity, N::CONNECTIVITY);
        let deltas = self.deltas();
        let (origin, stride) = (self.origin, self.stride);
        let room: usize = if N::HEX.is_some() { 6 } else { 4 };
        let c = u32::from(cost);
        let (straight, diagonal) = (c * N::STRAIGHT as u32, c * N::DIAGONAL as u32);
        let limit = self.max_units.saturating_add(1);
        // Below this value, `v + step` can neither overflow nor pass the limit.
        let safe = limit.saturating_sub(255 * OCTILE_DIAGONAL as u32);
        self.queues.start();
        let class = self.queues.class_of(cost);
        let (seeds, [fs, fd]) = self.queues.uniform_parts(class);
        let values = &mut self.values[..];
        let (mut sh, mut hs, mut ts, mut hd, mut td) = (0, 0, 0, 0, 0);
        let mut improved = 0;
        let mut clipped = false;
        loop {
            let ks = if hs < ts {
                u64::from(fs[hs].0)
            } else {
                u64::MAX
            };
            let kd = if hd < td {
                u64::from(fd[hd].0)
            } else {
                u64::MAX
            };
            let (v, p) = if let Some(&seed) = seeds.get(sh)
                && u64::from(seed.0) <= ks.min(kd)
            {
                sh += 1;
                seed
            } else if ks <= kd && ks != u64::MAX {
                hs += 1;
                fs[hs - 1]
            } else if kd != u64::MAX {
                hd += 1;
                fd[hd - 1]
            } else {
                break;
            };
            let p = p as usize;
            if values[p] != v {
                continue;
            }
            let fast = v < safe;
            // Room for this cell's pushes (at most 4 a FIFO, 6 on hex maps), so that
            // they need no check. The FIFOs grow (allocate) only while they are smaller
            // than the largest computation so far.
            if ts + room > fs.len() {
                fs.resize(ts + room, (0, 0));
            }
            if N::DIAGONALS && td + 4 > fd.len() {
                fd.resize(td + 4, (0, 0));
            }
            let mut relax = |values: &mut [u32],
                             q: usize,
                             step: u32,
                             fifo: &mut [(u32, u32)],
                             tail: &mut usize,
                             legal: bool| {
                let Some(nv) = step_value(v, step, fast, limit) else {
                    clipped = true;
                    return;
                };
                // Blocked and border cells hold 0, which no candidate is below.
                // Branch-free, the write and the queue entry are unconditional and
                // only kept if better.
                let old = values[q];
                let better = legal & (nv < old);
                if !BRANCH_FREE && !better {
                    return;
                }
                values[q] = if better { nv } else { old };
                debug_assert!(*tail < fifo.len());
                // SAFETY: checked above: the FIFO has room for `room` entries past its
                // tail when a cell is popped, and a cell pushes at most that many to
                // each FIFO.
                #[expect(unsafe_code, reason = "room checked once a cell, not per push")]
                unsafe {
                    *fifo.get_unchecked_mut(*tail) = (nv, q as u32);
                }
                *tail += usize::from(better);
                improved += usize::from(better);
            };
            if N::HEX.is_some() {
                // Hex: the cell's 6 steps, all straight-weighted, no corner rule.
                for &dir in codes_of(N::CONNECTIVITY, origin, stride, p) {
                    let q = p.wrapping_add_signed(deltas[dir]);
                    relax(values, q, straight, fs, &mut ts, true);
                }
                continue;
            }
            let mut open = [false; 8];
            for dir in (0..8).step_by(2) {
                let q = p.wrapping_add_signed(deltas[dir]);
                // Blocked exactly when its value is (values are kept so).
                open[dir] = values[q] != BLOCKED;
                relax(values, q, straight, fs, &mut ts, true);
            }
            if N::DIAGONALS {
                // A diagonal needs both orthogonal cells beside it open.
                for dir in (1..8).step_by(2) {
                    let q = p.wrapping_add_signed(deltas[dir]);
                    let legal = open[dir - 1] & open[(dir + 1) & 7];
                    relax(values, q, diagonal, fd, &mut td, legal);
                }
            }
        }
        self.clipped |= clipped;
        improved
    }

    // ----- flee fields -----
}
