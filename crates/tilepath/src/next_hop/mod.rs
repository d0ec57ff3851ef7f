//! All-pairs next-hop table: for every ordered pair of passable cells, the first step
//! of a cheapest path, answered in O(1) and repaired after edits.

mod branches;

use crate::cost::{OCTILE_DIAGONAL, OCTILE_STRAIGHT};
use crate::queue::StepQueues;
use crate::{Cell, Connectivity, Direction, Direction8, Grid, GridLayer, GridPath, GridPath8};
use branches::{Branches, CORE, ROOT, legal_step, peel};
use core::fmt;
use std::sync::Mutex;

/// No slot / unreached / not a component.
const NONE: u32 = u32::MAX;

/// The residue one step closer than residue `r`.
#[inline(always)]
const fn closer(r: u8) -> u8 {
    if r == 0 { 2 } else { r - 1 }
}

/// How a [`NextHopTable`] stores a pair.
///
/// Chosen by the table from its layer and connectivity; see
/// [`NextHopTable::encoding`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// 4-connected with one cost for every passable kind: each pair stores its distance
    /// modulo 3 (2 bits a pair). A unit steps to the first neighbour
    /// (right, down, left, up) one step closer, and an edit is repaired locally, cell
    /// by cell, since every pair's distance is known relative to its neighbours'.
    DistanceMod3,
    /// 4-connected with several costs: the first step's direction, 2 bits a pair.
    Directions4,
    /// 8-connected: the first step's direction, 3 bits a pair.
    Directions8,
}

impl Encoding {
    fn of(layer: GridLayer, connectivity: Connectivity) -> Self {
        match connectivity {
            Connectivity::Eight => Self::Directions8,
            Connectivity::Four if uniform_cost(layer).is_some() => Self::DistanceMod3,
            Connectivity::Four => Self::Directions4,
        }
    }

    /// Bytes of one row of `slots` entries.
    fn row_bytes(self, slots: usize) -> usize {
        match self {
            Self::DistanceMod3 => slots.div_ceil(4),
            Self::Directions4 => slots.div_ceil(4),
            // 3 bits, read and written as a little-endian u16: one spare byte.
            Self::Directions8 => (slots * 3).div_ceil(8) + 1,
        }
    }

    /// Bits a pair takes.
    #[must_use]
    pub const fn bits_per_pair(self) -> f64 {
        match self {
            Self::DistanceMod3 => 2.0,
            Self::Directions4 => 2.0,
            Self::Directions8 => 3.0,
        }
    }
}

/// The one cost of every passable kind of `layer`, if they share one.
fn uniform_cost(layer: GridLayer) -> Option<u8> {
    let mut costs = layer.costs().into_iter().filter(|&c| c != 0);
    let first = costs.next().unwrap_or(1);
    costs.all(|c| c == first).then_some(first)
}

/// Which cells get a row and a column in the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Slots {
    /// The cells passable when the table is built, less the dead-end branches (the
    /// smallest table). A *branch* is what is left after peeling, again and again,
    /// every cell with at most one neighbour: corridors that end, rooms with a single
    /// door, a whole maze without loops. No cheapest path between two other cells runs
    /// through a branch and any path into or out of one is forced, so branch cells get
    /// no entries: a depth-first numbering (about 33 bytes a cell) answers their queries in
    /// O(1). A maze with no loops takes a few bytes per cell instead of bits per pair.
    ///
    /// Blocking any cell later is repaired in place. Opening a cell that was blocked
    /// at build time, or reopening a branch cell (it may close a loop), rebuilds the
    /// whole table.
    #[default]
    Passable,
    /// Every cell of the grid, so that any edit is repaired in place (for maps whose
    /// walls come and go).
    AllCells,
}

/// Why a table could not be built or updated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The table would need more memory than the limit set with
    /// [`TableBuilder::memory_limit`].
    TooLarge {
        /// Bytes the table would take.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// The grid passed to [`NextHopTable::update`] is not the size the table was built
    /// for.
    GridMismatch {
        /// The table's grid size.
        expected: (u32, u32),
        /// The grid passed.
        found: (u32, u32),
    },
    /// The system could not give the memory the table needs, although it is within
    /// the memory limit (nothing was allocated for the table).
    OutOfMemory {
        /// Bytes the table needs: [`MemoryEstimate::total_bytes`].
        bytes: u64,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { needed, limit } => write!(
                f,
                "a next-hop table for this grid needs {needed} bytes, above the limit of {limit}"
            ),
            Self::GridMismatch { expected, found } => write!(
                f,
                "the table was built for a {}x{} grid, not {}x{}",
                expected.0, expected.1, found.0, found.1
            ),
            Self::OutOfMemory { bytes } => {
                write!(f, "out of memory: the table needs {bytes} bytes")
            }
        }
    }
}

impl std::error::Error for TableError {}

/// What a table for a grid would take, before building it: see
/// [`TableBuilder::estimate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// Cells with a row and a column (open cells on dead-end branches have neither:
    /// see [`Slots::Passable`]).
    pub slots: u64,
    /// How pairs are stored.
    pub encoding: Encoding,
    /// Bytes of the pair table.
    pub table_bytes: u64,
    /// Bytes of everything a build allocates at once, at most: the pair table, the
    /// per-cell index and components, and the build scratch of every thread it uses
    /// (24 bytes per cell, plus 16 per cell for each of the queues of a direction
    /// encoding: 3 with one cost, up to 9 with four).
    pub total_bytes: u64,
}

/// What an [`update`](NextHopTable::update) did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UpdateStats {
    /// Cells whose passability or cost changed.
    pub edits: usize,
    /// Targets whose row was recomputed from scratch.
    pub targets_recomputed: usize,
    /// Targets whose row was patched locally ([`Encoding::DistanceMod3`] only).
    pub targets_patched: usize,
    /// Entries rewritten by local patches.
    pub entries_patched: usize,
    /// Whether the whole table was rebuilt (a cell outside the slots was opened).
    pub rebuilt: bool,
}

/// Options of a [`NextHopTable`]: connectivity, slots, memory limit, threads.
#[derive(Clone, Copy, Debug)]
pub struct TableBuilder {
    layer: GridLayer,
    connectivity: Connectivity,
    slots: Slots,
    memory_limit: u64,
    threads: usize,
}

impl TableBuilder {
    /// The default limit: 1 GiB.
    pub const DEFAULT_MEMORY_LIMIT: u64 = 1 << 30;

    /// Sets the connectivity (default 4).
    #[must_use]
    pub fn connectivity(mut self, connectivity: Connectivity) -> Self {
        self.connectivity = connectivity;
        self
    }

    /// Sets which cells get slots (default [`Slots::Passable`]).
    #[must_use]
    pub fn slots(mut self, slots: Slots) -> Self {
        self.slots = slots;
        self
    }

    /// Refuses to build a table of more than `bytes` (default 1 GiB; counted as
    /// [`MemoryEstimate::total_bytes`]) with [`TableError::TooLarge`], before
    /// allocating it.
    #[must_use]
    pub fn memory_limit(mut self, bytes: u64) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// Build and repair with `threads` threads (default 0: all cores). The result does
    /// not depend on it.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    fn thread_count(&self) -> usize {
        if self.threads > 0 {
            self.threads
        } else {
            std::thread::available_parallelism().map_or(1, usize::from)
        }
    }

    /// Threads a build uses for `jobs` rows: see `NextHopTable::thread_count`.
    fn threads_for(&self, jobs: usize) -> usize {
        self.thread_count().min(jobs.div_ceil(64)).max(1)
    }

    /// Bytes of one build thread's scratch per padded cell.
    fn worker_bytes_per_cell(&self) -> u64 {
        // Marks (4), distances and old distances (8 + 8), queue (4).
        let base = 24;
        match Encoding::of(self.layer, self.connectivity) {
            Encoding::DistanceMod3 => base,
            // The seeds and two FIFOs per distinct cost, 16 bytes an entry each.
            _ => {
                let mut costs = self.layer.costs();
                costs.sort_unstable();
                let distinct = (0..4)
                    .filter(|&i| costs[i] != 0 && (i == 0 || costs[i - 1] != costs[i]))
                    .count() as u64;
                base + 16 * (1 + 2 * distinct)
            }
        }
    }

    /// Bytes a build needs at least, whatever the slots: the per-cell index and one
    /// thread's scratch. Computed without allocating.
    fn floor_bytes(&self, grid: &Grid) -> u64 {
        let padded = (u64::from(grid.width()) + 2) * (u64::from(grid.height()) + 2);
        padded.saturating_mul(9 + self.worker_bytes_per_cell())
    }

    /// What a table for `grid` would take, without building it.
    ///
    /// Counting the slots of [`Slots::Passable`] takes about 3 bytes per cell for a
    /// moment; when even the least the table needs (its per-cell index and one
    /// thread's scratch) is above the [memory limit](Self::memory_limit), nothing is
    /// allocated and every open cell is counted as a slot (an upper bound).
    #[must_use]
    pub fn estimate(&self, grid: &Grid) -> MemoryEstimate {
        let too_large = self.floor_bytes(grid) > self.memory_limit;
        let (slots, branch_cells) = match self.slots {
            Slots::AllCells => (grid.len(), 0),
            Slots::Passable if too_large => {
                let open = (0..grid.len())
                    .filter(|&i| self.layer.cost_of_bits(grid.bits_at(i)) != 0)
                    .count();
                (open, 0)
            }
            Slots::Passable => {
                let costs = padded_costs(grid, self.layer);
                let role = roles(
                    &costs,
                    grid.width() as usize + 2,
                    self.connectivity,
                    self.slots,
                );
                let core = role.iter().filter(|&&r| r == CORE).count();
                let open = costs.iter().filter(|&&c| c != 0).count();
                (core, open - core)
            }
        };
        let encoding = Encoding::of(self.layer, self.connectivity);
        let row_bytes = encoding.row_bytes(slots) as u64;
        let threads = if row_bytes == 0 {
            0 // no pair entries, no rows to compute
        } else {
            self.threads_for(slots) as u64
        };
        let slots = slots as u64;
        let table_bytes = row_bytes.saturating_mul(slots);
        let padded = (u64::from(grid.width()) + 2) * (u64::from(grid.height()) + 2);
        // costs (1) + slot index and open slot (8) per padded cell, and the
        // temporaries of finding the branches (4); cell + component (8) per slot, the
        // flood fill's stack (8) and the list of rows handed to the threads (24,
        // twice while it is split into blocks); the branches; a few fixed buffers;
        // per thread its scratch.
        let index =
            padded * 13 + slots * 64 + Branches::bytes_for(branch_cells as u64, padded) + 4096;
        let scratch = padded
            .saturating_mul(self.worker_bytes_per_cell())
            .saturating_mul(threads);
        MemoryEstimate {
            slots,
            encoding,
            table_bytes,
            total_bytes: table_bytes.saturating_add(index).saturating_add(scratch),
        }
    }

    /// Builds the table for `grid`.
    ///
    /// # Errors
    /// [`TableError::TooLarge`] if [`estimate`](Self::estimate)'s total exceeds the
    /// memory limit (checked before anything but the estimate's own count is
    /// allocated); [`TableError::OutOfMemory`] if the system cannot give that total.
    pub fn build(&self, grid: &Grid) -> Result<NextHopTable, TableError> {
        let estimate = self.estimate(grid);
        if estimate.total_bytes > self.memory_limit {
            return Err(TableError::TooLarge {
                needed: estimate.total_bytes,
                limit: self.memory_limit,
            });
        }
        crate::memory::ensure(estimate.total_bytes)
            .map_err(|bytes| TableError::OutOfMemory { bytes })?;
        let shape = Shape::new(grid, self.layer, self.connectivity, self.slots);
        let row_bytes = shape.encoding.row_bytes(shape.cells.len());
        let mut table = NextHopTable {
            rows: vec![0; row_bytes * shape.cells.len()],
            row_bytes,
            workers: Vec::new(),
            options: *self,
            shape,
        };
        table.compute_all();
        Ok(table)
    }
}

/// The grid as the table sees it: padded costs, slots, components.
#[derive(Clone, Debug)]
struct Shape {
    width: u32,
    height: u32,
    /// `width + 2`: the padded arrays have a blocked border.
    stride: usize,
    connectivity: Connectivity,
    encoding: Encoding,
    layer: GridLayer,
    /// Per padded cell: layer cost (0 = blocked or border).
    costs: Vec<u8>,
    /// Per padded cell: its slot, or `NONE`.
    slot_of: Vec<u32>,
    /// Per padded cell: its slot while open, else `NONE` (one load for the queries).
    open: Vec<u32>,
    /// Per slot: its padded index.
    cells: Vec<u32>,
    /// Per slot: its component (`NONE` while blocked).
    component: Vec<u32>,
    /// Per component: its number of cells.
    component_len: Vec<u32>,
    /// Padded index offsets of the 8 directions, in `Direction8` order.
    deltas: [isize; 8],
    /// The dead-end branches left out of the pair table ([`Slots::Passable`]).
    branches: Branches,
}

/// The layer costs of `grid` with a blocked border one cell wide (row stride
/// `width + 2`).
fn padded_costs(grid: &Grid, layer: GridLayer) -> Vec<u8> {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let stride = w + 2;
    let mut costs = vec![0u8; stride * (h + 2)];
    for y in 0..h {
        for x in 0..w {
            costs[(y + 1) * stride + x + 1] = layer.cost_of_bits(grid.bits_at(y * w + x));
        }
    }
    costs
}

/// Padded index offsets of the 8 directions for row stride `stride`.
fn deltas(stride: usize) -> [isize; 8] {
    let s = stride as isize;
    [1, s + 1, s, s - 1, -1, -s - 1, -s, -s + 1]
}

/// The direction codes moved in.
fn dirs_of(connectivity: Connectivity) -> &'static [usize] {
    match connectivity {
        Connectivity::Eight => &[0, 1, 2, 3, 4, 5, 6, 7],
        Connectivity::Four => &[0, 2, 4, 6],
    }
}

/// Per padded cell its role ([`branches::peel`]) when `slots` leaves branches out, else
/// empty.
fn roles(costs: &[u8], stride: usize, connectivity: Connectivity, slots: Slots) -> Vec<u8> {
    match slots {
        Slots::Passable => peel(costs, &deltas(stride), dirs_of(connectivity)),
        Slots::AllCells => Vec::new(),
    }
}

impl Shape {
    fn new(grid: &Grid, layer: GridLayer, connectivity: Connectivity, slots: Slots) -> Self {
        let stride = grid.width() as usize + 2;
        let real = padded_costs(grid, layer);
        let role = roles(&real, stride, connectivity, slots);
        let deltas = deltas(stride);
        let branches = Branches::new(&real, &role, &deltas, dirs_of(connectivity));
        let padded = real.len();
        // The table's view: branch cells are left out, as if blocked.
        let mut costs = real;
        let mut slot_of = vec![NONE; padded];
        let mut cells = Vec::new();
        for p in 0..padded {
            if role.get(p).is_some_and(|&r| r < CORE) {
                costs[p] = 0;
                continue;
            }
            let (x, y) = (p % stride, p / stride);
            let inside =
                x >= 1 && y >= 1 && x <= grid.width() as usize && y <= grid.height() as usize;
            if inside && (costs[p] != 0 || slots == Slots::AllCells) {
                slot_of[p] = cells.len() as u32;
                cells.push(p as u32);
            }
        }
        cells.shrink_to_fit();
        let mut shape = Self {
            width: grid.width(),
            height: grid.height(),
            stride,
            connectivity,
            encoding: Encoding::of(layer, connectivity),
            layer,
            open: (0..padded)
                .map(|p| if costs[p] != 0 { slot_of[p] } else { NONE })
                .collect(),
            costs,
            slot_of,
            component: vec![NONE; cells.len()],
            cells,
            component_len: Vec::new(),
            deltas,
            branches,
        };
        shape.label_components();
        shape
    }

    /// Sets the cost of the slot at padded index `p`.
    fn set_cost(&mut self, p: usize, cost: u8) {
        self.costs[p] = cost;
        self.open[p] = if cost != 0 { self.slot_of[p] } else { NONE };
    }

    /// Labels the components of the passable slots (flood fill, O(slots)), then of
    /// the open branch cells.
    fn label_components(&mut self) {
        self.component.fill(NONE);
        self.component_len.clear();
        let mut stack = Vec::new();
        let dirs = dirs_of(self.connectivity);
        for start in 0..self.cells.len() {
            let p = self.cells[start] as usize;
            if self.costs[p] == 0 || self.component[start] != NONE {
                continue;
            }
            let id = self.component_len.len() as u32;
            let mut len = 0u32;
            self.component[start] = id;
            stack.push(p);
            while let Some(p) = stack.pop() {
                len += 1;
                for &d in dirs {
                    if let Some(q) = self.step(p, d) {
                        let slot = self.slot_of[q] as usize;
                        if self.component[slot] == NONE {
                            self.component[slot] = id;
                            stack.push(q);
                        }
                    }
                }
            }
            self.component_len.push(len);
        }
        let Self {
            branches,
            open,
            component,
            component_len,
            deltas,
            ..
        } = self;
        branches.label(
            deltas,
            |q| match open[q] {
                NONE => NONE,
                slot => component[slot as usize],
            },
            component_len,
        );
    }

    /// The direction codes moved in.
    #[inline]
    fn dirs(&self) -> &'static [usize] {
        dirs_of(self.connectivity)
    }

    /// The component of the open cell at padded index `p` (a slot or a branch cell).
    #[inline]
    fn component_at(&self, p: usize) -> Option<u32> {
        let c = match self.open[p] {
            NONE => match self.branches.number(p) {
                NONE => NONE,
                n => self.branches.component[n as usize],
            },
            slot => self.component[slot as usize],
        };
        (c != NONE).then_some(c)
    }

    /// The layer cost of padded cell `p` (0 if blocked), branch cells included.
    #[inline]
    fn real_cost(&self, p: usize) -> u8 {
        match self.costs[p] {
            0 => match self.branches.number(p) {
                NONE => 0,
                n => self.branches.cost[n as usize],
            },
            c => c,
        }
    }

    /// Like [`step`](Self::step), over every open cell, branch cells included.
    #[inline]
    fn step_any(&self, p: usize, dir: usize) -> Option<usize> {
        if self.branches.len() == 0 {
            return self.step(p, dir);
        }
        let q = p.wrapping_add_signed(self.deltas[dir]);
        let open = |c: usize| self.real_cost(c) != 0;
        if !open(q) {
            return None;
        }
        if dir & 1 == 1
            && (!open(p.wrapping_add_signed(self.deltas[dir - 1]))
                || !open(p.wrapping_add_signed(self.deltas[(dir + 1) & 7])))
        {
            return None;
        }
        Some(q)
    }

    /// The padded cell one step `dir` (a `Direction8` code) from `p`, if that step is
    /// legal: open, and for a diagonal both orthogonal cells beside it open.
    #[inline(always)]
    fn step(&self, p: usize, dir: usize) -> Option<usize> {
        legal_step(&self.costs, &self.deltas, p, dir)
    }

    #[inline]
    fn padded(&self, cell: Cell) -> Option<usize> {
        if cell.x < 0 || cell.y < 0 || cell.x as u32 >= self.width || cell.y as u32 >= self.height {
            return None;
        }
        Some((cell.y as usize + 1) * self.stride + cell.x as usize + 1)
    }

    #[inline]
    fn cell(&self, p: usize) -> Cell {
        Cell::new((p % self.stride) as i32 - 1, (p / self.stride) as i32 - 1)
    }

    /// The cost, in table units, of stepping from a cell into `q` in direction `dir`.
    #[inline(always)]
    fn step_cost(&self, q: usize, dir: usize) -> u32 {
        let c = u32::from(self.costs[q]);
        match self.connectivity {
            Connectivity::Four => c,
            Connectivity::Eight if dir & 1 == 1 => c * OCTILE_DIAGONAL as u32,
            Connectivity::Eight => c * OCTILE_STRAIGHT as u32,
        }
    }
}

/// The first step from slot `slot` (padded `p`, row stride `stride`) along row `row`
/// of a [`Encoding::DistanceMod3`] table: right, down, left, up, the first open
/// neighbour one step closer to the row's target.
///
/// # Safety
/// `p` must be a cell inside the grid (its 4 neighbours are padded cells), `slot` and
/// every slot in `open` must be below the number of residues `row` holds.
#[inline(always)]
#[expect(
    unsafe_code,
    reason = "the query's hot path: bounds come from the layout"
)]
unsafe fn mod3_step(
    row: &[u8],
    open: &[u32],
    p: usize,
    slot: usize,
    stride: usize,
) -> Option<Direction8> {
    let residue = |n: usize| {
        // SAFETY: `n` is `slot` or an open slot: below the residues `row` holds.
        (unsafe { *row.get_unchecked(n >> 2) } >> ((n & 3) * 2)) & 3
    };
    // SAFETY: `q` is one of `p`'s 4 neighbours, all padded cells.
    let open = |q: usize| unsafe { *open.get_unchecked(q) };
    let closer = closer(residue(slot));
    for (q, dir) in [(p + 1, 0), (p + stride, 2), (p - 1, 4), (p - stride, 6)] {
        let n = open(q);
        if n != NONE && residue(n as usize) == closer {
            return Some(Direction8::from_bits(dir));
        }
    }
    None
}

/// The residue (distance mod 3) stored for `slot` in a [`Encoding::DistanceMod3`] row.
#[inline(always)]
fn get_residue(row: &[u8], slot: usize) -> u8 {
    (row[slot >> 2] >> ((slot & 3) * 2)) & 3
}

/// Stores residue `v` for `slot` in a [`Encoding::DistanceMod3`] row.
#[inline(always)]
fn set_residue(row: &mut [u8], slot: usize, v: u8) {
    let (i, k) = (slot >> 2, (slot & 3) * 2);
    row[i] = (row[i] & !(3 << k)) | v << k;
}

#[inline(always)]
fn get_code(encoding: Encoding, row: &[u8], slot: usize) -> u8 {
    match encoding {
        Encoding::Directions8 => {
            let bit = slot * 3;
            let v = u16::from_le_bytes([row[bit >> 3], row[(bit >> 3) + 1]]);
            ((v >> (bit & 7)) & 7) as u8
        }
        _ => (row[slot >> 2] >> ((slot & 3) * 2)) & 3,
    }
}

#[inline(always)]
fn set_code(encoding: Encoding, row: &mut [u8], slot: usize, code: u8) {
    match encoding {
        Encoding::Directions8 => {
            let bit = slot * 3;
            let i = bit >> 3;
            let mut v = u16::from_le_bytes([row[i], row[i + 1]]);
            v = (v & !(7 << (bit & 7))) | (u16::from(code) << (bit & 7));
            let [a, b] = v.to_le_bytes();
            row[i] = a;
            row[i + 1] = b;
        }
        _ => {
            let shift = (slot & 3) * 2;
            row[slot >> 2] = (row[slot >> 2] & !(3 << shift)) | (code << shift);
        }
    }
}

/// One thread's scratch for computing and repairing rows.
#[derive(Debug, Default)]
struct Worker {
    /// Per padded cell: `stamp` once visited in the current pass.
    mark: Vec<u32>,
    stamp: u32,
    /// Per padded cell: distance (Dijkstra) or relative distance (repairs).
    dist: Vec<i64>,
    /// Per padded cell: old relative distance (repairs).
    old: Vec<i64>,
    queue: Vec<u32>,
    level: Vec<u32>,
    next: Vec<u32>,
    members: Vec<u32>,
    seeds: Vec<(i64, u32)>,
    fifo: Vec<(i64, u32)>,
    queues: Option<StepQueues<u64>>,
}

impl Worker {
    fn prepare(&mut self, shape: &Shape) {
        let padded = shape.costs.len();
        if self.mark.len() != padded {
            self.mark = vec![0; padded];
            self.dist = vec![0; padded];
            self.old = vec![0; padded];
            self.stamp = 0;
        }
        if self.queue.len() < padded {
            self.queue.resize(padded, 0);
        }
        if self.queues.is_none() && shape.encoding != Encoding::DistanceMod3 {
            let mut q = StepQueues::new(shape.layer);
            q.reserve(padded);
            self.queues = Some(q);
        }
    }

    /// Bytes of scratch held.
    fn memory_bytes(&self) -> usize {
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
    fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX - 1 {
            self.mark.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// Fills `row` (zeroed) for the target at padded index `target`.
    fn compute_row(&mut self, shape: &Shape, target: usize, row: &mut [u8]) {
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
    fn bfs_trits(&mut self, shape: &Shape, target: usize, row: &mut [u8]) {
        let stamp = self.next_stamp();
        let s = shape.stride;
        let (mark, queue, costs, slot_of) = (
            &mut self.mark,
            &mut self.queue,
            &shape.costs,
            &shape.slot_of,
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
            for q in [p + 1, p + s, p - 1, p - s] {
                if mark[q] != stamp && costs[q] != 0 {
                    mark[q] = stamp;
                    queue[tail] = q as u32;
                    tail += 1;
                    let slot = slot_of[q] as usize;
                    row[slot >> 2] |= trit << ((slot & 3) * 2);
                }
            }
        }
    }

    /// Dijkstra from the target, then each reached cell's first step: the first
    /// direction (in code order) onto a cheapest path.
    fn dijkstra_codes(&mut self, shape: &Shape, target: usize, row: &mut [u8]) {
        let stamp = self.next_stamp();
        let eight = shape.connectivity == Connectivity::Eight;
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
            for dir in 0..8 {
                if !eight && dir & 1 == 1 {
                    continue;
                }
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
            set_code(shape.encoding, row, shape.slot_of[p] as usize, code);
        }
    }
}

/// The first direction (code order) from `p` onto a cheapest path, given the
/// distances `dist` of its neighbours (`None` = unreached).
#[inline]
fn first_step(shape: &Shape, p: usize, dist: impl Fn(usize) -> Option<i64>) -> u8 {
    let here = dist(p).unwrap_or(i64::MAX);
    let eight = shape.connectivity == Connectivity::Eight;
    for dir in 0..8 {
        if !eight && dir & 1 == 1 {
            continue;
        }
        if let Some(q) = shape.step(p, dir)
            && let Some(d) = dist(q)
            && d + i64::from(shape.step_cost(q, dir)) == here
        {
            return if eight { dir as u8 } else { (dir / 2) as u8 };
        }
    }
    0
}

/// For every ordered pair of passable cells of a grid, the first step of a cheapest
/// path between them, in O(1); whether one can reach the other at all; and repairs
/// after edits that only touch the pairs an edit can change.
///
/// A table has one row per target cell and one entry per source cell in it (a
/// *slot*): the distance modulo 3 ([`Encoding::DistanceMod3`], 2 bits) for
/// 4-connected layers with one cost, otherwise the first step's direction (2 bits
/// 4-connected, 3 bits 8-connected). Reachability is stored once per connected
/// component, not per pair. Cells on dead-end branches (corridors that end, rooms
/// with one door) need no entries at all: see [`Slots::Passable`]. A 100x100 open grid
/// takes 20 MB, a loop-free 159x159 maze 0.8 MB; a table is for maps up to a few
/// hundred cells a side (see [`TableBuilder::estimate`] and
/// [`TableBuilder::memory_limit`]).
///
/// Ties between cheapest first steps are broken in direction order (right, down,
/// left, up; clockwise from right when 8-connected), so a table's answers depend on
/// the grid alone: not on thread count, nor on the edits that led to it.
///
/// ```
/// use tilepath::{Cell, Direction8, Grid, GridLayer, NextHopTable, TileKind};
/// let grid = Grid::from_ascii(
///     "....\n\
///      .##.\n\
///      ....",
///     |c| Some(if c == '#' { TileKind::K3 } else { TileKind::K0 }),
/// )?;
/// let table = NextHopTable::builder(GridLayer::FLOOR_ONLY).build(&grid)?;
/// let (from, to) = (Cell::new(1, 0), Cell::new(2, 2));
/// assert!(table.is_reachable(from, to));
/// assert_eq!(table.next_step(from, to), Some(Direction8::Right));
/// assert_eq!(table.hops(from, to).count(), 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct NextHopTable {
    shape: Shape,
    options: TableBuilder,
    /// One row of `row_bytes` per slot (as target).
    rows: Vec<u8>,
    row_bytes: usize,
    workers: Vec<Worker>,
}

impl Clone for NextHopTable {
    fn clone(&self) -> Self {
        Self {
            shape: self.shape.clone(),
            options: self.options,
            rows: self.rows.clone(),
            row_bytes: self.row_bytes,
            workers: Vec::new(),
        }
    }
}

impl NextHopTable {
    /// Options for a table over `layer`: 4-connected, [`Slots::Passable`], 1 GiB limit,
    /// all cores.
    #[must_use]
    pub fn builder(layer: GridLayer) -> TableBuilder {
        TableBuilder {
            layer,
            connectivity: Connectivity::Four,
            slots: Slots::Passable,
            memory_limit: TableBuilder::DEFAULT_MEMORY_LIMIT,
            threads: 0,
        }
    }

    /// How pairs are stored.
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        self.shape.encoding
    }

    /// The layer the table was built for.
    #[must_use]
    pub fn layer(&self) -> GridLayer {
        self.shape.layer
    }

    /// The connectivity the table was built for.
    #[must_use]
    pub fn connectivity(&self) -> Connectivity {
        self.shape.connectivity
    }

    /// Cells with a row and a column.
    #[must_use]
    pub fn slots(&self) -> usize {
        self.shape.cells.len()
    }

    /// Open cells on dead-end branches, answered without pair entries (see
    /// [`Slots::Passable`]).
    #[must_use]
    pub fn branch_cells(&self) -> usize {
        self.shape.branches.len()
    }

    /// Bytes held: the pair table, the per-cell index and components, and the scratch
    /// kept for repairs.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let s = &self.shape;
        let workers: usize = self.workers.iter().map(Worker::memory_bytes).sum();
        self.rows.capacity()
            + s.costs.capacity()
            + (s.slot_of.capacity() + s.open.capacity()) * 4
            + (s.cells.capacity() + s.component.capacity()) * 4
            + s.component_len.capacity() * 4
            + s.branches.memory_bytes()
            + workers
    }

    // ----- queries -----

    /// The first step of a cheapest path from `from` to `to`: `None` if they are the
    /// same cell, if either is outside the grid or blocked, or if `to` cannot be
    /// reached. O(1); allocates nothing.
    #[inline]
    #[must_use]
    pub fn next_step(&self, from: Cell, to: Cell) -> Option<Direction8> {
        let s = &self.shape;
        let p = s.padded(from)?;
        let tp = s.padded(to)?;
        let (slot, target) = (s.open[p], s.open[tp]);
        if slot == NONE || target == NONE {
            return self.branch_step(p, tp);
        }
        let (slot, target) = (slot as usize, target as usize);
        debug_assert!(slot.max(target) < s.component.len());
        // SAFETY: open slots are below `cells.len() == component.len()`.
        #[expect(unsafe_code, reason = "slots index the per-slot arrays")]
        let same = unsafe { s.component.get_unchecked(slot) == s.component.get_unchecked(target) };
        if p == tp || !same {
            return None;
        }
        self.core_step(p, slot, target)
    }

    /// The first step between two slots of one component.
    #[inline(always)]
    fn core_step(&self, p: usize, slot: usize, target: usize) -> Option<Direction8> {
        let s = &self.shape;
        debug_assert!((target + 1) * self.row_bytes <= self.rows.len());
        // SAFETY: `target` is an open slot, below `cells.len()`, and the table holds
        // `cells.len()` rows of `row_bytes`.
        #[expect(unsafe_code, reason = "slots index the rows")]
        let row = unsafe {
            self.rows
                .get_unchecked(target * self.row_bytes..(target + 1) * self.row_bytes)
        };
        Some(match s.encoding {
            Encoding::DistanceMod3 => {
                debug_assert!(slot < s.cells.len() && p + s.stride < s.open.len());
                // SAFETY: `p` is a cell inside the grid, so its 4 neighbours are
                // padded cells (the border is one cell wide); `slot` and every open
                // slot are below `cells.len()`, whose residues a row holds.
                #[expect(unsafe_code, reason = "bounds proven by the padded layout")]
                return unsafe { mod3_step(row, &s.open, p, slot, s.stride) };
            }
            Encoding::Directions4 => Direction::from_bits(get_code(s.encoding, row, slot)).into(),
            Encoding::Directions8 => Direction8::from_bits(get_code(s.encoding, row, slot)),
        })
    }

    /// The first step from `p` to `tp` (padded) when either is not a slot: on a
    /// dead-end branch, or blocked. A tree has one path between two cells: into the
    /// child whose subtree holds the target, else up; from the core to a branch, the
    /// way to the core cell its tree hangs from.
    #[inline]
    fn branch_step(&self, p: usize, tp: usize) -> Option<Direction8> {
        let s = &self.shape;
        let b = &s.branches;
        let (x, t) = (b.number(p), b.number(tp));
        if x != NONE && t != NONE {
            // Both on branches (all of a maze without loops): the common case.
            return b.same_tree_step(x, t).map(Direction8::from_bits);
        }
        if p == tp || s.component_at(p)? != s.component_at(tp)? {
            return None;
        }
        if t != NONE {
            let below = if x == NONE {
                b.anchor(t) == p as u32
            } else {
                b.below(t, x)
            };
            if below {
                return b
                    .child_towards(p, t, &s.deltas, s.dirs())
                    .map(Direction8::from_bits);
            }
            if x == NONE {
                // From the core: the same first step as to the tree's anchor, which
                // is in this component, so open.
                let anchor = b.anchor(t) as usize;
                return self.core_step(p, s.open[p] as usize, s.open[anchor] as usize);
            }
        }
        // On a branch, heading for a cell not below: up.
        match b.up(x) {
            ROOT => None,
            d => Some(Direction8::from_bits(d)),
        }
    }

    /// Whether `to` can be reached from `from` (a cell reaches itself if it is open).
    /// O(1).
    #[inline]
    #[must_use]
    pub fn is_reachable(&self, from: Cell, to: Cell) -> bool {
        let s = &self.shape;
        let component = |c: Cell| s.padded(c).and_then(|p| s.component_at(p));
        match (component(from), component(to)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    /// The steps of a cheapest path from `from` to `to`, one table lookup each (empty
    /// if there is none).
    #[must_use]
    pub fn hops(&self, from: Cell, to: Cell) -> Hops<'_> {
        Hops {
            table: self,
            at: from,
            to,
        }
    }

    /// The first 56 steps of a cheapest path as a [`GridPath`] (4-connected tables;
    /// an 8-connected table gives an empty path: use [`path8`](Self::path8)). Call
    /// again from its end for the next chunk.
    #[must_use]
    pub fn path(&self, from: Cell, to: Cell) -> GridPath {
        let mut path = GridPath::EMPTY;
        for (dir, _) in self.hops(from, to) {
            let Some(d) = dir.orthogonal() else {
                return GridPath::EMPTY;
            };
            if !path.push(d) {
                break;
            }
        }
        path
    }

    /// The first 56 steps of a cheapest path as a [`GridPath8`] (any connectivity).
    #[must_use]
    pub fn path8(&self, from: Cell, to: Cell) -> GridPath8 {
        let mut path = GridPath8::EMPTY;
        for (dir, _) in self.hops(from, to) {
            if !path.push(dir) {
                break;
            }
        }
        path
    }

    /// The cost of a cheapest path from `from` to `to` (layer costs, `sqrt 2` on
    /// diagonals), or `None` if there is none. O(path length): it walks the table.
    #[must_use]
    pub fn distance(&self, from: Cell, to: Cell) -> Option<f64> {
        if !self.is_reachable(from, to) {
            return None;
        }
        let mut cost = 0.0;
        for (dir, cell) in self.hops(from, to) {
            let c = f64::from(self.shape.real_cost(self.shape.padded(cell)?));
            cost += if dir.is_diagonal() {
                c * core::f64::consts::SQRT_2
            } else {
                c
            };
        }
        Some(cost)
    }

    /// A step that does not bring a unit at `from` closer to `threat` (by path cost):
    /// the step that increases the distance most among those the table can vouch
    /// for, `None` if every open neighbour is closer (cornered), if `threat` cannot
    /// reach `from`, or for bad cells. Allocates nothing; O(1) when a neighbour's
    /// cheapest path to `threat` runs back through `from`, O(path length) otherwise.
    #[must_use]
    pub fn step_away(&self, from: Cell, threat: Cell) -> Option<Direction8> {
        let s = &self.shape;
        let p = s.padded(from)?;
        let tp = s.padded(threat)?;
        if s.component_at(p)? != s.component_at(tp)? {
            return None;
        }
        let dirs = s.dirs();
        let (slot, target) = (s.open[p], s.open[tp]);
        if s.encoding == Encoding::DistanceMod3 && slot != NONE && target != NONE {
            let row = &self.rows[target as usize * self.row_bytes..][..self.row_bytes];
            let farther = (get_residue(row, slot as usize) + 1) % 3;
            // A branch hanging from `from` leads away from a threat in the core.
            return dirs
                .iter()
                .find(|&&d| {
                    s.step_any(p, d).is_some_and(|q| {
                        p == tp
                            || match s.open[q] {
                                NONE => true,
                                n => get_residue(row, n as usize) == farther,
                            }
                    })
                })
                .map(|&d| Direction8::from_bits(d as u8));
        }
        // A neighbour whose first step comes back here is strictly farther.
        for &d in dirs {
            if let Some(q) = s.step_any(p, d)
                && q != tp
                && self.next_step(s.cell(q), threat)
                    == Some(Direction8::from_bits(d as u8).reverse())
            {
                return Some(Direction8::from_bits(d as u8));
            }
        }
        // Otherwise compare path costs.
        let here = self.distance(from, threat)?;
        let mut best = None;
        for &d in dirs {
            if let Some(q) = s.step_any(p, d) {
                let there = self.distance(s.cell(q), threat)?;
                if there >= here - 1e-9 && best.is_none_or(|(b, _)| there > b) {
                    best = Some((there, Direction8::from_bits(d as u8)));
                }
            }
        }
        best.map(|(_, d)| d)
    }

    /// The connected component of an open cell (ids are `0..components()`).
    #[must_use]
    pub fn component(&self, cell: Cell) -> Option<u32> {
        let s = &self.shape;
        s.component_at(s.padded(cell)?)
    }

    /// The number of connected components of open cells.
    #[must_use]
    pub fn components(&self) -> usize {
        self.shape.component_len.len()
    }

    /// The number of cells of component `id` (0 for an unknown id).
    #[must_use]
    pub fn component_len(&self, id: u32) -> usize {
        self.shape
            .component_len
            .get(id as usize)
            .map_or(0, |&n| n as usize)
    }

    /// The dangling cells: open cells outside the largest component (the ones the
    /// bulk of the map cannot reach), in row-major order.
    pub fn dangling(&self) -> impl Iterator<Item = Cell> + '_ {
        let s = &self.shape;
        let main = (0..s.component_len.len())
            .max_by_key(|&i| (s.component_len[i], core::cmp::Reverse(i)))
            .map_or(NONE, |i| i as u32);
        (0..s.costs.len()).filter_map(move |p| {
            let c = s.component_at(p)?;
            (c != main).then(|| s.cell(p))
        })
    }

    // ----- building and repairing -----

    fn thread_count(&self, jobs: usize) -> usize {
        self.options.thread_count().min(jobs.div_ceil(64)).max(1)
    }

    fn prepare_workers(&mut self, threads: usize) {
        if self.workers.len() < threads {
            self.workers.resize_with(threads, Worker::default);
        }
        for w in &mut self.workers[..threads] {
            w.prepare(&self.shape);
        }
    }

    /// Computes every row.
    fn compute_all(&mut self) {
        let slots = self.shape.cells.len();
        if self.row_bytes == 0 {
            // No pair entries (e.g. a maze without loops): no scratch either.
            return;
        }
        let threads = self.thread_count(slots);
        self.prepare_workers(threads);
        let rows: Vec<(usize, &mut [u8])> = if self.row_bytes == 0 {
            Vec::new()
        } else {
            self.rows.chunks_mut(self.row_bytes).enumerate().collect()
        };
        run_rows(
            &self.shape,
            &mut self.workers[..threads],
            rows,
            |w, shape, t, row| {
                w.compute_row(shape, shape.cells[t] as usize, row);
                0
            },
        );
    }

    /// Brings the table up to date with `grid` after edits to the cells `changed`
    /// (duplicates, unchanged cells and cells outside the grid are ignored). Each edit
    /// recomputes only the targets whose rows it can change. With
    /// [`Encoding::DistanceMod3`] every row is patched around the edit (only an
    /// opening that joins components recomputes the joined component's rows: all its
    /// cross pairs are new). With the direction encodings a blocked (or dearer) cell
    /// recomputes the targets some neighbour's first step crossed it for, and an
    /// opened (or cheaper) cell its component's targets. The result equals a fresh
    /// build.
    ///
    /// # Errors
    /// [`TableError::GridMismatch`] if `grid` is another size (nothing is changed);
    /// [`TableError::TooLarge`] if opening a cell outside the slots needs a rebuild
    /// above the memory limit (the table keeps the edits listed before that cell).
    pub fn update(&mut self, grid: &Grid, changed: &[Cell]) -> Result<UpdateStats, TableError> {
        let found = (grid.width(), grid.height());
        let expected = (self.shape.width, self.shape.height);
        if found != expected {
            return Err(TableError::GridMismatch { expected, found });
        }
        let mut stats = UpdateStats::default();
        for &cell in changed {
            let Some(p) = self.shape.padded(cell) else {
                continue;
            };
            let new = grid.cost(cell, self.shape.layer);
            let branch = self.shape.branches.number(p);
            let old = match branch {
                NONE => self.shape.costs[p],
                n => self.shape.branches.cost[n as usize],
            };
            if new == old {
                continue;
            }
            stats.edits += 1;
            if branch != NONE && old != 0 {
                // A branch cell: no pair of the table runs through it. Blocking it cuts
                // its subtree off; a new cost only changes path costs.
                self.shape.branches.cost[branch as usize] = new;
                if new == 0 {
                    self.shape.label_components();
                }
                continue;
            }
            if self.shape.slot_of[p] == NONE {
                // A cell outside the slots opened (a branch cell may close a loop):
                // the layout changes.
                let rebuilt = self.options.build(grid)?;
                let workers = core::mem::take(&mut self.workers);
                *self = rebuilt;
                self.workers = workers;
                stats.rebuilt = true;
                stats.targets_recomputed = self.shape.cells.len();
                return Ok(stats);
            }
            self.apply_edit(p, old, new, &mut stats);
        }
        Ok(stats)
    }

    fn apply_edit(&mut self, p: usize, old: u8, new: u8, stats: &mut UpdateStats) {
        let here = self.shape.slot_of[p] as usize;
        let old_component = self.shape.component[here];
        let mod3 = self.shape.encoding == Encoding::DistanceMod3;
        // Rows recomputed in full, and (mod 3) rows patched in place.
        let mut full = Vec::new();
        let mut patch = Vec::new();
        if new == 0 {
            // Blocked: decide with the old rows, then relabel.
            if mod3 {
                patch = self.targets_of_component(old_component, Some(here));
            } else {
                full = self.targets_crossing(p, old_component);
            }
            self.shape.set_cost(p, 0);
            self.shape.label_components();
        } else if old == 0 {
            // Opened.
            self.shape.set_cost(p, new);
            let joined = self.neighbour_components(p);
            self.shape.label_components();
            let component = self.shape.component[here];
            let others = self.targets_of_component(component, Some(here));
            full.push(here);
            if mod3 && joined <= 1 {
                patch = others;
            } else {
                full.extend(others);
            }
        } else if new > old {
            // Dearer (a layer with several costs, so a direction encoding): only the
            // targets some cheapest path entered `p` for.
            full = self.targets_crossing(p, old_component);
            self.shape.set_cost(p, new);
        } else {
            // Cheaper: any target of the component may now route through `p`.
            self.shape.set_cost(p, new);
            full = self.targets_of_component(old_component, None);
        }
        full.sort_unstable();
        full.dedup();
        stats.targets_recomputed += full.len();
        stats.targets_patched += patch.len();
        self.recompute(&full);
        if !patch.is_empty() {
            stats.entries_patched += self.patch(&patch, p, old == 0);
        }
        if new == 0 {
            // The blocked cell's own row is unused: clear it, as a fresh build has it.
            self.rows[here * self.row_bytes..(here + 1) * self.row_bytes].fill(0);
        }
    }

    /// How many distinct components `p`'s open neighbours belong to (before `p` is
    /// labelled).
    fn neighbour_components(&self, p: usize) -> usize {
        let s = &self.shape;
        let mut seen = [NONE; 8];
        let mut n = 0;
        for d in 0..8 {
            if s.connectivity == Connectivity::Four && d & 1 == 1 {
                continue;
            }
            if let Some(q) = s.step(p, d) {
                let c = s.component[s.slot_of[q] as usize];
                if c != NONE && !seen[..n].contains(&c) {
                    seen[n] = c;
                    n += 1;
                }
            }
        }
        n
    }

    /// The open slots of component `component`, but `except`.
    fn targets_of_component(&self, component: u32, except: Option<usize>) -> Vec<usize> {
        let s = &self.shape;
        (0..s.cells.len())
            .filter(|&t| s.component[t] == component && Some(t) != except)
            .collect()
    }

    /// (Direction encodings, `p` still open.) The targets for which some neighbour of
    /// `p` steps into `p`, or diagonally past its corner, plus `p` itself.
    fn targets_crossing(&self, p: usize, component: u32) -> Vec<usize> {
        let s = &self.shape;
        let eight = s.connectivity == Connectivity::Eight;
        let mut out = Vec::new();
        let here = s.slot_of[p] as usize;
        let mut around = [(0usize, 0usize); 8];
        let mut n = 0;
        for d in 0..8 {
            let q = p.wrapping_add_signed(s.deltas[d]);
            if s.costs[q] != 0 && (eight || d & 1 == 0) {
                around[n] = (q, s.slot_of[q] as usize);
                n += 1;
            }
        }
        for t in 0..s.cells.len() {
            if s.component[t] != component {
                continue;
            }
            if t == here {
                out.push(t);
                continue;
            }
            let row = &self.rows[t * self.row_bytes..(t + 1) * self.row_bytes];
            let tp = s.cells[t] as usize;
            let crosses = around[..n].iter().any(|&(q, qs)| {
                if q == tp {
                    return false;
                }
                let code = usize::from(get_code(s.encoding, row, qs));
                let dir = if eight { code } else { code * 2 };
                let r = q.wrapping_add_signed(s.deltas[dir]);
                r == p
                    || (dir & 1 == 1
                        && (q.wrapping_add_signed(s.deltas[dir - 1]) == p
                            || q.wrapping_add_signed(s.deltas[(dir + 1) & 7]) == p))
            });
            if crosses {
                out.push(t);
            }
        }
        out
    }

    /// Recomputes the rows of `targets` in full, in parallel.
    fn recompute(&mut self, targets: &[usize]) {
        self.for_rows(targets, |w, shape, t, row| {
            w.compute_row(shape, shape.cells[t] as usize, row);
            0
        });
    }

    /// Patches the mod-3 rows of `targets` after `p` was opened (`opened`) or blocked.
    /// Returns the number of entries rewritten.
    fn patch(&mut self, targets: &[usize], p: usize, opened: bool) -> usize {
        self.for_rows(targets, |w, shape, t, row| {
            w.patch_row(shape, t, row, p, opened)
        })
    }

    /// Runs `f` on the rows of `targets` (sorted, distinct) in parallel; returns the
    /// sum of its results.
    fn for_rows<F>(&mut self, targets: &[usize], f: F) -> usize
    where
        F: Fn(&mut Worker, &Shape, usize, &mut [u8]) -> usize + Sync,
    {
        if targets.is_empty() {
            return 0;
        }
        let threads = self.thread_count(targets.len());
        self.prepare_workers(threads);
        let rows = select_rows(&mut self.rows, self.row_bytes, targets);
        run_rows(&self.shape, &mut self.workers[..threads], rows, f)
    }
}

/// The rows of `targets` (sorted, distinct), each with its slot.
fn select_rows<'a>(
    rows: &'a mut [u8],
    row_bytes: usize,
    targets: &[usize],
) -> Vec<(usize, &'a mut [u8])> {
    let mut wanted = targets.iter().copied().peekable();
    let mut out = Vec::with_capacity(targets.len());
    for (t, row) in rows.chunks_mut(row_bytes.max(1)).enumerate() {
        if wanted.peek() == Some(&t) {
            wanted.next();
            out.push((t, row));
        }
    }
    out
}

/// Runs `f` on `rows` over `workers.len()` threads, which take blocks of 32 rows
/// from a shared list; returns the sum of its results.
fn run_rows<F>(shape: &Shape, workers: &mut [Worker], rows: Vec<(usize, &mut [u8])>, f: F) -> usize
where
    F: Fn(&mut Worker, &Shape, usize, &mut [u8]) -> usize + Sync,
{
    if workers.len() == 1 {
        let w = &mut workers[0];
        return rows.into_iter().map(|(t, row)| f(w, shape, t, row)).sum();
    }
    let blocks = Mutex::new(split_blocks(rows, 32));
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|w| {
                let blocks = &blocks;
                scope.spawn(move || {
                    let mut sum = 0;
                    loop {
                        let block = blocks.lock().map_or(None, |mut b| b.pop());
                        let Some(block) = block else { break sum };
                        for (t, row) in block {
                            sum += f(w, shape, t, row);
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a table thread panicked"))
            .sum()
    })
}

/// `items` in blocks of `size`.
fn split_blocks<T>(items: Vec<T>, size: usize) -> Vec<Vec<T>> {
    let mut out = Vec::with_capacity(items.len().div_ceil(size));
    let mut block = Vec::with_capacity(size);
    for item in items {
        block.push(item);
        if block.len() == size {
            out.push(core::mem::replace(&mut block, Vec::with_capacity(size)));
        }
    }
    if !block.is_empty() {
        out.push(block);
    }
    out
}

impl Worker {
    /// Patches target `t`'s mod-3 row after the cell `c` was opened or blocked
    /// (`shape` already shows the edit). Returns the entries rewritten.
    fn patch_row(
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
    fn diff(row: &[u8], shape: &Shape, p: usize, q: usize) -> i64 {
        let a = get_residue(row, shape.slot_of[p] as usize);
        let b = get_residue(row, shape.slot_of[q] as usize);
        i64::from((b + 4 - a) % 3) - 1
    }

    /// `c` was opened: its distance is one more than its nearest neighbour's, and the
    /// cells that now get closer through it are lowered, breadth-first from `c`. The
    /// neighbours' old distances relative to each other come from the ring of 8 cells
    /// around `c` when it connects them, else (a doorway) from walking the row.
    fn patch_opened(&mut self, shape: &Shape, t: usize, row: &mut [u8], c: usize) -> usize {
        let s = shape.stride;
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
        let mut base = i64::from(get_residue(row, shape.slot_of[ring[first]] as usize));
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
            for q in [x + 1, x + s, x - 1, x - s] {
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
            set_residue(row, shape.slot_of[x] as usize, v);
        }
        tail
    }

    /// `c` was blocked: the cells whose every cheapest path ran through `c` are found
    /// level by level from `c` with the old residues, then get new distances from
    /// their unaffected neighbours, breadth-first. Distances are relative to `c`'s old
    /// one.
    fn patch_blocked(&mut self, shape: &Shape, t: usize, row: &mut [u8], c: usize) -> usize {
        let tp = shape.cells[t] as usize;
        let s = shape.stride;
        let candidate = self.next_stamp();
        let unaffected = self.next_stamp();
        let component = shape.component[t];
        let same = |q: usize| {
            shape.costs[q] != 0 && shape.component[shape.slot_of[q] as usize] == component
        };
        let mut level = core::mem::take(&mut self.level);
        let mut next = core::mem::take(&mut self.next);
        level.clear();
        self.members.clear();
        // Level 1: the neighbours one step farther than c.
        for q in [c + 1, c + s, c - 1, c - s] {
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
                let has_parent = [x + 1, x + s, x - 1, x - s].into_iter().any(|p| {
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
                for q in [x + 1, x + s, x - 1, x - s] {
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
            let best = [x + 1, x + s, x - 1, x - s]
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
        let base = i64::from(get_residue(row, shape.slot_of[c] as usize));
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
                shape.slot_of[x] as usize,
                (base + v).rem_euclid(3) as u8,
            );
            written += 1;
            for q in [x + 1, x + s, x - 1, x - s] {
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
fn walk_length(shape: &Shape, row: &[u8], from: usize, tp: usize, skip: usize) -> Option<i64> {
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

/// The steps of a cheapest path, from [`NextHopTable::hops`]: each direction with the
/// cell it arrives at.
#[derive(Clone, Debug)]
pub struct Hops<'a> {
    table: &'a NextHopTable,
    at: Cell,
    to: Cell,
}

impl Iterator for Hops<'_> {
    type Item = (Direction8, Cell);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let dir = self.table.next_step(self.at, self.to)?;
        self.at = self.at.step(dir);
        Some((dir, self.at))
    }
}
