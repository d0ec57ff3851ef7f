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

/// How close two solid units are ever drawn, in cells, over the sum of their sizes'
/// halves (in the grid's cell units: on isometric maps before the projection).
pub(crate) const APART: f32 = 0.8;

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

/// One grid's solid units this tick: each agent's anchor point between its cells and
/// its size, by agent index (size 0: not placed this tick).
#[derive(Default)]
struct Placed {
    key: GridKey,
    points: Vec<(Vec2, u8)>,
    largest: u8,
}

/// The solid units the follower moved this tick and those it would draw off their
/// cells' line; kept between ticks so that it allocates nothing once warm.
#[derive(Default)]
pub(crate) struct Apart {
    grids: Vec<Placed>,
    gliders: Vec<Glider>,
}

impl Apart {
    /// Forgets the last tick's units (keeping the memory).
    pub(crate) fn clear(&mut self) {
        for g in &mut self.grids {
            g.points.clear();
            g.largest = 0;
        }
        self.gliders.clear();
    }

    /// Records where a solid unit of `size` is drawn between its cells this tick.
    pub(crate) fn place(&mut self, key: GridKey, agent: AgentId, line: Vec2, size: u8) {
        let g = match self.grids.iter().position(|g| g.key == key) {
            Some(i) => &mut self.grids[i],
            None => {
                self.grids.push(Placed { key, ..default() });
                self.grids.last_mut().expect("just pushed")
            }
        };
        let i = agent.index();
        if g.points.len() <= i {
            g.points.resize(i + 1, (Vec2::ZERO, 0));
        }
        g.points[i] = (line, size);
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

    /// Where each glider is drawn: its anchor's point, as far towards its route as its
    /// neighbours leave room for, and its size.
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
        if wants <= f32::EPSILON {
            return g.line;
        }
        let centre = |anchor: Vec2, size: u8| anchor + Vec2::splat(f32::from(size - 1) / 2.0);
        let me = centre(g.line, g.size);
        let largest = f32::from(placed.largest.max(g.size));
        // A unit that could take some of the room is drawn within `APART` of the sizes'
        // halves plus twice the offset wanted; its centre is within half its size and a
        // step of a cell it holds.
        let reach = 2.0 * wants + APART * (f32::from(g.size) + largest) / 2.0 + largest / 2.0 + 1.5;
        let r = reach.ceil() as i32;
        let (cx, cy) = (me.x.floor() as i32, me.y.floor() as i32);
        let mut room = f32::INFINITY;
        for y in cy.saturating_sub(r)..=cy.saturating_add(r) {
            for x in cx.saturating_sub(r)..=cx.saturating_add(r) {
                let Some(other) = crowd.holder(Cell::new(x, y)) else {
                    continue;
                };
                if other == g.agent {
                    continue;
                }
                let (at, size) = match placed.points.get(other.index()) {
                    Some(&(p, s)) if s > 0 => (p, s),
                    // Not moved by a follower this tick: drawn on the cells it holds.
                    _ => match crowd.agent(other) {
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
