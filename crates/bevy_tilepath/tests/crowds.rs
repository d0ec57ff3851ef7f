//! Crowds in the plugin: solid units never share a cell, never pass through each
//! other, and get where they are going in the cases games have.

mod common;

use std::collections::HashMap;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{app, seeded, ticks};
use rand::RngExt;

/// The cells of the `size x size` footprint anchored at `c`.
fn footprint(c: Cell, size: u8) -> impl Iterator<Item = Cell> {
    let n = i32::from(size);
    (0..n).flat_map(move |dy| (0..n).map(move |dx| Cell::new(c.x + dx, c.y + dy)))
}

/// Checks, after a tick, that no two solid units hold a cell (the cells under their
/// footprints at their [`GridCell`]s), that none swapped cells with another, that
/// every unit moved at most one step, and that units drawn as discs of 0.7 times
/// their size never overlap on the way (a unit enters a cell another leaves in the
/// same step behind it: centres a cell apart in a file, at least 0.71 apart where the
/// file turns). Units moved by the test itself are listed in `moved_by_hand`.
///
/// On a hex map ([`GridTransform`]'s layout) every move must be one hex step of the
/// layout; the discs are not checked there (hex steps have no corner rule: a unit
/// following another round a turn of 60 degrees comes within half a cell of it).
struct Invariants {
    seen: HashMap<Entity, Cell>,
    ticks: usize,
    steps: usize,
    /// The closest two units' centres came, over the sum of their sizes' halves.
    closest: f32,
    /// Unit-ticks of units between two cells, and of those drawn off the line between
    /// the cells' centres (gliding on a straight route).
    moving: usize,
    glided: usize,
}

/// The share of its size a unit's disc covers.
const DISC: f32 = 0.7;

impl Invariants {
    fn new() -> Self {
        Self {
            seen: HashMap::new(),
            ticks: 0,
            steps: 0,
            closest: f32::MAX,
            moving: 0,
            glided: 0,
        }
    }

    fn check(&mut self, app: &mut App, moved_by_hand: &[Entity]) {
        self.ticks += 1;
        let place = *app.world().resource::<GridTransform>();
        let hex = place.layout.hex();
        let unit_len =
            (place.cell_to_world(Cell::new(1, 0)) - place.cell_to_world(Cell::new(0, 0))).length();
        let mut q = app.world_mut().query_filtered::<(
            Entity,
            &GridCell,
            &PathRequest,
            &PathFollower,
            &Transform,
        ), With<Solid>>();
        let units: Vec<_> = q
            .iter(app.world())
            .map(|(e, c, r, f, t)| {
                (
                    e,
                    c.0,
                    r.size,
                    f.is_moving(),
                    t.translation.truncate() / unit_len,
                )
            })
            .collect();
        for &(_, cell, size, moving, at) in units.iter().filter(|_| hex.is_none()) {
            // The default transform centres cell (x, y) at (x, y). Drawn between two
            // cells' centres, a unit is off its cell's centre along an axis or a
            // diagonal.
            let centre =
                Vec2::new(cell.x as f32, cell.y as f32) + Vec2::splat(f32::from(size - 1) / 2.0);
            let d = (at - centre).abs();
            if moving {
                self.moving += 1;
                if d.x.min(d.y).min((d.x - d.y).abs()) > 0.02 {
                    self.glided += 1;
                }
            }
        }
        let mut holder: HashMap<Cell, Entity> = HashMap::new();
        let ticks = self.ticks;
        let detail = |e: Entity| {
            let u = units.iter().find(|u| u.0 == e).unwrap();
            format!(
                "{e} at {} size {} moving {} (was {:?})",
                u.1,
                u.2,
                u.3,
                self.seen.get(&e)
            )
        };
        for &(e, cell, size, _, _) in &units {
            for c in footprint(cell, size) {
                if let Some(other) = holder.insert(c, e)
                    && other != e
                {
                    panic!(
                        "tick {ticks}: {} and {} both hold {c}",
                        detail(e),
                        detail(other)
                    );
                }
            }
            if let Some(&before) = self.seen.get(&e)
                && before != cell
                && !moved_by_hand.contains(&e)
            {
                let one_step = match hex {
                    Some(layout) => layout
                        .directions(before)
                        .into_iter()
                        .any(|d| before.step(d) == cell),
                    None => before.x.abs_diff(cell.x) <= 1 && before.y.abs_diff(cell.y) <= 1,
                };
                assert!(one_step, "tick {ticks}: {e} jumped from {before} to {cell}");
                self.steps += 1;
            }
        }
        // Discs: every pair of units near each other (on squares).
        for (i, a) in units.iter().enumerate().filter(|_| hex.is_none()) {
            for b in &units[i + 1..] {
                if moved_by_hand.contains(&a.0) || moved_by_hand.contains(&b.0) {
                    continue;
                }
                let reach = (f32::from(a.2) + f32::from(b.2)) / 2.0;
                let d = a.4.distance(b.4) / reach;
                if d < 2.0 {
                    self.closest = self.closest.min(d);
                }
                assert!(
                    d >= DISC,
                    "tick {ticks}: {} and {} came {:.2} cells close",
                    detail(a.0),
                    detail(b.0),
                    a.4.distance(b.4)
                );
            }
        }
        // No swap: no two units each entered the cell the other left this tick.
        let now: HashMap<Entity, Cell> = units.iter().map(|u| (u.0, u.1)).collect();
        for (&e, &cell) in &now {
            let Some(&before) = self.seen.get(&e) else {
                continue;
            };
            if before == cell {
                continue;
            }
            for (&o, &other) in &now {
                if o != e
                    && let Some(&other_before) = self.seen.get(&o)
                {
                    assert!(
                        !(other == before && other_before == cell),
                        "tick {ticks}: {e} and {o} swapped"
                    );
                }
            }
        }
        self.seen = now;
    }
}

fn spawn(app: &mut App, at: Cell, goal: Cell, size: u8, speed: f32, eight: bool) -> Entity {
    let connectivity = if eight {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    app.world_mut()
        .spawn((
            GridCell(at),
            Transform::default(),
            PathRequest::to_cell(goal)
                .with_mobility(Mobility::FLOOR_ONLY)
                .with_connectivity(connectivity)
                .with_size(size),
            PathFollower::new(speed),
            Solid,
        ))
        .id()
}

fn cell_of(app: &App, e: Entity) -> Cell {
    app.world().get::<GridCell>(e).unwrap().0
}

/// Seeded hostile runs: mixed sizes and speeds, 4- and 8-connected, walls placed and
/// removed (also under units), units spawned (also on top of others), despawned and
/// moved by hand; the invariants hold after every tick.
#[test]
fn no_two_solid_units_ever_share_a_cell() {
    let (mut total_ticks, mut total_steps, mut spawned) = (0, 0, 0);
    let (mut glided, mut moving) = (0, 0);
    let (mut waiting, mut stuck, mut moved) = (0_u64, 0_u64, 0_u64);
    for seed in 0..8_u64 {
        let mut rng = seeded(seed);
        let (w, h) = (40, 30);
        let grid = Grid::from_fn(w, h, |_| {
            if rng.random_bool(0.08) {
                TileKind::K1
            } else {
                TileKind::K0
            }
        })
        .unwrap();
        let mut app = app(Some(grid), PathingSettings::default());
        let mut units: Vec<Entity> = Vec::new();
        let mut inv = Invariants::new();
        let random_cell = |rng: &mut rand::rngs::StdRng| {
            Cell::new(rng.random_range(0..w as i32), rng.random_range(0..h as i32))
        };
        for tick in 0..600 {
            let mut by_hand = Vec::new();
            // Spawns, sometimes several on one cell.
            if units.len() < 120 && rng.random_bool(0.5) {
                let at = random_cell(&mut rng);
                for _ in 0..rng.random_range(1..3) {
                    let size = if rng.random_bool(0.2) { 2 } else { 1 };
                    let speed = rng.random_range(2.0..9.0);
                    let goal = random_cell(&mut rng);
                    let e = spawn(&mut app, at, goal, size, speed, rng.random_bool(0.5));
                    units.push(e);
                    by_hand.push(e);
                    spawned += 1;
                }
            }
            if !units.is_empty() && rng.random_bool(0.05) {
                let e = units.swap_remove(rng.random_range(0..units.len()));
                app.world_mut().despawn(e);
            }
            if !units.is_empty() && rng.random_bool(0.03) {
                let e = units[rng.random_range(0..units.len())];
                app.world_mut().get_mut::<GridCell>(e).unwrap().0 = random_cell(&mut rng);
                by_hand.push(e);
            }
            if !units.is_empty() && rng.random_bool(0.1) {
                let e = units[rng.random_range(0..units.len())];
                let goal = random_cell(&mut rng);
                app.world_mut().get_mut::<PathRequest>(e).unwrap().goal = PathGoal::Cell(goal);
            }
            if rng.random_bool(0.15) {
                let c = random_cell(&mut rng);
                let kind = if rng.random_bool(0.5) {
                    TileKind::K1
                } else {
                    TileKind::K0
                };
                let _ = app.world_mut().resource_mut::<PathingGrid>().set(c, kind);
            }
            ticks(&mut app, 1);
            // Units placed or moved by the plugin this tick (spawned on top of
            // others) jump to their free cell: the first tick after a spawn or a
            // move by hand is not a step.
            inv.check(&mut app, &by_hand);
            let d = app.world().resource::<PathingDiagnostics>();
            (waiting, stuck, moved) = (
                waiting + u64::from(d.crowd_waiting),
                stuck + u64::from(d.crowd_stuck),
                moved + u64::from(d.crowd_moved),
            );
            assert_eq!(
                d.crowd_unplaced, 0,
                "tick {tick}: a unit could not be placed"
            );
        }
        total_ticks += inv.ticks;
        total_steps += inv.steps;
        glided += inv.glided;
        moving += inv.moving;
    }
    println!(
        "crowd invariants: {total_ticks} ticks, {total_steps} steps checked, {spawned} units spawned; \
         crowd moves {moved}, unit-ticks waiting {waiting}, stuck {stuck}; \
         {glided} of {moving} unit-ticks between cells drawn gliding"
    );
    assert!(
        total_steps > 5_000,
        "the units hardly moved: {total_steps} steps"
    );
}

/// Solid units on straight routes across open ground, in both directions through one
/// another: drawn gliding on their routes where there is room, never overlapping.
#[test]
fn solid_units_glide_on_straight_routes_without_overlapping() {
    let (w, h) = (48, 32);
    let mut app = app(
        Some(Grid::filled(w, h, TileKind::K0).unwrap()),
        PathingSettings::default(),
    );
    let mut rng = seeded(7);
    let mut units = Vec::new();
    // Two crossing streams and a few big units, all with goals at odd angles (goals
    // whose footprints do not overlap: each unit can stand on its own).
    let mut goals: Vec<Cell> = Vec::new();
    while units.len() < 60 {
        let i = units.len();
        let size = if i % 10 == 0 { 2 } else { 1 };
        let (at, goal) = if i % 2 == 0 {
            (
                Cell::new(rng.random_range(0..6), rng.random_range(0..h as i32 - 2)),
                Cell::new(rng.random_range(40..46), rng.random_range(0..h as i32 - 2)),
            )
        } else {
            (
                Cell::new(rng.random_range(0..w as i32 - 2), rng.random_range(26..30)),
                Cell::new(rng.random_range(0..w as i32 - 2), rng.random_range(0..4)),
            )
        };
        if footprint(goal, size).any(|c| goals.contains(&c)) {
            continue;
        }
        goals.extend(footprint(goal, size));
        units.push(spawn(
            &mut app,
            at,
            goal,
            size,
            rng.random_range(3.0..6.0),
            true,
        ));
    }
    let mut inv = Invariants::new();
    ticks(&mut app, 1);
    inv.check(&mut app, &units);
    let mut arrived = 0;
    for _ in 0..1500 {
        ticks(&mut app, 1);
        inv.check(&mut app, &[]);
        let mut q = app.world_mut().query::<&PathStatus>();
        arrived = q
            .iter(app.world())
            .filter(|s| **s == PathStatus::Arrived)
            .count();
        if arrived == units.len() {
            break;
        }
    }
    println!(
        "{arrived} of {} arrived in {} ticks; {} of {} unit-ticks between cells drawn gliding; \
         closest {:.2} of the sizes' halves",
        units.len(),
        inv.ticks,
        inv.glided,
        inv.moving,
        inv.closest
    );
    for &e in &units {
        let w = app.world();
        if *w.get::<PathStatus>(e).unwrap() != PathStatus::Arrived {
            println!(
                "{e}: at {} status {:?} goal {:?}",
                cell_of(&app, e),
                w.get::<PathStatus>(e),
                w.get::<PathRequest>(e).unwrap().goal
            );
        }
    }
    assert_eq!(arrived, units.len());
    // Units glide while they walk with nobody beside them (a step's time to reach
    // their route): here, where the streams cross, a fifth of the unit-ticks.
    assert!(
        inv.glided * 10 > inv.moving,
        "{} of {} unit-ticks glided",
        inv.glided,
        inv.moving
    );
}

/// Two groups of 50 swap sides through a corridor one cell wide.
#[test]
fn two_groups_swap_through_a_one_wide_corridor() {
    // Two rooms of 12x12 joined by a corridor 20 cells long at y = 6.
    let mut grid = Grid::filled(44, 12, TileKind::K1).unwrap();
    grid.fill_rect(Cell::new(0, 0), Cell::new(11, 11), TileKind::K0);
    grid.fill_rect(Cell::new(32, 0), Cell::new(43, 11), TileKind::K0);
    grid.fill_rect(Cell::new(12, 6), Cell::new(31, 6), TileKind::K0);
    let mut app = app(Some(grid), PathingSettings::default());
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
        let done = units.iter().all(|&e| {
            let goal = match app.world().get::<PathRequest>(e).unwrap().goal {
                PathGoal::Cell(g) => g,
                PathGoal::Entity(_) => unreachable!(),
            };
            cell_of(&app, e) == goal
        });
        if done {
            arrived_at = Some(tick);
            break;
        }
    }
    let at = arrived_at.expect("not every unit got through the corridor in 12000 ticks");
    println!("corridor swap: all 100 at their goals after {at} ticks");
}

/// 8 units of 2x2 cells and 32 of one cell (4- and 8-connected) swap rooms through a
/// corridor 2 wide. A 2x2 unit fills the corridor: the crowd takes them through, and
/// where units stand stuck (big ones each on another's goal, boxed in by others at
/// home) it untangles them. Every unit ends at its goal.
#[test]
fn big_and_small_units_share_a_corridor() {
    // Two rooms of 12x12 joined by a corridor 10 cells long at y = 6 and 7.
    let mut grid = Grid::filled(34, 12, TileKind::K1).unwrap();
    grid.fill_rect(Cell::new(0, 0), Cell::new(11, 11), TileKind::K0);
    grid.fill_rect(Cell::new(22, 0), Cell::new(33, 11), TileKind::K0);
    grid.fill_rect(Cell::new(12, 6), Cell::new(21, 7), TileKind::K0);
    let mut app = app(Some(grid), PathingSettings::default());
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
    let goal_of = |app: &App, e: Entity| match app.world().get::<PathRequest>(e).unwrap().goal {
        PathGoal::Cell(g) => g,
        PathGoal::Entity(_) => unreachable!(),
    };
    let (mut arrived_at, mut most_stuck, mut untangled) = (None, 0, 0);
    for tick in 0..20_000 {
        ticks(&mut app, 1);
        inv.check(&mut app, if tick == 0 { &units } else { &[] });
        let diag = app.world().resource::<PathingDiagnostics>();
        most_stuck = most_stuck.max(diag.crowd_stuck);
        untangled += diag.crowd_untangled;
        if units.iter().all(|&e| cell_of(&app, e) == goal_of(&app, e)) {
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
        untangled > 0,
        "nothing was untangled: the scenario tests the crowd's own steps only"
    );
    assert!(
        arrived_at.is_some(),
        "not every unit at its goal in 20000 ticks"
    );
}

/// Units sent to the same cell: one stands on it, the others gather round it as near
/// as they get, and nobody is reported stuck.
#[test]
fn units_with_one_goal_gather_round_it() {
    let grid = Grid::filled(30, 30, TileKind::K0).unwrap();
    let mut app = app(Some(grid), PathingSettings::default());
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
/// near as it gets; the target moves, and they close in again.
#[test]
fn two_hundred_chasers_surround_their_target() {
    let grid = Grid::filled(48, 48, TileKind::K0).unwrap();
    let mut app = app(Some(grid), PathingSettings::default());
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
    for tick in 0..2400 {
        if tick == 1200 {
            app.world_mut().get_mut::<GridCell>(target).unwrap().0 = Cell::new(14, 30);
        }
        ticks(&mut app, 1);
        inv.check(&mut app, &[]);
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

/// Units spawned on top of each other, or inside a wall, are moved to the nearest
/// free cells; the game can ask who holds a cell.
#[test]
fn units_spawned_on_top_of_each_other_are_spread_out() {
    let mut grid = Grid::filled(20, 20, TileKind::K0).unwrap();
    grid.set(Cell::new(5, 5), TileKind::K1).unwrap();
    let mut app = app(Some(grid), PathingSettings::default());
    let here = Cell::new(10, 10);
    let stacked: Vec<Entity> = (0..9)
        .map(|_| {
            app.world_mut()
                .spawn((GridCell(here), PathFollower::new(3.0), Solid))
                .id()
        })
        .collect();
    let walled = app
        .world_mut()
        .spawn((
            GridCell(Cell::new(5, 5)),
            PathRequest::to_cell(Cell::new(6, 6)),
            PathFollower::new(3.0),
            Solid,
        ))
        .id();
    ticks(&mut app, 1);
    let cells: Vec<Cell> = stacked.iter().map(|&e| cell_of(&app, e)).collect();
    for (i, c) in cells.iter().enumerate() {
        assert!(!cells[..i].contains(c), "two units still on {c}");
        assert!(
            c.x.abs_diff(here.x).max(c.y.abs_diff(here.y)) <= 1,
            "{c} is not the nearest free cell"
        );
    }
    assert_ne!(cell_of(&app, walled), Cell::new(5, 5));
    let occupancy = app
        .world_mut()
        .run_system_once(|o: Occupancy| o.holder(Cell::new(10, 10)))
        .unwrap();
    assert!(occupancy.is_some_and(|e| stacked.contains(&e)));
}

/// More solid units than free cells: the extra ones stay out of the crowd (counted,
/// never on a held cell) and are placed once cells free up, within the retry delay.
#[test]
fn a_full_room_places_its_extra_units_as_cells_free_up() {
    // 20: every extra unit was tried and waits out the retry delay; 3000: most are
    // not even tried in a tick (the placing budget), and take the cells at once.
    for count in [20, 3000] {
        full_room(count);
    }
}

fn full_room(count: i32) {
    // A closed 4x4 room in a 12x12 map of walls.
    let mut grid = Grid::filled(12, 12, TileKind::K1).unwrap();
    for y in 4..8 {
        for x in 4..8 {
            grid.set(Cell::new(x, y), TileKind::K0).unwrap();
        }
    }
    let mut app = app(Some(grid), PathingSettings::default());
    let units: Vec<Entity> = (0..count)
        .map(|i| {
            let at = Cell::new(4 + i % 4, 4 + (i / 4) % 4);
            let stay = PathRequest::to_cell(at).with_mobility(Mobility::FLOOR_ONLY);
            app.world_mut()
                .spawn((GridCell(at), stay, PathFollower::new(3.0), Solid))
                .id()
        })
        .collect();
    ticks(&mut app, 2);
    let unplaced = |app: &App| app.world().resource::<PathingDiagnostics>().crowd_unplaced;
    assert_eq!(unplaced(&app), count as u32 - 16);
    let holders = |app: &mut App| {
        app.world_mut()
            .run_system_once(|o: Occupancy| {
                (4..8)
                    .flat_map(|y| (4..8).map(move |x| Cell::new(x, y)))
                    .filter_map(|c| o.holder(c))
                    .collect::<Vec<_>>()
            })
            .unwrap()
    };
    let first = holders(&mut app);
    assert_eq!(first.len(), 16);
    // Four of those leave: four of the others take their cells, within the delay
    // after which a unit that found no room is tried again.
    for &e in &first[..4] {
        app.world_mut().despawn(e);
    }
    let mut waited = 0;
    while unplaced(&app) != count as u32 - 4 - 16 {
        assert!(
            waited <= 31,
            "no unit took the freed cells in {waited} ticks"
        );
        ticks(&mut app, 1);
        waited += 1;
    }
    let now = holders(&mut app);
    assert_eq!(now.len(), 16, "the freed cells were not all taken");
    assert!(now.iter().all(|e| units.contains(e)));
    println!("{count} units: the freed cells were taken after {waited} ticks");
}

/// Solid units on hex maps of every hex tilemap type (bevy_ecs_tilemap's `Row`,
/// `RowEven`, `RowOdd`, `Column`, `ColumnEven`, `ColumnOdd`): two groups of 24 cross
/// a wall through a door two cells wide, each unit to a cell of its own on the other
/// side, asking for 4- or 8-connected moves (a hex map moves them by its hex steps).
/// After every tick no two hold a cell, none swapped, every move is one hex step of
/// the layout (`Invariants`), every unit holds the cell it is on in its grid's crowd
/// ([`Occupancy`]: it is solid there, not walking as a unit that is not), and all
/// arrive within 4,000 ticks.
#[test]
fn solid_units_on_hex_maps_never_share_a_cell_and_arrive() {
    let (w, h) = (30, 20);
    let mut grid = Grid::filled(w, h, TileKind::K0).unwrap();
    for y in 0..h as i32 {
        if !(9..=10).contains(&y) {
            grid.set(Cell::new(15, y), TileKind::K1).unwrap();
        }
    }
    for layout in [
        MapLayout::HexRow,
        MapLayout::HexRowEven,
        MapLayout::HexRowOdd,
        MapLayout::HexColumn,
        MapLayout::HexColumnEven,
        MapLayout::HexColumnOdd,
    ] {
        let mut app = app(Some(grid.clone()), PathingSettings::default());
        app.insert_resource(GridTransform {
            layout,
            ..default()
        });
        let mut rng = seeded(31);
        let mut units = Vec::new();
        for i in 0..24 {
            let (x, y) = (1 + 2 * (i % 6), 2 + 5 * (i / 6) - (i / 6) % 2);
            let speed = rng.random_range(3.0..8.0);
            let eight = i % 2 == 0;
            let a = spawn(
                &mut app,
                Cell::new(x, y),
                Cell::new(28 - x, 19 - y),
                1,
                speed,
                eight,
            );
            let b = spawn(
                &mut app,
                Cell::new(28 - x, 19 - y),
                Cell::new(x, y),
                1,
                speed,
                !eight,
            );
            units.extend([a, b]);
        }
        let mut inv = Invariants::new();
        let (mut moved, mut arrived_at) = (0_u64, None);
        for tick in 0..4000 {
            ticks(&mut app, 1);
            inv.check(&mut app, if tick == 0 { &units } else { &[] });
            let d = app.world().resource::<PathingDiagnostics>();
            assert_eq!(d.crowd_unplaced, 0, "{layout:?}, tick {tick}");
            moved += u64::from(d.crowd_moved);
            let at: Vec<(Entity, Cell)> = units.iter().map(|&e| (e, cell_of(&app, e))).collect();
            let held = app
                .world_mut()
                .run_system_once(move |o: Occupancy| {
                    at.iter().all(|&(e, c)| o.holder(c) == Some(e))
                })
                .unwrap();
            assert!(
                held,
                "{layout:?}, tick {tick}: a unit does not hold its cell"
            );
            let home = units.iter().all(|&e| {
                let PathGoal::Cell(goal) = app.world().get::<PathRequest>(e).unwrap().goal else {
                    unreachable!()
                };
                cell_of(&app, e) == goal
            });
            if home {
                arrived_at = Some(tick);
                break;
            }
        }
        println!(
            "48 solid units through a door on {layout:?}: all home after {arrived_at:?} ticks \
             ({} ticks and {} steps checked, {moved} crowd moves)",
            inv.ticks, inv.steps
        );
        assert!(
            arrived_at.is_some(),
            "{layout:?}: not every unit home in 4000 ticks"
        );
        assert!(
            inv.steps > 500 && moved > 500,
            "{layout:?}: the units hardly moved"
        );
    }
}
