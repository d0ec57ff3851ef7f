//! The packed grid: 2 bits per cell, and the same cells as bit planes.

mod error;
mod footprint_rule;
mod open_bits;
mod planes;
mod serde;

pub use error::{GridError, GridMismatch};
pub(crate) use footprint_rule::footprint_cost;
pub(crate) use open_bits::{EVEN, around_bit, kinds_anf, open_anf, open_cells};
use planes::BitPlanes;

use crate::{Cell, Connectivity, Direction8, Mobility, TileKind};
use core::fmt;

/// A `width x height` map of [`TileKind`]s, 2 bits per cell, row-major (index
/// `y * width + x`), 4 cells per byte ([`as_bytes`](Self::as_bytes)). The grid also
/// keeps its cells as bit planes, one bit of each cell's kind per plane, row by row,
/// for the solvers that read 57 cells a word (jump point search); every edit updates
/// both, so editing stays O(1). In all, about half a byte per cell
/// ([`Grid::bytes_for`]). Two grids are equal (and hash alike) when their sizes and
/// cells are.
///
/// Reading outside the grid reads as blocked; writing outside is an error. What a kind
/// costs is decided per unit by a [`Mobility`].
///
/// ```
/// use tilepath::{Cell, Grid, Mobility, TileKind};
/// let mut grid = Grid::from_ascii("..#\n...", |c| match c {
///     '.' => Some(TileKind::K0),
///     '#' => Some(TileKind::K1),
///     _ => None,
/// })?;
/// assert_eq!((grid.width(), grid.height()), (3, 2));
/// assert_eq!(grid.cost(Cell::new(2, 0), Mobility::FLOOR_ONLY), 0);
/// assert_eq!(grid.cost(Cell::new(-1, 0), Mobility::ALL_PASSABLE), 0); // outside: blocked
/// grid.set(Cell::new(2, 0), TileKind::K0)?;
/// assert_eq!(grid.cost(Cell::new(2, 0), Mobility::FLOOR_ONLY), 1);
/// # Ok::<(), tilepath::GridError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Grid {
    width: u32,
    height: u32,
    bytes: Vec<u8>,
    planes: BitPlanes,
}

impl Grid {
    /// The largest width or height a grid may have (a 65536x65536 grid takes 2 GiB).
    pub const MAX_SIDE: u32 = 65_536;

    /// A `width x height` grid filled with [`TileKind::K0`]. A side of 0 gives an empty
    /// grid (every cell is outside it).
    ///
    /// # Errors
    /// [`GridError::TooLarge`] if a side exceeds [`Grid::MAX_SIDE`];
    /// [`GridError::OutOfMemory`] if the system cannot give
    /// [`bytes_for`](Self::bytes_for) bytes.
    pub fn new(width: u32, height: u32) -> Result<Self, GridError> {
        Self::filled(width, height, TileKind::K0)
    }

    /// The bytes a `width x height` grid takes: `ceil(width * height / 4)` for the
    /// packed cells, and as much again for the bit planes, plus 16 to 23 bytes a row
    /// (their padding).
    #[must_use]
    pub const fn bytes_for(width: u32, height: u32) -> u64 {
        (width as u64 * height as u64).div_ceil(4) + BitPlanes::bytes_for(width, height)
    }

    /// A `width x height` grid filled with `kind`.
    ///
    /// # Errors
    /// [`GridError::TooLarge`] if a side exceeds [`Grid::MAX_SIDE`];
    /// [`GridError::OutOfMemory`] if the system cannot give
    /// [`bytes_for`](Self::bytes_for) bytes.
    pub fn filled(width: u32, height: u32, kind: TileKind) -> Result<Self, GridError> {
        if width > Self::MAX_SIDE || height > Self::MAX_SIDE {
            return Err(GridError::TooLarge { width, height });
        }
        let bytes = Self::bytes_for(width, height);
        crate::memory::ensure(bytes).map_err(|bytes| GridError::OutOfMemory { bytes })?;
        let cells = width as usize * height as usize;
        let k = kind.index();
        let byte = k | (k << 2) | (k << 4) | (k << 6);
        let mut bytes = vec![byte; cells.div_ceil(4)];
        // The unused cells of the last byte stay 0, so that equal grids have equal
        // bytes (and `cells_from` reads 0 past the end).
        if let Some(last) = bytes.last_mut()
            && !cells.is_multiple_of(4)
        {
            *last &= (1u8 << (2 * (cells % 4))) - 1;
        }
        let planes = BitPlanes::filled(width, height, kind);
        Ok(Self {
            width,
            height,
            bytes,
            planes,
        })
    }

    /// A grid whose cell kinds are given by `f(cell)`.
    ///
    /// # Errors
    /// As [`Grid::new`].
    pub fn from_fn(
        width: u32,
        height: u32,
        mut f: impl FnMut(Cell) -> TileKind,
    ) -> Result<Self, GridError> {
        let mut grid = Self::new(width, height)?;
        for y in 0..height {
            for x in 0..width {
                grid.set_packed(x as usize, y as usize, f(Cell::new(x as i32, y as i32)));
            }
        }
        Ok(grid)
    }

    /// A grid from ASCII rows (one line per row, first line = row 0), each character
    /// mapped to a kind by `legend`. A trailing newline and `\r` are ignored.
    ///
    /// The text lists rows in increasing `y`, so `+y` ([`Direction::Up`](crate::Direction::Up)) is down the
    /// page: the picture is the map upside down from how Bevy draws it (see [the y
    /// convention](crate#coordinates)).
    ///
    /// The rows are checked before the grid is allocated: a malformed map costs no
    /// more memory than its text.
    ///
    /// # Errors
    /// [`GridError::RaggedRow`] if rows differ in length, [`GridError::UnknownChar`] if
    /// `legend` returns `None`, [`GridError::TooLarge`] for oversized maps,
    /// [`GridError::OutOfMemory`] if the system cannot give the grid's bytes.
    pub fn from_ascii(
        rows: &str,
        mut legend: impl FnMut(char) -> Option<TileKind>,
    ) -> Result<Self, GridError> {
        let lines = || rows.lines().map(|l| l.trim_end_matches('\r'));
        let width = lines().next().map_or(0, |l| l.chars().count());
        let to_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let mut height = 0;
        for (y, line) in lines().enumerate() {
            let found = line.chars().count();
            if found != width {
                return Err(GridError::RaggedRow {
                    row: to_u32(y),
                    expected: to_u32(width),
                    found: to_u32(found),
                });
            }
            height += 1;
        }
        let mut grid = Self::new(to_u32(width), to_u32(height))?;
        for (y, line) in lines().enumerate() {
            for (x, ch) in line.chars().enumerate() {
                let cell = Cell::new(x as i32, y as i32);
                let kind = legend(ch).ok_or(GridError::UnknownChar { ch, cell })?;
                grid.set_packed(x, y, kind);
            }
        }
        Ok(grid)
    }

    /// Width in cells.
    #[inline]
    #[must_use]
    pub const fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    #[inline]
    #[must_use]
    pub const fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells.
    #[inline]
    #[must_use]
    pub const fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Whether the grid has no cells.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes used by the cells, packed and as planes ([`bytes_for`](Self::bytes_for)).
    #[inline]
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.bytes.len() + self.planes.len_bytes()
    }

    /// Whether `cell` is inside the grid.
    #[inline]
    #[must_use]
    pub const fn contains(&self, cell: Cell) -> bool {
        inside((self.width, self.height), cell)
    }

    /// The row-major index of `cell` (`y * width + x`), or `None` outside the grid.
    #[inline]
    #[must_use]
    pub const fn index_of(&self, cell: Cell) -> Option<usize> {
        if self.contains(cell) {
            Some(cell.y as usize * self.width as usize + cell.x as usize)
        } else {
            None
        }
    }

    /// The cell at row-major index `index`, or `None` past the end.
    #[inline]
    #[must_use]
    pub const fn cell_of(&self, index: usize) -> Option<Cell> {
        if index < self.len() {
            let w = self.width as usize;
            Some(Cell::new((index % w) as i32, (index / w) as i32))
        } else {
            None
        }
    }

    /// The kind of `cell`, or `None` outside the grid.
    #[inline]
    #[must_use]
    pub fn get(&self, cell: Cell) -> Option<TileKind> {
        self.index_of(cell)
            .map(|i| TileKind::from_bits(self.bits_at(i)))
    }

    /// What it costs a unit with `mobility` to enter `cell`: 0 if it is blocked or outside
    /// the grid.
    #[inline]
    #[must_use]
    pub fn cost(&self, cell: Cell, mobility: Mobility) -> u8 {
        match self.index_of(cell) {
            Some(i) => mobility.cost_of_bits(self.bits_at(i)),
            None => 0,
        }
    }

    /// Whether a unit with `mobility` can enter `cell` (`false` outside the grid).
    #[inline]
    #[must_use]
    pub fn is_passable(&self, cell: Cell, mobility: Mobility) -> bool {
        self.cost(cell, mobility) != 0
    }

    /// Whether a unit with `mobility` may take one step from `from` towards `dir`: the
    /// cell it enters is passable and, for a diagonal step, so are both cells beside
    /// the corner (no corner cutting). This is the movement rule every search and
    /// distance field follows; use it to check a step outside the solvers.
    ///
    /// `from` itself need not be passable: a unit standing on a cell that was walled
    /// over may still step out of it.
    #[must_use]
    pub fn can_step(&self, from: Cell, dir: impl Into<Direction8>, mobility: Mobility) -> bool {
        let dir = dir.into();
        let (dx, dy) = dir.offset();
        let (Some(x), Some(y)) = (from.x.checked_add(dx), from.y.checked_add(dy)) else {
            return false;
        };
        self.is_passable(Cell::new(x, y), mobility)
            && (!dir.is_diagonal()
                || (self.is_passable(Cell::new(x, from.y), mobility)
                    && self.is_passable(Cell::new(from.x, y), mobility)))
    }

    /// Whether a unit moving with `connectivity` can step from `from` in direction
    /// `dir`: the connectivity has the step ([`Connectivity::allows`]), the cell
    /// entered is inside the grid and passable, and, for an 8-connected diagonal
    /// step, both cells beside its corner are passable too (no corner cutting; hex
    /// steps have no such rule). The start's own cell is not checked.
    /// `Connectivity::Eight` is [`can_step`](Self::can_step).
    ///
    /// ```
    /// use tilepath::{Cell, Connectivity, Direction8, Grid, HexLayout, Mobility, TileKind};
    /// let grid = Grid::from_ascii("..\n#.", |c| {
    ///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
    /// })?;
    /// let (m, from) = (Mobility::FLOOR_ONLY, Cell::new(0, 0));
    /// // Up-right passes the wall at (0, 1): a corner cut on squares, a hex step from
    /// // an even row of `RowEven`, and no step at all on an axial map.
    /// assert!(!grid.can_step_with(from, Direction8::UpRight, m, Connectivity::Eight));
    /// assert!(grid.can_step_with(from, Direction8::UpRight, m, Connectivity::Hex(HexLayout::RowEven)));
    /// assert!(!grid.can_step_with(from, Direction8::UpRight, m, Connectivity::Hex(HexLayout::Axial)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn can_step_with(
        &self,
        from: Cell,
        dir: Direction8,
        mobility: Mobility,
        connectivity: Connectivity,
    ) -> bool {
        match connectivity {
            Connectivity::Eight => self.can_step(from, dir, mobility),
            _ => {
                let (dx, dy) = dir.offset();
                connectivity.allows(from, dir)
                    && matches!(
                        (from.x.checked_add(dx), from.y.checked_add(dy)),
                        (Some(x), Some(y)) if self.is_passable(Cell::new(x, y), mobility)
                    )
            }
        }
    }

    /// Whether a unit of `size x size` cells fits with its footprint anchored at `cell`
    /// (see [`Footprint`](crate::Footprint)): every cell of it inside the grid and
    /// passable. Size 1 is [`is_passable`](Self::is_passable); size 0 fits nowhere.
    /// Reads `size²` cells (the solvers read a [`Clearance`](crate::Clearance)).
    #[must_use]
    pub fn fits(&self, cell: Cell, mobility: Mobility, size: u8) -> bool {
        size > 0 && footprint_cost(self, mobility, cell, size, None) != 0
    }

    /// [`can_step`](Self::can_step) for a unit of `size x size` cells (see
    /// [`Footprint`](crate::Footprint)): every cell of the footprint at the cell
    /// entered is inside the grid and passable, or under the footprint at `from` (a
    /// unit walled over walks out); a diagonal step needs both orthogonal steps beside
    /// it legal too. Size 1 is `can_step`; size 0 never steps. Reads `size²` cells a
    /// footprint: for checking steps, not for searching (the solvers read a
    /// [`Clearance`](crate::Clearance)).
    #[must_use]
    pub fn can_step_sized(
        &self,
        from: Cell,
        dir: impl Into<Direction8>,
        mobility: Mobility,
        size: u8,
    ) -> bool {
        let dir = dir.into();
        let (dx, dy) = dir.offset();
        let (Some(x), Some(y)) = (from.x.checked_add(dx), from.y.checked_add(dy)) else {
            return false;
        };
        let fits = |c: Cell| size > 0 && footprint_cost(self, mobility, c, size, Some(from)) != 0;
        fits(Cell::new(x, y))
            && (!dir.is_diagonal() || (fits(Cell::new(x, from.y)) && fits(Cell::new(from.x, y))))
    }

    /// Sets the kind of `cell`, returning the previous kind.
    ///
    /// # Errors
    /// [`GridError::OutOfBounds`] if `cell` is outside the grid (nothing changes).
    pub fn set(&mut self, cell: Cell, kind: TileKind) -> Result<TileKind, GridError> {
        let i = self.index_of(cell).ok_or(GridError::OutOfBounds { cell })?;
        let old = TileKind::from_bits(self.bits_at(i));
        self.set_packed(cell.x as usize, cell.y as usize, kind);
        Ok(old)
    }

    /// Sets every cell of the rectangle `min..=max` that lies inside the grid; returns
    /// how many cells were set.
    pub fn fill_rect(&mut self, min: Cell, max: Cell, kind: TileKind) -> usize {
        let x0 = min.x.max(0);
        let y0 = min.y.max(0);
        let x1 = max.x.min(self.width as i32 - 1);
        let y1 = max.y.min(self.height as i32 - 1);
        if x0 > x1 || y0 > y1 {
            return 0;
        }
        for y in y0..=y1 {
            for x in x0..=x1 {
                self.set_packed(x as usize, y as usize, kind);
            }
        }
        (x1 - x0 + 1) as usize * (y1 - y0 + 1) as usize
    }

    /// The raw packed cells (cell `i` in bits `2*(i%4)..` of byte `i/4`).
    #[inline]
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The packed cells from row-major index `i` on, cell `i` in the low two bits: at
    /// least 29 whole cells, as many as the grid has (past its end, 0 bits).
    #[inline]
    pub(crate) fn cells_from(&self, i: usize) -> u64 {
        let b = i >> 2;
        let word = match self.bytes.get(b..b + 8) {
            Some(eight) => <[u8; 8]>::try_from(eight).map_or(0, u64::from_le_bytes),
            None => {
                let tail = self.bytes.get(b..).unwrap_or(&[]);
                let mut buf = [0u8; 8];
                buf[..tail.len()].copy_from_slice(tail);
                u64::from_le_bytes(buf)
            }
        };
        word >> ((i & 3) * 2)
    }

    /// The 2-bit kind code at row-major index `i`. Hot path of every solver.
    ///
    /// # Panics
    /// If `i >= len()` (callers check bounds first).
    #[inline(always)]
    pub(crate) fn bits_at(&self, i: usize) -> u8 {
        (self.bytes[i >> 2] >> ((i & 3) * 2)) & 3
    }

    /// [`bits_at`](Self::bits_at) without the bounds check, for the solvers' inner
    /// loops, which read a cell at every step (benches/README.md says what the check
    /// costs).
    ///
    /// # Safety
    /// `i < self.len()`.
    #[inline(always)]
    #[expect(
        unsafe_code,
        reason = "hot path of every solver; callers prove the bound"
    )]
    pub(crate) unsafe fn bits_at_unchecked(&self, i: usize) -> u8 {
        debug_assert!(
            i < self.len(),
            "cell index {i} outside a grid of {}",
            self.len()
        );
        // SAFETY: the caller guarantees `i < len() <= 4 * bytes.len()`, so
        // `i >> 2 < bytes.len()`.
        (unsafe { *self.bytes.get_unchecked(i >> 2) } >> ((i & 3) * 2)) & 3
    }

    /// A copy of the grid, or an error where its memory cannot be had (a
    /// [`clone`](Clone::clone) would abort): what a build away from the grid (on
    /// another thread, while the game goes on) starts from. The grid is its cells
    /// alone, about half a byte each; what is derived from it is not copied.
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] if the memory cannot be had.
    pub fn try_clone(&self) -> Result<Self, GridError> {
        crate::memory::ensure(Self::bytes_for(self.width, self.height))
            .map_err(|bytes| GridError::OutOfMemory { bytes })?;
        Ok(self.clone())
    }

    /// The bit planes, and the bytes per plane row (see `planes.rs`).
    #[inline]
    pub(crate) fn planes(&self) -> (&[u8], usize) {
        self.planes.rows()
    }

    /// Sets cell `(x, y)` (inside the grid), packed and in the planes only.
    #[inline]
    fn set_packed(&mut self, x: usize, y: usize, kind: TileKind) {
        let i = y * self.width as usize + x;
        let shift = (i & 3) * 2;
        let b = &mut self.bytes[i >> 2];
        let k = kind.index();
        *b = (*b & !(3 << shift)) | (k << shift);
        self.planes.set(x, y, k);
    }
}

/// Whether `cell` is inside a `width x height` grid.
#[inline]
pub(crate) const fn inside((width, height): (u32, u32), cell: Cell) -> bool {
    (cell.x as u32) < width && (cell.y as u32) < height
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Grid {}x{}", self.width, self.height)?;
        if self.len() <= 64 * 64 {
            for y in 0..self.height as usize {
                for x in 0..self.width as usize {
                    let k = self.bits_at(y * self.width as usize + x);
                    write!(f, "{}", char::from(b'0' + k))?;
                }
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
