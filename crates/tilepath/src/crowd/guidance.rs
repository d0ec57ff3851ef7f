//! Where agents want to go: the costs a [`Crowd`](super::Crowd) steps by.

use super::{AgentId, Crowd, CrowdError};
use crate::{Cell, Connectivity, DistanceField, FieldError, Grid, Mobility};

/// The cost-to-go a [`Crowd`](super::Crowd) moves its agents by: for an agent, how
/// far its goal is from an anchor it could stand on.
///
/// Contract: `cost_to_go(agent, cell)` is `Some(0)` on the agent's goal, grows by at
/// least 1 for each step away along the best route (the crowd compares one agent's
/// cells only, so any units do: cost units, steps, fixed-point distances), and is
/// `None` where no goal is reachable or the agent has none. The crowd asks for the
/// anchors around each agent every step and, while untangling corridors, along
/// them: answers must be cheap and must not change within one call (a step planned
/// in parts may be given guidance that changed between its parts: see
/// [`Crowd::begin_step`](super::Crowd::begin_step)).
///
/// [`GoalFields`] answers from one [`DistanceField`] per goal (the setting of
/// multi-agent path finding); a game may answer from shared fields, a next-hop
/// table, or paths (e.g. steps left along the agent's path, plus its distance from
/// the path). A closure `Fn(AgentId, Cell) -> Option<u32>` is a guidance too.
pub trait Guidance {
    /// The cost for `agent` to reach its goal from anchor `cell`.
    fn cost_to_go(&self, agent: AgentId, cell: Cell) -> Option<u32>;

    /// How far `agent`, setting off from `cell`, is from a goal of its own, in any
    /// units the same for every agent: the priority's tie-break among agents that
    /// have waited alike, the farther first (PIBT's rule: the agent with the longer
    /// way to go loses the most by waiting). Asked each step until it answers, once
    /// the agent has a goal; the answer is kept until its goal changes.
    ///
    /// `None` (the default): a fixed pseudo-random order instead. Answer `None` for
    /// agents sharing a goal: they cannot all reach it, and the farther ones first
    /// would push the nearer ones out of the places round it they hold.
    #[inline]
    fn set_off_distance(&self, agent: AgentId, cell: Cell) -> Option<u32> {
        let _ = (agent, cell);
        None
    }

    /// A hint: the crowd will soon ask for `agent`'s costs from `cell` and its
    /// neighbours, so a guidance that reads scattered memory (a distance field of a
    /// big map) may bring it into the cache now ([`DistanceField::prefetch`]). It
    /// must change nothing but time. The default does nothing.
    ///
    /// [`DistanceField::prefetch`]: crate::DistanceField::prefetch
    #[inline]
    fn prefetch(&self, agent: AgentId, cell: Cell) {
        let _ = (agent, cell);
    }
}

impl<F: Fn(AgentId, Cell) -> Option<u32>> Guidance for F {
    #[inline]
    fn cost_to_go(&self, agent: AgentId, cell: Cell) -> Option<u32> {
        self(agent, cell)
    }
}

/// What a field serves: a goal anchor and the class of agents heading there (the
/// field moves as they do: 4- or 8-connected, or by a hex layout's steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    goal: Cell,
    size: u8,
    mobility: Mobility,
    connectivity: Connectivity,
}

/// A ready [`Guidance`]: one [`DistanceField`] per goal, shared by the agents with
/// the same goal, size, mobility and connectivity, and moving as they do (a
/// 4-connected or hex field's units are cost units, an 8-connected one's
/// `OCTILE_STRAIGHT` times that; a hex agent's field takes the steps of its
/// [`HexLayout`](crate::HexLayout)).
///
/// [`update`](Self::update) builds the fields for the crowd's goals (computing only
/// fields for goals it has not seen, dropping those no agent heads for any more);
/// [`repair`](Self::repair) brings them up to date after grid edits. Memory: a
/// field's 5 bytes a cell per distinct goal, so this suits goals numbering in the
/// hundreds to thousands on maps of up to some hundred thousand cells; a game with
/// a few shared destinations on a large map keeps few fields.
#[derive(Clone, Debug, Default)]
pub struct GoalFields {
    /// The grid size the fields are of.
    dims: (u32, u32),
    keys: Vec<Key>,
    fields: Vec<DistanceField>,
    /// Per agent slot: its generation and the index of its field (`u32::MAX`: none).
    of_slot: Vec<(u32, u32)>,
    /// Per field: the agents heading for its goal.
    agents: Vec<u32>,
}

impl GoalFields {
    /// No fields yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Fields for the goals of `crowd`'s agents on `grid`: fields already computed
    /// for a goal and class are kept, new ones computed, unused ones dropped.
    ///
    /// # Errors
    /// [`CrowdError::GridMismatch`] if `grid` is not the crowd's size;
    /// [`CrowdError::Field`] if a field could not be made or computed (out of
    /// memory, or a distance past its range); the fields are then partly updated.
    pub fn update(&mut self, grid: &Grid, crowd: &Crowd) -> Result<(), CrowdError> {
        crowd.check_grid(grid)?;
        if self.dims != (grid.width(), grid.height()) {
            self.keys.clear();
            self.fields.clear();
            self.dims = (grid.width(), grid.height());
        }
        let mut used = vec![false; self.keys.len()];
        self.of_slot.clear();
        self.of_slot.resize(crowd.slots(), (0, u32::MAX));
        for (id, spec) in crowd.agents() {
            let Some(goal) = spec.goal else { continue };
            let key = Key {
                goal,
                size: spec.size,
                mobility: spec.mobility,
                connectivity: spec.connectivity,
            };
            let at = match self.keys.iter().position(|k| *k == key) {
                Some(at) => at,
                None => {
                    let field = Self::field_for(grid, key)?;
                    self.keys.push(key);
                    self.fields.push(field);
                    used.push(false);
                    self.keys.len() - 1
                }
            };
            used[at] = true;
            self.of_slot[id.index()] = (id.generation, at as u32);
        }
        // Drop unused fields, renumbering the slots' references.
        let mut remap = vec![u32::MAX; self.keys.len()];
        let mut kept = 0;
        for (i, &u) in used.iter().enumerate() {
            if u {
                self.keys.swap(kept, i);
                self.fields.swap(kept, i);
                remap[i] = kept as u32;
                kept += 1;
            }
        }
        self.keys.truncate(kept);
        self.fields.truncate(kept);
        self.agents.clear();
        self.agents.resize(kept, 0);
        for s in &mut self.of_slot {
            if s.1 != u32::MAX {
                s.1 = remap[s.1 as usize];
                self.agents[s.1 as usize] += 1;
            }
        }
        Ok(())
    }

    fn field_for(grid: &Grid, key: Key) -> Result<DistanceField, CrowdError> {
        let mut field = DistanceField::try_new(grid, key.mobility, key.connectivity)
            .and_then(|f| f.with_unit_size(key.size))
            .map_err(field_error)?;
        field.add_goal(key.goal, 0);
        field.compute(grid).map_err(field_error)?;
        // The breadth-first queue is of no more use: keep the values alone.
        Ok(field.clone_lean())
    }

    /// Repairs every field after the `changed` cells of `grid` were edited.
    ///
    /// # Errors
    /// [`CrowdError::GridMismatch`]; [`CrowdError::Field`] for a field's other
    /// errors ([`DistanceField::repair`]).
    pub fn repair(&mut self, grid: &Grid, changed: &[Cell]) -> Result<(), CrowdError> {
        for f in &mut self.fields {
            f.repair(grid, changed).map_err(field_error)?;
        }
        Ok(())
    }

    /// How many fields are kept (one per distinct goal and class).
    #[must_use]
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether no field is kept.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Bytes held by the fields.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.fields.iter().map(DistanceField::memory_bytes).sum()
    }
}

fn field_error(e: FieldError) -> CrowdError {
    match e {
        FieldError::GridMismatch(m) => CrowdError::GridMismatch(m),
        e => CrowdError::Field(e),
    }
}

impl GoalFields {
    /// The index of `agent`'s field, if it has one.
    #[inline]
    fn field_of(&self, agent: AgentId) -> Option<usize> {
        let &(generation, at) = self.of_slot.get(agent.index())?;
        (generation == agent.generation && at != u32::MAX).then_some(at as usize)
    }
}

impl Guidance for GoalFields {
    #[inline]
    fn cost_to_go(&self, agent: AgentId, cell: Cell) -> Option<u32> {
        let units = self.fields.get(self.field_of(agent)?)?.units(cell)?;
        Some(u32::try_from(units.max(0)).unwrap_or(u32::MAX - 1))
    }

    /// The agent's cost-to-go where it sets off, where no other agent heads for its
    /// goal.
    fn set_off_distance(&self, agent: AgentId, cell: Cell) -> Option<u32> {
        let at = self.field_of(agent)?;
        if self.agents.get(at) != Some(&1) {
            return None;
        }
        self.cost_to_go(agent, cell)
    }

    #[inline]
    fn prefetch(&self, agent: AgentId, cell: Cell) {
        if let Some(field) = self.field_of(agent).and_then(|f| self.fields.get(f)) {
            field.prefetch(cell);
        }
    }
}
