//! Landmarks: exact distances from a few far-apart cells, which bound the distance
//! between any two cells far more tightly than the octile estimate on maps of rooms.

use crate::field::add;
use crate::{Cell, Connectivity, Derived, DistanceField, FieldError, FieldStats, Grid, Mobility};

/// A cell's distance to a landmark that it does not have (blocked, or not reached).
const NONE: u32 = u32::MAX;

/// Precomputed distances that guide [`Jps`](crate::Jps) (queries
/// [`guided`](crate::PathQuery::guided) by them) to the goal: for a few landmark cells
/// spread over the grid, the exact distance from every cell. On maps of rooms and
/// corridors they bound the distance to the goal far more tightly than the
/// straight-line estimate, which ignores walls: a guided search expands the jump
/// points along the route, not those of every room the estimate points it into.
/// Answers stay optimal, so guided and unguided queries return routes of the same cost.
///
/// Built for one [`Mobility`] and [`Connectivity`] over one grid; a query with another
/// mobility, connectivity or grid size ignores it. After the grid changes, call
/// [`repair`](Self::repair) with the changed cells before the next guided query: a
/// guide that no longer matches the grid never makes a query fail or panic, but its
/// answers may then be longer than optimal.
///
/// Cost: building is one distance field computation per landmark (see
/// [`DistanceField::compute`]), plus one to place the first; a repair's work is
/// proportional to the cells whose distance changes. Memory: about 9 bytes per landmark
/// and cell of the grid, plus what the largest repair so far needed
/// ([`memory_bytes`](Self::memory_bytes) says what is held).
///
/// ```
/// use tilepath::{Cell, Connectivity, Grid, Jps, Landmarks, Mobility, PathQuery, Solver, TileKind};
/// let mut grid = Grid::new(64, 64)?;
/// grid.fill_rect(Cell::new(32, 0), Cell::new(32, 60), TileKind::K1); // a wall, open at the top
/// let mobility = Mobility::FLOOR_ONLY;
/// let mut guide = Landmarks::new(&grid, mobility, Connectivity::Eight, 4)?;
/// let mut jps = Jps::whole_grid();
/// let (from, to) = (Cell::new(30, 5), Cell::new(34, 5));
/// let guided = jps.find(&grid, PathQuery::new(from, to, mobility).guided(&guide).connectivity(Connectivity::Eight))?;
/// let plain = jps.find(&grid, PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight))?;
/// assert_eq!(guided.cost, plain.cost);
///
/// // An edit: repair the guide before the next guided query.
/// grid.set(Cell::new(32, 62), TileKind::K1)?;
/// guide.repair(&grid, &[Cell::new(32, 62)])?;
/// let guided = jps.find(&grid, PathQuery::new(from, to, mobility).guided(&guide).connectivity(Connectivity::Eight))?;
/// assert_eq!(guided.cost, jps.find(&grid, PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight))?.cost);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Implementation
///
/// By the triangle inequality, `|d(L, goal) - d(L, cell)|` is a lower bound on the
/// distance from `cell` to the goal: the bound never overestimates and is consistent,
/// which keeps the answers optimal.
///
/// The landmarks are placed farthest-first: the first is the cell farthest from an
/// arbitrary open cell, each next one the open cell farthest from all placed so far
/// (cells no landmark reaches first, so that every component gets one). Landmarks on
/// the edges of the map bound well in every direction ("differential heuristics",
/// Sturtevant et al.; ALT in road networks).
///
/// Each landmark is a [`DistanceField`] (so a repair touches only the cells whose
/// distance changes); the guide's table keeps the distances again, cell-major (all
/// landmarks of a cell side by side, in the searches' step units), so that a bound
/// costs one cache line rather than a miss per landmark. A landmark a cell or the
/// goal has no distance to adds nothing to the bound: within the start's component
/// every cell has a distance to a landmark or none does, so the bound stays
/// consistent, and for a goal out of reach it is the plain estimate.
///
/// A repair is a [`DistanceField::repair`] per landmark (its work proportional to the
/// cells whose distance changes) and a rewrite of the guide's table in the rows where a
/// distance changed. Memory: per landmark and cell of the grid, a distance (4 bytes)
/// and a cost (1) kept for repairs, and 4 bytes of the guide's table.
#[derive(Clone, Debug)]
pub struct Landmarks {
    mobility: Mobility,
    connectivity: Connectivity,
    /// The landmarks asked for (before clamping): the guide's [`Derived::Key`] part.
    asked: usize,
    size: (u32, u32),
    fields: Vec<DistanceField>,
    cells: Vec<Cell>,
    /// `cells.len()` distances a cell, cell-major, in step units; [`NONE`] if none.
    table: Vec<u32>,
}

impl Landmarks {
    /// The most landmarks a guide takes.
    pub const MAX: usize = 16;

    /// A guide of `count` landmarks (1 to [`MAX`](Self::MAX); clamped) for `mobility`
    /// and `connectivity` on `grid`. A grid with no cell `mobility` can enter gets no
    /// landmark (queries are then unguided).
    ///
    /// # Errors
    /// [`FieldError::HexUnsupported`] for a hex connectivity (landmarks guide jump
    /// point search, which is for square maps);
    /// [`FieldError::OutOfMemory`] if the memory cannot be had;
    /// [`FieldError::DistanceOverflow`] if a distance exceeds what a field holds (see
    /// [`DistanceField`]).
    pub fn new(
        grid: &Grid,
        mobility: Mobility,
        connectivity: Connectivity,
        count: usize,
    ) -> Result<Self, FieldError> {
        if let Connectivity::Hex(_) = connectivity {
            return Err(FieldError::HexUnsupported);
        }
        let asked = count;
        let count = count.clamp(1, Self::MAX);
        let mut guide = Self {
            mobility,
            connectivity,
            asked,
            size: (grid.width(), grid.height()),
            fields: Vec::with_capacity(count),
            cells: Vec::with_capacity(count),
            table: Vec::new(),
        };
        let open = |c: Cell| grid.is_passable(c, mobility);
        let all = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x as i32, y as i32)));
        let Some(first) = all.clone().find(|&c| open(c)) else {
            return Ok(guide);
        };
        // Each open cell's distance to the nearest landmark so far (step units).
        let mut nearest = vec![NONE; grid.len()];
        let mut field = DistanceField::try_new(grid, mobility, connectivity)?;
        let mut seed = first;
        // The first pass measures from an arbitrary cell only to place landmark 0.
        for pass in 0..=count {
            field.clear_goals();
            field.add_goal(seed, 0);
            field.compute(grid)?;
            let steps = Steps(guide.scale());
            let mut far = (0u32, seed);
            let w = grid.width() as usize;
            for y in 0..grid.height() as i32 {
                let row = field.row_units(y);
                for ((x, u), near) in row.enumerate().zip(&mut nearest[y as usize * w..]) {
                    let c = Cell::new(x as i32, y);
                    if !open(c) {
                        continue;
                    }
                    let d = steps.of(u);
                    if pass > 0 {
                        *near = (*near).min(d);
                    }
                    let key = if pass > 0 { *near } else { d };
                    // Unreached cells (NONE) first: another component needs a landmark.
                    if key > far.0 && !guide.cells.contains(&c) {
                        far = (key, c);
                    }
                }
            }
            if pass > 0 {
                guide.cells.push(seed);
                guide.fields.push(field.clone_lean());
            }
            if far.0 == 0 {
                break; // every open cell is a landmark already
            }
            seed = far.1;
        }
        guide.refresh();
        Ok(guide)
    }

    /// Brings the guide up to date after the cells in `changed` changed kind (in any
    /// number of edits since the last build or repair): afterwards it equals a guide
    /// built on `grid` with the same landmarks. A landmark walled in keeps its place
    /// (it then bounds nothing). Returns what the landmarks' field repairs did, added
    /// up. A grid of another size is refused.
    ///
    /// # Errors
    /// The errors of [`DistanceField::repair`] ([`FieldError::GridMismatch`] for a
    /// grid of another size, [`FieldError::DistanceOverflow`]); the guide then guides
    /// nothing until a repair succeeds.
    pub fn repair(&mut self, grid: &Grid, changed: &[Cell]) -> Result<FieldStats, FieldError> {
        let (w, h) = self.size;
        // After a failed repair the table is gone: rewritten whole once one succeeds.
        let whole = self.table.len() != w as usize * h as usize * self.fields.len();
        let mut stats = FieldStats::default();
        for j in 0..self.fields.len() {
            match self.fields[j].repair(grid, changed) {
                Ok(s) => add(&mut stats, s),
                Err(e) => {
                    self.table.clear();
                    return Err(e);
                }
            }
            if !whole && let Some((y0, y1)) = self.fields[j].changed_rows() {
                self.refresh_rows(j, y0.max(0) as u32, (y1.max(0) as u32).min(h - 1));
            }
        }
        if whole {
            self.refresh();
        }
        Ok(stats)
    }

    /// The landmark cells.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The mobility the guide was built for.
    #[must_use]
    pub const fn mobility(&self) -> Mobility {
        self.mobility
    }

    /// The connectivity the guide was built for.
    #[must_use]
    pub const fn connectivity(&self) -> Connectivity {
        self.connectivity
    }

    /// Bytes held: the fields' and the table's.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.fields
            .iter()
            .map(DistanceField::memory_bytes)
            .sum::<usize>()
            + self.table.capacity() * 4
            + self.cells.capacity() * size_of::<Cell>()
    }

    /// Fixed-point units of the fields per step of a search: their cell cost (every
    /// open kind costs the same where jump point search runs).
    fn scale(&self) -> i64 {
        i64::from(self.mobility.min_cost().max(1))
    }

    /// Rewrites the table from the fields.
    fn refresh(&mut self) {
        let (w, h) = self.size;
        self.table.clear();
        if h == 0 {
            return;
        }
        self.table
            .resize(w as usize * h as usize * self.fields.len(), NONE);
        for j in 0..self.fields.len() {
            self.refresh_rows(j, 0, h.saturating_sub(1));
        }
    }

    /// Rewrites landmark `j`'s column of the table in rows `y0..=y1` from its field.
    fn refresh_rows(&mut self, j: usize, y0: u32, y1: u32) {
        let k = self.fields.len();
        let w = self.size.0 as usize;
        let steps = Steps(self.scale());
        let (field, table) = (&self.fields[j], &mut self.table);
        for y in y0..=y1 {
            let row = &mut table[y as usize * w * k..(y as usize + 1) * w * k];
            for (entry, u) in row.chunks_exact_mut(k).zip(field.row_units(y as i32)) {
                entry[j] = steps.of(u);
            }
        }
    }

    /// The guide for a query towards `goal`, if this guide was built for `grid`'s
    /// size, `mobility` and the query's connectivity (`eight`).
    pub(crate) fn guide(
        &self,
        grid: &Grid,
        mobility: Mobility,
        eight: bool,
        goal: (i64, i64),
    ) -> Guide<'_> {
        let k = self.fields.len();
        let connectivity = if eight {
            Connectivity::Eight
        } else {
            Connectivity::Four
        };
        let (w, h) = self.size;
        let fits = mobility == self.mobility
            && connectivity == self.connectivity
            && (grid.width(), grid.height()) == self.size
            && self.table.len() == w as usize * h as usize * k
            && k > 0;
        let inside = (0..i64::from(w)).contains(&goal.0) && (0..i64::from(h)).contains(&goal.1);
        if !fits || !inside {
            return Guide::NONE;
        }
        let mut at_goal = [NONE; Self::MAX];
        let i = (goal.1 * i64::from(w) + goal.0) as usize * k;
        at_goal[..k].copy_from_slice(&self.table[i..i + k]);
        Guide {
            table: &self.table,
            k,
            width: i64::from(w),
            at_goal,
        }
    }
}

/// One query's view of [`Landmarks`]: the goal's distances, and the table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guide<'a> {
    table: &'a [u32],
    /// Landmarks; 0: no guide.
    k: usize,
    width: i64,
    at_goal: [u32; Landmarks::MAX],
}

impl Guide<'_> {
    /// No guide: the bound is 0.
    pub(crate) const NONE: Guide<'static> = Guide {
        table: &[],
        k: 0,
        width: 0,
        at_goal: [NONE; Landmarks::MAX],
    };

    /// Whether there is a bound to take.
    #[inline(always)]
    pub(crate) const fn is_some(&self) -> bool {
        self.k > 0
    }

    /// A lower bound on the distance from `(x, y)` (a cell of the grid) to the goal,
    /// in step units: the largest `|d(L, goal) - d(L, cell)|`.
    #[inline(always)]
    pub(crate) fn bound(&self, x: i64, y: i64) -> u64 {
        let i = (y * self.width + x) as usize * self.k;
        let Some(at_cell) = self.table.get(i..i + self.k) else {
            return 0;
        };
        let mut best = 0;
        for (&a, &b) in at_cell.iter().zip(&self.at_goal) {
            if a != NONE && b != NONE {
                best = best.max(a.abs_diff(b));
            }
        }
        u64::from(best)
    }
}

/// Field units to the table's step units: divided by the mobility's cell cost (1, the
/// common case, without a division).
#[derive(Clone, Copy)]
struct Steps(i64);

impl Steps {
    /// A distance in step units, or [`NONE`] for none (or one too large).
    #[inline]
    fn of(self, units: Option<i64>) -> u32 {
        units.map_or(NONE, |u| {
            let s = if self.0 == 1 { u } else { u / self.0 };
            u32::try_from(s).unwrap_or(NONE)
        })
    }
}

impl Derived for Landmarks {
    /// The mobility and connectivity the guide is for, and how many landmarks it was
    /// asked to place ([`Landmarks::new`]).
    type Key = (Mobility, Connectivity, usize);
    type Error = FieldError;

    fn build(grid: &Grid, (mobility, connectivity, count): Self::Key) -> Result<Self, FieldError> {
        Self::new(grid, mobility, connectivity, count)
    }

    fn key(&self) -> Self::Key {
        (self.mobility, self.connectivity, self.asked)
    }

    /// [`Landmarks::repair`]; its work is the distances the fields' repairs dropped and
    /// set.
    fn repair(&mut self, grid: &Grid, changed: &[Cell], _most: usize) -> Result<u64, FieldError> {
        let s = Landmarks::repair(self, grid, changed)?;
        Ok((s.cells_invalidated + s.cells_updated) as u64)
    }

    fn memory_bytes(&self) -> usize {
        Landmarks::memory_bytes(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TileKind;

    /// A repair rewrites only the rows whose distances changed; the table must still
    /// equal one rewritten in full from the (exactly repaired) fields.
    #[test]
    fn a_repair_leaves_the_table_as_a_full_rewrite_would() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as i32
        };
        let mobility = Mobility::FLOOR_ONLY;
        for (round, connectivity) in [Connectivity::Four, Connectivity::Eight]
            .into_iter()
            .cycle()
            .take(8)
            .enumerate()
        {
            let (w, h) = (40 + round as u32 * 7, 30 + round as u32 * 5);
            let mut grid = Grid::new(w, h).unwrap();
            for _ in 0..(w * h / 4) {
                let c = Cell::new(next(w), next(h));
                grid.set(c, TileKind::K3).unwrap();
            }
            let mut guide = Landmarks::new(&grid, mobility, connectivity, 5).unwrap();
            let mut rows_skipped = 0;
            for _ in 0..60 {
                let edits: Vec<Cell> = (0..1 + next(3))
                    .map(|_| Cell::new(next(w), next(h)))
                    .collect();
                for &c in &edits {
                    let kind = if grid.is_passable(c, mobility) {
                        TileKind::K3
                    } else {
                        TileKind::K0
                    };
                    grid.set(c, kind).unwrap();
                }
                guide.repair(&grid, &edits).unwrap();
                rows_skipped += guide
                    .fields
                    .iter()
                    .filter_map(DistanceField::changed_rows)
                    .map(|(y0, y1)| h as i32 - (y1 - y0 + 1))
                    .sum::<i32>();
                let mut full = guide.clone();
                full.refresh();
                assert_eq!(guide.table, full.table, "round {round}");
            }
            assert!(rows_skipped > 0, "every repair rewrote every row");
        }
    }
}
