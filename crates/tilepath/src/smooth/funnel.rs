//! The shortest route inside a grid path's corridor: the string pulled through the
//! cells the path walks, in one pass and without reading the grid.
//!
//! The corridor is the path's cells, and at each diagonal step the two cells beside
//! it (the grid's rule keeps both clear for the step): a diagonal step crosses the
//! square of its four cells. The corridor is cut into convex pieces, cells and those
//! squares, by *portals*: the edge two cells in a row share, and between two diagonal
//! steps one way the line across the cell they share, from corner to corner (the
//! squares overlap there). The shortest route from the first cell's centre to the
//! last's that crosses every portal in order is found by the funnel algorithm (Lee and
//! Preparata's, in its "simple stupid funnel" form): its turns are portal ends,
//! corners of the corridor, where it bends round a wall or only turns in open ground.
//! The first kind are the turns of a taut route; the second are where the truly
//! shortest leaves the corridor, and pulling straight goes on from there.

use super::Waypoint;
use super::bend::{Half, cross, dot, sub};
use crate::Cell;

/// A portal: its end on the left of the way the path goes (`cross(way, l) < 0`) and
/// on the right, in half cells.
type Portal = (Half, Half);

/// Finds the shortest routes through corridors ([`through`](Self::through)), holding
/// the portals of the one it is working on.
#[derive(Clone, Debug, Default)]
pub(super) struct Funnel {
    portals: Vec<Portal>,
}

impl Funnel {
    /// No scratch yet.
    pub(super) const fn new() -> Self {
        Self {
            portals: Vec::new(),
        }
    }

    /// Appends to `out` the points where the shortest route from the centre of
    /// `cells[0]` through the corridor of `cells` turns, then the last cell's centre.
    /// `false` (with `out` as it was) where `cells` make no corridor: two cells in a
    /// row are not one step apart, or the corridor folds onto itself so that portals
    /// cross (no shortest path does). Reads nothing of the grid: that the corridor is
    /// clear for the unit (no dearer ground in it) is the caller's to check, segment
    /// by segment. Adds the portals it weighed to `work`.
    pub(super) fn through(
        &mut self,
        cells: &[Cell],
        out: &mut Vec<Waypoint>,
        work: &mut u64,
    ) -> bool {
        let Some(&first) = cells.first() else {
            return false;
        };
        // The steps it weighs, each once.
        *work += (cells.len() - 1) as u64;
        let portals = &mut self.portals;
        portals.clear();
        let start = centre(first);
        portals.push((start, start));
        let mut before: Option<Half> = None;
        // Portals pushed along the current run of steps one way, and the cell and way
        // of the run's last step when its portal is still owed.
        let (mut run, mut owed) = (0, None);
        let mut k = 1;
        while k < cells.len() {
            let (c, d) = (cells[k - 1], cells[k]);
            let way = (
                i64::from(d.x) - i64::from(c.x),
                i64::from(d.y) - i64::from(c.y),
            );
            // Along a run of steps one way the corridor between the run's first and
            // last portal is convex (a strip of cells, or of diagonal steps' squares
            // cut at their shared cells), so the portals between say nothing more:
            // only the run's last is owed, in place of its second.
            if before == Some(way) && run >= 2 {
                let step = d - c;
                let mut end = k + 1;
                while end < cells.len() && cells[end] - cells[end - 1] == step {
                    end += 1;
                }
                owed = Some((cells[end - 2], way));
                k = end;
                continue;
            }
            k += 1;
            if let Some(o) = owed.take() {
                settle(portals, o);
            }
            let Some(next) = portal(c, way, before) else {
                return false;
            };
            run = if before == Some(way) { run + 1 } else { 1 };
            before = Some(way);
            let Some(next) = next else {
                run = 0;
                continue;
            };
            // Folding: a portal that crosses the one before it.
            if portals.len() > 1 && crosses(portals[portals.len() - 1], next) {
                return false;
            }
            portals.push(next);
        }
        if let Some(o) = owed {
            settle(portals, o);
        }
        let end = centre(cells[cells.len() - 1]);
        portals.push((end, end));
        let mark = out.len();
        if pull(portals, out, work) {
            true
        } else {
            out.truncate(mark);
            false
        }
    }
}

/// The portal a step `way` from `c` crosses after a step `before`: `Some(None)` where
/// it crosses none (into, or through, a diagonal step's square), `None` where the step
/// is not one step or goes back into the cells just left (no shortest path does).
fn portal(c: Cell, way: Half, before: Option<Half>) -> Option<Option<Portal>> {
    if way.0.abs() > 1 || way.1.abs() > 1 || way == (0, 0) {
        return None;
    }
    let diagonal = way.0 != 0 && way.1 != 0;
    let (cx, cy) = centre(c);
    let ends = match before {
        // A straight step against the one before, or a diagonal one across it.
        Some(s) if dot(s, way) < 0 || (diagonal && s.0 != 0 && s.1 != 0 && s != way) => {
            return None;
        }
        Some(s) if diagonal && (s.0 == 0 || s.1 == 0) => return Some(None),
        None if diagonal => return Some(None),
        // From one diagonal step's square to the next's: across the cell they share,
        // corner to corner.
        Some(_) if diagonal => [(cx + way.0, cy - way.1), (cx - way.0, cy + way.1)],
        // The edge between the two cells.
        _ => {
            let (kx, ky) = (cx + way.0, cy + way.1);
            [(kx - way.1, ky - way.0), (kx + way.1, ky + way.0)]
        }
    };
    Some(Some(if cross(way, sub(ends[0], (cx, cy))) < 0 {
        (ends[0], ends[1])
    } else {
        (ends[1], ends[0])
    }))
}

/// Puts the portal owed for a run's last step (from `c`, `way` like the steps before
/// it) in place of the run's second.
fn settle(portals: &mut [Portal], (c, way): (Cell, Half)) {
    if let (Some(Some(p)), Some(last)) = (portal(c, way, Some(way)), portals.last_mut()) {
        *last = p;
    }
}

/// The centre of `c` in half cells.
fn centre(c: Cell) -> Half {
    (2 * i64::from(c.x) + 1, 2 * i64::from(c.y) + 1)
}

/// Whether the open segments of two portals cross.
fn crosses((a, b): Portal, (c, d): Portal) -> bool {
    let side = |p: Half, q: Half, r: Half| cross(sub(q, p), sub(r, p)).signum();
    side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0
}

/// The funnel algorithm over `portals` (the first and last are the ends, as
/// degenerate portals): appends the turns and the end to `out`. `false` if it
/// restarts so often that the corridor cannot be a shortest path's (a bound of a
/// few passes over the portals).
fn pull(portals: &[Portal], out: &mut Vec<Waypoint>, work: &mut u64) -> bool {
    let point = |p: Half| Waypoint::from_half_cells(p.0, p.1);
    let (mut apex, mut left, mut right) = (portals[0].0, portals[0].0, portals[0].1);
    let (mut left_i, mut right_i) = (0, 0);
    let full = 8 * portals.len() + 64;
    let mut budget = full;
    let mut i = 1;
    while i < portals.len() {
        if budget == 0 {
            *work += full as u64;
            return false;
        }
        budget -= 1;
        let (l, r) = portals[i];
        // The right side narrows (or stays) when `r` is not right of it.
        if cross(sub(right, apex), sub(r, apex)) <= 0 {
            if apex == right || cross(sub(left, apex), sub(r, apex)) > 0 {
                (right, right_i) = (r, i);
            } else {
                // Past the left side: the route turns round it.
                let apex_i = left_i;
                apex = left;
                out.push(point(apex));
                (left, right, left_i, right_i) = (apex, apex, apex_i, apex_i);
                i = apex_i + 1;
                continue;
            }
        }
        if cross(sub(left, apex), sub(l, apex)) >= 0 {
            if apex == left || cross(sub(right, apex), sub(l, apex)) < 0 {
                (left, left_i) = (l, i);
            } else {
                let apex_i = right_i;
                apex = right;
                out.push(point(apex));
                (left, right, left_i, right_i) = (apex, apex, apex_i, apex_i);
                i = apex_i + 1;
                continue;
            }
        }
        i += 1;
    }
    // The portals weighed, counted by what is left of the budget.
    *work += (full - budget) as u64;
    let end = portals[portals.len() - 1].0;
    if out.last() != Some(&point(end)) {
        out.push(point(end));
    }
    true
}
