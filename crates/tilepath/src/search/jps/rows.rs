//! Which cells of a row a unit can enter, [`CHUNK`] cells at a time: read from the
//! grid's bit planes for one-cell units ([`Planes`]), from a clearance for bigger ones
//! ([`Fits`]), or from the bit rows either keeps ([`KeptRows`]).

use crate::derived::{BitView, JumpView};
use crate::footprint::{fitting, fitting64};
use crate::grid::open_anf;
use crate::{Clearance, Grid, JumpDistances, Mobility, OpenRows};

/// Cells one [`Rows::bits`] call covers: an unaligned 8-byte load of a plane holds at
/// least 57 whole cells, whatever the bit of the first one in its byte.
pub(super) const CHUNK: i64 = 57;

/// The bits of a [`CHUNK`]'s cells.
const CHUNK_MASK: u64 = (1 << CHUNK) - 1;

/// Where a search's passability comes from: the cells a unit's anchor may stand on.
pub(super) trait Source: Copy {
    /// Whether reads of the cells off the grid, up to a word's reach left and right
    /// and a row above and below, are valid and blocked (the guard of a
    /// [`BitGrid`](crate::derived::BitGrid)'s rows): then a search whose area is the whole
    /// grid need not clip its reads.
    const GUARDED: bool = false;

    /// Whether the search area is the whole grid of a [`GUARDED`](Self::GUARDED)
    /// source ([`Whole`]): then [`Rows`] reads without clipping.
    const WHOLE: bool = false;

    /// Whether the source keeps its cells by column too
    /// ([`open3_down`](Self::open3_down) reads them).
    const COLUMNS: bool = false;

    /// Bit `j` set where cell `x + j` of row `y` (inside the grid) is open, for `j <
    /// CHUNK` (higher bits are noise).
    fn open_from(&self, x: i64, y: i64) -> u64;

    /// [`open_from`](Self::open_from) for a few cells: bits `0..8` at least.
    #[inline(always)]
    fn open8_from(&self, x: i64, y: i64) -> u64 {
        self.open_from(x, y)
    }

    /// Whether cell `(x, y)` (inside the grid) is open.
    fn open_at(&self, x: i64, y: i64) -> bool;

    /// For a source keeping [`COLUMNS`](Self::COLUMNS): bit `j` set where cell `(x -
    /// 1, y + j)`, `(x, y + j)`, `(x + 1, y + j)` is open, for `j < CHUNK`, `x` a column
    /// of the grid (cells off it blocked). Other sources read nothing.
    #[inline(always)]
    fn open3_down(&self, x: i64, y: i64) -> (u64, u64, u64) {
        let _ = (x, y);
        (0, 0, 0)
    }

    /// [`open_from`](Self::open_from) of rows `y - 1`, `y` and `y + 1` (`y` inside
    /// the grid; rows off it read as blocked only where the source is
    /// [`GUARDED`](Self::GUARDED)).
    #[inline(always)]
    fn open3_from(&self, x: i64, y: i64) -> (u64, u64, u64) {
        (
            self.open_from(x, y - 1),
            self.open_from(x, y),
            self.open_from(x, y + 1),
        )
    }

    /// Whether the source keeps the cells' jump distances ([`record`](Self::record)),
    /// which hold for the whole grid only.
    const JUMPS: bool = false;

    /// For a source keeping [`JUMPS`](Self::JUMPS): the jump distances of cell `(x,
    /// y)` ([`JumpView::record`]). Other sources read nothing.
    #[inline(always)]
    fn record(&self, x: i64, y: i64) -> [u64; 2] {
        let _ = (x, y);
        [0; 2]
    }
}

/// One-cell units: the grid's bit planes ([`Grid::planes`]) read through a mobility.
#[derive(Clone, Copy)]
pub(super) struct Planes<'a> {
    /// The plane bytes and the bytes of a plane row.
    planes: &'a [u8],
    stride: usize,
    /// The mobility's passability rule for a pair of plane words ([`open_anf`]).
    anf: [u64; 4],
    /// For a mobility that enters one kind only: that kind's low and high plane bits
    /// in every bit.
    only: Option<(u64, u64)>,
    /// Bit `k` set when the mobility enters kind `k`.
    kinds: u8,
}

impl<'a> Planes<'a> {
    /// The cells of `grid` that `mobility` can enter.
    pub(super) fn new(grid: &'a Grid, mobility: Mobility) -> Self {
        let kinds = mobility.passable_kinds();
        let only = (kinds.count_ones() == 1).then(|| {
            let k = kinds.trailing_zeros();
            let all = |bit: u32| if bit == 1 { u64::MAX } else { 0 };
            (all(k & 1), all(k >> 1))
        });
        let (planes, stride) = grid.planes();
        Self {
            planes,
            stride,
            anf: open_anf(mobility),
            only,
            kinds,
        }
    }
}

impl Source for Planes<'_> {
    #[inline(always)]
    fn open_from(&self, x: i64, y: i64) -> u64 {
        let (x, y) = (x as usize, y as usize);
        let b = 2 * y * self.stride + x / 8;
        // Both planes' 8 bytes in one slice, so that one bounds test covers both loads
        // (every cell's loads fit its plane rows; only an empty area reads nothing).
        let Some(both) = self.planes.get(b..b + self.stride + 8) else {
            return 0;
        };
        let word = |at: usize| match both.get(at..at + 8) {
            Some(&[b0, b1, b2, b3, b4, b5, b6, b7]) => {
                u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7])
            }
            _ => 0,
        };
        let lo = word(0) >> (x % 8);
        let hi = word(self.stride) >> (x % 8);
        // One open kind (the common "floor only" mobility) is a compare of each bit.
        if let Some((klo, khi)) = self.only {
            return !((lo ^ klo) | (hi ^ khi));
        }
        let [c0, c1, c2, c3] = self.anf;
        c0 ^ (c1 & lo) ^ (c2 & hi) ^ (c3 & lo & hi)
    }

    #[inline(always)]
    fn open_at(&self, x: i64, y: i64) -> bool {
        let (x, y) = (x as usize, y as usize);
        let b = 2 * y * self.stride + x / 8;
        let bit = |at: usize| self.planes.get(at).map_or(0, |&v| v >> (x % 8) & 1);
        let code = bit(b) | bit(b + self.stride) << 1;
        self.kinds >> code & 1 != 0
    }
}

/// Units bigger than one cell: the anchors where a footprint fits, read from a
/// [`Clearance`] (a value at least the unit's side). On a one-cost mobility a footprint
/// moves as a one-cell unit does on these cells: a straight step is legal when the
/// footprint fits where it lands (the cells it sweeps are under one of its two
/// places), and a diagonal step, which needs both straight steps beside it legal, is
/// one past the corner rule of the anchors.
#[derive(Clone, Copy)]
pub(super) struct Fits<'a> {
    values: &'a [u8],
    width: usize,
    size: u8,
}

impl<'a> Fits<'a> {
    /// The anchors of `clearance` where a unit of side `size` fits.
    pub(super) fn new(clearance: &'a Clearance, size: u8) -> Self {
        Self {
            values: clearance.values(),
            width: clearance.dims().0 as usize,
            size,
        }
    }
}

impl Source for Fits<'_> {
    #[inline(always)]
    fn open_from(&self, x: i64, y: i64) -> u64 {
        let i = y as usize * self.width + x as usize;
        // A chunk's values, 8 at a time (those past the row belong to the next rows,
        // and the callers' masks drop them); the grid's last cells one at a time.
        match self.values.get(i..i + 64).and_then(|v| v.try_into().ok()) {
            Some(values) => fitting64(values, self.size),
            None => self
                .values
                .get(i..)
                .unwrap_or(&[])
                .iter()
                .take(64)
                .enumerate()
                .fold(0, |bits, (j, &v)| bits | u64::from(v >= self.size) << j),
        }
    }

    #[inline(always)]
    fn open8_from(&self, x: i64, y: i64) -> u64 {
        let i = y as usize * self.width + x as usize;
        match self.values.get(i..i + 8) {
            Some(&[b0, b1, b2, b3, b4, b5, b6, b7]) => {
                let v = u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]);
                u64::from(fitting(v, self.size))
            }
            _ => self.open_from(x, y),
        }
    }

    #[inline(always)]
    fn open_at(&self, x: i64, y: i64) -> bool {
        let i = y as usize * self.width + x as usize;
        self.values.get(i).is_some_and(|&v| v >= self.size)
    }
}

/// Cells kept as bit rows: a unit's passable cells ([`OpenRows`]), or the
/// anchors where a big unit fits ([`Clearance::keep_rows`]). A load a word, as for
/// [`Planes`], with no decoding; and the rows' guard reads the cells off the grid as
/// blocked, so a search of the whole grid needs no clipping ([`Source::GUARDED`]).
#[derive(Clone, Copy)]
pub(super) struct KeptRows<'a>(BitView<'a>);

impl<'a> KeptRows<'a> {
    /// A mobility's rows.
    pub(super) fn open(rows: &'a OpenRows) -> Self {
        Self(rows.view())
    }

    /// The rows `clearance` keeps for units of side `size`, if it keeps them.
    pub(super) fn fits(clearance: &'a Clearance, size: u8) -> Option<Self> {
        clearance.rows_of(size).map(Self)
    }
}

impl Source for KeptRows<'_> {
    const GUARDED: bool = true;
    const COLUMNS: bool = true;

    #[inline(always)]
    fn open_from(&self, x: i64, y: i64) -> u64 {
        self.0.rows.word(x, y)
    }

    #[inline(always)]
    fn open_at(&self, x: i64, y: i64) -> bool {
        self.0.rows.bit(x, y)
    }

    #[inline(always)]
    fn open3_from(&self, x: i64, y: i64) -> (u64, u64, u64) {
        self.0.rows.words3(x, y)
    }

    #[inline(always)]
    fn open3_down(&self, x: i64, y: i64) -> (u64, u64, u64) {
        self.0.columns.words3(y, x)
    }
}

/// Kept bit rows ([`KeptRows`]) and their [`JumpDistances`]: a whole-grid search reads
/// a cell's distances where it would scan its row and column.
#[derive(Clone, Copy)]
pub(super) struct KeptJumps<'a> {
    rows: KeptRows<'a>,
    jumps: JumpView<'a>,
}

impl<'a> KeptJumps<'a> {
    /// A mobility's jump distances, with their rows.
    pub(super) fn open(jumps: &'a JumpDistances) -> Self {
        Self {
            jumps: jumps.view(),
            rows: KeptRows::open(jumps.rows()),
        }
    }
}

impl Source for KeptJumps<'_> {
    const GUARDED: bool = true;
    const COLUMNS: bool = true;
    const JUMPS: bool = true;

    #[inline(always)]
    fn open_from(&self, x: i64, y: i64) -> u64 {
        self.rows.open_from(x, y)
    }

    #[inline(always)]
    fn open_at(&self, x: i64, y: i64) -> bool {
        self.rows.open_at(x, y)
    }

    #[inline(always)]
    fn open3_from(&self, x: i64, y: i64) -> (u64, u64, u64) {
        self.rows.open3_from(x, y)
    }

    #[inline(always)]
    fn open3_down(&self, x: i64, y: i64) -> (u64, u64, u64) {
        self.rows.open3_down(x, y)
    }

    #[inline(always)]
    fn record(&self, x: i64, y: i64) -> [u64; 2] {
        self.jumps.record(x, y)
    }
}

/// A [`GUARDED`](Source::GUARDED) source whose search area is the whole grid: the
/// scans read it with no clipping, its guard stopping them at the grid's border.
#[derive(Clone, Copy)]
pub(super) struct Whole<S>(S);

impl<S: Source> Whole<S> {
    /// `source`, searched over the whole grid.
    pub(super) const fn new(source: S) -> Self {
        const { assert!(S::GUARDED) };
        Self(source)
    }
}

impl<S: Source> Source for Whole<S> {
    const GUARDED: bool = true;
    const WHOLE: bool = true;
    const COLUMNS: bool = S::COLUMNS;
    const JUMPS: bool = S::JUMPS;

    #[inline(always)]
    fn record(&self, x: i64, y: i64) -> [u64; 2] {
        self.0.record(x, y)
    }

    #[inline(always)]
    fn open3_down(&self, x: i64, y: i64) -> (u64, u64, u64) {
        self.0.open3_down(x, y)
    }

    #[inline(always)]
    fn open_from(&self, x: i64, y: i64) -> u64 {
        self.0.open_from(x, y)
    }

    #[inline(always)]
    fn open8_from(&self, x: i64, y: i64) -> u64 {
        self.0.open8_from(x, y)
    }

    #[inline(always)]
    fn open_at(&self, x: i64, y: i64) -> bool {
        self.0.open_at(x, y)
    }

    #[inline(always)]
    fn open3_from(&self, x: i64, y: i64) -> (u64, u64, u64) {
        self.0.open3_from(x, y)
    }
}

/// The cells inside the search area, as passability bits from a [`Source`].
///
/// A cell outside the area (or the grid) reads as blocked, so scans stop at the
/// area's border as at a wall: a windowed search is a search of the grid clipped to
/// its window.
#[derive(Clone, Copy)]
pub(super) struct Rows<S> {
    source: S,
    /// The area: columns `x0..x1`, rows `y0..y1`.
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

impl<S: Source> Rows<S> {
    /// The cells of `source` in columns `x0..x1` and rows `y0..y1` (inside its grid,
    /// which is `width x height`).
    pub(super) fn new(
        source: S,
        (width, height): (u32, u32),
        (x0, y0): (i64, i64),
        (x1, y1): (i64, i64),
    ) -> Self {
        debug_assert!(0 <= x0 && x1 <= i64::from(width));
        debug_assert!(0 <= y0 && y1 <= i64::from(height));
        debug_assert!(!S::WHOLE || (x0, y0, x1, y1) == (0, 0, width.into(), height.into()));
        Self {
            source,
            x0,
            y0,
            x1,
            y1,
        }
    }

    #[inline(always)]
    fn open_from(&self, x: i64, y: i64) -> u64 {
        self.source.open_from(x, y)
    }

    /// Passability of the [`CHUNK`] cells `base..base + CHUNK` of row `y`: bit `j` for
    /// cell `base + j` (higher bits are 0). Cells outside the area read as blocked.
    #[inline(always)]
    pub(super) fn bits(&self, base: i64, y: i64) -> u64 {
        // The common case first: the whole block inside the area, nothing to clip.
        if S::WHOLE {
            return self.open_from(base, y) & CHUNK_MASK;
        }
        if base >= self.x0 && base + CHUNK <= self.x1 && y >= self.y0 && y < self.y1 {
            return self.open_from(base, y) & CHUNK_MASK;
        }
        self.clipped(base, y)
    }

    /// Whether column scans read the source's columns a word at a time
    /// ([`bits3_down`](Self::bits3_down)): a whole-grid area of a source that keeps them.
    pub(super) const BY_COLUMN: bool = S::WHOLE && S::COLUMNS;

    /// The [`CHUNK`] cells `base..base + CHUNK` of columns `x - 1`, `x` and `x + 1`
    /// (bit `j` for row `base + j`), `x` a column of the grid; only where
    /// [`BY_COLUMN`](Self::BY_COLUMN).
    #[inline(always)]
    pub(super) fn bits3_down(&self, base: i64, x: i64) -> (u64, u64, u64) {
        debug_assert!(Self::BY_COLUMN);
        let (left, cur, right) = self.source.open3_down(x, base);
        (left & CHUNK_MASK, cur & CHUNK_MASK, right & CHUNK_MASK)
    }

    /// Whether scans read the source's jump distances ([`record`](Self::record)): a
    /// whole-grid area of a source that keeps them.
    pub(super) const JUMPS: bool = S::WHOLE && S::JUMPS;

    /// The jump distances of cell `(x, y)` (inside the grid); only where
    /// [`JUMPS`](Self::JUMPS).
    #[inline(always)]
    pub(super) fn record(&self, x: i64, y: i64) -> [u64; 2] {
        debug_assert!(Self::JUMPS);
        self.source.record(x, y)
    }

    /// Whether rows `y - 1`, `y` and `y + 1` all lie inside the area.
    #[inline(always)]
    pub(super) fn inner_row(&self, y: i64) -> bool {
        y > self.y0 && y + 1 < self.y1
    }

    /// [`bits`](Self::bits) of rows `y - 1`, `y` and `y + 1`, with one bounds test for
    /// the three when the block lies inside the area; `inner` is
    /// [`inner_row(y)`](Self::inner_row), which a scan along the row tests once.
    #[inline(always)]
    pub(super) fn bits3(&self, base: i64, y: i64, inner: bool) -> (u64, u64, u64) {
        debug_assert_eq!(inner, self.inner_row(y));
        if S::WHOLE || inner && base >= self.x0 && base + CHUNK <= self.x1 {
            let (up, cur, down) = self.source.open3_from(base, y);
            return (up & CHUNK_MASK, cur & CHUNK_MASK, down & CHUNK_MASK);
        }
        (
            self.clipped(base, y - 1),
            self.clipped(base, y),
            self.clipped(base, y + 1),
        )
    }

    /// [`bits`](Self::bits) of a block that may reach past the area.
    #[inline(always)]
    fn clipped(&self, base: i64, y: i64) -> u64 {
        if y < self.y0 || y >= self.y1 {
            return 0;
        }
        let lo = base.max(self.x0);
        let hi = (base + CHUNK).min(self.x1);
        if lo >= hi {
            return 0;
        }
        // `hi - lo <= CHUNK`: the mask keeps the cells inside the area.
        let open = self.open_from(lo, y) & ((1u64 << (hi - lo)) - 1);
        open << (lo - base)
    }

    /// Passability of cells `x - 1`, `x` and `x + 1` of row `y` at bits 0, 1 and 2, for
    /// column scans; `x` must be a column of the area.
    #[inline(always)]
    pub(super) fn three(&self, x: i64, y: i64) -> u64 {
        debug_assert!(self.x0 <= x && x < self.x1);
        if S::WHOLE {
            return self.source.open8_from(x - 1, y) & 0b111;
        }
        if y < self.y0 || y >= self.y1 {
            return 0;
        }
        if x > self.x0 {
            let mut mask = 0b11;
            if x + 1 < self.x1 {
                mask |= 0b100;
            }
            return self.source.open8_from(x - 1, y) & mask;
        }
        let mut mask = 0b1;
        if x + 1 < self.x1 {
            mask |= 0b10;
        }
        (self.source.open8_from(x, y) & mask) << 1
    }

    /// Whether cell `(x, y)` is inside the area and open.
    #[inline(always)]
    pub(super) fn is_open(&self, x: i64, y: i64) -> bool {
        // One unsigned compare per axis: left of or above the area wraps to large.
        if (x - self.x0) as u64 >= (self.x1 - self.x0) as u64
            || (y - self.y0) as u64 >= (self.y1 - self.y0) as u64
        {
            return false;
        }
        self.source.open_at(x, y)
    }

    /// Whether the diagonal step from open cell `(x, y)` by `(dx, dy)` is legal: the
    /// cell it enters and both cells beside its corner are inside the area and open.
    #[inline(always)]
    pub(super) fn diagonal_step(&self, x: i64, y: i64, dx: i64, dy: i64) -> bool {
        // Cells `x - 1`, `x`, `x + 1` at bits 0, 1, 2.
        let side = 1 + dx;
        let next = 0b10 | 1 << side;
        self.three(x, y) >> side & 1 != 0 && self.three(x, y + dy) & next == next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, TileKind};

    /// Every read of `rows` (over `lo..hi` of a `w x h` grid) at every bit phase and
    /// border agrees with `open`, cell by cell.
    fn check<S: Source>(
        rows: Rows<S>,
        (w, h): (i64, i64),
        lo: (i64, i64),
        hi: (i64, i64),
        open: impl Fn(Cell) -> bool,
    ) {
        let inside = |x: i64, y: i64| x >= lo.0 && x < hi.0 && y >= lo.1 && y < hi.1;
        for y in -1..=h {
            for base in -60..w + 4 {
                let bits = rows.bits(base, y);
                for j in 0..CHUNK {
                    let (x, c) = (base + j, Cell::new((base + j) as i32, y as i32));
                    let want = inside(x, y) && open(c);
                    assert_eq!(bits >> j & 1 == 1, want, "({x}, {y})");
                    assert_eq!(rows.is_open(x, y), want);
                }
                assert_eq!(bits >> CHUNK, 0);
                if (1..h - 1).contains(&y) {
                    let inner = rows.inner_row(y);
                    let three = (rows.bits(base, y - 1), bits, rows.bits(base, y + 1));
                    assert_eq!(rows.bits3(base, y, inner), three);
                }
                if (lo.0..hi.0).contains(&base) {
                    assert_eq!(rows.three(base, y), rows.bits(base - 1, y) & 0b111);
                }
            }
        }
    }

    #[test]
    fn bits_match_cell_costs_at_every_phase_and_border() {
        // Kinds cycle through all 4 codes with an irregular period, so that every
        // bit phase meets every kind.
        let grid = Grid::from_fn(131, 5, |c| {
            TileKind::new(((c.x * 7 + c.y * 3 + c.x / 5) % 4) as u8).unwrap()
        })
        .unwrap();
        let dims = (grid.width(), grid.height());
        for mobility in [
            Mobility::FLOOR_ONLY,
            Mobility::new([0, 0, 0, 9]),
            Mobility::new([0, 1, 0, 1]),
            Mobility::new([0, 0, 1, 1]),
            Mobility::new([1, 1, 1, 0]),
        ] {
            let kept = crate::OpenRows::new(&grid, mobility).unwrap();
            for (lo, hi) in [((0, 0), (131, 5)), ((3, 1), (100, 4))] {
                let open = |c| grid.is_passable(c, mobility);
                let rows = Rows::new(Planes::new(&grid, mobility), dims, lo, hi);
                check(rows, (131, 5), lo, hi, open);
                let bits = KeptRows::open(&kept);
                check(Rows::new(bits, dims, lo, hi), (131, 5), lo, hi, open);
                if (lo, hi) == ((0, 0), (131, 5)) {
                    let whole = Rows::new(Whole::new(bits), dims, lo, hi);
                    check(whole, (131, 5), lo, hi, open);
                }
            }
        }
    }

    #[test]
    fn bits_match_footprints_at_every_phase_and_border() {
        // Sparse walls, so that squares of every side up to 5 fit somewhere, and the
        // grid's last cells (which a chunk of 64 values overruns) among them.
        let grid = Grid::from_fn(131, 9, |c| {
            let wall = (c.x * 13 + c.y * 7 + c.x / 3) % 11 == 0;
            if wall { TileKind::K1 } else { TileKind::K0 }
        })
        .unwrap();
        let dims = (grid.width(), grid.height());
        let mut clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
        for size in 1..=5 {
            clear.keep_rows(size).unwrap();
        }
        for size in 1..=5 {
            let fits = |c| grid.fits(c, Mobility::FLOOR_ONLY, size);
            for (lo, hi) in [((0, 0), (131, 9)), ((3, 1), (100, 8))] {
                let rows = Rows::new(Fits::new(&clear, size), dims, lo, hi);
                check(rows, (131, 9), lo, hi, fits);
                if size > 1 {
                    let bits = KeptRows::fits(&clear, size).unwrap();
                    check(Rows::new(bits, dims, lo, hi), (131, 9), lo, hi, fits);
                    if (lo, hi) == ((0, 0), (131, 9)) {
                        let whole = Rows::new(Whole::new(bits), dims, lo, hi);
                        check(whole, (131, 9), lo, hi, fits);
                    }
                }
            }
        }
    }
}
