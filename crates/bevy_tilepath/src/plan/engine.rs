//! The one place that decides which engine answers a request, and runs it.
//!
//! In order: a shared distance field when one was assigned (and reaches the unit);
//! otherwise a windowed search (greedy when asked for and 4-connected, else A*) for a
//! goal within [`window_distance`](crate::PathingSettings::window_distance); otherwise,
//! or when the window holds no route to a goal the unit can reach, a whole-grid search:
//! jump point search where the mobility has one cost, A* where it has several (see
//! [`Jps`]), on a solver borrowed from the [`WholeGridPool`]. A goal the mobility's
//! components say is out of reach never costs a whole-grid search: the search stops
//! after [`UNREACHABLE_EXPANSIONS`] and the unit walks towards the closest cell it
//! found.
//!
//! Units bigger than one cell search on the clearance of their mobility (the same
//! engines, reading footprints; see [`Footprint`]), and their reach is the components
//! of their footprint's size.
//!
//! Under a time cap a whole-grid search runs in parts of [`PAUSE_EVERY`] jump points
//! ([`Jps::find_in_parts`]) and pauses when the tick's time is up ([`Pausing`]: the
//! planner gives a search under way at the cap a quarter of the cap more), keeping its
//! solver for its unit's next turn (see [`WholeGridPool`]): a search of thousands of jump
//! points on a big map of rooms then spreads over ticks instead of making one of them
//! long. A search whose grid was edited while it was paused starts over; one that had
//! to start over [`MOST_RESTARTS`] times runs to its end, so that edits every tick
//! cannot keep a unit from its path.

use bevy::platform::time::Instant;
#[cfg(doc)]
use tilepath::UNREACHABLE_EXPANSIONS;
use tilepath::{AStar, Arrival, Cell, Connectivity, Greedy, Grid, Jps, PathQuery, Solver};

use super::derived::Known;
use super::fields::FieldCache;
use super::job::{Answer, Job, Route};
use super::straighten::Straighten;
use super::whole::{Done, SearchKey, WholeGridPool};
use crate::grid::{ChangeCursor, GridKey};
use crate::{NoPathReason, SearchMode};

/// Work a jump point counts for against the tick's budget: its scans cross the cells
/// A* would have expanded one by one, at a few expansions' cost per jump point on room
/// and cave maps.
const JUMP_POINT_WORK: u64 = 4;

/// Jump points a whole-grid search expands between two looks at the clock under a
/// time cap: tens of microseconds on a 1024x1024 map, where a jump point's reads
/// mostly miss the caches, so that a tick overshoots its cap by that much at most; a
/// look and taking the search up again cost a few hundred nanoseconds.
pub(crate) const PAUSE_EVERY: u32 = 64;

/// Times a search paused may have to start over (its grid edited meanwhile) before it
/// runs to its end in one tick.
const MOST_RESTARTS: u8 = 2;

/// When whole-grid searches pause, and what to keep a paused one under.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pausing {
    /// Past this, a search under way pauses (after at least one part).
    pub(crate) at: Instant,
    /// The grid searched, and where its change log stood.
    pub(crate) grid: GridKey,
    pub(crate) version: ChangeCursor,
    /// The pathing tick.
    pub(crate) tick: u64,
}

/// One thread's windowed solver scratch (fixed and small), built once and reused for
/// every search; whole-grid solvers come from the [`WholeGridPool`].
pub(crate) struct Scratch {
    window: AStar,
    greedy: Greedy,
    /// Pulls routes straight.
    pub(crate) straighten: Straighten,
}

impl Scratch {
    pub(crate) fn new() -> Self {
        Self {
            window: AStar::new(),
            greedy: Greedy::new(),
            straighten: Straighten::default(),
        }
    }
}

/// Answers `job` (which must be [`Answer::Unsolved`]), or sets it
/// [`Answer::Paused`] where its whole-grid search paused at `pausing`'s time, or
/// found no solver free of another unit's paused search.
#[expect(clippy::too_many_arguments, reason = "what one search reads")]
pub(crate) fn solve_job(
    job: &mut Job,
    grid: &Grid,
    fields: &FieldCache,
    known: Known<'_>,
    s: &mut Scratch,
    whole: &WholeGridPool,
    window: u32,
    pausing: Option<Pausing>,
) {
    let reach = known.reach;
    let foot = match (job.size, known.clearance) {
        (1, _) => None,
        (size, Some(c)) => Some(c.footprint(size)),
        (_, None) => {
            // The planner builds a clearance for every sized job's mobility, unless its
            // memory could not be had.
            job.answer = Answer::NoPath(NoPathReason::GridTooLarge);
            return;
        }
    };
    // Whether the unit can stand at a cell: its footprint fits there.
    let enterable = |c: Cell| match foot {
        None => grid.is_passable(c, job.mobility),
        Some(f) => f.clearance().fits(c, f.size()),
    };
    let reachable = reach.is_none_or(|p| p.is_reachable(job.start, job.goal));
    if let Some(i) = job.field
        && let Some(route) = fields.route(i, job)
    {
        job.work = route.steps.len() as u64 + 1;
        job.answer = Answer::Route(route);
        return;
    }
    // No field, or the goal cannot be reached from here: a search finds the closest
    // reachable cell instead.
    let mut work = 0_u64;
    let mut found = None;
    // A search paused for the unit goes on, without the window's search again.
    if !job.is_far(window) && !whole.holds(job.entity) {
        // Greedy search is 4-connected or hex; A* takes the rest.
        let greedy = job.mode == SearchMode::Greedy && job.connectivity != Connectivity::Eight;
        let mut query =
            PathQuery::new(job.start, job.goal, job.mobility).connectivity(job.connectivity);
        if let Some(f) = foot {
            query = query.sized(f);
        }
        // The planner refuses sized units on hex maps.
        let r = if greedy {
            s.greedy.set_max_expansions(job.max_expansions);
            s.greedy.find(grid, query)
        } else {
            s.window.set_max_expansions(job.max_expansions);
            s.window.find(grid, query)
        };
        // Only an unusable start fails, and the planner checked it.
        if let Ok(r) = r {
            work += u64::from(r.expanded);
            // A near goal that needs a detour out of the window: search the whole grid.
            let detour = matches!(r.arrival, Arrival::Closest(_))
                && reachable
                && enterable(job.goal)
                && r.expanded < job.max_expansions;
            if !detour {
                found = Some(r);
            }
        }
    }
    let r = match found {
        Some(r) => r,
        None => {
            let key = pausing.map(|p| SearchKey {
                entity: job.entity,
                grid: p.grid,
                version: p.version,
            });
            let Some(mut solver) = whole.borrow_for(key) else {
                // Every solver holds another unit's paused search: next turn.
                job.work = work;
                job.answer = Answer::Paused;
                return;
            };
            solver.set_max_expansions(job.max_expansions);
            let mut query =
                PathQuery::new(job.start, job.goal, job.mobility).connectivity(job.connectivity);
            if let Some(parts) = reach {
                query = query.within(parts);
            }
            if let Some(f) = foot {
                query = query.sized(f);
            }
            if let Some(guide) = known.guide {
                query = query.guided(guide);
            }
            if let Some(rows) = known.rows {
                query = query.rows(rows);
            }
            if let Some(jumps) = known.jumps {
                query = query.jumps(jumps);
            }
            // Jump points only where `Jps` jumps (it hands hex maps, costs and
            // walled-over footprints to its A*).
            let weight = if Jps::jumps(grid, &query) {
                JUMP_POINT_WORK
            } else {
                1
            };
            let done = solver.done;
            // What the search took on earlier ticks counts towards the job's time, as
            // the planner's estimate of a request's time is made of answered jobs.
            job.nanos = done.nanos;
            let answer = match pausing.filter(|_| done.restarts < MOST_RESTARTS) {
                Some(p) => {
                    let began = Instant::now();
                    let mut parts = 0_u64;
                    loop {
                        match solver.find_in_parts(grid, query, PAUSE_EVERY) {
                            Ok(None) if Instant::now() >= p.at => {
                                // Every part but the last expands exactly its jump points.
                                let now = (parts + 1) * u64::from(PAUSE_EVERY);
                                let done = Done {
                                    expanded: done.expanded + now,
                                    nanos: done.nanos + began.elapsed().as_nanos() as u64,
                                    ..done
                                };
                                solver.pause(p.tick, done);
                                job.work = work + weight * now;
                                job.answer = Answer::Paused;
                                return;
                            }
                            Ok(None) => parts += 1,
                            answer => break answer,
                        }
                    }
                }
                None => solver.find(grid, query).map(Some),
            };
            match answer {
                Ok(Some(r)) => {
                    work += weight * u64::from(r.expanded).saturating_sub(done.expanded);
                    r
                }
                _ => {
                    job.work = work;
                    job.answer = Answer::NoPath(NoPathReason::GridTooLarge);
                    return;
                }
            }
        }
    };
    let short = matches!(r.arrival, Arrival::Closest(_)).then(|| {
        if !enterable(job.goal) && foot.is_some() && grid.is_passable(job.goal, job.mobility) {
            NoPathReason::GoalUnfit
        } else if !enterable(job.goal) {
            NoPathReason::GoalBlocked
        } else if !reachable {
            NoPathReason::Unreachable
        } else if r.expanded >= job.max_expansions {
            NoPathReason::SearchLimit
        } else {
            NoPathReason::Unreachable
        }
    });
    job.work = work;
    job.answer = match short {
        Some(reason) if r.path.is_empty() => Answer::NoPath(reason),
        _ => Answer::Route(Route {
            steps: r.path,
            end: r.end,
            cost: r.cost as f32,
            continues: r.route_len as usize > r.path.len(),
            short,
            by_field: false,
        }),
    };
}
