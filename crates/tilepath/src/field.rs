//! Distance fields (Dijkstra maps): one computation from the goals serves every unit.

use crate::cost::{OCTILE_DIAGONAL, OCTILE_STRAIGHT};
use crate::queue::{RadixHeap, StepQueues};
use crate::{Cell, Connectivity, Direction8, Grid, GridLayer, GridPath, GridPath8, MAX_STEPS};
use core::fmt;

/// Stored value of a cell that is blocked or outside the field.
const BLOCKED: u32 = 0;
/// Stored value of a passable cell no goal reaches.
const UNREACHED: u32 = u32::MAX;
/// The largest distance a field holds, in its units (stored as `units + 1`).
const MAX_UNITS: u32 = UNREACHED - 2;

/// A rectangle of cells, `min` and `max` included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// The corner with the smallest coordinates.
    pub min: Cell,
    /// The corner with the largest coordinates (included).
    pub max: Cell,
}

impl Region {
    /// The region from `min` to `max`, both included.
    #[must_use]
    pub const fn new(min: Cell, max: Cell) -> Self {
        Self { min, max }
    }

    /// The square of cells within Chebyshev distance `radius` of `center`.
    #[must_use]
    pub const fn around(center: Cell, radius: u32) -> Self {
        let r = if radius > i32::MAX as u32 {
            i32::MAX
        } else {
            radius as i32
        };
        Self {
            min: Cell::new(center.x.saturating_sub(r), center.y.saturating_sub(r)),
            max: Cell::new(center.x.saturating_add(r), center.y.saturating_add(r)),
        }
    }

    /// Whether `cell` lies in the region.
    #[must_use]
    pub const fn contains(&self, cell: Cell) -> bool {
        cell.x >= self.min.x && cell.x <= self.max.x && cell.y >= self.min.y && cell.y <= self.max.y
    }
}

/// Why a distance field could not do what was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// The grid is not the size the field was made for.
    GridMismatch {
        /// Size the field was made for.
        expected: (u32, u32),
        /// Size of the grid given.
        found: (u32, u32),
    },
    /// A reachable cell's distance (or a goal's start value, or a flee field's
    /// scaled values) exceeds what the field holds: [`DistanceField::MAX_UNITS`] in
    /// its units. The field answers nothing ([`FieldState::Overflowed`]) until a
    /// computation succeeds; a [`with_max_distance`](DistanceField::with_max_distance)
    /// limit below the range, or a 4-connected field (whose units are cost units),
    /// avoids it.
    DistanceOverflow {
        /// The largest distance the field holds, in its units.
        max_units: u32,
    },
    /// A flee factor that is not finite and greater than 0 (nothing was changed).
    InvalidFleeFactor,
    /// The system could not give the memory the field needs: at construction
    /// (nothing was allocated), or for the work queues of a computation (checked
    /// before it starts; the field is unchanged).
    OutOfMemory {
        /// Bytes asked for: [`DistanceField::bytes_for`] at construction, the
        /// queues' largest block before a computation.
        bytes: u64,
    },
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::GridMismatch { expected, found } => write!(
                f,
                "the field was made for a {}x{} grid but got a {}x{} one",
                expected.0, expected.1, found.0, found.1
            ),
            Self::DistanceOverflow { max_units } => write!(
                f,
                "a distance exceeds the field's range of {max_units} units"
            ),
            Self::InvalidFleeFactor => {
                write!(f, "a flee factor must be finite and greater than 0")
            }
            Self::OutOfMemory { bytes } => {
                write!(f, "out of memory: the field needs {bytes} bytes")
            }
        }
    }
}

/// Whether a field's queries answer, and if not why: see [`DistanceField::state`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldState {
    /// Never computed: queries answer `None`.
    NotComputed,
    /// Computed (or repaired) from the current goals and settings: queries answer.
    Ready,
    /// The goals were cleared, a flee field's goals changed, or the maximum distance
    /// changed since the last computation: queries answer `None` until the next
    /// [`compute`](DistanceField::compute) or [`repair`](DistanceField::repair)
    /// (which then computes in full).
    Stale,
    /// The last computation or repair met a distance past
    /// [`DistanceField::MAX_UNITS`] ([`FieldError::DistanceOverflow`]): queries answer
    /// `None` until a computation succeeds.
    Overflowed,
}

impl std::error::Error for FieldError {}

/// What a computation or repair did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FieldStats {
    /// Goals that seeded the field.
    pub goals_used: usize,
    /// Goals ignored: outside the field's region, on a blocked cell, or whose start
    /// value exceeds the field's maximum distance.
    pub goals_ignored: usize,
    /// Cells whose value was set (a full computation: every reached cell).
    pub cells_updated: usize,
    /// Repairs only: cells whose old value had to be discarded.
    pub cells_invalidated: usize,
}

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
/// the cost of the cheapest way to the nearest goal.
///
/// When hundreds of units head for the same places (the player, a rally point, the
/// nearest resource), one field computed from those goals serves all of them: each
/// unit walks downhill with [`next_step`](Self::next_step) or takes a
/// [`path`](Self::path) of up to 56 steps, exactly as optimal as an A* path.
///
/// - Costs come from a [`GridLayer`] (the cost of a step is the cost of the cell it
///   enters, times `sqrt(2)` for a diagonal), 4- or 8-connected ([`Connectivity`]; 8
///   with no corner cutting, in the same exact fixed-point units as
///   [`AStar`](crate::AStar)).
/// - Several goals at once, each with a start value: a goal with a lower start value
///   pulls harder (it is as if it were that much closer).
/// - [`flee`](Self::flee) turns a chase field into a flee field ("multiply by a
///   negative factor and rescan"): units run away along real routes instead of into
///   corners. A goal that has been completed can become a repeller by moving it from
///   a chase field into a flee field; [`combined_next_step`] walks several fields at
///   once with weights.
/// - [`repair`](Self::repair) updates the field after cells change, and
///   [`add_goal`](Self::add_goal) / [`remove_goal`](Self::remove_goal) after goals
///   change, touching only the cells whose value changes; the result is identical to a
///   full recompute.
/// - [`bounded`](Self::bounded) limits a field to a region, and
///   [`with_max_distance`](Self::with_max_distance) to a cost radius, for local goals
///   on huge maps: memory and time follow the region, not the grid.
///
/// Memory: 5 bytes per cell of the region (a `u32` value and the cell's cost) and a
/// 4-byte breadth-first queue, 9 bytes a cell allocated at construction
/// ([`bytes_for`](Self::bytes_for) gives the figure before, [`try_new`](Self::try_new)
/// and [`try_bounded`](Self::try_bounded) report a refusal as an error), plus work
/// queues that grow to the largest computation the field has run (8 bytes an entry,
/// for Dijkstra-based computations: 8-connected or several costs) and are reused
/// ([`memory_bytes`](Self::memory_bytes) says how much is held): once a field has
/// computed, computing and repairing again allocate nothing.
///
/// Distances are exact fixed-point integers up to [`MAX_UNITS`](Self::MAX_UNITS):
/// 4 billion cost units 4-connected, 1.8 million 8-connected. A field never answers
/// "unreachable" for a cell it cannot hold: the computation returns
/// [`FieldError::DistanceOverflow`] and [`state`](Self::state) says so.
///
/// Queries answer only while the field is [`FieldState::Ready`]: after
/// [`clear_goals`](Self::clear_goals), a new maximum distance or a failed
/// computation they answer `None` until the next computation.
///
/// ```
/// use tilepath::{Cell, Connectivity, DistanceField, Grid, GridLayer};
/// let grid = Grid::new(20, 10)?;
/// let mut chase = DistanceField::new(&grid, GridLayer::FLOOR_ONLY, Connectivity::Four);
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
#[derive(Clone, Debug)]
pub struct DistanceField {
    connectivity: Connectivity,
    layer: GridLayer,
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
    /// Per padded cell: the layer cost of entering it (0 = blocked or border).
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
    // Scratch, sized once.
    /// The breadth-first queue, `cells + 1` long (a sweep writes one slot past its
    /// tail); `fifo_len` entries are in use. Seeds go here first.
    fifo: Vec<u32>,
    fifo_len: usize,
    heap: RadixHeap<u32>,
    touched: Vec<u32>,
    queues: StepQueues,
    /// Per packed grid byte (4 cells): their 4 costs under `layer`, little-endian.
    quad_costs: Box<[u32; 256]>,
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

/// The costs of the 4 cells of every packed grid byte under `layer`.
fn quad_costs(layer: GridLayer) -> [u32; 256] {
    let c = layer.costs();
    core::array::from_fn(|b| {
        (0..4).fold(0, |quad, k| {
            quad | u32::from(c[(b >> (2 * k)) & 3]) << (8 * k)
        })
    })
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

/// How many bytes of `x` are 0.
#[inline(always)]
fn zero_bytes(x: u32) -> usize {
    (!(((x & 0x7F7F_7F7F) + 0x7F7F_7F7F) | x | 0x7F7F_7F7F)).count_ones() as usize
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
    pub fn new(grid: &Grid, layer: GridLayer, connectivity: Connectivity) -> Self {
        Self::try_new(grid, layer, connectivity).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`new`](Self::new), or [`FieldError::OutOfMemory`] (naming the bytes) if the
    /// system cannot give the field's memory.
    ///
    /// # Errors
    /// [`FieldError::OutOfMemory`]; nothing is allocated then.
    pub fn try_new(
        grid: &Grid,
        layer: GridLayer,
        connectivity: Connectivity,
    ) -> Result<Self, FieldError> {
        let all = Region::new(
            Cell::new(0, 0),
            Cell::new(grid.width() as i32 - 1, grid.height() as i32 - 1),
        );
        Self::try_bounded(grid, layer, connectivity, all)
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
        layer: GridLayer,
        connectivity: Connectivity,
        region: Region,
    ) -> Self {
        Self::try_bounded(grid, layer, connectivity, region).unwrap_or_else(|e| panic!("{e}"))
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
        layer: GridLayer,
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
            layer,
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
            fifo: vec![0; cells + 1],
            fifo_len: 0,
            // Repairs touch few cells: these grow to the largest repair seen.
            heap: RadixHeap::with_capacity(64),
            touched: Vec::with_capacity(64),
            queues: StepQueues::new(layer),
            quad_costs: Box::new(quad_costs(layer)),
        })
    }

    /// Sizes the repair scratch so that repairs touching up to `cells` cells allocate
    /// nothing (by default the scratch grows to the largest repair seen). Costs about
    /// 28 bytes per cell reserved, plus 8 per cost class the layer uses.
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
    /// use tilepath::{Cell, Connectivity, DistanceField, FieldState, Grid, GridLayer};
    /// let grid = Grid::new(8, 8)?;
    /// let mut field = DistanceField::new(&grid, GridLayer::FLOOR_ONLY, Connectivity::Four);
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
    fn invalidate(&mut self) {
        if self.state == FieldState::Ready {
            self.set_state(FieldState::Stale);
        }
    }

    /// The layer whose costs the field uses.
    #[must_use]
    pub fn layer(&self) -> GridLayer {
        self.layer
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
            + self.heap.capacity() * 16
            + self.queues.memory_bytes()
            + size_of::<[u32; 256]>()
    }

    /// Fixed-point units per cost unit: 1 (4-connected) or [`OCTILE_STRAIGHT`].
    #[inline]
    const fn scale(&self) -> u64 {
        match self.connectivity {
            Connectivity::Four => 1,
            Connectivity::Eight => OCTILE_STRAIGHT,
        }
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

    /// Neighbour offsets in direction order ([`Direction8`] codes), as index deltas.
    #[inline]
    fn deltas(&self) -> [isize; 8] {
        let s = self.stride as isize;
        [1, s + 1, s, s - 1, -1, -s - 1, -s, 1 - s]
    }

    // ----- goals -----

    /// Adds a goal at `cell` whose value starts at `start` (cost units): lower pulls
    /// harder. A goal already at `cell` gets the new start value (the last one added
    /// wins). A [`Ready`](FieldState::Ready) chase field is updated at once, locally
    /// (see [`repair`](Self::repair)); a flee field becomes
    /// [`Stale`](FieldState::Stale) and must be computed again. Goals outside the
    /// region are dropped. A start value past the field's range makes the next
    /// computation fail with [`FieldError::DistanceOverflow`].
    ///
    /// Goals on blocked cells are kept but seed nothing (they count as ignored in
    /// [`FieldStats`]); they take effect when their cell opens.
    ///
    /// Cost: O(1) amortized on a field that is not ready (goals are sorted and
    /// deduplicated when it is computed, in O(g log g) for g goals); on a ready
    /// chase field, O(g) plus the local repair.
    pub fn add_goal(&mut self, cell: Cell, start: u32) {
        let Some(index) = self.index(cell) else {
            return;
        };
        let index = index as u32;
        self.max_goal_start = self.max_goal_start.max(start);
        if self.state == FieldState::Ready && self.flee.is_none() {
            self.sort_goals();
            match self.goals.binary_search_by_key(&index, |g| g.index) {
                Ok(i) => self.goals[i].start = start,
                Err(i) => self.goals.insert(
                    i,
                    Goal {
                        index,
                        start,
                        seq: 0,
                    },
                ),
            }
            self.repair_goal(index);
            return;
        }
        if self.goals.last().is_some_and(|g| g.index >= index) {
            self.goals_sorted = false;
        }
        let seq = self.goals.len() as u32;
        self.goals.push(Goal { index, start, seq });
        self.invalidate();
    }

    /// Removes the goal at `cell`, if any (a ready chase field is updated locally,
    /// a flee field becomes [`Stale`](FieldState::Stale)). Cost: O(g) for g goals.
    pub fn remove_goal(&mut self, cell: Cell) {
        let Some(index) = self.index(cell) else {
            return;
        };
        let index = index as u32;
        self.sort_goals();
        if let Ok(i) = self.goals.binary_search_by_key(&index, |g| g.index) {
            self.goals.remove(i);
            if self.state == FieldState::Ready && self.flee.is_none() {
                self.repair_goal(index);
            } else {
                self.invalidate();
            }
        }
    }

    /// The local repair after the goal at `index` changed on a ready chase field.
    fn repair_goal(&mut self, index: u32) {
        self.clipped = false;
        self.repair_indices(&[index]);
        if self.overflowed() || self.goal_overflow() {
            self.set_state(FieldState::Overflowed);
        }
    }

    /// Whether an open goal that starts past the field's range (which seeds nothing)
    /// was left unreached: no other goal gives its cell a value in range, so its
    /// distance, its start value, does not fit.
    fn goal_overflow(&self) -> bool {
        self.max_units == MAX_UNITS
            && u64::from(self.max_goal_start) * self.scale() > u64::from(MAX_UNITS)
            && self.goals.iter().any(|g| {
                let i = g.index as usize;
                self.costs[i] != 0
                    && self.values[i] == UNREACHED
                    && u64::from(g.start) * self.scale() > u64::from(MAX_UNITS)
            })
    }

    /// Sorts the goals by cell and keeps the last value added for each.
    fn sort_goals(&mut self) {
        if self.goals_sorted {
            return;
        }
        self.goals.sort_unstable_by_key(|g| (g.index, g.seq));
        self.goals.dedup_by(|later, kept| {
            let same = later.index == kept.index;
            if same {
                kept.start = later.start;
            }
            same
        });
        for (i, g) in self.goals.iter_mut().enumerate() {
            g.seq = i as u32;
        }
        self.goals_sorted = true;
    }

    /// Removes every goal. A computed field becomes [`Stale`](FieldState::Stale):
    /// its queries answer `None` until it is computed again.
    pub fn clear_goals(&mut self) {
        self.goals.clear();
        self.goals_sorted = true;
        self.max_goal_start = 0;
        self.invalidate();
    }

    /// The goals, as `(cell, start value)`: in row-major order of their cells, one
    /// per cell, once the field has been computed (or a goal removed); goals added
    /// since follow in the order they were added, each as added.
    pub fn goals(&self) -> impl Iterator<Item = (Cell, u32)> + '_ {
        self.goals
            .iter()
            .map(|g| (self.cell_of(g.index as usize), g.start))
    }

    #[inline]
    fn goal_start_units(&self, index: usize) -> Option<u64> {
        debug_assert!(self.goals_sorted, "goal lookup on unsorted goals");
        self.goals
            .binary_search_by_key(&(index as u32), |g| g.index)
            .ok()
            .map(|i| u64::from(self.goals[i].start) * self.scale())
    }

    // ----- computing -----

    /// Computes the whole field from its goals on `grid`.
    ///
    /// Cost: O(cells). A breadth-first sweep for 4-connected fields whose passable
    /// cells all cost the same and whose goals share a start value; otherwise Dijkstra
    /// with one FIFO per step weight (O(1) per queue operation). No allocation once
    /// the work queues have grown to the field's size.
    ///
    /// # Errors
    /// [`FieldError::GridMismatch`] if `grid` is not the size the field was made for
    /// (nothing is changed); [`FieldError::DistanceOverflow`] if a reachable cell's
    /// distance, a goal's start value or a flee field's values exceed
    /// [`MAX_UNITS`](Self::MAX_UNITS) (the field is then
    /// [`Overflowed`](FieldState::Overflowed) and answers nothing).
    pub fn compute(&mut self, grid: &Grid) -> Result<FieldStats, FieldError> {
        self.check(grid)?;
        self.ensure_queue_room()?;
        self.sort_goals();
        let profile = self.load_costs(grid);
        self.clipped = false;
        let mut stats = self.seed_goals();
        stats.cells_updated = self.propagate_all(profile);
        if self.overflowed() || self.goal_overflow() {
            return Err(self.overflow_error());
        }
        self.set_state(FieldState::Ready);
        if let Some(factor) = self.flee {
            self.apply_flee(factor)?;
        }
        Ok(stats)
    }

    /// Before a computation whose work queues may still grow: whether the system can
    /// give the largest block they can grow to (an entry for every cell of the
    /// region), so that a field too large for memory is an error here rather than an
    /// abort while the queues grow.
    fn ensure_queue_room(&self) -> Result<(), FieldError> {
        let cells = self.values.len() as u64;
        let need = cells * core::mem::size_of::<(u32, u32)>() as u64;
        if (self.queues.memory_bytes() as u64) < need {
            crate::memory::ensure(need).map_err(|bytes| FieldError::OutOfMemory { bytes })?;
        }
        Ok(())
    }

    /// Marks the field [`Overflowed`](FieldState::Overflowed) and returns the error.
    fn overflow_error(&mut self) -> FieldError {
        self.set_state(FieldState::Overflowed);
        FieldError::DistanceOverflow {
            max_units: MAX_UNITS,
        }
    }

    /// After a propagation: whether a reachable cell was left without a value because
    /// its distance exceeds the field's range. Only a run that dropped a candidate at
    /// the natural limit can have done so; then every reached cell is checked for a
    /// legal step to a passable cell left unreached (which is reachable, so its
    /// distance did not fit).
    fn overflowed(&self) -> bool {
        if !self.clipped || self.max_units != MAX_UNITS {
            return false;
        }
        let deltas = self.deltas();
        let eight = self.connectivity == Connectivity::Eight;
        (0..self.values.len()).any(|i| {
            let v = self.values[i];
            v != BLOCKED
                && v != UNREACHED
                && (0..8).step_by(if eight { 1 } else { 2 }).any(|dir| {
                    let q = i.wrapping_add_signed(deltas[dir]);
                    let legal = dir & 1 == 0 || {
                        let a = i.wrapping_add_signed(deltas[(dir + 7) & 7]);
                        let b = i.wrapping_add_signed(deltas[(dir + 1) & 7]);
                        self.costs[a] != 0 && self.costs[b] != 0
                    };
                    legal && self.costs[q] != 0 && self.values[q] == UNREACHED
                })
        })
    }

    fn check(&self, grid: &Grid) -> Result<(), FieldError> {
        let found = (grid.width(), grid.height());
        if found == self.grid_size {
            Ok(())
        } else {
            Err(FieldError::GridMismatch {
                expected: self.grid_size,
                found,
            })
        }
    }

    /// Reads every cost of the region and resets every value. Whole bytes of the
    /// packed grid (4 cells) are unpacked at once through [`quad_costs`]: this pass
    /// touches every cell, so it is a fair share of a unit-cost field's time.
    fn load_costs(&mut self, grid: &Grid) -> CostProfile {
        let kind_costs = self.layer.costs();
        let packed = grid.as_bytes();
        let w = grid.width() as usize;
        let (mut present, mut blocked) = (0u8, 0usize);
        for y in 0..self.height as usize {
            let row = (y + 1) * self.stride + 1;
            let start = (self.origin.y as usize + y) * w + self.origin.x as usize;
            let end = start + self.width as usize;
            // Cell by cell up to a byte boundary and after the last whole byte.
            let body = start.next_multiple_of(4).min(end);
            let body_end = body + (end - body) / 4 * 4;
            for gi in (start..body).chain(body_end..end) {
                let bits = grid.bits_at(gi);
                let c = kind_costs[usize::from(bits)];
                present |= 1 << bits;
                blocked += usize::from(c == 0);
                self.costs[row + gi - start] = c;
                self.values[row + gi - start] = if c == 0 { BLOCKED } else { UNREACHED };
            }
            let range = row + body - start..row + body_end - start;
            let cells = self.costs[range.clone()]
                .chunks_exact_mut(4)
                .zip(self.values[range].chunks_exact_mut(4));
            for (&b, (costs, values)) in packed[body / 4..body_end / 4].iter().zip(cells) {
                let quad = self.quad_costs[usize::from(b)];
                present |= KINDS_IN_BYTE[usize::from(b)];
                blocked += zero_bytes(quad);
                let quad = quad.to_le_bytes();
                costs.copy_from_slice(&quad);
                for (v, c) in values.iter_mut().zip(quad) {
                    // BLOCKED (0) for a blocked cell, else UNREACHED (all ones).
                    *v = 0u32.wrapping_sub(u32::from(c != 0));
                }
            }
        }
        self.bias = 0;
        let mut passable = (0..4)
            .filter(|&k| present >> k & 1 == 1)
            .map(|k| kind_costs[k])
            .filter(|&c| c != 0);
        CostProfile {
            uniform_cost: match passable.next() {
                None => Some(1),
                Some(c) => passable.all(|d| d == c).then_some(c),
            },
            cluttered: blocked * 16 > self.width as usize * self.height as usize,
        }
    }

    /// Sets the goals' start values; they go into the FIFO (all queued).
    fn seed_goals(&mut self) -> FieldStats {
        let mut stats = FieldStats::default();
        self.fifo_len = 0;
        for g in &self.goals {
            let i = g.index as usize;
            let units = u64::from(g.start) * self.scale();
            if self.costs[i] == 0 || units > u64::from(self.max_units) {
                stats.goals_ignored += 1;
                continue;
            }
            stats.goals_used += 1;
            let v = units as u32 + 1;
            if v < self.values[i] {
                self.values[i] = v;
                self.fifo[self.fifo_len] = g.index;
                self.fifo_len += 1;
            }
        }
        stats
    }

    /// Propagates from the seeds in `fifo`; returns how many cells got a value.
    fn propagate_all(&mut self, profile: CostProfile) -> usize {
        let seeds = &self.fifo[..self.fifo_len];
        let same_start = seeds
            .windows(2)
            .all(|w| self.values[w[0] as usize] == self.values[w[1] as usize]);
        match profile.uniform_cost {
            Some(step) if self.connectivity == Connectivity::Four && same_start => {
                // Unchecked only when no value can pass the range: a breadth-first
                // distance is below `cells` steps from the seeds' start.
                let start = seeds.first().map_or(0, |&i| self.values[i as usize]);
                let worst =
                    u64::from(start) + self.width as u64 * self.height as u64 * u64::from(step);
                let unlimited = self.max_units == MAX_UNITS && worst <= u64::from(MAX_UNITS);
                match (profile.cluttered, unlimited) {
                    (true, true) => self.sweep::<true, false>(u32::from(step)),
                    (true, false) => self.sweep::<true, true>(u32::from(step)),
                    (false, true) => self.sweep::<false, false>(u32::from(step)),
                    (false, false) => self.sweep::<false, true>(u32::from(step)),
                }
            }
            _ => {
                self.queues.clear();
                for &i in &self.fifo[..self.fifo_len] {
                    self.queues.seed(self.values[i as usize], i);
                }
                self.dijkstra_for(profile.cluttered, profile.uniform_cost) + self.fifo_len
            }
        }
    }

    /// Breadth-first sweep for 4-connected fields of uniform step cost `step`;
    /// `BRANCH_FREE` trades a store per neighbour for no mispredicted branches, which
    /// pays on cluttered maps (measured: 25% walls 9.7 -> 5.0 ms, open 4.7 -> 6.4 ms
    /// for 1000x1000; `cargo bench --bench field`).
    // Not inlined: its loop keeps every pointer in a register only when compiled on
    // its own (inlined into `compute`, a spill cost an instruction per neighbour).
    #[inline(never)]
    fn sweep<const BRANCH_FREE: bool, const LIMITED: bool>(&mut self, step: u32) -> usize {
        let s = self.stride;
        let limit = self.max_units.saturating_add(1);
        let values = &mut self.values;
        let fifo = &mut self.fifo;
        let (mut head, mut tail) = (0, self.fifo_len);
        while head < tail {
            let p = fifo[head] as usize;
            head += 1;
            let nv = values[p].saturating_add(step);
            if LIMITED && nv > limit {
                self.clipped = true;
                continue;
            }
            for q in [p + 1, p + s, p - 1, p - s] {
                // Blocked and border cells hold 0, which no candidate is below. The
                // first time a cell is reached is final, so each cell is queued at most
                // once and the branch-free write one past the tail stays inside the
                // `cells + 1` slots.
                let old = values[q];
                let better = nv < old;
                if BRANCH_FREE {
                    values[q] = if better { nv } else { old };
                    fifo[tail] = q as u32;
                    tail += usize::from(better);
                } else if better {
                    values[q] = nv;
                    fifo[tail] = q as u32;
                    tail += 1;
                }
            }
        }
        self.fifo_len = tail;
        tail
    }

    /// Dijkstra from the seeds in `queues` (keys = stored values); only improvements
    /// propagate. Returns the number of cells improved.
    fn dijkstra(&mut self) -> usize {
        self.dijkstra_for(false, None)
    }

    /// [`dijkstra`](Self::dijkstra), branch-free on `cluttered` maps: as for the
    /// sweep, a relaxation there fails or succeeds unpredictably (measured, 1000x1000
    /// octile: 25% walls 30 -> 24.5 ns a cell branch-free, open 24 -> 31). With
    /// `uniform`, the cost every open cell has, the cost array is not read and the
    /// run takes [`dijkstra_uniform`](Self::dijkstra_uniform).
    fn dijkstra_for(&mut self, cluttered: bool, uniform: Option<u8>) -> usize {
        if let Some(cost) = uniform {
            return match (self.connectivity == Connectivity::Eight, cluttered) {
                (true, true) => self.dijkstra_uniform::<true, true>(cost),
                (true, false) => self.dijkstra_uniform::<true, false>(cost),
                (false, true) => self.dijkstra_uniform::<false, true>(cost),
                (false, false) => self.dijkstra_uniform::<false, false>(cost),
            };
        }
        match (self.connectivity == Connectivity::Eight, cluttered) {
            (true, true) => self.dijkstra_with::<true, true>(),
            (true, false) => self.dijkstra_with::<true, false>(),
            (false, true) => self.dijkstra_with::<false, true>(),
            (false, false) => self.dijkstra_with::<false, false>(),
        }
    }

    /// Dijkstra with one FIFO per step weight ([`StepQueues`]), any layer costs.
    fn dijkstra_with<const EIGHT: bool, const BRANCH_FREE: bool>(&mut self) -> usize {
        let deltas = self.deltas();
        let (straight, diagonal) = if EIGHT {
            (OCTILE_STRAIGHT as u32, OCTILE_DIAGONAL as u32)
        } else {
            (1, 0)
        };
        let limit = self.max_units.saturating_add(1);
        // Below this value, `v + step` can neither overflow nor pass the limit.
        let safe = limit.saturating_sub(255 * OCTILE_DIAGONAL as u32);
        let mut improved = 0;
        self.queues.start();
        while let Some((v, p)) = self.queues.pop() {
            let p = p as usize;
            if self.values[p] != v {
                continue;
            }
            // Every neighbour q reaches the goal through p by entering p.
            let cost = self.costs[p];
            let c = u32::from(cost);
            let class = self.queues.class_of(cost);
            let fast = v < safe;
            let mut relax = |this: &mut Self, q: usize, step: u32, class: usize, legal: bool| {
                let Some(nv) = step_value(v, step, fast, limit) else {
                    this.clipped = true;
                    return;
                };
                // Blocked and border cells hold 0, which no candidate is below.
                // Branch-free, the write and the queue entry are unconditional and
                // only kept if better.
                if BRANCH_FREE {
                    let old = this.values[q];
                    let better = legal & (nv < old);
                    this.values[q] = if better { nv } else { old };
                    this.queues.push_if(class, nv, q as u32, better);
                    improved += usize::from(better);
                } else if legal && nv < this.values[q] {
                    this.values[q] = nv;
                    this.queues.push(class, nv, q as u32);
                    improved += 1;
                }
            };
            let mut open = [false; 8];
            for dir in (0..8).step_by(2) {
                let q = p.wrapping_add_signed(deltas[dir]);
                // Blocked exactly when its value is (values are kept so), which
                // spares the diagonals a read of the cost array.
                open[dir] = self.values[q] != BLOCKED;
                relax(self, q, c * straight, class, true);
            }
            if EIGHT {
                // A diagonal needs both orthogonal cells beside it open.
                for dir in (1..8).step_by(2) {
                    let q = p.wrapping_add_signed(deltas[dir]);
                    let legal = open[dir - 1] & open[(dir + 1) & 7];
                    relax(self, q, c * diagonal, class + 4, legal);
                }
            }
        }
        improved
    }

    /// [`dijkstra_with`](Self::dijkstra_with) for a region whose open cells all cost
    /// `cost` (the common case: one walking cost, walls): two FIFOs, straight and
    /// diagonal steps, merged with the sorted seeds by their heads, with every head
    /// and tail a local (in registers) rather than fields the writes to `values`
    /// might alias.
    fn dijkstra_uniform<const EIGHT: bool, const BRANCH_FREE: bool>(&mut self, cost: u8) -> usize {
        let deltas = self.deltas();
        let c = u32::from(cost);
        let (straight, diagonal) = if EIGHT {
            (c * OCTILE_STRAIGHT as u32, c * OCTILE_DIAGONAL as u32)
        } else {
            (c, 0)
        };
        let limit = self.max_units.saturating_add(1);
        // Below this value, `v + step` can neither overflow nor pass the limit.
        let safe = limit.saturating_sub(255 * OCTILE_DIAGONAL as u32);
        self.queues.start();
        let class = self.queues.class_of(cost);
        let (seeds, [fs, fd]) = self.queues.uniform_parts(class);
        let values = &mut self.values[..];
        let (mut sh, mut hs, mut ts, mut hd, mut td) = (0, 0, 0, 0, 0);
        let mut improved = 0;
        let mut clipped = false;
        loop {
            let ks = if hs < ts {
                u64::from(fs[hs].0)
            } else {
                u64::MAX
            };
            let kd = if hd < td {
                u64::from(fd[hd].0)
            } else {
                u64::MAX
            };
            let (v, p) = if let Some(&seed) = seeds.get(sh)
                && u64::from(seed.0) <= ks.min(kd)
            {
                sh += 1;
                seed
            } else if ks <= kd && ks != u64::MAX {
                hs += 1;
                fs[hs - 1]
            } else if kd != u64::MAX {
                hd += 1;
                fd[hd - 1]
            } else {
                break;
            };
            let p = p as usize;
            if values[p] != v {
                continue;
            }
            let fast = v < safe;
            // Room for this cell's pushes (at most 4 a FIFO), so that they need no
            // check. The FIFOs grow (allocate) only while they are smaller than the
            // largest computation so far.
            if ts + 4 > fs.len() {
                fs.resize(ts + 4, (0, 0));
            }
            if EIGHT && td + 4 > fd.len() {
                fd.resize(td + 4, (0, 0));
            }
            let mut relax = |values: &mut [u32],
                             q: usize,
                             step: u32,
                             fifo: &mut [(u32, u32)],
                             tail: &mut usize,
                             legal: bool| {
                let Some(nv) = step_value(v, step, fast, limit) else {
                    clipped = true;
                    return;
                };
                // Blocked and border cells hold 0, which no candidate is below.
                // Branch-free, the write and the queue entry are unconditional and
                // only kept if better.
                let old = values[q];
                let better = legal & (nv < old);
                if !BRANCH_FREE && !better {
                    return;
                }
                values[q] = if better { nv } else { old };
                debug_assert!(*tail < fifo.len());
                // SAFETY: checked above: the FIFO has room for 4 entries past its tail
                // when a cell is popped, and a cell pushes at most 4 to each FIFO.
                #[expect(unsafe_code, reason = "room checked once a cell, not per push")]
                unsafe {
                    *fifo.get_unchecked_mut(*tail) = (nv, q as u32);
                }
                *tail += usize::from(better);
                improved += usize::from(better);
            };
            let mut open = [false; 8];
            for dir in (0..8).step_by(2) {
                let q = p.wrapping_add_signed(deltas[dir]);
                // Blocked exactly when its value is (values are kept so).
                open[dir] = values[q] != BLOCKED;
                relax(values, q, straight, fs, &mut ts, true);
            }
            if EIGHT {
                // A diagonal needs both orthogonal cells beside it open.
                for dir in (1..8).step_by(2) {
                    let q = p.wrapping_add_signed(deltas[dir]);
                    let legal = open[dir - 1] & open[(dir + 1) & 7];
                    relax(values, q, diagonal, fd, &mut td, legal);
                }
            }
        }
        self.clipped |= clipped;
        improved
    }

    // ----- flee fields -----

    /// Turns this field into a flee field: every chase value is multiplied by
    /// `-factor` (1.2 is a good start: greater runs farther) and the field is
    /// rescanned, so walking downhill leads away from the goals along real routes,
    /// through open doors rather than into dead ends. Later
    /// [`compute`](Self::compute) calls build the flee field again;
    /// [`repair`](Self::repair) recomputes it in full.
    ///
    /// Always from the chase values: on a field that is already a flee field (or is
    /// not [`Ready`](FieldState::Ready)) the chase field is computed again first, so
    /// calling `flee` twice with the same factor gives the same field, and another
    /// factor gives what it would give on the chase field. On a ready chase field
    /// only the rescan runs.
    ///
    /// # Errors
    /// [`FieldError::InvalidFleeFactor`] unless `factor` is finite and greater than 0,
    /// [`FieldError::GridMismatch`] if `grid` is not the size the field was made for
    /// (in both cases nothing is changed); [`FieldError::DistanceOverflow`] if the
    /// scaled values exceed the field's range (as for [`compute`](Self::compute)).
    pub fn flee(&mut self, grid: &Grid, factor: f32) -> Result<FieldStats, FieldError> {
        if !(factor.is_finite() && factor > 0.0) {
            return Err(FieldError::InvalidFleeFactor);
        }
        self.check(grid)?;
        let chase_ready = self.state == FieldState::Ready && self.flee.is_none();
        self.flee = Some(factor);
        if !chase_ready {
            return self.compute(grid);
        }
        let reached = self.apply_flee(factor)?;
        Ok(FieldStats {
            cells_updated: reached,
            ..FieldStats::default()
        })
    }

    /// Whether this is a flee field.
    #[must_use]
    pub fn is_flee(&self) -> bool {
        self.flee.is_some()
    }

    /// Turns the ready chase values into flee values; returns the cells rescanned.
    fn apply_flee(&mut self, factor: f32) -> Result<usize, FieldError> {
        let max = self
            .values
            .iter()
            .filter(|&&v| v != BLOCKED && v != UNREACHED)
            .map(|&v| v - 1)
            .max()
            .unwrap_or(0);
        let bias = (f64::from(max) * f64::from(factor)).ceil();
        if bias > f64::from(MAX_UNITS) {
            return Err(self.overflow_error());
        }
        let bias = bias as u32;
        self.bias = bias;
        self.queues.clear();
        for p in 0..self.values.len() {
            let v = self.values[p];
            if v == BLOCKED || v == UNREACHED {
                continue;
            }
            let scaled = (f64::from(v - 1) * f64::from(factor)).round() as u32;
            let nv = bias - scaled.min(bias) + 1;
            self.values[p] = nv;
            self.queues.seed(nv, p as u32);
        }
        // Every reached cell is seeded at or below `bias + 1`, which the rescan only
        // lowers: no value can pass the range.
        let limit = self.max_units;
        self.max_units = MAX_UNITS;
        let n = self.dijkstra();
        self.max_units = limit;
        self.clipped = false;
        Ok(n)
    }

    // ----- repair -----

    /// Updates the field after the cells in `changed` changed on `grid` (walls built
    /// or removed, terrain changed), touching only the cells whose value can change.
    ///
    /// The result is identical to a full [`compute`](Self::compute). The work is
    /// proportional to the affected area: the cells whose best route went through a
    /// changed cell, and the cells a new opening brings closer. Flee fields are
    /// recomputed in full, and so is a field that is not
    /// [`Ready`](FieldState::Ready) (never computed, stale, overflowed).
    ///
    /// # Errors
    /// As [`compute`](Self::compute).
    pub fn repair(&mut self, grid: &Grid, changed: &[Cell]) -> Result<FieldStats, FieldError> {
        self.check(grid)?;
        if self.state != FieldState::Ready || self.flee.is_some() {
            return self.compute(grid);
        }
        self.clipped = false;
        let costs = self.layer.costs();
        let mut indices = [0u32; 64];
        let mut n = 0;
        let mut stats = FieldStats::default();
        for &cell in changed {
            let Some(i) = self.index(cell) else { continue };
            let c = grid.get(cell).map_or(0, |k| costs[usize::from(k.index())]);
            if c == self.costs[i] {
                continue;
            }
            self.costs[i] = c;
            if c == 0 {
                self.values[i] = BLOCKED;
            } else if self.values[i] == BLOCKED {
                self.values[i] = UNREACHED;
            }
            indices[n] = i as u32;
            n += 1;
            if n == indices.len() {
                add(&mut stats, self.repair_indices(&indices));
                n = 0;
            }
        }
        add(&mut stats, self.repair_indices(&indices[..n]));
        if self.overflowed() || self.goal_overflow() {
            return Err(self.overflow_error());
        }
        Ok(stats)
    }

    /// The local repair after the cells (or goals) at `changed` changed.
    fn repair_indices(&mut self, changed: &[u32]) -> FieldStats {
        let mut stats = FieldStats::default();
        if changed.is_empty() {
            return stats;
        }
        let deltas = self.deltas();
        let dirs = if self.connectivity == Connectivity::Eight {
            8
        } else {
            4
        };
        let step_dirs = if dirs == 8 { 1 } else { 2 };
        // Phase 1: cells whose value may no longer be achievable, in increasing order
        // of their old value. A cell keeps its value if a neighbour already decided
        // valid still supports it; otherwise its value is dropped and the cells that
        // may depend on it are checked in turn.
        self.heap.reset();
        self.touched.clear();
        let candidate = |this: &mut Self, i: usize| {
            let v = this.values[i];
            if v != BLOCKED && v != UNREACHED {
                this.heap.push(u64::from(v), i as u32);
            }
        };
        for &c in changed {
            let c = c as usize;
            candidate(self, c);
            for d in (0..8).step_by(step_dirs) {
                candidate(self, c.wrapping_add_signed(deltas[d]));
            }
        }
        while let Some((old, i)) = self.heap.pop() {
            let i = i as usize;
            if u64::from(self.values[i]) != old {
                continue; // already dropped (or queued twice)
            }
            if self.supported(i) {
                continue;
            }
            self.values[i] = UNREACHED;
            self.touched.push(i as u32);
            stats.cells_invalidated += 1;
            // Neighbours that may have reached the goal through i.
            for d in (0..8).step_by(step_dirs) {
                let q = i.wrapping_add_signed(deltas[d]);
                let vq = self.values[q];
                if vq != BLOCKED && vq != UNREACHED && u64::from(vq) >= old {
                    self.heap.push(u64::from(vq), q as u32);
                }
            }
        }
        // Phase 2: every dropped cell, and every cell around a change (an opening or a
        // cheaper cell can bring them closer), takes the best value its neighbours
        // offer; improvements then spread as in Dijkstra.
        self.queues.clear();
        let touched = core::mem::take(&mut self.touched);
        let around = changed.iter().flat_map(|&c| {
            let c = c as usize;
            core::iter::once(c).chain(
                (0..8)
                    .step_by(step_dirs)
                    .map(move |d| c.wrapping_add_signed(deltas[d])),
            )
        });
        for i in touched.iter().map(|&i| i as usize).chain(around) {
            if self.values[i] == BLOCKED {
                continue;
            }
            let best = self.best_from_neighbours(i);
            if best < self.values[i] {
                self.values[i] = best;
                self.queues.seed(best, i as u32);
            }
        }
        self.touched = touched;
        let seeds = self.queues.seeded();
        stats.cells_updated = self.dijkstra() + seeds;
        stats
    }

    /// Whether cell `i`'s current value is still achieved: as a goal's start value, or
    /// through a neighbour whose value is (still) set.
    fn supported(&self, i: usize) -> bool {
        let v = u64::from(self.values[i]);
        if let Some(start) = self.goal_start_units(i)
            && start + 1 == v
        {
            return true;
        }
        self.neighbour_offer(i)
            .is_some_and(|best| u64::from(best) == v)
    }

    /// The best value cell `i` gets from a goal at `i` or from its neighbours.
    fn best_from_neighbours(&self, i: usize) -> u32 {
        let own = self
            .goal_start_units(i)
            .filter(|&u| u <= u64::from(self.max_units))
            .map_or(UNREACHED, |u| u as u32 + 1);
        self.neighbour_offer(i).map_or(own, |n| n.min(own))
    }

    /// The smallest `value(q) + step(i -> q)` over i's reached neighbours q (within the
    /// maximum distance), or `None`.
    fn neighbour_offer(&self, i: usize) -> Option<u32> {
        let deltas = self.deltas();
        let eight = self.connectivity == Connectivity::Eight;
        let limit = self.max_units.saturating_add(1);
        let mut best: Option<u32> = None;
        for dir in (0..8).step_by(if eight { 1 } else { 2 }) {
            if let Some((_, total)) = self.offer(i, dir, &deltas)
                && total <= limit
                && best.is_none_or(|b| total < b)
            {
                best = Some(total);
            }
        }
        best
    }

    /// What moving from `i` in direction code `dir` offers: the neighbour and its
    /// value plus the step's cost, if the neighbour is reached and the step allowed.
    #[inline]
    fn offer(&self, i: usize, dir: usize, deltas: &[isize; 8]) -> Option<(usize, u32)> {
        let q = i.wrapping_add_signed(deltas[dir]);
        let vq = self.values[q];
        if vq == BLOCKED || vq == UNREACHED {
            return None;
        }
        let c = u32::from(self.costs[q]);
        let step = if dir & 1 == 1 {
            let a = i.wrapping_add_signed(deltas[(dir + 7) & 7]);
            let b = i.wrapping_add_signed(deltas[(dir + 1) & 7]);
            if self.costs[a] == 0 || self.costs[b] == 0 {
                return None;
            }
            c * OCTILE_DIAGONAL as u32
        } else if self.connectivity == Connectivity::Eight {
            c * OCTILE_STRAIGHT as u32
        } else {
            c
        };
        Some((q, vq.checked_add(step)?))
    }

    // ----- queries -----

    /// The cost from `cell` to the nearest goal (plus that goal's start value), or
    /// `None` if no goal is reachable, the cell is blocked or outside the field, or
    /// the field is not [`Ready`](FieldState::Ready) (see [`state`](Self::state)). For
    /// 8-connected fields the fixed-point value is converted back (relative error
    /// below `1e-7`); flee fields give negative values.
    #[must_use]
    pub fn distance(&self, cell: Cell) -> Option<f64> {
        self.units(cell).map(|u| u as f64 / self.scale() as f64)
    }

    /// [`distance`](Self::distance) in the field's fixed-point units (cost units for
    /// 4-connected fields, `cost * OCTILE_STRAIGHT` for 8-connected ones).
    #[must_use]
    pub fn units(&self, cell: Cell) -> Option<i64> {
        let v = self.values[self.query_index(cell)?];
        (v != BLOCKED && v != UNREACHED).then(|| i64::from(v - 1) - i64::from(self.bias))
    }

    /// Whether a goal is reachable from `cell`.
    #[must_use]
    pub fn is_reachable(&self, cell: Cell) -> bool {
        self.units(cell).is_some()
    }

    /// The best step from `cell` towards the goals (downhill), or `None` when the cell
    /// is a goal (or, in a flee field, a safest spot), when no goal is reachable, or
    /// when `cell` is outside the field, or when the field is not
    /// [`Ready`](FieldState::Ready). A unit standing on a blocked cell gets the
    /// step to its best reachable neighbour. Ties go to the first direction in
    /// [`Direction8`] order, so equal fields give equal moves.
    #[must_use]
    pub fn next_step(&self, cell: Cell) -> Option<Direction8> {
        let i = self.query_index(cell)?;
        let dir = if self.connectivity == Connectivity::Eight {
            self.step8_at(i, &self.deltas())
        } else {
            self.step4_at(i)
        }?;
        Some(Direction8::from_bits(dir as u8))
    }

    /// [`next_step`](Self::next_step) at a 4-connected field's index, as a
    /// [`Direction8`] code. Walks stay inside: the border ring is blocked.
    #[inline]
    fn step4_at(&self, i: usize) -> Option<usize> {
        let s = self.stride;
        let mut best = (u32::MAX, 8);
        for (dir, q) in [(0, i + 1), (2, i + s), (4, i - 1), (6, i - s)] {
            let v = self.values[q];
            // Neither blocked (0) nor unreached (MAX); a sum that saturates never wins.
            if v.wrapping_sub(1) < UNREACHED - 1 {
                let total = v.saturating_add(u32::from(self.costs[q]));
                if total < best.0 {
                    best = (total, dir);
                }
            }
        }
        self.moves(i, best)
    }

    /// [`next_step`](Self::next_step) at an 8-connected field's index.
    #[inline]
    fn step8_at(&self, i: usize, deltas: &[isize; 8]) -> Option<usize> {
        let mut best = (u32::MAX, 8);
        for dir in 0..8 {
            if let Some((_, total)) = self.offer(i, dir, deltas)
                && total < best.0
            {
                best = (total, dir);
            }
        }
        self.moves(i, best)
    }

    /// The best offer's direction if moving there beats staying: a reached cell's
    /// value equals its best offer unless the cell is a source (a goal, or a flee
    /// field's local minimum), where staying is best.
    #[inline]
    fn moves(&self, i: usize, (total, dir): (u32, usize)) -> Option<usize> {
        let here = self.values[i];
        let moves = here == BLOCKED || here == UNREACHED || total <= here;
        (dir < 8 && moves).then_some(dir)
    }

    /// The first (up to 56) steps downhill from `cell`, for 4-connected fields (it stops
    /// at the first diagonal step of an 8-connected one: use [`path8`](Self::path8)).
    /// Empty if `cell` is a goal or unreachable.
    #[must_use]
    pub fn path(&self, cell: Cell) -> GridPath {
        let mut path = GridPath::EMPTY;
        self.walk(cell, |d| d.orthogonal().is_some_and(|d| path.push(d)));
        path
    }

    /// The first (up to 56) steps downhill from `cell`, in 8 directions.
    #[must_use]
    pub fn path8(&self, cell: Cell) -> GridPath8 {
        let mut path = GridPath8::EMPTY;
        self.walk(cell, |d| path.push(d));
        path
    }

    /// Walks downhill from `cell` by index, up to 56 steps, handing each step to
    /// `take`; stops where the walk ends or `take` returns `false`.
    #[inline]
    fn walk(&self, cell: Cell, mut take: impl FnMut(Direction8) -> bool) {
        let Some(mut i) = self.query_index(cell) else {
            return;
        };
        let deltas = self.deltas();
        let eight = self.connectivity == Connectivity::Eight;
        for _ in 0..MAX_STEPS {
            let step = if eight {
                self.step8_at(i, &deltas)
            } else {
                self.step4_at(i)
            };
            let Some(dir) = step else { break };
            if !take(Direction8::from_bits(dir as u8)) {
                break;
            }
            i = i.wrapping_add_signed(deltas[dir]);
        }
    }
}

fn add(total: &mut FieldStats, s: FieldStats) {
    total.goals_used += s.goals_used;
    total.goals_ignored += s.goals_ignored;
    total.cells_updated += s.cells_updated;
    total.cells_invalidated += s.cells_invalidated;
}

/// The best step from `cell` on several fields at once, each weighted: the neighbour
/// minimising `sum(weight * distance)` over the fields (e.g. a chase field with weight
/// 1 and a flee field from completed goals with weight 0.5). Neighbours unreachable in
/// any field are skipped. The fields should share connectivity; `None` when no
/// neighbour improves on `cell`.
#[must_use]
pub fn combined_next_step(fields: &[(&DistanceField, f32)], cell: Cell) -> Option<Direction8> {
    let first = fields.first()?.0;
    let eight = first.connectivity == Connectivity::Eight;
    let score = |c: Cell| -> Option<f64> {
        fields
            .iter()
            .map(|(f, w)| f.distance(c).map(|d| d * f64::from(*w)))
            .sum()
    };
    let here = score(cell);
    let mut best: Option<(f64, Direction8)> = None;
    for d in Direction8::ALL {
        if d.is_diagonal() && !eight {
            continue;
        }
        let n = cell.step(d);
        if d.is_diagonal() {
            let (dx, dy) = d.offset();
            let open = |c: Cell| first.query_index(c).is_some_and(|i| first.costs[i] != 0);
            // Wrapping: a cell past the ends of the `i32` range is outside the field.
            if !open(Cell::new(cell.x.wrapping_add(dx), cell.y))
                || !open(Cell::new(cell.x, cell.y.wrapping_add(dy)))
            {
                continue;
            }
        }
        if let Some(s) = score(n)
            && best.is_none_or(|(b, _)| s < b)
        {
            best = Some((s, d));
        }
    }
    let (s, d) = best?;
    match here {
        Some(h) if s >= h => None,
        _ => Some(d),
    }
}
