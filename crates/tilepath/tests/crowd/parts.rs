//! Steps planned in parts (`Crowd::begin_step`, `advance_step`, then `step`), as a game
//! spreads a large crowd's step over the frames in which its units walk the last one.

use super::*;

/// A seeded crowd on a random map (sizes 1 and 2, 4- and 8-connected, a few shared
/// goals so that agents push), holding the cells they leave until they arrive.
fn crowd_of(seed: u64) -> (Grid, Crowd, GoalFields) {
    let mut rng = rng(seed);
    let grid = random_grid(&mut rng, 48, 40, 0.12);
    let m = Mobility::new([1, 3, 5, 0]);
    let mut crowd = Crowd::new(&grid).unwrap();
    crowd.set_hold_left(true).unwrap();
    add_mixed_agents(&mut rng, &grid, &mut crowd, 260, m, |k, rng| {
        if k % 2 == 0 {
            Cell::new(10 + 12 * (k % 3), 20)
        } else {
            random_cell(rng, &grid)
        }
    });
    let mut fields = GoalFields::new();
    fields.update(&grid, &crowd).unwrap();
    (grid, crowd, fields)
}

/// Every agent arrives where it was sent, one by one (`Crowd::arrive` for each).
fn arrive_one_by_one(crowd: &mut Crowd) {
    let ids: Vec<_> = crowd.agents().map(|(id, _)| id).collect();
    for id in ids {
        crowd.arrive(id).unwrap();
    }
}

#[test]
fn a_step_planned_in_parts_makes_the_moves_of_a_whole_one() {
    let (grid, mut whole, fields) = crowd_of(21);
    let mut parts = whole.clone();
    let mut rng = rng(22);
    let (mut moves, mut calls) = (0, 0);
    for _ in 0..300 {
        // A whole step once every agent has arrived...
        arrive_one_by_one(&mut whole);
        let a = whole.step(&grid, &fields).unwrap();
        // ... and one planned while agents are on their way, finished once they arrive.
        assert!(parts.begin_step());
        assert!(!parts.begin_step(), "a step begun is not begun again");
        loop {
            calls += 1;
            let share = rng.random_range(1..80);
            if parts.advance_step(&grid, &fields, share).unwrap() == 0 {
                break;
            }
        }
        arrive_one_by_one(&mut parts);
        let b = parts.step(&grid, &fields).unwrap();
        assert!(!parts.is_stepping());
        assert_eq!(a, b);
        let ma: Vec<_> = whole.moves().collect();
        let mb: Vec<_> = parts.moves().collect();
        assert_eq!(ma, mb);
        moves += ma.len();
    }
    println!(
        "steps in parts: {moves} moves in 300 steps, planned in {calls} parts, as whole steps"
    );
    assert!(moves > 8_000);
}

/// A step is planned through `&Crowd` on one thread while another reads the crowd
/// (who holds each cell, where each agent is, the cells left): the readers see the
/// crowd as it was before the step began, every time, and the plan makes the moves
/// of a whole step.
#[test]
fn a_step_is_planned_while_other_threads_read_the_crowd() {
    let (grid, mut whole, fields) = crowd_of(31);
    let mut parts = whole.clone();
    let (mut moves, mut reads, mut calls) = (0, 0_usize, 0);
    for _ in 0..120 {
        arrive_one_by_one(&mut whole);
        let a = whole.step(&grid, &fields).unwrap();
        assert!(parts.begin_step());
        let before: Vec<(AgentId, Cell, Option<Cell>)> = parts
            .agents()
            .map(|(id, spec)| (id, spec.cell, parts.left_cell(id)))
            .collect();
        let holders: Vec<Option<AgentId>> = (0..grid.height() as i32)
            .flat_map(|y| (0..grid.width() as i32).map(move |x| Cell::new(x, y)))
            .map(|c| parts.holder(c))
            .collect();
        let crowd = &parts;
        std::thread::scope(|scope| {
            let planner = scope.spawn(|| {
                let mut calls = 0;
                while crowd.advance_step(&grid, &fields, 7).unwrap() > 0 {
                    calls += 1;
                }
                calls
            });
            let mut rounds = 0;
            while rounds < 3 || !planner.is_finished() {
                for &(id, cell, left) in &before {
                    assert_eq!(crowd.cell(id), Some(cell));
                    assert_eq!(crowd.left_cell(id), left);
                }
                let now = (0..grid.height() as i32)
                    .flat_map(|y| (0..grid.width() as i32).map(move |x| Cell::new(x, y)))
                    .map(|c| crowd.holder(c));
                assert!(now.eq(holders.iter().copied()), "a cell changed hands");
                reads += before.len();
                rounds += 1;
            }
            calls += planner.join().unwrap();
        });
        arrive_one_by_one(&mut parts);
        let b = parts.step(&grid, &fields).unwrap();
        assert_eq!(a, b);
        let ma: Vec<_> = whole.moves().collect();
        assert_eq!(ma, parts.moves().collect::<Vec<_>>());
        moves += ma.len();
    }
    println!(
        "planned beside readers: {moves} moves in 120 steps, {calls} parts, {reads} agents read meanwhile"
    );
    assert!(moves > 3_000 && calls > 1_000);
}

/// Agents arriving all at once (`Crowd::arrive_all`, one pass) free the cells that
/// arriving one by one frees, and the steps after are the same.
#[test]
fn agents_arriving_all_at_once_free_what_they_free_one_by_one() {
    let (grid, mut one_by_one, fields) = crowd_of(31);
    let mut at_once = one_by_one.clone();
    let cells: Vec<Cell> = (0..grid.len()).filter_map(|i| grid.cell_of(i)).collect();
    let (mut freed, mut moves) = (0, 0);
    for _ in 0..200 {
        // Steps planned while agents are on their way, as a game's lockstep walk.
        for crowd in [&mut one_by_one, &mut at_once] {
            assert!(crowd.begin_step());
            crowd.advance_step(&grid, &fields, usize::MAX).unwrap();
        }
        freed += cells
            .iter()
            .filter(|&&c| at_once.blocker(c).is_some())
            .count();
        arrive_one_by_one(&mut one_by_one);
        at_once.arrive_all();
        for &c in &cells {
            assert_eq!(at_once.blocker(c), None, "{c:?} still blocked");
            assert_eq!(one_by_one.blocker(c), None, "{c:?} still blocked");
        }
        let a = one_by_one.step(&grid, &fields).unwrap();
        let b = at_once.step(&grid, &fields).unwrap();
        assert_eq!(a, b);
        let (ma, mb): (Vec<_>, Vec<_>) = (one_by_one.moves().collect(), at_once.moves().collect());
        assert_eq!(ma, mb);
        assert!(at_once.agents().all(
            |(id, _)| at_once.in_transit(id) == (at_once.previous_cell(id) != at_once.cell(id))
        ));
        moves += ma.len();
    }
    println!("arriving all at once: {freed} blocked cells freed, {moves} moves in 200 steps");
    assert!(freed > 5_000 && moves > 5_000);
}

/// The same on a grid too big for the processor's caches, where planning brings what
/// it reads next into them ahead of use: a hint that must change no move.
#[test]
fn a_step_on_a_big_grid_planned_in_parts_makes_the_moves_of_a_whole_one() {
    let mut rng = rng(23);
    let grid = random_grid(&mut rng, 520, 520, 0.1);
    let m = Mobility::new([1, 3, 5, 0]);
    let mut whole = Crowd::new(&grid).unwrap();
    whole.set_hold_left(true).unwrap();
    // Agents round a few goals (a field each), so that they meet and push.
    let goals: Vec<Cell> = (0..6).map(|_| random_cell(&mut rng, &grid)).collect();
    add_mixed_agents(&mut rng, &grid, &mut whole, 3_000, m, |k, _| {
        goals[k as usize % 6]
    });
    let mut fields = GoalFields::new();
    fields.update(&grid, &whole).unwrap();
    let mut parts = whole.clone();
    let mut cov = Coverage::default();
    for _ in 0..12 {
        arrive_one_by_one(&mut whole);
        let before: Vec<_> = whole.agents().collect();
        let a = whole.step(&grid, &fields).unwrap();
        check_step(&grid, &whole, &before, &mut cov);
        assert!(parts.begin_step());
        while parts.advance_step(&grid, &fields, 997).unwrap() > 0 {}
        arrive_one_by_one(&mut parts);
        let b = parts.step(&grid, &fields).unwrap();
        assert_eq!(a, b);
        assert!(whole.moves().eq(parts.moves()));
    }
    println!("a big grid's steps in parts: {cov:?}");
    assert!(cov.moves > 10_000);
}

#[test]
fn changes_between_parts_keep_every_step_valid() {
    let mut cov = Coverage::default();
    let (mut added, mut removed, mut recalled, mut walls, mut in_transit) = (0, 0, 0, 0, 0);
    let mut given_up = 0;
    for seed in 0..4u64 {
        let (mut grid, mut crowd, mut fields) = crowd_of(40 + seed);
        let mut rng = rng(50 + seed);
        let m = Mobility::new([1, 3, 5, 0]);
        crowd.step(&grid, &fields).unwrap();
        for _ in 0..400 {
            assert!(crowd.begin_step());
            let parts = rng.random_range(1..6);
            for part in 0..parts {
                let left = crowd.step_left();
                crowd
                    .advance_step(&grid, &fields, left.div_ceil(parts - part))
                    .unwrap();
                let ids: Vec<_> = crowd.agents().map(|(id, _)| id).collect();
                // Turned back on their way.
                for _ in 0..rng.random_range(0..4) {
                    let id = ids[rng.random_range(0..ids.len())];
                    recalled += usize::from(crowd.recall(id).unwrap_or(false));
                }
                // Gone, and new ones (also on cells being left).
                for _ in 0..rng.random_range(0..3) {
                    let id = ids[rng.random_range(0..ids.len())];
                    // (Perhaps removed already in this part.)
                    removed += usize::from(crowd.remove(id).is_ok());
                }
                for _ in 0..rng.random_range(0..3) {
                    let size = rng.random_range(1..3);
                    if let Some(at) = free_anchor(&mut rng, &grid, &crowd, size, m) {
                        let goal = random_cell(&mut rng, &grid);
                        let spec = AgentSpec::new(at).size(size).mobility(m).goal(goal);
                        added += usize::from(crowd.add(&grid, spec).is_ok());
                    }
                }
                // Walls, ahead of agents and under them.
                if rng.random_bool(0.3) {
                    let mut changed = Vec::new();
                    let near: Vec<_> = crowd.agents().map(|(_, a)| a.cell).collect();
                    for &at in &near {
                        if !rng.random_bool(0.02) {
                            continue;
                        }
                        let c = Cell::new(at.x + rng.random_range(-1..2), at.y);
                        if grid.contains(c) {
                            let kind = if rng.random_bool(0.7) {
                                TileKind::K3
                            } else {
                                TileKind::K0
                            };
                            grid.set(c, kind).unwrap();
                            changed.push(c);
                        }
                    }
                    walls += changed.len();
                    fields.repair(&grid, &changed).unwrap();
                }
            }
            // Most arrive; a few are still on their way when the step is made.
            let ids: Vec<_> = crowd.agents().map(|(id, _)| id).collect();
            for id in ids {
                if rng.random_bool(0.97) {
                    crowd.arrive(id).unwrap();
                } else {
                    in_transit += usize::from(crowd.in_transit(id));
                }
            }
            fields.update(&grid, &crowd).unwrap();
            let before: Vec<_> = crowd.agents().collect();
            let blocked: Vec<_> = (0..grid.len())
                .map(|i| crowd.blocker(grid.cell_of(i).unwrap()))
                .collect();
            let travelling: Vec<_> = before.iter().map(|&(id, _)| crowd.in_transit(id)).collect();
            given_up += crowd.step(&grid, &fields).unwrap().given_up;
            check_step(&grid, &crowd, &before, &mut cov);
            // Nobody on its way moved, nor into cells one on its way blocked.
            for (&(id, spec), &travelling) in before.iter().zip(&travelling) {
                let now = crowd.cell(id).unwrap();
                if now != spec.cell {
                    assert!(!travelling, "{id:?} moved while on its way");
                    for c in cells(now, spec.size) {
                        let by = blocked[grid.index_of(c).unwrap()];
                        assert!(
                            by.is_none_or(|b| b == id),
                            "{id:?} moved into {c}, blocked by {by:?} on its way"
                        );
                    }
                }
            }
        }
    }
    println!(
        "changes between parts: {cov:?}; {added} added, {removed} removed, {recalled} recalled, {walls} cells walled or opened, {in_transit} still on their way at a step, {given_up} moves given up"
    );
    assert!(cov.moves > 25_000 && cov.sized > 1_000 && cov.diagonal > 1_000);
    assert!(added > 500 && removed > 500 && recalled > 200 && walls > 200 && in_transit > 500);
    assert!(given_up > 500);
}

/// A step begun and dropped (`Crowd::abandon_step`), at any point of its planning,
/// moves nobody and leaves nothing behind: the crowd then takes whole steps that keep
/// every rule, and begins steps again.
#[test]
fn an_abandoned_step_moves_nobody() {
    let (grid, mut crowd, fields) = crowd_of(61);
    let mut rng = rng(62);
    let mut cov = Coverage::default();
    let (mut abandoned, mut half_planned) = (0, 0);
    for _ in 0..300 {
        arrive_one_by_one(&mut crowd);
        assert!(crowd.begin_step());
        let left = crowd.step_left();
        if rng.random_bool(0.7) {
            let share = rng.random_range(0..left.max(1) + 20);
            let now = crowd.advance_step(&grid, &fields, share).unwrap();
            half_planned += usize::from(now > 0);
        }
        if rng.random_bool(0.5) {
            let before: Vec<_> = crowd.agents().collect();
            assert!(crowd.abandon_step());
            assert!(!crowd.is_stepping());
            assert!(!crowd.abandon_step(), "nothing begun is abandoned");
            assert_eq!(crowd.agents().collect::<Vec<_>>(), before);
            abandoned += 1;
        }
        // A whole step (or the one begun, finished), checked.
        let before: Vec<_> = crowd.agents().collect();
        crowd.step(&grid, &fields).unwrap();
        check_step(&grid, &crowd, &before, &mut cov);
    }
    println!(
        "{abandoned} steps abandoned ({half_planned} of the begun ones planned in part), \
         {} moves checked after them",
        cov.moves
    );
    assert!(abandoned > 100 && half_planned > 50 && cov.moves > 5_000);
}
