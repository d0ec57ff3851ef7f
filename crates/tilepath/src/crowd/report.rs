//! What the caller reads of a crowd after a step.

use super::{AgentId, Crowd};

/// An agent that moves but gets no nearer its goal is stuck after this many times
/// the steps an agent that does not move is: one that makes way for others passing
/// gets nearer again once they have; a pair pushing each other on and off their
/// goals in turn never does.
const NO_NEARER: u64 = 2;

/// What a step did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepStats {
    /// Agents that moved.
    pub moved: usize,
    /// Agents standing on their goals after the step.
    pub arrived: usize,
    /// Agents reported [stuck](AgentStatus::Stuck) after the step.
    pub stuck: usize,
    /// Moves decided in a step planned in parts and given up before it was made,
    /// because something changed between the parts (see
    /// [`Crowd::begin_step`](super::Crowd::begin_step)); 0 for a whole step.
    pub given_up: usize,
}

/// Where an agent stands with respect to its goal, as of the last step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentStatus {
    /// It has no goal.
    Idle,
    /// It stands on its goal.
    Arrived,
    /// Its goal is not reachable from where it stands (by the guidance), or the
    /// crowd has not stepped since it was added or given its goal.
    Unreachable,
    /// Every cell nearer its goal is held by agents with the same goal standing
    /// nearer it: it is as near as it gets, and waits.
    Yielding,
    /// On its way.
    Moving,
    /// It has not moved for the steps [`Crowd::set_stuck_after`] says although its
    /// goal is reachable and it is not yielding, or has got no nearer its goal (by its
    /// guidance, while that is unchanged where it stands) for twice as many. A move
    /// straight back to the cell it left on its move before does not count: an agent
    /// pushed to and fro between two cells is stuck too, and so is one of a pair
    /// pushing each other on and off their goals in turn (each moves every step).
    Stuck,
}

impl Crowd {
    /// An agent's status, as of the last step (`None`: no such agent).
    #[must_use]
    pub fn status(&self, id: AgentId) -> Option<AgentStatus> {
        let a = self.live_agent(id)?;
        Some(self.status_of(a, &self.lock_plan().agents[id.index()]))
    }

    /// The status of agent `a`, whose plan is `ap`, as of the last step.
    pub(super) fn status_of(
        &self,
        a: &super::agent::Agent,
        ap: &super::agent::AgentPlan,
    ) -> AgentStatus {
        match a.goal {
            None => AgentStatus::Idle,
            Some(g) if g == a.cell => AgentStatus::Arrived,
            Some(_) if ap.here_cost == u32::MAX => AgentStatus::Unreachable,
            Some(_) if ap.yielding => AgentStatus::Yielding,
            Some(_)
                if self.steps - a.last_moved >= u64::from(self.stuck_after)
                    || self.steps - ap.bettered >= NO_NEARER * u64::from(self.stuck_after) =>
            {
                AgentStatus::Stuck
            }
            Some(_) => AgentStatus::Moving,
        }
    }

    /// The agents [stuck](AgentStatus::Stuck): not moved (but to and fro) for the
    /// steps [`set_stuck_after`](Self::set_stuck_after) says, or no nearer their goal
    /// for twice as many, while their goal is reachable.
    pub fn stuck(&self) -> impl Iterator<Item = AgentId> + '_ {
        // The plan is locked for each agent, never while the caller holds the
        // iterator: it may read the crowd's plan meanwhile (`status`).
        self.agents
            .iter()
            .enumerate()
            .filter(|(_, a)| a.alive)
            .map(|(i, a)| a.id(i))
            .filter(|&id| self.status(id) == Some(AgentStatus::Stuck))
    }
}
