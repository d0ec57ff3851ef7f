//! Units bigger than one cell: on seeded random grids with random mobilities and
//! costs, sizes 1-4, 4- and 8-connected, the sized solvers agree with a plain
//! reference Dijkstra that checks every footprint cell by cell (jump point search
//! included, where the footprint fits at the start of a one-cost mobility).

use rand::RngExt;
use tilepath::{
    AStar, Arrival, Cell, Clearance, Connectivity, Greedy, Grid, Jps, MAX_UNIT_SIZE, Mobility,
    PathError, PathQuery, Solver, TileKind,
};
use tilepath_testkit::*;

const GRIDS: u64 = 1500;

#[test]
fn sized_searches_match_a_footprint_checking_reference() {
    let mut astar = AStar::new();
    let mut whole = AStar::whole_grid();
    let mut jps = Jps::whole_grid();
    let mut jps_window = Jps::new();
    let mut greedy = Greedy::new();
    let (mut checked, mut reached, mut partial, mut jumped) = (0, 0, 0, 0);
    for seed in 0..GRIDS {
        let mut rng = rng(seed);
        let big = rng.random_bool(0.1);
        let side = |rng: &mut rand::rngs::StdRng| {
            if big {
                rng.random_range(90..=140)
            } else {
                rng.random_range(4..=50)
            }
        };
        let (w, h) = (side(&mut rng), side(&mut rng));
        let walls = rng.random_range(0.0..0.2);
        let grid = random_grid(&mut rng, w, h, walls);
        let max_cost = [1, 1, 9, 40, 255][rng.random_range(0..5usize)];
        let mobility = random_mobility(&mut rng, max_cost);
        let mut clear = Clearance::new(&grid, mobility);
        // Half the clearances keep their sizes' bit rows: jump point search reads
        // those, the others' values.
        if seed % 2 == 0 {
            for size in 2..=4 {
                clear.keep_rows(size).unwrap();
            }
        }
        for size in 1..=4u8.min(w.min(h) as u8) {
            let foot = clear.footprint(size);
            let from = random_cell(&mut rng, &grid);
            let to = random_cell(&mut rng, &grid);
            for eight in [false, true] {
                // Jump point search for the footprint where it applies, else A*.
                let connectivity = if eight {
                    Connectivity::Eight
                } else {
                    Connectivity::Four
                };
                let query = PathQuery::new(from, to, mobility).sized(foot);
                jumped +=
                    usize::from(size > 1 && Jps::jumps(&grid, &query.connectivity(connectivity)));
                let win =
                    reference_dijkstra_sized(&grid, mobility, size, from, eight, in_window(from));
                let all = reference_dijkstra_sized(&grid, mobility, size, from, eight, |_| true);
                let q = (from, to);
                if eight {
                    let r = astar
                        .find(
                            &grid,
                            PathQuery::new(from, to, mobility)
                                .sized(foot)
                                .connectivity(Connectivity::Eight),
                        )
                        .unwrap();
                    check_optimal_sized(&grid, mobility, size, q, true, &win, &r);
                    let r = whole
                        .find(
                            &grid,
                            PathQuery::new(from, to, mobility)
                                .sized(foot)
                                .connectivity(Connectivity::Eight),
                        )
                        .unwrap();
                    check_optimal_sized(&grid, mobility, size, q, true, &all, &r);
                    let j = jps
                        .find(
                            &grid,
                            PathQuery::new(from, to, mobility)
                                .sized(foot)
                                .connectivity(Connectivity::Eight),
                        )
                        .unwrap();
                    check_optimal_sized(&grid, mobility, size, q, true, &all, &j);
                    let j = jps_window
                        .find(&grid, query.connectivity(Connectivity::Eight))
                        .unwrap();
                    check_optimal_sized(&grid, mobility, size, q, true, &win, &j);
                    reached += usize::from(!matches!(r.arrival, Arrival::Closest(_)));
                    partial += usize::from(matches!(r.arrival, Arrival::Closest(_)));
                } else {
                    let r = astar
                        .find(&grid, PathQuery::new(from, to, mobility).sized(foot))
                        .unwrap();
                    check_optimal_sized(&grid, mobility, size, q, false, &win, &r);
                    let r = whole
                        .find(&grid, PathQuery::new(from, to, mobility).sized(foot))
                        .unwrap();
                    check_optimal_sized(&grid, mobility, size, q, false, &all, &r);
                    let j = jps
                        .find(&grid, PathQuery::new(from, to, mobility).sized(foot))
                        .unwrap();
                    check_optimal_sized(&grid, mobility, size, q, false, &all, &j);
                    let j = jps_window.find(&grid, query).unwrap();
                    check_optimal_sized(&grid, mobility, size, q, false, &win, &j);
                    // Greedy: a valid path for the footprint; it reaches the goal iff
                    // the goal can be reached within its window.
                    let g = greedy
                        .find(&grid, PathQuery::new(from, to, mobility).sized(foot))
                        .unwrap();
                    check_result_sized(&grid, mobility, size, from, to, &g);
                    let reachable = grid.index_of(to).and_then(|i| win[i]).is_some();
                    assert_eq!(
                        !matches!(g.arrival, Arrival::Closest(_)),
                        reachable,
                        "greedy {from}->{to} size {size}"
                    );
                }
                checked += 1;
            }
        }
    }
    println!(
        "checked {checked} sized queries: {reached} reached, {partial} partial; \
         {jumped} of size 2-4 by jump point search"
    );
    assert!(
        reached > 500 && partial > 100 && jumped > 500,
        "{reached} reached, {partial} partial, {jumped} jumped"
    );
}

#[test]
fn a_big_unit_takes_only_the_corridors_it_fits() {
    // Two ways from the left room to the right one: a 1-wide gap near the start and a
    // 3-wide corridor far round.
    let grid = Grid::from_ascii(
        "\
..........
..........
..........
####.#####
..........
..........
..........",
        |c| Some(if c == '#' { TileKind::K1 } else { TileKind::K0 }),
    )
    .unwrap();
    let clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
    let mut astar = AStar::new();
    let (from, to) = (Cell::new(4, 0), Cell::new(4, 5));
    let one = astar.find(
        &grid,
        PathQuery::new(from, to, Mobility::FLOOR_ONLY).sized(clear.footprint(1)),
    );
    assert_eq!(
        one.unwrap().path.len(),
        5,
        "a 1x1 unit goes through the gap"
    );
    // A 2x2 unit cannot pass the wall at all: a partial path to the closest cell its
    // footprint can occupy, right below the gap.
    let two = astar
        .find(
            &grid,
            PathQuery::new(from, to, Mobility::FLOOR_ONLY).sized(clear.footprint(2)),
        )
        .unwrap();
    assert!((two.arrival != Arrival::Reached) && matches!(two.arrival, Arrival::Closest(_)));
    assert_eq!(two.end, Cell::new(4, 1));
}

#[test]
fn bad_sizes_are_errors() {
    let grid = Grid::new(6, 4).unwrap();
    let clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
    let other = Clearance::new(&Grid::new(5, 4).unwrap(), Mobility::FLOOR_ONLY);
    let boats = Clearance::new(&grid, Mobility::new([0, 1, 0, 0]));
    let (from, to) = (Cell::new(0, 0), Cell::new(3, 3));
    let m = Mobility::FLOOR_ONLY;
    let mut astar = AStar::whole_grid();
    let mut greedy = Greedy::new();
    let mut jps = Jps::new();
    let too_large = PathError::UnitTooLarge {
        size: 5,
        width: 6,
        height: 4,
    };
    for (foot, want) in [
        (clear.footprint(0), PathError::ZeroUnitSize),
        (clear.footprint(5), too_large),
        (
            clear.footprint(MAX_UNIT_SIZE + 1),
            PathError::UnitTooLarge {
                size: MAX_UNIT_SIZE + 1,
                width: 6,
                height: 4,
            },
        ),
        (other.footprint(2), PathError::ClearanceMismatch),
        (boats.footprint(2), PathError::ClearanceMismatch),
    ] {
        assert_eq!(
            astar
                .find(&grid, PathQuery::new(from, to, m).sized(foot))
                .unwrap_err(),
            want
        );
        assert_eq!(
            astar
                .find(
                    &grid,
                    PathQuery::new(from, to, m)
                        .sized(foot)
                        .connectivity(Connectivity::Eight)
                )
                .unwrap_err(),
            want
        );
        assert_eq!(
            greedy
                .find(&grid, PathQuery::new(from, to, m).sized(foot))
                .unwrap_err(),
            want
        );
        assert_eq!(
            jps.find(
                &grid,
                PathQuery::new(from, to, m)
                    .sized(foot)
                    .connectivity(Connectivity::Eight)
            )
            .unwrap_err(),
            want
        );
        assert!(!want.to_string().is_empty());
    }
    // A start outside the grid is still the start's error.
    let err = astar.find(
        &grid,
        PathQuery::new(Cell::new(9, 0), to, m).sized(clear.footprint(2)),
    );
    assert!(matches!(err, Err(PathError::StartOutOfBounds { .. })));
    // A 4x4 unit fits this 6x4 grid only along its bottom row.
    let r = astar
        .find(
            &grid,
            PathQuery::new(from, Cell::new(2, 3), m).sized(clear.footprint(4)),
        )
        .unwrap();
    assert!((r.arrival != Arrival::Reached));
    assert_eq!(r.end, Cell::new(2, 0));
}

#[test]
fn a_unit_walled_over_walks_out() {
    let mut grid = Grid::new(12, 12).unwrap();
    grid.set(Cell::new(5, 5), TileKind::K1).unwrap();
    let clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
    // A 3x3 unit anchored at (4, 4) covers the wall at (5, 5).
    assert!(!clear.fits(Cell::new(4, 4), 3));
    for eight in [false, true] {
        let foot = clear.footprint(3);
        let (from, to) = (Cell::new(4, 4), Cell::new(8, 8));
        let end = if eight {
            AStar::new()
                .find(
                    &grid,
                    PathQuery::new(from, to, Mobility::FLOOR_ONLY)
                        .sized(foot)
                        .connectivity(Connectivity::Eight),
                )
                .unwrap()
                .end
        } else {
            AStar::new()
                .find(
                    &grid,
                    PathQuery::new(from, to, Mobility::FLOOR_ONLY).sized(foot),
                )
                .unwrap()
                .end
        };
        assert_eq!(end, to);
    }
}

#[test]
fn grid_steps_follow_the_footprint_rule() {
    let mut rng = rng(77);
    let grid = random_grid(&mut rng, 30, 20, 0.15);
    let m = Mobility::new([1, 4, 0, 2]);
    let clear = Clearance::new(&grid, m);
    for i in 0..grid.len() {
        let from = grid.cell_of(i).unwrap();
        for dir in tilepath::Direction8::ALL {
            // A footprint fits where the clearance says; size 1 is the one-cell rule.
            for size in 0..=4u8 {
                assert_eq!(
                    grid.fits(from, m, size),
                    clear.fits(from, size),
                    "{from} {size}"
                );
            }
            assert_eq!(
                grid.can_step_sized(from, dir, m, 1),
                grid.can_step(from, dir, m)
            );
            assert!(!grid.can_step_sized(from, dir, m, 0));
            // From a footprint that fits, a step is legal iff the clearance says every
            // footprint it needs fits.
            for size in 2..=3u8 {
                if !clear.fits(from, size) {
                    continue;
                }
                let (dx, dy) = dir.offset();
                let to = Cell::new(from.x + dx, from.y + dy);
                let want = clear.fits(to, size)
                    && (!dir.is_diagonal()
                        || (clear.fits(Cell::new(to.x, from.y), size)
                            && clear.fits(Cell::new(from.x, to.y), size)));
                assert_eq!(
                    grid.can_step_sized(from, dir, m, size),
                    want,
                    "{from} {dir:?} {size}"
                );
            }
        }
    }
    // Every step of a walled-over unit's way out is one the grid allows.
    let mut grid = Grid::new(12, 12).unwrap();
    grid.set(Cell::new(5, 5), TileKind::K1).unwrap();
    let clear = Clearance::new(&grid, Mobility::FLOOR_ONLY);
    let from = Cell::new(4, 4);
    let r = AStar::new()
        .find(
            &grid,
            PathQuery::new(from, Cell::new(8, 8), Mobility::FLOOR_ONLY)
                .sized(clear.footprint(3))
                .connectivity(Connectivity::Eight),
        )
        .unwrap();
    let mut at = from;
    for step in r.path {
        assert!(
            grid.can_step_sized(at, step, Mobility::FLOOR_ONLY, 3),
            "{at} {step:?}"
        );
        at = at.step(step);
    }
    assert_eq!(at, Cell::new(8, 8));
}
