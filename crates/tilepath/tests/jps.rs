//! Jump point search against A* and the reference Dijkstra: seeded random grids with
//! edits between queries, 4- and 8-connected, windowed and whole-grid; the optimal
//! lengths of the Moving AI scenarios; zero allocation per query.
//!
//! CI checks a sample of every shared Moving AI map;
//! `cargo test -p tilepath --test jps -- --ignored` checks all ~17,000 scenarios.

use rand::RngExt;
use rand::rngs::StdRng;
use tilepath::{
    AStar, Arrival, Cell, Connectivity, Grid, Jps, MAX_STEPS, Mobility, PathQuery, PathResult,
    Solver, TileKind,
};
use tilepath_testkit::*;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// A mobility where every open kind costs the same (kind 3 always blocked).
fn uniform_mobility(rng: &mut StdRng) -> Mobility {
    let cost = [1, 1, 1, 2, 7, 255][rng.random_range(0..6usize)];
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

/// Jump point search's answer is A*'s: reached or not alike, at the same cost and
/// length; a partial route ends as near the goal as A*'s (by the search's estimate),
/// as cheaply (ties go to the cheaper route).
fn same_answer(what: &str, eight: bool, to: Cell, jps: &PathResult, astar: &PathResult) {
    let (j, a) = (jps, astar);
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
    assert_eq!(
        (jps.arrival != Arrival::Reached),
        (astar.arrival != Arrival::Reached),
        "{what}"
    );
}

/// Random edits: single cells and small rectangles of random kinds.
fn edit(rng: &mut StdRng, grid: &mut Grid) -> Vec<Cell> {
    let mut changed = Vec::new();
    for _ in 0..rng.random_range(1..=6) {
        let kind = TileKind::new(rng.random_range(0..4u8)).unwrap();
        let a = random_cell(rng, grid);
        if rng.random_bool(0.3) {
            let b = Cell::new(a.x + rng.random_range(0..6), a.y + rng.random_range(0..6));
            grid.fill_rect(a, b, kind);
            changed.extend((a.y..=b.y).flat_map(|y| (a.x..=b.x).map(move |x| Cell::new(x, y))));
        } else {
            grid.set(a, kind).unwrap();
            changed.push(a);
        }
    }
    changed
}

#[test]
fn jps_matches_astar_and_reference_dijkstra_on_random_grids() {
    let mut windowed = Jps::new();
    let mut whole = Jps::whole_grid();
    let mut astar = AStar::new();
    let mut astar_whole = AStar::whole_grid();
    let (mut checked, mut partial, mut long) = (0, 0, 0);
    for seed in 0..600 {
        let mut rng = rng(1000 + seed);
        let big = rng.random_bool(0.15);
        let side = |rng: &mut StdRng| {
            if big {
                rng.random_range(100..=160)
            } else {
                rng.random_range(1..=70)
            }
        };
        let (w, h) = (side(&mut rng), side(&mut rng));
        let walls = [0.0, 0.05, 0.2, 0.35, 0.45][rng.random_range(0..5usize)];
        let mut grid = random_grid(&mut rng, w, h, walls);
        let mobility = uniform_mobility(&mut rng);
        // A third of the grids keep the mobility's cells as bit rows, a third their
        // jump distances too (jump point search reads those, through the edits below),
        // a third are read from the planes.
        let mut kept = KeptRows::pick(seed % 3, &grid, mobility);
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
                let win = reference_dijkstra(&grid, mobility, from, eight, in_window(from));
                let all = reference_dijkstra(&grid, mobility, from, eight, |_| true);
                let what = format!("seed {seed} {from}->{to} eight {eight} {mobility:?}");
                if eight {
                    let (j, a) = (
                        windowed
                            .find(
                                &grid,
                                kept.query(
                                    PathQuery::new(from, to, mobility)
                                        .connectivity(Connectivity::Eight),
                                ),
                            )
                            .unwrap(),
                        astar
                            .find(
                                &grid,
                                PathQuery::new(from, to, mobility)
                                    .connectivity(Connectivity::Eight),
                            )
                            .unwrap(),
                    );
                    check_optimal(&grid, mobility, from, to, true, &win, &j);
                    same_answer(&what, true, to, &j, &a);
                    let (j, a) = (
                        whole
                            .find(
                                &grid,
                                kept.query(
                                    PathQuery::new(from, to, mobility)
                                        .connectivity(Connectivity::Eight),
                                ),
                            )
                            .unwrap(),
                        astar_whole
                            .find(
                                &grid,
                                kept.query(
                                    PathQuery::new(from, to, mobility)
                                        .connectivity(Connectivity::Eight),
                                ),
                            )
                            .unwrap(),
                    );
                    check_optimal(&grid, mobility, from, to, true, &all, &j);
                    same_answer(&what, true, to, &j, &a);
                    partial += usize::from(j.arrival != Arrival::Reached);
                    long += usize::from(j.route_len as usize > MAX_STEPS);
                } else {
                    let (j, a) = (
                        windowed
                            .find(&grid, kept.query(PathQuery::new(from, to, mobility)))
                            .unwrap(),
                        astar
                            .find(&grid, PathQuery::new(from, to, mobility))
                            .unwrap(),
                    );
                    check_optimal(&grid, mobility, from, to, false, &win, &j);
                    same_answer(&what, false, to, &j, &a);
                    let (j, a) = (
                        whole
                            .find(&grid, kept.query(PathQuery::new(from, to, mobility)))
                            .unwrap(),
                        astar_whole
                            .find(&grid, kept.query(PathQuery::new(from, to, mobility)))
                            .unwrap(),
                    );
                    check_optimal(&grid, mobility, from, to, false, &all, &j);
                    same_answer(&what, false, to, &j, &a);
                    partial += usize::from(j.arrival != Arrival::Reached);
                    long += usize::from(j.route_len as usize > MAX_STEPS);
                }
                checked += 1;
            }
            let changed = edit(&mut rng, &mut grid);
            kept.repair(&grid, &changed);
        }
    }
    println!("checked {checked} queries ({partial} partial, {long} longer than a path)");
    assert!(
        partial > 200,
        "unreachable goals should be common: {partial}"
    );
    assert!(long > 50, "routes past 56 steps should be covered: {long}");
}

#[test]
fn blocked_starts_edges_and_empty_grids() {
    let grid = Grid::from_ascii(
        "\
.....
.###.
.#.#.
.###.
.....",
        |c| Some(if c == '#' { TileKind::K1 } else { TileKind::K0 }),
    )
    .unwrap();
    let mobility = Mobility::FLOOR_ONLY;
    let mut jps = Jps::whole_grid();
    let mut astar = AStar::whole_grid();
    let cases = [
        (Cell::new(2, 2), Cell::new(4, 4)), // enclosed start: the goal is unreachable
        (Cell::new(0, 0), Cell::new(2, 2)), // enclosed goal
        (Cell::new(1, 1), Cell::new(4, 0)), // start on a wall walks off it
        (Cell::new(0, 0), Cell::new(2, 1)), // goal on a wall
        (Cell::new(0, 0), Cell::new(40, -7)), // goal outside the grid
        (Cell::new(3, 3), Cell::new(3, 3)), // start = goal, on a wall
        (Cell::new(4, 4), Cell::new(4, 4)),
    ];
    for (from, to) in cases {
        let what = format!("{from}->{to}");
        let all = reference_dijkstra(&grid, mobility, from, true, |_| true);
        let j = jps
            .find(
                &grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_optimal(&grid, mobility, from, to, true, &all, &j);
        same_answer(
            &what,
            true,
            to,
            &j,
            &astar
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
                )
                .unwrap(),
        );
        let all = reference_dijkstra(&grid, mobility, from, false, |_| true);
        let j = jps.find(&grid, PathQuery::new(from, to, mobility)).unwrap();
        check_optimal(&grid, mobility, from, to, false, &all, &j);
        same_answer(
            &what,
            false,
            to,
            &j,
            &astar
                .find(&grid, PathQuery::new(from, to, mobility))
                .unwrap(),
        );
    }
    for from in [Cell::new(-1, 0), Cell::new(5, 0), Cell::new(0, i32::MAX)] {
        assert_eq!(
            jps.find(
                &grid,
                PathQuery::new(from, Cell::new(0, 0), mobility).connectivity(Connectivity::Eight)
            )
            .unwrap_err(),
            astar
                .find(
                    &grid,
                    PathQuery::new(from, Cell::new(0, 0), mobility)
                        .connectivity(Connectivity::Eight)
                )
                .unwrap_err()
        );
        assert!(
            Jps::new()
                .find(&grid, PathQuery::new(from, from, mobility))
                .is_err()
        );
    }
    let empty = Grid::new(0, 0).unwrap();
    assert!(
        jps.find(
            &empty,
            PathQuery::new(Cell::new(0, 0), Cell::new(0, 0), mobility)
        )
        .is_err()
    );
    // Every kind blocked: nowhere to go, no panic.
    let r = jps
        .find(
            &grid,
            PathQuery::new(Cell::new(0, 0), Cell::new(4, 4), Mobility::ALL_BLOCKED)
                .connectivity(Connectivity::Eight),
        )
        .unwrap();
    assert!((r.arrival != Arrival::Reached) && r.path.is_empty() && r.end == Cell::new(0, 0));
}

#[test]
fn mobilities_with_several_costs_are_answered_by_astar() {
    let mut rng = rng(3);
    let grid = random_grid(&mut rng, 80, 80, 0.2);
    let mobility = Mobility::new([1, 3, 9, 0]);
    assert!(!Jps::applies_to(mobility));
    assert!(Jps::applies_to(Mobility::FLOOR_ONLY) && Jps::applies_to(Mobility::new([4, 0, 4, 0])));
    let (mut jps, mut astar) = (Jps::whole_grid(), AStar::whole_grid());
    for _ in 0..50 {
        let (from, to) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
        assert_eq!(
            jps.find(
                &grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)
            )
            .unwrap(),
            astar
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)
                )
                .unwrap()
        );
    }
}

#[test]
fn expansion_limit_gives_valid_partial_paths() {
    let mut rng = rng(77);
    let grid = random_grid(&mut rng, 150, 150, 0.25);
    let mobility = Mobility::new([1, 1, 1, 0]);
    let mut limited = Jps::whole_grid().with_max_expansions(20);
    let mut cut = 0;
    for _ in 0..300 {
        let (from, to) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
        let r = limited
            .find(&grid, PathQuery::new(from, to, mobility))
            .unwrap();
        assert!(r.expanded <= 40, "two runs of at most 20: {}", r.expanded);
        check_result(&grid, mobility, from, to, &r);
        let r8 = limited
            .find(
                &grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        assert!(r8.expanded <= 40);
        check_result(&grid, mobility, from, to, &r8);
        cut += usize::from(r8.arrival != Arrival::Reached);
    }
    assert!(
        cut > 100,
        "a 20-jump-point limit should cut most long searches ({cut})"
    );
}

/// Checks every `stride`-th scenario of `map` with whole-grid 8-connected jump point
/// search, reading the grid's planes, its kept bit rows and its jump distances;
/// returns how many were checked.
fn check_map(map: &str, stride: usize) -> usize {
    let grid = load_movingai(map);
    let scenarios = load_scenarios(map);
    let mobility = Mobility::FLOOR_ONLY;
    let mut jps = Jps::for_grid(&grid).unwrap();
    let mut checked = 0;
    let kept = [0, 1, 2].map(|pick| KeptRows::pick(pick, &grid, mobility));
    for (s, kept) in scenarios
        .iter()
        .step_by(stride)
        .flat_map(|s| kept.iter().map(move |k| (s, k)))
    {
        let query = PathQuery::new(s.start, s.goal, mobility).connectivity(Connectivity::Eight);
        let r = jps.find(&grid, kept.query(query)).unwrap();
        if s.optimal == 0.0 && s.start != s.goal {
            assert!(
                matches!(r.arrival, Arrival::Closest(_)),
                "{map}: {} -> {} unreachable",
                s.start,
                s.goal
            );
        } else {
            assert!(
                !matches!(r.arrival, Arrival::Closest(_)),
                "{map}: {} -> {} not found",
                s.start,
                s.goal
            );
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
    checked / 3
}

#[test]
fn movingai_maps_sample() {
    for map in MOVING_AI_MAPS {
        let count = load_scenarios(map).len();
        let n = check_map(map, (count / 150).max(1));
        println!("{map}: {n} of {count} scenarios match");
        assert!(n >= 150);
    }
}

#[test]
#[ignore = "all ~17,000 scenarios; run before resolving search changes"]
fn movingai_maps_every_scenario() {
    let mut total = 0;
    for map in MOVING_AI_MAPS {
        let n = check_map(map, 1);
        println!("{map}: {n} scenarios match");
        total += n;
    }
    assert!(total > 17_000, "{total}");
}

#[test]
fn queries_allocate_nothing() {
    let mut rng = rng(5);
    let floor = Mobility::FLOOR_ONLY;
    let mut maps = Vec::new();
    for name in ["no_walls", "pocket_wall", "multi_wall"] {
        maps.push((load_reference(name).0, floor, KeptRows::default()));
    }
    for (grid, mobility) in [
        (
            random_grid(&mut rng, 200, 150, 0.25),
            Mobility::new([1, 1, 1, 0]),
        ),
        (
            random_grid(&mut rng, 200, 200, 0.1),
            Mobility::new([5, 0, 5, 0]),
        ),
    ] {
        maps.push((grid, mobility, KeptRows::default()));
    }
    // Read through its bit rows.
    let den = load_movingai("den312d.map");
    let rows = KeptRows::pick(0, &den, floor);
    maps.push((den, floor, rows));
    // And through its jump distances.
    let lak = load_movingai("lak303d.map");
    let jumps = KeptRows::pick(1, &lak, floor);
    maps.push((lak, floor, jumps));
    let queries = |seed: u64, n: usize| -> Vec<(usize, Cell, Cell)> {
        let mut rng = tilepath_testkit::rng(seed);
        (0..n)
            .map(|i| {
                let m = i % maps.len();
                let g = &maps[m].0;
                // Some goals off the grid: the partial-path runs are measured too.
                let to = if i % 41 == 0 {
                    Cell::new(-4, 2)
                } else {
                    random_cell(&mut rng, g)
                };
                (m, random_cell(&mut rng, g), to)
            })
            .collect()
    };
    let (warm_up, measured) = (queries(1, 3000), queries(2, 2000));
    // The counter counts in this binary (the allocator above is declared).
    assert_eq!(
        allocations_in(|| drop(std::hint::black_box(vec![1u8; 10]))),
        1
    );
    for (name, mut jps) in [("windowed", Jps::new()), ("whole-grid", Jps::whole_grid())] {
        let mut sink = 0.0;
        let mut run = |qs: &[(usize, Cell, Cell)], jps: &mut Jps| {
            for &(m, from, to) in qs {
                let (grid, mobility, kept) = &maps[m];
                let query = kept.query(PathQuery::new(from, to, *mobility));
                sink += jps.find(grid, query).unwrap().cost;
                let query = query.connectivity(Connectivity::Eight);
                sink += jps.find(grid, query).unwrap().cost;
            }
        };
        run(&warm_up, &mut jps);
        let n = allocations_in(|| run(&measured, &mut jps));
        println!("{name} JPS: {n} allocations in 4,000 queries (checksum {sink})");
        assert_eq!(n, 0, "{name} JPS allocated {n} times after warm-up");
    }
}

/// Runs `query` by `Jps::find_in_parts` of `part` jump points until it answers;
/// returns the answer and the calls it took.
fn in_parts(
    jps: &mut Jps,
    grid: &Grid,
    query: PathQuery<'_>,
    part: u32,
) -> Result<(PathResult, u32), tilepath::PathError> {
    let mut calls = 1;
    loop {
        match jps.find_in_parts(grid, query, part)? {
            Some(r) => return Ok((r, calls)),
            None => {
                assert!(jps.is_paused());
                calls += 1;
                assert!(calls < 10_000_000, "a search in parts never ends");
            }
        }
    }
}

/// A search in parts answers as the one search of `find` does, whatever the part:
/// the same route, cost, end and jump points, windowed and whole-grid, 4- and
/// 8-connected, with and without kept rows, jump distances, landmarks, footprints
/// and an expansion limit, goals reached, blocked and off the grid. A search is taken up
/// only by its own query: one asked in between, or `abandon`, starts afresh.
#[test]
fn a_search_in_parts_answers_as_one_search() {
    let (mut parts, mut one) = (Jps::whole_grid(), Jps::whole_grid());
    let (mut parts_window, mut one_window) = (Jps::new(), Jps::new());
    let (mut searches, mut paused, mut calls, mut limited, mut errors) = (0, 0, 0_u64, 0, 0);
    for seed in 0..300 {
        let mut rng = rng(7000 + seed);
        let (w, h) = (rng.random_range(1..=90), rng.random_range(1..=90));
        let walls = [0.0, 0.1, 0.25, 0.4][rng.random_range(0..4usize)];
        let grid = random_grid(&mut rng, w, h, walls);
        let mobility = uniform_mobility(&mut rng);
        let kept = KeptRows::pick(seed % 3, &grid, mobility);
        let eight = rng.random_bool(0.6);
        let connectivity = if eight {
            Connectivity::Eight
        } else {
            Connectivity::Four
        };
        let guide = (seed % 4 == 0)
            .then(|| tilepath::Landmarks::new(&grid, mobility, connectivity, 4).unwrap());
        // A fifth of the grids search for units of 2 or 3 cells a side.
        let clearance = (seed % 5 == 1).then(|| tilepath::Clearance::new(&grid, mobility));
        let size = rng.random_range(2..=3);
        let limit = if rng.random_bool(0.2) {
            limited += 1;
            rng.random_range(1..40)
        } else {
            u32::MAX
        };
        for s in [&mut parts, &mut one, &mut parts_window, &mut one_window] {
            s.set_max_expansions(limit);
        }
        for _ in 0..6 {
            let from = random_cell(&mut rng, &grid);
            let to = if rng.random_bool(0.1) {
                Cell::new(w as i32 + 2, 1)
            } else {
                random_cell(&mut rng, &grid)
            };
            let mut query =
                kept.query(PathQuery::new(from, to, mobility).connectivity(connectivity));
            if let Some(g) = &guide {
                query = query.guided(g);
            }
            if let Some(c) = &clearance {
                query = query.sized(c.footprint(size));
            }
            let part = [1, 2, 3, 8][rng.random_range(0..4usize)];
            let what = format!("seed {seed} {from}->{to} {connectivity:?} part {part}");
            for (p, o) in [(&mut parts, &mut one), (&mut parts_window, &mut one_window)] {
                let expected = o.find(&grid, query);
                let answer = in_parts(p, &grid, query, part);
                assert_eq!(answer.map(|a| a.0), expected, "{what}");
                errors += usize::from(expected.is_err());
                assert!(!p.is_paused(), "{what}: paused after its answer");
                let Ok((_, n)) = answer else { continue };
                searches += 1;
                paused += u32::from(n > 1);
                calls += u64::from(n);
            }
            // Paused, then another query asked: that one is answered afresh, and
            // the first one again starts over, as it does after `abandon`.
            if parts
                .find_in_parts(&grid, query, 1)
                .is_ok_and(|r| r.is_none())
            {
                let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
                let other = kept.query(PathQuery::new(a, b, mobility).connectivity(connectivity));
                let r = in_parts(&mut parts, &grid, other, part).map(|a| a.0);
                assert_eq!(r, one.find(&grid, other), "{what}: the other query");
                let r = in_parts(&mut parts, &grid, query, part).map(|a| a.0);
                assert_eq!(r, one.find(&grid, query), "{what}: again");
                assert!(parts.find_in_parts(&grid, query, 1).unwrap().is_none());
                parts.abandon();
                assert!(!parts.is_paused());
                let r = in_parts(&mut parts, &grid, query, part).map(|a| a.0);
                assert_eq!(r, one.find(&grid, query), "{what}: after abandon");
            }
        }
    }
    println!(
        "{searches} searches in parts, {paused} paused at least once, {calls} calls; \
         {limited} grids under an expansion limit; {errors} queries refused alike"
    );
    // The rest end within one part (direct routes across open ground, short ones).
    assert!(
        paused * 5 > searches * 2,
        "too few searches paused: {paused} of {searches}"
    );
}

/// Pausing and taking a search up allocate nothing once the solver's scratch has
/// grown to the grid.
#[test]
fn a_search_in_parts_allocates_nothing() {
    let lak = load_movingai("lak303d.map");
    let floor = Mobility::FLOOR_ONLY;
    let jumps = KeptRows::pick(1, &lak, floor);
    let guide = tilepath::Landmarks::new(&lak, floor, Connectivity::Eight, 8).unwrap();
    let mut jps = Jps::whole_grid();
    let mut rng = rng(11);
    let queries: Vec<(Cell, Cell)> = (0..300)
        .map(|_| (random_cell(&mut rng, &lak), random_cell(&mut rng, &lak)))
        .collect();
    let run = |jps: &mut Jps| {
        let mut calls = 0;
        for &(from, to) in &queries {
            let q = jumps
                .query(PathQuery::new(from, to, floor).connectivity(Connectivity::Eight))
                .guided(&guide);
            calls += in_parts(jps, &lak, q, 4).expect("a search").1;
        }
        calls
    };
    run(&mut jps);
    let mut calls = 0;
    let n = allocations_in(|| calls = run(&mut jps));
    println!("{} searches in {calls} calls", queries.len());
    assert!(calls > 2 * queries.len() as u32, "{calls}");
    assert_eq!(n, 0, "allocations while searching in parts");
}
