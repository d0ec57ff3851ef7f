//! The truly shortest route where a pulled one may be far from it: a visibility graph
//! over the wall corners inside the ellipse the pulled route's length bounds.

use super::bend::{Arc, Half, quadrant, runs_into, turns_round};
use super::{Sight, Waypoint};

/// How much longer than the straight line a route may be before
/// [`Visibility::shorten`] looks for a shorter one: a route within this of the straight
/// line is within it of the truly shortest, so this is the most a route can be off
/// the truly shortest where the search is not skipped for its size.
const SLACK: f64 = 0.05;

/// Most cells the ellipse may cover for [`Visibility::shorten`] to search it: the
/// search reads every corner inside and weighs pairs of wall corners, so a long
/// route that winds far from the straight line (a maze's, a route through several
/// rooms) is left as pulled. Its turns are then mostly forced by the walls it wraps.
const MAX_CELLS: f64 = 256.0;

/// Most wall corners the search weighs: its cost grows with their square.
const MAX_CORNERS: usize = 128;

/// A point the shortest route may turn at, and the search's state for it.
#[derive(Clone, Copy, Debug)]
struct Node {
    point: Half,
    /// Length of the shortest route found from the start, in half cells.
    g: f64,
    /// The node it comes from (`u32::MAX`: none yet; the start is node 0).
    parent: u32,
    closed: bool,
    /// The directions from the corner into its wall (the start's is not read).
    wall: Arc,
}

fn distance(a: Half, b: Half) -> f64 {
    let (dx, dy) = ((b.0 - a.0) as f64, (b.1 - a.1) as f64);
    (dx * dx + dy * dy).sqrt()
}

/// Finds, where a pulled route may be more than [`SLACK`] longer than the truly
/// shortest, the truly shortest ([`shorten`](Self::shorten)), holding its scratch.
#[derive(Clone, Debug, Default)]
pub(super) struct Visibility {
    nodes: Vec<Node>,
}

impl Visibility {
    /// No scratch yet.
    pub(super) const fn new() -> Self {
        Self { nodes: Vec::new() }
    }

    /// Replaces `route` (the points after `from`, each seeing the next) by the truly
    /// shortest route between the same ends when that is shorter, unless `route` is
    /// within [`SLACK`] of the straight line or the ellipse of the points a shorter
    /// route could pass (those whose distances to both ends add up to less than the
    /// route's length) covers more than [`MAX_CELLS`] cells or holds more than
    /// [`MAX_CORNERS`] wall corners. Inside the ellipse the search is exact: A* over
    /// the convex wall corners, an edge only where the route wraps the corner it
    /// leaves and does not run into the wall at the corner it reaches (a shortest
    /// route does neither), and is seen ([`Sight::sees`]). Adds the corners read, the
    /// pairs weighed and the sight tests' work to `work`; allocates only to grow its
    /// scratch and `route`.
    pub(super) fn shorten(
        &mut self,
        sight: &Sight<'_>,
        from: Waypoint,
        route: &mut Vec<Waypoint>,
        work: &mut u64,
    ) {
        let Some(&goal) = route.last() else {
            return;
        };
        let (start, end) = (from.half_cells(), goal.half_cells());
        let mut at = start;
        let mut length = 0.0;
        for p in route.iter() {
            length += distance(at, p.half_cells());
            at = p.half_cells();
        }
        let straight = distance(start, end);
        if length <= (1.0 + SLACK) * straight + 1e-9 {
            return;
        }
        // The ellipse, in half cells: foci at the ends, semi-axes `a` along the line
        // between them and `b` across it.
        let (a, f) = (length / 2.0, straight / 2.0);
        let b = (a * a - f * f).max(0.0).sqrt();
        if core::f64::consts::PI * a * b / 4.0 > MAX_CELLS
            || !self.corners_within(sight, (start, end), length, work)
        {
            return;
        }
        let Some(found) = self.search(sight, end, length - 1e-6, work) else {
            return;
        };
        // Back from the goal's parent to the start, then in walking order.
        route.clear();
        route.push(goal);
        let mut at = found;
        while at != 0 {
            let p = self.nodes[at as usize].point;
            route.push(Waypoint::from_half_cells(p.0, p.1));
            at = self.nodes[at as usize].parent;
        }
        route.reverse();
    }

    /// Fills the nodes: the start, then every convex wall corner (one cell around it
    /// not clear) strictly inside the ellipse with foci `ends` and distance sum
    /// `length`. `false` if there are more than [`MAX_CORNERS`].
    fn corners_within(
        &mut self,
        sight: &Sight<'_>,
        (start, end): (Half, Half),
        length: f64,
        work: &mut u64,
    ) -> bool {
        let nodes = &mut self.nodes;
        nodes.clear();
        // The start, the corners, and one more that tells there are too many.
        nodes.reserve(MAX_CORNERS + 2);
        nodes.push(Node {
            point: start,
            g: 0.0,
            parent: u32::MAX,
            closed: false,
            wall: ((0, 0), (0, 0)),
        });
        let (a, f) = (length / 2.0, distance(start, end) / 2.0);
        let b2 = (a * a - f * f).max(1e-9);
        let (cx, cy) = (
            (start.0 + end.0) as f64 / 2.0,
            (start.1 + end.1) as f64 / 2.0,
        );
        let (ex, ey) = if f > 0.0 {
            (
                (end.0 - start.0) as f64 / (2.0 * f),
                (end.1 - start.1) as f64 / (2.0 * f),
            )
        } else {
            (1.0, 0.0)
        };
        let a2 = a * a;
        // Points (x, y) from the centre: (x ex + y ey)^2 / a^2 + (y ex - x ey)^2 / b^2 <= 1,
        // for each row a quadratic in x.
        let qa = ex * ex / a2 + ey * ey / b2;
        let half_height = (a2 * ey * ey + b2 * ex * ex).sqrt();
        let grid = sight.grid();
        let (w2, h2) = (2 * i64::from(grid.width()), 2 * i64::from(grid.height()));
        let even_up = |v: f64| (v.ceil() as i64 + 1).div_euclid(2) * 2;
        let y_lo = even_up(cy - half_height - 2.0).max(0);
        let y_hi = ((cy + half_height + 2.0).floor() as i64).min(h2);
        let mut over = false;
        for y2 in (y_lo..=y_hi).step_by(2) {
            let y = y2 as f64 - cy;
            let qb = 2.0 * y * ex * ey * (1.0 / a2 - 1.0 / b2);
            let qc = y * y * (ey * ey / a2 + ex * ex / b2) - 1.0;
            let disc = qb * qb - 4.0 * qa * qc;
            if disc < 0.0 {
                continue;
            }
            let root = disc.sqrt();
            // Every corner strictly inside (a hair more is harmless: a corner outside
            // is never on a shorter route).
            let x_lo = even_up(cx + (-qb - root) / (2.0 * qa) - 1e-6).max(0);
            let x_hi = ((cx + (-qb + root) / (2.0 * qa) + 1e-6).floor() as i64).min(w2);
            if x_lo > x_hi {
                continue;
            }
            *work += ((x_hi - x_lo) / 2 + 1) as u64;
            sight.convex_corners_on(y2 / 2, (x_lo / 2, x_hi / 2), |x, i| {
                if nodes.len() <= MAX_CORNERS {
                    nodes.push(Node {
                        point: (2 * x, y2),
                        g: f64::INFINITY,
                        parent: u32::MAX,
                        closed: false,
                        wall: quadrant(i as i64 & 1, i as i64 >> 1),
                    });
                } else {
                    over = true;
                }
            });
            if over {
                return false;
            }
        }
        true
    }

    /// A* from node 0 to `end` over the nodes, for routes shorter than `bound` (half
    /// cells). Returns the node the shortest route reaches `end` from, its nodes'
    /// parents leading back to node 0; `None` if no route is shorter than `bound`.
    fn search(&mut self, sight: &Sight<'_>, end: Half, bound: f64, work: &mut u64) -> Option<u32> {
        let nodes = &mut self.nodes;
        let (mut best, mut best_from) = (bound, None);
        loop {
            // The open node of least estimate (few nodes: a scan, no heap).
            let mut u = usize::MAX;
            let mut least = best;
            for (i, n) in nodes.iter().enumerate() {
                if !n.closed && n.g.is_finite() {
                    let f = n.g + distance(n.point, end);
                    if f < least {
                        (least, u) = (f, i);
                    }
                }
            }
            if u == usize::MAX {
                return best_from;
            }
            nodes[u].closed = true;
            let Node {
                point: pu,
                g: gu,
                parent,
                ..
            } = nodes[u];
            let back = (parent != u32::MAX).then(|| nodes[parent as usize].point);
            let wall = nodes[u].wall;
            // The route turns at `pu` only round its wall.
            let turns = |v: Half| back.is_none_or(|pa| turns_round(pa, pu, v, wall));
            let (wu, wend) = (
                Waypoint::from_half_cells(pu.0, pu.1),
                Waypoint::from_half_cells(end.0, end.1),
            );
            let to_end = gu + distance(pu, end);
            if to_end < best && turns(end) && sight.sees_counting(wu, wend, work) {
                (best, best_from) = (to_end, Some(u as u32));
            }
            for n in &mut nodes[1..] {
                *work += 1;
                if n.closed {
                    continue;
                }
                let gv = gu + distance(pu, n.point);
                if gv >= n.g
                    || gv + distance(n.point, end) >= best
                    || !turns(n.point)
                    || runs_into(pu, n.point, n.wall)
                    || !sight.sees_counting(
                        wu,
                        Waypoint::from_half_cells(n.point.0, n.point.1),
                        work,
                    )
                {
                    continue;
                }
                n.g = gv;
                n.parent = u as u32;
            }
        }
    }
}
