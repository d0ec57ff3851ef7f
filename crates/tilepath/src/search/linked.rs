//! The windowed A* of unit-weight steps (4-connected and hex) with an open list linked
//! through its own node scratch.
//!
//! The common case of [`AStar::new`](crate::AStar::new) (a windowed, 4-connected or
//! hex search whose f-values stay within 64 of the minimum) needs neither a node map
//! beside its open list nor a pool of queue entries: each node is one `u64` holding
//! the generation it was reached in, its g, the direction it was reached by, and the
//! previous and next node of the bucket list it is queued in. A node sits in at most
//! one bucket, so an improved g moves it (an O(1) unlink and relink) instead of
//! queueing a duplicate, and a pop never meets a stale entry. Nor is a closed flag
//! needed: the heuristic (Manhattan or hex distance times the mobility's cheapest
//! cost) is consistent, so an expanded node's g is final and `new g >= g` rejects every route
//! back to it.

use super::NO_PARENT;
use super::bit_rows::{LEFT, PassRows, RIGHT, SELF};
use super::window::{Visit, WINDOW_SHIFT, Window, window_cell};
use crate::Mobility;
use crate::cost::EnterCost;
use crate::queue::Generation;
use crate::search::window::WindowSteps;
use core::marker::PhantomData;

/// The end of a bucket list (window slots are below 2^14).
const NIL: u64 = 0x3FFF;
const NEXT_SHIFT: u32 = 0;
const PREV_SHIFT: u32 = 14;
const DIR_SHIFT: u32 = 28;
const G_SHIFT: u32 = 32;
const G_MASK: u64 = (1 << 20) - 1;
const GENERATION_SHIFT: u32 = 52;
/// Both links of a node that is in no list.
const LINKS: u64 = NIL << NEXT_SHIFT | NIL << PREV_SHIFT;
// The start's way back, `NO_PARENT ^ 2`, must be no direction.
const _: () = assert!(NO_PARENT ^ 2 > 3);

/// Node scratch of the linked search, with O(1) reset by generation (12 bits: a real
/// clear every 4095 queries). 8 bytes a window slot.
#[derive(Clone, Debug)]
pub(crate) struct LinkedNodes {
    /// `generation << 52 | g << 32 | direction << 28 | prev << 14 | next`.
    nodes: Vec<u64>,
    generation: Generation,
    /// Passable cells of one-cost mobilities (every open kind costs the same), read a bit a
    /// neighbour instead of a grid lookup.
    rows: PassRows,
}

impl LinkedNodes {
    /// Scratch for `len` slots (at most 2^14 - 1).
    pub(crate) fn new(len: usize) -> Self {
        assert!(len < NIL as usize, "linked A* scratch too large");
        Self {
            nodes: vec![0; len],
            generation: Generation::new(64 - GENERATION_SHIFT),
            rows: PassRows::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes of scratch held.
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.len() * 8 + PassRows::BYTES
    }

    fn reset(&mut self) {
        if self.generation.advance() {
            self.nodes.fill(0);
        }
    }

    /// The direction slot `i` was reached by, or `NO_PARENT` if unseen (or the start).
    pub(crate) fn parent(&self, i: usize) -> u8 {
        match self.nodes.get(i) {
            Some(&n) if n >> GENERATION_SHIFT == u64::from(self.generation.get()) => {
                ((n >> DIR_SHIFT) & 0xF) as u8
            }
            _ => NO_PARENT,
        }
    }

    /// Whether a search of `mobility` with unit-weight steps fits: f-values in the queue within 64
    /// of the minimum, and every g (below `slots * max_cost`) in 20 bits.
    pub(crate) fn fits(&self, mobility: Mobility) -> bool {
        let (min, max) = (
            u64::from(mobility.min_cost()),
            u64::from(mobility.max_cost()),
        );
        min + max < 64 && self.nodes.len() as u64 * max <= G_MASK
    }

    /// A* moving as `N` (a neighbourhood of unit-weight steps: [`Four`](crate::topology::Four) or hex) from
    /// `start_slot` towards `goal_slot` (local goal `(gx, gy)`); returns the slot the
    /// route ends at (the goal, or the expanded cell closest to it) and the number of
    /// expansions. The caller checks [`fits`](Self::fits) and that the window's slots
    /// are below `len()`. Where every enterable cell costs the same, 4-connected
    /// searches read their neighbours from bit rows ([`PassRows`]).
    #[expect(
        clippy::too_many_arguments,
        reason = "hot path: plain values in registers"
    )]
    pub(crate) fn search<N: WindowSteps, C: EnterCost>(
        &mut self,
        costs: &C,
        mobility: Mobility,
        window: &Window,
        start_slot: u32,
        (gx, gy): (i64, i64),
        goal_slot: u32,
        max_expansions: u32,
    ) -> (u32, u32) {
        // The unchecked accesses below rely on this (once a query: not measurable).
        assert!(
            self.fits(mobility)
                && window.slots() <= self.nodes.len()
                && window.stride() == 1 << WINDOW_SHIFT,
            "linked search outside its scope"
        );
        debug_assert!(!N::DIAGONALS, "unit-weight steps only");
        self.reset();
        let scale = u64::from(mobility.min_cost());
        let goal = N::frame(window, (gx, gy));
        let distance =
            |x: u32, y: u32| N::distance(N::frame(window, (i64::from(x), i64::from(y))), goal);
        let stamp = u64::from(self.generation.get()) << GENERATION_SHIFT;
        let (sx, sy) = window_cell(start_slot);
        let f0 = scale * distance(sx, sy);
        let mut open = Open::<N> {
            nodes: &mut self.nodes,
            stamp,
            heads: [NIL as u16; 64],
            mask: 0,
            scale,
            g: 0,
            f: f0,
            hot: start_slot,
            neighborhood: PhantomData,
        };
        open.nodes[start_slot as usize] = stamp | u64::from(NO_PARENT) << DIR_SHIFT | LINKS;
        // Where every enterable cell costs the same, 4-connected neighbours are read
        // from bit rows (which cannot tell a step out of a walled-over start apart).
        let one_cost = matches!(N::CONNECTIVITY, crate::Connectivity::Four)
            && costs.uniform().is_some()
            && !costs.walks_out();
        let cost = u64::from(costs.uniform().unwrap_or(0));
        let rows = &mut self.rows;
        if one_cost {
            rows.start(mobility, window);
        }
        let mut best = (u64::MAX, start_slot);
        let mut expanded = 0u32;
        loop {
            let slot = if open.hot != NIL as u32 {
                core::mem::replace(&mut open.hot, NIL as u32)
            } else if open.mask != 0 {
                // Every queued f is in [f, f + 64): the next non-empty bucket from f.
                let from = (open.f % 64) as u32;
                let b = (open.mask.rotate_right(from).trailing_zeros() + from) % 64;
                open.f += u64::from((b + 64 - from) % 64);
                let slot = u32::from(open.heads[b as usize]);
                // SAFETY: only window slots, below `nodes.len()` (checked above), are
                // ever linked into a bucket.
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                let next = unsafe { *open.nodes.get_unchecked(slot as usize) } & NIL;
                open.heads[b as usize] = next as u16;
                if next == NIL {
                    open.mask &= !(1 << b);
                }
                slot
            } else {
                break;
            };
            // SAFETY: `slot` is a window slot (the start, a neighbour or a queued node).
            #[expect(unsafe_code, reason = "bounds proven by the window")]
            let n = unsafe { *open.nodes.get_unchecked(slot as usize) };
            expanded += 1;
            let (lx, ly) = window_cell(slot);
            let d = distance(lx, ly);
            if d < best.0 {
                best = (d, slot);
            }
            if slot == goal_slot {
                return (slot, expanded);
            }
            if expanded >= max_expansions {
                break;
            }
            open.g = (n >> G_SHIFT) & G_MASK;
            if one_cost {
                // The way back (for the start, NO_PARENT ^ 2: no direction).
                let skip = ((n >> DIR_SHIFT) & 0xF) as u8 ^ 2;
                // Row ly + 1 is this cell's (see `PassRows`).
                let r = ly + 1;
                rows.prepare(costs, window, r);
                let at = PassRows::locate(lx);
                let [up, around, down] = rows.three(r, at);
                const STRIDE: u32 = 1 << WINDOW_SHIFT;
                // A neighbour is one step nearer the goal or one step farther.
                let (ng, h) = (open.g + cost, scale * d);
                let (x, y) = (i64::from(lx), i64::from(ly));
                let h_of = |nearer: bool| if nearer { h - scale } else { h + scale };
                if around & RIGHT != 0 && skip != 0 {
                    // SAFETY: an open neighbour of a window cell, inside the window.
                    #[expect(unsafe_code, reason = "bounds proven by the window")]
                    unsafe {
                        open.relax(slot + 1, 0, ng, h_of(x < gx))
                    };
                }
                if down & SELF != 0 && skip != 1 {
                    // SAFETY: an open neighbour of a window cell, inside the window.
                    #[expect(unsafe_code, reason = "bounds proven by the window")]
                    unsafe {
                        open.relax(slot + STRIDE, 1, ng, h_of(y < gy))
                    };
                }
                if around & LEFT != 0 && skip != 2 {
                    // SAFETY: an open neighbour of a window cell, inside the window.
                    #[expect(unsafe_code, reason = "bounds proven by the window")]
                    unsafe {
                        open.relax(slot - 1, 2, ng, h_of(x > gx))
                    };
                }
                if up & SELF != 0 && skip != 3 {
                    // SAFETY: an open neighbour of a window cell, inside the window.
                    #[expect(unsafe_code, reason = "bounds proven by the window")]
                    unsafe {
                        open.relax(slot - STRIDE, 3, ng, h_of(y > gy))
                    };
                }
            } else {
                let skip = N::back(((n >> DIR_SHIFT) & 0xF) as u8);
                // SAFETY: `slot` is a popped node's, the slot of `(lx, ly)`, inside the
                // window made for `grid`.
                #[expect(unsafe_code, reason = "bounds proven by the window")]
                unsafe {
                    N::visit_neighbours(window, costs, slot, lx, ly, goal, d, skip, &mut open);
                }
            }
        }
        (best.1, expanded)
    }
}

/// The open list (64 LIFO bucket lists by f mod 64, linked through the nodes, and a
/// bit per non-empty bucket, plus the hot node) and the relax step.
///
/// A node reached at the f being expanded would be the next popped (the lists are
/// LIFO, and no f is below it), so it skips the list: it is kept as the *hot* node and
/// expanded next, and only linked into its bucket if another such node arrives first.
/// The order of expansion is exactly that of the plain bucket queue.
struct Open<'a, N> {
    nodes: &'a mut [u64],
    stamp: u64,
    heads: [u16; 64],
    mask: u64,
    scale: u64,
    /// g of the node being expanded.
    g: u64,
    /// f of the node being expanded: the least f queued.
    f: u64,
    /// The hot node, or `NIL`.
    hot: u32,
    neighborhood: PhantomData<N>,
}

impl<N> Open<'_, N> {
    /// Sets `slot` to `fields` (g, direction) and links it at the head of bucket `f`.
    ///
    /// # Safety
    /// `slot` is a window slot (below `nodes.len()`).
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window")]
    unsafe fn link(&mut self, slot: u32, f: u64, fields: u64) {
        debug_assert!((slot as usize) < self.nodes.len());
        let b = (f % 64) as usize;
        let head = u64::from(self.heads[b]);
        // SAFETY: `slot` (as promised) and any linked `head` are window slots.
        unsafe {
            *self.nodes.get_unchecked_mut(slot as usize) =
                self.stamp | fields | NIL << PREV_SHIFT | head << NEXT_SHIFT;
            if head != NIL {
                let h = self.nodes.get_unchecked_mut(head as usize);
                *h = (*h & !(NIL << PREV_SHIFT)) | u64::from(slot) << PREV_SHIFT;
            }
        }
        self.heads[b] = slot as u16;
        self.mask |= 1 << b;
    }

    /// Takes the queued node `slot` (`n`, in bucket `f`) out of its list.
    ///
    /// # Safety
    /// `n` is the word of a queued node: its links are window slots or `NIL`.
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window")]
    unsafe fn unlink(&mut self, slot: u32, n: u64, f: u64) {
        let b = (f % 64) as usize;
        let (prev, next) = ((n >> PREV_SHIFT) & NIL, (n >> NEXT_SHIFT) & NIL);
        debug_assert!(prev == NIL || (prev as usize) < self.nodes.len());
        debug_assert!(next == NIL || (next as usize) < self.nodes.len());
        // SAFETY: linked neighbours are window slots, as promised.
        unsafe {
            if u32::from(self.heads[b]) == slot {
                self.heads[b] = next as u16;
                if next == NIL {
                    self.mask &= !(1 << b);
                }
            } else {
                // Not the head: `prev` is the node before it (a head's own `prev` is
                // not kept up to date, which is why the head test comes first).
                let p = self.nodes.get_unchecked_mut(prev as usize);
                *p = (*p & !(NIL << NEXT_SHIFT)) | next << NEXT_SHIFT;
            }
            if next != NIL {
                let x = self.nodes.get_unchecked_mut(next as usize);
                *x = (*x & !(NIL << PREV_SHIFT)) | prev << PREV_SHIFT;
            }
        }
    }
}

impl<N: WindowSteps> Visit for Open<'_, N> {
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window")]
    unsafe fn visit(&mut self, slot: u32, dir: u8, cost: u8, h: impl FnOnce() -> u64) {
        let h = self.scale * h();
        // SAFETY: a window slot, as the caller promises.
        unsafe { self.relax(slot, dir, self.g + u64::from(cost), h) };
    }

    // `visit_unread` is the trait's: the cost first. Grid costs do not depend on the
    // search, so a cell's cost loads start together and their tests resolve early;
    // testing the node first (as the whole-grid search does, whose grids may not be
    // in cache) made each step wait for its node word before reading the grid.
}

impl<N> Open<'_, N> {
    /// Reaches `slot` (heuristic `h`) by a step in direction `dir` at cost `ng`:
    /// queues it, or moves it to its new bucket, unless it was reached at `ng` or less.
    ///
    /// # Safety
    /// `slot` is a window slot, below `nodes.len()` (checked by `search`).
    #[inline(always)]
    #[expect(unsafe_code, reason = "bounds proven by the window")]
    unsafe fn relax(&mut self, slot: u32, dir: u8, ng: u64, h: u64) {
        debug_assert!((slot as usize) < self.nodes.len());
        // SAFETY: in bounds, as the caller promises.
        let n = unsafe { *self.nodes.get_unchecked(slot as usize) };
        if n >> GENERATION_SHIFT == self.stamp >> GENERATION_SHIFT {
            let g = (n >> G_SHIFT) & G_MASK;
            if ng >= g {
                return;
            }
            // SAFETY: `n` is a queued node's word (its generation is this query's).
            unsafe { self.unlink(slot, n, g + h) };
        }
        let fields = ng << G_SHIFT | u64::from(dir) << DIR_SHIFT;
        if ng + h == self.f {
            if self.hot != NIL as u32 {
                // SAFETY: the hot node is a window slot.
                unsafe {
                    let hot = *self.nodes.get_unchecked(self.hot as usize);
                    self.link(
                        self.hot,
                        self.f,
                        hot & (G_MASK << G_SHIFT | 0xF << DIR_SHIFT),
                    );
                }
            }
            // SAFETY: as above.
            unsafe {
                *self.nodes.get_unchecked_mut(slot as usize) = self.stamp | fields | LINKS;
            }
            self.hot = slot;
        } else {
            // SAFETY: as above.
            unsafe { self.link(slot, ng + h, fields) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Four;
    use crate::{Cell, Grid};

    #[test]
    fn generation_wrap_really_clears() {
        let grid = Grid::new(4, 1).unwrap();
        let window = Window::around(&grid, Cell::new(0, 0));
        let mut s = LinkedNodes::new(crate::search::window::WINDOW_SLOTS);
        s.generation.set((s.generation.limit() - 2) as u32);
        let start = window.slot_of(Cell::new(0, 0)).unwrap();
        let goal = window.slot_of(Cell::new(3, 0)).unwrap();
        let local = window.local(Cell::new(3, 0));
        let run = |s: &mut LinkedNodes| {
            s.search::<Four, _>(
                &crate::cost::CellCosts {
                    grid: &grid,
                    mobility: Mobility::FLOOR_ONLY,
                },
                Mobility::FLOOR_ONLY,
                &window,
                start,
                local,
                goal,
                u32::MAX,
            )
        };
        assert_eq!(run(&mut s), (goal, 4));
        assert_eq!(s.parent(goal as usize), 0); // reached going right
        assert_eq!(run(&mut s), (goal, 4)); // wraps: cleared, generation 1
        assert_eq!(s.generation.get(), 1);
        assert_eq!(s.parent(goal as usize), 0);
        s.reset();
        assert_eq!(s.parent(goal as usize), NO_PARENT);
    }

    #[test]
    fn fits_only_small_cost_mobilities() {
        let s = LinkedNodes::new(crate::search::window::WINDOW_SLOTS);
        assert!(s.fits(Mobility::FLOOR_ONLY));
        assert!(s.fits(Mobility::new([1, 62, 0, 0])));
        assert!(!s.fits(Mobility::new([1, 63, 0, 0])));
        assert!(!s.fits(Mobility::new([255, 0, 0, 0])));
    }
}
