//! Connected components of a mobility's passable cells, kept up to date on edits.

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
/// first closing that needs them.
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
}

const BLOCKED: u32 = u32::MAX;

/// The fewest roots the forest keeps room for beyond its components (one 64th of the
/// cells on bigger grids), so that splits (a new root each) do not grow it between
/// two relabellings.
const SPLIT_ROOM: usize = 256;

/// Whether a unit of side `size` fits at a cell of clearance `value` (as
/// [`Clearance::fits`]: size 0 fits nowhere, sizes above [`MAX_UNIT_SIZE`] nowhere
/// either, as no clearance tells them apart).
#[inline]
fn fits(value: u8, size: u8) -> bool {
    (1..=MAX_UNIT_SIZE).contains(&size) && value >= size
}

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
        let mut c = Self {
            width: grid.width(),
            height: grid.height(),
            passable,
            connectivity,
            unit_size: 1,
            labels: Vec::new(),
            parent: Vec::new(),
            size: Vec::new(),
            count: 0,
            seen: Vec::new(),
            generation: Generation::new(30),
            queues: Default::default(),
        };
        c.labels = (0..grid.len())
            .map(|i| {
                if passable >> grid.bits_at(i) & 1 == 1 {
                    0
                } else {
                    BLOCKED
                }
            })
            .collect();
        c.relabel_all();
        Ok(c)
    }

    /// The components of the cells where a unit of `footprint.size()` fits (its
    /// anchor cells: see [`Footprint`]), joined by the unit's square steps: "can this
    /// big unit get there at all?". As for one-cell units, 4- and 8-connected movement
    /// give the same components (a footprint's diagonal step needs both orthogonal
    /// steps beside it legal). Size 1 gives the mobility's own components; size 0, and
    /// sizes above [`MAX_UNIT_SIZE`], fit nowhere.
    ///
    /// Keep them up to date with [`repair_footprint`](Self::repair_footprint), after
    /// the clearance's own repair.
    ///
    /// ```
    /// use tilepath::{Cell, Clearance, Components, Grid, Mobility, TileKind};
    /// // Two halls joined by a corridor one cell wide.
    /// let grid = Grid::from_ascii("..#..\n.....\n..#..", |c| {
    ///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
    /// })?;
    /// let clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
    /// let big = Components::for_footprint(clear.footprint(2));
    /// let (left, right) = (Cell::new(0, 0), Cell::new(3, 0));
    /// assert!(!big.is_reachable(left, right));
    /// assert!(Components::new(&grid, Mobility::FLOOR_ONLY).is_reachable(left, right));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`new`](Self::new); see [`try_for_footprint`](Self::try_for_footprint).
    #[must_use]
    pub fn for_footprint(footprint: Footprint<'_>) -> Self {
        match Self::try_for_footprint(footprint) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`for_footprint`](Self::for_footprint), or an error when the system cannot give
    /// the labels' memory.
    ///
    /// # Errors
    /// [`GridError::OutOfMemory`] with the bytes asked for (8 a cell: labels and the
    /// split search's marks).
    pub fn try_for_footprint(footprint: Footprint<'_>) -> Result<Self, GridError> {
        let clearance = footprint.clearance();
        let (width, height) = clearance.dims();
        let bytes = u64::from(width) * u64::from(height) * 8;
        crate::memory::ensure(bytes).map_err(|bytes| GridError::OutOfMemory { bytes })?;
        let size = footprint.size();
        let mut c = Self {
            width,
            height,
            passable: clearance.passable_kinds(),
            connectivity: Connectivity::Four,
            unit_size: size,
            labels: Vec::new(),
            parent: Vec::new(),
            size: Vec::new(),
            count: 0,
            seen: Vec::new(),
            generation: Generation::new(30),
            queues: Default::default(),
        };
        c.labels = clearance
            .values()
            .iter()
            .map(|&v| if fits(v, size) { 0 } else { BLOCKED })
            .collect();
        c.relabel_all();
        // A footprint's anchors split far more often than cells do (an edit closes up
        // to `n x n` of them): the split search's scratch is made now, not on a tick.
        c.seen = vec![0; c.labels.len()];
        for queue in &mut c.queues {
            queue.reserve(SPLIT_ROOM);
        }
        Ok(c)
    }

    /// The side of the units these are the components of: 1 for a mobility's cells
    /// ([`new`](Self::new)), `n` for an `n x n` footprint's anchors
    /// ([`for_footprint`](Self::for_footprint)).
    #[must_use]
    pub fn unit_size(&self) -> u8 {
        self.unit_size
    }

    /// Brings footprint components up to date after the cells in `changed` were edited
    /// on the grid, once `clearance` (the one they were built from) has been repaired
    /// for the same edits. The result equals a fresh
    /// [`for_footprint`](Self::for_footprint). An edit can only change the anchors
    /// whose footprint covers it: at most `size x size` of them.
    ///
    /// # Errors
    /// [`GridMismatch`] if `clearance` is of another size of grid (nothing is changed).
    pub fn repair_footprint(
        &mut self,
        clearance: &Clearance,
        changed: &[Cell],
    ) -> Result<ComponentStats, GridMismatch> {
        let (width, height) = clearance.dims();
        if (width, height) != (self.width, self.height) {
            return Err(GridMismatch {
                expected: (self.width, self.height),
                found: (width, height),
            });
        }
        let n = i32::from(self.unit_size.clamp(1, MAX_UNIT_SIZE));
        let mut stats = ComponentStats::default();
        for &cell in changed {
            for dy in 0..n {
                for dx in 0..n {
                    let anchor = Cell::new(cell.x.wrapping_sub(dx), cell.y.wrapping_sub(dy));
                    let Some(i) = self.index(anchor) else {
                        continue;
                    };
                    let open = fits(clearance.values()[i], self.unit_size);
                    self.update(i, open, &mut stats);
                }
            }
        }
        self.compact();
        Ok(stats)
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

    /// How many components there are.
    #[must_use]
    pub fn count(&self) -> usize {
        self.count
    }

    /// Brings the components up to date after the cells in `changed` were edited on
    /// `grid` (list every edited cell; cells outside the grid and repeats are
    /// ignored). The result equals a fresh [`new`](Self::new).
    ///
    /// # Errors
    /// [`GridMismatch`] if `grid` is another size (nothing is changed).
    pub fn repair(
        &mut self,
        grid: &Grid,
        changed: &[Cell],
    ) -> Result<ComponentStats, GridMismatch> {
        GridMismatch::check((self.width, self.height), grid)?;
        let mut stats = ComponentStats::default();
        for &cell in changed {
            let Some(i) = self.index(cell) else { continue };
            let open = self.passable >> grid.bits_at(i) & 1 == 1;
            self.update(i, open, &mut stats);
        }
        self.compact();
        Ok(stats)
    }

    /// Opens or closes cell `i` if `open` says it changed.
    fn update(&mut self, i: usize, open: bool, stats: &mut ComponentStats) {
        match (self.labels[i] != BLOCKED, open) {
            (false, true) => {
                stats.opened += 1;
                self.open(i);
            }
            (true, false) => {
                stats.closed += 1;
                self.close(i, stats);
            }
            _ => {}
        }
    }

    /// Labels cut off by splits are left behind in the forest: start afresh once they
    /// outnumber the cells, or before the forest would have to grow (a split adds a
    /// root: growing would allocate in steady state).
    fn compact(&mut self) {
        let room = self.parent.capacity() - self.parent.len();
        if self.parent.len() > 2 * self.labels.len() + 64 || room < SPLIT_ROOM {
            self.relabel_all();
        }
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

    fn open(&mut self, i: usize) {
        let mut root = None::<u32>;
        for n in self.neighbours(i) {
            if n == usize::MAX {
                continue;
            }
            let r = self.find(self.labels[n]);
            root = Some(match root {
                None => r,
                Some(q) => self.unite(q, r),
            });
        }
        let r = match root {
            Some(r) => {
                self.size[r as usize] += 1;
                r
            }
            None => self.new_root(1),
        };
        self.labels[i] = r;
    }

    fn close(&mut self, i: usize, stats: &mut ComponentStats) {
        let root = self.find(self.labels[i]);
        self.labels[i] = BLOCKED;
        self.size[root as usize] = self.size[root as usize].saturating_sub(1);
        let around = self.neighbours(i);
        let open = around.iter().filter(|&&n| n != usize::MAX).count();
        if open == 0 {
            self.count -= 1;
            return;
        }
        let ring = self.ring();
        let hex = ring == 6;
        // Sides: arcs of open neighbours round the ring. On hex maps consecutive
        // neighbours are adjacent, so two open ones are joined; on square maps two
        // consecutive straight neighbours are joined when the diagonal cell between
        // them is open too.
        let w = self.width as usize;
        let joined_after = |k: usize| {
            // Neighbours k and k + 1 (round the ring).
            let (a, b) = (around[k], around[(k + 1) % ring]);
            if a == usize::MAX || b == usize::MAX {
                return false;
            }
            if hex {
                return true;
            }
            let (ax, ay) = (a % w, a / w);
            let (bx, by) = (b % w, b / w);
            // The diagonal shares a's column or row with b's: x of one, y of the other.
            let d = if ax == i % w {
                ay * w + bx
            } else {
                by * w + ax
            };
            self.labels[d] != BLOCKED
        };
        let mut side = [usize::MAX; 6];
        let mut sides = 0;
        // Start after a break in the ring, so that each arc is numbered once.
        let start = (0..ring)
            .find(|&k| !joined_after(k))
            .map_or(0, |k| (k + 1) % ring);
        for step in 0..ring {
            let k = (start + step) % ring;
            if around[k] == usize::MAX {
                continue;
            }
            let prev = (k + ring - 1) % ring;
            let joined = step > 0 && joined_after(prev);
            side[k] = if joined { sides - 1 } else { sides };
            if !joined {
                sides += 1;
            }
        }
        debug_assert!(sides <= 4, "at most 4 sides (3 on hex maps)");
        if sides <= 1 {
            return;
        }
        self.split_search(&around, &side, sides, root, stats);
    }

    /// Searches from each side of a closed cell in turn, a cell at a time: sides that
    /// meet are one; a side that runs out first is cut off and relabelled.
    fn split_search(
        &mut self,
        around: &[usize; 6],
        side: &[usize; 6],
        sides: usize,
        root: u32,
        stats: &mut ComponentStats,
    ) {
        if self.seen.len() != self.labels.len() {
            self.seen = vec![0; self.labels.len()];
        }
        if self.generation.advance() {
            self.seen.fill(0);
        }
        let stamp = self.generation.get() << 2;
        // Sides merge as their searches meet: a tiny union-find over `sides`.
        let mut joined: [usize; 4] = [0, 1, 2, 3];
        let mut heads = [0usize; 4];
        for q in &mut self.queues {
            q.clear();
        }
        for k in 0..6 {
            if around[k] != usize::MAX {
                let s = side[k];
                self.seen[around[k]] = stamp | s as u32;
                self.queues[s].push(around[k] as u32);
            }
        }
        let mut alive = sides;
        let mut done = [false; 4];
        while alive > 1 {
            for s in 0..sides {
                let t = top(&joined, s);
                if done[t] {
                    continue;
                }
                // A set of sides is exhausted when every queue in it is.
                if heads[s] >= self.queues[s].len() {
                    let exhausted = (0..sides)
                        .filter(|&o| top(&joined, o) == t)
                        .all(|o| heads[o] >= self.queues[o].len());
                    if exhausted {
                        done[t] = true;
                        alive -= 1;
                        if alive >= 1 {
                            self.cut_off(t, &joined, sides, root, stats);
                        }
                    }
                    continue;
                }
                let p = self.queues[s][heads[s]] as usize;
                heads[s] += 1;
                stats.cells_searched += 1;
                for q in self.neighbours(p) {
                    if q == usize::MAX {
                        continue;
                    }
                    let mark = self.seen[q];
                    if mark & !3 == stamp {
                        let other = top(&joined, (mark & 3) as usize);
                        if other != t {
                            joined[other] = t;
                            alive -= 1;
                        }
                    } else {
                        self.seen[q] = stamp | s as u32;
                        self.queues[s].push(q as u32);
                    }
                }
                if alive <= 1 {
                    break;
                }
            }
        }
    }

    /// Gives the cells the sides joined under `t` reached (the whole cut-off part)
    /// a new label.
    fn cut_off(
        &mut self,
        t: usize,
        joined: &[usize; 4],
        sides: usize,
        root: u32,
        stats: &mut ComponentStats,
    ) {
        let cells: u32 = (0..sides)
            .filter(|&o| top(joined, o) == t)
            .map(|o| self.queues[o].len() as u32)
            .sum();
        let label = self.new_root(cells);
        self.size[root as usize] = self.size[root as usize].saturating_sub(cells);
        for o in (0..sides).filter(|&o| top(joined, o) == t) {
            for &p in &self.queues[o] {
                self.labels[p as usize] = label;
            }
        }
        stats.splits += 1;
    }

    /// Labels every open cell afresh, from the labels' own open/blocked state: each run
    /// of open cells along a row gets a label, united with the labels of the runs it
    /// touches in the row below; then every cell takes its root's label, numbered from
    /// 0. Two passes over the labels in memory order, whatever the components' shapes.
    fn relabel_all(&mut self) {
        self.parent.clear();
        self.size.clear();
        self.count = 0;
        let w = self.width as usize;
        for row in (0..self.labels.len()).step_by(w.max(1)) {
            let mut x = 0;
            while x < w {
                if self.labels[row + x] == BLOCKED {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < w && self.labels[row + x] != BLOCKED {
                    x += 1;
                }
                let mut root = self.new_root((x - start) as u32);
                let run = root;
                let mut below_last = BLOCKED;
                for i in row + start..row + x {
                    self.labels[i] = run;
                    if let Some(&below) = i.checked_sub(w).and_then(|b| self.labels.get(b))
                        && below != BLOCKED
                        && below != below_last
                    {
                        below_last = below;
                        let r = self.find(below);
                        root = self.unite(root, r);
                    }
                    // Hex maps also join a cell to the row below by its diagonals.
                    if row > 0 {
                        for dx in self.down_diagonals(i - row, row / w).into_iter().flatten() {
                            let bx = (i - row).wrapping_add_signed(dx);
                            if bx < w && self.labels[row - w + bx] != BLOCKED {
                                let r = self.find(self.labels[row - w + bx]);
                                root = self.unite(root, r);
                            }
                        }
                    }
                }
            }
        }
        // Roots numbered 0.. in order; every label points at its root's number.
        let mut number = core::mem::take(&mut self.queues[0]);
        number.clear();
        let mut roots = 0u32;
        for label in 0..self.parent.len() as u32 {
            let root = self.find(label);
            number.push(if root == label {
                roots += 1;
                roots - 1
            } else {
                u32::MAX
            });
        }
        let mut last = (BLOCKED, BLOCKED);
        for l in &mut self.labels {
            if *l == BLOCKED {
                continue;
            }
            if *l != last.0 {
                let mut root = *l;
                while self.parent[root as usize] != root {
                    root = self.parent[root as usize];
                }
                last = (*l, number[root as usize]);
            }
            *l = last.1;
        }
        // A root's number is at most its label: moving sizes down in label order reads
        // each before it can be overwritten.
        for (label, &n) in number.iter().enumerate() {
            if n != u32::MAX {
                self.size[n as usize] = self.size[label];
            }
        }
        self.size.truncate(roots as usize);
        self.parent.clear();
        self.parent.extend(0..roots);
        self.count = roots as usize;
        number.clear();
        self.queues[0] = number;
        // Room for the splits of the repairs to come (see `compact`): in proportion to
        // the grid, so that a big map relabels (a pass over every cell) only after
        // thousands of splits.
        let room = SPLIT_ROOM.max(self.labels.len() / 64);
        self.parent.reserve(room);
        self.size.reserve(room);
    }
}

/// The side a set of joined sides is known by (`joined` is a tiny union-find over at
/// most 4 sides).
fn top(joined: &[usize; 4], mut side: usize) -> usize {
    while joined[side] != side {
        side = joined[side];
    }
    side
}
