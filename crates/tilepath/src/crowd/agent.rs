//! What an agent is: its id, what the caller says of it, and what the crowd keeps.

use crate::{Cell, Connectivity, GridPath8, Mobility};

/// An agent of a [`Crowd`](super::Crowd): a slot and the slot's generation, so that
/// an id of a removed agent never names the agent that takes its slot later.
///
/// [`index`](Self::index) is small and dense (slots are reused): a caller may key
/// its own per-agent tables by it, as a [`Guidance`](super::Guidance) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AgentId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl AgentId {
    /// The agent's slot: below the crowd's [`slots`](super::Crowd::slots).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.index as usize
    }

    /// How many agents held this slot before this one.
    #[inline]
    #[must_use]
    pub const fn generation(self) -> u32 {
        self.generation
    }
}

/// An agent to add to a [`Crowd`](super::Crowd).
///
/// The agent is a square of `size x size` cells anchored at `cell`, the footprint's
/// corner with the smallest `x` and `y` (as for [`Footprint`](crate::Footprint)); it
/// steps as [`Grid::can_step_sized`](crate::Grid::can_step_sized) allows for its
/// `mobility`, orthogonally or, with [`Connectivity::Eight`], diagonally too (no
/// corner cutting). On a hex map ([`Connectivity::Hex`]) it is one cell and steps to
/// the 6 neighbours of its [`HexLayout`](crate::HexLayout), as
/// [`Grid::can_step_with`](crate::Grid::can_step_with) allows (no corner rule). `goal`
/// is the anchor it heads for, if any: the crowd reads its costs from a
/// [`Guidance`](super::Guidance), and uses the goal to know when the agent has
/// arrived and which agents share a destination.
///
/// ```
/// use tilepath::{AgentSpec, Cell, Connectivity, Mobility};
/// let tank = AgentSpec::new(Cell::new(4, 4))
///     .size(2)
///     .connectivity(Connectivity::Eight)
///     .goal(Cell::new(30, 12));
/// assert_eq!((tank.size, tank.mobility), (2, Mobility::FLOOR_ONLY));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AgentSpec {
    /// The anchor: the footprint's min corner.
    pub cell: Cell,
    /// The footprint's side, 1 to [`MAX_UNIT_SIZE`](crate::MAX_UNIT_SIZE).
    pub size: u8,
    /// The cells it may enter.
    pub mobility: Mobility,
    /// [`Connectivity::Four`] or [`Connectivity::Eight`] on squares;
    /// [`Connectivity::Hex`] on a hex map (one-cell agents only). A crowd's agents are
    /// all on squares or all on hex cells of one layout (see
    /// [`Crowd::add`](super::Crowd::add)).
    pub connectivity: Connectivity,
    /// The anchor it heads for; `None`: it stays unless asked to step aside.
    pub goal: Option<Cell>,
}

impl AgentSpec {
    /// A one-cell agent at `cell`, [`Mobility::FLOOR_ONLY`], 4-connected, no goal.
    #[must_use]
    pub const fn new(cell: Cell) -> Self {
        Self {
            cell,
            size: 1,
            mobility: Mobility::FLOOR_ONLY,
            connectivity: Connectivity::Four,
            goal: None,
        }
    }

    /// With a footprint of `size x size` cells.
    #[must_use]
    pub const fn size(mut self, size: u8) -> Self {
        self.size = size;
        self
    }

    /// With `mobility`.
    #[must_use]
    pub const fn mobility(mut self, mobility: Mobility) -> Self {
        self.mobility = mobility;
        self
    }

    /// With `connectivity`: 4- or 8-connected on squares, or the hex steps of a
    /// layout.
    #[must_use]
    pub const fn connectivity(mut self, connectivity: Connectivity) -> Self {
        self.connectivity = connectivity;
        self
    }

    /// Heading for `goal`.
    #[must_use]
    pub const fn goal(mut self, goal: Cell) -> Self {
        self.goal = Some(goal);
        self
    }
}

/// No agent / no cell: the empty value of the flat tables.
pub(crate) const NONE: u32 = u32::MAX;

/// Where an agent is in a step's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Not asked yet.
    Open,
    /// On the stack of requests, its tentative target set.
    Asking,
    /// Its next anchor is final for this step.
    Done,
}

/// [`Agent::far`] when its guidance has not said how far its goal is.
pub(crate) const FAR_UNKNOWN: u32 = u32::MAX;

/// The farthest distance the priority's tie-break tells apart (24 bits of its key).
pub(crate) const FAR_MAX: u32 = (1 << 24) - 1;

/// What the crowd keeps of an agent, in its slot: what a step's planning reads and
/// never writes (what it writes is the agent's [`AgentPlan`]), so that the crowd may be
/// read while a step is planned.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Agent {
    pub(crate) generation: u32,
    pub(crate) alive: bool,
    pub(crate) cell: Cell,
    pub(crate) size: u8,
    pub(crate) mobility: Mobility,
    /// How it moves: every step it tries is read from `moves.rs`.
    pub(crate) connectivity: Connectivity,
    pub(crate) goal: Option<Cell>,
    /// A fixed pseudo-random number: the priority's tie-break among agents whose
    /// distance is not known or is the same.
    pub(crate) tiebreak: u32,
    /// The step count when it last moved (or was added), not counting a move straight
    /// back to the cell it left on its move before, unless that is its goal: an agent
    /// pushed to and fro between two cells makes no way, and is
    /// [stuck](super::AgentStatus::Stuck) by this count (and gives up a detour).
    pub(crate) last_moved: u64,
    /// The cell it left on its last move (where it was added, before any).
    pub(crate) came_from: Cell,
    /// Its anchor before the last step.
    pub(crate) prev: Cell,
    /// The caller moves it, never a step: it is not asked and cannot be pushed.
    pub(crate) pinned: bool,
    /// Whether it steps of its own accord this step ([`Crowd::set_ready`](super::Crowd::set_ready)).
    pub(crate) ready: bool,
    /// The anchor it left and still blocks until it arrives
    /// ([`Crowd::set_hold_left`](super::Crowd::set_hold_left)).
    pub(crate) left: Option<Cell>,
}

/// What planning a step keeps of an agent, in its slot of the crowd's plan
/// (`plan.rs`): its priority, its cost where it stands, its candidates and where it
/// is in the step's decision.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AgentPlan {
    /// Steps since it last stood on its goal or yielded (the priority's main part).
    pub(crate) elevation: u32,
    /// How far it was from its goal when it set off for it, as its guidance said
    /// ([`Guidance::set_off_distance`](super::Guidance::set_off_distance);
    /// [`FAR_UNKNOWN`]: not said): the priority's tie-break, the farther first.
    pub(crate) far: u32,
    /// Its cost-to-go where it stands, this step (`u32::MAX`: unreachable).
    pub(crate) here_cost: u32,
    /// The lowest cost-to-go it has stood at since its guidance last changed where it
    /// stands (or its goal did), and the step it first stood there: an agent that gets
    /// no nearer its goal for long, however it moves, is stuck (a pair pushing each
    /// other on and off their goals in turn moves every step).
    pub(crate) best: u32,
    pub(crate) bettered: u64,
    /// It waits only for agents with its goal that are nearer to it: as near as it gets.
    pub(crate) yielding: bool,
    pub(crate) decision: Decision,
    /// The anchor it moves to (tentative while [`Decision::Asking`]).
    pub(crate) target: Cell,
    /// Where its candidates start in the crowd's candidate scratch, and how many.
    pub(crate) cand_from: u32,
    pub(crate) cand_len: u8,
    /// Its candidates are filled this step.
    pub(crate) filled: bool,
    /// The way round the agents ahead of it to a free anchor nearer its goal, which
    /// it walks first (`seek.rs`); empty when it has none.
    pub(crate) detour: GridPath8,
}

impl AgentPlan {
    /// An agent's plan as it is added at `cell` in slot `slot`: no priority gained,
    /// no cost known, staying.
    pub(crate) fn new(cell: Cell, slot: usize) -> Self {
        Self {
            elevation: 0,
            far: FAR_UNKNOWN,
            here_cost: u32::MAX,
            best: u32::MAX,
            bettered: 0,
            yielding: false,
            decision: Decision::Open,
            target: cell,
            cand_from: (slot * super::MAX_CANDIDATES) as u32,
            cand_len: 0,
            filled: false,
            detour: GridPath8::EMPTY,
        }
    }
}

impl Agent {
    pub(crate) fn id(&self, index: usize) -> AgentId {
        AgentId {
            index: index as u32,
            generation: self.generation,
        }
    }

    /// Whether it shares `other`'s class: size, mobility and connectivity.
    pub(crate) fn same_class(&self, other: &Agent) -> bool {
        self.size == other.size
            && self.mobility == other.mobility
            && self.connectivity == other.connectivity
    }
}
