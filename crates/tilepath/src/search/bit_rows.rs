//! Passability of a search window, one bit every other bit position a cell,
//! converted from the packed grid a row at a time when a search first looks at the row.

use super::window::{WINDOW_SIDE, Window};
use crate::Mobility;
use crate::cost::EnterCost;
use crate::grid::{EVEN, open_anf};

/// Rows of the bit map: the window's, plus a blank row above and below.
const ROWS: usize = WINDOW_SIDE as usize + 2;
/// Rows held: enough that the three rows from `(r - 1) & 127` are inside for any `r`,
/// so reading them needs no bounds check.
const HELD: usize = 130;
const _: () = assert!(ROWS <= 128 && HELD >= 127 + 3);
/// Columns a row's word starts after the previous word's: word `k` holds columns
/// `STRIDE * k - 1 ..= STRIDE * k + STRIDE` (29 cells, as many as one `u64` read of the
/// packed grid holds from any cell), so the three cells around any column `x` are in
/// word `x / STRIDE`.
const STRIDE: u32 = 27;
/// Words a row: enough for columns `0..WINDOW_SIDE`.
const WORDS: usize = (WINDOW_SIDE as usize - 1) / STRIDE as usize + 1;

/// The bit of a cell's left neighbour in a word from [`PassRows::three`].
pub(crate) const LEFT: u64 = 1;
/// The bit of the cell itself (of its upper and lower neighbours in the rows above and
/// below) in a word from [`PassRows::three`].
pub(crate) const SELF: u64 = 1 << 2;
/// The bit of a cell's right neighbour in a word from [`PassRows::three`].
pub(crate) const RIGHT: u64 = 1 << 4;

/// Which cells of a search window are passable for a mobility.
///
/// Row `r` holds window row `r - 1`; a cell is a bit at an even position, laid out like
/// the packed grid's 2-bit cells (so converting a row is a few bit operations on the
/// grid's bytes, with no packing), in [`WORDS`] overlapping words (see [`STRIDE`]), so
/// that a search reads a cell and its neighbours with one shift a row. Every cell
/// outside the window or the grid (the blank rows, column -1, the columns past the
/// window's last) reads as blocked. Rows are converted when a search first reaches
/// them; a search moves a row at a time, so the converted rows are always one range
/// around the start row, and a query pays only for the rows it reaches. 5.2 KiB.
#[derive(Clone, Debug)]
pub(crate) struct PassRows {
    rows: [[u64; WORDS]; HELD],
    /// The converted rows: `first..=last` (none while `first > last`).
    first: u32,
    last: u32,
    /// The mobility's [`open_anf`].
    anf: [u64; 4],
    /// How each word of a row is read from the grid: columns from the window's first
    /// usable one to the first cell read, the mask of the cells kept, and the shift
    /// that puts them in place.
    plan: [(u32, u64, u32); WORDS],
}

impl PassRows {
    /// Bytes held.
    pub(crate) const BYTES: usize = size_of::<Self>();

    pub(crate) fn new() -> Self {
        Self {
            rows: [[0; WORDS]; HELD],
            first: 1,
            last: 0,
            anf: [0; 4],
            plan: [(0, 0, 0); WORDS],
        }
    }

    /// Forgets every row: the next search (of `mobility`, in `window`, a windowed
    /// search's) converts them again.
    #[inline]
    pub(crate) fn start(&mut self, mobility: Mobility, window: &Window) {
        (self.first, self.last) = (1, 0);
        self.anf = open_anf(mobility);
        let (x0, x1) = window.columns();
        debug_assert!(x1 <= WINDOW_SIDE, "not a windowed search");
        for (k, plan) in (0..).zip(&mut self.plan) {
            // Word k's columns, from column STRIDE * k - 1 (bit 0), within [x0, x1).
            let (lo, hi) = ((STRIDE * k).max(x0 + 1), (STRIDE * k + STRIDE + 1).min(x1));
            *plan = if lo <= hi && x0 < x1 {
                // Cells first..hi: at most STRIDE + 2 of them.
                let first = lo - 1;
                let n = hi - first;
                (
                    first - x0,
                    EVEN & ((1 << (2 * n)) - 1),
                    2 * (first + 1 - STRIDE * k),
                )
            } else {
                (0, 0, 0)
            };
        }
    }

    /// Makes rows `r - 1`, `r` and `r + 1` ready (`1 <= r <= WINDOW_SIDE`), and every
    /// row between them and the rows already converted.
    #[inline(always)]
    pub(crate) fn prepare<C: EnterCost>(&mut self, costs: &C, window: &Window, r: u32) {
        if r - 1 < self.first || r + 1 > self.last {
            self.extend(costs, window, r);
        }
    }

    #[cold]
    #[inline(never)]
    fn extend<C: EnterCost>(&mut self, costs: &C, window: &Window, r: u32) {
        if self.first > self.last {
            (self.first, self.last) = (r, r);
            self.convert(costs, window, r);
        }
        while self.first > r - 1 {
            self.first -= 1;
            self.convert(costs, window, self.first);
        }
        while self.last < r + 1 {
            self.last += 1;
            self.convert(costs, window, self.last);
        }
    }

    fn convert<C: EnterCost>(&mut self, costs: &C, window: &Window, r: u32) {
        let mut words = [0; WORDS];
        if let Some(i) = r
            .checked_sub(1)
            .and_then(|ly| window.row_start(costs.grid(), ly))
        {
            for (word, &(offset, mask, shift)) in words.iter_mut().zip(&self.plan) {
                if mask != 0 {
                    let open = costs.enterable_from(self.anf, i + offset as usize);
                    *word = (open & mask) << shift;
                }
            }
        }
        if let Some(row) = self.rows.get_mut(r as usize) {
            *row = words;
        }
    }

    /// Which word of a row holds the cells around column `x` (`x < WINDOW_SIDE`), and
    /// the shift that brings column `x - 1` to bit 0 of that word.
    #[inline(always)]
    pub(crate) fn locate(x: u32) -> (usize, u32) {
        // x / 27 for every x < 113 (checked by a test).
        let k = (x * 19) >> 9;
        (k as usize, 2 * (x - STRIDE * k))
    }

    /// Word `word` of row `r` (ready), shifted right by `shift` (from [`locate`]).
    #[cfg(test)]
    fn bits(&self, r: u32, (word, shift): (usize, u32)) -> u64 {
        debug_assert!(
            (self.first..=self.last).contains(&r),
            "row {r} not converted"
        );
        self.rows[r as usize][word] >> shift
    }

    /// Rows `r - 1`, `r` and `r + 1` (ready, so `1 <= r <= WINDOW_SIDE`), word `word`
    /// of each shifted right by `shift` (from [`locate`](Self::locate)): test them
    /// with [`LEFT`], [`SELF`] and [`RIGHT`].
    #[inline(always)]
    pub(crate) fn three(&self, r: u32, (word, shift): (usize, u32)) -> [u64; 3] {
        debug_assert!(
            self.first < r && r < self.last,
            "rows around {r} not converted"
        );
        // Callers pass 1 <= r <= WINDOW_SIDE and word < WORDS; the mask and the
        // minimum (which then change nothing) make the unchecked reads below sound
        // whatever they pass.
        let i = ((r.wrapping_sub(1) & 127) as usize) * WORDS + word.min(WORDS - 1);
        let flat = self.rows.as_flattened();
        // SAFETY: `i <= 127 * WORDS + WORDS - 1`, so `i + 2 * WORDS <= 130 * WORDS - 1 <
        // HELD * WORDS == flat.len()`.
        #[expect(unsafe_code, reason = "bounds proven by the mask")]
        unsafe {
            [
                *flat.get_unchecked(i) >> shift,
                *flat.get_unchecked(i + WORDS) >> shift,
                *flat.get_unchecked(i + 2 * WORDS) >> shift,
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, Grid, TileKind};

    #[test]
    fn locate_finds_the_word_holding_three_cells() {
        for x in 0..WINDOW_SIDE {
            let (k, shift) = PassRows::locate(x);
            assert_eq!(k, (x / STRIDE) as usize, "column {x}");
            // Bit 0 is column x - 1 and bit 4 column x + 1, all inside word k.
            assert_eq!(shift, 2 * (x + 1 - STRIDE * k as u32) - 2);
            assert!(k < WORDS && shift + 4 < 64);
        }
    }

    #[test]
    fn rows_match_the_grid_for_every_mobility_and_window() {
        // Odd widths put rows at every 2-bit offset of the packed bytes.
        for (w, h) in [(1, 1), (3, 5), (50, 7), (131, 9), (300, 4)] {
            let mut grid = Grid::new(w, h).unwrap();
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    let kind = TileKind::ALL[((x * 7 + y * 3 + x * y) % 4) as usize];
                    grid.set(Cell::new(x, y), kind).unwrap();
                }
            }
            for mobility in [
                Mobility::FLOOR_ONLY,
                Mobility::new([1, 0, 3, 0]),
                Mobility::new([0, 2, 0, 9]),
                Mobility::new([1, 1, 1, 1]),
            ] {
                for start in [Cell::new(0, 0), Cell::new(w as i32 / 2, h as i32 - 1)] {
                    let window = Window::around(&grid, start);
                    let mut rows = PassRows::new();
                    rows.start(mobility, &window);
                    for r in 1..=WINDOW_SIDE {
                        let costs = crate::cost::CellCosts {
                            grid: &grid,
                            mobility,
                        };
                        rows.prepare(&costs, &window, r);
                    }
                    for r in 0..ROWS as u32 {
                        for x in 0..WINDOW_SIDE {
                            let [_, around, _] =
                                rows.three(r.clamp(1, WINDOW_SIDE), PassRows::locate(x));
                            let word = rows.bits(r, PassRows::locate(x));
                            let got = [word & LEFT, word & SELF, word & RIGHT].map(|b| b != 0);
                            let expected = [x.wrapping_sub(1), x, x + 1].map(|c| {
                                r >= 1
                                    && window
                                        .slot_of_local(c, r - 1)
                                        .map(|s| window.cell_of(s))
                                        .is_some_and(|c| grid.is_passable(c, mobility))
                            });
                            assert_eq!(got, expected, "{w}x{h} row {r} column {x}");
                            if (1..=WINDOW_SIDE).contains(&r) {
                                assert_eq!(around, word, "three() row {r} column {x}");
                            }
                        }
                    }
                }
            }
        }
    }
}
