//! Whole-grid 8-connected A* against the optimal lengths of the Moving AI scenarios in
//! `tilepath_testkit/data/movingai/` (no corner cutting, diagonal sqrt 2).
//!
//! CI checks every scenario of the three Dragon Age maps and a fixed sample of at
//! least 300 per 512x512 map; `cargo test -p tilepath --test movingai -- --ignored`
//! checks all ~17,000.

use tilepath::{AStar, Arrival, Cell, Clearance, Connectivity, Jps, Mobility, PathQuery, Solver};
use tilepath_testkit::*;

const DRAGON_AGE: [&str; 3] = ["arena.map", "den312d.map", "lak303d.map"];
const LARGE: [&str; 3] = ["maze512-1-0.map", "random512-10-0.map", "32room_000.map"];

/// Checks every `stride`-th scenario of `map`; returns how many were checked.
fn check_map(map: &str, stride: usize) -> usize {
    let grid = load_movingai(map);
    let scenarios = load_scenarios(map);
    let mut astar = AStar::for_grid(&grid).unwrap();
    let mut checked = 0;
    for s in scenarios.iter().step_by(stride) {
        let r = astar
            .find(
                &grid,
                PathQuery::new(s.start, s.goal, tilepath::Mobility::FLOOR_ONLY)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        let unreachable = s.optimal == 0.0 && s.start != s.goal;
        if unreachable {
            assert!(
                matches!(r.arrival, Arrival::Closest(_)),
                "{map}: {} -> {} should be unreachable",
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
            let tolerance = 1e-5 * s.optimal + 0.01;
            assert!(
                (r.cost - s.optimal).abs() <= tolerance,
                "{map}: {} -> {}: cost {} but optimal {}",
                s.start,
                s.goal,
                r.cost,
                s.optimal
            );
        }
        check_result(&grid, tilepath::Mobility::FLOOR_ONLY, s.start, s.goal, &r);
        checked += 1;
    }
    checked
}

/// Units of 2x2 and 3x3 cells on every shared map: whole-grid A* and [`Jps`] (jump
/// point search on the anchors the footprint fits) against a reference Dijkstra over footprint costs checked
/// cell by cell, on a sample of each map's scenarios whose start the footprint fits
/// (the .scen lengths are for one-cell units only).
#[test]
fn bigger_units_on_every_map_match_a_reference() {
    let mobility = Mobility::FLOOR_ONLY;
    let mut checked = 0;
    for map in MOVING_AI_MAPS {
        let grid = load_movingai(map);
        let clear = Clearance::new(&grid, mobility);
        let mut astar = AStar::for_grid(&grid).unwrap();
        let mut jps = Jps::for_grid(&grid).unwrap();
        let scenarios = load_scenarios(map);
        for size in [2, 3] {
            let costs: Vec<u8> = (0..grid.len())
                .map(|i| footprint_cost(&grid, mobility, grid.cell_of(i).unwrap(), size))
                .collect();
            let cost = |c: Cell| grid.index_of(c).map_or(0, |i| costs[i]);
            let sample = scenarios
                .iter()
                .skip(size as usize * 7)
                .step_by(scenarios.len() / 5)
                .filter(|s| clear.fits(s.start, size))
                .take(3);
            for s in sample {
                let reference =
                    reference_distances_by(&grid, cost, &[(s.start, 0.0)], true, |_| true);
                let foot = clear.footprint(size);
                let q = (s.start, s.goal);
                let r = astar
                    .find(
                        &grid,
                        PathQuery::new(s.start, s.goal, mobility)
                            .sized(foot)
                            .connectivity(Connectivity::Eight),
                    )
                    .unwrap();
                check_optimal_sized(&grid, mobility, size, q, true, &reference, &r);
                let j = jps
                    .find(
                        &grid,
                        PathQuery::new(s.start, s.goal, mobility)
                            .sized(foot)
                            .connectivity(Connectivity::Eight),
                    )
                    .unwrap();
                check_optimal_sized(&grid, mobility, size, q, true, &reference, &j);
                checked += 1;
            }
        }
    }
    println!("checked {checked} scenarios for 2x2 and 3x3 units");
    assert!(
        checked >= 24,
        "only {checked} scenarios had a start a unit fits"
    );
}

#[test]
fn dragon_age_maps_every_scenario() {
    let mut total = 0;
    for map in DRAGON_AGE {
        let n = check_map(map, 1);
        println!("{map}: {n} scenarios match");
        total += n;
    }
    println!("checked {total} Moving AI scenarios");
    assert!(total >= 1500);
}

#[test]
fn large_maps_fixed_sample() {
    let mut total = 0;
    for map in LARGE {
        let count = load_scenarios(map).len();
        let stride = (count / 300).max(1);
        let n = check_map(map, stride);
        println!("{map}: {n} of {count} scenarios match (every {stride}th)");
        assert!(n >= 300);
        total += n;
    }
    println!("checked {total} Moving AI scenarios");
}

#[test]
#[ignore = "the full set takes a few minutes; run before resolving search changes"]
fn every_scenario_of_every_map() {
    let mut total = 0;
    for map in DRAGON_AGE.into_iter().chain(LARGE) {
        let n = check_map(map, 1);
        println!("{map}: {n} scenarios match");
        total += n;
    }
    println!("checked {total} Moving AI scenarios");
    assert!(total > 17_000);
}
