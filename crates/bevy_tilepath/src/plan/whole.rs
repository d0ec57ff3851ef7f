//! Whole-grid solvers, shared by the solving threads.
//!
//! A whole-grid solver's scratch is 8 bytes a cell (128 MiB on a 4096x4096 map),
//! while most requests are served by fields and windowed searches whose scratch is
//! small and fixed. So the threads do not each keep one: they borrow one from this pool
//! for each whole-grid search and give it back. The pool makes solvers only when a
//! search needs one and none is free, up to
//! [`whole_grid_solvers`](crate::PathingSettings::whole_grid_solvers); past that a
//! thread waits for one to come back.
//!
//! A search the tick's time cap stopped part-way keeps its solver (its scratch holds
//! the search), [`Paused`] here under its unit, until the unit's request is taken up
//! again; paused solvers count towards the cap.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use bevy::prelude::Entity;
use tilepath::Jps;

use crate::grid::{ChangeCursor, GridKey};

/// Which search a paused solver holds: the unit's, on a grid as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SearchKey {
    pub(crate) entity: Entity,
    pub(crate) grid: GridKey,
    /// Where the grid's change log stood: an edit since the pause, or another grid
    /// put in its place, means starting over.
    pub(crate) version: ChangeCursor,
}

/// A search paused at the end of a tick, with its solver.
struct Paused {
    key: SearchKey,
    solver: Jps,
    /// What it has done so far, as lent ([`Lent::done`]).
    done: Done,
    /// The pathing tick it paused at.
    tick: u64,
}

/// What a search has done over the ticks it ran in.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Done {
    /// Jump points expanded in the parts before this tick's.
    pub(crate) expanded: u64,
    /// The time those parts took, in nanoseconds.
    pub(crate) nanos: u64,
    /// Times it had to start over (the grid edited while it was paused).
    pub(crate) restarts: u8,
}

/// The pool: free solvers, and how many are lent out.
#[derive(Default)]
pub(crate) struct WholeGridPool {
    state: Mutex<State>,
    returned: Condvar,
    /// How many searches are paused (as `state.paused` holds), read without the
    /// lock: mostly none, and [`holds`](Self::holds) is asked for every near search.
    paused_now: AtomicUsize,
}

#[derive(Default)]
struct State {
    free: Vec<Jps>,
    lent: usize,
    limit: usize,
    paused: Vec<Paused>,
}

impl WholeGridPool {
    /// Caps the solvers (at least 1); free ones past the cap are dropped now.
    pub(crate) fn set_limit(&mut self, limit: usize) {
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        state.limit = limit.max(1);
        let keep = state.limit.saturating_sub(state.lent + state.paused.len());
        state.free.truncate(keep);
    }

    /// A solver for one search: a free one, a new one if the pool is below its cap,
    /// else the next one given back.
    #[cfg(test)]
    pub(crate) fn borrow(&self) -> Lent<'_> {
        self.borrow_for(None)
            .expect("no search paused: a solver comes back")
    }

    /// A solver for the search of `key`: the one paused for its unit (its search
    /// taken up where it stopped, or started over if the grid changed since), else as
    /// [`borrow`](Self::borrow). `None` where every solver the cap allows holds a
    /// paused search of another unit: none comes back this tick.
    pub(crate) fn borrow_for(&self, key: Option<SearchKey>) -> Option<Lent<'_>> {
        let mut state = self.lock();
        if let Some(key) = key
            && let Some(i) = state.paused.iter().position(|p| p.key.entity == key.entity)
        {
            let Paused {
                key: was,
                mut solver,
                mut done,
                ..
            } = state.paused.swap_remove(i);
            self.paused_now.store(state.paused.len(), Ordering::Relaxed);
            if was != key {
                solver.abandon();
                done.restarts = done.restarts.saturating_add(1);
                done.expanded = 0;
                done.nanos = 0;
            }
            state.lent += 1;
            return Some(Lent {
                pool: self,
                solver: Some(solver),
                key: Some(key),
                done,
            });
        }
        loop {
            let made = state.lent + state.paused.len();
            let solver = match state.free.pop() {
                Some(solver) => Some(solver),
                None if made < state.limit.max(1) => Some(Jps::whole_grid()),
                // Every solver waits, paused, for a unit served on a later tick.
                None if state.lent == 0 => return None,
                None => None,
            };
            if let Some(solver) = solver {
                state.lent += 1;
                return Some(Lent {
                    pool: self,
                    solver: Some(solver),
                    key,
                    done: Done::default(),
                });
            }
            state = self
                .returned
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Drops the searches paused before `tick` (their units were not served since:
    /// gone, or asking for something else), freeing their solvers.
    pub(crate) fn forget_paused_before(&mut self, tick: u64) {
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        let mut i = 0;
        while i < state.paused.len() {
            if state.paused[i].tick < tick {
                let mut solver = state.paused.swap_remove(i).solver;
                solver.abandon();
                state.free.push(solver);
            } else {
                i += 1;
            }
        }
        *self.paused_now.get_mut() = state.paused.len();
    }

    /// Whether a search for `entity` is paused here.
    pub(crate) fn holds(&self, entity: Entity) -> bool {
        self.paused_now.load(Ordering::Relaxed) > 0
            && self.lock().paused.iter().any(|p| p.key.entity == entity)
    }

    /// Searches paused.
    pub(crate) fn paused(&self) -> usize {
        self.paused_now.load(Ordering::Relaxed)
    }

    /// Solvers made and not dropped.
    #[cfg(test)]
    pub(crate) fn solvers(&self) -> usize {
        let state = self.lock();
        state.free.len() + state.lent + state.paused.len()
    }

    /// A lock whose holder cannot leave the state half-updated (each update is one
    /// push or pop and a count).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A borrowed solver, given back when dropped (also when its search panics: a query
/// resets the scratch it uses, so it serves the next one as well); kept for its unit
/// if its search paused ([`pause`](Self::pause)).
pub(crate) struct Lent<'a> {
    pool: &'a WholeGridPool,
    solver: Option<Jps>,
    /// The search it is lent for, if it may pause.
    key: Option<SearchKey>,
    /// What that search did before this tick.
    pub(crate) done: Done,
}

impl Lent<'_> {
    /// Keeps the solver, its search paused, for its unit's next turn at pathing
    /// `tick`, with what the search has `done`. A solver lent for no unit is given
    /// back, its search dropped.
    pub(crate) fn pause(mut self, tick: u64, done: Done) {
        let Some(key) = self.key else {
            return; // dropped: given back, its search abandoned
        };
        let Some(solver) = self.solver.take() else {
            return;
        };
        let mut state = self.pool.lock();
        state.lent -= 1;
        state.paused.push(Paused {
            key,
            solver,
            done,
            tick,
        });
        self.pool
            .paused_now
            .store(state.paused.len(), Ordering::Relaxed);
        drop(state);
        self.pool.returned.notify_one();
    }
}

impl core::ops::Deref for Lent<'_> {
    type Target = Jps;
    fn deref(&self) -> &Jps {
        self.solver.as_ref().expect("a lent solver until dropped")
    }
}

impl core::ops::DerefMut for Lent<'_> {
    fn deref_mut(&mut self) -> &mut Jps {
        self.solver.as_mut().expect("a lent solver until dropped")
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        let Some(mut solver) = self.solver.take() else {
            return; // kept, paused
        };
        // A search left part-way without `pause` (a panic) is not taken up.
        solver.abandon();
        let mut state = self.pool.lock();
        state.lent -= 1;
        if state.free.len() + state.lent + state.paused.len() < state.limit {
            state.free.push(solver);
        }
        drop(state);
        self.pool.returned.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn solvers_are_made_on_demand_up_to_the_cap_and_reused() {
        let mut pool = WholeGridPool::default();
        pool.set_limit(2);
        assert_eq!(pool.solvers(), 0);
        {
            let _a = pool.borrow();
            assert_eq!(pool.solvers(), 1);
        }
        {
            let _a = pool.borrow();
            let _b = pool.borrow();
            assert_eq!(pool.solvers(), 2);
        }
        assert_eq!(pool.solvers(), 2);
        pool.set_limit(1);
        assert_eq!(pool.solvers(), 1);
    }

    #[test]
    fn threads_past_the_cap_wait_for_a_solver() {
        let mut pool = WholeGridPool::default();
        pool.set_limit(1);
        let most = AtomicUsize::new(0);
        let now = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..50 {
                        let _lent = pool.borrow();
                        let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(n, Ordering::SeqCst);
                        std::thread::yield_now();
                        now.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 1);
        assert_eq!(pool.solvers(), 1);
    }

    /// A paused search keeps its solver for its unit, counted towards the cap: its
    /// unit gets it back with what it did; after an edit it starts over, counted; a
    /// unit whose search was not taken up for ticks frees it.
    #[test]
    fn paused_searches_keep_their_solvers_for_their_units() {
        let mut pool = WholeGridPool::default();
        pool.set_limit(1);
        // The grid as it is, and after an edit.
        let mut grid = crate::PathingGrid::new(tilepath::Grid::new(4, 4).expect("a grid"));
        let before = grid.change_cursor();
        grid.set(tilepath::Cell::new(1, 1), tilepath::TileKind::K1)
            .expect("a cell");
        let versions = [before, grid.change_cursor()];
        let key = |n, edits: usize| SearchKey {
            entity: Entity::from_raw_u32(n).expect("an index"),
            grid: None,
            version: versions[edits],
        };
        let lent = pool.borrow_for(Some(key(1, 0))).expect("a solver");
        let done = Done {
            expanded: 64,
            nanos: 1000,
            restarts: 0,
        };
        lent.pause(5, done);
        assert_eq!(pool.paused(), 1);
        assert!(pool.holds(key(1, 0).entity) && !pool.holds(key(2, 0).entity));
        // The one solver holds another unit's search: none this tick.
        assert!(pool.borrow_for(Some(key(2, 0))).is_none());
        let lent = pool.borrow_for(Some(key(1, 0))).expect("its solver");
        assert_eq!((lent.done.expanded, lent.done.restarts), (64, 0));
        assert_eq!(pool.paused(), 0);
        lent.pause(6, done);
        let lent = pool.borrow_for(Some(key(1, 1))).expect("its solver");
        assert_eq!((lent.done.expanded, lent.done.restarts), (0, 1));
        lent.pause(7, done);
        pool.forget_paused_before(7);
        assert_eq!(pool.paused(), 1);
        pool.forget_paused_before(8);
        assert_eq!(pool.paused(), 0);
        assert!(!pool.holds(key(1, 0).entity));
        assert!(pool.borrow_for(Some(key(2, 0))).is_some());
        assert_eq!(pool.solvers(), 1);
    }

    #[test]
    fn a_panicking_search_gives_its_slot_back() {
        let mut pool = WholeGridPool::default();
        pool.set_limit(1);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _lent = pool.borrow();
            panic!("search failed");
        }));
        assert!(r.is_err());
        let _again = pool.borrow(); // would wait forever if the slot were lost
        assert_eq!(pool.solvers(), 1);
    }
}
