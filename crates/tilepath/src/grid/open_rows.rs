//! The cells one set of tile kinds covers, kept as one bit a cell: what jump point
//! search scans for a mobility, a load a word.

use super::guarded_rows::{BitGrid, BitView};
use super::planes::row_stride;
use crate::GridError;
#[cfg(doc)]
use crate::search::bit_rows::open_anf;

/// Bit rows of the cells whose kind a mobility enters, per set of kinds kept, as
/// [`BitGrid`]s (by row and by column). Derived from the cells and updated with them, so no part of a
/// grid's value: any two compare equal and hash alike.
#[derive(Clone, Default)]
pub(super) struct OpenRows {
    /// Per kept set: its kinds (bit `k`: kind `k`) and its rows.
    sets: Vec<(u8, BitGrid)>,
}

impl OpenRows {
    /// Keeps the rows of `kinds` for a `width x height` grid whose bit planes (low and
    /// high plane rows alternating, `stride` bytes each, as in `planes.rs`) are
    /// `planes`: a byte of each plane makes a byte of rows, by `anf` (the kinds'
    /// rule, [`open_anf`]).
    pub(super) fn keep(
        &mut self,
        (kinds, anf): (u8, [u64; 4]),
        (width, height): (u32, u32),
        (planes, stride): (&[u8], usize),
    ) -> Result<(), GridError> {
        if self.rows(kinds).is_some() {
            return Ok(());
        }
        let mut rows = BitGrid::new(width, height)?;
        // An empty grid's planes may have no rows at all (stride 0): nothing to read.
        debug_assert!(stride == row_stride(width) || planes.is_empty());
        if !planes.is_empty() {
            let [c0, c1, c2, c3] = anf.map(|c| c as u8);
            let (full, rest) = (width as usize / 8, width % 8);
            rows.fill_by_rows(|y, row| {
                let (lo, hi) = planes[2 * y * stride..(2 * y + 2) * stride].split_at(stride);
                for ((b, &l), &h) in row.iter_mut().zip(lo).zip(hi) {
                    *b = c0 ^ (c1 & l) ^ (c2 & h) ^ (c3 & l & h);
                }
                // Cells past the width read as blocked.
                if rest > 0 {
                    row[full] &= (1u8 << rest) - 1;
                }
            });
        }
        self.sets.push((kinds, rows));
        Ok(())
    }

    /// Updates cell `(x, y)`, now of kind code `k`, in every kept set.
    #[inline]
    pub(super) fn set(&mut self, x: usize, y: usize, k: u8) {
        for (kinds, rows) in &mut self.sets {
            rows.set(x, y, *kinds >> k & 1 == 1);
        }
    }

    /// The rows of `kinds`, if kept.
    pub(super) fn rows(&self, kinds: u8) -> Option<BitView<'_>> {
        self.sets
            .iter()
            .find(|(k, _)| *k == kinds)
            .map(|(_, rows)| rows.view())
    }

    /// Bytes held.
    pub(super) fn len_bytes(&self) -> usize {
        self.sets.iter().map(|(_, rows)| rows.len_bytes()).sum()
    }
}

impl PartialEq for OpenRows {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for OpenRows {}

impl core::hash::Hash for OpenRows {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}
