//! The ready-made movement: walks units along their paths (`apart.rs`: solid units
//! drawn on their straight routes without overlapping).

mod apart;

use core::f32::consts::SQRT_2;

use bevy::prelude::*;
use tilepath::{Cell, Connectivity, Direction8};

use crate::crowd::{Crowds, Seat};
use crate::grid::Grids;
use crate::{GridCell, OnGrid, PathRequest, UnitPath};
use apart::Apart;

/// Walks a unit along its [`UnitPath`] at `speed` cells per second, updating its
/// [`GridCell`] and (if it has one) its `Transform`, positioned with its grid's
/// [`GridTransform`](crate::GridTransform) (the resource, or
/// [`PathingMap::transform`](crate::PathingMap::transform) for a unit
/// [`OnGrid`]). A unit whose grid does not exist stands still. Replace it with your
/// own movement system by not adding this component.
///
/// A [`Solid`](crate::Solid) unit steps where its grid's crowd sends it (along its
/// path when the way is free), so that it never enters a cell another solid unit
/// holds; its speed sets how often it steps, and each step takes its crowd's period
/// (see [`Solid`](crate::Solid)); it does not cut L-turns. On a straight route it is
/// drawn gliding along the route as far as the solid units near it leave room: gliding
/// never brings it closer to another than 0.8 of the sum of their sizes' halves (in
/// cells), or than the two would be drawn on their cells if that is closer (two units
/// stepping side by side, one diagonally, come within `1/sqrt(2)` of a cell), so that
/// when nobody is near it glides as a unit that is not solid, and in a tight file it
/// is drawn on its cells.
///
/// With the `serde` feature it is saved whole, the step it is taking included, so a
/// loaded follower finishes that step.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct PathFollower {
    /// Cells per second.
    pub speed: f32,
    /// Cut an L-turn (two orthogonal steps) into one diagonal step when both cells
    /// beside the corner are passable.
    pub smooth_diagonals: bool,
    /// Progress through the current step, 0..1.
    pub(crate) progress: f32,
    /// Length of the current step in cells (1, or `sqrt(2)` for a diagonal).
    pub(crate) step_len: f32,
    /// The cell the current step started from.
    pub(crate) from: Option<Cell>,
    /// The cell the follower last left the unit's [`GridCell`] at (`None`: not yet).
    pub(crate) placed: Option<Cell>,
    /// The grid the follower last moved the unit on ([`OnGrid`]'s entity, `None` for
    /// the default grid).
    pub(crate) placed_on: Option<Entity>,
    /// A [`Solid`](crate::Solid) unit's share of the way from the line between its
    /// cells to its straight route, 0..1: it grows while the unit walks with no other
    /// solid unit beside it and shrinks otherwise, a step's time either way, so that a
    /// unit that stops or meets others settles on its cells without a jump (and costs
    /// nothing to draw there). At most about 4,096 solid units glide at once.
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) glide: f32,
}

impl PathFollower {
    /// A follower moving `speed` cells per second, without diagonal smoothing.
    #[must_use]
    pub fn new(speed: f32) -> Self {
        Self {
            speed,
            smooth_diagonals: false,
            progress: 1.0,
            step_len: 1.0,
            from: None,
            placed: None,
            placed_on: None,
            glide: 0.0,
        }
    }

    /// With diagonal smoothing of L-turns.
    #[must_use]
    pub fn smoothed(mut self) -> Self {
        self.smooth_diagonals = true;
        self
    }

    /// Whether the unit is between two cells.
    #[must_use]
    pub fn is_moving(&self) -> bool {
        self.progress < 1.0
    }
}

/// Moves every [`PathFollower`] along its [`UnitPath`].
///
/// A unit moves `speed * dt` cells a tick, a step at a time, cell centre to cell
/// centre in the map's own [`layout`](crate::MapLayout) (a unit bigger than one cell,
/// footprint centre to footprint centre:
/// [`GridTransform::footprint_to_world`](crate::GridTransform::footprint_to_world)); a
/// path pulled straight ([`UnitPath::waypoints`]) is drawn gliding along its straight
/// route ([`GridTransform::point_to_world`](crate::GridTransform::point_to_world)),
/// the point of it nearest where the step is, while its steps take it through the
/// cells the route crosses (a [`Solid`](crate::Solid) unit walks those cells, and is
/// drawn towards its route only as far as the solid units near it leave room, so
/// that it never overlaps another; always on the cells its step joins). It enters its
/// next cell (its [`GridCell`] changes) when it leaves the current one, so other
/// systems see the cell it is heading into. Every step is checked with
/// [`MapLayout::can_step`](crate::MapLayout::can_step) (the footprint's step, on hex
/// maps the hex step) against the mobility and size the path was planned for
/// ([`UnitPath::mobility`], [`UnitPath::size`]), so a unit never enters a blocked
/// cell:
/// - it stops, and waits for the new plan the plugin then makes, when its next step
///   has become illegal (an edit of a cell the step enters or, for a diagonal step,
///   of a corner cell beside it) or when it is not where its path says;
/// - when the cell it is stepping into is blocked while it is on its way, it turns
///   back to the cell it came from if that step back is legal (its `GridCell` goes
///   back too) and the plugin plans again from there; otherwise it goes on.
///
/// A unit is only ever moved to its `GridCell` or by a legal step from it, never
/// further: a unit whose `GridCell` or [`OnGrid`] was changed by something else
/// (moved by hand, put on another grid) drops the step it was taking and starts
/// afresh from where it was put.
#[expect(clippy::type_complexity, reason = "a system's query")]
pub(crate) fn follow_paths(
    time: Res<Time>,
    grids: Grids,
    crowds: Res<Crowds>,
    mut apart: Local<Apart>,
    mut units: Query<(
        Entity,
        &mut PathFollower,
        &mut UnitPath,
        &mut GridCell,
        Option<&OnGrid>,
        Option<&mut Transform>,
        Option<&Seat>,
        Option<&PathRequest>,
    )>,
) {
    let dt = time.delta_secs();
    apart.clear();
    // Solid units that may start or keep gliding this tick (see `apart::MOST_GLIDING`).
    let mut glide_slots = apart::MOST_GLIDING;
    for (entity, mut follower, mut path, mut cell, on_grid, transform, seat, request) in &mut units
    {
        // A solid unit the crowd moves (see `Solid`).
        let seat = seat.filter(|s| s.agent.is_some());
        let key = on_grid.map(|g| g.0);
        let Some((grid, world)) = grids.get(key) else {
            continue;
        };
        let grid = grid.grid();
        let (mobility, size) = (path.mobility, path.size);
        let hex = world.layout.hex();
        // A step the path may take now (the one rule paths keep).
        let legal = |at: Cell, d: Direction8| world.layout.can_step(grid, at, d, mobility, size);
        // A solid unit walks each step its crowd decided within the crowd's period
        // (its speed sets how often it steps), in steps: every step counts as one.
        let pace = seat.and_then(|s| crowds.pace(s, dt));
        let per_tick = pace.unwrap_or(follower.speed.max(0.0)) * dt;
        let mut budget = per_tick;
        let mut f = *follower;
        let mut at = cell.0;
        let mut p = *path;
        // Put elsewhere than the follower left it: the step it was taking (from a
        // cell of wherever it was) is dropped, and it starts afresh where it is.
        if f.placed != Some(at) || f.placed_on != key {
            f.progress = 1.0;
            f.step_len = 1.0;
            f.from = None;
        }
        // Walled while stepping into it: turn back if the step back is legal (it was
        // a moment ago; if it is not now, going on is the only way out).
        if f.progress < 1.0
            && let Some(from) = f.from
            && !grid.fits(at, mobility, size)
            && grid.fits(from, mobility, size)
            && let Some(back) = step_between(at, from)
            && legal(at, back)
            // A solid unit turns back only to a cell no other unit was sent to.
            && seat.is_none_or(|s| crowds.may_return(s, from))
        {
            f.from = Some(at);
            at = from;
            f.progress = 1.0 - f.progress;
        }
        let (start, started) = (at, f.progress);
        loop {
            if f.progress < 1.0 {
                let left = (1.0 - f.progress) * f.step_len;
                if budget < left {
                    f.progress += budget / f.step_len;
                    break;
                }
                budget -= left;
                f.progress = 1.0;
            }
            if budget <= 0.0 {
                break;
            }
            if let Some(seat) = seat {
                // Where the crowd sent it this tick, if anywhere. Along its path the
                // path goes on with it; a unit stepping aside off its path takes it
                // up again further on, or is planned again from where it stands.
                let Some(to) = crowds.next_cell(seat, at) else {
                    break;
                };
                let Some(d) = step_between(at, to) else { break };
                if !legal(at, d) {
                    break;
                }
                if p.at == at && p.peek_cell() == Some(to) {
                    p.advance();
                } else if p.at != to {
                    // Stepped aside: back onto the path further on if it is a step
                    // away (a step of the unit's moves on this map), else planned
                    // again from where it stands.
                    let requested = request.map_or(Connectivity::Four, |r| r.connectivity);
                    let _ = p.rejoin(to, world.layout.connectivity(requested), legal);
                }
                f.from = Some(at);
                at = to;
                f.step_len = 1.0;
                f.progress = 0.0;
                continue;
            }
            if p.at != at {
                break;
            }
            let Some(d1) = p.steps.peek() else { break };
            if !legal(at, d1) {
                break;
            }
            p.advance();
            let mut to = at.step(d1);
            // Hex steps all join neighbouring centres.
            let mut len = if d1.is_diagonal() && hex.is_none() {
                SQRT_2
            } else {
                1.0
            };
            if f.smooth_diagonals
                && hex.is_none()
                && !d1.is_diagonal()
                && let Some(d2) = p.steps.peek()
                && let (Some(a), Some(b)) = (d1.orthogonal(), d2.orthogonal())
                && let Some(diagonal) = Direction8::combine(a, b)
                && legal(at, diagonal)
            {
                p.advance();
                to = at.step(diagonal);
                len = SQRT_2;
            }
            f.from = Some(at);
            at = to;
            f.step_len = len;
            f.progress = 0.0;
        }
        f.placed = Some(at);
        f.placed_on = key;
        if let Some(&Seat {
            agent: Some((grid_key, agent)),
            ..
        }) = seat
        {
            // Towards its route while it walks with nobody beside it; back onto its
            // cells while it stands or has a unit beside it (where there is little
            // room anyway, and looking round every unit of a crowd would cost the
            // most).
            let walked = at != start || f.progress != started;
            // Never on hex maps, whose routes are not pulled straight.
            let roomy = walked
                && hex.is_none()
                && glide_slots > 0
                && apart.alone(&crowds, (grid_key, agent), (f.from.unwrap_or(at), at), size);
            let change = if roomy { per_tick } else { -per_tick };
            f.glide = (f.glide + change).clamp(0.0, 1.0);
            if f.glide > 0.0 {
                glide_slots = glide_slots.saturating_sub(1);
            }
        }
        follower.set_if_neq(f);
        path.set_if_neq(p);
        cell.set_if_neq(GridCell(at));
        // Drawn at the size it asks for (a unit without a path yet has none).
        let drawn = request.map_or(size, |r| r.size.max(1));
        let from = f.from.unwrap_or(at);
        let t = f.progress.min(1.0);
        let centre = |c: Cell| Vec2::new(c.x as f32 + 0.5, c.y as f32 + 0.5);
        let line = centre(from).lerp(centre(at), t);
        // Along the straight route its steps were pulled from, where the step keeps
        // to it. Not while it finishes a step of an earlier path into the cell the
        // new one starts at (drawn on the new route it would wait at that cell's
        // centre while the step runs out). A solid unit takes its share of the way.
        let glide =
            (hex.is_none() && p.waypoints.start() != at && (seat.is_none() || f.glide > 0.0))
                .then(|| p.waypoints.nearest(line))
                .flatten()
                .filter(|&(_, off)| off <= GLIDE_OFF)
                .map(|(q, _)| q);
        // A solid unit is drawn once every solid unit's place is known (`apart.rs`).
        if let Some((grid_key, agent)) = seat.and_then(|s| s.agent) {
            apart.place(grid_key, agent, line, drawn);
            if let Some(q) = glide {
                let q = line.lerp(q, f.glide);
                let fits = |c: Cell| grid.fits(c, mobility, size);
                apart.glide(entity, (grid_key, agent), drawn, line, q, (from, at), fits);
                continue;
            }
        }
        if let Some(mut transform) = transform {
            let pos = match glide {
                Some(q) => world.point_to_world(q, drawn),
                None => world
                    .footprint_to_world(from, drawn)
                    .lerp(world.footprint_to_world(at, drawn), t),
            };
            place(&mut transform, pos);
        }
    }
    // The gliders were recorded in the query's order, which a second pass keeps (no
    // entity changed its components meanwhile): walking it beats looking each up.
    apart.resolve(&crowds);
    let mut gliders = apart.drawn().peekable();
    if gliders.peek().is_some() {
        for (entity, .., transform, _, _) in &mut units {
            match gliders.peek() {
                Some(g) if g.0 == entity => {}
                Some(_) => continue,
                None => break,
            }
            let Some((_, key, point, drawn)) = gliders.next() else {
                break;
            };
            if let (Some((_, world)), Some(mut transform)) = (grids.get(key), transform) {
                place(&mut transform, world.point_to_world(point, drawn));
            }
        }
    }
    for (entity, key, point, drawn) in gliders {
        let (Some((_, world)), Ok((.., Some(mut transform), _, _))) =
            (grids.get(key), units.get_mut(entity))
        else {
            continue;
        };
        place(&mut transform, world.point_to_world(point, drawn));
    }
}

/// Moves `transform` to `pos` in x and y, marking it changed only if it moves.
fn place(transform: &mut Mut<Transform>, pos: Vec2) {
    if transform.translation.truncate() != pos {
        transform.translation.x = pos.x;
        transform.translation.y = pos.y;
    }
}

/// How far, in cells, a unit between two cells may be from its path's straight route
/// and still be drawn on it: a step along the route keeps within a cell of it.
const GLIDE_OFF: f32 = 0.75;

/// The step from `at` to `to`, if they are neighbours.
fn step_between(at: Cell, to: Cell) -> Option<Direction8> {
    let offset = (to.x.checked_sub(at.x)?, to.y.checked_sub(at.y)?);
    Direction8::ALL.into_iter().find(|d| d.offset() == offset)
}
