//! Each grid's crowd, kept equal to the solid units walking on that grid.

use bevy::prelude::*;
use tilepath::{AgentId, AgentSpec, Cell, Crowd, CrowdError, Grid};

use super::guide::PathGuide;
use super::untangling::Untangling;
use crate::PathingGrid;
use crate::grid::GridKey;

/// How far from where it was put a unit is moved to find a free cell (in cells,
/// Chebyshev distance).
const PLACE_RADIUS: i32 = 16;

/// Ticks before a unit that found no free cell within [`PLACE_RADIUS`] is tried again.
pub(crate) const PLACE_RETRY: u64 = 30;

/// Cells a grid's crowd tries for placing units in one tick, at most: units past it
/// wait for the next tick (a full search round one unit tries [`PLACE_SEARCH`] cells),
/// so that an overfull map cannot make one tick search round thousands.
pub(crate) const PLACE_BUDGET: u32 = 1 << 16;

/// Cells one unit's full search round its cell tries: the square within
/// [`PLACE_RADIUS`].
pub(crate) const PLACE_SEARCH: u32 = (2 * PLACE_RADIUS as u32 + 1).pow(2);

/// One grid's crowd and which unit each agent is.
pub(crate) struct GridCrowd {
    pub(crate) key: GridKey,
    /// The grid's width and height: a grid of another size gets a new crowd.
    dims: (u32, u32),
    pub(crate) crowd: Crowd,
    /// What the plugin keeps of each agent slot's unit, by [`AgentId::index`]: one
    /// record a slot, as the tick reads and writes all of it for every unit.
    pub(crate) slots: Vec<Slot>,
    /// The agents seen this tick ([`mark_seen`](Self::mark_seen)): when all of them,
    /// none is gone and the crowd need not be looked through for the gone.
    pub(crate) seen_now: usize,
    pub(crate) guide: PathGuide,
    /// When the crowd steps next.
    pub(crate) clock: StepClock,
    /// Grows whenever the crowd may have changed an agent other than through its
    /// unit's sync or a step: an agent dropped, the grid changed (a step made may
    /// have closed), the crowd made anew. A unit synced in the same epoch whose
    /// components are unchanged is as it was (see `step_crowds`), or was sent from
    /// where it stands by a step still open (its agent moved, its unit not yet).
    pub(crate) epoch: u64,
    /// The epoch every unit of the grid was last synced in, if the tick's sync left
    /// none unsynced (`u64::MAX`: not yet): while the epoch is still that, only units
    /// whose components changed need a sync (see `step_crowds`).
    pub(crate) synced_epoch: u64,
    /// The grid's generation the epoch has seen.
    generation: u64,
    /// The grid's [generation](crate::PathingGrid::generation) when the crowd last
    /// stepped (`u64::MAX`: never): the steps then made stay open while it is the
    /// same.
    pub(crate) stepped_on: u64,
    /// Cells left to try this tick for placing units ([`PLACE_BUDGET`] a tick).
    pub(crate) place_budget: u32,
    /// Where units stand stuck: the plan that takes them home.
    pub(crate) untangling: Untangling,
    /// Units placed in the crowd (`moves`).
    placed: u64,
    /// What [`moves`](Self::moves) counted for the crowds this grid had before.
    moves_before: u64,
}

/// What the plugin keeps of one agent slot's unit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    /// The unit.
    pub(crate) unit: Entity,
    /// The tick the unit was last seen: agents whose unit was not seen in a tick
    /// (despawned, no longer solid, moved to another grid) are removed.
    pub(crate) seen: u64,
    /// The unit's speed (cells per second; 0 without a follower), as read when it
    /// was last synced or its crowd last stepped.
    pub(crate) speed: f32,
    /// The steps its speed has earned and not spent (ready to step at 1; a step of
    /// its own accord spends 1; saved up while waiting, at most 1).
    pub(crate) credit: f32,
}

impl Slot {
    const EMPTY: Self = Self {
        unit: Entity::PLACEHOLDER,
        seen: 0,
        speed: 0.0,
        credit: 0.0,
    };
}

/// The pace of one grid's crowd: it steps every `period` ticks, as often as its
/// fastest unit walks a cell, and every step it decides is walked within the period.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StepClock {
    /// Ticks until the next step (0: this tick).
    pub(crate) countdown: u32,
    /// Ticks between the last step and the next.
    pub(crate) period: u32,
    /// The fastest solid unit's speed this tick (cells per second).
    pub(crate) fastest: f32,
    /// The work of the step begun to plan this tick ([`plan_crowds`](super::plan_crowds)):
    /// a share of what is left, so that it is planned by the tick before the step.
    pub(crate) share: usize,
}

impl StepClock {
    /// The most ticks between two steps (units slower than a cell in this many ticks
    /// still step at their speed: on some steps only).
    const MAX_PERIOD: u32 = 240;

    /// The period that lets a unit of the `fastest` speed step every period, at
    /// `hz` ticks a second: a whole number of ticks, no shorter than its step.
    pub(crate) fn period_for(fastest: f32, hz: f32) -> u32 {
        if fastest <= 0.0 || !fastest.is_finite() || hz <= 0.0 || !hz.is_finite() {
            return Self::MAX_PERIOD;
        }
        ((hz / fastest).ceil() as u32).clamp(1, Self::MAX_PERIOD)
    }
}

impl GridCrowd {
    /// A count that grows whenever a unit may have come to stand where none stood:
    /// at a step of the crowd, a unit placed, the grid's crowd made anew. (A unit
    /// recalled moves back onto the cell it left, next to where it was; a unit
    /// removed only leaves.)
    pub(crate) fn moves(&self) -> u64 {
        self.moves_before + self.placed + self.crowd.steps()
    }

    /// Whether the crowd is as every unit of it was last synced with: its epoch is
    /// the one they were all synced in, and its grid unchanged since (the same
    /// generation and size: a grid put in its place is another).
    pub(crate) fn is_synced(&self, grid: &PathingGrid) -> bool {
        self.synced_epoch == self.epoch
            && self.generation == grid.generation()
            && self.dims == (grid.grid().width(), grid.grid().height())
    }

    /// Notes the grid's generation this tick: a new one begins a new epoch.
    pub(crate) fn note_generation(&mut self, generation: u64) {
        if self.generation != generation {
            self.generation = generation;
            self.epoch += 1;
        }
    }

    /// Notes that `agent`'s unit was seen in `tick`.
    pub(crate) fn mark_seen(&mut self, agent: AgentId, tick: u64) {
        let seen = &mut self.slots[agent.index()].seen;
        if *seen != tick {
            *seen = tick;
            self.seen_now += 1;
        }
    }

    /// The unit holding `cell`, if any.
    pub(crate) fn holder(&self, cell: Cell) -> Option<Entity> {
        let agent = self.crowd.holder(cell)?;
        self.slots.get(agent.index()).map(|s| s.unit)
    }

    /// Adds `unit` as `spec` says, or if that cell is taken or blocked, at the nearest
    /// cell within [`PLACE_RADIUS`] where it fits (ring by ring, each ring in a fixed
    /// order). Returns the agent and where it stands. Every cell tried is taken from
    /// this tick's [`place_budget`](Self::place_budget).
    pub(crate) fn place(
        &mut self,
        grid: &Grid,
        unit: Entity,
        spec: AgentSpec,
        tick: u64,
    ) -> Result<(AgentId, Cell), CrowdError> {
        self.place_budget = self.place_budget.saturating_sub(1);
        let found = match self.add_unblocked(grid, spec) {
            Ok(agent) => (agent, spec.cell),
            Err(
                e @ (CrowdError::Occupied { .. }
                | CrowdError::Blocked { .. }
                | CrowdError::OutOfBounds { .. }),
            ) => (1..=PLACE_RADIUS)
                .flat_map(|r| ring(spec.cell, r))
                .find_map(|cell| {
                    self.place_budget = self.place_budget.saturating_sub(1);
                    let spec = AgentSpec { cell, ..spec };
                    self.add_unblocked(grid, spec).ok().map(|a| (a, cell))
                })
                .ok_or(e)?,
            Err(e) => return Err(e),
        };
        let i = found.0.index();
        if self.slots.len() <= i {
            self.slots.resize(i + 1, Slot::EMPTY);
        }
        self.slots[i].unit = unit;
        self.placed += 1;
        self.mark_seen(found.0, tick);
        self.slots[i].credit = 1.0;
        Ok(found)
    }
}

impl GridCrowd {
    /// Adds an agent as `spec` says, unless a cell under it is still blocked by a unit
    /// walking out of it ([`CrowdError::Occupied`] then).
    fn add_unblocked(&mut self, grid: &Grid, spec: AgentSpec) -> Result<AgentId, CrowdError> {
        let walking_out = super::footprint(spec.cell, spec.size)
            .find_map(|c| self.crowd.blocker(c).map(|by| (c, by)));
        if let Some((cell, by)) = walking_out {
            return Err(CrowdError::Occupied { cell, by });
        }
        self.crowd.add(grid, spec)
    }
}

/// The cells at Chebyshev distance `r` from `c`, row by row.
fn ring(c: Cell, r: i32) -> impl Iterator<Item = Cell> {
    (-r..=r).flat_map(move |dy| {
        let xs: &[i32] = if dy.abs() == r { &[] } else { &[-1, 1] };
        let full = (dy.abs() == r).then_some(-r..=r).into_iter().flatten();
        let sides = xs.iter().map(move |&s| s * r);
        full.chain(sides)
            .map(move |dx| Cell::new(c.x.saturating_add(dx), c.y.saturating_add(dy)))
    })
}

/// A crowd for `grid` whose units keep the cells they leave until their steps end
/// (a unit turned back by a wall returns to the cell it left).
fn new_crowd(grid: &Grid) -> Option<Crowd> {
    let mut crowd = Crowd::new(grid).ok()?;
    crowd.set_hold_left(true).ok()?;
    Some(crowd)
}

/// Every grid's crowd, made when a grid first has a solid unit.
#[derive(Resource, Default)]
pub(crate) struct Crowds {
    pub(crate) grids: Vec<GridCrowd>,
    /// Crowd ticks run so far.
    pub(crate) tick: u64,
    /// Agents to remove this tick (kept to allocate nothing once grown).
    pub(crate) gone: Vec<AgentId>,
    /// Whether the last tick's sync left no unit to be placed in a later tick.
    pub(crate) none_unplaced: bool,
    /// Whether a component the crowds read was removed, or a map added or removed,
    /// since their last tick (`step::note_departure`).
    pub(crate) departed: bool,
}

impl Crowds {
    /// Removes `agent` of `key`'s crowd if it still is `unit`'s, which left it: a
    /// new epoch begins, as for the agents of units gone.
    pub(crate) fn drop_agent(&mut self, key: GridKey, agent: AgentId, unit: Entity) {
        let Some(gc) = self.grids.iter_mut().find(|g| g.key == key) else {
            return;
        };
        if gc.slots.get(agent.index()).map(|s| s.unit) == Some(unit)
            && gc.crowd.remove(agent).is_ok()
        {
            gc.epoch += 1;
        }
    }

    /// The crowd of `key`, if that grid has one.
    pub(crate) fn get(&self, key: GridKey) -> Option<&GridCrowd> {
        self.grids.iter().find(|g| g.key == key)
    }

    /// The crowd of `key` for `pathing`'s grid, made (or made again, empty, when the
    /// grid's size changed) as needed; `None` if its memory cannot be had. A crowd
    /// made now has seen the grid's generation; the others see it at the start of
    /// each tick (`step_crowds`).
    pub(crate) fn for_grid(
        &mut self,
        key: GridKey,
        pathing: &PathingGrid,
    ) -> Option<&mut GridCrowd> {
        let grid = pathing.grid();
        let dims = (grid.width(), grid.height());
        let i = match self.grids.iter().position(|g| g.key == key) {
            Some(i) => {
                let g = &mut self.grids[i];
                if g.dims != dims {
                    let crowd = new_crowd(grid)?;
                    g.moves_before = g.moves() + 1;
                    g.placed = 0;
                    g.crowd = crowd;
                    g.dims = dims;
                    g.slots.clear();
                    g.seen_now = 0;
                    g.untangling = Untangling::default();
                    g.stepped_on = u64::MAX;
                    g.epoch += 1;
                }
                i
            }
            None => {
                self.grids.push(GridCrowd {
                    key,
                    dims,
                    crowd: new_crowd(grid)?,
                    slots: Vec::new(),
                    seen_now: 0,
                    guide: PathGuide::default(),
                    clock: StepClock::default(),
                    stepped_on: u64::MAX,
                    // Above every epoch of the grids' crowds made in earlier ticks.
                    epoch: self.tick << 32,
                    synced_epoch: u64::MAX,
                    generation: pathing.generation(),
                    place_budget: PLACE_BUDGET,
                    untangling: Untangling::default(),
                    placed: 0,
                    moves_before: 0,
                });
                self.grids.len() - 1
            }
        };
        Some(&mut self.grids[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_hold_every_cell_at_their_distance_once() {
        let c = Cell::new(10, 10);
        for r in 1..5 {
            let cells: Vec<Cell> = ring(c, r).collect();
            assert_eq!(cells.len(), 8 * r as usize);
            for (i, a) in cells.iter().enumerate() {
                assert_eq!(a.x.abs_diff(c.x).max(a.y.abs_diff(c.y)), r as u32);
                assert!(!cells[..i].contains(a));
            }
        }
    }
}
