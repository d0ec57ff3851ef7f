//! One bit a cell, in rows with a guard of blocked cells all round: the layout of
//! every set of bit rows a search scans a word at a time (a mobility's passable
//! cells, [`OpenRows`](crate::OpenRows); a unit size's
//! anchors, [`Clearance::keep_rows`](crate::Clearance::keep_rows)).
//!
//! The guard is what makes a whole-grid scan cheap: a word read from any cell of the
//! grid, or from up to [`GUARD_CELLS`] cells left of it, or from the rows just above
//! and below it, lies inside the rows and reads the cells off the grid as blocked. A
//! scan stops at the grid's border as at a wall, with no test of where it is.

use crate::{GridError, memory};

/// Guard cells left and right of each row (a word's reach).
const GUARD_CELLS: i64 = 64;
/// Guard bytes left and right of each row.
const GUARD_BYTES: usize = GUARD_CELLS as usize / 8;

/// A `width x height` grid of bits, all clear (blocked) at first, with a guard of
/// clear bits: [`GUARD_CELLS`] columns left and right, a row above and a row below.
///
/// Row `y` (`-1..=height`) is the `stride` bytes from `(y + 1) * stride`; cell `x`
/// (`-GUARD_CELLS..width + GUARD_CELLS`) is bit `x % 8` of its byte `(x +
/// GUARD_CELLS) / 8`.
#[derive(Clone, Default)]
pub(crate) struct GuardedRows {
    bytes: Vec<u8>,
    stride: usize,
    width: u32,
}

impl GuardedRows {
    /// Bytes a row takes for a grid `width` cells wide.
    const fn stride(width: u32) -> usize {
        2 * GUARD_BYTES + (width as usize).div_ceil(8)
    }

    /// Bytes the rows of a `width x height` grid take.
    pub(crate) const fn bytes_for(width: u32, height: u32) -> u64 {
        Self::stride(width) as u64 * (height as u64 + 2)
    }

    /// All cells blocked.
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] if the memory cannot be had.
    pub(crate) fn new(width: u32, height: u32) -> Result<Self, GridError> {
        let bytes = Self::bytes_for(width, height);
        memory::ensure(bytes).map_err(|bytes| GridError::OutOfMemory { bytes })?;
        Ok(Self {
            bytes: vec![0; bytes as usize],
            stride: Self::stride(width),
            width,
        })
    }

    /// The bytes of cells `0..width` of row `y` (inside the grid), for filling a
    /// byte at a time: cell `x` at bit `x % 8` of byte `x / 8`. Bits past the width
    /// must stay clear.
    pub(crate) fn row_bytes_mut(&mut self, y: usize) -> &mut [u8] {
        let start = (y + 1) * self.stride + GUARD_BYTES;
        let n = (self.width as usize).div_ceil(8);
        &mut self.bytes[start..start + n]
    }

    /// Sets cell `(x, y)` (inside the grid) to `open`; whether it changed.
    #[inline]
    pub(crate) fn set(&mut self, x: usize, y: usize, open: bool) -> bool {
        debug_assert!(x < self.width as usize);
        let b = &mut self.bytes[(y + 1) * self.stride + GUARD_BYTES + x / 8];
        let bit = 1 << (x % 8);
        let was = *b;
        *b = if open { *b | bit } else { *b & !bit };
        *b != was
    }

    /// The rows, to read.
    #[inline]
    pub(crate) fn view(&self) -> RowView<'_> {
        RowView {
            bytes: &self.bytes,
            stride: self.stride,
        }
    }

    /// Bytes held.
    pub(crate) fn len_bytes(&self) -> usize {
        self.bytes.capacity()
    }
}

/// A grid of bits kept twice, as [`GuardedRows`] by row and by column (the
/// transpose: column `x` is its row `x`, cell `y` its bit `y`), so that scans along
/// columns read a word at a time too.
#[derive(Clone, Default)]
pub(crate) struct BitGrid {
    rows: GuardedRows,
    columns: GuardedRows,
}

impl BitGrid {
    /// Bytes a `width x height` grid takes.
    pub(crate) const fn bytes_for(width: u32, height: u32) -> u64 {
        GuardedRows::bytes_for(width, height) + GuardedRows::bytes_for(height, width)
    }

    /// All cells blocked.
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] if the memory cannot be had.
    pub(crate) fn new(width: u32, height: u32) -> Result<Self, GridError> {
        // Both copies' bytes at once, so that a refusal names the whole and nothing is
        // allocated first.
        memory::ensure(Self::bytes_for(width, height))
            .map_err(|bytes| GridError::OutOfMemory { bytes })?;
        Ok(Self {
            rows: GuardedRows::new(width, height)?,
            columns: GuardedRows::new(height, width)?,
        })
    }

    /// Fills the grid from its rows' bytes: `row(y, bytes)` writes the bytes of row `y`
    /// ([`GuardedRows::row_bytes_mut`]); the columns follow, 64 x 64 cells at a time.
    pub(crate) fn fill_by_rows(&mut self, mut row: impl FnMut(usize, &mut [u8])) {
        let (width, height) = (self.rows.width as usize, self.columns.width as usize);
        for y in 0..height {
            row(y, self.rows.row_bytes_mut(y));
        }
        let (rs, cs) = (self.rows.stride, self.columns.stride);
        // 64 x 64 cells at a time: 64 row words in, 64 column words out. A tile's last
        // bytes may reach into the right guard, reading and writing its blocked cells.
        for ty in 0..height.div_ceil(64) {
            for tx in 0..width.div_ceil(64) {
                let mut tile = [0u64; 64];
                for (i, word) in tile.iter_mut().enumerate().take(height - 64 * ty) {
                    let at = (64 * ty + i + 1) * rs + GUARD_BYTES + 8 * tx;
                    let mut bytes = [0; 8];
                    bytes.copy_from_slice(&self.rows.bytes[at..at + 8]);
                    *word = u64::from_le_bytes(bytes);
                }
                transpose64(&mut tile);
                for (j, word) in tile.iter().enumerate().take(width - 64 * tx) {
                    let at = (64 * tx + j + 1) * cs + GUARD_BYTES + 8 * ty;
                    self.columns.bytes[at..at + 8].copy_from_slice(&word.to_le_bytes());
                }
            }
        }
    }

    /// Sets cell `(x, y)` (inside the grid) to `open`; whether it changed.
    #[inline]
    pub(crate) fn set(&mut self, x: usize, y: usize, open: bool) -> bool {
        self.columns.set(y, x, open);
        self.rows.set(x, y, open)
    }

    /// The rows and the columns, to read.
    #[inline]
    pub(crate) fn view(&self) -> BitView<'_> {
        BitView {
            rows: self.rows.view(),
            columns: self.columns.view(),
        }
    }

    /// Bytes held.
    pub(crate) fn len_bytes(&self) -> usize {
        self.rows.len_bytes() + self.columns.len_bytes()
    }

    /// Whether `other` holds the same cells (the columns follow the rows).
    pub(crate) fn same_cells(&self, other: &Self) -> bool {
        self.rows.bytes == other.rows.bytes
    }
}

/// The transpose of a 64 x 64 block of bits: bit `j` of word `i` to bit `i` of word
/// `j`. Swaps the off-diagonal halves, then their quarters, down to single bits.
fn transpose64(a: &mut [u64; 64]) {
    let mut j = 32;
    let mut mask: u64 = 0x0000_0000_ffff_ffff;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & mask;
            a[k] ^= t << j;
            a[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        mask ^= mask << j;
    }
}

/// A read-only view of a [`BitGrid`].
#[derive(Clone, Copy)]
pub(crate) struct BitView<'a> {
    /// By row: cell `(x, y)` is [`RowView::word`]`(x, y)`'s bit 0.
    pub(crate) rows: RowView<'a>,
    /// By column: cell `(x, y)` is [`RowView::word`]`(y, x)`'s bit 0.
    pub(crate) columns: RowView<'a>,
}

/// A read-only view of [`GuardedRows`].
#[derive(Clone, Copy)]
pub(crate) struct RowView<'a> {
    bytes: &'a [u8],
    stride: usize,
}

impl RowView<'_> {
    /// Bit `j` set where cell `x + j` of row `y` is open, for `j < 57` (higher bits are
    /// noise), for `x` in `-GUARD_CELLS..=width` and `y` in `-1..=height`; cells off
    /// the grid read as blocked. Farther off, 0 or other cells' bits (never a read
    /// out of bounds).
    #[inline(always)]
    pub(crate) fn word(self, x: i64, y: i64) -> u64 {
        let row = ((y + 1) as usize).wrapping_mul(self.stride);
        let at = row.wrapping_add(((x + GUARD_CELLS) >> 3) as usize);
        match self.bytes.get(at..at.wrapping_add(8)) {
            Some(&[b0, b1, b2, b3, b4, b5, b6, b7]) => {
                u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]) >> (x & 7)
            }
            _ => 0,
        }
    }

    /// [`word`](Self::word) of rows `y - 1`, `y` and `y + 1`, for `y` in `0..height`,
    /// with one bounds test for the three.
    #[inline(always)]
    pub(crate) fn words3(self, x: i64, y: i64) -> (u64, u64, u64) {
        let s = self.stride;
        let at = (y as usize)
            .wrapping_mul(s)
            .wrapping_add(((x + GUARD_CELLS) >> 3) as usize);
        let Some(three) = self.bytes.get(at..at.wrapping_add(2 * s + 8)) else {
            return (self.word(x, y - 1), self.word(x, y), self.word(x, y + 1));
        };
        let word = |o: usize| match three.get(o..o + 8) {
            Some(&[b0, b1, b2, b3, b4, b5, b6, b7]) => {
                u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]) >> (x & 7)
            }
            _ => 0,
        };
        (word(0), word(s), word(2 * s))
    }

    /// Whether cell `(x, y)` is open, for the cells [`word`](Self::word) reads.
    #[inline(always)]
    pub(crate) fn bit(self, x: i64, y: i64) -> bool {
        let row = ((y + 1) as usize).wrapping_mul(self.stride);
        let at = row.wrapping_add(((x + GUARD_CELLS) >> 3) as usize);
        self.bytes.get(at).is_some_and(|&b| b >> (x & 7) & 1 == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_the_cells_and_the_guard_as_blocked() {
        for (w, h) in [(1, 1), (7, 3), (8, 2), (9, 4), (64, 2), (131, 5)] {
            let mut rows = GuardedRows::new(w, h).unwrap();
            let open = |x: i64, y: i64| (x * 5 + y * 3 + x / 7) % 3 != 0;
            for y in 0..h as usize {
                for x in 0..w as usize {
                    rows.set(x, y, open(x as i64, y as i64));
                }
            }
            let view = rows.view();
            let (w, h) = (i64::from(w), i64::from(h));
            for y in -1..=h {
                for x in -GUARD_CELLS..=w {
                    let word = view.word(x, y);
                    for j in 0..57 {
                        let (cx, inside) = (x + j, x + j >= 0 && x + j < w && y >= 0 && y < h);
                        let want = inside && open(cx, y);
                        assert_eq!(word >> j & 1 == 1, want, "{w}x{h}: ({cx}, {y})");
                        if cx < w + GUARD_CELLS {
                            assert_eq!(view.bit(cx, y), want);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn row_bytes_fill_a_row() {
        let mut rows = GuardedRows::new(13, 2).unwrap();
        rows.row_bytes_mut(1)
            .copy_from_slice(&[0b1010_0101, 0b1_0110]);
        let view = rows.view();
        assert_eq!(view.word(0, 1) & 0x1fff, 0b1_0110_1010_0101);
        assert_eq!(view.word(0, 0), 0);
        assert_eq!(view.word(-5, 1) & 0x1f, 0);
    }

    #[test]
    fn an_empty_grid_reads_blocked() {
        for (w, h) in [(0, 0), (0, 3), (3, 0)] {
            let rows = GuardedRows::new(w, h).unwrap();
            assert_eq!(rows.view().word(0, 0), 0);
            assert!(!rows.view().bit(0, 0));
        }
    }

    #[test]
    fn transpose64_swaps_rows_and_columns() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..20 {
            let mut a = [0u64; 64];
            for w in &mut a {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                *w = seed;
            }
            let mut t = a;
            transpose64(&mut t);
            for (i, row) in a.iter().enumerate() {
                for (j, column) in t.iter().enumerate() {
                    assert_eq!(column >> i & 1, row >> j & 1, "({i}, {j})");
                }
            }
        }
    }

    #[test]
    fn a_bit_grid_filled_by_rows_or_set_by_cells_reads_alike_both_ways() {
        for (w, h) in [
            (0, 0),
            (1, 1),
            (7, 3),
            (8, 8),
            (9, 17),
            (64, 2),
            (131, 13),
            (70, 130),
        ] {
            let open = |x: usize, y: usize| !(x * 5 + y * 3 + x / 7).is_multiple_of(3);
            let mut by_rows = BitGrid::new(w, h).unwrap();
            by_rows.fill_by_rows(|y, bytes| {
                for (i, b) in bytes.iter_mut().enumerate() {
                    *b = (0..8)
                        .filter(|&k| 8 * i + k < w as usize && open(8 * i + k, y))
                        .fold(0, |b, k| b | 1 << k);
                }
            });
            let mut by_cells = BitGrid::new(w, h).unwrap();
            for y in 0..h as usize {
                for x in 0..w as usize {
                    by_cells.set(x, y, open(x, y));
                }
            }
            for grid in [&by_rows, &by_cells] {
                let view = grid.view();
                for y in -1..=i64::from(h) {
                    for x in -8..i64::from(w) + 8 {
                        let inside = x >= 0 && y >= 0 && x < w.into() && y < h.into();
                        let want = inside && open(x as usize, y as usize);
                        assert_eq!(view.rows.bit(x, y), want, "{w}x{h} row ({x}, {y})");
                        assert_eq!(view.columns.bit(y, x), want, "{w}x{h} column ({x}, {y})");
                    }
                }
            }
        }
    }
}
