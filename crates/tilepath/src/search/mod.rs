//! Single-pair searches: greedy best-first, A* and jump point search.

pub(crate) mod astar;
pub(crate) mod bit_rows;
pub(crate) mod greedy;
pub(crate) mod jps;
pub(crate) mod linked;
pub(crate) mod nodes;
pub(crate) mod query;
pub(crate) mod window;

use crate::cost::CostSum;
use crate::footprint::EnterCost;
use crate::{Cell, Direction, Direction8, Grid, GridPath, GridPath8, MAX_STEPS};
use core::fmt;
pub use query::PathQuery;
use window::Window;

/// The answer of a search.
///
/// `path` holds the first steps (at most 56) of the *route* the search found: the whole
/// way to the goal, or, when the goal cannot be reached, the way to the reachable cell
/// closest to it. A unit walks `path`; if the result is [`partial`](Self::partial) it
/// plans again from [`end`](Self::end).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathResult<P> {
    /// The first steps of the route, in walking order.
    pub path: P,
    /// The cell `path` ends at.
    pub end: Cell,
    /// What walking `path` costs: the sum of the costs of the cells it enters (times
    /// `sqrt(2)` for 8-connected diagonal steps; hex steps cost the cell alone).
    pub cost: f64,
    /// `path` does not end at the goal: the goal is blocked, outside the grid,
    /// unreachable, outside the search window, more steps away than a path holds, or
    /// the search hit its expansion limit.
    pub partial: bool,
    /// The whole route found, of which `path` is the beginning.
    pub route: Route,
    /// Nodes the search expanded.
    pub expanded: u32,
}

impl<P> PathResult<P> {
    /// Whether the route goes on past the end of `path` (it was longer than a path
    /// holds): walk `path`, then plan again.
    #[inline]
    #[must_use]
    pub fn continues(&self) -> bool {
        self.route.end != self.end
    }

    /// The same result with its path turned into another form (e.g. wrapped in an
    /// enum holding 4- and 8-connected paths alike).
    #[inline]
    #[must_use]
    pub fn map_path<Q>(self, f: impl FnOnce(P) -> Q) -> PathResult<Q> {
        PathResult {
            path: f(self.path),
            end: self.end,
            cost: self.cost,
            partial: self.partial,
            route: self.route,
            expanded: self.expanded,
        }
    }
}

/// The whole route a search found.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Route {
    /// The cell the route ends at: the goal if [`reaches_goal`](Self::reaches_goal),
    /// otherwise the reachable cell closest to the goal (by the search's distance
    /// estimate; ties go to the cheaper route).
    pub end: Cell,
    /// The route's cost.
    pub cost: f64,
    /// The route's number of steps.
    pub len: u32,
    /// Whether the route ends at the goal.
    pub reaches_goal: bool,
}

/// Why a search could not run at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathError {
    /// The start cell is outside the grid (an empty grid has no cells at all).
    StartOutOfBounds {
        /// The start cell.
        start: Cell,
        /// Width of the grid.
        width: u32,
        /// Height of the grid.
        height: u32,
    },
    /// A whole-grid search needs one scratch slot per cell, row stride rounded up to a
    /// power of two, and at most `u32::MAX` of them.
    GridTooLarge {
        /// Width of the grid.
        width: u32,
        /// Height of the grid.
        height: u32,
    },
    /// The system could not give a whole-grid search's scratch (nothing was
    /// allocated; the solver is unchanged).
    OutOfMemory {
        /// Bytes the scratch needs: [`AStar::whole_grid_bytes`](crate::AStar::whole_grid_bytes).
        bytes: u64,
    },
    /// A sized query's unit has size 0.
    ZeroUnitSize,
    /// A sized query's unit cannot fit anywhere: it is larger than the grid's width or
    /// height, or than [`MAX_UNIT_SIZE`](crate::MAX_UNIT_SIZE).
    UnitTooLarge {
        /// The unit's side.
        size: u8,
        /// Width of the grid.
        width: u32,
        /// Height of the grid.
        height: u32,
    },
    /// A sized query's [`Clearance`](crate::Clearance) is of another grid size, or
    /// was built for a mobility that enters other tile kinds than the query's.
    ClearanceMismatch,
    /// A hex query's unit is bigger than one cell: unit sizes on hex maps are not
    /// supported yet.
    HexUnitSize {
        /// The unit's side.
        size: u8,
    },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::StartOutOfBounds {
                start,
                width,
                height,
            } => write!(f, "start cell {start} is outside the {width}x{height} grid"),
            Self::GridTooLarge { width, height } => write!(
                f,
                "a {width}x{height} grid is too large for a whole-grid search"
            ),
            Self::OutOfMemory { bytes } => write!(
                f,
                "out of memory: a whole-grid search of this grid needs {bytes} bytes"
            ),
            Self::ZeroUnitSize => f.write_str("a unit of size 0 occupies no cell"),
            Self::UnitTooLarge {
                size,
                width,
                height,
            } => write!(
                f,
                "a {size}x{size} unit fits nowhere on a {width}x{height} grid (sizes go up to {})",
                crate::MAX_UNIT_SIZE
            ),
            Self::ClearanceMismatch => f.write_str(
                "the clearance is of another grid size or of a mobility entering other tile kinds",
            ),
            Self::HexUnitSize { size } => {
                write!(f, "a {size}x{size} unit: hex maps take one-cell units only")
            }
        }
    }
}

impl std::error::Error for PathError {}

impl PathError {
    /// `start` is not a cell of `grid`.
    pub(crate) fn start_out_of_bounds(grid: &Grid, start: Cell) -> Self {
        Self::StartOutOfBounds {
            start,
            width: grid.width(),
            height: grid.height(),
        }
    }
}

/// Parent code of a search's start node.
pub(crate) const NO_PARENT: u8 = 0xF;

/// What the solvers need from a packed path type.
pub(crate) trait PackedSteps: Copy {
    /// Bits a step.
    const BITS: u32;
    /// The path whose first steps are the low bits of `words` (step 0 in bits
    /// `0..BITS`), `len` of them.
    fn from_words(words: [u64; 3], len: usize) -> Self;
    fn code_at(&self, i: usize) -> u8;
    fn steps(&self) -> usize;
    fn dir8(code: u8) -> Direction8;
}

impl PackedSteps for GridPath {
    const BITS: u32 = 2;
    #[inline]
    fn from_words(words: [u64; 3], len: usize) -> Self {
        GridPath::from_raw_steps(&words, len)
    }
    #[inline]
    fn code_at(&self, i: usize) -> u8 {
        self.get(i).map_or(0, Direction::bits)
    }
    #[inline]
    fn steps(&self) -> usize {
        self.len()
    }
    #[inline]
    fn dir8(code: u8) -> Direction8 {
        Direction::from_bits(code).into()
    }
}

impl PackedSteps for GridPath8 {
    const BITS: u32 = 3;
    #[inline]
    fn from_words(words: [u64; 3], len: usize) -> Self {
        GridPath8::from_raw_steps(&words, len)
    }
    #[inline]
    fn code_at(&self, i: usize) -> u8 {
        self.get(i).map_or(0, Direction8::bits)
    }
    #[inline]
    fn steps(&self) -> usize {
        self.len()
    }
    #[inline]
    fn dir8(code: u8) -> Direction8 {
        Direction8::from_bits(code)
    }
}

/// What a query searched: everything [`backtrack`] needs besides the search's answer.
pub(crate) struct Query<'a, C> {
    pub(crate) costs: C,
    pub(crate) window: &'a Window,
    pub(crate) start: Cell,
    pub(crate) goal: Cell,
    /// Whether diagonal steps cost `sqrt(2)` times the cell (8-connected; not hex).
    pub(crate) octile: bool,
}

/// Walks parent links back from `end_slot` (where the search's route ends, after
/// `expanded` expansions), keeping the first [`MAX_STEPS`] steps of the route in a
/// packed path and summing the route's exact cost on the way.
pub(crate) fn backtrack<P: PackedSteps, C: EnterCost>(
    s: &Query<'_, C>,
    (end_slot, expanded): (u32, u32),
    mut parent: impl FnMut(u32) -> u8,
) -> PathResult<P> {
    // Steps go into a 192-bit shift register, last step first: once more than 56 are
    // in, the far end falls off the top and the steps nearest the start remain.
    let mut words = [0u64; 3];
    let mut len = 0u32;
    let mut cost = CostSum::default();
    let mut slot = end_slot;
    let grid = s.costs.grid();
    let w = grid.width() as isize;
    let mut gi = grid
        .index_of(s.window.cell_of(end_slot))
        .map_or(0, |i| i as isize);
    // Per direction code: how a step back moves the slot and the grid index.
    let mut back = [(0u32, 0isize); 8];
    for (code, entry) in back.iter_mut().enumerate().take(1 << P::BITS) {
        let (dx, dy) = P::dir8(code as u8).offset();
        *entry = (
            s.window.offset_slot(0, -dx, -dy),
            -(dx as isize) - dy as isize * w,
        );
    }
    // Where every enterable cell costs the same, the route's cost follows from its
    // steps alone: no grid reads on the way back.
    let uniform = s.costs.uniform();
    loop {
        let code = parent(slot);
        if code == NO_PARENT {
            break;
        }
        let entered = match uniform {
            Some(c) => c,
            None => s.costs.at(gi as usize),
        };
        cost.add(entered, s.octile && code & 1 == 1);
        words = [
            (words[0] << P::BITS) | u64::from(code),
            (words[1] << P::BITS) | (words[0] >> (64 - P::BITS)),
            (words[2] << P::BITS) | (words[1] >> (64 - P::BITS)),
        ];
        len += 1;
        let (slot_step, gi_step) = back[usize::from(code & 7)];
        slot = slot.wrapping_add(slot_step);
        gi += gi_step;
    }
    let path = P::from_words(words, (len as usize).min(MAX_STEPS));
    let route_end = s.window.cell_of(end_slot);
    let route = Route {
        end: route_end,
        cost: cost.value(),
        len,
        reaches_goal: route_end == s.goal,
    };
    let (end, path_cost) = if len as usize > MAX_STEPS {
        let mut cell = s.start;
        let mut sum = CostSum::default();
        for i in 0..path.steps() {
            let dir = P::dir8(path.code_at(i));
            cell = cell.step(dir);
            sum.add(s.costs.of_cell(cell), s.octile && dir.is_diagonal());
        }
        (cell, sum.value())
    } else {
        (route_end, route.cost)
    };
    PathResult {
        path,
        end,
        cost: path_cost,
        partial: end != s.goal,
        route,
        expanded,
    }
}
