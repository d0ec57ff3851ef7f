//! A build thread's scratch and the search that writes one target's row.

use super::*;
use crate::queue::Generation;
use crate::topology::square_codes;

/// One thread's scratch for computing and repairing rows.
#[derive(Debug, Default)]
pub(super) struct Worker {
    /// Per padded cell: `stamp` once visited in the current pass.
    pub(super) mark: Vec<u32>,
    pub(super) stamp: Generation,
    /// Per padded cell: distance (Dijkstra) or relative distance (repairs).
    pub(super) dist: Vec<i64>,
    /// Per padded cell: old relative distance (repairs).
    pub(super) old: Vec<i64>,
    pub(super) queue: Vec<u32>,
    pub(super) level: Vec<u32>,
    pub(super) next: Vec<u32>,
    pub(super) members: Vec<u32>,
    pub(super) seeds: Vec<(i64, u32)>,
    pub(super) fifo: Vec<(i64, u32)>,
    pub(super) queues: Option<StepQueues<u64>>,
}

impl Worker {
    pub(super) fn prepare(&mut self, shape: &Shape) {
        let padded = shape.costs.len();
        if self.mark.len() != padded {
            self.mark = vec![0; padded];
            self.dist = vec![0; padded];
            self.old = vec![0; padded];
            self.stamp = Generation::new(32);
        }
        if self.queue.len() < padded {
            self.queue.resize(padded, 0);
        }
        if self.queues.is_none() && shape.encoding != Encoding::DistanceMod3 {
            let mut q = StepQueues::new(shape.mobility);
            q.reserve(padded);
            self.queues = Some(q);
        }
    }

    /// Bytes of scratch held.
    pub(super) fn memory_bytes(&self) -> usize {
        self.mark.capacity() * 4
            + (self.dist.capacity() + self.old.capacity()) * 8
            + (self.queue.capacity()
                + self.level.capacity()
                + self.next.capacity()
                + self.members.capacity())
                * 4
            + (self.seeds.capacity() + self.fifo.capacity()) * 16
            + self.queues.as_ref().map_or(0, StepQueues::memory_bytes)
    }

    /// A fresh stamp: every mark is older.
    pub(super) fn next_stamp(&mut self) -> u32 {
        if self.stamp.advance() {
            self.mark.fill(0);
        }
        self.stamp.get()
    }

    /// Fills `row` (zeroed) for the target at padded index `target`.
    pub(super) fn compute_row(&mut self, shape: &Shape, target: usize, row: &mut [u8]) {
        row.fill(0);
        if shape.costs[target] == 0 {
            return;
        }
        match shape.encoding {
            Encoding::DistanceMod3 => self.bfs_trits(shape, target, row),
            _ => self.dijkstra_codes(shape, target, row),
        }
    }

    /// Breadth-first search from the target writing each reached cell's distance
    /// modulo 3 (all steps cost the same).
    pub(super) fn bfs_trits(&mut self, shape: &Shape, target: usize, row: &mut [u8]) {
        let stamp = self.next_stamp();
        let stride = shape.stride;
        let (mark, queue, costs, entry_of) = (
            &mut self.mark,
            &mut self.queue,
            &shape.costs,
            &shape.entry_of,
        );
        mark[target] = stamp;
        queue[0] = target as u32;
        let (mut head, mut tail, mut level_end) = (0, 1, 1);
        let mut trit = 1u8;
        while head < tail {
            if head == level_end {
                level_end = tail;
                trit = if trit == 2 { 0 } else { trit + 1 };
            }
            let p = queue[head] as usize;
            head += 1;
            for q in [p + 1, p + stride, p - 1, p - stride] {
                if mark[q] != stamp && costs[q] != 0 {
                    mark[q] = stamp;
                    queue[tail] = q as u32;
                    tail += 1;
                    let entry = entry_of[q] as usize;
                    row[entry >> 2] |= trit << ((entry & 3) * 2);
                }
            }
        }
    }

    /// Dijkstra from the target, then each reached cell's first step: the first
    /// direction (in code order) onto a cheapest path.
    pub(super) fn dijkstra_codes(&mut self, shape: &Shape, target: usize, row: &mut [u8]) {
        let stamp = self.next_stamp();
        let Self {
            mark,
            dist,
            queue,
            queues,
            ..
        } = self;
        let queues = queues.as_mut().expect("prepared");
        queues.clear();
        mark[target] = stamp;
        dist[target] = 0;
        queues.seed(0, target as u32);
        queues.start();
        let mut reached = 0;
        while let Some((v, p)) = queues.pop() {
            let p = p as usize;
            if dist[p] != v as i64 {
                continue;
            }
            queue[reached] = p as u32;
            reached += 1;
            // A neighbour q reaches the target through p by entering p.
            let class = queues.class_of(shape.costs[p]);
            for &dir in square_codes(shape.connectivity) {
                let Some(q) = shape.step(p, dir) else {
                    continue;
                };
                let nv = v + u64::from(shape.step_cost(p, dir));
                if mark[q] != stamp || (nv as i64) < dist[q] {
                    mark[q] = stamp;
                    dist[q] = nv as i64;
                    queues.push(class + 4 * (dir & 1), nv, q as u32);
                }
            }
        }
        for &p in &queue[1..reached] {
            let p = p as usize;
            let code = first_step(shape, p, |q| (mark[q] == stamp).then(|| dist[q]));
            set_code(shape.encoding, row, shape.entry_of[p] as usize, code);
        }
    }
}

/// The first direction (code order) from `p` onto a cheapest path, given the
/// distances `dist` of its neighbours (`None` = unreached).
#[inline]
pub(super) fn first_step(shape: &Shape, p: usize, dist: impl Fn(usize) -> Option<i64>) -> u8 {
    let here = dist(p).unwrap_or(i64::MAX);
    let eight = shape.connectivity == Connectivity::Eight;
    for &dir in square_codes(shape.connectivity) {
        if let Some(q) = shape.step(p, dir)
            && let Some(d) = dist(q)
            && d + i64::from(shape.step_cost(q, dir)) == here
        {
            return if eight { dir as u8 } else { (dir / 2) as u8 };
        }
    }
    0
}
