//! The pathing systems allocate nothing per tick in steady state, counted by a global
//! counting allocator: allocations per tick of an app with the plugin and thousands of
//! busy units of three sizes, minus those of the same app without them.

mod common;

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use bevy_tilepath::prelude::*;
use common::{MOBILITY, app, random_grid, seeded};
use rand::RngExt;
use rand::rngs::StdRng;

#[global_allocator]
static GLOBAL: tilepath_testkit::CountingAlloc = tilepath_testkit::CountingAlloc;

#[derive(Resource)]
struct Scenario {
    rng: StdRng,
    floor: Vec<Cell>,
    /// The chased targets: on the default grid, and on the second grid if any.
    targets: Vec<Entity>,
    tick: u64,
}

/// Moves the chased target every 3 ticks, toggles a wall every 10, re-targets a
/// cell-goal unit every tick: steady work for every solver path.
fn churn(
    mut s: ResMut<Scenario>,
    mut grid: ResMut<PathingGrid>,
    mut maps: Query<&mut PathingMap>,
    mut cells: Query<&mut GridCell, Without<PathRequest>>,
    mut requests: Query<&mut PathRequest>,
) {
    s.tick += 1;
    let Scenario {
        rng,
        floor,
        targets,
        tick,
    } = &mut *s;
    for &target in targets.iter() {
        if *tick % 3 == 0
            && let Ok(mut c) = cells.get_mut(target)
        {
            c.0 = floor[rng.random_range(0..floor.len())];
        }
    }
    let mut toggle = |grid: &mut PathingGrid| {
        let c = floor[rng.random_range(0..floor.len())];
        let kind = if grid.get(c) == Some(TileKind::K1) {
            TileKind::K0
        } else {
            TileKind::K1
        };
        let _ = grid.set(c, kind);
    };
    if *tick % 10 == 0 {
        toggle(&mut grid);
        for mut map in &mut maps {
            toggle(map.grid_mut());
        }
    }
    let goal = floor[rng.random_range(0..floor.len())];
    if let Some(mut r) = requests
        .iter_mut()
        .find(|r| matches!(r.goal, PathGoal::Cell(_)))
    {
        r.goal = PathGoal::Cell(goal);
    }
}

/// The map and units of a run.
#[derive(Clone, Copy)]
struct Setup {
    /// Every other unit walks on a second grid (a `PathingMap`) with its own chased
    /// target and edits.
    two_grids: bool,
    /// One unit in 7 is 2x2 and one in 11 is 3x3.
    mixed: bool,
    /// Every unit is [`Solid`]: its grid's crowd steps it.
    solid: bool,
    /// The maps' side, in cells.
    side: u32,
}

/// One grid of 80x80, one-cell units that walk as if alone.
const PLAIN: Setup = Setup {
    two_grids: false,
    mixed: false,
    solid: false,
    side: 80,
};

/// Two grids of 80x80, half the units on each.
const TWO_GRIDS: Setup = Setup {
    two_grids: true,
    ..PLAIN
};

/// Allocations per tick and parallel batches per tick over 300 ticks after a warm-up,
/// `units` on the map of `setup`, the default grid's cells laid out as `layout`.
fn allocations_per_tick(
    units: usize,
    threads: usize,
    setup: Setup,
    layout: MapLayout,
) -> (f64, f64) {
    let Setup {
        two_grids,
        mixed,
        solid,
        side,
    } = setup;
    let mut rng = seeded(21);
    let grid = random_grid(side, side, 0.2, &mut rng);
    let floor: Vec<Cell> = (0..(side * side) as usize)
        .filter_map(|i| grid.cell_of(i))
        .filter(|&c| grid.is_passable(c, MOBILITY))
        .collect();
    let settings = PathingSettings {
        threads,
        budget: PathingBudget::Unlimited,
        time_cap: None,
        ..default()
    };
    let mut app = app(Some(grid.clone()), settings);
    app.insert_resource(GridTransform {
        layout,
        ..default()
    });
    let mut targets = vec![app.world_mut().spawn(GridCell(floor[0])).id()];
    let map = two_grids.then(|| app.world_mut().spawn(PathingMap::from_grid(grid)).id());
    if let Some(map) = map {
        targets.push(
            app.world_mut()
                .spawn((GridCell(floor[1]), OnGrid(map)))
                .id(),
        );
    }
    for i in 0..units {
        let at = floor[rng.random_range(0..floor.len())];
        let on_map = map.filter(|_| i % 2 == 1);
        let request = if i % 10 == 0 {
            PathRequest::to_cell(floor[rng.random_range(0..floor.len())])
        } else {
            PathRequest::chase(targets[usize::from(on_map.is_some())])
        };
        let request = request.with_size(match i {
            _ if mixed && i % 11 == 0 => 3,
            _ if mixed && i % 7 == 0 => 2,
            _ => 1,
        });
        // Half the solid units walk straight routes (8-connected), drawn gliding.
        let request = if solid && i % 2 == 0 {
            request.with_connectivity(Connectivity::Eight)
        } else {
            request
        };
        let mut unit = app.world_mut().spawn((
            GridCell(at),
            request.with_mobility(MOBILITY),
            PathFollower::new(5.0).smoothed(),
            Transform::default(),
        ));
        if let Some(map) = on_map {
            unit.insert(OnGrid(map));
        }
        if solid {
            unit.insert(Solid);
        }
    }
    app.insert_resource(Scenario {
        rng,
        floor,
        targets,
        tick: 0,
    });
    app.add_systems(FixedPreUpdate, churn);
    // Bevy's multi-threaded schedule executor allocates now and then depending on
    // thread timing; run the schedules on one thread so the count is the app's own.
    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }
    // Warm-up. Some scratch is made once, the first time it is needed: a grid's
    // reachability labels take a second array once a closing wall first needs a search.
    // The second grid sees half the edits, so it needs longer to get there.
    let warm_up = if two_grids { 1000 } else { 400 };
    for _ in 0..warm_up {
        app.update();
    }
    // Bevy's message buffers keep the capacity of the busiest tick so far: a tick with
    // more failures (or arrivals) than any before grows them. Size them past any tick here, so that
    // the count is the pathing systems' own.
    for _ in 0..2 {
        let world = app.world_mut();
        let mut failed = world.resource_mut::<Messages<PathFailed>>();
        for _ in 0..8192 {
            failed.write(PathFailed {
                entity: Entity::PLACEHOLDER,
                reason: NoPathReason::NoGrid,
            });
        }
        failed.update();
        let mut found = world.resource_mut::<Messages<PathFound>>();
        for _ in 0..8192 {
            found.write(PathFound {
                entity: Entity::PLACEHOLDER,
                goal: Cell::default(),
                complete: false,
                steps: 0,
                cost: 0.0,
            });
        }
        found.update();
        let mut arrived = world.resource_mut::<Messages<PathArrived>>();
        for _ in 0..8192 {
            arrived.write(PathArrived {
                entity: Entity::PLACEHOLDER,
                goal: Cell::default(),
            });
        }
        arrived.update();
    }
    let ticks = 300;
    let before = tilepath_testkit::total_allocations();
    let mut served = 0;
    let mut batches = 0;
    // The ticks that allocated, with their diagnostics (kept without allocating,
    // printed after counting with `ALLOC_TRACE` set).
    let mut grew = Vec::with_capacity(ticks as usize);
    for t in 0..ticks {
        let a0 = tilepath_testkit::total_allocations();
        app.update();
        let a1 = tilepath_testkit::total_allocations();
        if a1 != a0 {
            let d = *app.world().resource::<PathingDiagnostics>();
            grew.push((t, a1 - a0, d));
        }
        let d = app.world().resource::<PathingDiagnostics>();
        served += d.served;
        batches += d.batches_spread;
    }
    let after = tilepath_testkit::total_allocations();
    if std::env::var("ALLOC_TRACE").is_ok() {
        for (t, n, d) in &grew {
            eprintln!("tick {t}: {n} allocations; {d:?}");
        }
    }
    if units > 0 {
        assert!(
            served > 10 * ticks,
            "the units must keep the solvers busy: {served}"
        );
    }
    let per_tick = |n: f64| n / f64::from(ticks);
    (
        per_tick((after - before) as f64),
        per_tick(f64::from(batches)),
    )
}

const SQUARE: MapLayout = MapLayout::Square;

#[test]
fn no_allocation_per_tick_in_steady_state() {
    // One test, so that nothing else runs (and allocates) while counting. Everything
    // on the calling thread (`threads: 1`): nothing at all per tick.
    let (baseline, _) = allocations_per_tick(0, 1, PLAIN, SQUARE);
    let mixed = Setup {
        mixed: true,
        ..PLAIN
    };
    let (busy, _) = allocations_per_tick(3000, 1, mixed, SQUARE);
    println!("allocations per tick: without units {baseline}, with 3000 units {busy}");
    assert_eq!(
        busy, baseline,
        "the pathing systems allocated in steady state"
    );

    // A hex grid: hex searches, greedy, fields and components, nothing per tick.
    for layout in [MapLayout::HexRowOdd, MapLayout::HexColumn] {
        let (busy, _) = allocations_per_tick(3000, 1, PLAIN, layout);
        println!("allocations per tick on {layout:?}: with 3000 units {busy}");
        assert_eq!(
            busy, baseline,
            "the pathing systems allocated on {layout:?}"
        );
    }

    // Two grids, half the units on each: nothing per tick. A rare tick may still grow
    // some scratch to a size it never needed before (one allocation or two in the 300
    // ticks counted here); a per-tick allocation would count 300.
    let (idle, _) = allocations_per_tick(0, 1, TWO_GRIDS, SQUARE);
    let (busy, _) = allocations_per_tick(3000, 1, TWO_GRIDS, SQUARE);
    println!("allocations per tick on two grids: without units {idle}, with 3000 {busy}");
    assert!(
        (busy - idle) * 300.0 <= 3.0,
        "the pathing systems allocated per tick with two grids: {busy}"
    );

    // Solid units, of three sizes on two grids: each grid's crowd steps them (placing
    // those spawned on others, joint steps, waiting units looking round, drawing those
    // on straight routes apart), nothing per tick. As with two grids above, a rare tick may grow some scratch once.
    let crowds = Setup {
        mixed: true,
        solid: true,
        ..TWO_GRIDS
    };
    let (busy, _) = allocations_per_tick(1500, 1, crowds, SQUARE);
    println!("allocations per tick with 1500 solid units on two grids: {busy} (idle {idle})");
    assert!(
        (busy - idle) * 300.0 <= 3.0,
        "the crowds allocated per tick: {busy}"
    );

    // Solid units on a hex map: its crowd steps them by the layout's hex steps,
    // nothing per tick (a rare tick may grow some scratch once, as above).
    let hex_crowd = Setup {
        solid: true,
        ..PLAIN
    };
    for layout in [MapLayout::HexRowOdd, MapLayout::HexColumn] {
        let (busy, _) = allocations_per_tick(1500, 1, hex_crowd, layout);
        println!("allocations per tick with 1500 solid units on {layout:?}: {busy}");
        assert!(
            (busy - baseline) * 300.0 <= 3.0,
            "the hex crowd allocated per tick on {layout:?}: {busy}"
        );
    }

    // 3000 units on a 20x20 map, most of them waiting or failing: walls closing on so
    // few cells often split the floor, and the reachability repair's search queues
    // grow to the largest split so far (`Components`: at most 4 * log2(cells) times in
    // the map's life, 35 here). Nothing else grows; a per-tick allocation would count
    // 300.
    let small = Setup { side: 20, ..PLAIN };
    let (small_idle, _) = allocations_per_tick(0, 1, small, SQUARE);
    let (busy, _) = allocations_per_tick(3000, 1, small, SQUARE);
    let grown = ((busy - small_idle) * 300.0).round();
    println!("allocations in 300 ticks with 3000 units on 20x20: {grown}");
    assert!(grown <= 35.0, "{grown} allocations on the small map");

    // Spread over Bevy's compute task pool, `scope` allocates its tasks: a small fixed
    // cost per batch spread (how many depends on thread scheduling), never per unit,
    // and nothing in ticks that spread none. (0: one task per pool thread and the
    // caller.)
    for threads in [2, 4, 0] {
        for (units, setup) in [(600, PLAIN), (3000, mixed), (1500, crowds)] {
            let (allocations, spread) = allocations_per_tick(units, threads, setup, SQUARE);
            let idle = if setup.two_grids { idle } else { baseline };
            println!(
                "`threads: {threads}`, {units} units: {allocations:.2} allocations and \
                 {spread:.2} batches spread per tick"
            );
            // At least 30 of the 300 counted ticks spread a batch over the tasks.
            assert!(spread >= 0.1, "too few batches were spread: {spread}");
            let per_batch = (allocations - idle) / spread;
            assert!(
                per_batch <= 4.0 * (threads.max(2) as f64) + 8.0,
                "{per_batch} allocations per batch spread, `threads: {threads}`, {units} units"
            );
        }
    }
}
