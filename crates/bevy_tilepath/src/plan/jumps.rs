//! Jump distances for whole-grid jump point search (see
//! [`PathingSettings::jump_distances`](crate::PathingSettings::jump_distances)): kept
//! by the grid itself, built in the tick on small grids; on big ones built in the
//! background from a copy of the cells ([`JumpDistances`]), which then catch up with
//! the edits made meanwhile, also in the background, before the grid takes them over
//! ([`Grid::adopt_jump_distances`]). A big grid lends them out again at its next edit
//! ([`Grid::lend_jump_distances`]), so that no edit repairs them in the tick (on open
//! ground a repair rewrites whole rows and columns): they catch up in the background
//! and come back, searches scanning rows meanwhile.

#[cfg(doc)]
use tilepath::Grid;
use tilepath::{Cell, GridError, JumpDistances, Mobility, TileKind};

use super::background::{BACKGROUND_CELLS, Builds, in_background};
use crate::PathingGrid;
use crate::grid::{ChangeCursor, Changes};

/// Budget units a cell's jump distances cost to build in the tick (the build takes
/// about as long as expanding that many nodes a cell).
const BUILD_WORK: u64 = 4;

/// Edited cells a build or a copy may fall behind the grid by before it is dropped and
/// started again from the grid as it is, so that catching up stays shorter than a
/// build.
const MOST_BEHIND: usize = 256;

/// A mobility's distances (built, or lent by the grid), as the grid was before the
/// edited cells `behind` (repeats allowed).
struct Behind {
    mobility: Mobility,
    distances: JumpDistances,
    behind: Vec<Cell>,
}

/// The jump distance builds under way on one grid, by set of passable kinds (the
/// distances of mobilities entering the same kinds are the same), and the sets whose
/// build failed.
#[derive(Default)]
pub(crate) struct JumpBuilds {
    /// The distances of a mobility, being built or brought up to date.
    building: Builds<u8, Result<(Mobility, JumpDistances), GridError>>,
    /// Kinds whose build failed (a side over 32,767 cells, out of memory): not tried
    /// again until the grid is replaced, so that a failing build does not stall every
    /// tick. Their searches scan rows.
    failed: Vec<u8>,
    /// Where the builds were last told of the grid's edits, in its change log.
    cursor: ChangeCursor,
}

impl JumpBuilds {
    /// Tells the builds under way of the grid's edits, sends the distances the grid lent
    /// and the finished builds that are behind it to catch up in the background, and
    /// hands those that are not to the grid. Forgets everything when the grid was
    /// replaced, and the builds under way when the setting is off (`enabled` false:
    /// what the grid lent comes back at once). Returns the work done here:
    /// none on the async compute pool; without one, the cells caught up on in the
    /// tick, each charged as a pass over the 3 rows and 3 columns around it, the most
    /// its straight distances can need.
    pub(crate) fn maintain(&mut self, grid: &mut PathingGrid, enabled: bool) -> u64 {
        let lent = grid.take_lent_jump_distances();
        let mut ready = Vec::new();
        match grid.take_changes(&mut self.cursor) {
            Changes::Cells(cells) if enabled => {
                self.building.note(cells, MOST_BEHIND);
                // Lent at the first of these edits: the distances were taken over
                // after the last call read the log.
                ready.extend(lent.into_iter().map(|(mobility, distances)| Behind {
                    mobility,
                    distances,
                    behind: cells.to_vec(),
                }));
            }
            Changes::Cells(cells) => {
                // The setting is off: builds under way are dropped, and distances the
                // grid has stay with it, repaired in place from now on.
                let cells = cells.to_vec();
                self.building.clear();
                self.failed.clear();
                for (mobility, distances) in lent {
                    let _ = grid.adopt_jump_distances(distances, mobility, &cells, false);
                }
                return 0;
            }
            Changes::Replaced => {
                self.building.clear();
                self.failed.clear();
                return 0;
            }
        }
        let failed = &mut self.failed;
        self.building.finish(|kinds, built, behind| match built {
            Ok((mobility, distances)) => ready.push(Behind {
                mobility,
                distances,
                behind: behind.to_vec(),
            }),
            Err(_) => failed.push(kinds),
        });
        let per_cell = 3 * u64::from(grid.grid().width() + grid.grid().height());
        let mut work = 0;
        for Behind {
            mobility,
            distances,
            behind,
        } in ready
        {
            if behind.len() > MOST_BEHIND {
                continue; // built again from the grid when a search next needs it
            }
            // The cells' kinds now: the distances catch up on them in the background.
            let edits: Vec<(Cell, TileKind)> = behind
                .iter()
                .filter_map(|&c| grid.grid().get(c).map(|k| (c, k)))
                .collect();
            let mut pending = Some((distances, edits));
            if !behind.is_empty() {
                self.building.spawn(
                    mobility.passable_kinds(),
                    || pending.take(),
                    move |job| {
                        let (mut distances, edits) = job.ok_or(GridError::StaleCopy)?;
                        for (cell, kind) in edits {
                            distances.set(cell, kind)?;
                        }
                        Ok((mobility, distances))
                    },
                );
            }
            // Caught up already, or no pool to catch up on: here. Every edit was
            // noted, so they are the grid's; were they not, the grid refuses them and
            // the next request starts a build again.
            let Some((distances, _)) = pending else {
                continue; // sent to the background
            };
            work += per_cell * behind.len() as u64;
            let lend = grid.grid().len() > BACKGROUND_CELLS && in_background();
            let _ = grid.adopt_jump_distances(distances, mobility, &behind, lend);
        }
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
        {
            return 0;
        }
        if grid.grid().len() > BACKGROUND_CELLS
            && self.building.spawn(
                kinds,
                || grid.grid().copy_cells(),
                move |copy| Ok((mobility, JumpDistances::new(&copy?, mobility)?)),
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
        self.building.len() as u32
    }
}
