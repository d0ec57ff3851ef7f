//! Persistent solver threads, parked between batches.
//!
//! Spreading a batch over Bevy's `ComputeTaskPool::scope` allocates its tasks (and the
//! executor's queue blocks) on every call. These threads are started once and then
//! woken through a `Mutex`/`Condvar` pair (futexes on Linux), so handing them a batch
//! allocates nothing.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// The work of one round: every thread calls it once, the caller included.
type Task<'a> = dyn Fn() + Sync + 'a;

/// A round's task with its lifetime erased, so parked threads can hold it.
#[derive(Clone, Copy)]
struct TaskPtr(*const Task<'static>);

// SAFETY: the pointee is `Sync`, so calling it from another thread is sound, and
// `SolverThreads::run` does not return (or unwind) before every thread is done with it,
// so the pointer never outlives the borrow it was made from.
#[expect(unsafe_code, reason = "a borrowed task shared with parked threads")]
unsafe impl Send for TaskPtr {}

#[derive(Default)]
struct Round {
    /// Bumped for every round; a thread runs each round's task once.
    epoch: u64,
    task: Option<TaskPtr>,
    /// Threads still inside this round's task.
    running: usize,
    /// A thread's task panicked this round.
    panicked: bool,
    shutdown: bool,
}

#[derive(Default)]
struct Shared {
    round: Mutex<Round>,
    wake: Condvar,
    done: Condvar,
}

impl Shared {
    /// The round state; a panic elsewhere never leaves it inconsistent (every update
    /// is a few plain stores), so a poisoned lock is taken as is.
    fn lock(&self) -> MutexGuard<'_, Round> {
        self.round.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A fixed set of threads that run a borrowed task together with the caller.
pub(crate) struct SolverThreads {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
}

impl SolverThreads {
    /// Starts up to `threads` threads. Where threads cannot be started (e.g. on the web)
    /// it starts fewer, down to none, and `run` does the work on the caller alone.
    pub(crate) fn new(threads: usize) -> Self {
        let shared = Arc::new(Shared::default());
        let mut handles = Vec::with_capacity(threads);
        for i in 0..threads {
            let worker = Arc::clone(&shared);
            match std::thread::Builder::new()
                .name(format!("tilepath-solver-{i}"))
                .spawn(move || work(&worker))
            {
                Ok(handle) => handles.push(handle),
                Err(_) => break,
            }
        }
        Self { shared, handles }
    }

    /// Threads started (not counting the caller).
    pub(crate) fn len(&self) -> usize {
        self.handles.len()
    }

    /// Runs `task` once on every thread and once on the caller, and returns when all
    /// calls have returned. Allocates nothing. A panic in any call is raised here, after
    /// the other calls have finished.
    pub(crate) fn run(&self, task: &Task<'_>) {
        if self.handles.is_empty() {
            task();
            return;
        }
        #[expect(unsafe_code, reason = "erasing the borrow's lifetime")]
        // SAFETY: only the pointer's lifetime changes; `Finish` below waits until no
        // thread uses it any more before this borrow can end.
        let ptr = unsafe { std::mem::transmute::<*const Task<'_>, *const Task<'static>>(task) };
        {
            let mut round = self.shared.lock();
            round.epoch = round.epoch.wrapping_add(1);
            round.task = Some(TaskPtr(ptr));
            round.running = self.handles.len();
            round.panicked = false;
        }
        self.shared.wake.notify_all();

        /// Waits for the threads even when the caller's own call unwinds.
        struct Finish<'a>(&'a Shared);
        impl Drop for Finish<'_> {
            fn drop(&mut self) {
                let mut round = self.0.lock();
                while round.running > 0 {
                    round = self
                        .0
                        .done
                        .wait(round)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                round.task = None;
            }
        }
        let finish = Finish(&self.shared);
        task();
        drop(finish);
        assert!(
            !self.shared.lock().panicked,
            "a tilepath solver thread panicked"
        );
    }
}

impl Drop for SolverThreads {
    fn drop(&mut self) {
        self.shared.lock().shutdown = true;
        self.shared.wake.notify_all();
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

/// A thread's life: wait for a round, run its task, report, repeat.
fn work(shared: &Shared) {
    let mut seen = 0_u64;
    loop {
        let task = {
            let mut round = shared.lock();
            while round.epoch == seen && !round.shutdown {
                round = shared
                    .wake
                    .wait(round)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if round.shutdown {
                return;
            }
            seen = round.epoch;
            round.task
        };
        let ok = task.is_none_or(|TaskPtr(ptr)| {
            catch_unwind(AssertUnwindSafe(|| {
                #[expect(unsafe_code, reason = "calling the borrowed task")]
                // SAFETY: `run` published this pointer for this round and waits for
                // `running` to reach zero, which this thread has not yet signalled, before
                // the borrow ends.
                let task = unsafe { &*ptr };
                task();
            }))
            .is_ok()
        });
        let mut round = shared.lock();
        round.panicked |= !ok;
        round.running -= 1;
        if round.running == 0 {
            shared.done.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_thread_and_the_caller_run_each_round() {
        let threads = SolverThreads::new(3);
        assert_eq!(threads.len(), 3);
        let calls = AtomicUsize::new(0);
        for round in 1..=50 {
            threads.run(&|| {
                calls.fetch_add(1, Ordering::Relaxed);
            });
            assert_eq!(calls.load(Ordering::Relaxed), round * 4);
        }
    }

    #[test]
    fn borrowed_work_is_shared_out_and_finished_before_run_returns() {
        let threads = SolverThreads::new(2);
        let mut data: Vec<u64> = (0..10_000).collect();
        {
            let chunks = Mutex::new(data.chunks_mut(64));
            threads.run(&|| {
                while let Some(chunk) = chunks.lock().unwrap().next() {
                    chunk.iter_mut().for_each(|x| *x *= 2);
                }
            });
        }
        assert!(data.iter().enumerate().all(|(i, &x)| x == 2 * i as u64));
    }

    #[test]
    fn a_panicking_thread_is_reported_and_the_threads_survive() {
        let threads = SolverThreads::new(2);
        let caller = std::thread::current().id();
        let result = catch_unwind(AssertUnwindSafe(|| {
            threads.run(&|| {
                assert_eq!(std::thread::current().id(), caller, "worker panics");
            });
        }));
        assert!(result.is_err());
        let calls = AtomicUsize::new(0);
        threads.run(&|| {
            calls.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(calls.load(Ordering::Relaxed), 3);
    }

    #[test]
    fn no_threads_runs_on_the_caller() {
        let threads = SolverThreads::new(0);
        let calls = AtomicUsize::new(0);
        threads.run(&|| {
            calls.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(calls.load(Ordering::Relaxed), 1);
    }
}
