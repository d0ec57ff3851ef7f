//! Pulling a route taut without changing its way round any wall: every turn moved to
//! the wall corners it must wrap.

use super::{Sight, Waypoint};

/// A point in half cells.
type Half = (i64, i64);

fn sub(a: Half, b: Half) -> Half {
    (a.0 - b.0, a.1 - b.1)
}

fn cross(a: Half, b: Half) -> i64 {
    a.0 * b.1 - a.1 * b.0
}

fn dot(a: Half, b: Half) -> i64 {
    a.0 * b.0 + a.1 * b.1
}

/// Whether direction `w` lies strictly inside the open arc from `s` turning towards
/// `e` (`cross(s, e) > 0`, less than half a turn).
fn inside(w: Half, (s, e): (Half, Half)) -> bool {
    cross(s, w) > 0 && cross(w, e) > 0
}

/// Whether two open arcs of directions, each less than half a turn and given as
/// `(start, end)` with `cross(start, end) > 0`, share a direction: one starts inside
/// the other, or both start the same way.
fn arcs_meet(p: (Half, Half), q: (Half, Half)) -> bool {
    inside(p.0, q) || inside(q.0, p) || (cross(p.0, q.0) == 0 && dot(p.0, q.0) > 0)
}

/// Whether the route `a`, `p`, `b` cannot be shortened near `p`: `p` is a corner and a
/// cell that is not clear fills part of the angle the route turns through there, so
/// every point beside `p` on the short side is inside a wall. A point on a straight
/// line, or a turn with nothing on its inner side (a cell's centre, a corner bent the
/// wrong way round its wall), is not taut.
fn is_taut(sight: &Sight<'_>, a: Half, p: Half, b: Half) -> bool {
    if p.0 & 1 != 0 || p.1 & 1 != 0 {
        return false;
    }
    let (u, v) = (sub(a, p), sub(b, p));
    let c = cross(u, v);
    if c == 0 {
        // Straight through (not taut), or doubling back (left alone).
        return dot(u, v) > 0;
    }
    let wedge = if c > 0 { (u, v) } else { (v, u) };
    let (x, y) = (p.0 / 2, p.1 / 2);
    [(0, 0), (1, 0), (0, 1), (1, 1)]
        .into_iter()
        .any(|(dx, dy)| {
            let (sx, sy) = (2 * dx - 1, 2 * dy - 1);
            let quadrant = if sx * sy > 0 {
                ((sx, 0), (0, sy))
            } else {
                ((0, sy), (sx, 0))
            };
            !sight.clear_at(x + dx - 1, y + dy - 1) && arcs_meet(wedge, quadrant)
        })
}

/// Whether the open cell `(cx, cy)` meets the open triangle `t` (vertices in half
/// cells, `turn` the sign of its orientation): no edge of either separates them.
fn cell_meets(t: [Half; 3], turn: i64, cx: i64, cy: i64) -> bool {
    let corners = [
        (2 * cx, 2 * cy),
        (2 * cx + 2, 2 * cy),
        (2 * cx, 2 * cy + 2),
        (2 * cx + 2, 2 * cy + 2),
    ];
    (0..3).all(|i| {
        let (s, e) = (t[i], t[(i + 1) % 3]);
        corners
            .iter()
            .any(|&q| cross(sub(e, s), sub(q, s)) * turn > 0)
    })
}

/// The shortest route from `a` to `b` that keeps every wall inside the triangle
/// `a`, `p`, `b` on the same side as the route `a`, `p`, `b` does: the convex chain
/// round the corners of the cells that are not clear inside the triangle (the region
/// between that chain and `a`, `p`, `b` holds no wall, so the two routes go the same way
/// round every wall, and the chain bends only at corners it wraps). Its points between
/// `a` and `b` go to `chain`; `corners` is scratch. `None` where the chain is not
/// strictly shorter, or a point or segment of it breaks the rule (the rule is checked,
/// not assumed). Adds the cells read and the sight tests' work to `work`.
fn wrap(
    sight: &Sight<'_>,
    (a, p, b): (Half, Half, Half),
    corners: &mut Vec<Half>,
    chain: &mut Vec<Half>,
    work: &mut u64,
) -> Option<()> {
    corners.clear();
    chain.clear();
    // `side`: the sign of `p`'s side of the line from `a` to `b`.
    let side = cross(sub(b, a), sub(p, a)).signum();
    if side != 0 {
        let t = [a, p, b];
        let (lo_y, hi_y) = (a.1.min(p.1).min(b.1), a.1.max(p.1).max(b.1));
        let (lo_x, hi_x) = (a.0.min(p.0).min(b.0), a.0.max(p.0).max(b.0));
        // Cells whose span meets the triangle's rows, each row only across the
        // triangle's extent there (widened by a cell; `cell_meets` decides).
        for cy in lo_y.div_euclid(2)..=(hi_y - 1).div_euclid(2) {
            let (y0, y1) = ((2 * cy).max(lo_y), (2 * cy + 2).min(hi_y));
            let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
            for i in 0..3 {
                let (s, e) = (t[i], t[(i + 1) % 3]);
                for y in [y0, y1] {
                    let (ey0, ey1) = (s.1.min(e.1), s.1.max(e.1));
                    if y < ey0 || y > ey1 {
                        continue;
                    }
                    let x = if s.1 == e.1 {
                        x0 = x0.min(s.0.min(e.0) as f64);
                        s.0.max(e.0) as f64
                    } else {
                        s.0 as f64 + (e.0 - s.0) as f64 * (y - s.1) as f64 / (e.1 - s.1) as f64
                    };
                    x0 = x0.min(x);
                    x1 = x1.max(x);
                }
            }
            for &(vx, vy) in &t {
                if (y0..=y1).contains(&vy) {
                    x0 = x0.min(vx as f64);
                    x1 = x1.max(vx as f64);
                }
            }
            if x0 > x1 {
                continue;
            }
            let from = ((x0 / 2.0).floor() as i64 - 1).max(lo_x.div_euclid(2));
            let to = ((x1 / 2.0).floor() as i64 + 1).min((hi_x - 1).div_euclid(2));
            for cx in from..=to {
                *work += 1;
                if sight.clear_at(cx, cy) || !cell_meets(t, -side, cx, cy) {
                    continue;
                }
                for q in [
                    (2 * cx, 2 * cy),
                    (2 * cx + 2, 2 * cy),
                    (2 * cx, 2 * cy + 2),
                    (2 * cx + 2, 2 * cy + 2),
                ] {
                    // Inside the closed triangle and off its base: a corner on the
                    // base or beyond it never bends the chain.
                    let on_side = cross(sub(b, a), sub(q, a)) * side > 0;
                    let within = cross(sub(p, a), sub(q, a)) * side <= 0
                        && cross(sub(b, p), sub(q, p)) * side <= 0;
                    if on_side && within {
                        corners.push(q);
                    }
                }
            }
        }
        // Round `a` from the side of `p` towards `b`; of corners in one direction
        // from `a`, the nearer first.
        corners.sort_unstable_by(|&q, &r| {
            let c = cross(sub(q, a), sub(r, a)) * side;
            0.cmp(&c)
                .reverse()
                .then(dot(sub(q, a), sub(q, a)).cmp(&dot(sub(r, a), sub(r, a))))
        });
        corners.dedup();
    }
    // The convex chain (Graham's scan from `a`), bending the way `a`, `p`, `b` does.
    let turn = -side;
    for &q in corners.iter().chain(core::iter::once(&b)) {
        while let Some(&m) = chain.last() {
            let prev = if chain.len() >= 2 {
                chain[chain.len() - 2]
            } else {
                a
            };
            if cross(sub(m, prev), sub(q, m)) * turn > 0 {
                break;
            }
            chain.pop();
        }
        chain.push(q);
    }
    // The last is `b`.
    chain.pop();
    let old = Waypoint::from_half_cells(a.0, a.1).distance(Waypoint::from_half_cells(p.0, p.1))
        + Waypoint::from_half_cells(p.0, p.1).distance(Waypoint::from_half_cells(b.0, b.1));
    let mut at = a;
    let mut new = 0.0;
    for &q in chain.iter().chain(core::iter::once(&b)) {
        new += Waypoint::from_half_cells(at.0, at.1).distance(Waypoint::from_half_cells(q.0, q.1));
        at = q;
    }
    if new >= old - 1e-9 {
        return None;
    }
    let mut at = a;
    for &q in chain.iter().chain(core::iter::once(&b)) {
        let (w, v) = (
            Waypoint::from_half_cells(at.0, at.1),
            Waypoint::from_half_cells(q.0, q.1),
        );
        if (q != b && !sight.can_turn_at(v)) || !sight.sees_counting(w, v, work) {
            return None;
        }
        at = q;
    }
    Some(())
}

/// Pulls routes taut ([`tighten`](Self::tighten)), holding its scratch.
#[derive(Clone, Debug, Default)]
pub(super) struct Taut {
    /// Wall corners inside the triangle being wrapped.
    corners: Vec<Half>,
    /// The chain round them.
    chain: Vec<Half>,
}

impl Taut {
    /// No scratch yet.
    pub(super) const fn new() -> Self {
        Self {
            corners: Vec::new(),
            chain: Vec::new(),
        }
    }

    /// Pulls `route` (the points after `from`, each seeing the next) taut in place:
    /// wherever it turns with no wall on the inner side of the turn, the turn is
    /// replaced by the shortest way round the walls between it and the straight line
    /// past it, until every turn wraps a wall corner. The route keeps its way round
    /// every wall, so it only gets shorter and stays legal (each new segment is
    /// checked); `from` and the last point stay. Adds its work to `work`; allocates
    /// only to grow its scratch and `route`.
    pub(super) fn tighten(
        &mut self,
        sight: &Sight<'_>,
        from: Waypoint,
        route: &mut Vec<Waypoint>,
        work: &mut u64,
    ) {
        let (corners, chain) = (&mut self.corners, &mut self.chain);
        let mut i = 0;
        // Every replacement shortens the route; the bound only guards against a loop
        // that rounding could cause.
        let mut left = 4 * route.len() + 16;
        while i + 1 < route.len() && left > 0 {
            left -= 1;
            let a = if i == 0 { from } else { route[i - 1] }.half_cells();
            let (p, b) = (route[i].half_cells(), route[i + 1].half_cells());
            *work += 1;
            if is_taut(sight, a, p, b) || wrap(sight, (a, p, b), corners, chain, work).is_none() {
                i += 1;
                continue;
            }
            // `p` becomes the chain's points (if any), then the point before it is
            // looked at again: it now turns towards another point.
            if chain.is_empty() {
                route.remove(i);
            } else {
                route[i] = Waypoint::from_half_cells(chain[0].0, chain[0].1);
                for (k, &q) in chain[1..].iter().enumerate() {
                    route.insert(i + 1 + k, Waypoint::from_half_cells(q.0, q.1));
                }
            }
            i = i.saturating_sub(1);
        }
    }
}
