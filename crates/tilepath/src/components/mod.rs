//! Connected components of a mobility's passable cells, kept up to date on edits.
//!
//! This file: the type, its one-cell constructors and queries, and the union-find
//! forest and neighbourhoods the others share; [`label`] numbers every cell from
//! scratch, [`repair`] keeps the components exact after edits, [`footprint`] builds
//! and repairs a big unit's.

mod derived;
mod footprint;
mod label;
mod repair;

pub use derived::ReachKey;

use crate::queue::Generation;
use crate::topology::{HEX_CODES, hex_odd};
use crate::{
    Cell, Clearance, Connectivity, Direction8, Footprint, Grid, GridError, GridMismatch,
    MAX_UNIT_SIZE, Mobility,
};
use core::fmt;

/// Which cells can reach which: the connected components of the cells a mobility can
/// enter, so that "is there a path at all?" is answered in O(log n) without a search,
/// and kept exact after edits by [`repair`](Self::repair).
///
/// Components depend only on which tile kinds the mobility lets a unit enter, not on
/// their costs, and they are the same for 4- and 8-connected movement: a diagonal step
/// is only legal when both cells beside its corner are open (no corner cutting), and
/// then it can be walked as two straight steps. So one `Components` serves both square
/// connectivities and every mobility with the same passable kinds. Hex maps join
/// more cells (a hex diagonal step has no corner rule): their components are built
/// with [`with_connectivity`](Self::with_connectivity). Hex steps include the 4
/// orthogonal ones, so hex components never part cells that square ones join.
///
/// ```
/// use tilepath::{Cell, Components, Grid, Mobility, TileKind};
/// let mut grid = Grid::from_ascii("..#..\n..#..", |c| {
///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
/// })?;
/// let mut parts = Components::new(&grid, Mobility::FLOOR_ONLY);
/// let (a, b) = (Cell::new(0, 0), Cell::new(4, 1));
/// assert!(!parts.is_reachable(a, b));
/// assert_eq!(parts.count(), 2);
/// grid.set(Cell::new(2, 1), TileKind::K0)?; // a door
/// parts.repair(&grid, &[Cell::new(2, 1)])?;
/// assert!(parts.is_reachable(a, b));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Implementation
/// Every open cell holds a label; labels are joined in a union-find forest (union by
/// size, so a query follows at most `log2(cells)` links and needs no `&mut`). A build
/// gives each run of open cells along a row a label, unites it with the runs it
/// touches in the row below, and then numbers the roots: two passes in memory order,
/// so its cost barely depends on the components' shapes. Opening
/// a cell unites the labels of its open neighbours. Closing one first checks the ring
/// of its 8 neighbours (on hex maps, its 6, each next to the one before): if its open
/// neighbours stay joined around it, nothing can have split. Otherwise a breadth-first search runs from each side in turn, a cell
/// at a time; sides that meet are one, and a side that runs out of cells first is cut
/// off and gets a new label, so the work is bounded by the smaller sides, not the
/// component. Labels are 4 bytes a cell, plus 4 bytes a cell of search marks from the
/// first closing that needs them, and the searches' queues (one per side, each at
/// most 4 bytes a cell), which grow to the largest search so far: a repair allocates
/// only at the first closing that searches, and when a search is larger than any
/// before it (each queue doubles, so at most `4 * log2(cells)` times in a grid's
/// life).
#[derive(Clone)]
pub struct Components {
    width: u32,
    height: u32,
    /// Bit `k`: kind `k` is passable.
    passable: u8,
    /// The connectivity these are the components of.
    connectivity: Connectivity,
    /// The side of the units whose anchors these are the components of (1: cells).
    unit_size: u8,
    /// Per cell: its label, or [`BLOCKED`].
    labels: Vec<u32>,
    /// Per label: its parent in the forest (a root is its own parent).
    parent: Vec<u32>,
    /// Per root: the cells under it (an upper bound after splits).
    size: Vec<u32>,
    /// Components now.
    count: usize,
    /// Per cell: `generation << 2 | side` once a split search reached it.
    seen: Vec<u32>,
    generation: Generation,
    /// The split search's queues, one per side.
    queues: [Vec<u32>; 4],
    /// No split search gave up since the last relabelling (see
    /// [`repair_within`](Self::repair_within)).
    settled: bool,
}

const BLOCKED: u32 = u32::MAX;

/// The fewest roots the forest keeps room for beyond its components (one 64th of the
/// cells on bigger grids), so that splits (a new root each) do not grow it between
/// two relabellings.
const SPLIT_ROOM: usize = 256;

/// What a [`Components::repair`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComponentStats {
    /// Listed cells that became passable.
    pub opened: usize,
    /// Listed cells that became blocked.
    pub closed: usize,
    /// Cells the split searches visited.
    pub cells_searched: usize,
    /// Components cut off by closings.
    pub splits: usize,
    /// Closings whose split search gave up at the bound of
    /// [`Components::repair_within`]: the cells they may have cut apart keep one
    /// component until the components are settled again.
    pub unsettled: usize,
}

impl fmt::Debug for Components {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Components")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("passable", &self.passable)
            .field("unit_size", &self.unit_size)
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

impl Components {
    /// The components of the cells of `grid` that `mobility` can enter.
    ///
    /// # Panics
    /// If the system cannot give the labels' memory (4 bytes a cell); see
    /// [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(grid: &Grid, mobility: Mobility) -> Self {
        match Self::try_new(grid, mobility) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`new`](Self::new), or an error when the system cannot give the labels' memory.
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] with [`bytes_for`](Self::bytes_for) (nothing is
    /// allocated then).
    pub fn try_new(grid: &Grid, mobility: Mobility) -> Result<Self, GridError> {
        Self::try_with_connectivity(grid, mobility, Connectivity::Four)
    }

    /// The components of the cells of `grid` that `mobility` can enter, joined by the
    /// steps of `connectivity`. [`Four`](Connectivity::Four) and
    /// [`Eight`](Connectivity::Eight) give the same components (see the type's docs);
    /// a [`Hex`](Connectivity::Hex) map's differ: its diagonal steps join cells that
    /// square movement keeps apart.
    ///
    /// ```
    /// use tilepath::{Cell, Components, Connectivity, Grid, HexLayout, Mobility, TileKind};
    /// let grid = Grid::from_ascii(".#\n#.", |c| {
    ///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
    /// })?;
    /// let (a, b) = (Cell::new(0, 0), Cell::new(1, 1));
    /// let square = Components::new(&grid, Mobility::FLOOR_ONLY);
    /// assert!(!square.is_reachable(a, b));
    /// // Row 0 of `RowEven` steps up-right, to (1, 1).
    /// let hex = Connectivity::Hex(HexLayout::RowEven);
    /// let parts = Components::with_connectivity(&grid, Mobility::FLOOR_ONLY, hex);
    /// assert!(parts.is_reachable(a, b));
    /// assert_eq!(parts.connectivity(), hex);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`new`](Self::new); see [`try_with_connectivity`](Self::try_with_connectivity).
    #[must_use]
    pub fn with_connectivity(grid: &Grid, mobility: Mobility, connectivity: Connectivity) -> Self {
        match Self::try_with_connectivity(grid, mobility, connectivity) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`with_connectivity`](Self::with_connectivity), or an error when the system
    /// cannot give the labels' memory.
    ///
    /// # Errors
    /// As [`try_new`](Self::try_new).
    pub fn try_with_connectivity(
        grid: &Grid,
        mobility: Mobility,
        connectivity: Connectivity,
    ) -> Result<Self, GridError> {
        let bytes = Self::bytes_for(grid);
        crate::memory::ensure(bytes).map_err(|bytes| GridError::OutOfMemory { bytes })?;
        let passable = mobility.passable_kinds();
        let labels = (0..grid.len())
            .map(|i| {
                if passable >> grid.bits_at(i) & 1 == 1 {
                    0
                } else {
                    BLOCKED
                }
            })
            .collect();
        let dims = (grid.width(), grid.height());
        Ok(Self::labelled(dims, passable, (connectivity, 1), labels))
    }

    /// Bytes [`new`](Self::new) allocates for `grid`: the labels, 4 bytes a cell.
    #[must_use]
    pub fn bytes_for(grid: &Grid) -> u64 {
        grid.len() as u64 * 4
    }

    /// Bytes held now (labels, forest and split scratch).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        (self.labels.capacity()
            + self.parent.capacity()
            + self.size.capacity()
            + self.seen.capacity()
            + self.queues.iter().map(Vec::capacity).sum::<usize>())
            * 4
    }

    /// Whether a unit of this mobility can walk from `a` to `b`: both are inside the grid,
    /// open, and in the same component. A cell reaches itself when it is open.
    #[must_use]
    pub fn is_reachable(&self, a: Cell, b: Cell) -> bool {
        match (self.component(a), self.component(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }

    /// The component of `cell`: a number shared by exactly the cells it can reach,
    /// valid until the next [`repair`](Self::repair); `None` if `cell` is blocked or
    /// outside the grid.
    #[must_use]
    pub fn component(&self, cell: Cell) -> Option<u32> {
        let i = self.index(cell)?;
        let label = self.labels[i];
        (label != BLOCKED).then(|| self.find(label))
    }

    /// Whether these are the components of `mobility`: it lets units enter the same
    /// tile kinds as the mobility they were built for.
    #[must_use]
    pub fn serves(&self, mobility: Mobility) -> bool {
        mobility.passable_kinds() == self.passable
    }

    /// The connectivity these components were built for
    /// ([`with_connectivity`](Self::with_connectivity); [`Four`](Connectivity::Four)
    /// for [`new`](Self::new)). Square components serve 4- and 8-connected queries
    /// alike; hex queries need the components of their layout.
    #[must_use]
    pub fn connectivity(&self) -> Connectivity {
        self.connectivity
    }

    /// Whether the components are exact: no split search of
    /// [`repair_within`](Self::repair_within) gave up since they were built or last
    /// relabelled. Otherwise two cells may share a component with no way between them
    /// (never the other way round).
    #[must_use]
    pub fn is_settled(&self) -> bool {
        self.settled
    }

    /// How many components there are.
    #[must_use]
    pub fn count(&self) -> usize {
        self.count
    }

    /// The side of the units these are the components of: 1 for a mobility's cells
    /// ([`new`](Self::new)), `n` for an `n x n` footprint's anchors
    /// ([`for_footprint`](Self::for_footprint)).
    #[must_use]
    pub fn unit_size(&self) -> u8 {
        self.unit_size
    }

    #[inline]
    fn index(&self, cell: Cell) -> Option<usize> {
        let (x, y) = (cell.x as u32, cell.y as u32);
        (cell.x >= 0 && cell.y >= 0 && x < self.width && y < self.height)
            .then(|| y as usize * self.width as usize + x as usize)
    }

    /// The root of `label`.
    #[inline]
    fn find(&self, mut label: u32) -> u32 {
        while self.parent[label as usize] != label {
            label = self.parent[label as usize];
        }
        label
    }

    /// A new root holding `cells` cells.
    fn new_root(&mut self, cells: u32) -> u32 {
        let r = self.parent.len() as u32;
        self.parent.push(r);
        self.size.push(cells);
        self.count += 1;
        r
    }

    /// Joins the trees of roots `a` and `b` (union by size: the smaller goes under the
    /// larger); returns the root of the whole.
    #[inline]
    fn unite(&mut self, a: u32, b: u32) -> u32 {
        if a == b {
            return a;
        }
        let (big, small) = if self.size[a as usize] >= self.size[b as usize] {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[small as usize] = big;
        self.size[big as usize] += self.size[small as usize];
        self.count -= 1;
        big
    }

    /// The open neighbours of cell `i`, as cell indices (`usize::MAX` for none), in
    /// ring order: on square maps its straight ones (right, up (`+y`), left, down;
    /// the last two entries unused), on hex maps its 6 in `HexDirection` order
    /// (counter-clockwise, each next to the one before).
    #[inline]
    fn neighbours(&self, i: usize) -> [usize; 6] {
        let w = self.width as usize;
        let (x, y) = (i % w, i / w);
        let open = |ok: bool, j: usize| {
            if ok && self.labels[j] != BLOCKED {
                j
            } else {
                usize::MAX
            }
        };
        let Connectivity::Hex(layout) = self.connectivity else {
            return [
                open(x + 1 < w, i.wrapping_add(1)),
                open(y + 1 < self.height as usize, i.wrapping_add(w)),
                open(x > 0, i.wrapping_sub(1)),
                open(y > 0, i.wrapping_sub(w)),
                usize::MAX,
                usize::MAX,
            ];
        };
        let codes =
            &HEX_CODES[layout.index() as usize][usize::from(hex_odd(layout, x as i64, y as i64))];
        codes.map(|code| {
            let (dx, dy) = Direction8::from_bits(code).offset();
            let (nx, ny) = (
                x.wrapping_add_signed(dx as isize),
                y.wrapping_add_signed(dy as isize),
            );
            open(
                nx < w && ny < self.height as usize,
                ny.wrapping_mul(w).wrapping_add(nx),
            )
        })
    }

    /// How many entries of [`neighbours`](Self::neighbours) are in use: 4 or 6.
    fn ring(&self) -> usize {
        if let Connectivity::Hex(_) = self.connectivity {
            6
        } else {
            4
        }
    }

    /// On hex maps, the column offsets (-1 or +1) of the diagonal steps from cell
    /// `(x, y)` down to row `y - 1` (none, one or two of them); none on square maps.
    #[inline]
    fn down_diagonals(&self, x: usize, y: usize) -> [Option<isize>; 2] {
        let Connectivity::Hex(layout) = self.connectivity else {
            return [None, None];
        };
        let mask = crate::topology::hex_mask(layout, x as i32, y as i32);
        [
            (mask >> Direction8::DownLeft.bits() & 1 == 1).then_some(-1),
            (mask >> Direction8::DownRight.bits() & 1 == 1).then_some(1),
        ]
    }
}
