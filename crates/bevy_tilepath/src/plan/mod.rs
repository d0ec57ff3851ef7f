//! Planning: which units need a path ([`collect`]), and serving them in FIFO order
//! under a budget ([`solve`]).
//!
//! A request flows one way: `collect` queues the unit; `solve` takes it from the queue
//! into a [`job::Job`] (one read of the unit), answers it at once if it cannot be
//! searched, lets [`fields`] serve crowds heading for one cell, [`engine`] pick and run
//! the search for the rest (with [`reach`] telling goals out of reach apart,
//! [`guides`] guiding long searches and [`whole`] lending whole-grid solvers; [`dispatch`] spreads a batch over [`threads`]),
//! and writes
//! the one [`job::Answer`] back to the unit (one write).

pub(crate) mod collect;
mod dispatch;
mod engine;
mod fields;
mod guides;
mod job;
mod reach;
pub(crate) mod solve;
mod threads;
mod whole;

use std::collections::VecDeque;

use bevy::prelude::*;
use tilepath::Cell;

use crate::grid::ChangeCursor;
use dispatch::Dispatch;
use fields::FieldCache;
use guides::GuideCache;
use job::Job;
use reach::ReachCache;

/// A unit's planning record (required by [`PathRequest`](crate::PathRequest)).
#[derive(Component, Clone, Copy, Debug, Default)]
pub(crate) struct PlanState {
    /// The ticket of the unit's entry in a FIFO, and which, while it waits there.
    pub(crate) ticket: Option<(u64, Lane)>,
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

/// The plugin's private state: the FIFOs of waiting units and all reusable scratch.
#[derive(Resource)]
pub(crate) struct Planner {
    /// Waiting units with the ticket they were queued with, per [`Lane`]. An entry
    /// whose ticket no longer matches its unit's [`PlanState::ticket`] was withdrawn
    /// and is skipped.
    lanes: [VecDeque<(Entity, u64)>; 2],
    /// Entries of the lanes still waiting (withdrawn ones excluded).
    waiting: u32,
    next_ticket: u64,
    jobs: Vec<Job>,
    dispatch: Dispatch,
    fields: FieldCache,
    reach: ReachCache,
    guides: GuideCache,
    /// Where `collect` stopped reading the grid's change log.
    collect_cursor: ChangeCursor,
    /// One bit per cell: the cells changed since `collect` last ran.
    changed_bits: Vec<u64>,
    pub(crate) tick: u64,
    /// Running average of the work one request costs, for sizing batches.
    avg_cost: u64,
}

impl Default for Planner {
    fn default() -> Self {
        Self {
            lanes: [VecDeque::new(), VecDeque::new()],
            waiting: 0,
            next_ticket: 0,
            jobs: Vec::new(),
            dispatch: Dispatch::default(),
            fields: FieldCache::default(),
            reach: ReachCache::default(),
            guides: GuideCache::default(),
            collect_cursor: ChangeCursor::default(),
            changed_bits: Vec::new(),
            tick: 0,
            avg_cost: 64,
        }
    }
}

impl Planner {
    /// Puts `entity` at the back of `lane` (withdrawing it from where it waited).
    fn enqueue(&mut self, entity: Entity, state: &mut PlanState, lane: Lane) {
        self.withdraw(state);
        self.next_ticket += 1;
        state.ticket = Some((self.next_ticket, lane));
        self.lanes[lane as usize].push_back((entity, self.next_ticket));
        self.waiting += 1;
    }

    /// The next entry to serve: requests first, then retries.
    fn pop(&mut self) -> Option<(Entity, u64, Lane)> {
        if let Some((e, t)) = self.lanes[0].pop_front() {
            return Some((e, t, Lane::Request));
        }
        let (e, t) = self.lanes[1].pop_front()?;
        Some((e, t, Lane::Retry))
    }

    fn is_idle(&self) -> bool {
        self.lanes.iter().all(VecDeque::is_empty)
    }

    /// Withdraws a waiting unit (its entry stays in the FIFO and is skipped).
    fn withdraw(&mut self, state: &mut PlanState) {
        if state.ticket.take().is_some() {
            self.waiting -= 1;
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
