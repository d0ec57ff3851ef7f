//! The A* search loop every entry point runs: open lists, relaxation, the heuristic.

use super::*;
use crate::search::window::WindowSteps;

impl AStar {
    pub(crate) fn run<N: WindowSteps>(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult, PathError> {
        self.run_with::<N, _>(CellCosts { grid, mobility }, from, to, mobility)
    }

    /// The search proper, over `costs` (of a unit of `mobility`).
    pub(super) fn run_with<N: WindowSteps, C: EnterCost>(
        &mut self,
        costs: C,
        from: Cell,
        to: Cell,
        mobility: Mobility,
    ) -> Result<PathResult, PathError> {
        let grid = costs.grid();
        if !grid.contains(from) {
            return Err(PathError::start_out_of_bounds(grid, from));
        }
        let window = match self.scope {
            Scope::Window => Window::around(grid, from),
            Scope::WholeGrid => {
                self.try_grow_to(grid)?;
                Window::whole(grid)
            }
        };
        let start_slot = window
            .slot_of(from)
            .ok_or_else(|| PathError::start_out_of_bounds(grid, from))?;
        // The unchecked accesses of the search rely on this.
        assert!(
            self.nodes.len() >= window.slots(),
            "scratch smaller than its window"
        );
        let query = Query {
            costs,
            window: &window,
            start: from,
            goal: to,
            octile: N::DIAGONALS,
        };
        // Steps of weight 1 (4-connected, hex) keep f-values within a ring's span.
        let ring_ok =
            !N::DIAGONALS && u32::from(mobility.max_cost()) + u32::from(mobility.min_cost()) < 64;
        if ring_ok
            && let Some(linked) = self.linked.as_deref_mut()
            && linked.len() >= window.slots()
            && linked.fits(mobility)
        {
            let answer = linked.search::<N, _>(
                &query.costs,
                mobility,
                &window,
                start_slot,
                window.local(to),
                window.slot_of(to).unwrap_or(u32::MAX),
                self.max_expansions,
            );
            return Ok(backtrack::<N::Path, _>(&query, answer, |slot| {
                linked.parent(slot as usize)
            }));
        }
        self.nodes.reset();
        let search = Search {
            costs,
            min_cost: mobility.min_cost(),
            window: &window,
            goal: to,
            max_expansions: self.max_expansions,
        };
        let answer = if ring_ok {
            self.ring.reset();
            let mut open = Ring {
                queue: &mut self.ring,
                last: None,
            };
            search.run::<_, N>(&mut self.nodes, &mut open, start_slot)
        } else {
            self.radix.reset();
            search.run::<_, N>(&mut self.nodes, &mut self.radix, start_slot)
        };
        let nodes = &self.nodes;
        Ok(backtrack::<N::Path, _>(&query, answer, |slot| {
            node_parent(nodes.get(slot as usize))
        }))
    }
}

/// The open list of an A* search: a monotone priority queue of slots.
trait OpenList {
    fn push(&mut self, key: u64, slot: u32);
    fn pop(&mut self) -> Option<u32>;
}

/// A 64-bucket ring over monotone keys that never span more than 64. `last` is the
/// last key popped, or the first key pushed before any pop.
struct Ring<'a> {
    queue: &'a mut BucketQueue<u32>,
    last: Option<u64>,
}

impl OpenList for Ring<'_> {
    #[inline(always)]
    fn push(&mut self, key: u64, slot: u32) {
        let last = *self.last.get_or_insert(key);
        debug_assert!(key >= last && key - last < 64, "ring key {key} vs {last}");
        self.queue.push((key % 64) as u32, slot);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        let last = self.last?;
        let from = (last % 64) as u32;
        let (bucket, slot) = self.queue.pop_cyclic(from)?;
        self.last = Some(last + u64::from((bucket + 64 - from) % 64));
        Some(slot)
    }
}

impl OpenList for RadixHeap<u32> {
    #[inline(always)]
    fn push(&mut self, key: u64, slot: u32) {
        RadixHeap::push(self, key, slot);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        RadixHeap::pop(self).map(|(_, slot)| slot)
    }
}

struct Search<'a, C> {
    costs: C,
    /// The least cost a step can have: the heuristic's scale.
    min_cost: u8,
    window: &'a Window,
    goal: Cell,
    max_expansions: u32,
}

/// The goal in the neighbourhood's [`frame`](Neighborhood::frame), and the
/// heuristic's scale.
#[derive(Clone, Copy)]
struct Heuristic {
    goal: (i64, i64),
    scale: u64,
}

impl Heuristic {
    /// Unscaled distance estimate ([`Neighborhood::distance`]) from `at` (in the
    /// neighbourhood's frame).
    #[inline(always)]
    fn distance<N: WindowSteps>(self, at: (i64, i64)) -> u64 {
        N::distance(at, self.goal)
    }
}

/// [`Neighborhood::frame`] of local cell `(lx, ly)`.
#[inline(always)]
fn frame<N: WindowSteps>(window: &Window, lx: u32, ly: u32) -> (i64, i64) {
    N::frame(window, (i64::from(lx), i64::from(ly)))
}

/// The relax step of A*, run for each neighbour of the node being expanded.
struct Relax<'a, Q, N> {
    nodes: &'a mut StampedWords,
    open: &'a mut Q,
    heuristic: Heuristic,
    /// g of the node being expanded.
    g: u64,
    neighborhood: PhantomData<N>,
}

impl<Q: OpenList, N: WindowSteps> Visit for Relax<'_, Q, N> {
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window")]
    unsafe fn visit(&mut self, slot: u32, dir: u8, cost: u8, h: impl FnOnce() -> u64) {
        let step = u64::from(cost) * N::weight(dir);
        let ng = self.g + step;
        // SAFETY: `slot` is inside the window, as the caller promises, and the node
        // map holds at least `window.slots()` slots (checked in `AStar::run`).
        let node = unsafe { self.nodes.get_unchecked(slot as usize) };
        if node & CLOSED != 0 || ng >= node_g(node) {
            return;
        }
        // SAFETY: as above.
        unsafe {
            self.nodes
                .set_unchecked(slot as usize, (ng << 5) | u64::from(dir))
        };
        let h = self.heuristic.scale * h();
        self.open.push(ng + h, slot);
    }

    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window")]
    unsafe fn visit_unread(
        &mut self,
        slot: u32,
        dir: u8,
        cost: impl FnOnce() -> u8,
        h: impl FnOnce() -> u64,
    ) {
        // SAFETY: as in `visit`.
        let node = unsafe { self.nodes.get_unchecked(slot as usize) };
        // No step costs less than the heuristic's scale (the cheapest cell's cost)
        // times its weight: a node already reached for at most g plus that keeps its
        // g whatever this cell costs, and so does a closed one.
        let least = self.g + self.heuristic.scale * N::weight(dir);
        if node & CLOSED != 0 || node_g(node) <= least {
            return;
        }
        let cost = cost();
        if cost != 0 {
            // SAFETY: as the caller promises.
            unsafe { self.visit(slot, dir, cost, h) };
        }
    }
}

impl<C: EnterCost> Search<'_, C> {
    /// Runs A* from `start_slot`; returns the slot the route ends at (the goal, or the
    /// closest expanded cell to it) and the number of expansions.
    #[inline(always)]
    fn run<Q: OpenList, N: WindowSteps>(
        &self,
        nodes: &mut StampedWords,
        open: &mut Q,
        start_slot: u32,
    ) -> (u32, u32) {
        let heuristic = Heuristic {
            goal: N::frame(self.window, self.window.local(self.goal)),
            scale: u64::from(self.min_cost),
        };
        let goal_slot = self.window.slot_of(self.goal).unwrap_or(u32::MAX);
        nodes.set(start_slot as usize, open_node(0, NO_PARENT));
        let (sx, sy) = self.window.unpack(start_slot);
        open.push(
            heuristic.scale * heuristic.distance::<N>(frame::<N>(self.window, sx, sy)),
            start_slot,
        );
        let mut best = (u64::MAX, start_slot);
        let mut expanded = 0u32;
        let mut relax = Relax::<Q, N> {
            nodes,
            open,
            heuristic,
            g: 0,
            neighborhood: PhantomData,
        };
        while let Some(slot) = relax.open.pop() {
            // SAFETY: only window slots are queued (the start and visited neighbours)
            // and the node map holds at least `window.slots()` of them.
            #[expect(unsafe_code, reason = "bounds proven by the window")]
            let node = unsafe { relax.nodes.get_unchecked(slot as usize) };
            if node & CLOSED != 0 {
                continue;
            }
            // SAFETY: as above.
            #[expect(unsafe_code, reason = "bounds proven by the window")]
            unsafe {
                relax.nodes.set_unchecked(slot as usize, node | CLOSED);
            }
            let (g, parent) = (node_g(node), node_parent(node));
            expanded += 1;
            let (lx, ly) = self.window.unpack(slot);
            let d = heuristic.distance::<N>(frame::<N>(self.window, lx, ly));
            if d < best.0 {
                best = (d, slot);
            }
            if slot == goal_slot {
                return (slot, expanded);
            }
            if expanded >= self.max_expansions {
                break;
            }
            relax.g = g;
            // SAFETY: `slot` is a popped node's, the slot of `(lx, ly)`, inside the
            // window made for `self.grid`.
            #[expect(unsafe_code, reason = "bounds proven by the window")]
            unsafe {
                N::visit_neighbours(
                    self.window,
                    &self.costs,
                    slot,
                    lx,
                    ly,
                    heuristic.goal,
                    d,
                    N::back(parent),
                    &mut relax,
                );
            }
        }
        (best.1, expanded)
    }
}
