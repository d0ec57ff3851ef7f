//! The next-hop table against a reference Dijkstra from every cell: every pair's first
//! step lies on a cheapest path (the first such in direction order), following steps
//! reaches the target at exactly the cheapest cost, unreachable pairs are reported as
//! such; and after random edits the repaired table answers exactly like a fresh build.

use rand::RngExt;
use tilepath::{
    Cell, Connectivity, Direction8, Encoding, Grid, Mobility, NextHopTable, TableCells, TableError,
    TileKind,
};
use tilepath_testkit::*;

/// Distances from every cell: `all[s][t]`.
fn all_pairs(grid: &Grid, mobility: Mobility, eight: bool) -> Vec<Vec<Option<f64>>> {
    (0..grid.len())
        .map(|i| reference_dijkstra(grid, mobility, grid.cell_of(i).unwrap(), eight, |_| true))
        .collect()
}

fn step_cost(grid: &Grid, mobility: Mobility, to: Cell, dir: Direction8) -> f64 {
    let c = f64::from(grid.cost(to, mobility));
    if dir.is_diagonal() {
        c * std::f64::consts::SQRT_2
    } else {
        c
    }
}

/// The first direction (code order) from `s` onto a cheapest path to `t`.
fn reference_step(
    grid: &Grid,
    mobility: Mobility,
    eight: bool,
    all: &[Vec<Option<f64>>],
    s: Cell,
    t: Cell,
) -> Option<Direction8> {
    let si = grid.index_of(s)?;
    let ti = grid.index_of(t)?;
    let ok = |c: Cell| grid.is_passable(c, mobility);
    let here = all[si][ti]?;
    if si == ti || !ok(s) || !ok(t) {
        return None;
    }
    Direction8::ALL.into_iter().find(|&d| {
        if d.is_diagonal() && !eight {
            return false;
        }
        let n = s.step(d);
        if !ok(n) {
            return false;
        }
        if d.is_diagonal() {
            let (dx, dy) = d.offset();
            if !ok(Cell::new(s.x + dx, s.y)) || !ok(Cell::new(s.x, s.y + dy)) {
                return false;
            }
        }
        let ni = grid.index_of(n).unwrap();
        all[ni][ti].is_some_and(|dn| close(dn + step_cost(grid, mobility, n, d), here))
    })
}

/// Checks every ordered pair of `table` against the reference.
fn check_table(grid: &Grid, mobility: Mobility, eight: bool, table: &NextHopTable) -> usize {
    let all = all_pairs(grid, mobility, eight);
    let mut reachable = 0;
    for si in 0..grid.len() {
        let s = grid.cell_of(si).unwrap();
        for ti in 0..grid.len() {
            let t = grid.cell_of(ti).unwrap();
            let open = grid.is_passable(s, mobility) && grid.is_passable(t, mobility);
            let want = if open { all[si][ti] } else { None };
            assert_eq!(
                table.is_reachable(s, t),
                want.is_some(),
                "{s}->{t}: reachability"
            );
            let step = table.next_step(s, t);
            assert_eq!(
                step,
                reference_step(grid, mobility, eight, &all, s, t),
                "{s}->{t}: first step (distance {want:?})"
            );
            if let Some(d) = want {
                reachable += 1;
                // Following the table reaches t at exactly the cheapest cost.
                let (end, cost) = walk(grid, mobility, s, table.hops(s, t).map(|(d, _)| d));
                assert_eq!(end, t, "{s}->{t}: the hops end elsewhere");
                assert!(close(cost, d), "{s}->{t}: hops cost {cost}, cheapest {d}");
                assert!(close(table.distance(s, t).unwrap(), d));
            }
        }
    }
    reachable
}

fn mobility_for(rng: &mut rand::rngs::StdRng, weighted: bool) -> Mobility {
    if weighted {
        random_mobility(rng, 9)
    } else {
        Mobility::new([1, 1, 1, 0])
    }
}

#[test]
fn every_pair_matches_reference_dijkstra() {
    let (mut pairs, mut branch_cells, mut slots) = (0, 0, 0);
    for seed in 0..48u64 {
        let mut rng = rng(seed);
        let kind = seed % 4; // open, 30% walls, maze, random walls
        let (w, h) = (rng.random_range(1..14), rng.random_range(1..14));
        let walls = rng.random_range(0.0..0.5);
        let grid = match kind {
            0 => random_grid(&mut rng, w, h, 0.0),
            1 => random_grid(&mut rng, 13, 11, 0.3),
            2 => maze_grid(&mut rng, 7, 6, 0.1),
            _ => random_grid(&mut rng, 12, 12, walls),
        };
        let weighted = seed % 3 == 0;
        let mobility = mobility_for(&mut rng, weighted);
        for eight in [false, true] {
            let connectivity = if eight {
                Connectivity::Eight
            } else {
                Connectivity::Four
            };
            let table = NextHopTable::builder(mobility)
                .connectivity(connectivity)
                .threads(1 + (seed % 3) as usize)
                .build(&grid)
                .unwrap();
            let expected = match (
                eight,
                weighted && mobility.min_cost() != mobility.max_cost(),
            ) {
                (true, _) => Encoding::Directions8,
                (false, true) => Encoding::Directions4,
                (false, false) => Encoding::DistanceMod3,
            };
            assert_eq!(table.encoding(), expected);
            pairs += check_table(&grid, mobility, eight, &table);
            branch_cells += table.branch_cells();
            slots += table.table_cells();
        }
    }
    assert!(pairs > 100_000, "only {pairs} reachable pairs checked");
    // Both kinds of cell were checked in quantity: dead-end branches and the core.
    assert!(
        branch_cells > 1_000 && slots > 5_000,
        "{branch_cells} branch cells, {slots} slots"
    );
}

#[test]
fn thread_count_does_not_change_the_table() {
    let mut rng = rng(7);
    let grid = random_grid(&mut rng, 40, 37, 0.25);
    for mobility in [Mobility::new([1, 1, 1, 0]), Mobility::new([1, 3, 7, 0])] {
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let build = |threads| {
                NextHopTable::builder(mobility)
                    .connectivity(connectivity)
                    .threads(threads)
                    .build(&grid)
                    .unwrap()
            };
            let one = build(1);
            for threads in [2, 3, 8] {
                let many = build(threads);
                for _ in 0..20_000 {
                    let (s, t) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
                    assert_eq!(one.next_step(s, t), many.next_step(s, t));
                }
            }
        }
    }
}

/// Applies random edits and compares the repaired table with a fresh build after each.
/// Returns the targets recomputed and the edits repaired in place on a table with
/// branch cells.
fn check_edits(
    seed: u64,
    slots: TableCells,
    connectivity: Connectivity,
    weighted: bool,
) -> (usize, usize) {
    let mut rng = rng(seed);
    let kind = seed % 3;
    let mut grid = match kind {
        0 => random_grid(&mut rng, 14, 12, 0.0),
        1 => random_grid(&mut rng, 13, 13, 0.3),
        _ => maze_grid(&mut rng, 7, 7, 0.15),
    };
    let mobility = mobility_for(&mut rng, weighted);
    let builder = NextHopTable::builder(mobility)
        .connectivity(connectivity)
        .table_cells(slots)
        .threads(1 + (seed % 2) as usize);
    let mut table = builder.build(&grid).unwrap();
    let mut recomputed = 0;
    let mut branch_edits = 0;
    for _ in 0..25 {
        let mut changed = Vec::new();
        for _ in 0..rng.random_range(1..3) {
            let c = random_cell(&mut rng, &grid);
            let kind = TileKind::new(rng.random_range(0..4u8)).unwrap();
            grid.set(c, kind).unwrap();
            changed.push(c);
        }
        let branches_before = table.branch_cells();
        let stats = table.repair(&grid, &changed).unwrap();
        if !stats.rebuilt && branches_before > 0 {
            branch_edits += 1;
        }
        recomputed += stats.targets_recomputed;
        let fresh = builder.build(&grid).unwrap();
        for si in 0..grid.len() {
            let s = grid.cell_of(si).unwrap();
            for ti in 0..grid.len() {
                let t = grid.cell_of(ti).unwrap();
                assert_eq!(
                    table.next_step(s, t),
                    fresh.next_step(s, t),
                    "seed {seed}: {s}->{t} after editing {changed:?} ({stats:?})"
                );
                assert_eq!(table.is_reachable(s, t), fresh.is_reachable(s, t));
            }
        }
        assert_eq!(table.components(), fresh.components());
    }
    (recomputed, branch_edits)
}

#[test]
fn repaired_tables_equal_fresh_builds() {
    let mut branch_edits = 0;
    for seed in 0..24 {
        for slots in [TableCells::Passable, TableCells::AllCells] {
            for (connectivity, weighted) in [
                (Connectivity::Four, false),
                (Connectivity::Four, true),
                (Connectivity::Eight, seed % 2 == 0),
            ] {
                branch_edits += check_edits(seed, slots, connectivity, weighted).1;
            }
        }
    }
    // Edits to tables with dead-end branches were repaired, not only rebuilt.
    assert!(branch_edits > 200, "{branch_edits}");
}

#[test]
fn a_maze_without_loops_needs_no_pair_entries() {
    let mut rng = rng(11);
    let mut grid = maze_grid(&mut rng, 8, 8, 0.0);
    let mobility = Mobility::FLOOR_ONLY;
    let open = (0..grid.len())
        .filter(|&i| grid.is_passable(grid.cell_of(i).unwrap(), mobility))
        .count();
    let builder = NextHopTable::builder(mobility);
    let estimate = builder.estimate(&grid);
    let mut table = builder.build(&grid).unwrap();
    assert_eq!((table.table_cells(), table.branch_cells()), (0, open));
    assert_eq!((estimate.table_cells, estimate.table_bytes), (0, 0));
    // Memory grows with the cells, not the pairs: a 79x79 maze (3,199 open cells,
    // whose pair entries would take 2 MB) takes under 40 bytes a cell.
    let big = maze_grid(&mut rng, 40, 40, 0.0);
    let big_table = builder.build(&big).unwrap();
    assert_eq!(big_table.table_cells(), 0);
    assert!(
        big_table.memory_bytes() < 40 * big.len(),
        "{}",
        big_table.memory_bytes()
    );
    assert_eq!(table.components(), 1);
    check_table(&grid, mobility, false, &table);
    // Blocking a corridor cell splits the tree in two, repaired in place.
    let cut = (0..grid.len())
        .map(|i| grid.cell_of(i).unwrap())
        .find(|&c| grid.is_passable(c, mobility) && c.x % 2 == 1)
        .unwrap();
    grid.set(cut, TileKind::K3).unwrap();
    let stats = table.repair(&grid, &[cut]).unwrap();
    assert!(!stats.rebuilt && stats.targets_recomputed == 0, "{stats:?}");
    assert_eq!(table.components(), 2);
    check_table(&grid, mobility, false, &table);
    // Reopening it (a branch cell may close a loop) rebuilds.
    grid.set(cut, TileKind::K0).unwrap();
    assert!(table.repair(&grid, &[cut]).unwrap().rebuilt);
    check_table(&grid, mobility, false, &table);
}

#[test]
fn a_blocked_cell_in_the_open_is_patched_not_recomputed() {
    let mut grid = Grid::new(30, 30).unwrap();
    let mobility = Mobility::FLOOR_ONLY;
    let mut table = NextHopTable::builder(mobility)
        .table_cells(TableCells::AllCells)
        .build(&grid)
        .unwrap();
    let c = Cell::new(15, 15);
    grid.set(c, TileKind::K3).unwrap();
    let stats = table.repair(&grid, &[c]).unwrap();
    assert_eq!(stats.targets_recomputed, 0, "{stats:?}");
    assert_eq!(stats.targets_patched, 899);
    // Only the cells straight behind the wall get farther, for targets in line.
    assert!(stats.entries_patched < 899 * 4, "{stats:?}");
    grid.set(c, TileKind::K0).unwrap();
    let stats = table.repair(&grid, &[c]).unwrap();
    assert_eq!(
        stats.targets_recomputed, 1,
        "only the reopened cell's own row: {stats:?}"
    );
    let fresh = NextHopTable::builder(mobility).build(&grid).unwrap();
    for s in [Cell::new(0, 15), Cell::new(29, 15), Cell::new(15, 0)] {
        for t in [Cell::new(29, 15), Cell::new(0, 15), Cell::new(15, 29)] {
            assert_eq!(table.next_step(s, t), fresh.next_step(s, t));
        }
    }
}

#[test]
fn bad_input_gives_clear_results() {
    let grid = Grid::from_ascii("..#\n.##\n#..", |c| {
        Some(if c == '#' { TileKind::K3 } else { TileKind::K0 })
    })
    .unwrap();
    let mobility = Mobility::FLOOR_ONLY;
    let table = NextHopTable::builder(mobility).build(&grid).unwrap();
    let (a, b) = (Cell::new(0, 0), Cell::new(2, 2));
    // Outside, blocked, unreachable, same cell.
    assert_eq!(table.next_step(Cell::new(-1, 0), a), None);
    assert_eq!(table.next_step(a, Cell::new(3, 0)), None);
    assert_eq!(table.next_step(a, Cell::new(2, 0)), None);
    assert!(!table.is_reachable(a, b));
    assert_eq!(table.next_step(a, b), None);
    assert_eq!(table.hops(a, b).count(), 0);
    assert_eq!(table.distance(a, b), None);
    assert_eq!(table.next_step(a, a), None);
    assert!(table.is_reachable(a, a));
    assert_eq!(table.distance(a, a), Some(0.0));
    assert_eq!(table.components(), 2);
    assert_eq!(table.dangling().collect::<Vec<_>>(), [Cell::new(1, 2), b]);
    // Empty grids.
    for (w, h) in [(0, 0), (0, 5), (5, 0)] {
        let empty = Grid::new(w, h).unwrap();
        let t = NextHopTable::builder(mobility).build(&empty).unwrap();
        assert_eq!(t.table_cells(), 0);
        assert_eq!(t.next_step(a, a), None);
    }
    // An entirely blocked grid.
    let walls = Grid::filled(6, 6, TileKind::K3).unwrap();
    let t = NextHopTable::builder(mobility).build(&walls).unwrap();
    assert_eq!((t.table_cells(), t.components()), (0, 0));
    // Too large: refused before anything is allocated, with the figure.
    let huge = Grid::new(4096, 4096).unwrap();
    let estimate = NextHopTable::builder(mobility).estimate(&huge);
    assert_eq!(estimate.table_cells, 4096 * 4096);
    assert!(estimate.table_bytes > 50_000_000_000_000);
    match NextHopTable::builder(mobility).build(&huge) {
        Err(TableError::TooLarge { needed, limit }) => {
            assert_eq!(needed, estimate.total_bytes);
            assert_eq!(limit, 1 << 30);
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    let small = NextHopTable::builder(mobility).memory_limit(1000);
    assert!(matches!(
        small.build(&Grid::new(100, 100).unwrap()),
        Err(TableError::TooLarge { limit: 1000, .. })
    ));
    // Updating with another grid size.
    let mut table = table;
    assert!(matches!(
        table.repair(&Grid::new(4, 4).unwrap(), &[a]),
        Err(TableError::GridMismatch(_))
    ));
    // Edits outside the grid are ignored.
    assert_eq!(table.repair(&grid, &[Cell::new(9, 9)]).unwrap().edits, 0);
}

#[test]
fn step_away_never_gets_closer() {
    for (seed, connectivity, mobility) in [
        (1, Connectivity::Four, Mobility::new([1, 1, 1, 0])),
        (2, Connectivity::Four, Mobility::new([1, 4, 2, 0])),
        (3, Connectivity::Eight, Mobility::new([1, 1, 1, 0])),
    ] {
        let mut rng = rng(seed);
        let grid = random_grid(&mut rng, 20, 20, 0.25);
        let eight = connectivity == Connectivity::Eight;
        let all = all_pairs(&grid, mobility, eight);
        let table = NextHopTable::builder(mobility)
            .connectivity(connectivity)
            .build(&grid)
            .unwrap();
        let mut moved = 0;
        for _ in 0..2000 {
            let (s, t) = (random_cell(&mut rng, &grid), random_cell(&mut rng, &grid));
            let (si, ti) = (grid.index_of(s).unwrap(), grid.index_of(t).unwrap());
            match table.step_away(s, t) {
                Some(d) => {
                    let n = s.step(d);
                    let dn = all[grid.index_of(n).unwrap()][ti].unwrap();
                    assert!(dn >= all[si][ti].unwrap() - 1e-9, "{s} away from {t}");
                    moved += 1;
                }
                None => {
                    // Cornered: every open neighbour is closer (or t cannot reach s).
                    if let Some(here) = all[si][ti].filter(|_| grid.is_passable(s, mobility)) {
                        for d in Direction8::ALL {
                            if d.is_diagonal() && !eight {
                                continue;
                            }
                            let n = s.step(d);
                            if table.is_reachable(s, n) && s.chebyshev(n) == 1 && !d.is_diagonal() {
                                let dn = all[grid.index_of(n).unwrap()][ti].unwrap();
                                assert!(dn < here, "{s} had a way away from {t}");
                            }
                        }
                    }
                }
            }
        }
        assert!(moved > 500);
    }
}

#[test]
fn paths_come_in_gridpath_chunks() {
    let grid = Grid::new(100, 3).unwrap();
    let table = NextHopTable::builder(Mobility::FLOOR_ONLY)
        .build(&grid)
        .unwrap();
    let (mut at, to) = (Cell::new(0, 0), Cell::new(99, 2));
    let mut steps = 0;
    loop {
        let chunk = table.path(at, to);
        if chunk.is_empty() {
            break;
        }
        assert!(chunk.len() == 56 || chunk.end(at) == to);
        steps += chunk.len();
        at = chunk.end(at);
    }
    assert_eq!((at, steps), (to, 101));
    let p8 = table.path8(Cell::new(0, 0), Cell::new(3, 0));
    assert_eq!(p8.len(), 3);
}

#[test]
fn a_door_opened_in_a_maze_is_patched_not_recomputed() {
    let mut rng = rng(4);
    let mut grid = maze_grid(&mut rng, 9, 9, 0.0);
    let mobility = Mobility::new([1, 1, 1, 0]);
    let builder = NextHopTable::builder(mobility).table_cells(TableCells::AllCells);
    let mut table = builder.build(&grid).unwrap();
    let mut doors = 0;
    for i in 0..grid.len() {
        let c = grid.cell_of(i).unwrap();
        let open_sides = [
            Direction8::Right,
            Direction8::Up,
            Direction8::Left,
            Direction8::Down,
        ]
        .into_iter()
        .filter(|&d| grid.is_passable(c.step(d), mobility))
        .count();
        // A wall between two corridors of the same (only) component.
        if grid.is_passable(c, mobility) || open_sides != 2 || doors == 6 {
            continue;
        }
        grid.set(c, TileKind::K0).unwrap();
        let stats = table.repair(&grid, &[c]).unwrap();
        assert_eq!(
            stats.targets_recomputed, 1,
            "only the door's own row: {stats:?}"
        );
        assert!(stats.targets_patched > 100);
        let fresh = builder.build(&grid).unwrap();
        for si in 0..grid.len() {
            for ti in 0..grid.len() {
                let (s, t) = (grid.cell_of(si).unwrap(), grid.cell_of(ti).unwrap());
                assert_eq!(table.next_step(s, t), fresh.next_step(s, t), "{s}->{t}");
            }
        }
        doors += 1;
    }
    assert_eq!(doors, 6);
}

// ----- the memory limit agrees with the estimate -----

/// Builds with `builder`'s estimate as its memory limit, and checks that setting limits
/// leaves the estimate as it was.
fn check_limit_at_estimate(grid: &Grid, builder: tilepath::TableBuilder, what: &str) {
    let estimate = builder.estimate(grid);
    for limit in [
        0,
        1,
        estimate.total_bytes.saturating_sub(1),
        estimate.total_bytes,
        estimate.total_bytes / 2,
        u64::MAX,
    ] {
        assert_eq!(
            builder.memory_limit(limit).estimate(grid),
            estimate,
            "{what}: the estimate changed with a limit of {limit}"
        );
    }
    let table = builder.memory_limit(estimate.total_bytes).build(grid);
    let table = match table {
        Ok(table) => table,
        Err(e) => panic!(
            "{what}: refused at its own estimate of {} bytes: {e}",
            estimate.total_bytes
        ),
    };
    assert_eq!(table.table_cells() as u64, estimate.table_cells, "{what}");
    assert!(
        table.memory_bytes() as u64 <= estimate.total_bytes,
        "{what}"
    );
    // One byte less is refused, with a figure above that limit and at most the estimate.
    if let Some(limit) = estimate.total_bytes.checked_sub(1) {
        match builder.memory_limit(limit).build(grid) {
            Err(TableError::TooLarge { needed, limit: l }) => {
                assert_eq!(l, limit, "{what}");
                assert!(
                    needed > limit && needed <= estimate.total_bytes,
                    "{what}: needed {needed}, limit {limit}"
                );
            }
            other => panic!("{what}: expected TooLarge below the estimate, got {other:?}"),
        }
    }
}

#[test]
fn a_table_with_one_branch_cell_builds_at_its_estimate() {
    // One open cell, no pair entries: the build needs no thread scratch.
    let grid = Grid::from_ascii("0000000010000", |c| TileKind::new(c.to_digit(10)? as u8)).unwrap();
    let builder = NextHopTable::builder(Mobility::new([0, 2, 1, 0])).threads(1);
    let estimate = builder.estimate(&grid);
    assert_eq!((estimate.table_cells, estimate.table_bytes), (0, 0));
    let table = builder.memory_limit(estimate.total_bytes).build(&grid);
    assert!(table.is_ok(), "{:?} at {estimate:?}", table.err());
    check_limit_at_estimate(&grid, builder, "13x1");
}

#[test]
fn a_maze_without_loops_builds_at_its_estimate() {
    // A perfect maze (a tree, no pair entries) in a 64x64 map.
    let maze = maze_grid(&mut rng(36), 28, 28, 0.0);
    let mut grid = Grid::filled(64, 64, TileKind::K3).unwrap();
    for i in 0..maze.len() {
        let c = maze.cell_of(i).unwrap();
        grid.set(c, maze.get(c).unwrap()).unwrap();
    }
    let builder = NextHopTable::builder(Mobility::FLOOR_ONLY);
    let estimate = builder.estimate(&grid);
    assert_eq!(estimate.table_cells, 0);
    let table = builder.memory_limit(estimate.total_bytes).build(&grid);
    assert!(table.is_ok(), "{:?} at {estimate:?}", table.err());
    check_limit_at_estimate(&grid, builder, "64x64 maze");
}

#[test]
fn a_limit_at_the_estimate_always_builds() {
    let mut rng = rng(3636);
    let mut built = [0usize; 2]; // without, with pair entries
    for round in 0..600 {
        let (w, h) = (rng.random_range(0..=20), rng.random_range(0..=20));
        let (kind, loops, walls) = (
            rng.random_range(0..4),
            rng.random_range(0.0..0.3),
            rng.random_range(0.0..1.0),
        );
        let grid = match kind {
            0 if w >= 2 && h >= 2 => maze_grid(&mut rng, w / 2, h / 2, loops),
            // Mostly walls: few entries, many branches.
            1 => random_grid(&mut rng, w, h, 0.6 + 0.4 * walls),
            _ => random_grid(&mut rng, w, h, 0.6 * walls),
        };
        let mobility = if rng.random_bool(0.3) {
            Mobility::FLOOR_ONLY
        } else {
            random_mobility(&mut rng, 9)
        };
        let connectivity = if rng.random_bool(0.5) {
            Connectivity::Four
        } else {
            Connectivity::Eight
        };
        let cells = if rng.random_bool(0.25) {
            TableCells::AllCells
        } else {
            TableCells::Passable
        };
        let threads = rng.random_range(0..=4);
        let builder = NextHopTable::builder(mobility)
            .connectivity(connectivity)
            .table_cells(cells)
            .threads(threads);
        let what = format!(
            "round {round}: {}x{} {mobility:?} {connectivity:?} {cells:?} {threads} threads",
            grid.width(),
            grid.height()
        );
        check_limit_at_estimate(&grid, builder, &what);
        built[usize::from(builder.estimate(&grid).table_cells > 0)] += 1;
    }
    // Both kinds of table were covered.
    assert!(built[0] > 50 && built[1] > 50, "{built:?}");
}
