//! How a table is asked for: its encoding, entry modes, builder, errors and figures.

use super::*;
use crate::GridMismatch;

/// How a [`NextHopTable`] stores a pair.
///
/// Chosen by the table from its mobility and connectivity; see
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
    pub(super) fn of(mobility: Mobility, connectivity: Connectivity) -> Self {
        match connectivity {
            // Hex tables are refused before anything is built; an estimate counts them
            // as 8-connected ones.
            Connectivity::Eight | Connectivity::Hex(_) => Self::Directions8,
            Connectivity::Four if uniform_cost(mobility).is_some() => Self::DistanceMod3,
            Connectivity::Four => Self::Directions4,
        }
    }

    /// Bytes of one row of `entries` entries.
    pub(super) fn row_bytes(self, entries: usize) -> usize {
        match self {
            Self::DistanceMod3 => entries.div_ceil(4),
            Self::Directions4 => entries.div_ceil(4),
            // 3 bits, read and written as a little-endian u16: one spare byte.
            Self::Directions8 => (entries * 3).div_ceil(8) + 1,
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

/// Cells of `grid` with a blocked border one cell wide around it.
fn padded_len(grid: &Grid) -> u64 {
    (u64::from(grid.width()) + 2) * (u64::from(grid.height()) + 2)
}

/// The one cost of every passable kind of `mobility`, if they share one.
pub(super) fn uniform_cost(mobility: Mobility) -> Option<u8> {
    let mut costs = mobility.costs().into_iter().filter(|&c| c != 0);
    let first = costs.next().unwrap_or(1);
    costs.all(|c| c == first).then_some(first)
}

/// Which cells get a row and a column in the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TableCells {
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
        /// Bytes the table would take, at least: its [`MemoryEstimate::total_bytes`]
        /// (what the limit is compared with), or, when the part of that total which
        /// does not depend on the entries is alone above the limit, that part (the
        /// build is then refused without counting the entries, allocating nothing).
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// The grid passed to [`NextHopTable::repair`] is not the size the table was built
    /// for (nothing was changed).
    GridMismatch(GridMismatch),
    /// The system could not give the memory the table needs, although it is within
    /// the memory limit (nothing was allocated for the table).
    OutOfMemory {
        /// Bytes the table needs: [`MemoryEstimate::total_bytes`].
        bytes: u64,
    },
    /// Next-hop tables serve square maps (4- or 8-connected) only; a
    /// [`Connectivity::Hex`] table is refused before anything is allocated. Hex maps
    /// may come later; use [`DistanceField`](crate::DistanceField)s or A* there.
    HexUnsupported,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { needed, limit } => write!(
                f,
                "a next-hop table for this grid needs at least {needed} bytes, above the \
                 limit of {limit}"
            ),
            Self::GridMismatch(m) => write!(f, "the next-hop table was {m}"),
            Self::OutOfMemory { bytes } => {
                write!(f, "out of memory: the table needs {bytes} bytes")
            }
            Self::HexUnsupported => {
                f.write_str("next-hop tables serve square maps only, not hex maps")
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
    /// see [`TableCells::Passable`]).
    pub table_cells: u64,
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

/// What an [`update`](NextHopTable::repair) did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RepairStats {
    /// Cells whose passability or cost changed.
    pub edits: usize,
    /// Targets whose row was recomputed from scratch.
    pub targets_recomputed: usize,
    /// Targets whose row was patched locally ([`Encoding::DistanceMod3`] only).
    pub targets_patched: usize,
    /// Entries rewritten by local patches.
    pub entries_patched: usize,
    /// Whether the whole table was rebuilt (a cell outside the entries was opened).
    pub rebuilt: bool,
}

/// Options of a [`NextHopTable`]: connectivity, entries, memory limit, threads.
#[derive(Clone, Copy, Debug)]
pub struct TableBuilder {
    pub(super) mobility: Mobility,
    pub(super) connectivity: Connectivity,
    pub(super) table_cells: TableCells,
    pub(super) memory_limit: u64,
    pub(super) threads: usize,
}

impl TableBuilder {
    /// The default limit: 1 GiB.
    pub const DEFAULT_MEMORY_LIMIT: u64 = 1 << 30;

    /// Sets the connectivity (default 4). Hex maps are not supported:
    /// [`build`](Self::build) refuses them ([`TableError::HexUnsupported`]).
    #[must_use]
    pub fn connectivity(mut self, connectivity: Connectivity) -> Self {
        self.connectivity = connectivity;
        self
    }

    /// Sets which cells get entries (default [`TableCells::Passable`]).
    #[must_use]
    pub fn table_cells(mut self, cells: TableCells) -> Self {
        self.table_cells = cells;
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

    pub(super) fn thread_count(&self) -> usize {
        if self.threads > 0 {
            self.threads
        } else {
            std::thread::available_parallelism().map_or(1, usize::from)
        }
    }

    /// Threads a build uses for `jobs` rows: see `NextHopTable::thread_count`.
    pub(super) fn threads_for(&self, jobs: usize) -> usize {
        self.thread_count().min(jobs.div_ceil(64)).max(1)
    }

    /// Bytes of one build thread's scratch per padded cell.
    pub(super) fn worker_bytes_per_cell(&self) -> u64 {
        // Marks (4), distances and old distances (8 + 8), queue (4).
        let base = 24;
        match Encoding::of(self.mobility, self.connectivity) {
            Encoding::DistanceMod3 => base,
            // The seeds and two FIFOs per distinct cost, 16 bytes an entry each.
            _ => {
                let mut costs = self.mobility.costs();
                costs.sort_unstable();
                let distinct = (0..4)
                    .filter(|&i| costs[i] != 0 && (i == 0 || costs[i - 1] != costs[i]))
                    .count() as u64;
                base + 16 * (1 + 2 * distinct)
            }
        }
    }

    /// Threads a build of a table of `entries` entries computes its rows with: none
    /// when it has no entries (no rows, no scratch).
    pub(super) fn build_threads(&self, entries: usize) -> usize {
        if entries == 0 {
            0
        } else {
            self.threads_for(entries)
        }
    }

    /// Bytes every build for `grid` allocates whatever its entries: per padded cell
    /// its cost (1), entry index and open entry (8) and the temporaries of finding the
    /// branches (4); a few fixed buffers. Part of [`needs`](Self::needs)'s total and
    /// never above it, so a build may be refused on it alone without counting the
    /// entries. Computed without allocating.
    fn fixed_bytes(grid: &Grid) -> u64 {
        padded_len(grid).saturating_mul(13).saturating_add(4096)
    }

    /// The entries and the open branch cells (those of [`TableCells::Passable`] left
    /// out of the table) a table for `grid` would have.
    ///
    /// Counting the branches takes a few bytes per padded cell for a moment (far less
    /// than [`fixed_bytes`](Self::fixed_bytes)); when the system cannot give them,
    /// every open cell is counted as an entry instead (an upper bound: such a grid
    /// is beyond the system's memory anyway).
    fn entries(&self, grid: &Grid) -> (u64, u64) {
        let open = || {
            (0..grid.len())
                .filter(|&i| self.mobility.cost_of_bits(grid.bits_at(i)) != 0)
                .count() as u64
        };
        match self.table_cells {
            TableCells::AllCells => (grid.len() as u64, 0),
            // Padded costs, roles and degrees: a byte each per padded cell.
            TableCells::Passable
                if crate::memory::ensure(padded_len(grid).saturating_mul(3)).is_err() =>
            {
                (open(), 0)
            }
            TableCells::Passable => {
                let costs = padded_costs(grid, self.mobility);
                let role = roles(
                    &costs,
                    grid.width() as usize + 2,
                    self.connectivity,
                    self.table_cells,
                );
                let core = role.iter().filter(|&&r| r == CORE).count() as u64;
                let open = costs.iter().filter(|&&c| c != 0).count() as u64;
                (core, open - core)
            }
        }
    }

    /// What a build for `grid` needs: the one computation behind both
    /// [`estimate`](Self::estimate) and the [memory limit](Self::memory_limit)'s check,
    /// so that a limit at or above the estimate always builds. It does not depend on
    /// the limit.
    fn needs(&self, grid: &Grid) -> MemoryEstimate {
        let (entries, branch_cells) = self.entries(grid);
        let encoding = Encoding::of(self.mobility, self.connectivity);
        let row_bytes = encoding.row_bytes(entries as usize) as u64;
        let threads = self.build_threads(entries as usize) as u64;
        let table_bytes = row_bytes.saturating_mul(entries);
        let padded = padded_len(grid);
        // The fixed part; cell + component (8) per entry, the flood fill's stack (8)
        // and the list of rows handed to the threads (24, twice while it is split into
        // blocks); the branches; per thread its scratch.
        let index = Self::fixed_bytes(grid)
            .saturating_add(entries.saturating_mul(64))
            .saturating_add(Branches::bytes_for(branch_cells, padded));
        let scratch = padded
            .saturating_mul(self.worker_bytes_per_cell())
            .saturating_mul(threads);
        MemoryEstimate {
            table_cells: entries,
            encoding,
            table_bytes,
            total_bytes: table_bytes.saturating_add(index).saturating_add(scratch),
        }
    }

    /// What a table for `grid` would take, without building it (for a hex
    /// connectivity, which [`build`](Self::build) refuses, an 8-connected table's).
    /// The [memory limit](Self::memory_limit) does not change it, and a build whose
    /// limit is at least its `total_bytes` is not refused as too large.
    ///
    /// Counting the entries of [`TableCells::Passable`] takes about 3 bytes per cell
    /// for a moment (when the system cannot give them, every open cell is counted as
    /// an entry: an upper bound).
    #[must_use]
    pub fn estimate(&self, grid: &Grid) -> MemoryEstimate {
        if let Connectivity::Hex(_) = self.connectivity {
            return self.connectivity(Connectivity::Eight).estimate(grid);
        }
        self.needs(grid)
    }

    /// Builds the table for `grid`.
    ///
    /// # Errors
    /// [`TableError::HexUnsupported`] for a hex connectivity;
    /// [`TableError::TooLarge`] if [`estimate`](Self::estimate)'s total exceeds the
    /// memory limit (checked before anything but the estimate's own count is
    /// allocated, and before that count when the part of the total every table for
    /// the grid needs is alone above the limit); [`TableError::OutOfMemory`] if the
    /// system cannot give that total.
    pub fn build(&self, grid: &Grid) -> Result<NextHopTable, TableError> {
        if let Connectivity::Hex(_) = self.connectivity {
            return Err(TableError::HexUnsupported);
        }
        // Even the part that does not depend on the entries is above the limit: refused
        // without counting them (which would allocate).
        let fixed = Self::fixed_bytes(grid);
        if fixed > self.memory_limit {
            return Err(TableError::TooLarge {
                needed: fixed,
                limit: self.memory_limit,
            });
        }
        let estimate = self.needs(grid);
        if estimate.total_bytes > self.memory_limit {
            return Err(TableError::TooLarge {
                needed: estimate.total_bytes,
                limit: self.memory_limit,
            });
        }
        crate::memory::ensure(estimate.total_bytes)
            .map_err(|bytes| TableError::OutOfMemory { bytes })?;
        let shape = Shape::new(grid, self.mobility, self.connectivity, self.table_cells);
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
