//! Big units: where a square footprint fits, and what it costs it to enter a cell
//! (the highest cost under it), read by the solvers through the cost model's
//! [`EnterCost`], so one search loop serves every unit size.

use crate::cost::EnterCost;
use crate::grid::EVEN;
pub(crate) use crate::grid::footprint_cost;
use crate::{Cell, Clearance, Grid, MAX_UNIT_SIZE, Mobility, PathError};

/// A square unit bigger than one cell, for queries [`sized`](crate::PathQuery::sized)
/// by it: its side and the [`Clearance`] of its mobility, which says where it fits.
///
/// A unit of size `n` standing at cell `(x, y)` covers the `n x n` cells `x..x + n` by
/// `y..y + n`: its cell (the *anchor*, the one its paths are made of) is the footprint's
/// corner with the smallest `x` and `y`, and the footprint's centre is at
/// `(x + n / 2, y + n / 2)` in cell units (see [`centre`](Self::centre)).
///
/// The movement rule for size `n` is the one-cell rule applied to footprints:
/// - the unit may enter a cell when its whole footprint there is inside the grid and
///   passable ([`Clearance::fits`]);
/// - a diagonal step also needs both orthogonal steps beside it legal (no corner
///   cutting);
/// - entering a cell costs the highest cost of the `n x n` cells under the footprint
///   there, so mud under any part of a big unit slows it;
/// - a unit whose footprint was walled over walks out: on each step the cells under
///   the footprint it steps from count as open (at no more than the cost of the other
///   cells under it), so it may slide off the walls step by step but never steps back
///   onto a walled cell it has left. This is the rule of
///   [`Grid::can_step_sized`], the one a follower checks each step with: a path a
///   solver returns never holds a step it rejects. As for a one-cell unit, the
///   start's own cost is never paid.
///
/// Size 1 is the plain one-cell query (the same answers, at the same speed).
///
/// ```
/// use tilepath::{AStar, Cell, Clearance, Grid, Mobility, PathQuery, Solver, TileKind};
/// // A 1-wide gap in the middle wall, a 2-wide one at the top.
/// let grid = Grid::from_ascii(
///     "......\n......\n##.#..\n......\n......",
///     |c| Some(if c == '#' { TileKind::K1 } else { TileKind::K0 }),
/// )?;
/// let clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
/// let mut astar = AStar::new();
/// let (from, to) = (Cell::new(0, 0), Cell::new(0, 3));
/// let small = astar.find(&grid, PathQuery::new(from, to, Mobility::FLOOR_ONLY))?;
/// let big = astar.find(&grid, PathQuery::new(from, to, Mobility::FLOOR_ONLY).sized(clear.footprint(2)))?;
/// assert_eq!((small.path.len(), big.path.len()), (7, 11)); // the 2x2 unit takes the wide gap
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Footprint<'a> {
    clearance: &'a Clearance,
    size: u8,
}

impl<'a> Footprint<'a> {
    /// A unit of side `size` that moves on `clearance`'s mobility. Any `size` may be
    /// given: the solvers answer size 0 and sizes that cannot fit with an error.
    #[must_use]
    pub const fn new(clearance: &'a Clearance, size: u8) -> Self {
        Self { clearance, size }
    }

    /// The unit's side in cells.
    #[must_use]
    pub const fn size(self) -> u8 {
        self.size
    }

    /// The clearance the unit moves on.
    #[must_use]
    pub const fn clearance(self) -> &'a Clearance {
        self.clearance
    }

    /// Where the footprint of a unit anchored at `cell` has its centre, in cell units
    /// (cell `(x, y)` spans `x..x + 1`): `(x + n / 2, y + n / 2)`. A one-cell unit's
    /// centre is its cell's centre, `(x + 0.5, y + 0.5)`.
    #[must_use]
    pub fn centre(self, cell: Cell) -> (f32, f32) {
        footprint_centre(cell, self.size)
    }
}

/// The centre of the `size x size` footprint anchored at `cell` (see
/// [`Footprint::centre`]).
#[must_use]
pub fn footprint_centre(cell: Cell, size: u8) -> (f32, f32) {
    let half = f32::from(size) / 2.0;
    (cell.x as f32 + half, cell.y as f32 + half)
}

/// A square unit's costs: 0 where its footprint does not fit, else the highest cost
/// under it.
#[derive(Clone, Copy)]
pub(crate) struct FootprintCosts<'a> {
    grid: &'a Grid,
    clearance: &'a [u8],
    size: u8,
    /// The cost of every fitting footprint, on a one-cost mobility.
    uniform: Option<u8>,
    /// Per set of kinds under a footprint (bit `k`: kind `k`), the highest cost.
    highest: [u8; 16],
    mobility: Mobility,
    /// The start's anchor, when its footprint does not fit: a footprint that does not
    /// fit may then be entered by a step that leaves its walls under the footprint
    /// stepped from ([`footprint_cost`]'s step rule), which only footprints
    /// overlapping the start's can.
    leaving: Option<Cell>,
    /// The low bit of each of the footprint's `size` cells in a packed row.
    row_mask: u64,
}

impl<'a> FootprintCosts<'a> {
    /// The costs of a unit of `footprint` and `mobility` on `grid`, after the checks
    /// every sized query makes: `None` for size 1 (the one-cell costs serve).
    ///
    /// # Errors
    /// [`PathError::ZeroUnitSize`]; [`PathError::UnitTooLarge`] past
    /// [`MAX_UNIT_SIZE`] or the grid's sides; [`PathError::ClearanceMismatch`] when
    /// the clearance is of another grid size or mobility.
    pub(crate) fn of(
        footprint: Footprint<'a>,
        grid: &'a Grid,
        mobility: Mobility,
        start: Cell,
    ) -> Result<Option<Self>, PathError> {
        let size = footprint.size;
        if size == 0 {
            return Err(PathError::ZeroUnitSize);
        }
        let (w, h) = (grid.width(), grid.height());
        if size > MAX_UNIT_SIZE || u32::from(size) > w.min(h) {
            return Err(PathError::UnitTooLarge {
                size,
                width: w,
                height: h,
            });
        }
        let clear = footprint.clearance;
        if !clear.is_of_size(w, h) || !clear.serves(mobility) {
            return Err(PathError::ClearanceMismatch);
        }
        Ok((size > 1).then(|| Self::new(grid, footprint, mobility, start)))
    }

    /// The costs of `footprint` on `grid` for `mobility` (which its clearance serves;
    /// the size is `2..=MAX_UNIT_SIZE`), for a query from `start`.
    pub(crate) fn new(
        grid: &'a Grid,
        footprint: Footprint<'a>,
        mobility: Mobility,
        start: Cell,
    ) -> Self {
        let size = footprint.size;
        debug_assert!((2..=MAX_UNIT_SIZE).contains(&size));
        let uniform = (mobility.min_cost() == mobility.max_cost()).then(|| mobility.min_cost());
        // Only mobilities with several costs read the kinds under a footprint.
        let mut highest = [0; 16];
        if uniform.is_none() {
            let costs = mobility.costs();
            for (set, h) in highest.iter_mut().enumerate() {
                *h = (0..4)
                    .filter(|k| set >> k & 1 == 1)
                    .map(|k| costs[k])
                    .max()
                    .unwrap_or(0);
            }
        }
        Self {
            grid,
            clearance: footprint.clearance.values(),
            size,
            uniform,
            highest,
            mobility,
            leaving: (grid.contains(start) && !footprint.clearance.fits(start, size))
                .then_some(start),
            row_mask: EVEN & (!0 >> (64 - 2 * u32::from(size))),
        }
    }

    /// Whether the unit may stand at grid index `i` (`i < grid.len()`): its footprint
    /// fits, or its walls are all under the start's (a step may still not enter it:
    /// see [`EnterCost::step_unchecked`]).
    #[inline]
    pub(crate) fn enterable(&self, i: usize) -> bool {
        self.clearance[i] >= self.size || self.leaving_cost(i) != 0
    }

    /// The cost of standing at grid index `i`, whose footprint does not fit, while
    /// leaving a start that does not fit either: the footprint's cells must be inside
    /// the grid and passable or under the start's footprint; the cost is the highest
    /// of the passable ones' (the mobility's lowest if none is), the cost of any
    /// legal step into it.
    #[cold]
    #[inline(never)]
    fn leaving_cost(&self, i: usize) -> u8 {
        let Some(start) = self.leaving else { return 0 };
        let w = self.grid.width() as usize;
        let n = i32::from(self.size);
        let at = Cell::new((i % w) as i32, (i / w) as i32);
        if (at.x - start.x).abs() >= n || (at.y - start.y).abs() >= n {
            return 0;
        }
        footprint_cost(self.grid, self.mobility, at, self.size, Some(start))
    }

    /// The cost of a step from grid index `from` into grid index `i`, whose footprint
    /// does not fit, while leaving a start that does not fit either: the step rule of
    /// [`footprint_cost`] (every cell under the footprint entered is passable or under
    /// the footprint stepped from), which [`Grid::can_step_sized`] checks steps with.
    /// Only a footprint overlapping the start's can be entered so: its walls are
    /// under the footprint stepped from, and that one's under the one before, back
    /// to the start.
    #[cold]
    #[inline(never)]
    fn leaving_step(&self, from: usize, i: usize) -> u8 {
        let Some(start) = self.leaving else { return 0 };
        let w = self.grid.width() as usize;
        let n = i32::from(self.size);
        let at = Cell::new((i % w) as i32, (i / w) as i32);
        if (at.x - start.x).abs() >= n || (at.y - start.y).abs() >= n {
            return 0;
        }
        let from = Cell::new((from % w) as i32, (from / w) as i32);
        footprint_cost(self.grid, self.mobility, at, self.size, Some(from))
    }

    /// The kinds under the footprint anchored at grid index `i` (which fits, so its
    /// rows are inside the grid): a packed read a row.
    #[inline]
    fn kinds_under(&self, i: usize) -> usize {
        let w = self.grid.width() as usize;
        let m = self.row_mask;
        let mut set = 0;
        for r in 0..usize::from(self.size) {
            let v = self.grid.cells_from(i + r * w);
            let (lo, hi) = (v & m, (v >> 1) & m);
            set |= usize::from(!lo & !hi & m != 0)
                | usize::from(lo & !hi != 0) << 1
                | usize::from(!lo & hi & m != 0) << 2
                | usize::from(lo & hi != 0) << 3;
        }
        set
    }
}

impl EnterCost for FootprintCosts<'_> {
    #[inline(always)]
    fn grid(&self) -> &Grid {
        self.grid
    }

    #[inline(always)]
    #[expect(unsafe_code, reason = "the solvers' hot path; callers prove the bound")]
    unsafe fn at_unchecked(&self, i: usize) -> u8 {
        // SAFETY: the clearance is the grid's size (checked when the query began) and
        // `i < grid.len()`, as the caller promises.
        if unsafe { *self.clearance.get_unchecked(i) } < self.size {
            // Tested here, not in the out-of-line rule: most queries start where the
            // unit fits, and a wall then costs no call.
            return if self.leaving.is_some() {
                self.leaving_cost(i)
            } else {
                0
            };
        }
        match self.uniform {
            Some(c) => c,
            None => self.highest[self.kinds_under(i)],
        }
    }

    #[inline(always)]
    #[expect(unsafe_code, reason = "the solvers' hot path; callers prove the bound")]
    unsafe fn step_unchecked(&self, from: usize, i: usize) -> u8 {
        // SAFETY: as in `at_unchecked`.
        if unsafe { *self.clearance.get_unchecked(i) } < self.size {
            return if self.leaving.is_some() {
                self.leaving_step(from, i)
            } else {
                0
            };
        }
        match self.uniform {
            Some(c) => c,
            None => self.highest[self.kinds_under(i)],
        }
    }

    #[inline(always)]
    fn walks_out(&self) -> bool {
        self.leaving.is_some()
    }

    #[inline]
    fn uniform(&self) -> Option<u8> {
        self.uniform
    }

    #[inline]
    fn enterable_from(&self, _anf: [u64; 4], i: usize) -> u64 {
        // Rows the 32 cells lie in, and whether the start's walled-over footprint is
        // near them (then the cold rule decides cell by cell).
        let w = self.grid.width() as usize;
        let near_start = self.leaving.is_some_and(|s| {
            let n = i64::from(self.size);
            let (y0, y1) = ((i / w) as i64, ((i + 31) / w) as i64);
            y0 - i64::from(s.y) < n && i64::from(s.y) - y1 < n
        });
        match self.clearance.get(i..i + 32) {
            Some(values) if !near_start => {
                // A table spreads each word's 8 fitting bits to every other bit.
                values
                    .chunks_exact(8)
                    .enumerate()
                    .fold(0, |bits, (k, eight)| {
                        let v = u64::from_le_bytes(eight.try_into().unwrap_or([0; 8]));
                        let gathered = usize::from(fitting(v, self.size));
                        bits | u64::from(SPREAD[gathered]) << (16 * k)
                    })
            }
            _ => (i..(i + 32).min(self.grid.len()))
                .enumerate()
                .fold(0, |bits, (j, k)| {
                    bits | u64::from(self.enterable(k)) << (2 * j)
                }),
        }
    }
}

/// Of 8 clearance values (the bytes of `eight`, little-endian), bit `k` set where value
/// `k` is at least `size`: where a unit of that side fits.
///
/// # Implementation
/// Per byte, `value >= size` sets its high bit of `(value | 0x80) - size` (values are
/// at most [`MAX_UNIT_SIZE`] < 128: no borrow crosses bytes); a multiply gathers the 8
/// high bits of the word into its top byte.
#[inline(always)]
pub(crate) fn fitting(eight: u64, size: u8) -> u8 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW: u64 = 0x0101_0101_0101_0101;
    let fits = ((eight | HIGH) - u64::from(size) * LOW) & HIGH;
    ((fits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Of 64 clearance values, bit `k` set where value `k` is at least `size`, as
/// [`fitting`] for 8.
#[inline(always)]
pub(crate) fn fitting64(values: &[u8; 64], size: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        fitting64_sse2(values, size)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        fitting64_words(values, size)
    }
}

/// [`fitting64`] a word at a time, by [`fitting`]: on every target but x86_64 (and in
/// tests, against the SSE2 form).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn fitting64_words(values: &[u8; 64], size: u8) -> u64 {
    values
        .chunks_exact(8)
        .enumerate()
        .fold(0, |bits, (k, eight)| {
            let v = u64::from_le_bytes(eight.try_into().unwrap_or([0; 8]));
            bits | u64::from(fitting(v, size)) << (8 * k)
        })
}

/// [`fitting64`] with SSE2: a compare and a mask of 16 values at a time, a quarter of
/// the word-wide rule's instructions (jump point search converts a row's values at
/// every word it scans).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[expect(unsafe_code, reason = "SSE2 intrinsics, part of every x86_64 target")]
fn fitting64_sse2(values: &[u8; 64], size: u8) -> u64 {
    use core::arch::x86_64::{_mm_cmpgt_epi8, _mm_movemask_epi8, _mm_set_epi64x, _mm_set1_epi8};
    let mut bits = 0;
    for (k, sixteen) in values.chunks_exact(16).enumerate() {
        let word = |at: usize| {
            let b: [u8; 8] = sixteen[at..at + 8].try_into().unwrap_or([0; 8]);
            i64::from_le_bytes(b)
        };
        // SAFETY: SSE2 is in the baseline of every x86_64 target, and these intrinsics
        // touch no memory. Values are at most MAX_UNIT_SIZE < 128, so a signed compare
        // with `size - 1` is `value >= size`.
        let mask = unsafe {
            let v = _mm_set_epi64x(word(8), word(0));
            let limit = _mm_set1_epi8(size.wrapping_sub(1) as i8);
            _mm_movemask_epi8(_mm_cmpgt_epi8(v, limit))
        };
        bits |= u64::from(mask as u16) << (16 * k);
    }
    bits
}

/// Per byte: its bit `j` moved to bit `2j`.
static SPREAD: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            t[b] |= ((b as u16 >> j) & 1) << (2 * j);
            j += 1;
        }
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests;
