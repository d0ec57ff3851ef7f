//! Landmark guides for whole-grid jump point searches, per mobility and connectivity,
//! built in the background on first use and repaired after edits (see
//! [`PathingSettings::landmarks`](crate::PathingSettings::landmarks)).

use tilepath::{Connectivity, FieldError, FieldStats, Grid, Jps, Landmarks, Mobility};

use super::background::{Builds, catch_up_limit};
use super::job::{Answer, Job};
use crate::PathingGrid;
use crate::grid::{ChangeCursor, Changes};

/// The guides the whole-grid searches used so far (at most one per mobility and
/// connectivity), and those being built.
#[derive(Default)]
pub(crate) struct GuideCache {
    guides: Vec<Landmarks>,
    /// Guides being built on Bevy's async compute pool, by mobility and connectivity.
    building: Builds<(Mobility, Connectivity), Result<Landmarks, FieldError>>,
    /// Mobilities and connectivities whose build failed (out of memory, distances
    /// too long): not tried again until the grid is replaced or the setting changes,
    /// so that a failing build does not stall every tick.
    failed: Vec<(Mobility, Connectivity)>,
    /// The landmarks each guide was built with: a new setting builds them again.
    count: usize,
    /// Where the guides were last repaired up to in the grid's change log.
    cursor: ChangeCursor,
}

impl GuideCache {
    /// Brings the kept guides in step with the grid, and takes the guides whose build
    /// finished (repaired with the edits made meanwhile); forgets them all when the
    /// grid was replaced or the setting changed. Returns the work done (the distances
    /// the repairs dropped and set).
    pub(crate) fn maintain(&mut self, grid: &PathingGrid, count: usize) -> u64 {
        let changes = grid.take_changes(&mut self.cursor);
        if count != self.count {
            self.forget();
            self.count = count;
        }
        let cells = match changes {
            Changes::Replaced => {
                self.forget();
                return 0;
            }
            Changes::Cells(cells) => cells,
        };
        let mut work = 0;
        // A repair's work: the distances it dropped and set.
        let cost = |s: FieldStats| (s.cells_invalidated + s.cells_updated) as u64;
        if !cells.is_empty() {
            // A guide that cannot be repaired is dropped and built again on use.
            self.guides.retain_mut(|g| {
                g.repair(grid.grid(), cells)
                    .map(|s| work += cost(s))
                    .is_ok()
            });
        }
        self.building.note(cells, catch_up_limit(grid.grid().len()));
        let (guides, failed) = (&mut self.guides, &mut self.failed);
        self.building.finish(|key, built, changed| {
            match built.and_then(|mut guide| {
                work += cost(guide.repair(grid.grid(), changed)?);
                Ok(guide)
            }) {
                Ok(guide) => guides.push(guide),
                Err(_) => failed.push(key),
            }
        });
        work
    }

    /// Starts building the guides the batch's whole-grid searches need and have not
    /// got (`window`: the distance past which a search is whole-grid), on Bevy's async
    /// compute pool; the searches run unguided until a guide is ready. Without that
    /// pool (no `TaskPoolPlugin`) a guide is built here. Returns the work done here
    /// (the cells of every distance field computed).
    pub(crate) fn prepare(&mut self, grid: &Grid, jobs: &[Job], window: u32) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let mut work = 0;
        for job in jobs.iter().filter(|j| j.answer == Answer::Unsolved) {
            let far = job.start.manhattan(job.goal) > window;
            // One guide serves every unit size of its mobility (a one-cell distance
            // bounds a big unit's from below); hex maps have no jump points to guide.
            let hex = matches!(job.connectivity, Connectivity::Hex(_));
            if !far || hex || !Jps::applies_to(job.mobility) {
                continue;
            }
            let key = (job.mobility, job.connectivity);
            if self.get(key.0, key.1).is_some()
                || self.failed.contains(&key)
                || self.building.contains(&key)
            {
                continue;
            }
            let count = self.count;
            // A copy fails only for want of a grid's memory.
            let bytes = Grid::bytes_for(grid.width(), grid.height());
            if self.building.spawn(
                key,
                // The cells alone, not the rows or distances the grid keeps.
                || grid.copy_cells(),
                move |copy| match copy {
                    Ok(copy) => Landmarks::new(&copy, key.0, key.1, count),
                    Err(_) => Err(FieldError::OutOfMemory { bytes }),
                },
            ) {
                continue;
            }
            match Landmarks::new(grid, key.0, key.1, count) {
                Ok(guide) => {
                    work += (count as u64 + 1) * grid.len() as u64;
                    self.guides.push(guide);
                }
                Err(_) => self.failed.push(key),
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

    /// Guides ready to guide searches.
    pub(crate) fn ready(&self) -> u32 {
        self.guides.len() as u32
    }

    /// Guides being built.
    pub(crate) fn building(&self) -> u32 {
        self.building.len() as u32
    }

    /// Drops every guide, build (cancelled) and failure.
    fn forget(&mut self) {
        self.guides.clear();
        self.building.clear();
        self.failed.clear();
    }
}
