//! Jump distances away from their grid: built from a copy of its cells, or lent by the
//! grid, brought up to date with its edits on another thread, and handed back.

use super::open_rows::OpenRows;
use super::{Grid, GridError, inside};
use crate::{Cell, Mobility, TileKind};

/// The jump distances of the cells a mobility can enter (see
/// [`Grid::keep_jump_distances`]), away from the grid they belong to, with the bit
/// rows they are repaired from: so that they are built, or repaired after edits, on
/// another thread while the game edits and searches its grid, and only handed over to
/// it ([`Grid::adopt_jump_distances`]).
///
/// They come from [`new`](Self::new) on a copy of the grid's cells
/// ([`Grid::copy_cells`]), or from the grid itself ([`Grid::lend_jump_distances`],
/// so that its edits repair nothing meanwhile); [`set`](Self::set) repairs them as an
/// edit of the grid would. They answer no search: a grid that keeps none scans rows.
///
/// ```
/// use tilepath::{Cell, Grid, JumpDistances, Mobility, TileKind};
/// let mut grid = Grid::new(64, 64)?;
/// let copy = grid.copy_cells()?;
/// let build = std::thread::spawn(move || JumpDistances::new(&copy, Mobility::FLOOR_ONLY));
/// // Meanwhile the game edits its grid, and notes where.
/// grid.set(Cell::new(10, 10), TileKind::K3)?;
/// let built = build.join().unwrap()?;
/// grid.adopt_jump_distances(built, &[Cell::new(10, 10)])?;
/// assert!(grid.keeps_jump_distances(Mobility::FLOOR_ONLY));
/// # Ok::<(), tilepath::GridError>(())
/// ```
#[derive(Clone)]
pub struct JumpDistances {
    width: u32,
    height: u32,
    /// The mobility they are for (any entering the same kinds shares them).
    pub(super) mobility: Mobility,
    /// That one set, its rows and distances.
    pub(super) rows: OpenRows,
}

impl JumpDistances {
    /// Builds the jump distances of the cells `mobility` can enter on `grid` (a build
    /// linear in its cells, as [`Grid::keep_jump_distances`]).
    ///
    /// # Errors
    /// [`GridError::TooLargeForJumps`] if a side is longer than 32,767 cells;
    /// [`GridError::OutOfMemory`] if the memory cannot be had.
    pub fn new(grid: &Grid, mobility: Mobility) -> Result<Self, GridError> {
        let mut rows = OpenRows::default();
        let kinds = mobility.passable_kinds();
        let dims = (grid.width(), grid.height());
        rows.keep(
            (kinds, crate::search::bit_rows::open_anf(mobility)),
            dims,
            grid.planes(),
        )?;
        rows.keep_jumps(kinds, dims)?;
        Ok(Self::from_rows(dims, mobility, rows))
    }

    /// `rows` keeping the rows and distances of `mobility`'s kinds alone.
    pub(super) fn from_rows(
        (width, height): (u32, u32),
        mobility: Mobility,
        rows: OpenRows,
    ) -> Self {
        Self {
            width,
            height,
            mobility,
            rows,
        }
    }

    /// Cell `cell` is now of `kind` on the grid: repairs the distances as the grid's
    /// own edit would have.
    ///
    /// # Errors
    /// [`GridError::OutOfBounds`] for a cell outside the grid (nothing changes).
    pub fn set(&mut self, cell: Cell, kind: TileKind) -> Result<(), GridError> {
        if !inside(self.size(), cell) {
            return Err(GridError::OutOfBounds { cell });
        }
        self.rows
            .set(cell.x as usize, cell.y as usize, kind.index());
        Ok(())
    }

    /// The grid size they are for.
    #[must_use]
    pub const fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Bytes held (the rows and the distances).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.rows.len_bytes()
    }
}
