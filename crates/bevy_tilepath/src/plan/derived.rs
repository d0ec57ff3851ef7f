//! What the planner derives from each grid for its searches, registered in one place:
//! each kind is a [`Keep`] (which requests want it, where it is built and repaired)
//! and a field of [`DerivedSet`], kept by the one container [`Kept`]. A new kind of
//! derived structure is a core type implementing [`Derived`](tilepath::Derived), a
//! `Keep` here and a field of the set.

use tilepath::{
    Clearance, Components, Connectivity, Grid, Jps, JumpDistances, Landmarks, OpenRows, ReachKey,
};

use super::background::BACKGROUND_CELLS;
use super::job::Job;
use super::kept::{Keep, Kept};
use crate::{PathingGrid, PathingSettings};

/// Whether jump point search serves `job`'s whole-grid searches: square maps, one cost.
fn jumps(job: &Job) -> bool {
    !matches!(job.connectivity, Connectivity::Hex(_)) && Jps::applies_to(job.mobility)
}

/// Whether `grid` is big enough that a build would stall the tick.
fn big(grid: &Grid) -> bool {
    grid.len() > BACKGROUND_CELLS
}

/// A one-cost mobility's cells as bit rows: what jump point search scans.
impl Keep for OpenRows {
    fn wanted(job: &Job, _: &PathingSettings) -> Option<u8> {
        jumps(job).then(|| job.mobility.passable_kinds())
    }
}

/// Jump distances (see [`PathingSettings::jump_distances`]): built and repaired in the
/// background on big grids, so that no edit repairs them in the tick (on open ground a
/// repair rewrites whole rows and columns); searches scan rows meanwhile.
impl Keep for JumpDistances {
    fn wanted(job: &Job, settings: &PathingSettings) -> Option<u8> {
        (settings.jump_distances && job.size == 1 && jumps(job))
            .then(|| job.mobility.passable_kinds())
    }

    fn still_wanted(_: &u8, settings: &PathingSettings) -> bool {
        settings.jump_distances
    }

    fn in_background(grid: &Grid) -> bool {
        big(grid)
    }

    fn repaired_apart(grid: &Grid) -> bool {
        big(grid)
    }

    /// The build takes about as long as expanding four nodes a cell.
    fn build_work(grid: &Grid, _: &u8) -> u64 {
        4 * grid.len() as u64
    }

    /// Each edit behind costs a repair along whole rows and columns.
    fn most_behind(_: &Grid) -> usize {
        256
    }
}

/// Connected components of one-cell units and of big units' footprints: a goal out of
/// reach is answered without searching all the unit can reach. Searches without them
/// only lose that bound, so big grids build them in the background; unsettled
/// components only say "reachable" too often.
impl Keep for Components {
    fn wanted(job: &Job, _: &PathingSettings) -> Option<ReachKey> {
        Some(ReachKey::of(job.mobility, job.connectivity, job.size))
    }

    fn in_background(grid: &Grid) -> bool {
        big(grid)
    }
}

/// The clearance of units bigger than one cell, with the bit rows of their sizes.
impl Keep for Clearance {
    fn wanted(job: &Job, _: &PathingSettings) -> Option<u8> {
        (job.size > 1).then(|| job.mobility.passable_kinds())
    }

    fn ready_for(&mut self, grid: &Grid, job: &Job) -> u64 {
        // A size whose rows cannot have their memory is searched from the values.
        if !self.keeps_rows(job.size) && self.keep_rows(job.size).is_ok() {
            grid.len() as u64
        } else {
            0
        }
    }
}

/// Landmark guides for whole-grid jump point searches (see
/// [`PathingSettings::landmarks`]), built in the background on first use; searches run
/// unguided until one is ready. One guide serves every unit size of its mobility (a
/// one-cell distance bounds a big unit's from below).
impl Keep for Landmarks {
    fn wanted(job: &Job, settings: &PathingSettings) -> Option<Self::Key> {
        let far = job.is_far(settings.window_distance);
        (settings.landmarks > 0 && far && jumps(job)).then_some((
            job.mobility,
            job.connectivity,
            settings.landmarks,
        ))
    }

    fn still_wanted(key: &Self::Key, settings: &PathingSettings) -> bool {
        key.2 == settings.landmarks
    }

    fn in_background(_: &Grid) -> bool {
        true
    }

    fn build_work(grid: &Grid, key: &Self::Key) -> u64 {
        (key.2 as u64 + 1) * grid.len() as u64
    }
}

/// Everything the planner derives from one grid, each kind in its [`Kept`].
#[derive(Default)]
pub(crate) struct DerivedSet {
    pub(crate) rows: Kept<OpenRows>,
    pub(crate) jumps: Kept<JumpDistances>,
    pub(crate) reach: Kept<Components>,
    pub(crate) clearance: Kept<Clearance>,
    pub(crate) guides: Kept<Landmarks>,
}

impl DerivedSet {
    /// [`Kept::maintain`] of every kind; the work done.
    pub(crate) fn maintain(&mut self, grid: &PathingGrid, settings: &PathingSettings) -> u64 {
        self.rows.maintain(grid, settings)
            + self.jumps.maintain(grid, settings)
            + self.reach.maintain(grid, settings)
            + self.clearance.maintain(grid, settings)
            + self.guides.maintain(grid, settings)
    }

    /// [`Kept::prepare`] of every kind; the work done.
    pub(crate) fn prepare(&mut self, grid: &Grid, jobs: &[Job], settings: &PathingSettings) -> u64 {
        self.rows.prepare(grid, jobs, settings)
            + self.jumps.prepare(grid, jobs, settings)
            + self.reach.prepare(grid, jobs, settings)
            + self.clearance.prepare(grid, jobs, settings)
            + self.guides.prepare(grid, jobs, settings)
    }

    /// What `job`'s search reads, as far as it is kept.
    pub(crate) fn known(&self, job: &Job, settings: &PathingSettings) -> Known<'_> {
        Known {
            rows: OpenRows::wanted(job, settings).and_then(|k| self.rows.get(k)),
            jumps: JumpDistances::wanted(job, settings).and_then(|k| self.jumps.get(k)),
            reach: Components::wanted(job, settings).and_then(|k| self.reach.get(k)),
            clearance: Clearance::wanted(job, settings).and_then(|k| self.clearance.get(k)),
            // Near jobs want none built, but a detour of theirs reads one kept.
            guide: self
                .guides
                .get((job.mobility, job.connectivity, settings.landmarks)),
        }
    }
}

/// What the planner keeps of the grid for a job's search.
#[derive(Clone, Copy, Default)]
pub(crate) struct Known<'a> {
    /// The mobility's bit rows (jump point search).
    pub(crate) rows: Option<&'a OpenRows>,
    /// The mobility's jump distances (whole-grid jump point search, one-cell units).
    pub(crate) jumps: Option<&'a JumpDistances>,
    /// The components of the unit's mobility and size (none: not known).
    pub(crate) reach: Option<&'a Components>,
    /// The clearance, built for the units bigger than one cell.
    pub(crate) clearance: Option<&'a Clearance>,
    /// Landmarks for whole-grid jump point searches.
    pub(crate) guide: Option<&'a Landmarks>,
}
