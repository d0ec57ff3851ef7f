//! Spreading a batch of searches over Bevy's compute task pool, each task with its
//! own solver scratch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use bevy::platform::time::Instant;
use bevy::tasks::{ComputeTaskPool, TaskPool};
use tilepath::Grid;

use super::derived::DerivedSet;
use super::engine::{Pausing, Scratch, solve_job};
use super::fields::FieldCache;
use super::job::{Answer, Job};
use super::whole::WholeGridPool;
use crate::{MapLayout, PathingSettings};

/// Jobs handed out at a time, at most: small enough to balance the threads, large enough that
/// taking them is negligible next to solving them (a few microseconds each).
const JOBS_PER_TAKE: usize = 16;

/// When a batch's searches stop (see [`Dispatch::solve`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    /// No search starts after this.
    pub(crate) at: Instant,
    /// One search starts whatever the time: the grid has served nobody yet this
    /// tick, and every queue must move every tick.
    pub(crate) one_anyway: bool,
    /// When whole-grid searches under way pause, to go on at their units' next turn.
    pub(crate) pausing: Pausing,
}

/// The solver scratch of every task, and the whole-grid solvers they share.
#[derive(Default)]
pub(crate) struct Dispatch {
    scratch: Vec<Scratch>,
    whole: WholeGridPool,
}

impl Dispatch {
    /// Answers every [`Answer::Unsolved`] job of the batch, spread over tasks of Bevy's
    /// `ComputeTaskPool` when it is large enough, and with `straight` (the grid's layout
    /// where routes are pulled straight) pulls every route found straight. Every job
    /// is solved on its own, so results do not depend on which task took it. Returns
    /// the number of tasks it ran on (1: not spread).
    ///
    /// Past a [`Deadline`] no task starts a search, and none after a job left: the
    /// jobs not started stay [`Answer::Unsolved`], for the caller to queue again; a
    /// whole-grid search under way then pauses ([`Answer::Paused`], see
    /// [`Pausing`]). A batch's size is only an estimate (a far search costs what
    /// hundreds of near ones do), so this is what holds the tick to its time cap: it
    /// overshoots by the windowed searches under way at the deadline and a part of a
    /// whole-grid one, not by the rest of the batch. Each answered job's
    /// [`nanos`](Job::nanos) says what it took.
    #[expect(clippy::too_many_arguments, reason = "what one batch's searches read")]
    pub(crate) fn solve(
        &mut self,
        grid: &Grid,
        settings: &PathingSettings,
        jobs: &mut [Job],
        fields: &FieldCache,
        derived: &DerivedSet,
        straight: Option<MapLayout>,
        deadline: Option<Deadline>,
    ) -> usize {
        let window = settings.window_distance;
        self.whole.set_limit(settings.whole_grid_solvers);
        let whole = &self.whole;
        let one_anyway = AtomicBool::new(deadline.is_some_and(|d| d.one_anyway));
        let stopped = AtomicBool::new(false);
        let solve = |job: &mut Job, s: &mut Scratch| {
            if job.answer != Answer::Unsolved || stopped.load(Ordering::Relaxed) {
                return;
            }
            let started = Instant::now();
            if let Some(d) = deadline {
                // The first search to come takes the one start owed, late or not.
                if !one_anyway.swap(false, Ordering::Relaxed) && started >= d.at {
                    stopped.store(true, Ordering::Relaxed);
                    return;
                }
            }
            let known = derived.known(job, settings);
            let pausing = deadline.map(|d| d.pausing);
            solve_job(job, grid, fields, known, s, whole, window, pausing);
            if job.answer == Answer::Paused {
                return;
            }
            if let Some(layout) = straight {
                s.straighten.job(grid, layout, job);
            }
            // Plus what a search paused on earlier ticks took then.
            job.nanos += started.elapsed().as_nanos() as u64;
        };
        let pool = ComputeTaskPool::try_get();
        let parts = Self::tasks(settings);
        // A whole-grid search costs as much as hundreds of near ones: two of them are
        // worth spreading, however small the batch.
        let far = jobs
            .iter()
            .filter(|j| j.answer == Answer::Unsolved && j.is_far(window))
            .take(2)
            .count();
        let worth = jobs.len() >= settings.parallel_min_batch.max(2) || far >= 2;
        let Some(pool) = pool.filter(|_| parts > 1 && worth) else {
            solve_here(&mut self.scratch, jobs, &solve);
            return 1;
        };
        while self.scratch.len() < parts {
            self.scratch.push(Scratch::new());
        }
        // Small batches (a few far searches) go a job at a time, so that every task
        // gets some.
        let per_take = (jobs.len() / (4 * parts)).clamp(1, JOBS_PER_TAKE);
        share_out(pool, jobs, per_take, &mut self.scratch[..parts], &solve);
        parts
    }

    /// Drops the searches paused before `tick`: their units were not served since.
    pub(crate) fn forget_paused_before(&mut self, tick: u64) {
        self.whole.forget_paused_before(tick);
    }

    /// Searches paused, on every grid.
    pub(crate) fn paused(&self) -> u32 {
        self.whole.paused() as u32
    }

    /// The tasks a batch large enough is spread over. Without Bevy's compute pool (no
    /// `TaskPoolPlugin`) everything runs on the caller: the plugin starts no threads
    /// of its own.
    pub(crate) fn tasks(settings: &PathingSettings) -> usize {
        match (ComputeTaskPool::try_get(), settings.threads) {
            (None, _) => 1,
            (Some(pool), 0) => pool.thread_num() + 1,
            (Some(_), n) => n,
        }
    }
}

/// Solves `jobs` one after the other on the calling thread, with the first scratch.
fn solve_here(
    scratch: &mut Vec<Scratch>,
    jobs: &mut [Job],
    solve: &impl Fn(&mut Job, &mut Scratch),
) {
    if scratch.is_empty() {
        scratch.push(Scratch::new());
    }
    for job in jobs.iter_mut() {
        solve(job, &mut scratch[0]);
    }
}

/// Solves `jobs` in one task per scratch of `scratches` on `pool` (the caller runs
/// tasks too while it waits), handing out `per_take` jobs at a time, so that a task
/// that drew slow jobs takes fewer. Bevy's `scope` allocates its tasks: a few
/// allocations a call, whatever the number of jobs.
fn share_out<J: Send, S: Send>(
    pool: &TaskPool,
    jobs: &mut [J],
    per_take: usize,
    scratches: &mut [S],
    solve: &(dyn Fn(&mut J, &mut S) + Sync),
) {
    let takes = Mutex::new(jobs.chunks_mut(per_take.max(1)));
    let takes = &takes;
    pool.scope(|scope| {
        for s in scratches.iter_mut() {
            scope.spawn(async move {
                loop {
                    // The lock is let go at the end of this statement: a `while let`
                    // would hold it while the jobs are solved, one task at a time.
                    let take = lock(takes).next();
                    let Some(take) = take else { break };
                    for job in take {
                        solve(job, s);
                    }
                }
            });
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
    use core::time::Duration;
    use std::sync::Condvar;

    /// Past its deadline a batch starts no search, and once one is left none after
    /// it: one search whatever the time if it owes one; without a deadline, or before
    /// it, it answers every job.
    #[test]
    fn a_deadline_leaves_the_searches_not_started_by_it_unsolved() {
        use super::super::Lane;
        use crate::{SearchMode, Waypoints};
        use bevy::prelude::Entity;
        use tilepath::{Cell, Connectivity, Mobility};

        let grid = Grid::new(256, 256).unwrap();
        let settings = PathingSettings::default();
        let (fields, derived) = (FieldCache::default(), DerivedSet::default());
        let batch = |deadline: Option<Deadline>| {
            let mut jobs: Vec<Job> = (0..8)
                .map(|i| Job {
                    entity: Entity::PLACEHOLDER,
                    queued: (i, Lane::Request),
                    start: Cell::new(0, 0),
                    goal: Cell::new(255, i as i32),
                    mobility: Mobility::FLOOR_ONLY,
                    connectivity: Connectivity::Eight,
                    mode: SearchMode::Auto,
                    max_expansions: u32::MAX,
                    size: 1,
                    field: None,
                    waited_for: None,
                    answer: Answer::Unsolved,
                    work: 0,
                    nanos: 0,
                    waypoints: Waypoints::default(),
                })
                .collect();
            let mut dispatch = Dispatch::default();
            dispatch.solve(
                &grid, &settings, &mut jobs, &fields, &derived, None, deadline,
            );
            let answered: Vec<bool> = jobs.iter().map(|j| j.answer != Answer::Unsolved).collect();
            assert!(
                answered.windows(2).all(|w| w[0] || !w[1]),
                "a job answered after one left: {answered:?}"
            );
            answered.iter().filter(|&&a| a).count()
        };
        let hour = Duration::from_secs(3600);
        let at = |from_now: Duration, one_anyway| {
            let at = Instant::now() + from_now;
            Some(Deadline {
                at,
                one_anyway,
                pausing: Pausing {
                    at,
                    grid: None,
                    version: Default::default(),
                    tick: 0,
                },
            })
        };
        assert_eq!(batch(None), 8);
        assert_eq!(batch(at(hour, false)), 8);
        assert_eq!(batch(at(Duration::ZERO, true)), 1);
        assert_eq!(batch(at(Duration::ZERO, false)), 0);
    }

    /// Two jobs on a pool of one thread and the caller: each job waits until the other
    /// one has started. Tasks that took jobs one at a time would never both be inside.
    #[test]
    fn tasks_solve_their_jobs_at_the_same_time() {
        let pool = bevy::tasks::TaskPoolBuilder::new().num_threads(1).build();
        // Built without Bevy's `multi_threaded` feature (as for the web, and in
        // `cargo test -p bevy_tilepath`, which does not turn it on), a pool runs every
        // task on the caller: then there is nothing to show here. The workspace's
        // tests turn it on.
        let caller = std::thread::current().id();
        if bevy::tasks::block_on(pool.spawn(async { std::thread::current().id() })) == caller {
            println!("tasks run on the calling thread (no `multi_threaded`): skipped");
            return;
        }
        let inside = Mutex::new(0_usize);
        let both = Condvar::new();
        let mut jobs = [false, false];
        let mut scratches = [(), ()];
        share_out(&pool, &mut jobs, 1, &mut scratches, &|met: &mut bool, _| {
            let mut n = lock(&inside);
            *n += 1;
            both.notify_all();
            let (n, timeout) = both
                .wait_timeout_while(n, Duration::from_secs(20), |n| *n < 2)
                .unwrap_or_else(PoisonError::into_inner);
            *met = !timeout.timed_out() && *n == 2;
        });
        assert_eq!(jobs, [true, true], "a job never met the other");
    }
}
