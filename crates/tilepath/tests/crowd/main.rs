//! The crowd solver: invariants after every step (seeded, with edits, mixed sizes,
//! agents added and removed), zero allocation per step, determinism and bad input;
//! the scenarios a crowd must get through are in `scenarios.rs`, crowds on hex maps
//! in `hex.rs`.

use rand::RngExt;
use std::collections::HashMap;
use tilepath::{
    AgentId, AgentSpec, AgentStatus, Cell, Connectivity, Crowd, CrowdError, Direction8, GoalFields,
    Grid, HexLayout, Mobility, TileKind,
};
use tilepath_testkit::*;

mod hex;
mod parts;
mod scenarios;
mod untangle;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// A grid from rows (`#` wall, anything else floor), row 0 first.
fn map(rows: &[&str]) -> Grid {
    Grid::from_ascii(&rows.join("\n"), |c| {
        Some(if c == '#' { TileKind::K3 } else { TileKind::K0 })
    })
    .unwrap()
}

fn cells(at: Cell, size: u8) -> impl Iterator<Item = Cell> {
    let n = i32::from(size);
    (0..n).flat_map(move |dy| (0..n).map(move |dx| Cell::new(at.x + dx, at.y + dy)))
}

fn overlap(a: Cell, sa: u8, b: Cell, sb: u8) -> bool {
    let (sa, sb) = (i32::from(sa), i32::from(sb));
    a.x < b.x + sb && b.x < a.x + sa && a.y < b.y + sb && b.y < a.y + sa
}

/// What the invariant checks counted.
#[derive(Default, Debug)]
struct Coverage {
    steps: u64,
    moves: u64,
    diagonal: u64,
    sized: u64,
    out_of_walls: u64,
}

/// Checks a step: from the agents as they were (`before`) to the crowd now, on
/// `grid` as the step saw it. Panics on a broken invariant. Every move is one step
/// of the agent's connectivity: on squares one `Grid::can_step_sized` allows (never
/// diagonal for a 4-connected agent), on a hex map a step of the layout
/// (`HexLayout::is_step`) of a one-cell agent onto a cell it may enter.
fn check_step(grid: &Grid, crowd: &Crowd, before: &[(AgentId, AgentSpec)], cov: &mut Coverage) {
    cov.steps += 1;
    let mut old_at = HashMap::new();
    let mut new_at = HashMap::new();
    for &(id, spec) in before {
        let now = crowd.agent(id).expect("an agent vanished in a step");
        assert_eq!(crowd.previous_cell(id), Some(spec.cell));
        for c in cells(spec.cell, spec.size) {
            old_at.insert(c, id);
        }
        for c in cells(now.cell, now.size) {
            assert!(grid.contains(c), "{id:?} left the grid");
            let other = new_at.insert(c, id);
            assert!(other.is_none(), "{id:?} and {other:?} both hold {c}");
            assert_eq!(crowd.holder(c), Some(id), "holder of {c}");
            assert_eq!(crowd.holder_slot(c), Some(id.index()), "slot holding {c}");
        }
    }
    assert_eq!(
        new_at.len(),
        (0..grid.len())
            .filter(|&i| { crowd.holder(grid.cell_of(i).unwrap()).is_some() })
            .count(),
        "the crowd holds cells no agent stands on"
    );
    let mut movers = Vec::new();
    for &(id, spec) in before {
        let now = crowd.cell(id).unwrap();
        if now == spec.cell {
            continue;
        }
        let d = (now.x - spec.cell.x, now.y - spec.cell.y);
        let dir = Direction8::ALL
            .into_iter()
            .find(|x| x.offset() == d)
            .unwrap_or_else(|| panic!("{id:?} jumped {d:?}"));
        match spec.connectivity {
            Connectivity::Hex(layout) => assert!(
                spec.size == 1
                    && layout.is_step(spec.cell, dir)
                    && grid.is_passable(now, spec.mobility),
                "{id:?} of size {} made a step {} -> {now} that is no legal {layout:?} step",
                spec.size,
                spec.cell
            ),
            conn => {
                assert!(
                    !dir.is_diagonal() || conn == Connectivity::Eight,
                    "a 4-connected agent stepped diagonally"
                );
                assert!(
                    grid.can_step_sized(spec.cell, dir, spec.mobility, spec.size),
                    "{id:?} of size {} made an illegal step {} -> {now}",
                    spec.size,
                    spec.cell
                );
            }
        }
        if !grid.fits(spec.cell, spec.mobility, spec.size) {
            cov.out_of_walls += 1;
        }
        cov.moves += 1;
        cov.diagonal += u64::from(dir.is_diagonal());
        cov.sized += u64::from(spec.size > 1);
        movers.push((id, spec.cell, now, spec.size));
    }
    for (i, &(a, a0, a1, sa)) in movers.iter().enumerate() {
        for &(b, b0, b1, sb) in &movers[i + 1..] {
            assert!(
                !(overlap(a1, sa, b0, sb) && overlap(b1, sb, a0, sa)),
                "{a:?} and {b:?} swapped: {a0}->{a1}, {b0}->{b1}"
            );
        }
        if a0.x != a1.x && a0.y != a1.y {
            // The corner cells the diagonal step passes between.
            let n = i32::from(sa);
            let (dx, dy) = (a1.x - a0.x, a1.y - a0.y);
            let (new_col, old_col) = if dx > 0 {
                (a0.x + n, a0.x)
            } else {
                (a0.x - 1, a0.x + n - 1)
            };
            let (new_row, old_row) = if dy > 0 {
                (a0.y + n, a0.y)
            } else {
                (a0.y - 1, a0.y + n - 1)
            };
            let (p, q) = (Cell::new(new_col, old_row), Cell::new(old_col, new_row));
            for (x, y) in [(p, q), (q, p)] {
                if let (Some(k), Some(k2)) = (old_at.get(&x), new_at.get(&y)) {
                    assert!(k != k2 || *k == a, "{k:?} crossed {a:?}'s diagonal step");
                }
            }
        }
    }
}

/// A free anchor for a unit of `size` on `grid`, or `None` after some tries.
fn free_anchor(
    rng: &mut rand::rngs::StdRng,
    grid: &Grid,
    crowd: &Crowd,
    size: u8,
    mobility: Mobility,
) -> Option<Cell> {
    (0..200).find_map(|_| {
        let c = random_cell(rng, grid);
        (grid.fits(c, mobility, size) && cells(c, size).all(|x| crowd.holder(x).is_none()))
            .then_some(c)
    })
}

/// Walls 12 random cells or opens them (half and half, under agents too) and repairs
/// `fields`: the cells edited.
fn toggle_walls(rng: &mut rand::rngs::StdRng, grid: &mut Grid, fields: &mut GoalFields) -> usize {
    let mut changed = Vec::new();
    for _ in 0..12 {
        let c = random_cell(rng, grid);
        let kind = if rng.random_bool(0.5) {
            TileKind::K3
        } else {
            TileKind::K0
        };
        grid.set(c, kind).unwrap();
        changed.push(c);
    }
    fields.repair(grid, &changed).unwrap();
    changed.len()
}

/// Steps until every agent stands on its goal (`Some(steps)`), at most `limit`,
/// checking the invariants on the way.
fn run_to_goals(grid: &Grid, crowd: &mut Crowd, limit: u64) -> Option<u64> {
    let mut fields = GoalFields::new();
    fields.update(grid, crowd).unwrap();
    let mut cov = Coverage::default();
    for step in 1..=limit {
        let before: Vec<_> = crowd.agents().collect();
        let stats = crowd.step(grid, &fields).unwrap();
        check_step(grid, crowd, &before, &mut cov);
        if stats.arrived == crowd.len() {
            return Some(step);
        }
    }
    None
}

/// 40 agents of `connectivity` set off from the top rows of an open 30x30 grid for
/// one goal at its centre, stepped 300 times with every step checked: the crowd, its
/// fields, the agents and what was checked.
fn gather_from_one_side(
    connectivity: Connectivity,
) -> (Grid, Crowd, GoalFields, Vec<AgentId>, Coverage) {
    let grid = Grid::new(30, 30).unwrap();
    let goal = Cell::new(15, 15);
    let mut crowd = Crowd::new(&grid).unwrap();
    let ids: Vec<_> = (0..40)
        .map(|i| {
            let spec = AgentSpec::new(Cell::new(i % 30, i / 30))
                .connectivity(connectivity)
                .goal(goal);
            crowd.add(&grid, spec).unwrap()
        })
        .collect();
    let mut fields = GoalFields::new();
    fields.update(&grid, &crowd).unwrap();
    let mut cov = Coverage::default();
    for _ in 0..300 {
        let before: Vec<_> = crowd.agents().collect();
        crowd.step(&grid, &fields).unwrap();
        check_step(&grid, &crowd, &before, &mut cov);
    }
    (grid, crowd, fields, ids, cov)
}

#[test]
fn invariants_hold_after_every_step() {
    let mut cov = Coverage::default();
    let (mut edits, mut added, mut removed, mut arrived) = (0, 0, 0, 0);
    for seed in 0..6u64 {
        let mut rng = rng(1000 + seed);
        let mut grid = random_grid(&mut rng, 40, 32, 0.12);
        let mobility = Mobility::new([1, 2, 4, 0]);
        let mut crowd = Crowd::new(&grid).unwrap();
        let mut fields = GoalFields::new();
        let mut ids = Vec::new();
        let spawn = |rng: &mut rand::rngs::StdRng, grid: &Grid, crowd: &mut Crowd| {
            let size = *[1u8, 1, 1, 2, 3].get(rng.random_range(0..5)).unwrap();
            let conn = if rng.random_bool(0.5) {
                Connectivity::Eight
            } else {
                Connectivity::Four
            };
            let at = free_anchor(rng, grid, crowd, size, mobility)?;
            let goal = free_anchor(rng, grid, crowd, size, mobility).unwrap_or(at);
            let spec = AgentSpec::new(at)
                .size(size)
                .mobility(mobility)
                .connectivity(conn)
                .goal(goal);
            crowd.add(grid, spec).ok()
        };
        for _ in 0..120 {
            ids.extend(spawn(&mut rng, &grid, &mut crowd));
        }
        fields.update(&grid, &crowd).unwrap();
        for step in 0..600 {
            if step % 25 == 24 {
                // Walls come and go, under agents too.
                edits += toggle_walls(&mut rng, &mut grid, &mut fields);
                // Some leave, some come, some get new goals.
                for _ in 0..6 {
                    let k = rng.random_range(0..ids.len());
                    let id = ids.swap_remove(k);
                    crowd.remove(id).unwrap();
                    assert_eq!(crowd.remove(id), Err(CrowdError::UnknownAgent(id)));
                    removed += 1;
                }
                for _ in 0..6 {
                    if let Some(id) = spawn(&mut rng, &grid, &mut crowd) {
                        ids.push(id);
                        added += 1;
                    }
                }
                for _ in 0..4 {
                    let id = ids[rng.random_range(0..ids.len())];
                    let goal = random_cell(&mut rng, &grid);
                    crowd.set_goal(id, Some(goal)).unwrap();
                }
                fields.update(&grid, &crowd).unwrap();
            }
            let before: Vec<_> = crowd.agents().collect();
            let stats = crowd.step(&grid, &fields).unwrap();
            check_step(&grid, &crowd, &before, &mut cov);
            assert_eq!(stats.moved, crowd.moves().count());
            if step == 599 {
                arrived += stats.arrived;
            }
        }
    }
    println!(
        "crowd invariants: {cov:?}, {edits} cells edited, {added} agents added, {removed} removed, {arrived} on their goals at the end"
    );
    assert!(cov.moves > 20_000 && cov.diagonal > 1000 && cov.sized > 1000 && cov.out_of_walls > 0);
}

/// Adds up to `n` agents of mobility `m` at random free anchors of `grid`: one in 7 of
/// size 2, one in 3 8-connected, the `k`-th heading for `goal(k, rng)`.
fn add_mixed_agents(
    rng: &mut rand::rngs::StdRng,
    grid: &Grid,
    crowd: &mut Crowd,
    n: i32,
    m: Mobility,
    mut goal: impl FnMut(i32, &mut rand::rngs::StdRng) -> Cell,
) {
    for k in 0..n {
        let size = if k % 7 == 0 { 2 } else { 1 };
        let conn = if k % 3 == 0 {
            Connectivity::Eight
        } else {
            Connectivity::Four
        };
        if let Some(at) = free_anchor(rng, grid, crowd, size, m) {
            let goal = goal(k, rng);
            let _ = crowd.add(
                grid,
                AgentSpec::new(at)
                    .size(size)
                    .mobility(m)
                    .connectivity(conn)
                    .goal(goal),
            );
        }
    }
}

/// The moves of `n` steps of a seeded crowd (sizes 1 and 2, 4- and 8-connected) on a
/// random map walled a cell more every 50 steps.
fn moves_of_a_run(seed: u64, n: usize) -> Vec<(AgentId, Cell, Cell)> {
    let mut rng = rng(seed);
    let mut grid = random_grid(&mut rng, 48, 48, 0.15);
    let m = Mobility::new([1, 3, 5, 0]);
    let mut crowd = Crowd::new(&grid).unwrap();
    add_mixed_agents(&mut rng, &grid, &mut crowd, 300, m, |_, rng| {
        random_cell(rng, &grid)
    });
    moves_of(&mut rng, &mut grid, &mut crowd, n)
}

/// The moves of `n` steps of `crowd` on `grid`, guided by its goals' fields, a
/// random cell walled every 50 steps.
fn moves_of(
    rng: &mut rand::rngs::StdRng,
    grid: &mut Grid,
    crowd: &mut Crowd,
    n: usize,
) -> Vec<(AgentId, Cell, Cell)> {
    let mut fields = GoalFields::new();
    fields.update(grid, crowd).unwrap();
    let mut all = Vec::new();
    for step in 0..n {
        if step % 50 == 49 {
            let c = random_cell(rng, grid);
            grid.set(c, TileKind::K3).unwrap();
            fields.repair(grid, &[c]).unwrap();
        }
        crowd.step(grid, &fields).unwrap();
        all.extend(crowd.moves());
    }
    all
}

#[test]
fn the_same_inputs_give_the_same_moves() {
    let a = moves_of_a_run(3, 300);
    let b = moves_of_a_run(3, 300);
    println!("determinism: {} moves compared", a.len());
    assert!(a.len() > 5_000);
    assert_eq!(a, b);
}

#[test]
fn a_step_allocates_nothing_after_warm_up() {
    let mut rng = rng(11);
    let grid = random_grid(&mut rng, 64, 64, 0.1);
    let m = Mobility::new([1, 2, 3, 0]);
    let mut crowd = Crowd::new(&grid).unwrap();
    for k in 0..600 {
        let size = [1, 1, 1, 2, 3][k % 5];
        let conn = if k % 2 == 0 {
            Connectivity::Eight
        } else {
            Connectivity::Four
        };
        if let Some(at) = free_anchor(&mut rng, &grid, &crowd, size, m) {
            // Few goals, so that crowds gather and push.
            let goal = Cell::new(8 + 16 * (k % 4) as i32, 32);
            let _ = crowd.add(
                &grid,
                AgentSpec::new(at)
                    .size(size)
                    .mobility(m)
                    .connectivity(conn)
                    .goal(goal),
            );
        }
    }
    let mut fields = GoalFields::new();
    fields.update(&grid, &crowd).unwrap();
    for _ in 0..200 {
        crowd.step(&grid, &fields).unwrap();
    }
    let mut moved = 0;
    let n = allocations_in(|| {
        for _ in 0..500 {
            moved += crowd.step(&grid, &fields).unwrap().moved;
            moved += crowd.stuck().count();
        }
        // Steps planned in parts too.
        for _ in 0..200 {
            crowd.begin_step();
            while crowd.advance_step(&grid, &fields, 97).unwrap() > 0 {}
            moved += crowd.step(&grid, &fields).unwrap().moved;
        }
    });
    println!(
        "zero allocation: {n} allocations in 700 steps of {} agents, 200 of them in parts ({moved} moves)",
        crowd.len()
    );
    assert_eq!(n, 0);
}

#[test]
fn bad_input_is_refused_and_never_panics() {
    let grid = map(&["....#", ".....", "....."]);
    let mut crowd = Crowd::new(&grid).unwrap();
    let a = crowd.add(&grid, AgentSpec::new(Cell::new(0, 0))).unwrap();
    // Two agents on one cell.
    assert_eq!(
        crowd.add(&grid, AgentSpec::new(Cell::new(0, 0))),
        Err(CrowdError::Occupied {
            cell: Cell::new(0, 0),
            by: a
        })
    );
    // A footprint overlapping another agent's.
    assert_eq!(
        crowd.add(&grid, AgentSpec::new(Cell::new(0, 0)).size(2)),
        Err(CrowdError::Occupied {
            cell: Cell::new(0, 0),
            by: a
        })
    );
    // Inside a wall, or with part of the footprint in one.
    assert_eq!(
        crowd.add(&grid, AgentSpec::new(Cell::new(4, 0))),
        Err(CrowdError::Blocked {
            cell: Cell::new(4, 0)
        })
    );
    assert_eq!(
        crowd.add(&grid, AgentSpec::new(Cell::new(3, 0)).size(2)),
        Err(CrowdError::Blocked {
            cell: Cell::new(4, 0)
        })
    );
    // Outside the grid, or reaching out of it.
    for c in [
        Cell::new(-1, 0),
        Cell::new(5, 0),
        Cell::new(0, 3),
        Cell::new(i32::MAX, i32::MIN),
    ] {
        assert_eq!(
            crowd.add(&grid, AgentSpec::new(c)),
            Err(CrowdError::OutOfBounds { cell: c })
        );
    }
    assert_eq!(
        crowd.add(&grid, AgentSpec::new(Cell::new(2, 2)).size(2)),
        Err(CrowdError::OutOfBounds {
            cell: Cell::new(2, 2)
        })
    );
    // Footprints of no size, too big, or larger than the grid.
    for size in [0, 4, 9, 255] {
        assert_eq!(
            crowd.add(&grid, AgentSpec::new(Cell::new(1, 1)).size(size)),
            Err(CrowdError::InvalidSize { size })
        );
    }
    // A hex agent in a crowd of agents on squares (`hex.rs` tests the layout rule).
    let axial = Connectivity::Hex(HexLayout::Axial);
    assert_eq!(
        crowd.add(&grid, AgentSpec::new(Cell::new(1, 1)).connectivity(axial)),
        Err(CrowdError::LayoutMismatch {
            connectivity: axial,
            crowd: None
        })
    );
    // Another grid's size.
    let other = Grid::new(6, 3).unwrap();
    assert!(matches!(
        crowd.step(&other, &GoalFields::new()),
        Err(CrowdError::GridMismatch(_))
    ));
    assert!(matches!(
        crowd.add(&other, AgentSpec::new(Cell::new(1, 1))),
        Err(CrowdError::GridMismatch(_))
    ));
    assert_eq!(crowd.len(), 1);
    // Removed agents are unknown, and their slot's next agent has another id.
    crowd.remove(a).unwrap();
    assert_eq!(crowd.remove(a), Err(CrowdError::UnknownAgent(a)));
    assert_eq!(crowd.set_goal(a, None), Err(CrowdError::UnknownAgent(a)));
    assert_eq!(
        (
            crowd.cell(a),
            crowd.status(a),
            crowd.holder(Cell::new(0, 0))
        ),
        (None, None, None)
    );
    let b = crowd.add(&grid, AgentSpec::new(Cell::new(0, 0))).unwrap();
    assert_eq!(b.index(), a.index());
    assert_ne!(b, a);
    // Holders outside the grid: none.
    assert_eq!(crowd.holder(Cell::new(-3, 99)), None);
    assert_eq!(crowd.holder_slot(Cell::new(-3, 99)), None);
    // A guidance with no answer: agents stay, unreachable, never stuck.
    crowd.set_goal(b, Some(Cell::new(3, 2))).unwrap();
    crowd.set_stuck_after(1);
    let nowhere = |_: AgentId, _: Cell| None::<u32>;
    for _ in 0..3 {
        crowd.step(&grid, &nowhere).unwrap();
    }
    assert_eq!(crowd.status(b), Some(AgentStatus::Unreachable));
    assert_eq!(crowd.stuck().count(), 0);
    // The plan is not held locked while the caller holds the stuck agents' iterator:
    // reading an agent's status meanwhile answers (it would wait for itself).
    let mut stuck = crowd.stuck();
    assert_eq!(crowd.status(b), Some(AgentStatus::Unreachable));
    assert_eq!(stuck.next(), None);
}

/// The holders of a rectangle's cells are those of its cells one by one, row by row:
/// on a grid big enough that its rows are asked of memory first and on a small one,
/// for rectangles inside, across the edges, outside and inverted.
#[test]
fn holders_in_a_rectangle_are_the_cells_held_one_by_one() {
    let (mut rects, mut held) = (0, 0);
    for (w, h) in [(40_u32, 30_u32), (700, 500)] {
        let mut rng = rng(u64::from(w));
        let grid = Grid::new(w, h).unwrap();
        let mut crowd = Crowd::new(&grid).unwrap();
        for _ in 0..(w * h / 12) {
            let at = Cell::new(rng.random_range(0..w as i32), rng.random_range(0..h as i32));
            let size = rng.random_range(1..=3);
            let _ = crowd.add(&grid, AgentSpec::new(at).size(size));
        }
        for _ in 0..2_000 {
            let corner = |rng: &mut rand::rngs::StdRng| {
                Cell::new(
                    rng.random_range(-12..w as i32 + 12),
                    rng.random_range(-12..h as i32 + 12),
                )
            };
            let a = corner(&mut rng);
            let b = if rng.random_bool(0.9) {
                Cell::new(
                    a.x + rng.random_range(-2..20),
                    a.y + rng.random_range(-2..20),
                )
            } else {
                corner(&mut rng)
            };
            let expected: Vec<(Cell, usize)> = (a.y..=b.y)
                .flat_map(|y| (a.x..=b.x).map(move |x| Cell::new(x, y)))
                .filter_map(|c| crowd.holder_slot(c).map(|k| (c, k)))
                .collect();
            let found: Vec<(Cell, usize)> = crowd.holders_in(a, b).collect();
            assert_eq!(found, expected, "{w}x{h}: {a} to {b}");
            rects += 1;
            held += found.len();
        }
    }
    println!("holders in rectangles: {rects} rectangles, {held} held cells found");
    assert!(held > 10_000, "few held cells: {held}");
}

#[test]
fn an_agent_walled_in_keeps_its_cells_and_walks_out() {
    let mut grid = Grid::new(12, 6).unwrap();
    let mut crowd = Crowd::new(&grid).unwrap();
    let big = crowd
        .add(
            &grid,
            AgentSpec::new(Cell::new(2, 2))
                .size(2)
                .goal(Cell::new(9, 2)),
        )
        .unwrap();
    let small = crowd
        .add(
            &grid,
            AgentSpec::new(Cell::new(6, 1)).goal(Cell::new(10, 5)),
        )
        .unwrap();
    // Walls under both.
    grid.set(Cell::new(3, 3), TileKind::K3).unwrap();
    grid.set(Cell::new(6, 1), TileKind::K3).unwrap();
    let mut fields = GoalFields::new();
    fields.update(&grid, &crowd).unwrap();
    assert_eq!(crowd.holder(Cell::new(3, 3)), Some(big));
    let steps = run_to_goals(&grid, &mut crowd, 50);
    assert!(steps.is_some());
    assert_eq!(crowd.cell(big), Some(Cell::new(9, 2)));
    assert_eq!(crowd.cell(small), Some(Cell::new(10, 5)));
}
