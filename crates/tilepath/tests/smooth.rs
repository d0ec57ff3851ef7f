//! Any-angle routes against the truly shortest: on thousands of seeded random grids,
//! units of sizes 1-3, every pulled route keeps the segment rule (checked by the
//! testkit's own exact line-of-sight, not the library's), is never longer than the
//! 8-connected optimum, and is measured against the shortest any-angle route of a
//! visibility graph. Also: dearer ground is never crossed, and the library's line of
//! sight agrees with the reference on random segments, a unit walled in keeps its
//! step out of its cell, and a start or cells off the grid are left unpulled instead
//! of overflowing the exact geometry.

use rand::RngExt;
use tilepath::{
    AStar, Arrival, Cell, Clearance, Connectivity, Grid, Mobility, PathQuery, Sight, Smoother,
    Solver, TileKind, Waypoint,
};
use tilepath_testkit::*;

const GRIDS: u64 = 2000;

/// Distance in cells from `p` to the polyline `from`, `route...`.
fn distance_to_route(p: Waypoint, from: Waypoint, route: &[Waypoint]) -> f64 {
    let (px, py) = p.half_cells();
    let mut at = from;
    let mut best = f64::INFINITY;
    for &q in route {
        let ((ax, ay), (bx, by)) = (at.half_cells(), q.half_cells());
        let (dx, dy) = ((bx - ax) as f64, (by - ay) as f64);
        let (vx, vy) = ((px - ax) as f64, (py - ay) as f64);
        let len2 = dx * dx + dy * dy;
        let t = if len2 == 0.0 {
            0.0
        } else {
            ((vx * dx + vy * dy) / len2).clamp(0.0, 1.0)
        };
        let (ex, ey) = (vx - t * dx, vy - t * dy);
        best = best.min((ex * ex + ey * ey).sqrt() / 2.0);
        at = q;
    }
    best
}

fn length(from: Waypoint, route: &[Waypoint]) -> f64 {
    let mut at = from;
    route
        .iter()
        .map(|&p| {
            let l = at.distance(p);
            at = p;
            l
        })
        .sum()
}

#[test]
fn pulled_routes_are_legal_and_near_the_true_shortest() {
    let mut astar = AStar::new();
    let mut route = Vec::new();
    let mut smoother = Smoother::new();
    let (mut checked, mut straight, mut turning) = (0u32, 0u32, 0u32);
    let (mut sum_ratio, mut worst, mut worst_seed) = (0.0f64, 1.0f64, 0);
    let mut sum_grid_ratio = 0.0;
    let mut by_size = [0u32; 4];
    let (mut unplaced, mut unreached, mut beyond, mut walked) = (0u32, 0u32, 0u32, 0u32);
    for seed in 0..GRIDS {
        let mut rng = rng(seed);
        let (w, h) = (rng.random_range(6..=24), rng.random_range(6..=24));
        let walls = rng.random_range(0.05..0.35);
        let grid = random_grid(&mut rng, w, h, walls);
        // One cost for every kind it enters: the rule's "clear" is then "passable".
        let mobility = Mobility::new([1, 1, 1, 0]);
        let size = [1, 1, 2, 3][rng.random_range(0..4usize)];
        let clearance = Clearance::new(&grid, mobility);
        let clear = anchor_clear(&grid, mobility, size);
        let mut pick = || {
            (0..50)
                .map(|_| random_cell(&mut rng, &grid))
                .find(|c| clear(c.x.into(), c.y.into()))
        };
        let (Some(from), Some(to)) = (pick(), pick()) else {
            unplaced += 1;
            continue;
        };
        let mut query = PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight);
        if size > 1 {
            query = query.sized(clearance.footprint(size));
        }
        let r = astar.find(&grid, query).unwrap();
        if r.arrival != Arrival::Reached || from == to {
            unreached += 1;
            continue;
        }
        let sight = Sight::new(&grid, mobility, size);
        let start = Waypoint::centre_of(from);
        smoother.smooth(&sight, start, r.path.cells(from), &mut route);
        assert_eq!(route.last(), Some(&Waypoint::centre_of(to)), "seed {seed}");
        let mut at = start;
        for &p in &route {
            assert!(
                reference_sees(&clear, at.half_cells(), p.half_cells()),
                "seed {seed} size {size}: segment {at:?} -> {p:?} breaks the rule"
            );
            at = p;
        }
        // Walked as grid steps: legal by construction (or refused); they must be all
        // there, end at the goal and keep to the straight route.
        let (steps, whole) = sight
            .steps_along(from, &route)
            .unwrap_or_else(|| panic!("seed {seed} size {size}: no steps along {route:?}"));
        if whole {
            assert_eq!(steps.end(from), to, "seed {seed}");
            walked += 1;
        }
        for c in steps.cells(from) {
            let d = distance_to_route(Waypoint::centre_of(c), start, &route);
            assert!(
                d <= 1.0 + 1e-9,
                "seed {seed}: {c:?} is {d} cells off the route"
            );
        }
        let pulled = length(start, &route);
        assert!(
            pulled <= r.cost + 1e-9,
            "seed {seed}: {pulled} > grid {}",
            r.cost
        );
        let oracle = AnyAngleOracle::new(&clear, i64::from(w), i64::from(h));
        let best = oracle
            .shortest(
                &clear,
                start.half_cells(),
                Waypoint::centre_of(to).half_cells(),
                pulled + 1e-6,
            )
            .unwrap_or_else(|| panic!("seed {seed}: no route within the pulled one's length"));
        assert!(best <= pulled + 1e-9);
        let ratio = pulled / best;
        checked += 1;
        by_size[usize::from(size)] += 1;
        if route.len() == 1 {
            straight += 1;
        } else {
            turning += 1;
        }
        sum_ratio += ratio;
        sum_grid_ratio += r.cost / best;
        if ratio > 1.05 {
            beyond += 1;
        }
        if ratio > worst {
            (worst, worst_seed) = (ratio, seed);
        }
    }
    let mean = sum_ratio / f64::from(checked);
    println!(
        "{GRIDS} grids, {unplaced} where the unit hardly fits, {unreached} \
         unreachable or empty; {checked} routes (sizes 1/2/3: {}/{}/{}; {straight} one straight line, {turning} \
         turning): pulled / shortest mean {mean:.4}, worst {worst:.4} (seed {worst_seed}), \
         {beyond} beyond 1.05; 8-connected / shortest mean {:.4}; {walked} walked to the \
         goal in grid steps",
        by_size[1],
        by_size[2],
        by_size[3],
        sum_grid_ratio / f64::from(checked)
    );
    assert!(
        checked > GRIDS as u32 / 2 && turning > checked / 4,
        "too few routes checked"
    );
    assert!(mean <= 1.001, "mean ratio {mean}");
    // Pulled taut, a route is the shortest of those going the grid path's way round
    // every wall; where the truly shortest goes round the other side (the grid's
    // octile distances prefer another way than straight lines do) and the route is
    // more than 5% longer than the straight line, the smoother searches the wall
    // corners near that line (unless they are many) for a shorter one: no route
    // here may be more than 5% longer than the truly shortest.
    assert!(
        beyond == 0 && worst <= 1.05,
        "{beyond} of {checked} routes beyond 1.05 (worst {worst}, seed {worst_seed})"
    );
}

#[test]
fn sight_agrees_with_the_reference() {
    let (mut seen, mut blocked) = (0u32, 0u32);
    let (mut long, mut long_seen) = (0u32, 0u32);
    // Along a row (read a word at a time for one-cell units), and of those longer
    // than the 28 cells of one read.
    let (mut along, mut along_long) = (0u32, 0u32);
    for seed in 0..500 {
        let mut rng = rng(10_000 + seed);
        // One grid in five wide, with few walls: rows longer than the 56 cells the
        // library reads at a time, and long segments that are seen.
        let wide = seed % 5 == 4;
        let (w, h) = if wide {
            (rng.random_range(60..=200), rng.random_range(4..=24))
        } else {
            (rng.random_range(2..=16), rng.random_range(2..=16))
        };
        let walls = rng.random_range(0.0..if wide { 0.015 } else { 0.2 });
        let grid = random_grid(&mut rng, w, h, walls);
        // Mostly one cost for all it enters (clear is passable), else random costs.
        let mobility = if rng.random_bool(0.6) {
            Mobility::new([1, 1, 1, 0])
        } else {
            random_mobility(&mut rng, 3)
        };
        let size = [1, 1, 2, 3][rng.random_range(0..4usize)];
        let sight = Sight::new(&grid, mobility, size);
        let clear = anchor_clear(&grid, mobility, size);
        let point = |rng: &mut rand::rngs::StdRng| {
            Waypoint::from_half_cells(
                rng.random_range(-1..=2 * i64::from(w) + 1),
                rng.random_range(-1..=2 * i64::from(h) + 1),
            )
        };
        for _ in 0..200 {
            let a = point(&mut rng);
            // Mostly short segments: long ones are mostly blocked.
            let b = if rng.random_bool(0.7) {
                let (x, y) = a.half_cells();
                Waypoint::from_half_cells(
                    x + rng.random_range(-6..=6),
                    y + rng.random_range(-6..=6),
                )
            } else {
                point(&mut rng)
            };
            let expected = reference_sees(&clear, a.half_cells(), b.half_cells());
            let (dx, dy) = (
                b.half_cells().0 - a.half_cells().0,
                b.half_cells().1 - a.half_cells().1,
            );
            if dy == 0 && dx != 0 && size == 1 {
                along += 1;
                along_long += u32::from(dx.abs() > 2 * 28);
            }
            if (a.half_cells().0 - b.half_cells().0).abs() > 2 * 56 {
                long += 1;
                long_seen += u32::from(expected);
            }
            assert_eq!(sight.sees(a, b), expected, "seed {seed}: {a:?} -> {b:?}");
            assert_eq!(sight.sees(b, a), expected, "seed {seed}: {b:?} -> {a:?}");
            if expected {
                seen += 1;
            } else {
                blocked += 1;
            }
        }
    }
    println!(
        "{seen} segments seen, {blocked} blocked; {long} longer than 56 cells across, \
         {long_seen} of them seen; {along} along a row for a one-cell unit, {along_long} \
         of them longer than 28 cells"
    );
    assert!(
        along > 1_000 && along_long > 20,
        "too few segments along a row"
    );
    assert!(seen > 10_000 && blocked > 10_000, "too few of one kind");
    assert!(
        long_seen > 300 && long - long_seen > 300,
        "too few long segments"
    );
}

#[test]
fn dearer_ground_keeps_its_grid_steps() {
    // A mud patch (kind 1, cost 3) in an open field: the straight line would cross it.
    let grid = Grid::from_ascii(
        "..........\n..........\n...mmmm...\n...mmmm...\n..........\n..........",
        |c| Some(if c == 'm' { TileKind::K1 } else { TileKind::K0 }),
    )
    .unwrap();
    let mobility = Mobility::new([1, 3, 0, 0]);
    let sight = Sight::new(&grid, mobility, 1);
    let (from, to) = (Cell::new(0, 3), Cell::new(9, 2));
    let r = AStar::new()
        .find(
            &grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
        )
        .unwrap();
    let mut route = Vec::new();
    Smoother::new().smooth(
        &sight,
        Waypoint::centre_of(from),
        r.path.cells(from),
        &mut route,
    );
    let mut at = Waypoint::centre_of(from);
    for &p in &route {
        assert!(sight.sees(at, p), "{at:?} -> {p:?}");
        at = p;
    }
    assert!(length(Waypoint::centre_of(from), &route) <= r.cost);
    // Through the mud on foot: a path that must cross it keeps grid steps there.
    let walled = Grid::from_ascii("mmm\n###\n...", |c| {
        Some(match c {
            'm' => TileKind::K1,
            '#' => TileKind::K3,
            _ => TileKind::K0,
        })
    })
    .unwrap();
    let sight = Sight::new(&walled, mobility, 1);
    let mut route = Vec::new();
    let cells = [Cell::new(1, 0), Cell::new(2, 0)];
    Smoother::new().smooth(
        &sight,
        Waypoint::centre_of(Cell::new(0, 0)),
        cells,
        &mut route,
    );
    assert_eq!(route, cells.map(Waypoint::centre_of));
}

#[test]
fn a_unit_walled_in_steps_out_before_it_goes_straight() {
    // A wall placed under a standing unit: its path steps out of the walled cell
    // (grid steps may leave a cell that is not passable), so the route may not cut
    // across that cell: it keeps the step out, then goes straight.
    let grid = Grid::from_ascii(".....\n.....\n..#..\n.....", |c| {
        Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
    })
    .unwrap();
    let sight = Sight::new(&grid, Mobility::FLOOR_ONLY, 1);
    let (from, to) = (Cell::new(2, 2), Cell::new(4, 1));
    let r = AStar::new()
        .find(
            &grid,
            PathQuery::new(from, to, Mobility::FLOOR_ONLY).connectivity(Connectivity::Eight),
        )
        .unwrap();
    assert_eq!(r.arrival, Arrival::Reached);
    let mut route = Vec::new();
    let start = Waypoint::centre_of(from);
    Smoother::new().smooth(&sight, start, r.path.cells(from), &mut route);
    assert_eq!(route.last(), Some(&Waypoint::centre_of(to)));
    // The first segment is the path's own step out; the rest are seen.
    let out = route[0].cell().expect("a cell's centre");
    assert!(
        out.x.abs_diff(from.x) <= 1 && out.y.abs_diff(from.y) <= 1,
        "{route:?}"
    );
    let mut at = route[0];
    for &p in &route[1..] {
        assert!(sight.sees(at, p), "{at:?} -> {p:?} in {route:?}");
        at = p;
    }
}

#[test]
fn points_off_the_grid_are_not_pulled() {
    let grid = Grid::from_ascii("........\n..##....\n....#...\n........", |c| {
        Some(if c == '#' { TileKind::K1 } else { TileKind::K0 })
    })
    .unwrap();
    let sight = Sight::new(&grid, Mobility::FLOOR_ONLY, 1);
    let mut smoother = Smoother::new();
    let mut route = Vec::new();
    let cells = [
        Cell::new(1, 0),
        Cell::new(2, 0),
        Cell::new(3, 0),
        Cell::new(4, 1),
        Cell::new(5, 2),
        Cell::new(6, 3),
    ];
    // Where the grid path turns, and its end: what an off-grid start gets.
    let turns = [Cell::new(1, 0), Cell::new(3, 0), Cell::new(6, 3)].map(Waypoint::centre_of);
    let far = [
        (-1, -1),
        (17, 3),
        (1_000_000, 3),
        (-(1 << 40), 1 << 40),
        (i64::MAX, i64::MIN),
        (i64::MIN, i64::MAX),
    ];
    for (x2, y2) in far {
        smoother.smooth(&sight, Waypoint::from_half_cells(x2, y2), cells, &mut route);
        assert_eq!(route, turns, "from ({x2}, {y2})");
    }
    // Cells off the grid, as far as cells go.
    let off = [Cell::new(i32::MAX - 1, 0), Cell::new(i32::MAX, 0)];
    smoother.smooth(
        &sight,
        Waypoint::centre_of(Cell::new(0, 0)),
        off,
        &mut route,
    );
    assert_eq!(route, off.map(Waypoint::centre_of));
    // On the grid the same path is pulled: turning at the walls' corners.
    let start = Waypoint::centre_of(Cell::new(0, 0));
    smoother.smooth(&sight, start, cells, &mut route);
    assert_eq!(route.last(), turns.last());
    assert!(
        route[..route.len() - 1].iter().all(|p| p.is_corner()),
        "{route:?}"
    );
    assert!(length(start, &route) < length(start, &turns));
}
