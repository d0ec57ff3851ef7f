//! Whole-grid solvers, shared by the solving threads.
//!
//! A whole-grid solver's scratch is 8 bytes a cell (128 MiB on a 4096x4096 map),
//! while most requests are served by fields and windowed searches whose scratch is
//! small and fixed. So the threads do not each keep one: they borrow one from this pool
//! for each whole-grid search and give it back. The pool makes solvers only when a
//! search needs one and none is free, up to
//! [`whole_grid_solvers`](crate::PathingSettings::whole_grid_solvers); past that a
//! thread waits for one to come back.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use tilepath::Jps;

/// The pool: free solvers, and how many are lent out.
#[derive(Default)]
pub(crate) struct WholeGridPool {
    state: Mutex<State>,
    returned: Condvar,
}

#[derive(Default)]
struct State {
    free: Vec<Jps>,
    lent: usize,
    limit: usize,
}

impl WholeGridPool {
    /// Caps the solvers (at least 1); free ones past the cap are dropped now.
    pub(crate) fn set_limit(&mut self, limit: usize) {
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        state.limit = limit.max(1);
        let keep = state.limit.saturating_sub(state.lent);
        state.free.truncate(keep);
    }

    /// A solver for one search: a free one, a new one if the pool is below its cap,
    /// else the next one given back.
    pub(crate) fn borrow(&self) -> Lent<'_> {
        let mut state = self.lock();
        loop {
            if let Some(solver) = state.free.pop() {
                state.lent += 1;
                return Lent {
                    pool: self,
                    solver: Some(solver),
                };
            }
            if state.lent < state.limit.max(1) {
                state.lent += 1;
                return Lent {
                    pool: self,
                    solver: Some(Jps::whole_grid()),
                };
            }
            state = self
                .returned
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Solvers made and not dropped.
    #[cfg(test)]
    pub(crate) fn solvers(&self) -> usize {
        let state = self.lock();
        state.free.len() + state.lent
    }

    /// A lock whose holder cannot leave the state half-updated (each update is one
    /// push or pop and a count).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A borrowed solver, given back when dropped (also when its search panics: a query
/// resets the scratch it uses, so it serves the next one as well).
pub(crate) struct Lent<'a> {
    pool: &'a WholeGridPool,
    solver: Option<Jps>,
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
        let mut state = self.pool.lock();
        state.lent -= 1;
        if let Some(solver) = self.solver.take()
            && state.free.len() + state.lent < state.limit
        {
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
