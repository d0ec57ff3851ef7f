//! Which cells of the packed grid a mobility can enter, a `u64` (32 cells) at a time:
//! the rule every reader of passability by words takes (search windows, footprints,
//! a mobility's bit rows).

use crate::Mobility;

/// The low bit of every 2-bit cell of a `u64` of the packed grid.
pub(crate) const EVEN: u64 = 0x5555_5555_5555_5555;

/// Whether a cell is open for `mobility`, as a function of its kind's bits `lo` and `hi`,
/// in algebraic normal form: `c[0] ^ c[1] & lo ^ c[2] & hi ^ c[3] & lo & hi` (each `c`
/// all ones or 0), for [`open_cells`].
pub(crate) fn open_anf(mobility: Mobility) -> [u64; 4] {
    kinds_anf(
        (0..4u8)
            .filter(|&k| mobility.cost_of_bits(k) != 0)
            .fold(0, |m, k| m | 1 << k),
    )
}

/// [`open_anf`] for any set of kinds: bit `k` of `kinds` set when kind `k` counts.
pub(crate) fn kinds_anf(kinds: u8) -> [u64; 4] {
    let [p0, p1, p2, p3] = [0u8, 1, 2, 3].map(|k| if kinds >> k & 1 == 1 { u64::MAX } else { 0 });
    [p0, p0 ^ p1, p0 ^ p2, p0 ^ p1 ^ p2 ^ p3]
}

/// The open cells of a `u64` of the packed grid (from [`Grid::cells_from`](crate::Grid::cells_from)): bit `2i`
/// for cell `i` (odd bits are noise), from the mobility's [`open_anf`].
#[inline(always)]
pub(crate) fn open_cells([c0, c1, c2, c3]: [u64; 4], v: u64) -> u64 {
    let (lo, hi) = (v, v >> 1);
    c0 ^ (c1 & lo) ^ (c2 & hi) ^ (c3 & lo & hi)
}
