//! Differential fuzzing of the whole core: seeded episodes of mixed valid and invalid
//! operations on every public entry point, each answer compared with the plain
//! references of `tilepath_testkit`.
//!
//! Each episode is one seed: it draws grids of several sizes (empty ones too) and
//! runs a random sequence of grid edits (inside and outside), the structures derived
//! from the grid (bit rows, jump distances) repaired after every edit and built on a
//! copy of the cells and caught up, searches (`Greedy`,
//! windowed and whole-grid `AStar` and `Jps`, 4- and 8-connected, the same solvers
//! reused across grid sizes), connected components (built, repaired after the edits,
//! asked, and the bounded searches they allow; square and hex), hex searches of every
//! layout, distance-field operations (4-, 8-connected and hex: compute, repair, flee, bounded
//! regions, maximum distances, goal changes), next-hop tables (build, queries,
//! edits and repairs), paths and arbitrary cell sequences pulled straight
//! (`Smoother`) and cell arithmetic at extreme coordinates.
//!
//! Runs for `TILEPATH_FUZZ_SECONDS` (default 60) or `TILEPATH_FUZZ_EPISODES`
//! episodes (default 100,000), whichever ends first, from seed `TILEPATH_FUZZ_SEED`
//! (default 1). On a failure it prints the seed, the operation and the command that
//! replays it; at the end, the seeds it ran and what it checked.

use rand::RngExt;
use rand::rngs::StdRng;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};
use tilepath::{
    AStar, Arrival, Cell, Components, Connectivity, Derived, Direction8, DistanceField, FieldError,
    FieldState, Greedy, Grid, GridError, HexLayout, Jps, JumpDistances, Mobility, NextHopTable,
    OCTILE_DIAGONAL, OCTILE_STRAIGHT, OpenRows, PathError, PathQuery, Region, Smoother, Solver,
    TableCells, TableError, TileKind, combined_next_step,
};
use tilepath_testkit::*;

mod components;
mod fields;
mod jumps;
mod pull;
mod search;
mod tables;

use components::*;
use fields::*;
use jumps::*;
use pull::*;
use search::*;
use tables::*;

/// What a run checked.
#[derive(Default, Debug)]
struct Covered {
    episodes: u64,
    operations: u64,
    searches: u64,
    field_checks: u64,
    table_checks: u64,
    component_checks: u64,
    cell_checks: u64,
    /// Derived structures built on a copy of the cells and caught up (or refused).
    catch_ups: u64,
    /// Of those, caught up from the edited cells' kinds alone.
    without_grid: u64,
    errors_checked: u64,
    /// Paths and cell sequences pulled straight.
    pulls: u64,
    /// Of those, optimal paths checked segment by segment.
    pulled_paths: u64,
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

#[test]
fn fuzz_episodes() {
    let seconds = env_u64("TILEPATH_FUZZ_SECONDS", 60);
    let max_episodes = env_u64("TILEPATH_FUZZ_EPISODES", 100_000);
    let first = env_u64("TILEPATH_FUZZ_SEED", 1);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut covered = Covered::default();
    let mut seed = first;
    while seed - first < max_episodes && Instant::now() < deadline {
        let mut op = String::new();
        let run = catch_unwind(AssertUnwindSafe(|| episode(seed, &mut covered, &mut op)));
        if run.is_err() {
            panic!(
                "fuzz episode failed: seed {seed}, during: {op}\n\
                 replay: TILEPATH_FUZZ_SEED={seed} TILEPATH_FUZZ_EPISODES=1 \
                 cargo test -p tilepath --test fuzz -- --nocapture"
            );
        }
        covered.episodes += 1;
        seed += 1;
    }
    let summary = format!(
        "fuzz: seeds {first}..{seed} ({} episodes in {seconds} s at most): {} operations, \
         {} searches, {} field checks, {} table checks, {} component checks, {} cell checks, \
         {} derived structures caught up ({} without the grid), {} errors checked, {} \
         pulled straight ({} optimal paths checked)",
        covered.episodes,
        covered.operations,
        covered.searches,
        covered.field_checks,
        covered.table_checks,
        covered.component_checks,
        covered.cell_checks,
        covered.catch_ups,
        covered.without_grid,
        covered.errors_checked,
        covered.pulls,
        covered.pulled_paths,
    );
    // Written past the test harness's capture, so CI logs show what was covered.
    let _ = writeln!(std::io::stderr().lock(), "{summary}");
    assert!(covered.episodes > 0, "no episode ran");
}

/// The solvers of an episode, reused across its grids.
struct Solvers {
    greedy: Greedy,
    astar: AStar,
    whole: AStar,
    limited: AStar,
    jps: Jps,
    jps_whole: Jps,
    /// What jump point search reads besides the grid, repaired after every edit.
    kept: KeptRows,
    smoother: Smoother,
}

fn episode(seed: u64, covered: &mut Covered, op: &mut String) {
    let mut rng = rng(seed);
    let mut solvers = Solvers {
        greedy: Greedy::new(),
        astar: AStar::new(),
        whole: AStar::whole_grid(),
        limited: AStar::whole_grid().with_max_expansions(rng.random_range(1..200)),
        jps: Jps::new(),
        jps_whole: Jps::whole_grid(),
        kept: KeptRows::default(),
        smoother: Smoother::new(),
    };
    for _ in 0..rng.random_range(1..=3) {
        let (w, h) = match rng.random_range(0..20) {
            0 => (rng.random_range(0..3), rng.random_range(0..3)),
            1 => (rng.random_range(60..130), rng.random_range(1..40)),
            _ => (rng.random_range(1..=40), rng.random_range(1..=40)),
        };
        let walls = rng.random_range(0.0..0.4);
        let mut grid = random_grid(&mut rng, w, h, walls);
        let max_cost = [1, 3, 9, 60, 255][rng.random_range(0..5usize)];
        let mobility = random_mobility(&mut rng, max_cost);
        // Half the episodes keep the mobility's cells as bit rows, a quarter their jump
        // distances: jump point search reads those through every edit.
        solvers.kept = match rng.random_range(0..4) {
            0 | 1 => KeptRows::pick(0, &grid, mobility),
            2 => KeptRows::pick(1, &grid, mobility),
            _ => KeptRows::default(),
        };
        let mut field: Option<FieldModel> = None;
        let mut table: Option<TableModel> = None;
        // The components and the cells edited since their last repair.
        let mut parts: Option<(Components, Vec<Cell>)> = None;
        // Jump distances and bit rows away from the grid, built on a copy of its cells,
        // and the cells edited since.
        let mut building: Option<(JumpDistances, OpenRows, Vec<Cell>)> = None;
        for _ in 0..rng.random_range(5..40) {
            covered.operations += 1;
            op.clear();
            match rng.random_range(0..100) {
                0..15 => {
                    let changed = edit(&mut rng, &mut grid, &mut field, &mut table, covered, op);
                    solvers.kept.repair(&grid, &changed);
                    if let Some((_, _, since)) = &mut building {
                        since.extend(changed);
                    }
                    if let Some((_, pending)) = &mut parts {
                        // Every cell a repair might need: the whole grid's, as an edit
                        // list may also hold cells outside it.
                        pending.extend((0..grid.len()).filter_map(|i| grid.cell_of(i)));
                    }
                }
                15..32 => search(&mut rng, &grid, mobility, &mut solvers, covered, op),
                32..40 => hex_search(&mut rng, &grid, mobility, &mut solvers, covered, op),
                40..45 => components_op(
                    &mut rng,
                    &grid,
                    mobility,
                    &mut parts,
                    &mut solvers,
                    covered,
                    op,
                ),
                45..75 => field_op(&mut rng, &grid, mobility, &mut field, covered, op),
                75..85 => table_op(&mut rng, &grid, mobility, &mut table, covered, op),
                85..90 => jumps_op(&mut rng, &grid, mobility, &mut building, covered, op),
                90..95 => pull_op(&mut rng, &grid, mobility, &mut solvers, covered, op),
                _ => cell_op(&mut rng, &grid, covered, op),
            }
        }
    }
}

/// A cell inside the grid, or (sometimes, or always for an empty grid) anywhere.
fn any_cell(rng: &mut StdRng, grid: &Grid) -> Cell {
    if grid.is_empty() || rng.random_bool(0.05) {
        extreme_cell(rng, grid)
    } else {
        random_cell(rng, grid)
    }
}

/// A cell just outside the grid, or at the ends of the `i32` range.
fn extreme_cell(rng: &mut StdRng, grid: &Grid) -> Cell {
    let pick = |rng: &mut StdRng, side: u32| match rng.random_range(0..5) {
        0 => i32::MIN,
        1 => i32::MAX,
        2 => -1,
        3 => side as i32,
        _ => rng.random_range(-3..side as i32 + 3),
    };
    Cell::new(pick(rng, grid.width()), pick(rng, grid.height()))
}

fn random_kind(rng: &mut StdRng) -> TileKind {
    TileKind::new(rng.random_range(0..4u8)).unwrap()
}

// ----- grid edits -----

/// Edits `grid` at random; returns the cells it changed.
fn edit(
    rng: &mut StdRng,
    grid: &mut Grid,
    field: &mut Option<FieldModel>,
    table: &mut Option<TableModel>,
    covered: &mut Covered,
    op: &mut String,
) -> Vec<Cell> {
    let mut changed = Vec::new();
    if rng.random_bool(0.2) {
        let (a, b) = (any_cell(rng, grid), any_cell(rng, grid));
        let kind = random_kind(rng);
        let _ = write!(op, "fill_rect({a}, {b}, {kind:?})");
        let (min, max) = (
            Cell::new(a.x.min(b.x), a.y.min(b.y)),
            Cell::new(a.x.max(b.x), a.y.max(b.y)),
        );
        let before = grid.clone();
        let n = grid.fill_rect(min, max, kind);
        let mut expected = 0;
        for i in 0..grid.len() {
            let c = grid.cell_of(i).unwrap();
            if Region::new(min, max).contains(c) {
                expected += 1;
                assert_eq!(grid.get(c), Some(kind));
                if before.get(c) != Some(kind) {
                    changed.push(c);
                }
            } else {
                assert_eq!(grid.get(c), before.get(c), "fill_rect changed {c}");
            }
        }
        assert_eq!(n, expected);
    } else {
        for _ in 0..rng.random_range(1..6) {
            let c = any_cell(rng, grid);
            let kind = random_kind(rng);
            let _ = write!(op, "set({c}, {kind:?}) ");
            let old = grid.get(c);
            match grid.set(c, kind) {
                Ok(prev) => {
                    assert_eq!(Some(prev), old);
                    assert_eq!(grid.get(c), Some(kind));
                    changed.push(c);
                }
                Err(e) => {
                    assert_eq!(e, GridError::OutOfBounds { cell: c });
                    assert!(!grid.contains(c));
                    covered.errors_checked += 1;
                }
            }
        }
    }
    // Equal cells, equal grids, whatever the history.
    let copy = Grid::from_fn(grid.width(), grid.height(), |c| grid.get(c).unwrap()).unwrap();
    assert_eq!(&copy, grid);
    if let Some(f) = field {
        f.changed.extend(&changed);
    }
    if let Some(t) = table {
        t.changed.extend(&changed);
    }
    changed
}

// ----- cells -----

fn cell_op(rng: &mut StdRng, grid: &Grid, covered: &mut Covered, op: &mut String) {
    covered.cell_checks += 1;
    let (a, b) = (extreme_cell(rng, grid), extreme_cell(rng, grid));
    let _ = write!(op, "cell arithmetic {a} {b}");
    let dx = (i64::from(a.x) - i64::from(b.x)).unsigned_abs();
    let dy = (i64::from(a.y) - i64::from(b.y)).unsigned_abs();
    assert_eq!(
        u64::from(a.manhattan(b)),
        (dx + dy).min(u64::from(u32::MAX))
    );
    assert_eq!(u64::from(a.chebyshev(b)), dx.max(dy));
    assert_eq!(
        a + b,
        Cell::new(a.x.wrapping_add(b.x), a.y.wrapping_add(b.y))
    );
    assert_eq!(
        a - b,
        Cell::new(a.x.wrapping_sub(b.x), a.y.wrapping_sub(b.y))
    );
    for d in Direction8::ALL {
        let (ox, oy) = d.offset();
        assert_eq!(
            a.step(d),
            Cell::new(a.x.wrapping_add(ox), a.y.wrapping_add(oy))
        );
    }
    for layout in HexLayout::ALL {
        let d = u64::from(layout.distance(a, b));
        assert_eq!(d, hex_distance_ref(layout, a, b).min(u64::from(u32::MAX)));
        let _ = layout.to_axial(a);
        for (dir, n) in layout
            .directions(a)
            .into_iter()
            .zip(hex_neighbours(layout, a))
        {
            // Wrapping at the ends of the range, as `Cell::step` does.
            assert!(layout.is_step(a, dir));
            if (i64::from(a.x).abs() < i64::from(i32::MAX) - 2)
                && (i64::from(a.y).abs() < i64::from(i32::MAX) - 2)
            {
                assert_eq!(a.step(dir), n, "{layout:?} {a}");
            }
        }
    }
    let inside = (0..i64::from(grid.width())).contains(&i64::from(a.x))
        && (0..i64::from(grid.height())).contains(&i64::from(a.y));
    assert_eq!(grid.contains(a), inside);
    assert_eq!(grid.get(a).is_some(), inside);
    assert_eq!(grid.index_of(a).is_some(), inside);
    if !inside {
        let mut copy = grid.clone();
        assert_eq!(
            copy.set(a, TileKind::K1),
            Err(GridError::OutOfBounds { cell: a })
        );
        assert_eq!(&copy, grid);
        assert_eq!(grid.cost(a, Mobility::ALL_PASSABLE), 0);
    }
}
