//! The ready-made movement system: walks units along their paths.

use core::f32::consts::SQRT_2;

use bevy::prelude::*;
use tilepath::{Cell, Direction8, Grid, GridLayer};

use crate::{GridCell, GridTransform, PathFollower, PathRequest, PathingGrid, UnitPath};

/// Whether a unit may step from `from` in direction `dir` (diagonals: no corner cutting).
fn can_step(grid: &Grid, from: Cell, dir: Direction8, layer: GridLayer) -> bool {
    let to = from.step(dir);
    if !grid.is_passable(to, layer) {
        return false;
    }
    if dir.is_diagonal() {
        let (dx, dy) = dir.offset();
        return grid.is_passable(Cell::new(from.x + dx, from.y), layer)
            && grid.is_passable(Cell::new(from.x, from.y + dy), layer);
    }
    true
}

/// Moves every [`PathFollower`] along its [`UnitPath`].
///
/// A unit moves `speed * dt` cells a tick, cell centre to cell centre. It enters its
/// next cell (its [`GridCell`] changes) when it leaves the current one, so other
/// systems see the cell it is heading into. It stops, and waits for the new plan the
/// plugin then makes, when the next cell has become blocked or when it is not where
/// its path says.
#[expect(clippy::type_complexity, reason = "a system's query")]
pub(crate) fn follow_paths(
    time: Res<Time>,
    grid: Res<PathingGrid>,
    world: Res<GridTransform>,
    mut units: Query<(
        &mut PathFollower,
        &mut UnitPath,
        &mut GridCell,
        Option<&PathRequest>,
        Option<&mut Transform>,
    )>,
) {
    let dt = time.delta_secs();
    let grid = grid.grid();
    for (mut follower, mut path, mut cell, request, transform) in &mut units {
        let layer = request.map_or(GridLayer::ALL_PASSABLE, |r| r.layer);
        let mut budget = follower.speed.max(0.0) * dt;
        let mut f = *follower;
        let mut at = cell.0;
        let mut p = *path;
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
            if budget <= 0.0 || p.at != at {
                break;
            }
            let Some(d1) = p.steps.peek() else { break };
            if !can_step(grid, at, d1, layer) {
                break;
            }
            p.advance();
            let mut to = at.step(d1);
            let mut len = if d1.is_diagonal() { SQRT_2 } else { 1.0 };
            if f.smooth_diagonals
                && !d1.is_diagonal()
                && let Some(d2) = p.steps.peek()
                && let (Some(a), Some(b)) = (d1.orthogonal(), d2.orthogonal())
                && let Some(diagonal) = Direction8::combine(a, b)
                && can_step(grid, at, diagonal, layer)
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
        follower.set_if_neq(f);
        path.set_if_neq(p);
        cell.set_if_neq(GridCell(at));
        if let Some(mut transform) = transform {
            let a = world.cell_to_world(f.from.unwrap_or(at));
            let b = world.cell_to_world(at);
            let pos = a.lerp(b, f.progress.min(1.0));
            if transform.translation.truncate() != pos {
                transform.translation.x = pos.x;
                transform.translation.y = pos.y;
            }
        }
    }
}
