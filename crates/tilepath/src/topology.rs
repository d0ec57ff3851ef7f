//! How units move between cells: the one home of the neighbourhoods.
//!
//! A [`Neighborhood`] is a way of moving (4- or 8-connected today): which neighbours a
//! cell has, the direction codes of the steps to them, their fixed-point weights, the
//! heuristic distance, and how a search visits them in its window. The hot loops are
//! generic over it and monomorphised per neighbourhood, so a new topology (hex) is a
//! new [`Connectivity`] variant and a new implementation of this trait: the compiler
//! then lists every `match` on the connectivity that must learn it.
//!
//! The movement rule for callers outside the hot loops (a step enters a passable cell;
//! a diagonal step also needs both cells beside its corner passable) is
//! [`Grid::can_step`](crate::Grid::can_step); the loops apply it on the offsets here.

use crate::cost::{OCTILE_DIAGONAL, OCTILE_STRAIGHT, octile_units};
use crate::footprint::EnterCost;
use crate::search::window::{Visit, Window};
use crate::search::{NO_PARENT, PackedSteps};
use crate::{Connectivity, GridPath, GridPath8};

/// A way of moving between cells, as the solvers' hot loops see it. Implemented by the
/// zero-sized [`Four`] and [`Eight`]; the runtime [`Connectivity`] picks one.
pub(crate) trait Neighborhood: 'static {
    /// The runtime name of this neighbourhood.
    const CONNECTIVITY: Connectivity;
    /// Whether there are diagonal steps (odd [`Direction8`](crate::Direction8) codes),
    /// and with them the corner rule.
    const DIAGONALS: bool;
    /// The fixed-point weight of a straight step into a cell of cost 1.
    const STRAIGHT: u64;
    /// The fixed-point weight of a diagonal step into a cell of cost 1 (0 without
    /// diagonals).
    const DIAGONAL: u64;
    /// The packed path a search's route is written to; its step codes are the
    /// *search codes* below.
    type Path: PackedSteps;

    /// A lower bound on the weight of a route between cells `dx` and `dy` apart on a
    /// mobility whose cheapest cell costs 1: the A* heuristic.
    fn distance(dx: u64, dy: u64) -> u64;

    /// The fixed-point weight of a step with search code `code` into a cell of cost 1.
    fn weight(code: u8) -> u64;

    /// The search code of the step back from a cell reached by search code `code`, the
    /// one a search need not visit; nothing (`0xFF`) for the start ([`NO_PARENT`]).
    fn back(code: u8) -> u8;

    /// Calls `visitor.visit` for every neighbour of local cell `(lx, ly)` (slot
    /// `slot`) that a legal step reaches inside `window`, except the one in search
    /// code `skip`, with its search code.
    ///
    /// # Safety
    /// As [`Window::visit_square`]: `slot` is the slot of local cell `(lx, ly)`,
    /// inside the window, and `costs` are of the grid the window was made for.
    #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
    unsafe fn visit_neighbours<C: EnterCost, V: Visit>(
        window: &Window,
        costs: &C,
        slot: u32,
        lx: u32,
        ly: u32,
        skip: u8,
        visitor: &mut V,
    );
}

/// 4-connected movement: right, down, left, up. Search codes are
/// [`Direction`](crate::Direction) codes; paths are [`GridPath`]s.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Four;

/// 8-connected movement without corner cutting. Search codes are
/// [`Direction8`](crate::Direction8) codes; paths are [`GridPath8`]s.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Eight;

impl Neighborhood for Four {
    const CONNECTIVITY: Connectivity = Connectivity::Four;
    const DIAGONALS: bool = false;
    const STRAIGHT: u64 = 1;
    const DIAGONAL: u64 = 0;
    type Path = GridPath;

    #[inline(always)]
    fn distance(dx: u64, dy: u64) -> u64 {
        dx + dy
    }

    #[inline(always)]
    fn weight(_code: u8) -> u64 {
        1
    }

    #[inline(always)]
    fn back(code: u8) -> u8 {
        if code == NO_PARENT { 0xFF } else { code ^ 2 }
    }

    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
    unsafe fn visit_neighbours<C: EnterCost, V: Visit>(
        window: &Window,
        costs: &C,
        slot: u32,
        lx: u32,
        ly: u32,
        skip: u8,
        visitor: &mut V,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { window.visit_square::<false, C, V>(costs, slot, lx, ly, skip, visitor) }
    }
}

impl Neighborhood for Eight {
    const CONNECTIVITY: Connectivity = Connectivity::Eight;
    const DIAGONALS: bool = true;
    const STRAIGHT: u64 = OCTILE_STRAIGHT;
    const DIAGONAL: u64 = OCTILE_DIAGONAL;
    type Path = GridPath8;

    #[inline(always)]
    fn distance(dx: u64, dy: u64) -> u64 {
        octile_units(dx, dy)
    }

    #[inline(always)]
    fn weight(code: u8) -> u64 {
        if code & 1 == 1 {
            OCTILE_DIAGONAL
        } else {
            OCTILE_STRAIGHT
        }
    }

    #[inline(always)]
    fn back(code: u8) -> u8 {
        if code == NO_PARENT {
            0xFF
        } else {
            (code + 4) & 7
        }
    }

    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
    unsafe fn visit_neighbours<C: EnterCost, V: Visit>(
        window: &Window,
        costs: &C,
        slot: u32,
        lx: u32,
        ly: u32,
        skip: u8,
        visitor: &mut V,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { window.visit_square::<true, C, V>(costs, slot, lx, ly, skip, visitor) }
    }
}

/// The offsets of a cell's 8 neighbours in a row-major array `stride` cells wide (a
/// grid padded with a border of blocked cells, so that every cell of the grid has all
/// 8), in [`Direction8`](crate::Direction8) code order: right, up-right, up, up-left,
/// left, down-left, down, down-right (`+y` is up).
#[inline(always)]
pub(crate) const fn padded_offsets(stride: usize) -> [isize; 8] {
    let s = stride as isize;
    [1, s + 1, s, s - 1, -1, -s - 1, -s, 1 - s]
}

/// The fixed-point weight of a step in [`Direction8`](crate::Direction8) code `code`
/// into a cell of cost 1: 1 when 4-connected, [`OCTILE_STRAIGHT`] or [`OCTILE_DIAGONAL`]
/// when 8-connected. The runtime twin of [`Neighborhood::weight`] for code outside the
/// monomorphised loops.
#[inline(always)]
pub(crate) const fn step_weight(connectivity: Connectivity, code: usize) -> u64 {
    match connectivity {
        Connectivity::Four => 1,
        Connectivity::Eight if code & 1 == 1 => OCTILE_DIAGONAL,
        Connectivity::Eight => OCTILE_STRAIGHT,
    }
}

/// The corner rule on a padded cost array (0 = blocked): a straight step is always
/// allowed by it; a diagonal step from padded index `i` in
/// [`Direction8`](crate::Direction8) code `code` needs both cells beside its corner
/// open. (Whether the cell stepped into is open is the caller's test.)
#[inline(always)]
pub(crate) fn corner_open(costs: &[u8], offsets: &[isize; 8], i: usize, code: usize) -> bool {
    code & 1 == 0 || {
        let a = i.wrapping_add_signed(offsets[(code + 7) & 7]);
        let b = i.wrapping_add_signed(offsets[(code + 1) & 7]);
        costs[a] != 0 && costs[b] != 0
    }
}

/// The [`Direction8`](crate::Direction8) codes a unit moves in: all 8, or the 4
/// orthogonal ones (even codes).
#[inline]
pub(crate) const fn direction_codes(connectivity: Connectivity) -> &'static [usize] {
    match connectivity {
        Connectivity::Eight => &[0, 1, 2, 3, 4, 5, 6, 7],
        Connectivity::Four => &[0, 2, 4, 6],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Direction8;

    #[test]
    fn offsets_follow_the_direction_codes() {
        let stride = 10;
        for bits in 0..8u8 {
            let (dx, dy) = Direction8::from_bits(bits).offset();
            let want = dy as isize * stride as isize + dx as isize;
            assert_eq!(padded_offsets(stride)[usize::from(bits)], want);
        }
        assert!(
            direction_codes(Connectivity::Four)
                .iter()
                .all(|&d| !Direction8::from_bits(d as u8).is_diagonal())
        );
    }
}
