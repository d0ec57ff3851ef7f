//! The cells one set of tile kinds covers, kept as one bit a cell: what jump point
//! search scans for a mobility, a load a word.

use super::planes::row_stride;
#[cfg(doc)]
use crate::search::bit_rows::open_anf;
use crate::{GridError, memory};

/// Bit rows of the cells whose kind a mobility enters, per set of kinds kept: row `y`
/// is the [`row_stride`] bytes from `y * stride` on (cell `x` at bit `x % 8` of byte
/// `x / 8`), zero past the width. Derived from the cells and updated with them, so no
/// part of a grid's value: any two compare equal and hash alike.
#[derive(Clone, Default)]
pub(super) struct OpenRows {
    /// Per kept set: its kinds (bit `k`: kind `k`) and its rows.
    sets: Vec<(u8, Vec<u8>)>,
    stride: usize,
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
        // An empty grid's planes may have no rows at all (stride 0): nothing to read.
        debug_assert!(stride == row_stride(width) || planes.is_empty());
        if planes.is_empty() {
            self.sets.push((kinds, Vec::new()));
            return Ok(());
        }
        let bytes = (stride * height as usize) as u64;
        memory::ensure(bytes).map_err(|bytes| GridError::OutOfMemory { bytes })?;
        let [c0, c1, c2, c3] = anf.map(|c| c as u8);
        let mut rows = vec![0u8; stride * height as usize];
        let (full, rest) = (width as usize / 8, width % 8);
        for (row, pair) in rows
            .chunks_exact_mut(stride)
            .zip(planes.chunks_exact(2 * stride))
        {
            let (lo, hi) = pair.split_at(stride);
            for ((b, &l), &h) in row.iter_mut().zip(lo).zip(hi) {
                *b = c0 ^ (c1 & l) ^ (c2 & h) ^ (c3 & l & h);
            }
            // Cells past the width read as blocked.
            if rest > 0 {
                row[full] &= (1u8 << rest) - 1;
                row[full + 1..].fill(0);
            } else {
                row[full..].fill(0);
            }
        }
        self.stride = stride;
        self.sets.push((kinds, rows));
        Ok(())
    }

    /// Updates cell `(x, y)`, now of kind code `k`, in every kept set.
    #[inline]
    pub(super) fn set(&mut self, x: usize, y: usize, k: u8) {
        let (at, bit) = (y * self.stride + x / 8, 1u8 << (x % 8));
        for (kinds, rows) in &mut self.sets {
            let b = &mut rows[at];
            *b = if *kinds >> k & 1 == 1 {
                *b | bit
            } else {
                *b & !bit
            };
        }
    }

    /// The rows of `kinds` and the bytes of a row, if kept.
    pub(super) fn rows(&self, kinds: u8) -> Option<(&[u8], usize)> {
        self.sets
            .iter()
            .find(|(k, _)| *k == kinds)
            .map(|(_, rows)| (rows.as_slice(), self.stride))
    }

    /// Bytes held.
    pub(super) fn len_bytes(&self) -> usize {
        self.sets.iter().map(|(_, rows)| rows.capacity()).sum()
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
