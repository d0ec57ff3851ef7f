//! Differential fuzzing of the whole core: seeded episodes of mixed valid and invalid
//! operations on every public entry point, each answer compared with the plain
//! references of `tilepath_testkit`.
//!
//! Each episode is one seed: it draws grids of several sizes (empty ones too) and
//! runs a random sequence of grid edits (inside and outside), jump distances built on
//! a copy of the cells and handed over after edits, searches (`Greedy`,
//! windowed and whole-grid `AStar` and `Jps`, 4- and 8-connected, the same solvers
//! reused across grid sizes), connected components (built, repaired after the edits,
//! asked, and the bounded searches they allow; square and hex), hex searches of every
//! layout, distance-field operations (4-, 8-connected and hex: compute, repair, flee, bounded
//! regions, maximum distances, goal changes), next-hop tables (build, queries,
//! edits and repairs) and cell arithmetic at extreme coordinates.
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
    AStar, Arrival, Cell, Components, Connectivity, Direction8, DistanceField, FieldError,
    FieldState, Greedy, Grid, GridError, HexLayout, Jps, Mobility, NextHopTable, OCTILE_DIAGONAL,
    OCTILE_STRAIGHT, PathError, PathQuery, Region, Solver, TableCells, TableError, TileKind,
    combined_next_step,
};
use tilepath_testkit::*;

mod fields;
mod tables;

use fields::*;
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
    /// Jump distances handed over from a copy (taken over or refused).
    adoptions: u64,
    errors_checked: u64,
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
         {} jump distance hand-overs, {} errors checked",
        covered.episodes,
        covered.operations,
        covered.searches,
        covered.field_checks,
        covered.table_checks,
        covered.component_checks,
        covered.cell_checks,
        covered.adoptions,
        covered.errors_checked,
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
        // distances too: jump point search reads those through every edit.
        match rng.random_range(0..4) {
            0 | 1 => grid.keep_open_rows(mobility).unwrap(),
            2 => grid.keep_jump_distances(mobility).unwrap(),
            _ => {}
        }
        let mut field: Option<FieldModel> = None;
        let mut table: Option<TableModel> = None;
        // The components and the cells edited since their last repair.
        let mut parts: Option<(Components, Vec<Cell>)> = None;
        // Jump distances being built on a copy of the cells, and the cells edited
        // since the copy.
        let mut building: Option<(Grid, Vec<Cell>)> = None;
        for _ in 0..rng.random_range(5..40) {
            covered.operations += 1;
            op.clear();
            match rng.random_range(0..100) {
                0..15 => {
                    let changed = edit(&mut rng, &mut grid, &mut field, &mut table, covered, op);
                    if let Some((_, since)) = &mut building {
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
                85..90 => jumps_op(&mut rng, &mut grid, mobility, &mut building, covered, op),
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

// ----- searches -----

// ----- jump distances built on a copy -----

/// Starts building the jump distances of `mobility` on a copy of the cells, or hands
/// the one under way to `grid` with the cells edited since: all of them, one fewer, or
/// with cells outside added. The grid takes them over exactly when the copy, brought up
/// to date with the cells named, equals it; later searches read them.
fn jumps_op(
    rng: &mut StdRng,
    grid: &mut Grid,
    mobility: Mobility,
    building: &mut Option<(Grid, Vec<Cell>)>,
    covered: &mut Covered,
    op: &mut String,
) {
    let Some((copy, mut since)) = building.take() else {
        let _ = write!(
            op,
            "copy_cells, keep_jump_distances({mobility:?}) on the copy"
        );
        let mut copy = grid.copy_cells().unwrap();
        assert_eq!(&copy, grid);
        copy.keep_jump_distances(mobility).unwrap();
        *building = Some((copy, Vec::new()));
        return;
    };
    match rng.random_range(0..10) {
        0..2 if !since.is_empty() => {
            since.remove(rng.random_range(0..since.len()));
        }
        2 => since.extend((0..3).map(|_| extreme_cell(rng, grid))),
        _ => {}
    }
    let _ = write!(op, "adopt_jump_distances({mobility:?}, {since:?})");
    let mut expected = copy.copy_cells().unwrap();
    for &c in &since {
        if let Some(kind) = grid.get(c) {
            expected.set(c, kind).unwrap();
        }
    }
    let kept_before = grid.keeps_jump_distances(mobility);
    covered.adoptions += 1;
    match grid.adopt_jump_distances(copy, mobility, &since) {
        Ok(()) => {
            assert_eq!(&expected, grid);
            assert!(grid.keeps_jump_distances(mobility));
            // Whole-grid jump point search reads them (one-cost mobilities): its
            // answers equal those of scanning a copy that keeps nothing.
            if Jps::applies_to(mobility) && !grid.is_empty() {
                let plain = grid.copy_cells().unwrap();
                for _ in 0..4 {
                    let (from, to) = (random_cell(rng, grid), random_cell(rng, grid));
                    let a = Jps::whole_grid().find(
                        grid,
                        PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
                    );
                    let b = Jps::whole_grid().find(
                        &plain,
                        PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
                    );
                    let (a, b) = (a.unwrap(), b.unwrap());
                    assert_eq!(
                        !matches!(a.arrival, Arrival::Closest(_)),
                        !matches!(b.arrival, Arrival::Closest(_)),
                        "{from}->{to}"
                    );
                    assert!((a.cost - b.cost).abs() < 1e-9, "{from}->{to}");
                    covered.searches += 1;
                }
            }
        }
        Err(e) => {
            assert_eq!(e, GridError::StaleCopy);
            assert_ne!(&expected, grid);
            assert_eq!(grid.keeps_jump_distances(mobility), kept_before);
            covered.errors_checked += 1;
        }
    }
}

fn search(
    rng: &mut StdRng,
    grid: &Grid,
    mobility: Mobility,
    s: &mut Solvers,
    covered: &mut Covered,
    op: &mut String,
) {
    let from = any_cell(rng, grid);
    let to = if rng.random_bool(0.1) {
        extreme_cell(rng, grid)
    } else {
        any_cell(rng, grid)
    };
    let eight = rng.random_bool(0.5);
    let _ = write!(
        op,
        "search {from}->{to} eight={eight} mobility={mobility:?}"
    );
    covered.searches += 1;
    if !grid.contains(from) {
        let e = PathError::StartOutOfBounds {
            start: from,
            width: grid.width(),
            height: grid.height(),
        };
        assert_eq!(
            s.greedy
                .find(grid, PathQuery::new(from, to, mobility))
                .err(),
            Some(e)
        );
        assert_eq!(
            s.astar.find(grid, PathQuery::new(from, to, mobility)).err(),
            Some(e)
        );
        assert_eq!(
            s.whole
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)
                )
                .err(),
            Some(e)
        );
        assert_eq!(
            s.jps
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)
                )
                .err(),
            Some(e)
        );
        assert_eq!(
            s.jps_whole
                .find(grid, PathQuery::new(from, to, mobility))
                .err(),
            Some(e)
        );
        covered.errors_checked += 1;
        return;
    }
    let win = reference_dijkstra(grid, mobility, from, eight, in_window(from));
    let all = reference_dijkstra(grid, mobility, from, eight, |_| true);
    if eight {
        let r = s
            .astar
            .find(
                grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_optimal(grid, mobility, from, to, true, &win, &r);
        let r = s
            .whole
            .find(
                grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_optimal(grid, mobility, from, to, true, &all, &r);
        let r = s
            .limited
            .find(
                grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_result(grid, mobility, from, to, &r);
        let r = s
            .jps
            .find(
                grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_optimal(grid, mobility, from, to, true, &win, &r);
        let r = s
            .jps_whole
            .find(
                grid,
                PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight),
            )
            .unwrap();
        check_optimal(grid, mobility, from, to, true, &all, &r);
    } else {
        let r = s
            .astar
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        check_optimal(grid, mobility, from, to, false, &win, &r);
        let r = s
            .whole
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        check_optimal(grid, mobility, from, to, false, &all, &r);
        let r = s
            .limited
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        check_result(grid, mobility, from, to, &r);
        let r = s
            .jps
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        check_optimal(grid, mobility, from, to, false, &win, &r);
        let r = s
            .jps_whole
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        check_optimal(grid, mobility, from, to, false, &all, &r);
        let g = s
            .greedy
            .find(grid, PathQuery::new(from, to, mobility))
            .unwrap();
        check_result(grid, mobility, from, to, &g);
        // Greedy is complete inside its window, and never beats the optimum.
        let reach = grid.index_of(to).and_then(|i| win[i]);
        assert_eq!(
            !matches!(g.arrival, Arrival::Closest(_)),
            reach.is_some(),
            "greedy reach"
        );
        if let Some(best) = reach {
            assert!(
                g.cost >= best - 1e-6 * best.max(1.0),
                "greedy beat the optimum"
            );
        }
    }
}

/// A random hex layout.
pub(crate) fn random_layout(rng: &mut StdRng) -> HexLayout {
    HexLayout::ALL[rng.random_range(0..5usize)]
}

/// A hex search of every solver that has one, against the hex reference.
fn hex_search(
    rng: &mut StdRng,
    grid: &Grid,
    mobility: Mobility,
    s: &mut Solvers,
    covered: &mut Covered,
    op: &mut String,
) {
    let from = any_cell(rng, grid);
    let to = if rng.random_bool(0.1) {
        extreme_cell(rng, grid)
    } else {
        any_cell(rng, grid)
    };
    let layout = random_layout(rng);
    let _ = write!(
        op,
        "hex search {from}->{to} {layout:?} mobility={mobility:?}"
    );
    covered.searches += 1;
    if !grid.contains(from) {
        let e = PathError::StartOutOfBounds {
            start: from,
            width: grid.width(),
            height: grid.height(),
        };
        assert_eq!(
            s.greedy
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout))
                )
                .err(),
            Some(e)
        );
        assert_eq!(
            s.astar
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout))
                )
                .err(),
            Some(e)
        );
        assert_eq!(
            s.whole
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout))
                )
                .err(),
            Some(e)
        );
        assert_eq!(
            s.jps
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout))
                )
                .err(),
            Some(e)
        );
        covered.errors_checked += 1;
        return;
    }
    let start = [(from, 0)];
    let win = reference_hex(grid, mobility, layout, &start, false, in_window(from));
    let all = reference_hex(grid, mobility, layout, &start, false, |_| true);
    let r = s
        .astar
        .find(
            grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
        )
        .unwrap();
    check_hex_optimal(grid, mobility, layout, (from, to), &win, &r);
    let r = s
        .whole
        .find(
            grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
        )
        .unwrap();
    check_hex_optimal(grid, mobility, layout, (from, to), &all, &r);
    let r = s
        .limited
        .find(
            grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
        )
        .unwrap();
    check_hex_result(grid, mobility, layout, (from, to), &r);
    let r = s
        .jps_whole
        .find(
            grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
        )
        .unwrap();
    check_hex_optimal(grid, mobility, layout, (from, to), &all, &r);
    let g = s
        .greedy
        .find(
            grid,
            PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
        )
        .unwrap();
    check_hex_result(grid, mobility, layout, (from, to), &g);
    let reach = grid.index_of(to).and_then(|i| win[i]);
    assert_eq!(
        !matches!(g.arrival, Arrival::Closest(_)),
        reach.is_some(),
        "hex greedy reach"
    );
    if let Some(best) = reach {
        assert!(g.cost >= best as f64, "hex greedy beat the optimum");
    }
}

// ----- components -----

/// Builds the components or repairs them after the edits, then checks reachability
/// from a cell against a reference search, and the bounded search they allow.
fn components_op(
    rng: &mut StdRng,
    grid: &Grid,
    mobility: Mobility,
    parts: &mut Option<(Components, Vec<Cell>)>,
    s: &mut Solvers,
    covered: &mut Covered,
    op: &mut String,
) {
    match parts {
        Some((c, pending)) if rng.random_bool(0.8) => {
            let _ = write!(op, "components repair ({} cells) ", pending.len());
            c.repair(grid, pending).unwrap();
            pending.clear();
        }
        _ => {
            let connectivity = if rng.random_bool(0.5) {
                Connectivity::Hex(random_layout(rng))
            } else {
                Connectivity::Four
            };
            let _ = write!(op, "components build {connectivity:?} ");
            *parts = Some((
                Components::with_connectivity(grid, mobility, connectivity),
                Vec::new(),
            ));
        }
    }
    let (c, _) = parts.as_ref().unwrap();
    let other = Grid::new(grid.width() + 1, grid.height()).unwrap();
    assert!(c.clone().repair(&other, &[]).is_err(), "another size");
    if grid.is_empty() {
        assert_eq!(c.count(), 0);
        return;
    }
    let from = any_cell(rng, grid);
    let _ = write!(op, "from {from}");
    let hex = match c.connectivity() {
        Connectivity::Hex(layout) => Some(layout),
        _ => None,
    };
    let all: Vec<Option<f64>> = match hex {
        Some(layout) => reference_hex(grid, mobility, layout, &[(from, 0)], false, |_| true)
            .into_iter()
            .map(|d| d.map(|d| d as f64))
            .collect(),
        None => reference_dijkstra(grid, mobility, from, false, |_| true),
    };
    let open = grid.is_passable(from, mobility);
    for _ in 0..8 {
        let to = any_cell(rng, grid);
        let reached = open
            && grid.is_passable(to, mobility)
            && grid.index_of(to).is_some_and(|i| all[i].is_some());
        assert_eq!(c.is_reachable(from, to), reached, "{from} -> {to}");
        covered.component_checks += 1;
    }
    if let Some(layout) = hex
        && grid.contains(from)
    {
        let to = any_cell(rng, grid);
        let bounded = s
            .whole
            .find(
                grid,
                PathQuery::new(from, to, mobility)
                    .within(c)
                    .connectivity(Connectivity::Hex(layout)),
            )
            .unwrap();
        if c.is_reachable(from, to) {
            let plain = s
                .whole
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(layout)),
                )
                .unwrap();
            assert_eq!(bounded, plain);
        } else {
            check_hex_result(grid, mobility, layout, (from, to), &bounded);
            assert!(bounded.expanded <= tilepath::UNREACHABLE_EXPANSIONS);
        }
        // Components of another layout are not used: the plain search's answer.
        let other = HexLayout::ALL[(layout as usize + 1) % 5];
        let r = s
            .whole
            .find(
                grid,
                PathQuery::new(from, to, mobility)
                    .within(c)
                    .connectivity(Connectivity::Hex(other)),
            )
            .unwrap();
        assert_eq!(
            r,
            s.whole
                .find(
                    grid,
                    PathQuery::new(from, to, mobility).connectivity(Connectivity::Hex(other))
                )
                .unwrap()
        );
    } else if grid.contains(from) {
        let to = any_cell(rng, grid);
        let bounded = s
            .whole
            .find(
                grid,
                PathQuery::new(from, to, mobility)
                    .within(c)
                    .connectivity(Connectivity::Eight),
            )
            .unwrap();
        if c.is_reachable(from, to) {
            assert_eq!(
                bounded,
                s.whole
                    .find(
                        grid,
                        PathQuery::new(from, to, mobility).connectivity(Connectivity::Eight)
                    )
                    .unwrap()
            );
        } else {
            check_result(grid, mobility, from, to, &bounded);
            assert!(bounded.expanded <= tilepath::UNREACHABLE_EXPANSIONS);
        }
    }
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
