//! The cost model: what entering a cell costs a unit ([`EnterCost`], `enter.rs`), and
//! the fixed-point step costs of 8-connected movement.

mod enter;

pub(crate) use enter::{CellCosts, EnterCost};

/// The weight of an orthogonal step in 8-connected searches (times the cell cost).
///
/// 8-connected searches add integers: an orthogonal step into a cell of cost `c` adds
/// `c * OCTILE_STRAIGHT`, a diagonal step `c * OCTILE_DIAGONAL`. `3363 / 2378` is a
/// continued-fraction convergent of `sqrt(2)` with a relative error of `6.3e-8`, so the
/// integer search picks routes whose true cost is optimal to well within the
/// `1e-5` that the Moving AI benchmarks print. Reported costs are not fixed-point: they
/// are recomputed exactly as `straight + diagonal * sqrt(2)` from the route's cells.
pub const OCTILE_STRAIGHT: u64 = 2378;

/// The weight of a diagonal step in 8-connected searches; see [`OCTILE_STRAIGHT`].
pub const OCTILE_DIAGONAL: u64 = 3363;

/// The octile distance `|dx|, |dy|` in fixed-point units, for a minimal cell cost of 1.
#[inline(always)]
pub(crate) const fn octile_units(dx: u64, dy: u64) -> u64 {
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    OCTILE_STRAIGHT * (hi - lo) + OCTILE_DIAGONAL * lo
}

/// An exact route cost: the sum of the cell costs entered by straight steps, and of
/// those entered by diagonal steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CostSum {
    pub(crate) straight: u64,
    pub(crate) diagonal: u64,
}

impl CostSum {
    #[inline]
    pub(crate) fn add(&mut self, cell_cost: u8, diagonal: bool) {
        if diagonal {
            self.diagonal += u64::from(cell_cost);
        } else {
            self.straight += u64::from(cell_cost);
        }
    }

    #[inline]
    pub(crate) fn value(self) -> f64 {
        self.straight as f64 + self.diagonal as f64 * core::f64::consts::SQRT_2
    }
}
