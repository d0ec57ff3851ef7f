//! The grid's cells again as bit planes, for scans that read many cells a word.

use crate::TileKind;

/// Bytes per row of `width` cells kept as bits (cell `x` at bit `x % 8` of byte `x /
/// 8`) for word-wide scans: whole 8-byte words for `width` bits, and one word more, so
/// that an 8-byte load from any cell of a row stays in that row.
pub(crate) const fn row_stride(width: u32) -> usize {
    (width as usize).div_ceil(64) * 8 + 8
}

/// A grid's cells as two bit planes, one bit of each cell's kind per plane, row by
/// row: row `y`'s low bits (cell `x` at bit `x % 8` of byte `x / 8`) are the
/// [`stride`](Self::stride_for) bytes from `2 * y * stride` on, its high bits the next
/// `stride`. Bits past the width are 0, and each plane row ends with at least 8 such
/// bytes, so that an 8-byte load from any cell of a row stays in that plane row.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub(super) struct BitPlanes {
    bytes: Vec<u8>,
    stride: usize,
}

impl BitPlanes {
    /// Bytes per plane row of a grid `width` cells wide: [`row_stride`].
    pub(super) const fn stride_for(width: u32) -> usize {
        row_stride(width)
    }

    /// Bytes the planes of a `width x height` grid take.
    pub(super) const fn bytes_for(width: u32, height: u32) -> u64 {
        2 * height as u64 * Self::stride_for(width) as u64
    }

    /// The planes of a `width x height` grid filled with `kind`.
    pub(super) fn filled(width: u32, height: u32, kind: TileKind) -> Self {
        let stride = Self::stride_for(width);
        let k = kind.index();
        // Zeroed (and so lazily mapped) for kind 0; the set bits of each plane row
        // otherwise.
        let mut bytes = vec![0u8; 2 * stride * height as usize];
        if k != 0 {
            let full = width as usize / 8;
            let rest = (1u8 << (width % 8)) - 1;
            for (r, row) in bytes.chunks_exact_mut(stride).enumerate() {
                // Even plane rows hold the low bits, odd ones the high bits.
                if k >> (r % 2) & 1 == 1 {
                    row[..full].fill(u8::MAX);
                    row[full] = rest;
                }
            }
        }
        Self { bytes, stride }
    }

    /// Sets cell `(x, y)` (inside the grid) to kind code `k`.
    #[inline]
    pub(super) fn set(&mut self, x: usize, y: usize, k: u8) {
        let (at, bit) = (2 * y * self.stride + x / 8, x % 8);
        for (plane, value) in [(at, k & 1), (at + self.stride, k >> 1)] {
            let b = &mut self.bytes[plane];
            *b = (*b & !(1 << bit)) | (value << bit);
        }
    }

    /// The plane bytes and the bytes per plane row.
    #[inline]
    pub(super) fn rows(&self) -> (&[u8], usize) {
        (&self.bytes, self.stride)
    }

    /// Bytes of planes.
    pub(super) fn len_bytes(&self) -> usize {
        self.bytes.len()
    }
}
