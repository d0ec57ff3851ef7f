//! What the planner keeps per mobility, in step with the grid's edits: the connected
//! components (so that a goal out of reach is answered without searching a whole
//! component) and the clearance of units bigger than one cell.

use tilepath::{Clearance, Components, Grid, Mobility};

use crate::PathingGrid;
use crate::grid::{ChangeCursor, Changes};

/// Something derived from the grid for one mobility (one set of passable tile kinds),
/// built on first use and repaired after edits.
pub(crate) trait PerMobilityItem: Sized {
    /// Builds it for `mobility` on `grid`.
    fn build(grid: &Grid, mobility: Mobility) -> Self;
    /// Repairs it after `cells` changed on `grid`; returns the work done.
    fn repair(&mut self, grid: &Grid, cells: &[tilepath::Cell]) -> u64;
    /// Whether it serves `mobility`.
    fn serves(&self, mobility: Mobility) -> bool;
}

impl PerMobilityItem for Components {
    fn build(grid: &Grid, mobility: Mobility) -> Self {
        Components::new(grid, mobility)
    }
    fn repair(&mut self, grid: &Grid, cells: &[tilepath::Cell]) -> u64 {
        // The sizes match: a resized grid is a replaced one.
        Components::repair(self, grid, cells)
            .map_or(0, |s| (s.opened + s.closed + s.cells_searched) as u64)
    }
    fn serves(&self, mobility: Mobility) -> bool {
        Components::serves(self, mobility)
    }
}

impl PerMobilityItem for Clearance {
    fn build(grid: &Grid, mobility: Mobility) -> Self {
        Clearance::new(grid, mobility)
    }
    fn repair(&mut self, grid: &Grid, cells: &[tilepath::Cell]) -> u64 {
        Clearance::repair(self, grid, cells).map_or(0, |n| n as u64)
    }
    fn serves(&self, mobility: Mobility) -> bool {
        Clearance::serves(self, mobility)
    }
}

/// One `T` for every mobility the requests needed so far (at most 16: one per set of
/// passable tile kinds), built on first use, repaired with the tick's edits before
/// any request is solved, forgotten when the grid is replaced.
pub(crate) struct PerMobility<T> {
    items: Vec<T>,
    /// Where the items were last repaired up to in the grid's change log.
    cursor: ChangeCursor,
}

impl<T> Default for PerMobility<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            cursor: ChangeCursor::default(),
        }
    }
}

impl<T: PerMobilityItem> PerMobility<T> {
    /// Brings the kept items in step with the grid; forgets them when the grid was
    /// replaced. Returns the work done.
    pub(crate) fn maintain(&mut self, grid: &PathingGrid) -> u64 {
        let changes = grid.changes_since(self.cursor);
        self.cursor = grid.change_cursor();
        match changes {
            Changes::Replaced => {
                self.items.clear();
                0
            }
            Changes::Cells(cells) => self
                .items
                .iter_mut()
                .map(|item| item.repair(grid.grid(), cells))
                .sum(),
        }
    }

    /// Builds the items `mobilities` need and do not have yet. Returns the work done
    /// (cells read).
    pub(crate) fn prepare(
        &mut self,
        grid: &Grid,
        mobilities: impl Iterator<Item = Mobility>,
    ) -> u64 {
        let mut work = 0;
        for mobility in mobilities {
            if self.get(mobility).is_none() {
                self.items.push(T::build(grid, mobility));
                work += grid.len() as u64;
            }
        }
        work
    }

    /// The item serving `mobility`, if built.
    pub(crate) fn get(&self, mobility: Mobility) -> Option<&T> {
        self.items.iter().find(|p| p.serves(mobility))
    }
}
