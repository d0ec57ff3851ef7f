//! The grid's change log: every cell set, in order, read by several readers at their
//! own pace.
//!
//! The plugin reads it twice a tick at different moments (collecting requests, then
//! repairing distance fields while solving), and a game system may edit the grid in
//! between. Each reader keeps a [`ChangeCursor`]; an entry is dropped only once every
//! reader has passed it, so no reader ever misses an edit.

use core::sync::atomic::{AtomicU64, Ordering};

use tilepath::Cell;

/// The next replacement epoch of any change log (0 is a fresh log's).
static NEXT_EPOCH: AtomicU64 = AtomicU64::new(1);

/// A position in the change log. Take one with
/// [`PathingGrid::change_cursor`](super::PathingGrid::change_cursor).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChangeCursor {
    /// Sequence number of the next entry to read.
    seq: u64,
    /// The replacement epoch the cursor was taken in.
    epoch: u64,
}

/// What changed since a [`ChangeCursor`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changes<'a> {
    /// These cells were set (in order; a cell may appear more than once).
    Cells(&'a [Cell]),
    /// The whole grid was replaced: treat every cell as changed.
    Replaced,
}

#[derive(Default)]
pub(super) struct ChangeLog {
    cells: Vec<Cell>,
    /// Sequence number of `cells[0]`.
    start: u64,
    /// Bumped whenever older cursors can no longer be answered cell by cell.
    epoch: u64,
}

/// Entries kept at most before the log collapses into "replaced": a log nobody reads
/// (the plugin's schedule paused) must not grow without bound, and past this many
/// changes replanning everything costs no more than reading them.
fn capacity(grid_len: usize) -> usize {
    (grid_len / 16).clamp(1024, 1 << 20)
}

impl ChangeLog {
    pub(super) fn cursor(&self) -> ChangeCursor {
        ChangeCursor {
            seq: self.start + self.cells.len() as u64,
            epoch: self.epoch,
        }
    }

    pub(super) fn record(&mut self, cell: Cell, grid_len: usize) {
        if self.cells.len() >= capacity(grid_len) {
            self.replaced();
        } else {
            self.cells.push(cell);
        }
    }

    pub(super) fn replaced(&mut self) {
        self.start += self.cells.len() as u64;
        self.cells.clear();
        // Unique across every grid: a cursor taken on one grid (a map's grid swapped
        // for another value) never reads another grid's log as its own.
        self.epoch = NEXT_EPOCH.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn since(&self, cursor: ChangeCursor) -> Changes<'_> {
        if cursor.epoch != self.epoch || cursor.seq < self.start {
            return Changes::Replaced;
        }
        let from = usize::try_from(cursor.seq - self.start).unwrap_or(usize::MAX);
        Changes::Cells(self.cells.get(from..).unwrap_or(&[]))
    }

    pub(super) fn pending(&self) -> &[Cell] {
        &self.cells
    }

    pub(super) fn forget_before(&mut self, cursor: ChangeCursor) {
        if cursor.epoch != self.epoch || cursor.seq <= self.start {
            return;
        }
        let n = usize::try_from(cursor.seq - self.start)
            .unwrap_or(usize::MAX)
            .min(self.cells.len());
        self.cells.drain(..n);
        self.start += n as u64;
    }
}
