//! A mobility's cells as bit rows: what jump point search scans a load a word.

use super::Derived;
use super::bit_grid::{BitGrid, BitView};
use crate::grid::{GridMismatch, inside, open_anf};
use crate::{Cell, Grid, GridError, Mobility, TileKind};

/// The cells a mobility can enter (and every mobility entering the same tile kinds),
/// as bit rows: 1 bit a cell, by row and by column (2 bits a cell in all), with a
/// border of blocked cells, so that [`Jps`](crate::Jps) reads one load a word where it
/// would otherwise read the grid's two bit planes and decode them, and reads them over
/// the whole grid with no bounds tests: the same answers, faster. Hand them to a
/// search with [`PathQuery::rows`](crate::PathQuery::rows).
///
/// Derived from the grid ([`Derived`]): built for a set of passable kinds
/// ([`Mobility::passable_kinds`]) and repaired after edits by setting the edited
/// cells' bits, the cells' kinds alone ([`Derived::catch_up`]).
///
/// ```
/// use tilepath::{Cell, Derived, Grid, Jps, Mobility, OpenRows, PathQuery, Solver, TileKind};
/// let mut grid = Grid::new(64, 64)?;
/// let walker = Mobility::FLOOR_ONLY;
/// let mut rows = OpenRows::new(&grid, walker)?;
/// grid.set(Cell::new(10, 10), TileKind::K1)?;
/// rows.repair(&grid, &[Cell::new(10, 10)], usize::MAX)?;
/// let query = PathQuery::new(Cell::new(0, 0), Cell::new(63, 63), walker).rows(&rows);
/// let found = Jps::whole_grid().find(&grid, query).expect("a route");
/// // Around the wall: the same cost as without it, 63 steps right and 63 down.
/// assert_eq!(found.cost, 126.0);
/// # Ok::<(), tilepath::GridError>(())
/// ```
#[derive(Clone)]
pub struct OpenRows {
    /// Bit `k` set: kind `k` is open.
    kinds: u8,
    width: u32,
    height: u32,
    bits: BitGrid,
}

impl OpenRows {
    /// The rows of the cells `mobility` can enter on `grid`.
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] if the memory cannot be had.
    pub fn new(grid: &Grid, mobility: Mobility) -> Result<Self, GridError> {
        let (width, height) = (grid.width(), grid.height());
        let mut bits = BitGrid::new(width, height)?;
        let (planes, stride) = grid.planes();
        // An empty grid's planes may have no rows at all (stride 0): nothing to read.
        if !planes.is_empty() {
            let [c0, c1, c2, c3] = open_anf(mobility).map(|c| c as u8);
            let (full, rest) = (width as usize / 8, width % 8);
            bits.fill_by_rows(|y, row| {
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
        Ok(Self {
            kinds: mobility.passable_kinds(),
            width,
            height,
            bits,
        })
    }

    /// Whether they are the cells `mobility` can enter.
    #[must_use]
    pub fn serves(&self, mobility: Mobility) -> bool {
        self.kinds == mobility.passable_kinds()
    }

    /// The grid size they are for.
    #[must_use]
    pub const fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Whether a search of `mobility` on `grid` may read them: theirs, and of its size
    /// (rows of another size would be read out of place).
    pub(crate) fn fit(&self, grid: &Grid, mobility: Mobility) -> bool {
        self.serves(mobility) && self.size() == (grid.width(), grid.height())
    }

    /// Cell `cell` (inside the grid) is now of `kind`: sets its bit; whether it
    /// changed.
    pub(crate) fn set(&mut self, cell: Cell, kind: TileKind) -> bool {
        let open = self.kinds >> kind.index() & 1 == 1;
        self.bits.set(cell.x as usize, cell.y as usize, open)
    }

    /// The rows and columns, to read.
    #[inline]
    pub(crate) fn view(&self) -> BitView<'_> {
        self.bits.view()
    }

    /// The bits, for the jump distances repaired from them.
    pub(crate) fn bits(&self) -> &BitGrid {
        &self.bits
    }
}

/// Rows are equal when they are of the same kinds, grid size and cells.
impl PartialEq for OpenRows {
    fn eq(&self, other: &Self) -> bool {
        self.kinds == other.kinds
            && self.size() == other.size()
            && self.bits.same_cells(&other.bits)
    }
}

impl core::fmt::Debug for OpenRows {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OpenRows")
            .field("kinds", &self.kinds)
            .field("size", &self.size())
            .finish_non_exhaustive()
    }
}

impl Derived for OpenRows {
    /// The passable kinds ([`Mobility::passable_kinds`]).
    type Key = u8;
    type Error = GridError;

    fn build(grid: &Grid, kinds: u8) -> Result<Self, GridError> {
        Self::new(grid, Mobility::entering(kinds))
    }

    fn key(&self) -> u8 {
        self.kinds
    }

    fn repair(&mut self, grid: &Grid, changed: &[Cell], _most: usize) -> Result<u64, GridError> {
        GridMismatch::check(self.size(), grid)?;
        for &cell in changed {
            if let Some(kind) = grid.get(cell) {
                self.set(cell, kind);
            }
        }
        Ok(changed.len() as u64)
    }

    fn catch_up(&mut self, edits: &[(Cell, TileKind)]) -> Option<Result<u64, GridError>> {
        if let Some(&(cell, _)) = edits.iter().find(|(c, _)| !inside(self.size(), *c)) {
            return Some(Err(GridError::OutOfBounds { cell }));
        }
        for &(cell, kind) in edits {
            self.set(cell, kind);
        }
        Some(Ok(edits.len() as u64))
    }

    fn memory_bytes(&self) -> usize {
        self.bits.len_bytes()
    }
}
