//! A clearance's anchors where one unit size fits, kept again as bit rows: what jump
//! point search scans a word at a time.

use crate::GridError;
use crate::grid::row_stride;
use crate::memory;

/// The anchors where a unit of side `size` fits, one bit a cell: row `y` is the
/// [`row_stride`] bytes from `y * stride` on (cell `x` at bit `x % 8` of byte `x / 8`),
/// with zero bits past the width.
#[derive(Clone)]
pub(crate) struct FitRows {
    size: u8,
    stride: usize,
    bytes: Vec<u8>,
}

impl FitRows {
    /// Bytes the rows of a `width x height` grid take.
    pub(crate) const fn bytes_for(width: u32, height: u32) -> u64 {
        height as u64 * row_stride(width) as u64
    }

    /// The rows of `size` from a clearance's `values` (a `width`-wide grid's, by grid
    /// index).
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] if the rows' memory cannot be had.
    pub(crate) fn new(values: &[u8], width: u32, size: u8) -> Result<Self, GridError> {
        let w = width as usize;
        let height = values.len().checked_div(w).unwrap_or(0);
        let bytes = Self::bytes_for(width, height as u32);
        memory::ensure(bytes).map_err(|bytes| GridError::OutOfMemory { bytes })?;
        let stride = row_stride(width);
        let mut rows = Self {
            size,
            stride,
            bytes: vec![0; stride * height],
        };
        for (i, &v) in values.iter().enumerate() {
            if v >= size {
                rows.set(i % w, i / w, true);
            }
        }
        Ok(rows)
    }

    /// The unit side these rows are for.
    pub(crate) const fn size(&self) -> u8 {
        self.size
    }

    /// Sets whether the unit fits at cell `(x, y)` (inside the grid).
    #[inline]
    pub(crate) fn set(&mut self, x: usize, y: usize, fits: bool) {
        let b = &mut self.bytes[y * self.stride + x / 8];
        let bit = 1 << (x % 8);
        *b = if fits { *b | bit } else { *b & !bit };
    }

    /// The row bytes and the bytes of a row.
    pub(crate) fn rows(&self) -> (&[u8], usize) {
        (&self.bytes, self.stride)
    }

    /// Bytes held.
    pub(crate) fn len_bytes(&self) -> usize {
        self.bytes.capacity()
    }
}

#[cfg(test)]
mod tests {
    use crate::{Cell, Clearance, Grid, MAX_UNIT_SIZE, Mobility, TileKind};

    /// Kept rows stay equal to the values after every repair, and to a fresh build's.
    #[test]
    fn kept_rows_follow_every_repair() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut grid = Grid::from_fn(77, 41, |c| {
            let wall = (c.x * 7 + c.y * 13) % 17 == 0;
            if wall { TileKind::K1 } else { TileKind::K0 }
        })
        .unwrap();
        let mobility = Mobility::FLOOR_ONLY;
        let mut clear = Clearance::new(&grid, mobility);
        let sizes = [2, 3, 5, MAX_UNIT_SIZE];
        for size in sizes {
            clear.keep_rows(size).unwrap();
        }
        for round in 0..300 {
            let cells: Vec<Cell> = (0..1 + next(4))
                .map(|_| Cell::new(next(77) as i32, next(41) as i32))
                .collect();
            for &c in &cells {
                let kind = if next(3) == 0 {
                    TileKind::K0
                } else {
                    TileKind::K1
                };
                grid.set(c, kind).unwrap();
            }
            clear.repair(&grid, &cells).unwrap();
            for size in sizes {
                let (bits, stride) = clear.rows_of(size).unwrap();
                for y in 0..41 {
                    for x in 0..77 {
                        let bit = bits[y * stride + x / 8] >> (x % 8) & 1 == 1;
                        let fits = clear.fits(Cell::new(x as i32, y as i32), size);
                        assert_eq!(bit, fits, "round {round}, size {size}, ({x}, {y})");
                    }
                }
            }
        }
        let fresh = Clearance::new(&grid, mobility);
        for y in 0..41 {
            for x in 0..77 {
                let c = Cell::new(x, y);
                assert_eq!(clear.get(c), fresh.get(c));
            }
        }
    }
}
