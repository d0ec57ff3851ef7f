//! The crowd's joint step at game scale, without Bevy: tens of thousands of one-cell,
//! 8-connected agents heading for one goal (chasers of one target) on a 1024x1024 map
//! of rooms joined by corridors, each step planned in parts over the ticks of a
//! period as the plugin plans it ([`Crowd::begin_step`], [`Crowd::advance_step`],
//! [`Crowd::step`]), every agent ready every step.
//!
//! `cargo bench -p tilepath-benches --bench crowd_scale`. Per crowd size: the moves
//! made, and the time of a step (its parts and its moves) as the median and the least
//! of the steps timed, and that median over a period of 11 ticks (what the plugin's
//! tick pays on average for 60 ticks a second and units up to 5.5 cells a second).
//! `CROWD_SCALE_STEPS=n` times `n` steps (40 by default): a short run is what a
//! callgrind count of the step takes (`--toggle-collect='*plan_some*'
//! --toggle-collect='*Crowd*apply*'`).

use rand::RngExt;
use rand::rngs::StdRng;
use std::time::Instant;
use tilepath::{AgentSpec, Cell, Connectivity, Crowd, GoalFields, Grid, Mobility, TileKind};
use tilepath_testkit::rng;

/// Ticks a step is planned over: 60 ticks a second, the fastest unit 5.5 cells a
/// second (the maze's chasers).
const PERIOD: usize = 11;

/// The map's side.
const SIDE: i32 = 1024;

/// Rooms on a 1024x1024 map: blocks of 16x16 cells, each a room of 4 to 14 cells a side
/// or (one in four) open ground, every block's centre joined to its right and lower
/// neighbours' by an L-shaped corridor one or two cells wide. Walls are kind 1.
fn rooms(rng: &mut StdRng) -> Grid {
    let wall = TileKind::K1;
    let mut grid = Grid::filled(SIDE as u32, SIDE as u32, wall).expect("a 1024x1024 grid");
    let floor = |grid: &mut Grid, c: Cell| {
        if c.x > 0 && c.y > 0 && c.x < SIDE - 1 && c.y < SIDE - 1 {
            let _ = grid.set(c, TileKind::K0);
        }
    };
    let block = 16;
    let blocks = (SIDE - 2) / block;
    let mut centres = Vec::new();
    for by in 0..blocks {
        for bx in 0..blocks {
            let (x0, y0) = (1 + bx * block, 1 + by * block);
            let (w, h, x, y) = if rng.random_range(0..4) == 0 {
                (block, block, x0, y0)
            } else {
                let w = rng.random_range(4..15);
                let h = rng.random_range(4..15);
                let x = x0 + 1 + rng.random_range(0..block - w);
                let y = y0 + 1 + rng.random_range(0..block - h);
                (w, h, x, y)
            };
            for cy in y..y + h {
                for cx in x..x + w {
                    floor(&mut grid, Cell::new(cx, cy));
                }
            }
            centres.push(Cell::new(x + w / 2, y + h / 2));
        }
    }
    let blocks = blocks as usize;
    for i in 0..centres.len() {
        let a = centres[i];
        let next = [
            (i % blocks + 1 < blocks).then(|| i + 1),
            centres.get(i + blocks).map(|_| i + blocks),
        ];
        for j in next.into_iter().flatten() {
            let b = centres[j];
            let wide = rng.random_range(0..2);
            for x in a.x.min(b.x)..=a.x.max(b.x) {
                for d in 0..=wide {
                    floor(&mut grid, Cell::new(x, a.y + d));
                }
            }
            for y in a.y.min(b.y)..=a.y.max(b.y) {
                for d in 0..=wide {
                    floor(&mut grid, Cell::new(b.x + d, y));
                }
            }
        }
    }
    grid
}

/// What one crowd size gave.
struct Run {
    moves: usize,
    /// Each timed step's time, in ms, sorted.
    steps_ms: Vec<f64>,
}

fn run(grid: &Grid, agents: usize, steps: usize) -> Run {
    let mut rng = rng(agents as u64);
    let centre = Cell::new(SIDE / 2, SIDE / 2);
    let goal = (0..SIDE / 2)
        .flat_map(|r| (-r..=r).map(move |d| Cell::new(centre.x + d, centre.y + r)))
        .find(|&c| grid.is_passable(c, Mobility::FLOOR_ONLY))
        .expect("floor near the centre");
    let mut crowd = Crowd::new(grid).expect("a crowd");
    crowd
        .set_hold_left(true)
        .expect("memory for the cells left");
    crowd.reserve(agents);
    let mut ids = Vec::with_capacity(agents);
    while ids.len() < agents {
        let cell = Cell::new(rng.random_range(0..SIDE), rng.random_range(0..SIDE));
        let spec = AgentSpec::new(cell)
            .connectivity(Connectivity::Eight)
            .goal(goal);
        if let Ok(id) = crowd.add(grid, spec) {
            ids.push(id);
        }
    }
    let mut fields = GoalFields::new();
    fields.update(grid, &crowd).expect("the goal's field");
    // A first step, whole: the rates a step in parts is estimated by.
    crowd.step(grid, &fields).expect("a step");
    crowd.begin_step();
    let mut run = Run {
        moves: 0,
        steps_ms: Vec::with_capacity(steps),
    };
    for _ in 0..steps {
        let t = Instant::now();
        for ticks_left in (1..PERIOD).rev() {
            let share = crowd.step_left().div_ceil(ticks_left);
            crowd
                .advance_step(grid, &fields, share)
                .expect("a part of the step");
        }
        for &id in &ids {
            crowd.arrive(id).expect("a live agent");
        }
        run.moves += crowd.step(grid, &fields).expect("a step").moved;
        for &id in &ids {
            crowd.set_ready(id, true).expect("a live agent");
        }
        crowd.begin_step();
        run.steps_ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    run.steps_ms.sort_by(f64::total_cmp);
    run
}

fn main() {
    let steps = std::env::var("CROWD_SCALE_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let grid = rooms(&mut rng(7));
    println!(
        "rooms {SIDE}x{SIDE}, one goal near the centre, 8-connected one-cell agents, every agent ready, {steps} steps timed, each planned over {PERIOD} ticks"
    );
    println!("| agents | moves | step, median | step, least | a tick of {PERIOD}, median |");
    println!("|---:|---:|---:|---:|---:|");
    for agents in [10_000, 50_000] {
        let run = run(&grid, agents, steps);
        let median = run.steps_ms[run.steps_ms.len() / 2];
        println!(
            "| {agents} | {} | {median:.2} ms | {:.2} ms | {:.3} ms |",
            run.moves,
            run.steps_ms[0],
            median / PERIOD as f64,
        );
    }
}
