//! The cells one set of tile kinds covers, kept as one bit a cell: what jump point
//! search scans for a mobility, a load a word; and, if asked, their jump distances.

use super::guarded_rows::{BitGrid, BitView};
use super::jump_table::{JumpTable, JumpView};
use super::planes::row_stride;
use crate::GridError;
#[cfg(doc)]
use crate::search::bit_rows::open_anf;

/// Bit rows of the cells whose kind a mobility enters, per set of kinds kept, as
/// [`BitGrid`]s (by row and by column). Derived from the cells and updated with them, so no part of a
/// grid's value: any two compare equal and hash alike.
#[derive(Clone, Default)]
pub(super) struct OpenRows {
    sets: Vec<KeptSet>,
}

/// One kept set of kinds.
#[derive(Clone)]
struct KeptSet {
    /// Bit `k` set: kind `k` is open.
    kinds: u8,
    rows: BitGrid,
    /// The rows' jump distances, if kept.
    jumps: Option<JumpTable>,
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
        self.sets.push(KeptSet {
            kinds,
            rows,
            jumps: None,
        });
        Ok(())
    }

    /// Keeps the jump distances of the rows of `kinds` (kept already) of a `width x
    /// height` grid.
    ///
    /// # Errors
    /// Those of [`JumpTable::new`] (nothing changes).
    pub(super) fn keep_jumps(
        &mut self,
        kinds: u8,
        (width, height): (u32, u32),
    ) -> Result<(), GridError> {
        let Some(set) = self.sets.iter_mut().find(|s| s.kinds == kinds) else {
            debug_assert!(false, "jump distances of rows not kept");
            return Ok(());
        };
        if set.jumps.is_none() {
            set.jumps = Some(JumpTable::new(&set.rows, width, height)?);
        }
        Ok(())
    }

    /// Takes the jump distances of `kinds` from `other` (which keeps them) if its rows
    /// of `kinds` hold the same cells as this one's (kept); whether it did.
    pub(super) fn adopt_jumps(&mut self, other: &mut Self, kinds: u8) -> bool {
        let (Some(mine), Some(theirs)) = (
            self.sets.iter_mut().find(|s| s.kinds == kinds),
            other.sets.iter_mut().find(|s| s.kinds == kinds),
        ) else {
            return false;
        };
        if theirs.jumps.is_none() || !mine.rows.same_cells(&theirs.rows) {
            return false;
        }
        mine.jumps = theirs.jumps.take();
        true
    }

    /// Moves the jump distances of `kinds` (if kept) out, with a copy of their rows,
    /// as the only set of a new `OpenRows`; the rows stay kept here.
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] if the rows' copy cannot be had (nothing changes).
    pub(super) fn lend_jumps(&mut self, kinds: u8) -> Result<Option<Self>, GridError> {
        let Some(set) = self
            .sets
            .iter_mut()
            .find(|s| s.kinds == kinds && s.jumps.is_some())
        else {
            return Ok(None);
        };
        let bytes = set.rows.len_bytes();
        crate::memory::ensure(bytes as u64).map_err(|bytes| GridError::OutOfMemory { bytes })?;
        let lent = KeptSet {
            kinds,
            rows: set.rows.clone(),
            jumps: set.jumps.take(),
        };
        Ok(Some(Self { sets: vec![lent] }))
    }

    /// Updates cell `(x, y)`, now of kind code `k`, in every kept set.
    #[inline]
    pub(super) fn set(&mut self, x: usize, y: usize, k: u8) {
        for set in &mut self.sets {
            let changed = set.rows.set(x, y, set.kinds >> k & 1 == 1);
            if changed && let Some(jumps) = &mut set.jumps {
                jumps.repair(&set.rows, (x, y), (x, y));
            }
        }
    }

    /// Updates the cells of columns `x0..=x1`, rows `y0..=y1` (inside the grid), now
    /// of kind code `k`, in every kept set, with one repair of the distances.
    pub(super) fn set_rect(&mut self, (x0, y0): (usize, usize), (x1, y1): (usize, usize), k: u8) {
        for set in &mut self.sets {
            let open = set.kinds >> k & 1 == 1;
            let mut changed = false;
            for y in y0..=y1 {
                for x in x0..=x1 {
                    changed |= set.rows.set(x, y, open);
                }
            }
            if changed && let Some(jumps) = &mut set.jumps {
                jumps.repair(&set.rows, (x0, y0), (x1, y1));
            }
        }
    }

    /// The rows of `kinds`, if kept.
    pub(super) fn rows(&self, kinds: u8) -> Option<BitView<'_>> {
        self.set_of(kinds).map(|s| s.rows.view())
    }

    /// The jump distances of `kinds`, if kept.
    pub(super) fn jumps(&self, kinds: u8) -> Option<JumpView<'_>> {
        self.set_of(kinds)?.jumps.as_ref().map(JumpTable::view)
    }

    fn set_of(&self, kinds: u8) -> Option<&KeptSet> {
        self.sets.iter().find(|s| s.kinds == kinds)
    }

    /// Bytes held.
    pub(super) fn len_bytes(&self) -> usize {
        self.sets
            .iter()
            .map(|s| s.rows.len_bytes() + s.jumps.as_ref().map_or(0, JumpTable::len_bytes))
            .sum()
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
