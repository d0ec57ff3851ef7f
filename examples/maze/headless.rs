//! Headless: the simulation without a window, printing tick statistics (and, with
//! `--orders`, the account of requests made and answered).

use std::time::Instant;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_tilepath::prelude::*;

use crate::layout::MapKind;
use crate::options::Options;
use crate::orders::OrderStats;
use crate::simulation::{Autopilot, Chaser, MazePlugin, Score};

pub(crate) fn headless_app(options: Options, autopilot: bool) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(crate::options::task_pools(&options)))
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
    let paced = options.paced;
    let crowd = options.crowd;
    let landmarks = options.landmarks;
    let units = match options.orders {
        Some(seconds) => format!("{} units, new orders every {seconds} s", options.chasers),
        None => format!("{} chasers", options.chasers),
    };
    println!(
        "{} {}x{} seed {}, {units}, {} ticks (60 Hz{}), {} cores, tasks per batch {}",
        match options.map {
            MapKind::Maze => "maze",
            MapKind::Rooms => "rooms",
            MapKind::Halls => "halls",
        },
        options.width,
        options.height,
        options.seed,
        ticks,
        if paced { ", paced" } else { ", back to back" },
        bevy::tasks::available_parallelism(),
        match options.threads {
            0 => "one per pool thread and the caller".to_string(),
            n => n.to_string(),
        }
    );
    let mut app = headless_app(options, true);
    let setup = Instant::now();
    app.update(); // startup: maze, tilemap, chasers (the first update runs no fixed tick)
    println!(
        "setup {:.1} ms; compute pool threads: {}",
        setup.elapsed().as_secs_f64() * 1e3,
        bevy::tasks::ComputeTaskPool::try_get().map_or(0, |p| p.thread_num())
    );
    let mut whole = Vec::with_capacity(ticks as usize);
    let mut pathing = Vec::with_capacity(ticks as usize);
    let mut crowd_times = Vec::with_capacity(ticks as usize);
    let (mut served, mut max_waiting, mut fields, mut work) = (0_u64, 0_u32, 0_u64, 0_u64);
    // Crowds: steps moved, units kept waiting (summed over ticks), most stuck at once.
    let (mut crowd_moved, mut crowd_waiting, mut crowd_stuck) = (0_u64, 0_u64, 0_u32);
    // The tick the landmark guides (built in the background) were first ready.
    let mut guided_from = None;
    let mut guided_pathing = Vec::with_capacity(ticks as usize);
    // Every tick's pathing time with what it did, to name the heaviest ones after the
    // first second.
    let mut heavy: Vec<(f64, u64, PathingDiagnostics)> = Vec::with_capacity(ticks as usize);
    let frame = std::time::Duration::from_secs_f64(1.0 / 60.0);
    for tick in 0..ticks {
        let t = Instant::now();
        app.update();
        whole.push(t.elapsed().as_secs_f64() * 1e3);
        if paced {
            std::thread::sleep(frame.saturating_sub(t.elapsed()));
        }
        let d = *app.world().resource::<PathingDiagnostics>();
        pathing.push(d.time.as_secs_f64() * 1e3);
        heavy.push((d.time.as_secs_f64() * 1e3, tick, d));
        crowd_times.push(d.crowd_time.as_secs_f64() * 1e3);
        served += u64::from(d.served);
        max_waiting = max_waiting.max(d.waiting);
        fields += u64::from(d.fields_built);
        work += d.expanded;
        crowd_moved += u64::from(d.crowd_moved);
        crowd_waiting += u64::from(d.crowd_waiting);
        crowd_stuck = crowd_stuck.max(d.crowd_stuck);
        if d.guides > 0 && guided_from.is_none() {
            guided_from = Some(tick);
        }
        if guided_from.is_some() {
            guided_pathing.push(d.time.as_secs_f64() * 1e3);
        }
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
    // What a player sees once the game runs: the first second builds what it needs
    // (fields, the crowd's first placing of every unit and its first whole step).
    let after_first_second = |v: &[f64]| v.get(60..).unwrap_or(&[]).to_vec();
    let mut settled_whole = after_first_second(&whole);
    let mut settled = after_first_second(&pathing);
    let mut settled_crowds = after_first_second(&crowd_times);
    report("tick (whole app update)", &mut whole);
    report("tick after the first second", &mut settled_whole);
    report("pathing (collect + solve)", &mut pathing);
    report("pathing after the first second", &mut settled);
    if crowd {
        report("crowds (placing + joint steps)", &mut crowd_times);
        report("crowds after the first second", &mut settled_crowds);
    }
    // Pathing past 4 ms leaves too little of an 8 ms tick, what a player notices.
    let over = settled.iter().filter(|&&ms| ms > 4.0).count();
    println!(
        "ticks after the first second with pathing over 4 ms: {over} of {}",
        settled.len()
    );
    let paused = heavy.iter().filter(|h| h.2.searches_paused > 0).count();
    println!(
        "ticks that left a whole-grid search paused at the time cap: {paused} of {}",
        heavy.len()
    );
    heavy.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (ms, tick, d) in heavy.iter().filter(|h| h.1 >= 60).take(5) {
        println!(
            "  heavy tick {tick}: {ms:.2} ms, served {}, work {}, batches {} ({} spread), \
             fields built {} repaired {}, failed {}, searches paused {}",
            d.served,
            d.expanded,
            d.batches,
            d.batches_spread,
            d.fields_built,
            d.fields_repaired,
            d.failed,
            d.searches_paused
        );
    }
    let world = app.world_mut();
    let alive = world
        .query_filtered::<(), With<Chaser>>()
        .iter(world)
        .count();
    let caught = world.resource::<Score>().caught;
    let per_tick = |n: u64| n as f64 / ticks.max(1) as f64;
    println!(
        "requests served {served} ({:.0}/tick), most waiting after a tick {max_waiting}, \
         fields built {fields}, work {:.0}/tick; chasers alive {alive}, caught {caught}",
        per_tick(served),
        per_tick(work)
    );
    if crowd {
        println!(
            "crowd: steps moved {crowd_moved} ({:.0}/tick), units kept waiting {:.0}/tick, \
             most stuck at once {crowd_stuck}",
            per_tick(crowd_moved),
            per_tick(crowd_waiting)
        );
    }
    if landmarks > 0 {
        match guided_from {
            Some(tick) => {
                let after = &guided_pathing[..];
                println!(
                    "landmark guides ready from tick {tick}; pathing from then on: mean {:.3} ms",
                    after.iter().sum::<f64>() / after.len().max(1) as f64
                );
            }
            None => println!("landmark guides never ready"),
        }
    }
    if let Some(o) = world.get_resource::<OrderStats>() {
        print_orders(o);
    }
}

/// The orders' account: what was asked, what was answered, how long it took.
fn print_orders(o: &OrderStats) {
    let tick_ms = 1000.0 / 60.0;
    println!(
        "requests made {} (orders {}, next segments {}), answered {} (found {}, partial {}, \
         failed {}), replaced by a newer order {}, waiting at the end {}: lost {}",
        o.made(),
        o.orders,
        o.segments,
        o.answered(),
        o.found,
        o.partial,
        o.failed,
        o.replaced,
        o.waiting,
        o.lost()
    );
    println!(
        "wait from request to answer: mean {:.2} ticks, longest {} ticks ({:.0} ms of game \
         time); most waiting after a tick {}; answers nobody asked for {}; ticks the plugin \
         counted other waiting requests {}",
        o.wait_sum as f64 / o.answered().max(1) as f64,
        o.longest_wait,
        o.longest_wait as f64 * tick_ms,
        o.most_waiting,
        o.unasked,
        o.disagreements
    );
    println!(
        "units standing at a segment's end waiting for the next: {} unit-ticks, longest {} \
         ticks",
        o.stalled, o.longest_stall
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Maze;
    use crate::options::parse_args;
    use crate::orders::Unit;
    use crate::simulation::{Chaser, Player};
    use std::collections::HashMap;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// Chasers close in on a standing player, get caught, and never stand in a wall;
    /// alone, each closes in; in a crowd (the default), no two ever share a cell, and
    /// those that did not close in wait in a queue.
    #[test]
    fn chasers_close_in_and_never_walk_through_walls() {
        for crowd in [false, true] {
            close_in(crowd);
        }
    }

    /// The headless app of `options` (crowds off unless `crowd`), after its startup
    /// update.
    fn started(options: &str, crowd: bool) -> App {
        let flags = if crowd { "" } else { " --no-crowd" };
        let options = parse_args(args(&format!("{options}{flags}")))
            .unwrap()
            .unwrap();
        let mut app = headless_app(options, false);
        app.update();
        app
    }

    fn close_in(crowd: bool) {
        let mut app = started("--headless --chasers 300 --size 48x48 --seed 5", crowd);
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
        for tick in 0..300 {
            app.update();
            let mut held = HashMap::new();
            for (e, c) in chasers(&mut app) {
                assert!(!maze.is_wall(c), "a chaser stands in the wall at {c:?}");
                if let Some(other) = held.insert(c, e) {
                    assert!(!crowd, "tick {tick}: {e} and {other} share {c}");
                }
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
        let held: HashMap<Cell, Entity> = end.iter().map(|&(e, c)| (c, e)).collect();
        let (mut closed, mut queued, mut gained) = (0, 0, 0_i64);
        for &(e, c) in &end {
            let (before, after) = (start[&e], distance(c));
            gained += i64::from(before) - i64::from(after);
            if after + 14 <= before || after == 0 {
                closed += 1;
                continue;
            }
            // In a queue: a cell a step nearer the player is held by another chaser.
            let behind = Direction8::ALL.into_iter().any(|d| {
                let n = c.step(d);
                maze.contains(n) && distance(n) < after && held.contains_key(&n)
            });
            assert!(
                crowd,
                "chaser {e} did not close in: {before} -> {after} steps from the player"
            );
            if behind {
                queued += 1;
            }
        }
        let mean = gained as f64 / end.len() as f64;
        println!(
            "crowd {crowd}: {caught} caught; of {} left, {closed} closed in by 14 steps or \
             more, {queued} more queue behind others; {mean:.1} steps nearer on average",
            end.len()
        );
        if crowd {
            // A crowd in 1-wide corridors steps at its fastest chaser's pace, lets one
            // chaser onto the player at a time, and makes way (a chaser pushed back
            // by others behind a bend neither closes in nor queues): most close in or
            // queue, and none is stuck.
            assert!(
                (closed + queued) * 100 >= end.len() * 85 && mean >= 8.0,
                "the crowd did not close in"
            );
            let d = app.world().resource::<PathingDiagnostics>();
            assert_eq!(d.crowd_stuck, 0);
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

    /// On hex and isometric layouts of the rooms map, chasers step only between
    /// neighbouring tiles of the layout (the 6 of a hex, or the square ones of a
    /// diamond), never into a wall, never onto a tile another chaser holds (they are
    /// solid, a crowd on every layout), and get caught.
    #[test]
    fn chasers_walk_hex_and_isometric_maps() {
        for layout in ["hex-row-odd", "hex-column", "iso"] {
            let options = parse_args(args(&format!(
                "--headless --map rooms --layout {layout} --chasers 200 --size 40x36 --seed 6"
            )))
            .unwrap()
            .unwrap();
            let map = options.layout;
            let mut app = headless_app(options, false);
            app.update();
            let maze = app.world().resource::<Maze>().clone();
            let chasers = |app: &mut App| -> HashMap<Entity, Cell> {
                let world = app.world_mut();
                let mut q = world.query_filtered::<(Entity, &GridCell), With<Chaser>>();
                q.iter(world).map(|(e, c)| (e, c.0)).collect()
            };
            let mut last = chasers(&mut app);
            let mut steps = 0;
            for _ in 0..300 {
                app.update();
                let mut held = HashMap::new();
                for (e, c) in chasers(&mut app) {
                    assert!(
                        !maze.is_wall(c),
                        "{layout}: a chaser stands in the wall at {c:?}"
                    );
                    if let Some(other) = held.insert(c, e) {
                        panic!("{layout}: {e} and {other} share {c}");
                    }
                    let before = last[&e];
                    if before != c {
                        let d = Direction8::ALL
                            .into_iter()
                            .find(|&d| before.step(d) == c)
                            .unwrap_or_else(|| panic!("{layout}: {before:?} -> {c:?} jumps"));
                        assert!(
                            map.connectivity(Connectivity::Eight).allows(before, d),
                            "{layout}: {before:?} -> {c:?} is not a step of the layout"
                        );
                        steps += 1;
                    }
                }
                last.retain(|e, _| app.world().get_entity(*e).is_ok());
                last.extend(chasers(&mut app));
            }
            let caught = app.world().resource::<Score>().caught;
            println!("{layout}: {caught} caught, {steps} steps in 300 ticks");
            // The chasers are solid on every layout and queue for one another.
            assert!(
                caught > 0 && steps > 1500,
                "{layout}: {caught} caught, {steps} steps"
            );
        }
    }

    /// Halls with chasers of three sizes: the 2x2 and 3x3 ones get paths, walk them
    /// with their whole footprint on the floor every tick, never overlapping another
    /// chaser, and close in on the player.
    #[test]
    fn big_chasers_keep_their_footprints_on_the_floor() {
        let options = parse_args(args(
            "--headless --map halls --size 96 --chasers 60 --seed 4",
        ))
        .unwrap()
        .unwrap();
        let mut app = headless_app(options, false);
        app.update();
        let maze = app.world().resource::<Maze>().clone();
        let chasers = |app: &mut App| -> Vec<(Entity, Cell, u8, PathStatus)> {
            let world = app.world_mut();
            let mut q = world
                .query_filtered::<(Entity, &GridCell, &PathRequest, &PathStatus), With<Chaser>>();
            q.iter(world)
                .map(|(e, c, r, s)| (e, c.0, r.size, *s))
                .collect()
        };
        let initial = chasers(&mut app);
        let start: HashMap<Entity, Cell> = initial.iter().map(|c| (c.0, c.1)).collect();
        let sizes = |n: u8| initial.iter().filter(|c| c.2 == n).count();
        assert!(
            sizes(2) >= 6 && sizes(3) >= 3,
            "2x2: {}, 3x3: {}",
            sizes(2),
            sizes(3)
        );
        for tick in 0..240 {
            app.update();
            // Solid (the default): no two footprints overlap.
            let mut held = HashMap::new();
            for (e, at, size, _) in chasers(&mut app) {
                let n = i32::from(size);
                for (dx, dy) in (0..n).flat_map(|dy| (0..n).map(move |dx| (dx, dy))) {
                    let c = Cell::new(at.x + dx, at.y + dy);
                    assert!(
                        !maze.is_wall(c),
                        "a {size}x{size} chaser at {at} covers the wall {c}"
                    );
                    if let Some(other) = held.insert(c, e) {
                        panic!("tick {tick}: {e} ({size}x{size} at {at}) and {other} share {c}");
                    }
                }
            }
        }
        // Every big chaser got an answer: a path, or a partial one to the closest cell
        // it can reach, or none when it is there already, or (where its footprint
        // cannot stand on the player's cell, next to a wall) none at once; and most of
        // them moved.
        let now = chasers(&mut app);
        let big: Vec<_> = now.iter().filter(|c| c.2 > 1).collect();
        assert!(
            big.iter().all(|c| matches!(
                c.3,
                PathStatus::Found
                    | PathStatus::Partial(_)
                    | PathStatus::Arrived
                    | PathStatus::NoPath(NoPathReason::GoalBlocked | NoPathReason::GoalUnfit)
            )),
            "{big:?}"
        );
        let moved = big.iter().filter(|c| start.get(&c.0) != Some(&c.1)).count();
        assert!(
            moved * 2 >= big.len(),
            "only {moved} of {} big chasers moved",
            big.len()
        );
    }

    /// The orders scenario on a small rooms map: every order and every next segment is
    /// answered (the game's account and the plugin's agree after every tick), nobody
    /// stands at the end of a segment, every unit walks, and each path leads to its
    /// unit's latest order.
    #[test]
    fn every_order_is_answered_and_units_keep_walking() {
        for crowd in [false, true] {
            orders(crowd);
        }
    }

    fn orders(crowd: bool) {
        let mut app = started(
            "--headless --map rooms --size 96 --units 50 --orders 12 --seed 3",
            crowd,
        );
        let maze = app.world().resource::<Maze>().clone();
        let units = |app: &mut App| -> Vec<(Entity, Cell)> {
            let world = app.world_mut();
            let mut q = world.query_filtered::<(Entity, &GridCell), With<Unit>>();
            q.iter(world).map(|(e, c)| (e, c.0)).collect()
        };
        let mut last: HashMap<Entity, Cell> = units(&mut app).into_iter().collect();
        assert_eq!(last.len(), 50);
        let mut walked: HashMap<Entity, u32> = HashMap::new();
        // 15 s: every unit gets its first order within 12 s, the early ones a second.
        for _ in 0..900 {
            app.update();
            for (e, c) in units(&mut app) {
                assert!(!maze.is_wall(c), "a unit stands in the wall at {c:?}");
                if last.insert(e, c) != Some(c) {
                    *walked.entry(e).or_default() += 1;
                }
            }
        }
        let o = *app.world().resource::<OrderStats>();
        println!("crowd {crowd}: {o:?}");
        assert!((50..100).contains(&o.orders), "{o:?}");
        assert!(o.segments > 0, "no route ran past its first segment: {o:?}");
        assert_eq!(o.lost(), 0, "{o:?}");
        // In a crowd, a unit made to step off its path that cannot take it up again
        // is planned again unasked.
        assert_eq!(
            (
                o.failed,
                o.partial,
                if crowd { 0 } else { o.unasked },
                o.disagreements,
                o.longest_stall
            ),
            (0, 0, 0, 0, 0),
            "{o:?}"
        );
        assert!(o.longest_wait <= 1, "{o:?}");
        // Every request the plugin served is one the game accounts for (or, in a
        // crowd, one the plugin made itself).
        let served = app.world().resource::<PathingDiagnostics>().total_served;
        assert_eq!(served, o.answered() + o.unasked);
        // At 3 to 5.5 cells a second for at least 3 s since the first order.
        assert_eq!(walked.len(), 50);
        assert!(walked.values().all(|&n| n >= 9), "{walked:?}");
        let world = app.world_mut();
        let mut q = world.query::<(&Unit, &PathRequest, &UnitPath)>();
        for (unit, request, path) in q.iter(world) {
            if !unit.is_waiting() {
                assert_eq!(request.goal, PathGoal::Cell(path.goal));
            }
        }
    }
}
