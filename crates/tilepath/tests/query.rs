//! `PathQuery`: every combination of options on every solver and connectivity gives
//! the answer its parts promise, on seeded random grids: components change nothing
//! for reachable goals and bound the search for the others; a footprint of size 1 is
//! the one-cell search; landmarks keep jump point search's cost (a footprint's too) and leave A* alone; a
//! footprint that fits at the start jumps, with A*'s answer;
//! `find_with` is the method its connectivity names; bad sizes are errors.

use rand::RngExt;
use tilepath::{
    AStar, Arrival, Cell, Clearance, Components, Connectivity, Greedy, Grid, HexLayout, Jps,
    Landmarks, Mobility, PathError, PathQuery, PathResult, Solver, UNREACHABLE_EXPANSIONS,
};
use tilepath_testkit::*;

const GRIDS: u64 = 300;

/// What a query's components promise: the plain answer for a reachable goal, at most
/// the cap's expansions for the others (and a partial answer, unless the start is
/// blocked: a unit may walk off a blocked cell, which has no component).
fn check_capped(
    (reachable, open_start): (bool, bool),
    capped: &PathResult,
    plain: &PathResult,
    what: &str,
) {
    if reachable {
        assert_eq!(
            capped, plain,
            "{what}: components changed a reachable answer"
        );
    } else {
        assert!(
            (capped.arrival != Arrival::Reached) || !open_start,
            "{what}: an unreachable goal reached"
        );
        assert!(
            capped.expanded <= UNREACHABLE_EXPANSIONS,
            "{what}: {} expansions past the cap",
            capped.expanded
        );
    }
}

/// Equally good routes towards `goal`: the same cost, both reaching it or neither, and
/// then ends equally near it by the search's estimate (octile if `eight`, else
/// Manhattan), the partial-route rule (equally near, equally cheap ends may differ, as
/// may the steps of equally cheap routes).
fn same_route(a: &PathResult, b: &PathResult, (goal, eight): (Cell, bool), what: &str) {
    let near = |c: Cell| {
        if eight {
            c.octile(goal)
        } else {
            c.manhattan(goal) as f64
        }
    };
    let (ra, rb) = (a, b);
    assert_eq!(
        reaches_goal(ra),
        reaches_goal(rb),
        "{what}: {ra:?} vs {rb:?}"
    );
    assert!((ra.cost - rb.cost).abs() < 1e-9, "{what}: {ra:?} vs {rb:?}");
    assert!(
        (near(route_end(ra, goal)) - near(route_end(rb, goal))).abs() < 1e-9,
        "{what}: {ra:?} vs {rb:?}"
    );
}

/// A grid, a mobility (one-cost half the time, so that jump point search applies) and
/// what queries may use on it.
struct Case {
    grid: Grid,
    mobility: Mobility,
    parts: Components,
    clear: Clearance,
    big_parts: Components,
}

fn case(seed: u64) -> Case {
    let mut rng = rng(seed);
    let (w, h) = (rng.random_range(8..40), rng.random_range(8..40));
    let walls = rng.random_range(0.1..0.45);
    let grid = random_grid(&mut rng, w, h, walls);
    let mobility = if rng.random_bool(0.5) {
        Mobility::new([1, 1, 1, 0])
    } else {
        random_mobility(&mut rng, 4)
    };
    let parts = Components::new(&grid, mobility);
    let clear = Clearance::new(&grid, mobility);
    let big_parts = Components::for_footprint(clear.footprint(2));
    Case {
        grid,
        mobility,
        parts,
        clear,
        big_parts,
    }
}

#[test]
fn components_and_footprints_answer_as_promised_on_square_maps() {
    let (mut astar, mut jps) = (AStar::whole_grid(), Jps::whole_grid());
    let mut jumped = 0;
    for seed in 0..GRIDS {
        let c = case(seed);
        let mut rng = rng(seed ^ 0x9e37);
        let guide8 = Landmarks::new(&c.grid, c.mobility, Connectivity::Eight, 3).unwrap();
        let guide4 = Landmarks::new(&c.grid, c.mobility, Connectivity::Four, 3).unwrap();
        for _ in 0..20 {
            let (from, to) = (
                random_cell(&mut rng, &c.grid),
                random_cell(&mut rng, &c.grid),
            );
            let q = PathQuery::new(from, to, c.mobility);
            let reachable = c.parts.is_reachable(from, to);
            let big_reachable = c.big_parts.is_reachable(from, to);
            let open = c.grid.is_passable(from, c.mobility);
            let big_open = c.clear.fits(from, 2);
            let what = format!("seed {seed}, {from} -> {to}");

            // 4-connected, A* and jump point search.
            let plain = astar
                .find(&c.grid, PathQuery::new(from, to, c.mobility))
                .unwrap();
            assert_eq!(astar.find(&c.grid, q).unwrap(), plain, "{what}");
            let within = astar.find(&c.grid, q.within(&c.parts)).unwrap();
            check_capped((reachable, open), &within, &plain, &what);
            let one = astar.find(&c.grid, q.sized(c.clear.footprint(1))).unwrap();
            assert_eq!(one, plain, "{what}: size 1 is the one-cell search");
            // A* takes no landmarks.
            assert_eq!(
                astar.find(&c.grid, q.guided(&guide4)).unwrap(),
                plain,
                "{what}"
            );
            let jplain = jps
                .find(&c.grid, PathQuery::new(from, to, c.mobility))
                .unwrap();
            let guided = jps.find(&c.grid, q.guided(&guide4)).unwrap();
            assert_eq!(route_end(&guided, to), route_end(&jplain, to), "{what}");
            assert!((guided.cost - jplain.cost).abs() < 1e-9, "{what}");
            let both = jps.find(&c.grid, q.within(&c.parts).guided(&guide4));
            check_capped((reachable, open), &both.unwrap(), &guided, &what);

            // 8-connected.
            let plain8 = astar
                .find(
                    &c.grid,
                    PathQuery::new(from, to, c.mobility).connectivity(Connectivity::Eight),
                )
                .unwrap();
            let within8 = astar
                .find(
                    &c.grid,
                    q.within(&c.parts).connectivity(Connectivity::Eight),
                )
                .unwrap();
            check_capped((reachable, open), &within8, &plain8, &what);
            let jplain8 = jps
                .find(
                    &c.grid,
                    PathQuery::new(from, to, c.mobility).connectivity(Connectivity::Eight),
                )
                .unwrap();
            assert!((jplain8.cost - plain8.cost).abs() < 1e-9, "{what}");
            let guided8 = jps
                .find(&c.grid, q.guided(&guide8).connectivity(Connectivity::Eight))
                .unwrap();
            assert!((guided8.cost - jplain8.cost).abs() < 1e-9, "{what}");
            let within8 = jps.find(
                &c.grid,
                q.within(&c.parts)
                    .guided(&guide8)
                    .connectivity(Connectivity::Eight),
            );
            check_capped((reachable, open), &within8.unwrap(), &guided8, &what);

            // A 2x2 unit: its own components; the square ones (of size 1) are not used.
            let big = q.sized(c.clear.footprint(2));
            for eight in [false, true] {
                let run = |s: &mut Jps, q: PathQuery<'_>| {
                    let connectivity = if eight {
                        Connectivity::Eight
                    } else {
                        Connectivity::Four
                    };
                    s.find(&c.grid, q.connectivity(connectivity)).unwrap()
                };
                let alone = run(&mut jps, big);
                let astar_alone = if eight {
                    astar
                        .find(&c.grid, big.connectivity(Connectivity::Eight))
                        .unwrap()
                } else {
                    astar.find(&c.grid, big).unwrap()
                };
                let connectivity = if eight {
                    Connectivity::Eight
                } else {
                    Connectivity::Four
                };
                if Jps::jumps(&c.grid, &big.connectivity(connectivity)) {
                    // Jump point search on the anchors the footprint fits: A*'s answer.
                    jumped += 1;
                    same_route(&alone, &astar_alone, (to, eight), &what);
                } else {
                    assert_eq!(alone, astar_alone, "{what}: jps hands footprints to A*");
                }
                let capped = run(&mut jps, big.within(&c.big_parts));
                check_capped((big_reachable, big_open), &capped, &alone, &what);
                assert_eq!(run(&mut jps, big.within(&c.parts)), alone, "{what}");
                // Landmarks guide footprints too (a one-cell distance bounds a big
                // unit's): the same route's cost and end.
                same_route(
                    &run(&mut jps, big.guided(&guide8)),
                    &alone,
                    (to, eight),
                    &what,
                );
            }
        }
    }
    assert!(jumped > 500, "only {jumped} footprint queries jumped");
}
#[test]
fn a_query_is_four_connected_unless_it_says_otherwise() {
    let (mut astar, mut jps) = (AStar::whole_grid(), Jps::whole_grid());
    for seed in 0..GRIDS / 3 {
        let c = case(seed);
        let mut rng = rng(seed ^ 0x51);
        for _ in 0..10 {
            let (from, to) = (
                random_cell(&mut rng, &c.grid),
                random_cell(&mut rng, &c.grid),
            );
            let q = PathQuery::new(from, to, c.mobility).within(&c.parts);
            let four = astar.find(&c.grid, q).unwrap();
            assert_eq!(
                astar
                    .find(&c.grid, q.connectivity(Connectivity::Four))
                    .unwrap(),
                four
            );
            let eight = jps
                .find(&c.grid, q.connectivity(Connectivity::Eight))
                .unwrap();
            assert_eq!(
                jps.find(&c.grid, q.connectivity(Connectivity::Eight))
                    .unwrap(),
                eight
            );
            let layout = HexLayout::ALL[rng.random_range(0..HexLayout::ALL.len())];
            let hex = astar
                .find(&c.grid, q.connectivity(Connectivity::Hex(layout)))
                .unwrap();
            let with = Connectivity::Hex(layout);
            assert_eq!(astar.find(&c.grid, q.connectivity(with)).unwrap(), hex);
            assert_eq!(jps.find(&c.grid, q.connectivity(with)).unwrap(), hex);
        }
    }
}

#[test]
fn hex_queries_take_hex_components_only() {
    let mut astar = AStar::whole_grid();
    let mut greedy = Greedy::new();
    for seed in 0..GRIDS / 3 {
        let c = case(seed);
        let mut rng = rng(seed ^ 0xe4);
        let layout = HexLayout::ALL[rng.random_range(0..HexLayout::ALL.len())];
        let hex_parts =
            Components::with_connectivity(&c.grid, c.mobility, Connectivity::Hex(layout));
        for _ in 0..10 {
            let (from, to) = (
                random_cell(&mut rng, &c.grid),
                random_cell(&mut rng, &c.grid),
            );
            let what = format!("seed {seed}, {layout:?}, {from} -> {to}");
            let open = c.grid.is_passable(from, c.mobility);
            let q = PathQuery::new(from, to, c.mobility);
            let plain = astar
                .find(
                    &c.grid,
                    PathQuery::new(from, to, c.mobility).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            let capped = astar
                .find(
                    &c.grid,
                    q.within(&hex_parts).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            check_capped(
                (hex_parts.is_reachable(from, to), open),
                &capped,
                &plain,
                &what,
            );
            // Square components join other cells: not used.
            assert_eq!(
                astar
                    .find(
                        &c.grid,
                        q.within(&c.parts).connectivity(Connectivity::Hex(layout))
                    )
                    .unwrap(),
                plain
            );
            let gplain = greedy
                .find(
                    &c.grid,
                    PathQuery::new(from, to, c.mobility).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            let g = greedy
                .find(
                    &c.grid,
                    q.within(&hex_parts).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            check_capped((hex_parts.is_reachable(from, to), open), &g, &gplain, &what);
        }
    }
}

#[test]
fn greedy_takes_components_and_footprints() {
    let mut greedy = Greedy::new();
    for seed in 0..GRIDS {
        let c = case(seed);
        let mut rng = rng(seed ^ 0x77);
        for _ in 0..20 {
            let (from, to) = (
                random_cell(&mut rng, &c.grid),
                random_cell(&mut rng, &c.grid),
            );
            let what = format!("seed {seed}, {from} -> {to}");
            let (open, big_open) = (c.grid.is_passable(from, c.mobility), c.clear.fits(from, 2));
            let q = PathQuery::new(from, to, c.mobility);
            let plain = greedy
                .find(&c.grid, PathQuery::new(from, to, c.mobility))
                .unwrap();
            assert_eq!(greedy.find(&c.grid, q).unwrap(), plain, "{what}");
            let capped = greedy.find(&c.grid, q.within(&c.parts)).unwrap();
            check_capped(
                (c.parts.is_reachable(from, to), open),
                &capped,
                &plain,
                &what,
            );
            let one = greedy.find(&c.grid, q.sized(c.clear.footprint(1))).unwrap();
            assert_eq!(one, plain, "{what}");
            let big = q.sized(c.clear.footprint(2));
            let alone = greedy.find(&c.grid, big).unwrap();
            let capped = greedy.find(&c.grid, big.within(&c.big_parts)).unwrap();
            check_capped(
                (c.big_parts.is_reachable(from, to), big_open),
                &capped,
                &alone,
                &what,
            );
            // From a start where it fits, every step of the 2x2 unit's path keeps its
            // footprint on open cells.
            let mut at = from;
            for d in alone
                .path
                .iter()
                .take(if big_open { usize::MAX } else { 0 })
            {
                assert!(c.clear.fits(at.step(d), 2), "{what}: footprint on a wall");
                at = at.step(d);
            }
        }
    }
}

#[test]
fn bad_sizes_are_errors_on_every_solver() {
    let c = case(1);
    let (from, to) = (Cell::new(0, 0), Cell::new(5, 5));
    let q = |size| PathQuery::new(from, to, c.mobility).sized(c.clear.footprint(size));
    let (mut astar, mut jps, mut greedy) = (AStar::whole_grid(), Jps::whole_grid(), Greedy::new());
    let layout = HexLayout::RowOdd;
    assert_eq!(astar.find(&c.grid, q(0)), Err(PathError::ZeroUnitSize));
    assert_eq!(
        jps.find(&c.grid, q(0).connectivity(Connectivity::Eight)),
        Err(PathError::ZeroUnitSize)
    );
    assert_eq!(greedy.find(&c.grid, q(0)), Err(PathError::ZeroUnitSize));
    for size in [0, 2, 3] {
        let expected = if size == 0 {
            PathError::ZeroUnitSize
        } else {
            PathError::HexUnitSize { size }
        };
        assert_eq!(
            astar.find(&c.grid, q(size).connectivity(Connectivity::Hex(layout))),
            Err(expected)
        );
        assert_eq!(
            jps.find(&c.grid, q(size).connectivity(Connectivity::Hex(layout))),
            Err(expected)
        );
        assert_eq!(
            greedy.find(&c.grid, q(size).connectivity(Connectivity::Hex(layout))),
            Err(expected)
        );
    }
    assert!(matches!(
        astar.find(&c.grid, q(200)),
        Err(PathError::UnitTooLarge { size: 200, .. })
    ));
    // The size-1 footprint is the one-cell unit on hex maps too.
    let plain = astar.find(
        &c.grid,
        PathQuery::new(from, to, c.mobility).connectivity(Connectivity::Hex(layout)),
    );
    assert_eq!(
        astar.find(&c.grid, q(1).connectivity(Connectivity::Hex(layout))),
        plain
    );
}

#[test]
fn unreachable_goals_cost_at_most_the_cap_on_every_solver() {
    // An open 200x200 map; the goal is sealed in a ring of walls.
    let mut grid = Grid::new(200, 200).unwrap();
    let goal = Cell::new(150, 100);
    for d in tilepath::Direction8::ALL {
        grid.set(goal.step(d), tilepath::TileKind::K3).unwrap();
    }
    let mobility = Mobility::FLOOR_ONLY;
    let parts = Components::new(&grid, mobility);
    let hex_parts =
        |layout| Components::with_connectivity(&grid, mobility, Connectivity::Hex(layout));
    let clear = Clearance::new(&grid, mobility);
    let big_parts = Components::for_footprint(clear.footprint(2));
    let from = Cell::new(110, 100);
    let q = PathQuery::new(from, goal, mobility);
    let big = q.sized(clear.footprint(2));
    let (mut astar, mut jps, mut greedy) = (AStar::whole_grid(), Jps::whole_grid(), Greedy::new());
    let check = |what: &str, uncapped: u32, capped: u32| {
        assert!(
            capped <= UNREACHABLE_EXPANSIONS,
            "{what}: {capped} expansions"
        );
        assert!(
            uncapped > capped,
            "{what}: {uncapped} expansions uncapped, {capped} capped"
        );
    };
    for connectivity in [Connectivity::Four, Connectivity::Eight] {
        let with = |s: &mut AStar, q: PathQuery<'_>| {
            s.find(&grid, q.connectivity(connectivity))
                .unwrap()
                .expanded
        };
        check(
            "A*",
            with(&mut astar, q),
            with(&mut astar, q.within(&parts)),
        );
        let big_alone = with(&mut astar, big);
        check(
            "2x2 A*",
            big_alone,
            with(&mut astar, big.within(&big_parts)),
        );
        let with = |s: &mut Jps, q: PathQuery<'_>| {
            s.find(&grid, q.connectivity(connectivity))
                .unwrap()
                .expanded
        };
        // Jump points are few on an open map: the cap holds, the search is short anyway.
        let capped = with(&mut jps, q.within(&parts));
        assert!(capped <= UNREACHABLE_EXPANSIONS, "jps: {capped}");
        // A 2x2 unit jumps too: as few jump points.
        let capped = with(&mut jps, big.within(&big_parts));
        assert!(capped <= UNREACHABLE_EXPANSIONS, "2x2 jps: {capped}");
    }
    let g = greedy.find(&grid, q).unwrap().expanded;
    check(
        "greedy",
        g,
        greedy.find(&grid, q.within(&parts)).unwrap().expanded,
    );
    for layout in HexLayout::ALL {
        let parts = hex_parts(layout);
        let a = astar
            .find(&grid, q.connectivity(Connectivity::Hex(layout)))
            .unwrap()
            .expanded;
        check(
            "hex A*",
            a,
            astar
                .find(
                    &grid,
                    q.within(&parts).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap()
                .expanded,
        );
        let g = greedy
            .find(&grid, q.connectivity(Connectivity::Hex(layout)))
            .unwrap()
            .expanded;
        let capped = greedy
            .find(
                &grid,
                q.within(&parts).connectivity(Connectivity::Hex(layout)),
            )
            .unwrap()
            .expanded;
        check("hex greedy", g, capped);
    }
}

#[test]
fn components_of_another_lattice_are_not_used() {
    // A wall along the anti-diagonal, corner to corner: no square step crosses it (a
    // diagonal step would cut its corners), but a hex map's diagonal steps may. The
    // start sits in a walled pocket that opens away from the goal, so that a search
    // capped by the square components would stop before it gets out.
    let grid = Grid::from_fn(300, 300, |c| {
        let pocket =
            (c.x == 150 && (10..=150).contains(&c.y)) || (c.y == 150 && (10..=150).contains(&c.x));
        if c.x + c.y == 299 || pocket {
            tilepath::TileKind::K3
        } else {
            tilepath::TileKind::K0
        }
    })
    .unwrap();
    let mobility = Mobility::FLOOR_ONLY;
    let (from, to) = (Cell::new(100, 100), Cell::new(250, 250));
    let square = Components::new(&grid, mobility);
    assert!(!square.is_reachable(from, to));
    let q = PathQuery::new(from, to, mobility);
    let (mut astar, mut jps) = (AStar::whole_grid(), Jps::whole_grid());
    let mut crossed = 0;
    for layout in HexLayout::ALL {
        let hex = Components::with_connectivity(&grid, mobility, Connectivity::Hex(layout));
        if !hex.is_reachable(from, to) {
            continue;
        }
        crossed += 1;
        let plain = astar
            .find(&grid, q.connectivity(Connectivity::Hex(layout)))
            .unwrap();
        assert!(
            !matches!(plain.arrival, Arrival::Closest(_))
                && plain.expanded > UNREACHABLE_EXPANSIONS
        );
        // The square components would cap the search short of the goal.
        let r = astar
            .find(
                &grid,
                q.within(&square).connectivity(Connectivity::Hex(layout)),
            )
            .unwrap();
        assert_eq!(r, plain, "{layout:?}: square components used");
        // Hex components on a square query: not used, the plain answer.
        let r = jps
            .find(&grid, q.within(&hex).connectivity(Connectivity::Eight))
            .unwrap();
        assert_eq!(
            r,
            jps.find(
                &grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)
            )
            .unwrap(),
            "{layout:?}"
        );
    }
    assert!(
        crossed >= 3,
        "only {crossed} hex layouts crossed the diagonal"
    );
}
