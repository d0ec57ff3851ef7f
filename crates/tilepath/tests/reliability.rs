//! Issue 20: every input answered, nothing lost, nothing aborted. One test per
//! reproducer: each failed before its fix.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use tilepath::{
    AStar, Arrival, Cell, Connectivity, DistanceField, FieldError, FieldState, Grid, Mobility,
    NextHopTable, OCTILE_STRAIGHT, PathError, PathQuery, Region, Solver, TileKind,
    combined_next_step,
};
use tilepath_testkit::*;

/// Every `(cell, units)` of a field over `grid`, for comparisons.
fn snapshot(field: &DistanceField, grid: &Grid) -> Vec<Option<i64>> {
    (0..grid.len())
        .map(|i| field.units(grid.cell_of(i).unwrap()))
        .collect()
}

// ----- 11 -----

#[test]
fn bounded_field_whose_columns_miss_the_grid_is_empty() {
    let g = Grid::new(50, 50).unwrap();
    for region in [
        Region::around(Cell::new(10_000, 20), 8),
        Region::around(Cell::new(20, 10_000), 8),
        Region::around(Cell::new(-10_000, 20), 8),
        Region::new(Cell::new(30, 30), Cell::new(10, 10)),
    ] {
        let mut f = DistanceField::bounded(&g, Mobility::FLOOR_ONLY, Connectivity::Eight, region);
        f.add_goal(Cell::new(20, 20), 0);
        let stats = f.compute(&g).unwrap();
        assert_eq!((stats.goals_used, stats.cells_updated), (0, 0));
        assert_eq!(f.distance(Cell::new(20, 20)), None);
        assert_eq!(f.next_step(Cell::new(20, 21)), None);
        f.repair(&g, &[Cell::new(20, 20)]).unwrap();
        f.flee(&g, 1.2).unwrap();
        assert_eq!(f.distance(Cell::new(20, 20)), None);
    }
}

// ----- 12 -----

#[test]
fn field_distances_past_the_value_range_are_reported() {
    let mobility = Mobility::new([255, 0, 0, 0]);
    let g = Grid::new(8000, 1).unwrap();
    let mut f = DistanceField::new(&g, mobility, Connectivity::Eight);
    f.add_goal(Cell::new(0, 0), 0);
    let far = Cell::new(7083, 0);
    let mut astar = AStar::whole_grid();
    let r = astar
        .find(
            &g,
            PathQuery::new(far, Cell::new(0, 0), mobility).connectivity(Connectivity::Eight),
        )
        .unwrap();
    assert_eq!(
        (!matches!(r.arrival, Arrival::Closest(_)), r.cost),
        (true, 1_806_165.0)
    );
    // The field cannot hold that distance in its units: it says so, and answers
    // nothing rather than "unreachable" for a reachable cell.
    assert!(matches!(
        f.compute(&g),
        Err(FieldError::DistanceOverflow { .. })
    ));
    assert_eq!(f.state(), FieldState::Overflowed);
    assert_eq!(f.distance(Cell::new(1, 0)), None);
    // Within range, the same field answers exactly.
    let g = Grid::new(7000, 1).unwrap();
    let mut f = DistanceField::new(&g, mobility, Connectivity::Eight);
    f.add_goal(Cell::new(0, 0), 0);
    f.compute(&g).unwrap();
    assert_eq!(f.state(), FieldState::Ready);
    assert_eq!(
        f.units(Cell::new(6999, 0)),
        Some(6999 * 255 * OCTILE_STRAIGHT as i64)
    );
    assert_eq!(f.distance(Cell::new(6999, 0)), Some(6999.0 * 255.0));
}

#[test]
fn goal_start_values_past_the_value_range_are_reported() {
    let g = Grid::new(10, 10).unwrap();
    for conn in [Connectivity::Four, Connectivity::Eight] {
        let mut f = DistanceField::new(&g, Mobility::FLOOR_ONLY, conn);
        f.add_goal(Cell::new(3, 3), u32::MAX - 1);
        assert!(matches!(
            f.compute(&g),
            Err(FieldError::DistanceOverflow { .. })
        ));
        assert_eq!(f.distance(Cell::new(3, 3)), None);
    }
    // The largest start a 4-connected field holds, with a neighbour one step on
    // past it: the goal is exact, the neighbour overflows.
    let mut f = DistanceField::new(&g, Mobility::FLOOR_ONLY, Connectivity::Four);
    f.add_goal(Cell::new(3, 3), DistanceField::MAX_UNITS);
    assert!(matches!(
        f.compute(&g),
        Err(FieldError::DistanceOverflow { .. })
    ));
    let mut f = DistanceField::new(&g, Mobility::FLOOR_ONLY, Connectivity::Four);
    f.add_goal(Cell::new(3, 3), DistanceField::MAX_UNITS - 20);
    f.compute(&g).unwrap();
    assert_eq!(
        f.units(Cell::new(0, 0)),
        Some(i64::from(DistanceField::MAX_UNITS) - 14)
    );
}

// ----- 13 -----

#[test]
fn flee_twice_is_the_same_flee_field() {
    let mut rng = rng(13);
    let mut g = random_grid(&mut rng, 40, 30, 0.2);
    g.set(Cell::new(20, 15), TileKind::K0).unwrap();
    g.set(Cell::new(3, 4), TileKind::K0).unwrap();
    let mobility = Mobility::new([1, 2, 3, 0]);
    for conn in [Connectivity::Four, Connectivity::Eight] {
        let mut f = DistanceField::new(&g, mobility, conn);
        f.add_goal(Cell::new(20, 15), 0);
        f.add_goal(Cell::new(3, 4), 0);
        f.compute(&g).unwrap();
        f.flee(&g, 1.2).unwrap();
        let once = snapshot(&f, &g);
        assert!(once.iter().any(|v| v.is_some_and(|v| v < 0)));
        f.flee(&g, 1.2).unwrap();
        assert_eq!(snapshot(&f, &g), once);
        // Another factor starts from the chase values too.
        let mut fresh = DistanceField::new(&g, mobility, conn);
        fresh.add_goal(Cell::new(20, 15), 0);
        fresh.add_goal(Cell::new(3, 4), 0);
        fresh.flee(&g, 2.0).unwrap();
        f.flee(&g, 2.0).unwrap();
        assert_eq!(snapshot(&f, &g), snapshot(&fresh, &g));
    }
}

#[test]
fn meaningless_flee_factors_are_errors() {
    let g = Grid::new(10, 10).unwrap();
    let mut f = DistanceField::new(&g, Mobility::FLOOR_ONLY, Connectivity::Four);
    f.add_goal(Cell::new(5, 5), 0);
    f.compute(&g).unwrap();
    let chase = snapshot(&f, &g);
    for factor in [0.0, -0.0, -1.2, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(
            f.flee(&g, factor),
            Err(FieldError::InvalidFleeFactor),
            "{factor}"
        );
        assert!(!f.is_flee());
        assert_eq!(snapshot(&f, &g), chase, "a refused flee changed the field");
    }
}

// ----- 14 -----

#[test]
fn changing_the_maximum_distance_then_repairing_equals_a_full_compute() {
    let mut rng = rng(14);
    let mut g = random_grid(&mut rng, 40, 40, 0.15);
    let mobility = Mobility::new([1, 2, 3, 0]);
    for conn in [Connectivity::Four, Connectivity::Eight] {
        let mut f = DistanceField::new(&g, mobility, conn);
        f.add_goal(Cell::new(20, 20), 0);
        g.set(Cell::new(20, 20), TileKind::K0).unwrap();
        f.compute(&g).unwrap();
        let mut f = f.with_max_distance(7.5);
        assert_eq!(f.state(), FieldState::Stale);
        assert_eq!(f.distance(Cell::new(20, 20)), None);
        f.repair(&g, &[]).unwrap();
        let mut full = DistanceField::new(&g, mobility, conn).with_max_distance(7.5);
        full.add_goal(Cell::new(20, 20), 0);
        full.compute(&g).unwrap();
        let limited = snapshot(&f, &g);
        assert_eq!(limited, snapshot(&full, &g));
        assert!(limited.iter().filter(|v| v.is_some()).count() > 20);
        assert_eq!(f.distance(Cell::new(30, 20)), None);
        assert_eq!(f.distance(Cell::new(20, 20)), Some(0.0));
    }
}

// ----- 15 -----

/// A grid whose whole-grid search scratch would take far more than the machine's
/// 24 GiB: the grid itself is 2 GiB of zeroed pages that are never touched.
fn huge_grid() -> Grid {
    Grid::new(65_536, 65_535).unwrap()
}

#[test]
fn whole_grid_search_too_large_for_memory_is_an_error() {
    let g = huge_grid();
    let bytes = AStar::whole_grid_bytes(g.width(), g.height());
    assert!(bytes > 24 << 30, "{bytes}");
    match AStar::for_grid(&g) {
        Err(PathError::OutOfMemory { bytes: b }) => assert_eq!(b, bytes),
        other => panic!("expected OutOfMemory, got {:?}", other.map(|_| ())),
    }
    let mut astar = AStar::whole_grid();
    assert_eq!(
        astar.find(
            &g,
            PathQuery::new(Cell::new(0, 0), Cell::new(5, 5), Mobility::FLOOR_ONLY)
        ),
        Err(PathError::OutOfMemory { bytes })
    );
    // The same solver still serves a small grid afterwards.
    let small = Grid::new(10, 10).unwrap();
    let r = astar
        .find(
            &small,
            PathQuery::new(Cell::new(0, 0), Cell::new(5, 5), Mobility::FLOOR_ONLY),
        )
        .unwrap();
    assert_eq!(r.cost, 10.0);
}

#[test]
fn distance_field_too_large_for_memory_is_an_error() {
    let g = Grid::new(65_536, 65_536).unwrap();
    let bytes = DistanceField::bytes_for(g.width(), g.height());
    assert!(bytes > 24 << 30, "{bytes}");
    match DistanceField::try_new(&g, Mobility::FLOOR_ONLY, Connectivity::Eight) {
        Err(FieldError::OutOfMemory { bytes: b }) => assert_eq!(b, bytes),
        other => panic!("expected OutOfMemory, got {:?}", other.map(|_| ())),
    }
    let f = DistanceField::try_new(
        &Grid::new(100, 10).unwrap(),
        Mobility::FLOOR_ONLY,
        Connectivity::Four,
    )
    .unwrap();
    assert!(f.memory_bytes() as u64 >= DistanceField::bytes_for(100, 10));
}

// ----- 16 -----

#[test]
fn cell_distances_at_extreme_coordinates_do_not_overflow() {
    let a = Cell::new(5, 5);
    let b = Cell::new(i32::MIN, i32::MIN);
    assert_eq!(a.manhattan(b), u32::MAX);
    assert_eq!(b.manhattan(a), u32::MAX);
    assert_eq!(
        Cell::new(i32::MAX, 0).manhattan(Cell::new(i32::MIN, 0)),
        u32::MAX
    );
    assert_eq!(a.chebyshev(b), 2_147_483_653);
    assert_eq!(
        Cell::new(i32::MIN, 0).manhattan(Cell::new(i32::MAX, 1)),
        u32::MAX
    );
    assert_eq!(Cell::new(-3, 0).manhattan(Cell::new(4, 2)), 9);
}

#[test]
fn combined_next_step_at_the_edge_of_the_coordinates() {
    let g = Grid::new(10, 10).unwrap();
    let mut f = DistanceField::new(&g, Mobility::FLOOR_ONLY, Connectivity::Eight);
    f.add_goal(Cell::new(5, 5), 0);
    f.compute(&g).unwrap();
    for cell in [
        Cell::new(i32::MAX, 0),
        Cell::new(0, i32::MAX),
        Cell::new(i32::MIN, i32::MIN),
        Cell::new(i32::MAX, i32::MAX),
    ] {
        assert_eq!(combined_next_step(&[(&f, 1.0)], cell), None);
    }
    assert_eq!(
        combined_next_step(&[(&f, 1.0)], Cell::new(4, 5)),
        Some(tilepath::Direction8::Right)
    );
}

#[test]
fn table_estimate_with_absurd_thread_counts() {
    let g = Grid::new(20, 20).unwrap();
    let builder = NextHopTable::builder(Mobility::FLOOR_ONLY);
    let one = builder.threads(1).estimate(&g);
    let many = builder.threads(usize::MAX).estimate(&g);
    assert_eq!(many.table_bytes, one.table_bytes);
    // A build never uses more threads than it has blocks of rows for.
    assert_eq!(
        many.total_bytes,
        builder.threads(7).estimate(&g).total_bytes
    );
    assert!(many.total_bytes >= one.total_bytes);
}

// ----- 17 -----

#[test]
fn grids_with_equal_cells_are_equal_and_hash_alike() {
    let hash = |g: &Grid| {
        let mut h = DefaultHasher::new();
        g.hash(&mut h);
        h.finish()
    };
    for kind in [TileKind::K1, TileKind::K2, TileKind::K3] {
        for (w, h) in [(3, 1), (1, 1), (5, 3), (7, 1)] {
            let a = Grid::filled(w, h, kind).unwrap();
            let b = Grid::from_fn(w, h, |_| kind).unwrap();
            assert_eq!(a, b, "{w}x{h} {kind:?}");
            assert_eq!(hash(&a), hash(&b));
            assert_eq!(a.as_bytes(), b.as_bytes());
        }
    }
}

// ----- 18 -----

#[test]
fn a_field_whose_goals_were_cleared_answers_nothing_until_computed() {
    let g = Grid::new(10, 10).unwrap();
    let mut f = DistanceField::new(&g, Mobility::FLOOR_ONLY, Connectivity::Four);
    assert_eq!(f.state(), FieldState::NotComputed);
    f.add_goal(Cell::new(5, 5), 0);
    f.compute(&g).unwrap();
    assert_eq!(f.distance(Cell::new(5, 7)), Some(2.0));
    f.clear_goals();
    assert_eq!(f.state(), FieldState::Stale);
    assert_eq!(f.distance(Cell::new(5, 7)), None);
    assert_eq!(f.next_step(Cell::new(5, 7)), None);
    assert!(f.path(Cell::new(5, 7)).is_empty());
    f.add_goal(Cell::new(0, 0), 0);
    assert_eq!(f.distance(Cell::new(5, 7)), None);
    f.compute(&g).unwrap();
    assert_eq!(f.state(), FieldState::Ready);
    assert_eq!(f.distance(Cell::new(5, 7)), Some(12.0));
}

#[test]
fn goals_added_in_any_order_are_deduplicated_last_value_wins() {
    let g = Grid::new(30, 30).unwrap();
    let mut f = DistanceField::new(&g, Mobility::FLOOR_ONLY, Connectivity::Four);
    for i in (0..30).rev() {
        f.add_goal(Cell::new(i, i), 100);
    }
    f.add_goal(Cell::new(4, 4), 3);
    f.add_goal(Cell::new(9, 9), 50);
    f.add_goal(Cell::new(9, 9), 1);
    f.remove_goal(Cell::new(29, 29));
    let stats = f.compute(&g).unwrap();
    assert_eq!(stats.goals_used, 29);
    let goals: Vec<_> = f.goals().collect();
    assert_eq!(goals.len(), 29);
    assert!(goals.windows(2).all(|w| w[0].0 < w[1].0));
    assert!(goals.contains(&(Cell::new(4, 4), 3)));
    assert!(goals.contains(&(Cell::new(9, 9), 1)));
    assert_eq!(f.distance(Cell::new(9, 9)), Some(1.0));
    assert_eq!(f.distance(Cell::new(4, 4)), Some(3.0));
    assert_eq!(f.distance(Cell::new(29, 29)), Some(41.0)); // from (9, 9): 40 + 1
    // On a computed field a goal takes effect at once.
    f.add_goal(Cell::new(29, 29), 0);
    assert_eq!(f.distance(Cell::new(29, 29)), Some(0.0));
    assert_eq!(f.distance(Cell::new(28, 29)), Some(1.0));
}
