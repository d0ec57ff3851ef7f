//! Jump distances for whole-grid jump point search (see
//! [`PathingSettings::jump_distances`](crate::PathingSettings::jump_distances)): kept
//! by the grid itself, built in the tick on small grids and in the background on big
//! ones, from a copy of the cells, then handed to the grid caught up on the edits made
//! meanwhile ([`Grid::adopt_jump_distances`]).

use tilepath::{Grid, GridError, Mobility};

use super::background::{BACKGROUND_CELLS, Builds};
use crate::PathingGrid;
use crate::grid::{ChangeCursor, Changes};

/// Budget units a cell's jump distances cost to build in the tick (the build takes
/// about as long as expanding that many nodes a cell).
const BUILD_WORK: u64 = 4;

/// Edited cells a finished build catches up on at most. Each is a repair of the
/// distances, which on big open maps can take milliseconds (a wall is seen along
/// whole rows and columns), so past this many the build starts again from the grid
/// as it is rather than stall the tick it is handed over in.
const CATCH_UP: usize = 64;

/// The jump distance builds under way on one grid, and the mobilities whose build
/// failed.
#[derive(Default)]
pub(crate) struct JumpBuilds {
    /// Copies of the grid keeping the distances of a mobility, being built.
    building: Builds<Mobility, Result<Grid, GridError>>,
    /// Mobilities whose build failed (a side over 32,767 cells, out of memory): not
    /// tried again until the grid is replaced, so that a failing build does not stall
    /// every tick. Their searches scan rows.
    failed: Vec<Mobility>,
    /// Where the builds were last told of the grid's edits, in its change log.
    cursor: ChangeCursor,
}

impl JumpBuilds {
    /// Tells the builds under way of the grid's edits and hands the finished ones to
    /// the grid, caught up on them; forgets every build and failure when the grid was
    /// replaced. Returns the work done: each cell caught up on is charged as a pass
    /// over the 3 rows and 3 columns its repair rewrites.
    pub(crate) fn maintain(&mut self, grid: &mut PathingGrid) -> u64 {
        match grid.take_changes(&mut self.cursor) {
            Changes::Replaced => {
                self.building.clear();
                self.failed.clear();
                return 0;
            }
            Changes::Cells(cells) => self.building.note(cells, CATCH_UP),
        }
        let per_cell = 3 * u64::from(grid.grid().width() + grid.grid().height());
        let (failed, mut work) = (&mut self.failed, 0);
        self.building.finish(|mobility, built, changed| {
            match built.and_then(|copy| grid.adopt_jump_distances(copy, mobility, changed)) {
                Ok(()) => work += per_cell * changed.len() as u64,
                Err(_) => failed.push(mobility),
            }
        });
        work
    }

    /// Sees that `grid` keeps the jump distances of `mobility`: built here on grids of
    /// up to [`BACKGROUND_CELLS`] cells (or without Bevy's async compute pool), else
    /// started on that pool, searches scanning rows until they are handed over.
    /// Returns the work done here.
    pub(crate) fn prepare(&mut self, grid: &mut PathingGrid, mobility: Mobility) -> u64 {
        if grid.grid().keeps_jump_distances(mobility)
            || self.failed.contains(&mobility)
            || self.building.contains(&mobility)
        {
            return 0;
        }
        if grid.grid().len() > BACKGROUND_CELLS
            && self.building.spawn(
                mobility,
                || grid.grid().copy_cells(),
                move |copy| {
                    let mut copy = copy?;
                    copy.keep_jump_distances(mobility)?;
                    Ok(copy)
                },
            )
        {
            return 0;
        }
        if grid.keep_jump_distances(mobility) {
            BUILD_WORK * grid.grid().len() as u64
        } else {
            self.failed.push(mobility);
            0
        }
    }

    /// Builds under way.
    pub(crate) fn building(&self) -> u32 {
        self.building.len() as u32
    }
}
