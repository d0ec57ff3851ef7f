//! Which cells can reach which, per mobility: the grid's connected components, kept in
//! step with its edits, so that a goal out of reach is answered without searching a
//! whole component.

use tilepath::{Components, Grid, Mobility};

use super::job::Job;
use crate::PathingGrid;
use crate::grid::{ChangeCursor, Changes};

/// The components of every mobility the requests used so far (one per set of passable
/// tile kinds: at most 16), built on first use and repaired after edits.
#[derive(Default)]
pub(crate) struct ReachCache {
    parts: Vec<Components>,
    /// Where the components were last repaired up to in the grid's change log.
    cursor: ChangeCursor,
}

impl ReachCache {
    /// Brings the kept components in step with the grid; forgets them when the grid
    /// was replaced. Returns the work done (cells searched).
    pub(crate) fn maintain(&mut self, grid: &PathingGrid) -> u64 {
        let changes = grid.changes_since(self.cursor);
        self.cursor = grid.change_cursor();
        match changes {
            Changes::Replaced => {
                self.parts.clear();
                0
            }
            Changes::Cells(cells) => {
                let mut work = 0;
                for parts in &mut self.parts {
                    // The sizes match: a resized grid is a replaced one.
                    if let Ok(stats) = parts.repair(grid.grid(), cells) {
                        work += (stats.opened + stats.closed + stats.cells_searched) as u64;
                    }
                }
                work
            }
        }
    }

    /// Builds the components the batch's mobilities need and does not have yet. Returns
    /// the work done (cells labelled).
    pub(crate) fn prepare(&mut self, grid: &Grid, jobs: &[Job]) -> u64 {
        let mut work = 0;
        for job in jobs {
            if self.get(job.mobility).is_none() {
                self.parts.push(Components::new(grid, job.mobility));
                work += grid.len() as u64;
            }
        }
        work
    }

    /// The components serving `mobility`, if built.
    pub(crate) fn get(&self, mobility: Mobility) -> Option<&Components> {
        self.parts.iter().find(|p| p.serves(mobility))
    }
}
