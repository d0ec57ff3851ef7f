//! A clearance's anchors where one unit size fits, kept again as bit rows: what jump
//! point search scans a word at a time.

use crate::GridError;
use crate::derived::{BitGrid, BitView};
use crate::footprint::fitting;

/// The anchors where a unit of side `size` fits, one bit a cell, as a [`BitGrid`]
/// (by row and by column).
#[derive(Clone)]
pub(crate) struct FitRows {
    size: u8,
    rows: BitGrid,
}

impl FitRows {
    /// The rows of `size` from a clearance's `values` (a `width`-wide grid's, by grid
    /// index).
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] if the rows' memory cannot be had.
    pub(crate) fn new(values: &[u8], width: u32, size: u8) -> Result<Self, GridError> {
        let w = width as usize;
        let height = values.len().checked_div(w).unwrap_or(0);
        let mut rows = BitGrid::new(width, height as u32)?;
        // A byte of bits from 8 values at a time (the row's last values one by one).
        rows.fill_by_rows(|y, bytes| {
            let row = &values[y * w..(y + 1) * w];
            for (b, eight) in bytes.iter_mut().zip(row.chunks(8)) {
                *b = match eight {
                    &[v0, v1, v2, v3, v4, v5, v6, v7] => {
                        fitting(u64::from_le_bytes([v0, v1, v2, v3, v4, v5, v6, v7]), size)
                    }
                    rest => rest
                        .iter()
                        .enumerate()
                        .fold(0, |b, (k, &v)| b | u8::from(v >= size) << k),
                };
            }
        });
        let rows = Self { size, rows };
        Ok(rows)
    }

    /// The unit side these rows are for.
    pub(crate) const fn size(&self) -> u8 {
        self.size
    }

    /// Sets whether the unit fits at cell `(x, y)` (inside the grid).
    #[inline]
    pub(crate) fn set(&mut self, x: usize, y: usize, fits: bool) {
        self.rows.set(x, y, fits);
    }

    /// The rows, to read.
    pub(crate) fn rows(&self) -> BitView<'_> {
        self.rows.view()
    }

    /// Bytes held.
    pub(crate) fn len_bytes(&self) -> usize {
        self.rows.len_bytes()
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
                let bits = clear.rows_of(size).unwrap();
                for y in -1..42 {
                    for x in -64..77 + 64 {
                        let bit = bits.rows.bit(x, y);
                        assert_eq!(bits.columns.bit(y, x), bit);
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
