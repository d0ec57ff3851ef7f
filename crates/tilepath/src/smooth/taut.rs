//! Pulling a route taut without changing its way round any wall: every turn moved to
//! the wall corners it must wrap.

use super::bend::{Half, cross, dot, sub, wraps};
use super::rows::{Fraction, Stepper};
use super::{Sight, Waypoint};

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
/// strictly shorter, or a route cannot turn at one of its points, or (`check`) one of
/// its segments breaks the rule. Adds the cells read and the sight tests' work to
/// `work`.
///
/// Its segments keep the rule without a sight test, given that `a`, `p` and `p`,
/// `b` do and a route may turn at `p` ([`Sight::can_turn_at`]: no corner pinched
/// there; where that is not known, `check`, each is tested): a wall reaching past a segment of the chain (its interior on the far side,
/// or pinching a corner the segment passes through) would reach into the triangle
/// through neither of those two segments, so its point farthest past the segment,
/// inside the triangle, would be a corner of it where exactly one of the four cells
/// around is not clear (the farthest point of a union of cells in a direction is
/// such a corner, or an edge whose ends are), a corner the scan below collects, and
/// then a point of the chain or inside it, not past it. Debug builds check every
/// segment all the same.
pub(super) fn wrap(
    sight: &Sight<'_>,
    (a, p, b): (Half, Half, Half),
    check: bool,
    (corners, chain): (&mut Vec<Half>, &mut Vec<Half>),
    work: &mut u64,
) -> Option<()> {
    corners.clear();
    chain.clear();
    // Two corners a line of corners at most, and the chain's points are corners: room
    // for every line of the grid, so that no triangle grows them again.
    let lines = 2 * sight.grid().height() as usize + 4;
    corners.reserve(lines);
    chain.reserve(lines);
    // `side`: the sign of `p`'s side of the line from `a` to `b`.
    let side = cross(sub(b, a), sub(p, a)).signum();
    if side != 0 {
        let t = [a, p, b];
        // The convex wall corners (one cell around not clear) inside the closed
        // triangle and off its base, line by line of corners: no other point of a
        // wall is a corner of the chain.
        // The triangle's edges' x, in corners, on the lines of corners they span,
        // stepped exactly down the lines: at `y2` an edge from `s` down to `e` is at
        // `(s.0 h + (e.0 - s.0) (y2 - s.1)) / 2h`, `h` its height in half cells. The
        // long edge (from the top vertex to the bottom one) bounds every line; the
        // other side is the upper short edge above the middle vertex, the lower one
        // below it, and the middle vertex itself on its own line.
        let mut v = t;
        v.sort_unstable_by_key(|q| q.1);
        let [top, mid, bottom] = v;
        let edge = |s: Half, e: Half, from: i64| {
            let h = e.1 - s.1;
            let den = 2 * h.max(1);
            let at = Fraction::new(s.0 * h + (e.0 - s.0) * (from - s.1), den);
            Stepper::new(at, Fraction::new(2 * (e.0 - s.0), den), den)
        };
        let even_from = |y2: i64| y2 + (y2 & 1);
        let first_line = even_from(top.1);
        let mut long = edge(top, bottom, first_line);
        let mut upper = edge(top, mid, first_line);
        let mut lower = edge(mid, bottom, even_from(mid.1 + 1));
        let mut lines = sight.corner_lines((
            v.iter().map(|q| q.0.div_euclid(2)).min().unwrap_or(0),
            v.iter().map(|q| (q.0 + 1).div_euclid(2)).max().unwrap_or(0),
        ));
        // The corners of the line at `y2` between the edges at `e` and `f`.
        let mut scan = |y2: i64, e: Fraction, f: Fraction| {
            let (x_lo, x_hi) = (e.ceil().min(f.ceil()), e.floor().max(f.floor()));
            if x_lo > x_hi {
                return;
            }
            let first = corners.len();
            let y = y2 / 2;
            *work += (x_hi - x_lo + 1).unsigned_abs();
            lines.on(y, (x_lo, x_hi), |x, i| {
                let q = (2 * x, y2);
                let (base, left, right) = (
                    cross(sub(b, a), sub(q, a)) * side,
                    cross(sub(p, a), sub(q, a)) * side,
                    cross(sub(b, p), sub(q, p)) * side,
                );
                // On an edge, the corner counts only if its wall is inside.
                let (cx, cy) = (x - 1 + (i & 1) as i64, y - 1 + (i >> 1) as i64);
                if base <= 0
                    || left > 0
                    || right > 0
                    || ((left == 0 || right == 0) && !cell_meets(t, -side, cx, cy))
                {
                    return;
                }
                // Of the corners on one line only the outermost two can be corners of
                // the chain: the rest lie between them.
                if corners.len() - first == 2 {
                    let n = corners.len();
                    corners[n - 1] = q;
                } else {
                    corners.push(q);
                }
            });
        };
        // Above the middle vertex, on its line, below it.
        let mut y2 = first_line;
        while y2 < mid.1 {
            scan(y2, long.at, upper.at);
            long.advance();
            upper.advance();
            y2 += 2;
        }
        if y2 == mid.1 {
            scan(y2, long.at, Fraction::halves(mid.0, 2));
            long.advance();
            y2 += 2;
        }
        while y2 <= bottom.1 {
            scan(y2, long.at, lower.at);
            long.advance();
            lower.advance();
            y2 += 2;
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
    if chain
        .iter()
        .any(|&q| !sight.can_turn_at(Waypoint::from_half_cells(q.0, q.1)))
    {
        return None;
    }
    let mut seen = |s: Half, e: Half| {
        sight.sees_counting(
            Waypoint::from_half_cells(s.0, s.1),
            Waypoint::from_half_cells(e.0, e.1),
            work,
        )
    };
    let segments = || {
        core::iter::once(a)
            .chain(chain.iter().copied())
            .zip(chain.iter().copied().chain(core::iter::once(b)))
    };
    if check {
        return segments().all(|(s, e)| seen(s, e)).then_some(());
    }
    // What the argument above asks, checked as it asks it: cells that are no path
    // (bad input) may give a turn that does not.
    debug_assert!(
        !(seen(a, p) && seen(p, b) && sight.can_turn_at(Waypoint::from_half_cells(p.0, p.1)))
            || segments().all(|(s, e)| seen(s, e)),
        "the chain from {a:?} round {chain:?} to {b:?} breaks the rule"
    );
    Some(())
}

/// The quick way round a turn at a cell's centre `p` (a grid path's turn next to a
/// wall): the corner of `p`'s cell where the route `a`, corner, `b` wraps a wall and
/// is shortest, if it is shorter than `a`, `p`, `b` and both its segments keep the
/// rule. Where a wall corner beside the turn is all the chain of [`wrap`] would wrap,
/// this is that chain, found without reading the triangle; where the chain would wrap
/// more, a segment to the corner mostly runs into the walls it would wrap, and the
/// triangle is read. A route it gives is legal and shorter, which is all the taut
/// loop needs. Adds the sight tests' work to `work`.
fn round_the_cell(
    sight: &Sight<'_>,
    (a, p, b): (Half, Half, Half),
    work: &mut u64,
) -> Option<Half> {
    if p.0 & 1 == 0 || p.1 & 1 == 0 {
        return None;
    }
    let length = |q: Half| {
        let (u, v) = (sub(q, a), sub(b, q));
        ((dot(u, u) as f64).sqrt() + (dot(v, v) as f64).sqrt()) / 2.0
    };
    let old = length(p);
    let (c, l) = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
        .into_iter()
        .map(|(ox, oy)| (p.0 + ox, p.1 + oy))
        .filter(|&c| wraps(sight, a, c, b))
        .map(|c| (c, length(c)))
        .min_by(|x, y| x.1.total_cmp(&y.1))?;
    let point = |q: Half| Waypoint::from_half_cells(q.0, q.1);
    (l < old - 1e-9
        && sight.can_turn_at(point(c))
        && sight.sees_counting(point(a), point(c), work)
        && sight.sees_counting(point(c), point(b), work))
    .then_some(c)
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

    /// Pulls `route` (the points after `from`) taut in place: wherever it turns with
    /// no wall on the inner side of the turn, the turn is replaced by the shortest way
    /// round the walls between it and the straight line past it, until every turn
    /// wraps a wall corner. The route keeps its way round every wall, so it only gets
    /// shorter, and it stays legal: where every segment of `route` keeps the rule
    /// (`seen`), so do the new ones; otherwise (a grid path's steps over dearer
    /// ground) each new segment is checked. `from` and the last point stay. Adds its
    /// work to `work`; allocates only to grow its scratch and `route`.
    pub(super) fn tighten(
        &mut self,
        sight: &Sight<'_>,
        from: Waypoint,
        route: &mut Vec<Waypoint>,
        seen: bool,
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
            if wraps(sight, a, p, b) {
                i += 1;
                continue;
            }
            if let Some(c) = round_the_cell(sight, (a, p, b), work) {
                route[i] = Waypoint::from_half_cells(c.0, c.1);
                i = i.saturating_sub(1);
                continue;
            }
            if wrap(sight, (a, p, b), !seen, (corners, chain), work).is_none() {
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
