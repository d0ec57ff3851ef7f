//! Any-angle routes on the shared Moving AI maps: how long a pulled route is against
//! the 8-connected optimum and against the truly shortest any-angle route, and what
//! pulling costs against the search that found the route.
//!
//! `cargo bench -p tilepath-benches --bench smooth`. Per map, over scenarios evenly
//! spaced through the file (`SMOOTH_SCENARIOS`, default 200 a map):
//! - the pulled route's length over the scenario's 8-connected optimum (mean, worst);
//! - over the shortest any-angle route (a visibility graph over the corners of
//!   blocked cells, the testkit's reference; slow, so on every `SMOOTH_ORACLE_EVERY`-th
//!   scenario, default 4, of routes up to `SMOOTH_ORACLE_MAX` cells, default 256),
//!   mean and worst, and the 8-connected optimum over it;
//! - the time to pull the whole route (its 56-step pieces pulled on one after the
//!   other, as a follower extends its route) over the time of the one whole-grid jump
//!   point search that found it (jump distances kept), each the fastest of 5 runs:
//!   median and 90th percentile of the per-scenario ratio.

mod support;

use std::time::Instant;
use tilepath::{
    Arrival, Cell, Connectivity, Grid, Jps, JumpDistances, Mobility, PathQuery, Sight, Smoother,
    Solver, Waypoint,
};
use tilepath_testkit::{AnyAngleOracle, MOVING_AI_MAPS};

const MOBILITY: Mobility = Mobility::FLOOR_ONLY;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The fastest of `runs` runs of `f`, in microseconds.
fn fastest_us(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .fold(f64::INFINITY, f64::min)
}

/// The whole route's cells from `from`: the 56-step pieces, each asked from where the
/// last ended.
fn route_pieces(
    jps: &mut Jps,
    (grid, jumps): (&Grid, &JumpDistances),
    from: Cell,
    to: Cell,
) -> Vec<Vec<Cell>> {
    let mut pieces = Vec::new();
    let mut at = from;
    loop {
        let query = PathQuery::new(at, to, MOBILITY)
            .jumps(jumps)
            .connectivity(Connectivity::Eight);
        let r = jps.find(grid, query).unwrap();
        pieces.push(r.path.cells(at).collect());
        at = r.end;
        if r.arrival != Arrival::OnTheWay {
            return pieces;
        }
    }
}

/// Pulls the route piece by piece: each piece starts from the last point kept before
/// the previous piece's end (that end stays in the cells to pull). Returns the length.
fn pull(
    smoother: &mut Smoother,
    sight: &Sight<'_>,
    from: Cell,
    pieces: &[Vec<Cell>],
    out: &mut Vec<Waypoint>,
    all: &mut Vec<Waypoint>,
) -> f64 {
    all.clear();
    let mut anchor = Waypoint::centre_of(from);
    let mut carried: Option<Waypoint> = None;
    let mut cells = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        cells.clear();
        cells.extend(carried.and_then(Waypoint::cell));
        cells.extend_from_slice(piece);
        smoother.smooth(sight, anchor, cells.iter().copied(), out);
        if i + 1 < pieces.len() && out.len() >= 2 {
            // Keep all but the last point; the last is where this piece ends and is
            // pulled again with the next one.
            all.extend_from_slice(&out[..out.len() - 1]);
            anchor = out[out.len() - 2];
            carried = out.last().copied();
        } else if i + 1 < pieces.len() {
            carried = out.last().copied();
        } else {
            all.extend_from_slice(out);
        }
    }
    let mut at = Waypoint::centre_of(from);
    all.iter()
        .map(|&p| {
            let l = at.distance(p);
            at = p;
            l
        })
        .sum()
}

fn main() {
    let per_map = env("SMOOTH_SCENARIOS", 200);
    let oracle_every = env("SMOOTH_ORACLE_EVERY", 4).max(1);
    let oracle_max = env("SMOOTH_ORACLE_MAX", 256) as f64;
    println!(
        "{:<20} {:>6} {:>14} {:>14} {:>8} {:>22} {:>16}",
        "map",
        "routes",
        "/8-conn mean",
        "/8-conn worst",
        "oracle",
        "/shortest mean, worst",
        "pull/search p50, p90"
    );
    let (mut all_ratios, mut all_short, mut all_plain) = (Vec::new(), Vec::new(), Vec::new());
    for name in MOVING_AI_MAPS {
        let (plain, scenarios) = support::movingai(name);
        let grid = &plain;
        let jumps = JumpDistances::new(grid, MOBILITY).unwrap();
        let mut jps = Jps::for_grid(grid).unwrap();
        let sight = Sight::new(grid, MOBILITY, 1);
        let clear = |x: i64, y: i64| {
            x >= 0 && y >= 0 && grid.is_passable(Cell::new(x as i32, y as i32), MOBILITY)
        };
        let oracle = AnyAngleOracle::new(&clear, grid.width().into(), grid.height().into());
        let mut smoother = Smoother::new();
        let step = (scenarios.len() / per_map).max(1);
        let (mut out, mut all) = (Vec::new(), Vec::new());
        let (mut sum8, mut worst8, mut n) = (0.0, 0.0f64, 0);
        let (mut sum_s, mut worst_s, mut sum_g, mut n_s) = (0.0, 0.0f64, 0.0, 0);
        let mut ratios = Vec::new();
        let mut times = Vec::new();
        let mut plain_ratios = Vec::new();
        for (k, &(from, to, file_optimal)) in
            scenarios.iter().step_by(step).take(per_map).enumerate()
        {
            if from == to {
                continue;
            }
            let pieces = route_pieces(&mut jps, (grid, &jumps), from, to);
            let length = pull(&mut smoother, &sight, from, &pieces, &mut out, &mut all);
            let plain_query = PathQuery::new(from, to, MOBILITY).connectivity(Connectivity::Eight);
            let query = plain_query.jumps(&jumps);
            // The route's own cost: the file's optimum is rounded to 5 decimals.
            let optimal = jps.find(grid, query).unwrap().cost;
            assert!(
                (optimal - file_optimal).abs() < 1e-3,
                "{name}: {optimal} vs {file_optimal}"
            );
            let search = fastest_us(5, || {
                std::hint::black_box(jps.find(grid, query).unwrap());
            });
            let plain_search = fastest_us(5, || {
                std::hint::black_box(jps.find(grid, plain_query).unwrap());
            });
            let pulling = fastest_us(5, || {
                std::hint::black_box(pull(
                    &mut smoother,
                    &sight,
                    from,
                    &pieces,
                    &mut out,
                    &mut all,
                ));
            });
            ratios.push(pulling / search);
            plain_ratios.push(pulling / plain_search);
            times.push((search, pulling, pieces.iter().map(Vec::len).sum::<usize>()));
            let r8 = length / optimal;
            assert!(
                r8 <= 1.0 + 1e-9,
                "{name} {from:?}->{to:?}: pulled {length} > optimal {optimal}"
            );
            sum8 += r8;
            worst8 = worst8.max(r8);
            n += 1;
            if k % oracle_every == 0 && optimal <= oracle_max {
                let best = oracle
                    .shortest(
                        &clear,
                        Waypoint::centre_of(from).half_cells(),
                        Waypoint::centre_of(to).half_cells(),
                        length + 1e-6,
                    )
                    .expect("no route within the pulled one's length");
                sum_s += length / best;
                worst_s = worst_s.max(length / best);
                sum_g += optimal / best;
                n_s += 1;
                all_short.push(length / best);
            }
        }
        ratios.sort_by(f64::total_cmp);
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let search_p50 = times[times.len() / 2].0;
        times.sort_by(|a, b| a.1.total_cmp(&b.1));
        let pull_p50 = times[times.len() / 2].1;
        let cells: usize = times.iter().map(|t| t.2).sum();
        let pulled: f64 = times.iter().map(|t| t.1).sum();
        plain_ratios.sort_by(f64::total_cmp);
        println!(
            "  search median {search_p50:.2} us, pull median {pull_p50:.2} us ({:.1} ns a \
             cell); pull / search without kept jump distances: median {:.3}",
            pulled * 1000.0 / cells as f64,
            plain_ratios[plain_ratios.len() / 2]
        );
        all_plain.extend(plain_ratios);
        let p = |q: f64| ratios[((ratios.len() - 1) as f64 * q) as usize];
        println!(
            "{:<20} {:>6} {:>14.4} {:>14.4} {:>8} {:>11.4}, {:>8.4} {:>9.2}, {:>5.2}   (8-conn/shortest {:.4})",
            name.trim_end_matches(".map"),
            n,
            sum8 / f64::from(n),
            worst8,
            n_s,
            sum_s / f64::from(n_s.max(1)),
            worst_s,
            p(0.5),
            p(0.9),
            sum_g / f64::from(n_s.max(1)),
        );
        all_ratios.extend(ratios);
    }
    all_ratios.sort_by(f64::total_cmp);
    all_plain.sort_by(f64::total_cmp);
    let mean_s = all_short.iter().sum::<f64>() / all_short.len() as f64;
    let worst_s = all_short.iter().copied().fold(0.0, f64::max);
    println!(
        "all maps: pulled / shortest mean {mean_s:.4}, worst {worst_s:.4} ({} routes); \
         pull / search median {:.3} (jump distances kept), {:.3} (not kept)",
        all_short.len(),
        all_ratios[all_ratios.len() / 2],
        all_plain[all_plain.len() / 2]
    );
}
