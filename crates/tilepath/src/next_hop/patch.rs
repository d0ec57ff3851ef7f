//! Repairing a row after an edit: the mod-3 patches and the row walks they check.

use super::*;

impl Worker {
    /// Patches target `t`'s mod-3 row after the cell `c` was opened or blocked
    /// (`shape` already shows the edit). Returns the entries rewritten.
    pub(super) fn patch_row(
        &mut self,
        shape: &Shape,
        t: usize,
        row: &mut [u8],
        c: usize,
        opened: bool,
    ) -> usize {
        if opened {
            self.patch_opened(shape, t, row, c)
        } else {
            self.patch_blocked(shape, t, row, c)
        }
    }

    /// The distance of `q` minus that of its neighbour `p` (both open before the
    /// edit), from their residues: -1, 0 or 1.
    #[inline]
    pub(super) fn diff(row: &[u8], shape: &Shape, p: usize, q: usize) -> i64 {
        let a = get_residue(row, shape.entry_of[p] as usize);
        let b = get_residue(row, shape.entry_of[q] as usize);
        i64::from((b + 4 - a) % 3) - 1
    }

    /// `c` was opened: its distance is one more than its nearest neighbour's, and the
    /// cells that now get closer through it are lowered, breadth-first from `c`. The
    /// neighbours' old distances relative to each other come from the ring of 8 cells
    /// around `c` when it connects them, else (a doorway) from walking the row.
    pub(super) fn patch_opened(
        &mut self,
        shape: &Shape,
        t: usize,
        row: &mut [u8],
        c: usize,
    ) -> usize {
        let stride = shape.stride;
        let tp = shape.cells[t] as usize;
        let known = self.next_stamp();
        let lowered = self.next_stamp();
        // Old distances of the ring cells, walking the ring both ways.
        let ring: [usize; 8] = core::array::from_fn(|d| c.wrapping_add_signed(shape.deltas[d]));
        let open: [bool; 8] = core::array::from_fn(|d| shape.costs[ring[d]] != 0);
        let Some(first) = (0..8).step_by(2).find(|&d| open[d]) else {
            return 0;
        };
        self.mark[ring[first]] = known;
        self.old[ring[first]] = 0;
        for step in [1, 7] {
            let mut d = first;
            loop {
                let nd = (d + step) & 7;
                if !open[nd] || self.mark[ring[nd]] == known {
                    break;
                }
                self.mark[ring[nd]] = known;
                self.old[ring[nd]] = self.old[ring[d]] + Self::diff(row, shape, ring[d], ring[nd]);
                d = nd;
            }
        }
        let mut base = i64::from(get_residue(row, shape.entry_of[ring[first]] as usize));
        if (0..8)
            .step_by(2)
            .any(|d| open[d] && self.mark[ring[d]] != known)
        {
            // A doorway: the neighbours only meet far away. Their exact old distances
            // come from walking the old row to the target (O(path length) each).
            for d in (0..8).step_by(2).filter(|&d| open[d]) {
                match walk_length(shape, row, ring[d], tp, c) {
                    Some(n) => self.old[ring[d]] = n,
                    None => {
                        self.compute_row(shape, tp, row);
                        return row.len();
                    }
                }
            }
            base = 0;
        }
        let new_c = (0..8)
            .step_by(2)
            .filter(|&d| open[d])
            .map(|d| self.old[ring[d]] + 1)
            .min()
            .unwrap_or(0);
        // Residues are written once the search is over: it reads the old ones.
        self.mark[c] = lowered;
        self.dist[c] = new_c;
        self.queue[0] = c as u32;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let x = self.queue[head] as usize;
            head += 1;
            let candidate = self.dist[x] + 1;
            for q in [x + 1, x + stride, x - 1, x - stride] {
                if shape.costs[q] == 0 || self.mark[q] == lowered || q == tp {
                    continue;
                }
                let old_q = if x == c {
                    self.old[q]
                } else {
                    self.old[x] + Self::diff(row, shape, x, q)
                };
                if candidate < old_q {
                    self.mark[q] = lowered;
                    self.dist[q] = candidate;
                    self.old[q] = old_q;
                    self.queue[tail] = q as u32;
                    tail += 1;
                }
            }
        }
        for &x in &self.queue[..tail] {
            let x = x as usize;
            let v = (base + self.dist[x]).rem_euclid(3) as u8;
            set_residue(row, shape.entry_of[x] as usize, v);
        }
        tail
    }

    /// `c` was blocked: the cells whose every cheapest path ran through `c` are found
    /// level by level from `c` with the old residues, then get new distances from
    /// their unaffected neighbours, breadth-first. Distances are relative to `c`'s old
    /// one.
    pub(super) fn patch_blocked(
        &mut self,
        shape: &Shape,
        t: usize,
        row: &mut [u8],
        c: usize,
    ) -> usize {
        let tp = shape.cells[t] as usize;
        let stride = shape.stride;
        let candidate = self.next_stamp();
        let unaffected = self.next_stamp();
        let component = shape.component[t];
        let same = |q: usize| {
            shape.costs[q] != 0 && shape.component[shape.entry_of[q] as usize] == component
        };
        let mut level = core::mem::take(&mut self.level);
        let mut next = core::mem::take(&mut self.next);
        level.clear();
        self.members.clear();
        // Level 1: the neighbours one step farther than c.
        for q in [c + 1, c + stride, c - 1, c - stride] {
            if q != tp && same(q) && Self::diff(row, shape, c, q) == 1 {
                self.mark[q] = candidate;
                self.old[q] = 1;
                level.push(q as u32);
            }
        }
        while !level.is_empty() {
            // A candidate is affected iff none of its parents (one step closer) is
            // open and unaffected; parents are one level up, so already classified.
            for &x in &level {
                let x = x as usize;
                let has_parent = [x + 1, x + stride, x - 1, x - stride].into_iter().any(|p| {
                    same(p) && self.mark[p] != candidate && Self::diff(row, shape, x, p) == -1
                });
                if has_parent {
                    self.mark[x] = unaffected;
                } else {
                    self.members.push(x as u32);
                }
            }
            next.clear();
            for &x in &level {
                let x = x as usize;
                if self.mark[x] != candidate {
                    continue;
                }
                for q in [x + 1, x + stride, x - 1, x - stride] {
                    if q != tp
                        && same(q)
                        && self.mark[q] != candidate
                        && self.mark[q] != unaffected
                        && Self::diff(row, shape, x, q) == 1
                    {
                        self.mark[q] = candidate;
                        self.old[q] = self.old[x] + 1;
                        next.push(q as u32);
                    }
                }
            }
            core::mem::swap(&mut level, &mut next);
        }
        self.level = level;
        self.next = next;
        if self.members.is_empty() {
            return 0;
        }
        // Seeds: each affected cell's best unaffected neighbour, plus one step.
        self.seeds.clear();
        for &x in &self.members {
            let x = x as usize;
            let best = [x + 1, x + stride, x - 1, x - stride]
                .into_iter()
                .filter(|&q| same(q) && self.mark[q] != candidate)
                .map(|q| self.old[x] + Self::diff(row, shape, x, q) + 1)
                .min();
            if let Some(best) = best {
                self.seeds.push((best, x as u32));
            }
        }
        self.seeds.sort_unstable();
        // Breadth-first inside the affected set: the sorted seeds merged with a FIFO
        // (whose keys grow by one per level, so it stays sorted).
        let settled = self.next_stamp();
        let base = i64::from(get_residue(row, shape.entry_of[c] as usize));
        self.fifo.clear();
        let (mut si, mut fi) = (0, 0);
        let mut written = 0;
        loop {
            let take_seed = match (self.seeds.get(si), self.fifo.get(fi)) {
                (Some(a), Some(b)) => a.0 <= b.0,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let (v, x) = if take_seed {
                si += 1;
                self.seeds[si - 1]
            } else {
                fi += 1;
                self.fifo[fi - 1]
            };
            let x = x as usize;
            if self.mark[x] != candidate {
                continue;
            }
            self.mark[x] = settled;
            set_residue(
                row,
                shape.entry_of[x] as usize,
                (base + v).rem_euclid(3) as u8,
            );
            written += 1;
            for q in [x + 1, x + stride, x - 1, x - stride] {
                if self.mark[q] == candidate {
                    self.fifo.push((v + 1, q as u32));
                }
            }
        }
        written
    }
}

/// (Mod 3.) The number of steps from `from` to the target `tp` along the row's
/// cheapest path, avoiding `skip` (a cell opened since the row was written); `None`
/// if the row leads nowhere.
pub(super) fn walk_length(
    shape: &Shape,
    row: &[u8],
    from: usize,
    tp: usize,
    skip: usize,
) -> Option<i64> {
    let st = shape.stride;
    let (mut x, mut n) = (from, 0i64);
    while x != tp {
        let closer = closer(get_residue(row, shape.open[x] as usize));
        x = [x + 1, x + st, x - 1, x - st].into_iter().find(|&q| {
            q != skip && shape.open[q] != NONE && get_residue(row, shape.open[q] as usize) == closer
        })?;
        n += 1;
        if n as usize > shape.cells.len() {
            return None;
        }
    }
    Some(n)
}
