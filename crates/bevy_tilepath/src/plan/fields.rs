//! Shared distance fields: one per (goal, mobility, connectivity, unit size) that enough units head
//! for, kept across ticks, repaired after grid edits, reused least recently used first.

use std::collections::HashMap;

use tilepath::{Cell, Connectivity, DistanceField, Grid, Mobility};

use super::job::{Answer, Job, Route};
use crate::grid::{ChangeCursor, Changes};
use crate::{PathingGrid, PathingSettings, SearchMode};

/// Repairs touching up to this many cells allocate nothing (20 bytes per cell).
const REPAIR_RESERVE: usize = 1 << 16;

/// What a field answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct FieldKey {
    goal: Cell,
    mobility: Mobility,
    connectivity: Connectivity,
    size: u8,
}

impl FieldKey {
    fn of(job: &Job) -> Self {
        Self {
            goal: job.goal,
            mobility: job.mobility,
            connectivity: job.connectivity,
            size: job.size,
        }
    }

    /// A new field for this key, with its repair scratch reserved.
    fn field(&self, grid: &Grid) -> Option<DistanceField> {
        let mut field = DistanceField::new(grid, self.mobility, self.connectivity)
            .with_unit_size(self.size)
            .ok()?;
        field.reserve_repair(REPAIR_RESERVE.min(grid.len()));
        Some(field)
    }
}

struct CachedField {
    key: FieldKey,
    field: DistanceField,
    /// Holds a computed field for `key` on the current grid.
    valid: bool,
    last_used: u64,
}

#[derive(Default)]
pub(crate) struct FieldCache {
    fields: Vec<CachedField>,
    /// Jobs of the current batch per key.
    counts: HashMap<FieldKey, u32>,
    /// Where the fields were last repaired up to in the grid's change log.
    cursor: ChangeCursor,
    /// The changed cells to repair, each once.
    repair: Vec<Cell>,
    /// One bit per cell: already in `repair`.
    seen: Vec<u64>,
    /// Fields repaired by the last [`maintain`](Self::maintain).
    repaired: u32,
}

impl FieldCache {
    /// Brings the kept fields in step with the grid: repairs them after edits, forgets
    /// them when the grid was replaced. Returns the work done (cells updated); nothing
    /// is repaired, and no work done, when no cell was set since the last call.
    pub(crate) fn maintain(&mut self, grid: &PathingGrid) -> u64 {
        // Counted afresh on every call: a tick without edits repairs nothing.
        self.repaired = 0;
        let changes = grid.take_changes(&mut self.cursor);
        let cells = match changes {
            Changes::Replaced => {
                self.fields.clear();
                return 0;
            }
            Changes::Cells([]) => return 0,
            Changes::Cells(cells) => cells,
        };
        let g = grid.grid();
        self.seen.resize(g.len().div_ceil(64), 0);
        self.repair.clear();
        for &cell in cells {
            if let Some(i) = g.index_of(cell)
                && self.seen[i / 64] & (1 << (i % 64)) == 0
            {
                self.seen[i / 64] |= 1 << (i % 64);
                self.repair.push(cell);
            }
        }
        for &cell in &self.repair {
            if let Some(i) = g.index_of(cell) {
                self.seen[i / 64] = 0;
            }
        }
        let mut work = 0;
        for entry in self.fields.iter_mut().filter(|s| s.valid) {
            match entry.field.repair(g, &self.repair) {
                Ok(stats) => {
                    work += (stats.cells_updated + stats.cells_invalidated) as u64;
                    self.repaired += 1;
                }
                Err(_) => entry.valid = false,
            }
        }
        work
    }

    /// Fields repaired by the last [`maintain`](Self::maintain): 0 unless cells were
    /// set since the call before it.
    pub(crate) fn repaired(&self) -> u32 {
        self.repaired
    }

    /// Decides which jobs a shared distance field serves, building the fields they
    /// need. Returns the work spent building fields and the number built.
    pub(crate) fn assign(
        &mut self,
        grid: &Grid,
        settings: &PathingSettings,
        jobs: &mut [Job],
        tick: u64,
    ) -> (u64, u32) {
        self.counts.clear();
        // Jobs answered up front (bad input, unfit goals) need no field.
        let wants = |j: &Job| j.mode == SearchMode::Auto && j.answer == Answer::Unsolved;
        for job in jobs.iter().filter(|j| wants(j)) {
            *self.counts.entry(FieldKey::of(job)).or_insert(0) += 1;
        }
        let (mut work, mut built) = (0, 0);
        for job in jobs.iter_mut().filter(|j| wants(j)) {
            let key = FieldKey::of(job);
            let found = self.fields.iter().position(|s| s.valid && s.key == key);
            let entry = match found {
                Some(i) => Some(i),
                None if self.counts.get(&key).copied().unwrap_or(0) as usize
                    >= settings.field_threshold =>
                {
                    self.build(grid, settings, key, tick).map(|(i, cells)| {
                        built += 1;
                        work += cells;
                        i
                    })
                }
                None => None,
            };
            if let Some(i) = entry {
                self.fields[i].last_used = tick;
                job.field = Some(i);
            }
        }
        (work, built)
    }

    /// The index of the computed field for units of `mobility`, `connectivity` and
    /// `size` heading for `goal`, if one is kept: what a crowd steps such units by.
    pub(crate) fn find(
        &self,
        goal: Cell,
        mobility: Mobility,
        connectivity: Connectivity,
        size: u8,
    ) -> Option<usize> {
        let key = FieldKey {
            goal,
            mobility,
            connectivity,
            size,
        };
        self.fields.iter().position(|s| s.valid && s.key == key)
    }

    /// Field `i`, if it is computed on the grid as it is.
    pub(crate) fn get(&self, i: usize) -> Option<&DistanceField> {
        self.fields.get(i).filter(|s| s.valid).map(|s| &s.field)
    }

    /// The route field `i` gives `job`, `None` when the goal cannot be reached from
    /// the job's start.
    pub(crate) fn route(&self, i: usize, job: &Job) -> Option<Route> {
        let field = &self.fields.get(i)?.field;
        let cost = field.distance(job.start)?;
        // A field of either connectivity walks in Direction8 steps.
        let steps = field.path8(job.start);
        let end = steps.end(job.start);
        Some(Route {
            steps,
            end,
            cost: cost as f32,
            continues: end != job.goal,
            short: None,
            by_field: true,
        })
    }

    /// Computes a field for `key` in a free cache entry (a new one, or the least recently used
    /// one not used this tick). Returns the entry and the cells it settled.
    fn build(
        &mut self,
        grid: &Grid,
        settings: &PathingSettings,
        key: FieldKey,
        tick: u64,
    ) -> Option<(usize, u64)> {
        let i = if self.fields.len() < settings.max_fields {
            let field = key.field(grid)?;
            self.fields.push(CachedField {
                key,
                field,
                valid: false,
                last_used: tick,
            });
            self.fields.len() - 1
        } else {
            let (i, _) = self
                .fields
                .iter()
                .enumerate()
                .filter(|(_, s)| s.last_used < tick || !s.valid)
                .min_by_key(|(_, s)| (s.valid, s.last_used))?;
            let entry = &mut self.fields[i];
            // Any unit size: a field keeps the scratch of the sizes it served.
            let reusable = entry.field.mobility() == key.mobility
                && entry.field.connectivity() == key.connectivity
                && entry.field.region().max
                    == Cell::new(grid.width() as i32 - 1, grid.height() as i32 - 1);
            if !reusable {
                entry.field = key.field(grid)?;
            }
            entry.field.set_unit_size(key.size).ok()?;
            i
        };
        let entry = &mut self.fields[i];
        entry.key = key;
        entry.valid = false;
        entry.field.clear_goals();
        entry.field.add_goal(key.goal, 0);
        let stats = entry.field.compute(grid).ok()?;
        entry.valid = true;
        Some((i, stats.cells_updated as u64))
    }
}
