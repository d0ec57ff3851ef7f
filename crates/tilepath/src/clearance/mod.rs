//! How large a square unit fits at each cell, per mobility: the footprint rule of units
//! bigger than one cell.

mod rows;

use crate::{Cell, Footprint, Grid, GridError, GridMismatch, Mobility};
use rows::FitRows;

/// The largest unit side a [`Clearance`] tells apart: larger squares read as this.
pub const MAX_UNIT_SIZE: u8 = 16;

/// For every cell of a grid, the side of the largest square unit (up to
/// [`MAX_UNIT_SIZE`]) of one mobility that fits there: a unit of size `n` standing at
/// cell `(x, y)` covers the `n x n` cells `x..x + n` by `y..y + n` (its cell is the
/// footprint's corner with the smallest `x` and `y`), and fits when every one of them
/// is inside the grid and open to the mobility. `0` means blocked (or outside).
///
/// Kept exact after edits by [`repair`](Self::repair), in time proportional to the
/// area an edit can change (at most `MAX_UNIT_SIZE²` cells each); 1 byte a cell.
///
/// ```
/// use tilepath::{Cell, Clearance, Grid, Mobility, TileKind};
/// let mut grid = Grid::from_ascii("....\n....\n...#", |c| {
///     Some(if c == '#' { TileKind::K3 } else { TileKind::K0 })
/// })?;
/// let mut clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
/// assert_eq!(clear.get(Cell::new(0, 0)), 3); // rows 0..3, columns 0..3
/// assert_eq!(clear.get(Cell::new(1, 1)), 2);
/// assert_eq!(clear.get(Cell::new(2, 1)), 1); // a 2x2 square there covers the wall
/// assert_eq!(clear.get(Cell::new(3, 2)), 0); // the wall
/// grid.set(Cell::new(1, 1), TileKind::K3)?;
/// clear.repair(&grid, &[Cell::new(1, 1)])?;
/// assert_eq!(clear.get(Cell::new(0, 0)), 1);
/// assert!(clear.fits(Cell::new(2, 0), 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Implementation
/// A cell's value is one more than the smallest of its three neighbours towards `+x`
/// and `+y` (0 if blocked, 1 at the grid's far edges), capped: a build fills rows from
/// the top down, each from its end. An edit can change only the cells whose squares
/// reach it, the `MAX_UNIT_SIZE x MAX_UNIT_SIZE` block below and left of it; a repair
/// gathers those blocks, sorts their cells so that each comes after the three it
/// depends on, and computes them again.
#[derive(Clone)]
pub struct Clearance {
    width: u32,
    height: u32,
    /// Bit `k`: kind `k` is open.
    passable: u8,
    values: Vec<u8>,
    /// The sizes whose anchors are kept as bit rows too ([`keep_rows`](Self::keep_rows)).
    rows: Vec<FitRows>,
    /// A repair's cells, as grid indices (kept to avoid allocating).
    pending: Vec<u32>,
}

impl core::fmt::Debug for Clearance {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Clearance")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("passable", &format_args!("{:#06b}", self.passable))
            .finish_non_exhaustive()
    }
}

impl Clearance {
    /// The clearance of every cell of `grid` for units of `mobility`.
    ///
    /// # Panics
    /// If the system cannot give the memory (1 byte a cell); see
    /// [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(grid: &Grid, mobility: Mobility) -> Self {
        match Self::try_new(grid, mobility) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`new`](Self::new), or an error when the system cannot give the memory.
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] with [`bytes_for`](Self::bytes_for) (nothing is
    /// allocated then).
    pub fn try_new(grid: &Grid, mobility: Mobility) -> Result<Self, GridError> {
        let bytes = Self::bytes_for(grid);
        crate::memory::ensure(bytes).map_err(|bytes| GridError::OutOfMemory { bytes })?;
        let mut c = Self {
            width: grid.width(),
            height: grid.height(),
            passable: mobility.passable_kinds(),
            values: vec![0; grid.len()],
            rows: Vec::new(),
            pending: Vec::new(),
        };
        let w = c.width as usize;
        for y in (0..c.height as usize).rev() {
            for x in (0..w).rev() {
                let i = y * w + x;
                c.values[i] = c.compute(grid, x, y, i);
            }
        }
        Ok(c)
    }

    /// Bytes a clearance of `grid` takes: 1 a cell.
    #[must_use]
    pub const fn bytes_for(grid: &Grid) -> u64 {
        grid.width() as u64 * grid.height() as u64
    }

    /// Bytes held, the repair's scratch included.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let rows: usize = self.rows.iter().map(FitRows::len_bytes).sum();
        self.values.capacity() + rows + self.pending.capacity() * 4
    }

    /// Keeps the cells where a unit of side `size` fits as bit rows too (1 bit a cell
    /// by row and again by column,
    /// repaired with the values), so that [`Jps`](crate::Jps) scans them a word at a
    /// time, as it scans a one-cell unit's cells, rather than turning 64 values into
    /// bits at every word. A size kept already, and sizes 0 and 1, change nothing;
    /// queries of sizes not kept are answered the same, a little slower on open
    /// ground.
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] if the rows' memory cannot be had (nothing changes).
    pub fn keep_rows(&mut self, size: u8) -> Result<(), GridError> {
        let size = size.min(MAX_UNIT_SIZE);
        if size <= 1 || self.rows_of(size).is_some() {
            return Ok(());
        }
        let rows = FitRows::new(&self.values, self.width, size)?;
        self.rows.push(rows);
        Ok(())
    }

    /// Whether the anchors of `size` are kept as bit rows ([`keep_rows`](Self::keep_rows));
    /// sizes 0 and 1 need none and read as kept.
    #[must_use]
    pub fn keeps_rows(&self, size: u8) -> bool {
        size <= 1 || self.rows_of(size.min(MAX_UNIT_SIZE)).is_some()
    }

    /// The bit rows of `size`, if [kept](Self::keep_rows).
    pub(crate) fn rows_of(&self, size: u8) -> Option<crate::derived::BitView<'_>> {
        self.rows
            .iter()
            .find(|r| r.size() == size)
            .map(FitRows::rows)
    }

    /// The side of the largest square unit that fits at `cell` (see the type's docs),
    /// at most [`MAX_UNIT_SIZE`]; 0 if `cell` is blocked or outside the grid.
    #[inline]
    #[must_use]
    pub fn get(&self, cell: Cell) -> u8 {
        self.index(cell).map_or(0, |i| self.values[i])
    }

    /// Whether a unit of side `size` fits at `cell`. Size 0 fits nowhere; sizes above
    /// [`MAX_UNIT_SIZE`] are not told apart from it.
    #[inline]
    #[must_use]
    pub fn fits(&self, cell: Cell, size: u8) -> bool {
        size > 0 && self.get(cell) >= size.min(MAX_UNIT_SIZE)
    }

    /// A unit of side `size` moving on this clearance, for queries
    /// [`sized`](crate::PathQuery::sized) by it.
    #[must_use]
    pub const fn footprint(&self, size: u8) -> Footprint<'_> {
        Footprint::new(self, size)
    }

    /// Whether this clearance is of a `width x height` grid.
    #[must_use]
    pub const fn is_of_size(&self, width: u32, height: u32) -> bool {
        self.width == width && self.height == height
    }

    /// The grid's width and height.
    pub(crate) const fn dims(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Bit `k`: kind `k` is open to the mobility.
    pub(crate) const fn passable_kinds(&self) -> u8 {
        self.passable
    }

    /// The values, by grid index.
    pub(crate) fn values(&self) -> &[u8] {
        &self.values
    }

    /// Whether this is the clearance of `mobility`: it lets units enter the same tile
    /// kinds as the mobility it was built for.
    #[must_use]
    pub fn serves(&self, mobility: Mobility) -> bool {
        mobility.passable_kinds() == self.passable
    }

    /// Brings the clearance up to date after the cells in `changed` were edited on
    /// `grid` (list every edited cell; cells outside the grid and repeats are
    /// ignored). The result equals a fresh [`new`](Self::new). Returns the cells
    /// computed again. No allocation once the scratch has grown to a batch's size.
    ///
    /// # Errors
    /// [`GridMismatch`] if `grid` is another size (nothing is changed).
    pub fn repair(&mut self, grid: &Grid, changed: &[Cell]) -> Result<usize, GridMismatch> {
        GridMismatch::check((self.width, self.height), grid)?;
        let w = self.width as usize;
        let reach = i64::from(MAX_UNIT_SIZE) - 1;
        let mut pending = core::mem::take(&mut self.pending);
        pending.clear();
        for &cell in changed {
            let Some(i) = self.index(cell) else { continue };
            // Only a change of open or blocked changes any clearance.
            if (self.values[i] > 0) == self.is_open(grid, i) {
                continue;
            }
            let x0 = (i64::from(cell.x) - reach).max(0) as usize;
            let y0 = (i64::from(cell.y) - reach).max(0) as usize;
            for y in y0..=cell.y as usize {
                pending.extend((y * w + x0..=y * w + cell.x as usize).map(|j| j as u32));
            }
        }
        // Descending index order puts every cell after its neighbours towards +x and
        // +y, the ones it is computed from.
        pending.sort_unstable_by(|a, b| b.cmp(a));
        pending.dedup();
        for &i in &pending {
            let i = i as usize;
            let value = self.compute(grid, i % w, i / w, i);
            self.values[i] = value;
            for rows in &mut self.rows {
                rows.set(i % w, i / w, value >= rows.size());
            }
        }
        let computed = pending.len();
        self.pending = pending;
        Ok(computed)
    }

    /// The value of cell `(x, y)` (index `i`) from the current values of the three
    /// cells towards `+x` and `+y`.
    #[inline(always)]
    fn compute(&self, grid: &Grid, x: usize, y: usize, i: usize) -> u8 {
        if !self.is_open(grid, i) {
            return 0;
        }
        let w = self.width as usize;
        let right = x + 1 < w;
        let up = y + 1 < self.height as usize;
        if !(right && up) {
            return 1;
        }
        let least = self.values[i + 1]
            .min(self.values[i + w])
            .min(self.values[i + w + 1]);
        (least + 1).min(MAX_UNIT_SIZE)
    }

    #[inline(always)]
    fn is_open(&self, grid: &Grid, i: usize) -> bool {
        self.passable >> grid.bits_at(i) & 1 == 1
    }

    #[inline]
    fn index(&self, cell: Cell) -> Option<usize> {
        let (x, y) = (cell.x as u32, cell.y as u32);
        (cell.x >= 0 && cell.y >= 0 && x < self.width && y < self.height)
            .then(|| y as usize * self.width as usize + x as usize)
    }
}

impl crate::Derived for Clearance {
    /// The passable kinds ([`Mobility::passable_kinds`]).
    type Key = u8;
    type Error = GridError;

    fn build(grid: &Grid, kinds: u8) -> Result<Self, GridError> {
        Self::try_new(grid, Mobility::entering(kinds))
    }

    fn key(&self) -> u8 {
        self.passable
    }

    /// [`Clearance::repair`] (its kept rows with it); its work is the cells computed
    /// again.
    fn repair(&mut self, grid: &Grid, changed: &[Cell], _most: usize) -> Result<u64, GridError> {
        Ok(Clearance::repair(self, grid, changed)? as u64)
    }

    fn memory_bytes(&self) -> usize {
        Clearance::memory_bytes(self)
    }
}
