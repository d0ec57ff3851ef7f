//! Oracle tests: on thousands of seeded random grids with random mobilities and costs,
//! every solver is checked against a plain reference Dijkstra.

use rand::RngExt;
use tilepath::{AStar, Arrival, Cell, Connectivity, Greedy, Grid, Mobility, PathQuery, Solver};
use tilepath_testkit::*;

const GRIDS: u64 = 1500;
const QUERIES: usize = 4;

/// Expansions and end cell of a plain greedy best-first search with the solver's
/// documented order: a neighbour one step nearer the goal than the cell expanded goes
/// on a LIFO list that is always taken from first; the others go in 64 LIFO stacks by
/// Manhattan distance to the goal (from 57 below the start's, the first and last
/// stacks taking everything nearer and farther), taken from the lowest when the list
/// is empty; neighbours right, down, left, up, inside the window; stopping once the
/// goal is taken or after `limit` expansions (the goal counts as reached if the last
/// expansion queued it). A search that does not reach the goal ends at the first
/// expanded cell nearest to it.
fn reference_greedy(
    grid: &Grid,
    mobility: Mobility,
    from: Cell,
    to: Cell,
    limit: u32,
) -> (u32, Cell) {
    if from == to {
        return (0, from);
    }
    let base = from.manhattan(to).saturating_sub(57);
    let bucket = |c: Cell| (c.manhattan(to) - base.min(c.manhattan(to))).clamp(1, 63) as usize;
    let mut nearer = vec![from];
    let mut stacks: Vec<Vec<Cell>> = vec![Vec::new(); 64];
    let mut seen = std::collections::HashSet::from([from]);
    let mut expanded = 0;
    let mut best = from;
    while let Some(c) = nearer
        .pop()
        .or_else(|| stacks.iter_mut().find_map(Vec::pop))
    {
        if c == to {
            return (expanded, to);
        }
        if expanded == limit {
            break;
        }
        expanded += 1;
        if c.manhattan(to) < best.manhattan(to) {
            best = c;
        }
        for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
            let n = Cell::new(c.x + dx, c.y + dy);
            if !in_window(from)(n) || grid.cost(n, mobility) == 0 || !seen.insert(n) {
                continue;
            }
            if n.manhattan(to) < c.manhattan(to) {
                nearer.push(n);
            } else {
                stacks[bucket(n)].push(n);
            }
        }
    }
    (expanded, best)
}

#[test]
fn astar_and_greedy_match_reference_dijkstra_on_random_grids() {
    let mut astar = AStar::new();
    let mut whole = AStar::whole_grid();
    let mut greedy = Greedy::new();
    let mut greedy_limited = Greedy::new();
    let mut checked = 0;
    let mut partials = 0;
    let mut same_order = 0;
    // Of those, queries of one-cost mobilities (their neighbours read from bit rows).
    let mut one_cost = 0;
    for seed in 0..GRIDS {
        let mut rng = rng(seed);
        let big = rng.random_bool(0.1);
        let side = |rng: &mut rand::rngs::StdRng| {
            if big {
                rng.random_range(100..=150)
            } else {
                rng.random_range(1..=60)
            }
        };
        let (w, h) = (side(&mut rng), side(&mut rng));
        let walls = rng.random_range(0.0..0.45);
        let grid = random_grid(&mut rng, w, h, walls);
        let max_cost = [1, 1, 9, 40, 255][rng.random_range(0..5usize)];
        let mobility = random_mobility(&mut rng, max_cost);
        for _ in 0..QUERIES {
            let from = random_cell(&mut rng, &grid);
            let to = if rng.random_bool(0.05) {
                Cell::new(
                    rng.random_range(-5..w as i32 + 5),
                    rng.random_range(-5..h as i32 + 5),
                )
            } else {
                random_cell(&mut rng, &grid)
            };
            for eight in [false, true] {
                let win = reference_dijkstra(&grid, mobility, from, eight, in_window(from));
                let all = reference_dijkstra(&grid, mobility, from, eight, |_| true);
                if eight {
                    let r = astar
                        .find(
                            &grid,
                            PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
                        )
                        .unwrap();
                    check_optimal(&grid, mobility, from, to, true, &win, &r);
                    let r = whole
                        .find(
                            &grid,
                            PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
                        )
                        .unwrap();
                    check_optimal(&grid, mobility, from, to, true, &all, &r);
                    partials += usize::from(r.arrival != Arrival::Reached);
                } else {
                    let r = astar
                        .find(&grid, PathQuery::new(from, to, mobility))
                        .unwrap();
                    check_optimal(&grid, mobility, from, to, false, &win, &r);
                    let rw = whole
                        .find(&grid, PathQuery::new(from, to, mobility))
                        .unwrap();
                    check_optimal(&grid, mobility, from, to, false, &all, &rw);
                    // A grid inside the window: the windowed search (ring linked
                    // through its nodes) and the whole-grid one (bucket queue with
                    // duplicate entries) expand the same nodes in the same order.
                    let ring = u32::from(mobility.min_cost()) + u32::from(mobility.max_cost()) < 64;
                    if ring && w <= 57 && h <= 57 {
                        assert_eq!(
                            (r.expanded, r.path, route(&r)),
                            (rw.expanded, rw.path, route(&rw)),
                            "{from}->{to}: windowed and whole-grid A* differ"
                        );
                        same_order += 1;
                        one_cost += usize::from(mobility.min_cost() == mobility.max_cost());
                    }
                    let g = greedy
                        .find(&grid, PathQuery::new(from, to, mobility))
                        .unwrap();
                    check_result(&grid, mobility, from, to, &g);
                    assert_eq!(
                        (g.expanded, route_end(&g, to)),
                        reference_greedy(&grid, mobility, from, to, u32::MAX),
                        "greedy {from}->{to}: expansion order"
                    );
                    // The same search stopped by a limit.
                    let limit = rng.random_range(1..=g.expanded.max(1));
                    greedy_limited.set_max_expansions(limit);
                    let gl = greedy_limited
                        .find(&grid, PathQuery::new(from, to, mobility))
                        .unwrap();
                    check_result(&grid, mobility, from, to, &gl);
                    assert_eq!(
                        (gl.expanded, route_end(&gl, to)),
                        reference_greedy(&grid, mobility, from, to, limit),
                        "greedy {from}->{to} limited to {limit}"
                    );
                    let reachable = grid.index_of(to).and_then(|i| win[i]).is_some();
                    assert_eq!(
                        !matches!(g.arrival, Arrival::Closest(_)),
                        reachable,
                        "greedy {from}->{to}"
                    );
                    if !reachable {
                        let best = (0..win.len())
                            .filter(|&i| win[i].is_some())
                            .map(|i| grid.cell_of(i).unwrap().manhattan(to))
                            .min()
                            .unwrap();
                        assert_eq!(
                            route_end(&g, to).manhattan(to),
                            best,
                            "greedy partial {from}->{to}"
                        );
                    }
                }
                checked += 1;
            }
        }
    }
    println!(
        "checked {checked} queries on {GRIDS} grids ({partials} partial whole-grid 8-connected, \
         {same_order} windowed = whole-grid expansion orders, {one_cost} of one-cost mobilities)"
    );
    assert!(
        one_cost > 500,
        "one-cost mobilities should be well covered, got {one_cost}"
    );
    assert!(
        partials > 0,
        "the random maps should produce unreachable goals too"
    );
    assert!(
        same_order > 1000,
        "only {same_order} expansion orders compared"
    );
}

#[test]
fn expansion_limit_gives_valid_partial_paths() {
    let mut rng = rng(77);
    let grid = random_grid(&mut rng, 120, 120, 0.2);
    let mobility = Mobility::new([1, 2, 3, 0]);
    let mut limited = AStar::whole_grid().with_max_expansions(50);
    let mut greedy = Greedy::new().with_max_expansions(10);
    let mut cut = 0;
    for _ in 0..200 {
        let (from, to) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
        let r = limited
            .find(&grid, PathQuery::new(from, to, mobility))
            .unwrap();
        assert!(r.expanded <= 50);
        check_result(&grid, mobility, from, to, &r);
        let r8 = limited
            .find(
                &grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_result(&grid, mobility, from, to, &r8);
        let g = greedy
            .find(&grid, PathQuery::new(from, to, mobility))
            .unwrap();
        assert!(g.expanded <= 10);
        check_result(&grid, mobility, from, to, &g);
        cut += usize::from(r.arrival != Arrival::Reached);
    }
    assert!(
        cut > 100,
        "a 50-node limit should cut most long searches ({cut})"
    );
}
