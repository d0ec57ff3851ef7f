//! Headless: the simulation without a window, printing tick statistics.

use std::time::Instant;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::*;

use crate::options::Options;
use crate::simulation::{Autopilot, Chaser, MazePlugin, Score};

pub(crate) fn headless_app(options: Options, autopilot: bool) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(options)
        .insert_resource(Autopilot(autopilot))
        .add_plugins(MazePlugin);
    // Every update advances exactly one fixed tick.
    let step = Time::<Fixed>::from_hz(60.0).timestep();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(step));
    app.finish();
    app.cleanup();
    app
}

pub(crate) fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

pub(crate) fn run_headless(options: Options) {
    let ticks = options.ticks;
    println!(
        "maze {}x{} seed {}, {} chasers, {} ticks (60 Hz), {} compute threads",
        options.width,
        options.height,
        options.seed,
        options.chasers,
        ticks,
        bevy::tasks::available_parallelism()
    );
    let mut app = headless_app(options, true);
    let setup = Instant::now();
    app.update(); // startup: maze, tilemap, chasers (the first update runs no fixed tick)
    println!("setup {:.1} ms", setup.elapsed().as_secs_f64() * 1e3);
    let mut whole = Vec::with_capacity(ticks as usize);
    let mut pathing = Vec::with_capacity(ticks as usize);
    let (mut served, mut max_waiting, mut fields) = (0_u64, 0_u32, 0_u64);
    for _ in 0..ticks {
        let t = Instant::now();
        app.update();
        whole.push(t.elapsed().as_secs_f64() * 1e3);
        let d = *app.world().resource::<PathingDiagnostics>();
        pathing.push(d.time.as_secs_f64() * 1e3);
        served += u64::from(d.served);
        max_waiting = max_waiting.max(d.waiting);
        fields += u64::from(d.fields_built);
    }
    let report = |name: &str, v: &mut Vec<f64>| {
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        v.sort_by(f64::total_cmp);
        println!(
            "{name:<34} mean {mean:7.3} ms   p99 {:7.3} ms   max {:7.3} ms",
            percentile(v, 0.99),
            v.last().copied().unwrap_or(0.0)
        );
    };
    report("tick (whole app update)", &mut whole);
    report("pathing (collect + solve)", &mut pathing);
    let world = app.world_mut();
    let alive = world
        .query_filtered::<(), With<Chaser>>()
        .iter(world)
        .count();
    let caught = world.resource::<Score>().caught;
    println!(
        "requests served {served} ({:.0}/tick), most waiting after a tick {max_waiting}, \
         fields built {fields}; chasers alive {alive}, caught {caught}",
        served as f64 / ticks.max(1) as f64
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Maze;
    use crate::options::parse_args;
    use crate::simulation::Player;
    use std::collections::HashMap;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// Chasers close in on a standing player, get caught, and never stand in a wall.
    #[test]
    fn chasers_close_in_and_never_walk_through_walls() {
        let options = parse_args(args("--headless --chasers 300 --size 48x48 --seed 5"))
            .unwrap()
            .unwrap();
        let mut app = headless_app(options, false);
        app.update();
        let world = app.world_mut();
        let player = world
            .query_filtered::<&GridCell, With<Player>>()
            .single(world)
            .unwrap()
            .0;
        let maze = world.resource::<Maze>().clone();
        let distances = maze.distances(player);
        let distance = |c: Cell| distances[(c.y as u32 * maze.width + c.x as u32) as usize];
        let chasers = |app: &mut App| -> Vec<(Entity, Cell)> {
            let world = app.world_mut();
            let mut q = world.query_filtered::<(Entity, &GridCell), With<Chaser>>();
            q.iter(world).map(|(e, c)| (e, c.0)).collect()
        };
        let start: HashMap<Entity, u32> = chasers(&mut app)
            .into_iter()
            .map(|(e, c)| (e, distance(c)))
            .collect();
        assert_eq!(start.len(), 300);
        assert!(start.values().all(|&d| d >= 12 && d != u32::MAX));
        // 300 ticks = 5 s at 3 to 5.5 cells/s: at least 15 cells each.
        for _ in 0..300 {
            app.update();
            for (_, c) in chasers(&mut app) {
                assert!(!maze.is_wall(c), "a chaser stands in the wall at {c:?}");
            }
        }
        let end = chasers(&mut app);
        let caught = app.world().resource::<Score>().caught;
        assert_eq!(
            end.len() as u64 + caught,
            300,
            "every chaser is alive or caught"
        );
        assert!(caught > 0, "nobody was caught");
        for (e, c) in end {
            let (before, after) = (start[&e], distance(c));
            assert!(
                after + 14 <= before || after == 0,
                "chaser {e} did not close in: {before} -> {after} steps from the player"
            );
        }
        let d = app.world().resource::<PathingDiagnostics>();
        assert!(d.total_served >= 300);
    }

    /// On autopilot the player walks the corridors (its one-step paths are planned for
    /// the floor mobility, which the follower checks every step against).
    #[test]
    fn player_walks_on_autopilot_and_stays_on_the_floor() {
        let options = parse_args(args("--headless --chasers 0 --size 32x32 --seed 2"))
            .unwrap()
            .unwrap();
        let mut app = headless_app(options, true);
        app.update();
        let player = |app: &mut App| {
            let world = app.world_mut();
            let mut q = world.query_filtered::<&GridCell, With<Player>>();
            q.single(world).unwrap().0
        };
        let maze = app.world().resource::<Maze>().clone();
        let mut visited = std::collections::HashSet::from([player(&mut app)]);
        for _ in 0..120 {
            app.update();
            let at = player(&mut app);
            assert!(!maze.is_wall(at), "the player stands in the wall at {at:?}");
            visited.insert(at);
        }
        // 2 s at 7 cells a second: the player has been somewhere.
        assert!(visited.len() >= 5, "the player barely moved: {visited:?}");
    }
}
