//! Searches of every solver (windowed and whole-grid, 4- and 8-connected, and hex of
//! every layout), each answer checked against the references.

use super::*;
pub(crate) fn search(
    rng: &mut StdRng,
    grid: &Grid,
    mobility: Mobility,
    s: &mut Solvers,
    covered: &mut Covered,
    op: &mut String,
) {
    let from = any_cell(rng, grid);
    let to = if rng.random_bool(0.1) {
        extreme_cell(rng, grid)
    } else {
        any_cell(rng, grid)
    };
    let eight = rng.random_bool(0.5);
    let _ = write!(
        op,
        "search {from}->{to} eight={eight} mobility={mobility:?}"
    );
    covered.searches += 1;
    if !grid.contains(from) {
        let e = PathError::StartOutOfBounds {
            start: from,
            width: grid.width(),
            height: grid.height(),
        };
        assert_eq!(
            s.greedy
                .find(grid, PathQuery::new(from, to, mobility))
                .err(),
            Some(e)
        );
        assert_eq!(
            s.astar.find(grid, PathQuery::new(from, to, mobility)).err(),
            Some(e)
        );
        assert_eq!(
            s.whole
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)
                )
                .err(),
            Some(e)
        );
        assert_eq!(
            s.jps
                .find(
                    grid,
                    s.kept.query(
                        PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)
                    )
                )
                .err(),
            Some(e)
        );
        assert_eq!(
            s.jps_whole
                .find(grid, s.kept.query(PathQuery::new(from, to, mobility)))
                .err(),
            Some(e)
        );
        covered.errors_checked += 1;
        return;
    }
    let win = reference_dijkstra(grid, mobility, from, eight, in_window(from));
    let all = reference_dijkstra(grid, mobility, from, eight, |_| true);
    if eight {
        let r = s
            .astar
            .find(
                grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_optimal(grid, mobility, from, to, true, &win, &r);
        let r = s
            .whole
            .find(
                grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_optimal(grid, mobility, from, to, true, &all, &r);
        let r = s
            .limited
            .find(
                grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_result(grid, mobility, from, to, &r);
        let r = s
            .jps
            .find(
                grid,
                s.kept
                    .query(PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)),
            )
            .unwrap();
        check_optimal(grid, mobility, from, to, true, &win, &r);
        let r = s
            .jps_whole
            .find(
                grid,
                s.kept
                    .query(PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)),
            )
            .unwrap();
        check_optimal(grid, mobility, from, to, true, &all, &r);
    } else {
        let r = s
            .astar
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        check_optimal(grid, mobility, from, to, false, &win, &r);
        let r = s
            .whole
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        check_optimal(grid, mobility, from, to, false, &all, &r);
        let r = s
            .limited
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        check_result(grid, mobility, from, to, &r);
        let r = s
            .jps
            .find(grid, s.kept.query(PathQuery::new(from, to, mobility)))
            .unwrap();
        check_optimal(grid, mobility, from, to, false, &win, &r);
        let r = s
            .jps_whole
            .find(grid, s.kept.query(PathQuery::new(from, to, mobility)))
            .unwrap();
        check_optimal(grid, mobility, from, to, false, &all, &r);
        let g = s
            .greedy
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        check_result(grid, mobility, from, to, &g);
        // Greedy is complete inside its window, and never beats the optimum.
        let reach = grid.index_of(to).and_then(|i| win[i]);
        assert_eq!(
            !matches!(g.arrival, Arrival::Closest(_)),
            reach.is_some(),
            "greedy reach"
        );
        if let Some(best) = reach {
            assert!(
                g.cost >= best - 1e-6 * best.max(1.0),
                "greedy beat the optimum"
            );
        }
    }
}

/// A random hex layout.
pub(crate) fn random_layout(rng: &mut StdRng) -> HexLayout {
    HexLayout::ALL[rng.random_range(0..5usize)]
}

/// A hex search of every solver that has one, against the hex reference.
pub(crate) fn hex_search(
    rng: &mut StdRng,
    grid: &Grid,
    mobility: Mobility,
    s: &mut Solvers,
    covered: &mut Covered,
    op: &mut String,
) {
    let from = any_cell(rng, grid);
    let to = if rng.random_bool(0.1) {
        extreme_cell(rng, grid)
    } else {
        any_cell(rng, grid)
    };
    let layout = random_layout(rng);
    let _ = write!(
        op,
        "hex search {from}->{to} {layout:?} mobility={mobility:?}"
    );
    covered.searches += 1;
    if !grid.contains(from) {
        let e = PathError::StartOutOfBounds {
            start: from,
            width: grid.width(),
            height: grid.height(),
        };
        assert_eq!(
            s.greedy
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout))
                )
                .err(),
            Some(e)
        );
        assert_eq!(
            s.astar
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout))
                )
                .err(),
            Some(e)
        );
        assert_eq!(
            s.whole
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout))
                )
                .err(),
            Some(e)
        );
        assert_eq!(
            s.jps
                .find(
                    grid,
                    s.kept.query(
                        PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout))
                    )
                )
                .err(),
            Some(e)
        );
        covered.errors_checked += 1;
        return;
    }
    let start = [(from, 0)];
    let win = reference_hex(grid, mobility, layout, &start, false, in_window(from));
    let all = reference_hex(grid, mobility, layout, &start, false, |_| true);
    let r = s
        .astar
        .find(
            grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
        )
        .unwrap();
    check_hex_optimal(grid, mobility, layout, (from, to), &win, &r);
    let r = s
        .whole
        .find(
            grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
        )
        .unwrap();
    check_hex_optimal(grid, mobility, layout, (from, to), &all, &r);
    let r = s
        .limited
        .find(
            grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
        )
        .unwrap();
    check_hex_result(grid, mobility, layout, (from, to), &r);
    let r = s
        .jps_whole
        .find(
            grid,
            s.kept
                .query(PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout))),
        )
        .unwrap();
    check_hex_optimal(grid, mobility, layout, (from, to), &all, &r);
    let g = s
        .greedy
        .find(
            grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
        )
        .unwrap();
    check_hex_result(grid, mobility, layout, (from, to), &g);
    let reach = grid.index_of(to).and_then(|i| win[i]);
    assert_eq!(
        !matches!(g.arrival, Arrival::Closest(_)),
        reach.is_some(),
        "hex greedy reach"
    );
    if let Some(best) = reach {
        assert!(g.cost >= best as f64, "hex greedy beat the optimum");
    }
}
