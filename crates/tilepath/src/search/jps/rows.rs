//! Which cells of a row a mobility can enter, [`CHUNK`] cells at a time, read straight
//! from the packed 2-bit grid.

use super::super::bit_rows::{EVEN, open_anf, open_cells};
use crate::{Grid, Mobility};

/// Cells one [`Rows::bits`] call covers: an unaligned 8-byte load holds at least 29
/// whole 2-bit cells, whatever the phase of the first one in its byte.
pub(super) const CHUNK: i64 = 29;

/// The bits of a [`CHUNK`]'s cells.
const CHUNK_MASK: u64 = (1 << (2 * CHUNK)) - 1;

/// The grid's cells inside the search area, as passability bits.
///
/// A cell outside the area (or the grid) reads as blocked, so scans stop at the
/// area's border as at a wall: a windowed search is a search of the grid clipped to
/// its window.
#[derive(Clone, Copy)]
pub(super) struct Rows<'a> {
    bytes: &'a [u8],
    width: i64,
    /// The area: columns `x0..x1`, rows `y0..y1`.
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
    /// The mobility's passability rule for a packed word ([`open_anf`]).
    anf: [u64; 4],
    /// For a mobility that enters one kind only: that kind's code in every 2-bit field.
    only: Option<u64>,
    /// Bit `k` set when the mobility enters kind `k`.
    kinds: u8,
}

impl<'a> Rows<'a> {
    /// The cells of `grid` in columns `x0..x1` and rows `y0..y1` (inside the grid).
    pub(super) fn new(
        grid: &'a Grid,
        mobility: Mobility,
        (x0, y0): (i64, i64),
        (x1, y1): (i64, i64),
    ) -> Self {
        debug_assert!(0 <= x0 && x1 <= i64::from(grid.width()));
        debug_assert!(0 <= y0 && y1 <= i64::from(grid.height()));
        let only = match mobility.passable_kinds() {
            0b0001 => Some(0),
            0b0010 => Some(EVEN),
            0b0100 => Some(EVEN << 1),
            0b1000 => Some(u64::MAX),
            _ => None,
        };
        Self {
            bytes: grid.as_bytes(),
            only,
            width: i64::from(grid.width()),
            x0,
            y0,
            x1,
            y1,
            anf: open_anf(mobility),
            kinds: mobility.passable_kinds(),
        }
    }

    /// The 8 bytes from byte `b` on, little-endian; past the end of the grid, 0.
    #[inline(always)]
    fn load(&self, b: usize) -> u64 {
        match self.bytes.get(b..).and_then(<[u8]>::first_chunk::<8>) {
            Some(eight) => u64::from_le_bytes(*eight),
            None => self.load_tail(b),
        }
    }

    #[cold]
    fn load_tail(&self, b: usize) -> u64 {
        let tail = self.bytes.get(b..).unwrap_or(&[]);
        let mut buf = [0u8; 8];
        buf[..tail.len()].copy_from_slice(tail);
        u64::from_le_bytes(buf)
    }

    /// Bit `2j` set where the 2-bit cell `j` of `cells` is a kind the mobility enters.
    #[inline(always)]
    fn open_kinds(&self, cells: u64) -> u64 {
        // One open kind (the common "floor only" mobility) is a compare of each field.
        if let Some(pattern) = self.only {
            let differ = cells ^ pattern;
            return !(differ | differ >> 1) & EVEN;
        }
        open_cells(self.anf, cells) & EVEN
    }

    /// Passability of the [`CHUNK`] cells `base..base + CHUNK` of row `y`: bit `2j`
    /// for cell `base + j` (odd bits are 0). Cells outside the area read as blocked.
    #[inline(always)]
    pub(super) fn bits(&self, base: i64, y: i64) -> u64 {
        // The common case first: the whole block inside the area, nothing to clip.
        if base >= self.x0 && base + CHUNK <= self.x1 && y >= self.y0 && y < self.y1 {
            return self.inside(base, y);
        }
        self.clipped(base, y)
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
        if inner && base >= self.x0 && base + CHUNK <= self.x1 {
            return (
                self.inside(base, y - 1),
                self.inside(base, y),
                self.inside(base, y + 1),
            );
        }
        (
            self.clipped(base, y - 1),
            self.clipped(base, y),
            self.clipped(base, y + 1),
        )
    }

    /// [`bits`](Self::bits) of a block that lies inside the area.
    #[inline(always)]
    fn inside(&self, base: i64, y: i64) -> u64 {
        let i = (y * self.width + base) as usize;
        let cells = self.load(i >> 2) >> ((i & 3) * 2);
        self.open_kinds(cells) & CHUNK_MASK
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
        let i = (y * self.width + lo) as usize;
        let cells = self.load(i >> 2) >> ((i & 3) * 2);
        // `hi - lo <= 29`: the mask keeps the cells inside the area.
        let open = self.open_kinds(cells) & ((1u64 << (2 * (hi - lo))) - 1);
        open << (2 * (lo - base))
    }

    /// Passability of cells `x - 1`, `x` and `x + 1` of row `y` at bits 0, 2 and 4, for
    /// column scans; `x` must be a column of the area.
    #[inline(always)]
    pub(super) fn three(&self, x: i64, y: i64) -> u64 {
        debug_assert!(self.x0 <= x && x < self.x1);
        if y < self.y0 || y >= self.y1 {
            return 0;
        }
        let i = (y * self.width + x) as usize;
        // Cells `i - 1..=i + 1` lie in the 2 bytes from `(i - 1) >> 2` on (cells past
        // the grid's end read as 0 and are masked off as outside the area).
        let Some(first) = i.checked_sub(1) else {
            return self.bits(x - 1, y) & 0b1_0101;
        };
        let b = first >> 2;
        let pair = match self.bytes.get(b..b + 2) {
            Some(&[lo, hi]) => u64::from(u16::from_le_bytes([lo, hi])),
            _ => u64::from(self.bytes.get(b).copied().unwrap_or(0)),
        };
        let mut mask = 0b100;
        if x > self.x0 {
            mask |= 0b1;
        }
        if x + 1 < self.x1 {
            mask |= 0b1_0000;
        }
        self.open_kinds(pair >> ((first & 3) * 2)) & mask
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
        let i = (y * self.width + x) as usize;
        let code = self
            .bytes
            .get(i >> 2)
            .map_or(0, |&b| (b >> ((i & 3) * 2)) & 3);
        self.kinds >> code & 1 != 0
    }

    /// Whether the diagonal step from open cell `(x, y)` by `(dx, dy)` is legal: the
    /// cell it enters and both cells beside its corner are inside the area and open.
    #[inline(always)]
    pub(super) fn diagonal_step(&self, x: i64, y: i64, dx: i64, dy: i64) -> bool {
        // Cells `x - 1`, `x`, `x + 1` at bits 0, 2, 4.
        let side = 2 + 2 * dx;
        self.three(x, y) >> side & 1 != 0
            && self.three(x, y + dy) & (0b100 | 1 << side) == (0b100 | 1 << side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, TileKind};

    #[test]
    fn bits_match_cell_costs_at_every_phase_and_border() {
        // Kinds cycle through all 4 codes with an irregular period, so that every
        // byte phase meets every kind.
        let grid = Grid::from_fn(67, 5, |c| {
            TileKind::new(((c.x * 7 + c.y * 3 + c.x / 5) % 4) as u8).unwrap()
        })
        .unwrap();
        for mobility in [
            Mobility::FLOOR_ONLY,
            Mobility::new([0, 0, 0, 9]),
            Mobility::new([0, 1, 0, 1]),
            Mobility::new([0, 0, 1, 1]),
            Mobility::new([1, 1, 1, 0]),
        ] {
            for (lo, hi) in [((0, 0), (67, 5)), ((3, 1), (50, 4))] {
                let rows = Rows::new(&grid, mobility, lo, hi);
                let inside = |x: i64, y: i64| x >= lo.0 && x < hi.0 && y >= lo.1 && y < hi.1;
                for y in -1..6 {
                    for base in -35..70 {
                        let bits = rows.bits(base, y);
                        assert_eq!(bits & !EVEN, 0);
                        for j in 0..CHUNK {
                            let (x, c) = (base + j, Cell::new((base + j) as i32, y as i32));
                            let want = inside(x, y) && grid.is_passable(c, mobility);
                            assert_eq!(bits >> (2 * j) & 1 == 1, want, "{mobility:?} ({x}, {y})");
                            assert_eq!(rows.is_open(x, y), want);
                        }
                        assert_eq!(bits >> (2 * CHUNK), 0);
                        if (lo.0..hi.0).contains(&base) {
                            assert_eq!(rows.three(base, y), rows.bits(base - 1, y) & 0b1_0101);
                        }
                    }
                }
            }
        }
    }
}
