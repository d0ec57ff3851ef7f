//! The true shortest any-angle route, for measuring pulled routes against: a
//! visibility graph over the corners of blocked cells, searched by A*, with its own
//! line-of-sight test written from the rule's definition (exact intersections of the
//! segment with cells, edges and corners) rather than by walking cells.
//!
//! Points are in half cells (cell `(x, y)` spans `2x..2x + 2`); `clear(x, y)` says
//! whether the unit's anchor may be in cell `(x, y)` (false outside the grid).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A point in half cells.
pub type HalfPoint = (i64, i64);

/// The `clear(x, y)` of the rule for a unit of `size x size` cells and `mobility`
/// on `grid`: every cell of its footprint anchored at `(x, y)` inside the grid and of
/// the mobility's lowest cost. Written from the rule, cell by cell.
pub fn anchor_clear(
    grid: &tilepath::Grid,
    mobility: tilepath::Mobility,
    size: u8,
) -> impl Fn(i64, i64) -> bool + '_ {
    let n = i64::from(size);
    move |x, y| {
        (0..n).all(|dy| {
            (0..n).all(|dx| {
                let (cx, cy) = (x + dx, y + dy);
                let c = tilepath::Cell::new(cx as i32, cy as i32);
                cx >= 0
                    && cy >= 0
                    && grid.contains(c)
                    && grid.cost(c, mobility) != 0
                    && grid.cost(c, mobility) == mobility.min_cost()
            })
        })
    }
}

/// Whether the straight segment `a`-`b` keeps the any-angle rule: its open interior
/// meets no open cell that is not clear, no open edge between two such cells, and no
/// corner where two such cells touch diagonally. Decided exactly, in integers, for
/// every cell within one cell of points sampled every half cell along the segment.
pub fn reference_sees(clear: &impl Fn(i64, i64) -> bool, a: HalfPoint, b: HalfPoint) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if dx == 0 && dy == 0 {
        return true;
    }
    // Parameter T in (0, d): point a + (T / d) * (dx, dy), every bound below integral.
    let d = dx.abs().max(1) * dy.abs().max(1);
    // The open T-interval where coordinate p + T/d * dp lies strictly inside (lo, hi),
    // or `None` if it never does.
    let inside = |p: i64, dp: i64, lo: i64, hi: i64| -> Option<(i64, i64)> {
        if dp == 0 {
            return (lo < p && p < hi).then_some((i64::MIN, i64::MAX));
        }
        let (t1, t2) = ((lo - p) * d / dp, (hi - p) * d / dp);
        Some((t1.min(t2), t1.max(t2)))
    };
    // Where the segment meets the open box (x0, x1) x (y0, y1) in its open interior.
    let meets_box = |x0: i64, x1: i64, y0: i64, y1: i64| -> bool {
        let (Some(ix), Some(iy)) = (inside(a.0, dx, x0, x1), inside(a.1, dy, y0, y1)) else {
            return false;
        };
        ix.0.max(iy.0).max(0) < ix.1.min(iy.1).min(d)
    };
    // Whether the open segment meets the open edge on line `x = at` (vertical edge,
    // y in (y0, y1)); `swap` reads the axes the other way round.
    let meets_edge = |at: i64, y0: i64, y1: i64, swap: bool| -> bool {
        let (p, dp, q, dq) = if swap {
            (a.1, dy, a.0, dx)
        } else {
            (a.0, dx, a.1, dy)
        };
        if dp == 0 {
            if p != at {
                return false;
            }
            let Some(iq) = inside(q, dq, y0, y1) else {
                return false;
            };
            return iq.0.max(0) < iq.1.min(d);
        }
        let t = (at - p) * d / dp;
        // q at t, times d: q * d + t * dq.
        let qd = q * d + t * dq;
        0 < t && t < d && y0 * d < qd && qd < y1 * d
    };
    let meets_point = |px: i64, py: i64| -> bool {
        let (ux, uy) = (px - a.0, py - a.1);
        if ux * dy - uy * dx != 0 {
            return false;
        }
        let t = if dx != 0 { ux * d / dx } else { uy * d / dy };
        0 < t && t < d
    };
    let steps = dx.abs().max(dy.abs());
    let mut seen = std::collections::HashSet::new();
    for s in 0..=steps {
        // Sample point (floor), in half cells, then its cell.
        let sx = a.0 + (dx * s).div_euclid(steps);
        let sy = a.1 + (dy * s).div_euclid(steps);
        let (cx, cy) = (sx.div_euclid(2), sy.div_euclid(2));
        for y in cy - 1..=cy + 1 {
            for x in cx - 1..=cx + 1 {
                if !seen.insert((x, y)) {
                    continue;
                }
                if !clear(x, y) {
                    if meets_box(2 * x, 2 * x + 2, 2 * y, 2 * y + 2) {
                        return false;
                    }
                    if !clear(x + 1, y) && meets_edge(2 * x + 2, 2 * y, 2 * y + 2, false) {
                        return false;
                    }
                    if !clear(x, y + 1) && meets_edge(2 * y + 2, 2 * x, 2 * x + 2, true) {
                        return false;
                    }
                }
                // The corner at the cell's lower x and y: two closed cells touching
                // diagonally there pinch it.
                let pinched = (!clear(x - 1, y - 1) && !clear(x, y))
                    || (!clear(x, y - 1) && !clear(x - 1, y));
                if pinched && meets_point(2 * x, 2 * y) {
                    return false;
                }
            }
        }
    }
    true
}

/// The corners a shortest route may turn at: where exactly one of the four cells
/// around is not clear, for cells `0..w` x `0..h`.
pub fn convex_corners(clear: &impl Fn(i64, i64) -> bool, w: i64, h: i64) -> Vec<HalfPoint> {
    let mut out = Vec::new();
    for y in 0..=h {
        for x in 0..=w {
            let closed = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
                .iter()
                .filter(|&&(cx, cy)| !clear(cx, cy))
                .count();
            if closed == 1 {
                out.push((2 * x, 2 * y));
            }
        }
    }
    out
}

fn dist(a: HalfPoint, b: HalfPoint) -> f64 {
    let (dx, dy) = ((b.0 - a.0) as f64, (b.1 - a.1) as f64);
    (dx * dx + dy * dy).sqrt() / 2.0
}

#[derive(PartialEq)]
struct Open(f64, usize);
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Open {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}

/// Side, in cells, of the square buckets [`AnyAngleOracle`] files corners in.
const BUCKET: i64 = 16;

/// The truly shortest any-angle routes of one map: its convex corners, filed in square
/// buckets so that a search looks only at the buckets a shorter route could pass.
pub struct AnyAngleOracle {
    corners: Vec<HalfPoint>,
    /// Per bucket (row-major, `bw` wide): indices into `corners`.
    buckets: Vec<Vec<u32>>,
    bw: i64,
    bh: i64,
}

impl AnyAngleOracle {
    /// The oracle of the `w x h` cells `clear` describes.
    pub fn new(clear: &impl Fn(i64, i64) -> bool, w: i64, h: i64) -> Self {
        let corners = convex_corners(clear, w, h);
        let (bw, bh) = (w / BUCKET + 1, h / BUCKET + 1);
        let mut buckets = vec![Vec::new(); (bw * bh) as usize];
        for (i, &(x2, y2)) in corners.iter().enumerate() {
            let (bx, by) = ((x2 / 2 / BUCKET).min(bw - 1), (y2 / 2 / BUCKET).min(bh - 1));
            buckets[(by * bw + bx) as usize].push(i as u32);
        }
        Self {
            corners,
            buckets,
            bw,
            bh,
        }
    }

    /// The number of corners a route may turn at.
    pub fn corners(&self) -> usize {
        self.corners.len()
    }

    /// The length in cells of the shortest any-angle route from `start` to `goal`
    /// (points in half cells), by A* over the visibility graph (Euclidean estimate;
    /// edges tested when a node is expanded, only to corners in buckets a route
    /// shorter than `bound` could reach). `None` if no route is shorter than `bound`.
    pub fn shortest(
        &self,
        clear: &impl Fn(i64, i64) -> bool,
        start: HalfPoint,
        goal: HalfPoint,
        bound: f64,
    ) -> Option<f64> {
        // Node 0: start, 1: goal, 2..: corners.
        let point = |i: usize| match i {
            0 => start,
            1 => goal,
            _ => self.corners[i - 2],
        };
        let n = self.corners.len() + 2;
        let mut g = vec![f64::INFINITY; n];
        let mut closed = vec![false; n];
        let mut open = BinaryHeap::new();
        g[0] = 0.0;
        open.push(Open(dist(start, goal), 0));
        // Distance in cells from a point to a bucket's square.
        let to_bucket = |p: HalfPoint, bx: i64, by: i64| {
            let (x0, y0) = (2 * bx * BUCKET, 2 * by * BUCKET);
            let (x1, y1) = (x0 + 2 * BUCKET, y0 + 2 * BUCKET);
            let (dx, dy) = (
                (x0 - p.0).max(p.0 - x1).max(0),
                (y0 - p.1).max(p.1 - y1).max(0),
            );
            ((dx * dx + dy * dy) as f64).sqrt() / 2.0
        };
        while let Some(Open(_, u)) = open.pop() {
            if closed[u] {
                continue;
            }
            if u == 1 {
                return Some(g[1]);
            }
            closed[u] = true;
            let (pu, gu) = (point(u), g[u]);
            let mut relax = |v: usize, open: &mut BinaryHeap<Open>| {
                if closed[v] {
                    return;
                }
                let pv = point(v);
                let gv = gu + dist(pu, pv);
                if gv >= g[v] || gv + dist(pv, goal) >= bound {
                    return;
                }
                if reference_sees(clear, pu, pv) {
                    g[v] = gv;
                    open.push(Open(gv + dist(pv, goal), v));
                }
            };
            relax(1, &mut open);
            for by in 0..self.bh {
                for bx in 0..self.bw {
                    if gu + to_bucket(pu, bx, by) + to_bucket(goal, bx, by) >= bound {
                        continue;
                    }
                    for &c in &self.buckets[(by * self.bw + bx) as usize] {
                        relax(c as usize + 2, &mut open);
                    }
                }
            }
        }
        None
    }
}
