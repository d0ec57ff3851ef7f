//! Solid units drawn gliding along their straight routes without ever overlapping:
//! how far each may be drawn from the line between its cells' centres.
//!
//! The crowd moves solid units in lockstep from cell to cell, so units drawn at the
//! point between their cells' centres keep apart (a unit enters a cell another leaves
//! behind it). Drawn on its straight route, a unit is off that point by up to
//! [`GLIDE_OFF`](super::GLIDE_OFF) cells. Each unit takes only the share of that offset
//! its neighbours leave room for: half the room between the two points beyond
//! [`APART`] of their sizes, for every neighbour. Two units each taking at most half
//! the room between them are never drawn closer than [`APART`]; a unit with nobody
//! near glides fully. The share changes as the units move, so the drawn positions
//! move continuously.

use bevy::prelude::*;
use tilepath::{AgentId, Cell};

use crate::crowd::Crowds;
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

/// Whether no other unit of `key`'s crowd holds a cell beside the footprint of `size`
/// at `at` (`agent`'s own cells aside).
pub(crate) fn alone(crowds: &Crowds, key: GridKey, agent: AgentId, at: Cell, size: u8) -> bool {
    let Some(crowd) = crowds.get(key).map(|g| &g.crowd) else {
        return true;
    };
    let n = i32::from(size);
    (at.y.saturating_sub(1)..=at.y.saturating_add(n)).all(|y| {
        (at.x.saturating_sub(1)..=at.x.saturating_add(n)).all(|x| {
            crowd
                .holder_slot(Cell::new(x, y))
                .is_none_or(|k| k == agent.index())
        })
    })
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
}

/// One grid's solid units: each agent's anchor point between its cells, its size and
/// the tick it was recorded in, by agent index (older entries are not this tick's).
#[derive(Default)]
struct Placed {
    key: GridKey,
    points: Vec<(Vec2, u8, u32)>,
    largest: u8,
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
        if self.grids.get(self.last).is_none_or(|g| g.key != key) {
            self.last = match self.grids.iter().position(|g| g.key == key) {
                Some(i) => i,
                None => {
                    self.grids.push(Placed { key, ..default() });
                    self.grids.len() - 1
                }
            };
        }
        let g = &mut self.grids[self.last];
        let i = agent.index();
        if g.points.len() <= i {
            g.points.resize(i + 1, (Vec2::ZERO, 0, 0));
        }
        g.points[i] = (line, size, self.tick);
        g.largest = g.largest.max(size);
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
        });
    }

    /// Where each glider is drawn, in the order they were recorded: its anchor's
    /// point, as far towards its route as its neighbours leave room for, and its size.
    pub(crate) fn drawn<'a>(
        &'a self,
        crowds: &'a Crowds,
    ) -> impl Iterator<Item = (Entity, GridKey, Vec2, u8)> + 'a {
        self.gliders
            .iter()
            .map(move |g| (g.entity, g.key, self.point(g, crowds), g.size))
    }

    fn point(&self, g: &Glider, crowds: &Crowds) -> Vec2 {
        let off = g.route - g.line;
        let wants = off.length();
        let (Some(placed), Some(crowd)) = (
            self.grids.iter().find(|p| p.key == g.key),
            crowds.get(g.key).map(|c| &c.crowd),
        ) else {
            return g.line;
        };
        // Less than a thousandth of a cell off: not worth a look round.
        if wants < 1e-3 {
            return g.line;
        }
        let centre = |anchor: Vec2, size: u8| anchor + Vec2::splat(f32::from(size - 1) / 2.0);
        let me = centre(g.line, g.size);
        let largest = f32::from(placed.largest.max(g.size));
        // A unit that could take some of the room has its centre within `APART` of the
        // sizes' halves plus twice the offset wanted (Chebyshev, so also Euclidean);
        // between two cells, its centre is within a cell, along each axis, of the
        // centre of its footprint at the cell it steps into, and so of the centre of
        // a cell it holds.
        let near = 2.0 * wants + APART * (f32::from(g.size) + largest) / 2.0 + 1.0;
        let first = |v: f32| (v - near - 0.5).ceil() as i32;
        let last = |v: f32| (v + near - 0.5).floor() as i32;
        let mut room = f32::INFINITY;
        for y in first(me.y)..=last(me.y) {
            for x in first(me.x)..=last(me.x) {
                let Some(other) = crowd.holder_slot(Cell::new(x, y)) else {
                    continue;
                };
                if other == g.agent.index() {
                    continue;
                }
                let (at, size) = match placed.points.get(other) {
                    Some(&(p, s, tick)) if tick == self.tick => (p, s),
                    // Not moved by a follower this tick: drawn on the cells it holds.
                    _ => match crowd.holder(Cell::new(x, y)).and_then(|id| crowd.agent(id)) {
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
        }
        let share = (room / wants).clamp(0.0, 1.0);
        // The box holds the line's point, so keeping to it only brings the point
        // nearer the line.
        let e = 1e-3;
        (g.line + off * share).clamp(g.lo + e, g.hi - e)
    }
}
