//! How units move between cells: the one home of the neighbourhoods.
//!
//! A [`Neighborhood`] is a way of moving (4- or 8-connected, or hex): which neighbours a
//! cell has, the direction codes of the steps to them, their fixed-point weights, the
//! heuristic distance. The hot loops are generic over it and monomorphised per
//! neighbourhood; how a search visits them in its window is the search's
//! (`search/window/steps.rs`). A new topology is a new [`Connectivity`] variant and a
//! new implementation of both traits: the compiler then lists every `match` on the
//! connectivity that must learn it.
//!
//! Hex steps are square steps too: each [`HexLayout`] gives a cell its 4 orthogonal
//! neighbours and 2 diagonal ones chosen by the parity of its row or column
//! ([`HEX_CODES`], the one table every hex loop reads).
//!
//! The movement rule for callers outside the hot loops (a step the connectivity allows
//! enters a passable cell; an 8-connected diagonal step also needs both cells beside
//! its corner passable) is [`Grid::can_step_with`](crate::Grid::can_step_with); the
//! loops apply it on the offsets here.

use crate::cost::{OCTILE_DIAGONAL, OCTILE_STRAIGHT, octile_units};
use crate::{Connectivity, HexLayout};

/// The step code of no step: a search's start has no parent, and [`Neighborhood::back`]
/// of it is no step's code.
pub(crate) const NO_PARENT: u8 = 0xF;

/// A way of moving between cells, as the solvers' hot loops see it. Implemented by the
/// zero-sized [`Four`], [`Eight`] and [`Hex`]; the runtime [`Connectivity`] picks one.
pub(crate) trait Neighborhood: 'static {
    /// The runtime name of this neighbourhood.
    const CONNECTIVITY: Connectivity;
    /// Whether there are octile diagonal steps (odd [`Direction8`](crate::Direction8)
    /// codes weighing [`DIAGONAL`](Self::DIAGONAL)), and with them the corner rule.
    /// Hex maps' diagonal steps are not these: they weigh 1 and have no corner rule.
    const DIAGONALS: bool;
    /// The hex layout whose steps these are, or `None` on square maps.
    const HEX: Option<HexLayout>;
    /// The fixed-point weight of a straight step into a cell of cost 1.
    const STRAIGHT: u64;
    /// The fixed-point weight of a diagonal step into a cell of cost 1 (0 without
    /// diagonals).
    const DIAGONAL: u64;
    /// A lower bound on the weight of a route between the cells at `at` and `goal`
    /// (local coordinates on square maps, axial ones on hex maps) on a mobility whose
    /// cheapest cell costs 1: the A* heuristic.
    fn distance(at: (i64, i64), goal: (i64, i64)) -> u64;

    /// The fixed-point weight of a step with search code `code` into a cell of cost 1.
    fn weight(code: u8) -> u64;

    /// The search code of the step back from a cell reached by search code `code`, the
    /// one a search need not visit; for the start ([`NO_PARENT`]) a value that is no
    /// step's code (such as `0xFF`).
    fn back(code: u8) -> u8;
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
    const HEX: Option<HexLayout> = None;
    const STRAIGHT: u64 = 1;
    const DIAGONAL: u64 = 0;

    #[inline(always)]
    fn distance((x, y): (i64, i64), (gx, gy): (i64, i64)) -> u64 {
        (x - gx).unsigned_abs() + (y - gy).unsigned_abs()
    }

    #[inline(always)]
    fn weight(_code: u8) -> u64 {
        1
    }

    #[inline(always)]
    fn back(code: u8) -> u8 {
        if code == NO_PARENT { 0xFF } else { code ^ 2 }
    }
}

impl Neighborhood for Eight {
    const CONNECTIVITY: Connectivity = Connectivity::Eight;
    const DIAGONALS: bool = true;
    const HEX: Option<HexLayout> = None;
    const STRAIGHT: u64 = OCTILE_STRAIGHT;
    const DIAGONAL: u64 = OCTILE_DIAGONAL;

    #[inline(always)]
    fn distance((x, y): (i64, i64), (gx, gy): (i64, i64)) -> u64 {
        octile_units((x - gx).unsigned_abs(), (y - gy).unsigned_abs())
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
}

/// Hex movement in the layout [`HexLayout::ALL`]`[L]`: 6 neighbours, every step weighing
/// 1 (as [`Four`]), no corner rule. Search codes are [`Direction8`](crate::Direction8)
/// codes; paths are [`GridPath8`]s.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hex<const L: u8>;

impl<const L: u8> Hex<L> {
    pub(crate) const LAYOUT: HexLayout = HexLayout::from_index(L);
}

impl<const L: u8> Neighborhood for Hex<L> {
    const CONNECTIVITY: Connectivity = Connectivity::Hex(Self::LAYOUT);
    const DIAGONALS: bool = false;
    const HEX: Option<HexLayout> = Some(Self::LAYOUT);
    const STRAIGHT: u64 = 1;
    const DIAGONAL: u64 = 1;

    #[inline(always)]
    fn distance((q, r): (i64, i64), (gq, gr): (i64, i64)) -> u64 {
        axial_distance(q - gq, r - gr)
    }

    #[inline(always)]
    fn weight(_code: u8) -> u64 {
        1
    }

    #[inline(always)]
    fn back(code: u8) -> u8 {
        // The opposite direction: (code + 4) mod 8, without a branch for the start
        // (NO_PARENT ^ 4 is no step's code).
        const { assert!(NO_PARENT ^ 4 > 7) };
        code ^ 4
    }
}

/// Calls `body` with the hex neighbourhood type of `layout` (a runtime layout to a
/// monomorphised loop).
macro_rules! with_hex {
    ($layout:expr, $n:ident => $body:expr) => {
        match $layout {
            $crate::HexLayout::Axial => {
                type $n = $crate::topology::Hex<0>;
                $body
            }
            $crate::HexLayout::RowEven => {
                type $n = $crate::topology::Hex<1>;
                $body
            }
            $crate::HexLayout::RowOdd => {
                type $n = $crate::topology::Hex<2>;
                $body
            }
            $crate::HexLayout::ColumnEven => {
                type $n = $crate::topology::Hex<3>;
                $body
            }
            $crate::HexLayout::ColumnOdd => {
                type $n = $crate::topology::Hex<4>;
                $body
            }
        }
    };
}
pub(crate) use with_hex;

/// The axial offsets of the 6 hex steps, in [`HEX_CODES`]' order (bevy_ecs_tilemap's
/// `HexDirection` order), the same in every layout and from every cell.
pub(crate) const HEX_AXIAL: [(i64, i64); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// Per hex layout (in [`HexLayout::ALL`] order) and cell parity (even, odd): the
/// [`Direction8`](crate::Direction8) codes of a cell's 6 steps, in bevy_ecs_tilemap's
/// `HexDirection` order (axial `(1, 0)`, `(0, 1)`, `(-1, 1)`, `(-1, 0)`, `(0, -1)`,
/// `(1, -1)`). The parity is the row's for row layouts, the column's for column
/// layouts (see [`hex_odd`]); axial maps have one pattern.
///
/// Derived from the axial formulas of [`hex_axial`] (and tested against them): from
/// an even row of `RowOdd`, `floor((r + 1) / 2) - floor(r / 2) = 0` and
/// `floor((r - 1) / 2) - floor(r / 2) = -1`, so axial `(0, 1)` is `(0, 1)` (up),
/// `(-1, 1)` is up-left, `(0, -1)` is down-left and `(1, -1)` is down; and so on.
pub(crate) const HEX_CODES: [[[u8; 6]; 2]; 5] = [
    // Axial: (1,0) right, (0,1) up, (-1,1) up-left, (-1,0) left, (0,-1) down,
    // (1,-1) down-right.
    [[0, 2, 3, 4, 6, 7], [0, 2, 3, 4, 6, 7]],
    // RowEven: even rows as RowOdd's odd ones, and the other way round.
    [[0, 1, 2, 4, 6, 7], [0, 2, 3, 4, 5, 6]],
    // RowOdd.
    [[0, 2, 3, 4, 5, 6], [0, 1, 2, 4, 6, 7]],
    // ColumnEven: even columns as ColumnOdd's odd ones, and the other way round.
    [[1, 2, 3, 4, 6, 0], [0, 2, 4, 5, 6, 7]],
    // ColumnOdd.
    [[0, 2, 4, 5, 6, 7], [1, 2, 3, 4, 6, 0]],
];

/// Per hex layout and parity, as [`HEX_CODES`]: each direction code's index among the
/// 6 steps (6 for a code that is no step there, such as the start's way back).
pub(crate) const HEX_INDEX: [[[u8; 16]; 2]; 5] = {
    let mut table = [[[6u8; 16]; 2]; 5];
    let mut l = 0;
    while l < 5 {
        let mut parity = 0;
        while parity < 2 {
            let mut k = 0;
            while k < 6 {
                table[l][parity][HEX_CODES[l][parity][k] as usize] = k as u8;
                k += 1;
            }
            parity += 1;
        }
        l += 1;
    }
    table
};

/// Whether the cell `(x, y)` takes the odd pattern of [`HEX_CODES`]: its row is odd in
/// row layouts, its column in column layouts (two's complement: `-1` is odd, as floor
/// division makes it).
#[inline(always)]
pub(crate) const fn hex_odd(layout: HexLayout, x: i64, y: i64) -> bool {
    match layout {
        HexLayout::Axial => false,
        HexLayout::RowEven | HexLayout::RowOdd => y & 1 == 1,
        HexLayout::ColumnEven | HexLayout::ColumnOdd => x & 1 == 1,
    }
}

/// The codes of the 6 hex steps from cell `(x, y)` ([`HEX_CODES`]).
#[inline(always)]
pub(crate) const fn hex_codes(layout: HexLayout, x: i32, y: i32) -> &'static [u8; 6] {
    &HEX_CODES[layout.index() as usize][hex_odd(layout, x as i64, y as i64) as usize]
}

/// The hex steps from cell `(x, y)` as a mask: bit `c` for code `c`.
#[inline]
pub(crate) const fn hex_mask(layout: HexLayout, x: i32, y: i32) -> u8 {
    let c = hex_codes(layout, x, y);
    1 << c[0] | 1 << c[1] | 1 << c[2] | 1 << c[3] | 1 << c[4] | 1 << c[5]
}

/// The hex steps from cell `(x, y)` as `usize` codes, for the runtime loops.
#[inline]
pub(crate) const fn hex_codes_usize(layout: HexLayout, x: i64, y: i64) -> &'static [usize; 6] {
    const fn widen(c: [u8; 6]) -> [usize; 6] {
        [
            c[0] as usize,
            c[1] as usize,
            c[2] as usize,
            c[3] as usize,
            c[4] as usize,
            c[5] as usize,
        ]
    }
    const WIDE: [[[usize; 6]; 2]; 5] = {
        let mut t = [[[0; 6]; 2]; 5];
        let mut l = 0;
        while l < 5 {
            t[l][0] = widen(HEX_CODES[l][0]);
            t[l][1] = widen(HEX_CODES[l][1]);
            l += 1;
        }
        t
    };
    &WIDE[layout.index() as usize][hex_odd(layout, x, y) as usize]
}

/// The axial coordinates `(q, r)` of cell `(x, y)` in `layout` (floor division by
/// arithmetic shifts, so negative coordinates follow the pattern).
#[inline(always)]
pub(crate) const fn hex_axial(layout: HexLayout, x: i64, y: i64) -> (i64, i64) {
    match layout {
        HexLayout::Axial => (x, y),
        HexLayout::RowEven => (x - ((y + 1) >> 1), y),
        HexLayout::RowOdd => (x - (y >> 1), y),
        HexLayout::ColumnEven => (x, y - ((x + 1) >> 1)),
        HexLayout::ColumnOdd => (x, y - (x >> 1)),
    }
}

/// The cell at axial `(q, r)`: the inverse of [`hex_axial`].
#[inline(always)]
pub(crate) const fn hex_from_axial(layout: HexLayout, q: i64, r: i64) -> (i64, i64) {
    match layout {
        HexLayout::Axial => (q, r),
        HexLayout::RowEven => (q + ((r + 1) >> 1), r),
        HexLayout::RowOdd => (q + (r >> 1), r),
        HexLayout::ColumnEven => (q, r + ((q + 1) >> 1)),
        HexLayout::ColumnOdd => (q, r + (q >> 1)),
    }
}

/// Hex steps between cells `(x, y)` and `(gx, gy)` on an open map:
/// `max(|dq|, |dr|, |dq + dr|)` in axial coordinates. The same in any frame
/// translated by even amounts.
#[inline(always)]
pub(crate) const fn hex_distance(layout: HexLayout, x: i64, y: i64, gx: i64, gy: i64) -> u64 {
    let (q0, r0) = hex_axial(layout, x, y);
    let (q1, r1) = hex_axial(layout, gx, gy);
    axial_distance(q0 - q1, r0 - r1)
}

/// Hex steps between axial positions `(dq, dr)` apart: `max(|dq|, |dr|, |dq + dr|)`.
#[inline(always)]
pub(crate) const fn axial_distance(dq: i64, dr: i64) -> u64 {
    let (a, b, c) = (
        dq.unsigned_abs(),
        dr.unsigned_abs(),
        (dq + dr).unsigned_abs(),
    );
    let ab = if a > b { a } else { b };
    if ab > c { ab } else { c }
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
/// into a cell of cost 1: 1 when 4-connected or hex, [`OCTILE_STRAIGHT`] or
/// [`OCTILE_DIAGONAL`] when 8-connected. The runtime twin of [`Neighborhood::weight`] for code outside the
/// monomorphised loops.
#[inline(always)]
pub(crate) const fn step_weight(connectivity: Connectivity, code: usize) -> u64 {
    match connectivity {
        Connectivity::Four | Connectivity::Hex(_) => 1,
        Connectivity::Eight if code & 1 == 1 => OCTILE_DIAGONAL,
        Connectivity::Eight => OCTILE_STRAIGHT,
    }
}

/// The corner rule on a padded cost array (0 = blocked): a straight step, and any step
/// but an 8-connected one, is always allowed by it; an 8-connected diagonal step from
/// padded index `i` in [`Direction8`](crate::Direction8) code `code` needs both cells
/// beside its corner open. (Whether the cell stepped into is open, and whether the
/// connectivity has the step at all, are the caller's tests.)
#[inline(always)]
pub(crate) fn corner_open(
    connectivity: Connectivity,
    costs: &[u8],
    offsets: &[isize; 8],
    i: usize,
    code: usize,
) -> bool {
    code & 1 == 0 || !matches!(connectivity, Connectivity::Eight) || {
        let a = i.wrapping_add_signed(offsets[(code + 7) & 7]);
        let b = i.wrapping_add_signed(offsets[(code + 1) & 7]);
        costs[a] != 0 && costs[b] != 0
    }
}

/// The [`Direction8`](crate::Direction8) codes of a square connectivity, the same from
/// every cell: all 8, or the 4 orthogonal ones. For the structures that serve square
/// maps only (next-hop tables refuse hex maps): none for [`Connectivity::Hex`].
#[inline]
pub(crate) const fn square_codes(connectivity: Connectivity) -> &'static [usize] {
    match connectivity {
        Connectivity::Eight => &[0, 1, 2, 3, 4, 5, 6, 7],
        Connectivity::Four => &[0, 2, 4, 6],
        Connectivity::Hex(_) => &[],
    }
}

/// The [`Direction8`](crate::Direction8) codes a unit moves in from cell `(x, y)`
/// (global coordinates: hex steps depend on their parity): all 8, the 4 orthogonal
/// ones (even codes), or the cell's 6 hex steps.
#[inline]
pub(crate) const fn direction_codes(
    connectivity: Connectivity,
    x: i64,
    y: i64,
) -> &'static [usize] {
    match connectivity {
        Connectivity::Eight => &[0, 1, 2, 3, 4, 5, 6, 7],
        Connectivity::Four => &[0, 2, 4, 6],
        Connectivity::Hex(layout) => hex_codes_usize(layout, x, y),
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
            direction_codes(Connectivity::Four, 0, 0)
                .iter()
                .all(|&d| !Direction8::from_bits(d as u8).is_diagonal())
        );
    }

    /// The axial neighbours, converted back to cells of each layout, are the steps of
    /// [`HEX_CODES`], in order, for cells of both parities (negative ones too).
    #[test]
    fn hex_codes_follow_the_axial_formulas() {
        for layout in HexLayout::ALL {
            // The cell of an axial position: search the cells around (tiny, plain).
            let cell_of = |q: i64, r: i64, near: (i64, i64)| {
                let mut found = None;
                for y in near.1 - 3..=near.1 + 3 {
                    for x in near.0 - 3..=near.0 + 3 {
                        if hex_axial(layout, x, y) == (q, r) {
                            assert!(found.is_none(), "two cells at one axial position");
                            found = Some((x, y));
                        }
                    }
                }
                found.expect("every axial position has a cell")
            };
            for y in -5..5 {
                for x in -5..5 {
                    let (q, r) = hex_axial(layout, x, y);
                    let codes = hex_codes(layout, x as i32, y as i32);
                    for (k, (dq, dr)) in HEX_AXIAL.into_iter().enumerate() {
                        let (nx, ny) = cell_of(q + dq, r + dr, (x, y));
                        let (dx, dy) = Direction8::from_bits(codes[k]).offset();
                        assert_eq!(
                            (nx - x, ny - y),
                            (i64::from(dx), i64::from(dy)),
                            "{layout:?} ({x}, {y}) step {k}"
                        );
                        assert_eq!(hex_distance(layout, x, y, nx, ny), 1);
                    }
                    let mask = hex_mask(layout, x as i32, y as i32);
                    assert_eq!(mask.count_ones(), 6);
                    assert_eq!(mask & 0b0101_0101, 0b0101_0101, "all 4 orthogonal steps");
                    assert_eq!(hex_codes_usize(layout, x, y).map(|c| c as u8), *codes);
                }
            }
        }
    }
}
