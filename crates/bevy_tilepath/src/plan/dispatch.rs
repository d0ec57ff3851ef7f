//! Spreading a batch of searches over threads, each with its own solver scratch.

use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use bevy::tasks::{ComputeTaskPool, TaskPool};
use tilepath::Grid;

use super::engine::{Scratch, solve_job};
use super::fields::FieldCache;
use super::job::{Answer, Job};
use super::reach::ReachCache;
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
        reach: &ReachCache,
    ) {
        let window = settings.window_distance;
        self.whole.set_limit(settings.whole_grid_solvers);
        let whole = &self.whole;
        let solve = |job: &mut Job, s: &mut Scratch| {
            if job.answer == Answer::Unsolved {
                solve_job(job, grid, fields, reach.get(job.mobility), s, whole, window);
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
                let takes = Mutex::new(jobs.chunks_mut(per_take));
                let scratches = Mutex::new(self.scratch.iter_mut());
                threads.run(&|| {
                    let Some(s) = lock(&scratches).next() else {
                        return;
                    };
                    while let Some(take) = lock(&takes).next() {
                        for job in take {
                            solve(job, s);
                        }
                    }
                });
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

/// A lock whose holder cannot leave the data half-updated (it only takes the next item).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
