//! Builds too long for a tick on big maps (components, landmark guides, jump
//! distances): made on Bevy's async compute pool from a copy of the grid (or of what
//! they are built from), with the cells edited meanwhile kept, so that a finished
//! build is repaired with them before it is used.

use bevy::tasks::{AsyncComputeTaskPool, Task, block_on};
use tilepath::Cell;

/// Grids of more cells than this build the planner's optional items (components, jump
/// distances) in
/// the background; smaller ones build them in the tick that needs them (a few
/// milliseconds at most), so that their first answer already uses them.
pub(crate) const BACKGROUND_CELLS: usize = 1 << 18;

/// The most cells a repair on a grid over [`BACKGROUND_CELLS`] discards or searches in
/// the tick (a field's values dropped, the cells a components' split search crosses):
/// an edit that cuts a big map into large parts would otherwise cost tens of
/// milliseconds on a 1024x1024 map. Past it the item is built again in the
/// background (a field is dropped meanwhile; components stay in use, conservative).
pub(crate) const REPAIR_IN_TICK: usize = 1 << 15;

/// How many edited cells a build of something repaired in time proportional to them
/// (components, landmark guides) catches up on, on a grid of `len` cells, before it
/// starts again: a sixteenth of the grid.
pub(crate) const fn catch_up_limit(len: usize) -> usize {
    let most = len / 16;
    if most > 1024 { most } else { 1024 }
}

/// Whether builds can run in the background: Bevy's async compute pool is there and
/// has a thread of its own (see [`Builds::spawn`]).
pub(crate) fn in_background() -> bool {
    AsyncComputeTaskPool::try_get().is_some_and(|p| p.thread_num() > 0)
}

/// One build under way, for `key`.
struct Building<K, R> {
    key: K,
    task: Task<R>,
    /// The cells edited on the grid since the copy was taken.
    changed: Vec<Cell>,
}

/// The builds under way of one kind of item, by key.
pub(crate) struct Builds<K, R> {
    list: Vec<Building<K, R>>,
}

impl<K, R> Default for Builds<K, R> {
    fn default() -> Self {
        Self { list: Vec::new() }
    }
}

impl<K: PartialEq, R: Send + 'static> Builds<K, R> {
    /// Starts building `key` by `build` from `input` (a copy of what it is built from,
    /// made only if the build starts) on Bevy's async compute pool. Returns false,
    /// starting nothing, where there is no such pool (no `TaskPoolPlugin`) or it has
    /// no thread of its own to run it on (nothing would run the task between ticks):
    /// the caller builds it now instead.
    pub(crate) fn spawn<I: Send + 'static>(
        &mut self,
        key: K,
        input: impl FnOnce() -> I,
        build: impl FnOnce(I) -> R + Send + 'static,
    ) -> bool {
        if !in_background() {
            return false;
        }
        let pool = AsyncComputeTaskPool::get();
        let input = input();
        let task = pool.spawn(async move { build(input) });
        self.list.push(Building {
            key,
            task,
            changed: Vec::new(),
        });
        true
    }

    /// Whether `key` is being built.
    pub(crate) fn contains(&self, key: &K) -> bool {
        self.list.iter().any(|b| &b.key == key)
    }

    /// Notes `cells` as edited: every build catches up on them when it finishes. A
    /// build with more than `most` to catch up on is dropped (a task not yet started
    /// never runs; one running finishes on its thread and its result is discarded), to
    /// be started again from the grid as it is by the next request that needs it, so
    /// that the catching up stays shorter than a build ([`catch_up_limit`] for builds
    /// repaired in time proportional to the cells).
    pub(crate) fn note(&mut self, cells: &[Cell], most: usize) {
        if cells.is_empty() {
            return;
        }
        self.list.retain_mut(|b| {
            b.changed.extend_from_slice(cells);
            b.changed.len() <= most
        });
    }

    /// Hands each finished build to `done` with the cells edited since its copy.
    pub(crate) fn finish(&mut self, mut done: impl FnMut(K, R, &[Cell])) {
        let mut i = 0;
        while i < self.list.len() {
            if !self.list[i].task.is_finished() {
                i += 1;
                continue;
            }
            let b = self.list.swap_remove(i);
            done(b.key, block_on(b.task), &b.changed);
        }
    }

    /// Cancels the builds whose key fails `keep`.
    pub(crate) fn retain(&mut self, keep: impl Fn(&K) -> bool) {
        self.list.retain(|b| keep(&b.key));
    }

    /// Builds under way.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Cancels every build.
    pub(crate) fn clear(&mut self) {
        self.list.clear();
    }
}
