//! Hex maps: on seeded random maps of every layout, the solvers against a plain hex
//! Dijkstra whose neighbours come from the axial formulas (`tilepath_testkit::hex`),
//! not from the library's tables.

use rand::RngExt;
use rand::rngs::StdRng;
use tilepath::{
    AStar, Arrival, Cell, Connectivity, Direction8, Grid, HexLayout, MAX_STEPS, Mobility,
    PathQuery, Solver,
};
use tilepath_testkit::*;

const GRIDS: u64 = 600;

/// A random map: sides of both parities, sometimes larger than a search window.
fn random_map(rng: &mut StdRng) -> (Grid, Mobility, HexLayout) {
    let big = rng.random_bool(0.1);
    let side = |rng: &mut StdRng| {
        if big {
            rng.random_range(100..=150)
        } else {
            rng.random_range(1..=45)
        }
    };
    let (w, h) = (side(rng), side(rng));
    let walls = rng.random_range(0.0..0.45);
    let grid = random_grid(rng, w, h, walls);
    let max_cost = [1, 1, 9, 40, 255][rng.random_range(0..5usize)];
    let mobility = random_mobility(rng, max_cost);
    let layout = HexLayout::ALL[rng.random_range(0..5usize)];
    (grid, mobility, layout)
}

/// A goal: mostly a cell of the grid, sometimes one outside it.
fn random_goal(rng: &mut StdRng, grid: &Grid) -> Cell {
    if rng.random_bool(0.05) {
        Cell::new(
            rng.random_range(-5..grid.width() as i32 + 5),
            rng.random_range(-5..grid.height() as i32 + 5),
        )
    } else {
        random_cell(rng, grid)
    }
}

#[test]
fn layouts_agree_with_the_axial_formulas() {
    for layout in HexLayout::ALL {
        for y in -7..7 {
            for x in -7..7 {
                let c = Cell::new(x, y);
                let want = hex_neighbours(layout, c);
                let got = layout.directions(c).map(|d| c.step(d));
                assert_eq!(got, want, "{layout:?} {c}");
                for d in Direction8::ALL {
                    assert_eq!(layout.is_step(c, d), want.contains(&c.step(d)));
                    assert_eq!(Connectivity::Hex(layout).allows(c, d), layout.is_step(c, d));
                }
                let (q, r) = layout.to_axial(c);
                assert_eq!((i64::from(q), i64::from(r)), axial_of(layout, c));
                for b in [Cell::new(0, 0), Cell::new(3, -5), Cell::new(-6, 2)] {
                    assert_eq!(
                        u64::from(layout.distance(c, b)),
                        hex_distance_ref(layout, c, b)
                    );
                }
            }
        }
    }
}

#[test]
fn can_step_with_follows_the_layout() {
    let mut rng = rng(5);
    for _ in 0..50 {
        let (grid, mobility, layout) = random_map(&mut rng);
        let hex = Connectivity::Hex(layout);
        for _ in 0..40 {
            let c = random_cell(&mut rng, &grid);
            for d in Direction8::ALL {
                let n = c.step(d);
                let want = hex_neighbours(layout, c).contains(&n) && grid.is_passable(n, mobility);
                assert_eq!(grid.can_step_with(c, d, mobility, hex), want);
                assert_eq!(
                    grid.can_step_with(c, d, mobility, Connectivity::Eight),
                    grid.can_step(c, d, mobility)
                );
                assert_eq!(
                    grid.can_step_with(c, d, mobility, Connectivity::Four),
                    !d.is_diagonal() && grid.is_passable(n, mobility)
                );
            }
        }
    }
}

#[test]
fn astar_matches_reference_dijkstra_on_random_hex_maps() {
    let mut window = AStar::new();
    let mut whole = AStar::whole_grid();
    let (mut checked, mut partials, mut long) = ([0usize; 5], 0, 0);
    for seed in 0..GRIDS {
        let mut rng = rng(seed);
        let (grid, mobility, layout) = random_map(&mut rng);
        for _ in 0..4 {
            let from = random_cell(&mut rng, &grid);
            let to = random_goal(&mut rng, &grid);
            let start = [(from, 0)];
            let win = reference_hex(&grid, mobility, layout, &start, false, in_window(from));
            let all = reference_hex(&grid, mobility, layout, &start, false, |_| true);
            let r = window
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            check_hex_optimal(&grid, mobility, layout, (from, to), &win, &r);
            let r = whole
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            check_hex_optimal(&grid, mobility, layout, (from, to), &all, &r);
            partials += usize::from(r.arrival != Arrival::Reached);
            long += usize::from(r.route_len as usize > MAX_STEPS);
            checked[layout as usize] += 1;
        }
    }
    println!(
        "checked {checked:?} queries per layout, {partials} partial, {long} longer than a path"
    );
    assert!(checked.iter().all(|&n| n > 300), "{checked:?}");
    assert!(partials > 50 && long > 5, "{partials} partial, {long} long");
}

#[test]
fn bad_starts_are_errors_not_panics() {
    let grid = Grid::new(5, 4).unwrap();
    let empty = Grid::new(0, 0).unwrap();
    let mut astar = AStar::new();
    let mut whole = AStar::whole_grid();
    for layout in HexLayout::ALL {
        for from in [
            Cell::new(-1, 0),
            Cell::new(5, 0),
            Cell::new(i32::MIN, i32::MAX),
        ] {
            assert!(
                astar
                    .find(
                        &grid,
                        PathQuery::new(from, Cell::new(0, 0), Mobility::FLOOR_ONLY)
                            .connectivity(Connectivity::Hex(layout))
                    )
                    .is_err()
            );
            assert!(
                whole
                    .find(
                        &grid,
                        PathQuery::new(from, Cell::new(0, 0), Mobility::FLOOR_ONLY)
                            .connectivity(Connectivity::Hex(layout))
                    )
                    .is_err()
            );
        }
        assert!(
            astar
                .find(
                    &empty,
                    PathQuery::new(Cell::new(0, 0), Cell::new(0, 0), Mobility::FLOOR_ONLY)
                        .connectivity(Connectivity::Hex(layout))
                )
                .is_err()
        );
        let r = astar
            .find(
                &grid,
                PathQuery::new(
                    Cell::new(0, 0),
                    Cell::new(i32::MAX, i32::MIN),
                    Mobility::FLOOR_ONLY,
                )
                .connectivity(Connectivity::Hex(layout)),
            )
            .unwrap();
        assert!((r.arrival != Arrival::Reached));
    }
}

#[test]
fn greedy_paths_are_valid_and_reach_reachable_goals() {
    let mut greedy = tilepath::Greedy::new();
    let mut limited = tilepath::Greedy::new();
    let (mut reached, mut partial) = (0, 0);
    for seed in 0..GRIDS {
        let mut rng = rng(1_000 + seed);
        let (grid, mobility, layout) = random_map(&mut rng);
        for _ in 0..4 {
            let from = random_cell(&mut rng, &grid);
            let to = random_goal(&mut rng, &grid);
            let win = reference_hex(
                &grid,
                mobility,
                layout,
                &[(from, 0)],
                false,
                in_window(from),
            );
            let g = greedy
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            check_hex_result(&grid, mobility, layout, (from, to), &g);
            // Complete inside its window, never better than the optimum.
            let reach = grid.index_of(to).and_then(|i| win[i]);
            assert_eq!(
                !matches!(g.arrival, Arrival::Closest(_)),
                reach.is_some(),
                "{layout:?} {from}->{to}"
            );
            match reach {
                Some(best) => {
                    assert!(g.cost >= best as f64);
                    reached += 1;
                }
                None => {
                    // Partial: towards an expanded cell nearest the goal, and every
                    // reachable cell of the window is expanded before giving up.
                    let nearest = (0..win.len())
                        .filter(|&i| win[i].is_some())
                        .map(|i| hex_distance_ref(layout, grid.cell_of(i).unwrap(), to))
                        .min()
                        .unwrap();
                    assert_eq!(hex_distance_ref(layout, route_end(&g, to), to), nearest);
                    partial += 1;
                }
            }
            let limit = rng.random_range(1..=g.expanded.max(1));
            limited.set_max_expansions(limit);
            let l = limited
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            check_hex_result(&grid, mobility, layout, (from, to), &l);
            assert!(l.expanded <= limit);
        }
    }
    assert!(
        reached > 1000 && partial > 50,
        "{reached} reached, {partial} partial"
    );
}

#[test]
fn distance_fields_match_the_reference_and_repair_equals_recompute() {
    use tilepath::{DistanceField, TileKind};
    let mut fields = 0;
    for seed in 0..150 {
        let mut rng = rng(2_000 + seed);
        let (mut grid, mobility, layout) = random_map(&mut rng);
        let hex = Connectivity::Hex(layout);
        let mut field = DistanceField::new(&grid, mobility, hex);
        let mut goals: Vec<(Cell, u32)> = Vec::new();
        for _ in 0..rng.random_range(1..4) {
            let g = random_cell(&mut rng, &grid);
            let start = rng.random_range(0..5);
            field.add_goal(g, start);
            goals.retain(|&(c, _)| c != g);
            goals.push((g, start));
        }
        field.compute(&grid).unwrap();
        for round in 0..8 {
            // The reference: costs of walking to the nearest goal (goals on blocked
            // cells are ignored).
            let sources: Vec<(Cell, u64)> = goals
                .iter()
                .filter(|&&(c, _)| grid.is_passable(c, mobility))
                .map(|&(c, s)| (c, u64::from(s)))
                .collect();
            let want = reference_hex(&grid, mobility, layout, &sources, true, |_| true);
            for (i, w) in want.iter().enumerate() {
                let c = grid.cell_of(i).unwrap();
                let w = w.filter(|_| grid.is_passable(c, mobility));
                assert_eq!(
                    field.units(c),
                    w.map(|u| u as i64),
                    "{layout:?} round {round} at {c}"
                );
                // Next steps go downhill along hex steps, to the best neighbour.
                if let (Some(here), Some(d)) = (w, field.next_step(c)) {
                    let n = c.step(d);
                    assert!(
                        hex_neighbours(layout, c).contains(&n),
                        "{layout:?} next step at {c}"
                    );
                    let there = field.units(n).unwrap() as u64;
                    assert_eq!(there + u64::from(grid.cost(n, mobility)), here);
                }
            }
            let walk = field.path8(random_cell(&mut rng, &grid));
            let _ = walk.count();
            // Random edits, then a repair equal to a fresh computation.
            let mut changed = Vec::new();
            for _ in 0..rng.random_range(1..8) {
                let c = random_cell(&mut rng, &grid);
                let kind = TileKind::new(rng.random_range(0..4)).unwrap();
                grid.set(c, kind).unwrap();
                changed.push(c);
            }
            field.repair(&grid, &changed).unwrap();
            let mut fresh = DistanceField::new(&grid, mobility, hex);
            for &(g, s) in &goals {
                fresh.add_goal(g, s);
            }
            fresh.compute(&grid).unwrap();
            for i in 0..grid.len() {
                let c = grid.cell_of(i).unwrap();
                assert_eq!(field.units(c), fresh.units(c), "{layout:?} repair at {c}");
                assert_eq!(field.next_step(c), fresh.next_step(c));
            }
            fields += 1;
        }
    }
    assert!(fields > 1000);
}

#[test]
fn bounded_hex_fields_use_the_cells_own_parity() {
    use tilepath::{DistanceField, Region};
    let mut rng = rng(99);
    for layout in HexLayout::ALL {
        for _ in 0..30 {
            let grid = random_grid(&mut rng, 30, 30, 0.2);
            let mobility = random_mobility(&mut rng, 9);
            // An odd origin: the region's local parity differs from the grid's.
            let min = Cell::new(rng.random_range(0..10) | 1, rng.random_range(0..10) | 1);
            let region = Region::new(min, Cell::new(min.x + 15, min.y + 12));
            let mut field =
                DistanceField::bounded(&grid, mobility, Connectivity::Hex(layout), region);
            let goal = Cell::new(min.x + 7, min.y + 6);
            field.add_goal(goal, 0);
            field.compute(&grid).unwrap();
            let inside = |c: Cell| region.contains(c);
            let sources: Vec<(Cell, u64)> = [(goal, 0)]
                .into_iter()
                .filter(|&(c, _)| grid.is_passable(c, mobility))
                .collect();
            let want = reference_hex(&grid, mobility, layout, &sources, true, inside);
            for (i, w) in want.iter().enumerate() {
                let c = grid.cell_of(i).unwrap();
                let w = w.filter(|_| grid.is_passable(c, mobility) && inside(c));
                assert_eq!(field.units(c), w.map(|u| u as i64), "{layout:?} at {c}");
            }
        }
    }
}

#[test]
fn hex_fields_refuse_larger_units() {
    use tilepath::{DistanceField, FieldError, Landmarks, NextHopTable, TableError};
    let grid = Grid::new(6, 6).unwrap();
    for layout in HexLayout::ALL {
        let hex = Connectivity::Hex(layout);
        let mut field = DistanceField::new(&grid, Mobility::FLOOR_ONLY, hex);
        assert_eq!(
            field.set_unit_size(2),
            Err(FieldError::HexUnitSize { size: 2 })
        );
        assert_eq!(
            field.set_unit_size(0),
            Err(FieldError::InvalidUnitSize { size: 0 })
        );
        assert_eq!(field.set_unit_size(1), Ok(()));
        assert_eq!(field.unit_size(), 1);
        assert_eq!(
            Landmarks::new(&grid, Mobility::FLOOR_ONLY, hex, 4).err(),
            Some(FieldError::HexUnsupported)
        );
        let table = NextHopTable::builder(Mobility::FLOOR_ONLY).connectivity(hex);
        assert!(matches!(
            table.build(&grid),
            Err(TableError::HexUnsupported)
        ));
        assert!(table.estimate(&grid).total_bytes > 0);
    }
}

#[test]
fn hex_components_match_a_flood_fill_after_random_edits() {
    use tilepath::{Components, TileKind};
    let (mut splits, mut checks) = (0, 0);
    for seed in 0..200 {
        let mut rng = rng(3_000 + seed);
        let (mut grid, mobility, layout) = random_map(&mut rng);
        let hex = Connectivity::Hex(layout);
        let mut parts = Components::with_connectivity(&grid, mobility, hex);
        assert_eq!(parts.connectivity(), hex);
        for _ in 0..12 {
            let mut changed = Vec::new();
            for _ in 0..rng.random_range(1..10) {
                let c = random_cell(&mut rng, &grid);
                grid.set(c, TileKind::new(rng.random_range(0..4)).unwrap())
                    .unwrap();
                changed.push(c);
            }
            splits += parts.repair(&grid, &changed).unwrap().splits;
            let fresh = Components::with_connectivity(&grid, mobility, hex);
            assert_eq!(parts.count(), fresh.count(), "{layout:?}");
            for _ in 0..6 {
                let a = random_cell(&mut rng, &grid);
                let flood = hex_flood(&grid, mobility, layout, a);
                for (i, &reached) in flood.iter().enumerate() {
                    let b = grid.cell_of(i).unwrap();
                    assert_eq!(parts.is_reachable(a, b), reached, "{layout:?} {a} {b}");
                    checks += 1;
                }
            }
        }
    }
    assert!(
        splits > 100 && checks > 100_000,
        "{splits} splits, {checks} checks"
    );
}

#[test]
fn hex_components_bound_unreachable_searches() {
    use tilepath::{Components, Jps, UNREACHABLE_EXPANSIONS};
    let mut astar = AStar::whole_grid();
    let mut jps = Jps::whole_grid();
    let mut capped = 0;
    for seed in 0..200 {
        let mut rng = rng(4_000 + seed);
        let (grid, mobility, layout) = random_map(&mut rng);
        let parts = Components::with_connectivity(&grid, mobility, Connectivity::Hex(layout));
        let square = Components::new(&grid, mobility);
        for _ in 0..4 {
            let (from, to) = (random_cell(&mut rng, &grid), random_goal(&mut rng, &grid));
            let plain = astar
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            let r = astar
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility)
                        .within(&parts)
                        .connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            if parts.is_reachable(from, to) {
                assert_eq!(r, plain);
            } else {
                check_hex_result(&grid, mobility, layout, (from, to), &r);
                assert!(r.expanded <= UNREACHABLE_EXPANSIONS);
                capped += 1;
            }
            // Square components are not used for hex queries: the plain answer.
            let s = astar
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility)
                        .within(&square)
                        .connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            assert_eq!(s, plain);
            let j = jps
                .find(
                    &grid,
                    PathQuery::new(from, to, mobility)
                        .within(&parts)
                        .connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            assert_eq!(j, r);
            assert_eq!(
                jps.find(
                    &grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout))
                )
                .unwrap(),
                plain
            );
        }
    }
    assert!(capped > 20, "{capped}");
}
