//! One grid's plan: its FIFOs of waiting units, its distance fields and what else it
//! derives from the grid,
//! where it read the grid's change log, and its diagnostics.

use std::collections::VecDeque;

use bevy::prelude::*;
use tilepath::Cell;

use super::Lane;
use super::derived::DerivedSet;
use super::fields::FieldCache;
use super::job::Job;
use crate::grid::{ChangeCursor, GridKey};
use crate::{PathingDiagnostics, UnitPath};

/// What the plugin keeps for one grid between ticks.
pub(crate) struct GridPlan {
    /// The grid it plans on.
    pub(super) key: GridKey,
    /// Waiting units with the ticket they were queued with, per [`Lane`]. An entry
    /// whose ticket no longer matches its unit's
    /// [`PlanState::ticket`](super::PlanState::ticket) was withdrawn and is skipped.
    lanes: [VecDeque<(Entity, u64)>; 2],
    /// Entries of the lanes still waiting (withdrawn ones excluded).
    pub(super) waiting: u32,
    /// Entries whose wait for a field built in the background is over (see
    /// [`FieldCache::park`]), in the order they were taken, each with the goal it
    /// waited for: served before the lanes, for that goal.
    pub(super) released: VecDeque<(Entity, (u64, Lane), Cell)>,
    pub(super) fields: FieldCache,
    /// What the searches read besides the grid: bit rows, jump distances,
    /// components, clearance, landmark guides.
    pub(super) derived: DerivedSet,
    /// Where `collect` stopped reading the grid's change log.
    pub(super) collect_cursor: ChangeCursor,
    /// Where `collect` started reading it this tick.
    pub(super) collect_from: ChangeCursor,
    /// One bit per cell: the cells changed since `collect` last ran.
    pub(super) changed_bits: Vec<u64>,
    /// Whether any bit of `changed_bits` is set this tick.
    pub(super) any_changed: bool,
    /// The grid was replaced since the last collection.
    pub(super) replaced: bool,
    /// The grid's generation and size when collected this tick.
    pub(super) generation: u64,
    pub(super) width: i32,
    pub(super) height: i32,
    /// The grid existed when collected this tick.
    pub(super) alive: bool,
    /// Its diagonal steps have the corner rule (square and isometric maps; hex steps
    /// have none), as collected this tick.
    pub(super) corners: bool,
    /// The work one request is expected to cost, for sizing batches (see `expected`
    /// in `solve.rs`).
    pub(super) avg_cost: u64,
    /// The time one request is expected to take a task, in nanoseconds, for sizing
    /// batches under [`time_cap`](crate::PathingSettings::time_cap), by the same rule.
    pub(super) avg_nanos: u64,
    /// This tick's diagnostics of this grid.
    pub(super) diag: PathingDiagnostics,
}

impl GridPlan {
    pub(super) fn new(key: GridKey) -> Self {
        Self {
            key,
            lanes: [VecDeque::new(), VecDeque::new()],
            waiting: 0,
            released: VecDeque::new(),
            fields: FieldCache::default(),
            derived: DerivedSet::default(),
            collect_cursor: ChangeCursor::default(),
            collect_from: ChangeCursor::default(),
            changed_bits: Vec::new(),
            any_changed: false,
            // A grid seen for the first time plans every unit on it.
            replaced: true,
            generation: 0,
            width: 0,
            height: 0,
            alive: false,
            corners: true,
            // A guess on the dear side (a pulled path's cost): the first batches
            // are small until the requests' real cost is known.
            avg_cost: 1024,
            avg_nanos: 50_000,
            diag: PathingDiagnostics::default(),
        }
    }

    pub(super) fn push(&mut self, entity: Entity, ticket: u64, lane: Lane) {
        self.lanes[lane as usize].push_back((entity, ticket));
        self.waiting += 1;
    }

    /// The next entry to serve, with the goal it is served for if that is fixed
    /// already: those whose field was built first, then requests, then retries.
    pub(super) fn pop(&mut self) -> Option<(Entity, u64, Lane, Option<Cell>)> {
        if let Some((e, (t, lane), goal)) = self.released.pop_front() {
            return Some((e, t, lane, Some(goal)));
        }
        if let Some((e, t)) = self.lanes[0].pop_front() {
            return Some((e, t, Lane::Request, None));
        }
        let (e, t) = self.lanes[1].pop_front()?;
        Some((e, t, Lane::Retry, None))
    }

    /// Puts `jobs`, taken with [`pop`](Self::pop) and not served, back at the front of
    /// the queues they came from, in their order: served first next time, as if never
    /// taken.
    pub(super) fn requeue<'a>(&mut self, jobs: impl DoubleEndedIterator<Item = &'a Job>) {
        for job in jobs.rev() {
            let (ticket, lane) = job.queued;
            match job.waited_for {
                Some(goal) => self.released.push_front((job.entity, job.queued, goal)),
                None => self.lanes[lane as usize].push_front((job.entity, ticket)),
            }
            self.waiting += 1;
        }
    }

    /// Sets `job` aside, still waiting, until the field it waits for is ready
    /// ([`FieldCache::park`]).
    pub(super) fn park(&mut self, job: &Job) {
        self.fields.park(job);
        self.waiting += 1;
    }

    pub(super) fn is_idle(&self) -> bool {
        self.released.is_empty() && self.lanes.iter().all(VecDeque::is_empty)
    }

    /// Drops the withdrawn entries once nobody waits any more.
    pub(super) fn clear_withdrawn(&mut self) {
        if self.waiting == 0 {
            self.lanes.iter_mut().for_each(VecDeque::clear);
        }
    }

    /// Whether a cell under the `size x size` footprint anchored at `(x, y)` changed
    /// since the last collection.
    pub(super) fn footprint_changed(&self, x: i32, y: i32, size: u8) -> bool {
        let n = i32::from(size.max(1));
        (0..n).any(|dy| (0..n).any(|dx| self.cell_changed(x + dx, y + dy)))
    }

    /// Whether a cell a step of `path` still ahead needs changed since the last
    /// collection: one under the footprint the step enters or, for a diagonal step
    /// where the corner rule holds, under either footprint beside its corner (the
    /// cells [`Grid::can_step_sized`](tilepath::Grid::can_step_sized) reads).
    pub(super) fn path_changed(&self, path: &UnitPath) -> bool {
        if !self.any_changed {
            return false;
        }
        let size = path.size;
        let mut at = path.at;
        path.steps.iter().any(|d| {
            let to = at.step(d);
            let corners = self.corners && d.is_diagonal();
            let hit = self.footprint_changed(to.x, to.y, size)
                || (corners
                    && (self.footprint_changed(to.x, at.y, size)
                        || self.footprint_changed(at.x, to.y, size)));
            at = to;
            hit
        })
    }

    /// Whether cell `(x, y)` changed since the last collection.
    pub(super) fn cell_changed(&self, x: i32, y: i32) -> bool {
        if !self.any_changed || !(0..self.width).contains(&x) || !(0..self.height).contains(&y) {
            return false;
        }
        let i = y as usize * self.width as usize + x as usize;
        self.changed_bits[i / 64] & (1 << (i % 64)) != 0
    }
}
