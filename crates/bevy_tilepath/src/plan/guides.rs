//! Landmark guides for whole-grid jump point searches, per mobility and connectivity,
//! built on first use and repaired after edits (see
//! [`PathingSettings::landmarks`](crate::PathingSettings::landmarks)).

use tilepath::{Connectivity, Grid, Jps, Landmarks, Mobility};

use super::job::Job;
use crate::PathingGrid;
use crate::grid::{ChangeCursor, Changes};

/// The guides the whole-grid searches used so far (at most one per mobility and
/// connectivity).
#[derive(Default)]
pub(crate) struct GuideCache {
    guides: Vec<Landmarks>,
    /// The landmarks each guide was built with: a new setting builds them again.
    count: usize,
    /// Where the guides were last repaired up to in the grid's change log.
    cursor: ChangeCursor,
}

impl GuideCache {
    /// Brings the kept guides in step with the grid; forgets them when the grid was
    /// replaced or the setting changed. Returns the work done (the cells of every
    /// guide's table, rewritten after an edit).
    pub(crate) fn maintain(&mut self, grid: &PathingGrid, count: usize) -> u64 {
        let changes = grid.changes_since(self.cursor);
        self.cursor = grid.change_cursor();
        if count != self.count {
            self.guides.clear();
            self.count = count;
        }
        match changes {
            Changes::Replaced => {
                self.guides.clear();
                0
            }
            Changes::Cells([]) => 0,
            Changes::Cells(cells) => {
                // A guide that cannot be repaired is dropped and built again on use.
                self.guides
                    .retain_mut(|g| g.repair(grid.grid(), cells).is_ok());
                self.guides.len() as u64 * grid.grid().len() as u64
            }
        }
    }

    /// Builds the guides the batch's whole-grid searches need and do not have yet
    /// (`window`: the distance past which a search is whole-grid). Returns the work
    /// done (the cells of every distance field computed).
    pub(crate) fn prepare(&mut self, grid: &Grid, jobs: &[Job], window: u32) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let mut work = 0;
        for job in jobs {
            let far = job.start.manhattan(job.goal) > window;
            // Units bigger than one cell search their footprints unguided; hex maps
            // have no jump points to guide.
            let hex = matches!(job.connectivity, Connectivity::Hex(_));
            if !far || hex || job.size > 1 || !Jps::applies_to(job.mobility) {
                continue;
            }
            if self.get(job.mobility, job.connectivity).is_none()
                && let Ok(guide) = Landmarks::new(grid, job.mobility, job.connectivity, self.count)
            {
                work += (self.count as u64 + 1) * grid.len() as u64;
                self.guides.push(guide);
            }
        }
        work
    }

    /// The guide for `mobility` and `connectivity`, if built.
    pub(crate) fn get(&self, mobility: Mobility, connectivity: Connectivity) -> Option<&Landmarks> {
        self.guides
            .iter()
            .find(|g| g.mobility() == mobility && g.connectivity() == connectivity)
    }
}
