//! The plain reference searches and path checks.

use std::collections::BinaryHeap;
use tilepath::{Arrival, Cell, Direction8, Grid, Mobility, PathResult};

/// A reference-search heap entry `(distance, cell index)`: `BinaryHeap` pops the
/// smallest distance first.
#[derive(PartialEq)]
pub struct E(
    /// The distance.
    pub f64,
    /// The cell's row-major index.
    pub usize,
);
impl Eq for E {}
impl PartialOrd for E {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for E {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.0.total_cmp(&self.0)
    }
}

/// Plain Dijkstra from `start` over every cell `allowed` says yes to, 4- or
/// 8-connected (no corner cutting), cost = cost of the entered cell (times sqrt 2 on
/// diagonals). Returns the distance of every cell (`None` = unreachable), row-major.
pub fn reference_dijkstra(
    grid: &Grid,
    mobility: Mobility,
    start: Cell,
    eight: bool,
    allowed: impl Fn(Cell) -> bool,
) -> Vec<Option<f64>> {
    reference_distances(grid, mobility, &[(start, 0.0)], eight, allowed)
}

/// Plain multi-source Dijkstra: every cell's distance to the nearest source, each
/// source `(cell, start value)` starting at its value. Sources outside the grid are
/// skipped; a source on a blocked cell still starts there, as a search's start does
/// (a unit standing on it can walk off; filter such sources out for goal semantics). Steps as in
/// [`reference_dijkstra`], in real units (`sqrt 2` diagonals).
pub fn reference_distances(
    grid: &Grid,
    mobility: Mobility,
    sources: &[(Cell, f64)],
    eight: bool,
    allowed: impl Fn(Cell) -> bool,
) -> Vec<Option<f64>> {
    reference_distances_by(grid, |c| grid.cost(c, mobility), sources, eight, allowed)
}

/// [`reference_dijkstra`] for a unit of `size x size` cells: a cell may be entered when
/// every cell of the footprint there is inside the grid and passable, and costs the
/// highest cost under it ([`footprint_cost`], checked cell by cell); the diagonal
/// rule applies to footprints.
pub fn reference_dijkstra_sized(
    grid: &Grid,
    mobility: Mobility,
    size: u8,
    start: Cell,
    eight: bool,
    allowed: impl Fn(Cell) -> bool,
) -> Vec<Option<f64>> {
    let cost = |c: Cell| footprint_cost_leaving(grid, mobility, c, size, start);
    reference_distances_by(grid, cost, &[(start, 0.0)], eight, allowed)
}

/// [`footprint_cost`] for a unit that started at `start`: the cells under its
/// starting footprint count as open (a unit walled over walks out), at no more than
/// the highest cost of the other passable cells under it (the mobility's lowest cost
/// if there are none).
pub fn footprint_cost_leaving(
    grid: &Grid,
    mobility: Mobility,
    cell: Cell,
    size: u8,
    start: Cell,
) -> u8 {
    let n = i32::from(size);
    let under_start =
        |c: Cell| (start.x..start.x + n).contains(&c.x) && (start.y..start.y + n).contains(&c.y);
    let mut highest = 0;
    for dy in 0..n {
        for dx in 0..n {
            let c = Cell::new(cell.x + dx, cell.y + dy);
            match grid.cost(c, mobility) {
                0 if grid.contains(c) && under_start(c) => {}
                0 => return 0,
                cost => highest = highest.max(cost),
            }
        }
    }
    if highest == 0 {
        mobility.min_cost()
    } else {
        highest
    }
}

/// What entering `cell` costs a unit of `size x size` cells anchored there (covering
/// `x..x + size` by `y..y + size`): 0 if any of those cells is outside the grid or
/// blocked, else the highest of their costs. Size 1 is [`Grid::cost`].
pub fn footprint_cost(grid: &Grid, mobility: Mobility, cell: Cell, size: u8) -> u8 {
    let n = i32::from(size);
    let mut highest = 0;
    for dy in 0..n {
        for dx in 0..n {
            let c = grid.cost(Cell::new(cell.x + dx, cell.y + dy), mobility);
            if c == 0 {
                return 0;
            }
            highest = highest.max(c);
        }
    }
    highest
}

/// Plain multi-source Dijkstra where entering a cell costs `cost(cell)` (0 = closed;
/// steps as in [`reference_dijkstra`]): the one the other references run.
pub fn reference_distances_by(
    grid: &Grid,
    cost: impl Fn(Cell) -> u8,
    sources: &[(Cell, f64)],
    eight: bool,
    allowed: impl Fn(Cell) -> bool,
) -> Vec<Option<f64>> {
    let mut heap = BinaryHeap::new();
    let mut dist = vec![None; grid.len()];
    let ok = |c: Cell| cost(c) != 0 && allowed(c);
    for &(c, start) in sources {
        if let Some(i) = grid.index_of(c)
            && dist[i].is_none_or(|d| start < d)
        {
            dist[i] = Some(start);
            heap.push(E(start, i));
        }
    }
    let w = grid.width() as usize;
    while let Some(E(d, i)) = heap.pop() {
        if dist[i].is_some_and(|x| x < d) {
            continue;
        }
        let c = Cell::new((i % w) as i32, (i / w) as i32);
        for (n, step) in legal_steps(&cost, c, eight, &ok) {
            let step = if step.1 {
                f64::from(step.0) * std::f64::consts::SQRT_2
            } else {
                f64::from(step.0)
            };
            let ni = grid.index_of(n).expect("legal steps stay inside");
            let nd = d + step;
            if dist[ni].is_none_or(|x| nd < x - 1e-12) {
                dist[ni] = Some(nd);
                heap.push(E(nd, ni));
            }
        }
    }
    dist
}

/// [`reference_distances`] in exact integer units: a straight step costs the entered
/// cell's cost times `straight`, a diagonal one times `diagonal` (for the library's
/// fixed-point 8-connected units: `OCTILE_STRAIGHT` and `OCTILE_DIAGONAL`; for
/// 4-connected costs: 1 and anything). Sources start at their `u64` value, as in
/// [`reference_distances`]. These are costs of walking *away from* the sources.
pub fn reference_units(
    grid: &Grid,
    mobility: Mobility,
    sources: &[(Cell, u64)],
    eight: bool,
    weights: (u64, u64),
    allowed: impl Fn(Cell) -> bool,
) -> Vec<Option<u64>> {
    integer_dijkstra(grid, mobility, sources, eight, weights, allowed, false)
}

/// The costs of walking from every cell *to* the nearest source (a distance field's
/// values): each step costs the cell it enters, so a source's own cost counts and
/// the starting cell's does not; the weights and sources are as in
/// [`reference_units`]. Sources on cells `allowed` or `mobility` refuse are skipped.
pub fn reference_field_units(
    grid: &Grid,
    mobility: Mobility,
    sources: &[(Cell, u64)],
    eight: bool,
    weights: (u64, u64),
    allowed: impl Fn(Cell) -> bool,
) -> Vec<Option<u64>> {
    let open: Vec<(Cell, u64)> = sources
        .iter()
        .copied()
        .filter(|&(c, _)| grid.is_passable(c, mobility) && allowed(c))
        .collect();
    integer_dijkstra(grid, mobility, &open, eight, weights, allowed, true)
}

/// Integer Dijkstra; `toward`: a step from `p` to its neighbour `n` costs `p`'s cost
/// (walking from `n` into `p`), else `n`'s.
fn integer_dijkstra(
    grid: &Grid,
    mobility: Mobility,
    sources: &[(Cell, u64)],
    eight: bool,
    (straight, diagonal): (u64, u64),
    allowed: impl Fn(Cell) -> bool,
    toward: bool,
) -> Vec<Option<u64>> {
    let mut heap = BinaryHeap::new();
    let mut dist: Vec<Option<u64>> = vec![None; grid.len()];
    let ok = |c: Cell| grid.is_passable(c, mobility) && allowed(c);
    for &(c, start) in sources {
        if let Some(i) = grid.index_of(c)
            && dist[i].is_none_or(|d| start < d)
        {
            dist[i] = Some(start);
            heap.push(std::cmp::Reverse((start, i)));
        }
    }
    let w = grid.width() as usize;
    while let Some(std::cmp::Reverse((d, i))) = heap.pop() {
        if dist[i].is_some_and(|x| x < d) {
            continue;
        }
        let c = Cell::new((i % w) as i32, (i / w) as i32);
        for (n, (cost, diag)) in legal_steps(&|c| grid.cost(c, mobility), c, eight, &ok) {
            let cost = if toward { grid.cost(c, mobility) } else { cost };
            let ni = grid.index_of(n).expect("legal steps stay inside");
            let nd = d + u64::from(cost) * if diag { diagonal } else { straight };
            if dist[ni].is_none_or(|x| nd < x) {
                dist[ni] = Some(nd);
                heap.push(std::cmp::Reverse((nd, ni)));
            }
        }
    }
    dist
}

/// The legal steps from `c`: the cell entered and `(its cost, diagonal)`. A step
/// enters a cell `ok` accepts; a diagonal also needs both orthogonal cells beside it
/// accepted (no corner cutting).
fn legal_steps(
    cost: &impl Fn(Cell) -> u8,
    c: Cell,
    eight: bool,
    ok: &impl Fn(Cell) -> bool,
) -> Vec<(Cell, (u8, bool))> {
    let mut out = Vec::with_capacity(8);
    for dir in Direction8::ALL {
        if dir.is_diagonal() && !eight {
            continue;
        }
        let n = c.step(dir);
        if !ok(n) {
            continue;
        }
        if dir.is_diagonal() {
            let (dx, dy) = dir.offset();
            if !ok(Cell::new(c.x + dx, c.y)) || !ok(Cell::new(c.x, c.y + dy)) {
                continue;
            }
        }
        out.push((n, (cost(n), dir.is_diagonal())));
    }
    out
}

/// Walks `dirs` from `start` and checks every step: inside the grid, passable, no
/// corner cutting. Returns (end cell, cost).
pub fn walk(
    grid: &Grid,
    mobility: Mobility,
    start: Cell,
    dirs: impl Iterator<Item = Direction8>,
) -> (Cell, f64) {
    walk_sized(grid, mobility, 1, start, dirs)
}

/// [`walk`] for a unit of `size x size` cells: every footprint entered is checked cell
/// by cell ([`footprint_cost`]), and a diagonal step's two orthogonal footprints too.
pub fn walk_sized(
    grid: &Grid,
    mobility: Mobility,
    size: u8,
    start: Cell,
    dirs: impl Iterator<Item = Direction8>,
) -> (Cell, f64) {
    let enter = |c: Cell| footprint_cost_leaving(grid, mobility, c, size, start);
    let fits = |c: Cell| enter(c) != 0;
    let mut c = start;
    let mut cost = 0.0;
    for d in dirs {
        let n = c.step(d);
        assert!(
            fits(n),
            "step {d:?} from {c} enters blocked {n} (size {size})"
        );
        let mut step = f64::from(enter(n));
        if d.is_diagonal() {
            let (dx, dy) = d.offset();
            assert!(
                fits(Cell::new(c.x + dx, c.y)) && fits(Cell::new(c.x, c.y + dy)),
                "diagonal {d:?} from {c} cuts a corner (size {size})"
            );
            step *= std::f64::consts::SQRT_2;
        }
        cost += step;
        c = n;
    }
    (c, cost)
}

/// Checks that a result's path is valid and that `end`, `arrival`, `cost` and the
/// route's length agree with it.
pub fn check_result(grid: &Grid, mobility: Mobility, from: Cell, to: Cell, r: &PathResult) {
    check_result_sized(grid, mobility, 1, from, to, r);
}

/// [`check_result`] for a unit of `size x size` cells ([`walk_sized`]).
pub fn check_result_sized(
    grid: &Grid,
    mobility: Mobility,
    size: u8,
    from: Cell,
    to: Cell,
    r: &PathResult,
) {
    let mut p = r.path;
    let n = p.len();
    let (end, cost) = walk_sized(grid, mobility, size, from, &mut p);
    assert_eq!(end, r.end, "path from {from} ends elsewhere than reported");
    check_arrival(r, n, to);
    // Octile distance bounds the steps left below, 4- and 8-connected alike.
    check_route_cost(cost, r, to, route_end(r, to).octile(end), mobility);
}

/// Checks `r`'s one arrival signal against its path (`n` steps, ending at `r.end`)
/// and route length: the path arrives exactly when it ends at the goal; a route longer
/// than a path goes on past `end`; a route that falls short names a cell other than
/// the goal, `end` itself when the path holds all of it.
pub fn check_arrival(r: &PathResult, n: usize, to: Cell) {
    assert_eq!(r.arrival == Arrival::Reached, r.end == to, "{r:?}");
    assert_eq!(n, (r.route_len as usize).min(56));
    let continues = r.route_len as usize > 56;
    match r.arrival {
        Arrival::Reached => assert!(!continues),
        Arrival::OnTheWay => assert!(continues),
        Arrival::Closest(c) => {
            assert_ne!(c, to);
            if !continues {
                assert_eq!(c, r.end);
            }
        }
    }
}

/// Checks the route's cost against `path_cost`, what walking the path costs: the same
/// when the path holds the whole route; otherwise the rest of the route, at least
/// `rest` steps from `end` (a lower bound on their number, in straight steps), costs at
/// least `rest` times the mobility's cheapest cell.
pub fn check_route_cost(path_cost: f64, r: &PathResult, to: Cell, rest: f64, mobility: Mobility) {
    if r.route_len as usize <= 56 {
        assert!(
            close(path_cost, r.cost),
            "path cost {path_cost} != reported {}",
            r.cost
        );
    } else {
        let least = path_cost + rest * f64::from(mobility.min_cost());
        assert!(
            r.cost + 1e-6 * r.cost.max(1.0) >= least,
            "route cost {} below its path's {path_cost} and the rest's least {least} (to {to})",
            r.cost
        );
    }
}

/// Where `r`'s route ends, for a query to `to`: the goal, or the cell of
/// [`Arrival::Closest`].
pub fn route_end(r: &PathResult, to: Cell) -> Cell {
    match r.arrival {
        Arrival::Closest(c) => c,
        Arrival::Reached | Arrival::OnTheWay => to,
    }
}

/// What `r` says of its whole route, for comparing two answers to one query: where
/// it leads, its cost and its number of steps.
pub fn route(r: &PathResult) -> (Arrival, f64, u32) {
    (r.arrival, r.cost, r.route_len)
}

/// Whether `r`'s route reaches the goal (all of it in the path or not).
pub fn reaches_goal(r: &PathResult) -> bool {
    !matches!(r.arrival, Arrival::Closest(_))
}

/// Whether `a` and `b` agree to a relative `1e-6` (absolute near 0).
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

/// The cells a windowed search from `from` may use: within 56 steps on each axis.
pub fn in_window(from: Cell) -> impl Fn(Cell) -> bool {
    move |c| c.x.abs_diff(from.x) <= 56 && c.y.abs_diff(from.y) <= 56
}

/// Distance estimate the solvers use to pick "the reachable cell closest to the goal".
pub fn estimate(c: Cell, goal: Cell, eight: bool) -> f64 {
    if eight {
        c.octile(goal)
    } else {
        f64::from(c.manhattan(goal))
    }
}

/// Checks an optimal search's result against reference distances `dist` from `from`
/// ([`reference_dijkstra`], over the cells the search may use): a reachable goal is
/// reached at its optimal cost; otherwise the route ends at a reachable cell nearest
/// the goal by [`estimate`], at that cell's optimal cost. The path is checked too
/// ([`check_result`]).
pub fn check_optimal(
    grid: &Grid,
    mobility: Mobility,
    from: Cell,
    to: Cell,
    eight: bool,
    dist: &[Option<f64>],
    r: &PathResult,
) {
    check_optimal_sized(grid, mobility, 1, (from, to), eight, dist, r);
}

/// [`check_optimal`] for a unit of `size x size` cells, against
/// [`reference_dijkstra_sized`]'s distances.
pub fn check_optimal_sized(
    grid: &Grid,
    mobility: Mobility,
    size: u8,
    (from, to): (Cell, Cell),
    eight: bool,
    dist: &[Option<f64>],
    r: &PathResult,
) {
    check_result_sized(grid, mobility, size, from, to, r);
    let at = |c: Cell| grid.index_of(c).and_then(|i| dist[i]);
    match at(to) {
        Some(d) => {
            assert!(
                reaches_goal(r),
                "{from}->{to}: reachable at {d} but not found"
            );
            assert!(
                close(r.cost, d),
                "{from}->{to}: cost {} != optimal {d}",
                r.cost
            );
        }
        None => {
            assert!(
                !reaches_goal(r),
                "{from}->{to}: unreachable goal reported reached"
            );
            let best = (0..dist.len())
                .filter(|&i| dist[i].is_some())
                .map(|i| estimate(grid.cell_of(i).unwrap(), to, eight))
                .fold(f64::INFINITY, f64::min);
            let got = estimate(route_end(r, to), to, eight);
            assert!(
                close(got, best),
                "{from}->{to}: partial route ends {got} away, best is {best}"
            );
            let d = at(route_end(r, to)).expect("route ends on an unreachable cell");
            assert!(
                close(r.cost, d),
                "partial route cost {} != optimal {d}",
                r.cost
            );
        }
    }
}
