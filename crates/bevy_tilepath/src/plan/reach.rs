//! What the planner keeps per mobility, in step with the grid's edits: the connected
//! components (so that a goal out of reach is answered without searching a whole
//! component), the clearance of units bigger than one cell, and the components of
//! their footprints.

use tilepath::{Clearance, Components, Connectivity, Grid, Mobility};

use crate::PathingGrid;
use crate::grid::{ChangeCursor, Changes};

/// Something derived from the grid for one mobility (one set of passable tile kinds)
/// and way of moving, built on first use and repaired after edits.
pub(crate) trait PerMobilityItem: Sized {
    /// Builds it for `mobility` moving as `connectivity` on `grid`.
    fn build(grid: &Grid, mobility: Mobility, connectivity: Connectivity) -> Self;
    /// Repairs it after `cells` changed on `grid`; returns the work done.
    fn repair(&mut self, grid: &Grid, cells: &[tilepath::Cell]) -> u64;
    /// Whether it serves `mobility` moving as `connectivity`.
    fn serves(&self, mobility: Mobility, connectivity: Connectivity) -> bool;
}

/// Which connectivities share components: 4- and 8-connected units reach the same
/// cells (a diagonal step needs both orthogonal ones open); each hex layout its own.
fn reach_class(connectivity: Connectivity) -> Option<tilepath::HexLayout> {
    match connectivity {
        Connectivity::Hex(layout) => Some(layout),
        Connectivity::Four | Connectivity::Eight => None,
    }
}

impl PerMobilityItem for Components {
    fn build(grid: &Grid, mobility: Mobility, connectivity: Connectivity) -> Self {
        Components::with_connectivity(grid, mobility, connectivity)
    }
    fn repair(&mut self, grid: &Grid, cells: &[tilepath::Cell]) -> u64 {
        // The sizes match: a resized grid is a replaced one.
        Components::repair(self, grid, cells)
            .map_or(0, |s| (s.opened + s.closed + s.cells_searched) as u64)
    }
    fn serves(&self, mobility: Mobility, connectivity: Connectivity) -> bool {
        Components::serves(self, mobility)
            && reach_class(self.connectivity()) == reach_class(connectivity)
    }
}

/// Clearance is for square footprints: the planner refuses sized units on hex maps.
impl PerMobilityItem for Clearance {
    fn build(grid: &Grid, mobility: Mobility, _: Connectivity) -> Self {
        Clearance::new(grid, mobility)
    }
    fn repair(&mut self, grid: &Grid, cells: &[tilepath::Cell]) -> u64 {
        Clearance::repair(self, grid, cells).map_or(0, |n| n as u64)
    }
    fn serves(&self, mobility: Mobility, _: Connectivity) -> bool {
        Clearance::serves(self, mobility)
    }
}

/// One `T` for every mobility the requests needed so far (at most 16: one per set of
/// passable tile kinds; a grid's units all move square-wise or all hex-wise), built on first use, repaired with the tick's edits before
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

    /// Builds the items the `(mobility, connectivity)` pairs need and do not have
    /// yet. Returns the work done (cells read).
    pub(crate) fn prepare(
        &mut self,
        grid: &Grid,
        needs: impl Iterator<Item = (Mobility, Connectivity)>,
    ) -> u64 {
        let mut work = 0;
        for (mobility, connectivity) in needs {
            if self.get(mobility, connectivity).is_none() {
                self.items.push(T::build(grid, mobility, connectivity));
                work += grid.len() as u64;
            }
        }
        work
    }

    /// The item serving `mobility` moving as `connectivity`, if built.
    pub(crate) fn get(&self, mobility: Mobility, connectivity: Connectivity) -> Option<&T> {
        self.items.iter().find(|p| p.serves(mobility, connectivity))
    }
}

/// The components of big units' footprints, per mobility and unit size, so that a
/// goal out of a big unit's reach is answered without searching all it can reach.
/// Built from the mobility's [`Clearance`] on first use, repaired after it with the
/// tick's edits, forgotten when the grid is replaced.
#[derive(Default)]
pub(crate) struct SizedReach {
    items: Vec<(Mobility, Components)>,
    cursor: ChangeCursor,
}

impl SizedReach {
    /// Brings the components in step with the grid, once `clearance` is (its
    /// [`maintain`](PerMobility::maintain) ran first). Returns the work done.
    pub(crate) fn maintain(
        &mut self,
        grid: &PathingGrid,
        clearance: &PerMobility<Clearance>,
    ) -> u64 {
        let changes = grid.changes_since(self.cursor);
        self.cursor = grid.change_cursor();
        match changes {
            Changes::Replaced => {
                self.items.clear();
                0
            }
            Changes::Cells(cells) => {
                let mut work = 0;
                // A footprint's components without their clearance cannot be repaired:
                // dropped, built again on use.
                self.items.retain_mut(|(mobility, parts)| {
                    let Some(clear) = clearance.get(*mobility, Connectivity::Four) else {
                        return false;
                    };
                    match parts.repair_footprint(clear, cells) {
                        Ok(s) => {
                            work += (s.opened + s.closed + s.cells_searched) as u64;
                            true
                        }
                        Err(_) => false,
                    }
                });
                work
            }
        }
    }

    /// Builds the components the `(mobility, size)` pairs need (sizes above 1) and do
    /// not have yet, from `clearance` (prepared first). Returns the work done (cells
    /// read).
    pub(crate) fn prepare(
        &mut self,
        grid: &Grid,
        clearance: &PerMobility<Clearance>,
        needs: impl Iterator<Item = (Mobility, u8)>,
    ) -> u64 {
        let mut work = 0;
        for (mobility, size) in needs {
            if size > 1
                && self.get(mobility, size).is_none()
                && let Some(clear) = clearance.get(mobility, Connectivity::Four)
                && let Ok(parts) = Components::try_for_footprint(clear.footprint(size))
            {
                work += grid.len() as u64;
                self.items.push((mobility, parts));
            }
        }
        work
    }

    /// The components of `size x size` footprints of `mobility`, if built.
    pub(crate) fn get(&self, mobility: Mobility, size: u8) -> Option<&Components> {
        self.items
            .iter()
            .map(|(_, parts)| parts)
            .find(|p| p.serves(mobility) && p.unit_size() == size)
    }
}
