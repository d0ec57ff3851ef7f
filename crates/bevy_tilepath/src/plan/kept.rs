//! One container for every kind of structure the planner derives from a grid
//! ([`Derived`]), kept by the same rules whatever it is: built on first use (in the
//! tick, or on Bevy's async compute pool from a copy of the grid), repaired with the
//! tick's edits before any request is solved (or, for what can catch up without the
//! grid, sent to catch up in the background), built again when a repair leaves it
//! unsettled, forgotten when the grid is replaced or the settings no longer want it.
//! What differs between kinds is their [`Keep`] registration (`derived.rs`).

use tilepath::{Cell, Derived, Grid, TileKind};

use super::background::{Builds, REPAIR_IN_TICK, catch_up_limit, in_background};
use super::job::{Answer, Job};
use crate::grid::{ChangeCursor, Changes};
use crate::{PathingGrid, PathingSettings};

/// How the planner keeps one kind of derived structure: which requests want one and
/// which, and where and when it is built and repaired.
pub(crate) trait Keep: Derived {
    /// The key of the structure `job`'s search would read, if it reads one (under
    /// `settings`).
    fn wanted(job: &Job, settings: &PathingSettings) -> Option<Self::Key>;

    /// Whether a structure of `key` is still wanted under `settings` (dropped if not).
    fn still_wanted(_key: &Self::Key, _settings: &PathingSettings) -> bool {
        true
    }

    /// Whether it is built on the async compute pool on `grid` (where there is one):
    /// only what the searches can do without until it is ready, and only where a build
    /// would stall the tick.
    fn in_background(_grid: &Grid) -> bool {
        false
    }

    /// Whether its repairs are made on the async compute pool on `grid`, from the
    /// edited cells' kinds ([`Derived::catch_up`]): the structure leaves the searches
    /// at an edit and comes back caught up, so that no edit repairs it in the tick.
    fn repaired_apart(_grid: &Grid) -> bool {
        false
    }

    /// Budget units a build in the tick costs on `grid`.
    fn build_work(grid: &Grid, _key: &Self::Key) -> u64 {
        grid.len() as u64
    }

    /// Edited cells a build or catch-up under way may fall behind by before it is
    /// dropped (and started again from the grid as it is when next wanted), so that
    /// catching up stays shorter than a build.
    fn most_behind(grid: &Grid) -> usize {
        catch_up_limit(grid.len())
    }

    /// Readies a kept structure for `job` beyond what it was built with (a clearance
    /// keeps the bit rows of the job's size); returns the work done.
    fn ready_for(&mut self, _grid: &Grid, _job: &Job) -> u64 {
        0
    }
}

/// What a build or catch-up under way hands back.
enum Outcome<D> {
    /// Built or caught up.
    Done(D),
    /// The build failed (no memory for it or for the grid's copy, a grid too large):
    /// not tried again until the grid is replaced, so that a failing build does not
    /// stall every tick.
    Failed,
    /// A catch-up that could not be made: dropped, built again when next wanted.
    Dropped,
}

/// The structures of one kind kept for one grid (at most one per key), those being
/// built or catching up, and those whose build failed.
pub(crate) struct Kept<D: Keep> {
    items: Vec<D>,
    building: Builds<D::Key, Outcome<D>>,
    failed: Vec<D::Key>,
    /// Where the items were last repaired up to in the grid's change log.
    cursor: ChangeCursor,
}

impl<D: Keep> Default for Kept<D> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            building: Builds::default(),
            failed: Vec::new(),
            cursor: ChangeCursor::default(),
        }
    }
}

impl<D: Keep> Kept<D> {
    /// Brings the kept structures in step with the grid's edits since the last call
    /// and takes those whose build or catch-up finished; forgets them all when the
    /// grid was replaced, and those the settings no longer want. On grids whose
    /// structures are built in the background, a repair searches at most
    /// [`REPAIR_IN_TICK`] cells for what an edit cut apart; one it leaves unsettled
    /// keeps answering (conservatively) while it is built again in the background.
    /// Returns the work done in the tick.
    pub(crate) fn maintain(&mut self, grid: &PathingGrid, settings: &PathingSettings) -> u64 {
        let cells = match grid.take_changes(&mut self.cursor) {
            Changes::Replaced => {
                self.forget();
                return 0;
            }
            Changes::Cells(cells) => cells,
        };
        let wanted = |k: &D::Key| D::still_wanted(k, settings);
        self.items.retain(|d| wanted(&d.key()));
        self.building.retain(wanted);
        self.failed.retain(wanted);
        let grid = grid.grid();
        let apart = D::repaired_apart(grid) && in_background();
        let most = if D::in_background(grid) && in_background() {
            REPAIR_IN_TICK
        } else {
            usize::MAX
        };
        let mut work = 0;
        // Builds under way learn of the edits first: those sent off below start after.
        self.building.note(cells, D::most_behind(grid));
        if !cells.is_empty() {
            if apart {
                for d in core::mem::take(&mut self.items) {
                    self.catch_up_apart(grid, d, cells);
                }
            } else {
                // One that cannot be repaired is dropped, built again when wanted.
                self.items
                    .retain_mut(|d| d.repair(grid, cells, most).map(|w| work += w).is_ok());
            }
        }
        let mut finished = Vec::new();
        self.building
            .finish(|key, outcome, behind| finished.push((key, outcome, behind.to_vec())));
        for (key, outcome, behind) in finished {
            match outcome {
                Outcome::Done(d) if behind.is_empty() => self.put(d),
                Outcome::Done(d) if apart => self.catch_up_apart(grid, d, &behind),
                Outcome::Done(mut d) => {
                    if let Ok(w) = d.repair(grid, &behind, most) {
                        work += w;
                        self.put(d);
                    }
                }
                Outcome::Failed => self.failed.push(key),
                Outcome::Dropped => {}
            }
        }
        // Unsettled by a repair cut short: built again (meanwhile still in use).
        for i in 0..self.items.len() {
            let key = self.items[i].key();
            if !self.items[i].is_settled() && !self.building.contains(&key) {
                self.build_apart(grid, key);
            }
        }
        work
    }

    /// Builds the structures the unsolved `jobs` want and are not kept, being built or
    /// failed (in the background where [`Keep::in_background`] says so), and readies
    /// the kept ones for them. Returns the work done in the tick.
    pub(crate) fn prepare(&mut self, grid: &Grid, jobs: &[Job], settings: &PathingSettings) -> u64 {
        let mut work = 0;
        for job in jobs.iter().filter(|j| j.answer == Answer::Unsolved) {
            let Some(key) = D::wanted(job, settings) else {
                continue;
            };
            if let Some(d) = self.items.iter_mut().find(|d| d.key() == key) {
                work += d.ready_for(grid, job);
                continue;
            }
            if self.building.contains(&key) || self.failed.contains(&key) {
                continue;
            }
            if D::in_background(grid) && self.build_apart(grid, key) {
                continue;
            }
            match D::build(grid, key) {
                Ok(mut d) => {
                    work += D::build_work(grid, &key) + d.ready_for(grid, job);
                    self.items.push(d);
                }
                Err(_) => self.failed.push(key),
            }
        }
        work
    }

    /// The structure of `key`, if kept.
    pub(crate) fn get(&self, key: D::Key) -> Option<&D> {
        self.items.iter().find(|d| d.key() == key)
    }

    /// Structures kept.
    pub(crate) fn ready(&self) -> u32 {
        self.items.len() as u32
    }

    /// Builds and catch-ups under way.
    pub(crate) fn building(&self) -> u32 {
        self.building.len() as u32
    }

    /// Whether the kept structures are in step with `grid`: no cell set since they
    /// were last repaired.
    pub(crate) fn is_current(&self, grid: &PathingGrid) -> bool {
        grid.changes_since(self.cursor) == Changes::Cells(&[])
    }

    /// Keeps `d`, in place of one of its key (an unsettled one it was built again for).
    fn put(&mut self, d: D) {
        let key = d.key();
        self.items.retain(|k| k.key() != key);
        self.items.push(d);
    }

    /// Starts building `key` on the async compute pool from a copy of `grid`; whether
    /// it started.
    fn build_apart(&mut self, grid: &Grid, key: D::Key) -> bool {
        self.building.spawn(
            key,
            || grid.try_clone(),
            move |copy| match copy.map(|copy| D::build(&copy, key)) {
                Ok(Ok(d)) => Outcome::Done(d),
                _ => Outcome::Failed,
            },
        )
    }

    /// Sends `d` to catch up on the edits of `cells` in the background (their kinds
    /// read now); repaired here where it cannot start.
    fn catch_up_apart(&mut self, grid: &Grid, d: D, cells: &[Cell]) {
        let edits: Vec<(Cell, TileKind)> = cells
            .iter()
            .filter_map(|&c| grid.get(c).map(|k| (c, k)))
            .collect();
        let key = d.key();
        let mut job = Some((d, edits));
        let started = self.building.spawn(
            key,
            || job.take(),
            |job| {
                let Some((mut d, edits)) = job else {
                    return Outcome::Dropped;
                };
                match d.catch_up(&edits) {
                    Some(Ok(_)) => Outcome::Done(d),
                    _ => Outcome::Dropped,
                }
            },
        );
        if !started
            && let Some((mut d, _)) = job
            && d.repair(grid, cells, usize::MAX).is_ok()
        {
            self.put(d);
        }
    }

    /// Drops every structure, build (cancelled) and failure.
    fn forget(&mut self) {
        self.items.clear();
        self.building.clear();
        self.failed.clear();
    }
}
