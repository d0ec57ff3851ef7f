//! The table: queries, and edits repaired in place.

use super::*;
use crate::GridMismatch;
use crate::topology::square_codes;

/// For every ordered pair of passable cells of a grid, the first step of a cheapest
/// path between them, in O(1); whether one can reach the other at all; and repairs
/// after edits that only touch the pairs an edit can change.
///
/// A table has one row per target cell and one entry per source cell in it (a
/// *entry*): the distance modulo 3 ([`Encoding::DistanceMod3`], 2 bits) for
/// 4-connected mobilities with one cost, otherwise the first step's direction (2 bits
/// 4-connected, 3 bits 8-connected). Reachability is stored once per connected
/// component, not per pair. Cells on dead-end branches (corridors that end, rooms
/// with one door) need no entries at all: see [`TableCells::Passable`]. Memory grows
/// with the square of the cells that have entries (a 100x100 open grid: 10,000 rows of
/// 10,000 2-bit entries, 25 MB; a maze without loops: none), so a table is for maps up
/// to a few hundred cells a side (see [`TableBuilder::estimate`] and
/// [`TableBuilder::memory_limit`]). Tables are for one-cell units: a unit bigger than
/// one cell takes a [`Footprint`](crate::Footprint) query or a sized
/// [`DistanceField`](crate::DistanceField) instead.
///
/// Ties between cheapest first steps are broken in direction order (right, down,
/// left, up; clockwise from right when 8-connected), so a table's answers depend on
/// the grid alone: not on thread count, nor on the edits that led to it.
///
/// ```
/// use tilepath::{Cell, Direction8, Grid, Mobility, NextHopTable, TileKind};
/// let grid = Grid::from_ascii(
///     "....\n\
///      .##.\n\
///      ....",
///     |c| Some(if c == '#' { TileKind::K3 } else { TileKind::K0 }),
/// )?;
/// let table = NextHopTable::builder(Mobility::FLOOR_ONLY).build(&grid)?;
/// let (from, to) = (Cell::new(1, 0), Cell::new(2, 2));
/// assert!(table.is_reachable(from, to));
/// assert_eq!(table.next_step(from, to), Some(Direction8::Right));
/// assert_eq!(table.hops(from, to).count(), 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct NextHopTable {
    pub(super) shape: Shape,
    pub(super) options: TableBuilder,
    /// One row of `row_bytes` per entry (as target).
    pub(super) rows: Vec<u8>,
    pub(super) row_bytes: usize,
    pub(super) workers: Vec<Worker>,
}

impl Clone for NextHopTable {
    fn clone(&self) -> Self {
        Self {
            shape: self.shape.clone(),
            options: self.options,
            rows: self.rows.clone(),
            row_bytes: self.row_bytes,
            workers: Vec::new(),
        }
    }
}

impl NextHopTable {
    /// Options for a table over `mobility`: 4-connected, [`TableCells::Passable`], 1 GiB limit,
    /// all cores.
    #[must_use]
    pub fn builder(mobility: Mobility) -> TableBuilder {
        TableBuilder {
            mobility,
            connectivity: Connectivity::Four,
            table_cells: TableCells::Passable,
            memory_limit: TableBuilder::DEFAULT_MEMORY_LIMIT,
            threads: 0,
        }
    }

    /// How pairs are stored.
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        self.shape.encoding
    }

    /// The mobility the table was built for.
    #[must_use]
    pub fn mobility(&self) -> Mobility {
        self.shape.mobility
    }

    /// The connectivity the table was built for.
    #[must_use]
    pub fn connectivity(&self) -> Connectivity {
        self.shape.connectivity
    }

    /// Cells with a row and a column.
    #[must_use]
    pub fn table_cells(&self) -> usize {
        self.shape.cells.len()
    }

    /// Open cells on dead-end branches, answered without pair entries (see
    /// [`TableCells::Passable`]).
    #[must_use]
    pub fn branch_cells(&self) -> usize {
        self.shape.branches.len()
    }

    /// Bytes held: the pair table, the per-cell index and components, and the scratch
    /// kept for repairs.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let s = &self.shape;
        let workers: usize = self.workers.iter().map(Worker::memory_bytes).sum();
        self.rows.capacity()
            + s.costs.capacity()
            + (s.entry_of.capacity() + s.open.capacity()) * 4
            + (s.cells.capacity() + s.component.capacity()) * 4
            + s.component_len.capacity() * 4
            + s.branches.memory_bytes()
            + workers
    }

    // ----- queries -----

    /// The first step of a cheapest path from `from` to `to`: `None` if they are the
    /// same cell, if either is outside the grid or blocked, or if `to` cannot be
    /// reached. O(1); allocates nothing.
    #[inline]
    #[must_use]
    pub fn next_step(&self, from: Cell, to: Cell) -> Option<Direction8> {
        let s = &self.shape;
        let p = s.padded(from)?;
        let tp = s.padded(to)?;
        let (entry, target) = (s.open[p], s.open[tp]);
        if entry == NONE || target == NONE {
            return self.branch_step(p, tp);
        }
        let (entry, target) = (entry as usize, target as usize);
        debug_assert!(entry.max(target) < s.component.len());
        // SAFETY: open entries are below `cells.len() == component.len()`.
        #[expect(unsafe_code, reason = "entries index the per-entry arrays")]
        let same = unsafe { s.component.get_unchecked(entry) == s.component.get_unchecked(target) };
        if p == tp || !same {
            return None;
        }
        self.core_step(p, entry, target)
    }

    /// The first step between two entries of one component.
    #[inline(always)]
    pub(super) fn core_step(&self, p: usize, entry: usize, target: usize) -> Option<Direction8> {
        let s = &self.shape;
        debug_assert!((target + 1) * self.row_bytes <= self.rows.len());
        // SAFETY: `target` is an open entry, below `cells.len()`, and the table holds
        // `cells.len()` rows of `row_bytes`.
        #[expect(unsafe_code, reason = "entries index the rows")]
        let row = unsafe {
            self.rows
                .get_unchecked(target * self.row_bytes..(target + 1) * self.row_bytes)
        };
        Some(match s.encoding {
            Encoding::DistanceMod3 => {
                debug_assert!(entry < s.cells.len() && p + s.stride < s.open.len());
                // SAFETY: `p` is a cell inside the grid, so its 4 neighbours are
                // padded cells (the border is one cell wide); `entry` and every open
                // entry are below `cells.len()`, whose residues a row holds.
                #[expect(unsafe_code, reason = "bounds proven by the padded layout")]
                return unsafe { mod3_step(row, &s.open, p, entry, s.stride) };
            }
            Encoding::Directions4 => Direction::from_bits(get_code(s.encoding, row, entry)).into(),
            Encoding::Directions8 => Direction8::from_bits(get_code(s.encoding, row, entry)),
        })
    }

    /// The first step from `p` to `tp` (padded) when either is not an entry: on a
    /// dead-end branch, or blocked. A tree has one path between two cells: into the
    /// child whose subtree holds the target, else up; from the core to a branch, the
    /// way to the core cell its tree hangs from.
    #[inline]
    pub(super) fn branch_step(&self, p: usize, tp: usize) -> Option<Direction8> {
        let s = &self.shape;
        let b = &s.branches;
        let (x, t) = (b.number(p), b.number(tp));
        if x != NONE && t != NONE {
            // Both on branches (all of a maze without loops): the common case.
            return b.same_tree_step(x, t).map(Direction8::from_bits);
        }
        if p == tp || s.component_at(p)? != s.component_at(tp)? {
            return None;
        }
        if t != NONE {
            let below = if x == NONE {
                b.anchor(t) == p as u32
            } else {
                b.below(t, x)
            };
            if below {
                return b
                    .child_towards(p, t, &s.deltas, s.dirs())
                    .map(Direction8::from_bits);
            }
            if x == NONE {
                // From the core: the same first step as to the tree's anchor, which
                // is in this component, so open.
                let anchor = b.anchor(t) as usize;
                return self.core_step(p, s.open[p] as usize, s.open[anchor] as usize);
            }
        }
        // On a branch, heading for a cell not below: up.
        match b.up(x) {
            ROOT => None,
            d => Some(Direction8::from_bits(d)),
        }
    }

    /// Whether `to` can be reached from `from` (a cell reaches itself if it is open).
    /// O(1).
    #[inline]
    #[must_use]
    pub fn is_reachable(&self, from: Cell, to: Cell) -> bool {
        let s = &self.shape;
        let component = |c: Cell| s.padded(c).and_then(|p| s.component_at(p));
        match (component(from), component(to)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    /// The steps of a cheapest path from `from` to `to`, one table lookup each (empty
    /// if there is none).
    #[must_use]
    pub fn hops(&self, from: Cell, to: Cell) -> Hops<'_> {
        Hops {
            table: self,
            at: from,
            to,
        }
    }

    /// The first 56 steps of a cheapest path as a [`GridPath`] (4-connected tables;
    /// an 8-connected table gives an empty path: use [`path8`](Self::path8)). Call
    /// again from its end for the next chunk.
    #[must_use]
    pub fn path(&self, from: Cell, to: Cell) -> GridPath {
        let mut path = GridPath::EMPTY;
        for (dir, _) in self.hops(from, to) {
            let Some(d) = dir.orthogonal() else {
                return GridPath::EMPTY;
            };
            if !path.push(d) {
                break;
            }
        }
        path
    }

    /// The first 56 steps of a cheapest path as a [`GridPath8`] (any connectivity).
    #[must_use]
    pub fn path8(&self, from: Cell, to: Cell) -> GridPath8 {
        let mut path = GridPath8::EMPTY;
        for (dir, _) in self.hops(from, to) {
            if !path.push(dir) {
                break;
            }
        }
        path
    }

    /// The cost of a cheapest path from `from` to `to` (mobility costs, `sqrt 2` on
    /// diagonals), or `None` if there is none. O(path length): it walks the table.
    #[must_use]
    pub fn distance(&self, from: Cell, to: Cell) -> Option<f64> {
        if !self.is_reachable(from, to) {
            return None;
        }
        let mut cost = 0.0;
        for (dir, cell) in self.hops(from, to) {
            let c = f64::from(self.shape.real_cost(self.shape.padded(cell)?));
            cost += if dir.is_diagonal() {
                c * core::f64::consts::SQRT_2
            } else {
                c
            };
        }
        Some(cost)
    }

    /// A step that does not bring a unit at `from` closer to `threat` (by path cost):
    /// the step that increases the distance most among those the table can vouch
    /// for, `None` if every open neighbour is closer (cornered), if `threat` cannot
    /// reach `from`, or for bad cells. Allocates nothing; O(1) when a neighbour's
    /// cheapest path to `threat` runs back through `from`, O(path length) otherwise.
    #[must_use]
    pub fn step_away(&self, from: Cell, threat: Cell) -> Option<Direction8> {
        let s = &self.shape;
        let p = s.padded(from)?;
        let tp = s.padded(threat)?;
        if s.component_at(p)? != s.component_at(tp)? {
            return None;
        }
        let dirs = s.dirs();
        let (entry, target) = (s.open[p], s.open[tp]);
        if s.encoding == Encoding::DistanceMod3 && entry != NONE && target != NONE {
            let row = &self.rows[target as usize * self.row_bytes..][..self.row_bytes];
            let farther = (get_residue(row, entry as usize) + 1) % 3;
            // A branch hanging from `from` leads away from a threat in the core.
            return dirs
                .iter()
                .find(|&&d| {
                    s.step_any(p, d).is_some_and(|q| {
                        p == tp
                            || match s.open[q] {
                                NONE => true,
                                n => get_residue(row, n as usize) == farther,
                            }
                    })
                })
                .map(|&d| Direction8::from_bits(d as u8));
        }
        // A neighbour whose first step comes back here is strictly farther.
        for &d in dirs {
            if let Some(q) = s.step_any(p, d)
                && q != tp
                && self.next_step(s.cell(q), threat)
                    == Some(Direction8::from_bits(d as u8).reverse())
            {
                return Some(Direction8::from_bits(d as u8));
            }
        }
        // Otherwise compare path costs.
        let here = self.distance(from, threat)?;
        let mut best = None;
        for &d in dirs {
            if let Some(q) = s.step_any(p, d) {
                let there = self.distance(s.cell(q), threat)?;
                if there >= here - 1e-9 && best.is_none_or(|(b, _)| there > b) {
                    best = Some((there, Direction8::from_bits(d as u8)));
                }
            }
        }
        best.map(|(_, d)| d)
    }

    /// The connected component of an open cell (ids are `0..components()`).
    #[must_use]
    pub fn component(&self, cell: Cell) -> Option<u32> {
        let s = &self.shape;
        s.component_at(s.padded(cell)?)
    }

    /// The number of connected components of open cells.
    #[must_use]
    pub fn components(&self) -> usize {
        self.shape.component_len.len()
    }

    /// The number of cells of component `id` (0 for an unknown id).
    #[must_use]
    pub fn component_len(&self, id: u32) -> usize {
        self.shape
            .component_len
            .get(id as usize)
            .map_or(0, |&n| n as usize)
    }

    /// The dangling cells: open cells outside the largest component (the ones the
    /// bulk of the map cannot reach), in row-major order.
    pub fn dangling(&self) -> impl Iterator<Item = Cell> + '_ {
        let s = &self.shape;
        let main = (0..s.component_len.len())
            .max_by_key(|&i| (s.component_len[i], core::cmp::Reverse(i)))
            .map_or(NONE, |i| i as u32);
        (0..s.costs.len()).filter_map(move |p| {
            let c = s.component_at(p)?;
            (c != main).then(|| s.cell(p))
        })
    }

    // ----- building and repairing -----

    pub(super) fn thread_count(&self, jobs: usize) -> usize {
        self.options.thread_count().min(jobs.div_ceil(64)).max(1)
    }

    pub(super) fn prepare_workers(&mut self, threads: usize) {
        if self.workers.len() < threads {
            self.workers.resize_with(threads, Worker::default);
        }
        for w in &mut self.workers[..threads] {
            w.prepare(&self.shape);
        }
    }

    /// Computes every row.
    pub(super) fn compute_all(&mut self) {
        let entries = self.shape.cells.len();
        // No pair entries (e.g. a maze without loops): no rows, no scratch either (as
        // `TableBuilder::build_threads` counts for the estimate).
        let threads = self.options.build_threads(entries);
        if threads == 0 {
            return;
        }
        self.prepare_workers(threads);
        let rows: Vec<(usize, &mut [u8])> = if self.row_bytes == 0 {
            Vec::new()
        } else {
            self.rows.chunks_mut(self.row_bytes).enumerate().collect()
        };
        run_rows(
            &self.shape,
            &mut self.workers[..threads],
            rows,
            |w, shape, t, row| {
                w.compute_row(shape, shape.cells[t] as usize, row);
                0
            },
        );
    }

    /// Brings the table up to date with `grid` after edits to the cells `changed`
    /// (duplicates, unchanged cells and cells outside the grid are ignored). Each edit
    /// recomputes only the targets whose rows it can change. With
    /// [`Encoding::DistanceMod3`] every row is patched around the edit (only an
    /// opening that joins components recomputes the joined component's rows: all its
    /// cross pairs are new). With the direction encodings a blocked (or dearer) cell
    /// recomputes the targets some neighbour's first step crossed it for, and an
    /// opened (or cheaper) cell its component's targets. The result equals a fresh
    /// build.
    ///
    /// # Errors
    /// [`TableError::GridMismatch`] if `grid` is another size (nothing is changed);
    /// [`TableError::TooLarge`] if opening a cell outside the entries needs a rebuild
    /// above the memory limit (the table keeps the edits listed before that cell).
    pub fn repair(&mut self, grid: &Grid, changed: &[Cell]) -> Result<RepairStats, TableError> {
        GridMismatch::check((self.shape.width, self.shape.height), grid)
            .map_err(TableError::GridMismatch)?;
        let mut stats = RepairStats::default();
        for &cell in changed {
            let Some(p) = self.shape.padded(cell) else {
                continue;
            };
            let new = grid.cost(cell, self.shape.mobility);
            let branch = self.shape.branches.number(p);
            let old = match branch {
                NONE => self.shape.costs[p],
                n => self.shape.branches.cost[n as usize],
            };
            if new == old {
                continue;
            }
            stats.edits += 1;
            if branch != NONE && old != 0 {
                // A branch cell: no pair of the table runs through it. Blocking it cuts
                // its subtree off; a new cost only changes path costs.
                self.shape.branches.cost[branch as usize] = new;
                if new == 0 {
                    self.shape.label_components();
                }
                continue;
            }
            if self.shape.entry_of[p] == NONE {
                // A cell outside the entries opened (a branch cell may close a loop):
                // the layout changes.
                let rebuilt = self.options.build(grid)?;
                let workers = core::mem::take(&mut self.workers);
                *self = rebuilt;
                self.workers = workers;
                stats.rebuilt = true;
                stats.targets_recomputed = self.shape.cells.len();
                return Ok(stats);
            }
            self.apply_edit(p, old, new, &mut stats);
        }
        Ok(stats)
    }

    pub(super) fn apply_edit(&mut self, p: usize, old: u8, new: u8, stats: &mut RepairStats) {
        let here = self.shape.entry_of[p] as usize;
        let old_component = self.shape.component[here];
        let mod3 = self.shape.encoding == Encoding::DistanceMod3;
        // Rows recomputed in full, and (mod 3) rows patched in place.
        let mut full = Vec::new();
        let mut patch = Vec::new();
        if new == 0 {
            // Blocked: decide with the old rows, then relabel.
            if mod3 {
                patch = self.targets_of_component(old_component, Some(here));
            } else {
                full = self.targets_crossing(p, old_component);
            }
            self.shape.set_cost(p, 0);
            self.shape.label_components();
        } else if old == 0 {
            // Opened.
            self.shape.set_cost(p, new);
            let joined = self.neighbour_components(p);
            self.shape.label_components();
            let component = self.shape.component[here];
            let others = self.targets_of_component(component, Some(here));
            full.push(here);
            if mod3 && joined <= 1 {
                patch = others;
            } else {
                full.extend(others);
            }
        } else if new > old {
            // Dearer (a mobility with several costs, so a direction encoding): only the
            // targets some cheapest path entered `p` for.
            full = self.targets_crossing(p, old_component);
            self.shape.set_cost(p, new);
        } else {
            // Cheaper: any target of the component may now route through `p`.
            self.shape.set_cost(p, new);
            full = self.targets_of_component(old_component, None);
        }
        full.sort_unstable();
        full.dedup();
        stats.targets_recomputed += full.len();
        stats.targets_patched += patch.len();
        self.recompute(&full);
        if !patch.is_empty() {
            stats.entries_patched += self.patch(&patch, p, old == 0);
        }
        if new == 0 {
            // The blocked cell's own row is unused: clear it, as a fresh build has it.
            self.rows[here * self.row_bytes..(here + 1) * self.row_bytes].fill(0);
        }
    }

    /// How many distinct components `p`'s open neighbours belong to (before `p` is
    /// labelled).
    pub(super) fn neighbour_components(&self, p: usize) -> usize {
        let s = &self.shape;
        let mut seen = [NONE; 8];
        let mut n = 0;
        for &d in square_codes(s.connectivity) {
            if let Some(q) = s.step(p, d) {
                let c = s.component[s.entry_of[q] as usize];
                if c != NONE && !seen[..n].contains(&c) {
                    seen[n] = c;
                    n += 1;
                }
            }
        }
        n
    }

    /// The open entries of component `component`, but `except`.
    pub(super) fn targets_of_component(&self, component: u32, except: Option<usize>) -> Vec<usize> {
        let s = &self.shape;
        (0..s.cells.len())
            .filter(|&t| s.component[t] == component && Some(t) != except)
            .collect()
    }

    /// (Direction encodings, `p` still open.) The targets for which some neighbour of
    /// `p` steps into `p`, or diagonally past its corner, plus `p` itself.
    pub(super) fn targets_crossing(&self, p: usize, component: u32) -> Vec<usize> {
        let s = &self.shape;
        let eight = s.connectivity == Connectivity::Eight;
        let mut out = Vec::new();
        let here = s.entry_of[p] as usize;
        let mut around = [(0usize, 0usize); 8];
        let mut n = 0;
        for d in 0..8 {
            let q = p.wrapping_add_signed(s.deltas[d]);
            if s.costs[q] != 0 && (eight || d & 1 == 0) {
                around[n] = (q, s.entry_of[q] as usize);
                n += 1;
            }
        }
        for t in 0..s.cells.len() {
            if s.component[t] != component {
                continue;
            }
            if t == here {
                out.push(t);
                continue;
            }
            let row = &self.rows[t * self.row_bytes..(t + 1) * self.row_bytes];
            let tp = s.cells[t] as usize;
            let crosses = around[..n].iter().any(|&(q, qs)| {
                if q == tp {
                    return false;
                }
                let code = usize::from(get_code(s.encoding, row, qs));
                let dir = if eight { code } else { code * 2 };
                let r = q.wrapping_add_signed(s.deltas[dir]);
                r == p
                    || (dir & 1 == 1
                        && (q.wrapping_add_signed(s.deltas[dir - 1]) == p
                            || q.wrapping_add_signed(s.deltas[(dir + 1) & 7]) == p))
            });
            if crosses {
                out.push(t);
            }
        }
        out
    }

    /// Recomputes the rows of `targets` in full, in parallel.
    pub(super) fn recompute(&mut self, targets: &[usize]) {
        self.for_rows(targets, |w, shape, t, row| {
            w.compute_row(shape, shape.cells[t] as usize, row);
            0
        });
    }

    /// Patches the mod-3 rows of `targets` after `p` was opened (`opened`) or blocked.
    /// Returns the number of entries rewritten.
    pub(super) fn patch(&mut self, targets: &[usize], p: usize, opened: bool) -> usize {
        self.for_rows(targets, |w, shape, t, row| {
            w.patch_row(shape, t, row, p, opened)
        })
    }

    /// Runs `f` on the rows of `targets` (sorted, distinct) in parallel; returns the
    /// sum of its results.
    pub(super) fn for_rows<F>(&mut self, targets: &[usize], f: F) -> usize
    where
        F: Fn(&mut Worker, &Shape, usize, &mut [u8]) -> usize + Sync,
    {
        if targets.is_empty() {
            return 0;
        }
        let threads = self.thread_count(targets.len());
        self.prepare_workers(threads);
        let rows = select_rows(&mut self.rows, self.row_bytes, targets);
        run_rows(&self.shape, &mut self.workers[..threads], rows, f)
    }
}

/// The steps of a cheapest path, from [`NextHopTable::hops`]: each direction with the
/// cell it arrives at.
#[derive(Clone, Debug)]
pub struct Hops<'a> {
    pub(super) table: &'a NextHopTable,
    pub(super) at: Cell,
    pub(super) to: Cell,
}

impl Iterator for Hops<'_> {
    type Item = (Direction8, Cell);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let dir = self.table.next_step(self.at, self.to)?;
        self.at = self.at.step(dir);
        Some((dir, self.at))
    }
}
