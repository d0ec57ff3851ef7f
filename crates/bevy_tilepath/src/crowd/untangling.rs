//! Untangling a grid's crowd where units stand stuck: a complete search for joint
//! steps that take them home ([`Untangle`]), walked a step a period instead of the
//! crowd's own steps until it is done.

use tilepath::{Crowd, Grid, Guidance, StepStats, Untangle};

/// The most configurations one untangling search explores: it runs in the tick.
const MOST_NODES: usize = 4_096;

/// The most agents times configurations one search weighs: a configuration costs
/// a look at every agent taking part, so a bigger crowd's search explores fewer.
const MOST_WORK: usize = 8_192;

/// The biggest grid (in cells) whose crowd is untangled: the search's tables and
/// its look at which cells each unit can reach cover the whole grid, a cost the tick
/// can bear only on grids this small. On bigger grids stuck units are reported
/// ([`PathingDiagnostics::crowd_stuck`](crate::PathingDiagnostics::crowd_stuck)) and
/// wait.
pub(crate) const MOST_CELLS: usize = 1 << 14;

/// The biggest crowd untangled, for the same reason: each of its agents is weighed
/// (where it can go, whether its goal clashes with another's) before the search.
pub(crate) const MOST_AGENTS: usize = 256;

/// Steps of a crowd after a search that found nothing before the next is tried.
const RETRY_STEPS: u64 = 16;

/// One grid crowd's untangling: the plan being walked, and when to search again.
#[derive(Debug, Default)]
pub(crate) struct Untangling {
    plan: Untangle,
    /// The crowd step before which no new search starts.
    retry_at: u64,
}

impl Untangling {
    /// Whether a plan is being walked: the crowd takes its steps from it.
    pub(crate) fn is_walking(&self) -> bool {
        self.plan.steps_left() > 0
    }

    /// The next step of the plan being walked, made on `crowd` (the step it had
    /// begun is dropped); `None` once the plan is walked or no longer fits the crowd
    /// (a unit gone, moved by hand, a wall): the crowd then takes its own step.
    pub(crate) fn walk(&mut self, crowd: &mut Crowd, grid: &Grid) -> Option<StepStats> {
        if !self.is_walking() {
            return None;
        }
        crowd.abandon_step();
        crowd.step_untangled(grid, &mut self.plan).ok().flatten()
    }

    /// After a step of `crowd` in which `stuck` units were stuck: searches a plan
    /// taking every unit home, on a grid and crowd small enough ([`MOST_CELLS`],
    /// [`MOST_AGENTS`]; at most [`MOST_WORK`] agents times configurations), at most
    /// every [`RETRY_STEPS`] steps while searches find none. Returns whether a plan is to
    /// be walked from the next step on.
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
        if stuck == 0
            || grid.len() > MOST_CELLS
            || crowd.len() > MOST_AGENTS
            || crowd.steps() < self.retry_at
        {
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
