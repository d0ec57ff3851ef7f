//! Planning: which units need a path ([`collect`]), and serving them in FIFO order
//! under a budget ([`solve`]), grid by grid: every grid has its own [`grid_plan`]
//! (FIFOs, distance fields, reachability, diagnostics); solver scratch is shared.
//!
//! A request flows one way: `collect` queues the unit; `solve` takes it from the queue
//! into a [`job::Job`] (one read of the unit), answers it at once if it cannot be
//! searched, lets [`fields`] serve crowds heading for one cell, [`engine`] pick and run
//! the search for the rest, and writes the one [`job::Answer`] back to the unit (one
//! write). The searches read what [`derived`] registers (bit rows, jump distances,
//! components that tell goals out of reach apart, clearance, landmark guides), each
//! kind kept in step with the grid by [`kept`]'s one container; [`whole`] lends
//! whole-grid solvers, and [`dispatch`] spreads a batch over Bevy's compute task pool.

pub(crate) mod background;
pub(crate) mod collect;
mod derived;
mod dispatch;
mod engine;
mod fields;
mod grid_plan;
mod job;
mod kept;
pub(crate) mod solve;
mod straighten;
mod whole;

use bevy::prelude::*;
use tilepath::Cell;

use crate::grid::GridKey;
use dispatch::Dispatch;
pub(crate) use fields::{FieldCache, FieldKey, FieldRef};
use grid_plan::GridPlan;
use job::Job;

/// A unit's planning record (required by [`PathRequest`](crate::PathRequest)).
#[derive(Component, Clone, Copy, Debug, Default)]
pub(crate) struct PlanState {
    /// The ticket of the unit's entry in a FIFO of [`grid`](Self::grid)'s plan, and
    /// which, while it waits there.
    pub(crate) ticket: Option<(u64, Lane)>,
    /// The grid the unit was last queued on (and its current answer planned on).
    pub(crate) grid: GridKey,
    /// The goal cell the current answer was planned for.
    pub(crate) goal: Cell,
    /// The cell the current answer was planned from.
    pub(crate) start: Cell,
    /// The grid generation it was planned on.
    pub(crate) generation: u64,
    /// The pathing tick it was planned on.
    pub(crate) tick: u64,
}

/// Which FIFO a waiting unit is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    /// Requests: new, changed, off their path, retargeted, crossing an edit.
    Request = 0,
    /// Units whose goal was unreachable, tried again after an edit elsewhere on the
    /// grid: served with what budget the request lane leaves, so a crowd with
    /// unreachable goals never delays anybody else.
    Retry = 1,
}

/// The plugin's private state: the plan of every grid and the scratch they share.
#[derive(Resource)]
pub(crate) struct Planner {
    /// One per grid: the default grid's first, then the maps' in the order they were
    /// first seen.
    grids: Vec<GridPlan>,
    next_ticket: u64,
    jobs: Vec<Job>,
    dispatch: Dispatch,
    pub(crate) tick: u64,
    /// The grid that goes first this tick (grids take turns, so that none is always
    /// served last).
    first: usize,
}

impl Default for Planner {
    fn default() -> Self {
        Self {
            grids: vec![GridPlan::new(None)],
            next_ticket: 0,
            jobs: Vec::new(),
            dispatch: Dispatch::default(),
            tick: 0,
            first: 0,
        }
    }
}

impl Planner {
    /// The index of the plan of `key`'s grid, if there is one.
    fn find(&self, key: GridKey) -> Option<usize> {
        match key {
            None => Some(0),
            // Grids are few: a scan beats hashing.
            Some(_) => self.grids.iter().position(|g| g.key == key),
        }
    }

    /// The index of the plan of `key`'s grid, made if there is none yet.
    fn find_or_add(&mut self, key: GridKey) -> usize {
        self.find(key).unwrap_or_else(|| {
            self.grids.push(GridPlan::new(key));
            self.grids.len() - 1
        })
    }

    /// Puts `entity` at the back of `lane` of grid `index`'s plan (withdrawing it from
    /// where it waited).
    fn enqueue(&mut self, entity: Entity, state: &mut PlanState, index: usize, lane: Lane) {
        self.withdraw(state);
        self.next_ticket += 1;
        state.ticket = Some((self.next_ticket, lane));
        state.grid = self.grids[index].key;
        self.grids[index].push(entity, self.next_ticket, lane);
    }

    /// The shared distance fields kept for `key`'s grid, if it has a plan.
    pub(crate) fn fields_of(&self, key: GridKey) -> Option<&FieldCache> {
        Some(&self.grids[self.find(key)?].fields)
    }

    /// The components kept for units of `mobility` moving as `connectivity`, of side
    /// `size`, on grid `key` (which is `grid`), if they are built and in step with
    /// every edit of `grid`.
    pub(crate) fn components(
        &self,
        (key, grid): (GridKey, &crate::PathingGrid),
        mobility: tilepath::Mobility,
        connectivity: tilepath::Connectivity,
        size: u8,
    ) -> Option<&tilepath::Components> {
        let reach = &self.grids[self.find(key)?].derived.reach;
        reach
            .get(tilepath::ReachKey::of(mobility, connectivity, size))
            .filter(|p| reach.is_current(grid) && p.is_settled())
    }

    /// Withdraws a waiting unit (its entry stays in the FIFO and is skipped).
    fn withdraw(&mut self, state: &mut PlanState) {
        if state.ticket.take().is_some()
            && let Some(i) = self.find(state.grid)
        {
            self.grids[i].waiting -= 1;
        }
    }
}

/// A unit that loses its request or its cell (or is despawned) leaves the FIFO, so that
/// it is queued afresh when they come back.
pub(crate) fn on_request_removed(
    removed: On<Remove, (crate::PathRequest, crate::GridCell)>,
    mut states: Query<&mut PlanState>,
    mut planner: ResMut<Planner>,
) {
    if let Ok(mut state) = states.get_mut(removed.entity) {
        planner.withdraw(&mut state);
    }
}
