//! Distance fields: oracle tests against a plain multi-source Dijkstra, Moving AI
//! optimal lengths, repairs compared with full recomputes, bounded fields, bad input.

use rand::RngExt;
use rand::rngs::StdRng;
use std::collections::BinaryHeap;
use tilepath::{
    Cell, Connectivity, Direction8, DistanceField, FieldError, FieldState, Grid, GridMismatch,
    Mobility, Region, TileKind,
};
use tilepath_testkit::*;

/// Reference: the cost from every cell to the cheapest goal (`start + route`), where a
/// step costs the cell it enters (times sqrt 2 diagonally, no corner cutting), over
/// the cells `allowed` says yes to.
fn reference_field(
    grid: &Grid,
    mobility: Mobility,
    goals: &[(Cell, u32)],
    eight: bool,
    allowed: impl Fn(Cell) -> bool,
) -> Vec<Option<f64>> {
    reference_field_sized(grid, mobility, 1, goals, eight, allowed)
}

/// [`reference_field`] for units of `size x size` cells: a cell is open when the
/// footprint anchored there is, and entering it costs the footprint's cost (both
/// checked cell by cell, [`footprint_cost`]).
fn reference_field_sized(
    grid: &Grid,
    mobility: Mobility,
    size: u8,
    goals: &[(Cell, u32)],
    eight: bool,
    allowed: impl Fn(Cell) -> bool,
) -> Vec<Option<f64>> {
    let cost = |c: Cell| footprint_cost(grid, mobility, c, size);
    let ok = |c: Cell| cost(c) != 0 && allowed(c);
    let w = grid.width() as usize;
    let mut dist: Vec<Option<f64>> = vec![None; grid.len()];
    let mut heap = BinaryHeap::new();
    for &(g, s) in goals {
        if ok(g) {
            let i = grid.index_of(g).unwrap();
            if dist[i].is_none_or(|d| f64::from(s) < d) {
                dist[i] = Some(f64::from(s));
                heap.push(E(f64::from(s), i));
            }
        }
    }
    while let Some(E(d, i)) = heap.pop() {
        if dist[i].is_some_and(|x| x < d) {
            continue;
        }
        let n = Cell::new((i % w) as i32, (i / w) as i32);
        let enter = f64::from(cost(n));
        for dir in Direction8::ALL {
            if dir.is_diagonal() && !eight {
                continue;
            }
            let c = n.step(dir);
            if !ok(c) {
                continue;
            }
            let mut step = enter;
            if dir.is_diagonal() {
                let (dx, dy) = dir.offset();
                if !ok(Cell::new(n.x + dx, n.y)) || !ok(Cell::new(n.x, n.y + dy)) {
                    continue;
                }
                step *= std::f64::consts::SQRT_2;
            }
            let ci = grid.index_of(c).unwrap();
            let nd = d + step;
            if dist[ci].is_none_or(|x| nd < x - 1e-9) {
                dist[ci] = Some(nd);
                heap.push(E(nd, ci));
            }
        }
    }
    dist
}

fn conn(eight: bool) -> Connectivity {
    if eight {
        Connectivity::Eight
    } else {
        Connectivity::Four
    }
}

/// Every cell's distance matches the reference, and walking downhill from every
/// reached cell reaches a goal at exactly that cost.
fn check_field(
    grid: &Grid,
    field: &DistanceField,
    reference: &[Option<f64>],
    goals: &[(Cell, u32)],
) {
    let mobility = field.mobility();
    // A cache hint changes nothing, for any cell (off the grid, its first and last rows).
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    for c in [
        Cell::new(-1, 0),
        Cell::new(w, h - 1),
        Cell::new(0, h),
        Cell::new(i32::MAX, 3),
    ] {
        field.prefetch(c);
    }
    for (i, &expected) in reference.iter().enumerate() {
        let c = grid.cell_of(i).unwrap();
        field.prefetch(c);
        let got = field.distance(c);
        match (got, expected) {
            (None, None) => {}
            (Some(a), Some(b)) => assert!(close(a, b), "{c}: field {a}, reference {b}"),
            (a, b) => panic!("{c}: field {a:?}, reference {b:?}"),
        }
        let Some(d) = got else { continue };
        // Follow next_step to a goal; the route's cost plus the goal's start is d.
        let mut at = c;
        let mut cost = 0.0;
        for _ in 0..grid.len() {
            let Some(dir) = field.next_step(at) else {
                break;
            };
            let size = field.unit_size();
            let (end, step) = walk_sized(grid, mobility, size, at, std::iter::once(dir));
            cost += step;
            at = end;
        }
        let start = goals
            .iter()
            .filter(|(g, _)| *g == at)
            .map(|&(_, s)| f64::from(s))
            .fold(f64::INFINITY, f64::min);
        assert!(
            start.is_finite(),
            "walking downhill from {c} stopped at {at}, not a goal"
        );
        assert!(
            close(cost + start, d),
            "downhill from {c}: {cost} + start {start} != {d}"
        );
    }
}

fn random_goals(rng: &mut StdRng, grid: &Grid, n: usize) -> Vec<(Cell, u32)> {
    (0..n)
        .map(|_| {
            (
                random_cell(rng, grid),
                if rng.random_bool(0.5) {
                    0
                } else {
                    rng.random_range(0..30)
                },
            )
        })
        .collect()
}

fn build(grid: &Grid, mobility: Mobility, eight: bool, goals: &[(Cell, u32)]) -> DistanceField {
    let mut f = DistanceField::new(grid, mobility, conn(eight));
    for &(g, s) in goals {
        f.add_goal(g, s);
    }
    f.compute(grid).unwrap();
    f
}

/// Goals as the field keeps them: one per cell, the last start value given.
fn dedup(goals: &[(Cell, u32)]) -> Vec<(Cell, u32)> {
    let mut out: Vec<(Cell, u32)> = Vec::new();
    for &(g, s) in goals {
        out.retain(|&(c, _)| c != g);
        out.push((g, s));
    }
    out
}

#[test]
fn fields_match_reference_dijkstra_on_random_grids() {
    let (mut checked, mut sized) = (0, 0);
    for seed in 0..400u64 {
        let mut rng = rng(1000 + seed);
        let (w, h) = (rng.random_range(1..=40), rng.random_range(1..=40));
        let walls = rng.random_range(0.0..0.4);
        let grid = random_grid(&mut rng, w, h, walls);
        let mobility = if rng.random_bool(0.3) {
            Mobility::new([1, 1, 1, 0]) // uniform cost: the breadth-first sweep
        } else {
            let max = [2, 9, 255][rng.random_range(0..3usize)];
            random_mobility(&mut rng, max)
        };
        let n = rng.random_range(0..5);
        let goals = dedup(&random_goals(&mut rng, &grid, n));
        for eight in [false, true] {
            let field = build(&grid, mobility, eight, &goals);
            let reference = reference_field(&grid, mobility, &goals, eight, |_| true);
            check_field(&grid, &field, &reference, &goals);
            checked += 1;
            // The same goals for a bigger unit.
            let size = rng.random_range(2..=4);
            let mut big = DistanceField::new(&grid, mobility, conn(eight))
                .with_unit_size(size)
                .unwrap();
            for &(g, s) in &goals {
                big.add_goal(g, s);
            }
            big.compute(&grid).unwrap();
            let reference = reference_field_sized(&grid, mobility, size, &goals, eight, |_| true);
            check_field(&grid, &big, &reference, &goals);
            sized += 1;
        }
    }
    println!("checked {checked} fields and {sized} fields for bigger units cell for cell");
}

#[test]
fn uniform_cost_fields_match_too() {
    // One cost for every open cell: the breadth-first sweep (4-connected, several
    // goals at the same start) and the two-FIFO Dijkstra (8-connected, or goals at
    // different starts), on open and cluttered maps.
    for seed in 0..200u64 {
        let mut rng = rng(7000 + seed);
        let walls = [0.03, 0.3][(seed % 2) as usize];
        let grid = random_grid(&mut rng, 50, 40, walls);
        // Below 1 blocked cell in 16 the field takes its branchy loops.
        let mobility = Mobility::new(if walls < 0.1 {
            [2, 2, 2, 0]
        } else {
            [2, 2, 0, 0]
        });
        let same_start = seed % 4 < 2;
        let goals: Vec<(Cell, u32)> = dedup(
            &(0..16)
                .map(|_| {
                    let start = if same_start {
                        3
                    } else {
                        rng.random_range(0..20)
                    };
                    (random_cell(&mut rng, &grid), start)
                })
                .collect::<Vec<_>>(),
        );
        for eight in [false, true] {
            let field = build(&grid, mobility, eight, &goals);
            check_field(
                &grid,
                &field,
                &reference_field(&grid, mobility, &goals, eight, |_| true),
                &goals,
            );
        }
    }
}

#[test]
fn repairs_equal_full_recomputes_after_every_edit() {
    let mut edits = 0;
    for seed in 0..60u64 {
        let mut rng = rng(3000 + seed);
        let eight = seed % 2 == 1;
        let (w, h) = (rng.random_range(5..=30), rng.random_range(5..=30));
        let mut grid = random_grid(&mut rng, w, h, 0.25);
        let max = [1, 5, 200][rng.random_range(0..3usize)];
        let mobility = random_mobility(&mut rng, max);
        let bounded = seed % 5 == 0;
        // Units of 1 to 3 cells a side: an edit changes the footprint costs of every
        // unit whose footprint covers it.
        let size = [1, 1, 2, 3][(seed % 4) as usize];
        let make = |grid: &Grid| {
            let f = if bounded {
                DistanceField::bounded(
                    grid,
                    mobility,
                    conn(eight),
                    Region::new(Cell::new(2, 1), Cell::new(20, 25)),
                )
            } else {
                DistanceField::new(grid, mobility, conn(eight))
            };
            let f = f.with_unit_size(size).unwrap();
            if seed % 3 == 0 {
                f.with_max_distance(25.0)
            } else {
                f
            }
        };
        let mut field = make(&grid);
        let mut goals = dedup(&random_goals(&mut rng, &grid, 3));
        for &(g, s) in &goals {
            field.add_goal(g, s);
        }
        field.compute(&grid).unwrap();
        for _ in 0..60 {
            match rng.random_range(0..10) {
                0..=5 => {
                    // Change one to three cells.
                    let n = rng.random_range(1..=3);
                    let cells: Vec<Cell> = (0..n).map(|_| random_cell(&mut rng, &grid)).collect();
                    for &c in &cells {
                        grid.set(c, TileKind::new(rng.random_range(0..4)).unwrap())
                            .unwrap();
                    }
                    field.repair(&grid, &cells).unwrap();
                }
                6 | 7 => {
                    let g = (random_cell(&mut rng, &grid), rng.random_range(0..20));
                    field.add_goal(g.0, g.1);
                    goals.retain(|&(c, _)| c != g.0);
                    goals.push(g);
                }
                _ => {
                    if let Some(&(g, _)) = goals.get(rng.random_range(0..goals.len().max(1))) {
                        field.remove_goal(g);
                        goals.retain(|&(c, _)| c != g);
                    }
                }
            }
            let mut fresh = make(&grid);
            for &(g, s) in &goals {
                fresh.add_goal(g, s);
            }
            fresh.compute(&grid).unwrap();
            for i in 0..grid.len() {
                let c = grid.cell_of(i).unwrap();
                assert_eq!(
                    field.units(c),
                    fresh.units(c),
                    "seed {seed}: {c} differs after an edit"
                );
            }
            edits += 1;
        }
    }
    println!("{edits} edits repaired, each identical to a full recompute");
}

#[test]
fn a_small_edit_repairs_a_small_area() {
    let grid = Grid::new(200, 200).unwrap();
    let mut field = DistanceField::new(&grid, Mobility::FLOOR_ONLY, Connectivity::Four);
    field.add_goal(Cell::new(100, 100), 0);
    let full = field.compute(&grid).unwrap();
    let mut grid = grid;
    // A wall cell near the edge, away from the goal: only a thin shadow changes.
    grid.set(Cell::new(190, 100), TileKind::K1).unwrap();
    let s = field.repair(&grid, &[Cell::new(190, 100)]).unwrap();
    assert!(
        s.cells_invalidated + s.cells_updated < full.cells_updated / 100,
        "{s:?} vs {full:?}"
    );
    grid.set(Cell::new(190, 100), TileKind::K0).unwrap();
    let s = field.repair(&grid, &[Cell::new(190, 100)]).unwrap();
    assert!(s.cells_updated < full.cells_updated / 100, "{s:?}");
}

/// A wall that cuts the goal off from most of the map: the repair stops discarding
/// values cell by cell (several times a computation's work a cell) and computes the
/// field afresh, with the same values as a fresh field, for no more than about twice a
/// computation's work; opening the wall again repairs (or computes) back to the start.
#[test]
fn a_cut_that_drops_most_of_a_field_computes_it_afresh() {
    for eight in [false, true] {
        let mut grid = Grid::new(256, 256).unwrap();
        let wall: Vec<Cell> = (0..256)
            .filter(|&y| y != 128)
            .map(|y| Cell::new(40, y))
            .collect();
        for &c in &wall {
            grid.set(c, TileKind::K1).unwrap();
        }
        let goal = Cell::new(5, 128);
        let fresh = |grid: &Grid| build(grid, Mobility::FLOOR_ONLY, eight, &[(goal, 0)]);
        let mut field = fresh(&grid);
        let full = field.compute(&grid).unwrap();
        let gap = Cell::new(40, 128);
        for kind in [TileKind::K1, TileKind::K0, TileKind::K1] {
            grid.set(gap, kind).unwrap();
            let s = field.repair(&grid, &[gap]).unwrap();
            let again = fresh(&grid);
            for i in 0..grid.len() {
                let c = grid.cell_of(i).unwrap();
                assert_eq!(
                    field.units(c),
                    again.units(c),
                    "{c} after setting the gap {kind:?}"
                );
            }
            // Closing drops 84% of the cells: a repair cell by cell would discard them
            // all; it gives up after 1 in 32 (at least 4,096) and computes instead.
            assert!(
                s.cells_invalidated <= (grid.len() / 32).max(4096),
                "{kind:?}: {s:?}"
            );
            assert!(
                s.cells_invalidated + s.cells_updated <= 2 * full.cells_updated + grid.len() / 16,
                "{kind:?}: {s:?} against a computation's {full:?}"
            );
            println!("eight {eight}, gap {kind:?}: {s:?} (a computation: {full:?})");
        }
    }
}

/// `repair_within` repairs as `repair` does where the repair stays local, and gives up
/// (the field stale, answering nothing) where `repair` computes in full (a cut off part
/// too large) or past its own bound; computed again, the field is the one `repair`
/// gives.
#[test]
fn a_repair_that_would_compute_in_full_can_give_up_instead() {
    let mut grid = Grid::new(256, 256).unwrap();
    for y in (0..256).filter(|&y| y != 128) {
        grid.set(Cell::new(40, y), TileKind::K1).unwrap();
    }
    let goal = Cell::new(5, 128);
    let mut repaired = build(&grid, Mobility::FLOOR_ONLY, true, &[(goal, 0)]);
    let mut gave_up = repaired.clone();
    // A wall in the open: local, the same work and values.
    let near = Cell::new(100, 60);
    grid.set(near, TileKind::K1).unwrap();
    let a = repaired.repair(&grid, &[near]).unwrap();
    let b = gave_up.repair_within(&grid, &[near], usize::MAX).unwrap();
    assert_eq!(Some(a), b);
    // The gap closed: most of the field is cut off.
    let gap = Cell::new(40, 128);
    grid.set(gap, TileKind::K1).unwrap();
    repaired.repair(&grid, &[gap]).unwrap();
    assert_eq!(
        gave_up.repair_within(&grid, &[gap], usize::MAX).unwrap(),
        None
    );
    assert_eq!(gave_up.state(), FieldState::Stale);
    assert_eq!(gave_up.units(Cell::new(10, 10)), None);
    gave_up.compute(&grid).unwrap();
    for i in 0..grid.len() {
        let c = grid.cell_of(i).unwrap();
        assert_eq!(gave_up.units(c), repaired.units(c), "{c}");
    }
    // Opened again: a local repair.
    grid.set(gap, TileKind::K0).unwrap();
    assert!(
        gave_up
            .repair_within(&grid, &[gap], usize::MAX)
            .unwrap()
            .is_some()
    );
    // A short wall discards the values of the cells in its shadow: repaired, unless
    // bounded below what it discards.
    let wall: Vec<Cell> = (100..120).map(|y| Cell::new(200, y)).collect();
    for &c in &wall {
        grid.set(c, TileKind::K1).unwrap();
    }
    let mut bounded = gave_up.clone();
    let s = gave_up.repair_within(&grid, &wall, usize::MAX).unwrap();
    assert!(s.is_some_and(|s| s.cells_invalidated > 0), "{s:?}");
    assert_eq!(bounded.repair_within(&grid, &wall, 0).unwrap(), None);
    // A stale field gives up at once.
    gave_up.clear_goals();
    gave_up.add_goal(goal, 0);
    assert_eq!(
        gave_up.repair_within(&grid, &[near], usize::MAX).unwrap(),
        None
    );
}

#[test]
fn bounded_fields_and_max_distance() {
    let mut rng = rng(11);
    let grid = random_grid(&mut rng, 60, 60, 0.2);
    let mobility = Mobility::new([1, 2, 3, 0]);
    let region = Region::around(Cell::new(30, 30), 10);
    let goals = [(Cell::new(30, 30), 0)];
    let mut f = DistanceField::bounded(&grid, mobility, Connectivity::Eight, region);
    f.add_goal(goals[0].0, 0);
    f.compute(&grid).unwrap();
    let reference = reference_field(&grid, mobility, &goals, true, |c| region.contains(c));
    check_field(&grid, &f, &reference, &goals);
    assert_eq!(f.region(), region);
    assert!(f.distance(Cell::new(5, 5)).is_none());

    let mut near = DistanceField::new(&grid, mobility, Connectivity::Four).with_max_distance(7.0);
    near.add_goal(goals[0].0, 0);
    near.compute(&grid).unwrap();
    let full = reference_field(&grid, mobility, &goals, false, |_| true);
    for (i, d) in full.iter().enumerate() {
        let c = grid.cell_of(i).unwrap();
        let expected = d.filter(|&d| d <= 7.0);
        assert_eq!(near.distance(c), expected, "{c}");
    }
}

#[test]
fn flee_fields_lead_away_and_out_of_dead_ends() {
    // A corridor with the threat at 45: right of it only a 2-cell pocket, left of it
    // 44 cells. Running into the pocket is a dead end; the flee field runs past the
    // threat to the long side instead, and holds still only at its far end.
    let corridor = |wall: Option<i32>| {
        Grid::from_fn(52, 3, |c| {
            let open = c.y == 1 && (1..=50).contains(&c.x) && Some(c.x) != wall;
            if open { TileKind::K0 } else { TileKind::K1 }
        })
        .unwrap()
    };
    let grid = corridor(Some(48));
    let mut flee = DistanceField::new(&grid, Mobility::FLOOR_ONLY, Connectivity::Four);
    flee.add_goal(Cell::new(45, 1), 0);
    flee.flee(&grid, 1.2).unwrap();
    assert!(flee.is_flee());
    assert_eq!(
        flee.next_step(Cell::new(47, 1)),
        Some(Direction8::Left),
        "out of the pocket"
    );
    assert_eq!(flee.next_step(Cell::new(46, 1)), Some(Direction8::Left));
    assert_eq!(flee.next_step(Cell::new(30, 1)), Some(Direction8::Left));
    assert_eq!(
        flee.next_step(Cell::new(1, 1)),
        None,
        "the far end is the safest place"
    );
    assert!(flee.distance(Cell::new(1, 1)).unwrap() < flee.distance(Cell::new(47, 1)).unwrap());
    // With the pocket opened into a long right side, the same cell flees right; the
    // edit is picked up by repair (a flee field is rebuilt in full).
    let grid = corridor(None);
    flee.repair(&grid, &[Cell::new(48, 1)]).unwrap();
    assert_eq!(flee.next_step(Cell::new(47, 1)), Some(Direction8::Left));
    let mut f2 = DistanceField::new(&grid, Mobility::FLOOR_ONLY, Connectivity::Four);
    f2.add_goal(Cell::new(10, 1), 0);
    f2.flee(&grid, 1.2).unwrap();
    assert_eq!(f2.next_step(Cell::new(12, 1)), Some(Direction8::Right));
    assert_eq!(
        f2.next_step(Cell::new(8, 1)),
        Some(Direction8::Right),
        "past the threat"
    );
}

#[test]
fn combined_fields_weigh_goals_against_repellers() {
    let grid = Grid::new(21, 3).unwrap();
    let mut chase = DistanceField::new(&grid, Mobility::FLOOR_ONLY, Connectivity::Four);
    chase.add_goal(Cell::new(20, 1), 0);
    chase.compute(&grid).unwrap();
    let mut repel = DistanceField::new(&grid, Mobility::FLOOR_ONLY, Connectivity::Four);
    repel.add_goal(Cell::new(12, 1), 0); // a completed goal, now a repeller
    repel.flee(&grid, 1.2).unwrap();
    let alone = tilepath::combined_next_step(&[(&chase, 1.0)], Cell::new(10, 1));
    assert_eq!(alone, Some(Direction8::Right));
    // Weighted heavily, the repeller wins and the unit backs away from it.
    let here = Cell::new(10, 1);
    let scared = tilepath::combined_next_step(&[(&chase, 1.0), (&repel, 3.0)], here).unwrap();
    assert!(here.step(scared).manhattan(Cell::new(12, 1)) > here.manhattan(Cell::new(12, 1)));
}

#[test]
fn bad_input_has_documented_results() {
    let mut grid = Grid::new(10, 10).unwrap();
    grid.set(Cell::new(3, 3), TileKind::K1).unwrap();
    let mobility = Mobility::FLOOR_ONLY;
    // Unit sizes: 0 and past MAX_UNIT_SIZE are errors that change nothing; a goal a
    // 2x2 footprint cannot occupy is ignored, as a blocked one is.
    let f = DistanceField::new(&grid, mobility, Connectivity::Four);
    for size in [0, tilepath::MAX_UNIT_SIZE + 1] {
        let err = f.clone().with_unit_size(size).unwrap_err();
        assert_eq!(err, FieldError::InvalidUnitSize { size });
        assert!(!err.to_string().is_empty());
    }
    let mut big = f.clone().with_unit_size(2).unwrap();
    assert_eq!(big.unit_size(), 2);
    big.add_goal(Cell::new(2, 2), 0); // covers the wall at (3, 3)
    big.add_goal(Cell::new(9, 0), 0); // reaches past the grid
    big.add_goal(Cell::new(5, 5), 0);
    let s = big.compute(&grid).unwrap();
    assert_eq!((s.goals_used, s.goals_ignored), (1, 2));
    assert_eq!(big.distance(Cell::new(8, 8)), Some(6.0));
    assert_eq!(big.distance(Cell::new(2, 2)), None);
    assert_eq!(big.distance(Cell::new(9, 9)), None);
    // No goals: everything unreachable, no steps.
    let mut f = DistanceField::new(&grid, mobility, Connectivity::Four);
    let s = f.compute(&grid).unwrap();
    assert_eq!((s.goals_used, s.goals_ignored), (0, 0));
    assert_eq!(f.distance(Cell::new(1, 1)), None);
    assert_eq!(f.next_step(Cell::new(1, 1)), None);
    // Goals outside the grid are dropped; on a blocked cell, ignored until it opens.
    f.add_goal(Cell::new(-1, 4), 0);
    f.add_goal(Cell::new(10, 4), 0);
    f.add_goal(Cell::new(3, 3), 0);
    let s = f.compute(&grid).unwrap();
    assert_eq!((s.goals_used, s.goals_ignored), (0, 1));
    assert_eq!(f.goals().count(), 1);
    assert_eq!(f.distance(Cell::new(3, 4)), None);
    grid.set(Cell::new(3, 3), TileKind::K0).unwrap();
    f.repair(&grid, &[Cell::new(3, 3)]).unwrap();
    assert_eq!(f.distance(Cell::new(3, 5)), Some(2.0));
    // A unit standing on a cell that just closed still gets a way out.
    grid.set(Cell::new(3, 5), TileKind::K1).unwrap();
    f.repair(&grid, &[Cell::new(3, 5)]).unwrap();
    assert_eq!(f.distance(Cell::new(3, 5)), None);
    assert_eq!(f.next_step(Cell::new(3, 5)), Some(Direction8::Down));
    // Queries outside the field.
    assert_eq!(f.next_step(Cell::new(-5, 0)), None);
    assert_eq!(f.distance(Cell::new(0, 100)), None);
    assert!(f.path(Cell::new(50, 50)).is_empty());
    // A grid of another size.
    let other = Grid::new(5, 5).unwrap();
    assert_eq!(
        f.compute(&other),
        Err(FieldError::GridMismatch(GridMismatch {
            expected: (10, 10),
            found: (5, 5)
        }))
    );
    // Fully blocked and empty grids.
    let walls = Grid::filled(8, 8, TileKind::K1).unwrap();
    let mut f = DistanceField::new(&walls, mobility, Connectivity::Eight);
    f.add_goal(Cell::new(2, 2), 0);
    assert_eq!(f.compute(&walls).unwrap().goals_ignored, 1);
    assert_eq!(f.next_step(Cell::new(1, 1)), None);
    let empty = Grid::new(0, 0).unwrap();
    let mut f = DistanceField::new(&empty, mobility, Connectivity::Four);
    f.add_goal(Cell::new(0, 0), 0);
    assert_eq!(f.compute(&empty).unwrap(), Default::default());
    assert_eq!(f.distance(Cell::new(0, 0)), None);
}

#[test]
fn moving_ai_distances_from_the_goal() {
    // All scenarios of the Dragon Age maps, every 40th of the 512x512 ones; the full
    // set runs in `every_moving_ai_distance`.
    let mut checked = 0;
    for (map, stride) in [
        ("arena.map", 1),
        ("den312d.map", 1),
        ("lak303d.map", 1),
        ("maze512-1-0.map", 39),
        ("random512-10-0.map", 5),
        ("32room_000.map", 6),
    ] {
        checked += check_movingai(map, stride);
    }
    println!("checked {checked} Moving AI scenarios");
    assert!(checked > 2_400);
}

#[test]
#[ignore = "takes a few minutes; run before resolving field changes"]
fn every_moving_ai_distance() {
    let mut checked = 0;
    for map in MOVING_AI_MAPS {
        checked += check_movingai(map, 1);
    }
    println!("checked {checked} Moving AI scenarios");
    assert!(checked > 17_000);
}

fn check_movingai(map: &str, stride: usize) -> usize {
    let grid = load_movingai(map);
    let mut field = DistanceField::new(&grid, Mobility::FLOOR_ONLY, Connectivity::Eight);
    let mut n = 0;
    for s in load_scenarios(map).iter().step_by(stride) {
        field.clear_goals();
        field.add_goal(s.goal, 0);
        field.compute(&grid).unwrap();
        let d = field.distance(s.start);
        if s.optimal == 0.0 && s.start != s.goal {
            assert_eq!(
                d, None,
                "{map}: {} -> {} should be unreachable",
                s.start, s.goal
            );
        } else {
            let d = d.unwrap_or_else(|| panic!("{map}: {} unreachable from {}", s.start, s.goal));
            assert!(
                (d - s.optimal).abs() <= 1e-5 * s.optimal + 0.01,
                "{map}: {} -> {}: {d} vs {}",
                s.start,
                s.goal,
                s.optimal
            );
        }
        n += 1;
    }
    n
}
