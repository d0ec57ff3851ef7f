//! Passability of a search window, one bit a cell, converted from the packed grid a
//! row at a time when a search first looks at the row.

use super::window::{WINDOW_SIDE, Window};
use crate::{Grid, GridLayer};

/// Rows of the bit map: the window's, plus a blank row above and below (at most 128,
/// so that `r & 127` is a row index the compiler needs no bounds check for).
const ROWS: usize = WINDOW_SIDE as usize + 2;
const _: () = assert!(ROWS <= 128);
/// The first bit of a row's second word: bits `0..64` are in word 0, `HIGH..HIGH + 64`
/// in word 1, so any bit from 1 to 114 and its two neighbours are in one word.
const HIGH: u32 = 56;
/// Cells converted at once: a `u64` read from any cell holds at least 29 whole cells.
const CHUNK: u32 = 28;
const EVEN: u64 = 0x5555_5555_5555_5555;

/// Which cells of a search window are passable for a layer, one bit a cell.
///
/// Row `r` holds window row `r - 1` and bit `x + 1` local column `x`, so the three
/// cells around column `x` are bits `x..x + 3`, and every cell outside the window or
/// the grid (the blank rows, bit 0, the bits past the window's last column) reads as
/// blocked. A row is two overlapping `u64` words (see [`HIGH`]), so that a search reads
/// a cell's neighbours with plain shifts. Rows are converted from the grid (28 cells at
/// a time, with bit operations on the packed kinds) when a search first reaches them;
/// a search moves a row at a time, so the converted rows are always one range around
/// the start row, and a query pays only for the rows it reaches. 2 KiB.
#[derive(Clone, Debug)]
pub(crate) struct PassRows {
    rows: [[u64; 2]; 128],
    /// The converted rows: `first..=last` (none while `first > last`).
    first: u32,
    last: u32,
    /// All ones for each passable kind, else 0.
    kinds: [u64; 4],
}

impl PassRows {
    /// Bytes held.
    pub(crate) const BYTES: usize = 128 * 16;

    pub(crate) fn new() -> Self {
        Self {
            rows: [[0; 2]; 128],
            first: 1,
            last: 0,
            kinds: [0; 4],
        }
    }

    /// Forgets every row: the next search (of `layer`) converts them again.
    #[inline]
    pub(crate) fn start(&mut self, layer: GridLayer) {
        (self.first, self.last) = (1, 0);
        self.kinds = layer.costs().map(|c| if c == 0 { 0 } else { u64::MAX });
    }

    /// Makes rows `r - 1`, `r` and `r + 1` ready (`1 <= r <= WINDOW_SIDE`), and every
    /// row between them and the rows already converted.
    #[inline(always)]
    pub(crate) fn prepare(&mut self, grid: &Grid, window: &Window, r: u32) {
        if r - 1 < self.first || r + 1 > self.last {
            self.extend(grid, window, r);
        }
    }

    #[cold]
    #[inline(never)]
    fn extend(&mut self, grid: &Grid, window: &Window, r: u32) {
        if self.first > self.last {
            (self.first, self.last) = (r, r);
            self.convert(grid, window, r);
        }
        while self.first > r - 1 {
            self.first -= 1;
            self.convert(grid, window, self.first);
        }
        while self.last < r + 1 {
            self.last += 1;
            self.convert(grid, window, self.last);
        }
    }

    fn convert(&mut self, grid: &Grid, window: &Window, r: u32) {
        let (mut low, mut high) = (0u64, 0u64);
        if let Some((mut i, x0, x1)) = r.checked_sub(1).and_then(|ly| window.row_cells(grid, ly)) {
            let mut x = x0;
            while x < x1 {
                let n = CHUNK.min(x1 - x);
                let v = grid.cells_from(i);
                let (lo, hi) = (v & EVEN, (v >> 1) & EVEN);
                let [k0, k1, k2, k3] = self.kinds;
                let open = ((k0 & !(hi | lo)) | (k1 & lo & !hi) | (k2 & hi & !lo) | (k3 & hi & lo))
                    & EVEN
                    & ((1 << (2 * n)) - 1);
                let (c, bit) = (u64::from(compress_even(open)), x + 1);
                if bit < 64 {
                    low |= c << bit;
                }
                if bit >= HIGH {
                    high |= c << (bit - HIGH);
                } else if bit + n > HIGH {
                    high |= c >> (HIGH - bit);
                }
                x += n;
                i += n as usize;
            }
        }
        self.rows[(r & 127) as usize] = [low, high];
    }

    /// Which word of a row holds bits `x..x + 3` (`x <= 112`), and the shift that
    /// brings bit `x` to bit 0 of that word.
    #[inline(always)]
    pub(crate) fn locate(x: u32) -> (usize, u32) {
        if x >= HIGH { (1, x - HIGH) } else { (0, x) }
    }

    /// Word `word` of row `r` (ready), shifted right by `shift` (from [`locate`]).
    #[cfg(test)]
    fn bits(&self, r: u32, (word, shift): (usize, u32)) -> u64 {
        debug_assert!(
            (self.first..=self.last).contains(&r),
            "row {r} not converted"
        );
        self.rows[(r & 127) as usize][word & 1] >> shift
    }

    /// Rows `r - 1`, `r` and `r + 1` (ready, so `1 <= r <= WINDOW_SIDE`), word `word`
    /// of each shifted right by `shift` (from [`locate`](Self::locate)).
    #[inline(always)]
    pub(crate) fn three(&self, r: u32, (word, shift): (usize, u32)) -> [u64; 3] {
        debug_assert!(
            self.first < r && r < self.last,
            "rows around {r} not converted"
        );
        // Callers pass 1 <= r <= WINDOW_SIDE; the clamp (which then changes nothing)
        // makes the unchecked reads below sound whatever they pass.
        let i = r.clamp(1, WINDOW_SIDE) as usize * 2 + (word & 1);
        let flat = self.rows.as_flattened();
        // SAFETY: `2 <= i <= 2 * WINDOW_SIDE + 1`, so `i - 2 >= 0` and `i + 2 <= 2 *
        // WINDOW_SIDE + 3 = 229 < 256 == flat.len()`.
        #[expect(unsafe_code, reason = "bounds proven by the clamp")]
        unsafe {
            [
                *flat.get_unchecked(i - 2) >> shift,
                *flat.get_unchecked(i) >> shift,
                *flat.get_unchecked(i + 2) >> shift,
            ]
        }
    }
}

/// The even bits of `v` packed into the low half.
#[inline(always)]
fn compress_even(v: u64) -> u32 {
    let mut x = v & EVEN;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    (x | x >> 16) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, TileKind};

    #[test]
    fn compress_packs_even_bits() {
        assert_eq!(compress_even(0), 0);
        assert_eq!(compress_even(EVEN), u32::MAX);
        assert_eq!(compress_even(0b01_00_01), 0b101);
        assert_eq!(compress_even(1 << 62), 1 << 31);
    }

    #[test]
    fn rows_match_the_grid_for_every_layer_and_window() {
        // Odd widths put rows at every 2-bit offset of the packed bytes.
        for (w, h) in [(1, 1), (3, 5), (50, 7), (131, 9), (300, 4)] {
            let mut grid = Grid::new(w, h).unwrap();
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    let kind = TileKind::ALL[((x * 7 + y * 3 + x * y) % 4) as usize];
                    grid.set(Cell::new(x, y), kind).unwrap();
                }
            }
            for layer in [
                GridLayer::FLOOR_ONLY,
                GridLayer::new([1, 0, 3, 0]),
                GridLayer::new([0, 2, 0, 9]),
                GridLayer::new([1, 1, 1, 1]),
            ] {
                for start in [Cell::new(0, 0), Cell::new(w as i32 / 2, h as i32 - 1)] {
                    let window = Window::around(&grid, start);
                    let mut rows = PassRows::new();
                    rows.start(layer);
                    for r in 1..=WINDOW_SIDE {
                        rows.prepare(&grid, &window, r);
                    }
                    for r in 0..ROWS as u32 {
                        for bit in 0..=114u32 {
                            let open = rows.bits(r, PassRows::locate(bit.min(112)))
                                >> (bit - bit.min(112))
                                & 1
                                == 1;
                            let expected = r >= 1
                                && bit >= 1
                                && window
                                    .slot_of_local(bit - 1, r - 1)
                                    .map(|s| window.cell_of(s))
                                    .is_some_and(|c| grid.is_passable(c, layer));
                            assert_eq!(open, expected, "{w}x{h} row {r} bit {bit}");
                        }
                    }
                }
            }
        }
    }
}
