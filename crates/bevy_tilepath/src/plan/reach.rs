//! What the planner keeps per mobility, in step with the grid's edits: the connected
//! components (so that a goal out of reach is answered without searching a whole
//! component), the clearance of units bigger than one cell, and the components of
//! their footprints.

use tilepath::{Clearance, Components, Connectivity, Grid, GridError, HexLayout, Mobility};

use super::background::{BACKGROUND_CELLS, Builds, REPAIR_IN_TICK, catch_up_limit, in_background};
use crate::PathingGrid;
use crate::grid::{ChangeCursor, Changes};

/// Something derived from the grid for one mobility (one set of passable tile kinds)
/// and way of moving, built on first use and repaired after edits.
pub(crate) trait PerMobilityItem: Sized + Send + 'static {
    /// What tells two items apart: the mobilities and connectivities one item serves
    /// share it.
    type Key: PartialEq + Copy + Send + 'static;
    /// The key of the item serving `mobility` moving as `connectivity`.
    fn key(mobility: Mobility, connectivity: Connectivity) -> Self::Key;
    /// Builds it for `mobility` moving as `connectivity` on `grid`, or fails when its
    /// memory cannot be had.
    fn build(
        grid: &Grid,
        mobility: Mobility,
        connectivity: Connectivity,
    ) -> Result<Self, GridError>;
    /// Repairs it after `cells` changed on `grid`, a search for what an edit cut
    /// apart crossing at most `most` cells (past that, it is left unsettled:
    /// [`is_settled`](Self::is_settled)); returns the work done.
    fn repair(&mut self, grid: &Grid, cells: &[tilepath::Cell], most: usize) -> u64;
    /// Whether it is exact (a bounded repair may leave it only conservative, to be
    /// built again in the background).
    fn is_settled(&self) -> bool {
        true
    }
    /// Whether it serves `mobility` moving as `connectivity`.
    fn serves(&self, mobility: Mobility, connectivity: Connectivity) -> bool;
    /// Whether it is built in the background on `grid`: only items the searches can
    /// do without until they are ready, and only on grids big enough that a build
    /// would stall the tick.
    fn in_background(_grid: &Grid) -> bool {
        false
    }
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
    type Key = (u8, Option<HexLayout>);
    fn key(mobility: Mobility, connectivity: Connectivity) -> Self::Key {
        (mobility.passable_kinds(), reach_class(connectivity))
    }
    fn build(
        grid: &Grid,
        mobility: Mobility,
        connectivity: Connectivity,
    ) -> Result<Self, GridError> {
        Components::try_with_connectivity(grid, mobility, connectivity)
    }
    fn repair(&mut self, grid: &Grid, cells: &[tilepath::Cell], most: usize) -> u64 {
        // The sizes match: a resized grid is a replaced one.
        Components::repair_within(self, grid, cells, most)
            .map_or(0, |s| (s.opened + s.closed + s.cells_searched) as u64)
    }
    /// Unsettled components only say "reachable" too often: searches stay exact.
    fn is_settled(&self) -> bool {
        Components::is_settled(self)
    }
    fn serves(&self, mobility: Mobility, connectivity: Connectivity) -> bool {
        Components::serves(self, mobility)
            && reach_class(self.connectivity()) == reach_class(connectivity)
    }
    /// Searches without components only lose the bound on goals out of reach.
    fn in_background(grid: &Grid) -> bool {
        grid.len() > BACKGROUND_CELLS
    }
}

/// Clearance is for square footprints: the planner refuses sized units on hex maps.
impl PerMobilityItem for Clearance {
    type Key = u8;
    fn key(mobility: Mobility, _: Connectivity) -> Self::Key {
        mobility.passable_kinds()
    }
    fn build(grid: &Grid, mobility: Mobility, _: Connectivity) -> Result<Self, GridError> {
        Clearance::try_new(grid, mobility)
    }
    fn repair(&mut self, grid: &Grid, cells: &[tilepath::Cell], _most: usize) -> u64 {
        Clearance::repair(self, grid, cells).map_or(0, |n| n as u64)
    }
    fn serves(&self, mobility: Mobility, _: Connectivity) -> bool {
        Clearance::serves(self, mobility)
    }
}

/// One `T` for every mobility the requests needed so far (at most 16: one per set of
/// passable tile kinds; a grid's units all move square-wise or all hex-wise), built on
/// first use (in the background where [`PerMobilityItem::in_background`] says so),
/// repaired with the tick's edits before any request is solved, forgotten when the
/// grid is replaced.
pub(crate) struct PerMobility<T: PerMobilityItem> {
    items: Vec<Built<T>>,
    /// Items being built in the background.
    building: Builds<T::Key, Result<Built<T>, GridError>>,
    /// Items whose build failed (out of memory): not tried again until the grid is
    /// replaced, so that a failing build does not stall every tick.
    failed: Vec<T::Key>,
    /// Where the items were last repaired up to in the grid's change log.
    cursor: ChangeCursor,
}

/// An item, with what it was built for.
struct Built<T: PerMobilityItem> {
    key: T::Key,
    mobility: Mobility,
    connectivity: Connectivity,
    item: T,
}

impl<T: PerMobilityItem> Built<T> {
    /// Builds the item for `mobility` moving as `connectivity` on `grid`.
    fn build(
        grid: &Grid,
        mobility: Mobility,
        connectivity: Connectivity,
    ) -> Result<Self, GridError> {
        Ok(Self {
            key: T::key(mobility, connectivity),
            mobility,
            connectivity,
            item: T::build(grid, mobility, connectivity)?,
        })
    }

    /// Starts building it again on `grid` in the background, into `building`.
    fn spawn(
        grid: &Grid,
        (mobility, connectivity): (Mobility, Connectivity),
        building: &mut Builds<T::Key, Result<Self, GridError>>,
    ) -> bool {
        building.spawn(
            T::key(mobility, connectivity),
            // The cells alone, not the rows or distances the grid keeps.
            || grid.copy_cells(),
            move |copy| Self::build(&copy?, mobility, connectivity),
        )
    }
}

impl<T: PerMobilityItem> Default for PerMobility<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            building: Builds::default(),
            failed: Vec::new(),
            cursor: ChangeCursor::default(),
        }
    }
}

impl<T: PerMobilityItem> PerMobility<T> {
    /// Brings the kept items in step with the grid, and takes those whose build
    /// finished (repaired with the edits made meanwhile); forgets them all when the
    /// grid was replaced. On grids whose items are built in the background, a repair
    /// searches at most [`REPAIR_IN_TICK`] cells for what an edit cut apart; an item it
    /// leaves unsettled keeps answering (conservatively) while it is built again in
    /// the background. Returns the work done.
    pub(crate) fn maintain(&mut self, grid: &PathingGrid) -> u64 {
        let changes = grid.take_changes(&mut self.cursor);
        let cells = match changes {
            Changes::Replaced => {
                self.items.clear();
                self.building.clear();
                self.failed.clear();
                return 0;
            }
            Changes::Cells(cells) => cells,
        };
        let most = if T::in_background(grid.grid()) && in_background() {
            REPAIR_IN_TICK
        } else {
            usize::MAX
        };
        let mut work: u64 = self
            .items
            .iter_mut()
            .map(|k| k.item.repair(grid.grid(), cells, most))
            .sum();
        self.building.note(cells, catch_up_limit(grid.grid().len()));
        let (items, failed) = (&mut self.items, &mut self.failed);
        self.building.finish(|key, built, changed| match built {
            Ok(mut built) => {
                work += built.item.repair(grid.grid(), changed, most);
                // In place of the unsettled one it was built again for.
                items.retain(|k| k.key != key);
                items.push(built);
            }
            Err(_) => failed.push(key),
        });
        for k in &self.items {
            if !k.item.is_settled() && !self.building.contains(&k.key) {
                Built::spawn(
                    grid.grid(),
                    (k.mobility, k.connectivity),
                    &mut self.building,
                );
            }
        }
        work
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
            let key = T::key(mobility, connectivity);
            if self.get(mobility, connectivity).is_some()
                || self.building.contains(&key)
                || self.failed.contains(&key)
            {
                continue;
            }
            if T::in_background(grid)
                && Built::spawn(grid, (mobility, connectivity), &mut self.building)
            {
                continue;
            }
            match Built::build(grid, mobility, connectivity) {
                Ok(built) => self.items.push(built),
                Err(_) => self.failed.push(key),
            }
            work += grid.len() as u64;
        }
        work
    }

    /// Items being built in the background.
    pub(crate) fn building(&self) -> u32 {
        self.building.len() as u32
    }

    /// The item serving `mobility` moving as `connectivity`, if built.
    pub(crate) fn get(&self, mobility: Mobility, connectivity: Connectivity) -> Option<&T> {
        self.items
            .iter()
            .map(|k| &k.item)
            .find(|p| p.serves(mobility, connectivity))
    }

    /// Whether the items are in step with `grid`: no cell set since they were last
    /// repaired.
    pub(crate) fn is_current(&self, grid: &PathingGrid) -> bool {
        grid.changes_since(self.cursor) == Changes::Cells(&[])
    }
}

impl PerMobility<Clearance> {
    /// Keeps the bit rows of the `(mobility, size)` pairs' sizes in their mobility's
    /// clearance (prepared first), for jump point search. Returns the work done (cells
    /// read). A size whose rows cannot have their memory is searched from the values.
    pub(crate) fn keep_rows(
        &mut self,
        grid: &Grid,
        needs: impl Iterator<Item = (Mobility, u8)>,
    ) -> u64 {
        let mut work = 0;
        for (mobility, size) in needs {
            if let Some(clear) = self
                .items
                .iter_mut()
                .map(|k| &mut k.item)
                .find(|c| c.serves(mobility))
                && !clear.keeps_rows(size)
                && clear.keep_rows(size).is_ok()
            {
                work += grid.len() as u64;
            }
        }
        work
    }
}

/// The components of big units' footprints, per mobility and unit size, so that a
/// goal out of a big unit's reach is answered without searching all it can reach.
/// Built from the mobility's [`Clearance`] on first use, repaired after it with the
/// tick's edits, forgotten when the grid is replaced.
#[derive(Default)]
pub(crate) struct SizedReach {
    items: Vec<(Mobility, Components)>,
    /// Components being built in the background from a copy of their clearance, by
    /// mobility (of the kinds it enters) and size.
    building: Builds<(Mobility, u8), Result<Components, GridError>>,
    /// Passable kinds and sizes whose build failed (out of memory): not tried again
    /// until the grid is replaced.
    failed: Vec<(u8, u8)>,
    cursor: ChangeCursor,
}

impl SizedReach {
    /// Brings the components in step with the grid, once `clearance` is (its
    /// [`maintain`](PerMobility::maintain) ran first), and takes those whose build
    /// finished (repaired with the edits made meanwhile). Returns the work done.
    pub(crate) fn maintain(
        &mut self,
        grid: &PathingGrid,
        clearance: &PerMobility<Clearance>,
    ) -> u64 {
        let changes = grid.take_changes(&mut self.cursor);
        let cells = match changes {
            Changes::Replaced => {
                self.items.clear();
                self.building.clear();
                self.failed.clear();
                return 0;
            }
            Changes::Cells(cells) => cells,
        };
        let mut work = 0;
        // A footprint's components without their clearance cannot be repaired:
        // dropped, built again on use.
        let mut repair = |mobility: Mobility, parts: &mut Components, cells: &[tilepath::Cell]| {
            let Some(clear) = clearance.get(mobility, Connectivity::Four) else {
                return false;
            };
            match parts.repair_footprint(clear, cells) {
                Ok(s) => {
                    work += (s.opened + s.closed + s.cells_searched) as u64;
                    true
                }
                Err(_) => false,
            }
        };
        self.items
            .retain_mut(|(mobility, parts)| repair(*mobility, parts, cells));
        self.building.note(cells, catch_up_limit(grid.grid().len()));
        let (items, failed) = (&mut self.items, &mut self.failed);
        self.building
            .finish(|(mobility, size), built, changed| match built {
                Ok(mut parts) => {
                    if repair(mobility, &mut parts, changed) {
                        items.push((mobility, parts));
                    }
                }
                Err(_) => failed.push((mobility.passable_kinds(), size)),
            });
        work
    }

    /// Builds the components the `(mobility, size)` pairs need (sizes above 1) and do
    /// not have yet, from `clearance` (prepared first): in the background on big grids
    /// (as one-cell components are), from a copy of the clearance. Returns the work
    /// done here (cells read).
    pub(crate) fn prepare(
        &mut self,
        grid: &Grid,
        clearance: &PerMobility<Clearance>,
        needs: impl Iterator<Item = (Mobility, u8)>,
    ) -> u64 {
        let mut work = 0;
        for (mobility, size) in needs {
            // Mobilities entering the same kinds share components.
            let kinds = mobility.passable_kinds();
            let building = self
                .building
                .any(|&(m, s)| s == size && m.passable_kinds() == kinds);
            if size <= 1
                || building
                || self.failed.contains(&(kinds, size))
                || self.get(mobility, size).is_some()
            {
                continue;
            }
            let Some(clear) = clearance.get(mobility, Connectivity::Four) else {
                continue;
            };
            if <Components as PerMobilityItem>::in_background(grid)
                && self.building.spawn(
                    (mobility, size),
                    || clear.clone(),
                    move |copy| Components::try_for_footprint(copy.footprint(size)),
                )
            {
                continue;
            }
            match Components::try_for_footprint(clear.footprint(size)) {
                Ok(parts) => self.items.push((mobility, parts)),
                Err(_) => self.failed.push((kinds, size)),
            }
            work += grid.len() as u64;
        }
        work
    }

    /// Components being built in the background.
    pub(crate) fn building(&self) -> u32 {
        self.building.len() as u32
    }

    /// Whether the components are in step with `grid`: no cell set since they were
    /// last repaired.
    pub(crate) fn is_current(&self, grid: &PathingGrid) -> bool {
        grid.changes_since(self.cursor) == Changes::Cells(&[])
    }

    /// The components of `size x size` footprints of `mobility`, if built.
    pub(crate) fn get(&self, mobility: Mobility, size: u8) -> Option<&Components> {
        self.items
            .iter()
            .map(|(_, parts)| parts)
            .find(|p| p.serves(mobility) && p.unit_size() == size)
    }
}
