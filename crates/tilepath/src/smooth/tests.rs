//! The smoother's unit tests: what its private parts read from the grid.

use super::funnel::Funnel;
use super::{Sight, Waypoint};
use crate::{AStar, Cell, Clearance, Connectivity, Grid, Mobility, PathQuery, Solver, TileKind};

/// A small deterministic generator (no dependency in the library's own tests).
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

/// A `w x h` grid of floor with about `density`% of its cells of the other kinds.
fn walled(state: &mut u64, (w, h): (u64, u64), density: u64) -> Grid {
    Grid::from_fn(w as u32, h as u32, |_| {
        if next(state) % 100 < density {
            TileKind::from_bits((1 + next(state) % 3) as u8)
        } else {
            TileKind::K0
        }
    })
    .unwrap()
}

#[test]
fn convex_corners_read_by_words_match_cell_by_cell() {
    let mut state = 7;
    let mut found = 0;
    for _ in 0..300 {
        let (w, h) = (1 + next(&mut state) % 90, 1 + next(&mut state) % 12);
        let density = next(&mut state) % 60;
        let grid = walled(&mut state, (w, h), density);
        let mobility = [
            Mobility::FLOOR_ONLY,
            Mobility::new([1, 1, 0, 0]),
            Mobility::new([2, 1, 1, 0]),
        ][(next(&mut state) % 3) as usize];
        let size = 1 + (next(&mut state) % 3) as u8;
        let sight = Sight::new(&grid, mobility, size);
        let (w, h) = (w as i64, h as i64);
        for y in -1..=h + 1 {
            let lo = -2 + (next(&mut state) % (w as u64 + 4)) as i64;
            let hi = lo + (next(&mut state) % 80) as i64;
            let mut seen = Vec::new();
            sight.convex_corners_on(y, (lo, hi), |x, i| seen.push((x, i)));
            let expected: Vec<(i64, usize)> = (lo..=hi)
                .filter_map(|x| {
                    let walls = [
                        !sight.clear_at(x - 1, y - 1),
                        !sight.clear_at(x, y - 1),
                        !sight.clear_at(x - 1, y),
                        !sight.clear_at(x, y),
                    ];
                    (walls.iter().filter(|&&c| c).count() == 1)
                        .then(|| (x, walls.iter().position(|&c| c).unwrap()))
                })
                .collect();
            assert_eq!(
                seen, expected,
                "{w}x{h} size {size} row {y} from {lo} to {hi}"
            );
            found += seen.len();
        }
    }
    assert!(found > 1_000, "only {found} corners");
}

#[test]
fn the_string_through_a_clear_corridor_keeps_the_rule() {
    // Random grids of floor and walls (every cell a unit stands on is clear), units of
    // sizes 1-3, optimal 8-connected paths: the funnel finds a route through every
    // path's corridor, each segment of which keeps the rule, turning only where a
    // route may, and never longer than the path.
    let mut state = 11;
    let (mut routes, mut turns, mut cells_walked) = (0, 0, 0);
    let mut astar = AStar::new();
    let mut funnel = Funnel::new();
    let mut out = Vec::new();
    for _ in 0..3000 {
        let (w, h) = (4 + next(&mut state) % 30, 4 + next(&mut state) % 30);
        let density = next(&mut state) % 35;
        let grid = Grid::from_fn(w as u32, h as u32, |_| {
            if next(&mut state) % 100 < density {
                TileKind::K1
            } else {
                TileKind::K0
            }
        })
        .unwrap();
        let size = [1, 1, 2, 3][(next(&mut state) % 4) as usize];
        let mobility = Mobility::FLOOR_ONLY;
        let sight = Sight::new(&grid, mobility, size);
        let clearance = Clearance::new(&grid, mobility);
        let mut pick = || {
            (0..40)
                .map(|_| Cell::new((next(&mut state) % w) as i32, (next(&mut state) % h) as i32))
                .find(|&c| sight.is_clear(c))
        };
        let (Some(from), Some(to)) = (pick(), pick()) else {
            continue;
        };
        let mut query = PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight);
        if size > 1 {
            query = query.sized(clearance.footprint(size));
        }
        let Ok(r) = astar.find(&grid, query) else {
            continue;
        };
        if r.path.is_empty() || r.end != to {
            continue;
        }
        let cells: Vec<Cell> = core::iter::once(from).chain(r.path.cells(from)).collect();
        out.clear();
        assert!(
            funnel.through(&cells, &mut out, &mut 0),
            "no corridor along {cells:?}"
        );
        assert_eq!(out.last(), Some(&Waypoint::centre_of(to)));
        let mut at = Waypoint::centre_of(from);
        let mut length = 0.0;
        for (k, &p) in out.iter().enumerate() {
            assert!(
                sight.sees(at, p),
                "size {size}: {at:?} -> {p:?} along {cells:?}"
            );
            if k + 1 < out.len() {
                assert!(sight.can_turn_at(p), "size {size}: turns at {p:?}");
            }
            length += at.distance(p);
            at = p;
        }
        assert!(length <= r.cost + 1e-9, "{length} > {}", r.cost);
        routes += 1;
        turns += out.len() - 1;
        cells_walked += cells.len();
    }
    println!("{routes} routes, {cells_walked} cells, {turns} turns");
    assert!(
        routes > 1_500 && turns > 2_000,
        "{routes} routes, {turns} turns"
    );
}

#[test]
fn chains_round_walls_keep_the_rule_untested() {
    // `wrap` takes its chain's segments as legal when the turn's two segments are
    // (its proof is in its docs): every such chain on random grids, units of sizes
    // 1-3 and dearer ground, against the testkit's own line of sight.
    let mut state = 11;
    let (mut chains, mut points, mut straight) = (0u32, 0u32, 0u32);
    let (mut corners, mut chain) = (Vec::new(), Vec::new());
    for _ in 0..4000 {
        let (w, h) = (4 + next(&mut state) % 28, 4 + next(&mut state) % 28);
        let density = 3 + next(&mut state) % 30;
        let grid = walled(&mut state, (w, h), density);
        let mobility =
            [Mobility::FLOOR_ONLY, Mobility::new([1, 2, 0, 0])][(next(&mut state) % 2) as usize];
        let size = [1, 1, 2, 3][(next(&mut state) % 4) as usize];
        let sight = Sight::new(&grid, mobility, size);
        let n = i64::from(size);
        let clear = |x: i64, y: i64| {
            (0..n).all(|dy| {
                (0..n).all(|dx| {
                    let c = Cell::new((x + dx) as i32, (y + dy) as i32);
                    x + dx >= 0
                        && y + dy >= 0
                        && grid.contains(c)
                        && grid.cost(c, mobility) == mobility.min_cost()
                })
            })
        };
        for _ in 0..100 {
            let mut point = || {
                (
                    (next(&mut state) % (2 * w + 1)) as i64,
                    (next(&mut state) % (2 * h + 1)) as i64,
                )
            };
            let (a, p, b) = (point(), point(), point());
            let seen = |s: (i64, i64), e: (i64, i64)| {
                sight.sees(
                    Waypoint::from_half_cells(s.0, s.1),
                    Waypoint::from_half_cells(e.0, e.1),
                )
            };
            // A route turns only where it may ([`Sight::can_turn_at`]).
            if !seen(a, p) || !seen(p, b) || !sight.can_turn_at(Waypoint::from_half_cells(p.0, p.1))
            {
                continue;
            }
            let mut work = 0;
            if super::taut::wrap(
                &sight,
                (a, p, b),
                false,
                (&mut corners, &mut chain),
                &mut work,
            )
            .is_none()
            {
                continue;
            }
            if chain.is_empty() {
                straight += 1;
            } else {
                chains += 1;
                points += chain.len() as u32;
            }
            let mut at = a;
            for &q in chain.iter().chain([b].iter()) {
                assert!(
                    tilepath_testkit::reference_sees(&clear, at, q),
                    "size {size}: {at:?} -> {q:?} of the chain {a:?} {chain:?} {b:?} (round {p:?}) \
                     breaks the rule"
                );
                at = q;
            }
        }
    }
    println!("{chains} chains round walls ({points} points), {straight} straight past them");
    assert!(chains > 3000 && straight > 3000, "{chains} / {straight}");
}
