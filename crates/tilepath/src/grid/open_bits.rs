//! Which cells of the packed grid a mobility can enter, a `u64` (32 cells) at a time:
//! the rule every reader of passability by words takes (search windows, footprints,
//! a mobility's bit rows).

use crate::{Cell, Mobility};

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

/// Bit of [`Grid::open_around`] for the cell at offset `(dx, dy)` (each -1 to 1).
#[inline(always)]
pub(crate) const fn around_bit(dx: i32, dy: i32) -> u32 {
    ((dy + 1) * 3 + dx + 1) as u32
}

impl crate::Grid {
    /// Which of the 3x3 cells centred on `cell` `mobility` can enter: bit
    /// [`around_bit`]`(dx, dy)` for the cell at `(x + dx, y + dy)`, cells outside the
    /// grid closed. The crowd reads an agent's every step from it at once.
    #[inline]
    pub(crate) fn open_around(&self, cell: Cell, mobility: Mobility) -> u16 {
        let kinds = mobility.passable_kinds();
        let open_at = |i: usize| u16::from(kinds >> self.bits_at(i) & 1);
        let (w, h) = (self.width() as usize, self.height() as usize);
        let (x, y) = (cell.x as usize, cell.y as usize);
        if cell.x >= 1 && cell.y >= 1 && x + 1 < w && y + 1 < h {
            // Inside, off the edges: the nine cells read straight.
            let i = y * w + x;
            let row = |i: usize| open_at(i - 1) | open_at(i) << 1 | open_at(i + 1) << 2;
            return row(i - w) | row(i) << 3 | row(i + w) << 6;
        }
        let mut open = 0_u16;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let c = Cell::new(cell.x.saturating_add(dx), cell.y.saturating_add(dy));
                if let Some(i) = self.index_of(c) {
                    open |= open_at(i) << around_bit(dx, dy);
                }
            }
        }
        open
    }
}
