//! Jump distances: where jump point search's scans from every cell stop, kept with the
//! bit rows they are repaired from.

use super::Derived;
use super::jump_table::{JumpTable, JumpView};
use super::open_rows::OpenRows;
use crate::grid::{GridMismatch, inside};
use crate::{Cell, Grid, GridError, Mobility, TileKind};

/// The *jump distances* of the cells a mobility can enter: for every cell and each of
/// the eight directions, how far jump point search's scan from there goes before it
/// stops, so that a whole-grid [`Jps`](crate::Jps) query of a one-cell unit of that
/// mobility (or any entering the same kinds) reads them instead of scanning rows,
/// columns and diagonals: the same answers, faster on maps of rooms, caves and open
/// ground. Hand them to a search with [`PathQuery::jumps`](crate::PathQuery::jumps)
/// (they carry their [`OpenRows`]). Windowed searches and units bigger than one cell
/// scan as before.
///
/// The price, for maps that change rarely: 16 bytes a cell (256 MiB on 4096 x 4096)
/// and a build linear in the grid's cells, once; then a repair at every edit that
/// opens or blocks a cell for the mobility. A repair rewrites the distances that
/// change: along the 3 rows and 3 columns around the edit, as far as the first stops,
/// and the diagonal ones leading there. A wall is seen along whole rows and columns,
/// so a repair costs little on maps of rooms and caves and most on an empty map, and a
/// compact group of edited cells (a building placed) is repaired once for the
/// rectangle around it.
///
/// Derived from the grid ([`Derived`]): they keep their own rows, so they catch up on
/// edits from the edited cells' kinds alone ([`Derived::catch_up`]), on another thread
/// while the game edits and searches its grid.
///
/// ```
/// use tilepath::{Cell, Derived, Grid, JumpDistances, Mobility, TileKind};
/// let mut grid = Grid::new(64, 64)?;
/// let copy = grid.clone();
/// let walker = Mobility::FLOOR_ONLY;
/// let build = std::thread::spawn(move || JumpDistances::new(&copy, walker));
/// // Meanwhile the game edits its grid, and notes where.
/// let wall = Cell::new(10, 10);
/// grid.set(wall, TileKind::K3)?;
/// let mut built = build.join().unwrap()?;
/// built.repair(&grid, &[wall], usize::MAX)?;
/// assert!(built.serves(walker));
/// # Ok::<(), tilepath::GridError>(())
/// ```
#[derive(Clone)]
pub struct JumpDistances {
    rows: OpenRows,
    table: JumpTable,
}

impl JumpDistances {
    /// Builds the jump distances of the cells `mobility` can enter on `grid` (a build
    /// linear in its cells).
    ///
    /// # Errors
    /// [`GridError::TooLargeForJumps`] if a side is longer than 32,767 cells;
    /// [`GridError::OutOfMemory`] if the memory cannot be had.
    pub fn new(grid: &Grid, mobility: Mobility) -> Result<Self, GridError> {
        let rows = OpenRows::new(grid, mobility)?;
        let (width, height) = rows.size();
        let table = JumpTable::new(rows.bits(), width, height)?;
        Ok(Self { rows, table })
    }

    /// Whether they are those of the cells `mobility` can enter.
    #[must_use]
    pub fn serves(&self, mobility: Mobility) -> bool {
        self.rows.serves(mobility)
    }

    /// The grid size they are for.
    #[must_use]
    pub const fn size(&self) -> (u32, u32) {
        self.rows.size()
    }

    /// The bit rows they are repaired from (those of their mobility).
    #[must_use]
    pub const fn rows(&self) -> &OpenRows {
        &self.rows
    }

    /// The distances, to read.
    #[inline]
    pub(crate) fn view(&self) -> JumpView<'_> {
        self.table.view()
    }

    /// Sets the edited cells `edits` (inside the grid) and repairs the distances:
    /// once for the rectangle around them where that reads fewer lines than a repair
    /// at each (a repair reads every row and column through what it is given, whole),
    /// else a cell at a time, as the edits were made.
    fn apply(&mut self, edits: impl Iterator<Item = (Cell, TileKind)> + Clone) -> u64 {
        let (mut lo, mut hi) = ((usize::MAX, usize::MAX), (0, 0));
        let mut count = 0_usize;
        for (cell, _) in edits.clone() {
            let (x, y) = (cell.x as usize, cell.y as usize);
            (lo, hi) = ((lo.0.min(x), lo.1.min(y)), (hi.0.max(x), hi.1.max(y)));
            count += 1;
        }
        let (w, h) = (self.rows.size().0 as u64, self.rows.size().1 as u64);
        let (rw, rh) = (hi.0.wrapping_sub(lo.0) + 1, hi.1.wrapping_sub(lo.1) + 1);
        if count > 1 && rw + rh <= 2 * count {
            let mut changed = false;
            for (cell, kind) in edits {
                changed |= self.rows.set(cell, kind);
            }
            if !changed {
                return count as u64;
            }
            self.table.repair(self.rows.bits(), lo, hi);
            return (rh as u64 + 2) * w + (rw as u64 + 2) * h;
        }
        let mut work = count as u64;
        for (cell, kind) in edits {
            if self.rows.set(cell, kind) {
                let at = (cell.x as usize, cell.y as usize);
                self.table.repair(self.rows.bits(), at, at);
                work += 3 * (w + h);
            }
        }
        work
    }
}

/// Distances are equal when their rows are and they hold the same distances.
impl PartialEq for JumpDistances {
    fn eq(&self, other: &Self) -> bool {
        self.rows == other.rows && self.table.same(&other.table)
    }
}

impl core::fmt::Debug for JumpDistances {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("JumpDistances")
            .field("kinds", &self.rows.key())
            .field("size", &self.size())
            .finish_non_exhaustive()
    }
}

impl Derived for JumpDistances {
    /// The passable kinds ([`Mobility::passable_kinds`]).
    type Key = u8;
    type Error = GridError;

    fn build(grid: &Grid, kinds: u8) -> Result<Self, GridError> {
        Self::new(grid, Mobility::entering(kinds))
    }

    fn key(&self) -> u8 {
        self.rows.key()
    }

    fn repair(&mut self, grid: &Grid, changed: &[Cell], _most: usize) -> Result<u64, GridError> {
        GridMismatch::check(self.size(), grid)?;
        let edits = changed
            .iter()
            .filter_map(|&c| grid.get(c).map(|kind| (c, kind)));
        Ok(self.apply(edits))
    }

    fn catch_up(&mut self, edits: &[(Cell, TileKind)]) -> Option<Result<u64, GridError>> {
        if let Some(&(cell, _)) = edits.iter().find(|(c, _)| !inside(self.size(), *c)) {
            return Some(Err(GridError::OutOfBounds { cell }));
        }
        Some(Ok(self.apply(edits.iter().copied())))
    }

    fn memory_bytes(&self) -> usize {
        self.rows.memory_bytes() + self.table.len_bytes()
    }
}
