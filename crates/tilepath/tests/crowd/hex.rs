//! Crowds on hex maps, on each of the 5 layouts: the invariants after every step
//! (seeded, walls edited, goals changed, agents added and removed, steps planned in
//! parts with walls placed between the parts), the scenarios of `scenarios.rs` on
//! hex cells (two groups through a 1-wide corridor, a door, one goal shared),
//! untangling where the joint step stalls, determinism, no allocation per step, and
//! the rule that a crowd's agents move on one layout.

use super::scenarios::{door_and_formation, run_paced, two_rooms};
use super::untangle::{crowded_room, plan_and_walk, run_untangling};
use super::*;
use tilepath::{Guidance, MAX_UNIT_SIZE};

/// The connectivity of `layout`'s hex steps.
fn hex(layout: HexLayout) -> Connectivity {
    Connectivity::Hex(layout)
}

/// Adds a one-cell hex agent of `layout` and `mobility` at a free cell of `grid`
/// heading for another (or for where it stands if none is found).
fn add_hex_agent(
    rng: &mut rand::rngs::StdRng,
    grid: &Grid,
    crowd: &mut Crowd,
    layout: HexLayout,
    mobility: Mobility,
) -> Option<AgentId> {
    let at = free_anchor(rng, grid, crowd, 1, mobility)?;
    let goal = free_anchor(rng, grid, crowd, 1, mobility).unwrap_or(at);
    let spec = AgentSpec::new(at)
        .mobility(mobility)
        .connectivity(hex(layout))
        .goal(goal);
    Some(crowd.add(grid, spec).unwrap())
}

/// Hundreds of hex agents on a walled map, a thousand steps per layout: walls come
/// and go (under agents too), agents leave and come, goals change (to walls too), and
/// every third step is planned in parts with cells beside agents walled (and as many
/// elsewhere opened) once most of it is planned, which gives up the moves decided
/// into them. After every step (`check_step`): no two agents hold a cell, none
/// swapped, every move one step of the layout onto a cell the agent may enter.
#[test]
fn invariants_hold_after_every_step_on_every_hex_layout() {
    let mobility = Mobility::new([1, 2, 4, 0]);
    for (n, layout) in HexLayout::ALL.into_iter().enumerate() {
        let mut rng = rng(7000 + n as u64);
        let mut grid = random_grid(&mut rng, 48, 40, 0.15);
        let mut crowd = Crowd::new(&grid).unwrap();
        let mut ids = Vec::new();
        for _ in 0..300 {
            ids.extend(add_hex_agent(&mut rng, &grid, &mut crowd, layout, mobility));
        }
        let mut fields = GoalFields::new();
        fields.update(&grid, &crowd).unwrap();
        let mut cov = Coverage::default();
        let (mut edits, mut added, mut removed, mut goals, mut given_up) = (0, 0, 0, 0, 0);
        for step in 0..1000 {
            if step % 25 == 24 {
                edits += toggle_walls(&mut rng, &mut grid, &mut fields);
                for _ in 0..8 {
                    let id = ids.swap_remove(rng.random_range(0..ids.len()));
                    crowd.remove(id).unwrap();
                    removed += 1;
                }
                for _ in 0..8 {
                    if let Some(id) = add_hex_agent(&mut rng, &grid, &mut crowd, layout, mobility) {
                        ids.push(id);
                        added += 1;
                    }
                }
                for _ in 0..6 {
                    let id = ids[rng.random_range(0..ids.len())];
                    crowd
                        .set_goal(id, Some(random_cell(&mut rng, &grid)))
                        .unwrap();
                    goals += 1;
                }
                fields.update(&grid, &crowd).unwrap();
            }
            let before: Vec<_> = crowd.agents().collect();
            let stats = if step % 3 == 2 {
                assert!(crowd.begin_step());
                let whole = crowd.advance_step(&grid, &fields, 1).unwrap();
                while crowd.advance_step(&grid, &fields, 97).unwrap() > whole / 4 {}
                // Walls between the parts, beside agents (where moves were decided):
                // moves into them are given up.
                let mut changed = Vec::new();
                for _ in 0..4 {
                    let (_, a) = before[rng.random_range(0..before.len())];
                    let dirs = layout.directions(a.cell);
                    let wall = a.cell.step(dirs[rng.random_range(0..6)]);
                    let open = random_cell(&mut rng, &grid);
                    if grid.contains(wall) {
                        grid.set(wall, TileKind::K3).unwrap();
                        grid.set(open, TileKind::K0).unwrap();
                        changed.extend([wall, open]);
                    }
                }
                edits += changed.len();
                fields.repair(&grid, &changed).unwrap();
                let stats = crowd.step(&grid, &fields).unwrap();
                given_up += stats.given_up;
                stats
            } else {
                crowd.step(&grid, &fields).unwrap()
            };
            check_step(&grid, &crowd, &before, &mut cov);
            assert_eq!(stats.moved, crowd.moves().count());
        }
        println!(
            "hex crowd invariants, {layout:?}: {cov:?}, {edits} cells edited, {added} agents \
             added, {removed} removed, {goals} goals changed, {given_up} moves given up, \
             {} agents at the end",
            crowd.len()
        );
        assert!(cov.moves > 20_000, "{layout:?}: {} moves", cov.moves);
        assert!(cov.diagonal > 2_000, "{layout:?}: few diagonal hex steps");
        assert!(cov.out_of_walls > 0 && given_up > 0, "{layout:?}: {cov:?}");
    }
}

/// Two rooms of 10 x 10 joined by a corridor one cell wide and 12 long, and 50 hex
/// agents in each room sent to the mirrored cell in the other: all home within 3,000
/// steps (the square crowd's bound), on every layout.
#[test]
fn two_groups_swap_sides_through_a_one_wide_corridor_on_hex_maps() {
    let (room, len) = (10, 12);
    let grid = two_rooms(room, len, 1);
    for layout in HexLayout::ALL {
        let mut crowd = Crowd::new(&grid).unwrap();
        for k in 0..50 {
            let (x, y) = (k % 5, k / 5);
            let left = Cell::new(x, y);
            let right = Cell::new(2 * room + len - 1 - x, y);
            for (from, to) in [(left, right), (right, left)] {
                let spec = AgentSpec::new(from).connectivity(hex(layout)).goal(to);
                crowd.add(&grid, spec).unwrap();
            }
        }
        let steps = run_to_goals(&grid, &mut crowd, 3000);
        println!(
            "100 hex agents through a 1-wide corridor, {layout:?}: all home after {steps:?} steps"
        );
        assert!(steps.is_some(), "{layout:?}: not all home in 3000 steps");
    }
}

/// 500 hex agents through one door in a wall, to a formation beyond it: all through
/// within 2,000 steps (the square crowd's bound), on every layout; and the same with
/// agents of four speeds within 10,000.
#[test]
fn five_hundred_hex_agents_pass_one_door() {
    let (grid, pairs) = door_and_formation();
    let mut rng = rng(78);
    for layout in HexLayout::ALL {
        let crowd_of = || {
            let mut crowd = Crowd::new(&grid).unwrap();
            for &(start, goal) in &pairs {
                let spec = AgentSpec::new(start).connectivity(hex(layout)).goal(goal);
                crowd.add(&grid, spec).unwrap();
            }
            crowd
        };
        let steps = run_to_goals(&grid, &mut crowd_of(), 2000);
        let every: Vec<u32> = (0..pairs.len()).map(|_| rng.random_range(1..=4)).collect();
        let paced = run_paced(&grid, &mut crowd_of(), &every, 10_000);
        println!(
            "500 hex agents through one door, {layout:?}: all through after {steps:?} steps, \
             at 4 speeds after {paced:?}"
        );
        assert!(steps.is_some(), "{layout:?}: not all through in 2000 steps");
        assert!(paced.is_some(), "{layout:?}: the door jammed at 4 speeds");
    }
}

/// Five hex agents with one goal: within 60 steps one holds it, the others wait
/// beside it (or behind one beside it), yielding, and nobody jostles for 20 steps.
#[test]
fn hex_agents_sharing_a_goal_take_turns_no_more() {
    let grid = Grid::new(20, 20).unwrap();
    let goal = Cell::new(10, 10);
    for layout in HexLayout::ALL {
        let mut crowd = Crowd::new(&grid).unwrap();
        let ids: Vec<_> = [(0, 0), (19, 0), (0, 19), (19, 19), (10, 0)]
            .into_iter()
            .map(|(x, y)| {
                let spec = AgentSpec::new(Cell::new(x, y))
                    .connectivity(hex(layout))
                    .goal(goal);
                crowd.add(&grid, spec).unwrap()
            })
            .collect();
        let mut fields = GoalFields::new();
        fields.update(&grid, &crowd).unwrap();
        assert_eq!(fields.len(), 1, "one field serves one goal");
        let mut cov = Coverage::default();
        for _ in 0..60 {
            let before: Vec<_> = crowd.agents().collect();
            crowd.step(&grid, &fields).unwrap();
            check_step(&grid, &crowd, &before, &mut cov);
        }
        let holder = crowd.holder(goal).expect("one agent holds the goal");
        for _ in 0..20 {
            let stats = crowd.step(&grid, &fields).unwrap();
            assert_eq!(
                stats.moved, 0,
                "{layout:?}: agents sharing a goal keep jostling"
            );
        }
        assert_eq!(crowd.holder(goal), Some(holder));
        let mut farthest = 0;
        for &id in &ids {
            let d = layout.distance(crowd.cell(id).unwrap(), goal);
            if id == holder {
                assert_eq!(crowd.status(id), Some(AgentStatus::Arrived));
            } else {
                assert!(
                    d <= 2,
                    "{layout:?}: {id:?} waits {d} hex steps from the goal"
                );
                assert_eq!(crowd.status(id), Some(AgentStatus::Yielding));
                farthest = farthest.max(d);
            }
        }
        println!(
            "5 hex agents with one goal, {layout:?}: one holds it, the others at most {farthest} \
             hex steps away ({} moves checked)",
            cov.moves
        );
    }
}

/// 40 hex agents arriving at one goal from one side fill the cells round it on every
/// side: within 300 steps all stand within 4 hex steps of it (the 37 cells within 3
/// hold 37 of them), as near as they get, settled and none stuck.
#[test]
fn hex_agents_arriving_from_one_side_gather_round_their_goal() {
    let goal = Cell::new(15, 15);
    for layout in HexLayout::ALL {
        let (grid, mut crowd, fields, ids, cov) = gather_from_one_side(hex(layout));
        let far = ids
            .iter()
            .filter(|&&id| layout.distance(crowd.cell(id).unwrap(), goal) > 4)
            .count();
        println!(
            "40 hex agents from one side, {layout:?}: {} moves, {far} more than 4 hex steps \
             from the goal",
            cov.moves
        );
        assert_eq!(far, 0, "{layout:?}: {far} agents piled up on their side");
        assert!(crowd.holder(goal).is_some());
        // Each is as near as it gets: every nearer cell it could step to is held.
        for &id in &ids {
            let at = crowd.cell(id).unwrap();
            for dir in layout.directions(at) {
                let c = at.step(dir);
                if grid.can_step_with(at, dir, Mobility::FLOOR_ONLY, hex(layout))
                    && fields.cost_to_go(id, c) < fields.cost_to_go(id, at)
                {
                    assert!(
                        crowd.holder(c).is_some(),
                        "{id:?} at {at} could step to {c}"
                    );
                }
            }
        }
        let stats = crowd.step(&grid, &fields).unwrap();
        assert_eq!(stats.moved, 0, "{layout:?}: still moving after 300 steps");
        assert_eq!(crowd.stuck().count(), 0);
    }
}

/// The dead end with one side pocket of `Untangle`'s example, on hex cells: two
/// agents must swap ends; the untangling plan takes both home, each step checked.
/// Then crowded hex rooms with pillars (60 to 85 agents for 100 floor cells): the
/// joint step runs until it stalls (no agent newly home for 20 steps), and every
/// stall is untangled until everyone is home.
#[test]
fn untangling_takes_hex_agents_home() {
    let pocket = map(&["....", "#.##"]);
    let (mut rooms, mut stalls, mut explored, mut walked) = (0, 0, 0, 0);
    for (n, layout) in HexLayout::ALL.into_iter().enumerate() {
        let mut crowd = Crowd::new(&pocket).unwrap();
        let (a0, b0) = (Cell::new(0, 0), Cell::new(3, 0));
        let a = crowd
            .add(
                &pocket,
                AgentSpec::new(a0).connectivity(hex(layout)).goal(b0),
            )
            .unwrap();
        let b = crowd
            .add(
                &pocket,
                AgentSpec::new(b0).connectivity(hex(layout)).goal(a0),
            )
            .unwrap();
        let (_, cov) = plan_and_walk(&pocket, &mut crowd, |_| {});
        assert_eq!((crowd.cell(a), crowd.cell(b)), (Some(b0), Some(a0)));
        println!(
            "a hex dead end, {layout:?}: both home in {} untangled steps",
            cov.steps
        );

        for seed in 0..60_u64 {
            let mut rng = rng(8000 + 100 * n as u64 + seed);
            let Some((grid, pairs)) = crowded_room(&mut rng) else {
                continue;
            };
            rooms += 1;
            let mut crowd = Crowd::new(&grid).unwrap();
            for (start, goal) in pairs {
                let spec = AgentSpec::new(start).connectivity(hex(layout)).goal(goal);
                crowd.add(&grid, spec).unwrap();
            }
            let run = run_untangling(&grid, &mut crowd, 3000);
            assert!(
                run.home_at.is_some(),
                "{layout:?}, seed {seed}: not every agent home"
            );
            (stalls, explored, walked) = (
                stalls + run.stalls,
                explored + run.explored,
                walked + run.walked,
            );
        }
    }
    println!(
        "{rooms} crowded hex rooms all home: {stalls} stalls untangled ({explored} \
         configurations explored), {walked} untangled steps walked"
    );
    assert!(stalls >= 10, "too few stalls to test the search: {stalls}");
}

/// The moves of `n` steps of a seeded hex crowd of `layout` on a random map walled a
/// cell more every 50 steps.
fn moves_of_a_hex_run(layout: HexLayout, seed: u64, n: usize) -> Vec<(AgentId, Cell, Cell)> {
    let mut rng = rng(seed);
    let mut grid = random_grid(&mut rng, 48, 48, 0.15);
    let m = Mobility::new([1, 3, 5, 0]);
    let mut crowd = Crowd::new(&grid).unwrap();
    for _ in 0..300 {
        add_hex_agent(&mut rng, &grid, &mut crowd, layout, m);
    }
    moves_of(&mut rng, &mut grid, &mut crowd, n)
}

#[test]
fn the_same_inputs_give_the_same_hex_moves() {
    for layout in HexLayout::ALL {
        let a = moves_of_a_hex_run(layout, 4, 300);
        let b = moves_of_a_hex_run(layout, 4, 300);
        println!("hex determinism, {layout:?}: {} moves compared", a.len());
        assert!(a.len() > 5_000, "{layout:?}: {} moves", a.len());
        assert_eq!(a, b, "{layout:?}: the same inputs moved otherwise");
    }
}

/// A hex crowd's steps, whole and planned in parts, allocate nothing once warm: 600
/// agents crowding round 4 goals, sent on to the next goal every 100 steps (the
/// fields updated outside the count) so that they keep moving and pushing.
#[test]
fn a_hex_step_allocates_nothing_after_warm_up() {
    let m = Mobility::new([1, 2, 3, 0]);
    let goal = |k: i32| Cell::new(8 + 16 * (k % 4), 32);
    for layout in HexLayout::ALL {
        let mut rng = rng(12);
        let grid = random_grid(&mut rng, 64, 64, 0.1);
        let mut crowd = Crowd::new(&grid).unwrap();
        let mut ids = Vec::new();
        for k in 0..600 {
            if let Some(at) = free_anchor(&mut rng, &grid, &crowd, 1, m) {
                let spec = AgentSpec::new(at)
                    .mobility(m)
                    .connectivity(hex(layout))
                    .goal(goal(k));
                ids.push((k, crowd.add(&grid, spec).unwrap()));
            }
        }
        let mut fields = GoalFields::new();
        fields.update(&grid, &crowd).unwrap();
        for _ in 0..200 {
            crowd.step(&grid, &fields).unwrap();
        }
        let (mut n, mut moved) = (0, 0);
        for round in 1..=4 {
            for &(k, id) in &ids {
                crowd.set_goal(id, Some(goal(k + round))).unwrap();
            }
            fields.update(&grid, &crowd).unwrap();
            n += allocations_in(|| {
                for _ in 0..75 {
                    moved += crowd.step(&grid, &fields).unwrap().moved;
                    moved += crowd.stuck().count();
                }
                for _ in 0..25 {
                    crowd.begin_step();
                    while crowd.advance_step(&grid, &fields, 97).unwrap() > 0 {}
                    moved += crowd.step(&grid, &fields).unwrap().moved;
                }
            });
        }
        println!(
            "hex zero allocation, {layout:?}: {n} allocations in 400 steps of {} agents, 100 \
             of them in parts ({moved} moves)",
            crowd.len()
        );
        assert!(
            moved > 10_000,
            "{layout:?}: too few moves to count ({moved})"
        );
        assert_eq!(n, 0, "{layout:?}: a step allocated");
    }
}

/// A crowd's agents move on one layout: a hex crowd refuses agents on squares and of
/// other hex layouts, and agents bigger than a cell (a size no agent may have, or
/// larger than the 9 x 7 grid, is invalid first); a crowd on squares refuses hex
/// agents; an emptied crowd takes the layout of the next agent. Nothing changes on a
/// refusal. Its goal fields are hex fields: on open floor of cost 1, the cost to go is
/// the number of hex steps.
#[test]
fn a_crowd_moves_on_one_layout() {
    let grid = Grid::new(9, 7).unwrap();
    let (at, elsewhere, goal) = (Cell::new(1, 1), Cell::new(3, 3), Cell::new(6, 5));
    let mut refused = 0;
    for layout in HexLayout::ALL {
        let mut crowd = Crowd::new(&grid).unwrap();
        let a = crowd
            .add(
                &grid,
                AgentSpec::new(at).connectivity(hex(layout)).goal(goal),
            )
            .unwrap();
        assert_eq!(crowd.agent(a).unwrap().connectivity, hex(layout));
        let mut refuse = |spec: AgentSpec, crowd: &mut Crowd, want: CrowdError| {
            let err = crowd.add(&grid, spec).unwrap_err();
            assert_eq!(err, want);
            assert!(!err.to_string().is_empty());
            refused += 1;
        };
        for conn in [Connectivity::Four, Connectivity::Eight]
            .into_iter()
            .chain(HexLayout::ALL.into_iter().filter(|&l| l != layout).map(hex))
        {
            let want = CrowdError::LayoutMismatch {
                connectivity: conn,
                crowd: Some(layout),
            };
            refuse(
                AgentSpec::new(elsewhere).connectivity(conn),
                &mut crowd,
                want,
            );
        }
        for size in [2, 3, 7] {
            let spec = AgentSpec::new(elsewhere)
                .size(size)
                .connectivity(hex(layout));
            refuse(spec, &mut crowd, CrowdError::HexUnitSize { size });
        }
        for size in [0, 8, MAX_UNIT_SIZE + 1] {
            let spec = AgentSpec::new(elsewhere)
                .size(size)
                .connectivity(hex(layout));
            refuse(spec, &mut crowd, CrowdError::InvalidSize { size });
        }
        assert_eq!(crowd.len(), 1);
        assert_eq!(crowd.holder(elsewhere), None);
        // Hex fields: the cost to go is the hex distance on open floor.
        let mut fields = GoalFields::new();
        fields.update(&grid, &crowd).unwrap();
        for i in 0..grid.len() {
            let c = grid.cell_of(i).unwrap();
            assert_eq!(fields.cost_to_go(a, c), Some(layout.distance(c, goal)));
        }
        // Emptied, the crowd takes agents on squares, and then refuses hex ones.
        crowd.remove(a).unwrap();
        crowd
            .add(&grid, AgentSpec::new(at).connectivity(Connectivity::Eight))
            .unwrap();
        let want = CrowdError::LayoutMismatch {
            connectivity: hex(layout),
            crowd: None,
        };
        refuse(
            AgentSpec::new(elsewhere).connectivity(hex(layout)),
            &mut crowd,
            want,
        );
    }
    println!("one layout a crowd: {refused} agents refused");
}
