//! The crowds kept equal to their units when units change between steps, where only
//! the units changed since are synced: what change detection cannot show (a
//! component removed, a map gone) is seen too.

use super::*;

/// Which grid a unit is on: the default one, one of the maps, or an entity with no
/// grid.
fn grid_of(app: &App, e: Entity) -> Option<Entity> {
    app.world().get::<OnGrid>(e).map(|g| g.0)
}

/// The width of the grid a map's is replaced by.
const NARROW: i32 = 24;

/// Slow units (a step every 30 ticks) on the default grid and two maps, changed at
/// random between steps: `Solid`, `PathFollower` and `OnGrid` removed and put back,
/// moved to another map or to an entity with no grid, resized, despawned; a map's grid
/// replaced by a narrower one, and a map despawned with its units. After every tick,
/// every cell a crowd says is held lies in its grid and is held by a solid unit on that
/// grid at that cell or a step from it (no agent outlives its unit's place in the
/// crowd), and every solid unit on a grid holds the cells under it.
#[test]
fn crowds_follow_units_changed_between_steps() {
    let (w, h) = (40_i32, 30_i32);
    let open = Grid::new(w as u32, h as u32).unwrap();
    let (mut ticks_run, mut checked, mut steps) = (0, 0_u64, 0);
    let mut actions = [0_u32; 8];
    for seed in 0..8_u64 {
        let mut rng = seeded(100 + seed);
        let mut app = app(Some(open.clone()), PathingSettings::default());
        let maps: Vec<Entity> = (0..2)
            .map(|_| {
                app.world_mut()
                    .spawn(PathingMap::from_grid(open.clone()))
                    .id()
            })
            .collect();
        let nowhere = app.world_mut().spawn_empty().id();
        let mut units: Vec<Entity> = Vec::new();
        let random_cell = |rng: &mut rand::rngs::StdRng| {
            Cell::new(rng.random_range(0..w), rng.random_range(0..h))
        };
        for _ in 0..90 {
            let at = random_cell(&mut rng);
            let goal = random_cell(&mut rng);
            let e = spawn(&mut app, at, goal, 1, 2.0, rng.random_bool(0.5));
            match rng.random_range(0..3) {
                0 => {}
                k => {
                    app.world_mut().entity_mut(e).insert(OnGrid(maps[k - 1]));
                }
            }
            units.push(e);
        }
        let mut live_maps = maps.clone();
        let mut narrowed = None;
        for tick in 0..600 {
            // Most ticks change nothing, so that the crowds' sync between steps is
            // the one of the units changed.
            if !units.is_empty() && rng.random_bool(0.3) {
                let e = units[rng.random_range(0..units.len())];
                let pick = rng.random_range(0..8_usize);
                let mut unit = app.world_mut().entity_mut(e);
                match pick {
                    0 if unit.contains::<Solid>() => {
                        unit.remove::<Solid>();
                    }
                    0 => {
                        unit.insert(Solid);
                    }
                    1 if unit.contains::<PathFollower>() => {
                        unit.remove::<PathFollower>();
                    }
                    1 => {
                        unit.insert(PathFollower::new(2.0));
                    }
                    2 => {
                        let map = live_maps[rng.random_range(0..live_maps.len())];
                        unit.insert(OnGrid(map));
                    }
                    3 => {
                        unit.remove::<OnGrid>();
                    }
                    4 => {
                        unit.insert(OnGrid(nowhere));
                    }
                    5 => {
                        let mut request = unit.get_mut::<PathRequest>().unwrap();
                        request.size = 3 - request.size;
                    }
                    6 => {
                        unit.despawn();
                        units.retain(|&u| u != e);
                    }
                    _ => {
                        let goal = random_cell(&mut rng);
                        unit.get_mut::<PathRequest>().unwrap().goal = PathGoal::Cell(goal);
                    }
                }
                actions[pick] += 1;
            }
            if tick == 150 + 20 * seed as usize {
                // A map's grid is put in its place by a narrower one: its units are
                // placed again (those beyond its edge moved into it).
                let narrower = Grid::new(NARROW as u32, h as u32).unwrap();
                let map = live_maps[live_maps.len() - 1];
                app.world_mut()
                    .entity_mut(map)
                    .insert(PathingMap::from_grid(narrower));
                narrowed = Some(map);
            }
            if tick == 300 + 50 * seed as usize {
                // A map goes, and its units are on no grid.
                let gone = live_maps.swap_remove(0);
                app.world_mut().despawn(gone);
            }
            ticks(&mut app, 1);
            ticks_run += 1;
            let d = *app.world().resource::<PathingDiagnostics>();
            if d.crowd_moved > 0 {
                steps += 1;
            }
            assert_eq!(
                d.crowd_unplaced, 0,
                "seed {seed} tick {tick}: a unit unplaced"
            );
            // Every held cell: a solid unit of that grid stands on it or a step away.
            let grids: Vec<Option<Entity>> = core::iter::once(None)
                .chain(live_maps.iter().copied().map(Some))
                .collect();
            let held: HashMap<(Option<Entity>, Cell), Entity> = app
                .world_mut()
                .run_system_once({
                    let grids = grids.clone();
                    move |o: Occupancy| {
                        let mut held = HashMap::new();
                        for &grid in &grids {
                            for y in 0..h {
                                for x in 0..w {
                                    let c = Cell::new(x, y);
                                    let holder = match grid {
                                        None => o.holder(c),
                                        Some(map) => o.holder_on(map, c),
                                    };
                                    if let Some(e) = holder {
                                        held.insert((grid, c), e);
                                    }
                                }
                            }
                        }
                        held
                    }
                })
                .unwrap();
            for (&(grid, c), &e) in &held {
                checked += 1;
                let width = if grid.is_some() && grid == narrowed {
                    NARROW
                } else {
                    w
                };
                assert!(
                    c.x < width,
                    "seed {seed} tick {tick}: {c} held by {e}, outside its grid"
                );
                assert!(
                    app.world().get::<Solid>(e).is_some(),
                    "seed {seed} tick {tick}: {c} held by {e}, not solid (or gone)"
                );
                assert_eq!(
                    grid_of(&app, e),
                    grid,
                    "seed {seed} tick {tick}: {c} held by {e} of another grid"
                );
                let at = cell_of(&app, e);
                let size = app.world().get::<PathRequest>(e).unwrap().size;
                let near = |a: i32, lo: i32| a >= lo - 1 && a <= lo + i32::from(size);
                assert!(
                    near(c.x, at.x) && near(c.y, at.y),
                    "seed {seed} tick {tick}: {c} held by {e}, which stands at {at}"
                );
            }
            // Every solid unit on a grid holds the cells under it.
            for &e in &units {
                let Some(grid) = Some(grid_of(&app, e)).filter(|g| grids.contains(g)) else {
                    continue;
                };
                if app.world().get::<Solid>(e).is_none() {
                    continue;
                }
                let at = cell_of(&app, e);
                let size = app.world().get::<PathRequest>(e).unwrap().size;
                for c in footprint(at, size) {
                    assert_eq!(
                        held.get(&(grid, c)).copied(),
                        Some(e),
                        "seed {seed} tick {tick}: {e} stands on {c} of {grid:?} unheld"
                    );
                }
            }
        }
    }
    println!(
        "crowd sync: {ticks_run} ticks ({steps} with a step), {checked} held cells checked; \
         changes between ticks: Solid {}, PathFollower {}, moved to a map {}, OnGrid removed {}, \
         to no grid {}, resized {}, despawned {}, new goal {}",
        actions[0],
        actions[1],
        actions[2],
        actions[3],
        actions[4],
        actions[5],
        actions[6],
        actions[7]
    );
    assert!(steps > 100, "the crowds hardly stepped: {steps} steps");
    assert!(checked > 100_000, "few held cells checked: {checked}");
}

/// A unit standing still is never synced between steps (none of what the crowd reads
/// of it changes), yet the speed its game gives it counts from the next step: a unit
/// of speed 0 given a speed sets off, however long it stood; given 0 again, it stops.
#[test]
fn a_speed_set_while_standing_counts_from_the_next_step() {
    let mut app = app(Some(Grid::new(40, 30).unwrap()), uncapped());
    // A walker keeps the crowd stepping at its pace (a step every 15 ticks).
    let walker = spawn(&mut app, Cell::new(1, 1), Cell::new(38, 1), 1, 4.0, false);
    let idle = spawn(&mut app, Cell::new(1, 20), Cell::new(38, 20), 1, 0.0, false);
    let mut inv = Invariants::new();
    // Placed, a unit may step once (it is placed with a step's credit); then it
    // stands.
    for _ in 0..60 {
        ticks(&mut app, 1);
        inv.check(&mut app, &[]);
    }
    let standing = cell_of(&app, idle);
    for _ in 0..60 {
        ticks(&mut app, 1);
        inv.check(&mut app, &[]);
    }
    assert_ne!(
        cell_of(&app, walker),
        Cell::new(1, 1),
        "the walker never set off"
    );
    assert_eq!(cell_of(&app, idle), standing, "a unit of speed 0 walked");
    app.world_mut().get_mut::<PathFollower>(idle).unwrap().speed = 4.0;
    let mut set_off = None;
    for tick in 0..120 {
        ticks(&mut app, 1);
        inv.check(&mut app, &[]);
        if set_off.is_none() && cell_of(&app, idle) != standing {
            set_off = Some(tick);
        }
    }
    let set_off = set_off.expect("a unit given a speed never set off");
    let walked = cell_of(&app, idle).x - standing.x;
    println!("speed read: set off {set_off} ticks after its speed was set, walked {walked} cells");
    // Read at the next step (within 15 ticks) and stepped at the one after.
    assert!(set_off <= 45, "set off only after {set_off} ticks");
    assert!(
        walked >= 4,
        "walked only {walked} cells in 120 ticks at 4 cells a second"
    );
    app.world_mut().get_mut::<PathFollower>(idle).unwrap().speed = 0.0;
    ticks(&mut app, 45);
    let stopped = cell_of(&app, idle);
    ticks(&mut app, 60);
    assert_eq!(
        cell_of(&app, idle),
        stopped,
        "a unit of speed 0 kept walking"
    );
}
