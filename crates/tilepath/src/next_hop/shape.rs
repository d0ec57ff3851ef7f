//! The padded grid model a table is built on: open cells, their entries and costs.

use super::*;
use crate::padded::QuadCosts;

/// The grid as the table sees it: padded costs, entries, components.
#[derive(Clone, Debug)]
pub(super) struct Shape {
    pub(super) width: u32,
    pub(super) height: u32,
    /// `width + 2`: the padded arrays have a blocked border.
    pub(super) stride: usize,
    pub(super) connectivity: Connectivity,
    pub(super) encoding: Encoding,
    pub(super) mobility: Mobility,
    /// Per padded cell: mobility cost (0 = blocked or border).
    pub(super) costs: Vec<u8>,
    /// Per padded cell: its entry, or `NONE`.
    pub(super) entry_of: Vec<u32>,
    /// Per padded cell: its entry while open, else `NONE` (one load for the queries).
    pub(super) open: Vec<u32>,
    /// Per entry: its padded index.
    pub(super) cells: Vec<u32>,
    /// Per entry: its component (`NONE` while blocked).
    pub(super) component: Vec<u32>,
    /// Per component: its number of cells.
    pub(super) component_len: Vec<u32>,
    /// Padded index offsets of the 8 directions, in `Direction8` order.
    pub(super) deltas: [isize; 8],
    /// The dead-end branches left out of the pair table ([`TableCells::Passable`]).
    pub(super) branches: Branches,
}

/// The mobility costs of `grid` with a blocked border one cell wide (row stride
/// `width + 2`).
pub(super) fn padded_costs(grid: &Grid, mobility: Mobility) -> Vec<u8> {
    QuadCosts::new(mobility).padded_grid(grid)
}

/// Per padded cell its role ([`branches::peel`]) when `entries` leaves branches out, else
/// empty.
pub(super) fn roles(
    costs: &[u8],
    stride: usize,
    connectivity: Connectivity,
    entries: TableCells,
) -> Vec<u8> {
    match entries {
        TableCells::Passable => peel(costs, &padded_offsets(stride), square_codes(connectivity)),
        TableCells::AllCells => Vec::new(),
    }
}

impl Shape {
    pub(super) fn new(
        grid: &Grid,
        mobility: Mobility,
        connectivity: Connectivity,
        entries: TableCells,
    ) -> Self {
        let stride = grid.width() as usize + 2;
        let real = padded_costs(grid, mobility);
        let role = roles(&real, stride, connectivity, entries);
        let deltas = padded_offsets(stride);
        let branches = Branches::new(&real, &role, &deltas, square_codes(connectivity));
        let padded = real.len();
        // The table's view: branch cells are left out, as if blocked.
        let mut costs = real;
        let mut entry_of = vec![NONE; padded];
        let mut cells = Vec::new();
        for p in 0..padded {
            if role.get(p).is_some_and(|&r| r < CORE) {
                costs[p] = 0;
                continue;
            }
            let (x, y) = (p % stride, p / stride);
            let inside =
                x >= 1 && y >= 1 && x <= grid.width() as usize && y <= grid.height() as usize;
            if inside && (costs[p] != 0 || entries == TableCells::AllCells) {
                entry_of[p] = cells.len() as u32;
                cells.push(p as u32);
            }
        }
        cells.shrink_to_fit();
        let mut shape = Self {
            width: grid.width(),
            height: grid.height(),
            stride,
            connectivity,
            encoding: Encoding::of(mobility, connectivity),
            mobility,
            open: (0..padded)
                .map(|p| if costs[p] != 0 { entry_of[p] } else { NONE })
                .collect(),
            costs,
            entry_of,
            component: vec![NONE; cells.len()],
            cells,
            component_len: Vec::new(),
            deltas,
            branches,
        };
        shape.label_components();
        shape
    }

    /// Sets the cost of the entry at padded index `p`.
    pub(super) fn set_cost(&mut self, p: usize, cost: u8) {
        self.costs[p] = cost;
        self.open[p] = if cost != 0 { self.entry_of[p] } else { NONE };
    }

    /// Labels the components of the passable entries (flood fill, O(entries)), then of
    /// the open branch cells.
    pub(super) fn label_components(&mut self) {
        self.component.fill(NONE);
        self.component_len.clear();
        let mut stack = Vec::new();
        let dirs = square_codes(self.connectivity);
        for start in 0..self.cells.len() {
            let p = self.cells[start] as usize;
            if self.costs[p] == 0 || self.component[start] != NONE {
                continue;
            }
            let id = self.component_len.len() as u32;
            let mut len = 0u32;
            self.component[start] = id;
            stack.push(p);
            while let Some(p) = stack.pop() {
                len += 1;
                for &d in dirs {
                    if let Some(q) = self.step(p, d) {
                        let entry = self.entry_of[q] as usize;
                        if self.component[entry] == NONE {
                            self.component[entry] = id;
                            stack.push(q);
                        }
                    }
                }
            }
            self.component_len.push(len);
        }
        let Self {
            branches,
            open,
            component,
            component_len,
            deltas,
            ..
        } = self;
        branches.label(
            deltas,
            |q| match open[q] {
                NONE => NONE,
                entry => component[entry as usize],
            },
            component_len,
        );
    }

    /// The direction codes moved in.
    #[inline]
    pub(super) fn dirs(&self) -> &'static [usize] {
        square_codes(self.connectivity)
    }

    /// The component of the open cell at padded index `p` (an entry or a branch cell).
    #[inline]
    pub(super) fn component_at(&self, p: usize) -> Option<u32> {
        let c = match self.open[p] {
            NONE => match self.branches.number(p) {
                NONE => NONE,
                n => self.branches.component[n as usize],
            },
            entry => self.component[entry as usize],
        };
        (c != NONE).then_some(c)
    }

    /// The mobility cost of padded cell `p` (0 if blocked), branch cells included.
    #[inline]
    pub(super) fn real_cost(&self, p: usize) -> u8 {
        match self.costs[p] {
            0 => match self.branches.number(p) {
                NONE => 0,
                n => self.branches.cost[n as usize],
            },
            c => c,
        }
    }

    /// Like [`step`](Self::step), over every open cell, branch cells included.
    #[inline]
    pub(super) fn step_any(&self, p: usize, dir: usize) -> Option<usize> {
        if self.branches.len() == 0 {
            return self.step(p, dir);
        }
        let q = p.wrapping_add_signed(self.deltas[dir]);
        let open = |c: usize| self.real_cost(c) != 0;
        if !open(q) {
            return None;
        }
        if dir & 1 == 1
            && (!open(p.wrapping_add_signed(self.deltas[dir - 1]))
                || !open(p.wrapping_add_signed(self.deltas[(dir + 1) & 7])))
        {
            return None;
        }
        Some(q)
    }

    /// The padded cell one step `dir` (a `Direction8` code) from `p`, if that step is
    /// legal: open, and for a diagonal both orthogonal cells beside it open.
    #[inline(always)]
    pub(super) fn step(&self, p: usize, dir: usize) -> Option<usize> {
        legal_step(&self.costs, &self.deltas, p, dir)
    }

    #[inline]
    pub(super) fn padded(&self, cell: Cell) -> Option<usize> {
        if cell.x < 0 || cell.y < 0 || cell.x as u32 >= self.width || cell.y as u32 >= self.height {
            return None;
        }
        Some((cell.y as usize + 1) * self.stride + cell.x as usize + 1)
    }

    #[inline]
    pub(super) fn cell(&self, p: usize) -> Cell {
        Cell::new((p % self.stride) as i32 - 1, (p / self.stride) as i32 - 1)
    }

    /// The cost, in table units, of stepping from a cell into `q` in direction `dir`.
    #[inline(always)]
    pub(super) fn step_cost(&self, q: usize, dir: usize) -> u32 {
        u32::from(self.costs[q]) * crate::topology::step_weight(self.connectivity, dir) as u32
    }
}

/// The first step from entry `entry` (padded `p`, row stride `stride`) along row `row`
/// of a [`Encoding::DistanceMod3`] table: right, down, left, up, the first open
/// neighbour one step closer to the row's target.
///
/// # Safety
/// `p` must be a cell inside the grid (its 4 neighbours are padded cells), `entry` and
/// every entry in `open` must be below the number of residues `row` holds.
#[inline(always)]
#[expect(
    unsafe_code,
    reason = "the query's hot path: bounds come from the layout"
)]
pub(super) unsafe fn mod3_step(
    row: &[u8],
    open: &[u32],
    p: usize,
    entry: usize,
    stride: usize,
) -> Option<Direction8> {
    let residue = |n: usize| {
        // SAFETY: `n` is `entry` or an open entry: below the residues `row` holds.
        (unsafe { *row.get_unchecked(n >> 2) } >> ((n & 3) * 2)) & 3
    };
    // SAFETY: `q` is one of `p`'s 4 neighbours, all padded cells.
    let open = |q: usize| unsafe { *open.get_unchecked(q) };
    let closer = closer(residue(entry));
    for (q, dir) in [(p + 1, 0), (p + stride, 2), (p - 1, 4), (p - stride, 6)] {
        let n = open(q);
        if n != NONE && residue(n as usize) == closer {
            return Some(Direction8::from_bits(dir));
        }
    }
    None
}
