//! The crowd solver in the standard multi-agent path finding (MAPF) setting, on the
//! Moving AI MAPF instances in `tilepath_testkit/data/mapf`: 4-connected, unit moves,
//! one move or wait per timestep, vertex and swap conflicts forbidden (the crowd
//! forbids both), one distance field per goal ([`GoalFields`]).
//!
//! `cargo bench -p tilepath-benches --bench mapf [-- <name filter>]`. Per instance:
//! solved within the step limit, sum of costs (an agent's cost: the step at which it
//! reaches its goal for the last time and stays), SoC over the lower bound (the sum
//! of the agents' own shortest distances), makespan, and the time of a step (fields
//! built beforehand, not counted), next to the reference solvers' figures from the
//! shared table (PIBT, PIBT+ and LaCAM; see `data/mapf/README.md`).

use std::time::Instant;
use tilepath::{AgentSpec, Crowd, GoalFields, Mobility, Untangle};
use tilepath_testkit::{MAPF_INSTANCES, load_mapf};

/// Steps after which an instance counts as unsolved.
const STEP_LIMIT: u64 = 5000;

/// Steps without an agent newly home after which the crowd counts as stalled and is
/// untangled ([`Untangle`], as PIBT+ completes PIBT with another solver).
const STALL: u64 = 20;

/// The most configurations an untangling explores.
const UNTANGLE_NODES: usize = 2_000_000;

/// The reference figures: instance, PIBT SoC, PIBT+ SoC, LaCAM SoC (0: unsolved),
/// PIBT's plan ms a step (0: not given).
const REFERENCE: [(&str, u64, u64, u64, f64); 9] = [
    ("random-32-32-10-100-s1", 2824, 2824, 3035, 0.0117),
    ("random-32-32-10-200-s1", 0, 6693, 7137, 0.0),
    ("random-32-32-10-400-s1", 0, 17991, 19109, 0.0),
    ("maze-32-32-2-50-s1", 3453, 3454, 3619, 0.0049),
    ("maze-32-32-2-100-s1", 0, 8158, 0, 0.0),
    ("room-64-64-8-200-s1", 18055, 18273, 18543, 0.0250),
    ("room-64-64-8-500-s1", 0, 145_129, 88913, 0.0),
    (
        "warehouse-20-40-10-2-2-500-s1",
        109_359,
        109_359,
        110_635,
        0.1669,
    ),
    (
        "warehouse-20-40-10-2-2-1000-s1",
        236_370,
        236_370,
        242_220,
        0.3689,
    ),
];

/// What a run gave.
struct Run {
    solved: bool,
    soc: u64,
    makespan: u64,
    steps: u64,
    ms_per_step: f64,
    /// Untanglings planned, and their time in all (ms).
    untangled: u32,
    untangle_ms: f64,
}

fn run(name: &str) -> (Run, u64) {
    let inst = load_mapf(name);
    let grid = &inst.grid;
    let mut crowd = Crowd::new(grid).unwrap();
    let ids: Vec<_> = inst
        .starts
        .iter()
        .zip(&inst.goals)
        .map(|(&s, &g)| {
            let spec = AgentSpec::new(s).mobility(Mobility::FLOOR_ONLY).goal(g);
            crowd.add(grid, spec).unwrap()
        })
        .collect();
    let mut fields = GoalFields::new();
    fields.update(grid, &crowd).unwrap();
    // Per agent: the step it last arrived at its goal (`None`: not there now).
    let mut arrived: Vec<Option<u64>> = ids
        .iter()
        .zip(&inst.goals)
        .map(|(&id, &g)| (crowd.cell(id) == Some(g)).then_some(0))
        .collect();
    let mut elapsed = 0.0;
    let mut solved = arrived.iter().all(Option::is_some);
    let (mut untangle, mut untangled, mut untangle_ms) = (Untangle::new(), 0, 0.0);
    let (mut home, mut last_progress) = (0, 0);
    while !solved && crowd.steps() < STEP_LIMIT {
        let t = Instant::now();
        if crowd.step_untangled(grid, &mut untangle).unwrap().is_none() {
            if crowd.steps() - last_progress >= STALL {
                let t = Instant::now();
                let found = untangle
                    .plan(grid, &crowd, &fields, UNTANGLE_NODES)
                    .unwrap();
                untangle_ms += t.elapsed().as_secs_f64() * 1e3;
                untangled += 1;
                last_progress = crowd.steps();
                if found {
                    elapsed += t.elapsed().as_secs_f64();
                    continue;
                }
            }
            crowd.step(grid, &fields).unwrap();
        }
        elapsed += t.elapsed().as_secs_f64();
        let now = crowd.steps();
        for (k, (&id, &g)) in ids.iter().zip(&inst.goals).enumerate() {
            let there = crowd.cell(id) == Some(g);
            arrived[k] = match (there, arrived[k]) {
                (true, Some(t)) => Some(t),
                (true, None) => Some(now),
                (false, _) => None,
            };
        }
        solved = arrived.iter().all(Option::is_some);
        // Progress: more agents home than ever before (agents pushed off their goals
        // and back again are not progress).
        let now_home = arrived.iter().filter(|a| a.is_some()).count();
        if now_home > home {
            last_progress = now;
            home = now_home;
        }
    }
    let steps = crowd.steps();
    let soc = arrived.iter().map(|a| a.unwrap_or(steps)).sum();
    let makespan = arrived
        .iter()
        .map(|a| a.unwrap_or(steps))
        .max()
        .unwrap_or(0);
    // Untangling is counted apart: a rare search, not a step.
    let ms_per_step = (elapsed * 1e3 - untangle_ms) / steps.max(1) as f64;
    let run = Run {
        solved,
        soc,
        makespan,
        steps,
        ms_per_step,
        untangled,
        untangle_ms,
    };
    (run, inst.lower_bound())
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    println!(
        "| instance | solved | SoC | LB | SoC/LB | makespan | ms/step | untangled (ms) | best ref SoC (PIBT+/LaCAM) | ours/best | PIBT ms/step |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for name in MAPF_INSTANCES {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let (r, lb) = run(name);
        let reference = REFERENCE.iter().find(|r| r.0 == name);
        let best = reference.map_or(0, |&(_, _, plus, lacam, _)| {
            [plus, lacam]
                .into_iter()
                .filter(|&s| s > 0)
                .min()
                .unwrap_or(0)
        });
        let pibt_ms = reference.map_or(0.0, |r| r.4);
        let soc = if r.solved {
            r.soc.to_string()
        } else {
            format!("({} at step {})", r.soc, r.steps)
        };
        println!(
            "| {name} | {} | {soc} | {lb} | {:.3} | {} | {:.4} | {} ({:.1}) | {best} | {:.3} | {} |",
            if r.solved { "yes" } else { "no" },
            r.soc as f64 / lb as f64,
            r.makespan,
            r.ms_per_step,
            r.untangled,
            r.untangle_ms,
            r.soc as f64 / best as f64,
            if pibt_ms > 0.0 {
                format!("{pibt_ms:.4}")
            } else {
                "NA".to_string()
            },
        );
    }
}
