//! Keeping components exact after edits: opening joins, closing searches for splits.

use super::*;

impl Components {
    /// Brings the components up to date after the cells in `changed` were edited on
    /// `grid` (list every edited cell; cells outside the grid and repeats are
    /// ignored). The result equals a fresh [`new`](Self::new).
    ///
    /// # Errors
    /// [`GridMismatch`] if `grid` is another size (nothing is changed).
    pub fn repair(
        &mut self,
        grid: &Grid,
        changed: &[Cell],
    ) -> Result<ComponentStats, GridMismatch> {
        self.repair_within(grid, changed, usize::MAX)
    }

    /// [`repair`](Self::repair), but a closing's split search stops once it has
    /// crossed `most` cells (a cut of a big map into large parts costs a search of
    /// the smaller part and as much of the larger one, cell by cell). The cells that
    /// closing may have cut apart then keep one component:
    /// [`is_reachable`](Self::is_reachable) may answer `true` for two of them, never
    /// `false` for cells a unit can walk between, and [`count`](Self::count) may be
    /// short, until
    /// the components are settled again ([`is_settled`](Self::is_settled)): by a
    /// fresh build, or by the relabelling a repair makes now and then to compact its
    /// labels. [`ComponentStats::unsettled`] counts such closings.
    ///
    /// # Errors
    /// [`GridMismatch`] if `grid` is another size (nothing is changed).
    pub fn repair_within(
        &mut self,
        grid: &Grid,
        changed: &[Cell],
        most: usize,
    ) -> Result<ComponentStats, GridMismatch> {
        GridMismatch::check((self.width, self.height), grid)?;
        let mut stats = ComponentStats::default();
        for &cell in changed {
            let Some(i) = self.index(cell) else { continue };
            let open = self.passable >> grid.bits_at(i) & 1 == 1;
            self.update(i, open, &mut stats, most);
        }
        self.compact();
        Ok(stats)
    }

    /// Opens or closes cell `i` if `open` says it changed (a split search crossing at
    /// most `most` cells).
    pub(super) fn update(&mut self, i: usize, open: bool, stats: &mut ComponentStats, most: usize) {
        match (self.labels[i] != BLOCKED, open) {
            (false, true) => {
                stats.opened += 1;
                self.open(i);
            }
            (true, false) => {
                stats.closed += 1;
                self.close(i, stats, most);
            }
            _ => {}
        }
    }

    /// Labels cut off by splits are left behind in the forest: start afresh once they
    /// outnumber the cells, or before the forest would have to grow (a split adds a
    /// root: growing would allocate in steady state).
    pub(super) fn compact(&mut self) {
        let room = self.parent.capacity() - self.parent.len();
        if self.parent.len() > 2 * self.labels.len() + 64 || room < SPLIT_ROOM {
            self.relabel_all();
        }
    }

    fn open(&mut self, i: usize) {
        let mut root = None::<u32>;
        for n in self.neighbours(i) {
            if n == usize::MAX {
                continue;
            }
            let r = self.find(self.labels[n]);
            root = Some(match root {
                None => r,
                Some(q) => self.unite(q, r),
            });
        }
        let r = match root {
            Some(r) => {
                self.size[r as usize] += 1;
                r
            }
            None => self.new_root(1),
        };
        self.labels[i] = r;
    }

    fn close(&mut self, i: usize, stats: &mut ComponentStats, most: usize) {
        let root = self.find(self.labels[i]);
        self.labels[i] = BLOCKED;
        self.size[root as usize] = self.size[root as usize].saturating_sub(1);
        let around = self.neighbours(i);
        let open = around.iter().filter(|&&n| n != usize::MAX).count();
        if open == 0 {
            self.count -= 1;
            return;
        }
        let ring = self.ring();
        let hex = ring == 6;
        // Sides: arcs of open neighbours round the ring. On hex maps consecutive
        // neighbours are adjacent, so two open ones are joined; on square maps two
        // consecutive straight neighbours are joined when the diagonal cell between
        // them is open too.
        let w = self.width as usize;
        let joined_after = |k: usize| {
            // Neighbours k and k + 1 (round the ring).
            let (a, b) = (around[k], around[(k + 1) % ring]);
            if a == usize::MAX || b == usize::MAX {
                return false;
            }
            if hex {
                return true;
            }
            let (ax, ay) = (a % w, a / w);
            let (bx, by) = (b % w, b / w);
            // The diagonal shares a's column or row with b's: x of one, y of the other.
            let d = if ax == i % w {
                ay * w + bx
            } else {
                by * w + ax
            };
            self.labels[d] != BLOCKED
        };
        let mut side = [usize::MAX; 6];
        let mut sides = 0;
        // Start after a break in the ring, so that each arc is numbered once.
        let start = (0..ring)
            .find(|&k| !joined_after(k))
            .map_or(0, |k| (k + 1) % ring);
        for step in 0..ring {
            let k = (start + step) % ring;
            if around[k] == usize::MAX {
                continue;
            }
            let prev = (k + ring - 1) % ring;
            let joined = step > 0 && joined_after(prev);
            side[k] = if joined { sides - 1 } else { sides };
            if !joined {
                sides += 1;
            }
        }
        debug_assert!(sides <= 4, "at most 4 sides (3 on hex maps)");
        if sides <= 1 {
            return;
        }
        self.split_search(&around, &side, sides, root, stats, most);
    }

    /// Searches from each side of a closed cell in turn, a cell at a time: sides that
    /// meet are one; a side that runs out first is cut off and relabelled.
    fn split_search(
        &mut self,
        around: &[usize; 6],
        side: &[usize; 6],
        sides: usize,
        root: u32,
        stats: &mut ComponentStats,
        most: usize,
    ) {
        if self.seen.len() != self.labels.len() {
            self.seen = vec![0; self.labels.len()];
        }
        if self.generation.advance() {
            self.seen.fill(0);
        }
        let stamp = self.generation.get() << 2;
        // Sides merge as their searches meet: a tiny union-find over `sides`.
        let mut joined: [usize; 4] = [0, 1, 2, 3];
        let mut heads = [0usize; 4];
        for q in &mut self.queues {
            q.clear();
        }
        for k in 0..6 {
            if around[k] != usize::MAX {
                let s = side[k];
                self.seen[around[k]] = stamp | s as u32;
                self.queues[s].push(around[k] as u32);
            }
        }
        let mut alive = sides;
        let mut done = [false; 4];
        let mut searched = 0;
        while alive > 1 {
            for s in 0..sides {
                let t = top(&joined, s);
                if done[t] {
                    continue;
                }
                // A set of sides is exhausted when every queue in it is.
                if heads[s] >= self.queues[s].len() {
                    let exhausted = (0..sides)
                        .filter(|&o| top(&joined, o) == t)
                        .all(|o| heads[o] >= self.queues[o].len());
                    if exhausted {
                        done[t] = true;
                        alive -= 1;
                        if alive >= 1 {
                            self.cut_off(t, &joined, sides, root, stats);
                        }
                    }
                    continue;
                }
                if searched == most {
                    // The sides not cut off yet stay one component (see
                    // `repair_within`).
                    self.settled = false;
                    stats.unsettled += 1;
                    return;
                }
                let p = self.queues[s][heads[s]] as usize;
                heads[s] += 1;
                stats.cells_searched += 1;
                searched += 1;
                for q in self.neighbours(p) {
                    if q == usize::MAX {
                        continue;
                    }
                    let mark = self.seen[q];
                    if mark & !3 == stamp {
                        let other = top(&joined, (mark & 3) as usize);
                        if other != t {
                            joined[other] = t;
                            alive -= 1;
                        }
                    } else {
                        self.seen[q] = stamp | s as u32;
                        self.queues[s].push(q as u32);
                    }
                }
                if alive <= 1 {
                    break;
                }
            }
        }
    }

    /// Gives the cells the sides joined under `t` reached (the whole cut-off part)
    /// a new label.
    fn cut_off(
        &mut self,
        t: usize,
        joined: &[usize; 4],
        sides: usize,
        root: u32,
        stats: &mut ComponentStats,
    ) {
        let cells: u32 = (0..sides)
            .filter(|&o| top(joined, o) == t)
            .map(|o| self.queues[o].len() as u32)
            .sum();
        let label = self.new_root(cells);
        self.size[root as usize] = self.size[root as usize].saturating_sub(cells);
        for o in (0..sides).filter(|&o| top(joined, o) == t) {
            for &p in &self.queues[o] {
                self.labels[p as usize] = label;
            }
        }
        stats.splits += 1;
    }
}

/// The side a set of joined sides is known by (`joined` is a tiny union-find over at
/// most 4 sides).
fn top(joined: &[usize; 4], mut side: usize) -> usize {
    while joined[side] != side {
        side = joined[side];
    }
    side
}
