//! Differential fuzzing of the whole core: seeded episodes of mixed valid and invalid
//! operations on every public entry point, each answer compared with the plain
//! references of `tilepath_testkit`.
//!
//! Each episode is one seed: it draws grids of several sizes (empty ones too) and
//! runs a random sequence of grid edits (inside and outside), searches (`Greedy`,
//! windowed and whole-grid `AStar`, 4- and 8-connected, the same solvers reused
//! across grid sizes), distance-field operations (compute, repair, flee, bounded
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
    AStar, Cell, Connectivity, Direction8, DistanceField, FieldError, FieldState, Greedy, Grid,
    GridError, GridLayer, NextHopTable, OCTILE_DIAGONAL, OCTILE_STRAIGHT, PathError, Region, Slots,
    TableError, TileKind, combined_next_step,
};
use tilepath_testkit::*;

/// What a run checked.
#[derive(Default, Debug)]
struct Covered {
    episodes: u64,
    operations: u64,
    searches: u64,
    field_checks: u64,
    table_checks: u64,
    cell_checks: u64,
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
         {} searches, {} field checks, {} table checks, {} cell checks, {} errors checked",
        covered.episodes,
        covered.operations,
        covered.searches,
        covered.field_checks,
        covered.table_checks,
        covered.cell_checks,
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
}

fn episode(seed: u64, covered: &mut Covered, op: &mut String) {
    let mut rng = rng(seed);
    let mut solvers = Solvers {
        greedy: Greedy::new(),
        astar: AStar::new(),
        whole: AStar::whole_grid(),
        limited: AStar::whole_grid().with_max_expansions(rng.random_range(1..200)),
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
        let layer = random_layer(&mut rng, max_cost);
        let mut field: Option<FieldModel> = None;
        let mut table: Option<TableModel> = None;
        for _ in 0..rng.random_range(5..40) {
            covered.operations += 1;
            op.clear();
            match rng.random_range(0..100) {
                0..15 => edit(&mut rng, &mut grid, &mut field, &mut table, covered, op),
                15..45 => search(&mut rng, &grid, layer, &mut solvers, covered, op),
                45..75 => field_op(&mut rng, &grid, layer, &mut field, covered, op),
                75..85 => table_op(&mut rng, &grid, layer, &mut table, covered, op),
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

fn edit(
    rng: &mut StdRng,
    grid: &mut Grid,
    field: &mut Option<FieldModel>,
    table: &mut Option<TableModel>,
    covered: &mut Covered,
    op: &mut String,
) {
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
}

// ----- searches -----

fn search(
    rng: &mut StdRng,
    grid: &Grid,
    layer: GridLayer,
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
    let _ = write!(op, "search {from}->{to} eight={eight} layer={layer:?}");
    covered.searches += 1;
    if !grid.contains(from) {
        let e = PathError::StartOutOfBounds {
            start: from,
            width: grid.width(),
            height: grid.height(),
        };
        assert_eq!(s.greedy.build_path(grid, from, to, layer).err(), Some(e));
        assert_eq!(s.astar.build_path(grid, from, to, layer).err(), Some(e));
        assert_eq!(s.whole.build_path8(grid, from, to, layer).err(), Some(e));
        covered.errors_checked += 1;
        return;
    }
    let win = reference_dijkstra(grid, layer, from, eight, in_window(from));
    let all = reference_dijkstra(grid, layer, from, eight, |_| true);
    if eight {
        let r = s.astar.build_path8(grid, from, to, layer).unwrap();
        check_optimal(grid, layer, from, to, true, &win, &r);
        let r = s.whole.build_path8(grid, from, to, layer).unwrap();
        check_optimal(grid, layer, from, to, true, &all, &r);
        let r = s.limited.build_path8(grid, from, to, layer).unwrap();
        check_result(grid, layer, from, to, &r);
    } else {
        let r = s.astar.build_path(grid, from, to, layer).unwrap();
        check_optimal(grid, layer, from, to, false, &win, &r);
        let r = s.whole.build_path(grid, from, to, layer).unwrap();
        check_optimal(grid, layer, from, to, false, &all, &r);
        let r = s.limited.build_path(grid, from, to, layer).unwrap();
        check_result(grid, layer, from, to, &r);
        let g = s.greedy.build_path(grid, from, to, layer).unwrap();
        check_result(grid, layer, from, to, &g);
        // Greedy is complete inside its window, and never beats the optimum.
        let reach = grid.index_of(to).and_then(|i| win[i]);
        assert_eq!(g.route.reaches_goal, reach.is_some(), "greedy reach");
        if let Some(best) = reach {
            assert!(
                g.route.cost >= best - 1e-6 * best.max(1.0),
                "greedy beat the optimum"
            );
        }
    }
}

// ----- distance fields -----

/// A field and what it should be.
struct FieldModel {
    field: DistanceField,
    connectivity: Connectivity,
    layer: GridLayer,
    /// The region asked for (unclipped).
    region: Region,
    max_units: u32,
    goals: BTreeMap<Cell, u32>,
    flee: Option<f32>,
    /// Cells edited since the field last computed or repaired.
    changed: Vec<Cell>,
}

impl FieldModel {
    fn scale(&self) -> u64 {
        match self.connectivity {
            Connectivity::Four => 1,
            Connectivity::Eight => OCTILE_STRAIGHT,
        }
    }

    /// The region clipped to the grid, or `None` if it misses it.
    fn clipped(&self, grid: &Grid) -> Option<Region> {
        let r = self.region;
        let x0 = r.min.x.max(0);
        let y0 = r.min.y.max(0);
        let x1 = i64::from(r.max.x).min(i64::from(grid.width()) - 1);
        let y1 = i64::from(r.max.y).min(i64::from(grid.height()) - 1);
        (i64::from(x0) <= x1 && i64::from(y0) <= y1)
            .then(|| Region::new(Cell::new(x0, y0), Cell::new(x1 as i32, y1 as i32)))
    }
}

/// The field's expected units per grid cell, or `None` if the field must overflow.
fn expected_field(m: &FieldModel, grid: &Grid) -> Option<Vec<Option<i64>>> {
    let Some(region) = m.clipped(grid) else {
        return Some(vec![None; grid.len()]);
    };
    let inside = |c: Cell| region.contains(c);
    let eight = m.connectivity == Connectivity::Eight;
    let units = (OCTILE_STRAIGHT, OCTILE_DIAGONAL);
    let units = if eight { units } else { (1, 1) };
    let scale = m.scale();
    let sources: Vec<(Cell, u64)> = m
        .goals
        .iter()
        .filter(|&(&c, _)| inside(c) && grid.is_passable(c, m.layer))
        .map(|(&c, &start)| (c, u64::from(start) * scale))
        .collect();
    let chase = reference_field_units(grid, m.layer, &sources, eight, units, inside);
    let natural = m.max_units == DistanceField::MAX_UNITS;
    let max = u64::from(DistanceField::MAX_UNITS);
    if natural && chase.iter().flatten().any(|&u| u > max) {
        return None;
    }
    let chase: Vec<Option<u64>> = chase
        .into_iter()
        .map(|u| u.filter(|&u| u <= u64::from(m.max_units)))
        .collect();
    let Some(factor) = m.flee else {
        return Some(chase.iter().map(|u| u.map(|u| u as i64)).collect());
    };
    let top = chase.iter().flatten().copied().max().unwrap_or(0);
    let bias = (top as f64 * f64::from(factor)).ceil();
    if bias > max as f64 {
        return None;
    }
    let bias = bias as u64;
    let seeds: Vec<(Cell, u64)> = (0..grid.len())
        .filter_map(|i| {
            let u = chase[i]?;
            let scaled = (u as f64 * f64::from(factor)).round() as u64;
            Some((grid.cell_of(i).unwrap(), bias - scaled.min(bias)))
        })
        .collect();
    let flee = reference_field_units(grid, m.layer, &seeds, eight, units, inside);
    Some(
        flee.iter()
            .map(|u| u.map(|u| u as i64 - bias as i64))
            .collect(),
    )
}

/// The cost of a legal step from `c` in `d` inside `region` in field units, if legal.
fn field_step(m: &FieldModel, grid: &Grid, region: Region, c: Cell, d: Direction8) -> Option<u64> {
    let open = |c: Cell| region.contains(c) && grid.is_passable(c, m.layer);
    let n = c.step(d);
    if !open(n) {
        return None;
    }
    let cost = u64::from(grid.cost(n, m.layer));
    if d.is_diagonal() {
        let (dx, dy) = d.offset();
        if !open(Cell::new(c.x + dx, c.y)) || !open(Cell::new(c.x, c.y + dy)) {
            return None;
        }
        return Some(cost * OCTILE_DIAGONAL);
    }
    Some(cost * m.scale())
}

/// Checks a computed field against the reference, value by value, and its walks.
fn check_field(m: &FieldModel, grid: &Grid, result: Result<(), FieldError>, covered: &mut Covered) {
    covered.field_checks += 1;
    let f = &m.field;
    let Some(expected) = expected_field(m, grid) else {
        assert_eq!(
            result,
            Err(FieldError::DistanceOverflow {
                max_units: DistanceField::MAX_UNITS
            })
        );
        assert_eq!(f.state(), FieldState::Overflowed);
        assert_none_everywhere(f, grid);
        covered.errors_checked += 1;
        return;
    };
    if result.is_err() {
        eprintln!(
            "field model: goals={:?} field goals={:?} kinds={:?}",
            m.goals,
            f.goals().collect::<Vec<_>>(),
            m.goals.keys().map(|&c| grid.get(c)).collect::<Vec<_>>()
        );
    }
    assert_eq!(result, Ok(()));
    assert_eq!(f.state(), FieldState::Ready);
    assert_eq!(f.is_flee(), m.flee.is_some());
    for (i, want) in expected.iter().enumerate() {
        let c = grid.cell_of(i).unwrap();
        let got = f.units(c);
        // A field gives no value to a blocked cell.
        let want = want.filter(|_| grid.is_passable(c, m.layer));
        if got != want {
            eprintln!(
                "field model: flee={:?} conn={:?} layer={:?} region={:?} max={} goals={:?}\n{grid:?}",
                m.flee, m.connectivity, m.layer, m.region, m.max_units, m.goals
            );
        }
        assert_eq!(got, want, "units at {c}");
    }
    let Some(region) = m.clipped(grid) else {
        return;
    };
    let eight = m.connectivity == Connectivity::Eight;
    for i in 0..grid.len() {
        let c = grid.cell_of(i).unwrap();
        let Some(here) = f.units(c) else { continue };
        let offers = Direction8::ALL
            .into_iter()
            .filter(|d| eight || !d.is_diagonal())
            .filter_map(|d| {
                let step = field_step(m, grid, region, c, d)?;
                Some((d, f.units(c.step(d))? + step as i64))
            });
        let best = offers.clone().map(|(_, v)| v).min();
        match f.next_step(c) {
            Some(d) => {
                let total = offers
                    .clone()
                    .find(|&(o, _)| o == d)
                    .map(|(_, v)| v)
                    .expect("next_step takes an illegal step");
                assert!(total <= here, "next_step at {c} goes uphill");
                assert_eq!(Some(total), best, "next_step at {c} is not the best");
            }
            None => assert!(
                best.is_none_or(|b| b > here),
                "next_step at {c} stays although {best:?} <= {here}"
            ),
        }
        if eight {
            let p = f.path8(c);
            assert_eq!(p.peek(), f.next_step(c));
        } else {
            let p = f.path(c);
            assert_eq!(p.peek().map(Direction8::from), f.next_step(c));
        }
    }
}

fn assert_none_everywhere(f: &DistanceField, grid: &Grid) {
    for i in 0..grid.len() {
        let c = grid.cell_of(i).unwrap();
        assert_eq!(
            f.units(c),
            None,
            "a field that must not answer answered at {c}"
        );
        assert_eq!(f.next_step(c), None);
    }
}

fn field_op(
    rng: &mut StdRng,
    grid: &Grid,
    layer: GridLayer,
    slot: &mut Option<FieldModel>,
    covered: &mut Covered,
    op: &mut String,
) {
    let Some(m) = slot else {
        let connectivity = if rng.random_bool(0.5) {
            Connectivity::Eight
        } else {
            Connectivity::Four
        };
        let region = if rng.random_bool(0.6) {
            Region::new(
                Cell::new(0, 0),
                Cell::new(grid.width() as i32 - 1, grid.height() as i32 - 1),
            )
        } else {
            let c = any_cell(rng, grid);
            Region::around(c, rng.random_range(0..20))
        };
        let _ = write!(
            op,
            "DistanceField::bounded({region:?}, {connectivity:?}, {layer:?})"
        );
        let field = DistanceField::try_bounded(grid, layer, connectivity, region).unwrap();
        assert_eq!(field.state(), FieldState::NotComputed);
        assert_none_everywhere(&field, grid);
        *slot = Some(FieldModel {
            field,
            connectivity,
            layer,
            region,
            max_units: DistanceField::MAX_UNITS,
            goals: BTreeMap::new(),
            flee: None,
            changed: Vec::new(),
        });
        return;
    };
    let ready = m.field.state() == FieldState::Ready;
    match rng.random_range(0..100) {
        0..25 => {
            let c = any_cell(rng, grid);
            let start = match rng.random_range(0..20) {
                0 => u32::MAX - rng.random_range(0..3),
                1 => DistanceField::MAX_UNITS / m.scale() as u32 - rng.random_range(0..5000),
                _ => rng.random_range(0..30),
            };
            let _ = write!(op, "add_goal({c}, {start})");
            let state = m.field.state();
            m.field.add_goal(c, start);
            if m.clipped(grid).is_some_and(|r| r.contains(c)) {
                m.goals.insert(c, start);
                after_goal_change(m, grid, ready, covered);
            } else {
                // Outside the region: dropped, nothing changes.
                assert_eq!(m.field.state(), state);
            }
        }
        25..35 => {
            let c = if rng.random_bool(0.7) && !m.goals.is_empty() {
                *m.goals
                    .keys()
                    .nth(rng.random_range(0..m.goals.len()))
                    .unwrap()
            } else {
                any_cell(rng, grid)
            };
            let _ = write!(op, "remove_goal({c})");
            m.field.remove_goal(c);
            let had = m.goals.remove(&c).is_some();
            if had {
                after_goal_change(m, grid, ready, covered);
            } else if ready && m.changed.is_empty() {
                check_field(m, grid, Ok(()), covered);
            }
        }
        35..40 => {
            let _ = write!(op, "clear_goals");
            m.field.clear_goals();
            m.goals.clear();
            if ready {
                assert_eq!(m.field.state(), FieldState::Stale);
            }
            if m.field.state() != FieldState::Ready {
                assert_none_everywhere(&m.field, grid);
            }
        }
        40..60 => {
            let _ = write!(op, "compute (goals {:?})", m.goals);
            let r = m.field.compute(grid).map(|_| ());
            m.changed.clear();
            check_field(m, grid, r, covered);
        }
        60..75 => {
            let mut changed = std::mem::take(&mut m.changed);
            if rng.random_bool(0.3) {
                changed.push(any_cell(rng, grid));
            }
            let _ = write!(op, "repair({changed:?})");
            let r = m.field.repair(grid, &changed).map(|_| ());
            check_field(m, grid, r, covered);
        }
        75..85 => {
            let factor = match rng.random_range(0..10) {
                0 => [0.0, -1.2, f32::NAN, f32::INFINITY, -0.0][rng.random_range(0..5usize)],
                _ => rng.random_range(0.1..3.0),
            };
            let _ = write!(op, "flee({factor})");
            let before: Vec<_> = (0..grid.len())
                .map(|i| m.field.units(grid.cell_of(i).unwrap()))
                .collect();
            let state = m.field.state();
            let r = m.field.flee(grid, factor);
            if !(factor.is_finite() && factor > 0.0) {
                assert_eq!(r, Err(FieldError::InvalidFleeFactor));
                assert_eq!(m.field.state(), state);
                let after: Vec<_> = (0..grid.len())
                    .map(|i| m.field.units(grid.cell_of(i).unwrap()))
                    .collect();
                assert_eq!(after, before, "a refused flee changed the field");
                covered.errors_checked += 1;
                return;
            }
            m.flee = Some(factor);
            if m.changed.is_empty() || !ready {
                m.changed.clear();
                check_field(m, grid, r.map(|_| ()), covered);
            } else {
                // Flee of a ready chase field rescans its values without reading the
                // grid: bring it up to date first, as a user would, then compare.
                let changed = std::mem::take(&mut m.changed);
                let r = m.field.repair(grid, &changed).map(|_| ());
                check_field(m, grid, r, covered);
            }
        }
        85..93 => {
            let max_cost = match rng.random_range(0..6) {
                0 => f64::INFINITY,
                1 => -3.0,
                2 => f64::NAN,
                _ => rng.random_range(0.0..40.0),
            };
            let _ = write!(op, "with_max_distance({max_cost})");
            let field = std::mem::replace(
                &mut m.field,
                DistanceField::new(&Grid::default(), layer, m.connectivity),
            );
            m.field = field.with_max_distance(max_cost);
            let units = (max_cost.max(0.0) * m.scale() as f64).floor();
            let new = if units.is_nan() || units >= f64::from(DistanceField::MAX_UNITS) {
                DistanceField::MAX_UNITS
            } else {
                units as u32
            };
            if ready && new != m.max_units {
                assert_eq!(m.field.state(), FieldState::Stale);
                assert_none_everywhere(&m.field, grid);
            }
            m.max_units = new;
        }
        93..96 => {
            let _ = write!(op, "compute on a grid of another size");
            let other = Grid::new(grid.width() + 1, grid.height()).unwrap();
            assert!(matches!(
                m.field.compute(&other),
                Err(FieldError::GridMismatch { .. })
            ));
            assert!(matches!(
                m.field.repair(&other, &[]),
                Err(FieldError::GridMismatch { .. })
            ));
            covered.errors_checked += 1;
        }
        _ => {
            let cell = extreme_cell(rng, grid);
            let _ = write!(op, "combined_next_step({cell})");
            let step = combined_next_step(&[(&m.field, 1.0), (&m.field, 0.5)], cell);
            // A unit anywhere, even outside the field, may only be sent to a reached
            // neighbour that improves on where it stands.
            if let Some(d) = step {
                let n = cell.step(d);
                let there = m.field.distance(n).expect("sent to an unreached cell");
                if let Some(here) = m.field.distance(cell) {
                    assert!(there < here, "combined_next_step goes uphill at {cell}");
                }
            }
            if rng.random_bool(0.3) {
                *slot = None;
            }
        }
    }
}

/// After a goal changed: a ready chase field is up to date at once (when the grid
/// has not changed under it); any other field that was ready is stale.
fn after_goal_change(m: &mut FieldModel, grid: &Grid, ready: bool, covered: &mut Covered) {
    if !ready {
        assert_ne!(m.field.state(), FieldState::Ready);
        return;
    }
    if m.flee.is_some() {
        assert_eq!(m.field.state(), FieldState::Stale);
        assert_none_everywhere(&m.field, grid);
    } else if m.changed.is_empty() {
        let result = match m.field.state() {
            FieldState::Overflowed => Err(FieldError::DistanceOverflow {
                max_units: DistanceField::MAX_UNITS,
            }),
            _ => Ok(()),
        };
        check_field(m, grid, result, covered);
    }
}

// ----- next-hop tables -----

struct TableModel {
    table: NextHopTable,
    changed: Vec<Cell>,
}

fn table_op(
    rng: &mut StdRng,
    grid: &Grid,
    layer: GridLayer,
    slot: &mut Option<TableModel>,
    covered: &mut Covered,
    op: &mut String,
) {
    if grid.len() > 600 {
        return;
    }
    let Some(t) = slot else {
        let conn = if rng.random_bool(0.5) {
            Connectivity::Eight
        } else {
            Connectivity::Four
        };
        let slots = if rng.random_bool(0.5) {
            Slots::AllCells
        } else {
            Slots::Passable
        };
        let threads = rng.random_range(1..=3);
        let limit = if rng.random_bool(0.1) {
            rng.random_range(0..20_000)
        } else {
            u64::MAX
        };
        let _ = write!(
            op,
            "table build {conn:?} {slots:?} threads={threads} limit={limit}"
        );
        let builder = NextHopTable::builder(layer)
            .connectivity(conn)
            .slots(slots)
            .threads(threads)
            .memory_limit(limit);
        let estimate = builder.estimate(grid);
        match builder.build(grid) {
            Ok(table) => {
                assert!(estimate.total_bytes <= limit);
                *slot = Some(TableModel {
                    table,
                    changed: Vec::new(),
                });
            }
            Err(e) => {
                assert_eq!(
                    e,
                    TableError::TooLarge {
                        needed: estimate.total_bytes,
                        limit
                    }
                );
                covered.errors_checked += 1;
                return;
            }
        }
        check_table(rng, grid, slot.as_ref().unwrap(), covered);
        return;
    };
    if rng.random_bool(0.1) {
        let _ = write!(op, "table update on a grid of another size");
        let other = Grid::new(grid.width(), grid.height() + 1).unwrap();
        assert!(matches!(
            t.table.update(&other, &[]),
            Err(TableError::GridMismatch { .. })
        ));
        covered.errors_checked += 1;
        return;
    }
    let mut changed = std::mem::take(&mut t.changed);
    if rng.random_bool(0.2) {
        changed.push(extreme_cell(rng, grid));
    }
    let _ = write!(op, "table update({changed:?})");
    match t.table.update(grid, &changed) {
        Ok(_) => check_table(rng, grid, t, covered),
        Err(TableError::TooLarge { needed, limit }) => {
            // Documented: opening a cell outside the slots rebuilds, and a rebuild
            // above the table's memory limit is refused part-way through the edits.
            assert!(needed > limit);
            covered.errors_checked += 1;
            *slot = None;
        }
        Err(e) => panic!("table update: {e}"),
    }
}

fn check_table(rng: &mut StdRng, grid: &Grid, t: &TableModel, covered: &mut Covered) {
    let table = &t.table;
    let layer = table.layer();
    let eight = table.connectivity() == Connectivity::Eight;
    for _ in 0..8 {
        covered.table_checks += 1;
        let from = any_cell(rng, grid);
        let to = any_cell(rng, grid);
        let open = |c: Cell| grid.is_passable(c, layer);
        if !grid.contains(from) || !grid.contains(to) {
            assert!(!table.is_reachable(from, to));
            assert_eq!(table.next_step(from, to), None);
            assert_eq!(table.distance(from, to), None);
            continue;
        }
        if !open(from) || !open(to) {
            let _ = (table.next_step(from, to), table.distance(from, to));
            continue;
        }
        let dist = reference_dijkstra(grid, layer, from, eight, |_| true);
        let want = dist[grid.index_of(to).unwrap()];
        assert_eq!(table.is_reachable(from, to), want.is_some(), "{from}->{to}");
        match (table.distance(from, to), want) {
            (Some(a), Some(b)) => assert!(close(a, b), "{from}->{to}: {a} != {b}"),
            (a, b) => assert_eq!(a, b, "{from}->{to}"),
        }
        match table.next_step(from, to) {
            Some(d) => {
                let n = from.step(d);
                let (_, step) = walk(grid, layer, from, std::iter::once(d));
                let rest = reference_dijkstra(grid, layer, n, eight, |_| true);
                let rest = rest[grid.index_of(to).unwrap()].expect("a step off the route");
                assert!(close(step + rest, want.unwrap()), "{from}->{to}: {d:?}");
            }
            None => assert!(from == to || want.is_none(), "{from}->{to}: no step"),
        }
        let hops: Vec<_> = table.hops(from, to).collect();
        if let Some(want) = want {
            let (end, cost) = walk(grid, layer, from, hops.iter().map(|&(d, _)| d));
            assert_eq!(end, to);
            assert!(close(cost, want));
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
        assert_eq!(grid.cost(a, GridLayer::ALL_PASSABLE), 0);
    }
}
