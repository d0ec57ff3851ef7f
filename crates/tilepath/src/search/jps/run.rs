//! One jump point search: the area and rows it runs on (kept rows, jump distances,
//! a footprint's clearance or the grid's planes), the search itself, and the route
//! read back from its jump points.

use super::jump::{Links, NOWHERE, Nearest, Outcome, Progress, Search, Slots};
use super::landmarks::Guide;
use super::route::{self, Unit};
use super::rows::{Fits, KeptJumps, KeptRows, Planes, Rows, Source, Whole};
use super::{Jps, Landmarks, Scope, WINDOW_SIDE};
use crate::cost::OCTILE_DIAGONAL;
use crate::footprint::FootprintCosts;
use crate::queue::{RadixHeap, StampedWords};
use crate::search::nodes::{node_g, node_parent};
use crate::search::reach::capped;
use crate::search::window::Window;
use crate::search::window::WindowSteps;
use crate::search::{NO_PARENT, PathError, PathQuery, PathResult};
use crate::{Cell, Direction8, Footprint, Grid, JumpDistances, MAX_STEPS, Mobility, OpenRows};

/// Where a search paused by [`Jps::find_in_parts`] stands: in its tracking run or
/// the untracked one before it, the jump points the runs before expanded, and the
/// run's own state (its scratch holds the rest).
#[derive(Clone, Copy, Debug)]
pub(super) struct Resume {
    tracked: bool,
    before: u32,
    progress: Progress,
}

/// What a run of a search gave: its answer, or where it paused.
pub(super) enum Ran {
    Done(PathResult),
    Paused(Resume),
}

/// The rows and jump distances a query hands a search, where they are of its
/// mobility and grid size.
#[derive(Clone, Copy, Default)]
pub(super) struct Kept<'a> {
    pub(super) rows: Option<&'a OpenRows>,
    pub(super) jumps: Option<&'a JumpDistances>,
}

impl Jps {
    /// A square query: jump point search where [`jumps`](Self::jumps) says so (guided
    /// if the query has landmarks), the solver's A* otherwise; capped by the query's
    /// components.
    pub(super) fn answer<N: WindowSteps, const EIGHT: bool>(
        &mut self,
        grid: &Grid,
        q: PathQuery<'_>,
    ) -> Result<Ran, PathError> {
        // The footprint's checks first, so that both searches give its errors.
        let sized = match q.footprint {
            None => None,
            Some(f) => FootprintCosts::of(f, grid, q.mobility, q.from)?.map(|_| f),
        };
        if !Self::jumps(grid, &q) {
            return self.astar.answer::<N>(grid, q).map(Ran::Done);
        }
        capped(self, &q, |s| {
            let kept = Kept {
                rows: q.rows.filter(|r| r.fit(grid, q.mobility)),
                jumps: q.jumps.filter(|j| j.rows().fit(grid, q.mobility)),
            };
            s.run::<EIGHT>((q.guide, kept), grid, (q.from, q.to), q.mobility, sized)
        })
    }

    /// Jump point search from `from` to `to` for a unit of `mobility` (one cost), one
    /// cell big or of `footprint` (which fits at `from`).
    pub(super) fn run<const EIGHT: bool>(
        &mut self,
        (landmarks, kept): (Option<&Landmarks>, Kept<'_>),
        grid: &Grid,
        (from, to): (Cell, Cell),
        mobility: Mobility,
        footprint: Option<Footprint<'_>>,
    ) -> Result<Ran, PathError> {
        if !grid.contains(from) {
            return Err(PathError::start_out_of_bounds(grid, from));
        }
        let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
        let start = (i64::from(from.x), i64::from(from.y));
        let (lo, hi, slots) = match self.scope {
            Scope::Window => {
                let r = MAX_STEPS as i64;
                let lo = ((start.0 - r).max(0), (start.1 - r).max(0));
                let hi = ((start.0 + r + 1).min(w), (start.1 + r + 1).min(h));
                let slots = Slots::new(start.0 - r, start.1 - r, WINDOW_SIDE as u32);
                (lo, hi, slots)
            }
            Scope::WholeGrid => {
                let slots = Slots::new(0, 0, Window::whole_stride(grid.width()));
                ((0, 0), (w, h), slots)
            }
        };
        let dims = (grid.width(), grid.height());
        let guide = landmarks.map_or(Guide::NONE, |l| {
            l.guide(grid, mobility, EIGHT, (i64::from(to.x), i64::from(to.y)))
        });
        let unit = Unit {
            grid,
            mobility,
            size: footprint.map_or(1, |f| f.size()),
        };
        // The size's or the mobility's bit rows where they are kept, else the
        // clearance's values or the grid's planes.
        let bits = match footprint {
            Some(f) => KeptRows::fits(f.clearance(), f.size()),
            None => kept
                .rows
                .or(kept.jumps.map(JumpDistances::rows))
                .map(KeptRows::open),
        };
        if let Some(bits) = bits {
            let jumps = kept.jumps.map(KeptJumps::open);
            let unit = (unit, jumps);
            return self.search_kept::<EIGHT>(bits, (lo, hi), slots, guide, unit, (from, to));
        }
        match footprint {
            Some(f) => {
                let rows = Rows::new(Fits::new(f.clearance(), f.size()), dims, lo, hi);
                self.search::<_, EIGHT>(rows, slots, guide, unit, (from, to))
            }
            None => {
                let rows = Rows::new(Planes::new(grid, mobility), dims, lo, hi);
                self.search::<_, EIGHT>(rows, slots, guide, unit, (from, to))
            }
        }
    }

    /// [`search`](Self::search) on kept bit rows over the area `lo..hi`: unclipped
    /// ([`Whole`]) when that is the whole grid.
    fn search_kept<const EIGHT: bool>(
        &mut self,
        bits: KeptRows<'_>,
        (lo, hi): ((i64, i64), (i64, i64)),
        slots: Slots,
        guide: Guide<'_>,
        (unit, jumps): (Unit<'_>, Option<KeptJumps<'_>>),
        ends: (Cell, Cell),
    ) -> Result<Ran, PathError> {
        let dims = (unit.grid.width(), unit.grid.height());
        if lo == (0, 0) && hi == (i64::from(dims.0), i64::from(dims.1)) {
            // A one-cell unit's jump distances, where the query has them.
            if unit.size == 1
                && let Some(jumps) = jumps
            {
                let rows = Rows::new(Whole::new(jumps), dims, lo, hi);
                return self.search::<_, EIGHT>(rows, slots, guide, unit, ends);
            }
            let rows = Rows::new(Whole::new(bits), dims, lo, hi);
            return self.search::<_, EIGHT>(rows, slots, guide, unit, ends);
        }
        self.search::<_, EIGHT>(Rows::new(bits, dims, lo, hi), slots, guide, unit, ends)
    }

    /// [`run`](Self::run) on the open cells of `rows`: from the start, or where
    /// `self.paused` says a search of the same query paused; for at most
    /// `self.part` jump points, if that is set.
    fn search<S: Source, const EIGHT: bool>(
        &mut self,
        rows: Rows<S>,
        slots: Slots,
        guide: Guide<'_>,
        unit: Unit<'_>,
        ends: (Cell, Cell),
    ) -> Result<Ran, PathError> {
        let (from, to) = ends;
        let grid = unit.grid;
        let start = (i64::from(from.x), i64::from(from.y));
        let goal = (i64::from(to.x), i64::from(to.y));
        let reachable = goal == start || rows.is_open(goal.0, goal.1);
        let target = if reachable { goal } else { NOWHERE };
        let part = self.part;
        let mut resuming = self.paused.take().map(|(_, at)| at);
        let mut expanded = resuming.map_or(0, |r| r.before);
        // Under an expansion limit the one search must also track the nearest cell,
        // so that the limit bounds the query; without one, an untracked search is
        // cheaper and the tracking one runs only if the goal is not found.
        if reachable && self.max_expansions == u32::MAX && resuming.is_none_or(|r| !r.tracked) {
            let mut search = Search::<S, EIGHT, false>::new(
                rows,
                slots,
                goal,
                target,
                self.max_expansions,
                guide,
            );
            let (nodes, open) = self.scratch(grid, resuming.take(), &mut search, start)?;
            let Some(outcome) = search.advance(nodes, open, part) else {
                return Ok(Ran::Paused(Resume {
                    tracked: false,
                    before: 0,
                    progress: search.progress(),
                }));
            };
            expanded += search.expanded;
            if let Outcome::Goal(slot) = outcome {
                let corners = self.chain::<EIGHT>(slots, slot, search.links);
                return Ok(Ran::Done(route::build(unit, ends, corners, expanded)));
            }
        }
        let mut search =
            Search::<S, EIGHT, true>::new(rows, slots, goal, target, self.max_expansions, guide);
        let (nodes, open) = self.scratch(grid, resuming, &mut search, start)?;
        let Some(outcome) = search.advance(nodes, open, part) else {
            return Ok(Ran::Paused(Resume {
                tracked: true,
                before: expanded,
                progress: search.progress(),
            }));
        };
        expanded = expanded.saturating_add(search.expanded);
        // The goal's chain starts with a line of no steps to itself.
        let (end, mid, jp) = match outcome {
            Outcome::Goal(slot) => (slots.cell(slot), slots.cell(slot), slot),
            Outcome::Stopped(Nearest { jp, mid, end, .. }) => (end, mid, jp),
        };
        let links = search.links;
        let corners = [end, mid]
            .into_iter()
            .chain(self.chain::<EIGHT>(slots, jp, links));
        Ok(Ran::Done(route::build(unit, ends, corners, expanded)))
    }

    /// The scratch for `search`: as the paused search it is `resuming` left it, taken
    /// up there; else reset, with the search begun at `start`.
    fn scratch<S: Source, const EIGHT: bool, const TRACK: bool>(
        &mut self,
        grid: &Grid,
        resuming: Option<Resume>,
        search: &mut Search<'_, S, EIGHT, TRACK>,
        start: (i64, i64),
    ) -> Result<(&mut StampedWords, &mut RadixHeap<u32>), PathError> {
        match resuming {
            Some(r) => {
                search.resume_from(r.progress);
                Ok(self.astar.scratch_as_left())
            }
            None => {
                let (nodes, open) = self.astar.borrow_scratch(grid)?;
                search.begin(nodes, open, start);
                Ok((nodes, open))
            }
        }
    }

    /// The jump points from `slot` (expanded) back to the start.
    fn chain<const EIGHT: bool>(
        &self,
        slots: Slots,
        slot: u32,
        links: Links,
    ) -> impl Iterator<Item = (i64, i64)> + '_ {
        let straight = Search::<Planes<'_>, EIGHT, false>::STRAIGHT;
        chain(
            self.astar.nodes(),
            slots,
            slot,
            (straight, OCTILE_DIAGONAL),
            links,
        )
    }
}

/// The jump points of a route from `slot` back to the start, with the step weights of
/// its search: each line is walked backwards to the first cell on it whose node's g
/// and the line's length add up to at most the g at its end (see the
/// `# Implementation` notes of [`Jps`]).
fn chain(
    nodes: &StampedWords,
    slots: Slots,
    slot: u32,
    (straight, diagonal): (u64, u64),
    links: Links,
) -> impl Iterator<Item = (i64, i64)> {
    let mut next = Some(slot);
    core::iter::from_fn(move || {
        let slot = next?;
        let cell = slots.cell(slot);
        let node = nodes.get(slot as usize);
        let parent = node_parent(node);
        next = (parent != NO_PARENT)
            .then(|| {
                let (dx, dy) = Direction8::from_bits(parent).offset();
                let step = if dx != 0 && dy != 0 {
                    diagonal
                } else {
                    straight
                };
                let g = node_g(node);
                // A line whose start is known (a direct route's) needs no walk, if the
                // node still came by it and its start qualifies.
                let linked = links.iter().find_map(|&(from, to, steps, dir)| {
                    let known = from == slot && dir == parent;
                    (known && node_g(nodes.get(to as usize)) + steps * step <= g).then_some(to)
                });
                if linked.is_some() {
                    return linked;
                }
                // The node the line was written from qualifies (its g can only have
                // dropped since), so the walk ends there at the latest; the bound (no g
                // below 0) only keeps a broken store from looping. Slots are linear in
                // the cell, so a step back is a fixed slot difference.
                let back = i64::from(dy) * slots.stride + i64::from(dx);
                nodes
                    .find_back(slot as usize, back as usize, g / step, |k, v| {
                        node_g(v) + k * step <= g
                    })
                    .map(|s| s as u32)
            })
            .flatten();
        Some(cell)
    })
}
