//! Solid units drawn gliding along their straight routes without ever overlapping:
//! how far each may be drawn from the line between its cells' centres.
//!
//! The crowd moves solid units in lockstep from cell to cell, so units drawn at the
//! point between their cells' centres keep apart (a unit enters a cell another leaves
//! behind it). Drawn on its straight route, a unit is off that point by up to
//! [`GLIDE_OFF`](super::GLIDE_OFF) cells. Each unit takes only the share of that offset
//! its neighbours leave room for: half the room between the two points beyond
//! [`APART`] of their sizes, for every neighbour. Two units each taking at most half
//! the room between them are never drawn closer than [`APART`], or than their points
//! between their cells are, where those are closer (two units a diagonal step apart
//! come within `1/sqrt(2)` of a cell; there is no room, and neither glides); a unit
//! with nobody near glides fully. The share changes as the units move, so the drawn positions
//! move continuously.

use bevy::prelude::*;
use tilepath::{AgentId, Cell, Crowd};

use crate::crowd::{Crowds, GridCrowd};
use crate::grid::GridKey;

/// How many solid units may start or keep gliding in a tick, whatever the number of
/// grids: the first in the follower's order (the same every tick, so no unit flickers
/// between its route and its cells). Looking round costs each glider a few dozen
/// cells of its crowd; past this many, in crowds of tens of thousands, the others walk
/// on their cells (one that was gliding settles in a step's time) and cost nothing.
pub(crate) const MOST_GLIDING: usize = 4096;

/// How close two solid units are ever drawn, in cells, over the sum of their sizes'
/// halves (in the grid's cell units: on isometric maps before the projection).
pub(crate) const APART: f32 = 0.8;

/// Whether no other unit of `crowd` holds a cell beside the footprint of `size` at
/// `at` (`agent`'s own cells aside).
fn alone(crowd: &Crowd, agent: AgentId, at: Cell, size: u8) -> bool {
    let n = i32::from(size);
    let min = Cell::new(at.x.saturating_sub(1), at.y.saturating_sub(1));
    let max = Cell::new(at.x.saturating_add(n), at.y.saturating_add(n));
    crowd.holders_in(min, max).all(|(_, k)| k == agent.index())
}

/// A solid unit that its straight route would draw off the line between its cells.
struct Glider {
    entity: Entity,
    key: GridKey,
    agent: AgentId,
    /// The footprint's side.
    size: u8,
    /// The anchor's point between its cells' centres (cell units).
    line: Vec2,
    /// The anchor's point on its straight route.
    route: Vec2,
    /// The box the anchor's point stays in: cells where its footprint fits, round
    /// the cells it steps between (and, for a diagonal step, the two corner cells its
    /// step needs free) and the cell of its route's point when those fit too.
    lo: Vec2,
    hi: Vec2,
    /// The cells it steps between.
    step: (Cell, Cell),
    /// Where it is drawn (set by [`Apart::resolve`]).
    drawn: Vec2,
}

/// What one agent's last look round found, and for what: it holds while its grid's
/// crowd's moves ([`GridCrowd::moves`]) are `moves` and the agent steps as it did
/// then.
#[derive(Clone, Copy, Default)]
struct Look {
    moves: u64,
    /// The cells it stepped between, and its size.
    step: (Cell, Cell),
    size: u8,
    /// Nobody beside it ([`alone`]), if that was asked (`None`: not yet).
    alone: Option<bool>,
    /// Its neighbours within a glider's reach, `near[start..start + len]`, if asked.
    near: Option<(u32, u32)>,
}

/// One grid's solid units: each agent's anchor point between its cells, its size and
/// the tick it was recorded in, by agent index (older entries are not this tick's).
///
/// Who stands beside or near an agent changes only when units move
/// ([`GridCrowd::moves`]: at a step of the crowd, or a unit placed), a step in many
/// ticks: each agent's look round is kept until then (`looks`, by agent index;
/// `near` holds the neighbours the looks found since). A unit recalled meanwhile moves
/// back a cell, which the look round's reach allows for; a unit removed is skipped.
#[derive(Default)]
struct Placed {
    key: GridKey,
    points: Vec<(Vec2, u8, u32)>,
    largest: u8,
    /// The largest size ever placed on this grid: how far a look round reaches.
    largest_ever: u8,
    looks: Vec<Look>,
    /// The crowd's moves ([`GridCrowd::moves`]) `near` was gathered at.
    moves: u64,
    /// Neighbours by agent slot ([`Crowd::holders_in`]: no agent is read to name
    /// them), and beside each, in `near_at`, a cell it held then.
    near: Vec<u32>,
    near_at: Vec<Cell>,
}

impl Placed {
    /// `agent`'s kept look round as it steps from `step.0` to `step.1` at `size`, a
    /// fresh one if the crowd or the agent changed since it was kept.
    fn look(&mut self, gc: &GridCrowd, agent: AgentId, step: (Cell, Cell), size: u8) -> &mut Look {
        let moves = gc.moves();
        if self.moves != moves {
            self.moves = moves;
            self.near.clear();
            self.near_at.clear();
        }
        let i = agent.index();
        if self.looks.len() <= i {
            self.looks.resize(i + 1, Look::default());
        }
        let look = &mut self.looks[i];
        if (look.moves, look.step, look.size) != (moves, step, size) {
            *look = Look {
                moves,
                step,
                size,
                alone: None,
                near: None,
            };
        }
        look
    }
}

/// The solid units the follower moved this tick and those it would draw off their
/// cells' line; kept between ticks so that it allocates nothing once warm.
#[derive(Default)]
pub(crate) struct Apart {
    grids: Vec<Placed>,
    gliders: Vec<Glider>,
    /// This tick's stamp (never 0, which no entry is recorded with).
    tick: u32,
    /// The grid last recorded in: units come grid by grid, mostly.
    last: usize,
}

impl Apart {
    /// Begins a tick: forgets the last tick's units (keeping the memory).
    pub(crate) fn clear(&mut self) {
        self.tick = self.tick.wrapping_add(1);
        if self.tick == 0 {
            // After 2^32 ticks the stamps start over: no old entry may match.
            self.tick = 1;
            for g in &mut self.grids {
                g.points.clear();
            }
        }
        for g in &mut self.grids {
            g.largest = 0;
        }
        self.gliders.clear();
    }

    /// Records where a solid unit of `size` is drawn between its cells this tick.
    pub(crate) fn place(&mut self, key: GridKey, agent: AgentId, line: Vec2, size: u8) {
        let tick = self.tick;
        let g = self.placed_mut(key);
        let i = agent.index();
        if g.points.len() <= i {
            g.points.resize(i + 1, (Vec2::ZERO, 0, 0));
        }
        g.points[i] = (line, size, tick);
        g.largest = g.largest.max(size);
        g.largest_ever = g.largest_ever.max(size);
    }

    /// Whether no other unit of `key`'s crowd holds a cell beside the footprint of
    /// `size` at `at`, which `agent` steps into from `from` (its own cells aside);
    /// looked at once while no unit of the crowd moves ([`GridCrowd::moves`]). Only
    /// how fast it glides follows from this: how close it is drawn to others is
    /// [`resolve`](Self::resolve)'s.
    pub(crate) fn alone(
        &mut self,
        crowds: &Crowds,
        (key, agent): (GridKey, AgentId),
        (from, at): (Cell, Cell),
        size: u8,
    ) -> bool {
        let Some(gc) = crowds.get(key) else {
            return true;
        };
        let g = self.placed_mut(key);
        let look = g.look(gc, agent, (from, at), size);
        *look
            .alone
            .get_or_insert_with(|| alone(&gc.crowd, agent, at, size))
    }

    /// The grid's record, made if it has none.
    fn placed_mut(&mut self, key: GridKey) -> &mut Placed {
        if self.grids.get(self.last).is_none_or(|g| g.key != key) {
            self.last = match self.grids.iter().position(|g| g.key == key) {
                Some(i) => i,
                None => {
                    self.grids.push(Placed { key, ..default() });
                    self.grids.len() - 1
                }
            };
        }
        &mut self.grids[self.last]
    }

    /// Records a solid unit (already [`place`](Self::place)d) that its route would
    /// draw at `route`, stepping from `from` to `to`; `fits` says whether its footprint
    /// fits at an anchor.
    #[expect(
        clippy::too_many_arguments,
        reason = "one unit's drawing, recorded whole"
    )]
    pub(crate) fn glide(
        &mut self,
        entity: Entity,
        (key, agent): (GridKey, AgentId),
        size: u8,
        line: Vec2,
        route: Vec2,
        (from, to): (Cell, Cell),
        fits: impl Fn(Cell) -> bool,
    ) {
        let corner = |c: Cell| Vec2::new(c.x as f32, c.y as f32);
        let mut lo = corner(from).min(corner(to));
        let mut hi = corner(from).max(corner(to)) + Vec2::ONE;
        // Widened to the route's point's cell if every anchor of the wider box fits
        // (the box stays convex, so every point between the line and the route is in
        // it): a unit with room is drawn on its route, as one that is not solid.
        let on = route.floor();
        let (wlo, whi) = (lo.min(on), hi.max(on + Vec2::ONE));
        if (wlo, whi) != (lo, hi) {
            let (x0, y0, x1, y1) = (wlo.x as i32, wlo.y as i32, whi.x as i32, whi.y as i32);
            if (y0..y1).all(|y| (x0..x1).all(|x| fits(Cell::new(x, y)))) {
                (lo, hi) = (wlo, whi);
            }
        }
        self.gliders.push(Glider {
            entity,
            key,
            agent,
            size,
            line,
            route,
            lo,
            hi,
            step: (from, to),
            drawn: line,
        });
    }

    /// Works out where each glider is drawn: its anchor's point, as far towards its
    /// route as its neighbours leave room for.
    pub(crate) fn resolve(&mut self, crowds: &Crowds) {
        let tick = self.tick;
        for g in &mut self.gliders {
            g.drawn = match (
                self.grids.iter_mut().find(|p| p.key == g.key),
                crowds.get(g.key),
            ) {
                (Some(placed), Some(gc)) => point(g, placed, gc, tick),
                _ => g.line,
            };
        }
    }

    /// Where each glider is drawn ([`resolve`](Self::resolve)), in the order they were
    /// recorded, with its key and size.
    pub(crate) fn drawn(&self) -> impl Iterator<Item = (Entity, GridKey, Vec2, u8)> + '_ {
        self.gliders
            .iter()
            .map(|g| (g.entity, g.key, g.drawn, g.size))
    }
}

/// Where glider `g` of `placed`'s grid is drawn: its anchor's point, as far towards
/// its route as its neighbours (in its kept look round) leave room for.
fn point(g: &Glider, placed: &mut Placed, gc: &GridCrowd, tick: u32) -> Vec2 {
    let off = g.route - g.line;
    let wants = off.length();
    // Less than a thousandth of a cell off: not worth a look round.
    if wants < 1e-3 {
        return g.line;
    }
    let centre = |anchor: Vec2, size: u8| anchor + Vec2::splat(f32::from(size - 1) / 2.0);
    let me = centre(g.line, g.size);
    let (start, len) = near(g, placed, gc);
    let crowd = &gc.crowd;
    let mut room = f32::INFINITY;
    let range = start as usize..(start + len) as usize;
    for (&other, &held) in placed.near[range.clone()]
        .iter()
        .zip(&placed.near_at[range])
    {
        let (at, size) = match placed.points.get(other as usize) {
            Some(&(p, s, t)) if t == tick => (p, s),
            // Not moved by a follower this tick (one without a follower, which only
            // the game moves, and then the crowd's moves change): drawn on the cells
            // held by whoever holds the cell it was found on.
            _ => match crowd.holder(held).and_then(|id| crowd.agent(id)) {
                Some(spec) => (
                    Vec2::new(spec.cell.x as f32 + 0.5, spec.cell.y as f32 + 0.5),
                    spec.size,
                ),
                None => continue,
            },
        };
        let apart = APART * f32::from(g.size + size) / 2.0;
        room = room.min((me.distance(centre(at, size)) - apart) / 2.0);
    }
    let share = (room / wants).clamp(0.0, 1.0);
    // The box holds the line's point, so keeping to it only brings the point nearer
    // the line.
    let e = 1e-3;
    (g.line + off * share).clamp(g.lo + e, g.hi - e)
}

/// Glider `g`'s neighbours: every other agent holding a cell a unit that could take
/// some of its room may hold, wherever on its step it is drawn and however far off
/// its line (at most [`GLIDE_OFF`](super::GLIDE_OFF)). Such a unit has its centre
/// within `APART` of the sizes' halves plus twice the offset wanted (Chebyshev, so
/// also Euclidean); between two cells, its centre is within a cell, along each
/// axis, of the centre of its footprint at the cell it steps into, and so of the
/// centre of a cell it holds; and a cell more, for a unit recalled since, which moves
/// back a cell. Gathered once while no unit of the crowd has moved
/// ([`GridCrowd::moves`]): a range of `placed.near`.
fn near(g: &Glider, placed: &mut Placed, gc: &GridCrowd) -> (u32, u32) {
    let largest = f32::from(placed.largest_ever.max(g.size));
    let (step, size) = (g.step, g.size);
    if let Some(range) = placed.look(gc, g.agent, step, size).near {
        return range;
    }
    let reach = 2.0 * super::GLIDE_OFF + APART * (f32::from(size) + largest) / 2.0 + 2.0;
    // The footprint's centre at either end of the step: the line runs between them.
    let half = f32::from(size) / 2.0;
    let at = |c: Cell| Vec2::new(c.x as f32 + half, c.y as f32 + half);
    let (lo, hi) = (at(step.0).min(at(step.1)), at(step.0).max(at(step.1)));
    let first = |v: f32| (v - reach - 0.5).ceil() as i32;
    let last = |v: f32| (v + reach - 0.5).floor() as i32;
    let start = placed.near.len();
    let me = g.agent.index() as u32;
    let min = Cell::new(first(lo.x), first(lo.y));
    let max = Cell::new(last(hi.x), last(hi.y));
    for (cell, other) in gc.crowd.holders_in(min, max) {
        let other = other as u32;
        if other != me && !placed.near[start..].contains(&other) {
            placed.near.push(other);
            placed.near_at.push(cell);
        }
    }
    let range = (start as u32, (placed.near.len() - start) as u32);
    placed.look(gc, g.agent, step, size).near = Some(range);
    range
}
