//! The Dijkstra queue of distance fields and the next-hop table: a FIFO per step
//! weight.

use crate::Mobility;

/// Storage of one FIFO of [`StepQueues`]: `(key, cell index)` entries.
type Fifo<K> = Vec<(K, u32)>;

/// The priority queue of a field's Dijkstra: one FIFO per step weight.
///
/// The step from a cell's neighbour into it costs the cell's cost (one of at most 4
/// mobility costs), straight or diagonal: at most 8 different weights. Dijkstra pops keys
/// in increasing order, so the keys pushed with any one weight `w` (popped key + `w`)
/// arrive in increasing order too: a plain FIFO per weight stays sorted, and the
/// smallest key is the smallest of at most 8 heads (plus the sorted seeds). Every
/// operation is O(1), with no comparisons beyond those heads.
#[derive(Clone, Debug)]
pub(crate) struct StepQueues<K = u32> {
    /// FIFO `k` (straight steps into cells of cost class `k`) and `4 + k` (diagonal).
    /// Storage only: FIFO `k` holds `fifos[k][heads[k]..tails[k]]`, and entries past
    /// the tail are scratch that [`push_if`](Self::push_if) may write.
    fifos: [Fifo<K>; 8],
    heads: [usize; 8],
    tails: [usize; 8],
    /// Start values, sorted by `start` before the run.
    seeds: Vec<(K, u32)>,
    seed_head: usize,
    /// Class (0..4) of each cost byte.
    class_of: [u8; 256],
    /// The FIFOs the mobility can use: `k` and `4 + k` for each of its distinct costs.
    active: [usize; 8],
    n_active: usize,
}

impl<K: Copy + Ord> StepQueues<K> {
    /// Room for `cells` seeds and `cells` entries in each FIFO the mobility uses.
    pub(crate) fn reserve(&mut self, cells: usize) {
        self.seeds.reserve(cells.saturating_sub(self.seeds.len()));
        for &k in &self.active[..self.n_active] {
            let fifo = &mut self.fifos[k];
            fifo.reserve(cells.saturating_sub(fifo.len()));
        }
    }

    /// Empty queues: they grow to the largest computation the field runs (its
    /// first full computation) and keep that size.
    pub(crate) fn new(mobility: Mobility) -> Self {
        // Distinct costs get distinct classes 0..4.
        let mut class_of = [0u8; 256];
        let mut next = 0u8;
        let mut costs = mobility.costs();
        costs.sort_unstable();
        for (i, &c) in costs.iter().enumerate() {
            if c != 0 && (i == 0 || costs[i - 1] != c) {
                class_of[usize::from(c)] = next;
                next += 1;
            }
        }
        let mut active = [0; 8];
        for k in 0..usize::from(next) {
            active[2 * k] = k;
            active[2 * k + 1] = 4 + k;
        }
        Self {
            active,
            n_active: 2 * usize::from(next),
            fifos: core::array::from_fn(|_| Vec::new()),
            heads: [0; 8],
            tails: [0; 8],
            seeds: Vec::new(),
            seed_head: 0,
            class_of,
        }
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        (self.fifos.iter().map(Vec::capacity).sum::<usize>() + self.seeds.capacity())
            * core::mem::size_of::<(K, u32)>()
    }

    #[inline]
    pub(crate) fn class_of(&self, cost: u8) -> usize {
        usize::from(self.class_of[usize::from(cost)])
    }

    /// The sorted seeds and the straight and diagonal FIFOs of cost class `class`,
    /// for a run that keeps its own heads and tails (the FIFOs' contents are scratch).
    #[inline]
    pub(crate) fn uniform_parts(&mut self, class: usize) -> (&[(K, u32)], [&mut Fifo<K>; 2]) {
        let [fs, fd] = self
            .fifos
            .get_disjoint_mut([class, class + 4])
            .expect("classes are below 4");
        (&self.seeds, [fs, fd])
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.heads = [0; 8];
        self.tails = [0; 8];
        self.seeds.clear();
        self.seed_head = 0;
    }

    /// Start values seeded since the last [`clear`](Self::clear).
    #[inline]
    pub(crate) fn seeded(&self) -> usize {
        self.seeds.len()
    }

    #[inline]
    pub(crate) fn seed(&mut self, key: K, index: u32) {
        self.seeds.push((key, index));
    }

    /// Sorts the seeds; call after seeding, before popping.
    #[inline]
    pub(crate) fn start(&mut self) {
        self.seeds.sort_unstable();
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, class: usize, key: K, index: u32) {
        self.push_if(class, key, index, true);
    }

    /// Writes the entry after FIFO `class`'s tail and keeps it only if `keep`: no
    /// branch on `keep`, which a search cannot predict (most relaxations fail).
    #[inline(always)]
    pub(crate) fn push_if(&mut self, class: usize, key: K, index: u32, keep: bool) {
        let fifo = &mut self.fifos[class];
        let tail = self.tails[class];
        debug_assert!(
            !keep || tail == 0 || fifo[tail - 1].0 <= key,
            "FIFO {class} out of order"
        );
        if tail < fifo.len() {
            fifo[tail] = (key, index);
        } else {
            fifo.push((key, index));
        }
        self.tails[class] = tail + usize::from(keep);
    }

    /// The head entry of FIFO `k`, if any.
    #[inline(always)]
    fn head(&self, k: usize) -> Option<&(K, u32)> {
        if self.heads[k] < self.tails[k] {
            self.fifos[k].get(self.heads[k])
        } else {
            None
        }
    }

    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<(K, u32)> {
        if self.n_active == 2 && self.seed_head == self.seeds.len() {
            // The common case once the seeds are in: one cost, straight and diagonal
            // FIFOs (octile), merged by their heads.
            let (a, b) = (self.active[0], self.active[1]);
            let k = match (self.head(a), self.head(b)) {
                (Some(x), Some(y)) => {
                    if y.0 < x.0 {
                        b
                    } else {
                        a
                    }
                }
                (Some(_), None) => a,
                (None, Some(_)) => b,
                (None, None) => return None,
            };
            self.heads[k] += 1;
            return Some(self.fifos[k][self.heads[k] - 1]);
        }
        let mut best = self.seeds.get(self.seed_head).map(|&(k, _)| (k, 8));
        for &k in &self.active[..self.n_active] {
            if let Some(&(key, _)) = self.head(k)
                && best.is_none_or(|(b, _)| key < b)
            {
                best = Some((key, k));
            }
        }
        let (_, k) = best?;
        Some(if k == 8 {
            self.seed_head += 1;
            self.seeds[self.seed_head - 1]
        } else {
            self.heads[k] += 1;
            self.fifos[k][self.heads[k] - 1]
        })
    }
}
