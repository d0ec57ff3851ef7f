//! Single-pair searches: greedy best-first, A* and jump point search.

pub(crate) mod astar;
pub(crate) mod bit_rows;
pub(crate) mod greedy;
pub(crate) mod jps;
pub(crate) mod linked;
pub(crate) mod nodes;
pub(crate) mod query;
pub(crate) mod reach;
pub(crate) mod result;
pub(crate) mod solver;
pub(crate) mod window;

mod error;

use crate::cost::CostSum;
use crate::cost::EnterCost;
use crate::{Cell, Direction, Direction8, GridPath, GridPath8, MAX_STEPS};
pub use error::PathError;
pub use query::PathQuery;
pub use result::{Arrival, PathResult};
pub use solver::Solver;
use window::Window;

pub(crate) use crate::topology::NO_PARENT;

/// The step codes a search writes parents in: those of [`GridPath`] (4-connected) or
/// [`GridPath8`] (8-connected and hex). Every answer is a [`GridPath8`].
pub(crate) trait PackedSteps: Copy {
    /// Bits a step.
    const BITS: u32;
    /// The direction of step code `code`.
    fn dir8(code: u8) -> Direction8;
    /// The [`GridPath8`] code of step code `code` (below `1 << BITS`).
    fn code8(code: u8) -> u8;
}

impl PackedSteps for GridPath {
    const BITS: u32 = 2;
    #[inline]
    fn dir8(code: u8) -> Direction8 {
        Direction::from_bits(code).into()
    }
    #[inline(always)]
    fn code8(code: u8) -> u8 {
        // `Direction8` codes are `Direction` codes doubled.
        (code & 3) << 1
    }
}

impl PackedSteps for GridPath8 {
    const BITS: u32 = 3;
    #[inline]
    fn dir8(code: u8) -> Direction8 {
        Direction8::from_bits(code)
    }
    #[inline(always)]
    fn code8(code: u8) -> u8 {
        code & 7
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

/// Walks parent links (step codes of `P`) back from `end_slot` (where the search's
/// route ends, after `expanded` expansions), keeping the first [`MAX_STEPS`] steps of
/// the route in a packed path and summing the route's exact cost on the way.
pub(crate) fn backtrack<P: PackedSteps, C: EnterCost>(
    s: &Query<'_, C>,
    (end_slot, expanded): (u32, u32),
    mut parent: impl FnMut(u32) -> u8,
) -> PathResult {
    // Steps go into a 192-bit shift register as `GridPath8` codes, last step first:
    // once more than 56 are in, the far end falls off the top and the steps nearest
    // the start remain.
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
            (words[0] << 3) | u64::from(P::code8(code)),
            (words[1] << 3) | (words[0] >> 61),
            (words[2] << 3) | (words[1] >> 61),
        ];
        len += 1;
        let (slot_step, gi_step) = back[usize::from(code & 7)];
        slot = slot.wrapping_add(slot_step);
        gi += gi_step;
    }
    let path = GridPath8::from_raw_steps(&words, (len as usize).min(MAX_STEPS));
    let route_end = s.window.cell_of(end_slot);
    let end = if len as usize > MAX_STEPS {
        path.end(s.start)
    } else {
        route_end
    };
    PathResult {
        path,
        end,
        arrival: Arrival::of(route_end, s.goal, len),
        cost: cost.value(),
        route_len: len,
        expanded,
    }
}
