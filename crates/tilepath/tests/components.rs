//! Connected components: after every edit, `Components` agrees with a plain flood fill
//! (and with a fresh build), on seeded random grids and mobilities.

use rand::RngExt;
use std::collections::VecDeque;
use tilepath::{
    Arrival, Cell, Components, Connectivity, Grid, GridMismatch, Mobility, PathQuery, Solver,
    TileKind,
};
use tilepath_testkit::*;

/// Reference: a component number per open cell (8-connected without corner cutting,
/// by legal steps), `None` for blocked cells.
fn flood(grid: &Grid, mobility: Mobility) -> Vec<Option<usize>> {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let mut out = vec![None; grid.len()];
    let mut next = 0;
    for y in 0..h {
        for x in 0..w {
            let s = Cell::new(x, y);
            if !grid.is_passable(s, mobility) || out[(y * w + x) as usize].is_some() {
                continue;
            }
            out[(y * w + x) as usize] = Some(next);
            let mut queue = VecDeque::from([s]);
            while let Some(c) = queue.pop_front() {
                for d in tilepath::Direction8::ALL {
                    let n = c.step(d);
                    if grid.can_step(c, d, mobility) && out[(n.y * w + n.x) as usize].is_none() {
                        out[(n.y * w + n.x) as usize] = Some(next);
                        queue.push_back(n);
                    }
                }
            }
            next += 1;
        }
    }
    out
}

/// `parts` partitions the cells as `reference` does, and counts the same components.
fn check(grid: &Grid, parts: &Components, reference: &[Option<usize>], what: &str) {
    let w = grid.width() as i32;
    let mut ours_to_ref = std::collections::HashMap::new();
    let mut ref_to_ours = std::collections::HashMap::new();
    for (i, &r) in reference.iter().enumerate() {
        let cell = Cell::new(i as i32 % w, i as i32 / w);
        let ours = parts.component(cell);
        assert_eq!(ours.is_some(), r.is_some(), "{what}: {cell} open?");
        if let (Some(o), Some(r)) = (ours, r) {
            assert_eq!(
                *ours_to_ref.entry(o).or_insert(r),
                r,
                "{what}: {cell} joins two"
            );
            assert_eq!(
                *ref_to_ours.entry(r).or_insert(o),
                o,
                "{what}: {cell} split off"
            );
        }
    }
    let count = reference.iter().flatten().max().map_or(0, |m| m + 1);
    assert_eq!(parts.count(), count, "{what}: component count");
}

#[test]
fn components_match_a_flood_fill_after_every_edit() {
    let mut checked = 0;
    for seed in 0..300u64 {
        let mut rng = rng(seed);
        let (w, h) = (rng.random_range(1..24), rng.random_range(1..24));
        let walls = [0.1, 0.3, 0.45, 0.6][seed as usize % 4];
        let mut grid = random_grid(&mut rng, w, h, walls);
        let mobility = random_mobility(&mut rng, 3);
        let mut parts = Components::new(&grid, mobility);
        check(&grid, &parts, &flood(&grid, mobility), "build");
        for step in 0..60 {
            // One to a few cells a repair, some listed twice or outside the grid.
            let mut changed = Vec::new();
            for _ in 0..rng.random_range(1..4) {
                let c = random_cell(&mut rng, &grid);
                grid.set(c, TileKind::new(rng.random_range(0..4u8)).unwrap())
                    .unwrap();
                changed.push(c);
                if rng.random_bool(0.1) {
                    changed.push(c);
                    changed.push(Cell::new(-1, c.y));
                }
            }
            parts.repair(&grid, &changed).unwrap();
            let reference = flood(&grid, mobility);
            check(
                &grid,
                &parts,
                &reference,
                &format!("seed {seed} step {step}"),
            );
            check(
                &grid,
                &Components::new(&grid, mobility),
                &reference,
                "fresh",
            );
            let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
            let same = |c: Cell| reference[(c.y * w as i32 + c.x) as usize];
            assert_eq!(
                parts.is_reachable(a, b),
                same(a).is_some() && same(a) == same(b),
                "seed {seed}: {a} -> {b}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 300 * 60);
}

#[test]
fn reachability_agrees_with_a_search_either_connectivity() {
    let mut astar = tilepath::AStar::whole_grid();
    for seed in 0..200u64 {
        let mut rng = rng(1000 + seed);
        let grid = random_grid(&mut rng, 30, 30, 0.4);
        let parts = Components::new(&grid, Mobility::FLOOR_ONLY);
        for _ in 0..10 {
            let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
            for conn in [Connectivity::Four, Connectivity::Eight] {
                let found = match conn {
                    Connectivity::Four => astar
                        .find(&grid, PathQuery::new(a, b, Mobility::FLOOR_ONLY))
                        .map(|r| route_end(&r, b) == b),
                    Connectivity::Eight => astar
                        .find(
                            &grid,
                            PathQuery::new(a, b, Mobility::FLOOR_ONLY)
                                .connectivity(Connectivity::Eight),
                        )
                        .map(|r| route_end(&r, b) == b),
                    // Square components are not hex ones (tests/hex.rs has those).
                    Connectivity::Hex(_) => unreachable!("not asked"),
                }
                .unwrap_or(false)
                    && grid.is_passable(a, Mobility::FLOOR_ONLY)
                    && grid.is_passable(b, Mobility::FLOOR_ONLY);
                assert_eq!(
                    parts.is_reachable(a, b),
                    found,
                    "seed {seed} {a} -> {b} {conn:?}"
                );
            }
        }
    }
}

#[test]
fn bad_input_is_an_answer_not_a_panic() {
    let grid = Grid::new(5, 5).unwrap();
    let mut parts = Components::new(&grid, Mobility::FLOOR_ONLY);
    let outside = Cell::new(-3, 99);
    assert!(!parts.is_reachable(outside, Cell::new(0, 0)));
    assert_eq!(parts.component(outside), None);
    assert_eq!(
        parts.repair(&Grid::new(4, 5).unwrap(), &[Cell::new(0, 0)]),
        Err(GridMismatch {
            expected: (5, 5),
            found: (4, 5)
        })
    );
    let empty = Grid::new(0, 0).unwrap();
    let none = Components::new(&empty, Mobility::FLOOR_ONLY);
    assert_eq!(
        (none.count(), none.is_reachable(outside, outside)),
        (0, false)
    );
    let walls = Grid::filled(3, 3, TileKind::K1).unwrap();
    assert_eq!(Components::new(&walls, Mobility::FLOOR_ONLY).count(), 0);
}

#[test]
fn a_long_wall_closing_splits_a_big_map_quickly() {
    // 512x512 open map: closing a wall across it, cell by cell, splits it once at the
    // last cell; the split search visits the smaller side only (plus as much of the
    // larger one), never the whole map per edit.
    let mut grid = Grid::new(512, 512).unwrap();
    let mut parts = Components::new(&grid, Mobility::FLOOR_ONLY);
    let mut searched = 0;
    for y in 0..512 {
        let c = Cell::new(100, y);
        grid.set(c, TileKind::K1).unwrap();
        let stats = parts.repair(&grid, &[c]).unwrap();
        searched += stats.cells_searched;
        assert_eq!(stats.splits, usize::from(y == 511));
    }
    assert_eq!(parts.count(), 2);
    assert!(!parts.is_reachable(Cell::new(0, 0), Cell::new(511, 511)));
    // The last split searched both sides in turn until the small one (100 columns)
    // ran out: at most twice its cells; earlier closings found the ring joined.
    assert!(searched <= 2 * 100 * 512 + 512, "{searched} cells searched");
}

#[test]
fn searches_given_components_stop_early_only_for_goals_out_of_reach() {
    let mut with = tilepath::AStar::whole_grid();
    let mut plain = tilepath::AStar::whole_grid();
    let mut bounded = 0;
    for seed in 0..150u64 {
        let mut rng = rng(5000 + seed);
        let grid = random_grid(&mut rng, 90, 90, 0.42);
        let mobility = Mobility::FLOOR_ONLY;
        let parts = Components::new(&grid, mobility);
        for _ in 0..6 {
            let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
            if a == b {
                continue; // already there, whatever the cell
            }
            let four = with
                .find(&grid, PathQuery::new(a, b, mobility).within(&parts))
                .unwrap();
            let eight = with
                .find(
                    &grid,
                    PathQuery::new(a, b, mobility)
                        .within(&parts)
                        .connectivity(Connectivity::Eight),
                )
                .unwrap();
            if parts.is_reachable(a, b) {
                assert_eq!(
                    four,
                    plain.find(&grid, PathQuery::new(a, b, mobility)).unwrap()
                );
                assert_eq!(
                    eight,
                    plain
                        .find(
                            &grid,
                            PathQuery::new(a, b, mobility).connectivity(Connectivity::Eight)
                        )
                        .unwrap()
                );
            } else {
                bounded += 1;
                for (expanded, partial, end) in [
                    (
                        four.expanded,
                        (four.arrival != Arrival::Reached),
                        route_end(&four, b),
                    ),
                    (
                        eight.expanded,
                        (eight.arrival != Arrival::Reached),
                        route_end(&eight, b),
                    ),
                ] {
                    assert!(expanded <= tilepath::UNREACHABLE_EXPANSIONS);
                    assert!(partial && end != b, "seed {seed}: {a} -> {b}");
                    // (A unit standing on a blocked cell may step off it.)
                    let open = grid.is_passable(a, mobility);
                    assert!(!open || a == end || parts.is_reachable(a, end));
                }
                walk(&grid, mobility, a, four.path);
            }
        }
    }
    assert!(bounded > 100, "only {bounded} unreachable queries");
}

#[test]
fn jump_point_searches_given_components_stop_early_only_for_goals_out_of_reach() {
    let mut with = tilepath::Jps::whole_grid();
    let mut plain = tilepath::Jps::whole_grid();
    let (mut bounded, mut capped) = (0, 0);
    let mut rng = rng(77);
    for seed in 0..30u64 {
        // Floor and walls, and a wall across the map with no gap: the top and bottom
        // are apart.
        let walls = random_grid(&mut rng, 400, 400, 0.25);
        let grid = tilepath::Grid::from_fn(400, 400, |c| {
            if c.y == 200 || walls.get(c) == Some(tilepath::TileKind::K3) {
                tilepath::TileKind::K3
            } else {
                tilepath::TileKind::K0
            }
        })
        .unwrap();
        for mobility in [Mobility::FLOOR_ONLY, Mobility::new([1, 2, 0, 0])] {
            let parts = Components::new(&grid, mobility);
            let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
            let four = with
                .find(&grid, PathQuery::new(a, b, mobility).within(&parts))
                .unwrap();
            let eight = with
                .find(
                    &grid,
                    PathQuery::new(a, b, mobility)
                        .within(&parts)
                        .connectivity(Connectivity::Eight),
                )
                .unwrap();
            if parts.is_reachable(a, b) {
                assert_eq!(
                    route(&four),
                    route(&plain.find(&grid, PathQuery::new(a, b, mobility)).unwrap())
                );
                let eight_plain = PathQuery::new(a, b, mobility).connectivity(Connectivity::Eight);
                assert_eq!(
                    route(&eight),
                    route(&plain.find(&grid, eight_plain).unwrap())
                );
            } else {
                bounded += 1;
                // (A unit standing on a blocked cell may step off it, and so may
                // reach the goal.)
                if grid.is_passable(a, mobility) {
                    for r in [&four, &eight] {
                        assert!(!reaches_goal(r), "seed {seed}: {a} -> {b}");
                    }
                }
                for expanded in [four.expanded, eight.expanded] {
                    assert!(expanded <= tilepath::UNREACHABLE_EXPANSIONS);
                }
                assert_eq!(
                    with.max_expansions(),
                    u32::MAX,
                    "the cap outlived the query"
                );
                // Without components, the search would have gone on past the cap.
                let unbounded = plain
                    .find(
                        &grid,
                        PathQuery::new(a, b, mobility).connectivity(Connectivity::Eight),
                    )
                    .unwrap();
                capped += usize::from(unbounded.expanded > tilepath::UNREACHABLE_EXPANSIONS);
            }
        }
    }
    assert!(bounded > 20, "only {bounded} unreachable queries");
    assert!(
        capped > 10,
        "only {capped} of them would have searched past the cap"
    );
}

/// The reference for a footprint of side `size`: a flood fill over the anchors where
/// the whole footprint is open (`Grid::fits`), by the footprint's legal steps
/// (`Grid::can_step_sized`, the rule the solvers use), 4- and 8-connected alike.
fn flood_sized(grid: &Grid, mobility: Mobility, size: u8) -> Vec<Option<usize>> {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let mut out = vec![None; grid.len()];
    let mut next = 0;
    for y in 0..h {
        for x in 0..w {
            let s = Cell::new(x, y);
            if !grid.fits(s, mobility, size) || out[(y * w + x) as usize].is_some() {
                continue;
            }
            out[(y * w + x) as usize] = Some(next);
            let mut queue = VecDeque::from([s]);
            while let Some(c) = queue.pop_front() {
                for d in tilepath::Direction8::ALL {
                    let n = c.step(d);
                    if grid.can_step_sized(c, d, mobility, size)
                        && out[(n.y * w + n.x) as usize].is_none()
                    {
                        out[(n.y * w + n.x) as usize] = Some(next);
                        queue.push_back(n);
                    }
                }
            }
            next += 1;
        }
    }
    out
}

/// Footprint components (sizes 2-4) equal the flood fill of the anchors the footprint
/// fits after a build and after every step of random edits (walls closing and
/// opening, single cells and blocks), repaired after the clearance.
#[test]
fn footprint_components_match_a_flood_fill_after_every_edit() {
    let mut splits = 0;
    for seed in 0..60u64 {
        let mut rng = rng(7000 + seed);
        let (w, h) = (rng.random_range(8..40), rng.random_range(8..40));
        let walls = rng.random_range(0.03..0.15);
        let mut grid = random_grid(&mut rng, w, h, walls);
        let mobility = Mobility::new([1, 2, 1, 0]); // K3 is the wall
        let size = rng.random_range(2..=4u8);
        let mut clear = tilepath::Clearance::new(&grid, mobility);
        let mut parts = Components::for_footprint(clear.footprint(size));
        assert_eq!(parts.unit_size(), size);
        check(&grid, &parts, &flood_sized(&grid, mobility, size), "build");
        for step in 0..40 {
            let mut changed = Vec::new();
            for _ in 0..rng.random_range(1..4) {
                let c = random_cell(&mut rng, &grid);
                let kind = if rng.random_bool(0.6) {
                    TileKind::K3
                } else {
                    TileKind::K0
                };
                grid.set(c, kind).unwrap();
                changed.push(c);
            }
            clear.repair(&grid, &changed).unwrap();
            let stats = parts.repair_footprint(&clear, &changed).unwrap();
            splits += stats.splits;
            let what = format!("seed {seed} size {size} step {step}");
            check(&grid, &parts, &flood_sized(&grid, mobility, size), &what);
        }
    }
    assert!(splits > 20, "only {splits} splits exercised");
}

/// Sized searches given footprint components: the same answer as without for goals
/// the unit can reach, a capped partial one for the others; components of another
/// size are not used.
#[test]
fn sized_searches_given_components_stop_early_only_for_goals_out_of_reach() {
    let mut with = tilepath::AStar::whole_grid();
    let mut plain = tilepath::AStar::whole_grid();
    let mut jps = tilepath::Jps::whole_grid();
    let mut bounded = 0;
    for seed in 0..80u64 {
        let mut rng = rng(8000 + seed);
        let grid = random_grid(&mut rng, 70, 70, 0.12);
        let mobility = Mobility::new([1, 2, 1, 0]); // K3 is the wall
        let clear = tilepath::Clearance::new(&grid, mobility);
        let size = rng.random_range(2..=3u8);
        let foot = clear.footprint(size);
        let parts = Components::for_footprint(foot);
        let other = Components::for_footprint(clear.footprint(size + 1));
        for _ in 0..6 {
            let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
            if a == b || !grid.fits(a, mobility, size) {
                continue;
            }
            let four = with
                .find(
                    &grid,
                    PathQuery::new(a, b, mobility).sized(foot).within(&parts),
                )
                .unwrap();
            let eight = with
                .find(
                    &grid,
                    PathQuery::new(a, b, mobility)
                        .sized(foot)
                        .within(&parts)
                        .connectivity(Connectivity::Eight),
                )
                .unwrap();
            let jumps = jps
                .find(
                    &grid,
                    PathQuery::new(a, b, mobility)
                        .sized(foot)
                        .within(&parts)
                        .connectivity(Connectivity::Eight),
                )
                .unwrap();
            let want4 = plain
                .find(&grid, PathQuery::new(a, b, mobility).sized(foot))
                .unwrap();
            let want8 = plain
                .find(
                    &grid,
                    PathQuery::new(a, b, mobility)
                        .sized(foot)
                        .connectivity(Connectivity::Eight),
                )
                .unwrap();
            // Components of another size: the plain answer.
            let unused = with
                .find(
                    &grid,
                    PathQuery::new(a, b, mobility)
                        .sized(foot)
                        .within(&other)
                        .connectivity(Connectivity::Eight),
                )
                .unwrap();
            assert_eq!(unused, want8);
            if parts.is_reachable(a, b) {
                assert_eq!(four, want4);
                assert_eq!(eight, want8);
                assert_eq!(jumps.cost, want8.cost);
            } else {
                bounded += 1;
                for r in [&eight, &jumps] {
                    assert!(r.expanded <= tilepath::UNREACHABLE_EXPANSIONS);
                    assert!(
                        (r.arrival != Arrival::Reached) && route_end(r, b) != b,
                        "seed {seed}: {a} -> {b}"
                    );
                    assert!(parts.is_reachable(a, route_end(r, b)) || route_end(r, b) == a);
                }
                assert!(
                    (four.arrival != Arrival::Reached)
                        && four.expanded <= tilepath::UNREACHABLE_EXPANSIONS
                );
            }
        }
    }
    assert!(bounded > 50, "only {bounded} unreachable queries");
}

/// A split search bounded by `repair_within` gives up on a cut into large parts: the
/// components stay conservative (the parts keep one component, every pair a unit can
/// walk between still reachable) and say they are not settled; later repairs keep them
/// conservative; a fresh build is exact again.
#[test]
fn a_bounded_repair_leaves_a_big_cut_unsettled_and_conservative() {
    let mut grid = Grid::new(256, 256).unwrap();
    let mut parts = Components::new(&grid, Mobility::FLOOR_ONLY);
    for y in 0..256 {
        let c = Cell::new(128, y);
        grid.set(c, TileKind::K1).unwrap();
        let stats = parts.repair_within(&grid, &[c], 4096).unwrap();
        assert_eq!(stats.unsettled, usize::from(y == 255), "row {y}");
        assert!(stats.cells_searched <= 4096);
    }
    assert!(!parts.is_settled());
    let (left, right) = (Cell::new(0, 0), Cell::new(255, 255));
    assert!(
        parts.is_reachable(left, right),
        "conservative: still one component"
    );
    // Later edits, a small room walled off on the left among them: exact there, and
    // never an answer that a reachable pair is not.
    let mut rng = rng(5);
    for (x, y) in [
        (10, 10),
        (11, 10),
        (12, 10),
        (12, 11),
        (12, 12),
        (11, 12),
        (10, 12),
        (10, 11),
    ] {
        let ring = Cell::new(x - 1, y - 1);
        grid.set(ring, TileKind::K1).unwrap();
        parts.repair_within(&grid, &[ring], 4096).unwrap();
    }
    for _ in 0..20 {
        let c = random_cell(&mut rng, &grid);
        if c.x != 128 {
            grid.set(c, TileKind::K1).unwrap();
            parts.repair_within(&grid, &[c], 4096).unwrap();
        }
    }
    let exact = Components::new(&grid, Mobility::FLOOR_ONLY);
    assert!(exact.is_settled());
    assert!(!exact.is_reachable(left, right));
    assert!(
        !parts.is_reachable(Cell::new(10, 10), left),
        "the walled room is cut off"
    );
    for _ in 0..2000 {
        let (a, b) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
        if exact.is_reachable(a, b) {
            assert!(parts.is_reachable(a, b), "{a} -> {b} reachable");
        }
    }
}
