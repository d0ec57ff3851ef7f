//! Pulling a grid path straight: the waypoints of an any-angle route.

use super::taut::Taut;
use super::visibility::Visibility;
use super::{Sight, Waypoint};
use crate::Cell;

/// A point a route may turn at, in the order the grid path passes it.
#[derive(Clone, Copy, Debug)]
struct Node {
    point: Waypoint,
    /// Length of the shortest route found from the start to here.
    g: f64,
    /// The node the route comes from (`u32::MAX` for the start).
    parent: u32,
}

/// Pulls grid paths straight into any-angle routes ([`smooth`](Self::smooth)),
/// holding the scratch it needs so that a query allocates nothing once it has seen
/// its longest path.
#[derive(Clone, Debug, Default)]
pub struct Smoother {
    nodes: Vec<Node>,
    /// Pulls the route taut once it is chosen.
    taut: Taut,
    /// Looks for a shorter route round the other side of walls.
    visibility: Visibility,
}

impl Smoother {
    /// A smoother with no scratch yet.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            nodes: Vec::new(),
            taut: Taut::new(),
            visibility: Visibility::new(),
        }
    }

    /// The any-angle route from `from` through the centres of `cells` (a grid path's
    /// cells after its start, each one legal step from the one before) for the unit
    /// `sight` is for: `out` is cleared, then receives the points where the route
    /// turns after `from`, ending with the last cell's centre. Consecutive points see
    /// each other ([`Sight::sees`]), except across steps on dearer ground than the
    /// cheapest, which stay the grid path's steps. The route is never longer than the
    /// grid path and never costs more. Pulling a longer path on in pieces: pass the
    /// last point kept so far as `from` and the cells after it.
    ///
    /// The route may turn where truly shortest routes turn, at the convex corners of
    /// walls that touch the path's cells, and where the grid path turns. Taken in the
    /// path's order, each such point gets its shortest route through one of the few
    /// points before it, or straight from that point's own predecessor when it is
    /// seen (Theta*'s rule, kept to the grid path's neighbourhood); a point where the
    /// path turns is reached at worst along the path's straight run. Points the route
    /// then no longer needs are dropped, and the route is pulled taut: a turn with no
    /// wall on its inner side (where the grid path turned, or at a corner it bends the
    /// wrong way round) is replaced by the shortest way round the walls between it
    /// and the straight line past it, also round corners the grid path never touched.
    /// Every turn then wraps a wall corner: the route is the shortest of those that
    /// go the grid path's way round every wall. Where the truly shortest goes round
    /// the other side, that route can still be longer than the shortest; so when it
    /// is more than 5% longer than the straight line between its ends (only then can
    /// it be more than 5% longer than the shortest), and the points a shorter route
    /// could pass (an ellipse round that line) are few, the shortest route through
    /// them is searched for (A* over a visibility graph of the wall corners there)
    /// and taken if shorter. What that buys: a route at most 5% longer than the truly
    /// shortest between its ends, except where it winds far from the straight line
    /// (more than 256 cells in the ellipse, or more than 128 wall corners), as a
    /// maze's does, where the walls it wraps mostly force its way.
    ///
    /// Returns the work it did: the cells its line-of-sight tests read and the points
    /// it weighed, a measure of its cost (linear in it) that a budget can charge.
    /// Allocates only to grow its scratch and `out`.
    ///
    /// ```
    /// use tilepath::{AStar, Cell, Connectivity, Grid, Mobility, PathQuery, Sight, Smoother, Solver, TileKind, Waypoint};
    /// let grid = Grid::from_ascii(".....\n...#.\n.....\n.....", |c| {
    ///     Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
    /// })?;
    /// let (from, to) = (Cell::new(0, 0), Cell::new(4, 3));
    /// let query = PathQuery::new(from, to, Mobility::FLOOR_ONLY).connectivity(Connectivity::Eight);
    /// let r = AStar::new().find(&grid, query)?;
    /// let sight = Sight::new(&grid, Mobility::FLOOR_ONLY, 1);
    /// let mut route = Vec::new();
    /// Smoother::new().smooth(&sight, Waypoint::centre_of(from), r.path.cells(from), &mut route);
    /// // One straight line past the wall, where the grid path takes a diagonal and
    /// // two straight steps.
    /// assert_eq!(route, [Waypoint::centre_of(to)]);
    /// assert_eq!(r.path.len(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn smooth(
        &mut self,
        sight: &Sight<'_>,
        from: Waypoint,
        cells: impl IntoIterator<Item = Cell>,
        out: &mut Vec<Waypoint>,
    ) -> u64 {
        out.clear();
        let mut work = 0;
        let nodes = &mut self.nodes;
        nodes.clear();
        nodes.push(Node {
            point: from,
            g: 0.0,
            parent: u32::MAX,
        });
        let mut cells = cells.into_iter().peekable();
        // The centre node last added: a centre is reached at least along the grid
        // path's straight run from the one before.
        let mut last_centre = 0usize;
        let mut before: Option<Cell> = None;
        while let Some(cell) = cells.next() {
            let here = nodes.len();
            let centre = Waypoint::centre_of(cell);
            // This cell's corners where a shortest route may turn, each once.
            let (x2, y2) = centre.half_cells();
            let recent = here.saturating_sub(NEAR);
            let corners = sight.turning_corners(cell);
            for (i, (ox, oy)) in [(-1, -1), (1, -1), (-1, 1), (1, 1)].into_iter().enumerate() {
                let p = Waypoint::from_half_cells(x2 + ox, y2 + oy);
                if corners >> i & 1 == 1 && !nodes[recent..].iter().any(|n| n.point == p) {
                    nodes.push(Node {
                        point: p,
                        g: f64::INFINITY,
                        parent: u32::MAX,
                    });
                }
            }
            // Twice where there are two or more: a corner may come from another corner
            // of this cell (a lone corner would be weighed again on the same nodes).
            let passes = if nodes.len() - here > 1 { 2 } else { 1 };
            for _ in 0..passes {
                for v in here..nodes.len() {
                    relax(sight, nodes, v, None, &mut work);
                }
            }
            // The centre only where the grid path turns, and at its ends: elsewhere
            // the route is no shorter through it than straight along the run.
            let next = cells.peek().copied();
            let turns = match (before, next) {
                (Some(b), Some(n)) => cell - b != n - cell,
                _ => true,
            };
            if turns {
                nodes.push(Node {
                    point: centre,
                    g: f64::INFINITY,
                    parent: u32::MAX,
                });
                let v = nodes.len() - 1;
                relax(sight, nodes, v, Some(last_centre), &mut work);
                last_centre = v;
            }
            before = Some(cell);
        }
        if last_centre == 0 {
            return work;
        }
        // Back from the last centre, then in walking order.
        let mut at = last_centre;
        while at != 0 {
            out.push(nodes[at].point);
            at = nodes[at].parent as usize;
        }
        out.reverse();
        pull_tight(sight, from, out, &mut work);
        self.taut.tighten(sight, from, out, &mut work);
        self.visibility.shorten(sight, from, out, &mut work);
        work
    }
}

/// Nodes back every node may come from (through them, or straight from their
/// parents): a corner the route passed without turning may be where a later part of
/// it turns.
const NEAR: usize = 8;

/// Most candidates [`relax`] weighs for one node: two for each of `NEAR` nodes.
const CANDIDATES: usize = 2 * NEAR;

/// Gives node `v` its shortest route from one of the `NEAR` nodes before it: through
/// that node, or straight from that node's own parent (Theta*'s rule). Candidates are
/// tested for sight shortest first, so the first seen is the best. `run`: the centre
/// node before `v`, joined to it by a straight run of the grid path, which is taken
/// where nothing shorter is seen (it keeps the grid's step rule, also on ground
/// dearer than the cheapest). Adds the cells read and the candidates weighed to
/// `work`.
fn relax(sight: &Sight<'_>, nodes: &mut [Node], v: usize, run: Option<usize>, work: &mut u64) {
    let point = nodes[v].point;
    let mut found = nodes[v].g;
    let start = v.saturating_sub(NEAR);
    // (length in millionths of a cell, node): a total order on lengths.
    let mut candidates = [(0i64, 0u32); CANDIDATES];
    let mut n = 0;
    let mut push = |p: u32, n: &mut usize| {
        let l = nodes[p as usize].g + nodes[p as usize].point.distance(point);
        if l < found - 1e-9 && *n < CANDIDATES {
            candidates[*n] = ((l * 1e6).round() as i64, p);
            *n += 1;
        }
    };
    let mut last_parent = u32::MAX;
    for (u, node) in nodes.iter().enumerate().skip(start) {
        if u == v || !node.g.is_finite() {
            continue;
        }
        // A parent among the nodes weighed anyway is weighed once; consecutive nodes
        // mostly share theirs.
        let p = node.parent;
        if p != u32::MAX && (p as usize) < start && p != last_parent {
            push(p, &mut n);
            last_parent = p;
        }
        push(u as u32, &mut n);
    }
    let candidates = &mut candidates[..n];
    *work += n as u64 + 1;
    // Shortest first; of routes as short, the one from the later node, whose turn is
    // nearer: later nodes reach on from it straight more often.
    candidates.sort_unstable_by_key(|&(l, p)| (l, core::cmp::Reverse(p)));
    for &(_, p) in candidates.iter() {
        let from = nodes[p as usize].point;
        if sight.sees_counting(from, point, work) {
            let l = nodes[p as usize].g + from.distance(point);
            nodes[v].g = l;
            nodes[v].parent = p;
            found = l;
            break;
        }
    }
    if let Some(s) = run
        && nodes[s].g.is_finite()
    {
        let l = nodes[s].g + nodes[s].point.distance(point);
        if l < found - 1e-9 {
            nodes[v].g = l;
            nodes[v].parent = s as u32;
        }
    }
}

/// Keeps, from each kept point (starting at `from`), the farthest of the next points
/// it sees without a break; the last point always stays. In place.
fn pull_tight(sight: &Sight<'_>, from: Waypoint, points: &mut Vec<Waypoint>, work: &mut u64) {
    let n = points.len();
    let (mut anchor, mut kept, mut i) = (from, 0, 0);
    while i < n {
        let mut j = i;
        while j + 1 < n && sight.sees_counting(anchor, points[j + 1], work) {
            j += 1;
        }
        // Nothing seen past `points[i]`: it stays (a grid step on dearer ground, or
        // the next point).
        anchor = points[j];
        points[kept] = anchor;
        kept += 1;
        i = j + 1;
    }
    points.truncate(kept);
}
