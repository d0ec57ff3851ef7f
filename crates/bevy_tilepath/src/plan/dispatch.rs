//! Spreading a batch of searches over threads, each with its own solver scratch.

use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use bevy::tasks::{ComputeTaskPool, TaskPool};
use tilepath::{Clearance, Components, Grid};

use super::engine::{Known, Scratch, solve_job};
use super::fields::FieldCache;
use super::guides::GuideCache;
use super::job::{Answer, Job};
use super::reach::{PerMobility, SizedReach};
use super::threads::SolverThreads;
use super::whole::WholeGridPool;
use crate::{Parallelism, PathingSettings};

/// Jobs handed out at a time, at most: small enough to balance the threads, large enough that
/// taking them is negligible next to solving them (a few microseconds each).
const JOBS_PER_TAKE: usize = 16;

/// The solver scratch of every thread, the whole-grid solvers they share, and the
/// plugin's own threads.
#[derive(Default)]
pub(crate) struct Dispatch {
    scratch: Vec<Scratch>,
    whole: WholeGridPool,
    /// Started on the first batch worth spreading, with the number asked for (fewer may
    /// start where threads are unavailable); restarted if `threads` changes.
    solver_threads: Option<(usize, SolverThreads)>,
}

/// What a grid's plan keeps per mobility (and connectivity) for its searches.
#[derive(Clone, Copy)]
pub(crate) struct Kept<'a> {
    pub(crate) reach: &'a PerMobility<Components>,
    pub(crate) clearance: &'a PerMobility<Clearance>,
    pub(crate) sized_reach: &'a SizedReach,
    pub(crate) guides: &'a GuideCache,
}

impl Dispatch {
    /// Answers every [`Answer::Unsolved`] job of the batch, spread over several threads
    /// when it is large enough. Every job is solved on its own, so results do not
    /// depend on which thread took it.
    pub(crate) fn solve(
        &mut self,
        grid: &Grid,
        settings: &PathingSettings,
        jobs: &mut [Job],
        fields: &FieldCache,
        kept: Kept<'_>,
    ) {
        let Kept {
            reach,
            clearance,
            sized_reach,
            guides,
        } = kept;
        let window = settings.window_distance;
        self.whole.set_limit(settings.whole_grid_solvers);
        let whole = &self.whole;
        let solve = |job: &mut Job, s: &mut Scratch| {
            if job.answer == Answer::Unsolved {
                let known = Known {
                    // A mobility's components tell one-cell units' reach; bigger units
                    // have their footprints'.
                    reach: match job.size {
                        1 => reach.get(job.mobility, job.connectivity),
                        size => sized_reach.get(job.mobility, size),
                    },
                    clearance: clearance.get(job.mobility, job.connectivity),
                    guide: guides.get(job.mobility, job.connectivity),
                };
                solve_job(job, grid, fields, known, s, whole, window);
            }
        };
        let parts = match (settings.threads, settings.parallelism) {
            (0, Parallelism::SolverThreads) => {
                // Asked once: on Linux the answer reads cgroup files (allocating).
                static CORES: OnceLock<usize> = OnceLock::new();
                *CORES.get_or_init(|| {
                    std::thread::available_parallelism().map_or(1, core::num::NonZero::get)
                })
            }
            (0, Parallelism::ComputeTaskPool) => {
                ComputeTaskPool::try_get().map_or(1, |p| p.thread_num() + 1)
            }
            (n, _) => n,
        };
        // A whole-grid search costs as much as hundreds of near ones: two of them are
        // worth spreading, however small the batch.
        let far = jobs
            .iter()
            .filter(|j| j.answer == Answer::Unsolved && j.start.manhattan(j.goal) > window)
            .take(2)
            .count();
        if parts <= 1 || (jobs.len() < settings.parallel_min_batch.max(2) && far < 2) {
            if self.scratch.is_empty() {
                self.scratch.push(Scratch::new());
            }
            for job in jobs.iter_mut() {
                solve(job, &mut self.scratch[0]);
            }
            return;
        }
        match settings.parallelism {
            Parallelism::SolverThreads => {
                let threads = match &self.solver_threads {
                    Some((asked, threads)) if *asked == parts - 1 => threads,
                    _ => {
                        self.solver_threads = None; // joins the old threads first
                        &self
                            .solver_threads
                            .insert((parts - 1, SolverThreads::new(parts - 1)))
                            .1
                    }
                };
                while self.scratch.len() < threads.len() + 1 {
                    self.scratch.push(Scratch::new());
                }
                // Small batches (a few far searches) go a job at a time, so that every
                // thread gets some.
                let per_take = (jobs.len() / (4 * parts)).clamp(1, JOBS_PER_TAKE);
                share_out(threads, jobs, per_take, &mut self.scratch, &solve);
            }
            Parallelism::ComputeTaskPool => {
                while self.scratch.len() < parts {
                    self.scratch.push(Scratch::new());
                }
                let chunk = jobs.len().div_ceil(parts);
                let solve = &solve;
                ComputeTaskPool::get_or_init(TaskPool::default).scope(|s| {
                    for (part, scratch) in jobs.chunks_mut(chunk).zip(self.scratch.iter_mut()) {
                        s.spawn(async move {
                            for job in part {
                                solve(job, scratch);
                            }
                        });
                    }
                });
            }
        }
    }
}

/// Solves `jobs` on `threads` and the caller, each with a scratch of its own from
/// `scratches` (at least one per thread and the caller), handing out `per_take` jobs at
/// a time.
fn share_out<J: Send, S: Send>(
    threads: &SolverThreads,
    jobs: &mut [J],
    per_take: usize,
    scratches: &mut [S],
    solve: &(dyn Fn(&mut J, &mut S) + Sync),
) {
    let takes = Mutex::new(jobs.chunks_mut(per_take.max(1)));
    let scratches = Mutex::new(scratches.iter_mut());
    threads.run(&|| {
        let Some(s) = lock(&scratches).next() else {
            return;
        };
        loop {
            // The lock is let go at the end of this statement: a `while let` would hold
            // it while the jobs are solved, one thread at a time.
            let take = lock(&takes).next();
            let Some(take) = take else { break };
            for job in take {
                solve(job, s);
            }
        }
    });
}

/// A lock whose holder cannot leave the data half-updated (it only takes the next item).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Condvar;
    use std::time::Duration;

    /// Two jobs, a solver thread and the caller: each job waits until the other one has
    /// started. Threads that took jobs one at a time would never both be inside.
    #[test]
    fn threads_solve_their_jobs_at_the_same_time() {
        let threads = SolverThreads::new(1);
        assert_eq!(threads.len(), 1, "no thread could be started here");
        let inside = Mutex::new(0_usize);
        let both = Condvar::new();
        let mut jobs = [false, false];
        let mut scratches = [(), ()];
        share_out(
            &threads,
            &mut jobs,
            1,
            &mut scratches,
            &|met: &mut bool, _| {
                let mut n = lock(&inside);
                *n += 1;
                both.notify_all();
                let (n, timeout) = both
                    .wait_timeout_while(n, Duration::from_secs(20), |n| *n < 2)
                    .unwrap_or_else(PoisonError::into_inner);
                *met = !timeout.timed_out() && *n == 2;
            },
        );
        assert_eq!(jobs, [true, true], "a job never met the other");
    }
}
