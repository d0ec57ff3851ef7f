//! Whether a route's turn wraps a wall: the local test of a taut route, in exact
//! integer geometry on half cells.

use super::Sight;

/// A point in half cells.
pub(super) type Half = (i64, i64);

/// `a - b`.
pub(super) fn sub(a: Half, b: Half) -> Half {
    (a.0 - b.0, a.1 - b.1)
}

/// The cross product: positive when `b` turns from `a` the way `(1, 0)` turns to
/// `(0, 1)`.
pub(super) fn cross(a: Half, b: Half) -> i64 {
    a.0 * b.1 - a.1 * b.0
}

/// The dot product.
pub(super) fn dot(a: Half, b: Half) -> i64 {
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

/// An open arc of directions, less than half a turn: `(start, end)` with
/// `cross(start, end) > 0`.
pub(super) type Arc = (Half, Half);

/// The directions from a corner into the cell beside it at `(dx, dy)` (each 0 or 1:
/// the cell at the corner's lower or higher column and row).
pub(super) const fn quadrant(dx: i64, dy: i64) -> Arc {
    let (sx, sy) = (2 * dx - 1, 2 * dy - 1);
    if sx * sy > 0 {
        ((sx, 0), (0, sy))
    } else {
        ((0, sy), (sx, 0))
    }
}

/// The arcs of directions from the corner `p` (even half cells) into the cells
/// around it that are not clear.
fn walls_at(sight: &Sight<'_>, p: Half) -> impl Iterator<Item = Arc> + use<> {
    let clear = sight.around(p.0, p.1);
    (0..4)
        .filter(move |&i| clear >> i & 1 == 0)
        .map(|i| quadrant(i & 1, i >> 1))
}

/// Whether the route `a`, `p`, `b` turns at `p` round a wall filling the arc `wall`
/// of directions from `p`: the wall fills part of the angle the route turns through
/// there. A straight line through `p` turns round nothing; a route doubling back is
/// taken as turning.
pub(super) fn turns_round(a: Half, p: Half, b: Half, wall: Arc) -> bool {
    let (u, v) = (sub(a, p), sub(b, p));
    let c = cross(u, v);
    if c == 0 {
        return dot(u, v) > 0;
    }
    arcs_meet(if c > 0 { (u, v) } else { (v, u) }, wall)
}

/// Whether the straight line from `a` through `p` runs on into the arc `wall` of
/// directions from `p`: then no shortest route turns at `p` round that wall after
/// coming from `a` (it would bend away from it).
pub(super) fn runs_into(a: Half, p: Half, wall: Arc) -> bool {
    inside(sub(p, a), wall)
}

/// Whether the route `a`, `p`, `b` wraps a wall at `p`, so that it cannot be
/// shortened near `p`: `p` is a corner and a cell that is not clear fills part of the
/// angle the route turns through there (every point beside `p` on the short side is
/// inside a wall). A point on a straight line, or a turn with nothing on its inner
/// side (a cell's centre, a corner bent the wrong way round its wall), does not.
pub(super) fn wraps(sight: &Sight<'_>, a: Half, p: Half, b: Half) -> bool {
    if p.0 & 1 != 0 || p.1 & 1 != 0 {
        return false;
    }
    walls_at(sight, p).any(|wall| turns_round(a, p, b, wall))
}
