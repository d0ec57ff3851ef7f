//! The plain hex reference: neighbours from the axial formulas (not from the library's
//! tables), a Dijkstra over them, and hex path checks.

use crate::reference::{check_arrival, check_route_cost, reaches_goal, route_end};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use tilepath::{Cell, Direction8, Grid, HexLayout, Mobility, PathResult};

/// The axial neighbour offsets, in bevy_ecs_tilemap's `HexDirection` order.
pub const AXIAL_NEIGHBOURS: [(i64, i64); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// Axial `(q, r)` of a cell, from bevy_ecs_tilemap's formulas (`div_euclid` is floor
/// division).
pub fn axial_of(layout: HexLayout, c: Cell) -> (i64, i64) {
    let (x, y) = (i64::from(c.x), i64::from(c.y));
    match layout {
        HexLayout::Axial => (x, y),
        HexLayout::RowOdd => (x - y.div_euclid(2), y),
        HexLayout::RowEven => (x - (y + 1).div_euclid(2), y),
        HexLayout::ColumnOdd => (x, y - x.div_euclid(2)),
        HexLayout::ColumnEven => (x, y - (x + 1).div_euclid(2)),
    }
}

/// The cell at axial `(q, r)`: the inverse of [`axial_of`].
pub fn cell_of_axial(layout: HexLayout, (q, r): (i64, i64)) -> Cell {
    let (x, y) = match layout {
        HexLayout::Axial => (q, r),
        HexLayout::RowOdd => (q + r.div_euclid(2), r),
        HexLayout::RowEven => (q + (r + 1).div_euclid(2), r),
        HexLayout::ColumnOdd => (q, r + q.div_euclid(2)),
        HexLayout::ColumnEven => (q, r + (q + 1).div_euclid(2)),
    };
    Cell::new(x as i32, y as i32)
}

/// The 6 neighbours of `c` (inside the grid or not), in `HexDirection` order.
pub fn hex_neighbours(layout: HexLayout, c: Cell) -> [Cell; 6] {
    let (q, r) = axial_of(layout, c);
    AXIAL_NEIGHBOURS.map(|(dq, dr)| cell_of_axial(layout, (q + dq, r + dr)))
}

/// Hex steps between two cells on an open map.
pub fn hex_distance_ref(layout: HexLayout, a: Cell, b: Cell) -> u64 {
    let (qa, ra) = axial_of(layout, a);
    let (qb, rb) = axial_of(layout, b);
    let (dq, dr) = (qa - qb, ra - rb);
    dq.unsigned_abs()
        .max(dr.unsigned_abs())
        .max((dq + dr).unsigned_abs())
}

/// Plain multi-source Dijkstra on a hex map over the cells `allowed` says yes to:
/// every step enters a passable neighbour and costs its cost (`toward`: costs the
/// cell it leaves instead, for the cost of walking *to* the sources, as a distance
/// field stores). Sources outside the grid are skipped; those on blocked cells start
/// there (filter them out for goal semantics). Row-major distances.
pub fn reference_hex(
    grid: &Grid,
    mobility: Mobility,
    layout: HexLayout,
    sources: &[(Cell, u64)],
    toward: bool,
    allowed: impl Fn(Cell) -> bool,
) -> Vec<Option<u64>> {
    let mut dist: Vec<Option<u64>> = vec![None; grid.len()];
    let mut heap = BinaryHeap::new();
    for &(c, start) in sources {
        if let Some(i) = grid.index_of(c)
            && dist[i].is_none_or(|d| start < d)
        {
            dist[i] = Some(start);
            heap.push(Reverse((start, i)));
        }
    }
    while let Some(Reverse((d, i))) = heap.pop() {
        if dist[i].is_some_and(|x| x < d) {
            continue;
        }
        let c = grid.cell_of(i).expect("index of the grid");
        for n in hex_neighbours(layout, c) {
            if !grid.is_passable(n, mobility) || !allowed(n) {
                continue;
            }
            let step = if toward {
                grid.cost(c, mobility)
            } else {
                grid.cost(n, mobility)
            };
            let ni = grid.index_of(n).expect("passable cells are inside");
            let nd = d + u64::from(step);
            if dist[ni].is_none_or(|x| nd < x) {
                dist[ni] = Some(nd);
                heap.push(Reverse((nd, ni)));
            }
        }
    }
    dist
}

/// Which open cells a flood fill over hex steps reaches from `start` (an open cell).
pub fn hex_flood(grid: &Grid, mobility: Mobility, layout: HexLayout, start: Cell) -> Vec<bool> {
    let mut seen = vec![false; grid.len()];
    let Some(i) = grid.index_of(start) else {
        return seen;
    };
    if !grid.is_passable(start, mobility) {
        return seen;
    }
    seen[i] = true;
    let mut stack = vec![start];
    while let Some(c) = stack.pop() {
        for n in hex_neighbours(layout, c) {
            if let Some(j) = grid.index_of(n)
                && !seen[j]
                && grid.is_passable(n, mobility)
            {
                seen[j] = true;
                stack.push(n);
            }
        }
    }
    seen
}

/// Walks `dirs` from `start` on a hex map, checking every step against the reference
/// neighbours and the library's [`HexLayout::is_step`]: a hex step into a passable
/// cell of the grid. Returns `(end, cost)` (the sum of the costs entered).
pub fn walk_hex(
    grid: &Grid,
    mobility: Mobility,
    layout: HexLayout,
    start: Cell,
    dirs: impl Iterator<Item = Direction8>,
) -> (Cell, u64) {
    let mut c = start;
    let mut cost = 0;
    for d in dirs {
        let n = c.step(d);
        assert!(
            hex_neighbours(layout, c).contains(&n),
            "{layout:?}: {d:?} from {c} is no hex step"
        );
        assert!(
            layout.is_step(c, d),
            "{layout:?}: is_step disagrees at {c} {d:?}"
        );
        let entered = grid.cost(n, mobility);
        assert!(
            entered != 0,
            "{layout:?}: step {d:?} from {c} enters blocked {n}"
        );
        cost += u64::from(entered);
        c = n;
    }
    (c, cost)
}

/// Checks a hex search's result: a valid path ([`walk_hex`]) whose end, cost and
/// flags agree with the result.
pub fn check_hex_result(
    grid: &Grid,
    mobility: Mobility,
    layout: HexLayout,
    (from, to): (Cell, Cell),
    r: &PathResult,
) {
    let path = r.path;
    let n = path.len();
    let (end, cost) = walk_hex(grid, mobility, layout, from, path);
    assert_eq!(
        end, r.end,
        "{layout:?}: path from {from} ends elsewhere than reported"
    );
    check_arrival(r, n, to);
    let rest = hex_distance_ref(layout, end, route_end(r, to)) as f64;
    check_route_cost(cost as f64, r, to, rest, mobility);
    if r.route_len as usize <= 56 {
        assert_eq!(cost as f64, r.cost, "{layout:?}: path cost vs reported");
    }
}

/// Checks an optimal hex search's result against reference costs `dist` from `from`
/// ([`reference_hex`] over the cells the search may use): a reachable goal is reached
/// at its optimal cost; otherwise the route ends at a reachable cell nearest the goal
/// by hex distance, at that cell's optimal cost. The path is checked too.
pub fn check_hex_optimal(
    grid: &Grid,
    mobility: Mobility,
    layout: HexLayout,
    (from, to): (Cell, Cell),
    dist: &[Option<u64>],
    r: &PathResult,
) {
    check_hex_result(grid, mobility, layout, (from, to), r);
    let at = |c: Cell| grid.index_of(c).and_then(|i| dist[i]);
    match at(to) {
        Some(d) => {
            assert!(
                reaches_goal(r),
                "{layout:?} {from}->{to}: reachable at {d} but not found"
            );
            assert_eq!(r.cost, d as f64, "{layout:?} {from}->{to}: cost vs optimal");
        }
        None => {
            assert!(
                !reaches_goal(r),
                "{layout:?} {from}->{to}: unreachable goal reached"
            );
            let best = (0..dist.len())
                .filter(|&i| dist[i].is_some())
                .map(|i| hex_distance_ref(layout, grid.cell_of(i).unwrap(), to))
                .min()
                .expect("the start is reached");
            let got = hex_distance_ref(layout, route_end(r, to), to);
            assert_eq!(
                got, best,
                "{layout:?} {from}->{to}: partial route ends {got} away, best is {best}"
            );
            let d = at(route_end(r, to)).expect("route ends on an unreachable cell");
            assert_eq!(
                r.cost, d as f64,
                "{layout:?}: partial route cost vs optimal"
            );
        }
    }
}
