//! Untangling (`Untangle`, `Crowd::step_untangled`): where the joint step stalls in
//! dense rooms, a complete search takes every agent home, every step keeping the
//! crowd's invariants; a plan that no longer fits the crowd is dropped, never walked.

use super::*;
use tilepath::Untangle;

/// What [`run_untangling`] saw.
#[derive(Default)]
pub(super) struct Untangled {
    /// The step every agent stood home at, if within the limit.
    pub(super) home_at: Option<u64>,
    /// Stalls untangled, and configurations their searches explored.
    pub(super) stalls: usize,
    pub(super) explored: usize,
    /// Untangled steps walked, and the most agents one of them moved.
    pub(super) walked: usize,
    pub(super) most_moved: usize,
}

/// Steps `crowd` with the joint step until every agent is home, at most `limit`
/// steps; where it stalls (no agent newly home for 20 steps) untangles it, which must
/// find a plan, and walks the plan. Every step is checked.
pub(super) fn run_untangling(grid: &Grid, crowd: &mut Crowd, limit: u64) -> Untangled {
    run_untangling_when(grid, crowd, limit, |_, since| since >= 20)
}

/// A stall where an agent is stuck while no agent got home for 20 steps: one making
/// way to and fro while the others pass is stuck too, but the crowd is not.
pub(super) fn stuck_in_a_stall(crowd: &Crowd, since: u64) -> bool {
    since >= 20
        && crowd
            .agents()
            .any(|(id, _)| crowd.status(id) == Some(AgentStatus::Stuck))
}

/// [`run_untangling`], untangling where `stalled(crowd, steps since an agent was
/// last newly home)` says.
pub(super) fn run_untangling_when(
    grid: &Grid,
    crowd: &mut Crowd,
    limit: u64,
    stalled: impl Fn(&Crowd, u64) -> bool,
) -> Untangled {
    let mut fields = GoalFields::new();
    fields.update(grid, crowd).unwrap();
    let mut cov = Coverage::default();
    let mut untangle = Untangle::new();
    let mut run = Untangled::default();
    let (mut home, mut since) = (0, 0);
    for step in 1..=limit {
        let before: Vec<_> = crowd.agents().collect();
        let stats = match crowd.step_untangled(grid, &mut untangle).unwrap() {
            Some(stats) => {
                run.walked += 1;
                run.most_moved = run.most_moved.max(stats.moved);
                stats
            }
            None if stalled(crowd, since) => {
                let found = untangle.plan(grid, crowd, &fields, 2_000_000).unwrap();
                run.stalls += 1;
                run.explored += untangle.explored();
                assert!(found, "a stall the search did not untangle");
                since = 0;
                continue;
            }
            None => crowd.step(grid, &fields).unwrap(),
        };
        check_step(grid, crowd, &before, &mut cov);
        if stats.arrived == crowd.len() {
            run.home_at = Some(step);
            break;
        }
        since += 1;
        if stats.arrived > home {
            (home, since) = (stats.arrived, 0);
        }
    }
    run
}

/// Plans `crowd`'s untangling on `grid`, which must be found, and walks it, checking
/// every step and calling `each` after it: the search and the checks' counts.
pub(super) fn plan_and_walk(
    grid: &Grid,
    crowd: &mut Crowd,
    mut each: impl FnMut(&Crowd),
) -> (Untangle, Coverage) {
    let mut fields = GoalFields::new();
    fields.update(grid, crowd).unwrap();
    let mut untangle = Untangle::new();
    assert!(untangle.plan(grid, crowd, &fields, 100_000).unwrap());
    let mut cov = Coverage::default();
    loop {
        let before: Vec<_> = crowd.agents().collect();
        if crowd.step_untangled(grid, &mut untangle).unwrap().is_none() {
            return (untangle, cov);
        }
        check_step(grid, crowd, &before, &mut cov);
        each(crowd);
    }
}

/// Crowded rooms with pillars (the floor stays 2-connected, and at least 2 cells
/// stay free, so that every instance has a solution: Kornhauser, Miller and
/// Spirakis, FOCS 1984), 60 to 85 agents for 100 floor cells: the joint step runs
/// until it stalls (no agent newly home for 20 steps), then an untangling takes
/// everyone home. Every step is checked; every stall must be untangled.
/// A small seeded room (4-9 by 3-8 cells, a few pillars) filled to 60-85% with
/// agents, each sent to another floor cell, none to the same: the grid and each
/// agent's start and goal. `None` for a room of fewer than 6 floor cells (a 2x2 room
/// is a cycle of four cells, which the completeness theorem leaves out).
pub(super) fn crowded_room(rng: &mut rand::rngs::StdRng) -> Option<(Grid, Vec<(Cell, Cell)>)> {
    let (w, h) = (rng.random_range(4..10), rng.random_range(3..9));
    let mut grid = Grid::filled(w, h, TileKind::K0).unwrap();
    // Pillars: inner cells with no wall beside them (not even at a corner).
    for _ in 0..(w * h / 12) {
        let (x, y) = (
            rng.random_range(1..w as i32 - 1),
            rng.random_range(1..h as i32 - 1),
        );
        let clear = (-1..=1).all(|dy| {
            (-1..=1).all(|dx| grid.fits(Cell::new(x + dx, y + dy), Mobility::FLOOR_ONLY, 1))
        });
        if clear && w >= 3 && h >= 3 {
            grid.set(Cell::new(x, y), TileKind::K1).unwrap();
        }
    }
    let floor: Vec<Cell> = (0..grid.len())
        .map(|i| grid.cell_of(i).unwrap())
        .filter(|&c| grid.fits(c, Mobility::FLOOR_ONLY, 1))
        .collect();
    if floor.len() < 6 {
        return None;
    }
    let n = (floor.len() * rng.random_range(60..86) / 100).min(floor.len() - 2);
    let mut starts = floor.clone();
    let mut goals = floor;
    for v in [&mut starts, &mut goals] {
        for i in (1..v.len()).rev() {
            v.swap(i, rng.random_range(0..=i));
        }
    }
    Some((grid, starts.into_iter().zip(goals).take(n).collect()))
}

#[test]
fn untangling_takes_every_agent_home_where_the_joint_step_stalls() {
    let (mut rooms, mut stalled, mut walked, mut explored) = (0, 0, 0, 0);
    for seed in 0..400_u64 {
        let mut rng = rng(5000 + seed);
        let Some((grid, pairs)) = crowded_room(&mut rng) else {
            continue;
        };
        rooms += 1;
        let mut crowd = Crowd::new(&grid).unwrap();
        for (start, goal) in pairs {
            crowd.add(&grid, AgentSpec::new(start).goal(goal)).unwrap();
        }
        let run = run_untangling(&grid, &mut crowd, 3000);
        assert!(run.home_at.is_some(), "seed {seed}: not every agent home");
        (stalled, explored, walked) = (
            stalled + run.stalls,
            explored + run.explored,
            walked + run.walked,
        );
    }
    println!(
        "{rooms} crowded rooms all home: {stalled} stalls untangled ({explored} \
         configurations explored), {walked} untangled steps walked"
    );
    assert!(
        stalled >= 10,
        "too few stalls to test the search: {stalled}"
    );
}

/// A plan that no longer fits the crowd is dropped: an agent of it removed, or a
/// cell it enters walled.
#[test]
fn a_plan_that_no_longer_fits_is_dropped() {
    let grid = map(&["....", "#.##"]);
    let crowd_of = |grid: &Grid| {
        let mut crowd = Crowd::new(grid).unwrap();
        let a = crowd
            .add(grid, AgentSpec::new(Cell::new(0, 0)).goal(Cell::new(3, 0)))
            .unwrap();
        let b = crowd
            .add(grid, AgentSpec::new(Cell::new(3, 0)).goal(Cell::new(0, 0)))
            .unwrap();
        (crowd, a, b)
    };
    let plan = |grid: &Grid, crowd: &Crowd| {
        let mut fields = GoalFields::new();
        fields.update(grid, crowd).unwrap();
        let mut untangle = Untangle::new();
        assert!(untangle.plan(grid, crowd, &fields, 10_000).unwrap());
        untangle
    };
    // Walked whole: both home.
    let (mut crowd, a, b) = crowd_of(&grid);
    let mut untangle = plan(&grid, &crowd);
    let steps = untangle.steps_left();
    assert!(steps >= 5, "{steps} steps");
    while crowd
        .step_untangled(&grid, &mut untangle)
        .unwrap()
        .is_some()
    {}
    assert_eq!(crowd.cell(a), Some(Cell::new(3, 0)));
    assert_eq!(crowd.cell(b), Some(Cell::new(0, 0)));
    // An agent of the plan removed: the plan is dropped at the first step that moves
    // it (the steps before move the other alone).
    let (mut crowd, a, _) = crowd_of(&grid);
    let mut untangle = plan(&grid, &crowd);
    crowd.remove(a).unwrap();
    let mut walked = 0;
    while crowd
        .step_untangled(&grid, &mut untangle)
        .unwrap()
        .is_some()
    {
        walked += 1;
    }
    assert_eq!(untangle.steps_left(), 0);
    assert!(
        walked < steps,
        "walked {walked} of {steps} steps without the agent"
    );
    // The pocket walled after planning: the step into it is refused.
    let (mut crowd, a, b) = crowd_of(&grid);
    let mut untangle = plan(&grid, &crowd);
    let mut walled = grid.clone();
    walled.set(Cell::new(1, 1), TileKind::K1).unwrap();
    let mut moved = 0;
    while let Some(stats) = crowd.step_untangled(&walled, &mut untangle).unwrap() {
        moved += stats.moved;
        assert_ne!(crowd.cell(a), Some(Cell::new(1, 1)));
        assert_ne!(crowd.cell(b), Some(Cell::new(1, 1)));
    }
    assert_eq!(untangle.steps_left(), 0);
    assert!(moved < steps * 2, "walked on past the wall");
    // No way at all (the pocket walled before): the search says so.
    let (crowd, _, _) = crowd_of(&walled);
    let mut fields = GoalFields::new();
    fields.update(&walled, &crowd).unwrap();
    let mut untangle = Untangle::new();
    assert!(!untangle.plan(&walled, &crowd, &fields, 100_000).unwrap());
    // Another grid size: an error.
    assert!(
        untangle
            .plan(&Grid::new(3, 3).unwrap(), &crowd, &fields, 10)
            .is_err()
    );
}

/// A pinned agent holds its cells; agents without a goal (of one cell and bigger)
/// end where they stood, moved aside meanwhile if need be.
#[test]
fn pinned_and_goalless_agents_are_kept_in_place() {
    let grid = Grid::filled(6, 4, TileKind::K0).unwrap();
    let mut crowd = Crowd::new(&grid).unwrap();
    let big = crowd
        .add(&grid, AgentSpec::new(Cell::new(0, 0)).size(2))
        .unwrap();
    let pinned = crowd.add(&grid, AgentSpec::new(Cell::new(5, 3))).unwrap();
    crowd.set_pinned(pinned, true).unwrap();
    let idle = crowd.add(&grid, AgentSpec::new(Cell::new(3, 1))).unwrap();
    let a = crowd
        .add(&grid, AgentSpec::new(Cell::new(2, 1)).goal(Cell::new(4, 1)))
        .unwrap();
    let b = crowd
        .add(&grid, AgentSpec::new(Cell::new(4, 1)).goal(Cell::new(2, 1)))
        .unwrap();
    let (mut untangle, _) = plan_and_walk(&grid, &mut crowd, |crowd| {
        assert_eq!(crowd.cell(pinned), Some(Cell::new(5, 3)));
    });
    assert_eq!(crowd.cell(big), Some(Cell::new(0, 0)));
    assert_eq!(crowd.cell(a), Some(Cell::new(4, 1)));
    assert_eq!(crowd.cell(b), Some(Cell::new(2, 1)));
    assert_eq!(crowd.cell(idle), Some(Cell::new(3, 1)));
    // Nothing planned: nothing walked.
    assert!(
        crowd
            .step_untangled(&grid, &mut untangle)
            .unwrap()
            .is_none()
    );
}

/// Agents bigger than a cell are untangled with the others: three 2x2 agents in a
/// row, each on the next one's goal, a fourth at home beside them and one-cell agents
/// at home below, which make room and come back. Every agent ends home, every step
/// checked (no shared cell, none through another, each a legal step).
#[test]
fn big_agents_are_untangled_too() {
    for (smalls, sizes) in [
        (0, [2, 2, 2]),
        (16, [2, 2, 2]),
        (16, [2, 3, 2]),
        (12, [3, 3, 3]),
    ] {
        let grid = Grid::filled(14, 12, TileKind::K0).unwrap();
        let mut crowd = Crowd::new(&grid).unwrap();
        // Anchors one after the other along the top row; each heads for the next one's.
        let mut x = 3;
        let mut anchors = Vec::new();
        for &size in &sizes {
            anchors.push((x, size));
            x += i32::from(size);
        }
        for (k, &(x, size)) in anchors.iter().enumerate() {
            let goal = Cell::new(anchors[(k + 1) % anchors.len()].0, 0);
            let spec = AgentSpec::new(Cell::new(x, 0)).size(size).goal(goal);
            crowd.add(&grid, spec).unwrap();
        }
        let home = crowd
            .add(
                &grid,
                AgentSpec::new(Cell::new(0, 0))
                    .size(2)
                    .goal(Cell::new(0, 0)),
            )
            .unwrap();
        for k in 0..smalls {
            let c = Cell::new(k % 12, 4 + k / 12);
            crowd.add(&grid, AgentSpec::new(c).goal(c)).unwrap();
        }
        let (untangle, cov) = plan_and_walk(&grid, &mut crowd, |_| {});
        println!(
            "sizes {sizes:?} rotating, {smalls} one-cell agents round them: home in {} steps, \
             {} configurations explored",
            cov.steps,
            untangle.explored()
        );
        assert!(
            crowd.agents().all(|(_, a)| a.goal == Some(a.cell)),
            "not every agent home"
        );
        assert_eq!(crowd.cell(home), Some(Cell::new(0, 0)));
        assert!(cov.steps > 0);
    }
}

/// A MAPF instance the joint step alone leaves agents short of home for good in
/// (`maze-32-32-2-100-s1`, corridors 2 wide): untangled where it stalls, every
/// agent gets home, each step checked; the untangling moves only agents near the
/// knot.
#[test]
fn the_maze_instance_is_solved_once_untangled() {
    let name = "maze-32-32-2-100-s1";
    let inst = load_mapf(name);
    let grid = &inst.grid;
    let mut crowd = Crowd::new(grid).unwrap();
    for (&s, &g) in inst.starts.iter().zip(&inst.goals) {
        crowd.add(grid, AgentSpec::new(s).goal(g)).unwrap();
    }
    let run = run_untangling(grid, &mut crowd, 2000);
    println!(
        "{name}: home after {:?} steps, {} untangling(s), at most {} agents moved in an \
         untangled step",
        run.home_at, run.stalls, run.most_moved
    );
    assert!(run.home_at.is_some(), "not every agent home");
    assert!(run.stalls >= 1, "no stall: the untangling was not tested");
    assert!(
        run.most_moved < 50,
        "the untangling moved much of the crowd"
    );
}

/// A file of 1,500 agents in a corridor one cell wide, each heading one cell on: the
/// chains of agents asked to make room are longer than the search follows, yet it
/// finds the way (and the stack stays small: this runs on a test thread's).
#[test]
fn a_long_file_is_untangled_without_deep_chains() {
    let n = 1500;
    let grid = Grid::filled(n + 40, 1, TileKind::K0).unwrap();
    let mut crowd = Crowd::new(&grid).unwrap();
    for x in 0..n as i32 {
        crowd
            .add(
                &grid,
                AgentSpec::new(Cell::new(x, 0)).goal(Cell::new(x + 1, 0)),
            )
            .unwrap();
    }
    let (untangle, cov) = plan_and_walk(&grid, &mut crowd, |_| {});
    println!(
        "{n} agents in a file: home in {} steps, {} configurations explored",
        cov.steps,
        untangle.explored()
    );
    assert!(crowd.agents().all(|(_, a)| a.goal == Some(a.cell)));
}

/// Chaos round untangling: mixed sizes, 4- and 8-connected agents, goals mostly
/// distinct floor cells and some anywhere on the grid (walls, cells no way reaches,
/// another's goal), pinned
/// agents, small node limits, and between planning and walking agents added, removed
/// and pinned and cells walled. Nothing panics, every step walked keeps the
/// invariants, and a plan that no longer fits is dropped without a move.
#[test]
fn untangling_under_chaos_never_breaks_the_rules() {
    // Kinds 0 to 2 are ground of several costs, kind 3 walls.
    const MOBILITY: Mobility = Mobility::new([1, 2, 1, 0]);
    let (mut plans, mut found, mut walked, mut dropped) = (0, 0, 0, 0);
    for seed in 0..80_u64 {
        let mut rng = rng(9000 + seed);
        let (w, h) = (rng.random_range(3..16), rng.random_range(2..12));
        let mut grid = random_grid(&mut rng, w, h, 0.04);
        let mut goals: Vec<Cell> = (0..grid.len())
            .map(|i| grid.cell_of(i).unwrap())
            .filter(|&c| grid.fits(c, MOBILITY, 1))
            .collect();
        for i in (1..goals.len()).rev() {
            goals.swap(i, rng.random_range(0..=i));
        }
        let mut goal = move |_: i32, rng: &mut rand::rngs::StdRng| match goals.pop() {
            Some(c) if rng.random_bool(0.9) => c,
            _ => Cell::new(rng.random_range(0..w as i32), rng.random_range(0..h as i32)),
        };
        let mut crowd = Crowd::new(&grid).unwrap();
        let n = rng.random_range(2..(w * h) as i32 / 5 + 3);
        add_mixed_agents(&mut rng, &grid, &mut crowd, n, MOBILITY, &mut goal);
        let mut fields = GoalFields::new();
        let mut untangle = Untangle::new();
        let mut cov = Coverage::default();
        for _ in 0..150 {
            match rng.random_range(0..40) {
                0..=3 if untangle.steps_left() == 0 => {
                    let _ = fields.update(&grid, &crowd);
                    plans += 1;
                    let most = rng.random_range(1..20_000);
                    if untangle.plan(&grid, &crowd, &fields, most).unwrap()
                        && untangle.steps_left() > 0
                    {
                        found += 1;
                    }
                }
                4 => {
                    let c = random_cell(&mut rng, &grid);
                    let _ = grid.set(c, TileKind::K3);
                }
                5 => {
                    let ids: Vec<_> = crowd.agents().map(|(id, _)| id).collect();
                    if let Some(&id) = ids.get(rng.random_range(0..ids.len().max(1))) {
                        if rng.random_bool(0.5) {
                            crowd.remove(id).unwrap();
                        } else {
                            crowd.set_pinned(id, true).unwrap();
                        }
                    }
                }
                6 => {
                    add_mixed_agents(&mut rng, &grid, &mut crowd, 1, MOBILITY, &mut goal);
                }
                _ => {
                    let before: Vec<_> = crowd.agents().collect();
                    let left = untangle.steps_left();
                    match crowd.step_untangled(&grid, &mut untangle).unwrap() {
                        Some(_) => {
                            walked += 1;
                            check_step(&grid, &crowd, &before, &mut cov);
                        }
                        None => {
                            dropped += usize::from(left > 0);
                            assert_eq!(untangle.steps_left(), 0);
                            for (id, a) in &before {
                                assert_eq!(crowd.agent(*id).unwrap().cell, a.cell);
                            }
                        }
                    }
                }
            }
        }
    }
    println!(
        "untangling chaos: {plans} plans ({found} found with steps), {walked} steps walked, \
         {dropped} plans dropped"
    );
    assert!(found > 20 && walked > 100 && dropped > 5);
}
