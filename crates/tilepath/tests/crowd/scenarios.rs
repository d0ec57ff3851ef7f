//! The scenarios a crowd must get through: corridors, doors, shared goals, mixed
//! sizes, the MAPF instances, pinned agents and agents that block the cells they leave.

use super::*;

/// Two rooms joined by a 1-wide corridor: `room` cells square each, `len` long (a
/// row of cells: on a hex map too, whose orthogonal steps are all hex steps).
pub(super) fn two_rooms(room: i32, len: i32, corridor_width: i32) -> Grid {
    let (w, h) = (2 * room + len, room);
    let mid = room / 2;
    Grid::from_fn(w as u32, h as u32, |c| {
        let in_corridor =
            c.x >= room && c.x < room + len && (mid..mid + corridor_width).contains(&c.y);
        if c.x < room || c.x >= room + len || in_corridor {
            TileKind::K0
        } else {
            TileKind::K3
        }
    })
    .unwrap()
}

/// Two rooms of 10 x 10 joined by a 1-wide corridor 12 long, and 50 agents in each
/// room sent to the mirrored cell in the other.
fn two_groups_facing_a_corridor() -> (Grid, Crowd) {
    let (room, len) = (10, 12);
    let grid = two_rooms(room, len, 1);
    let mut crowd = Crowd::new(&grid).unwrap();
    for k in 0..50 {
        let (x, y) = (k % 5, k / 5);
        let left = Cell::new(x, y);
        let right = Cell::new(2 * room + len - 1 - x, y);
        crowd.add(&grid, AgentSpec::new(left).goal(right)).unwrap();
        crowd.add(&grid, AgentSpec::new(right).goal(left)).unwrap();
    }
    (grid, crowd)
}

#[test]
fn two_groups_of_50_swap_sides_through_a_one_wide_corridor() {
    let (grid, mut crowd) = two_groups_facing_a_corridor();
    let steps = run_to_goals(&grid, &mut crowd, 3000);
    println!("100 agents through a 1-wide corridor: all home after {steps:?} steps");
    assert!(steps.is_some(), "not all home in 3000 steps");
}

/// A wall down the middle of a 81 x 30 map with one door at (30, 15), and 500 agents
/// in a 25 x 20 block left of it, each sent to the same place in a block twice as wide
/// right of it (every other column: a formation that keeps its rows). A goal block
/// packed full, every cell a goal, does not settle: agents arriving in the wrong
/// order keep trading places inside it (a limit of the step-by-step rule, which does
/// not plan orders of arrival).
pub(super) fn door_and_formation() -> (Grid, Vec<(Cell, Cell)>) {
    let grid = Grid::from_fn(81, 30, |c| {
        if c.x == 30 && c.y != 15 {
            TileKind::K3
        } else {
            TileKind::K0
        }
    })
    .unwrap();
    let pairs = (0..500)
        .map(|k| {
            let (x, y) = (k % 25, k / 25);
            (Cell::new(x, y), Cell::new(31 + 2 * x, y))
        })
        .collect();
    (grid, pairs)
}

#[test]
fn five_hundred_agents_pass_one_door() {
    let (grid, pairs) = door_and_formation();
    let mut crowd = Crowd::new(&grid).unwrap();
    for &(start, goal) in &pairs {
        crowd.add(&grid, AgentSpec::new(start).goal(goal)).unwrap();
    }
    let steps = run_to_goals(&grid, &mut crowd, 2000);
    println!("500 agents through one door: all through after {steps:?} steps");
    assert!(steps.is_some(), "not all through in 2000 steps");
}

/// Runs a crowd whose agents move at different speeds: agent `k` is
/// [ready](Crowd::set_ready) once every `every[k]` steps after it last moved of its
/// own accord (pushed moves are free). The steps until all stand on their goals.
pub(super) fn run_paced(grid: &Grid, crowd: &mut Crowd, every: &[u32], limit: u64) -> Option<u64> {
    let ids: Vec<AgentId> = crowd.agents().map(|(id, _)| id).collect();
    let mut fields = GoalFields::new();
    fields.update(grid, crowd).unwrap();
    let mut cov = Coverage::default();
    let mut rested = vec![u32::MAX; ids.len()];
    for step in 1..=limit {
        for (k, &id) in ids.iter().enumerate() {
            crowd.set_ready(id, rested[k] >= every[k]).unwrap();
        }
        let before: Vec<_> = crowd.agents().collect();
        let stats = crowd.step(grid, &fields).unwrap();
        check_step(grid, crowd, &before, &mut cov);
        for (k, &id) in ids.iter().enumerate() {
            let moved = crowd.previous_cell(id) != crowd.cell(id);
            rested[k] = if moved && crowd.is_ready(id) {
                1
            } else {
                rested[k].saturating_add(1)
            };
        }
        if stats.arrived == crowd.len() {
            return Some(step);
        }
    }
    None
}

/// The corridor swap and the door with agents of four speeds (a move every 1 to 4
/// steps): the slow ones are not ready on most steps, and nobody jams.
#[test]
fn agents_of_different_speeds_pass_corridors_and_doors() {
    let mut rng = rng(77);
    let (grid, mut crowd) = two_groups_facing_a_corridor();
    let every: Vec<u32> = (0..100).map(|_| rng.random_range(1..=4)).collect();
    let steps = run_paced(&grid, &mut crowd, &every, 10_000);
    println!("100 agents of 4 speeds through a 1-wide corridor: home after {steps:?} steps");
    assert!(steps.is_some(), "the corridor jammed");

    let (grid, pairs) = door_and_formation();
    let mut crowd = Crowd::new(&grid).unwrap();
    for &(start, goal) in &pairs {
        crowd.add(&grid, AgentSpec::new(start).goal(goal)).unwrap();
    }
    let every: Vec<u32> = (0..500).map(|_| rng.random_range(1..=4)).collect();
    let steps = run_paced(&grid, &mut crowd, &every, 10_000);
    println!("500 agents of 4 speeds through one door: through after {steps:?} steps");
    assert!(steps.is_some(), "the door jammed");
}

#[test]
fn two_hundred_agents_close_on_one_cell_and_settle_round_it() {
    let grid = Grid::new(40, 40).unwrap();
    let target = Cell::new(20, 20);
    let mut rng = rng(7);
    let mut crowd = Crowd::new(&grid).unwrap();
    let mut ids = Vec::new();
    while ids.len() < 200 {
        let c = random_cell(&mut rng, &grid);
        let conn = if ids.len() % 2 == 0 {
            Connectivity::Four
        } else {
            Connectivity::Eight
        };
        if let Ok(id) = crowd.add(&grid, AgentSpec::new(c).connectivity(conn).goal(target)) {
            ids.push(id);
        }
    }
    let mut fields = GoalFields::new();
    fields.update(&grid, &crowd).unwrap();
    let mut cov = Coverage::default();
    let mut settled_at = None;
    for step in 1..=400 {
        let before: Vec<_> = crowd.agents().collect();
        let stats = crowd.step(&grid, &fields).unwrap();
        check_step(&grid, &crowd, &before, &mut cov);
        let settled = ids.iter().all(|&id| {
            matches!(
                crowd.status(id),
                Some(AgentStatus::Arrived | AgentStatus::Yielding)
            )
        });
        if settled && stats.moved == 0 {
            settled_at.get_or_insert(step);
        } else {
            settled_at = None;
        }
    }
    println!("200 agents on one cell: settled (nobody moving) since step {settled_at:?}");
    assert!(
        settled_at.is_some_and(|s| s < 300),
        "not settled by step 300"
    );
    assert!(crowd.holder(target).is_some());
    // Each is as near as it gets: every nearer cell it could step to is held.
    for &id in &ids {
        let at = crowd.cell(id).unwrap();
        for dir in Direction8::ALL {
            let spec = crowd.agent(id).unwrap();
            let c = at.step(dir);
            let nearer = fields.cost_to_go(id, c) < fields.cost_to_go(id, at);
            if grid.can_step_with(at, dir, spec.mobility, spec.connectivity) && nearer {
                assert!(
                    crowd.holder(c).is_some(),
                    "{id:?} at {at} could step nearer to {c}"
                );
            }
        }
    }
    assert_eq!(crowd.stuck().count(), 0);
}

use tilepath::{Connectivity, Guidance};

/// Agents arriving at one goal from one side fill the cells round it on every side
/// (a waiting agent looks round those ahead of it for a nearer free cell), instead
/// of piling up on the side they came from.
#[test]
fn agents_arriving_from_one_side_fill_round_their_goal() {
    let goal = Cell::new(15, 15);
    for conn in [Connectivity::Eight, Connectivity::Four] {
        let (grid, mut crowd, fields, ids, cov) = gather_from_one_side(conn);
        // The nearest 40 cells: a 7x7 square (8-connected), a diamond of radius 4
        // (4-connected).
        let far = ids
            .iter()
            .map(|&id| crowd.cell(id).unwrap())
            .filter(|c| match conn {
                Connectivity::Eight => c.x.abs_diff(goal.x).max(c.y.abs_diff(goal.y)) > 3,
                _ => c.manhattan(goal) > 4,
            })
            .count();
        println!(
            "40 agents from one side, {conn:?}: {} moves, {far} outside the nearest cells",
            cov.moves
        );
        assert_eq!(far, 0, "{conn:?}: {far} agents piled up on their side");
        assert!(crowd.holder(goal).is_some());
        let stats = crowd.step(&grid, &fields).unwrap();
        assert_eq!(stats.moved, 0, "{conn:?}: still moving after 300 steps");
        assert_eq!(crowd.stuck().count(), 0);
    }
}

#[test]
fn agents_sharing_a_goal_take_turns_no_more() {
    let grid = Grid::new(20, 20).unwrap();
    let goal = Cell::new(10, 10);
    let mut crowd = Crowd::new(&grid).unwrap();
    let ids: Vec<_> = [(0, 0), (19, 0), (0, 19), (19, 19), (10, 0)]
        .into_iter()
        .map(|(x, y)| {
            crowd
                .add(&grid, AgentSpec::new(Cell::new(x, y)).goal(goal))
                .unwrap()
        })
        .collect();
    let mut fields = GoalFields::new();
    fields.update(&grid, &crowd).unwrap();
    assert_eq!(fields.len(), 1, "one field serves one goal");
    for _ in 0..60 {
        crowd.step(&grid, &fields).unwrap();
    }
    let holder = crowd.holder(goal).expect("one agent holds the goal");
    for _ in 0..20 {
        let stats = crowd.step(&grid, &fields).unwrap();
        assert_eq!(stats.moved, 0, "agents sharing a goal keep jostling");
    }
    assert_eq!(crowd.holder(goal), Some(holder));
    for &id in &ids {
        let d = crowd.cell(id).unwrap().manhattan(goal);
        if id == holder {
            assert_eq!(crowd.status(id), Some(AgentStatus::Arrived));
        } else {
            // Beside it, or behind one beside it when its only nearer cell is
            // held (a free cell beside the goal may lie round the corner).
            assert!(d <= 2, "{id:?} waits {d} cells from the goal");
            assert_eq!(crowd.status(id), Some(AgentStatus::Yielding));
        }
    }
}

/// 8 agents of 2x2 cells and 32 of one cell (4- and 8-connected) swap rooms through
/// a corridor 2 wide. The joint step takes them through; where an agent is stuck
/// and the crowd stalls (big agents each on another's goal, boxed in by small ones
/// at home, standing for good) the crowd is untangled, big agents moving too.
#[test]
fn big_and_small_agents_share_corridors() {
    // Two rooms joined by a 2-wide corridor.
    let (room, len) = (12, 10);
    let grid = two_rooms(room, len, 2);
    let mut crowd = Crowd::new(&grid).unwrap();
    let right = |x: i32, s: i32| 2 * room + len - x - s;
    for k in 0..4 {
        // 2x2 units on the top rows, mirrored.
        let (x, y) = (2 * k, 0);
        crowd
            .add(
                &grid,
                AgentSpec::new(Cell::new(x, y))
                    .size(2)
                    .goal(Cell::new(right(x, 2), y)),
            )
            .unwrap();
        crowd
            .add(
                &grid,
                AgentSpec::new(Cell::new(right(x, 2), y))
                    .size(2)
                    .goal(Cell::new(x, y)),
            )
            .unwrap();
    }
    for k in 0..16 {
        let (x, y) = (k % 8, 3 + k / 8);
        let conn = if k % 2 == 0 {
            Connectivity::Four
        } else {
            Connectivity::Eight
        };
        crowd
            .add(
                &grid,
                AgentSpec::new(Cell::new(x, y))
                    .connectivity(conn)
                    .goal(Cell::new(right(x, 1), y)),
            )
            .unwrap();
        crowd
            .add(
                &grid,
                AgentSpec::new(Cell::new(right(x, 1), y))
                    .connectivity(conn)
                    .goal(Cell::new(x, y)),
            )
            .unwrap();
    }
    let run = super::untangle::run_untangling_when(
        &grid,
        &mut crowd,
        3000,
        super::untangle::stuck_in_a_stall,
    );
    println!(
        "8 big and 32 small agents through a 2-wide corridor: home after {:?} steps, \
         {} untangling(s) ({} configurations explored, {} steps walked, at most {} \
         agents moved in one)",
        run.home_at, run.stalls, run.explored, run.walked, run.most_moved
    );
    assert!(run.home_at.is_some(), "not all home in 3000 steps");
}

/// A seeded crowd on a random map, stepped `n` times with edits: its moves.
#[test]
fn mapf_instances_are_solved() {
    // The two smaller maps' instances (the benchmark runs them all), as the benchmark
    // runs them: the joint step, untangled where it stalls (as PIBT+ completes PIBT).
    // maze-32-32-2-100, which needs the untangling, is `untangle.rs`'s.
    for name in [
        "random-32-32-10-100-s1",
        "random-32-32-10-400-s1",
        "maze-32-32-2-50-s1",
    ] {
        let inst = load_mapf(name);
        let mut crowd = Crowd::new(&inst.grid).unwrap();
        for (&s, &g) in inst.starts.iter().zip(&inst.goals) {
            crowd.add(&inst.grid, AgentSpec::new(s).goal(g)).unwrap();
        }
        let run = super::untangle::run_untangling(&inst.grid, &mut crowd, 2000);
        println!(
            "{name}: solved in {:?} steps, {} untangling(s)",
            run.home_at, run.stalls
        );
        assert!(run.home_at.is_some(), "{name} unsolved");
    }
}

/// Pinned agents hold their cells and are never moved nor pushed (an agent whose
/// way they block waits: the guidance does not know them); unpinned, they move again.
#[test]
fn pinned_agents_are_never_moved_nor_pushed() {
    let grid = Grid::new(9, 3).unwrap();
    let mut crowd = Crowd::new(&grid).unwrap();
    let wall = crowd.add(&grid, AgentSpec::new(Cell::new(4, 1))).unwrap();
    crowd.set_pinned(wall, true).unwrap();
    assert!(crowd.is_pinned(wall));
    let walker = crowd
        .add(&grid, AgentSpec::new(Cell::new(0, 1)).goal(Cell::new(8, 1)))
        .unwrap();
    let mut fields = GoalFields::new();
    fields.update(&grid, &crowd).unwrap();
    for _ in 0..30 {
        crowd.step(&grid, &fields).unwrap();
        assert_eq!(
            crowd.cell(wall),
            Some(Cell::new(4, 1)),
            "a pinned agent moved"
        );
        assert_eq!(crowd.holder(Cell::new(4, 1)), Some(wall));
    }
    assert_eq!(
        crowd.cell(walker),
        Some(Cell::new(3, 1)),
        "it waits before the pinned agent"
    );
    // Unpinned, with a goal, it moves.
    crowd.set_pinned(wall, false).unwrap();
    crowd.set_goal(wall, Some(Cell::new(0, 1))).unwrap();
    fields.update(&grid, &crowd).unwrap();
    for _ in 0..30 {
        crowd.step(&grid, &fields).unwrap();
    }
    assert_eq!(
        crowd.cell(wall),
        Some(Cell::new(0, 1)),
        "unpinned, it pushed past"
    );
    assert!(!crowd.is_pinned(wall));
    crowd.remove(walker).unwrap();
    assert!(
        crowd.set_pinned(walker, true).is_err(),
        "a removed agent cannot be pinned"
    );
}

/// The corridor swap as a game runs it: a moved agent blocks the cells it left until
/// it arrives (here: two steps later, as followers of one speed), and the crowd still
/// gets through, nobody sent into a cell another still blocks. (With arrival times
/// that differ from agent to agent the corridor jams: not solved yet.)
#[test]
fn two_groups_swap_through_a_corridor_blocking_the_cells_they_leave() {
    let (room, len) = (10, 12);
    let grid = two_rooms(room, len, 1);
    let mut crowd = Crowd::new(&grid).unwrap();
    crowd.set_hold_left(true).unwrap();
    let mut ids = Vec::new();
    for k in 0..50 {
        let (x, y) = (k % 5, k / 5);
        let left = Cell::new(x, y);
        let right = Cell::new(2 * room + len - 1 - x, y);
        ids.push(crowd.add(&grid, AgentSpec::new(left).goal(right)).unwrap());
        ids.push(crowd.add(&grid, AgentSpec::new(right).goal(left)).unwrap());
    }
    let mut fields = GoalFields::new();
    fields.update(&grid, &crowd).unwrap();
    let mut cov = Coverage::default();
    // Steps each agent still needs to arrive where it last moved.
    let mut walking: Vec<u32> = vec![0; crowd.slots()];
    let (mut done, mut waited) = (None, 0);
    for step in 1..=20_000 {
        let before: Vec<_> = crowd.agents().collect();
        let blocked: Vec<(Cell, AgentId)> = (0..grid.height() as i32)
            .flat_map(|y| (0..grid.width() as i32).map(move |x| Cell::new(x, y)))
            .filter_map(|c| crowd.blocker(c).map(|b| (c, b)))
            .collect();
        let stats = crowd.step(&grid, &fields).unwrap();
        check_step(&grid, &crowd, &before, &mut cov);
        for (id, from, to) in crowd.moves() {
            assert!(crowd.in_transit(id));
            assert_eq!(crowd.blocker(from), Some(id));
            assert!(
                blocked.iter().all(|&(c, b)| c != to || b == id),
                "step {step}: {id:?} sent into {to}, still blocked"
            );
            walking[id.index()] = 2;
        }
        for &id in &ids {
            let w = &mut walking[id.index()];
            if *w > 0 {
                *w -= 1;
                if *w == 0 {
                    crowd.arrive(id).unwrap();
                } else {
                    waited += 1;
                }
            }
        }
        if stats.arrived == crowd.len() && ids.iter().all(|&id| !crowd.in_transit(id)) {
            done = Some(step);
            break;
        }
    }
    println!(
        "100 agents through a 1-wide corridor, blocking the cells they leave: all home after {done:?} steps ({waited} agent-steps on the way)"
    );
    assert!(waited > 0);
    assert!(done.is_some(), "not all home in 20000 steps");
}

/// `GoalFields` says how far an agent sets off from a goal of its own, and nothing for
/// a goal it shares (those keep the pseudo-random order); of two agents that have
/// waited alike, the one farther from its goal goes first: head-on in a corridor,
/// both wanting the one cell between them, one with 11 cells to go and one with 6,
/// the far one takes it, whichever of them was added first.
#[test]
fn the_farther_from_its_goal_goes_first_where_goals_are_its_own() {
    // A corridor along y = 1 with a side cell at (5, 0).
    let grid = map(&["#####.##########", "................", "################"]);
    let (far_at, far_goal) = (Cell::new(4, 1), Cell::new(15, 1));
    let (near_at, near_goal) = (Cell::new(6, 1), Cell::new(0, 1));
    for far_first in [true, false] {
        let mut crowd = Crowd::new(&grid).unwrap();
        let mut add =
            |at: Cell, goal: Cell| crowd.add(&grid, AgentSpec::new(at).goal(goal)).unwrap();
        let (far, near) = if far_first {
            let far = add(far_at, far_goal);
            (far, add(near_at, near_goal))
        } else {
            let near = add(near_at, near_goal);
            (add(far_at, far_goal), near)
        };
        let mut fields = GoalFields::new();
        fields.update(&grid, &crowd).unwrap();
        assert_eq!(
            fields.set_off_distance(far, far_at),
            fields.cost_to_go(far, far_at)
        );
        assert!(fields.set_off_distance(far, far_at) > fields.set_off_distance(near, near_at));
        crowd.step(&grid, &fields).unwrap();
        assert_eq!(
            crowd.cell(far),
            Some(Cell::new(5, 1)),
            "the far agent went first (added first: {far_first})"
        );
        assert_ne!(crowd.cell(near), Some(Cell::new(5, 1)));
    }
    // Two agents sharing a goal: no distance.
    let mut same = Crowd::new(&grid).unwrap();
    let a = same
        .add(&grid, AgentSpec::new(Cell::new(4, 1)).goal(Cell::new(0, 1)))
        .unwrap();
    same.add(&grid, AgentSpec::new(Cell::new(8, 1)).goal(Cell::new(0, 1)))
        .unwrap();
    let mut shared = GoalFields::new();
    shared.update(&grid, &same).unwrap();
    assert_eq!(shared.set_off_distance(a, Cell::new(4, 1)), None);
}

/// Two groups of 20 trade places through a 2-wide gap in a wall, each agent to the
/// cell mirrored across the wall. Plain joint steps leave pairs each on the other's
/// goal among agents already home, pushing each other on and off their goals in turn
/// (each moves every step): they are reported stuck for getting no nearer, and the
/// crowd, untangled where it stalls, gets every agent home.
#[test]
fn a_pair_trading_goals_in_turn_is_stuck_and_untangled() {
    let (w, h) = (40, 12);
    let mut grid = Grid::new(w as u32, h as u32).unwrap();
    for y in 0..h {
        if !(5..=6).contains(&y) {
            grid.set(Cell::new(w / 2, y), TileKind::K1).unwrap();
        }
    }
    let mut crowd = Crowd::new(&grid).unwrap();
    for i in 0..20 {
        let (y, x) = (1 + i % 10, 2 + i / 10);
        for (from, to) in [(x, w - 1 - x), (w - 1 - x, x)] {
            let spec = AgentSpec::new(Cell::new(from, y)).goal(Cell::new(to, y));
            crowd.add(&grid, spec).unwrap();
        }
    }
    let plain = {
        let mut crowd = crowd.clone();
        let mut fields = GoalFields::new();
        fields.update(&grid, &crowd).unwrap();
        for _ in 0..400 {
            crowd.step(&grid, &fields).unwrap();
        }
        let away = crowd
            .agents()
            .filter(|(_, a)| a.goal != Some(a.cell))
            .count();
        let stuck = crowd.stuck().count();
        println!("mirrored trade, plain steps: {away} agents away after 400 steps, {stuck} stuck");
        assert!(
            stuck > 0 || away == 0,
            "{away} agents away, none reported stuck"
        );
        away
    };
    let run = super::untangle::run_untangling_when(
        &grid,
        &mut crowd,
        3000,
        super::untangle::stuck_in_a_stall,
    );
    println!(
        "mirrored trade, untangled: home after {:?} steps, {} untangling(s) ({} plain steps \
         left {plain} away)",
        run.home_at, run.stalls, 400
    );
    assert!(run.home_at.is_some(), "not all home in 3000 steps");
}
