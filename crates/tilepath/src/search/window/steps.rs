//! How a search visits a cell's neighbours in its window, per way of moving: the
//! search's side of a [`Neighborhood`] (the lattice itself is `topology.rs`'s).

use super::{Visit, Window};
use crate::cost::EnterCost;
use crate::search::PackedSteps;
use crate::topology::{Eight, Four, HEX_CODES, HEX_INDEX, Hex, Neighborhood, hex_axial, hex_odd};
use crate::{GridPath, GridPath8};

/// A [`Neighborhood`] as a search in a [`Window`] walks it.
pub(crate) trait WindowSteps: Neighborhood {
    /// The packed path a search's route is written to; its step codes are the
    /// neighbourhood's search codes.
    type Path: PackedSteps;

    /// The coordinates [`distance`](Neighborhood::distance) takes of the cell at local
    /// coordinates `(lx, ly)` of `window` (which may lie outside it, as a goal may):
    /// the local coordinates themselves on square maps, the global cell's axial
    /// coordinates on hex maps. [`visit_neighbours`](Self::visit_neighbours) gives
    /// each neighbour's.
    #[inline(always)]
    fn frame(_window: &Window, (lx, ly): (i64, i64)) -> (i64, i64) {
        (lx, ly)
    }

    /// Calls `visitor.visit` for every neighbour of local cell `(lx, ly)` (slot
    /// `slot`) that a legal step reaches inside `window`, except the one in search
    /// code `skip`, with its search code and its unscaled heuristic
    /// ([`distance`](Self::distance) to `goal`, in the [`frame`](Self::frame)),
    /// computed only if the visitor asks. `d` is the cell's own distance to `goal`,
    /// which a neighbourhood may step from. A neighbourhood may also visit the
    /// neighbour in `skip` (the cell this one was reached from): every visitor turns
    /// it away, as reached more cheaply ([`Visit::visit`]).
    ///
    /// # Safety
    /// As [`Window::visit_square`]: `slot` is the slot of local cell `(lx, ly)`,
    /// inside the window, and `costs` are of the grid the window was made for.
    #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
    #[expect(clippy::too_many_arguments, reason = "inlined into the search loops")]
    unsafe fn visit_neighbours<C: EnterCost, V: Visit>(
        window: &Window,
        costs: &C,
        slot: u32,
        lx: u32,
        ly: u32,
        goal: (i64, i64),
        d: u64,
        skip: u8,
        visitor: &mut V,
    );
}

/// The square neighbourhoods: [`Window::visit_square`], with or without diagonals.
macro_rules! square_steps {
    ($n:ty, $path:ty, $diagonals:literal) => {
        impl WindowSteps for $n {
            type Path = $path;

            #[inline(always)]
            #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
            unsafe fn visit_neighbours<C: EnterCost, V: Visit>(
                window: &Window,
                costs: &C,
                slot: u32,
                lx: u32,
                ly: u32,
                goal: (i64, i64),
                _d: u64,
                skip: u8,
                visitor: &mut V,
            ) {
                let h = |at| Self::distance(at, goal);
                // SAFETY: forwarded from the caller.
                unsafe {
                    window.visit_square::<$diagonals, C, V>(costs, slot, lx, ly, h, skip, visitor)
                }
            }
        }
    };
}

square_steps!(Four, GridPath, false);
square_steps!(Eight, GridPath8, true);

impl<const L: u8> WindowSteps for Hex<L> {
    type Path = GridPath8;

    #[inline(always)]
    fn frame(window: &Window, (lx, ly): (i64, i64)) -> (i64, i64) {
        let (x, y) = window.global_of(lx, ly);
        hex_axial(Self::LAYOUT, x, y)
    }

    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window's clipping")]
    unsafe fn visit_neighbours<C: EnterCost, V: Visit>(
        window: &Window,
        costs: &C,
        slot: u32,
        lx: u32,
        ly: u32,
        goal: (i64, i64),
        d: u64,
        skip: u8,
        visitor: &mut V,
    ) {
        let (x, y) = window.global(lx, ly);
        let odd = hex_odd(Self::LAYOUT, x, y);
        let (q, r) = hex_axial(Self::LAYOUT, x, y);
        let from_goal = (q - goal.0, r - goal.1);
        let codes = &HEX_CODES[L as usize];
        // The step back to the parent, among this cell's 6 (6: none, at the start).
        let back = HEX_INDEX[L as usize][usize::from(odd)][usize::from(skip & 15)];
        // Every layout steps branchlessly on the parity: its diagonals differ by a
        // column (row layouts) or a row (column layouts) between the two patterns, and
        // a cell's parity follows no pattern a predictor could learn.
        // SAFETY: forwarded from the caller.
        unsafe {
            window.visit_hex(
                costs,
                slot,
                (lx, ly),
                (codes, odd, back),
                from_goal,
                d,
                visitor,
            );
        }
    }
}
