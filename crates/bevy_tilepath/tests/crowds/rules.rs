//! The crowd's invariants under hostile runs, and on straight routes where solid
//! units glide.

use super::*;

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
