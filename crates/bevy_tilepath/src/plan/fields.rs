//! Shared distance fields: one per (goal, mobility, connectivity, unit size) that enough units head
//! for, kept across ticks, repaired after grid edits, reused least recently used first.
//! On grids too big to compute one in a tick, a field for a new goal is computed in the
//! background (`background.rs`) while its requests wait.

use std::collections::{HashMap, VecDeque};

use bevy::prelude::Entity;

use tilepath::{Cell, Connectivity, DistanceField, Grid, Mobility};

use super::Lane;
use super::background::{BACKGROUND_CELLS, Builds, REPAIR_IN_TICK, catch_up_limit, in_background};
use super::job::{Answer, Job, Route};
use crate::grid::{ChangeCursor, Changes};
use crate::{PathingGrid, PathingSettings, SearchMode};

/// Repairs touching up to this many cells allocate nothing (20 bytes per cell).
const REPAIR_RESERVE: usize = 1 << 16;

/// What a field answers: the distances to `goal` of units of `mobility` and `size`
/// moving as `connectivity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FieldKey {
    pub(crate) goal: Cell,
    pub(crate) mobility: Mobility,
    pub(crate) connectivity: Connectivity,
    pub(crate) size: u8,
}

/// A kept field as found at one time ([`FieldCache::find`]): its entry, and the serial
/// the entry had then. An entry is reused for other goals, so a reference kept across
/// ticks finds its field only while the entry still holds the field it was found for
/// ([`FieldCache::get`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FieldRef {
    index: u32,
    serial: u32,
}

impl FieldRef {
    /// A reference that finds no field.
    pub(crate) const NONE: Self = Self {
        index: u32::MAX,
        serial: 0,
    };
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

    /// A field for this key computed on `grid` (a copy of the grid, in the background).
    fn computed(self, grid: &Grid) -> Option<DistanceField> {
        let mut field = self.field(grid)?;
        field.add_goal(self.goal, 0);
        field.compute(grid).ok()?;
        Some(field)
    }
}

/// Computes `key`'s field on the async pool from a copy of `grid`, unless that is under
/// way already; whether it is under way (`false` where the pool cannot run it: see
/// [`Builds::spawn`]).
fn build_apart(
    building: &mut Builds<FieldKey, Option<DistanceField>>,
    grid: &Grid,
    key: FieldKey,
) -> bool {
    building.contains(&key)
        || building.spawn(
            key,
            || grid.try_clone().ok(),
            move |copy| copy.and_then(|g| key.computed(&g)),
        )
}

/// Whether a field may serve `job`: one left to the plugin's choice, not answered up
/// front (bad input, unfit goals need no field).
fn wants_field(job: &Job) -> bool {
    job.mode == SearchMode::Auto && job.answer == Answer::Unsolved
}

struct CachedField {
    key: FieldKey,
    field: DistanceField,
    /// Holds a computed field for `key` on the current grid.
    valid: bool,
    /// Told apart from every other field the cache computed or took (see
    /// [`FieldRef`]): set whenever the entry becomes valid.
    serial: u32,
    last_used: u64,
}

/// One grid's shared fields: built for the goals enough requests of a batch head for,
/// repaired after edits, reused least recently used first. On grids of more than
/// [`BACKGROUND_CELLS`] a field for a new goal is computed on the async pool from a
/// copy of the grid, and caught up on the edits made meanwhile when it is taken; its
/// requests are parked ([`park`](Self::park)) until it is taken, or its build given up,
/// and then served first, each for the goal it waited for if that has moved on. So is
/// a kept field whose repair after an edit would compute it in full (most of the map
/// cut off from its goal): it is dropped and computed again the same way.
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
    /// Fields finished in the background and kept by the last
    /// [`maintain`](Self::maintain).
    finished: u32,
    /// Fields being computed in the background, each from a copy of the grid.
    building: Builds<FieldKey, Option<DistanceField>>,
    /// A key whose background computation failed (out of memory): computed in the
    /// tick the next time it is wanted.
    in_tick: Option<FieldKey>,
    /// Requests waiting for a field being built: the unit, where it was queued, and
    /// the field's key, in the order they were taken.
    parked: Vec<(Entity, (u64, Lane), FieldKey)>,
    /// The serial given to the field made valid last (0: none yet).
    latest: u32,
}

impl FieldCache {
    /// Brings the kept fields in step with the grid: repairs them after edits, forgets
    /// them when the grid was replaced, and takes the fields finished in the background
    /// (caught up on the edits since their copy). Returns the work done (cells
    /// updated); nothing is repaired, and no work done, when no cell was set since the
    /// last call.
    pub(crate) fn maintain(
        &mut self,
        grid: &PathingGrid,
        settings: &PathingSettings,
        tick: u64,
    ) -> u64 {
        // Counted afresh on every call: a tick without edits repairs nothing.
        self.repaired = 0;
        self.finished = 0;
        let changes = grid.take_changes(&mut self.cursor);
        let g = grid.grid();
        self.repair.clear();
        match changes {
            Changes::Replaced => {
                self.fields.clear();
                self.building.clear();
                return 0;
            }
            Changes::Cells(cells) => {
                self.seen.resize(g.len().div_ceil(64), 0);
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
            }
        }
        let mut work = 0;
        if !self.repair.is_empty() {
            self.building.note(&self.repair, catch_up_limit(g.len()));
            // On a big grid a repair that would discard more than `REPAIR_IN_TICK`
            // values (an edit that cuts off much of the field) gives up, and the field
            // is computed again in the background from the grid as it is now.
            let apart = g.len() > BACKGROUND_CELLS && in_background();
            for entry in self.fields.iter_mut().filter(|s| s.valid) {
                let repaired = if apart {
                    entry.field.repair_within(g, &self.repair, REPAIR_IN_TICK)
                } else {
                    entry.field.repair(g, &self.repair).map(Some)
                };
                match repaired {
                    Ok(Some(stats)) => {
                        work += (stats.cells_updated + stats.cells_invalidated) as u64;
                        self.repaired += 1;
                    }
                    Ok(None) => {
                        entry.valid = false;
                        build_apart(&mut self.building, g, entry.key);
                    }
                    Err(_) => entry.valid = false,
                }
            }
        }
        let mut building = std::mem::take(&mut self.building);
        building.finish(|key, field, changed| {
            let caught_up = field.and_then(|mut f| {
                let stats = f.repair(g, changed).ok()?;
                work += (stats.cells_updated + stats.cells_invalidated) as u64;
                Some(f)
            });
            match caught_up {
                Some(f) => {
                    if self.adopt(settings, key, f, tick) {
                        self.finished += 1;
                    }
                }
                None => self.in_tick = Some(key),
            }
        });
        self.building = building;
        work
    }

    /// Fields finished in the background and kept by the last
    /// [`maintain`](Self::maintain).
    pub(crate) fn finished(&self) -> u32 {
        self.finished
    }

    /// Sets `job` aside until the field it waits for ([`Answer::Wait`]) is built, or its
    /// build is given up.
    pub(crate) fn park(&mut self, job: &Job) {
        self.parked
            .push((job.entity, job.queued, FieldKey::of(job)));
    }

    /// Whether `job` wants a field (see [`assign`](Self::assign)) that is being built:
    /// it waits for it.
    pub(crate) fn is_building_for(&self, job: &Job) -> bool {
        wants_field(job) && job.waited_for.is_none() && self.building.contains(&FieldKey::of(job))
    }

    /// Moves the requests whose field is no longer being built (finished, failed, or
    /// given up after too many edits) into `out`, in the order they were parked.
    pub(crate) fn release(&mut self, out: &mut VecDeque<(Entity, (u64, Lane), Cell)>) {
        let building = &self.building;
        self.parked.retain(|&(entity, queued, key)| {
            let done = !building.contains(&key);
            if done {
                out.push_back((entity, queued, key.goal));
            }
            !done
        });
    }

    /// Gives up every field being built (their requests are then released).
    pub(crate) fn drop_builds(&mut self) {
        self.building.clear();
    }

    /// Fields being built in the background.
    pub(crate) fn building(&self) -> u32 {
        self.building.len() as u32
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
        for job in jobs.iter().filter(|j| wants_field(j)) {
            *self.counts.entry(FieldKey::of(job)).or_insert(0) += 1;
        }
        let (mut work, mut built) = (0, 0);
        for job in jobs.iter_mut().filter(|j| wants_field(j)) {
            let key = FieldKey::of(job);
            let found = self.fields.iter().position(|s| s.valid && s.key == key);
            // A request that waited for a field already (its goal moved on since, as a
            // chased target does) is served from that one while its goal's field is
            // not there: it waits once at most.
            let before = || {
                let goal = job.waited_for?;
                let then = FieldKey { goal, ..key };
                self.fields.iter().position(|s| s.valid && s.key == then)
            };
            let wanted =
                self.counts.get(&key).copied().unwrap_or(0) as usize >= settings.field_threshold;
            let entry = match found {
                Some(i) => Some(i),
                None if wanted => {
                    // Too big for the tick: computed in the background (unless the
                    // pool cannot run it, or it failed there: then now).
                    let apart = grid.len() > BACKGROUND_CELLS
                        && self.in_tick != Some(key)
                        && build_apart(&mut self.building, grid, key);
                    match before() {
                        Some(i) if apart => Some(i),
                        None if apart && job.waited_for.is_none() => {
                            job.answer = Answer::Wait;
                            continue;
                        }
                        _ => {
                            if self.in_tick == Some(key) {
                                self.in_tick = None;
                            }
                            self.build(grid, settings, key, tick).map(|(i, cells)| {
                                built += 1;
                                work += cells;
                                i
                            })
                        }
                    }
                }
                None => before(),
            };
            if let Some(i) = entry {
                job.goal = self.fields[i].key.goal;
            }
            if let Some(i) = entry {
                self.fields[i].last_used = tick;
                job.field = Some(i);
            }
        }
        (work, built)
    }

    /// The computed field for `key`, if one is kept: what a crowd steps units heading
    /// for its goal by.
    pub(crate) fn find(&self, key: &FieldKey) -> Option<FieldRef> {
        let (i, s) = self
            .fields
            .iter()
            .enumerate()
            .find(|(_, s)| s.valid && s.key == *key)?;
        Some(FieldRef {
            index: i as u32,
            serial: s.serial,
        })
    }

    /// The field `r` was found for, if it is still kept and computed on the grid as it
    /// is.
    pub(crate) fn get(&self, r: FieldRef) -> Option<&DistanceField> {
        self.fields
            .get(r.index as usize)
            .filter(|s| s.valid && s.serial == r.serial)
            .map(|s| &s.field)
    }

    /// The serial of the field made valid last: while it is unchanged, no field was
    /// computed or taken, and a key [`find`](Self::find) did not find is still not kept.
    pub(crate) fn latest(&self) -> u32 {
        self.latest
    }

    /// A new serial for an entry made valid.
    fn next_serial(&mut self) -> u32 {
        self.latest = self.latest.wrapping_add(1).max(1);
        self.latest
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

    /// Keeps `field`, computed for `key` on the grid as it is, in a free cache entry
    /// (a new one, or the least recently used one not used this tick). `false` if
    /// there was none, or a field for `key` is kept already.
    fn adopt(
        &mut self,
        settings: &PathingSettings,
        key: FieldKey,
        field: DistanceField,
        tick: u64,
    ) -> bool {
        // Computed in the tick meanwhile (a request could not wait).
        if self.fields.iter().any(|s| s.valid && s.key == key) {
            return false;
        }
        let entry = CachedField {
            key,
            field,
            valid: true,
            serial: self.next_serial(),
            last_used: tick,
        };
        if self.fields.len() < settings.max_fields {
            self.fields.push(entry);
        } else if let Some(i) = self.least_used(tick) {
            self.fields[i] = entry;
        } else {
            return false;
        }
        true
    }

    /// The entry to reuse: not used this tick, invalid ones first, then the least
    /// recently used.
    fn least_used(&self, tick: u64) -> Option<usize> {
        self.fields
            .iter()
            .enumerate()
            .filter(|(_, s)| s.last_used < tick || !s.valid)
            .min_by_key(|(_, s)| (s.valid, s.last_used))
            .map(|(i, _)| i)
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
                serial: 0,
                last_used: tick,
            });
            self.fields.len() - 1
        } else {
            let i = self.least_used(tick)?;
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
        let serial = self.next_serial();
        self.fields[i].serial = serial;
        Some((i, stats.cells_updated as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(goal: Cell) -> FieldKey {
        FieldKey {
            goal,
            mobility: Mobility::ALL_PASSABLE,
            connectivity: Connectivity::Eight,
            size: 1,
        }
    }

    /// A reference kept across ticks finds its field only while the entry holds it:
    /// once the entry is reused for another goal, the reference finds nothing (a crowd
    /// guided by it falls back on its route until its field is looked for again),
    /// and looking again finds the field where it now is.
    #[test]
    fn a_reference_does_not_follow_its_entry_to_another_field() {
        let grid = Grid::new(16, 16).unwrap();
        let settings = PathingSettings {
            max_fields: 1,
            ..PathingSettings::default()
        };
        let mut cache = FieldCache::default();
        let (a, b) = (key(Cell::new(1, 1)), key(Cell::new(14, 14)));
        assert_eq!(cache.find(&a), None);
        assert_eq!(cache.latest(), 0);
        cache.build(&grid, &settings, a, 1).unwrap();
        let found = cache.find(&a).unwrap();
        let at = |cache: &FieldCache, r| cache.get(r).and_then(|f| f.distance(Cell::new(1, 2)));
        assert_eq!(at(&cache, found), Some(1.0));
        let before = cache.latest();
        // The one entry is reused for `b`, in a later tick.
        cache.build(&grid, &settings, b, 2).unwrap();
        assert!(cache.latest() != before);
        assert!(
            cache.get(found).is_none(),
            "a reference found another goal's field"
        );
        assert_eq!(cache.find(&a), None);
        let now = cache.find(&b).unwrap();
        assert!(at(&cache, now).unwrap() > 10.0);
        // Computed again in the same entry, `a` is another field: found anew.
        cache.build(&grid, &settings, a, 3).unwrap();
        assert!(cache.get(now).is_none());
        assert!(cache.get(found).is_none());
        assert!(cache.get(cache.find(&a).unwrap()).is_some());
        assert!(cache.get(FieldRef::NONE).is_none());
    }
}
