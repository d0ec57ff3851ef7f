//! Landmark-guided jump point search (`Landmarks`, `Jps::*_guided`): the same answers
//! as A* and the reference Dijkstra, also after edits and repairs; the Moving AI
//! optimal lengths; no allocation per query; a guide that does not fit the query, or
//! no longer fits the grid, never panics.

use rand::RngExt;
use rand::rngs::StdRng;
use tilepath::{
    AStar, Arrival, Cell, Connectivity, Grid, Jps, Landmarks, Mobility, PathQuery, Solver,
};
use tilepath::{PathResult, TileKind};
use tilepath_testkit::*;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// A mobility where every open kind costs the same (kind 3 always blocked).
fn uniform_mobility(rng: &mut StdRng) -> Mobility {
    let cost = [1, 1, 2, 7][rng.random_range(0..4usize)];
    let mut costs = [0u8; 4];
    for c in costs.iter_mut().take(3) {
        if rng.random_bool(0.6) {
            *c = cost;
        }
    }
    if costs == [0; 4] {
        costs[0] = cost;
    }
    Mobility::new(costs)
}

/// Random edits: single cells and small rectangles of random kinds; returns the
/// cells changed.
fn edit(rng: &mut StdRng, grid: &mut Grid) -> Vec<Cell> {
    let mut changed = Vec::new();
    for _ in 0..rng.random_range(1..=6) {
        let kind = TileKind::new(rng.random_range(0..4u8)).unwrap();
        let a = random_cell(rng, grid);
        let b = if rng.random_bool(0.3) {
            Cell::new(a.x + rng.random_range(0..6), a.y + rng.random_range(0..6))
        } else {
            a
        };
        grid.fill_rect(a, b, kind);
        for y in a.y..=b.y {
            for x in a.x..=b.x {
                changed.push(Cell::new(x, y));
            }
        }
    }
    changed
}

/// The guided answer is the unguided one's: reached or not alike, at the same cost
/// and length, ending as near the goal.
fn same_answer(what: &str, eight: bool, to: Cell, guided: &PathResult, astar: &PathResult) {
    let (j, a) = (guided, astar);
    assert_eq!(
        reaches_goal(j),
        reaches_goal(a),
        "{what}: {j:?} vs A* {a:?}"
    );
    assert!(close(j.cost, a.cost), "{what}: cost {j:?} vs A* {a:?}");
    assert_eq!(j.route_len, a.route_len, "{what}: {j:?} vs A* {a:?}");
    assert!(
        close(
            estimate(route_end(j, to), to, eight),
            estimate(route_end(a, to), to, eight)
        ),
        "{what}: ends {j:?} vs A* {a:?}"
    );
}

#[test]
fn guided_search_matches_astar_and_reference_dijkstra_through_edits() {
    let mut windowed = Jps::new();
    let mut whole = Jps::whole_grid();
    let mut astar = AStar::whole_grid();
    let mut astar_window = AStar::new();
    let (mut checked, mut partial) = (0, 0);
    for seed in 0..300 {
        let mut rng = rng(7000 + seed);
        let big = rng.random_bool(0.15);
        let side = |rng: &mut StdRng| {
            if big {
                rng.random_range(100..=160)
            } else {
                rng.random_range(1..=60)
            }
        };
        let (w, h) = (side(&mut rng), side(&mut rng));
        let walls = [0.0, 0.05, 0.2, 0.35, 0.45][rng.random_range(0..5usize)];
        let mut grid = random_grid(&mut rng, w, h, walls);
        let mobility = uniform_mobility(&mut rng);
        let count = rng.random_range(1..=Landmarks::MAX);
        let mut guides = [Connectivity::Four, Connectivity::Eight]
            .map(|c| Landmarks::new(&grid, mobility, c, count).unwrap());
        for _ in 0..4 {
            let from = random_cell(&mut rng, &grid);
            let to = if rng.random_bool(0.05) {
                Cell::new(
                    rng.random_range(-3..w as i32 + 3),
                    rng.random_range(-3..h as i32 + 3),
                )
            } else {
                random_cell(&mut rng, &grid)
            };
            for eight in [false, true] {
                let guide = &guides[usize::from(eight)];
                let all = reference_dijkstra(&grid, mobility, from, eight, |_| true);
                let win = reference_dijkstra(&grid, mobility, from, eight, in_window(from));
                let what = format!("seed {seed} {from}->{to} eight {eight} {mobility:?}");
                if eight {
                    let j = whole
                        .find(
                            &grid,
                            PathQuery::new(from, to, mobility)
                                .guided(guide)
                                .connectivity(Connectivity::Eight),
                        )
                        .unwrap();
                    let a = astar
                        .find(
                            &grid,
                            PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
                        )
                        .unwrap();
                    check_optimal(&grid, mobility, from, to, true, &all, &j);
                    same_answer(&what, true, to, &j, &a);
                    partial += usize::from(j.arrival != Arrival::Reached);
                    let j = windowed
                        .find(
                            &grid,
                            PathQuery::new(from, to, mobility)
                                .guided(guide)
                                .connectivity(Connectivity::Eight),
                        )
                        .unwrap();
                    let a = astar_window
                        .find(
                            &grid,
                            PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
                        )
                        .unwrap();
                    check_optimal(&grid, mobility, from, to, true, &win, &j);
                    same_answer(&what, true, to, &j, &a);
                } else {
                    let j = whole
                        .find(&grid, PathQuery::new(from, to, mobility).guided(guide))
                        .unwrap();
                    let a = astar
                        .find(&grid, PathQuery::new(from, to, mobility))
                        .unwrap();
                    check_optimal(&grid, mobility, from, to, false, &all, &j);
                    same_answer(&what, false, to, &j, &a);
                    let j = windowed
                        .find(&grid, PathQuery::new(from, to, mobility).guided(guide))
                        .unwrap();
                    let a = astar_window
                        .find(&grid, PathQuery::new(from, to, mobility))
                        .unwrap();
                    check_optimal(&grid, mobility, from, to, false, &win, &j);
                    same_answer(&what, false, to, &j, &a);
                }
                checked += 1;
            }
            let changed = edit(&mut rng, &mut grid);
            for guide in &mut guides {
                guide.repair(&grid, &changed).unwrap();
            }
        }
    }
    println!("checked {checked} guided queries ({partial} partial)");
    assert!(
        partial > 50,
        "unreachable goals should be covered: {partial}"
    );
}

/// Checks every `stride`-th scenario of `map` with guided whole-grid 8-connected
/// jump point search; returns how many were checked.
fn check_map(map: &str, stride: usize) -> usize {
    let grid = load_movingai(map);
    let mobility = Mobility::FLOOR_ONLY;
    let guide = Landmarks::new(&grid, mobility, Connectivity::Eight, 8).unwrap();
    let mut jps = Jps::for_grid(&grid).unwrap();
    let mut checked = 0;
    for s in load_scenarios(map).iter().step_by(stride) {
        let r = jps
            .find(
                &grid,
                PathQuery::new(s.start, s.goal, mobility)
                    .guided(&guide)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        if s.optimal == 0.0 && s.start != s.goal {
            assert!(
                matches!(r.arrival, Arrival::Closest(_)),
                "{map}: {} -> {}",
                s.start,
                s.goal
            );
        } else {
            assert!(
                (r.cost - s.optimal).abs() <= 1e-5 * s.optimal + 0.01,
                "{map}: {} -> {}: cost {} but optimal {}",
                s.start,
                s.goal,
                r.cost,
                s.optimal
            );
        }
        check_result(&grid, mobility, s.start, s.goal, &r);
        checked += 1;
    }
    checked
}

#[test]
fn guided_movingai_maps_sample() {
    for map in MOVING_AI_MAPS {
        let count = load_scenarios(map).len();
        let n = check_map(map, (count / 150).max(1));
        assert!(n >= 150, "{map}: {n}");
    }
}

#[test]
#[ignore = "all ~17,000 scenarios; run before resolving search changes"]
fn guided_movingai_maps_every_scenario() {
    let total: usize = MOVING_AI_MAPS.iter().map(|map| check_map(map, 1)).sum();
    assert!(total > 17_000, "{total}");
}

#[test]
fn guided_queries_allocate_nothing() {
    let mut rng = rng(11);
    let grid = load_movingai("den312d.map");
    let mobility = Mobility::FLOOR_ONLY;
    let guides = [Connectivity::Four, Connectivity::Eight]
        .map(|c| Landmarks::new(&grid, mobility, c, 8).unwrap());
    let queries: Vec<(Cell, Cell)> = (0..1000)
        .map(|i| {
            let to = if i % 41 == 0 {
                Cell::new(-4, 2)
            } else {
                random_cell(&mut rng, &grid)
            };
            (random_cell(&mut rng, &grid), to)
        })
        .collect();
    let mut jps = Jps::whole_grid();
    let mut sink = 0.0;
    let mut run = |jps: &mut Jps| {
        for &(from, to) in &queries {
            let [four, eight] = &guides;
            sink += jps
                .find(&grid, PathQuery::new(from, to, mobility).guided(four))
                .unwrap()
                .cost;
            sink += jps
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility)
                        .guided(eight)
                        .connectivity(Connectivity::Eight),
                )
                .unwrap()
                .cost;
        }
    };
    run(&mut jps);
    let n = allocations_in(|| run(&mut jps));
    assert_eq!(
        n, 0,
        "guided JPS allocated {n} times after warm-up (checksum {sink})"
    );
}

#[test]
fn a_guide_that_does_not_fit_never_panics() {
    let mut rng = rng(3);
    let mobility = Mobility::FLOOR_ONLY;
    let mut grid = random_grid(&mut rng, 60, 40, 0.2);
    let guide = Landmarks::new(&grid, mobility, Connectivity::Eight, 4).unwrap();
    let other = random_grid(&mut rng, 30, 70, 0.2);
    let mut jps = Jps::whole_grid();
    let mut astar = AStar::whole_grid();
    for _ in 0..200 {
        // Another grid size, another mobility, another connectivity: ignored.
        let (from, to) = (random_cell(&mut rng, &other), random_cell(&mut rng, &other));
        let g = jps
            .find(
                &other,
                PathQuery::new(from, to, mobility)
                    .guided(&guide)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        let a = astar
            .find(
                &other,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        assert!(close(g.cost, a.cost));
        let m = Mobility::new([1, 1, 0, 0]);
        let g = jps.find(
            &grid,
            PathQuery::new(from, to, m)
                .guided(&guide)
                .connectivity(Connectivity::Eight),
        );
        assert_eq!(
            g.map(|r| r.cost).ok(),
            astar
                .find(
                    &grid,
                    PathQuery::new(from, to, m).connectivity(Connectivity::Eight)
                )
                .map(|r| r.cost)
                .ok()
        );
        let g = jps.find(&grid, PathQuery::new(from, to, mobility).guided(&guide));
        assert_eq!(
            g.map(|r| r.cost).ok(),
            astar
                .find(&grid, PathQuery::new(from, to, mobility))
                .map(|r| r.cost)
                .ok()
        );
        // Edited without a repair: a valid path, perhaps not the shortest.
        edit(&mut rng, &mut grid);
        let (from, to) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
        let g = jps
            .find(
                &grid,
                PathQuery::new(from, to, mobility)
                    .guided(&guide)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_result(&grid, mobility, from, to, &g);
    }
    // A guide of a snaking map whose walls then get gaps (no repair) overestimates
    // the new short cuts: routes stay valid, and debug builds do not trip over the
    // inconsistent estimates.
    let mut snake = Grid::new(120, 60).unwrap();
    for (i, x) in [30, 60, 90].into_iter().enumerate() {
        let gap = if i % 2 == 0 { 57 } else { 1 };
        for y in (0..60).filter(|y| !(gap..gap + 2).contains(y)) {
            snake.set(Cell::new(x, y), TileKind::K1).unwrap();
        }
    }
    let stale = Landmarks::new(&snake, mobility, Connectivity::Eight, 4).unwrap();
    for x in [30, 60, 90] {
        snake.set(Cell::new(x, 30), TileKind::K0).unwrap();
    }
    for _ in 0..100 {
        let (from, to) = (random_cell(&mut rng, &snake), random_cell(&mut rng, &snake));
        let g = jps
            .find(
                &snake,
                PathQuery::new(from, to, mobility)
                    .guided(&stale)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_result(&snake, mobility, from, to, &g);
    }
    // A repair with a grid of another size is refused, and the guide then guides
    // nothing (answers stay optimal); a repair that succeeds makes it guide again, as
    // a fresh guide does.
    let pairs: Vec<(Cell, Cell)> = (0..50)
        .map(|_| (random_cell(&mut rng, &snake), random_cell(&mut rng, &snake)))
        .collect();
    let mut guide = Landmarks::new(&snake, mobility, Connectivity::Eight, 4).unwrap();
    let fresh = guide.clone();
    assert!(guide.repair(&other, &[Cell::new(1, 1)]).is_err());
    let (mut dropped, mut plain) = (0, 0);
    for &(from, to) in &pairs {
        let g = jps
            .find(
                &snake,
                PathQuery::new(from, to, mobility)
                    .guided(&guide)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        let a = jps
            .find(
                &snake,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        assert_eq!(g, a);
        (dropped, plain) = (dropped + g.expanded, plain + a.expanded);
    }
    assert_eq!(dropped, plain);
    guide.repair(&snake, &[Cell::new(0, 0)]).unwrap();
    let mut guided = 0;
    for &(from, to) in &pairs {
        let again = jps
            .find(
                &snake,
                PathQuery::new(from, to, mobility)
                    .guided(&guide)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        let reference = jps
            .find(
                &snake,
                PathQuery::new(from, to, mobility)
                    .guided(&fresh)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        assert_eq!(again, reference);
        guided += again.expanded;
    }
    assert!(guided < plain, "guided {guided}, unguided {plain}");
    // A grid with no open cell gets no landmark.
    let walls = Grid::filled(8, 8, TileKind::K3).unwrap();
    let empty = Landmarks::new(&walls, mobility, Connectivity::Four, 4).unwrap();
    assert!(empty.cells().is_empty());
}
