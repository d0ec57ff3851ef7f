//! Whole-grid 8-connected A* against the optimal lengths of the Moving AI scenarios in
//! `../shared/maps/movingai/` (no corner cutting, diagonal sqrt 2).
//!
//! CI checks every scenario of the three Dragon Age maps and a fixed sample of at
//! least 300 per 512x512 map; `cargo test -p tilepath --test movingai -- --ignored`
//! checks all ~17,000.

use tilepath::{AStar, GridPath8};
use tilepath_testkit::*;

const DRAGON_AGE: [&str; 3] = ["arena.map", "den312d.map", "lak303d.map"];
const LARGE: [&str; 3] = ["maze512-1-0.map", "random512-10-0.map", "32room_000.map"];

/// Checks every `stride`-th scenario of `map`; returns how many were checked.
fn check_map(map: &str, stride: usize) -> usize {
    let grid = load_movingai(map);
    let scenarios = load_scenarios(map);
    let mut astar = AStar::for_grid(&grid);
    let mut checked = 0;
    for s in scenarios.iter().step_by(stride) {
        let r = astar
            .build_path8(&grid, s.start, s.goal, tilepath::Mobility::FLOOR_ONLY)
            .unwrap();
        let unreachable = s.optimal == 0.0 && s.start != s.goal;
        if unreachable {
            assert!(
                !r.route.reaches_goal,
                "{map}: {} -> {} should be unreachable",
                s.start, s.goal
            );
        } else {
            assert!(
                r.route.reaches_goal,
                "{map}: {} -> {} not found",
                s.start, s.goal
            );
            let tolerance = 1e-5 * s.optimal + 0.01;
            assert!(
                (r.route.cost - s.optimal).abs() <= tolerance,
                "{map}: {} -> {}: cost {} but optimal {}",
                s.start,
                s.goal,
                r.route.cost,
                s.optimal
            );
        }
        check_result::<GridPath8, _>(&grid, tilepath::Mobility::FLOOR_ONLY, s.start, s.goal, &r);
        checked += 1;
    }
    checked
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
