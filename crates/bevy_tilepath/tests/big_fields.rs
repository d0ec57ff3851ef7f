//! Shared distance fields on grids too big to compute one in a tick (more than 2^18
//! cells): built in the background while their requests wait, served first once
//! ready, caught up on edits, computed again when an edit cuts most of the map off.

mod common;

use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{MOBILITY, app, random_grid, seeded, set_cell, tick_until, ticks};
use core::time::Duration;
use rand::RngExt;

/// On a grid too big to compute a field in a tick, units sharing a goal wait while
/// its field is computed in the background, at the front of the queue (a request
/// behind them is served meanwhile), and are then served from it, each with the
/// cost a field computed on the grid as it is gives: edits made during the build
/// are caught up.
#[test]
fn a_big_maps_shared_field_is_built_in_the_background() {
    let mut rng = seeded(31);
    let mut grid = random_grid(640, 420, 0.15, &mut rng);
    assert!(grid.len() > 1 << 18);
    let goal = Cell::new(320, 210);
    grid.set(goal, TileKind::K0).unwrap();
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid.clone()), settings);
    let floor = |g: &Grid, rng: &mut rand::rngs::StdRng| loop {
        let c = Cell::new(rng.random_range(0..640), rng.random_range(0..420));
        if g.is_passable(c, MOBILITY) {
            return c;
        }
    };
    let group: Vec<Entity> = (0..24)
        .map(|_| {
            let at = floor(&grid, &mut rng);
            let request = PathRequest::to_cell(goal).with_mobility(MOBILITY);
            app.world_mut().spawn((GridCell(at), request)).id()
        })
        .collect();
    let (a, b) = (floor(&grid, &mut rng), floor(&grid, &mut rng));
    let alone = app
        .world_mut()
        .spawn((GridCell(a), PathRequest::to_cell(b).with_mobility(MOBILITY)))
        .id();
    ticks(&mut app, 1);
    let d = *app.world().resource::<PathingDiagnostics>();
    assert_eq!((d.fields_building, d.fields_built), (1, 0), "{d:?}");
    assert_eq!(
        d.served, 1,
        "the request behind the group is served meanwhile"
    );
    assert_eq!(d.waiting, group.len() as u32);
    assert_eq!(
        app.world().get::<PathStatus>(alone),
        Some(&PathStatus::Found)
    );
    // Walls while the field is built, away from the goal.
    for x in 100..140 {
        set_cell(&mut app, &mut grid, Cell::new(x, 300), TileKind::K1);
    }
    tick_until(&mut app, "the background field", |app| {
        app.world().resource::<PathingDiagnostics>().fields_built == 1
    });
    let d = *app.world().resource::<PathingDiagnostics>();
    assert_eq!(d.fields_building, 0);
    assert_eq!(d.served_by_field, group.len() as u32, "{d:?}");
    let mut fresh = DistanceField::new(&grid, MOBILITY, Connectivity::Four);
    fresh.add_goal(goal, 0);
    fresh.compute(&grid).unwrap();
    let mut reached = 0;
    for &unit in &group {
        let start = app.world().get::<GridCell>(unit).unwrap().0;
        let path = app.world().get::<UnitPath>(unit).unwrap();
        match fresh.distance(start) {
            Some(cost) => {
                assert_eq!(path.route_cost, cost as f32, "from {start}");
                reached += 1;
            }
            None => assert_ne!(path.end, goal),
        }
    }
    println!(
        "background field: {} units waited one build, {reached} reach the goal",
        group.len()
    );
    assert!(reached > group.len() / 2);
}

/// Chasers of a target that moves every tick on a big map, where each new goal's
/// field is built in the background: a chaser waiting for one is served for the goal
/// it waited for as soon as it is built, so that every chaser's path leads to where
/// the target was a few ticks before, never much longer (no build it waits for is
/// out of date for good; past `MAX_FIELD_WAIT`, 30 ticks, its field would be computed
/// in the tick).
#[test]
fn chasers_of_a_target_faster_than_field_builds_are_still_answered() {
    let grid = Grid::new(640, 420).unwrap();
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid), settings);
    let target = app.world_mut().spawn(GridCell(Cell::new(200, 200))).id();
    let chasers: Vec<Entity> = (0..16)
        .map(|k| {
            let at = Cell::new(20 + 37 * k, 20 + 23 * k);
            let request = PathRequest::chase(target).with_mobility(MOBILITY);
            app.world_mut().spawn((GridCell(at), request)).id()
        })
        .collect();
    // The tick the target stood on each column (it walks a row, one cell a tick).
    let mut stood = vec![0_usize; 640];
    let (mut stalest, mut waited, mut by_field) = (0, 0, 0);
    // At least 240 ticks, and on until fields answered 1,000 requests: how many ticks
    // that takes depends on how much time the machine gives the async pool.
    let mut ticks = 0;
    for t in 1..=2400 {
        if t > 240 && by_field > 1000 {
            break;
        }
        ticks = t;
        let x = 200 + (t % 200);
        app.world_mut().get_mut::<GridCell>(target).unwrap().0.x = x as i32;
        stood[x] = t;
        // A little time for the async pool between ticks, as a game's frames give.
        std::thread::sleep(Duration::from_millis(1));
        app.update();
        let d = *app.world().resource::<PathingDiagnostics>();
        waited += usize::from(d.fields_building > 0);
        by_field += d.served_by_field;
        if t < 20 {
            continue;
        }
        for &c in &chasers {
            let path = app
                .world()
                .get::<UnitPath>(c)
                .expect("every chaser is answered");
            assert_eq!(path.goal.y, 200);
            stalest = stalest.max(t - stood[path.goal.x as usize]);
        }
    }
    println!(
        "fast target, {ticks} ticks: {waited} with a field building, {by_field} answers from \
         fields, paths at most {stalest} ticks behind the target"
    );
    assert!(waited > 100, "fields were built in the background");
    assert!(by_field > 1000);
    assert!(stalest <= 32, "a chaser's path led {stalest} ticks behind");
}

/// On a big map an edit that cuts a shared field's goal off from most of the map
/// (whose repair would compute the field in full) does not compute it in the tick: the
/// field is computed again in the background, and answers as a fresh one once taken.
#[test]
fn a_big_maps_field_cut_off_is_computed_again_in_the_background() {
    let mut grid = Grid::new(640, 420).unwrap();
    for y in (0..420).filter(|&y| y != 210) {
        grid.set(Cell::new(40, y), TileKind::K1).unwrap();
    }
    let goal = Cell::new(5, 210);
    let settings = PathingSettings {
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid.clone()), settings);
    let spawn_group = |app: &mut App, x: i32| -> Vec<Entity> {
        (0..12)
            .map(|k| {
                let at = Cell::new(x + k, 30 + 25 * k);
                let request = PathRequest::to_cell(goal).with_mobility(MOBILITY);
                app.world_mut().spawn((GridCell(at), request)).id()
            })
            .collect()
    };
    let far = spawn_group(&mut app, 300);
    tick_until(&mut app, "the first field", |app| {
        app.world().resource::<PathingDiagnostics>().fields_built == 1
    });
    let found = |app: &App, u: Entity| app.world().get::<PathStatus>(u) == Some(&PathStatus::Found);
    assert!(far.iter().all(|&u| found(&app, u)));
    // The gap closed: everything right of the wall is cut off from the goal.
    set_cell(&mut app, &mut grid, Cell::new(40, 210), TileKind::K1);
    ticks(&mut app, 1);
    let d = *app.world().resource::<PathingDiagnostics>();
    // Built again in the background; on a task pool without threads of its own (Bevy
    // without `multi_threaded`), where a task runs as it is spawned, built already.
    assert_eq!(d.fields_building + d.fields_built, 1, "{d:?}");
    assert!(
        d.expanded < grid.len() as u64 / 8,
        "no full computation counted in the tick: {d:?}"
    );
    tick_until(&mut app, "the field computed again", |app| {
        app.world().resource::<PathingDiagnostics>().fields_building == 0
    });
    // Units on the goal's side are served from it as from a fresh field.
    let near = spawn_group(&mut app, 10);
    tick_until(&mut app, "the near group's answers", |app| {
        near.iter().all(|&u| found(app, u))
    });
    let mut fresh = DistanceField::new(&grid, MOBILITY, Connectivity::Four);
    fresh.add_goal(goal, 0);
    fresh.compute(&grid).unwrap();
    for &u in &near {
        let start = app.world().get::<GridCell>(u).unwrap().0;
        let path = app.world().get::<UnitPath>(u).unwrap();
        assert_eq!(
            Some(path.route_cost),
            fresh.distance(start).map(|c| c as f32)
        );
    }
}
