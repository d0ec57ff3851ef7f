//! Padded cost grids: a mobility's costs of (part of) a grid, copied into an array with a
//! border of blocked cells so that every cell has all 8 neighbours at the fixed
//! offsets of [`padded_offsets`](crate::topology::padded_offsets). Distance fields and
//! next-hop tables work on these; this is their one loader.

use crate::{Cell, Grid, Mobility};

/// A mobility's costs for whole bytes of the packed grid: per byte value (4 cells), their
/// 4 costs, little-endian. 1 KiB, built once per mobility.
#[derive(Clone, Debug)]
pub(crate) struct QuadCosts {
    mobility: Mobility,
    quads: Box<[u32; 256]>,
}

/// What [`QuadCosts::load`] saw in the cells it copied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Loaded {
    /// Bit `k` set when some cell holds kind `k`.
    pub(crate) kinds: u8,
    /// Cells that cost 0 (blocked) under the mobility.
    pub(crate) blocked: usize,
}

/// Per packed grid byte: a mask of the tile kinds of its 4 cells.
static KINDS_IN_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = 1 << (b & 3) | 1 << (b >> 2 & 3) | 1 << (b >> 4 & 3) | 1 << (b >> 6);
        b += 1;
    }
    t
};

/// How many bytes of `x` are 0.
#[inline(always)]
fn zero_bytes(x: u32) -> usize {
    (!(((x & 0x7F7F_7F7F) + 0x7F7F_7F7F) | x | 0x7F7F_7F7F)).count_ones() as usize
}

impl QuadCosts {
    /// The table for `mobility`.
    pub(crate) fn new(mobility: Mobility) -> Self {
        let c = mobility.costs();
        let quads = Box::new(core::array::from_fn(|b| {
            (0..4).fold(0, |quad, k| {
                quad | u32::from(c[(b >> (2 * k)) & 3]) << (8 * k)
            })
        }));
        Self { mobility, quads }
    }

    /// Bytes held.
    pub(crate) const fn bytes() -> usize {
        size_of::<[u32; 256]>()
    }

    /// Copies the costs of the grid cells `origin + [0, width) x [0, height)` (inside
    /// `grid`, or empty) into `costs`, a padded array of row stride `stride` in which cell
    /// `origin + (x, y)` is at `(y + 1) * stride + x + 1`. Other entries (the border)
    /// are left alone.
    ///
    /// # Implementation
    /// Whole bytes of the packed grid (4 cells) are copied at once through the table,
    /// cell by cell only up to the first byte boundary of a row and after its last
    /// whole byte: this pass touches every cell of a field, a fair share of a
    /// unit-cost field's time.
    pub(crate) fn load(
        &self,
        grid: &Grid,
        origin: Cell,
        width: usize,
        height: usize,
        stride: usize,
        costs: &mut [u8],
    ) -> Loaded {
        if width == 0 || height == 0 {
            return Loaded::default();
        }
        debug_assert!(origin.x >= 0 && origin.y >= 0);
        debug_assert!(origin.x as usize + width <= grid.width() as usize);
        debug_assert!(origin.y as usize + height <= grid.height() as usize);
        debug_assert!(width + 2 <= stride && (height + 2) * stride <= costs.len());
        let kind_costs = self.mobility.costs();
        let packed = grid.as_bytes();
        let w = grid.width() as usize;
        let mut seen = Loaded::default();
        for y in 0..height {
            let row = (y + 1) * stride + 1;
            let start = (origin.y as usize + y) * w + origin.x as usize;
            let end = start + width;
            let body = start.next_multiple_of(4).min(end);
            let body_end = body + (end - body) / 4 * 4;
            for gi in (start..body).chain(body_end..end) {
                let bits = grid.bits_at(gi);
                let c = kind_costs[usize::from(bits)];
                seen.kinds |= 1 << bits;
                seen.blocked += usize::from(c == 0);
                costs[row + gi - start] = c;
            }
            let cells = costs[row + body - start..row + body_end - start].chunks_exact_mut(4);
            for (&b, cells) in packed[body / 4..body_end / 4].iter().zip(cells) {
                let quad = self.quads[usize::from(b)];
                seen.kinds |= KINDS_IN_BYTE[usize::from(b)];
                seen.blocked += zero_bytes(quad);
                cells.copy_from_slice(&quad.to_le_bytes());
            }
        }
        seen
    }

    /// A new padded array of the whole grid (border blocked).
    pub(crate) fn padded_grid(&self, grid: &Grid) -> Vec<u8> {
        let (w, h) = (grid.width() as usize, grid.height() as usize);
        let stride = w + 2;
        let mut costs = vec![0u8; stride * (h + 2)];
        self.load(grid, Cell::new(0, 0), w, h, stride, &mut costs);
        costs
    }
}

/// Footprint costs in a padded array: what entering each cell costs a unit of
/// `size x size` cells anchored there (see [`Footprint`](crate::Footprint)): the
/// highest cost under the footprint, 0 if any cell under it is blocked or outside the
/// grid. The field's loader for sized units; its scratch is sized once for a region,
/// for every size up to [`MAX_UNIT_SIZE`](crate::MAX_UNIT_SIZE).
#[derive(Clone, Debug)]
pub(crate) struct FootprintLoader {
    /// The region's cell costs, grown by `size - 1` columns and rows towards `+x`
    /// and `+y` (clipped to the grid), padded by a blocked border.
    cells: Vec<u8>,
    /// Per row of `cells` and column of the region: the row's part of a footprint.
    rows: Vec<u8>,
}

/// The footprint rule's "highest, but blocked if any is": 0 (blocked) maps to 255
/// below, so that the highest of the shifted costs is blocked iff any is.
#[inline(always)]
fn highest(costs: impl Iterator<Item = u8>) -> u8 {
    costs
        .map(|c| c.wrapping_sub(1))
        .max()
        .unwrap_or(255)
        .wrapping_add(1)
}

impl FootprintLoader {
    /// Scratch for loading a `width x height` region's footprints of any side up to
    /// `MAX_UNIT_SIZE`, or the bytes the system refused.
    pub(crate) fn new(width: u32, height: u32) -> Result<Self, u64> {
        let n = usize::from(crate::MAX_UNIT_SIZE);
        let (ew, eh) = (width as usize + n + 2, height as usize + n + 2);
        let bytes = (ew * eh + width as usize * eh) as u64;
        crate::memory::ensure(bytes)?;
        Ok(Self {
            cells: vec![0; ew * eh],
            rows: vec![0; width as usize * eh],
        })
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.cells.capacity() + self.rows.capacity()
    }

    /// As [`QuadCosts::load`], with each cell's footprint cost for units of side `size`
    /// (`2..=MAX_UNIT_SIZE`) in place of its own.
    /// `seen` tells the kinds of the cells read (those under the region's footprints)
    /// and the footprints blocked.
    #[expect(clippy::too_many_arguments, reason = "the padded layout's parameters")]
    pub(crate) fn load(
        &mut self,
        quads: &QuadCosts,
        grid: &Grid,
        origin: Cell,
        width: usize,
        height: usize,
        stride: usize,
        costs: &mut [u8],
        size: u8,
    ) -> Loaded {
        let n = usize::from(size);
        let ew = (width + n - 1).min((grid.width() as usize).saturating_sub(origin.x as usize));
        let eh = (height + n - 1).min((grid.height() as usize).saturating_sub(origin.y as usize));
        if width == 0 || height == 0 {
            return Loaded::default();
        }
        let es = ew + 2;
        // The border of this load's rectangle reads blocked (a load of another size
        // left cells there).
        self.cells[..es].fill(0);
        self.cells[(eh + 1) * es..(eh + 2) * es].fill(0);
        for r in 1..=eh {
            self.cells[r * es] = 0;
            self.cells[r * es + ew + 1] = 0;
        }
        let mut seen = quads.load(grid, origin, ew, eh, es, &mut self.cells);
        for r in 0..eh {
            let row = &self.cells[(r + 1) * es + 1..(r + 1) * es + 1 + ew];
            for x in 0..width {
                self.rows[r * width + x] = match row.get(x..x + n) {
                    Some(part) => highest(part.iter().copied()),
                    None => 0, // the footprint leaves the grid
                };
            }
        }
        seen.blocked = 0;
        for y in 0..height {
            for x in 0..width {
                let c = if y + n <= eh {
                    highest((y..y + n).map(|r| self.rows[r * width + x]))
                } else {
                    0
                };
                seen.blocked += usize::from(c == 0);
                costs[(y + 1) * stride + x + 1] = c;
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TileKind;

    #[test]
    fn loads_every_cell_of_any_rectangle() {
        let mut s = 5u32;
        let grid = Grid::from_fn(23, 9, |_| {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
            TileKind::from_bits((s >> 16) as u8 & 3)
        })
        .unwrap();
        let mobility = Mobility::new([1, 0, 3, 7]);
        let quads = QuadCosts::new(mobility);
        for (ox, oy, w, h) in [(0, 0, 23, 9), (1, 2, 5, 3), (3, 0, 20, 9), (7, 8, 1, 1)] {
            let stride = w + 4;
            let mut costs = vec![9u8; stride * (h + 2)];
            let seen = quads.load(&grid, Cell::new(ox, oy), w, h, stride, &mut costs);
            let (mut kinds, mut blocked) = (0u8, 0);
            for y in 0..h {
                for x in 0..w {
                    let cell = Cell::new(ox + x as i32, oy + y as i32);
                    let kind = grid.get(cell).unwrap();
                    kinds |= 1 << kind.index();
                    blocked += usize::from(grid.cost(cell, mobility) == 0);
                    assert_eq!(costs[(y + 1) * stride + x + 1], grid.cost(cell, mobility));
                }
            }
            assert_eq!(seen, Loaded { kinds, blocked });
            assert_eq!(costs[0], 9, "the border is left alone");
        }
    }

    #[test]
    fn loads_the_footprint_costs_of_any_rectangle() {
        let mut s = 7u32;
        let grid = Grid::from_fn(29, 17, |_| {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
            TileKind::from_bits(if (s >> 16).is_multiple_of(11) {
                1
            } else {
                (s >> 20) as u8 & 3
            })
        })
        .unwrap();
        let mobility = Mobility::new([1, 0, 3, 7]);
        let quads = QuadCosts::new(mobility);
        for (ox, oy, w, h) in [(0, 0, 29, 17), (1, 2, 5, 3), (20, 10, 9, 7), (28, 16, 1, 1)] {
            // One loader for every size, in any order.
            let mut loader = FootprintLoader::new(w as u32, h as u32).unwrap();
            for size in [5, 2, 4, 3, 16] {
                let stride = w + 2;
                let mut costs = vec![9u8; stride * (h + 2)];
                let seen = loader.load(
                    &quads,
                    &grid,
                    Cell::new(ox, oy),
                    w,
                    h,
                    stride,
                    &mut costs,
                    size,
                );
                let mut blocked = 0;
                for y in 0..h {
                    for x in 0..w {
                        let cell = Cell::new(ox + x as i32, oy + y as i32);
                        let want = crate::grid::footprint_cost(&grid, mobility, cell, size, None);
                        blocked += usize::from(want == 0);
                        assert_eq!(
                            costs[(y + 1) * stride + x + 1],
                            want,
                            "size {size} at {cell}"
                        );
                    }
                }
                assert_eq!(seen.blocked, blocked);
            }
        }
    }
}
