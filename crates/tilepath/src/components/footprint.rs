//! Components of a big unit's footprint: the anchors it fits, from its clearance.

use super::*;

/// Whether a unit of side `size` fits at a cell of clearance `value` (as
/// [`Clearance::fits`]: size 0 fits nowhere, sizes above [`MAX_UNIT_SIZE`] nowhere
/// either, as no clearance tells them apart).
#[inline]
fn fits(value: u8, size: u8) -> bool {
    (1..=MAX_UNIT_SIZE).contains(&size) && value >= size
}

impl Components {
    /// The components of the cells where a unit of `footprint.size()` fits (its
    /// anchor cells: see [`Footprint`]), joined by the unit's square steps: "can this
    /// big unit get there at all?". As for one-cell units, 4- and 8-connected movement
    /// give the same components (a footprint's diagonal step needs both orthogonal
    /// steps beside it legal). Size 1 gives the mobility's own components; size 0, and
    /// sizes above [`MAX_UNIT_SIZE`], fit nowhere.
    ///
    /// Keep them up to date with [`repair_footprint`](Self::repair_footprint), after
    /// the clearance's own repair.
    ///
    /// ```
    /// use tilepath::{Cell, Clearance, Components, Grid, Mobility, TileKind};
    /// // Two halls joined by a corridor one cell wide.
    /// let grid = Grid::from_ascii("..#..\n.....\n..#..", |c| {
    ///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
    /// })?;
    /// let clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
    /// let big = Components::for_footprint(clear.footprint(2));
    /// let (left, right) = (Cell::new(0, 0), Cell::new(3, 0));
    /// assert!(!big.is_reachable(left, right));
    /// assert!(Components::new(&grid, Mobility::FLOOR_ONLY).is_reachable(left, right));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`new`](Self::new); see [`try_for_footprint`](Self::try_for_footprint).
    #[must_use]
    pub fn for_footprint(footprint: Footprint<'_>) -> Self {
        match Self::try_for_footprint(footprint) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`for_footprint`](Self::for_footprint), or an error when the system cannot give
    /// the labels' memory.
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] with the bytes asked for (8 a cell: labels and the
    /// split search's marks).
    pub fn try_for_footprint(footprint: Footprint<'_>) -> Result<Self, GridError> {
        let clearance = footprint.clearance();
        let (width, height) = clearance.dims();
        let bytes = u64::from(width) * u64::from(height) * 8;
        crate::memory::ensure(bytes).map_err(|bytes| GridError::OutOfMemory { bytes })?;
        let size = footprint.size();
        let labels = clearance
            .values()
            .iter()
            .map(|&v| if fits(v, size) { 0 } else { BLOCKED })
            .collect();
        let connectivity = (Connectivity::Four, size);
        let mut c = Self::labelled(
            (width, height),
            clearance.passable_kinds(),
            connectivity,
            labels,
        );
        // A footprint's anchors split far more often than cells do (an edit closes up
        // to `n x n` of them): the split search's scratch is made now, not on a tick.
        c.seen = vec![0; c.labels.len()];
        for queue in &mut c.queues {
            queue.reserve(SPLIT_ROOM);
        }
        Ok(c)
    }

    /// Brings footprint components up to date after the cells in `changed` were edited
    /// on the grid, once `clearance` (the one they were built from) has been repaired
    /// for the same edits. The result equals a fresh
    /// [`for_footprint`](Self::for_footprint). An edit can only change the anchors
    /// whose footprint covers it: at most `size x size` of them.
    ///
    /// # Errors
    /// [`GridMismatch`] if `clearance` is of another size of grid (nothing is changed).
    pub fn repair_footprint(
        &mut self,
        clearance: &Clearance,
        changed: &[Cell],
    ) -> Result<ComponentStats, GridMismatch> {
        let (width, height) = clearance.dims();
        if (width, height) != (self.width, self.height) {
            return Err(GridMismatch {
                expected: (self.width, self.height),
                found: (width, height),
            });
        }
        let size = self.unit_size;
        let fit = |i: usize, _| fits(clearance.values()[i], size);
        Ok(self.repair_anchors(changed, usize::MAX, fit))
    }

    /// Opens or closes the anchors whose footprint covers a cell of `changed` (at most
    /// `size x size` of each) as `fits(index, anchor)` says, a split search crossing at
    /// most `most` cells.
    pub(super) fn repair_anchors(
        &mut self,
        changed: &[Cell],
        most: usize,
        fits: impl Fn(usize, Cell) -> bool,
    ) -> ComponentStats {
        let n = i32::from(self.unit_size.clamp(1, MAX_UNIT_SIZE));
        let mut stats = ComponentStats::default();
        for &cell in changed {
            for dy in 0..n {
                for dx in 0..n {
                    let anchor = Cell::new(cell.x.wrapping_sub(dx), cell.y.wrapping_sub(dy));
                    let Some(i) = self.index(anchor) else {
                        continue;
                    };
                    let open = fits(i, anchor);
                    self.update(i, open, &mut stats, most);
                }
            }
        }
        self.compact();
        stats
    }
}
