//! Jump distances for whole-grid jump point search (see
//! [`PathingSettings::jump_distances`](crate::PathingSettings::jump_distances)): kept
//! by the grid itself, built in the tick on small grids and in the background on big
//! ones, from a copy of the cells, which then catches up with the edits made meanwhile
//! a little each tick before the grid takes it over ([`Grid::adopt_jump_distances`]).

use core::time::Duration;

use bevy::platform::time::Instant;
use tilepath::{Cell, Grid, GridError, Mobility};

use super::background::{BACKGROUND_CELLS, Builds};
use crate::PathingGrid;
use crate::grid::{ChangeCursor, Changes};

/// Budget units a cell's jump distances cost to build in the tick (the build takes
/// about as long as expanding that many nodes a cell).
const BUILD_WORK: u64 = 4;

/// Wall time a tick spends at most bringing finished copies up to date (at least one
/// cell a tick each). A cell is a repair of the copy's distances, in proportion to the
/// distances it changes: few on maps of rooms and caves, whole rows and columns on a
/// nearly empty map, where a wall is seen along them; so a copy far behind catches up
/// over several ticks rather than stall one.
const CATCH_UP_TIME: Duration = Duration::from_millis(1);

/// Edited cells a build or a copy may fall behind the grid by before it is dropped and
/// started again from the grid as it is, so that catching up stays shorter than a
/// build.
const MOST_BEHIND: usize = 256;

/// A finished copy catching up with the grid's edits.
struct CatchingUp {
    mobility: Mobility,
    /// The cells, keeping the mobility's jump distances, as they were when copied but
    /// for the edits caught up with.
    copy: Grid,
    /// Cells edited on the grid and not yet on the copy (repeats allowed).
    behind: Vec<Cell>,
}

/// The jump distance builds under way on one grid, by set of passable kinds (the
/// distances of mobilities entering the same kinds are the same), and the sets whose
/// build failed.
#[derive(Default)]
pub(crate) struct JumpBuilds {
    /// Copies of the grid keeping the distances of a mobility, being built.
    building: Builds<u8, Result<(Mobility, Grid), GridError>>,
    /// Finished copies catching up with the edits made since.
    catching_up: Vec<CatchingUp>,
    /// Kinds whose build failed (a side over 32,767 cells, out of memory): not tried
    /// again until the grid is replaced, so that a failing build does not stall every
    /// tick. Their searches scan rows.
    failed: Vec<u8>,
    /// Where the builds were last told of the grid's edits, in its change log.
    cursor: ChangeCursor,
}

impl JumpBuilds {
    /// Tells the builds and copies under way of the grid's edits, brings finished
    /// copies up to date for at most [`CATCH_UP_TIME`], and hands the caught-up ones to
    /// the grid. Forgets everything when the grid was replaced or the setting is off
    /// (`enabled` false). Returns the work done: each cell caught up on is charged as a
    /// pass over the 3 rows and 3 columns around it, the most its straight distances
    /// can need (what a repair rewrites varies too much by map to charge ahead; the
    /// time bound is what keeps a tick short).
    pub(crate) fn maintain(&mut self, grid: &mut PathingGrid, enabled: bool) -> u64 {
        match grid.take_changes(&mut self.cursor) {
            Changes::Cells(cells) if enabled => {
                self.building.note(cells, MOST_BEHIND);
                for c in &mut self.catching_up {
                    c.behind.extend_from_slice(cells);
                }
                self.catching_up.retain(|c| c.behind.len() <= MOST_BEHIND);
            }
            _ => {
                self.building.clear();
                self.catching_up.clear();
                self.failed.clear();
                return 0;
            }
        }
        let (catching_up, failed) = (&mut self.catching_up, &mut self.failed);
        self.building.finish(|kinds, built, behind| match built {
            Ok((mobility, copy)) => catching_up.push(CatchingUp {
                mobility,
                copy,
                behind: behind.to_vec(),
            }),
            Err(_) => failed.push(kinds),
        });
        let per_cell = 3 * u64::from(grid.grid().width() + grid.grid().height());
        let (started, mut work) = (Instant::now(), 0);
        self.catching_up.retain_mut(|c| {
            let mut caught = 0;
            while let Some(&cell) = c.behind.last() {
                if caught > 0 && started.elapsed() >= CATCH_UP_TIME {
                    return true;
                }
                if let Some(kind) = grid.grid().get(cell) {
                    // Inside the grid, which is the copy's size.
                    let _ = c.copy.set(cell, kind);
                }
                c.behind.pop();
                caught += 1;
                work += per_cell;
            }
            // Every edit was noted, so the copy is the grid's; were it not, the grid
            // refuses it and the next request starts a build again.
            let copy = core::mem::take(&mut c.copy);
            let _ = grid.adopt_jump_distances(copy, c.mobility, &[]);
            false
        });
        work
    }

    /// Sees that `grid` keeps the jump distances of `mobility`: built here on grids of
    /// up to [`BACKGROUND_CELLS`] cells (or without Bevy's async compute pool), else
    /// started on that pool, searches scanning rows until the grid takes them over.
    /// Returns the work done here.
    pub(crate) fn prepare(&mut self, grid: &mut PathingGrid, mobility: Mobility) -> u64 {
        let kinds = mobility.passable_kinds();
        if grid.grid().keeps_jump_distances(mobility)
            || self.failed.contains(&kinds)
            || self.building.contains(&kinds)
            || self
                .catching_up
                .iter()
                .any(|c| c.mobility.passable_kinds() == kinds)
        {
            return 0;
        }
        if grid.grid().len() > BACKGROUND_CELLS
            && self.building.spawn(
                kinds,
                || grid.grid().copy_cells(),
                move |copy| {
                    let mut copy = copy?;
                    copy.keep_jump_distances(mobility)?;
                    Ok((mobility, copy))
                },
            )
        {
            return 0;
        }
        if grid.keep_jump_distances(mobility) {
            BUILD_WORK * grid.grid().len() as u64
        } else {
            self.failed.push(kinds);
            0
        }
    }

    /// Builds under way, copies catching up included.
    pub(crate) fn building(&self) -> u32 {
        (self.building.len() + self.catching_up.len()) as u32
    }
}
