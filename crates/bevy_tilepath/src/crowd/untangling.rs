//! Untangling a grid's crowd where units stand stuck: a complete search for joint
//! steps that take them home ([`Untangle`]), walked a step a period instead of the
//! crowd's own steps until it is done.
//!
//! Where Bevy's async compute pool has a thread of its own, the search runs there,
//! on a copy of the crowd and grid, guided by the exact distances to the agents'
//! goals, and may explore far more than a tick could ([`MOST_NODES_AWAY`]); the
//! crowd steps on meanwhile, and the plan found is taken up at the first step at
//! which the crowd stands as it stood when the search began (units in a knot make
//! no way: they come back to where they were), or given up after
//! [`WAIT_STEPS`] steps. Elsewhere (a web build) it runs in the tick, bounded by
//! [`MOST_NODES`] and [`MOST_WORK`], guided by the units' routes.

use tilepath::{AgentId, Cell, Crowd, GoalFields, Grid, Guidance, StepStats, Untangle};

use crate::plan::background::Builds;

/// The most configurations one untangling search explores in the tick.
const MOST_NODES: usize = 4_096;

/// The most configurations one search off the tick explores: a knot of a hundred
/// units in a maze's 2-wide corridors needs up to about 180,000.
const MOST_NODES_AWAY: usize = 1 << 19;

/// Steps of a crowd a plan found off the tick waits for the crowd to stand as it
/// stood when the search began.
const WAIT_STEPS: u64 = 16;

/// The most agents times cells a search off the tick copies distance fields for (a
/// field a goal): 16 MiB of fields at most.
const MOST_FIELD_CELLS: usize = 1 << 22;

/// The most agents times configurations one search weighs: a configuration costs
/// a look at every agent taking part, so a bigger crowd's search explores fewer.
const MOST_WORK: usize = 8_192;

/// The biggest grid (in cells) whose crowd is untangled in the tick: the search's
/// tables and its look at which cells each unit can reach cover the whole grid, a
/// cost the tick can bear only on grids this small. On bigger grids, where no search
/// runs off the tick, stuck units are reported
/// ([`PathingDiagnostics::crowd_stuck`](crate::PathingDiagnostics::crowd_stuck)) and
/// wait.
pub(crate) const MOST_CELLS: usize = 1 << 14;

/// The biggest crowd untangled: each of its agents is weighed (where it can go,
/// whether its goal clashes with another's) before the search, and a search off the
/// tick copies the crowd and a distance field for each goal.
pub(crate) const MOST_AGENTS: usize = 256;

/// Steps of a crowd after a search that found nothing before the next is tried.
const RETRY_STEPS: u64 = 16;

/// One grid crowd's untangling: the plan being walked, the search under way, and
/// when to search again.
#[derive(Default)]
pub(crate) struct Untangling {
    plan: Untangle,
    /// The crowd step before which no new search starts.
    retry_at: u64,
    /// A search under way off the tick (at most one): its plan, if it found one.
    away: Builds<(), Option<Untangle>>,
    /// A plan found off the tick, waiting for the crowd to stand where it starts,
    /// and the step at which it is given up.
    found: Option<(Untangle, u64)>,
    /// Where every agent stood when the last search off the tick began.
    start: Vec<(AgentId, Cell)>,
}

impl Untangling {
    /// Whether a plan is being walked: the crowd takes its steps from it.
    pub(crate) fn is_walking(&self) -> bool {
        self.plan.steps_left() > 0
    }

    /// Whether a search is under way off the tick.
    pub(crate) fn is_searching(&self) -> bool {
        self.away.len() > 0
    }

    /// Takes the plan of a search off the tick that has ended, to be walked from
    /// the first step at which `crowd` stands where it starts (within
    /// [`WAIT_STEPS`] steps); one that found none is tried again after
    /// [`RETRY_STEPS`] steps.
    pub(crate) fn finish(&mut self, crowd: &Crowd) {
        let mut found = None;
        self.away.finish(|(), plan, _| found = Some(plan));
        match found {
            Some(Some(plan)) if plan.steps_left() > 0 => {
                self.found = Some((plan, crowd.steps() + WAIT_STEPS));
            }
            Some(_) => self.retry_at = crowd.steps() + RETRY_STEPS,
            None => {}
        }
    }

    /// The next step of the plan being walked, made on `crowd` (the step it had
    /// begun is dropped); `None` once the plan is walked or no longer fits the crowd
    /// (a unit gone, moved by hand, a wall): the crowd then takes its own step. A
    /// plan found off the tick is taken up here once the crowd stands where it
    /// starts.
    pub(crate) fn walk(&mut self, crowd: &mut Crowd, grid: &Grid) -> Option<StepStats> {
        if !self.is_walking() {
            let (_, give_up) = self.found.as_ref()?;
            let as_it_stood = crowd.len() == self.start.len()
                && self
                    .start
                    .iter()
                    .all(|&(id, at)| crowd.cell(id) == Some(at));
            if !as_it_stood {
                if crowd.steps() >= *give_up {
                    self.found = None;
                    self.retry_at = crowd.steps() + RETRY_STEPS;
                }
                return None;
            }
            self.plan = self.found.take()?.0;
        }
        crowd.abandon_step();
        crowd.step_untangled(grid, &mut self.plan).ok().flatten()
    }

    /// After a step of `crowd` in which `stuck` units were stuck: searches a plan
    /// taking every unit home, on a crowd small enough ([`MOST_AGENTS`]), at most
    /// every [`RETRY_STEPS`] steps while searches find none: off the tick where it
    /// can ([`MOST_FIELD_CELLS`]), else in the tick on a grid small enough
    /// ([`MOST_CELLS`]; at most [`MOST_WORK`] agents times configurations). Returns
    /// whether the crowd takes no step of its own next (a plan is to be walked).
    pub(crate) fn after_step<G: Guidance + ?Sized>(
        &mut self,
        crowd: &Crowd,
        grid: &Grid,
        guidance: &G,
        stuck: usize,
    ) -> bool {
        if self.is_walking() {
            return true;
        }
        if self.is_searching() || self.found.is_some() {
            return false;
        }
        if stuck == 0 || crowd.len() > MOST_AGENTS || crowd.steps() < self.retry_at {
            return false;
        }
        if crowd.len() * grid.len() <= MOST_FIELD_CELLS {
            let input = || (crowd.clone(), grid.clone());
            if self.away.spawn((), input, search_away) {
                self.start.clear();
                self.start
                    .extend(crowd.agents().map(|(id, spec)| (id, spec.cell)));
                return false;
            }
        }
        if grid.len() > MOST_CELLS {
            return false;
        }
        let nodes = (MOST_WORK / crowd.len().max(1)).clamp(32, MOST_NODES);
        let found = self
            .plan
            .plan(grid, crowd, guidance, nodes)
            .unwrap_or(false);
        if !found || !self.is_walking() {
            self.retry_at = crowd.steps() + RETRY_STEPS;
        }
        self.is_walking()
    }
}

/// A search off the tick on a copy of a crowd and its grid, guided by the exact
/// distances to its agents' goals: the plan, if it found one.
fn search_away((crowd, grid): (Crowd, Grid)) -> Option<Untangle> {
    let mut fields = GoalFields::new();
    fields.update(&grid, &crowd).ok()?;
    let mut plan = Untangle::new();
    plan.plan(&grid, &crowd, &fields, MOST_NODES_AWAY)
        .ok()?
        .then_some(plan)
}
