//! The crowds games have: groups swapping through corridors (1 and 2 wide, big and
//! small units), units sharing a goal, chasers surrounding a target. Without the
//! pathing's time cap, so that which requests a tick serves, and so where the units
//! end, does not depend on the machine's speed.

use super::*;

/// Two groups of 50 swap sides through a corridor one cell wide.
#[test]
fn two_groups_swap_through_a_one_wide_corridor() {
    // Two rooms of 12x12 joined by a corridor 20 cells long at y = 6.
    let mut grid = Grid::filled(44, 12, TileKind::K1).unwrap();
    grid.fill_rect(Cell::new(0, 0), Cell::new(11, 11), TileKind::K0);
    grid.fill_rect(Cell::new(32, 0), Cell::new(43, 11), TileKind::K0);
    grid.fill_rect(Cell::new(12, 6), Cell::new(31, 6), TileKind::K0);
    let mut app = app(Some(grid), uncapped());
    let mut inv = Invariants::new();
    let mut units = Vec::new();
    for i in 0..50 {
        let (x, y) = (i % 7, i / 7);
        let a = spawn(
            &mut app,
            Cell::new(x, y),
            Cell::new(43 - x, 11 - y),
            1,
            6.0,
            false,
        );
        let b = spawn(
            &mut app,
            Cell::new(43 - x, 11 - y),
            Cell::new(x, y),
            1,
            6.0,
            false,
        );
        units.push(a);
        units.push(b);
    }
    let mut arrived_at = None;
    for tick in 0..12_000 {
        ticks(&mut app, 1);
        inv.check(&mut app, if tick == 0 { &units } else { &[] });
        if all_home(&app, &units) {
            arrived_at = Some(tick);
            break;
        }
    }
    let at = arrived_at.expect("not every unit got through the corridor in 12000 ticks");
    println!("corridor swap: all 100 at their goals after {at} ticks");
}

/// 8 units of 2x2 cells and 32 of one cell (4- and 8-connected) swap rooms through a
/// corridor 2 wide. A 2x2 unit fills the corridor: the crowd takes them through
/// (untangling them where they stand stuck, big ones each on another's goal, boxed in
/// by others at home). Every unit ends at its goal.
#[test]
fn big_and_small_units_share_a_corridor() {
    // Two rooms of 12x12 joined by a corridor 10 cells long at y = 6 and 7.
    let mut grid = Grid::filled(34, 12, TileKind::K1).unwrap();
    grid.fill_rect(Cell::new(0, 0), Cell::new(11, 11), TileKind::K0);
    grid.fill_rect(Cell::new(22, 0), Cell::new(33, 11), TileKind::K0);
    grid.fill_rect(Cell::new(12, 6), Cell::new(21, 7), TileKind::K0);
    let mut app = app(Some(grid), uncapped());
    let mut inv = Invariants::new();
    let mut units = Vec::new();
    let right = |x: i32, size: i32| 34 - x - size;
    for k in 0..4 {
        let x = 2 * k;
        units.push(spawn(
            &mut app,
            Cell::new(x, 0),
            Cell::new(right(x, 2), 0),
            2,
            4.0,
            false,
        ));
        units.push(spawn(
            &mut app,
            Cell::new(right(x, 2), 0),
            Cell::new(x, 0),
            2,
            4.0,
            false,
        ));
    }
    for k in 0..16 {
        let (x, y) = (k % 8, 3 + k / 8);
        let eight = k % 2 == 1;
        units.push(spawn(
            &mut app,
            Cell::new(x, y),
            Cell::new(right(x, 1), y),
            1,
            6.0,
            eight,
        ));
        units.push(spawn(
            &mut app,
            Cell::new(right(x, 1), y),
            Cell::new(x, y),
            1,
            6.0,
            eight,
        ));
    }
    let (mut arrived_at, mut most_stuck, mut untangled) = (None, 0, 0);
    for tick in 0..20_000 {
        ticks(&mut app, 1);
        inv.check(&mut app, if tick == 0 { &units } else { &[] });
        let diag = app.world().resource::<PathingDiagnostics>();
        most_stuck = most_stuck.max(diag.crowd_stuck);
        untangled += diag.crowd_untangled;
        if all_home(&app, &units) {
            arrived_at = Some(tick);
            break;
        }
    }
    println!(
        "8 big and 32 small units through a 2-wide corridor: all at their goals after \
         {arrived_at:?} ticks ({} steps checked; at most {most_stuck} reported stuck at once; \
         {untangled} moves untangled)",
        inv.steps
    );
    assert!(
        arrived_at.is_some(),
        "not every unit at its goal in 20000 ticks"
    );
}

/// The MAPF benchmark's instance `maze-32-32-2-100-s1`: 100 units, each with a goal
/// of its own, in a maze's corridors 2 wide. The crowd's own steps take all but two
/// home, and leave those two pushing each other to and fro by a wall for good: they
/// move, yet make no way. Taking them home needs an untangling search of about
/// 180,000 configurations: where Bevy's async compute pool has a thread of its own
/// the plugin runs it there and every unit gets home; where the search runs in the
/// tick (a few thousand configurations at most: `untangling.rs`), the two must at
/// least be reported stuck rather than left moving unseen.
#[test]
fn a_knot_in_a_crowded_maze_is_untangled_or_reported_stuck() {
    let inst = tilepath_testkit::load_mapf("maze-32-32-2-100-s1");
    let mut app = app(Some(inst.grid.clone()), uncapped());
    let away_from_tick = bevy::tasks::AsyncComputeTaskPool::get().thread_num() > 0;
    let mut inv = Invariants::new();
    let units: Vec<Entity> = inst
        .starts
        .iter()
        .zip(&inst.goals)
        .map(|(&start, &goal)| spawn(&mut app, start, goal, 1, 6.0, false))
        .collect();
    // Moves, and most units reported stuck at once, in the last 1000 ticks; ticks in
    // in which an untangling was searched off the tick.
    let (mut untangled, mut moved, mut stuck, mut searching) = (0, 0, 0, 0);
    let started = std::time::Instant::now();
    for tick in 0..3000 {
        ticks(&mut app, 1);
        inv.check(&mut app, if tick == 0 { &units } else { &[] });
        let d = app.world().resource::<PathingDiagnostics>();
        untangled += d.crowd_untangled;
        if tick >= 2000 {
            moved += d.crowd_moved;
            stuck = stuck.max(d.crowd_stuck);
        }
        // A search under way (`ticks` lets it take its time, as a game's frames do).
        if d.crowd_searching > 0 {
            searching += 1;
            assert!(
                started.elapsed() < std::time::Duration::from_secs(120),
                "the search never ended"
            );
        }
    }
    let away: Vec<usize> = (0..units.len())
        .filter(|&i| !all_home(&app, &units[i..=i]))
        .collect();
    println!(
        "{}: after 3000 ticks {} units away from their goals ({away:?}); in the last \
         1000 ticks {moved} crowd moves, at most {stuck} reported stuck at once; {} steps \
         checked, {untangled} moves untangled, {searching} ticks with a search off the tick ({})",
        inst.name,
        away.len(),
        inv.steps,
        if away_from_tick {
            "searched off the tick"
        } else {
            "no thread for it: searched in the tick"
        }
    );
    if away_from_tick {
        assert!(away.is_empty(), "units left away from their goals");
        assert!(untangled > 0 && searching > 0);
    } else if !away.is_empty() {
        assert!(
            stuck > 0,
            "units away from home for good, none reported stuck"
        );
    }
}

/// Units sent to the same cell: one stands on it, the others gather round it as near
/// as they get, and nobody is reported stuck.
#[test]
fn units_with_one_goal_gather_round_it() {
    let grid = Grid::filled(30, 30, TileKind::K0).unwrap();
    let mut app = app(Some(grid), uncapped());
    let goal = Cell::new(15, 15);
    let mut inv = Invariants::new();
    let mut units = Vec::new();
    for i in 0..40 {
        units.push(spawn(
            &mut app,
            Cell::new(i % 30, (i / 30) * 29),
            goal,
            1,
            5.0,
            true,
        ));
    }
    for tick in 0..1800 {
        ticks(&mut app, 1);
        inv.check(&mut app, if tick == 0 { &units } else { &[] });
    }
    let on_goal = units.iter().filter(|&&e| cell_of(&app, e) == goal).count();
    assert_eq!(on_goal, 1);
    // 40 units fill the 7x7 square round the goal (49 cells) but for a few.
    let far = units
        .iter()
        .map(|&e| cell_of(&app, e))
        .filter(|c| c.x.abs_diff(goal.x).max(c.y.abs_diff(goal.y)) > 3)
        .count();
    println!("40 units with one goal: {far} more than 3 cells from it");
    assert_eq!(far, 0, "{far} units did not come near the goal");
    let diag = app.world().resource::<PathingDiagnostics>();
    assert_eq!(diag.crowd_stuck, 0);
}

/// 200 chasers of one target close in and surround it, each on a cell of its own as
/// near as it gets, while it walks round a square; then it jumps away, and they close
/// in again. Few of their steps undo the step before.
#[test]
fn two_hundred_chasers_surround_their_target() {
    let grid = Grid::filled(48, 48, TileKind::K0).unwrap();
    let mut app = app(Some(grid), uncapped());
    let mut rng = seeded(200);
    let target = app
        .world_mut()
        .spawn((GridCell(Cell::new(24, 24)), Transform::default()))
        .id();
    let mut chasers = Vec::new();
    while chasers.len() < 200 {
        let at = Cell::new(rng.random_range(0..48), rng.random_range(0..48));
        if at.x.abs_diff(24).max(at.y.abs_diff(24)) < 12 {
            continue;
        }
        let e = app
            .world_mut()
            .spawn((
                GridCell(at),
                Transform::default(),
                PathRequest::chase(target)
                    .with_mobility(Mobility::FLOOR_ONLY)
                    .with_connectivity(Connectivity::Eight),
                PathFollower::new(5.0),
                Solid,
            ))
            .id();
        chasers.push(e);
    }
    let mut inv = Invariants::new();
    let mut walking = (0, 0);
    for tick in 0..2400 {
        if tick == 1200 {
            app.world_mut().get_mut::<GridCell>(target).unwrap().0 = Cell::new(14, 30);
        }
        if tick < 1200 && tick % 12 == 0 {
            // The target walks round a 10x10 square, a cell every 12 ticks (5 cells
            // a second, as fast as its chasers).
            let k = tick / 12 % 40;
            let (side, along) = (k / 10, k % 10);
            let at = match side {
                0 => Cell::new(19 + along, 19),
                1 => Cell::new(29, 19 + along),
                2 => Cell::new(29 - along, 29),
                _ => Cell::new(19, 29 - along),
            };
            app.world_mut().get_mut::<GridCell>(target).unwrap().0 = at;
        }
        ticks(&mut app, 1);
        inv.check(&mut app, &[]);
        if tick == 1199 {
            walking = (inv.steps, inv.reversals);
        }
    }
    let goal = Cell::new(14, 30);
    // The way a chaser walks: octile distance (open ground).
    let octile = |c: Cell| {
        let (dx, dy) = (c.x.abs_diff(goal.x), c.y.abs_diff(goal.y));
        f64::from(dx.max(dy) - dx.min(dy)) + f64::from(dx.min(dy)) * std::f64::consts::SQRT_2
    };
    let at: Vec<Cell> = chasers.iter().map(|&e| cell_of(&app, e)).collect();
    let farthest = at.iter().map(|&c| octile(c)).fold(0.0, f64::max);
    // The tightest they could stand: the 200 cells nearest the target.
    let mut all: Vec<f64> = (0..48)
        .flat_map(|y| (0..48).map(move |x| octile(Cell::new(x, y))))
        .collect();
    all.sort_by(f64::total_cmp);
    let tightest = all[199];
    let holes = (0..48)
        .flat_map(|y| (0..48).map(move |x| Cell::new(x, y)))
        .filter(|&c| octile(c) < farthest - 1e-9 && !at.contains(&c))
        .count();
    println!(
        "200 chasers: {} steps checked over {} ticks, closest {:.2}; the farthest {farthest:.2} \
         from the target (the tightest ring: {tightest:.2}), {holes} free cells nearer",
        inv.steps, inv.ticks, inv.closest
    );
    let (settling, back) = (inv.steps - walking.0, inv.reversals - walking.1);
    println!(
        "steps straight back onto the cell left: {} of {} while the target walked, {back} of \
         {settling} while they closed in on it again",
        walking.1, walking.0
    );
    // Chasers make way for each other and come back, but are not pushed back and forth:
    // a step that undoes the unit's last one stays the exception.
    assert!(
        walking.1 * 10 <= walking.0 && back * 10 <= settling,
        "chasers pushed back and forth"
    );
    // They surround it: the farthest at most a step outside the tightest ring (the
    // rim settles as its units find the last free cells round it).
    assert!(
        farthest <= tightest + 1.0,
        "a chaser waits {farthest:.2} from the target"
    );
    assert_eq!(at.iter().filter(|&&c| c == goal).count(), 1);
    let diag = app.world().resource::<PathingDiagnostics>();
    assert_eq!(diag.crowd_stuck, 0);
}

/// Two groups of 20 trade places through a 2-wide gap in a wall, each unit to the
/// cell mirrored across the wall: in each row the unit that has farther to go must
/// pass the one that has less, among units already home. Plain joint steps push
/// such a pair on and off their goals in turn for ever (each moves every step, and
/// gets home every fourth); it is reported stuck for getting no nearer, and
/// untangled.
#[test]
fn two_groups_trade_mirrored_places_through_a_gap() {
    let (w, h) = (40, 12);
    let mut grid = Grid::new(w as u32, h as u32).unwrap();
    for y in 0..h {
        if !(5..=6).contains(&y) {
            grid.set(Cell::new(w / 2, y), TileKind::K1).unwrap();
        }
    }
    let mut app = app(Some(grid), uncapped());
    let mut inv = Invariants::new();
    let mut units = Vec::new();
    for i in 0..20 {
        let (y, x) = (1 + i % 10, 2 + i / 10);
        units.push(spawn(
            &mut app,
            Cell::new(x, y),
            Cell::new(w - 1 - x, y),
            1,
            6.0,
            false,
        ));
        units.push(spawn(
            &mut app,
            Cell::new(w - 1 - x, y),
            Cell::new(x, y),
            1,
            6.0,
            false,
        ));
    }
    let (mut home_at, mut most_stuck) = (None, 0);
    for tick in 0..20_000 {
        ticks(&mut app, 1);
        inv.check(&mut app, if tick == 0 { &units } else { &[] });
        most_stuck = most_stuck.max(app.world().resource::<PathingDiagnostics>().crowd_stuck);
        if all_home(&app, &units) {
            home_at = Some(tick);
            break;
        }
    }
    println!("mirrored trade: all 40 home after {home_at:?} ticks, at most {most_stuck} stuck");
    assert!(home_at.is_some(), "not every unit got home in 20000 ticks");
}
