//! Distance fields (Dijkstra maps): one computation from the goals serves every unit.
//!
//! The field and its construction are here; the phases each have a file: goals
//! ([`goals`]), a full computation (`compute`: cost loading, the breadth-first sweep
//! and the Dijkstra variants), flee fields (`flee`), local repair after edits
//! (`repair`) and the queries units walk by (`query`).

mod compute;
mod error;
mod flee;
mod goals;
mod query;
mod region;
mod repair;

pub use error::{FieldError, FieldState, FieldStats};
pub use query::combined_next_step;
pub use region::Region;

use crate::cost::OCTILE_DIAGONAL;
use crate::padded::{FootprintLoader, QuadCosts};
use crate::queue::{RadixHeap, StepQueues};
use crate::{Cell, Connectivity, Direction8, Grid, GridPath, GridPath8, MAX_STEPS, Mobility};

/// Stored value of a cell that is blocked or outside the field.
const BLOCKED: u32 = 0;
/// Stored value of a passable cell no goal reaches.
const UNREACHED: u32 = u32::MAX;
/// The largest distance a field holds, in its units (stored as `units + 1`).
const MAX_UNITS: u32 = UNREACHED - 2;

/// What `load_costs` saw of the region, to choose how to propagate.
#[derive(Clone, Copy, Debug)]
struct CostProfile {
    /// The cost every passable cell has, if they all have the same one: 4-connected
    /// fields then propagate by a breadth-first sweep.
    uniform_cost: Option<u8>,
    /// More than 1/16 of the cells are blocked: the sweep's comparisons are then
    /// unpredictable and it runs branch-free.
    cluttered: bool,
}

/// A goal: a cell and its start value in cost units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Goal {
    index: u32,
    start: u32,
    /// Order of addition among goals not yet sorted (the last one added wins).
    seq: u32,
}

/// A distance field (a Dijkstra map): for every cell of a grid (or of a region of it),
/// the cost of the cheapest way to the nearest goal. When hundreds of units head for
/// the same places (the player, a rally point, the nearest resource), one field
/// computed from those goals serves all of them: each unit walks downhill with
/// [`next_step`](Self::next_step) or takes a [`path`](Self::path) of up to 56 steps,
/// exactly as optimal as an A* path.
///
/// - Costs come from a [`Mobility`] (a step costs the cell it enters, times `sqrt(2)`
///   for a diagonal), 4- or 8-connected ([`Connectivity`]; 8 with no corner cutting),
///   in the same exact fixed-point units as [`AStar`](crate::AStar).
/// - Several goals at once, each with a start value: a goal with a lower start value
///   pulls harder (it is as if it were that much closer).
/// - [`flee`](Self::flee) turns a chase field into a flee field: units run away along
///   real routes instead of into corners. [`combined_next_step`] walks several fields
///   at once with weights.
/// - [`repair`](Self::repair) after cells change, [`add_goal`](Self::add_goal) and
///   [`remove_goal`](Self::remove_goal) after goals change touch only the cells whose
///   value changes; the result is identical to a full recompute.
/// - [`bounded`](Self::bounded) limits a field to a region, and
///   [`with_max_distance`](Self::with_max_distance) to a cost radius, for local goals
///   on huge maps: memory and time follow the region, not the grid.
///
/// Memory: 9 bytes a cell of the region at construction
/// ([`bytes_for`](Self::bytes_for)), plus scratch that grows to the largest computation
/// and repair run and is reused ([`memory_bytes`](Self::memory_bytes); see below).
///
/// Distances are exact fixed-point integers up to [`MAX_UNITS`](Self::MAX_UNITS) (4
/// billion cost units 4-connected, 1.8 million 8-connected): past it the computation
/// returns [`FieldError::DistanceOverflow`] ([`state`](Self::state) says so), never
/// "unreachable". Queries answer only while the field is [`FieldState::Ready`]: after
/// [`clear_goals`](Self::clear_goals), a new maximum distance or a failed computation
/// they answer `None` until the next computation.
///
/// ```
/// use tilepath::{Cell, Connectivity, DistanceField, Grid, Mobility};
/// let grid = Grid::new(20, 10)?;
/// let mut chase = DistanceField::new(&grid, Mobility::FLOOR_ONLY, Connectivity::Four);
/// chase.add_goal(Cell::new(15, 5), 0);
/// chase.compute(&grid)?;
/// assert_eq!(chase.distance(Cell::new(10, 5)), Some(5.0));
/// let path = chase.path(Cell::new(10, 5));
/// assert_eq!(path.end(Cell::new(10, 5)), Cell::new(15, 5));
///
/// // The same goal as something to run away from.
/// let mut flee = chase.clone();
/// flee.flee(&grid, 1.2)?;
/// let step = flee.next_step(Cell::new(10, 5)).unwrap();
/// assert_eq!(Cell::new(10, 5).step(step).manhattan(Cell::new(15, 5)), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Implementation
///
/// Memory: 5 bytes per cell of the region (a `u32` value and the cell's cost) and a
/// 4-byte breadth-first queue, 9 bytes a cell allocated at construction
/// ([`bytes_for`](Self::bytes_for) gives the figure before, [`try_new`](Self::try_new)
/// and [`try_bounded`](Self::try_bounded) report a refusal as an error), plus work
/// queues that grow to the largest computation the field has run (8 bytes an entry,
/// for Dijkstra-based computations: 8-connected or several costs) and are reused
/// ([`memory_bytes`](Self::memory_bytes) says how much is held), and a repair scratch
/// that grows to the largest repair seen ([`reserve_repair`](Self::reserve_repair)
/// sizes it up front): once a field has computed and repaired its workload,
/// computing and repairing again allocate nothing. Fields for units bigger than one
/// cell hold about 2 bytes a cell more ([`set_unit_size`](Self::set_unit_size)).
#[derive(Clone, Debug)]
pub struct DistanceField {
    connectivity: Connectivity,
    mobility: Mobility,
    grid_size: (u32, u32),
    /// Grid coordinates of the region's first cell.
    origin: Cell,
    /// Region size (clipped to the grid).
    width: u32,
    height: u32,
    /// Row stride of the padded arrays: `width + 2`.
    stride: usize,
    /// Per padded cell: `units + 1`, `BLOCKED` or `UNREACHED`. The border is `BLOCKED`,
    /// so neighbours never need a bounds check.
    values: Vec<u32>,
    /// Per padded cell: the mobility cost of entering it (0 = blocked or border).
    costs: Vec<u8>,
    goals: Vec<Goal>,
    /// Largest distance (in units) a cell may have to be reached.
    max_units: u32,
    /// Flee fields: the factor applied before the rescan, and the bias that keeps
    /// stored values positive (reported distance = stored - 1 - bias).
    flee: Option<f32>,
    bias: u32,
    state: FieldState,
    /// Rows the queries see: `height` while [`FieldState::Ready`], else 0 (so a query
    /// on a field that must not answer costs no extra test).
    answer_rows: u32,
    /// Whether `goals` is sorted by index with no index twice.
    goals_sorted: bool,
    /// At least the largest start value of the goals (reset when they are cleared).
    max_goal_start: u32,
    /// Set by the propagation when a candidate value was dropped at the natural
    /// limit (a possible overflow, checked after the run).
    clipped: bool,
    /// The lowest and highest padded index whose value the last
    /// [`repair`](Self::repair) may have changed (`lo > hi`: none).
    changed: (usize, usize),
    // Scratch, sized once.
    /// The breadth-first queue, `cells + 1` long (a sweep writes one slot past its
    /// tail); `fifo_len` entries are in use. Seeds go here first.
    fifo: Vec<u32>,
    fifo_len: usize,
    heap: RadixHeap<u32>,
    touched: Vec<u32>,
    queues: StepQueues,
    /// The mobility's costs a packed grid byte at a time (the padded-grid loader).
    quad_costs: QuadCosts,
    /// The side of the units the field is for (1: one cell).
    unit_size: u8,
    /// The footprint loader, for units bigger than one cell.
    footprints: Option<FootprintLoader>,
}

/// A Dijkstra candidate `v + step`, or `None` past `limit`. `fast`: `v` is far enough
/// below the limit (and `u32::MAX`) that no step can pass it, so nothing is checked.
#[inline(always)]
fn step_value(v: u32, step: u32, fast: bool, limit: u32) -> Option<u32> {
    if fast {
        Some(v + step)
    } else {
        v.checked_add(step).filter(|&nv| nv <= limit)
    }
}

impl DistanceField {
    /// The largest distance a field holds, in its units (cost units 4-connected,
    /// `cost * OCTILE_STRAIGHT` 8-connected): `u32::MAX - 2`.
    pub const MAX_UNITS: u32 = MAX_UNITS;

    /// A field over the whole of `grid` (not computed yet: every query answers
    /// `None`).
    ///
    /// # Panics
    /// If the system cannot give the field's memory ([`bytes_for`](Self::bytes_for)):
    /// [`try_new`](Self::try_new) returns an error instead.
    #[must_use]
    pub fn new(grid: &Grid, mobility: Mobility, connectivity: Connectivity) -> Self {
        Self::try_new(grid, mobility, connectivity).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`new`](Self::new), or [`FieldError::OutOfMemory`] (naming the bytes) if the
    /// system cannot give the field's memory.
    ///
    /// # Errors
    /// [`FieldError::OutOfMemory`]; nothing is allocated then.
    pub fn try_new(
        grid: &Grid,
        mobility: Mobility,
        connectivity: Connectivity,
    ) -> Result<Self, FieldError> {
        let all = Region::new(
            Cell::new(0, 0),
            Cell::new(grid.width() as i32 - 1, grid.height() as i32 - 1),
        );
        Self::try_bounded(grid, mobility, connectivity, all)
    }

    /// A field limited to `region` (clipped to the grid): cells outside it are
    /// treated as blocked, and memory follows the region's size. A region that misses
    /// the grid gives an empty field (every query answers `None`).
    ///
    /// # Panics
    /// If the system cannot give the field's memory: see
    /// [`try_bounded`](Self::try_bounded).
    #[must_use]
    pub fn bounded(
        grid: &Grid,
        mobility: Mobility,
        connectivity: Connectivity,
        region: Region,
    ) -> Self {
        Self::try_bounded(grid, mobility, connectivity, region).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The bytes a field over a `width x height` region allocates when it is made: 5
    /// per cell and its one-cell border (value and cost), 4 per cell of breadth-first
    /// queue, and a 1 KiB cost table (about 9 bytes a cell). Dijkstra-based
    /// computations add work queues as they run: see [`DistanceField`].
    #[must_use]
    pub const fn bytes_for(width: u32, height: u32) -> u64 {
        let padded = (width as u64 + 2) * (height as u64 + 2);
        let cells = width as u64 * height as u64;
        padded * 5 + (cells + 1) * 4 + 4 * 256
    }

    /// [`bounded`](Self::bounded), or [`FieldError::OutOfMemory`] (naming the bytes)
    /// if the system cannot give the field's memory.
    ///
    /// # Errors
    /// [`FieldError::OutOfMemory`]; nothing is allocated then.
    pub fn try_bounded(
        grid: &Grid,
        mobility: Mobility,
        connectivity: Connectivity,
        region: Region,
    ) -> Result<Self, FieldError> {
        let x0 = region.min.x.max(0);
        let y0 = region.min.y.max(0);
        let x1 = i64::from(region.max.x).min(i64::from(grid.width()) - 1);
        let y1 = i64::from(region.max.y).min(i64::from(grid.height()) - 1);
        let mut width = (x1 - i64::from(x0) + 1).max(0) as u32;
        let mut height = (y1 - i64::from(y0) + 1).max(0) as u32;
        if width == 0 || height == 0 {
            // The region misses the grid: no cells at all (not a row of 0 columns,
            // whose rows would still be read).
            (width, height) = (0, 0);
        }
        let bytes = Self::bytes_for(width, height);
        crate::memory::ensure(bytes).map_err(|bytes| FieldError::OutOfMemory { bytes })?;
        let stride = width as usize + 2;
        let padded = stride * (height as usize + 2);
        let cells = width as usize * height as usize;
        Ok(Self {
            connectivity,
            mobility,
            grid_size: (grid.width(), grid.height()),
            origin: Cell::new(x0, y0),
            width,
            height,
            stride,
            values: vec![BLOCKED; padded],
            costs: vec![0; padded],
            goals: Vec::with_capacity(16),
            max_units: MAX_UNITS,
            flee: None,
            bias: 0,
            state: FieldState::NotComputed,
            answer_rows: 0,
            goals_sorted: true,
            max_goal_start: 0,
            clipped: false,
            changed: (usize::MAX, 0),
            fifo: vec![0; cells + 1],
            fifo_len: 0,
            // Repairs touch few cells: these grow to the largest repair seen.
            heap: RadixHeap::with_capacity(64),
            touched: Vec::with_capacity(64),
            queues: StepQueues::new(mobility),
            quad_costs: QuadCosts::new(mobility),
            unit_size: 1,
            footprints: None,
        })
    }

    /// This field for units of `size x size` cells: see
    /// [`set_unit_size`](Self::set_unit_size).
    ///
    /// # Errors
    /// As [`set_unit_size`](Self::set_unit_size).
    pub fn with_unit_size(mut self, size: u8) -> Result<Self, FieldError> {
        self.set_unit_size(size)?;
        Ok(self)
    }

    /// Makes the field one for units of `size x size` cells (1 by default), with the
    /// footprint rule of [`Footprint`](crate::Footprint): a cell's value is what a
    /// unit anchored there pays to reach a goal, entering a cell costs the highest
    /// cost under the footprint there, and cells where the footprint does not fit
    /// (blocked, or reaching past the grid) are blocked. A goal the footprint cannot
    /// occupy is ignored, as a blocked goal is. The footprint may reach past the
    /// field's region into the grid. The first size above 1 allocates a scratch of
    /// about 2 bytes a cell of the region, which every later size reuses. A computed
    /// field becomes [`FieldState::Stale`] if the size changes.
    ///
    /// # Errors
    /// [`FieldError::InvalidUnitSize`] for size 0 or above
    /// [`MAX_UNIT_SIZE`](crate::MAX_UNIT_SIZE); [`FieldError::HexUnitSize`] for a
    /// size above 1 on a hex field (unit sizes on hex maps may come later);
    /// [`FieldError::OutOfMemory`] if the scratch cannot be had. The field is
    /// unchanged then.
    pub fn set_unit_size(&mut self, size: u8) -> Result<(), FieldError> {
        if size == 0 || size > crate::MAX_UNIT_SIZE {
            return Err(FieldError::InvalidUnitSize { size });
        }
        if size > 1 && matches!(self.connectivity, Connectivity::Hex(_)) {
            return Err(FieldError::HexUnitSize { size });
        }
        if size == self.unit_size {
            return Ok(());
        }
        // The scratch serves every size: made once, kept when the size changes.
        if size > 1 && self.footprints.is_none() {
            let loader = FootprintLoader::new(self.width, self.height)
                .map_err(|bytes| FieldError::OutOfMemory { bytes })?;
            self.footprints = Some(loader);
        }
        self.unit_size = size;
        self.invalidate();
        Ok(())
    }

    /// The side of the units the field is for ([`set_unit_size`](Self::set_unit_size)).
    #[must_use]
    pub fn unit_size(&self) -> u8 {
        self.unit_size
    }

    /// A copy without the computation scratch (the breadth-first queue and the
    /// Dijkstra queues, about 12 bytes a cell after a full computation), for a field
    /// that from now on is mostly repaired: repairs grow what they need, and a full
    /// computation takes the rest back.
    pub(crate) fn clone_lean(&mut self) -> Self {
        let fifo = core::mem::take(&mut self.fifo);
        let queues = core::mem::replace(&mut self.queues, StepQueues::new(self.mobility));
        let lean = self.clone();
        self.fifo = fifo;
        self.queues = queues;
        lean
    }

    /// Sizes the repair scratch so that repairs touching up to `cells` cells allocate
    /// nothing (by default the scratch grows to the largest repair seen). Costs about
    /// 28 bytes per cell reserved, plus 8 per cost class the mobility uses.
    pub fn reserve_repair(&mut self, cells: usize) {
        if self.heap.capacity() < cells {
            self.heap = RadixHeap::with_capacity(cells);
        }
        self.touched
            .reserve(cells.saturating_sub(self.touched.len()));
        self.queues.reserve(cells);
    }

    /// Limits the field to cells at most `max_cost` away from a goal (in cost units,
    /// like [`distance`](Self::distance)); farther cells stay unreachable. A limit at
    /// or past the field's range ([`MAX_UNITS`](Self::MAX_UNITS)) or infinity means
    /// no limit; a negative one or NaN is 0 (only the goals themselves).
    ///
    /// Changing the limit of a computed field makes it [`FieldState::Stale`]: its
    /// queries answer `None` until the next [`compute`](Self::compute) or
    /// [`repair`](Self::repair), which then computes in full.
    #[must_use]
    pub fn with_max_distance(mut self, max_cost: f64) -> Self {
        let units = (max_cost.max(0.0) * self.scale() as f64).floor();
        let max_units = if units >= f64::from(MAX_UNITS) {
            MAX_UNITS
        } else {
            units as u32
        };
        if max_units != self.max_units {
            self.max_units = max_units;
            self.invalidate();
        }
        self
    }

    /// Whether the field's queries answer now, and if not why.
    ///
    /// ```
    /// use tilepath::{Cell, Connectivity, DistanceField, FieldState, Grid, Mobility};
    /// let grid = Grid::new(8, 8)?;
    /// let mut field = DistanceField::new(&grid, Mobility::FLOOR_ONLY, Connectivity::Four);
    /// assert_eq!(field.state(), FieldState::NotComputed);
    /// field.add_goal(Cell::new(2, 2), 0);
    /// field.compute(&grid)?;
    /// assert_eq!(field.state(), FieldState::Ready);
    /// field.clear_goals();
    /// assert_eq!(field.state(), FieldState::Stale);
    /// assert_eq!(field.distance(Cell::new(2, 3)), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn state(&self) -> FieldState {
        self.state
    }

    fn set_state(&mut self, state: FieldState) {
        self.state = state;
        self.answer_rows = if state == FieldState::Ready {
            self.height
        } else {
            0
        };
    }

    /// A computed field's values no longer follow from its goals and settings.
    pub(super) fn invalidate(&mut self) {
        if self.state == FieldState::Ready {
            self.set_state(FieldState::Stale);
        }
    }

    /// The mobility whose costs the field uses.
    #[must_use]
    pub fn mobility(&self) -> Mobility {
        self.mobility
    }

    /// 4- or 8-connected.
    #[must_use]
    pub fn connectivity(&self) -> Connectivity {
        self.connectivity
    }

    /// The region the field covers (clipped to the grid).
    #[must_use]
    pub fn region(&self) -> Region {
        Region::new(
            self.origin,
            Cell::new(
                self.origin.x + self.width as i32 - 1,
                self.origin.y + self.height as i32 - 1,
            ),
        )
    }

    /// Bytes per cell of the field's own storage (value and cost), excluding scratch.
    #[must_use]
    pub const fn bytes_per_cell() -> usize {
        size_of::<u32>() + size_of::<u8>()
    }

    /// Bytes the field holds: its cells, with their border, plus scratch.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.values.capacity() * 4
            + self.costs.capacity()
            + self.fifo.len() * 4
            + self.touched.capacity() * 4
            + self.heap.memory_bytes()
            + self.queues.memory_bytes()
            + QuadCosts::bytes()
            + self.footprints.as_ref().map_or(0, FootprintLoader::bytes)
    }

    /// The grid rows (first and last) whose values the last [`repair`](Self::repair)
    /// may have changed (every row when it computed the field in full), or `None` if
    /// it changed none.
    pub(crate) fn changed_rows(&self) -> Option<(i32, i32)> {
        let (lo, hi) = self.changed;
        if lo > hi || self.height == 0 {
            return None;
        }
        // Padded rows 1..=height are the field's rows, from the origin's.
        let row = |i: usize| (i / self.stride).clamp(1, self.height as usize) as i32 - 1;
        Some((self.origin.y + row(lo), self.origin.y + row(hi)))
    }

    /// Fixed-point units per cost unit: 1 (4-connected) or [`OCTILE_STRAIGHT`](crate::cost::OCTILE_STRAIGHT).
    #[inline]
    const fn scale(&self) -> u64 {
        crate::topology::step_weight(self.connectivity, 0)
    }

    /// The padded index of `cell`, or `None` outside the region.
    #[inline]
    fn index(&self, cell: Cell) -> Option<usize> {
        let x = cell.x.wrapping_sub(self.origin.x) as u32;
        let y = cell.y.wrapping_sub(self.origin.y) as u32;
        (x < self.width && y < self.height).then(|| (y as usize + 1) * self.stride + x as usize + 1)
    }

    /// [`index`](Self::index) for the queries: `None` as well while the field is not
    /// [`FieldState::Ready`].
    #[inline]
    fn query_index(&self, cell: Cell) -> Option<usize> {
        let x = cell.x.wrapping_sub(self.origin.x) as u32;
        let y = cell.y.wrapping_sub(self.origin.y) as u32;
        (x < self.width && y < self.answer_rows)
            .then(|| (y as usize + 1) * self.stride + x as usize + 1)
    }

    #[inline]
    fn cell_of(&self, index: usize) -> Cell {
        let (y, x) = (index / self.stride, index % self.stride);
        Cell::new(self.origin.x + x as i32 - 1, self.origin.y + y as i32 - 1)
    }

    /// The direction codes of the steps from padded index `i`: the connectivity's own,
    /// or on hex maps those of the cell's parity.
    #[inline]
    fn codes_at(&self, i: usize) -> &'static [usize] {
        codes_of(self.connectivity, self.origin, self.stride, i)
    }

    /// Neighbour offsets in direction order ([`Direction8`] codes), as index deltas.
    #[inline]
    fn deltas(&self) -> [isize; 8] {
        crate::topology::padded_offsets(self.stride)
    }

    // ----- goals -----

    fn check(&self, grid: &Grid) -> Result<(), FieldError> {
        crate::GridMismatch::check(self.grid_size, grid).map_err(FieldError::GridMismatch)
    }
}

/// [`DistanceField::codes_at`] for a field of `connectivity` whose padded arrays of row
/// stride `stride` start one cell below and left of `origin`.
#[inline]
pub(super) fn codes_of(
    connectivity: Connectivity,
    origin: Cell,
    stride: usize,
    i: usize,
) -> &'static [usize] {
    match connectivity {
        Connectivity::Hex(_) => {
            let x = i64::from(origin.x) + (i % stride) as i64 - 1;
            let y = i64::from(origin.y) + (i / stride) as i64 - 1;
            crate::topology::direction_codes(connectivity, x, y)
        }
        square => crate::topology::square_codes(square),
    }
}

pub(crate) fn add(total: &mut FieldStats, s: FieldStats) {
    total.goals_used += s.goals_used;
    total.goals_ignored += s.goals_ignored;
    total.cells_updated += s.cells_updated;
    total.cells_invalidated += s.cells_invalidated;
}
